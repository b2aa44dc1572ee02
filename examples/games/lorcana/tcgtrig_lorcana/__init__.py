"""Disney Lorcana for tcgtrig: the bag (Comprehensive Rules, "the bag").

Written only against tcgtrig's public API, as any third-party game is, and
registered under the entry-point group ``tcgtrig.games``.  What it decides:

- **The bag.**  Triggered abilities go into the bag.  The active player
  resolves all of theirs, one at a time in the order they choose, then the
  next player in turn order resolves theirs (1.10: up to 8 players).  An ability that triggers while another
  resolves joins the bag: if it is the active player's, it is resolved
  before the other player's remaining ones.  One pool, ranked by "is it the
  active player's": :func:`tcgtrig_pending_rank`, cited in traces by
  :func:`tcgtrig_order_rule`.  Nothing is newer-first
  (no priority layers, as in Digimon) and nothing is last-in-first-out (no
  chain, as in Yu-Gi-Oh!).
- **Game state check.**  Between abilities, every character in play whose
  damage is at least its willpower is banished, all at once
  (:func:`tcgtrig_rules_processing`); "when banished" abilities then join
  the bag.
- **Each event** triggers a "whenever" ability once: three characters
  banished at once, three times (6.2.1, 7.4.3 and its example:
  ``GameInfo.trigger_multiplicity = "per_event"``).
- **Replacement effects** (6.5.5): one chance to replace an event, even
  if it is modified further — no second activation in the event's series
  of interrupts (:func:`tcgtrig_activation_blocked`).  Lorcana has no
  "when … would" triggered abilities (triggered abilities trigger on what
  happens, 7.4; a "would" is a replacement, 6.5.1 and 7.7):
  ``GameInfo.would_effects`` is off, and an interrupt written in another
  game's words never triggers.
- **Words** (:func:`tcgtrig_action_aliases`): ``banish``, ``exert``,
  ``ready``, ``deal_damage``, ``gain_lore``, ``ink`` (into the inkwell),
  ``discard``.

- **Challenges** (4.6.6): a ``battle`` puts damage counters equal to each
  character's Strength on the other, at once
  (:func:`tcgtrig_battle_result`); the game state check then banishes.

Not modelled: a player reaching 20 lore winning (the core's rules
processing returns actions, not a game end), the challenge declaration
and the quest step as rule steps (a scenario emits their events), the
game state check's results of several players in turn order (1.8.4: at
once here).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tcgtrig import ActivationContext, BattleResult, CardIds, GameInfo, GameState, Move, PendingEffect, hookimpl
from tcgtrig.games.words import card_argument, flag_word, move_word

if TYPE_CHECKING:
    from tcgtrig.printed import Reading

RULES = "Disney Lorcana Comprehensive Rules"

GAME_INFO = GameInfo(
    name="lorcana",
    title="Disney Lorcana",
    version="0.1.0",
    summary="the bag: the active player resolves all their triggered abilities first, in the order they choose",
    rules=RULES,
    resolution="immediate",
    trigger_multiplicity="per_event",  # once per trigger condition met: once per character banished (7.4.3)
    citations={"trigger_multiplicity": "CR 6.2.1, 7.4.3", "condition_on_resolution": "CR 7.4.4.2"},
    condition_on_resolution=True,  # a secondary condition is checked again as the ability resolves
    events=("banished", "damaged"),  # the game state check banishes characters; a challenge deals damage
    zones=("play", "discard", "inkwell", "deck", "hand"),
    stats=("strength", "willpower", "damage"),  # a challenge and the game state check read them
    battle_stat="strength",  # {S}: a challenge deals damage equal to it (4.6.6)
    zone_roles={"deck": "deck", "hand": "hand", "play": "field", "discard": "discard", "inkwell": "resource"},
    event_roles={
        "played": "put_into_play",
        "banished": "destroyed",
        "discarded": "discarded",
        "inked": "resourced",
        "exerted": "tapped",
        "readied": "untapped",
    },
    flag_roles={"exerted": "tapped"},
    stat_roles={"strength": "strength", "willpower": "toughness", "damage": "damage"},
    counter_roles={"lore": "score"},
    type_roles={"character": "unit", "action": "spell"},
    would_effects=False,  # triggered abilities trigger on what happens (7.4); "would" is a replacement (7.7)
    max_players=8,  # 1.10: three or more; 8 is as many as a scenario file may name
)


def _deal_damage(arg: Any) -> dict[str, Any]:
    """``deal_damage: {card: X, amount: N}``: N damage counters on X."""
    if not isinstance(arg, dict) or "amount" not in arg:
        raise ValueError("deal_damage takes {card: SEL, amount: N}")
    amount = arg["amount"]
    card, modifiers = card_argument({k: v for k, v in arg.items() if k != "amount"})
    return {"change": {"card": card, "stat": "damage", "by": amount, "as": "damaged", **modifiers}}


def _gain_lore(arg: Any) -> dict[str, Any]:
    """``gain_lore: N`` (the ability's controller) or ``{player: P, amount: N}``."""
    player, amount = (arg.get("player", "self"), arg.get("amount", 1)) if isinstance(arg, dict) else ("self", arg)
    if type(amount) is not int:
        raise ValueError("gain_lore takes a whole number, or {player: P, amount: N}")
    return {"gain": {"player": player, "counter": "lore", "amount": amount}}


WORDS = {
    "banish": move_word("discard", "banished", **{"from": "play"}),
    "exert": flag_word("set", "exerted", "exerted"),
    "ready": flag_word("clear", "exerted", "readied"),
    "ink": move_word("inkwell", "inked"),
    "discard": move_word("discard", "discarded", **{"from": "hand"}),
    "deal_damage": _deal_damage,
    "gain_lore": _gain_lore,
}


@hookimpl
def tcgtrig_game_info() -> GameInfo:
    return GAME_INFO


@hookimpl
def tcgtrig_read_text(text: str, types: Sequence[str]) -> Reading:
    """Lorcana's printed text read into abilities: one ability a line, its
    name in capitals kept as its id; "When you play this character",
    "Whenever this character quests/challenges", "When this character is
    banished", "At the start/end of your turn"; the common effect
    sentences (:mod:`tcgtrig_lorcana.reading`, ``lorcana.lark``)."""
    from .reading import READER

    return READER.read(text, types)


@hookimpl
def tcgtrig_action_aliases() -> dict[str, Any]:
    return dict(WORDS)


@hookimpl
def tcgtrig_pending_rank(state: GameState, effect: PendingEffect) -> tuple[int, ...]:
    """The bag: the active player's abilities first, then each other
    player's in turn order; among one player's, the player chooses (equal
    rank)."""
    return (state.seat(effect.controller),)


@hookimpl
def tcgtrig_order_rule(first: PendingEffect, then: PendingEffect) -> str:
    """Why ``first`` leaves the bag before ``then``: whose turn it is, or
    its player's own order among theirs."""
    if first.rank != then.rank:
        return f"the bag: the active player resolves all their triggered abilities before the next player ({RULES})"
    return f"the bag: {first.controller} resolves their own triggered abilities in the order they choose ({RULES})"


@hookimpl
def tcgtrig_pending_details(state: GameState, effect: PendingEffect) -> dict[str, Any]:
    """Whose turn in the bag the ability waits for, in the trace."""
    return {"bag": "active player" if effect.controller == state.turn_player else "other player"}


@hookimpl
def tcgtrig_activation_blocked(effect: PendingEffect, context: ActivationContext) -> str | None:
    """CR 6.5.5: a replacement effect has one chance to replace an event;
    once it has applied, it cannot apply to that event again, however the
    event is modified further — the event's series of interrupts here.
    Lorcana's only effects that act before an event are replacement effects
    (6.5.1)."""
    if context.window == "interrupt" and effect.key in context.series:
        return "a replacement effect has only one chance to replace an event (CR 6.5.5)"
    return None


@hookimpl
def tcgtrig_battle_result(card: str, against: str | None, stat: Any) -> BattleResult:
    """A challenge's Challenge Damage step (4.6.6): each character deals
    damage equal to its Strength {S} to the other, all at once; a negative
    {S} deals none (4.6.6.1, 6.6.2).  The damage counters are put on the
    characters (4.6.6.2, 1.9.1.1); the game state check that follows
    (4.6.6.3) banishes those whose damage reaches their Willpower {W}
    (1.8.1.4) — the challenge banishes nothing itself.  A location deals no
    damage (it has no {S}, 4.6.8.3); there is no challenge without a
    character or location challenged."""
    if against is None:
        return BattleResult()
    mine, theirs = max(stat(card, "strength") or 0, 0), max(stat(against, "strength") or 0, 0)
    dealt = ((against, mine), (card, theirs))
    return BattleResult(changes=tuple((who, "damage", amount, "damaged") for who, amount in dealt if amount > 0))


@hookimpl
def tcgtrig_rules_processing(state: GameState, view: Any, changed: Sequence[str]) -> list[Any]:
    """Game state check: characters in play with damage >= willpower are
    banished, all at once."""
    candidates = state.in_zone("play") if view.continuous else [state.cards[c] for c in changed]
    doomed = []
    for card in candidates:
        if card.zone != "play" or "character" not in card.types:
            continue
        willpower, damage = view.stat(card.id, "willpower"), view.stat(card.id, "damage") or 0
        if willpower is not None and damage >= willpower:  # no damage counters is 0: willpower 0 is banished
            doomed.append(card.id)
    return [Move(card=CardIds(tuple(doomed)), to="discard", as_="banished", by="rule")] if doomed else []


__all__ = ["GAME_INFO", "WORDS"]
