"""Which abilities an event sets off.

Abilities are found through an index by event name, never by scanning every
card.  A card that moved at this moment is also checked as it was just
before (leave-the-zone triggers look back); the game may limit that.  One
trigger per ability per moment, whatever number of its events matched,
unless the game counts every event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import define, setters

from .evaluate import Evaluator
from .model import Ability, Card, Event

__all__ = ["AbilityIndex", "Match", "match_triggers", "match_interrupts"]


@define(frozen=True)
class AbilityIndex:
    """Abilities found by event name, built once per resolution.

    Abilities never change during a resolution, so the index is shared by
    every copy of an engine.
    """

    triggers: dict[str, tuple[tuple[str, Ability], ...]]
    interrupts: dict[str, tuple[tuple[str, Ability], ...]]
    continuous: tuple[tuple[str, Ability], ...]
    by_key: dict[str, tuple[str, Ability]]
    activated: tuple[tuple[str, str, Ability], ...] = ()

    @classmethod
    def build(cls, cards: Sequence[Card]) -> AbilityIndex:
        triggers: dict[str, list] = {}
        interrupts: dict[str, list] = {}
        continuous = []
        activated = []
        by_key = {}
        for card in cards:
            for ability in card.abilities:
                key = f"{card.id}.{ability.id}"
                by_key[key] = (card.id, ability)
                if ability.kind == "activated":
                    activated.append((key, card.id, ability))
                elif ability.kind == "continuous":
                    continuous.append((card.id, ability))
                elif ability.when is not None and ability.kind == "triggered":
                    triggers.setdefault(ability.when.event, []).append((card.id, ability))
                elif ability.when is not None and ability.kind in ("interrupt", "replacement"):
                    interrupts.setdefault(ability.when.event, []).append((card.id, ability))
        return cls(
            triggers={k: tuple(v) for k, v in triggers.items()},
            interrupts={k: tuple(v) for k, v in interrupts.items()},
            continuous=tuple(continuous),
            by_key=by_key,
            activated=tuple(activated),
        )

    def __deepcopy__(self, memo: dict) -> AbilityIndex:
        return self


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class Match:
    """An ability that matched events; it becomes pending at the next settle."""

    card: str
    ability: Ability
    self_card: str
    controller: str
    events: list[Event]
    moment: int
    incarnation: int
    cause: int
    depth: int
    link: int = 0
    self_incarnation: int = 0
    looked_back: bool = False
    fixed: tuple = ()


def match_triggers(
    index: AbilityIndex,
    view: Evaluator,
    events: Sequence[Event],
    before: dict[str, Card],
    *,
    moment: int,
    cause: int,
    depth: int,
    look_back: Callable[[Card, Ability, Event, str], bool] | None = None,
) -> list[Match]:
    """The triggered abilities one moment's events set off, in event order.

    A card that moved at this moment is checked as it is now and as it was
    just before; ``look_back(card_before, ability, event, self_card)`` may
    refuse the second check (default: allowed).
    """
    state = view.state
    found: dict[tuple[str, str], Match] = {}
    for event in events:
        for name in event.names():
            for card_id, ability in index.triggers.get(name, ()):
                now = state.cards[card_id]
                hit = None
                if now.zone in ability.active_in:
                    self_card = view.self_of(now, ability)
                    controller = state.cards[self_card].owner
                    if view.matches(ability.when, event, controller, self_card, card_id):
                        hit = (self_card, controller, False)
                if hit is None and card_id in before:
                    was = before[card_id]
                    if was.zone in ability.active_in:
                        self_card = view.self_of(was, ability, before)
                        controller = view.owner_in(self_card, before)
                        if view.matches(ability.when, event, controller, self_card, card_id) and (
                                look_back is None or look_back(was, ability, event, self_card)):
                            hit = (self_card, controller, True)
                if hit is not None:
                    _note(found, event, Match(card_id, ability, hit[0], hit[1], [], moment, now.incarnation,
                                              cause, depth, self_incarnation=state.cards[hit[0]].incarnation,
                                              looked_back=hit[2]))
    return list(found.values())


def match_interrupts(
    index: AbilityIndex,
    view: Evaluator,
    events: Sequence[Event],
    *,
    moment: int,
    cause: int,
    depth: int,
) -> list[Match]:
    """The interrupts and replacements that events *about to happen* set off."""
    state = view.state
    found: dict[tuple[str, str], Match] = {}
    for event in events:
        for name in event.names():
            for card_id, ability in index.interrupts.get(name, ()):
                card = state.cards[card_id]
                if card.zone not in ability.active_in:
                    continue
                self_card = view.self_of(card, ability)
                controller = state.cards[self_card].owner
                if not view.matches(ability.when, event, controller, self_card, card_id):
                    continue
                _note(found, event, Match(card_id, ability, self_card, controller, [], moment, card.incarnation,
                                          cause, depth, self_incarnation=state.cards[self_card].incarnation))
    return list(found.values())


def _note(found: dict[tuple[str, str], Match], event: Event, fresh: Match) -> None:
    """Add ``event`` to the ability's match (one per ability per moment)."""
    match = found.setdefault((fresh.card, fresh.ability.id), fresh)
    if not any(seen is event for seen in match.events):  # two equal events of a moment are still two
        match.events.append(event)
