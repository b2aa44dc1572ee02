"""The fused path against the frames: a differential test.

``fused=True`` lets the common uninterruptible case run on the fused path
(``core/runtime/fused.py``); ``fused=False`` runs every step through the
frames, the reference.  Whatever the fused path does, a user must not be
able to tell: the same JSON trace byte for byte, the same outcome, the
same words of a refusal, the same decisions asked (kind, player, prompt,
options, default, what is pending), the same end state — for every bundled
file, random positions under every game, an engine copied at a decision
(and ``explore``, which copies at every option), and the shapes the
benchmarks time.

Quick tier (about 6 s): every bundled file under its own games, a dozen
random positions per game (half as many copied at decisions), a few files
copied at every decision and explored, the benchmarks' shapes at small
sizes (and cut by the step limit at many points).  Slow tier: every
bundled file under every installed game and variant (as
``tests/traces/every_game.py`` walks them), the hypothesis profile's number
of random positions, and every file copied at decisions and explored under
its own games.

Today both paths are the same code, so everything here passes but
:func:`test_the_deep_chain_runs_on_the_fused_path` (the fused path is not
built yet): it proves the fused path is taken once it is.
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
from helpers import quick_share
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tcgtrig.choices import Decision, RandomChooser, ScriptedChooser
from tcgtrig.conformance import STEP_BUDGET, random_position, world_position
from tcgtrig.scenario.reading import scenario_from_data
from tcgtrig.tools.explore import explore_engine
from test_properties import GAMES, ruleset
from traces.every_game import PATTERNS
from traces.every_game import games as every_game_and_variant

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


def first_difference(fused: str, general: str) -> str:
    """The first line where two texts part, with a little context."""
    a, b = fused.splitlines(), general.splitlines()
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return (
        f"line {at + 1} of {len(a)} (fused) / {len(b)} (general):\n"
        f"  fused:   {a[max(0, at - 2) : at + 3]}\n  general: {b[max(0, at - 2) : at + 3]}"
    )


def resolved_file(path: Path, game: str, fused: bool) -> tuple[tuple[Any, ...], int]:
    """``tcgtrig.resolve`` of a bundled file with its own choices: the outcome,
    the reason, the JSON trace and the unused choices — or the refusal's
    type and words; and how many effects the fused path activated."""
    try:
        result = tcgtrig.resolve(tcgtrig.load_scenario(path, check_game=False), game, fused=fused)
    except Exception as error:  # noqa: BLE001 - a refusal is compared like a trace
        return ("refused", f"{type(error).__module__}.{type(error).__qualname__}", str(error)), 0
    seen = (result.outcome, result.reason, result.json_text(), result.unused_choices)
    return ("resolved", *seen), result.engine.machine.fused_effects


def file_differences(path: Path, game: str) -> tuple[str | None, str]:
    """How the fused path's resolution of a file differs from the frames'
    (``None``: not at all), and whether it resolved or was refused."""
    fused, _ = resolved_file(path, game, fused=True)
    general, taken = resolved_file(path, game, fused=False)
    where = f"{relative(path)} under {game}"
    if taken:
        return f"{where}: fused=False activated {taken} effects on the fused path", general[0]
    if "refused" in (fused[0], general[0]):
        if fused != general:  # another error, other words, or only one path refused
            return f"{where}: fused gave {fused[:3]}, general {general[:3]}", general[0]
        return None, general[0]
    if fused[1:3] != general[1:3]:
        return f"{where}: outcome {fused[1:3]} (fused) against {general[1:3]} (general)", general[0]
    if fused[3] != general[3]:
        return f"{where}: the JSON traces differ at {first_difference(fused[3], general[3])}", general[0]
    if fused[4] != general[4]:
        return f"{where}: unused choices {fused[4]} (fused) against {general[4]} (general)", general[0]
    return None, general[0]


# ---------------------------------------------------------------------------
# 1. Every bundled file
# ---------------------------------------------------------------------------


def own_games(path: Path) -> list[str]:
    return [game for game in tcgtrig.load_scenario(path, check_game=False).games() if game.split("/")[0] in INSTALLED]


def test_the_switch_reaches_the_machine_and_a_copy():
    """Without this, every comparison below could be of one path with itself."""
    path = ROOT / "tests" / "scenarios" / "digimon" / "triggered-01.yaml"
    scenario = tcgtrig.load_scenario(path)
    for fused in (True, False):
        assert tcgtrig.resolve(scenario, fused=fused).engine.machine.fused is fused
        engine = tcgtrig.Engine.for_scenario(scenario, fused=fused)
        assert engine.machine.fused is fused
        assert engine.copy().machine.fused is fused
        assert tcgtrig.Engine(engine.ruleset, engine.state.copy(), fused=fused).machine.fused is fused
    assert tcgtrig.Engine.for_scenario(scenario).machine.fused is True  # the default


@pytest.mark.parametrize("path", quick_share(FILES), ids=relative)
def test_each_file_resolves_the_same_on_both_paths_under_its_own_games(path):
    games = own_games(path)
    assert games, f"{relative(path)} names no installed game"
    for game in games:
        difference, _ = file_differences(path, game)
        assert difference is None, difference


@pytest.mark.slow  # every file under every game and variant, twice: about 1,500 pairs
@pytest.mark.parametrize("game", every_game_and_variant())
def test_every_file_resolves_the_same_on_both_paths_under_every_game(game):
    differences, kinds = [], {"resolved": 0, "refused": 0}
    for path in FILES:
        difference, kind = file_differences(path, game)
        kinds[kind] += 1
        if difference:
            differences.append(difference)
    assert differences == [], f"{len(differences)} of {len(FILES)} files differ:\n" + "\n".join(differences[:10])
    assert len(FILES) >= 150 and kinds["resolved"] >= 20, kinds


def test_a_refusal_is_compared_by_its_words():
    """The comparison itself can fail: another refusal, another trace."""
    path = ROOT / "tests" / "scenarios" / "digimon" / "triggered-01.yaml"
    fused, _ = resolved_file(path, "digimon", fused=True)
    refused, _ = resolved_file(ROOT / "no-such-file.yaml", "digimon", fused=True)
    assert fused[0] == "resolved" and fused[1] == "complete" and '"kind": "activated"' in fused[3]
    assert refused[0] == "refused" and "no-such-file.yaml" in refused[2]
    assert first_difference("a\nb\nc", "a\nx\nc").startswith("line 2 of 3 (fused) / 3 (general)")


# ---------------------------------------------------------------------------
# 2. Random positions under every game
# ---------------------------------------------------------------------------

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
#: random positions per game and test in the quick tier (each a handful of
#: resolutions of about 10 ms); the slow tier runs the profile's number
QUICK_EXAMPLES = 12
SLOW_EXAMPLES = settings.default.max_examples


def position(game: str, seed: int, world: bool) -> tcgtrig.Scenario:
    """A random position in core words, or in the game's own world."""
    data = world_position(seed, ruleset(game)) if world else random_position(seed)
    return scenario_from_data(data, file="<random>", check_game=False)


def engine_for(scenario: tcgtrig.Scenario, game: str | tcgtrig.Ruleset, fused: bool, **kwargs: Any) -> tcgtrig.Engine:
    rules = ruleset(game) if isinstance(game, str) else game
    return tcgtrig.Engine.for_scenario(scenario, rules, fused=fused, **kwargs)


def driven(make: Callable[[bool], tcgtrig.Engine], chooser: Callable[[], Any]) -> dict[str, Any]:
    """Each path's engine run with its own (equal) chooser: what it asked,
    its JSON trace and its end state."""
    seen = {}
    for fused in (True, False):
        recording = Recording(chooser())
        engine = make(fused).run(recording)
        seen[fused] = {
            "asked": recording.asked,
            "json": engine.result().json_text(),
            "end": end_state(engine),
            "fused effects": engine.machine.fused_effects,
        }
    return seen


def assert_same(seen: dict[bool, dict[str, Any]], where: str) -> None:
    fused, general = seen[True], seen[False]
    assert general["fused effects"] == 0, f"{where}: fused=False activated effects on the fused path"
    assert fused["asked"] == general["asked"], f"{where}: other decisions were asked"
    assert fused["json"] == general["json"], f"{where}: {first_difference(fused['json'], general['json'])}"
    assert fused["end"] == general["end"], f"{where}: another end state"


def check_random_position(game: str, seed: int, world: bool) -> None:
    scenario = position(game, seed, world)
    seen = driven(lambda fused: engine_for(scenario, game, fused, max_steps=STEP_BUDGET), lambda: RandomChooser(seed))
    assert_same(seen, f"{game}, seed {seed}, {'world' if world else 'core'} position")


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=QUICK_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, world=st.booleans())
def test_random_positions_resolve_the_same_on_both_paths(game, seed, world):
    check_random_position(game, seed, world)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, world=st.booleans())
def test_many_random_positions_resolve_the_same_on_both_paths(game, seed, world):
    check_random_position(game, seed, world)


def asking(game: str) -> tcgtrig.Scenario:
    """The first random position that asks a question with two answers."""
    for seed in range(200):
        scenario = position(game, seed, world=False)
        recording = Recording(RandomChooser(0))
        engine_for(scenario, game, True).run(recording)
        if any(len(decision[3]) > 1 for decision in recording.asked):
            return scenario
    raise AssertionError(f"no random position asks a question with two answers under {game}")


def test_the_random_comparison_sees_a_different_decision():
    """A chooser that answers differently on one path is caught: the
    comparison is of the decisions and traces, not of the position alone."""
    scenario = asking("digimon")
    flip = iter((True, False))

    def make(fused: bool) -> tcgtrig.Engine:
        return engine_for(scenario, "digimon", fused)

    class Contrary:
        """The last legal option on the first path, the first on the second."""

        def __init__(self) -> None:
            self.last = next(flip)

        def choose(self, decision: Decision, engine: tcgtrig.Engine) -> str:
            return decision.legal()[-1 if self.last else 0]

    with pytest.raises(AssertionError, match="other decisions were asked"):
        assert_same(driven(make, Contrary), "contrary")


# ---------------------------------------------------------------------------
# 3. An engine copied at a decision, and explore
# ---------------------------------------------------------------------------


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


def check_copies(make: Callable[[bool], tcgtrig.Engine], chooser: Callable[[], Any], where: str, stops: int) -> int:
    """Resolve on the frames straight through; then, on each path, stop at
    some decisions (the first, the last, ``stops`` more), copy the engine
    and go on with both the copy and the original, each with the chooser as
    it was at the stop: the same decisions, trace and end state as the
    frames'.  The number of decisions copied at."""
    recording = Recording(chooser())
    reference = make(False).run(recording)
    text, end, count = reference.result().json_text(), end_state(reference), len(recording.asked)
    picks = random.Random(len(text)).sample(range(count + 1), min(stops, count + 1))
    copied = 0
    for fused in (True, False):
        for stop in sorted({0, count, *picks}):
            engine, answering = make(fused), chooser()
            try:
                engine.run(StopAt(answering, stop))
            except Stopped:
                pass
            assert (engine.decision is None) == (stop == count), f"{where}: the decisions went another way"
            branch = engine.copy()
            assert branch.machine.fused is fused, f"{where}: the copy is on the other path"
            if engine.decision is not None:
                assert asked(branch.decision, branch) == asked(engine.decision, engine), (
                    f"{where}: the copy asks another"
                )
                copied += 1
            # the copy goes on first: going on must not move the original
            for which, continued, answers in (
                ("copy", branch, copy.deepcopy(answering)),
                ("original", engine, answering),
            ):
                later = Recording(answers)
                continued.run(later)
                here = f"{where}: fused={fused}, the {which} made at decision {stop} of {count}"
                assert later.asked == recording.asked[stop:], f"{here}: other decisions were asked"
                got = continued.result().json_text()
                assert got == text, f"{here}: {first_difference(got, text)}"
                assert end_state(continued) == end, f"{here}: another end state"
    return copied


def check_random_copies(game: str, seed: int, world: bool) -> None:
    scenario = position(game, seed, world)
    check_copies(
        lambda fused: engine_for(scenario, game, fused, max_steps=STEP_BUDGET),
        lambda: RandomChooser(seed),
        f"{game}, seed {seed}, {'world' if world else 'core'} position",
        stops=2,
    )


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=QUICK_EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, world=st.booleans())
def test_a_copy_at_a_decision_goes_on_the_same_on_both_paths(game, seed, world):
    check_random_copies(game, seed, world)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=SLOW_EXAMPLES // 2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, world=st.booleans())
def test_many_copies_at_a_decision_go_on_the_same_on_both_paths(game, seed, world):
    check_random_copies(game, seed, world)


#: files that ask several questions: a copy at each, and explore from the start
ASKING = [
    "tests/scenarios/digimon/triggered-07.yaml",
    "tests/scenarios/digimon/interrupt-x.yaml",
    "tests/scenarios/duelmasters/cr-8-before-break.yaml",
    "tests/scenarios/duelmasters/cr-2-jiwatch-two-jaomon.yaml",
    "tests/scenarios/yugioh/case-01-dark-hole-sangan-peten.yaml",
    "tests/scenarios/yugioh/case-16-counter-trap-only-spell-speed-3-responds.yaml",
    "tests/plugins/yugioh/positions/quick-twice.yaml",
]


def explored(path: Path, game: str, fused: bool, max_states: int) -> dict[str, Any]:
    engine = tcgtrig.Engine.for_scenario(tcgtrig.load_scenario(path, check_game=False), game, fused=fused)
    return explore_engine(engine, max_states=max_states).to_json()


def check_file_copies(path: Path, game: str, stops: int) -> int:
    """:func:`check_copies` on a bundled file with its own choices."""
    scenario = tcgtrig.load_scenario(path, check_game=False)
    choices = scenario.compile(ruleset(game)).choices
    return check_copies(
        lambda fused: engine_for(scenario, game, fused),
        lambda: ScriptedChooser(choices),
        f"{relative(path)} under {game}",
        stops=stops,
    )


@pytest.mark.parametrize("name", ASKING)
def test_a_file_copied_at_every_decision_goes_on_the_same_on_both_paths(name):
    for game in own_games(ROOT / name):
        assert check_file_copies(ROOT / name, game, stops=1_000) >= 3


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=relative)
def test_every_file_copied_at_a_decision_goes_on_the_same_on_both_paths(path):
    for game in own_games(path):
        try:
            tcgtrig.Engine.for_scenario(tcgtrig.load_scenario(path, check_game=False), ruleset(game))
        except tcgtrig.TcgTrigError:
            continue  # refused before it starts: the sweep compares the refusal
        check_file_copies(path, game, stops=3)


@pytest.mark.parametrize("name", ASKING)
def test_explore_finds_the_same_on_both_paths(name):
    path = ROOT / name
    for game in own_games(path):
        fused, general = explored(path, game, True, 500), explored(path, game, False, 500)
        assert fused == general
        assert len(general["outcomes"]) >= 1 and general["states"] >= 2


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=relative)
def test_explore_from_every_file_finds_the_same_on_both_paths(path):
    for game in own_games(path):
        try:
            general = explored(path, game, False, 300)
        except tcgtrig.TcgTrigError as error:
            with pytest.raises(type(error)) as raised:
                explored(path, game, True, 300)
            assert str(raised.value) == str(error)
            continue
        assert general["reached"] >= 1
        assert explored(path, game, True, 300) == general, f"{relative(path)} under {game}"


# ---------------------------------------------------------------------------
# 4. The benchmarks' shapes
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


def shape_maker(name: str, game: str) -> Callable[[], tuple[dict[str, Any], list[str]]]:
    (make,) = [make for shape, shape_game, make in SHAPES if (shape, shape_game) == (name, game)]
    return make


def shape_engine(name: str, game: str, make: Callable[[], Any], fused: bool, **kwargs: Any) -> tcgtrig.Engine:
    data, _ = make()
    scenario = scenario_from_data(data, file=f"<{name}>", check_game=False)
    rules = core_only() if game == "core_only" else game
    return engine_for(scenario, rules, fused, **kwargs)


@pytest.mark.parametrize("name, game, make", SHAPES, ids=[f"{game}: {name}" for name, game, _ in SHAPES])
def test_the_benchmarks_shapes_resolve_the_same_on_both_paths(name, game, make):
    _, choices = make()
    seen = driven(lambda fused: shape_engine(name, game, make, fused), lambda: ScriptedChooser(choices))
    assert_same(seen, f"{game}: {name}")
    activated = seen[False]["json"].count('"kind": "activated"')
    assert activated >= 8, f"{game}: {name} activated only {activated} effects"
    assert seen[False]["end"]["outcome"] is None and seen[False]["end"]["finished"]


@pytest.mark.parametrize("game", ["digimon", "duelmasters", "yugioh"])
def test_an_endless_loop_is_cut_at_the_same_step_on_both_paths(game):
    scenario = tcgtrig.scenario_from_text(benchmarks().PING_PONG, "<ping pong>")
    seen = driven(lambda fused: engine_for(scenario, game, fused, max_steps=300), lambda: ScriptedChooser([]))
    assert_same(seen, f"ping pong under {game}")
    assert seen[False]["end"]["outcome"] is not None, "the loop was not cut"


#: (shape, game, step limits): limits that cut the resolution at every
#: point near where it would end, and one that lets it end
LIMITS = [
    ("deep chain", "digimon", [1, 2, 10, 48, 49, 50, 51, 52]),
    ("deep chain", "duelmasters", [1, 2, 10, 48, 49, 50, 51, 52]),
    ("one-link chains", "yugioh", [1, 2, 3, 10, 97, 98, 99, 100, 101]),
    ("long cascade", "digimon", range(1, 42)),  # every limit cuts it somewhere else
]


@pytest.mark.parametrize("name, game, limits", LIMITS, ids=[f"{game}: {name}" for name, game, _ in LIMITS])
def test_the_step_limit_cuts_at_the_same_step_on_both_paths(name, game, limits):
    make = shape_maker(name, game)
    ended = set()
    for limit in limits:
        seen = driven(
            lambda fused, limit=limit: shape_engine(name, game, make, fused, max_steps=limit),
            lambda: ScriptedChooser([]),
        )
        assert_same(seen, f"{game}: {name}, max_steps={limit}")
        ended.add(seen[False]["end"]["outcome"] is None)
    assert ended == {True, False}, "the limits should both cut the resolution and let it end"


def test_the_fused_path_is_taken_only_when_asked_for():
    """``fused=False`` is the reference: it never activates an effect on
    the fused path, whatever the position."""
    for name, game, make in SHAPES:
        engine = shape_engine(name, game, make, fused=False).run(ScriptedChooser(make()[1]))
        assert engine.machine.fused_effects == 0, f"{game}: {name}"


@pytest.mark.parametrize(
    ("name", "game"),
    [
        ("deep chain", "digimon"),
        ("deep chain, core only", "core_only"),
        ("deep chain", "duelmasters"),
        ("one-link chains", "yugioh"),
        ("distinct cards", "digimon"),
        ("distinct cards", "yugioh"),
    ],
)
def test_the_uninterruptible_shapes_run_on_the_fused_path(name: str, game: str) -> None:
    """Every effect of a chain nothing can interrupt, replace or ask about
    — a Yu-Gi-Oh! chain no one can respond to included — is activated on
    the fused path with ``fused=True``, none with ``fused=False``, and the
    traces agree."""
    make = shape_maker(name, game)
    general = shape_engine(name, game, make, fused=False).run(ScriptedChooser([]))
    assert general.machine.fused_effects == 0
    fused = shape_engine(name, game, make, fused=True).run(ScriptedChooser([]))
    assert fused.result().json_text() == general.result().json_text()
    triggered = len(fused.result().keys("triggered"))  # each picked once, and taken on the fused path
    assert triggered > 20 and fused.machine.fused_effects == triggered, f"{game}: {name}"


def test_a_position_with_an_interrupt_takes_every_step_the_general_way() -> None:
    """An interrupt anywhere (a card that may react before an action
    happens) keeps the fused path off for the whole resolution."""
    data, _ = benchmarks().deep(20), []
    data["cards"].append(
        {
            "id": "watcher",
            "owner": "B",
            "zone": "battle",
            "abilities": [{"id": "react", "kind": "interrupt", "when": {"event": "deleted"}, "do": [{"memory": 1}]}],
        }
    )
    scenario = scenario_from_data(data, file="<interrupt>", check_game=False)
    engine = engine_for(scenario, "digimon", True).run(ScriptedChooser([]))
    assert engine.machine.fused_effects == 0 and len(engine.result().keys("resolved")) == 19
    general = engine_for(scenario, "digimon", False).run(ScriptedChooser([]))
    assert engine.result().json_text() == general.result().json_text()
