"""What an activated ability's own words read in a chain window, for
keeping its answer between windows (:mod:`tcgtrig.runtime.responders`).

An ability whose condition, cost or targets read beyond its card is asked
about again after the state changed.  When its words read only its own
card and the cards of some zones — a D.D. Crow: discard *this card*,
target *a card in the opponent's Graveyard* — it need be asked again only
when a card of those zones changed, or a card came or went there
(``Changes.zones``).  Whatever else its words read (a counter, a named
card, a stat a continuous ability may change, a pile, a query over every
zone, a cost beyond its own card, words this module does not know) makes
it read *anything*: ``None``.
"""

from __future__ import annotations

from typing import Any

from ..base.identity import by_identity
from ..model.values import (
    Ability,
    AllOf,
    AnyOf,
    Battle,
    Compare,
    Count,
    CountIs,
    Gain,
    HasFlag,
    InZone,
    Not,
    Query,
    Ref,
    StatIs,
    StatOf,
    Together,
    TurnOf,
)
from .actions import card_fields

__all__ = ["zones_read"]


class _ReadsAnything(Exception):
    """The words read more than zones and their own card."""


@by_identity
def zones_read(ability: Ability, stats_vary: bool) -> frozenset[str] | None:
    """The zones ``ability``'s condition, cost and targets read beyond its
    own card, or ``None`` when they may read anything else.  ``stats_vary``:
    a continuous ability in the position may change a stat (a stat read is
    then a read of anything).  Kept per ability: a compiled position's
    abilities are shared by every engine made from it."""
    zones: set[str] = set()
    try:
        _condition(ability.condition, zones, stats_vary)
        for part in ability.cost:
            _cost(part)
        for _, query in ability.targets:
            _selector(query, zones, stats_vary)
        found: frozenset[str] | None = frozenset(zones)
    except _ReadsAnything:
        found = None
    return found


def _condition(condition: Any, zones: set[str], stats_vary: bool) -> None:
    if condition is None or isinstance(condition, TurnOf):  # the turn: a new turn asks about all again
        return
    if isinstance(condition, (AllOf, AnyOf)):
        for part in condition.conditions:
            _condition(part, zones, stats_vary)
    elif isinstance(condition, Not):
        _condition(condition.condition, zones, stats_vary)
    elif isinstance(condition, CountIs):
        _selector(condition.of, zones, stats_vary)
        _compare(condition.compare, zones, stats_vary)
    elif isinstance(condition, (InZone, HasFlag)):
        _own(condition.card)
    elif isinstance(condition, StatIs) and not stats_vary:
        _own(condition.card)
        _compare(condition.compare, zones, stats_vary)
    else:
        raise _ReadsAnything


def _compare(compare: Compare, zones: set[str], stats_vary: bool) -> None:
    value = compare.value
    if isinstance(value, int):
        return
    if isinstance(value, Count) and not value.fixed:
        _selector(value.of, zones, stats_vary)
    elif isinstance(value, StatOf) and not stats_vary and not value.fixed:
        _own(value.card)
    else:
        raise _ReadsAnything


def _selector(selector: Any, zones: set[str], stats_vary: bool) -> None:
    if isinstance(selector, Ref):
        _own(selector)
        return
    if not isinstance(selector, Query) or not selector.zone:
        raise _ReadsAnything  # named cards, targets, or every zone
    if selector.under is not None or selector.cards_under or selector.stat:
        raise _ReadsAnything  # piles, stats
    if stats_vary and (selector.highest or selector.lowest):
        raise _ReadsAnything  # which cards tie for the highest stat: a continuous ability may change it
    if not isinstance(selector.pick, (int, type(None))):
        raise _ReadsAnything  # how many, read from the position
    if selector.exclude is not None:
        _own(selector.exclude)
    zones.update(selector.zone)


def _own(selector: Any) -> None:
    """Only "this card" (its own card: a change of it is seen as such)."""
    if not (isinstance(selector, Ref) and selector.role == "self"):
        raise _ReadsAnything


def _cost(action: Any) -> None:
    """A cost that does something to its own card only (discard it, banish
    it, tap it): planning it reads that card.  A battle is planned by the
    game (``tcgtrig_battle_result``: stats, and whatever else the state
    holds): it reads anything."""
    parts = action.actions if isinstance(action, Together) else (action,)
    for part in parts:
        if isinstance(part, Together):
            _cost(part)
            continue
        if isinstance(part, Battle):
            raise _ReadsAnything
        try:
            fields = () if isinstance(part, Gain) else card_fields(part)
        except KeyError:  # words that are no primitive action (a choice, a condition)
            raise _ReadsAnything from None
        if not fields:
            raise _ReadsAnything  # a counter paid, or words whose cards are not chosen
        for name in fields:
            selector = getattr(part, name)
            if selector is not None:
                _own(selector)
