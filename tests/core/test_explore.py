"""explore: every legal decision, each distinct outcome once, equal
positions explored once."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import tcgtrig
from helpers import scenario
from tcgtrig.resolution import summary
from tcgtrig.tools.explore import explore

TEN = scenario(
    "    cards:\n"
    + "\n".join(
        f"      - {{id: c{i}, owner: A, zone: battle, abilities: [{{id: x, when: ping, do: [{{gain: {{counter: n{i}}}}}]}}]}}"
        for i in range(10)
    )
    + "\n    start: [{emit: {event: ping}}]\n"
)

Q4285 = "tests/scenarios/digimon/qa-13-bt20-068-q4285.yaml"


def test_ten_independent_triggers_cost_about_two_to_the_ten_positions():
    found = explore(TEN, "digimon", reduce=False)  # every order (one order for all: test_independence.py)
    assert found.complete and len(found.outcomes) == 1
    assert found.outcomes[0].paths == math.factorial(10)  # every order, counted
    assert found.states <= 2**10  # each set of effects still pending is asked once
    assert not any(d["matters"] for d in found.decisions)  # the order never changes the outcome


def test_each_outcome_comes_with_a_script_that_reaches_it():
    scene = tcgtrig.load_scenario(Q4285)
    found = explore(scene, "digimon")
    assert len(found.outcomes) == 4 and sum(o.paths for o in found.outcomes) == 6
    ends = set()
    for outcome in found.outcomes:
        result = tcgtrig.resolve(scene, "digimon", choices=outcome.choices)
        assert summary(result.state, result.engine.view) == outcome.end
        ends.add(repr(outcome.end))
    assert len(ends) == 4
    # Q4285: returning Bakemon first loses Ghostmon's inherited effect — memory stays at 0
    returned_first = next(o for o in found.outcomes if o.choices == ["demimeramon.return", "use", "bakemon"])
    assert returned_first.end["counters"]["A"]["memory"] == 0


def test_max_states_stops_the_walk_and_says_so():
    found = explore(TEN, "digimon", max_states=50, reduce=False)
    assert not found.complete and found.reached == 50 and found.states < 50  # every option tried is work
    assert found.stopped_by == "work" and "50 positions reached" in found.reason


def test_explore_on_the_command_line(tmp_path):
    import json

    from click.testing import CliRunner
    from tcgtrig.tools.cli import main

    result = CliRunner().invoke(main, ["explore", Q4285, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"outcomes", "states"} <= set(data) and data["states"] == 5
    assert set(data["outcomes"][0]) >= {"choices", "counters", "zones", "flags", "paths"}
    text = CliRunner().invoke(main, ["explore", Q4285, "--max-states", "2"])
    # a search a budget stopped ends early: exit 3, and standard error says what was cut
    assert text.exit_code == 3
    assert text.stderr.startswith("warning: stopped early: the work budget ran out at 2 positions reached")


def test_two_jobs_find_the_same_outcomes_scripts_and_paths():
    scene = tcgtrig.load_scenario(Q4285)
    one = explore(scene, "digimon", jobs=1)
    two = explore(scene, "digimon", jobs=2, serial_first=0)  # farmed out at once
    assert [(o.choices, o.paths, o.end) for o in two.outcomes] == [(o.choices, o.paths, o.end) for o in one.outcomes]
    assert two.complete and two.states >= one.states


def test_a_search_whose_branches_meet_stays_in_one_process():
    alone = explore(TEN, "digimon", jobs=1, reduce=False)
    assert 2**9 < alone.states <= 2**10
    # paused after 200 positions, it sees the branches meet and goes on by itself: the same walk
    default = explore(TEN, "digimon", jobs=2, serial_first=200, reduce=False)
    assert (default.states, default.complete) == (alone.states, True)
    assert [(o.choices, o.paths) for o in default.outcomes] == [(o.choices, o.paths) for o in alone.outcomes]
    assert default.decisions == alone.decisions


def test_an_interactive_chooser_need_not_ask_what_cannot_change_the_outcome():
    from tcgtrig.choices import InteractiveChooser

    asked, said = [], []
    chooser = InteractiveChooser(ask=lambda prompt: asked.append(prompt) or "", say=said.append, skip_irrelevant=True)
    six = scenario(
        "    cards:\n"
        + "\n".join(
            f"      - {{id: c{i}, owner: A, zone: battle, abilities: [{{id: x, when: ping, do: [{{gain: {{counter: n{i}}}}}]}}]}}"
            for i in range(6)
        )
        + "\n    start: [{emit: {event: ping}}]\n"
    )
    result = tcgtrig.resolve(six, "digimon", chooser=chooser)
    assert asked == [] and len(result.keys("resolved")) == 6
    assert sum("every answer leads to the same outcome" in line for line in said) == 5


# -- issue 22: every search has one budget and ends with a verdict ------------------------

HOSTILE = Path(__file__).parent.parent / "hostile"
PICK = HOSTILE / "explore-pick-10-of-200.yaml"  # few positions asked, 190 options tried at each
CHAIN = HOSTILE / "explore-chain-7.yaml"  # quick effects that chain: the first option fits in 4,000 positions
FAN = HOSTILE / "explore-fan-out.yaml"  # every branch piles up pending effects


def test_the_work_budget_counts_every_option_tried():
    # item 2: 50 positions asked tried 7,000 options (52 s, 580 MB at N=50 in the issue); now every option is work
    found = explore(tcgtrig.load_scenario(PICK), "digimon", max_states=50, jobs=1)
    assert (found.complete, found.stopped_by, found.reached) == (False, "work", 50)
    assert found.states < 50 and len(found.outcomes) < 50
    assert found.reason == "the work budget ran out at 50 positions reached"
    assert sum(o.paths for o in found.outcomes) < 50  # every end found was one option tried


def test_the_outcomes_kept_are_capped_and_the_cap_is_said():
    found = explore(tcgtrig.load_scenario(PICK), "digimon", max_outcomes=25, jobs=1)
    assert (found.complete, found.stopped_by, len(found.outcomes)) == (False, "outcomes", 25)
    assert found.reason == "more than 25 distinct outcomes: the first 25 found are kept"
    assert found.to_json()["stopped"] == {"by": "outcomes", "reason": found.reason}
    # a search that finds no more than the cap is complete
    assert explore(tcgtrig.load_scenario(Q4285), "digimon", max_outcomes=4).complete


def _same(one, other):
    assert [(o.choices, o.paths, o.end, o.outcome) for o in one.outcomes] == [
        (o.choices, o.paths, o.end, o.outcome) for o in other.outcomes
    ]
    assert (one.states, one.reached, one.complete, one.stopped_by, one.reason, one.decisions) == (
        other.states,
        other.reached,
        other.complete,
        other.stopped_by,
        other.reason,
        other.decisions,
    )


@pytest.mark.slow
def test_a_search_cut_by_a_budget_gives_the_same_answer_on_any_number_of_cores():
    # item 3: with --jobs 2 each worker had the whole budget ("stopped after 50001 positions" at 2,500).
    # Farmed out at once, option by option: the first option fits in 4,000 positions (32 outcomes), the
    # second is cut part-way; with 35 outcomes kept, the second option's outcomes with the first's are too many
    scene = tcgtrig.load_scenario(CHAIN)
    for limits, stopped_by, cores in (
        ({"max_states": 4_000}, "work", (2, 3)),
        ({"max_states": 4_000, "max_outcomes": 35}, "outcomes", (2,)),
    ):
        one = explore(scene, "yugioh", jobs=1, serial_first=0, **limits)
        assert one.stopped_by == stopped_by and one.reached <= 4_000 and one.states < one.reached
        assert {o.choices[0] for o in one.outcomes} == {"t1.go", "t3.go"}
        for jobs in cores:
            _same(explore(scene, "yugioh", jobs=jobs, serial_first=0, **limits), one)
    assert len(one.outcomes) == 35


@pytest.mark.slow
def test_an_option_a_worker_explored_too_far_is_explored_again_within_what_is_left():
    # workers start before they know what the options before theirs leave: the parent takes what fits
    from tcgtrig.engine import Engine
    from tcgtrig.games.manager import load_ruleset
    from tcgtrig.tools.explore import _explore_option, _Limits, _OptionFarm

    scene = tcgtrig.load_scenario(CHAIN)
    ruleset = load_ruleset("yugioh")
    compiled = scene.compile(ruleset)
    root = Engine(ruleset, compiled.state.copy(), compiled.start, compiled=compiled)
    options = list(root.advance().options)
    for budget, cap in ((2_500, 1_000), (2_500, 35)):
        farm = _OptionFarm(root, scene, "yugioh", options, budget, _Limits(outcomes=cap), None)
        alone = farm._take([None] * len(options))
        # the first two options, each with more budget than is left for it and no outcomes before
        greedy = [
            _explore_option(root, label, limit, _Limits(outcomes=cap))
            for label, limit in zip(options[:2], (budget, 1_000), strict=True)
        ]
        assert greedy[1].reached > budget - greedy[0].reached or len(greedy[1].outcomes) + 33 > cap
        _same(farm._take(greedy + [None] * (len(options) - 2)), alone)
        assert not alone.complete and alone.reached <= budget + 1


def test_a_branch_that_ends_with_a_verdict_is_an_outcome_and_the_walk_goes_on():
    # using b starts a loop the game ends as a draw; declining it ends the resolution: both are outcomes
    loop = scenario("""\
        game: yugioh
        cards:
          - {id: a, owner: A, zone: field, abilities: [{id: again, when: {event: gained},
             condition: {counter: lp, gte: 0}, do: [{gain: {counter: lp, amount: 1}}]}]}
          - {id: b, owner: A, zone: field, abilities: [{id: start, optional: true, when: {event: ping},
             do: [{gain: {counter: lp, amount: 1}}]}]}
        start: [{emit: {event: ping}}]
        """)
    found = explore(loop, "yugioh", jobs=1)
    assert found.complete
    assert [(o.outcome, o.choices) for o in found.outcomes] == [("draw", ["use"]), ("complete", ["decline"])]


def test_a_branch_ended_by_the_memory_bound_is_no_outcome(monkeypatch):
    # item 1: the fan-out piled up pending effects until a MemoryError (12 GB); the bound stops the search
    from tcgtrig.base import budget

    resident, _ = budget.usage()
    monkeypatch.setattr(budget, "_max_memory", resident + 64 * 1024**2)
    found = explore(tcgtrig.load_scenario(FAN), "digimon", max_states=1_000_000, max_depth=1_000_000, jobs=1)
    assert (found.complete, found.stopped_by) == (False, "memory limit")
    assert found.reason.startswith("memory limit reached: ")
    assert found.reached < 1_000_000


def test_a_resolution_the_memory_bound_ended_is_no_outcome(monkeypatch):
    # over the bound, the machine stops a resolution (outcome 'stopped'): not one of the game's outcomes
    from tcgtrig.base import budget
    from test_long_names import LOOP  # runs to the step limit: the machine reads the memory on the way

    monkeypatch.setattr(budget, "exceeded", lambda: "memory limit reached: 2.0 GiB in use, the bound is 1.0 GiB")
    found = explore(tcgtrig.scenario_from_text(LOOP.format(a="a", b="b"), "loop.yaml"), "yugioh", jobs=1)
    assert (found.outcomes, found.stopped_by) == ([], "memory limit")
    assert found.reason == "memory limit reached: 2.0 GiB in use, the bound is 1.0 GiB"


def test_a_resolution_that_ended_by_itself_is_an_outcome_even_over_the_bound(monkeypatch):
    # the leaf is judged by how the resolution ended, not by reading the memory again once it has
    from tcgtrig.base import budget

    loop = tcgtrig.load_scenario(HOSTILE / "loop-counter-read.yaml")  # the game ends it early: a draw
    monkeypatch.setattr(budget, "exceeded", lambda: "memory limit reached: 2.0 GiB in use, the bound is 1.0 GiB")
    found = explore(loop, "yugioh", jobs=1)
    assert [o.outcome for o in found.outcomes] == ["draw"] and found.stopped_by is None


def test_a_path_too_deep_stops_the_search():
    # item 1: every path of the fan-out piles up pending effects; each position costs more than the one before
    scene = tcgtrig.load_scenario(FAN)
    found = explore(scene, "digimon", max_depth=50, jobs=1)
    assert (found.complete, found.stopped_by) == (False, "depth")
    assert found.reason == "a decision path went past 50 answers: the resolution may never end"
    assert found.states <= 51 and found.reached < 100
    # option by option, the first answer counts as one on the path: the same cut on any number of cores
    one, two = (explore(scene, "digimon", max_depth=50, jobs=jobs, serial_first=0) for jobs in (1, 2))
    _same(one, two)
    assert one.stopped_by == "depth" and one.states <= 51


def test_same_outcome_says_when_it_cannot_tell():
    from tcgtrig.engine import Engine
    from tcgtrig.games.manager import load_ruleset
    from tcgtrig.tools.explore import same_outcome

    def first_question(scene):
        ruleset = load_ruleset("digimon")
        compiled = scene.compile(ruleset)
        engine = Engine(ruleset, compiled.state.copy(), compiled.start, compiled=compiled)
        return engine, engine.advance()

    engine, decision = first_question(TEN)
    reports = []
    assert same_outcome(engine, decision, max_states=100_000, reduce=False) is True
    # 2^9 positions to show it, trying every order
    assert same_outcome(engine, decision, max_states=300, progress=reports.append, reduce=False) is None
    assert same_outcome(engine, decision, max_states=300) is True  # one order for all: 9 positions
    assert reports and max(reports) <= 300
    assert same_outcome(*first_question(tcgtrig.load_scenario(Q4285))) is False


@pytest.mark.slow
def test_explore_jobs_on_the_command_line_share_one_budget(tmp_path):
    # item 3 as the issue saw it: quick effects that may chain again and again, farmed out by default
    from click.testing import CliRunner
    from tcgtrig.tools.cli import main

    endless = tmp_path / "endless-chain.yaml"
    endless.write_text(CHAIN.read_text(encoding="utf-8").replace(" once_per_turn: true,", ""), encoding="utf-8")
    runs = [
        CliRunner().invoke(main, ["explore", str(endless), "--jobs", jobs, "--max-states", "2500", "--json"])
        for jobs in ("1", "2")
    ]
    assert [run.exit_code for run in runs] == [3, 3]
    assert runs[0].stdout == runs[1].stdout and runs[0].stderr == runs[1].stderr
    found = json.loads(runs[1].stdout)
    assert found["reached"] == 2_500 and found["states"] < 2_500 and found["stopped"]["by"] == "work"
    assert runs[1].stderr.startswith("warning: stopped early: the work budget ran out at 2,500 positions reached")


def test_a_long_script_is_shown_in_part_and_in_full_in_json(tmp_path):
    from click.testing import CliRunner
    from tcgtrig.tools.cli import main

    many = scenario(
        "    cards:\n"
        + "\n".join(
            f"      - {{id: c{i}, owner: A, zone: battle, abilities: [{{id: x, when: ping, do: [{{gain: {{counter: n}}}}]}}]}}"
            for i in range(60)
        )
        + "\n    start: [{emit: {event: ping}}]\n"
    )
    path = tmp_path / "many.json"
    path.write_text(json.dumps(many.data), encoding="utf-8")
    shown = CliRunner().invoke(main, ["explore", str(path), "-g", "digimon", "--max-states", "100"])
    full = CliRunner().invoke(main, ["explore", str(path), "-g", "digimon", "--max-states", "100", "--json"])
    assert shown.exit_code == full.exit_code == 3
    line = next(line for line in shown.stdout.splitlines() if line.startswith("   choices"))
    assert line.startswith("   choices (59 answers; --json lists them all): [c0.x, c1.x, ")
    assert ", c29.x, … 24 more …, c54.x, c55.x, c56.x, c57.x, c58.x]" in line
    assert len(json.loads(full.stdout)["outcomes"][0]["choices"]) == 59


@pytest.mark.slow
def test_workers_are_charged_for_what_they_grow_not_for_the_pages_they_share_with_the_parent():
    # a forked worker's resident size counts the parent's pages: measured whole, two workers each with a
    # half of a bound just above the parent's own use stopped at once ("memory limit reached")
    from tcgtrig.base import budget

    scene = tcgtrig.load_scenario(CHAIN)
    alone = explore(scene, "yugioh", jobs=1, serial_first=0, max_states=4_000)
    before = budget.max_memory()
    held = budget.usage()[0]
    budget.set_max_memory(held * 3 // 2)  # half of it is well under what the parent holds
    try:
        four = explore(scene, "yugioh", jobs=2, serial_first=0, max_states=4_000)
    finally:
        budget.set_max_memory(before)
    assert alone.stopped_by == "work" and alone.outcomes
    _same(four, alone)


def test_a_process_counting_from_here_is_charged_only_for_its_growth(monkeypatch):
    from tcgtrig.base import budget

    held = budget.usage()[0]
    monkeypatch.setattr(budget, "_max_memory", held // 2)
    monkeypatch.setattr(budget, "_baseline", 0)
    assert budget.exceeded().startswith("memory limit reached: ")
    budget.count_from_here()
    assert budget.exceeded() is None
    grown = bytearray(held // 2 + 32 * 1024**2)  # resident once written
    grown[::4096] = b"x" * len(grown[::4096])
    assert "a worker process grew by" in budget.exceeded()


def test_the_progress_count_never_goes_back_when_the_one_process_probe_is_abandoned():
    # the probe reached 200 positions, then the option-by-option search began to count from 1 again
    reports: list[int] = []
    found = explore(
        tcgtrig.load_scenario(PICK), "digimon", jobs=1, serial_first=200, max_states=6_000, progress=reports.append
    )
    assert found.stopped_by == "outcomes"
    assert reports and reports == sorted(reports)
    assert reports[0] <= 200 < reports[-1]
