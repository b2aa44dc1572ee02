"""Digimon ordering rules as plain functions (no pluggy here).

Each function cites the Comprehensive Rules (CR) Ver.4.2 section it applies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tcgtrig import (
    ActivationContext,
    BattleResult,
    Card,
    CardIds,
    Drop,
    GameEnd,
    GameState,
    Move,
    PendingEffect,
    Together,
)
from tcgtrig.games.words import card_argument, flag_word, move_word

from .attack import REVEALED, WORDS

SECURITY_TAG = "security"
SOURCES = "sources"
LEFT = "its card moved (left its area or became a new card) before it activated (CR 15-4-4-3)"
LOST_EFFECT_DIGIVOLVED = (
    "its Digimon digivolved: the card became a digivolution card — the same card "
    "(CR 3-1-3-1-3), but the Digimon no longer has the effect (CR 15-4-4-4)"
)


def rank(state: GameState, effect: PendingEffect) -> tuple[int, int, int]:
    """Lower goes first.

    In the pending set: ``[Security]`` effects first (15-16-10-2), then the
    newest batch of triggers — derived effects above every older pending
    effect, the opponent's too (15-4-5-2/3) — then the turn player before
    the opponent inside a batch (15-4-3-5).

    Inside an interrupt window: "instead"/"can't" replacements first, then
    the interrupts, turn player first (15-8-5).
    """
    player = 0 if effect.controller == state.turn_player else 1
    if effect.window == "interrupt":
        return (0 if effect.kind == "replacement" else 1, -effect.timing, player)
    return (0 if SECURITY_TAG in effect.tags else 1, -effect.timing, player)


def order_rule(first: PendingEffect, then: PendingEffect) -> str:
    """The rule of :func:`rank` that puts ``first`` ahead of ``then``: the
    first part of their ranks that differs, or, where they are equal, the
    turn player's (then the opponent's) choice among their own."""
    if first.window == "interrupt":
        if first.rank[0] != then.rank[0]:
            return "'instead' and 'can't' replacements go before 'when … would' interrupts (CR 15-8-5)"
        if first.rank[1] != then.rank[1]:
            return "the newer interrupts first (CR 15-4-5-2/3)"
        if first.rank[2] != then.rank[2]:
            return "the turn player's replacements and interrupts first (CR 15-8-5)"
        return f"{first.controller} orders their own replacements and interrupts as they choose (CR 15-4-3-5)"
    if first.rank[0] != then.rank[0]:
        return "[Security] effects activate before the effects triggered with them (CR 15-16-10-2)"
    if first.rank[1] != then.rank[1]:
        return "the newer priority layer first: it goes above every older pending effect (CR 15-4-5-2/3)"
    if first.rank[2] != then.rank[2]:
        return "the turn player's effects first within a priority layer (CR 15-4-3-5)"
    return f"{first.controller} orders their own effects within a priority layer as they choose (CR 15-4-3-5)"


def details(effect: PendingEffect) -> dict[str, Any] | None:
    """The wiki's priority number: how deep the effect was derived."""
    if effect.window != "main":
        return None
    return {"priority": effect.depth}


def not_a_digivolution(state: GameState, effect: PendingEffect, point: str) -> Drop | None:
    """A card put on a Tamer (a digivolution requirement that digivolves
    from a Tamer) digivolves from the Tamer as such, not from a Digimon:
    "when digivolving" and "when a Digimon digivolves" effects don't
    trigger (Q&A Q6698).  An effect every one of whose triggering events
    is such a digivolution never triggered."""
    if point != "admission" or not effect.events:
        return None
    for event in effect.events:
        if "digivolved" not in event.names() or event.card is None:
            return None
        covered = state.under(event.card)
        if not covered or not covered[0].types or "digimon" in covered[0].types:
            return None  # from a Digimon (a card without types is taken for one)
    return Drop("void")


def lost(state: GameState, effect: PendingEffect) -> Drop | None:
    """A pending effect is lost when what it waits on moved since it
    triggered (15-4-4-3..4):

    - its own card: left its area or became a new card (15-4-4-3), or was
      covered by digivolving — not a new card (3-1-3-1-3), but the Digimon
      no longer has the effect (15-4-4-4);
    - an inherited effect working from the pile: the digivolution card
      left the pile, so the Digimon lost the effect (15-4-4-4), or the
      Digimon itself left (15-4-4-3);
    - an inherited effect that triggered as its Digimon left (an inherited
      [On Deletion]) is pending for that top card: lost if the top card
      moves again, whatever becomes of the card that printed it (15-8-3-5,
      Q&A Q4285 / Q4286);
    - an effect that watched another card's event and whose card left at
      that same moment (Digimon deleted together): triggered, but lost
      (15-4-4-3, Q&A Q1222 / Q2046).
    """
    card = state.cards.get(effect.card)
    top = state.cards.get(effect.self_card)
    if card is None or top is None:
        return Drop("lost", LEFT)
    if effect.looked_back and not any(event.card == effect.self_card for event in effect.events):
        # it watched another card's event and its own card left at that same moment
        return Drop(
            "lost",
            "its card left its area at the same moment: it triggered, but by the time it "
            "could activate its card was a new card (CR 15-4-4-3, Q&A Q1222/Q2046)",
        )
    if effect.granted:
        return _gained_lost(state, effect, card)
    if effect.self_card == effect.card:
        if card.incarnation == effect.incarnation:
            return None
        return Drop("lost", LOST_EFFECT_DIGIVOLVED if card.zone == SOURCES else LEFT)
    if effect.looked_back:
        if top.incarnation != effect.self_incarnation:
            return Drop(
                "lost", "the Digimon it is pending for moved again before it activated (CR 15-8-3-5, Q&A Q4285)"
            )
        return None
    if card.incarnation == effect.incarnation:
        return None
    if top.incarnation != effect.self_incarnation and top.zone != SOURCES:
        return Drop("lost", LEFT)
    return Drop("lost", "its Digimon lost the effect: the digivolution card that gives it left (CR 15-4-4-4)")


def _gained_lost(state: GameState, effect: PendingEffect, card: Card) -> Drop | None:
    """A gained effect belongs to the Digimon, whatever is put on top of its
    card or removed from its pile (15-13-2, Q&A Q969); it is lost when the
    Digimon leaves or the effect ends."""
    if effect.looked_back:
        return None if card.incarnation == effect.incarnation else Drop("lost", LEFT)
    if state.holder_of(effect.grant) is not None:
        return None
    return Drop(
        "lost",
        "its Digimon no longer has the gained effect: it left its area or the effect ended (CR 15-13-2, 15-4-4-3)",
    )


def blocked(effect: PendingEffect, context: ActivationContext) -> str | None:
    """An interrupt activates at most once until the action that first
    interrupted is resolved (15-8-5-4)."""
    if context.window == "interrupt" and effect.key in context.series:
        return "already activated in this series of interrupts (CR 15-8-5-4)"
    return None


#: the timing an ability's trigger event gives it, for "its [X] effects don't activate"
TIMINGS = {
    "played": "on_play",
    "digivolved": "when_digivolving",
    "attacking": "when_attacking",
    "deleted": "on_deletion",
    "end_of_attack": "end_of_attack",
}
#: the flag that forbids every effect of the Digimon that carries it
CANT_ACTIVATE = "cant_activate"
#: tags of a triggered ability printed without a timing icon (CR 15-16-1: a timing is an icon in
#: brackets): a keyword effect (16-1; <Raid> triggers as its Digimon attacks, 16-23-2) or a
#: "When this Digimon attacks" text — not [When Attacking] effects (Q&A Q1970)
UNTIMED = frozenset({"keyword", "untimed"})


def timings(effect: PendingEffect) -> set[str]:
    """The effect's timings, for "its [X] effects don't activate": the tags
    it carries, and the timing its trigger event gives it — unless it is
    printed without that icon (a tag of :data:`UNTIMED`): <Raid> triggers
    on ``attacking`` like a [When Attacking] effect, yet is not one (Q&A
    Q1970, CR 15-16-1)."""
    ability = effect.ability
    tags = set(ability.tags)
    when = ability.when
    if when is not None and UNTIMED.isdisjoint(tags):
        tags.add(TIMINGS.get(when.event, ""))
    return tags


def forbidden(state: GameState, effect: PendingEffect) -> str | None:
    """A persistent effect forbids activation (CR 15-8-2; Q3166 "that
    Digimon's [When Digivolving] effects don't activate"): the flag
    ``cant_activate`` on the Digimon (the card ``self`` means) forbids all
    its effects; ``no_TIMING`` those of one timing — ``on_play``,
    ``when_digivolving``, ``when_attacking``, ``on_deletion``,
    ``end_of_attack`` (read from the trigger event, :func:`timings`) or a
    tag the ability carries."""
    card = state.cards.get(effect.self_card)
    if card is None or not card.flags:
        return None
    if CANT_ACTIVATE in card.flags:
        return "a persistent effect says its effects can't activate (CR 15-8-2)"
    for timing in sorted(timings(effect)):
        if timing and f"no_{timing}" in card.flags:
            return (
                f"a persistent effect says its [{timing.replace('_', ' ').title()}] effects don't activate (CR 15-8-2)"
            )
    return None


def is_digimon(card: Card) -> bool:
    if card.types:
        return "digimon" in card.types
    return card.base_stat("dp") is not None


def rules_processing(state: GameState, view: Any, changed: Sequence[str]) -> list[Any]:
    """Rules processing (17-1): all at the same time,

    - delete every Digimon in the battle area with 0 DP or less;
    - trash level-2 cards without DP (Digi-Eggs) and option cards left in
      the battle area (unless flagged ``placed`` by an effect).

    Only the cards that changed need a look, unless a continuous ability
    could have changed anyone's DP.
    """
    if view.continuous:
        candidates = list(state.in_zone("battle"))
    else:
        candidates = [state.cards[c] for c in changed if state.cards[c].zone == "battle"]
    deleted: list[str] = []
    trashed: list[str] = []
    for card in candidates:
        dp = view.stat(card.id, "dp")
        if is_digimon(card) and dp is not None and dp <= 0:
            deleted.append(card.id)
        elif "digi-egg" in card.types or (card.base_stat("level") == 2 and dp is None):
            trashed.append(card.id)
        elif "option" in card.types and "placed" not in card.flags:
            trashed.append(card.id)
    actions = []
    if deleted:
        actions.append(Move(card=CardIds(tuple(deleted)), to="trash", as_="deleted", by="rule"))
    if trashed:
        actions.append(Move(card=CardIds(tuple(trashed)), to="trash", as_="trashed", by="rule"))
    if not actions:
        return []
    return [Together(actions=tuple(actions))] if len(actions) > 1 else actions


MEMORY = "memory"
MEMORY_CAP = 10


def linked_counters(state: GameState, player: str, counter: str, value: int) -> dict[str, int] | None:
    """One memory gauge shared by both players: memory on one side is the
    other side's negative, and it never passes 10 (CR 1-4-2-1..3, 4-1-4)."""
    if counter != MEMORY:
        return None
    value = max(-MEMORY_CAP, min(MEMORY_CAP, value))
    return {player: value, state.opponent(player): -value}


def turn_ends(state: GameState) -> str | None:
    """After all processing, memory on the opponent's side (1 or more) ends
    the turn (6-1-4-1, 6-6; Q&A Q1248: not while anything is still pending)."""
    memory = state.counter(state.turn_player, MEMORY)
    if memory >= 0:
        return None
    other = state.opponent(state.turn_player)
    return f"memory is at {-memory} on {other}'s side after all processing (CR 6-1-4-1)"


def describe_counters(state: GameState) -> list[str]:
    """The memory gauge as one marker, then any other counters."""
    first = state.players[0]
    memory = state.counter(first, MEMORY)
    if memory == 0:
        parts = ["memory 0"]
    else:
        side = first if memory > 0 else state.opponent(first)
        parts = [f"memory {abs(memory)} on {side}'s side"]
    for player in state.players:
        others = ", ".join(f"{k} {v}" for k, v in sorted(state.counters.get(player, {}).items()) if k != MEMORY)
        if others:
            parts.append(f"{player}: {others}")
    return parts


def endless(reason: str, stoppable: bool | None) -> GameEnd:
    """CR 18-3: an endless loop no player can stop is a draw; one a player
    can stop repeats as many times as the players declare (turn player
    first), so it is not a draw — the script must make the choice that ends
    it."""
    if stoppable:
        return GameEnd(
            "loop",
            f"{reason}; a player can stop this loop by choosing differently: under CR 18-3 "
            "the turn player, then the non-turn player, declares how many times it repeats "
            "(script the choice that ends it)",
        )
    if stoppable is None:
        return GameEnd("draw", f"{reason}; treated as an endless loop, a draw (CR 18-3)")
    return GameEnd("draw", f"{reason}; an endless loop that no player can stop ends the game in a draw (CR 18-3)")


# -- the game's words ----------------------------------------------------------


def _digivolve(arg: Any) -> dict[str, Any]:
    if not isinstance(arg, dict) or set(arg) != {"card", "into"}:
        raise ValueError("expected {card: the Digimon, into: the card it digivolves into}")
    return {"stack": {"card": arg["into"], "onto": arg["card"], "as": "digivolved"}}


def _dna_digivolve(arg: Any) -> dict[str, Any]:
    """DNA digivolution (CR 8-2): the revealed card is placed in the battle
    area, unsuspended, and the Digimon it is made from — each with its own
    digivolution cards — become its digivolution cards, at one moment.
    They are new cards (8-2-2-1-2): their flags, changes and gained
    effects end, an attacking one is no longer present (8-2-2-1-3/5), and
    their per-turn uses are the new Digimon's (8-2-2-1-6).  The new
    Digimon's event is ``digivolved`` ([When Digivolving], 8-2-2-5)."""
    if (
        not isinstance(arg, dict)
        or set(arg) != {"card", "from"}
        or not isinstance(arg["from"], list)
        or len(arg["from"]) < 2
    ):
        raise ValueError("expected {card: the DNA Digimon, from: [the Digimon it is made from, …]} (two or more)")
    into = arg["card"]
    return {
        "together": [
            {"move": {"card": into, "to": "battle", "as": "digivolved"}},
            *({"move": {"card": part, "to": "sources", "under": into}} for part in arg["from"]),
        ]
    }


def _memory(arg: Any) -> dict[str, Any]:
    if isinstance(arg, bool) or not isinstance(arg, int):
        raise ValueError("expected a number of memory (negative to lose)")
    word = "gain" if arg >= 0 else "lose"
    return {word: {"counter": "memory", "amount": abs(arg)}}


def _use(arg: Any) -> dict[str, Any]:
    card, modifiers = card_argument(arg)
    return {"emit": {"event": "used", "card": card, **modifiers}}


def battle_result(state: GameState, card: str, against: str | None, stat: Any) -> BattleResult | None:
    """A battle (CR 14): the DP are compared, the lower loses and is
    deleted, both when equal (14-2-1, 14-2-2) — except a Security Digimon,
    which loses without being deleted (14-2-3).  A direct attack is a
    security check, not a battle: nothing happens."""
    if against is None:
        return BattleResult()
    mine, theirs = stat(card, "dp") or 0, stat(against, "dp") or 0
    winner = card if mine > theirs else against if theirs > mine else None
    losers = tuple(c for c in (card, against) if c != winner)
    deleted = tuple(c for c in losers if state.cards[c].zone != REVEALED)
    return BattleResult(destroyed=deleted, winner=winner, losers=losers)


ALIASES = {
    "delete": move_word("trash", "deleted"),
    "play": move_word("battle", "played"),
    "trash": move_word("trash", "trashed"),
    "bounce": move_word("hand", "returned"),
    "trash_top": move_word("trash", "trashed", alone=True),
    "suspend": flag_word("set", "suspended", "suspended"),
    "unsuspend": flag_word("clear", "suspended", "unsuspended"),
    "digivolve": _digivolve,
    "dna_digivolve": _dna_digivolve,
    **WORDS,
    "memory": _memory,
    "use": _use,
}
