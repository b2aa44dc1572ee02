"""A pytest plugin: every scenario file is a test.

Enable it with ``-p tcgtrig.tools.pytest_plugin`` (tcgtrig's own test suite does,
in ``pyproject.toml``).  Files ending in ``.yaml``, ``.yml`` or ``.json``
inside a folder named ``scenarios`` — below the rootdir: a checkout that
itself lies in a folder so named collects only its own scenario folders —
are collected; each game named in a file's ``expect`` block becomes one
test that resolves the scenario under that game and checks every
expectation (order of resolution, outcome lists, counters, zones, flags,
stats).  A scenario file without expectations, or one that does not load,
fails.

A test is named by its game (``scenarios/x.yaml::yugioh/goat``).  An
``expect`` key that is no game name (``a::b``, an empty one, a line break,
a bidi control) is named so that ``-k`` and the node id can still select
it: each run of characters other than letters, digits and ``_ . / + -``
becomes ``_``, an empty key ``empty``, and a name already taken gets
``-2``, ``-3``, …; the report quotes the key as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ..base.errors import TcgTrigError
from ..base.safe_text import escape_controls
from ..expect import Mismatch, check_scenario
from ..games.manager import available_games
from ..scenario.reading import Scenario, load_scenario

__all__ = ["ScenarioFile", "ScenarioItem", "ScenarioMismatch"]

SUFFIXES = (".yaml", ".yml", ".json")


#: What a test id keeps of an ``expect`` key: what ``-k`` reads as a name, without ``::`` (the node id's separator)
_UNSELECTABLE = re.compile(r"[^A-Za-z0-9_./+-]+")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix in SUFFIXES and is_scenario_file(file_path, parent.config.rootpath):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


def is_scenario_file(path: Path, rootdir: Path) -> bool:
    """Whether ``path`` lies in a folder named ``scenarios`` below ``rootdir``
    (the folders above it are where the checkout happens to be, not what
    the files are)."""
    try:
        inside = path.relative_to(rootdir).parts[:-1]
    except ValueError:  # outside the rootdir: named on the command line from elsewhere
        inside = path.parts[-2:-1]
    return "scenarios" in inside


def selectable_ids(keys: Iterable[str]) -> list[str]:
    """A selectable test id for each ``expect`` key, in order, all different."""
    ids: list[str] = []
    taken: set[str] = set()
    for key in keys:
        base = _UNSELECTABLE.sub("_", key) or "empty"
        name, number = base, 1
        while name in taken:
            number += 1
            name = f"{base}-{number}"
        taken.add(name)
        ids.append(name)
    return ids


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
            yield ScenarioItem.from_parent(
                self,
                name="expect",
                scenario=scenario,
                game=None,
                problem="a scenario file under tests needs an expect block",
            )
        for game, name in zip(games, selectable_ids(games), strict=True):
            yield ScenarioItem.from_parent(self, name=name, scenario=scenario, game=game)


class ScenarioItem(pytest.Item):
    def __init__(
        self, *, scenario: Scenario | None, game: str | None, problem: str | None = None, **kwargs: Any
    ) -> None:
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
        _, mismatches = check_scenario(self.scenario, self.game)
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
        game = self.game if self.game == self.name else repr(self.game)  # the key as written
        return self.path, 0, escape_controls(f"scenario [{game}]: {title}")
