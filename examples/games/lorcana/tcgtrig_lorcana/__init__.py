"""Disney Lorcana for tcgtrig: the bag (Comprehensive Rules, "the bag").

Written only against tcgtrig's public API, as any third-party game is, and
registered under the entry-point group ``tcgtrig.games``.  What it decides:

- **The bag.**  Triggered abilities go into the bag.  The active player
  resolves all of theirs, one at a time in the order they choose, then the
  next player resolves theirs.  An ability that triggers while another
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
- **Each event** triggers a "whenever" ability once
  (:func:`tcgtrig_trigger_each_event`).
- **Words** (:func:`tcgtrig_action_aliases`): ``banish``, ``exert``,
  ``ready``, ``deal_damage``, ``gain_lore``, ``ink`` (into the inkwell),
  ``discard``.

Not modelled: a player reaching 20 lore winning (the core's rules
processing returns actions, not a game end), challenges and the quest
step as rule steps (a scenario emits their events).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tcgtrig import CardIds, GameInfo, GameState, Move, PendingEffect, hookimpl
from tcgtrig.games.words import card_argument, flag_word, move_word

RULES = "Disney Lorcana Comprehensive Rules"

GAME_INFO = GameInfo(
    name="lorcana",
    title="Disney Lorcana",
    version="0.1.0",
    summary="the bag: the active player resolves all their triggered abilities first, in the order they choose",
    rules=RULES,
    resolution="immediate",
    events=("banished",),  # the game state check banishes characters
    zones=("play", "discard", "inkwell", "deck", "hand"),
    stats=("willpower", "damage"),  # the game state check reads them
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
def tcgtrig_action_aliases() -> dict[str, Any]:
    return dict(WORDS)


@hookimpl
def tcgtrig_trigger_each_event() -> bool:
    """ "Whenever" triggers once for each event of a moment (two characters
    banished at once: twice)."""
    return True


@hookimpl
def tcgtrig_pending_rank(state: GameState, effect: PendingEffect) -> tuple:
    """The bag: the active player's abilities before everyone else's;
    among one player's, the player chooses (equal rank)."""
    return (0 if effect.controller == state.turn_player else 1,)


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
def tcgtrig_rules_processing(state: GameState, view: Any, changed: Sequence[str]) -> list[Any]:
    """Game state check: characters in play with damage >= willpower are
    banished, all at once."""
    candidates = state.in_zone("play") if view.continuous else [state.cards[c] for c in changed]
    doomed = []
    for card in candidates:
        if card.zone != "play" or "character" not in card.types:
            continue
        willpower, damage = view.stat(card.id, "willpower"), view.stat(card.id, "damage")
        if willpower is not None and damage is not None and damage >= willpower:
            doomed.append(card.id)
    return [Move(card=CardIds(tuple(doomed)), to="discard", as_="banished", by="rule")] if doomed else []


__all__ = ["GAME_INFO", "WORDS"]
