"""What every action's home shares: the records an action is planned into
(:class:`Op`, given a :class:`Planning`), the :class:`Moment` its ops are
carried out at, and the reader and writer a scenario file is read and
written back with (:class:`Reader`, :class:`Writer`).

An action's home (``move.py``, ``flag.py``, …) gets its collaborators as
arguments: the runtime's machine through :class:`Planning` and
:class:`Moment`, the scenario compiler as a :class:`Reader`, the unparser
as a :class:`Writer`.  So the homes sit below both the runtime and the
scenario files, and neither of those imports the other.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from attrs import evolve

from ..model.records import maker
from ..model.values import NOWHERE, SOURCES, TOKEN, Action, Card, Event, make_event, moved

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

if TYPE_CHECKING:
    from ..model.state import GameState
    from ..model.values import Ability, Condition, Selector, Value
    from ..runtime.evaluate import Scope
    from ..runtime.machine import Machine

#: the flags of a card that arrives with none (one object, shared)
_NO_FLAGS: frozenset[str] = frozenset()

__all__ = [
    "ActionKind",
    "Apply",
    "Moment",
    "Op",
    "Planning",
    "Reader",
    "Writer",
    "card_event",
    "counted_players",
    "declare",
    "relative_player",
    "unaffected",
    "would_circle",
]

#: Carries out one op: ``(moment, op, card)``, ``card`` being the op's
#: subject as it is now (``None`` for an op about no card).
Apply = Callable[["Moment", "Op", "Card | None"], None]


class Moment:
    """One moment at which ops are carried out: the machine, the events so
    far, and every card that moved as it was just before the moment."""

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
        flags: tuple[str, ...] | None = None,
    ) -> None:
        """Move a card, and the pile under it (where the game puts it); it
        arrives with ``flags`` (none by default)."""
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
            info = ruleset.info
            arrived = to if info.tokens_arrive and to not in info.tokens_never_added_to else NOWHERE
            to = NOWHERE
        state.replace(
            moved(
                card, to, under if to == SOURCES else None, frozenset(flags) if flags and to != NOWHERE else _NO_FLAGS
            )
        )
        events.append(
            make_event(
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
            self._move_pile(card, to, stack, by, actor)

    def _move_pile(self, card: Card, to: str, stack: list[Card], by: str | None, actor: str | None) -> None:
        """The cards that were under ``card`` go where the game puts them."""
        state = self.state
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
            self.events.append(
                make_event(
                    name="moved", card=child.id, player=child.owner, from_=child.zone, to=zone, by=by, actor=actor
                )
            )

    def move_alone(
        self,
        card: Card,
        to: str,
        by: str | None,
        actor: str | None,
        name: str,
        base: str | None,
        flags: tuple[str, ...] | None = None,
    ) -> None:
        """Move only the top card; the card directly under it takes its place."""
        state = self.state
        children = state.under(card.id)
        if not children:
            self.move(card, to, None, by, actor, name, base, None, flags)
            return
        heir, others = children[0], children[1:]
        self.before.setdefault(card.id, card)
        self.before.setdefault(heir.id, heir)
        state.replace(
            evolve(card, zone=to, under=None, flags=frozenset(flags or ()), mods=(), incarnation=card.incarnation + 1)
        )
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
            make_event(
                name=name, base=base, card=card.id, player=card.owner, from_=card.zone, to=to, by=by, actor=actor
            )
        )
        self.events.append(
            make_event(
                name="uncovered", card=heir.id, player=heir.owner, from_=SOURCES, to=card.zone, by=by, actor=actor
            )
        )


def declare(moment: Moment, op: Op, card: Card | None) -> None:
    """An op that only says something happened: its event, as planned."""
    moment.events.append(op.event)


@frozen(kw_only=True, weakref_slot=False)  # made by make_op (records.maker)
class Op:
    """One subject of one primitive action, about to happen.

    ``apply`` is how its action's home carries it out (:data:`Apply`)."""

    part: int
    event: Event
    subject: str | None = None
    incarnation: int | None = None
    data: tuple[tuple[str, Any], ...] = ()
    apply: Apply = declare

    def get(self, key: str, default: Any = None) -> Any:
        for name, value in self.data:
            if name == key:
                return value
        return default

    def __deepcopy__(self, memo: dict[int, Any]) -> Op:
        return self


class MakeOp(Protocol):
    """The signature of :data:`make_op`: :class:`Op`'s fields in order, each
    by place or by name (checked against the class: ``tests/core/test_records.py``)."""

    def __call__(
        self,
        part: int,
        event: Event,
        subject: str | None = ...,
        incarnation: int | None = ...,
        data: tuple[tuple[str, Any], ...] = ...,
        apply: Apply = ...,
    ) -> Op: ...


#: :class:`Op`'s keywords, at slot speed (:func:`~tcgtrig.model.records.maker`)
make_op: MakeOp = maker(Op)


class Planning(NamedTuple):
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


#: ``Planning`` from one tuple of its seven fields, at C speed (the class's
#: own ``__new__`` is a Python function): every action planned makes one.
#: Typed field by field, so mypy checks the tuple where an action is planned.
make_planning: Callable[
    [tuple[Machine, int, dict[str, list[str]], Scope, str, str | None, dict[str, int] | None]], Planning
] = functools.partial(tuple.__new__, Planning)


class Reader(Protocol):
    """What an action's home reads its arguments with: the scenario
    compiler (:class:`tcgtrig.scenario.compiler.Compiler`).  Each method
    raises a :class:`~tcgtrig.base.errors.ScenarioError` naming the file,
    the key and what was expected."""

    writer: str
    grants: set[str]
    printed_keys: set[str]
    context: str

    def error(self, path: tuple[Any, ...], message: str, options: Sequence[str] | None = None) -> Exception: ...
    def only(self, args: dict[str, Any], at: tuple[Any, ...], allowed: Sequence[str]) -> None: ...
    def need(self, args: dict[str, Any], at: tuple[Any, ...], *keys: str) -> None: ...
    def text(self, raw: Any, at: tuple[Any, ...], *, choices: Sequence[str] | None = None) -> str: ...
    def line(self, raw: Any, at: tuple[Any, ...]) -> str: ...
    def player(self, raw: Any, at: tuple[Any, ...]) -> str: ...
    def amount(self, raw: Any, at: tuple[Any, ...], *, signed: bool = False) -> Value: ...
    def selector(self, raw: Any, at: tuple[Any, ...]) -> Selector: ...
    def one_card(self, raw: Any, at: tuple[Any, ...]) -> Selector: ...
    def flag_value(self, raw: Any, at: tuple[Any, ...]) -> bool: ...
    def words(self, raw: Any, at: tuple[Any, ...]) -> tuple[str, ...]: ...
    def gained_ability(self, raw: Any, at: tuple[Any, ...]) -> Ability: ...
    def actions(self, raw: Any, path: tuple[Any, ...], depth: int = 0) -> tuple[Action, ...]: ...
    def condition(self, raw: Any, at: tuple[Any, ...]) -> Condition: ...
    def describe(self, value: Any) -> str: ...


class Writer(Protocol):
    """What an action's home writes itself back with (:mod:`tcgtrig.scenario.unparse`)."""

    def card(self, selector: Any) -> Any: ...
    def amount(self, amount: Any) -> Any: ...
    def ability(self, ability: Ability) -> dict[str, Any]: ...
    def actions(self, actions: Sequence[Action]) -> list[dict[str, Any]]: ...
    def condition(self, condition: Any) -> dict[str, Any]: ...


#: ``read(reader, word, args, at, label=…, by=…, as_=…)``: the action a word and its arguments mean
Read = Callable[..., Action]


@frozen
class ActionKind:
    """One primitive action, all of it in one place: its scenario words,
    its model class, the selector fields whose cards are chosen before it
    is planned, how its arguments are read and written back, and how it is
    planned into ops (each op carries how it is carried out)."""

    words: tuple[str, ...]
    model: type[Any]
    card_fields: tuple[str, ...]
    read: Read
    write: Callable[[Any, Writer], dict[str, Any]]
    plan: Callable[[Planning, Any], list[Op]]


def relative_player(state: GameState, who: str, controller: str) -> str:
    """Turn ``self``/``opponent``/``turn_player``/a player name into a player name."""
    if who == "self":
        return controller
    if who == "opponent":
        return state.opponent(controller)
    if who == "turn_player":
        return state.turn_player
    return who


def counted_players(state: GameState, who: str, controller: str) -> tuple[str, ...]:
    """The players a draw or a gain for ``who`` is for: with more than two
    players, ``opponent`` is each opponent, in turn order."""
    if who == "opponent" and len(state.players) > 2:
        return state.opponents(controller)
    return (relative_player(state, who, controller),)


def card_event(name: str, base: str | None, card: Card, by: str, actor: str | None, **extra: Any) -> Event:
    return make_event(name=name, base=base, card=card.id, player=card.owner, by=by, actor=actor, **extra)


def unaffected(state: GameState, card: Card, actor: str | None) -> bool:
    """Whether effects of ``actor`` leave ``card`` alone (Digimon CR
    15-15-5) — the words looked at first: most cards carry neither."""
    return card.carries_unaffected() and card.unaffected_by(actor, state.controller(card.id))


def would_circle(state: GameState, card_id: str, parent: str | None) -> bool:
    """Whether putting ``card_id`` under (or onto) ``parent`` would stack a
    card under itself: ``parent`` is the card or lies in its own pile."""
    return parent == card_id or any(c.id == parent for c in state.stack_below(card_id))


def some(**items: Any) -> dict[str, Any]:
    """The items whose value is not ``None``/``False``/empty."""
    return {key: value for key, value in items.items() if value not in (None, False, (), [], {})}


def named(action: Any) -> dict[str, Any]:
    """``as`` and ``label`` written back, when set."""
    return {**({"as": action.as_} if getattr(action, "as_", None) else {}), **some(label=action.label)}
