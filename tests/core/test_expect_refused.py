"""``refused: TEXT`` in an expectation: the file must be refused under that
game with an error containing TEXT (a three-player file under a two-player
game, a zone the game has no role for).  A refusal that matches passes; one
that does not, or a file that resolves after all, is a mismatch that says so."""

from __future__ import annotations

import pytest
import tcgtrig
from click.testing import CliRunner
from helpers import scenario
from tcgtrig.expect import check_scenario
from tcgtrig.tools.cli import main

pytest_plugins = ["pytester"]

#: three players: Duel Masters allows it, Digimon does not
THREE = """\
format: 1
title: three players
words: duelmasters
players: [A, B, C]
turn_player: A
cards:
  - id: watcher
    owner: A
    zone: battle
    abilities:
      - {id: see, when: {event: destroyed}, do: [{gain: {counter: n}}]}
  - {id: victim, owner: B, zone: battle}
start:
  - destroy: victim
expect:
  duelmasters:
    resolved: [watcher.see]
    because: "up to four players (Duel Party)"
  digimon:
    refused: "{text}"
    because: "Digimon is a two-player game"
"""


def three(text: str = "is played by at most 2 players") -> tcgtrig.Scenario:
    return scenario(THREE.replace("{text}", text), "three.yaml")


def test_a_refusal_with_the_expected_words_holds():
    result, mismatches = check_scenario(three(), "digimon")
    assert result is None and mismatches == []


def test_a_refusal_with_other_words_is_a_mismatch_naming_both():
    result, mismatches = check_scenario(three("at most 3 players"), "digimon")
    assert result is None
    [mismatch] = mismatches
    assert mismatch.key == "refused"
    assert mismatch.expected == "at most 3 players"
    assert "Digimon Card Game is played by at most 2 players; the file names 3" in mismatch.actual


def test_a_file_expected_refused_that_resolves_is_a_mismatch():
    text = THREE.replace("  duelmasters:\n    resolved: [watcher.see]", '  duelmasters:\n    refused: "at most"')
    result, mismatches = check_scenario(scenario(text.replace("{text}", "x"), "three.yaml"), "duelmasters")
    assert result is not None and result.keys("resolved") == ["watcher.see"]
    assert [(m.key, m.expected, m.actual) for m in mismatches] == [
        ("refused", "at most", "not refused: it resolved (outcome: complete)")
    ]


def test_a_refused_file_without_refused_in_its_expectation_still_raises():
    text = THREE.replace('    refused: "{text}"\n', "    resolved: []\n")
    with pytest.raises(tcgtrig.ScenarioError, match="is played by at most 2 players"):
        check_scenario(scenario(text, "three.yaml"), "digimon")


def test_refused_stands_alone_but_for_because():
    text = THREE.replace('    refused: "{text}"\n', '    refused: "at most"\n    resolved: []\n')
    with pytest.raises(tcgtrig.ScenarioError) as error:
        check_scenario(scenario(text, "three.yaml"), "digimon")
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith("three.yaml:")
    assert "expect.digimon.refused: a file expected to be refused has nothing else to check" in message
    assert "'resolved'" in message and "(legal: refused, because)" in message


def test_the_schema_takes_refused_as_text_only():
    with pytest.raises(tcgtrig.ScenarioError, match=r"expect\.digimon\.refused: expected a string, got a list"):
        scenario(THREE.replace('"{text}"', "[2]"), "three.yaml")


# -- the command line ----------------------------------------------------------


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "250", "FORCE_COLOR": None, "TTY_COMPATIBLE": None})


def test_check_passes_a_matching_refusal_and_says_so(runner, tmp_path):
    path = tmp_path / "three.yaml"
    path.write_text(THREE.replace("{text}", "is played by at most 2 players"), encoding="utf-8")
    result = runner.invoke(main, ["check", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert f"PASS {path} [duelmasters]" in lines
    assert f"PASS {path} [digimon] (refused: is played by at most 2 players)" in lines
    assert lines[-1] == "2 passed, 0 failed"


def test_check_fails_a_refusal_with_other_words_and_shows_both(runner, tmp_path):
    path = tmp_path / "three.yaml"
    path.write_text(THREE.replace("{text}", "at most 3 players"), encoding="utf-8")
    result = runner.invoke(main, ["check", str(path), "--game", "digimon"])
    assert result.exit_code == 1, result.output
    assert f"FAIL {path} [digimon]" in result.stdout
    assert "refused" in result.stdout and "at most 3 players" in result.stdout
    assert "is played by at most 2 players" in result.stdout
    assert result.stdout.splitlines()[-1] == "0 passed, 1 failed"


# -- the pytest plugin ---------------------------------------------------------


@pytest.mark.slow
def test_the_pytest_plugin_passes_a_refusal_and_fails_a_wrong_one(pytester):
    folder = pytester.mkdir("scenarios")
    (folder / "good.yaml").write_text(THREE.replace("{text}", "at most 2 players"), encoding="utf-8")
    (folder / "bad.yaml").write_text(THREE.replace("{text}", "at most 3 players"), encoding="utf-8")
    result = pytester.runpytest_subprocess("-p", "tcgtrig.tools.pytest_plugin", "-v")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["*bad.yaml::digimon FAILED*", "*good.yaml::digimon PASSED*"])
    result.stdout.fnmatch_lines(["*refused:*", "*expected: at most 3 players*", "*actual: *at most 2 players*"])
