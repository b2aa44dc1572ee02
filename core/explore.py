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
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_all_start_methods, get_context
from typing import Any

from attrs import define, field

from .choices import Decision
from .engine import Engine
from .manager import Ruleset, load_ruleset
from .resolution import summary
from .scenario import Scenario

__all__ = ["Exploration", "Outcome", "explore", "explore_engine", "cannot_matter", "DEFAULT_MAX_STATES"]

#: Positions explored before the explorer stops (``--max-states``).
DEFAULT_MAX_STATES = 100_000


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
            jobs: int = 1) -> Exploration:
    """Try every legal decision of ``scenario`` under ``game``.

    :param max_states: stop after this many positions (the result then says
        ``complete=False``); with several jobs, each worker's share.
    :param jobs: worker processes; the options of the first real decision
        are farmed out to them (each worker replays its prefix).  The result
        is the same as with one job, but for ``states``: positions equal
        across two workers are counted by each.
    """
    ruleset = game if isinstance(game, Ruleset) else load_ruleset(game)
    compiled = scenario.compile(ruleset)
    root = Engine(ruleset, compiled.state.copy(), compiled.start, compiled=compiled)
    if jobs <= 1:
        return _walk(root, max_states)
    decision = root.advance()
    if decision is None or len(decision.options) < 2:
        return _walk(root, max_states)
    options = list(decision.options)
    tasks = [(dict(scenario.data), scenario.file, ruleset.name, [label], max_states) for label in options]
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
    from .scenario import scenario_from_data

    ruleset = load_ruleset(game)
    compiled = scenario_from_data(data, file=file).compile(ruleset)
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
    ends: dict[str, tuple[str, dict[str, Any]]] = {}
    memo: dict[Any, dict[str, list[Any]]] = {}
    decisions: list[dict[str, Any]] = []
    states = 0
    complete = True
    stack = [_Node(root)]
    final: dict[str, list[Any]] = {}  # the root's outcomes
    while stack:
        node = stack[-1]
        if node.decision is None and node.key is None:
            decision = node.engine.advance()
            if decision is None:
                found = _end(node.engine, ends)
                _give(stack, {found: [1, []]}, final)
                continue
            node.key = _position(node.engine, decision)
            known = memo.get(node.key)
            if known is not None:
                _give(stack, known, final)
                continue
            if states >= max_states:
                complete = False
                stack.pop()
                continue
            states += 1
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
        decisions.append({"decision": decision.kind, "player": decision.player, "prompt": decision.prompt,
                          "options": len(node.options), "matters": len(set(node.by_option)) > 1})
        _give(stack, node.results, final)
    outcomes = [Outcome(ends[key][0], ends[key][1], script, paths) for key, (paths, script) in final.items()]
    return Exploration(outcomes=outcomes, states=states, complete=complete, decisions=decisions)


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
    end = summary(engine.state, engine.view)
    outcome = engine.outcome.outcome if engine.outcome is not None else "complete"
    key = json.dumps([outcome, end], sort_keys=True)
    ends.setdefault(key, (outcome, end))
    return key


def _position(engine: Engine, decision: Decision) -> Any:
    """What makes a position what it is, apart from how it was reached, and
    the question asked there."""
    return (engine.machine.position(), (decision.kind, decision.player, decision.prompt, tuple(decision.options)))
