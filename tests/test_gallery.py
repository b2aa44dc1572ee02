"""The gallery: examples/ positions with expectations for every game, and
docs/comparison.md + docs/gallery/*.html generated from them, up to date."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import bundled
import pytest
import tcgtrig
import yaml
from helpers import require_example_games

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
sys.path.insert(0, str(ROOT / "docs"))
from repository_games import repository_games  # noqa: E402

#: the games the gallery shows: this repository's, not one installed from elsewhere
GAMES = repository_games()


@pytest.fixture(autouse=True)
def _example_games_installed() -> None:
    require_example_games()


def test_there_are_at_least_ten_positions_each_expected_under_every_game():
    assert len(EXAMPLES) >= 10
    for path in EXAMPLES:
        expect = yaml.safe_load(path.read_text(encoding="utf-8"))["expect"]
        assert set(GAMES) <= set(expect), path.name


def test_every_position_shows_a_difference_between_the_games():
    from tcgtrig.tools.compare import compare_games, differences

    for path in EXAMPLES:
        assert differences(compare_games(tcgtrig.load_scenario(path), GAMES)), path.name


def test_the_generated_comparison_is_up_to_date():
    spec = importlib.util.spec_from_file_location("make_comparison", ROOT / "docs" / "make_comparison.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for relative, text in module.pages(ROOT).items():
        assert (ROOT / relative).read_text(encoding="utf-8") == text, (
            f"{relative} is out of date: run python docs/make_comparison.py"
        )


def test_every_position_resolves_as_its_expect_says_under_every_game():
    for path in EXAMPLES:
        tcgtrig.load_scenario(path)  # its own game is installed and compiles it
        for game in GAMES:
            result = bundled.outcome(path, game)  # the run's one resolution of the pair
            if isinstance(result, tcgtrig.TcgTrigError):
                raise result
            assert tcgtrig.check_expectation(result, result.compiled.expect) == [], (path.name, game)


def test_the_readme_shows_one_comparison_as_compare_gives_it():
    from tcgtrig.tools.compare import compare_games

    results = compare_games(tcgtrig.load_scenario(ROOT / "examples" / "02-derived-trigger.yaml"), GAMES)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    orders = [r.keys("resolved") for r in results.values()]
    for i in range(max(len(o) for o in orders)):
        row = f"| {i + 1} | " + " | ".join(f"`{o[i]}`" for o in orders) + " |"
        assert row in readme
