"""Duel Masters ordering rules as plain functions (no pluggy here).

Rule numbers are those of the 総合ゲームルール (comprehensive rules); "rule N"
without a number of that form is the wiki page's numbered list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tcgtrig import ActivationContext, Card, CardIds, Event, GameEnd, GameState, Move, PendingEffect
from tcgtrig.games.words import card_argument, flag_word, move_word

#: Tags of the Shield Trigger class: they go before every other waiting
#: ability (rule 7, 101.4d).
SHIELD_TRIGGER_CLASS = ("shield_trigger", "strike_back", "g_strike")
_SHIELD_TRIGGER_TAGS = frozenset(SHIELD_TRIGGER_CLASS)
#: "Before break" abilities (603.7, 509.4): before ordinary ones.
BEFORE_BREAK = "before_break"
#: Abilities whose use is declared before they are processed (506.3b/c, 603.2e).
DECLARED = SHIELD_TRIGGER_CLASS + ("ninja_strike", "revolution_change", "declare")

CLASS_NAMES = ("shield trigger", "before break", "ordinary")


def ability_class(effect: PendingEffect) -> int:
    """0: Shield Trigger / Strike Back / G-Strike, 1: before break, 2: ordinary."""
    tags = effect.tags
    if not tags:
        return 2  # most abilities carry no tag: asked twice per ability, so said first
    if not _SHIELD_TRIGGER_TAGS.isdisjoint(tags):
        return 0
    if BEFORE_BREAK in tags:
        return 1
    return 2


def rank(state: GameState, effect: PendingEffect) -> tuple[int, int]:
    """Lower goes first.

    In the waiting pool: the Shield Trigger class first, then "before
    break" abilities, then ordinary ones (rule 7); inside a class the active
    player's before the non-active player's (rules 4–5).  No batch number:
    an ability that triggers later joins the same pool, so an active-player
    ability that triggers while a non-active player's resolves goes ahead of
    the non-active player's remaining ones (rule 5, 511.1e).

    Before an event (substitution, "instead"): the turn player's first
    (609.9).
    """
    player = state.seat(effect.controller)  # the active player 0, then the others in turn order
    if effect.window == "interrupt":
        return (0 if effect.kind == "replacement" else 1, player)
    return (ability_class(effect), player)


#: rules 4–5: whose waiting abilities go first
ACTIVE_FIRST = "the active player's waiting abilities first, then the other players' in turn order (rules 4–5)"


def order_rule(first: PendingEffect, then: PendingEffect) -> str:
    """The rule of :func:`rank` that puts ``first`` ahead of ``then``: the
    class, then the side (whose turn it is), then the player's own choice."""
    if first.window == "interrupt":
        if first.rank[0] != then.rank[0]:
            return "a substitution (置換効果) applies before the event's 'when … would' abilities"
        replacement = first.kind == "replacement"
        if first.rank[1] != then.rank[1]:
            if replacement:
                return "the turn player decides their substitutions first, then all apply at once (609.9)"
            return ACTIVE_FIRST
        if replacement:
            return f"{first.controller} decides their own substitutions as they choose (609.9)"
        return f"{first.controller} resolves their own abilities in the order they choose (rule 3)"
    if first.rank[0] != then.rank[0]:
        if first.rank[0] == 0:
            return (
                "Shield Triggers, Strike Backs and G-Strikes go before every other waiting ability, even the "
                "active player's (rule 7, 101.4d)"
            )
        return "'before break' abilities go before ordinary ones (603.7, 509.4)"
    if first.rank[1] != then.rank[1]:
        return ACTIVE_FIRST
    return f"{first.controller} resolves their own waiting abilities in the order they choose (rule 3)"


def details(state: GameState, effect: PendingEffect) -> dict[str, Any] | None:
    """The ability's class in the waiting pool, and whether its player is
    the active one (who resolves first)."""
    if effect.window != "main":
        return None
    return {
        "class": CLASS_NAMES[ability_class(effect)],
        "side": "active" if effect.controller == state.turn_player else "non-active",
    }


def declared(effect: PendingEffect) -> bool:
    """Usage declarations: the use of these is declared before the waiting
    abilities of their player are processed (506.3b/c, 511.1b–c)."""
    return any(tag in effect.tags for tag in DECLARED)


def look_back(card: Card, event: Event) -> bool:
    """A card that moved sees, of the events of that moment, only its own:
    one that left looks back in time only at its own event (603.5c), and
    one that arrived sees from its new zone only its own — it was not there
    when the others happened (official Q&A, 2020-10-23: a creature
    destroyed at the same time as another Dragon does not return itself
    from the graveyard "when another Dragon is destroyed")."""
    return event.card == card.id


def blocked(effect: PendingEffect, context: ActivationContext) -> str | None:
    """A substitution never applies twice to one event (置換効果).  Every
    ability that acts before an event is one: "instead" (``kind:
    replacement``), and "when A would happen, do B, then A" (``kind:
    interrupt``: the substitution's second form, the Duel Masters Wiki's
    "Substitution Effect" page).  The event and those that replace it are
    the series of the interrupt window."""
    if context.window == "interrupt" and effect.key in context.series:
        return "a substitution never applies twice to one event (置換効果)"
    return None


def is_creature(card: Card) -> bool:
    if card.types:
        return "creature" in card.types or "evolution" in card.types
    return card.base_stat("power") is not None


def state_check(state: GameState, view: Any, changed: Sequence[str]) -> list[Any]:
    """After static abilities applied — between resolutions, and between
    the actions of one resolution (``GameInfo.rules_between_actions``, Q&A
    46075) — every creature in the battle zone with power 0 or less is
    destroyed, all at once (rule 2).  Only changed cards need a look unless a static ability could
    have changed anyone's power."""
    if view.continuous:
        candidates = list(state.in_zone("battle"))
    else:
        candidates = [state.cards[c] for c in changed if state.cards[c].zone == "battle"]
    doomed = []
    for card in candidates:
        power = view.stat(card.id, "power")
        if is_creature(card) and power is not None and power <= 0:
            doomed.append(card.id)
    if not doomed:
        return []
    return [Move(card=CardIds(tuple(doomed)), to="graveyard", as_="destroyed", by="rule")]


def endless(reason: str, stoppable: bool | None) -> GameEnd:
    """An endless loop: a player who can stop it must (the script's choice
    ends it); one nobody can stop is a draw."""
    if stoppable:
        return GameEnd("loop", f"{reason}; a player can stop this loop by choosing differently")
    return GameEnd("draw", f"{reason}; an endless loop no player can stop ends the game in a draw")


# -- the game's words ----------------------------------------------------------


#: the flag of a creature that blocked, until the end of the attack (``end_of_attack``)
BLOCKING = "blocking"


def _attack(arg: Any) -> dict[str, Any]:
    """An attack is declared: the creature is tapped — event ``attacking``,
    its Attack Triggers."""
    card, _ = card_argument(arg)
    return {
        "together": [
            {"flag": {"card": card, "set": "tapped", "as": "tapped"}},
            {"emit": {"event": "attacking", "card": card}},
        ]
    }


def _block(arg: Any) -> dict[str, Any]:
    """A Blocker blocks: it is tapped and is blocking (the flag
    ``blocking``, until the end of the attack) — event ``blocked``; the
    battle is then ``battle: {card: ATTACKER, against: BLOCKER}``."""
    card, _ = card_argument(arg)
    return {
        "together": [
            {"flag": {"card": card, "set": "tapped", "as": "tapped"}},
            {"flag": {"card": card, "set": BLOCKING, "by": "rule"}},
            {"emit": {"event": "blocked", "card": card}},
        ]
    }


def _end_of_attack(arg: Any) -> list[dict[str, Any]]:
    """The attack ends (only in the start actions): the event
    ``end_of_attack`` ("at the end of the attack") and what it triggers
    resolve, then the blocker stops blocking (the flag ``blocking``), so
    "while blocking" stops applying.  "While attacking" (Power Attacker)
    reads the turn's history: the creature attacked and no attack has
    ended since."""
    if arg not in (None, {}):
        raise ValueError("end_of_attack takes no arguments: write {end_of_attack: {}}")
    return [
        {"emit": {"event": "end_of_attack", "player": "turn_player", "by": "rule"}},
        {"resolve_pending": {}},
        {"flag": {"card": {"flag": BLOCKING}, "clear": BLOCKING, "by": "rule"}},
    ]


def _power(arg: Any) -> dict[str, Any]:
    if not isinstance(arg, dict) or not {"card", "by"} <= set(arg) or set(arg) - {"card", "by", "until"}:
        raise ValueError("expected {card: the creature, by: a number of power, until: end_of_turn (optional)}")
    change = {"card": arg["card"], "stat": "power", "by": arg["by"]}
    if "until" in arg:
        change["until"] = arg["until"]
    return {"change": change}


def _cast(arg: Any) -> dict[str, Any]:
    card, modifiers = card_argument(arg)
    return {"emit": {"event": "cast", "card": card, **modifiers}}


ALIASES = {
    "destroy": move_word("graveyard", "destroyed"),
    "summon": move_word("battle", "summoned"),
    "put_into_battle": move_word("battle", "put_into_battle"),
    "break_shield": move_word("hand", "broken", **{"from": "shields"}),
    "tap": flag_word("set", "tapped", "tapped"),
    "untap": flag_word("clear", "tapped", "untapped"),
    "put_into_mana": move_word("mana", "put_into_mana"),
    "return_to_hand": move_word("hand", "returned"),
    "discard": move_word("graveyard", "discarded", **{"from": "hand"}),
    "add_shield": move_word("shields", "shield_added"),
    "attack": _attack,
    "block": _block,
    "end_of_attack": _end_of_attack,
    "power": _power,
    "cast": _cast,
}
