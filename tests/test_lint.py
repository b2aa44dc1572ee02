"""Typos that load but can never work are warnings on run and check, with
"did you mean"; --strict makes them errors.  Bundled files have none."""

from __future__ import annotations

import sys
from pathlib import Path

import bundled
import pytest
import tcgtrig
from click.testing import CliRunner
from tcgtrig.tools.cli import main
from tcgtrig.tools.lint import CORE_EVENTS, game_events, lint

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))

TYPOS = """\
format: 1
title: typos
game: digimon
players: [A, B]
turn_player: A
cards:
  - id: agumon
    owner: A
    zone: battle
    abilities:
      - {id: x, when: {event: playd}, do: [{memory: 1}]}
      - {id: y, when: ping, active_in: [hnad], do: [{memory: 1}]}
      - {id: z, when: ping, do: [{delete: {zone: batle, pick: 1}}]}
      - {id: w, when: {event: ping, to: trsh}, do: []}
start: [{emit: {event: ping}}, {play: agumon}]
"""


@pytest.fixture
def typos(tmp_path: Path) -> Path:
    path = tmp_path / "typos.yaml"
    path.write_text(TYPOS, encoding="utf-8")
    return path


def test_each_kind_of_typo_is_found_with_its_line_and_the_closest_name(typos):
    scenario = tcgtrig.load_scenario(typos)
    found = [str(f) for f in lint(scenario, tcgtrig.load_ruleset("digimon"))]
    assert found == [
        f"{typos}:11: cards[0].abilities[0].when.event: nothing emits the event 'playd': no action of this file, "
        "no word or rule of digimon (did you mean 'played'?)",
        f"{typos}:12: cards[0].abilities[1].active_in: never works: its card is in 'battle' and nothing moves a "
        "card to 'hnad' (did you mean 'hand'?)",
        f"{typos}:13: cards[0].abilities[2].do[0].delete.zone: no card is in or moves to the zone 'batle' "
        "(did you mean 'battle'?)",
        f"{typos}:14: cards[0].abilities[3].when.to: no card is in or moves to the zone 'trsh' (did you mean 'trash'?)",
    ]


def test_run_warns_on_stderr_and_strict_makes_it_an_error(typos):
    runner = CliRunner()
    warned = runner.invoke(main, ["run", str(typos)])
    assert warned.exit_code == 0 and "Resolution order:" in warned.stdout
    assert warned.stderr.count("warning: ") == 4 and "did you mean 'played'?" in warned.stderr
    strict = runner.invoke(main, ["run", "--strict", str(typos)])
    assert strict.exit_code == 2 and strict.stdout == ""
    assert strict.stderr.startswith("error: ") and strict.stderr.count("\n") == 1
    assert "(and 3 more) (--strict: warnings are errors)" in strict.stderr


def test_check_warns_once_per_file_and_strict_fails(tmp_path):
    both = tmp_path / "both.yaml"  # core words only: it runs under every game
    both.write_text(
        "format: 1\ntitle: t\nplayers: [A, B]\nturn_player: A\ncards:\n"
        "  - {id: c, owner: A, zone: field, abilities: [{id: x, when: {event: movd}, do: [{gain: {counter: n}}]}]}\n"
        "start: [{move: {card: c, to: field}}]\nexpect:\n  digimon: {}\n  duelmasters: {}\n  yugioh: {}\n",
        encoding="utf-8",
    )
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(both)])
    assert checked.exit_code == 0, checked.stdout
    assert checked.stdout.count("PASS") == 3
    assert checked.stdout.count("WARN ") == 1  # said once for the file, not once per game
    assert "nothing emits the event 'movd'" in checked.stdout and "did you mean 'moved'?" in checked.stdout
    strict = runner.invoke(main, ["check", "--strict", str(both)])
    assert strict.exit_code == 2 and "ERROR" in strict.stdout


def test_an_event_the_file_emits_itself_is_known(typos):
    text = TYPOS.replace("start: [{emit: {event: ping}}", "start: [{emit: {event: playd}}, {emit: {event: ping}}")
    scenario = tcgtrig.scenario_from_text(text, "own.yaml")
    assert not any("'playd'" in str(f) for f in lint(scenario, tcgtrig.load_ruleset("digimon")))


def test_the_bundled_files_have_no_typos():
    # examples/compare/ is left to tests/test_compare_gallery.py: some of its expectations are written
    # ahead of the engine (and it is checked for typos under each file's own game there)
    runner = CliRunner()
    examples = [str(path) for path in sorted((ROOT / "examples").glob("*.yaml"))]
    result = runner.invoke(
        main, ["check", "--strict", str(ROOT / "tests" / "scenarios"), *examples, str(ROOT / "examples" / "games")]
    )
    assert result.exit_code == 0, result.stdout[-2000:]
    assert "WARN" not in result.stdout


@pytest.mark.parametrize("game", ["digimon", "duelmasters", "yugioh"])
def test_every_event_a_bundled_trace_shows_is_known_to_the_check(game):
    """The vocabulary is complete: every event any bundled file produces
    under ``game`` is a core event, one of the game's, or the file's own."""
    from tcgtrig.tools.lint import _file_events_and_zones

    ruleset = tcgtrig.load_ruleset(game)
    known = game_events(ruleset)
    assert set(CORE_EVENTS) <= known
    seen = 0
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")):
        result = bundled.resolved(path, game)  # the run's one resolution of the pair
        if result is None:
            continue  # written in another game's words
        own, _ = _file_events_and_zones(result.compiled)
        for step in result.trace:
            if step.kind == "event":
                seen += 1
                assert step.get("event") in known | own, (path.name, step.get("event"))
    assert seen > 100


def test_the_event_list_in_the_docs_is_up_to_date():
    import make_events
    from helpers import require_example_games

    require_example_games()

    assert (ROOT / "docs" / "events.md").read_text(encoding="utf-8") == make_events.page(), (
        "run: python docs/make_events.py"
    )


def test_a_file_in_another_games_words_is_checked_in_those_words():
    # compare's columns said "no card is in or moves to the zone 'battle'" of a Digimon file under
    # Magic: its words, read by role there, are not typos; a real one still is
    text = Path("tests/scenarios/digimon/cr-11-2-6-attack-target-deleted-attack-fails.yaml").read_text()
    position = tcgtrig.scenario_from_text(text, "attack.yaml")
    for game in ("magic", "yugioh", "duelmasters"):
        assert lint(position, tcgtrig.load_ruleset(game)) == [], game
    typo = tcgtrig.scenario_from_text(text.replace("delete: {zone: battle", "delete: {zone: batle"), "typo.yaml")
    [finding] = lint(typo, tcgtrig.load_ruleset("magic"))
    assert "no card is in or moves to the zone 'batle' (did you mean 'battle'?)" in finding.message
