"""``draw``: cards from a player's deck to their hand."""

from __future__ import annotations

from itertools import islice
from typing import Any

from attrs import evolve

from ..model.values import Card, Draw, make_event, moved
from .base import ActionKind, Moment, Op, Planning, Reader, Writer, counted_players, make_op, named, some

#: the most cards one draw may take: a larger number is a typo, not a draw
MAX_DRAW = 10_000


def read(
    reader: Reader, word: str, args: dict[str, Any], at: tuple[Any, ...], *, label: Any, by: Any, as_: Any
) -> Draw:
    reader.only(args, at, ("player", "count", "as", "by", "label"))
    count = reader.amount(args.get("count", 1), at + ("count",))
    if isinstance(count, int) and count > MAX_DRAW:
        raise reader.error(at + ("count",), f"a draw of {count:,} cards: at most {MAX_DRAW:,} at once")
    return Draw(
        player=reader.player(args.get("player", "self"), at + ("player",)),
        count=count,
        as_=as_,
        by=by,
        label=label,
    )


def write(action: Draw, writer: Writer) -> dict[str, Any]:
    return {
        "draw": {
            "player": action.player,
            "count": writer.amount(action.count),
            **some(by=action.by),
            **named(action),
        }
    }


def plan(planning: Planning, action: Draw) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    count = machine.view.amount(action.count, scope, did)
    if count <= 0:
        return []
    name, base = action.as_ or "drawn", "drawn" if action.as_ else None
    return [
        make_op(
            part=part,
            event=make_event(name=name, base=base, player=player, amount=count, by=by, actor=actor),
            apply=apply,
        )
        for player in counted_players(machine.state, action.player, scope.controller)
    ]


def apply(moment: Moment, op: Op, card: Card | None) -> None:
    """The top cards of the player's deck, as many as there are, to their
    hand; a player whose deck had too few is noted (``GameState.empty_draws``)."""
    state, ruleset, event = moment.state, moment.machine.ruleset, op.event
    player = event.player or ""
    deck = list(islice((c for c in state.in_zone(ruleset.deck_zone) if c.owner == player), event.amount or 0))
    if len(deck) < (event.amount or 0):
        state.drew_from_empty(player)  # for the game's rules (Magic CR 704.5b)
    for drawn in deck:
        moment.before.setdefault(drawn.id, drawn)
        state.replace(moved(drawn, ruleset.hand_zone, None, frozenset()))
    moment.events.append(evolve(event, cards=tuple(c.id for c in deck)))


KIND = ActionKind(words=("draw",), model=Draw, card_fields=(), read=read, write=write, plan=plan)
