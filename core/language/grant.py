"""``grant``: cards gain an ability, for good or until a moment."""

from __future__ import annotations

from typing import Any

from attrs import evolve

from ..model.values import DURATIONS, Card, Grant, Mod
from .base import ActionKind, Moment, Op, Planning, Reader, Writer, card_event, make_op, named, some, unaffected


def read(
    reader: Reader, word: str, args: dict[str, Any], at: tuple[Any, ...], *, label: Any, by: Any, as_: Any
) -> Grant:
    reader.only(args, at, ("card", "ability", "until", "as", "by", "label"))
    reader.need(args, at, "card", "ability")
    raw = args["ability"]
    ability = reader.gained_ability(raw, at + ("ability",))
    until = reader.text(args["until"], at + ("until",), choices=DURATIONS) if "until" in args else None
    return Grant(
        card=reader.selector(args["card"], at + ("card",)),
        ability=ability,
        key=f"{reader.writer}.{raw['id']}",
        until=until,
        as_=as_,
        by=by,
        label=label,
    )


def write(action: Grant, writer: Writer) -> dict[str, Any]:
    return {
        "grant": {
            "card": writer.card(action.card),
            "ability": writer.ability(action.ability),
            **some(until=action.until, by=action.by),
            **named(action),
        }
    }


def plan(planning: Planning, action: Grant) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    ops = []
    for card_id in chosen.get("card", []):
        card = state.cards[card_id]
        if by == "effect" and unaffected(state, card, actor):
            continue  # it is not considered to have the effect (Digimon CR 15-15-5-4)
        event = card_event(action.as_ or "gained_effect", "gained_effect" if action.as_ else None, card, by, actor)
        mod = Mod(ability=action.ability, key=action.key, until=action.until, effect=scope.key, player=scope.controller)
        ops.append(
            make_op(
                part=part,
                event=event,
                subject=card_id,
                incarnation=card.incarnation,
                data=(("grant", mod),),
                apply=apply,
            )
        )
    return ops


def apply(moment: Moment, op: Op, card: Card | None) -> None:
    """The card has the ability from now on (a mod)."""
    assert card is not None
    moment.state.replace(evolve(card, mods=card.mods + (op.get("grant"),)))
    moment.events.append(op.event)


KIND = ActionKind(words=("grant",), model=Grant, card_fields=("card",), read=read, write=write, plan=plan)
