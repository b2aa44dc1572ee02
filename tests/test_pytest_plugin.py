"""The pytest plugin that makes every scenario file a test (tcgtrig.pytest_plugin)."""

from __future__ import annotations

import shutil
from pathlib import Path

pytest_plugins = ["pytester"]

HERE = Path(__file__).resolve().parent
#: a bundled file that expects yugioh and yugioh/goat
VARIANTS = HERE / "scenarios" / "yugioh" / "case-04-sangan-tributed-for-caius.yaml"


def test_a_variant_s_expectations_run_when_its_game_is_installed(pytester):
    folder = pytester.mkdir("scenarios")
    shutil.copy(VARIANTS, folder / VARIANTS.name)
    # in a child process: an in-process run drops the modules it imported, and a second one
    # would mix two copies of the YAML reader's classes
    result = pytester.runpytest_subprocess("-p", "tcgtrig.pytest_plugin", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*::yugioh/goat PASSED*"])


def test_a_game_that_is_not_installed_is_skipped(pytester):
    folder = pytester.mkdir("scenarios")
    text = VARIANTS.read_text(encoding="utf-8").replace("yugioh/goat:", "nosuchgame/goat:")
    (folder / "other.yaml").write_text(text, encoding="utf-8")
    result = pytester.runpytest_subprocess("-p", "tcgtrig.pytest_plugin", "-rs")
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines(["*game 'nosuchgame' is not installed*"])
