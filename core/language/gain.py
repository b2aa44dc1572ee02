"""``gain`` and ``lose``: a player's counter up or down."""

from __future__ import annotations

from typing import Any

from attrs import evolve

from ..model.values import Card, Gain, make_event
from .base import ActionKind, Moment, Op, Planning, Reader, Writer, counted_players, make_op, named, some


def read(
    reader: Reader, word: str, args: dict[str, Any], at: tuple[Any, ...], *, label: Any, by: Any, as_: Any
) -> Gain:
    reader.only(args, at, ("player", "counter", "amount", "as", "by", "label"))
    reader.need(args, at, "counter")
    return Gain(
        player=reader.player(args.get("player", "self"), at + ("player",)),
        counter=reader.text(args["counter"], at + ("counter",)),
        amount=reader.amount(args.get("amount", 1), at + ("amount",)),
        sign=1 if word == "gain" else -1,
        as_=as_,
        by=by,
        label=label,
    )


def write(action: Gain, writer: Writer) -> dict[str, Any]:
    return {
        "gain" if action.sign > 0 else "lose": {
            "player": action.player,
            "counter": action.counter,
            "amount": writer.amount(action.amount),
            **some(by=action.by),
            **named(action),
        }
    }


def plan(planning: Planning, action: Gain) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    amount = action.amount
    if type(amount) is not int:  # a number read as it happens
        amount = machine.view.amount(amount, scope, did)
    if amount <= 0:
        return []
    base = "gained" if action.sign > 0 else "lost"
    ops = []
    who = action.player
    players = (scope.controller,) if who == "self" else counted_players(machine.state, who, scope.controller)
    for player in players:
        event = make_event(
            name=action.as_ or base,
            base=base if action.as_ else None,
            player=player,
            counter=action.counter,
            amount=amount,
            by=by,
            actor=actor,
        )
        # make_op's fields in order: part, event, subject, incarnation, data, apply
        ops.append(make_op(part, event, None, None, (("delta", action.sign * amount),), apply))
    return ops


def apply(moment: Moment, op: Op, card: Card | None) -> None:
    """Change the counter (and the counters the game links to it) by the
    op's ``delta``; a cap may stop it short, or at once: then nothing happened."""
    state, event = moment.state, op.event
    counter = event.counter
    assert counter is not None
    player = event.player or ""
    old = state.counter(player, counter)
    ((_, delta),) = op.data  # plan's one datum (op.get, without the call)
    ruleset = moment.machine.ruleset
    if ruleset.links_counters:
        for who, value in ruleset.linked_counters(state, player, counter, old + delta).items():
            state.set_counter(who, counter, value)
        moved = abs(state.counter(player, counter) - old)
    else:
        state.set_counter(player, counter, old + delta)
        moved = abs(delta)
    if moved:
        moment.events.append(event if moved == event.amount else evolve(event, amount=moved))


KIND = ActionKind(words=("gain", "lose"), model=Gain, card_fields=(), read=read, write=write, plan=plan)
