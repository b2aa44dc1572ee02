"""Core actions: what each one is about to do, and doing it.

An action is carried out in two halves so that interrupts and replacements
can act in between:

1. :func:`plan` turns a primitive action and its chosen cards into
   :class:`~tcgtrig.language.base.Op` records, one per subject, each with
   the *would-be* event ("examon would be deleted");
2. :func:`apply` performs the ops that were not prevented, all at one
   moment, and returns the events that happened plus every moved card as it
   was just before (for look-back triggers).

A subject that changed since it was planned (moved away, already has the
flag) is skipped: the action no longer happens to it.  What each action
plans and how each op is carried out live in the action's home
(:mod:`tcgtrig.language`); this module runs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..language import BY_MODEL, Moment, Op, make_planning
from ..model.values import Card, Event
from .evaluate import Scope

if TYPE_CHECKING:
    from .machine import Machine

__all__ = ["Op", "plan", "apply", "card_fields", "describe"]


def card_fields(action: Any) -> tuple[str, ...]:
    """The fields of a primitive action whose cards are chosen before it is planned."""
    return BY_MODEL[type(action)].card_fields


def describe(action: Any) -> str:
    """A short name for an action, for prompts and traces."""
    name = type(action).__name__.lower()
    label = getattr(action, "as_", None)
    return label or name


def plan(
    machine: Machine,
    part: int,
    action: Any,
    chosen: dict[str, list[str]],
    scope: Scope,
    by: str,
    did: dict[str, int] | None = None,
) -> list[Op]:
    """The ops of one primitive action, with its cards already chosen
    (``did``: what the effect's earlier actions affected, for its numbers).
    Each primitive action's home plans it (:mod:`tcgtrig.language`)."""
    by = getattr(action, "by", None) or by
    kind = BY_MODEL.get(type(action))
    if kind is None:  # pragma: no cover - the parser only builds the primitive actions
        raise TypeError(f"not a primitive action: {action!r}")
    return kind.plan(
        make_planning((machine, part, chosen, scope, by, None if by == "rule" else scope.controller, did)), action
    )


def apply(
    machine: Machine, ops: Sequence[Op], counts: dict[int, int] | None = None
) -> tuple[list[Event], dict[str, Card]]:
    """Carry out ``ops`` at one moment.

    :param counts: if given, filled with how many events each part (an
        op's ``part``) made: what ``did: LABEL`` reads of a ``together``.
    :return: the events, in order, and every card that moved as it was just
        before the moment.
    """
    state = machine.state
    events: list[Event] = []
    before: dict[str, Card] = {}
    moment = Moment(machine, events, before)
    made, last = 0, -1  # events counted so far, and the part of the op before
    for op in ops:
        if counts is not None:
            counts[last] = counts.get(last, 0) + len(events) - made
            made, last = len(events), op.part
        if op.subject is None:
            op.apply(moment, op, None)
            continue
        card = state.cards.get(op.subject)
        if card is None or card.incarnation != op.incarnation:
            continue  # it moved or left since the action was planned
        op.apply(moment, op, card)
    if counts is not None:
        counts[last] = counts.get(last, 0) + len(events) - made
    return events, before
