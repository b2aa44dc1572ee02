"""The resolution's units of pending work.

Each frame is a small state machine with a ``step(machine)`` method; the
:class:`~tcgtrig.runtime.machine.Machine` keeps them on an explicit stack, so no
frame calls another and a cascade of any depth needs no Python recursion.  Frames hold only data (and
the machine passes itself in), so copying the stack copies the position.
"""

from __future__ import annotations

import copy as _copy
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from attrs import define, evolve, field, fields, setters

from ..model.decision import DECLINE, NONE, PASS, USE, Decision, EffectLabels, make_decision
from ..model.pending import PendingEffect, PendingPool, event_signature
from ..model.records import maker
from ..model.values import Action, May, Query, Together
from . import actions as _actions
from .evaluate import Scope
from .machine_base import MEMORY_EVERY_LINKS

if TYPE_CHECKING:
    from .machine import Machine

__all__ = [
    "EffectRun",
    "Frame",
    "MainLoop",
    "Settle",
    "Declare",
    "Activation",
    "ResolveEffect",
    "RunActions",
    "MayFrame",
    "Perform",
    "InterruptWindow",
    "InlineActivation",
    "ChainWindow",
    "ResolveChain",
    "ApplyConsequence",
    "DelayedStart",
    "flatten",
]


_T = TypeVar("_T")

#: values a copy shares as they are: nothing inside them changes
_ATOMS = frozenset({str, int, bool, float, type(None)})
#: the words a field's declared type may be made of for copies to share
#: its value: frozen values all the way down (any other word, a list, a
#: frame, ``Any``, makes copies copy it)
_FROZEN_WORDS = frozenset(
    {"str", "int", "bool", "float", "None", "tuple", "Action", "May", "PendingEffect", "Query", "Scope"}
)
#: each live class's fields, found once: (name, shared by copies)
_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _fields_of(cls: type) -> tuple[tuple[str, bool], ...]:
    found = tuple(
        (attribute.name, set(re.findall(r"\w+", str(attribute.type))) <= _FROZEN_WORDS) for attribute in fields(cls)
    )
    _FIELDS[cls] = found
    return found


def shallow_copy(obj: _T) -> _T:
    """A new attrs object with the same field values (what :func:`copy.copy`
    does, without rebuilding it through ``__reduce_ex__``)."""
    cls = type(obj)
    new = object.__new__(cls)
    put = object.__setattr__
    for name, _ in _FIELDS.get(cls) or _fields_of(cls):
        put(new, name, getattr(obj, name))
    return new


class Live:
    """A live object of the resolution (a frame, an effect being carried
    out), copied field by field when a position is copied (``explore``):
    a field whose declared type is a frozen value is shared, the others are
    deep-copied, without :func:`copy.deepcopy`'s generic rebuilding of
    every object."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        cls = type(self)
        new = object.__new__(cls)
        memo[id(self)] = new
        deepcopy, atoms, put = _copy.deepcopy, _ATOMS, object.__setattr__
        for name, shared in _FIELDS.get(cls) or _fields_of(cls):
            value = getattr(self, name)
            put(new, name, value if shared or type(value) in atoms else deepcopy(value, memo))
        return new


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class EffectRun(Live):
    """One effect being carried out.

    :param scope: what ``self``, ``source``, ``event`` and players mean.
    :param instance: the effect's instance id (events it causes point here).
    :param trigger_cause: the instance its triggers are attributed to (an
        interrupt's triggers belong to the action it interrupted).
    :param depth: derivation depth; what it triggers is one deeper.
    :param by: ``effect`` or ``rule``: the ``by`` of its events.
    :param did: what its actions affected, by label and ``previous``.
    :param target: for an interrupt, the action it interrupts.
    :param ops: for an interrupt, the indexes of the target's ops it matched.
    :param start: the scenario's start actions (chain games: ``activate``
        there starts the chain).
    :param collect: for a replacement applying together with others, where
        its primitive actions are gathered instead of performed.
    """

    scope: Scope
    instance: int
    trigger_cause: int
    depth: int
    by: str = "effect"
    did: dict[str, int] = field(factory=dict)
    target: Perform | None = None
    ops: tuple[int, ...] = ()
    start: bool = False
    collect: list[tuple[Action, EffectRun]] | None = None

    def signature(self) -> tuple[Any, ...]:
        """What makes this run what it is, apart from its instance ids:
        its scope — whose effect, the events it refers to (``event.card``),
        the targets chosen, what ``self`` is — and what its actions did
        (for :meth:`~tcgtrig.runtime.machine.Machine.position`)."""
        scope = self.scope
        return (
            scope.key,
            scope.controller,
            scope.card,
            scope.self_card,
            scope.self_incarnation,
            tuple(event_signature(e) for e in scope.events),
            tuple((name, chosen) for name, _, chosen in scope.targets),
            scope.fixed,
            self.by,
            tuple(sorted(self.did.items())),
        )

    def note(self, count: int, label: str | None) -> None:
        """An action of this effect affected ``count`` things: what ``did:
        previous`` (and ``did: LABEL``, if it has a label) reads."""
        self.did["previous"] = count
        if label:
            self.did[label] = count


class MakeRun(Protocol):
    """The signature of :data:`make_run`: :class:`EffectRun`'s fields in order, each
    by place or by name (checked against the class: ``tests/core/test_records.py``)."""

    def __call__(
        self,
        scope: Scope,
        instance: int,
        trigger_cause: int,
        depth: int,
        by: str = ...,
        did: dict[str, int] = ...,
        target: Perform | None = ...,
        ops: tuple[int, ...] = ...,
        start: bool = ...,
        collect: list[tuple[Action, EffectRun]] | None = ...,
    ) -> EffectRun: ...


#: :class:`EffectRun` made without attrs' ``__init__`` called through the type
#: (:func:`~tcgtrig.model.records.maker`): one for every effect that activates
make_run: MakeRun = maker(EffectRun)


# ---------------------------------------------------------------------------
# Frames
# ---------------------------------------------------------------------------


class Frame(Live):
    """A unit of pending work; :meth:`step` advances it by one move."""

    __slots__ = ()

    def step(self, machine: Machine) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def detail(self) -> tuple[Any, ...]:
        """What this frame holds besides its phase and index that decides
        what comes next — the cards picked so far, the targets chosen —
        without instance ids (:meth:`~tcgtrig.runtime.machine.Machine.position`;
        issue 37, item 21).  Frames whose future their phase and index
        decide hold nothing more."""
        return ()


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class MainLoop(Frame):
    """Settle, then activate pending effects one at a time until none is left.

    ``nested``: a loop inside the start actions (``resolve_pending``) that
    hands back to them when nothing is pending, instead of ending.
    """

    start: tuple[Action, ...]
    phase: str = "start"
    labels: Any = None
    nested: bool = False

    def step(self, machine: Machine) -> None:
        """Settle, then pick the next pending effect (or ask which, or see
        that none is left), then take it: each part as soon as nothing
        waits after the one before, the phase saying where a step resumes.

        Why one function: it runs for every effect, and in CPython a call
        costs about as much as one of these parts (some 600 instructions);
        settling, picking and taking follow one another here instead, and
        so do the effects of a cascade while nothing waits between them.
        """
        frames = machine.frames
        while True:
            phase = self.phase
            if phase == "picked":
                effect = self.labels.resolve(machine.take_answer())
                self.labels = None
            else:
                if phase == "start":
                    machine.begin(self.start)
                    self.phase = "settle"
                    return
                if phase == "settle":
                    self.phase = "pick"
                    ruleset, state = machine.ruleset, machine.state
                    # the game's rules first (a game with no rules hook is not asked: the cards it would be shown wait)
                    todo = ruleset.processes_rules and ruleset.rules_processing(
                        state, machine.view, state.take_touched()
                    )
                    if todo or machine.delayed:
                        Settle.begin(machine, todo or ())  # the rules act, or what a delay put off may be due
                    elif machine.matched and (not machine.chain_links or machine.on_top):
                        machine.admit()  # Settle.admit(machine), without the call
                    if machine.decision is not None or machine.outcome is not None:
                        return  # a question, or the end
                    if not frames or frames[-1] is not self:
                        return  # something waits: the pick is a later step's
                # pick: the next pending effect, or ask which; with none pending, open a chain window, end the
                # turn, or finish
                if machine.check_loop("pick"):
                    return
                pool = machine.pool
                bucket = pool.next_bucket()
                if machine.conditional.effects and machine.recheck_trigger_conditions(bucket):
                    bucket = pool.next_bucket()  # some lapsed: what may go next now
                if not bucket:
                    self.nothing_pending(machine)
                    return
                effect = next(iter(bucket.values()))
                ruleset = machine.ruleset
                # who orders: the game, or the first effect's controller (Ruleset.who_orders' default, without the call)
                player = ruleset.who_orders(machine.state, bucket) if ruleset.orders_pending else effect.controller
                if machine.due and player in machine.due:
                    # the player declares their uses before processing anything
                    machine.push(Declare(machine.declarations_due(player)))
                    return
                if len(bucket) != 1:
                    self.labels = ask_order(machine, pool, bucket, player, "pending effect")
                    self.phase = "picked"
                    return
                # the one effect: nothing to order, no decision to build
            # take: it leaves the pool and is activated (with the rule that put it first, if another waits)
            pool = machine.pool
            pool.remove(effect.id)
            waiting = pool._rank_of  # whether another effect waits (bool(pool), read at C speed)
            if waiting or machine.offers:
                machine.place(effect, next(iter(pool.next_bucket().values())) if waiting else machine.offers[0])
            self.phase = "pick" if machine.chain else "settle"
            Activation.attempt(machine, effect, "main", None, None, None)
            # nothing waits after it: the next effect, in this step (what the next step would do), unless the
            # machine moves one step at a time (saving.run_until: a stop falls after the activation it counts)
            if (
                machine.one_move
                or self.phase != "settle"
                or machine.decision is not None
                or machine.outcome is not None
                or not frames
                or frames[-1] is not self
            ):
                return

    def nothing_pending(self, machine: Machine) -> None:
        """Nothing is pending: open a chain window, end the turn, or finish."""
        if machine.chain_links or machine.offers:
            self.phase = "settle"
            # a window on the chain: the frame goes on the stack only if someone may respond; with nothing
            # offered and no activated ability anywhere, both players pass at once (as ChainWindow.step has
            # them do) and the chain resolves, now rather than on the next step
            if machine.offers or machine.index.activated:
                machine.push(ChainWindow())
            elif machine.chain_links:
                resolving = ResolveChain()
                machine.push(resolving)
                if machine.frames[-1] is resolving:
                    resolving.step(machine)
        elif machine.open_window_after_action():
            # something happened that started no chain: the players may start one
            self.phase = "settle"
            machine.push(ChainWindow(open=True))
        elif self.nested:
            machine.pop()
        elif machine.end_turn_if_over():
            self.phase = "settle"  # what the new turn's start triggers
        else:
            machine.finish()


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class Settle(Frame):
    """Rules processing until quiet, then what a ``delay`` put off if the
    game says it is due (and the rules again), then what triggered becomes
    pending."""

    phase: str = "rules"

    @classmethod
    def begin(cls, machine: Machine, todo: Sequence[Any]) -> None:
        """Settle now, ``todo`` being what the game's rules do first (its
        ``rules_processing``, just asked): the frame goes on the stack only
        if they act (and must be asked again once their actions are done),
        or what a delay put off happens first."""
        if not todo:
            if machine.delayed:  # what a delay put off may be due: it happens first, then this settles again
                machine.push(cls())
                if machine.begin_delayed():
                    return
                machine.pop()
            cls.admit(machine)
            return
        machine.push(cls())
        if machine.outcome is None and not machine.check_loop("rules"):
            machine.run_rules(todo)

    def step(self, machine: Machine) -> None:
        if self.phase == "rules":
            todo = machine.ruleset.rules_processing(machine.state, machine.view, machine.state.take_touched())
            if not todo:
                if not (machine.delayed and machine.begin_delayed()):
                    self.phase = "admit"  # else what a delay put off happens first, then the rules again
                return
            if machine.check_loop("rules"):
                return
            machine.run_rules(todo)
        else:
            self.admit(machine)
            machine.pop()

    @staticmethod
    def admit(machine: Machine) -> None:
        # what triggers while a chain is built waits for the whole chain, unless the game puts it on top
        if not machine.chain_links or machine.on_top:
            machine.admit()


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class RulesNow(Frame):
    """Rules processing until quiet in the middle of a resolution
    (``GameInfo.rules_between_actions``): as :class:`Settle` does, but what
    it triggers waits for the next settle — nothing resolves in the middle
    of an effect."""

    @classmethod
    def begin(cls, machine: Machine) -> bool:
        """Act now if the rules have anything to do (the frame goes on the
        stack to ask them again once it is done); whether they had."""
        todo = machine.ruleset.rules_processing(machine.state, machine.view, machine.state.take_touched())
        if not todo:
            return False
        machine.push(cls())
        if machine.outcome is None and not machine.check_loop("rules"):
            machine.run_rules(todo)
        return True

    def step(self, machine: Machine) -> None:
        todo = machine.ruleset.rules_processing(machine.state, machine.view, machine.state.take_touched())
        if not todo:
            machine.pop()
        elif not machine.check_loop("rules"):
            machine.run_rules(todo)


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class Declare(Frame):
    """Usage declarations: before a player's pending effects are processed,
    the player declares, one by one in trigger order, whether each of theirs
    whose use is declared will be used.  A declined one leaves the pool; a
    declared one stays, as a mandatory effect."""

    effects: list[PendingEffect]
    index: int = 0
    asking: bool = False

    def detail(self) -> tuple[Any, ...]:
        return (tuple(e.signature() for e in self.effects), self.asking)

    def step(self, machine: Machine) -> None:
        if self.asking:
            effect = self.effects[self.index]
            self.index += 1
            self.asking = False
            if machine.take_answer() == DECLINE:
                machine.pool.remove(effect.id)
                machine.record("declined", effect)
            else:
                effect = evolve(effect, declaration="made")
                machine.pool.replace(effect)
                machine.record("declared", effect)
            return
        while self.index < len(self.effects) and self.effects[self.index].id not in machine.pool:
            self.index += 1
        if self.index >= len(self.effects):
            machine.pop()
            return
        effect = self.effects[self.index]
        machine.ask(
            Decision(
                kind="use",
                player=effect.controller,
                prompt=f"declare the use of {effect.key}?",
                options=(USE, DECLINE),
                default=USE,
                effect=effect.key,
            )
        )
        self.asking = True


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class Activation(Frame):
    """Try to activate one effect: lost? allowed? used? then do it.

    :meth:`attempt` does it all at once; the frame goes on the stack only
    while its player says whether to use it.
    """

    effect: PendingEffect
    window: str
    target: Perform | None = None
    parent: EffectRun | None = None
    collect: InterruptWindow | None = None

    def detail(self) -> tuple[Any, ...]:
        return (self.effect.signature(), self.window, self.parent.signature() if self.parent is not None else None)

    @staticmethod
    def attempt(
        machine: Machine,
        effect: PendingEffect,
        window: str,
        target: Perform | None,
        parent: EffectRun | None,
        collect: InterruptWindow | None,
    ) -> None:
        """Check ``effect`` and, unless its player must first say whether to
        use it, activate it — all now, with no frame built.  Every argument
        is given (a call with defaults to fill in costs more: this runs for
        every effect)."""
        if effect.id in machine.conditional.effects:  # a dict lookup: this runs on every activation
            machine.conditional.discard(effect.id, machine.state)
        ability = effect.ability
        if window == "main" or window == "interrupt":
            ruleset = machine.ruleset
            # the calls only where they may find something: the game checks pending effects, the
            # ability has a trigger condition (what Ruleset.check_pending and trigger_condition_lapsed test first)
            drop = (
                ruleset.check_pending(machine.state, effect, "activation", machine.last_moment)
                if ruleset.checks_pending
                else None
            )
            if drop is None and ability.trigger_condition is not None:
                drop = machine.trigger_condition_lapsed(effect)
            if drop is not None:
                machine.drop(effect, drop)
                return
        # spent? its condition? its cost? its targets? may the game block it? (activation_failure looks at
        # these: with none of them, it is not called)
        reason = (
            machine.activation_failure(effect, window, target)
            if ability.uses_per_turn
            or ability.condition is not None
            or ability.cost
            or ability.targets
            or machine.ruleset.may_block
            else None
        )
        if reason is not None:
            machine.record("failed", effect, reason=reason)
            return
        # a response chosen in a chain window was the choice to use it
        if ability.optional and effect.declaration != "made" and window != "chain":
            machine.push(Activation(effect, window, target, parent, collect=collect))
            machine.ask(
                Decision(
                    kind="use",
                    player=effect.controller,
                    prompt=f"use {effect.key}?",
                    options=(USE, DECLINE),
                    default=USE,
                    effect=effect.key,
                )
            )
            return
        if collect is not None:  # cls.go(...), without the call
            collect.choose(machine, effect)
        else:
            machine.activate(effect, window, target, parent)

    def step(self, machine: Machine) -> None:
        machine.pop()
        if machine.take_answer() == DECLINE:
            machine.record("declined", self.effect)
        else:
            self.go(machine, self.effect, self.window, self.target, self.parent, self.collect)

    @staticmethod
    def go(
        machine: Machine,
        effect: PendingEffect,
        window: str,
        target: Perform | None,
        parent: EffectRun | None,
        collect: InterruptWindow | None,
    ) -> None:
        if collect is not None:
            collect.choose(machine, effect)
        else:
            machine.activate(effect, window, target, parent)


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class ResolveEffect(Frame):
    """Resolve an effect whose cost has just been paid."""

    effect: PendingEffect
    run: EffectRun
    record: bool = True

    def detail(self) -> tuple[Any, ...]:
        return (self.effect.signature(), self.record)

    def step(self, machine: Machine) -> None:
        machine.pop()
        machine.resolve(self.effect, self.run, self.record, None)


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class RunActions(Frame):
    """Carry out a list of actions one after another ("then").  In a game
    whose rules act between the actions of a resolution
    (``GameInfo.rules_between_actions``), they act before each action but
    the first (:class:`RulesNow`)."""

    actions: tuple[Action, ...]
    run: EffectRun
    index: int = 0
    ruled: bool = False  # the rules have acted before the action at ``index``

    def step(self, machine: Machine) -> None:
        if self.index >= len(self.actions):
            machine.pop()
            return
        if self.index and machine.ruleset.rules_between_actions and not self.ruled:
            self.ruled = True
            if RulesNow.begin(machine):
                return  # back here once the rules are quiet
        self.ruled = False
        action = self.actions[self.index]
        self.index += 1
        if self.index == len(self.actions):
            machine.pop()  # the last one: nothing is left to come back to
        machine.begin_action(action, self.run)


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class MayFrame(Frame):
    action: May
    run: EffectRun
    asked: bool = False

    def step(self, machine: Machine) -> None:
        if not self.asked:
            self.asked = True
            machine.ask(
                Decision(
                    kind="may",
                    player=self.run.scope.controller,
                    prompt=f"{self.run.scope.key}: do the optional part?",
                    options=(USE, DECLINE),
                    default=USE,
                    effect=self.run.scope.key,
                )
            )
            return
        chosen = self.action.then if machine.take_answer() == USE else self.action.else_
        machine.pop()
        if chosen:
            machine.push(RunActions(chosen, self.run))


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class Perform(Frame):
    """One primitive action (or a ``together`` group): choose cards,
    open the interrupt window, apply what was not prevented."""

    parts: tuple[Action, ...]
    run: EffectRun
    label: str | None = None
    runs: tuple[EffectRun, ...] | None = None  # per part, when parts come from several effects
    merge_into: Perform | None = None  # replacements' actions happen at the moment of what they replace
    merged: list[_actions.Op] = field(factory=list)
    phase: str = "select"
    #: (part number, card field, its selector) for each selector to resolve
    slots: list[tuple[int, str, Any]] = field(factory=list)
    slot: int = 0
    chosen: list[dict[str, list[str]]] = field(factory=list)
    #: a pick under way (see :func:`pick_step`)
    picking: list[Any] | None = None
    ops: list[_actions.Op] = field(factory=list)
    prevented: set[int] = field(factory=set)

    def step(self, machine: Machine) -> None:
        if self.phase == "select":
            if not self.slots and not self.chosen:
                self.chosen = [dict() for _ in self.parts]
                for number, part in enumerate(self.parts):
                    for name in _actions.card_fields(part):
                        selector = getattr(part, name)
                        if selector is not None:
                            self.slots.append((number, name, selector))
            if self.select(machine):
                return  # waiting for a pick
            self.phase = "plan"
        if self.phase == "plan":
            for number, part in enumerate(self.parts):
                run = self.run_of(number)
                self.ops.extend(_actions.plan(machine, number, part, self.chosen[number], run.scope, run.by, run.did))
            self.phase = "apply"
            if self.ops:
                machine.open_window(self)
                if machine.frames[-1] is not self or machine.decision is not None or machine.outcome is not None:
                    return  # the interrupts and replacements it set off go first
        machine.pop()
        todo = (
            [op for index, op in enumerate(self.ops) if index not in self.prevented]
            if self.prevented
            else list(self.ops)
        )
        if self.merge_into is not None:
            self.merge_into.merged.extend(todo)
            return
        todo.extend(self.merged)
        labelled = len(self.parts) > 1 and any(getattr(part, "label", None) for part in self.parts)
        counts: dict[int, int] | None = {} if labelled else None
        events, before = _actions.apply(machine, todo, counts)
        machine.happened(events, before, self.run)
        if counts is not None:  # a together whose parts are labelled: each part's count under its label
            for number, part in enumerate(self.parts):
                if getattr(part, "label", None) and not self.merged:
                    self.run_of(number).note(counts.get(number, 0), part.label)
        self.run.note(len(events), self.label)

    def run_of(self, number: int) -> EffectRun:
        return self.runs[number] if self.runs is not None else self.run

    def detail(self) -> tuple[Any, ...]:
        """The picks made so far (in a ``together``: each part's), the pick
        under way, what was prevented, and the runs of parts from other
        effects."""
        return (
            self.slot,
            tuple(tuple(sorted((name, tuple(cards)) for name, cards in part.items())) for part in self.chosen),
            _picking(self.picking),
            tuple(sorted(self.prevented)),
            tuple(run.signature() for run in self.runs) if self.runs is not None else (),
        )

    def select(self, machine: Machine) -> bool:
        """Resolve selectors; ask for picks.  True while waiting for an answer."""
        while self.slot < len(self.slots):
            number, name, selector = self.slots[self.slot]
            scope = self.run_of(number).scope
            if self.picking is None:
                candidates = machine.view.select(selector, scope)
                need = picks(machine, selector, scope, self.run_of(number).did)
                if need is not None and need <= 0:
                    candidates = []
                if need is None or (len(candidates) <= need and not selector.upto):
                    self.chosen[number][name] = candidates
                    self.slot += 1
                    continue
                self.picking = [candidates, [], need, selector.upto]
            what = f"'{_actions.describe(self.parts[number])}'"
            picked = pick_step(machine, self.picking, selector, scope, what)
            if picked is None:
                return True
            self.chosen[number][name] = picked
            self.picking = None
            self.slot += 1
        return False


def _picking(picking: list[Any] | None) -> tuple[Any, ...] | None:
    """A pick under way (:func:`pick_step`) as a value: the candidates
    left, the cards picked, how many are needed, whether fewer may do."""
    if picking is None:
        return None
    candidates, picked, need, upto = picking
    return (tuple(candidates), tuple(picked), need, upto)


def picks(machine: Machine, selector: Any, scope: Scope, did: dict[str, int] | None = None) -> int | None:
    """How many cards a player picks for ``selector`` (``None``: no pick, every
    match is taken); a number read from the position is read now."""
    need = selector.pick if isinstance(selector, Query) else None
    return need if need is None or isinstance(need, int) else machine.view.amount(need, scope, did)


def pick_step(machine: Machine, picking: list[Any], selector: Any, scope: Scope, what: str) -> list[str] | None:
    """One step of a player picking cards (``picking``: the candidates left,
    the cards picked, how many are needed, whether fewer may do — updated in
    place): take the answer if one came, then either the cards picked (all
    needed are, or no candidate is left) or ``None`` after asking for the
    next one."""
    candidates: list[str]
    picked: list[str]
    need: int
    upto: bool
    candidates, picked, need, upto = picking
    if machine.has_answer():
        label = machine.take_answer()
        if label == NONE:
            picking[2] = need = len(picked)
        else:
            picked.append(label)
            candidates.remove(label)
    if len(picked) >= need or not candidates:
        return picked
    options = tuple(candidates) + ((NONE,) if upto else ())
    chooser = scope.controller
    if getattr(selector, "chooser", None) == "opponent":
        chooser = machine.state.opponent(chooser)
    machine.ask(
        Decision(
            kind="target",
            player=chooser,
            prompt=f"{scope.key}: pick a card for {what} ({len(picked) + 1} of {need})",
            options=options,
            default=options[0],
            effect=scope.key,
        )
    )
    return None


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class ChooseTargets(Frame):
    """An effect's targets are chosen as it activates (after its cost), one
    ``targets`` entry after another; the machine keeps them on the effect."""

    effect: PendingEffect
    run: EffectRun
    index: int = 0
    chosen: list[tuple[str, Query, tuple[tuple[str, int], ...]]] = field(factory=list)
    #: a pick under way (see :func:`pick_step`)
    picking: list[Any] | None = None

    def step(self, machine: Machine) -> None:
        targets = self.effect.ability.targets
        while self.index < len(targets):
            name, query = targets[self.index]
            scope = self.run.scope
            if self.picking is None:
                candidates = machine.view.select(query, scope)
                need = picks(machine, query, scope)
                if need is not None and need <= 0:
                    candidates = []
                if need is None or (len(candidates) <= need and not query.upto):
                    self.keep(machine, name, query, candidates)
                    continue
                self.picking = [candidates, [], need, query.upto]
            picked = pick_step(machine, self.picking, query, scope, f"the target '{name}'")
            if picked is None:
                return
            self.picking = None
            self.keep(machine, name, query, picked)
        machine.pop()
        machine.targets_chosen(self.effect, self.run, tuple(self.chosen))

    def detail(self) -> tuple[Any, ...]:
        """The targets chosen so far and the pick under way."""
        return (tuple((name, cards) for name, _, cards in self.chosen), _picking(self.picking))

    def keep(self, machine: Machine, name: str, query: Query, cards: list[str]) -> None:
        cards_now = machine.state.cards
        self.chosen.append((name, query, tuple((card_id, cards_now[card_id].incarnation) for card_id in cards)))
        self.index += 1


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class InterruptWindow(Frame):
    """Interrupts and replacements before an action, one at a time.

    With ``together`` (``tcgtrig_replacements_together``) the replacements
    are all decided first, then applied at once: their ``prevent`` in a row,
    and their other actions at the moment of the action they modify, with
    what is left of it.
    """

    target: Perform
    pool: PendingPool
    owns_series: bool
    together: bool = False
    phase: str = "pick"
    labels: Any = None
    chosen: list[PendingEffect] = field(factory=list)
    claimed: set[int] = field(factory=set)
    claims: dict[int, tuple[int, ...]] = field(factory=dict)
    deferred: list[tuple[Action, EffectRun]] = field(factory=list)
    #: the rule that put each chosen replacement first, for its ``applied`` step
    rules: dict[int, tuple[str, ...]] = field(factory=dict)

    def detail(self) -> tuple[Any, ...]:
        """The replacements chosen, the target's ops they claimed, and the
        actions put off to the moment of what they replace."""
        return (
            tuple(e.signature() for e in self.chosen),
            tuple(sorted(self.claimed)),
            tuple((action, run.signature()) for action, run in self.deferred),
        )

    def choose(self, machine: Machine, effect: PendingEffect) -> None:
        """A replacement its controller decided to apply: it takes the events
        it matched that no earlier replacement took, and its cost is paid."""
        ops = [i for i, op in enumerate(self.target.ops) if op.event in effect.events]
        mine = tuple(i for i in ops if i not in self.claimed)
        if ops and not mine:
            machine.record(
                "failed", effect, reason="the event it would replace is already replaced by another replacement"
            )
            return
        self.claimed.update(mine)
        self.claims[effect.id] = mine
        self.rules[effect.id] = machine.placed_rule(effect)
        machine.mark_activated(effect, "interrupt")
        self.chosen.append(effect)
        if effect.ability.cost:
            scope = machine.scope_of(effect)
            machine.push(
                RunActions(
                    effect.ability.cost,
                    EffectRun(
                        scope=scope,
                        instance=effect.id,
                        trigger_cause=self.target.run.trigger_cause,
                        depth=self.target.run.depth,
                        by="cost",
                    ),
                )
            )

    def apply_chosen(self, machine: Machine) -> None:
        chosen, self.chosen = self.chosen, []
        for effect in chosen:
            machine.trace.add("applied", effect.trace_head() + self.rules.pop(effect.id, ()))
        self.phase = "flush"
        target_run = self.target.run
        for effect in reversed(chosen):  # pushed last-first: the first decided runs first
            mine = self.claims.pop(effect.id)
            # it applies to the events it took: "event.card" means those alone
            scope = evolve(machine.scope_of(effect), events=tuple(self.target.ops[i].event for i in mine))
            run = EffectRun(
                scope=scope,
                instance=effect.id,
                trigger_cause=target_run.trigger_cause,
                depth=target_run.depth,
                target=self.target,
                ops=mine,
                collect=self.deferred,
            )
            if effect.ability.do:
                machine.push(RunActions(effect.ability.do, run))

    def step(self, machine: Machine) -> None:
        if self.phase == "flush":  # what the replacements do, as one moment
            self.phase = "pick"
            if self.deferred:
                parts = tuple(part for part, _ in self.deferred)
                runs = tuple(run for _, run in self.deferred)
                self.deferred.clear()
                machine.push(Perform(parts, runs[0], runs=runs, merge_into=self.target))
            return
        if self.phase == "pick":
            if self.target.prevented and not self.together:
                self.drop_replaced(machine)
            bucket = self.pool.next_bucket()
            if self.chosen and (not bucket or next(iter(bucket.values())).kind != "replacement"):
                self.apply_chosen(machine)
                return
            if not bucket:
                machine.close_window(self)
                return
            if len(bucket) == 1:  # nothing to order: no decision to build
                self.take(machine, next(iter(bucket.values())))
                return
            # "which replacement effect activates next": the order is the chooser's (Magic CR 616.1)
            what = (
                "replacement effect" if all(e.kind == "replacement" for e in bucket.values()) else "interrupting effect"
            )
            self.labels = ask_order(machine, self.pool, bucket, machine.ruleset.who_orders(machine.state, bucket), what)
            self.phase = "picked"
            return
        effect = self.labels.resolve(machine.take_answer())
        self.labels = None
        self.take(machine, effect)

    def drop_replaced(self, machine: Machine) -> None:
        """Check the waiting replacements again after one applied (Magic CR
        616.1e: only those that would now apply are left to choose from): a
        replacement every event of whose was prevented since — an earlier
        one replaced it — no longer applies, and fails."""
        target = self.target
        prevented = [target.ops[i].event for i in target.prevented]
        for effect in [e for e in self.pool if e.kind == "replacement"]:
            if all(event in prevented for event in effect.events):
                self.pool.remove(effect.id)
                machine.record("failed", effect, reason="the event it would replace no longer happens: it was replaced")

    def take(self, machine: Machine, effect: PendingEffect) -> None:
        """``effect`` was picked: it leaves the window's pool and is activated."""
        if machine.check_loop("interrupt"):  # an interrupt's activation is a step too
            return
        pool = self.pool
        pool.remove(effect.id)
        if pool:
            machine.place(effect, next(iter(pool.next_bucket().values())))
        self.phase = "pick"
        collect = self if self.together and effect.kind == "replacement" else None
        Activation.attempt(machine, effect, "interrupt", self.target, None, collect)


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class InlineActivation(Frame):
    """``activate: KEY`` — use another ability from inside an effect."""

    key: str
    run: EffectRun

    def step(self, machine: Machine) -> None:
        machine.pop()
        card_id, ability = machine.index.by_key[self.key]
        card = machine.state.cards[card_id]
        self_card = machine.view.self_of(card, ability)
        effect = PendingEffect(
            id=machine.new_id(),
            key=self.key,
            card=card_id,
            ability=ability,
            controller=machine.state.cards[self_card].owner,
            self_card=self_card,
            events=self.run.scope.events,
            timing=machine.timing,
            depth=self.run.depth,
            cause=self.run.instance,
            incarnation=card.incarnation,
            self_incarnation=machine.state.cards[self_card].incarnation,
            window="inline",
        )
        window = "chain" if (machine.chain and self.run.start) else "inline"
        Activation.attempt(machine, effect, window, None, self.run, None)


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class ChainWindow(Frame):
    """Chain games: players respond in turn; two passes resolve the chain.

    ``open``: a window with no chain yet, after an action that started none
    (a Summon): the turn player, then the opponent, may start one.
    """

    passes: int = 0
    labels: Any = None
    open: bool = False

    def detail(self) -> tuple[Any, ...]:
        return (self.passes, self.open)

    def step(self, machine: Machine) -> None:
        if self.labels is not None:
            label = machine.take_answer()
            candidates = self.labels
            self.labels = None
            if label == PASS:
                self.passes += 1
            else:
                self.passes = 0
                chosen = candidates[label]
                if chosen in machine.offers:
                    machine.offers.remove(chosen)
                    Activation.attempt(machine, chosen, "chain", None, None, None)
                else:  # an activated ability the window just found legal, and nothing happened since
                    machine.activate(chosen, "chain", None, None)
                return
        if not machine.offers and not machine.index.activated:
            self.passes = 2  # no one has anything to respond with: both players pass
        if not machine.chain_links and not machine.offers and not (self.open and self.passes < 2):
            machine.pop()
            return
        player = (
            machine.ruleset.chain_responder(machine.state, tuple(machine.chain_links), self.passes)
            if self.passes < 2
            else None
        )
        if player is None or self.passes >= 2:
            machine.withdraw_offers()
            machine.pop()
            if machine.chain_links:
                machine.push(ResolveChain())
            return
        candidates = machine.responses(player)
        if not candidates:
            self.passes += 1
            return
        self.labels = candidates
        term = machine.ruleset.info.term  # the game's words for its chain
        machine.ask(
            Decision(
                kind="respond",
                player=player,
                prompt=(
                    f"respond to {term('chain_link')} {len(machine.chain_links)}?"
                    if machine.chain_links
                    else f"activate something? (the {term('chain')} is empty)"
                ),
                options=candidates.labels(PASS),
                default=PASS,
            )
        )


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class ResolveChain(Frame):
    """The chain resolves, last link first.  In a game whose new triggers
    go on top (``GameInfo.chain_triggers``), one link at a time: after it,
    the main loop settles, puts what triggered on the chain and opens a
    window again before the next link."""

    resolved_one: bool = False

    def detail(self) -> tuple[Any, ...]:
        return (self.resolved_one,)

    def step(self, machine: Machine) -> None:
        """Resolve the next link; and the next, while nothing it did waits
        (what the following steps would do, in this one)."""
        frames, links = machine.frames, machine.chain_links
        while True:
            if not links or (machine.on_top and self.resolved_one):
                machine.resolving_link = 0
                frames.pop()  # machine.pop(), without the call
                return
            self.resolved_one = True
            # what each link triggers waits for the whole chain: it may be a lot (machine.out_of_memory(),
            # which reads the memory every few links, called only when it may read it)
            if machine.over_budget is not None or not (machine.links_resolved + 1) & MEMORY_EVERY_LINKS:
                if machine.out_of_memory():
                    return
            else:
                machine.links_resolved += 1
            machine.resolving_link = len(links)
            machine.chain_keys.pop()  # the newest link is taken off, its key with it
            effect = links.pop()
            machine.moment += 1  # a link resolving is something that happens, even if it changes nothing
            machine.last_moment = machine.moment
            machine.last_events = ()
            # scope, instance, trigger_cause, depth
            run = make_run(machine.scope_of(effect), effect.id, effect.id, effect.depth)
            if effect.negated:  # nothing it says happens; its card still goes where the game puts a negated one
                if effect.ability.kind == "activated" and machine.ruleset.places_activated:
                    machine.put_away(effect, run, "negated")
            else:
                machine.resolve(effect, run, True, len(links) + 1)
            if machine.outcome is not None or machine.decision is not None or frames[-1] is not self:
                return  # the run ended (its frames go after this step), a question, or the link's own frames


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class ApplyConsequence(Frame):
    """A ``consequence`` ability a moment set off: it applies now, as part
    of the effect during which its event happened (an ``applied`` step,
    then its actions)."""

    effect: PendingEffect
    run: EffectRun

    def step(self, machine: Machine) -> None:
        machine.pop()
        effect = self.effect
        machine.trace.add("applied", effect.trace_head() + ("event", effect.events[0].name))
        machine.resolve(effect, self.run, False, None)


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class DelayedStart(Frame):
    """What a ``delay`` put off begins, as part of the effect that put it
    off (a ``delayed`` step, with the game's reason, then the actions)."""

    actions: tuple[Action, ...]
    run: EffectRun
    reason: str

    def step(self, machine: Machine) -> None:
        machine.pop()
        run = self.run
        scope = run.scope
        machine.trace.add(
            "delayed",
            ("effect", scope.key, "player", scope.controller, "id", run.instance, "cause", run.instance)
            + ("reason", self.reason),
        )
        machine.push(RunActions(self.actions, run))


# ---------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------


def ask_order(
    machine: Machine, pool: PendingPool, bucket: dict[int, PendingEffect], player: str, what: str
) -> EffectLabels:
    """Ask ``player`` which of ``bucket`` (more than one effect, the next of
    ``pool``) activates next; the labels the answer is one of."""
    labels = EffectLabels(bucket, machine.labels_made, pool.keys_of)
    machine._orderer = player  # the chooser, for the rule the choice is made under (Activating.place)
    # machine.ask(...), which would answer a decision with one option itself: this one has several
    machine.asked += 1
    machine.decision = make_decision(
        kind="order",
        player=player,
        prompt=f"which {what} activates next ({len(bucket)} candidates)",
        options=labels,
        default=next(iter(bucket.values())).key,  # labels.first()
        effect=None,
    )
    return labels


def flatten(together: Together) -> list[Action]:
    """The primitive actions of a ``together`` (nested groups flattened)."""
    out: list[Action] = []
    todo: list[Action] = list(reversed(together.actions))
    while todo:
        action = todo.pop()
        if isinstance(action, Together):
            todo.extend(reversed(action.actions))
        else:
            out.append(action)
    return out
