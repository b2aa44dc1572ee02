"""``battle``: two cards (or one, attacking directly) battle; the game says
what it comes to (:meth:`~tcgtrig.games.manager.Ruleset.battle`)."""

from __future__ import annotations

from typing import Any

from ..model.info import STAT_CHANGED, BattleResult
from ..model.values import Battle, Mod, make_event
from . import change, flag, gain, move
from .base import ActionKind, Op, Planning, Reader, Writer, make_op, some


def read(
    reader: Reader, word: str, args: dict[str, Any], at: tuple[Any, ...], *, label: Any, by: Any, as_: Any
) -> Battle:
    reader.only(args, at, ("card", "against", "hold", "by", "label"))
    reader.need(args, at, "card")
    against = reader.one_card(args["against"], at + ("against",)) if args.get("against") is not None else None
    hold = reader.text(args["hold"], at + ("hold",)) if "hold" in args else None
    return Battle(card=reader.one_card(args["card"], at + ("card",)), against=against, hold=hold, label=label)


def write(action: Battle, writer: Writer) -> dict[str, Any]:
    against = {"against": writer.card(action.against)} if action.against is not None else {}
    hold = {"hold": action.hold} if action.hold is not None else {}
    return {"battle": {"card": writer.card(action.card), **against, **hold}, **some(label=action.label)}


def plan(planning: Planning, action: Battle) -> list[Op]:
    """A battle's ops: what the game says it comes to, as it is now — who
    won and lost first (a loser's event is about it as it was, before it is
    destroyed), then the stats it changes (the damage it marks), then each
    card destroyed (or holding the ``hold`` flag until a later step moves
    it), then battle damage."""
    machine, part, chosen, scope, by, actor, did = planning
    by = by if by != "effect" else "battle"
    cards, others = chosen.get("card"), chosen.get("against")
    card = cards[0] if cards else None
    against = others[0] if others else None
    if card is None or (against is not None and against == card):
        return []
    result = machine.ruleset.battle(machine.state, card, against, machine.view.stat)
    other = {card: against, against: card}
    return [
        *_outcomes(planning, result, other, by),
        *_changes(planning, result, other, by),
        *_destroyed(planning, result, other, by, action.hold),
        *_damage(planning, result, by),
    ]


def _outcomes(planning: Planning, result: BattleResult, other: dict[Any, Any], by: str) -> list[Op]:
    """Who won and who lost."""
    state = planning.machine.state
    outcomes = [(result.winner, "won_battle")] if result.winner is not None else []
    outcomes += [(card_id, "lost_battle") for card_id in (result.destroyed if result.losers is None else result.losers)]
    ops = []
    for card_id, name in outcomes:
        who = state.cards[card_id]
        event = make_event(
            name=name, card=card_id, player=who.owner, by=by, actor=planning.actor, against=other.get(card_id)
        )
        ops.append(make_op(part=planning.part, event=event, subject=card_id, incarnation=who.incarnation))
    return ops


def _changes(planning: Planning, result: BattleResult, other: dict[Any, Any], by: str) -> list[Op]:
    """Each stat the battle changes (the damage it marks), as ``change``
    does: lasting while the card stays where it is.  A rule's change: no
    effect made it, so "isn't affected by effects" does not stop it."""
    state = planning.machine.state
    ops = []
    for card_id, stat, amount, name in result.changes:
        card = state.cards[card_id]
        event = make_event(
            name=name,
            base=STAT_CHANGED if name != STAT_CHANGED else None,
            card=card_id,
            player=card.owner,
            by=by,
            actor=planning.actor,
            stat=stat,
            amount=amount,
            against=other.get(card_id),
        )
        data = (("mod", Mod(stat=stat, by=amount)),)
        ops.append(
            make_op(
                part=planning.part,
                event=event,
                subject=card_id,
                incarnation=card.incarnation,
                data=data,
                apply=change.apply,
            )
        )
    return ops


def _destroyed(planning: Planning, result: BattleResult, other: dict[Any, Any], by: str, hold: str | None) -> list[Op]:
    """Each card the battle destroys: to the discard zone now, or holding
    the ``hold`` flag until a later step moves it."""
    machine, part, actor = planning.machine, planning.part, planning.actor
    state, ruleset = machine.state, machine.ruleset
    ops = []
    for card_id in result.destroyed:
        loser = state.cards[card_id]
        if hold is not None:
            if hold not in loser.flags:
                event = make_event(
                    name="flag_set",
                    card=card_id,
                    player=loser.owner,
                    by=by,
                    actor=actor,
                    flag=hold,
                    against=other.get(card_id),
                )
                ops.append(
                    make_op(part=part, event=event, subject=card_id, incarnation=loser.incarnation, apply=flag.apply)
                )
            continue
        event = make_event(
            name=ruleset.destroyed_event,
            base="moved",
            card=card_id,
            player=loser.owner,
            by=by,
            actor=actor,
            from_=loser.zone,
            to=ruleset.discard_zone,
            against=other.get(card_id),
        )
        data = (("under", None), ("alone", False))
        ops.append(
            make_op(part=part, event=event, subject=card_id, incarnation=loser.incarnation, data=data, apply=move.apply)
        )
    return ops


def _damage(planning: Planning, result: BattleResult, by: str) -> list[Op]:
    """Battle damage: each player's counter lowered."""
    ops = []
    for player, amount in result.damage:
        if amount > 0:
            event = make_event(
                name="lost", player=player, counter=result.counter, amount=amount, by=by, actor=planning.actor
            )
            ops.append(make_op(part=planning.part, event=event, data=(("delta", -amount),), apply=gain.apply))
    return ops


KIND = ActionKind(words=("battle",), model=Battle, card_fields=("card", "against"), read=read, write=write, plan=plan)
