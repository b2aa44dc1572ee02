"""Magic: The Gathering for tcgtrig: the stack (Comprehensive Rules 405,
603, 704).

Written only against tcgtrig's public API and registered under the
entry-point group ``tcgtrig.games``, as any third-party game is.  What it
decides:

- **The stack** is the core's chain model (``resolution="chain"``): last
  in, first out; players may respond (instants, activated abilities of
  ``speed`` 2) before each object resolves (CR 405, 117).
- **APNAP** (CR 603.3b): the active player puts all their triggered
  abilities on the stack first, in the order they choose, then the
  non-active player — so the non-active player's resolve first.  One
  :func:`tcgtrig_pending_rank`, cited by :func:`tcgtrig_order_rule`.
- **Mid-resolution triggers go on top** (CR 603.3): what triggers while an
  object resolves is put on the stack the next time a player would
  receive priority — on top of what is left, before the next object
  resolves (``chain_triggers="on_top"``).
- **State-based actions** (CR 704.5f, 704.5g) before a player receives
  priority: a creature with toughness 0 or less, or with damage at least
  its toughness, is put into its owner's graveyard (it "dies").
- **Its words** for the chain: "the stack" and its objects (#1, #2, …)
  (``GameInfo.terms``), last in, first out cited as CR 405.5.
- **Words**: ``destroy``, ``sacrifice``, ``exile``, ``discard``,
  ``deal_damage``; zones ``library``, ``hand``, ``battlefield``,
  ``graveyard``, ``exile`` (a draw takes from the ``library``: its role
  is ``deck``).

Not modelled: mana and costs, combat steps, replacement effects'
controller choice (CR 616), layers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tcgtrig import CardIds, GameInfo, GameState, Move, PendingEffect, hookimpl
from tcgtrig.games.words import card_argument, move_word

GAME_INFO = GameInfo(
    name="magic",
    title="Magic: The Gathering",
    version="0.1.0",
    summary="the stack: APNAP, last in first out, mid-resolution triggers on top, state-based actions",
    rules="Magic: The Gathering Comprehensive Rules",
    resolution="chain",
    chain_triggers="on_top",
    events=("dies",),  # state-based actions put creatures into the graveyard
    zones=("library", "hand", "battlefield", "graveyard", "exile"),
    stats=("toughness", "damage"),
    zone_roles={"library": "deck", "hand": "hand", "battlefield": "field", "graveyard": "discard", "exile": "exile"},
    tokens_arrive=True,  # a token dies (goes to the graveyard), then ceases to exist (CR 111.7, 704.5d)
    event_roles={"dies": "destroyed", "discarded": "discarded", "exiled": "exiled"},
    flag_roles={"tapped": "tapped"},
    terms={"chain": "stack", "chain_link": "stack object", "chain_link_short": "#"},
    citations={"chain": "CR 405.5"},  # the top (last-added) object resolves first
)


def _deal_damage(arg: Any) -> dict[str, Any]:
    """``deal_damage: {card: X, amount: N}``: N damage marked on X."""
    if not isinstance(arg, dict) or type(arg.get("amount")) is not int:
        raise ValueError("deal_damage takes {card: SEL, amount: N}")
    card, modifiers = card_argument({k: v for k, v in arg.items() if k != "amount"})
    return {"change": {"card": card, "stat": "damage", "by": arg["amount"], "as": "damaged", **modifiers}}


WORDS = {
    "destroy": move_word("graveyard", "dies", **{"from": "battlefield"}),
    "sacrifice": move_word("graveyard", "dies", **{"from": "battlefield"}),
    "exile": move_word("exile", "exiled"),
    "discard": move_word("graveyard", "discarded", **{"from": "hand"}),
    "deal_damage": _deal_damage,
}


@hookimpl
def tcgtrig_game_info() -> GameInfo:
    return GAME_INFO


@hookimpl
def tcgtrig_action_aliases() -> dict[str, Any]:
    return dict(WORDS)


@hookimpl
def tcgtrig_pending_rank(state: GameState, effect: PendingEffect) -> tuple:
    """APNAP: the active player's triggers go on the stack first."""
    return (0 if effect.controller == state.turn_player else 1,)


@hookimpl
def tcgtrig_order_rule(first: PendingEffect, then: PendingEffect) -> str:
    """Why ``first`` goes on the stack before ``then``: APNAP, or its
    player's own order among theirs."""
    if first.rank != then.rank:
        return (
            "APNAP: the active player's triggered abilities go on the stack first, the non-active player's "
            "on top (CR 603.3b)"
        )
    return f"APNAP: {first.controller} puts their own triggered abilities on the stack in any order (CR 603.3b)"


@hookimpl
def tcgtrig_rules_processing(state: GameState, view: Any, changed: Sequence[str]) -> list[Any]:
    """State-based actions (CR 704.5f/g): creatures that must die do, at once."""
    candidates = state.in_zone("battlefield") if view.continuous else [state.cards[c] for c in changed]
    dying = []
    for card in candidates:
        if card.zone != "battlefield" or "creature" not in card.types:
            continue
        toughness, damage = view.stat(card.id, "toughness"), view.stat(card.id, "damage") or 0
        if toughness is not None and (toughness <= 0 or damage >= toughness):
            dying.append(card.id)
    return [Move(card=CardIds(tuple(dying)), to="graveyard", as_="dies", by="rule")] if dying else []


__all__ = ["GAME_INFO", "WORDS"]
