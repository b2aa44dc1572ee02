"""The resolution loop.

The engine is a small machine with an explicit stack of frames — no Python
recursion per nested trigger, effect or interrupt — so a cascade of any
depth runs in constant Python stack, and the whole position (state, pending
set, frames, trace) can be copied at any decision.

One pass of the main loop, for games that resolve at once (Digimon, Duel
Masters)::

    perform an effect's actions
      each action: choose its cards → open an interrupt window for the
      interrupts and replacements it would set off → apply what was not
      prevented (one moment) → note what it triggered
    settle: the game's rules processing, repeatedly; then what triggered
      becomes pending (one batch, ranked by the game)
    pick: the lowest-rank bucket; its player picks one; activate it
      (lost? condition? once per turn? optional?) and perform it

For chain games the picked effects go on a chain instead; when nothing is
pending, players respond in turn, and after two passes the chain resolves
last in, first out, before anything it triggered becomes pending.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from attrs import evolve, setters

from ..base import budget
from ..base.collector import held_back
from ..base.errors import ChoiceError
from ..model.decision import Decision
from ..model.info import STOPPED, ChainKeys, Drop, GameEnd
from ..model.pending import Fingerprint, PendingEffect, PendingPool, event_signature
from ..model.state import without_amounts
from ..model.trace import Step
from ..model.values import (
    Action,
    Compare,
    Event,
    Together,
)
from .activation import Activating
from .evaluate import Evaluator, Scope
from .frames import (
    EffectRun,
    Frame,
    MainLoop,
    Perform,
    RunActions,
    flatten,
    shallow_copy,
)
from .loops import HISTORY, MOVED, PILE_WORK_PER_STEP, STATS, Facts, Growth, LoopGuard, Read
from .machine_base import DEFAULT_MAX_STEPS, MEMORY_EVERY_LINKS
from .performing import Performing, at_once
from .rechecks import condition_reads
from .triggers import AbilityIndex

if TYPE_CHECKING:
    from attrs import define  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import define  # attrs.define, the methods compiled ahead of time

__all__ = ["Machine", "DEFAULT_MAX_STEPS", "MAX_FRAMES"]

#: the collector's hold, taken by a long advance (see :meth:`Machine.advance`)
_HELD_BACK = held_back()

#: Frames deeper than this mean an effect keeps activating itself inline.
MAX_FRAMES = 50_000
#: Steps between two readings of the memory in use (:mod:`tcgtrig.base.budget`):
#: a mask, so the test is one ``&``.
MEMORY_EVERY = 2047
#: where :meth:`Machine.position` holds the counters, the pool's fingerprint and
#: the due declarations (the loop guards leave them out by place)
_COUNTERS_AT = 1
_POOL_AT = 6
_DUE_AT = 10
_HISTORY_AT = 15


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class Machine(Activating, Performing):
    """The working parts of an :class:`~tcgtrig.engine.Engine`: the frames
    drive it.

    This class holds the position (state, pending pool, frames, trace),
    steps the frames, records the trace, watches for loops and turns what
    triggered into pending effects.  Activating and resolving effects is
    :class:`~tcgtrig.runtime.activation.Activating`; actions, interrupt windows and
    the moments they make are :class:`~tcgtrig.runtime.performing.Performing`.

    Its fields (the position) and the methods the parts call on one
    another are declared once, on
    :class:`~tcgtrig.runtime.machine_base.MachineBase`.

    Everything here is internal to tcgtrig (frames, explore, save and
    resume use it); programs use :class:`~tcgtrig.engine.Engine`.
    """

    def __attrs_post_init__(self) -> None:
        self.chain = self.ruleset.chain
        self.on_top = self.ruleset.triggers_on_top
        if self.index is None:
            self.index = AbilityIndex.build(
                list(self.state.cards.values()), self.start, would=self.ruleset.info.would_effects
            )
        self.view = Evaluator(self.state, self.index.continuous)
        self._interruptible = bool(self.index.interrupts or self.index.granted_interrupts)
        self._at_once = at_once(self._interruptible, self.ruleset.info.draw_one_at_a_time)
        if self._guard is None:
            self._guard = LoopGuard(self.max_steps)
        rule_counters = self.ruleset.info.rule_counters
        if rule_counters is not None:
            self._rule_counters = frozenset(rule_counters)
        if not self.frames and self.outcome is None:
            self.frames.append(MainLoop(self.start))

    # -- driving --------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return not self.frames or self.outcome is not None

    def advance(self) -> Decision | None:
        """Run until a player must decide (returned) or the end (``None``).
        Once it has run a while (the loop guard's first reading of the
        memory: at most :data:`MEMORY_EVERY` steps), the garbage collector
        is held back for the rest of it (:mod:`tcgtrig.base.collector`)."""
        frames = self.frames
        try:
            while frames and self.decision is None and self.outcome is None:
                frames[-1].step(self)
            if self.outcome is not None and frames:  # self.drop_frames_if_ended(), without the call
                frames.clear()
        finally:
            if self._holding:
                self._holding = False
                _HELD_BACK.__exit__(None, None, None)
        return self.decision

    def answer(self, label: str) -> None:
        """Answer the pending decision with one of its labels."""
        decision = self.decision
        if decision is None:
            raise RuntimeError("no decision is pending")
        if label not in decision.options:
            raise ChoiceError(decision.describe(), label, decision.legal())
        count = len(decision.options)
        if count > 1:
            flat: tuple[Any, ...] = ("decision", decision.kind, "player", decision.player, "label", label)
            if decision.effect is not None:
                flat += ("effect", decision.effect)
            if count > 50:
                flat += ("options", count)
            else:
                flat += ("options", tuple(decision.options))
                copies = decision.copies()
                if copies:
                    flat += ("copies", copies)
            self.trace.add("choice", flat)
        self.decision = None
        self._answer = label
        self._answered = True

    def copy(self) -> Machine:
        """An independent copy of the whole position, e.g. to explore a choice."""
        new_state = self.state.copy()
        memo: dict[int, Any] = {id(self.state): new_state, id(self.ruleset): self.ruleset, id(self.index): self.index}
        clone = shallow_copy(self)
        clone.state = new_state
        clone.pool = self.pool.copy()
        memo[id(self.pool)] = clone.pool
        clone.trace = self.trace.copy()
        clone.frames = _copy.deepcopy(self.frames, memo)
        decision = self.decision
        if decision is not None and id(decision.options) in memo:
            # the options are live labels the frame that asked holds (an ordering decision's read the
            # pool): the copy's decision shows the frame's copy of them, which reads the copy's pool
            clone.decision = evolve(decision, options=memo[id(decision.options)])
        clone.windows = _copy.deepcopy(self.windows, memo)
        clone.delayed = _copy.deepcopy(self.delayed, memo)
        # matched effects are not admitted yet: admission fills them in, in place
        clone.matched = [_copy.copy(match) for match in self.matched]
        clone.chain_links = list(self.chain_links)
        clone.chain_keys = ChainKeys(self.chain_keys)
        clone.due = {player: dict(ids) for player, ids in self.due.items()}
        clone.offers = list(self.offers)
        clone.shown = set(self.shown)
        clone.conditional = self.conditional.copy()
        clone.series = set(self.series) if self.series is not None else None
        clone._guard = shallow_copy(self._guard)
        clone._growth = shallow_copy(self._growth)
        clone._records = shallow_copy(self._records)
        clone.view = Evaluator(new_state, self.index.continuous)
        clone._contexts = {}
        clone._responder_tables = {}
        return clone

    # -- frames ---------------------------------------------------------------

    def push(self, frame: Frame) -> None:
        if len(self.frames) >= MAX_FRAMES:
            self.end(f"endless loop: effects kept activating one another inside one effect ({MAX_FRAMES} nested)")
            return
        self.frames.append(frame)

    def pop(self) -> None:
        self.frames.pop()

    def drop_frames_if_ended(self) -> None:
        """After a step: if the resolution has ended, its frames go.  Only
        the loop that steps the frames drops them, between two steps: the
        run may end under a frame that is still stepping (a push past
        :data:`MAX_FRAMES`, a loop guard asked mid-step), and that frame
        reads the stack after the call that ended it."""
        if self.outcome is not None and self.frames:
            self.frames.clear()

    def ask(self, decision: Decision) -> None:
        """Ask a player; a decision with one legal option answers itself."""
        if len(decision.options) == 1:
            self._answer = decision.options[0]
            self._answered = True
            return
        self.asked += 1
        self.decision = decision

    def has_answer(self) -> bool:
        return self._answered

    def take_answer(self) -> str:
        if not self._answered:
            raise RuntimeError("no answer to take")
        self._answered = False
        answer, self._answer = self._answer, None
        return answer  # type: ignore[return-value]

    def new_id(self) -> int:
        number = self._next_id
        self._next_id += 1
        return number

    # -- the trace --------------------------------------------------------------

    def record(self, kind: str, effect: PendingEffect, **extra: Any) -> None:
        """Trace what happened to an effect: its key, player, id and cause,
        the game's details of it, then ``extra`` (``None`` values left out)."""
        flat = effect.trace_head()
        for key, value in extra.items():
            if value is not None:
                flat += (key, value)
        self.trace.add(kind, flat)

    def drop(self, effect: PendingEffect, drop: Drop) -> None:
        if drop.kind != "void":
            self.record(drop.kind, effect, reason=drop.reason or None)

    def end(self, reason: str, stoppable: bool | None = None) -> None:
        """End the resolution early (an endless loop, the step limit), as the
        game scores it; what is still pending is lost."""
        self.guard_ended = True
        self._close(self.ruleset.endless_loop(self.state, reason, stoppable))

    def stop(self, reason: str) -> None:
        """End the resolution because the tool's memory bound was reached:
        not a rule of the game, so no game scores it — the outcome is
        :data:`STOPPED`, whatever the game.  What is pending is lost."""
        self._close(GameEnd(STOPPED, reason))

    def _close(self, outcome: GameEnd) -> None:
        self.outcome = outcome
        for pool in [w.pool for w in reversed(self.windows)] + [self.pool]:
            for effect in list(pool):
                pool.remove(effect.id)
                self.record("lost", effect, reason="the resolution ended before it could activate")
        self.trace.append(Step.make("ended", outcome=self.outcome.outcome, reason=self.outcome.reason))
        self.decision = None  # the frames are dropped between steps (drop_frames_if_ended)

    def out_of_memory(self) -> bool:
        """End the resolution if the memory bound is reached (read every
        few chain links: :data:`MEMORY_EVERY_LINKS`); whether it ended."""
        self.links_resolved += 1
        why = self.over_budget
        if why is None and (self.links_resolved & MEMORY_EVERY_LINKS or (why := budget.exceeded()) is None):
            return False
        self.stop(why)
        return True

    def finish(self) -> None:
        self.frames.clear()

    # -- loops ----------------------------------------------------------------

    def position(self) -> Any:
        """What makes the position what it is, apart from how it was reached:
        the cards, counters, per-turn uses, turn and marks, what is pending (the
        pool, interrupt windows, the chain, offers, due declarations), where
        each frame is — its phase, how far its action list has got (two step
        boundaries in a row are two places), whose effect it runs (what it
        refers to: the events it names, ``event.card``, and the targets
        chosen), what that effect did and what the frame holds (the picks
        made so far, inside a ``together`` too: :meth:`Frame.detail`; issue
        37, item 21), the effects triggered and not yet admitted — and, in
        chain games, what a response may answer
        (the last events) and whether the window after the last thing that
        happened is still to come.  Equal positions play out alike (loop
        detection, ``explore``)."""
        state = self.state
        frames = tuple(
            (
                type(f).__name__,
                getattr(f, "phase", None),
                getattr(f, "index", None),
                f.run.signature() if hasattr(f, "run") else None,
                f.detail(),
            )
            for f in self.frames
        )
        return (
            state.dynamic(),
            self.counters_now(),
            tuple(sorted(state.used.items())),
            state.turn,
            state.turn_player,
            tuple(sorted(state.marks)),
            self.pool.fingerprint(),  # at _POOL_AT
            tuple(w.pool.fingerprint() for w in self.windows),
            tuple(e.signature() for e in self.chain_links),
            tuple(e.signature() for e in self.offers),
            tuple(sorted((p, len(ids)) for p, ids in self.due.items())),  # at _DUE_AT
            tuple(sorted(self.series)) if self.series is not None else None,
            frames,
            self.last_events if self.chain else (),
            self.answered_moment == self.last_moment,
            tuple(state.history) if state.keep_history else (),  # at _HISTORY_AT: what conditions on the history read
            tuple((run.signature(), actions) for actions, run in self.delayed),  # what a delay put off, as whose
            # triggered, not admitted yet (issue 37, item 21); filled in in place as admitted: not cached
            tuple(
                (m.key, m.controller, m.card, m.self_card, tuple(event_signature(e) for e in m.events), m.fixed)
                for m in self.matched
            ),
        )

    def steps(self) -> tuple[int, int]:
        """The steps taken so far (activations and rules passes) and the
        step limit."""
        guard = self._guard
        return (guard.steps, guard.limit) if guard is not None else (0, self.max_steps)

    def history(self) -> Any:
        """What the loop guards keep of the way here that decides where they
        will end the resolution: the steps taken, the positions saved and
        how far Brent's cycle search has got, whether a player was asked
        since, what the growth guards saved (counters, pending effects) —
        with :meth:`position`, what decides where a resolution a guard ends
        ends (``explore`` remembers such a position's outcomes only for the
        same history; issue 37, item 29).  Left out: numbers that only name
        what recurred in a verdict's reason (trace lengths)."""
        guard, asked, steps = self._guard, self.asked, self._guard.steps if self._guard is not None else 0
        loop = (
            None
            if guard is None
            else (guard.steps, guard.power, guard.lam, guard.saved_quick, guard.saved_full, asked > guard.saved_asked)
        )
        growth = tuple(
            (
                g.power,
                g.lam,
                g.saved_quick,
                g.saved_full,
                g.saved_pool,
                _frozen(g.saved_counters),
                _frozen(g.saved_pending),
                steps - g.saved_step,
                asked > g.saved_asked,
                g.quiet_until,
                g.pile_work - g.ticks * PILE_WORK_PER_STEP,
            )
            for g in (self._growth, self._records)
        )
        return (loop, growth, self._most_pending, steps - self._last_record)

    def counters_now(self) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
        """Every player's counters, in a fixed order."""
        return tuple(sorted((p, tuple(sorted(v.items()))) for p, v in self.state.counters.items()))

    def check_loop(self, where: str) -> bool:
        """Count a step; end the resolution if the position repeats, or
        repeats but for counters nothing reads and effects piling up.

        Why one function: it runs at every step of every resolution.  The
        cheap looks come first and usually decide; the position's parts it
        builds are shared by the quick look and the full one, and helpers
        would pass them back and forth on every step."""
        if self.over_budget is not None:
            self.stop(self.over_budget)
            return True
        state, pool, guard, links = self.state, self.pool, self._guard, self.chain_links
        chooser = self.chooser_fingerprint() if self.chooser_fingerprint else None
        # what the quick look reads besides the state and the pool: the frames' number, the chooser,
        # the chain, the offers, the turn and whether the last moment was answered
        rest = (
            len(self.frames),
            chooser,
            len(links),
            links[-1].signature() if links else None,
            len(self.offers),
            state.turn,
            state.turn_player,
            self.answered_moment == self.last_moment,
        )
        fingerprint, pool_quick = state.fingerprint(), pool.quick_fingerprint()
        quick = (where, fingerprint, pool_quick, rest)
        look = self._looking
        if look is None or look.machine is not self:  # a copy's first step
            look = self._looking = _Look(self, where, chooser)
        else:
            look.where, look.chooser, look.seen = where, chooser, None
        answering = self.chooser_answering
        verdict = guard.tick(quick, look.full, self.asked, answering)
        if verdict is None and not guard.steps & MEMORY_EVERY:
            if not self._holding:  # a long run: hold the collector back for the rest of this advance
                self._holding = True
                _HELD_BACK.__enter__()
            if (why := budget.exceeded()) is not None:
                self.stop(why)
                return True
        if verdict is not None:
            reason, stoppable = verdict
            self.end(reason, stoppable)
            return True
        rules = self._rule_counters
        # leaving out how many of each pending effect wait, and the counters' values unless any may matter
        shape_quick = (
            where,
            fingerprint if rules is None else state.shape_fingerprint(),
            pool.shape_fingerprint(),
            rest,
        )
        growing = self._growth.tick(shape_quick, look, guard.limit - guard.steps, answering)
        waiting = pool_quick[1]  # how many are pending (len(pool), without the call)
        if growing is None and waiting > self._most_pending:
            # more pending than ever before: a pile-up whose turns grow longer (a chain game's chains) shows
            # only in these positions; records on consecutive steps the guard above sees already
            self._most_pending = waiting
            last, self._last_record = self._last_record, guard.steps
            if guard.steps - last > 1:
                growing = self._records.tick(shape_quick, look, guard.limit - guard.steps, answering)
        if growing is None:
            return False
        self.end(*self._growth_verdict(growing))
        return True

    def _growth_verdict(self, growing: Growth) -> tuple[str, bool | None]:
        """The reason a cycle the growth guard found ends the resolution,
        naming the effects that kept recurring."""
        members = list(
            dict.fromkeys(
                step.get("effect")
                for step in self.trace[growing.since :]
                if step.kind == "activated" and step.get("effect")
            )
        )
        shown = ", ".join(members[:8]) + (f" and {len(members) - 8} more" if len(members) > 8 else "")
        grown = ", ".join(growing.grown)
        them = "them" if len(growing.grown) > 1 else "it"
        if growing.piled:
            every = f"{growing.steps} steps" if growing.steps != 1 else "step"
            piling = (
                f"kept recurring while the pending effects only piled up: {growing.waiting:,} waiting, "
                f"{growing.piled:,} more every {every}"
            )
            if growing.steady is None:
                ending = (
                    f"; only {grown} changed besides, and nothing that reads {them} can stop it"
                    if grown
                    else "; nothing drains them"
                )
                return f"endless loop: {shown} {piling}{ending}", growing.stoppable
            return (
                f"step limit reached: {shown} {piling}; only {grown} changed besides, and what reads {them} "
                f"cannot change for another {growing.steady:,} steps: the limit of {self._guard.limit} steps "
                "comes first (max_steps or --max-steps raises it)",
                None,
            )
        if growing.steady is None:
            return (
                f"endless loop: {shown} kept recurring with only {grown} changing, and nothing that reads "
                "them can stop it",
                growing.stoppable,
            )
        return (
            f"step limit reached: {shown} kept recurring with only {grown} changing, and what reads {them} "
            f"cannot change for another {growing.steady:,} steps: the limit of {self._guard.limit} steps "
            "comes first (max_steps or --max-steps raises it)",
            None,
        )

    # -- starting and settling ------------------------------------------------------

    def begin(self, start: tuple[Action, ...]) -> None:
        player = self.state.turn_player
        self.trace.append(Step.make("start", effect="start", player=player, id=0))
        run = EffectRun(scope=Scope(key="start", controller=player), instance=0, trigger_cause=0, depth=0, start=True)
        self.push(RunActions(start, run))

    def run_rules(self, actions: Sequence[Action]) -> None:
        """Perform what rules processing returned, all at one moment."""
        player = self.state.turn_player
        actions = flatten(Together(actions=tuple(actions)))
        cards = []
        for action in actions:
            selector = getattr(action, "card", None)
            if selector is not None:
                cards.extend(self.view.select(selector, Scope(key="rules", controller=player)))
        self.state.touch(cards)  # look again next pass, even if the batch was prevented
        self.trace.append(Step.make("rules", player=player, cards=tuple(cards), cause=self.last_instance))
        run = EffectRun(
            scope=Scope(key="rules", controller=player),
            instance=self.last_instance,
            trigger_cause=self.last_instance,
            depth=self.last_depth,
            by="rule",
        )
        self.push(Perform(tuple(actions), run))

    def admit(self) -> None:
        """What triggered since the last settle becomes pending, as one batch.

        An optional effect whose use the game has its controller declare
        (``tcgtrig_declared_use``) waits with its declaration ``due``.
        """
        if not self.matched:
            return
        self.timing += 1
        matched, self.matched = self.matched, []
        huge = len(matched) > MEMORY_EVERY  # a batch this big may not fit: read the memory as it comes in
        # what every effect of the batch reads, read once (this runs for every pending effect)
        state, ruleset, chain, add, timing = self.state, self.ruleset, self.chain, self.trace.add, self.timing
        spent_trigger = ruleset.info.spent_abilities_trigger
        recheck = ruleset.info.recheck_trigger_condition
        checks, ranks = ruleset.checks_pending, ruleset.ranks_pending
        for number, match in enumerate(matched):
            if huge and not number & MEMORY_EVERY and (why := budget.exceeded()) is not None:
                left = len(matched) - number
                # the rest never becomes pending: the next step ends the resolution
                self.over_budget = f"{why} ({left:,} effects that triggered at one moment were not taken in)"
                break
            ability = match.ability
            effect = match  # made as it matched (match_triggers): now it is given its number and batch
            # self.new_id(), without the call; the game ranks it below, or Ruleset.rank's default
            effect._admit(self._next_id, timing, None if ranks else (state.seat(effect.controller), timing))
            self._next_id += 1
            if not spent_trigger and ability.uses_per_turn and self.spent(effect):
                continue  # it does not trigger at all
            if ranks:
                effect = self._ranked(effect)
            drop = None
            if checks:
                drop = ruleset.check_pending(state, effect, "admission", self.last_moment)
                if drop is None and chain:
                    drop = ruleset.check_pending(state, effect, "window", self.last_moment)
            if drop is not None and drop.kind == "void":
                continue
            add("triggered", effect.trace_head() + ("event", effect.events[0].name))
            if drop is not None:
                self.drop(effect, drop)
                continue
            if chain and ruleset.offered_in_window(state, effect):
                self.offers.append(effect)
                continue
            if ability.optional and ruleset.declared_use(state, effect):
                effect = evolve(effect, declaration="due")
                self.due.setdefault(effect.controller, {})[effect.id] = None
            condition = ability.trigger_condition
            if condition is not None and recheck:
                reads = condition_reads(condition, effect.controller, state)
                self.conditional.add(effect, reads, state)
            self.pool.add(effect)

    def declarations_due(self, player: str) -> list[PendingEffect]:
        """Take ``player``'s pending effects whose use is still to be declared,
        in trigger order."""
        ids = self.due.pop(player, None) or {}
        return [self.pool.get(i) for i in ids if i in self.pool]

    def _ranked(self, effect: PendingEffect) -> PendingEffect:
        """``effect``, new, with the rank and trace details the game gives it."""
        rank = self.ruleset.rank(self.state, effect)
        effect._place(rank, effect.details)
        details = self.ruleset.details(self.state, effect)
        if details:
            effect._place(rank, details)
        return effect


class _Look:
    """The whole position at one step, worked out once if a loop guard
    asks for it (most steps it is not asked for at all)."""

    __slots__ = ("machine", "where", "chooser", "seen", "reads", "history", "tallies")

    def __init__(self, machine: Machine, where: str, chooser: Any) -> None:
        self.machine = machine
        self.where = where
        self.chooser = chooser
        self.seen: Any = None
        #: :attr:`Facts.reads`, once worked out
        self.reads: tuple[Any, ...] | None = None
        #: the turn's history the tallies counted, and for each of the index's
        #: ``history_patterns``: how many of its events were looked at, and fit
        self.history: list[Event] | None = None
        self.tallies: list[list[int]] = []

    def position(self) -> Any:
        if self.seen is None:
            self.seen = self.machine.position()
        return self.seen

    def full(self) -> Any:
        """The position, with where in the loop it was seen and the chooser's state."""
        return (self.where, self.position(), self.chooser)

    def shape(self) -> Any:
        """:meth:`full`, leaving out the numbers: the counters' values, the
        amounts of the stat changes cards carry and the turn's history
        (:meth:`numbers` gives them)."""
        whole = self.position()
        cards = whole[0]
        carrying = self.machine.state.carrying()
        if carrying:
            cards = tuple(without_amounts(card) if card[0] in carrying else card for card in cards)
        rest = whole[_COUNTERS_AT + 1 : _HISTORY_AT] + ((),) + whole[_HISTORY_AT + 1 :]
        return (self.where, (cards,) + rest, self.chooser)

    @staticmethod
    def pile(shape: Any) -> Any:
        """A :meth:`shape`, leaving out the pool (compared by
        :meth:`pool_has`) and how many declarations are due (whether any
        are, instead): for judging effects that piled up."""
        where, whole, chooser = shape  # the counters, at _COUNTERS_AT in the position, are left out
        due = tuple((player, min(count, 1)) for player, count in whole[_DUE_AT - 1])
        return (where, whole[: _POOL_AT - 1] + whole[_POOL_AT : _DUE_AT - 1] + (due,) + whole[_DUE_AT:], chooser)

    @staticmethod
    def pool_shape(shape: Any) -> Fingerprint:
        return PendingPool.shape_of(shape[1][_POOL_AT - 1])

    def pool_has(self, pool_shape: Fingerprint) -> tuple[bool, int]:
        return self.machine.pool.has_shape(pool_shape)

    def counters(self) -> dict[str, dict[str, int]]:
        return self.machine.state.counters

    def numbers(self) -> dict[str, dict[Any, int]]:
        machine = self.machine
        state, view = machine.state, machine.view
        found: dict[str, dict[Any, int]] = {}
        for card_id in state.carrying():
            card = state.cards[card_id]
            values: dict[Any, int] = {MOVED: card.incarnation}
            for mod in card.mods:
                if mod.stat and ("stat", mod.stat) not in values:
                    values["stat", mod.stat] = view.stat(card_id, mod.stat) or 0
            found[card_id] = values
        if state.keep_history:
            found[""] = self._history_counts()
        return found

    def _history_counts(self) -> dict[Any, int]:
        """The turn's length, and how many of its events fit each of the
        index's ``history_patterns`` (counted on from where the last look
        stopped: each event is looked at once per pattern)."""
        machine = self.machine
        history, patterns = machine.state.history, machine.index.history_patterns
        if self.history is not history:  # a new turn, or a copy's first look
            self.history, self.tallies = history, [[0, 0] for _ in patterns]
        counts: dict[Any, int] = {HISTORY: len(history)}
        player, matches = machine.state.players[0], machine.view.matches
        for number, (pattern, tally) in enumerate(zip(patterns, self.tallies, strict=True)):
            seen, fit = tally
            for event in history[seen:]:
                if matches(pattern, event, player, "", ""):  # the same for every asker (number_reads)
                    fit += 1
            tally[:] = [len(history), fit]
            counts["happened", number] = fit
        return counts

    def pending(self) -> tuple[int, int, dict[int, int]]:
        pool = self.machine.pool
        multiset, waiting = pool.quick_fingerprint()
        return multiset, waiting, pool.kinds()

    def facts(self) -> Facts:
        machine = self.machine
        guard, index = machine._guard, machine.index
        if self.reads is None:
            stats = machine.ruleset.info.rule_stats
            rule_reads = (
                (Read(STATS, None),)
                if stats is None
                else tuple(Read(("stat", stat), Compare(op, number)) for stat, op, number in stats)
            )
            self.reads = index.counter_reads + index.number_reads + rule_reads
        return Facts(
            step=guard.steps,
            trace=len(machine.trace),
            asked=machine.asked,
            rules=machine._rule_counters,
            reads=self.reads,
            one_way=index.one_way,
            budget=guard.limit - guard.steps,
        )


def _frozen(value: Any) -> Any:
    """A loop guard's field as a value to compare: its dicts (the counters'
    values by player, how many of each pending effect waited), two levels
    deep at most, as sorted items; anything else as it is."""
    if isinstance(value, tuple) and any(isinstance(item, dict) for item in value):
        return tuple(_items(item) if isinstance(item, dict) else item for item in value)
    return _items(value) if isinstance(value, dict) else value


def _items(mapping: dict[Any, Any]) -> tuple[Any, ...]:
    return tuple(
        sorted((key, tuple(sorted(item.items())) if isinstance(item, dict) else item) for key, item in mapping.items())
    )
