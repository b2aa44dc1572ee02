"""``stack``: a card onto another card, which goes under it (a digivolution)."""

from __future__ import annotations

from typing import Any

from attrs import evolve

from ..model.values import SOURCES, Card, Stack, make_event
from .base import ActionKind, Moment, Op, Planning, Reader, Writer, card_event, make_op, named, some, would_circle


def read(
    reader: Reader, word: str, args: dict[str, Any], at: tuple[Any, ...], *, label: Any, by: Any, as_: Any
) -> Stack:
    reader.only(args, at, ("card", "onto", "as", "by", "label"))
    reader.need(args, at, "card", "onto")
    return Stack(
        card=reader.one_card(args["card"], at + ("card",)),
        onto=reader.one_card(args["onto"], at + ("onto",)),
        as_=as_,
        by=by,
        label=label,
    )


def write(action: Stack, writer: Writer) -> dict[str, Any]:
    return {
        "stack": {
            "card": writer.card(action.card),
            "onto": writer.card(action.onto),
            **some(by=action.by),
            **named(action),
        }
    }


def plan(planning: Planning, action: Stack) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    ops: list[Op] = []
    onto = chosen.get("onto", [])
    for card_id in chosen.get("card", [])[:1]:
        if not onto or onto[0] == card_id:
            continue
        card = state.cards[card_id]
        below = state.cards[onto[0]]
        if below.zone == SOURCES or would_circle(state, card_id, below.id):
            continue  # only a top card can be covered, and never by its own pile
        event = card_event(action.as_ or "stacked", "moved", card, by, actor, from_=card.zone, to=below.zone)
        ops.append(
            make_op(
                part=part,
                event=event,
                subject=card_id,
                incarnation=card.incarnation,
                data=(("onto", below.id), ("onto_incarnation", below.incarnation)),
                apply=apply,
            )
        )
    return ops


def apply(moment: Moment, op: Op, card: Card | None) -> None:
    """The card takes the place of the one below, which goes under it."""
    assert card is not None
    state, event = moment.state, op.event
    below = state.cards[op.get("onto")]
    if below.incarnation != op.get("onto_incarnation"):
        return
    moment.before.setdefault(card.id, card)
    moment.before.setdefault(below.id, below)
    if card.zone == SOURCES:  # taken out of a pile: the rest of the pile stays
        for child in state.under(card.id):
            state.replace(evolve(child, under=card.under))
    state.replace(
        evolve(
            card,
            zone=below.zone,
            under=below.under,
            flags=below.flags,
            mods=below.mods,
            incarnation=card.incarnation + 1,
        )
    )
    state.replace(
        evolve(below, zone=SOURCES, under=card.id, flags=frozenset(), mods=(), incarnation=below.incarnation + 1)
    )
    moment.events.append(event)
    moment.events.append(
        make_event(
            name="covered",
            card=below.id,
            player=below.owner,
            from_=below.zone,
            to=SOURCES,
            by=event.by,
            actor=event.actor,
        )
    )


KIND = ActionKind(words=("stack",), model=Stack, card_fields=("card", "onto"), read=read, write=write, plan=plan)
