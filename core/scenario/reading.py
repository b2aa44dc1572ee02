"""Scenario files: reading them (:func:`load_scenario`,
:func:`scenario_from_text`, :func:`scenario_from_data`) into a
:class:`Scenario`.

A scenario is read once: the data is checked against the JSON Schema
shipped in the package, then the cards, players and references are checked
(:mod:`.validating`).  It is *compiled* once per game
(:meth:`Scenario.compile`, :mod:`.compiler`), because each game brings its
own action words (aliases).  Nothing in a scenario is evaluated as code.

A command reads a file once, picks its game and loads that game's ruleset
once, and compiles the file once for it: :func:`~tcgtrig.scenario.reading.bind` gives the three
together, a :class:`Bound`, which the engine, :func:`tcgtrig.resolve` and
the explorer take as it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import field

from ..base.errors import PluginError
from ..games.manager import Ruleset, load_ruleset, pick_game, shared_ruleset
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
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

__all__ = [
    "Scenario",
    "Bound",
    "bind",
    "Bindings",
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
        for ``ruleset``; its aliases give meaning to the game's words.
        Each call compiles again: a command that resolves a file more than
        once compiles it once, with :func:`~tcgtrig.scenario.reading.bind`."""
        return Compiler(self, ruleset).compile()

    def check_game(self) -> None:
        """Compile under the file's own ``game`` (when it is installed), so
        an unknown card, effect key or word is reported now, not when the
        position is resolved.  What it compiles is not kept: to resolve the
        file, :func:`~tcgtrig.scenario.reading.bind` it (once)."""
        if self.game is None or self.game.split("/", 1)[0] not in installed_games():
            return
        try:
            ruleset = shared_ruleset(self.game)
        except PluginError:
            return  # a broken game is reported where it is used (compare still resolves the others)
        Compiler(self, ruleset).compile()


@frozen
class Bound:
    """A scenario bound to one game: the file read once, its game picked
    and its ruleset loaded once, and the file compiled once for it.  The
    engine (:meth:`~tcgtrig.engine.Engine.for_scenario`),
    :func:`~tcgtrig.resolve` and :func:`~tcgtrig.explore` take it as it is,
    so a command that resolves a file again (``play``'s undo, ``compare``'s
    second try with the default answers) neither reads, loads nor compiles
    it again: each engine starts from a copy of the compiled state."""

    scenario: Scenario
    ruleset: Ruleset
    compiled: Compiled

    @property
    def game(self) -> str:
        """The ruleset's name (``GAME`` or ``GAME/VARIANT``)."""
        return self.ruleset.name


def bind(scenario: Scenario, game: str | Ruleset | None = None, *, plugins: Iterable[object] = ()) -> Bound:
    """``scenario`` bound to ``game``: a name (``GAME/VARIANT``), a
    :class:`~tcgtrig.Ruleset`, or ``None`` for the file's own game (see
    :func:`~tcgtrig.games.manager.pick_game`); ``plugins``: extra plugins
    (house rules) when the game is named.

    :raises ScenarioError: the file does not compile under the game (an
        unknown card, effect key or word).
    :raises UnknownGameError: no such game is installed.
    """
    ruleset = game if isinstance(game, Ruleset) else load_ruleset(pick_game(scenario, game), plugins=plugins)
    return Bound(scenario, ruleset, scenario.compile(ruleset))


class Bindings:
    """One scenario's bindings, one per ruleset, each made when first asked
    for: a command that resolves a file under several games and lints it
    in its own words (``check``, ``compare``) compiles it once per game.
    It lives as long as the command's work on the file, not in the file."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self._bound: dict[int, Bound] = {}  # by id(ruleset): each Bound holds its ruleset, so the id stays its own

    def __call__(self, ruleset: Ruleset) -> Bound:
        """The scenario bound to ``ruleset`` (compiled the first time)."""
        bound = self._bound.get(id(ruleset))
        if bound is None:
            bound = self._bound[id(ruleset)] = bind(self.scenario, ruleset)
        return bound


def load_scenario(path: str | Path, *, check_game: bool = True) -> Scenario:
    """Read and check a scenario file (``.yaml``/``.yml`` or ``.json``).

    With ``check_game`` (the default), a file that names an installed
    ``game`` is also compiled for it (:meth:`Scenario.check_game`): an
    unknown card or word is a :class:`ScenarioError` here, at load time.
    A command that goes on to resolve the file reads it with
    ``check_game=False`` and binds it (:func:`~tcgtrig.scenario.reading.bind`): one compile.
    """
    with collector_paused():  # reading builds the whole file's values at once, all kept
        return _game_checked(scenario_from_source(load_source(path)), check_game)


def scenario_from_text(
    text: str, file: str = "<scenario>", *, kind: str | None = None, check_game: bool = True
) -> Scenario:
    """Read and check scenario text (YAML unless ``kind="json"``); see
    :func:`load_scenario` for ``check_game``."""
    with collector_paused():
        return _game_checked(scenario_from_source(parse_source(text, file, kind=kind)), check_game)


def scenario_from_data(data: Mapping[str, Any], file: str = "<data>", *, check_game: bool = True) -> Scenario:
    """Check scenario data built in Python (same rules as a file)."""
    return _game_checked(scenario_from_source(Source(json.loads(json.dumps(data)), file, {})), check_game)


def _game_checked(scenario: Scenario, check_game: bool) -> Scenario:
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
