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
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from attrs import define, field

if TYPE_CHECKING:  # imported where they are used: the command line reads DEFAULT_MAX_STATES without them
    from .choices import Decision
    from .engine import Engine
    from .manager import Ruleset
    from .scenario import Scenario

__all__ = ["Exploration", "Outcome", "explore", "explore_engine", "cannot_matter", "DEFAULT_MAX_STATES"]

#: Positions explored before the explorer stops (``--max-states``).
DEFAULT_MAX_STATES = 100_000
#: Positions explored in one process before the work is farmed out: below
#: this, one process sharing what it found beats several that do not.
SERIAL_FIRST = 2_000
#: Positions reached again by another path, per position explored, above
#: which a search stays in one process (its branches meet: workers, which
#: do not share what they found, would repeat one another's work).
SHARED_ENOUGH = 0.25


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

    def to_json(self) -> dict[str, Any]:
        return {"choices": list(self.choices), "outcome": self.outcome, **self.end, "paths": self.paths}


@define
class Exploration:
    """What :func:`explore` found.

    :param outcomes: the distinct outcomes, in the order first reached.
    :param states: positions explored (each asked once).
    :param complete: ``False`` when ``max_states`` stopped the walk: the
        outcomes are those found so far.
    :param decisions: for each position asked, the decision and whether
        the answer there can change the outcome (``matters``).
    """

    outcomes: list[Outcome]
    states: int
    complete: bool
    decisions: list[dict[str, Any]] = field(factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"outcomes": [o.to_json() for o in self.outcomes], "states": self.states,
                "complete": self.complete, "decisions": self.decisions}


@define
class _Node:
    engine: Engine
    label: str | None = None
    key: Any = None
    decision: Decision | None = None
    options: list[str] = field(factory=list)
    index: int = 0
    results: dict[str, list[Any]] = field(factory=dict)  # outcome id -> [paths, script]
    by_option: list[frozenset[str]] = field(factory=list)


def explore(scenario: Scenario, game: str | Ruleset, *, max_states: int = DEFAULT_MAX_STATES,
            jobs: int | None = None, serial_first: int = SERIAL_FIRST) -> Exploration:
    """Try every legal decision of ``scenario`` under ``game``.

    :param max_states: stop after this many positions (the result then says
        ``complete=False``); with several jobs, each worker's share.
    :param jobs: worker processes (default: every core).  A search is
        first tried in one process, up to ``serial_first`` positions, where
        equal positions reached by different branches are shared; a bigger
        one is started again with the options of the first real decision
        farmed out to the workers (each replays its prefix).  The outcomes,
        scripts and path counts are the same as with one job; ``states``
        may be higher, as positions equal across two workers are counted
        by each.
    """
    from .engine import Engine
    from .manager import Ruleset, load_ruleset

    ruleset = game if isinstance(game, Ruleset) else load_ruleset(game)
    compiled = scenario.compile(ruleset)
    root = Engine(ruleset, compiled.state.copy(), compiled.start, compiled=compiled)
    jobs = available_cores() if jobs is None else jobs
    if jobs <= 1:
        return _walk(root, max_states)
    if serial_first > 0:
        walker = _Walker(root.copy())
        if walker.run(min(serial_first, max_states), pause=True) or max_states <= serial_first \
                or walker.shared >= walker.states * SHARED_ENOUGH:
            walker.run(max_states)  # done, out of budget, or branches that meet: workers would repeat each other
            return walker.result()
    decision = root.advance()
    if decision is None or len(decision.options) < 2:
        return _walk(root, max_states)
    options = list(decision.options)
    tasks = [(dict(scenario.data), scenario.file, ruleset.name, [label], max_states) for label in options]
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_all_start_methods, get_context

    # fork where there is one: workers then need not import the caller's main module
    method = "fork" if "fork" in get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(max_workers=min(jobs, len(options)), mp_context=get_context(method)) as pool:
        parts = list(pool.map(_explore_prefix, tasks))
    return _merge(decision, options, parts)


def explore_engine(engine: Engine, *, max_states: int = DEFAULT_MAX_STATES) -> Exploration:
    """Explore from a position an engine is in (``engine`` is not changed):
    what each option of a question leads to."""
    return _walk(engine.copy(), max_states)


def cannot_matter(engine: Engine, decision: Decision, *, budget: int = 2_000) -> bool:
    """Whether every answer to ``decision`` (pending in ``engine``) leads to
    one and the same outcome — decided on the explored outcomes, not on the
    cards' texts.  ``False`` when exploring an answer takes more than
    ``budget`` positions."""
    seen = None
    for label in decision.legal():
        child = engine.copy()
        child.answer(label)
        found = _walk(child, budget)
        if not found.complete:
            return False
        ends = {json.dumps([o.outcome, o.end], sort_keys=True) for o in found.outcomes}
        if len(ends) != 1 or (seen is not None and ends != seen):
            return False
        seen = ends
    return True


def _explore_prefix(task: tuple[dict[str, Any], str, str, list[str], int]) -> Exploration:
    """A worker: replay a prefix of answers, then explore from there."""
    data, file, game, prefix, max_states = task
    from .engine import Engine
    from .manager import load_ruleset
    from .scenario import scenario_from_data

    ruleset = load_ruleset(game)
    compiled = scenario_from_data(data, file=file, check_game=False).compile(ruleset)
    engine = Engine(ruleset, compiled.state.copy(), compiled.start, compiled=compiled)
    for label in prefix:
        engine.advance()
        engine.answer(label)
    found = _walk(engine, max_states)
    for outcome in found.outcomes:
        outcome.choices = [*prefix, *outcome.choices]
    return found


def _merge(decision: Decision, options: list[str], parts: list[Exploration]) -> Exploration:
    """The workers' findings as one exploration, in the options' order."""
    merged: dict[str, Outcome] = {}
    for part in parts:
        for outcome in part.outcomes:
            key = json.dumps([outcome.outcome, outcome.end], sort_keys=True)
            if key in merged:
                merged[key].paths += outcome.paths
            else:
                merged[key] = Outcome(outcome.outcome, outcome.end, list(outcome.choices), outcome.paths)
    matters = len({frozenset(json.dumps([o.outcome, o.end], sort_keys=True) for o in p.outcomes)
                   for p in parts}) > 1
    first = {"decision": decision.kind, "player": decision.player, "prompt": decision.prompt,
             "options": len(options), "matters": matters}
    return Exploration(outcomes=list(merged.values()), states=1 + sum(p.states for p in parts),
                       complete=all(p.complete for p in parts),
                       decisions=[d for p in parts for d in p.decisions] + [first])


def _walk(root: Engine, max_states: int) -> Exploration:
    """Depth first from ``root``, without recursion."""
    walker = _Walker(root)
    walker.run(max_states)
    return walker.result()


class _Walker:
    """A depth-first walk that can pause at a number of positions and go
    on later (``explore`` first tries a search in one process)."""

    def __init__(self, root: Engine) -> None:
        self.ends: dict[str, tuple[str, dict[str, Any]]] = {}
        self.memo: dict[Any, dict[str, list[Any]]] = {}
        self.decisions: list[dict[str, Any]] = []
        self.states = 0
        self.shared = 0  # positions reached again by another path
        self.complete = True
        self.stack = [_Node(root)]
        self.final: dict[str, list[Any]] = {}  # the root's outcomes

    def run(self, max_states: int, *, pause: bool = False) -> bool:
        """Walk on; at ``max_states`` positions, stop there (``pause``) or
        leave the rest unexplored.  ``True`` once the walk is over."""
        stack, memo = self.stack, self.memo
        while stack:
            node = stack[-1]
            if node.decision is None and node.key is None:
                decision = node.engine.advance()
                if decision is None:
                    found = _end(node.engine, self.ends)
                    _give(stack, {found: [1, []]}, self.final)
                    continue
                node.key = _position(node.engine, decision)
                known = memo.get(node.key)
                if known is not None:
                    self.shared += 1
                    _give(stack, known, self.final)
                    continue
                if self.states >= max_states:
                    if pause:
                        node.key = None  # asked again when the walk goes on
                        return False
                    self.complete = False
                    stack.pop()
                    continue
                self.states += 1
                node.decision = decision
                node.options = list(decision.options)
            if node.index < len(node.options):
                label = node.options[node.index]
                node.index += 1
                child = node.engine.copy()
                child.answer(label)
                stack.append(_Node(child, label=label))
                continue
            memo[node.key] = node.results
            decision = node.decision
            assert decision is not None
            self.decisions.append({"decision": decision.kind, "player": decision.player,
                                   "prompt": decision.prompt, "options": len(node.options),
                                   "matters": len(set(node.by_option)) > 1})
            _give(stack, node.results, self.final)
        return True

    def result(self) -> Exploration:
        outcomes = [Outcome(self.ends[key][0], self.ends[key][1], script, paths)
                    for key, (paths, script) in self.final.items()]
        return Exploration(outcomes=outcomes, states=self.states, complete=self.complete,
                           decisions=self.decisions)


def _give(stack: list[_Node], results: dict[str, list[Any]], final: dict[str, list[Any]]) -> None:
    """Hand a finished node's outcomes to its parent, or, for the root, to
    ``final``."""
    child = stack.pop()
    if not stack:
        final.update(results)
        return
    parent = stack[-1]
    parent.by_option.append(frozenset(results))
    for outcome, (paths, script) in results.items():
        entry = parent.results.setdefault(outcome, [0, [child.label, *script]])
        entry[0] += paths


def _end(engine: Engine, ends: dict[str, tuple[str, dict[str, Any]]]) -> str:
    """The id of the end state ``engine`` reached (registered in ``ends``)."""
    from .resolution import summary

    end = summary(engine.state, engine.view)
    outcome = engine.outcome.outcome if engine.outcome is not None else "complete"
    key = json.dumps([outcome, end], sort_keys=True)
    ends.setdefault(key, (outcome, end))
    return key


def _position(engine: Engine, decision: Decision) -> Any:
    """What makes a position what it is, apart from how it was reached, and
    the question asked there."""
    return (engine.machine.position(), (decision.kind, decision.player, decision.prompt, tuple(decision.options)))
