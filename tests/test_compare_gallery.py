"""The cross-game gallery of issue 36 (examples/compare/): classic
interactions, each written once in one game's words and expected, from the
rules, under all seven rulesets with the rule that gives each answer
(``because``).  Every expectation is checked, one test per file and
ruleset, so that a failure names both.

Where the engine does not yet give what the rules say, the case goes in
:data:`NOT_YET` with the cause while its fix is under way: it is expected
to fail, strictly, so that the fix turns it red until its entry is
removed (examples/compare/README.md says how the gallery was written)."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcgtrig
from helpers import require_example_games, yaml_file
from tcgtrig.expect import check_scenario

ROOT = Path(__file__).resolve().parents[1]
GALLERY = ROOT / "examples" / "compare"
FILES = sorted(GALLERY.glob("*.yaml"))
#: the games whose words a file may be written in: all of them are used
GAMES = ("digimon", "duelmasters", "lorcana", "magic", "yugioh")
#: every file is expected under each of these
RULESETS = ("digimon", "duelmasters", "lorcana", "magic", "yugioh", "yugioh/ocg", "yugioh/goat")

#: (file, ruleset) → why the engine does not yet give what the rules say: a
#: case is listed here (expected to fail, strictly) only while a fix is
#: under way; every case passes today
NOT_YET: dict[tuple[str, str], str] = {}


@pytest.fixture(autouse=True)
def _example_games_installed() -> None:
    require_example_games()


def test_the_gallery_has_twenty_files_in_the_words_of_every_game():
    assert len(FILES) >= 20
    words = [yaml_file(path).get("words") for path in FILES]
    assert all(word in GAMES for word in words), dict(zip((p.name for p in FILES), words, strict=True))
    assert set(words) == set(GAMES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_expects_every_ruleset_and_says_why(path):
    data = yaml_file(path)
    assert data.get("source") and data.get("notes")
    assert list(data["expect"]) and set(data["expect"]) == set(RULESETS)
    for ruleset, expected in data["expect"].items():
        assert isinstance(expected.get("because"), str) and expected["because"].strip(), ruleset
    for card in data["cards"]:  # names say whose card it is
        assert card.get("name", "").startswith(f"{card['owner']}'s "), card["id"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_has_no_typos_in_its_own_game(path):
    from tcgtrig.tools.lint import lint

    scenario = tcgtrig.load_scenario(path, check_game=False)
    ruleset = tcgtrig.load_ruleset(scenario.data["words"])
    assert [str(finding) for finding in lint(scenario, ruleset)] == []


def test_the_table_of_cases_not_yet_given_names_only_gallery_cases():
    names = {path.name for path in FILES}
    assert {(name, ruleset) for name, ruleset in NOT_YET} <= {(n, r) for n in names for r in RULESETS}


def _cases() -> list[object]:
    out = []
    for path in FILES:
        for ruleset in RULESETS:
            why = NOT_YET.get((path.name, ruleset))
            marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
            out.append(pytest.param(path, ruleset, marks=marks, id=f"{path.name}::{ruleset}"))
    return out


@pytest.mark.parametrize(("path", "ruleset"), _cases())
def test_each_expectation_holds(path, ruleset):
    scenario = tcgtrig.load_scenario(path, check_game=False)
    _, mismatches = check_scenario(scenario, ruleset)
    assert mismatches == [], [(m.key, m.expected, m.actual) for m in mismatches]
