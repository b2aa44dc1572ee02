"""An engine copied at a decision goes on as the straight-through run
does, and the benchmarks' shapes resolve.

Until issue 39 this file compared the fused path (``core/runtime/fused.py``)
with the frames; the fused path is retired (one implementation of each
rule), and what here checked more than the two paths' agreement stays:
stopped at a decision (the first, the last, some between), an engine and
its copy each go on to the same decisions, JSON trace and end state as a
run straight through — on random positions under every game and on files
that ask several questions; and the positions ``benchmarks/run.py`` times
resolve to the end, activating what they should.

Quick tier: a half-dozen random positions per game, the files of
:data:`ASKING` at every decision, the benchmarks' shapes at small sizes.
Slow tier: the hypothesis profile's number of random positions, and every
bundled file copied at a few decisions under its own games.
"""

from __future__ import annotations

import copy
import importlib.util
import random
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import tcgtrig
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tcgtrig.choices import Decision, RandomChooser, ScriptedChooser
from tcgtrig.conformance import STEP_BUDGET, random_position, world_position
from tcgtrig.scenario.reading import scenario_from_data
from test_properties import GAMES, ruleset
from traces.every_game import PATTERNS

ROOT = Path(__file__).resolve().parents[2]
#: the files tests/traces/every_game.py walks
FILES = sorted({path for pattern in PATTERNS for path in ROOT.glob(pattern)})
INSTALLED = frozenset(tcgtrig.available_games())


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ---------------------------------------------------------------------------
# What a user sees of one resolution
# ---------------------------------------------------------------------------


def asked(decision: Decision, engine: tcgtrig.Engine) -> tuple[Any, ...]:
    """A decision as a user sees it, with what is pending when it is asked."""
    return (
        decision.kind,
        decision.player,
        decision.prompt,
        list(decision.options),
        decision.default,
        decision.effect,
        [effect.key for effect in engine.pending],
        [effect.key for effect in engine.chain_links],
    )


class Recording:
    """Answers as ``inner`` does and notes every decision and answer."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.asked: list[tuple[Any, ...]] = []
        self.answers: list[str] = []
        # the loop guard reads the chooser's fingerprint: the wrapper must not hide it
        self.fingerprint = getattr(inner, "fingerprint", None)

    def choose(self, decision: Decision, engine: tcgtrig.Engine) -> str:
        label = self.inner.choose(decision, engine)
        self.asked.append((*asked(decision, engine), label))
        self.answers.append(label)
        return label


def end_state(engine: tcgtrig.Engine) -> dict[str, Any]:
    """Everything the position holds at the end: counters, cards (zone,
    flags, stats, mods, abilities), per-turn uses, marks, the turn's
    history, how it ended and what is left pending."""
    state = engine.state
    return {
        "turn": (state.players, state.turn_player, state.turn),
        "counters": state.counters,
        "cards": [(card, card.abilities) for card in state.cards.values()],
        "used": state.used,
        "marks": state.marks,
        "history": list(state.history),
        "outcome": engine.outcome,
        "finished": engine.finished,
        "pending": [effect.key for effect in engine.pending],
        "chain": [effect.key for effect in engine.chain_links],
    }


def first_difference(got: str, wanted: str) -> str:
    """The first line where two texts part, with a little context."""
    a, b = got.splitlines(), wanted.splitlines()
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return (
        f"line {at + 1} of {len(a)} (got) / {len(b)} (straight through):\n"
        f"  got:     {a[max(0, at - 2) : at + 3]}\n  wanted:  {b[max(0, at - 2) : at + 3]}"
    )


def own_games(path: Path) -> list[str]:
    return [game for game in tcgtrig.load_scenario(path, check_game=False).games() if game.split("/")[0] in INSTALLED]


# ---------------------------------------------------------------------------
# 1. An engine copied at a decision
# ---------------------------------------------------------------------------

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
#: random positions per game in the quick tier (each a handful of
#: resolutions of about 10 ms); the slow tier runs the profile's number
QUICK_EXAMPLES = 6
SLOW_EXAMPLES = settings.default.max_examples // 2


def position(game: str, seed: int, world: bool) -> tcgtrig.Scenario:
    """A random position in core words, or in the game's own world."""
    data = world_position(seed, ruleset(game)) if world else random_position(seed)
    return scenario_from_data(data, file="<random>", check_game=False)


def engine_for(scenario: tcgtrig.Scenario, game: str | tcgtrig.Ruleset, **kwargs: Any) -> tcgtrig.Engine:
    rules = ruleset(game) if isinstance(game, str) else game
    return tcgtrig.Engine.for_scenario(scenario, rules, **kwargs)


class Stopped(Exception):
    """Raised by :class:`StopAt` to leave an engine waiting at a decision."""


class StopAt:
    """Answers as ``inner`` does, but stops before the decision number
    ``at`` (from 0), leaving the engine waiting at it."""

    def __init__(self, inner: Any, at: int) -> None:
        self.inner, self.at, self.calls = inner, at, 0
        self.fingerprint = getattr(inner, "fingerprint", None)

    def choose(self, decision: Decision, engine: tcgtrig.Engine) -> str:
        if self.calls == self.at:
            raise Stopped
        self.calls += 1
        return self.inner.choose(decision, engine)


def check_copies(make: Callable[[], tcgtrig.Engine], chooser: Callable[[], Any], where: str, stops: int) -> int:
    """Resolve straight through; then stop at some decisions (the first,
    the last, ``stops`` more), copy the engine and go on with both the copy
    and the original, each with the chooser as it was at the stop: the same
    decisions, trace and end state as straight through.  The number of
    decisions copied at."""
    recording = Recording(chooser())
    reference = make().run(recording)
    text, end, count = reference.result().json_text(), end_state(reference), len(recording.asked)
    picks = random.Random(len(text)).sample(range(count + 1), min(stops, count + 1))
    copied = 0
    for stop in sorted({0, count, *picks}):
        engine, answering = make(), chooser()
        try:
            engine.run(StopAt(answering, stop))
        except Stopped:
            pass
        assert (engine.decision is None) == (stop == count), f"{where}: the decisions went another way"
        branch = engine.copy()
        if engine.decision is not None:
            assert asked(branch.decision, branch) == asked(engine.decision, engine), f"{where}: the copy asks another"
            copied += 1
        # the copy goes on first: going on must not move the original
        for which, continued, answers in (("copy", branch, copy.deepcopy(answering)), ("original", engine, answering)):
            later = Recording(answers)
            continued.run(later)
            here = f"{where}: the {which} made at decision {stop} of {count}"
            assert later.asked == recording.asked[stop:], f"{here}: other decisions were asked"
            got = continued.result().json_text()
            assert got == text, f"{here}: {first_difference(got, text)}"
            assert end_state(continued) == end, f"{here}: another end state"
    return copied


def check_random_copies(game: str, seed: int, world: bool) -> None:
    scenario = position(game, seed, world)
    check_copies(
        lambda: engine_for(scenario, game, max_steps=STEP_BUDGET),
        lambda: RandomChooser(seed),
        f"{game}, seed {seed}, {'world' if world else 'core'} position",
        stops=2,
    )


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=QUICK_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, world=st.booleans())
def test_a_copy_at_a_decision_goes_on_as_straight_through(game, seed, world):
    check_random_copies(game, seed, world)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, world=st.booleans())
def test_many_copies_at_a_decision_go_on_as_straight_through(game, seed, world):
    check_random_copies(game, seed, world)


def test_the_copy_check_sees_a_copy_that_goes_another_way():
    """The check itself can fail: a run after a stop whose chooser answers
    otherwise than straight through is caught."""
    scenario = tcgtrig.load_scenario(ROOT / ASKING[0], check_game=False)
    made = iter(range(1_000))

    class Contrary:
        """The last legal option straight through, the first after a stop."""

        def __init__(self) -> None:
            self.last = next(made) == 0

        def choose(self, decision: Decision, engine: tcgtrig.Engine) -> str:
            return decision.legal()[-1 if self.last else 0]

    with pytest.raises(AssertionError, match="other decisions|went another way|another end state|line"):
        check_copies(lambda: engine_for(scenario, "digimon"), Contrary, "contrary", stops=1_000)


#: files that ask several questions: a copy at each
ASKING = [
    "tests/scenarios/digimon/triggered-07.yaml",
    "tests/scenarios/digimon/interrupt-x.yaml",
    "tests/scenarios/duelmasters/cr-8-before-break.yaml",
    "tests/scenarios/duelmasters/cr-2-jiwatch-two-jaomon.yaml",
    "tests/scenarios/yugioh/case-01-dark-hole-sangan-peten.yaml",
    "tests/scenarios/yugioh/case-16-counter-trap-only-spell-speed-3-responds.yaml",
    "tests/plugins/yugioh/positions/quick-twice.yaml",
]


def check_file_copies(path: Path, game: str, stops: int) -> int:
    """:func:`check_copies` on a bundled file with its own choices."""
    scenario = tcgtrig.load_scenario(path, check_game=False)
    choices = scenario.compile(ruleset(game)).choices
    return check_copies(
        lambda: engine_for(scenario, game),
        lambda: ScriptedChooser(choices),
        f"{relative(path)} under {game}",
        stops=stops,
    )


@pytest.mark.parametrize("name", ASKING)
def test_a_file_copied_at_every_decision_goes_on_as_straight_through(name):
    for game in own_games(ROOT / name):
        assert check_file_copies(ROOT / name, game, stops=1_000) >= 3


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=relative)
def test_every_file_copied_at_a_decision_goes_on_as_straight_through(path):
    for game in own_games(path):
        try:
            tcgtrig.Engine.for_scenario(tcgtrig.load_scenario(path, check_game=False), ruleset(game))
        except tcgtrig.TcgTrigError:
            continue  # refused before it starts: nothing to copy
        check_file_copies(path, game, stops=3)


# ---------------------------------------------------------------------------
# 2. The benchmarks' shapes
# ---------------------------------------------------------------------------


@cache
def benchmarks() -> ModuleType:
    """``benchmarks/run.py``'s positions (its figures are not run)."""
    spec = importlib.util.spec_from_file_location("benchmark_positions", ROOT / "benchmarks" / "run.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


def core_only() -> tcgtrig.Ruleset:
    return tcgtrig.load_ruleset("core_only", plugins=(benchmarks().CoreOnly(),), autoload=False)


#: (name, game, the position's data and scripted choices) at sizes a test can afford
SHAPES: list[tuple[str, str, Callable[[], tuple[dict[str, Any], list[str]]]]] = [
    ("deep chain", "digimon", lambda: (benchmarks().deep(50), [])),
    ("deep chain, core only", "core_only", lambda: (benchmarks().deep(50), [])),
    ("long cascade", "digimon", lambda: (benchmarks().cascade(10, 3), [])),
    ("wide layer", "digimon", lambda: (benchmarks().wide(20), [])),
    ("long cascade", "duelmasters", lambda: (benchmarks().dm_cascade(10, 3), [])),
    ("wide pool", "duelmasters", lambda: (benchmarks().dm_wide(20), [])),
    ("deep chain", "duelmasters", lambda: (benchmarks().dm_deep(50), [])),
    ("long cascade", "yugioh", lambda: (benchmarks().ygo_cascade(10, 3), [])),
    ("one-link chains", "yugioh", lambda: (benchmarks().ygo_deep(50), [])),
    ("segoc", "yugioh", lambda: (benchmarks().ygo_segoc(12), [])),
    ("chain of responses", "yugioh", lambda: benchmarks().ygo_responses(8)),
    *[("distinct cards", game, lambda game=game: (benchmarks().distinct(30, game), [])) for game in benchmarks().GAMES],
    # the example games, in Digimon's words (read through their zones' and events' roles)
    *[
        ("distinct cards", game, lambda: (benchmarks().distinct(30), []))
        for game in ("lorcana", "magic")
        if game in INSTALLED
    ],
    *[("deep chain", game, lambda: (benchmarks().deep(50), [])) for game in ("lorcana", "magic") if game in INSTALLED],
    ("pending at once", "digimon", lambda: (benchmarks().pending(6, 3), [])),
    ("listeners", "digimon", lambda: (benchmarks().listeners(10, 12), [])),
    ("conditioned", "digimon", lambda: (benchmarks().conditioned(10), [])),
]


@pytest.mark.parametrize("name, game, make", SHAPES, ids=[f"{game}: {name}" for name, game, _ in SHAPES])
def test_the_benchmarks_shapes_resolve_to_the_end(name, game, make):
    data, choices = make()
    scenario = scenario_from_data(data, file=f"<{name}>", check_game=False)
    engine = engine_for(scenario, core_only() if game == "core_only" else game).run(ScriptedChooser(choices))
    activated = engine.result().json_text().count('"kind": "activated"')
    assert activated >= 8, f"{game}: {name} activated only {activated} effects"
    assert engine.outcome is None and engine.finished
