"""Conformance: every installed game against every scenario file that names it.

For each pair (scenario file, game) — a file names a game in its ``game``
key or its ``expect`` block — the checks below hold whatever the game's
policy is:

- the same input gives the same JSON trace, byte for byte;
- every triggered instance ends exactly once, in a documented outcome;
- every resolved instance was activated first;
- random legal play always ends, with the same invariants;
- the end state survives a save (state_to_dict → JSON → state_from_dict);
- stepping the engine by hand equals :meth:`Engine.run`, and a copy taken at
  a decision is independent of the original.

Scenarios that need more than :data:`STEP_BUDGET` steps (the 100,000-deep
stress cases) are skipped here: the scenario plugin still runs them.

Every pair is checked, in both tiers; the file's own resolution is made
once for the whole run (:mod:`bundled`, shared with the golden traces,
the trace schema and the render order), and so is its run with the
default chooser (shared by the tests of stepping by hand and of copies).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import bundled
import pytest
import tcgtrig
from helpers import run
from tcgtrig import (
    DefaultChooser,
    Engine,
    RandomChooser,
    ScriptedChooser,
    TcgTrigError,
    resolve,
    state_from_dict,
    state_to_dict,
)
from tcgtrig.conformance import ENDINGS, check_causes, check_endings

SCENARIOS = Path(__file__).parent / "scenarios"
SUFFIXES = (".yaml", ".yml", ".json")
#: Activations and rules passes allowed in this suite; longer scenarios are skipped.
STEP_BUDGET = 5_000
SEEDS = range(5)
DECISION_KINDS = {"order", "use", "may", "target", "respond"}
#: Steps that end an instance: the five outcomes of a triggered effect, plus
#: ``applied``, how a replacement ends (a replacement is not a triggered
#: effect: it has no ``triggered`` step).


def _pairs() -> list[Any]:
    games = tcgtrig.available_games()
    params = []
    for path in sorted(p for p in SCENARIOS.rglob("*") if p.suffix in SUFFIXES):
        name = path.relative_to(SCENARIOS).with_suffix("").as_posix()
        try:
            named = bundled.scenario(path).games()  # read, not compiled: each pair's test compiles it
        except TcgTrigError as exc:  # the scenario plugin reports it as a failure
            params.append(
                pytest.param(
                    path, None, id=f"unloadable:{name}", marks=pytest.mark.skip(reason=f"does not load: {exc}")
                )
            )
            continue
        for game in named:  # variants too (yugioh/ocg), for every installed game
            if game.partition("/")[0] in games:
                params.append(pytest.param(path, game, id=f"{game}:{name}"))
    return params


PAIRS = _pairs()  # every pair, in both tiers: each is resolved once (bundled.outcome)
ruleset = bundled.ruleset


def reference(path: Path, game: str) -> tcgtrig.Resolution:
    """The scenario resolved with its own choices (once for the whole run,
    :func:`bundled.outcome`); skips the over-long ones."""
    result = bundled.outcome(path, game)
    if isinstance(result, TcgTrigError):
        raise result
    if bundled.steps_taken(result) > STEP_BUDGET:
        pytest.skip(f"needs more than {STEP_BUDGET} steps: left to the scenario test")
    return result


@cache
def default_run(path: Path, game: str) -> Any:
    """The scenario run by :class:`DefaultChooser` (once for the whole run:
    the tests of stepping by hand and of copies compare with it)."""
    return new_engine(path, game).run(DefaultChooser())


def compiled(path: Path, game: str) -> Any:
    reference(path, game)  # skip the over-long ones first
    return _compiled(path, game)


@cache
def _compiled(path: Path, game: str) -> Any:
    """The file compiled for ``game``, once: each engine takes a copy of its state."""
    return tcgtrig.load_scenario(path).compile(ruleset(game))


def new_engine(path: Path, game: str) -> Engine:
    made = compiled(path, game)
    return Engine(ruleset(game), made.state.copy(), made.start, max_steps=STEP_BUDGET)


def steps(trace: list[tcgtrig.Step]) -> list[dict[str, Any]]:
    return [step.to_dict() for step in trace]


# ---------------------------------------------------------------------------
# (a) determinism
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "game"), PAIRS)
def test_same_input_gives_the_same_json_byte_for_byte(path, game):
    # the run's shared resolution, made from bundled.scenario(path)
    first = json.dumps(reference(path, game).to_dict())
    # the same Scenario object again (resolving must not change it) and a fresh read
    second = json.dumps(resolve(bundled.scenario(path), game, max_steps=STEP_BUDGET).to_dict())
    third = json.dumps(resolve(tcgtrig.load_scenario(path), game, max_steps=STEP_BUDGET).to_dict())
    assert first == second == third
    assert json.loads(first)["game"] == game and json.loads(first)["steps"]


# ---------------------------------------------------------------------------
# (b) every triggered instance ends exactly once; (c) resolved means activated
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "game"), PAIRS)
def test_every_triggered_instance_ends_exactly_once(path, game):
    result = reference(path, game)
    check_endings(result.trace, complete=result.outcome == "complete")
    check_causes(result.trace)
    triggered = {s["id"]: s["effect"] for s in result.trace if s.kind == "triggered"}
    for step in result.trace:
        if step.kind in ENDINGS and step["id"] in triggered:
            assert step["effect"] == triggered[step["id"]]  # an instance keeps its key


def costs(result: Any, key: str) -> bool:
    card, ability = key.split(".", 1)
    return bool(result.state.cards[card].ability(ability).cost)


@pytest.mark.parametrize(("path", "game"), PAIRS)
def test_every_resolved_instance_was_activated_first(path, game):
    result = reference(path, game)
    trace = result.trace
    activated_at: dict[int, int] = {}
    resolved = 0
    for index, step in enumerate(trace):
        if step.kind == "activated":
            assert step["id"] not in activated_at, f"instance {step['id']} activated twice"
            activated_at[step["id"]] = index
        elif step.kind == "resolved":
            resolved += 1
            at = activated_at.get(step["id"])
            assert at is not None, f"{step['effect']} #{step['id']} resolved without activating"
            assert trace[at]["effect"] == step["effect"]
            if not ruleset(game).chain:
                # games that resolve at once: resolution begins right after activation,
                # or right after its cost is paid
                between = trace[at + 1 : index]
                own = [s for s in between if s.kind == "event" and s.get("cause") == step["id"]]
                assert at == index - 1 or (costs(result, step["effect"]) and all(s.get("by") == "cost" for s in own)), (
                    trace[at].to_dict(),
                    step.to_dict(),
                )
    # the start is its own kind (id 0), never "resolved"
    assert trace[0].kind == "start" and trace[0]["id"] == 0
    assert all(s["id"] != 0 for s in trace if s.kind == "resolved")
    assert resolved == len(result.keys("resolved"))


# ---------------------------------------------------------------------------
# (d) random legal play
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "game"), PAIRS)
def test_random_play_always_ends_with_the_same_invariants(path, game):
    reference(path, game)
    scenario = bundled.scenario(path)
    for seed in SEEDS:
        recording = Recording(RandomChooser(seed), scenario.players)
        result = resolve(scenario, ruleset(game), chooser=recording, max_steps=STEP_BUDGET)
        recording.check(result.trace)
        won = result.outcome.endswith(" wins") and result.outcome[:-5] in scenario.players  # the win action
        assert result.outcome in ("complete", "draw") or won, (seed, result.outcome, result.reason)
        if result.outcome != "complete":
            assert result.trace[-1].kind == "ended" and result.reason
        check_endings(result.trace, complete=result.outcome == "complete")
        check_causes(result.trace)
        again = resolve(scenario, ruleset(game), chooser=RandomChooser(seed), max_steps=STEP_BUDGET)
        assert json.dumps(again.to_dict()) == json.dumps(result.to_dict()), f"seed {seed} is not reproducible"


# ---------------------------------------------------------------------------
# (e) the end state survives a save
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "game"), PAIRS)
def test_end_state_survives_a_json_round_trip(path, game):
    result = reference(path, game)
    saved = state_to_dict(result.state)
    text = json.dumps(saved)
    restored = state_from_dict(json.loads(text), ruleset(game))
    assert state_to_dict(restored) == saved
    assert restored.fingerprint() == result.state.fingerprint()
    assert {c.id: c.zone for c in restored.cards.values()} == result.to_dict()["zones"]


@pytest.mark.parametrize(("path", "game"), PAIRS)
def test_state_at_every_decision_survives_a_json_round_trip(path, game):
    engine = new_engine(path, game)
    chooser = DefaultChooser()
    checked = 0
    while True:
        saved = state_to_dict(engine.state)
        restored = state_from_dict(json.loads(json.dumps(saved)), ruleset(game))
        assert state_to_dict(restored) == saved
        checked += 1
        decision = engine.advance()
        if decision is None:
            break
        engine.answer(chooser.choose(decision, engine))
    assert engine.finished and checked >= 1


# ---------------------------------------------------------------------------
# (f) by hand, and copies
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "game"), PAIRS)
def test_stepping_by_hand_equals_run(path, game):
    expected = default_run(path, game)
    engine = new_engine(path, game)
    chooser = Recording(DefaultChooser(), bundled.scenario(path).players)
    while (decision := engine.advance()) is not None:
        engine.answer(chooser.choose(decision, engine))
    assert engine.advance() is None and engine.finished
    assert steps(engine.trace) == steps(expected.trace)
    assert state_to_dict(engine.state) == state_to_dict(expected.state)
    chooser.check(engine.trace)  # every decision asked shows as a choice step, of a documented kind
    # the front door with the default chooser gives the same trace too
    front = resolve(tcgtrig.load_scenario(path), game, chooser=DefaultChooser(), max_steps=STEP_BUDGET)
    assert steps(front.trace) == steps(expected.trace)


@pytest.mark.parametrize(("path", "game"), PAIRS)
def test_stepping_by_hand_with_the_files_choices_equals_resolve(path, game):
    expected = reference(path, game)
    engine = new_engine(path, game)
    made = compiled(path, game)
    chooser = ScriptedChooser(list(made.choices))
    recording = Recording(chooser, made.state.players)
    while (decision := engine.advance()) is not None:
        engine.answer(recording.choose(decision, engine))
    assert steps(engine.trace) == steps(expected.trace)
    assert chooser.remaining == list(expected.unused_choices)
    recording.check(engine.trace)


@pytest.mark.parametrize(("path", "game"), PAIRS)
def test_a_copy_answered_differently_leaves_the_original_alone(path, game):
    expected = default_run(path, game)
    engine = new_engine(path, game)
    chooser = DefaultChooser()
    branches = 0
    while (decision := engine.advance()) is not None and branches < 20:
        before = (engine.state.fingerprint(), state_to_dict(engine.state), steps(engine.trace))
        branch = engine.copy()
        other = next(label for label in decision.options if label != decision.default)
        branch.answer(other)
        branch.run(DefaultChooser())
        assert branch.finished
        assert (engine.state.fingerprint(), state_to_dict(engine.state), steps(engine.trace)) == before
        assert engine.decision is decision  # the original still waits for its answer
        # the branch took the other label
        taken = [s for s in branch.trace[len(before[2]) :] if s.kind == "choice"][0]
        assert taken["label"] == other
        engine.answer(chooser.choose(decision, engine))
        branches += 1
    while (decision := engine.advance()) is not None:
        engine.answer(chooser.choose(decision, engine))
    assert steps(engine.trace) == steps(expected.trace)
    assert state_to_dict(engine.state) == state_to_dict(expected.state)
    if branches == 0:
        # nothing to decide: a copy of the finished engine is the same finished engine
        clone = engine.copy()
        assert clone.advance() is None and steps(clone.trace) == steps(engine.trace)
        assert clone.state is not engine.state


# ---------------------------------------------------------------------------
# decisions
# ---------------------------------------------------------------------------


class Recording:
    """Wraps a chooser and notes every decision it is asked.  Used by the
    runs above with the file's choices, the default chooser and every
    seed of random play, so every pair's decisions are checked on runs
    the pair makes anyway."""

    def __init__(self, inner: Any, players: Any) -> None:
        self.inner = inner
        self.kinds: list[str] = []
        self.players = set(players)

    def choose(self, decision: tcgtrig.Decision, engine: Engine) -> str:
        self.kinds.append(decision.kind)
        assert decision.player in self.players, decision.player
        assert len(decision.options) > 1  # one legal option is never asked
        assert decision.default in decision.options
        assert decision.kind in DECISION_KINDS, f"undocumented decision kind {decision.kind!r}"
        label = self.inner.choose(decision, engine)
        assert label in decision.options
        return label

    def check(self, trace: tcgtrig.Trace) -> None:
        """Every decision answered among several options shows in the trace."""
        assert self.kinds == [s["decision"] for s in trace if s.kind == "choice"]


def test_decision_kinds_are_the_documented_ones():
    """Each pair's runs check their decisions (:class:`Recording`); here,
    that the files ask some: every pair's own resolution, made once."""
    assert PAIRS, "no scenario names an installed game"
    seen: set[str] = set()
    for param in PAIRS:
        path, game = param.values
        if game is None:
            continue
        found = bundled.outcome(path, game)
        if isinstance(found, TcgTrigError) or bundled.steps_taken(found) > STEP_BUDGET:
            continue  # failed, or over-long: reported (or skipped) by the tests above
        seen.update(s["decision"] for s in found.trace if s.kind == "choice")
    assert seen, "no scenario asked anything"
    assert seen <= DECISION_KINDS, sorted(seen - DECISION_KINDS)


# ---------------------------------------------------------------------------
# the documented outcome list
# ---------------------------------------------------------------------------


def test_a_replacement_is_not_a_triggered_effect():
    result = run(
        """
        cards:
          - id: wall
            owner: B
            zone: battle
            abilities:
              - {id: block, kind: replacement, when: {event: gained, player: opponent}, do: [{prevent: {}}]}
        start: [{gain: {counter: memory, amount: 3}}]
        """,
        "digimon",
    )
    assert not [s for s in result.trace if s.kind == "triggered"]
    assert result.keys("applied") == ["wall.block"] and result.keys("prevented") == ["wall.block"]
    assert result.state.counter("A", "memory") == 0


# -- the kit exercises the game's own world (issue 23, item 4) ------------------------------------------


def test_the_kit_fails_a_game_whose_rules_processing_raises():
    # before, random positions in core words carried no stats: a state-based-actions hook that raised passed
    from tcgtrig import hookimpl
    from tcgtrig.conformance import ConformanceError, check_ruleset

    class Broken:
        @hookimpl(tryfirst=True)
        def tcgtrig_rules_processing(self, state, view, changed):
            if any(view.stat(card, "dp") == 0 for card in changed):
                raise RuntimeError("rules processing broke")
            return None

    with pytest.raises(ConformanceError, match="rules processing broke"):
        check_ruleset("digimon", positions=20, plugins=[Broken()])


def test_the_kit_fails_a_game_whose_word_expands_to_garbage_naming_the_word():
    from tcgtrig import hookimpl
    from tcgtrig.conformance import ConformanceError, check_ruleset

    class Garbled:
        @hookimpl
        def tcgtrig_action_aliases(self):
            return {"smash": lambda arg: {"no_such_action": arg}}

    with pytest.raises(ConformanceError, match="the word 'smash' with 'x' does not expand to core actions"):
        check_ruleset("duelmasters", positions=2, plugins=[Garbled()])


@pytest.mark.parametrize("game", ["digimon", "duelmasters", "yugioh"])
def test_world_positions_use_the_games_own_zones_words_and_stats(game):
    from tcgtrig.conformance import check_position, check_words, world_position
    from tcgtrig.tools.lint import game_zones

    ruleset = tcgtrig.load_ruleset(game)
    words = set(check_words(ruleset))
    positions = [world_position(seed, ruleset) for seed in range(40)]
    used = {key for data in positions for action in data["start"] for key in action}
    zones = {card["zone"] for data in positions for card in data["cards"]}
    assert used & words and zones & game_zones(ruleset)
    assert all(set(card["stats"]) == set(ruleset.info.stats) for data in positions for card in data["cards"])
    for seed, data in enumerate(positions[:10]):
        check_position(data, ruleset, seed=seed)


def test_world_positions_set_the_games_rules_processing_off():
    from tcgtrig.conformance import world_position

    ruleset = tcgtrig.load_ruleset("digimon")
    by_rule = 0
    for seed in range(60):
        scenario = tcgtrig.scenario_from_data(world_position(seed, ruleset), file="<w>", check_game=False)
        result = Engine.for_scenario(scenario, ruleset, max_steps=400).run(RandomChooser(seed)).result()
        by_rule += sum(
            1
            for step in result.trace
            if step.kind == "event" and step.get("by") == "rule" and step.get("event") in ("deleted", "trashed")
        )
    assert by_rule > 0
