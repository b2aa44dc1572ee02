"""The cross-game gallery of issue 36 (examples/compare/): classic
interactions, each written once in one game's words and expected, from the
rules, under all seven rulesets with the rule that gives each answer
(``because``).  Every expectation is checked, one test per file and
ruleset, so that a failure names both.

Where today's engine does not yet give what the rules say, the case is in
:data:`NOT_YET` with the cause (examples/compare/DISAGREEMENTS.md has the
details): it is expected to fail, strictly, so that the fix turns it red
until its entry is removed."""

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

_A = "(a) another game's words read by role"
_B = "(b) battles in Magic and Lorcana"
_C = "(c) trigger multiplicity stated per game: Magic once per object (CR 603.2c)"
_HOMONYM = "a word of the file's game read as the resolving game's own word of the same name"
_YGO = ("yugioh", "yugioh/ocg", "yugioh/goat")

#: (file, ruleset) → why the engine does not yet give what the rules say
NOT_YET: dict[tuple[str, str], str] = {
    ("01-battle-both-destroyed.yaml", "lorcana"): f"{_B}; {_A}: power as strength and willpower",
    ("01-battle-both-destroyed.yaml", "magic"): f"{_B}; {_A}: power as power and toughness",
    **{
        ("01-battle-both-destroyed.yaml", game): f"{_A}: a game with no tapped state attacks without tapping"
        for game in _YGO
    },
    ("04-three-destroyed-one-watcher.yaml", "magic"): _C,
    **{("04-three-destroyed-one-watcher.yaml", game): f"{_HOMONYM}: Lorcana's banish as exile" for game in _YGO},
    **{
        ("05-replacement-against-interrupt.yaml", game): "no way for a game to say it has no 'when … would' triggers"
        for game in ("magic", "lorcana", *_YGO)
    },
    **{("07-response-to-a-trigger.yaml", game): f"{_HOMONYM}: Magic's destroy (from the battlefield)" for game in _YGO},
    **{
        ("11-once-per-turn.yaml", game): "a spent once-per-turn ability triggers and fails (spent_abilities_trigger)"
        for game in ("duelmasters", "lorcana", "magic", *_YGO)
    },
    ("12-rules-processing-at-zero.yaml", "digimon"): f"{_A}: power as DP, creature as Digimon",
    ("12-rules-processing-at-zero.yaml", "lorcana"): f"{_A}: power as willpower, creature as character",
    ("12-rules-processing-at-zero.yaml", "magic"): f"{_A}: power as toughness",
    **{("13-card-leaves-while-pending.yaml", game): f"{_HOMONYM}: Lorcana's banish as exile" for game in _YGO},
    ("14-cost-that-triggers.yaml", "digimon"): f"{_A}: active_in",
    ("14-cost-that-triggers.yaml", "lorcana"): f"{_A}: active_in",
    **{
        ("18-hand-trigger-ocg.yaml", game): f"{_A}: active_in"
        for game in ("digimon", "duelmasters", "lorcana", "magic")
    },
    **{
        ("19-earliest-trigger-goat.yaml", game): f"{_A}: active_in"
        for game in ("digimon", "duelmasters", "lorcana", "magic")
    },
    **{
        ("20-leaving-together-looks-back.yaml", game): "a field trigger gone with its card still looks back"
        for game in _YGO
    },
    ("21-condition-checked-again.yaml", "lorcana"): "no condition checked again as the effect resolves (7.4.4.2)",
    ("21-condition-checked-again.yaml", "magic"): "no condition checked again as the effect resolves (CR 603.4)",
    **{("21-condition-checked-again.yaml", game): f"{_HOMONYM}: Lorcana's banish as exile" for game in _YGO},
    ("22-damage-and-the-state-check.yaml", "magic"): f"{_A}: willpower as toughness, character as creature",
}


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
