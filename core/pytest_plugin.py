"""A pytest plugin: every scenario file is a test.

Enable it with ``-p tcgtrig.pytest_plugin`` (tcgtrig's own test suite does,
in ``pyproject.toml``).  Files ending in ``.yaml``, ``.yml`` or ``.json``
inside a folder named ``scenarios`` are collected; each game named in a
file's ``expect`` block becomes one test that resolves the scenario under
that game and checks every expectation (order of resolution, outcome lists,
counters, zones, flags, stats).  A scenario file without expectations, or
one that does not load, fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .errors import TcgTrigError
from .expect import Mismatch, check_expectation
from .manager import available_games
from .resolution import resolve
from .scenario import Scenario, load_scenario

__all__ = ["ScenarioFile", "ScenarioItem", "ScenarioMismatch"]

SUFFIXES = (".yaml", ".yml", ".json")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix in SUFFIXES and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioMismatch(Exception):
    """The resolution did not come out as the scenario expects."""

    def __init__(self, mismatches: list[Mismatch]) -> None:
        super().__init__(mismatches)
        self.mismatches = mismatches


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        try:
            scenario = load_scenario(self.path, check_game=False)  # checked per game
        except TcgTrigError as exc:
            yield ScenarioItem.from_parent(self, name="load", scenario=None, game=None, problem=str(exc))
            return
        games = list(scenario.data.get("expect") or {})
        if not games:
            yield ScenarioItem.from_parent(self, name="expect", scenario=scenario, game=None,
                                           problem="a scenario file under tests needs an expect block")
        for game in games:
            yield ScenarioItem.from_parent(self, name=game, scenario=scenario, game=game)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario | None, game: str | None, problem: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.game = game
        self.problem = problem

    def runtest(self) -> None:
        if self.problem is not None:
            raise TcgTrigError(self.problem)
        assert self.scenario is not None and self.game is not None
        game = self.game.partition("/")[0]  # a variant (yugioh/ocg) runs when its game is installed
        if game not in available_games():
            pytest.skip(f"game {game!r} is not installed")
        result = resolve(self.scenario, self.game)
        mismatches = check_expectation(result, result.compiled.expect)  # type: ignore[arg-type]
        if mismatches:
            raise ScenarioMismatch(mismatches)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioMismatch):
            lines = [f"scenario did not resolve as expected under {self.game!r}:"]
            for m in excinfo.value.mismatches:
                lines.append(f"  {m.key}:")
                lines.append(f"    expected: {m.expected}")
                lines.append(f"    actual:   {m.actual}")
            return "\n".join(lines)
        if isinstance(excinfo.value, TcgTrigError):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        title = self.scenario.title if self.scenario else self.path.name
        return self.path, 0, f"scenario [{self.game}]: {title}"
