"""Scenario files: reading them (:func:`load_scenario`,
:func:`scenario_from_text`, :func:`scenario_from_data`) into a
:class:`Scenario`.

A scenario is read once: the data is checked against the JSON Schema
shipped in the package, then the cards, players and references are checked
(:mod:`.validating`).  It is *compiled* once per game
(:meth:`Scenario.compile`, :mod:`.compiler`), because each game brings its
own action words (aliases).  Nothing in a scenario is evaluated as code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import field, frozen

from ..base.errors import PluginError
from ..games.manager import Ruleset
from ..language import CORE_ACTIONS
from .compiler import Compiled, Compiler, Expectation, collector_paused
from .source import Source, load_source, parse_source
from .validating import (
    RESERVED_PLAYERS,
    check_cards,
    check_games,
    check_numbers,
    check_schema,
    installed_games,
    numbers_plain,
    schema,
)

if TYPE_CHECKING:
    pass

__all__ = [
    "Scenario",
    "Compiled",
    "Expectation",
    "load_scenario",
    "scenario_from_text",
    "scenario_from_data",
    "schema",
    "CORE_ACTIONS",
]


@frozen(kw_only=True)
class Scenario:
    """A checked scenario file.  :meth:`compile` it for a game to resolve it."""

    title: str
    game: str | None
    players: tuple[str, str]
    turn_player: str
    source: Source = field(eq=False, repr=False)
    #: compiled at load time, by ruleset: handed out once, to the first compile for that ruleset
    _checked: dict[Any, Compiled] = field(factory=dict, eq=False, repr=False)

    @property
    def file(self) -> str:
        return self.source.file

    @property
    def data(self) -> dict[str, Any]:
        return self.source.data

    def games(self) -> list[str]:
        """The games this file names: its ``game``, then those in ``expect``."""
        names: list[str] = []
        if self.game:
            names.append(self.game)
        for name in self.data.get("expect") or {}:
            if name not in names:
                names.append(name)
        return names

    def compile(self, ruleset: Ruleset) -> Compiled:
        """Build the state, the start actions, the choices and the expectation
        for ``ruleset``; its aliases give meaning to the game's words."""
        compiled = self._checked.pop(_ruleset_key(ruleset), None)
        return compiled if compiled is not None else Compiler(self, ruleset).compile()

    def check_game(self) -> None:
        """Compile under the file's own ``game`` (when it is installed), so
        an unknown card, effect key or word is reported now, not when the
        position is resolved.  The next :meth:`compile` for that game reuses
        the result."""
        if self.game is None or self.game.split("/", 1)[0] not in installed_games():
            return
        try:
            ruleset = shared_ruleset(self.game)
        except PluginError:
            return  # a broken game is reported where it is used (compare still resolves the others)
        self._checked[_ruleset_key(ruleset)] = Compiler(self, ruleset).compile()


@cache
def shared_ruleset(game: str) -> Ruleset:
    """The ruleset of ``game`` that files are checked against at load time
    and whose printed card text they give is read with (built once per game:
    checking compiles and reading reads, so one serves every file)."""
    from ..games.manager import load_ruleset

    return load_ruleset(game)


def _ruleset_key(ruleset: Ruleset) -> tuple[str, tuple[str, ...]]:
    """Rulesets with the same name and plugins compile a file alike."""
    return ruleset.name, tuple(sorted(name for name, _ in ruleset.pm.list_name_plugin()))


def load_scenario(path: str | Path, *, check_game: bool = True) -> Scenario:
    """Read and check a scenario file (``.yaml``/``.yml`` or ``.json``).

    With ``check_game`` (the default), a file that names an installed
    ``game`` is also compiled for it (:meth:`Scenario.check_game`): an
    unknown card or word is a :class:`ScenarioError` here, at load time.
    """
    with collector_paused():  # reading builds the whole file's values at once, all kept
        return _checked(scenario_from_source(load_source(path)), check_game)


def scenario_from_text(
    text: str, file: str = "<scenario>", *, kind: str | None = None, check_game: bool = True
) -> Scenario:
    """Read and check scenario text (YAML unless ``kind="json"``); see
    :func:`load_scenario` for ``check_game``."""
    with collector_paused():
        return _checked(scenario_from_source(parse_source(text, file, kind=kind)), check_game)


def scenario_from_data(data: Mapping[str, Any], file: str = "<data>", *, check_game: bool = True) -> Scenario:
    """Check scenario data built in Python (same rules as a file)."""
    return _checked(scenario_from_source(Source(json.loads(json.dumps(data)), file, {})), check_game)


def _checked(scenario: Scenario, check_game: bool) -> Scenario:
    if check_game:
        scenario.check_game()
    return scenario


def scenario_from_source(source: Source) -> Scenario:
    data = source.data
    if not isinstance(data, dict):
        raise source.error((), "a scenario must be a mapping with format, title, players, …")
    plain_numbers = numbers_plain(data)
    check_schema(source, plain_numbers=plain_numbers)
    players = tuple(data["players"])
    for index, player in enumerate(players):
        if not player.isprintable():
            raise source.error(
                ("players", index), f"a player name cannot hold a line break or a control character: {player!r}"
            )
        if player in RESERVED_PLAYERS:
            raise source.error(
                ("players", index),
                f"a player cannot be called {player!r}: the word means a player relative to an effect",
                ["any other name"],
            )
    turn_player = data["turn_player"]
    if turn_player not in players:
        raise source.error(("turn_player",), f"unknown player {turn_player!r}", players)
    for player in data.get("counters") or {}:
        if player not in players:
            raise source.error(("counters", player), f"unknown player {player!r}", players)
    if not plain_numbers:
        check_numbers(source)
    check_cards(source, players)
    check_games(source)
    return Scenario(
        title=data["title"],
        game=data.get("game"),
        players=players,
        turn_player=turn_player,
        source=source,
    )
