"""``change``: a stat of cards up or down, for good or until a moment."""

from __future__ import annotations

from typing import Any

from attrs import evolve

from ..model.values import DURATIONS, Card, Change, Mod
from .base import ActionKind, Moment, Op, Planning, Reader, Writer, card_event, make_op, named, some


def read(
    reader: Reader, word: str, args: dict[str, Any], at: tuple[Any, ...], *, label: Any, by: Any, as_: Any
) -> Change:
    reader.only(args, at, ("card", "stat", "by", "until", "as", "label"))
    reader.need(args, at, "card", "stat", "by")
    until = reader.text(args["until"], at + ("until",), choices=DURATIONS) if "until" in args else None
    return Change(
        card=reader.selector(args["card"], at + ("card",)),
        stat=reader.text(args["stat"], at + ("stat",)),
        by_amount=reader.amount(args["by"], at + ("by",), signed=True),
        until=until,
        as_=as_,
        by=by,
        label=label,
    )


def write(action: Change, writer: Writer) -> dict[str, Any]:
    data = {
        "change": {
            "card": writer.card(action.card),
            "stat": action.stat,
            "by": writer.amount(action.by_amount),
            **some(until=action.until),
            **named(action),
        }
    }
    return {**data, **some(by=action.by)}  # "by" inside change is the amount


def plan(planning: Planning, action: Change) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    amount = machine.view.amount(action.by_amount, scope, did)
    ops = []
    for card_id in chosen.get("card", []):
        card = state.cards[card_id]
        event = card_event(
            action.as_ or "stat_changed",
            "stat_changed" if action.as_ else None,
            card,
            by,
            actor,
            stat=action.stat,
            amount=amount,
        )
        mod = Mod(stat=action.stat, by=amount, until=action.until, effect=scope.key, player=scope.controller)
        ops.append(
            make_op(
                part=part, event=event, subject=card_id, incarnation=card.incarnation, data=(("mod", mod),), apply=apply
            )
        )
    return ops


def apply(moment: Moment, op: Op, card: Card | None) -> None:
    """The card carries the change (a mod) from now on."""
    assert card is not None
    moment.state.replace(evolve(card, mods=with_mod(card.mods, op.get("mod"))))
    moment.events.append(op.event)


def with_mod(mods: tuple[Mod, ...], mod: Mod) -> tuple[Mod, ...]:
    """``mods`` and a stat change ``mod``: added into the change the card
    already carries of the same stat, from the same effect and player, for
    as long (nothing tells two such changes apart: they end together, and
    effects it is unaffected by are the same), else after them.  So a stat
    changed again and again carries one mod, and a change costs the same
    however many came before it (issue 37 item 23: an effect raising its
    card's stat whenever it changes re-hashed every earlier change)."""
    for index, old in enumerate(mods):
        if (
            old.stat == mod.stat
            and old.until == mod.until
            and old.effect == mod.effect
            and old.player == mod.player
            and old.flag is None
            and old.ability is None
        ):
            return (*mods[:index], evolve(old, by=old.by + mod.by), *mods[index + 1 :])
    return (*mods, mod)


KIND = ActionKind(words=("change",), model=Change, card_fields=("card",), read=read, write=write, plan=plan)
