"""Core actions: what each one is about to do, and doing it.

An action is carried out in two halves so that interrupts and replacements
can act in between:

1. :func:`plan` turns a primitive action and its chosen cards into
   :class:`Op` records, one per subject, each with the *would-be* event
   ("examon would be deleted");
2. :func:`apply` performs the ops that were not prevented, all at one
   moment, and returns the events that happened plus every moved card as it
   was just before (for look-back triggers).

A subject that changed since it was planned (moved away, already has the
flag) is skipped: the action no longer happens to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from attrs import evolve, frozen

from ..model.values import (
    NOWHERE,
    SOURCES,
    TOKEN,
    Battle,
    Card,
    Change,
    Draw,
    Emit,
    Event,
    Flag,
    Gain,
    Grant,
    Mod,
    Move,
    Stack,
)
from .evaluate import Scope, relative_player

if TYPE_CHECKING:
    from .machine import Machine

__all__ = ["Op", "plan", "apply", "card_fields", "describe"]


#: For each primitive action class, the selector fields whose cards must be
#: chosen before it can be planned.
_CARD_FIELDS: dict[type, tuple[str, ...]] = {
    Move: ("card", "under"),
    Stack: ("card", "onto"),
    Flag: ("card",),
    Change: ("card",),
    Emit: ("card",),
    Grant: ("card",),
    Draw: (),
    Gain: (),
    Battle: ("card", "against"),
}


def card_fields(action: Any) -> tuple[str, ...]:
    return _CARD_FIELDS[type(action)]


@frozen(kw_only=True)
class Op:
    """One subject of one primitive action, about to happen."""

    part: int
    event: Event
    subject: str | None = None
    incarnation: int | None = None
    data: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for name, value in self.data:
            if name == key:
                return value
        return default

    def __deepcopy__(self, memo: dict) -> Op:
        return self


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
    Each primitive action has its planner below (:data:`_PLANNERS`)."""
    by = getattr(action, "by", None) or by
    planner = _PLANNERS.get(type(action))
    if planner is None:  # pragma: no cover - the parser only builds the primitive actions
        raise TypeError(f"not a primitive action: {action!r}")
    return planner(_Planning(machine, part, chosen, scope, by, None if by == "rule" else scope.controller, did), action)


class _Planning(NamedTuple):
    """What every planner is given besides its action: the machine, the
    action's part number, its chosen cards, who is asking, the ``by`` and
    ``actor`` of its events, and what the effect did so far."""

    machine: Machine
    part: int
    chosen: dict[str, list[str]]
    scope: Scope
    by: str
    actor: str | None
    did: dict[str, int] | None


def _card_event(name: str, base: str | None, card: Card, by: str, actor: str | None, **extra: Any) -> Event:
    return Event(name=name, base=base, card=card.id, player=card.owner, by=by, actor=actor, **extra)


def _plan_move(planning: _Planning, action: Move) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    ops: list[Op] = []
    parent = (chosen.get("under") or [None])[0]
    if action.to == SOURCES and parent is None:
        return ops  # nothing to stack it under: the move does not happen
    for card_id in chosen.get("card", []):
        card = state.cards[card_id]
        if card.zone == action.to and (action.to != SOURCES or card.under == parent):
            continue
        if action.from_ is not None and card.zone != action.from_:
            continue  # not where the action takes cards from
        if action.to == SOURCES and _would_circle(state, card_id, parent):
            continue
        if by == "effect" and _unaffected(state, card, actor):
            continue  # effects do not move it (Digimon CR 15-15-5-1)
        event = _card_event(
            action.as_ or "moved", "moved" if action.as_ else None, card, by, actor, from_=card.zone, to=action.to
        )
        ops.append(
            Op(
                part=part,
                event=event,
                subject=card_id,
                incarnation=card.incarnation,
                data=(("under", parent), ("alone", action.alone)),
            )
        )
    return ops


def _plan_stack(planning: _Planning, action: Stack) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    ops: list[Op] = []
    onto = chosen.get("onto", [])
    for card_id in chosen.get("card", [])[:1]:
        if not onto or onto[0] == card_id:
            continue
        card = state.cards[card_id]
        below = state.cards[onto[0]]
        if below.zone == SOURCES or _would_circle(state, card_id, below.id):
            continue  # only a top card can be covered, and never by its own pile
        event = _card_event(action.as_ or "stacked", "moved", card, by, actor, from_=card.zone, to=below.zone)
        ops.append(
            Op(
                part=part,
                event=event,
                subject=card_id,
                incarnation=card.incarnation,
                data=(("onto", below.id), ("onto_incarnation", below.incarnation)),
            )
        )
    return ops


def _counted_players(state: Any, who: str, controller: str) -> tuple[str, ...]:
    """The players a draw or a gain for ``who`` is for: with more than two
    players, ``opponent`` is each opponent, in turn order."""
    if who == "opponent" and len(state.players) > 2:
        return state.opponents(controller)
    return (relative_player(state, who, controller),)


def _plan_draw(planning: _Planning, action: Draw) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    count = machine.view.amount(action.count, scope, did)
    if count <= 0:
        return []
    name, base = action.as_ or "drawn", "drawn" if action.as_ else None
    return [
        Op(part=part, event=Event(name=name, base=base, player=player, amount=count, by=by, actor=actor))
        for player in _counted_players(machine.state, action.player, scope.controller)
    ]


def _plan_gain(planning: _Planning, action: Gain) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    amount = machine.view.amount(action.amount, scope, did)
    if amount <= 0:
        return []
    base = "gained" if action.sign > 0 else "lost"
    ops = []
    for player in _counted_players(machine.state, action.player, scope.controller):
        event = Event(
            name=action.as_ or base,
            base=base if action.as_ else None,
            player=player,
            counter=action.counter,
            amount=amount,
            by=by,
            actor=actor,
        )
        ops.append(Op(part=part, event=event, data=(("delta", action.sign * amount),)))
    return ops


def _plan_flag(planning: _Planning, action: Flag) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    ops: list[Op] = []
    for card_id in chosen.get("card", []):
        card = state.cards[card_id]
        if by == "effect" and _unaffected(state, card, actor):
            continue  # it is not suspended, not tapped (Digimon CR 15-15-5-1)
        if action.set_ is not None and action.set_ in card.flags and any(mod.flag == action.set_ for mod in card.mods):
            # set for a while already: this setting keeps it longer (or for good), with no event
            mod = (
                Mod(flag=action.set_, until=action.until, effect=scope.key, player=scope.controller)
                if action.until is not None
                else None
            )
            event = _card_event("flag_set", None, card, by, actor, flag=action.set_)
            ops.append(
                Op(part=part, event=event, subject=card_id, incarnation=card.incarnation, data=(("renew", mod),))
            )
            continue
        if action.set_ is not None and action.set_ not in card.flags:
            name, base, flag = action.as_ or "flag_set", "flag_set", action.set_
        elif action.clear is not None and action.clear in card.flags:
            name, base, flag = action.as_ or "flag_cleared", "flag_cleared", action.clear
        else:
            continue  # nothing to do: no action, no event
        event = _card_event(name, base if action.as_ else None, card, by, actor, flag=flag)
        data: tuple = ()
        if action.until is not None and action.set_ is not None:
            data = (("mod", Mod(flag=flag, until=action.until, effect=scope.key, player=scope.controller)),)
        ops.append(Op(part=part, event=event, subject=card_id, incarnation=card.incarnation, data=data))
    return ops


def _plan_change(planning: _Planning, action: Change) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    amount = machine.view.amount(action.by_amount, scope, did)
    ops = []
    for card_id in chosen.get("card", []):
        card = state.cards[card_id]
        event = _card_event(
            action.as_ or "stat_changed",
            "stat_changed" if action.as_ else None,
            card,
            by,
            actor,
            stat=action.stat,
            amount=amount,
        )
        mod = Mod(stat=action.stat, by=amount, until=action.until, effect=scope.key, player=scope.controller)
        ops.append(Op(part=part, event=event, subject=card_id, incarnation=card.incarnation, data=(("mod", mod),)))
    return ops


def _plan_grant(planning: _Planning, action: Grant) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    ops = []
    for card_id in chosen.get("card", []):
        card = state.cards[card_id]
        if by == "effect" and _unaffected(state, card, actor):
            continue  # it is not considered to have the effect (Digimon CR 15-15-5-4)
        event = _card_event(action.as_ or "gained_effect", "gained_effect" if action.as_ else None, card, by, actor)
        mod = Mod(ability=action.ability, key=action.key, until=action.until, effect=scope.key, player=scope.controller)
        ops.append(Op(part=part, event=event, subject=card_id, incarnation=card.incarnation, data=(("grant", mod),)))
    return ops


def _plan_battle(planning: _Planning, action: Battle) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    return _battle_ops(machine, part, chosen, by if by != "effect" else "battle", actor, action.hold)


def _plan_emit(planning: _Planning, action: Emit) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    ops = []
    player = relative_player(state, action.player, scope.controller) if action.player else None
    if action.card is None:
        event = Event(name=action.event, player=player or scope.controller, by=by, actor=actor, reason=action.reason)
        ops.append(Op(part=part, event=event))
    for card_id in chosen.get("card", []):
        card = state.cards[card_id]
        event = Event(
            name=action.event, card=card_id, player=player or card.owner, by=by, actor=actor, reason=action.reason
        )
        ops.append(Op(part=part, event=event, subject=card_id, incarnation=card.incarnation))
    return ops


#: each primitive action's planner: its ops, given its chosen cards
_PLANNERS: dict[type, Callable[..., list[Op]]] = {
    Move: _plan_move,
    Stack: _plan_stack,
    Draw: _plan_draw,
    Gain: _plan_gain,
    Flag: _plan_flag,
    Change: _plan_change,
    Grant: _plan_grant,
    Battle: _plan_battle,
    Emit: _plan_emit,
}


def _unaffected(state: Any, card: Card, actor: str | None) -> bool:
    """Whether effects of ``actor`` leave ``card`` alone (Digimon CR
    15-15-5) — the words looked at first: most cards carry neither."""
    return card.carries_unaffected() and card.unaffected_by(actor, state.controller(card.id))


def _battle_ops(
    machine: Machine, part: int, chosen: dict[str, list[str]], by: str, actor: str | None, hold: str | None = None
) -> list[Op]:
    """A battle's ops: what the game says it comes to, as it is now."""
    state = machine.state
    card = (chosen.get("card") or [None])[0]
    against = (chosen.get("against") or [None])[0]
    if card is None or (against is not None and against == card):
        return []
    result = machine.ruleset.battle(state, card, against, machine.view.stat)
    ruleset = machine.ruleset
    ops = []
    # who won and lost first: a loser's event is about it as it was, before it is destroyed
    other = {card: against, against: card}
    outcomes = [(result.winner, "won_battle")] if result.winner is not None else []
    outcomes += [(card_id, "lost_battle") for card_id in (result.destroyed if result.losers is None else result.losers)]
    for card_id, name in outcomes:
        who = state.cards[card_id]
        event = Event(name=name, card=card_id, player=who.owner, by=by, actor=actor, against=other.get(card_id))
        ops.append(Op(part=part, event=event, subject=card_id, incarnation=who.incarnation))
    for card_id in result.destroyed:
        loser = state.cards[card_id]
        if hold is not None:  # destroyed now, moved by a later step: it carries the flag until then
            if hold not in loser.flags:
                event = Event(
                    name="flag_set",
                    card=card_id,
                    player=loser.owner,
                    by=by,
                    actor=actor,
                    flag=hold,
                    against=other.get(card_id),
                )
                ops.append(Op(part=part, event=event, subject=card_id, incarnation=loser.incarnation))
            continue
        event = Event(
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
        ops.append(
            Op(
                part=part,
                event=event,
                subject=card_id,
                incarnation=loser.incarnation,
                data=(("under", None), ("alone", False)),
            )
        )
    for player, amount in result.damage:
        if amount > 0:
            event = Event(name="lost", player=player, counter=result.counter, amount=amount, by=by, actor=actor)
            ops.append(Op(part=part, event=event, data=(("delta", -amount),)))
    return ops


def _would_circle(state: Any, card_id: str, parent: str | None) -> bool:
    """Whether putting ``card_id`` under (or onto) ``parent`` would stack a
    card under itself: ``parent`` is the card or lies in its own pile."""
    return parent == card_id or any(c.id == parent for c in state.stack_below(card_id))


class _Moment:
    """The cards moving at one moment: the events so far, and every card
    that moved as it was just before the moment."""

    __slots__ = ("machine", "state", "events", "before")

    def __init__(self, machine: Machine, events: list[Event], before: dict[str, Card]) -> None:
        self.machine = machine
        self.state = machine.state
        self.events = events
        self.before = before

    def move(
        self,
        card: Card,
        to: str,
        under: str | None,
        by: str | None,
        actor: str | None,
        name: str,
        base: str | None,
        against: str | None = None,
    ) -> None:
        """Move a card, and the pile under it (where the game puts it)."""
        state, events = self.state, self.events
        self.before.setdefault(card.id, card)
        if card.zone == SOURCES:
            # taken out of a pile: the cards under it stay in the pile, where it was
            for child in state.under(card.id):
                state.replace(evolve(child, under=card.under))
            stack = []
        else:
            stack = state.stack_below(card.id) if to != SOURCES else []
        ruleset = self.machine.ruleset
        arrived = to
        if TOKEN in card.types and card.zone in ruleset.field_zones and to not in ruleset.field_zones:
            # a token leaving the field ceases to exist, having got there or not as the game says
            arrived = to if ruleset.info.tokens_arrive else NOWHERE
            to = NOWHERE
        moved = evolve(
            card,
            zone=to,
            under=under if to == SOURCES else None,
            flags=frozenset(),
            mods=(),
            incarnation=card.incarnation + 1,
        )
        state.replace(moved)
        events.append(
            Event(
                name=name,
                base=base,
                card=card.id,
                player=card.owner,
                from_=card.zone,
                to=arrived,
                by=by,
                actor=actor,
                against=against,
            )
        )
        if stack:
            zone = self.machine.ruleset.under_cards_zone(state, card, to)
            for child in stack:
                self.before.setdefault(child.id, child)
                state.replace(
                    evolve(
                        child,
                        zone=zone,
                        under=child.under if zone == SOURCES else None,
                        flags=frozenset(),
                        mods=(),
                        incarnation=child.incarnation + 1,
                    )
                )
                events.append(
                    Event(
                        name="moved", card=child.id, player=child.owner, from_=child.zone, to=zone, by=by, actor=actor
                    )
                )

    def move_alone(self, card: Card, to: str, by: str | None, actor: str | None, name: str, base: str | None) -> None:
        """Move only the top card; the card directly under it takes its place."""
        state = self.state
        children = state.under(card.id)
        if not children:
            self.move(card, to, None, by, actor, name, base)
            return
        heir, others = children[0], children[1:]
        self.before.setdefault(card.id, card)
        self.before.setdefault(heir.id, heir)
        state.replace(evolve(card, zone=to, under=None, flags=frozenset(), mods=(), incarnation=card.incarnation + 1))
        state.replace(
            evolve(
                heir,
                zone=card.zone,
                under=card.under,
                flags=card.flags,
                mods=card.mods,
                incarnation=heir.incarnation + 1,
            )
        )
        for other in others:
            state.replace(evolve(other, under=heir.id))
        self.events.append(
            Event(name=name, base=base, card=card.id, player=card.owner, from_=card.zone, to=to, by=by, actor=actor)
        )
        self.events.append(
            Event(name="uncovered", card=heir.id, player=heir.owner, from_=SOURCES, to=card.zone, by=by, actor=actor)
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
    actor: str | None = None
    made, last = 0, -1  # events counted so far, and the part of the op before
    for op in ops:
        if counts is not None:
            counts[last] = counts.get(last, 0) + len(events) - made
            made, last = len(events), op.part
        event = op.event
        actor = event.actor
        if op.subject is None:
            if event.counter is not None:
                delta = op.get("delta")
                player = event.player or ""
                old = state.counter(player, event.counter)
                for who, value in machine.ruleset.linked_counters(state, player, event.counter, old + delta).items():
                    state.set_counter(who, event.counter, value)
                moved = abs(state.counter(player, event.counter) - old)
                if moved:  # a cap may stop it short, or at once: then nothing happened
                    events.append(event if moved == event.amount else evolve(event, amount=moved))
            elif event.name == "drawn" or event.base == "drawn":
                player = event.player or ""
                deck = [c for c in state.in_zone(machine.ruleset.deck_zone) if c.owner == player][: event.amount]
                for card in deck:
                    before.setdefault(card.id, card)
                    state.replace(
                        evolve(
                            card,
                            zone=machine.ruleset.hand_zone,
                            under=None,
                            flags=frozenset(),
                            mods=(),
                            incarnation=card.incarnation + 1,
                        )
                    )
                events.append(evolve(event, cards=tuple(c.id for c in deck)))
            else:
                events.append(event)
            continue
        card = state.cards.get(op.subject)
        if card is None or card.incarnation != op.incarnation:
            continue  # it moved or left since the action was planned
        if event.base == "moved" and op.get("onto") is not None:  # stack
            below = state.cards[op.get("onto")]
            if below.incarnation != op.get("onto_incarnation"):
                continue
            before.setdefault(card.id, card)
            before.setdefault(below.id, below)
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
                evolve(
                    below, zone=SOURCES, under=card.id, flags=frozenset(), mods=(), incarnation=below.incarnation + 1
                )
            )
            events.append(event)
            events.append(
                Event(
                    name="covered",
                    card=below.id,
                    player=below.owner,
                    from_=below.zone,
                    to=SOURCES,
                    by=event.by,
                    actor=actor,
                )
            )
        elif event.to is not None and event.from_ is not None:  # move
            if card.zone != event.from_:
                continue
            if op.get("alone"):
                _Moment(machine, events, before).move_alone(card, event.to, event.by, actor, event.name, event.base)
            else:
                _Moment(machine, events, before).move(
                    card, event.to, op.get("under"), event.by, actor, event.name, event.base, event.against
                )
        elif event.flag is not None:
            flags = set(card.flags)
            mods = card.mods
            if any(name == "renew" for name, _ in op.data):
                renewed = op.get("renew")
                if renewed is None:  # set for good now
                    mods = tuple(m for m in mods if m.flag != event.flag)
                else:
                    mods = mods + (renewed,)
                state.replace(evolve(card, mods=mods))
                continue
            if event.name == "flag_set" or event.base == "flag_set":
                if event.flag in flags:
                    continue
                flags.add(event.flag)
                if op.get("mod") is not None:
                    mods = mods + (op.get("mod"),)
            else:
                if event.flag not in flags:
                    continue
                flags.discard(event.flag)
                mods = tuple(m for m in mods if m.flag != event.flag)
            state.replace(evolve(card, flags=frozenset(flags), mods=mods))
            events.append(event)
        elif event.stat is not None:
            state.replace(evolve(card, mods=card.mods + (op.get("mod"),)))
            events.append(event)
        elif op.get("grant") is not None:
            state.replace(evolve(card, mods=card.mods + (op.get("grant"),)))
            events.append(event)
        else:  # a declaration about a card
            events.append(event)
    if counts is not None:
        counts[last] = counts.get(last, 0) + len(events) - made
    return events, before
