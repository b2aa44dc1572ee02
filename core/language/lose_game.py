"""``lose_game``: a player loses the game, as an event that may be replaced.

A rule's loss (Magic CR 704.5a: a player with 0 or less life loses the
game, a state-based action) or an effect's.  Planned like any primitive
action, its would-be event ``lost_game`` opens the interrupt window: a
replacement effect watching for it ("if you would lose the game, …
instead": Lich's Mirror, CR 614) may prevent it.  Once it happens the
machine ends the resolution (:meth:`Performing.happened
<tcgtrig.runtime.performing.Performing.happened>`): the one player left
wins; every player losing at once is a draw (CR 104.4a).
"""

from __future__ import annotations

from typing import Any

from ..model.values import Card, LoseGame, make_event
from .base import ActionKind, Moment, Op, Planning, Reader, Writer, counted_players, make_op, named, some

#: the event a loss of the game makes
LOST_GAME = "lost_game"


def read(
    reader: Reader, word: str, args: dict[str, Any], at: tuple[Any, ...], *, label: Any, by: Any, as_: Any
) -> LoseGame:
    reader.only(args, at, ("player", "reason", "as", "by", "label"))
    reason = reader.line(args["reason"], at + ("reason",)) if "reason" in args else None
    player = reader.player(args.get("player", "self"), at + ("player",))
    return LoseGame(player=player, reason=reason, as_=as_, by=by, label=label)


def write(action: LoseGame, writer: Writer) -> dict[str, Any]:
    return {
        "lose_game": {
            "player": action.player,
            **some(reason=action.reason, by=action.by),
            **named(action),
        }
    }


def plan(planning: Planning, action: LoseGame) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    who = action.player
    players = (scope.controller,) if who == "self" else counted_players(machine.state, who, scope.controller)
    ops = []
    for player in players:
        event = make_event(
            name=action.as_ or LOST_GAME,
            base=LOST_GAME if action.as_ else None,
            player=player,
            by=by,
            actor=actor,
            reason=action.reason,
        )
        ops.append(make_op(part, event, None, None, (), apply))
    return ops


def apply(moment: Moment, op: Op, card: Card | None) -> None:
    """The player loses: the event happens, and the machine ends the
    resolution once the moment is recorded."""
    event = op.event
    if event.player in moment.machine.losers:
        return  # one loss a player: two in one moment are one
    moment.machine.losers += (event.player or "",)
    moment.events.append(event)


KIND = ActionKind(words=("lose_game",), model=LoseGame, card_fields=(), read=read, write=write, plan=plan)
