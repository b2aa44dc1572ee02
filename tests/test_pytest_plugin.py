"""The pytest plugin that makes every scenario file a test (tcgtrig.tools.pytest_plugin)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

HERE = Path(__file__).resolve().parent
#: a bundled file that expects yugioh and yugioh/goat
VARIANTS = HERE / "scenarios" / "yugioh" / "case-04-sangan-tributed-for-caius.yaml"


def test_a_variant_s_expectations_run_when_its_game_is_installed(pytester):
    folder = pytester.mkdir("scenarios")
    shutil.copy(VARIANTS, folder / VARIANTS.name)
    # in a child process: an in-process run drops the modules it imported, and a second one
    # would mix two copies of the YAML reader's classes
    result = pytester.runpytest_subprocess("-p", "tcgtrig.tools.pytest_plugin", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*::yugioh/goat PASSED*"])


def test_a_game_that_is_not_installed_is_skipped(pytester):
    folder = pytester.mkdir("scenarios")
    text = VARIANTS.read_text(encoding="utf-8").replace("yugioh/goat:", "nosuchgame/goat:")
    (folder / "other.yaml").write_text(text, encoding="utf-8")
    result = pytester.runpytest_subprocess("-p", "tcgtrig.tools.pytest_plugin", "-rs")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["*game 'nosuchgame' is not installed*"])


# issue 22, item 16: which files are scenarios is decided inside the rootdir, and
# every test id can be selected

GOOD = HERE / "scenarios" / "digimon" / "triggered-01.yaml"


def test_a_checkout_inside_a_folder_named_scenarios_collects_only_its_scenarios(pytester):
    checkout = pytester.mkdir("scenarios") / "checkout"  # e.g. ~/work/scenarios/tcgtrig
    (checkout / "tests" / "scenarios").mkdir(parents=True)
    (checkout / "tests" / "hostile").mkdir()
    (checkout / "docs").mkdir()
    (checkout / "pyproject.toml").write_text("[tool.pytest.ini_options]\n", encoding="utf-8")
    shutil.copy(GOOD, checkout / "tests" / "scenarios" / GOOD.name)
    (checkout / "tests" / "hostile" / "bad.yaml").write_text("format: 99\n", encoding="utf-8")
    (checkout / "docs" / "config.json").write_text("{}\n", encoding="utf-8")
    (checkout / "scenarios.yaml").write_text("a: file named so, not a folder\n", encoding="utf-8")
    result = pytester.runpytest_subprocess("-p", "tcgtrig.tools.pytest_plugin", "-v", str(checkout))
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"*tests/scenarios/{GOOD.name}::digimon PASSED*"])


EXPECT_KEYS = {
    "a::b": "a_b",
    "": "empty",
    "two\nlines": "two_lines",
    "\u202eevil": "_evil",
    "with space": "with_space",
    "a_b": "a_b-2",  # the same id as a::b: told apart
    "digimon": "digimon",
    "yugioh/goat": "yugioh/goat",
}


@pytest.mark.slow
def test_every_expect_key_gives_a_test_id_that_can_be_selected(pytester):
    import json

    data = {
        "format": 1,
        "title": "odd keys",
        "players": ["A", "B"],
        "turn_player": "A",
        "cards": [],
        "start": [],
        "expect": {key: {} for key in EXPECT_KEYS},
    }
    folder = pytester.mkdir("scenarios")
    (folder / "odd.json").write_text(json.dumps(data), encoding="utf-8")
    result = pytester.runpytest_subprocess("-p", "tcgtrig.tools.pytest_plugin", "--collect-only", "-q")
    ids = [line.split("::", 1)[1] for line in result.stdout.lines if line.startswith("scenarios/odd.json::")]
    assert ids == list(EXPECT_KEYS.values())
    for key, test_id in EXPECT_KEYS.items():
        by_node = pytester.runpytest_subprocess(
            "-p", "tcgtrig.tools.pytest_plugin", f"scenarios/odd.json::{test_id}", "-q", "-rs"
        )
        outcomes = by_node.parseoutcomes()
        assert sum(outcomes.get(k, 0) for k in ("passed", "skipped", "failed")) == 1, (key, by_node.stdout.str())
    selected = pytester.runpytest_subprocess(
        "-p", "tcgtrig.tools.pytest_plugin", "-k", "a_b and not a_b-2", "--collect-only", "-q"
    )
    assert [line for line in selected.stdout.lines if "::" in line] == ["scenarios/odd.json::a_b"]
    # the test says which key it is
    report = pytester.runpytest_subprocess("-p", "tcgtrig.tools.pytest_plugin", "scenarios/odd.json::_evil", "-rs")
    report.stdout.fnmatch_lines(["*game '\\u202eevil' is not installed*"])
