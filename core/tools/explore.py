"""Every legal decision, every distinct outcome (``tcgtrig explore``).

The explorer walks the tree of decisions — orderings, use or decline,
targets, chain responses — depth first, without recursion.  A position
reached again by another path (the same cards, counters, pending effects,
what is mid-resolution and the same question) is explored once: its
outcomes are remembered, so ten independent simultaneous triggers cost
about 2^10 positions, not 10!.  For each distinct outcome (the end state)
it keeps one ``choices`` script that reaches it and the number of decision
paths that lead there; for each position asked, whether the answer there
can change the outcome at all.

Every search has one budget and ends with a verdict:

- work: ``max_states`` positions *reached* — the start, and one for every
  option tried (a copy of the position, answered and run to the next
  question or to the end), whether it is then asked, was reached before
  or ends there.  A pick of 10 cards out of 200 asks few positions but
  tries 190 options at each; they are counted.
- outcomes: ``max_outcomes`` distinct outcomes (each keeps an end state):
  the walk stops when it reaches one more, which is left out;
- depth: ``max_depth`` answers on one decision path: a path that would
  go deeper stops the walk (the resolution may never end: the cost of a
  position and the memory a path holds grow with it);
- memory: the bound of :mod:`tcgtrig.base.budget`, looked at every
  :data:`CHECK_EVERY` positions reached.

The walk stops before doing more work once the work or the memory is
used up; :attr:`Exploration.stopped_by` and :attr:`Exploration.reason`
say what stopped it.
A branch whose resolution ends with a verdict (an endless loop, the step
limit) is an outcome like any other; one ended by the memory bound is not:
it stops the search.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

from attrs import define, field

from ..base import budget
from ..model.info import STOPPED
from .independence import Footprints
from .limits import DEFAULT_MAX_DEPTH, DEFAULT_MAX_OUTCOMES, DEFAULT_MAX_STATES, DEFAULT_QUESTION_BUDGET

if TYPE_CHECKING:  # imported where they are used: the command line reads DEFAULT_MAX_STATES without them
    from multiprocessing.connection import Connection
    from multiprocessing.sharedctypes import Synchronized

    from ..engine import Engine
    from ..games.manager import Ruleset
    from ..model.decision import Decision
    from ..scenario.reading import Bound, Scenario

__all__ = [
    "Exploration",
    "Outcome",
    "explore",
    "explore_engine",
    "explore_question",
    "same_outcome",
    "cannot_matter",
    "DEFAULT_MAX_STATES",
    "DEFAULT_MAX_OUTCOMES",
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_QUESTION_BUDGET",
]

#: Positions reached between two looks at the memory in use (and at progress).
CHECK_EVERY = 32
#: Positions reached in one process before the work is farmed out: below
#: this, one process sharing what it found beats several that do not.
SERIAL_FIRST = 2_000
#: Positions reached again by another path, per position asked, above
#: which a search stays in one process (its branches meet: walks that do
#: not share what they found would repeat one another's work).
SHARED_ENOUGH = 0.25

#: Called now and then with the number of positions reached so far.
Progress = Callable[[int], None]


def available_cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


@define
class Outcome:
    """One distinct end: how it ended, the end state, one script reaching it
    and how many decision paths lead there."""

    outcome: str
    end: dict[str, Any]
    choices: list[str]
    paths: int
    #: ``paths`` is a lower bound: some orders that lead here were not tried
    #: (they commute with one that was: :mod:`~tcgtrig.tools.independence`)
    at_least: bool = False

    def to_json(self) -> dict[str, Any]:
        counted = {"paths": self.paths, **({"paths_at_least": True} if self.at_least else {})}
        return {"choices": list(self.choices), "outcome": self.outcome, **self.end, **counted}

    def key(self) -> str:
        """What tells one outcome from another."""
        return json.dumps([self.outcome, self.end], sort_keys=True)


@define
class Exploration:
    """What :func:`explore` found.

    :param outcomes: the distinct outcomes, in the order first reached.
    :param states: positions asked (each once).
    :param complete: ``False`` when a budget stopped the walk: the
        outcomes are those found so far.
    :param decisions: for each position whose every option was explored,
        the decision and whether the answer there can change the outcome
        (``matters``).
    :param reached: positions reached: the work the budget counts.
    :param stopped_by: what stopped an incomplete walk: ``work`` (the
        positions reached), ``outcomes`` (the distinct outcomes kept),
        ``depth`` (the answers on one path) or ``memory limit``; ``None`` when
        complete.
    :param reason: the same in words, with the numbers.
    :param reduced: positions where one order of independent effects stood
        for all (:mod:`~tcgtrig.tools.independence`): their decisions are
        not listed, and the paths through them are counted as at least.
    """

    outcomes: list[Outcome]
    states: int
    complete: bool
    decisions: list[dict[str, Any]] = field(factory=list)
    reached: int = 0
    stopped_by: str | None = None
    reason: str | None = None
    reduced: int = 0

    def to_json(self) -> dict[str, Any]:
        stopped = None if self.stopped_by is None else {"by": self.stopped_by, "reason": self.reason}
        return {
            "outcomes": [o.to_json() for o in self.outcomes],
            "states": self.states,
            "reached": self.reached,
            "complete": self.complete,
            "stopped": stopped,
            "decisions": self.decisions,
            **({"reduced": self.reduced} if self.reduced else {}),
        }


def _reason(stopped_by: str, *, limit: int = 0, memory: str | None = None) -> str:
    """What stopped a walk, in words."""
    if stopped_by == "work":
        return f"the work budget ran out at {limit:,} positions reached"
    if stopped_by == "outcomes":
        return f"more than {limit:,} distinct outcomes: the first {limit:,} found are kept"
    if stopped_by == "depth":
        return f"a decision path went past {limit:,} answers: the resolution may never end"
    return memory or "memory limit reached"


@define(frozen=True)
class _Limits:
    """The budgets of a walk besides the work (which the walk is run with)."""

    outcomes: int = DEFAULT_MAX_OUTCOMES
    depth: int = DEFAULT_MAX_DEPTH
    #: try one order of independent effects for all (:mod:`~tcgtrig.tools.independence`)
    reduce: bool = True


#: The default budgets besides the work.
_DEFAULT_LIMITS = _Limits()


@define
class _Node:
    engine: Engine
    label: str | None = None
    key: Any = None
    decision: Decision | None = None
    options: list[str] = field(factory=list)
    index: int = 0
    results: dict[str, list[Any]] = field(factory=dict)  # outcome id -> [paths, script, at least]
    by_option: list[frozenset[str]] = field(factory=list)
    reduced: bool = False  # one order of independent effects stands for all
    steps: int = 0  # the steps the resolution had taken when the question was asked
    #: the most steps any end below had taken
    deepest: int = 0
    #: whether an end below was a loop guard's or the step limit's verdict: where the resolution
    #: ended then depends on the way here too (the guards' history), not on the position alone
    verdict: bool = False
    history: Any = None  # the loop guards' history when the question was asked


class _Walker:
    """A depth-first walk within a budget.  It can pause at a number of
    positions reached and go on later (``explore`` first tries a search in
    one process).

    :param decision: the question ``root`` waits on, if it is asked already.
    :param known: outcomes found before (by the options before this one):
        they count towards the outcomes kept.
    :param answered: answers on the path to ``root`` (they count towards
        the depth).
    :param watch: called every :data:`CHECK_EVERY` positions reached with
        the walker; it may lower :attr:`limit` (workers share one budget).
    """

    def __init__(
        self,
        root: Engine,
        limits: _Limits = _DEFAULT_LIMITS,
        *,
        decision: Decision | None = None,
        known: frozenset[str] = frozenset(),
        answered: int = 0,
        watch: Callable[[_Walker], None] | None = None,
    ) -> None:
        self.ends: dict[str, tuple[str, dict[str, Any]]] = {}
        self.known = known
        self.distinct = len(known)  # distinct outcomes, with those known before
        #: what a position explored leads to, when it holds whatever the way there: its outcomes and
        #: the most steps its ends took after it (ended by no loop guard nor the step limit)
        self.memo: dict[Any, tuple[dict[str, list[Any]], int]] = {}
        #: the same for a position some of whose ends are a guard's verdict, by position and history
        self.memo_history: dict[Any, dict[str, list[Any]]] = {}
        self.decisions: list[dict[str, Any]] = []
        self.limits = limits
        self.answered = answered
        self.watch = watch
        self.limit = 0  # positions reached at which the walk stops (set by run)
        self.reached = 1  # the root
        self.states = 0
        self.shared = 0  # positions reached again by another path
        self.memory: str | None = None  # the memory verdict, once the bound is reached
        self.stopped_by: str | None = None
        self.reason: str | None = None
        root.machine.chooser_answering = None  # every answer is tried here: none is given ahead
        node = _Node(root)
        if decision is not None:  # the root's question is asked already
            node.key, node.decision, node.options = _position(root, decision), decision, decision.legal()
            node.steps = node.deepest = root.machine.steps()[0]
            node.history = root.machine.history()
            self.states = 1
        self.stack = [node]
        self.final: dict[str, list[Any]] = {}  # the root's outcomes
        self.reduced = 0  # positions where one order stood for all
        self._footprints: Footprints | None = None

    def run(self, limit: int, *, pause: bool = False) -> bool:
        """Walk on until the walk is over (``True``), or, with ``pause``,
        until ``limit`` positions are reached (``False``: call again with a
        higher limit to go on)."""
        self.limit = limit
        stack = self.stack
        while stack:
            node = stack[-1]
            if node.key is None and not self._look(node):
                continue
            if self.stopped_by is not None:  # stopped: hand up what was found, remember nothing half explored
                _give(stack, node.results, self.final)
                continue
            if node.index < len(node.options):
                stop = self._why_stop()
                if stop is not None:
                    if pause and stop == "work":
                        return False
                    self._stop(stop)
                    continue
                self._try(node)
                continue
            if node.reduced and node.verdict:
                self._every_order(node)  # where a verdict cut the resolution may depend on the order
                continue
            self._remember(node)
            decision = node.decision
            assert decision is not None
            if node.reduced:  # whether the answer here matters was not asked
                _give(stack, node.results, self.final)
                continue
            self.decisions.append(
                {
                    "decision": decision.kind,
                    "player": decision.player,
                    "prompt": decision.prompt,
                    "options": len(node.options),
                    "matters": len(set(node.by_option)) > 1,
                }
            )
            _give(stack, node.results, self.final)
        return True

    def _look(self, node: _Node) -> bool:
        """Run a position just reached to its question; ``False`` when it
        was finished here (an end, or a position explored before)."""
        stack = self.stack
        decision = node.engine.advance()
        if decision is None:
            if node.engine.outcome is not None and node.engine.outcome.outcome == STOPPED:
                stack.pop()  # stopped by the memory bound, not ended by the game: no outcome
                self.memory = node.engine.outcome.reason
                self._stop("memory limit")
                return False
            end = self._end(node.engine)
            if end is None:  # one outcome too many: left out
                stack.pop()
                self._stop("outcomes")
                return False
            machine = node.engine.machine
            node.verdict, node.deepest = machine.guard_ended, machine.steps()[0]
            _give(stack, {end: [1, [], False]}, self.final)
            return False
        node.key = _position(node.engine, decision)
        node.steps = node.deepest = node.engine.machine.steps()[0]
        node.history = node.engine.machine.history()
        if self._recall(node):
            self.shared += 1
            _give(stack, node.results, self.final)
            return False
        self.states += 1
        node.decision = decision
        node.options = list(decision.options)
        if decision.kind == "order" and len(node.options) > 1 and self.limits.reduce:
            if self._footprints is None:
                self._footprints = Footprints(node.engine)
            one = self._footprints.first_independent(decision)
            if one is not None:
                node.options, node.reduced = [one], True
                self.reduced += 1
        return True

    def _recall(self, node: _Node) -> bool:
        """Whether the node's position was explored before in a way that
        holds here; then its outcomes become the node's.

        A position all of whose ends came by themselves leads to the same
        ends whatever the way there, as long as the steps still allowed
        cover the most its ends took (issue 37, item 22: a path that used
        more steps may be cut by the limit where the first was not).  Had a
        loop guard or the step limit ended any, where they end depends on
        the guards' history too: such a position is recalled only for the
        same history (issue 37, item 29)."""
        machine = node.engine.machine
        known = self.memo.get(node.key)
        if known is not None:
            results, took = known
            if node.steps + took <= machine.steps()[1]:
                node.results, node.deepest = results, node.steps + took
                return True
        if not self.memo_history:
            return False
        found = self.memo_history.get((node.key, machine.history()))
        if found is None:
            return False
        node.results, node.verdict = found, True
        return True

    def _remember(self, node: _Node) -> None:
        """Keep what a position explored to the end leads to (see :meth:`_recall`)."""
        if node.verdict:
            self.memo_history[(node.key, node.history)] = node.results
        else:
            self.memo[node.key] = (node.results, node.deepest - node.steps)

    def _every_order(self, node: _Node) -> None:
        """A reduced position below which a verdict ended the resolution:
        its other orders too (issue 37, item 22: the step limit cuts
        different orders at different places)."""
        decision = node.decision
        assert decision is not None
        node.options += [label for label in decision.options if label != node.options[0]]
        node.reduced = False
        self.reduced -= 1

    def _try(self, node: _Node) -> None:
        """Reach the position the node's next option leads to (its last
        option takes the node's engine: it needs it no more)."""
        label = node.options[node.index]
        node.index += 1
        # a reduced node keeps its engine: a verdict below may yet call for its other orders
        child = node.engine.copy() if node.index < len(node.options) or node.reduced else node.engine
        child.answer(label)
        self.reached += 1
        self.stack.append(_Node(child, label=label))
        if self.reached % CHECK_EVERY == 0:
            self.memory = self.memory or budget.exceeded()
            if self.watch is not None:
                self.watch(self)

    def _why_stop(self) -> str | None:
        """What forbids the next option now, if anything."""
        if self.reached >= self.limit:
            return "work"
        if self.answered + len(self.stack) > self.limits.depth:  # the option would be one answer too deep
            return "depth"
        if self.memory is not None:
            return "memory limit"
        return None

    def _stop(self, stopped_by: str) -> None:
        self.stopped_by = stopped_by
        limit = {"outcomes": self.limits.outcomes, "depth": self.limits.depth}.get(stopped_by, self.limit)
        self.reason = _reason(stopped_by, memory=self.memory, limit=limit)

    def _end(self, engine: Engine) -> str | None:
        """The id of the end state ``engine`` reached (registered in
        ``ends``); ``None`` if it would be one distinct outcome too many."""
        from ..resolution import summary

        end = summary(engine.state, engine.view)
        outcome = engine.outcome.outcome if engine.outcome is not None else "complete"
        key = json.dumps([outcome, end], sort_keys=True)
        if key not in self.ends:
            if key not in self.known:
                if self.distinct >= self.limits.outcomes:
                    return None
                self.distinct += 1
            self.ends[key] = (outcome, end)
        return key

    def result(self) -> Exploration:
        outcomes = [
            Outcome(self.ends[key][0], self.ends[key][1], script, paths, at_least)
            for key, (paths, script, at_least) in self.final.items()
        ]
        return Exploration(
            outcomes=outcomes,
            states=self.states,
            complete=self.stopped_by is None,
            decisions=self.decisions,
            reached=self.reached,
            stopped_by=self.stopped_by,
            reason=self.reason,
            reduced=self.reduced,
        )


def _give(stack: list[_Node], results: dict[str, list[Any]], final: dict[str, list[Any]]) -> None:
    """Hand a finished node's outcomes to its parent, or, for the root, to
    ``final``."""
    child = stack.pop()
    if not stack:
        final.update(results)
        return
    parent = stack[-1]
    parent.by_option.append(frozenset(results))
    parent.verdict = parent.verdict or child.verdict
    parent.deepest = max(parent.deepest, child.deepest)
    for outcome, (paths, script, at_least) in results.items():
        entry = parent.results.setdefault(outcome, [0, [child.label, *script], False])
        entry[0] += paths
        entry[2] = entry[2] or at_least or parent.reduced


def _position(engine: Engine, decision: Decision) -> Any:
    """What makes a position what it is, apart from how it was reached, and
    the question asked there."""
    return (engine.machine.position(), (decision.kind, decision.player, decision.prompt, tuple(decision.options)))


def _counted_after(progress: Progress, before: int, reached: int) -> None:
    """Report ``reached`` positions after the ``before`` already reported."""
    progress(before + reached)


def _reporting(progress: Progress | None, offset: int = 0) -> Callable[[_Walker], None] | None:
    """A walker's watch that reports its positions reached (after ``offset``)."""
    if progress is None:
        return None
    return lambda walker: progress(offset + walker.reached)


# -- the library's entry points ------------------------------------------------------


def explore(
    scenario: Scenario | Bound,
    game: str | Ruleset | None = None,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    max_outcomes: int = DEFAULT_MAX_OUTCOMES,
    max_depth: int = DEFAULT_MAX_DEPTH,
    jobs: int | None = None,
    serial_first: int = SERIAL_FIRST,
    progress: Progress | None = None,
    reduce: bool = True,
) -> Exploration:
    """Try every legal decision of ``scenario`` under ``game`` (a name, a
    :class:`~tcgtrig.Ruleset`, or ``None``: the file's own game; a scenario already
    bound to its game, :func:`tcgtrig.scenario.reading.bind`, is explored
    under that game, compiled as it is).

    :param max_states: the work budget: positions reached (the start, and
        one for every option tried), over every process.
    :param max_outcomes: the distinct outcomes kept: the walk stops when it
        finds one more (left out).
    :param max_depth: the answers on one decision path: the walk stops
        before it would go deeper.
    :param jobs: worker processes (default: every core).  A search is
        first tried in one process, up to ``serial_first`` positions
        reached, where equal positions reached by different branches are
        shared.  If it is not over by then and its branches rarely meet,
        it is started again option by option: each option of the first real
        decision is explored by itself, in order, each drawing on what the
        options before it left of the budget.  Which of the two a search
        takes, and what it finds, depend on the search and the budgets
        only, not on ``jobs``: workers explore the options at once, all
        drawing on one budget, and the parent takes their findings in the
        options' order, exploring again (in-process) the one option a
        budget stopped part-way if a worker went further than it may.  A
        search stopped by a budget gives the same outcomes, scripts, paths
        and ``states`` on any number of cores (the memory bound aside: it
        depends on the machine).
    :param progress: called now and then with the positions reached.
    :param reduce: where an effect waiting to be ordered commutes with
        everything else (:mod:`~tcgtrig.tools.independence`), try only the
        order that resolves it first: the outcomes are the same, their
        path counts lower bounds (``Outcome.at_least``).  ``False`` tries
        every order.
    """
    from ..engine import Engine
    from ..scenario.reading import Bound, bind

    bound = scenario if isinstance(scenario, Bound) else bind(scenario, game)
    root = Engine.for_scenario(bound)
    jobs = available_cores() if jobs is None else jobs
    limits = _Limits(max_outcomes, max_depth, reduce)
    if serial_first > 0:
        walker = _Walker(root.copy(), limits, watch=_reporting(progress))
        over = walker.run(min(serial_first, max_states), pause=True)
        if over or max_states <= serial_first or walker.shared >= walker.states * SHARED_ENOUGH:
            # done, out of budget, or branches that meet: walks option by option would repeat each other
            walker.run(max_states)
            return walker.result()
        if progress is not None:  # the count goes on from the positions the probe reached: it never goes back
            progress = functools.partial(_counted_after, progress, walker.reached)
        del walker  # neither needed nor to be copied into the workers
    decision = root.advance()
    if decision is None or len(decision.options) < 2:
        return _walk(root, max_states, limits, progress)
    options = list(decision.options)
    farm = _OptionFarm(root, bound.scenario, bound.game, options, max_states - 1, limits, progress)
    return farm.explore(jobs)


def explore_engine(
    engine: Engine,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    max_outcomes: int = DEFAULT_MAX_OUTCOMES,
    max_depth: int = DEFAULT_MAX_DEPTH,
    progress: Progress | None = None,
    reduce: bool = True,
) -> Exploration:
    """Explore from a position an engine is in (``engine`` is not changed):
    what each option of a question leads to (``reduce``: as :func:`explore`)."""
    return _walk(engine.copy(), max_states, _Limits(max_outcomes, max_depth, reduce), progress)


def explore_question(
    engine: Engine,
    decision: Decision,
    *,
    max_states: int = DEFAULT_QUESTION_BUDGET,
    max_depth: int = DEFAULT_MAX_DEPTH,
    progress: Progress | None = None,
    reduce: bool = True,
) -> Exploration:
    """Explore every answer to ``decision`` (pending in ``engine``) in one
    walk, the answers sharing what they found, until a second distinct
    outcome is found (``stopped_by == "outcomes"``), it is over, or a
    budget ran out (the work: positions reached over every answer; the
    depth; the memory).  ``reduce``: as :func:`explore`."""
    limits = _Limits(1, max_depth, reduce)
    walker = _Walker(engine.copy(), limits, decision=decision, watch=_reporting(progress))
    walker.run(max_states)
    return walker.result()


def same_outcome(
    engine: Engine,
    decision: Decision,
    *,
    max_states: int = DEFAULT_QUESTION_BUDGET,
    max_depth: int = DEFAULT_MAX_DEPTH,
    progress: Progress | None = None,
    reduce: bool = True,
) -> bool | None:
    """Whether every answer to ``decision`` (pending in ``engine``) leads to
    one and the same outcome — decided on the explored outcomes, not on the
    cards' texts: ``True``; ``False`` once two different outcomes are
    found; ``None`` when a budget ran out first (:func:`explore_question`)."""
    found = explore_question(
        engine, decision, max_states=max_states, max_depth=max_depth, progress=progress, reduce=reduce
    )
    if found.stopped_by == "outcomes":
        return False
    return True if found.complete else None


def cannot_matter(engine: Engine, decision: Decision, *, budget: int = DEFAULT_QUESTION_BUDGET) -> bool:
    """Whether every answer to ``decision`` surely leads to the same
    outcome (:func:`same_outcome`; ``False`` when it could not tell within
    ``budget`` positions reached)."""
    return same_outcome(engine, decision, max_states=budget) is True


def _walk(
    root: Engine, max_states: int, limits: _Limits = _DEFAULT_LIMITS, progress: Progress | None = None
) -> Exploration:
    """Depth first from ``root``, without recursion."""
    walker = _Walker(root, limits, watch=_reporting(progress))
    walker.run(max_states)
    return walker.result()


# -- a search option by option, in one process or several -------------------------------


def _explore_option(
    root: Engine,
    label: str,
    limit: int,
    limits: _Limits,
    known: frozenset[str] = frozenset(),
    watch: Callable[[_Walker], None] | None = None,
) -> Exploration:
    """Explore what answering ``label`` to the question ``root`` waits on
    leads to (``known``: the outcomes found before, see :class:`_Walker`)."""
    engine = root.copy()
    engine.answer(label)
    walker = _Walker(engine, limits, known=known, answered=1, watch=watch)
    walker.run(limit)
    found = walker.result()
    for outcome in found.outcomes:
        outcome.choices = [label, *outcome.choices]
    return found


class _OptionFarm:
    """The first real decision's options, each explored by itself, in
    order, with what the options before it left of the budget
    (``budget``: positions reached, the first question's excluded)."""

    def __init__(
        self,
        root: Engine,
        scenario: Scenario,
        game: str,
        options: list[str],
        budget: int,
        limits: _Limits,
        progress: Progress | None,
    ) -> None:
        self.root, self.scenario, self.game, self.options = root, scenario, game, options
        self.budget, self.limits, self.progress = budget, limits, progress
        self.done = 0  # positions reached by the options taken so far

    def explore(self, jobs: int) -> Exploration:
        ahead: list[Exploration | None] = [None] * len(self.options)
        if jobs > 1:
            ahead = _farm_out(self._tasks(), min(jobs, len(self.options)), self.progress)
        return self._take(ahead)

    def _tasks(self) -> list[tuple[Any, ...]]:
        data, file = dict(self.scenario.data), self.scenario.file
        return [
            (data, file, self.game, label, index, self.budget, self.limits) for index, label in enumerate(self.options)
        ]

    def _run(self, label: str, limit: int, merged: dict[str, Outcome], done: int) -> Exploration:
        return _explore_option(self.root, label, limit, self.limits, frozenset(merged), _reporting(self.progress, done))

    def _take(self, ahead: Sequence[Exploration | None]) -> Exploration:
        """The options' findings in order, as one walk would have taken
        them: each within what is left of the budget, counting the
        outcomes found before.  ``ahead``: what workers found (or
        ``None``), each on its own and with as much of the budget as it may
        have had left; an option whose worker went further than it may, or
        whose outcomes with those before are too many, is explored again
        here."""
        merged: dict[str, Outcome] = {}
        parts: list[Exploration] = []
        done = 0  # positions reached by the options taken so far
        stopped_by: str | None = None
        reason: str | None = None
        for label, found in zip(self.options, ahead, strict=True):
            left = self.budget - done
            if left <= 0:
                stopped_by, reason = "work", _reason("work", limit=self.budget + 1)
                break
            if found is None or not self._fits(found, left, merged):
                found = self._run(label, left, merged, done)
            parts.append(found)
            for outcome in found.outcomes:
                key = outcome.key()
                if key in merged:
                    merged[key].paths += outcome.paths
                    merged[key].at_least = merged[key].at_least or outcome.at_least
                else:
                    merged[key] = Outcome(
                        outcome.outcome, outcome.end, list(outcome.choices), outcome.paths, outcome.at_least
                    )
            done += found.reached
            if not found.complete:
                stopped_by, reason = found.stopped_by, found.reason
                if stopped_by == "work":
                    reason = _reason("work", limit=self.budget + 1)
                break
        decisions = [d for p in parts for d in p.decisions]
        if stopped_by is None:
            matters = len({frozenset(o.key() for o in p.outcomes) for p in parts}) > 1
            decision = self.root.machine.decision
            assert decision is not None
            decisions.append(
                {
                    "decision": decision.kind,
                    "player": decision.player,
                    "prompt": decision.prompt,
                    "options": len(self.options),
                    "matters": matters,
                }
            )
        return Exploration(
            outcomes=list(merged.values()),
            states=1 + sum(p.states for p in parts),
            complete=stopped_by is None,
            decisions=decisions,
            reached=1 + done,
            stopped_by=stopped_by,
            reason=reason,
            reduced=sum(p.reduced for p in parts),
        )

    def _fits(self, found: Exploration, left: int, merged: dict[str, Outcome]) -> bool:
        """Whether a worker's walk is the one ``left`` positions and the
        outcomes found before allow: over (or too deep) within them, or
        stopped by the work exactly there, or by the memory bound (the
        machine's, not a budget's)."""
        if found.stopped_by == "memory limit":
            return True
        if found.stopped_by == "outcomes":  # one too many of its own: as many with those before only if none
            return not merged and found.reached <= left
        if len(merged.keys() | {o.key() for o in found.outcomes}) > self.limits.outcomes:
            return False  # with those before, it found one too many on the way
        if found.stopped_by in (None, "depth"):  # neither depends on the work left
            return found.reached <= left
        return found.reached == left


# -- worker processes ---------------------------------------------------------------------


def _farm_out(tasks: list[tuple[Any, ...]], workers: int, progress: Progress | None) -> list[Exploration | None]:
    """Run the option tasks in ``workers`` processes; what each found, or
    ``None`` (not run: no budget was left for it, or its worker failed).

    The processes ignore Ctrl-C: the parent stops them (a
    ``KeyboardInterrupt`` here kills every worker before it goes on up),
    so none outlives the command.  Each gets an equal share of what the
    memory bound leaves beside the parent's own use, measured as what the
    worker grows (:func:`tcgtrig.base.budget.count_from_here`).
    """
    from multiprocessing import connection, get_all_start_methods, get_context

    # fork where there is one: workers then need not import the caller's main module
    context = get_context("fork") if "fork" in get_all_start_methods() else get_context("spawn")
    reached = context.Array("q", len(tasks), lock=False)  # each task's positions reached so far
    taken = context.Value("i", 0)  # the next task to take
    resident, _ = budget.limit()
    memory = max(resident - budget.usage()[0], 1) // workers if resident is not None else None
    found: list[Exploration | None] = [None] * len(tasks)
    running: dict[Connection, Any] = {}
    try:
        with _ctrl_c_deferred():  # a worker half started cannot be left running
            for _ in range(workers):
                receiver, sender = context.Pipe(duplex=False)
                process = context.Process(target=_worker, args=(tasks, taken, reached, sender, memory), daemon=True)
                process.start()
                sender.close()
                running[receiver] = process
        pending = dict(running)
        while pending:
            for ready in cast("list[Connection]", connection.wait(list(pending), timeout=0.5)):  # waits on pipes only
                try:
                    index, part = ready.recv()
                except EOFError:  # that worker is done
                    del pending[ready]
                    continue
                if isinstance(part, BaseException):
                    raise part
                found[index] = part
            if progress is not None:
                progress(1 + sum(reached))
        return found
    finally:
        with _ctrl_c_deferred():  # ending the workers is not to be cut short
            for receiver, process in running.items():
                if process.is_alive():
                    process.kill()
                process.join()
                receiver.close()


@contextlib.contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """Ctrl-C inside the ``with`` block raises ``KeyboardInterrupt`` at its
    end, not half-way (outside the main thread, where Python handles
    signals, nothing changes)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: came.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if came:
        raise KeyboardInterrupt


def _worker(
    tasks: list[tuple[Any, ...]], taken: Synchronized[int], reached: Any, sender: Connection, memory: int | None
) -> None:
    """A worker process: take the next task until none is left; send each
    ``(index, Exploration or None)``, or the exception that stopped it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and ends the workers
    budget.set_max_memory(memory)
    budget.count_from_here()
    try:
        while True:
            with taken.get_lock():
                index = taken.value
                taken.value = index + 1
            if index >= len(tasks):
                return
            sender.send((index, _option_task(tasks[index], reached)))
    except BaseException as exc:  # noqa: BLE001 - sent to the parent, which raises it
        try:
            sender.send((-1, exc))
        except Exception:  # noqa: BLE001 - it cannot be pickled: say what it was
            sender.send((-1, RuntimeError(f"a worker process failed: {exc!r}")))
    finally:
        sender.close()


def _option_task(task: tuple[Any, ...], reached: Any) -> Exploration | None:
    """One option, in a worker: replay the first answer, explore from
    there while the options before it leave budget (they may still be
    running: what they have reached counts)."""
    data, file, game, label, index, total, limits = task

    def left() -> int:
        return total - sum(reached[:index])

    if left() <= 0:
        return None
    from ..engine import Engine
    from ..games.manager import load_ruleset
    from ..scenario.reading import scenario_from_data

    root = Engine.for_scenario(scenario_from_data(data, file=file, check_game=False), load_ruleset(game))
    root.advance()

    def watch(walker: _Walker) -> None:
        reached[index] = walker.reached
        walker.limit = min(walker.limit, left())

    found = _explore_option(root, label, left(), limits, watch=watch)
    reached[index] = found.reached
    return found
