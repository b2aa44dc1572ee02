"""``move``: cards to a zone, or under a card (``to: sources``)."""

from __future__ import annotations

from typing import Any

from ..model.values import SOURCES, Card, Move
from .base import (
    ActionKind,
    Moment,
    Op,
    Planning,
    Reader,
    Writer,
    card_event,
    make_op,
    named,
    some,
    unaffected,
    would_circle,
)


def read(
    reader: Reader, word: str, args: dict[str, Any], at: tuple[Any, ...], *, label: Any, by: Any, as_: Any
) -> Move:
    reader.only(args, at, ("card", "to", "from", "as", "under", "alone", "flags", "by", "label"))
    reader.need(args, at, "card", "to")
    to = reader.text(args["to"], at + ("to",))
    from_ = reader.text(args["from"], at + ("from",)) if "from" in args else None
    under = reader.one_card(args["under"], at + ("under",)) if "under" in args else None
    if to == SOURCES and under is None:
        raise reader.error(at, "a move to sources needs 'under': the card to stack it under")
    return Move(
        card=reader.selector(args["card"], at + ("card",)),
        to=to,
        from_=from_,
        as_=as_,
        under=under,
        alone=reader.flag_value(args.get("alone", False), at + ("alone",)),
        by=by,
        label=label,
        flags=reader.words(args["flags"], at + ("flags",)) if "flags" in args else (),
    )


def write(action: Move, writer: Writer) -> dict[str, Any]:
    return {
        "move": {
            "card": writer.card(action.card),
            "to": action.to,
            **some(
                under=writer.card(action.under) if action.under is not None else None,
                alone=action.alone,
                flags=list(action.flags),
                by=action.by,
            ),
            **({"from": action.from_} if action.from_ else {}),
            **named(action),
        }
    }


def plan(planning: Planning, action: Move) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    ops: list[Op] = []
    under = chosen.get("under")
    parent = under[0] if under else None
    if action.to == SOURCES and parent is None:
        return ops  # nothing to stack it under: the move does not happen
    arriving = (("flags", action.flags),) if action.flags else ()
    for card_id in chosen.get("card", []):
        card = state.cards[card_id]
        if card.zone == action.to and (action.to != SOURCES or card.under == parent):
            continue
        if action.from_ is not None and card.zone != action.from_:
            continue  # not where the action takes cards from
        if action.to == SOURCES and would_circle(state, card_id, parent):
            continue
        if by == "effect" and unaffected(state, card, actor):
            continue  # effects do not move it (Digimon CR 15-15-5-1)
        event = card_event(
            action.as_ or "moved", "moved" if action.as_ else None, card, by, actor, from_=card.zone, to=action.to
        )
        ops.append(
            make_op(
                part=part,
                event=event,
                subject=card_id,
                incarnation=card.incarnation,
                data=(("under", parent), ("alone", action.alone), *arriving),
                apply=apply,
            )
        )
    return ops


def apply(moment: Moment, op: Op, card: Card | None) -> None:
    """Move the card (and its pile, or alone), if it is still where it was."""
    event = op.event
    assert card is not None and event.to is not None
    if card.zone != event.from_:
        return
    if op.get("alone"):
        moment.move_alone(card, event.to, event.by, event.actor, event.name, event.base, op.get("flags"))
    else:
        under, flags = op.get("under"), op.get("flags")
        moment.move(card, event.to, under, event.by, event.actor, event.name, event.base, event.against, flags)


KIND = ActionKind(words=("move",), model=Move, card_fields=("card", "under"), read=read, write=write, plan=plan)
