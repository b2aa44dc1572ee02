"""``emit``: say that something happened (an event of the game's own, about
a player or about cards), for triggers to see."""

from __future__ import annotations

from typing import Any

from ..model.values import Emit, make_event
from .base import ActionKind, Op, Planning, Reader, Writer, make_op, relative_player, some


def read(
    reader: Reader, word: str, args: dict[str, Any], at: tuple[Any, ...], *, label: Any, by: Any, as_: Any
) -> Emit:
    reader.only(args, at, ("event", "card", "player", "by", "reason", "label"))
    reader.need(args, at, "event")
    card = reader.selector(args["card"], at + ("card",)) if "card" in args else None
    player = reader.player(args["player"], at + ("player",)) if "player" in args else None
    reason = reader.line(args["reason"], at + ("reason",)) if "reason" in args else None
    return Emit(
        event=reader.text(args["event"], at + ("event",)),
        card=card,
        player=player,
        by=by,
        reason=reason,
        label=label,
    )


def write(action: Emit, writer: Writer) -> dict[str, Any]:
    return {
        "emit": {
            "event": action.event,
            **some(
                card=writer.card(action.card) if action.card is not None else None,
                player=action.player,
                by=action.by,
                reason=action.reason,
            ),
            **some(label=action.label),
        }
    }


def plan(planning: Planning, action: Emit) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    ops = []
    player = relative_player(state, action.player, scope.controller) if action.player else None
    if action.card is None:
        event = make_event(
            name=action.event, player=player or scope.controller, by=by, actor=actor, reason=action.reason
        )
        ops.append(make_op(part=part, event=event))
    for card_id in chosen.get("card", []):
        card = state.cards[card_id]
        event = make_event(
            name=action.event, card=card_id, player=player or card.owner, by=by, actor=actor, reason=action.reason
        )
        ops.append(make_op(part=part, event=event, subject=card_id, incarnation=card.incarnation))
    return ops


KIND = ActionKind(words=("emit",), model=Emit, card_fields=("card",), read=read, write=write, plan=plan)
