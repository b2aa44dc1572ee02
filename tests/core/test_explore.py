"""explore: every legal decision, each distinct outcome once, equal
positions explored once."""

from __future__ import annotations

import math

import tcgtrig
from helpers import scenario
from tcgtrig.explore import explore
from tcgtrig.resolution import summary

TEN = scenario("    cards:\n" + "\n".join(
    f"      - {{id: c{i}, owner: A, zone: battle, abilities: [{{id: x, when: ping, do: [{{gain: {{counter: n{i}}}}}]}}]}}"
    for i in range(10)) + "\n    start: [{emit: {event: ping}}]\n")

Q4285 = "tests/scenarios/digimon/qa-13-bt20-068-q4285.yaml"


def test_ten_independent_triggers_cost_about_two_to_the_ten_positions():
    found = explore(TEN, "digimon")
    assert found.complete and len(found.outcomes) == 1
    assert found.outcomes[0].paths == math.factorial(10)  # every order, counted
    assert found.states <= 2 ** 10  # each set of effects still pending is asked once
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
    found = explore(TEN, "digimon", max_states=50)
    assert not found.complete and found.states == 50


def test_explore_on_the_command_line(tmp_path):
    import json

    from click.testing import CliRunner
    from tcgtrig.cli import main
    result = CliRunner().invoke(main, ["explore", Q4285, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"outcomes", "states"} <= set(data) and data["states"] == 5
    assert set(data["outcomes"][0]) >= {"choices", "counters", "zones", "flags", "paths"}
    text = CliRunner().invoke(main, ["explore", Q4285, "--max-states", "2"])
    assert "stopped after 2 positions" in text.stderr and text.exit_code == 0


def test_two_jobs_find_the_same_outcomes_scripts_and_paths():
    scene = tcgtrig.load_scenario(Q4285)
    one = explore(scene, "digimon", jobs=1)
    two = explore(scene, "digimon", jobs=2, serial_first=0)  # farmed out at once
    assert [(o.choices, o.paths, o.end) for o in two.outcomes] == [(o.choices, o.paths, o.end) for o in one.outcomes]
    assert two.complete and two.states >= one.states


def test_a_search_whose_branches_meet_stays_in_one_process():
    alone = explore(TEN, "digimon", jobs=1)
    assert 2 ** 9 < alone.states <= 2 ** 10
    # paused after 200 positions, it sees the branches meet and goes on by itself: the same walk
    default = explore(TEN, "digimon", jobs=2, serial_first=200)
    assert (default.states, default.complete) == (alone.states, True)
    assert [(o.choices, o.paths) for o in default.outcomes] == [(o.choices, o.paths) for o in alone.outcomes]
    assert default.decisions == alone.decisions


def test_an_interactive_chooser_need_not_ask_what_cannot_change_the_outcome():
    from tcgtrig.choices import InteractiveChooser
    asked, said = [], []
    chooser = InteractiveChooser(ask=lambda prompt: asked.append(prompt) or "", say=said.append,
                                 skip_irrelevant=True)
    six = scenario("    cards:\n" + "\n".join(
        f"      - {{id: c{i}, owner: A, zone: battle, abilities: [{{id: x, when: ping, do: [{{gain: {{counter: n{i}}}}}]}}]}}"
        for i in range(6)) + "\n    start: [{emit: {event: ping}}]\n")
    result = tcgtrig.resolve(six, "digimon", chooser=chooser)
    assert asked == [] and len(result.keys("resolved")) == 6
    assert sum("every answer leads to the same outcome" in line for line in said) == 5
