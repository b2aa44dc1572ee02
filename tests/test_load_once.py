"""A command reads a file, picks its game and loads its ruleset once, and
compiles the file once for each game it resolves it under (issue 39 item 3).

Before, ``tcgtrig run FILE`` compiled the file as it was read, under a
ruleset kept for checking files, parked the result inside the frozen
``Scenario`` (``_checked``), then picked the game and loaded its ruleset a
second time; ``check`` loaded each game's ruleset twice per file (once to
find a ``refused`` expectation, once to resolve), ``compare`` compiled the
file twice per game, ``play`` once more at every ``undo``.  Now each command
binds the file to its game once (``tcgtrig.scenario.reading.bind``: the
scenario, the ruleset, the compiled form) and passes that along.  These
tests count, in-process, the files read (``scenario_from_source``), the
rulesets loaded (``games.manager._load_ruleset``, under every way of asking
for one) and the compiles (``Compiler.compile``).  A file written in another
game's words (``words: duelmasters``) is read by that game's shared ruleset
(``games.manager.shared_ruleset``), loaded once for the whole process.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import tcgtrig
import tcgtrig.games.manager as manager
import tcgtrig.scenario.reading as reading
from click.testing import CliRunner
from tcgtrig.games.manager import available_games, split_game
from tcgtrig.scenario.compiler import Compiler
from tcgtrig.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
T1 = "tests/scenarios/digimon/triggered-01.yaml"
#: expected under every game (examples/compare: one position, seven rulesets)
EVERY_GAME = "examples/compare/01-battle-both-destroyed.yaml"


class Counts:
    """What a command read, loaded and compiled."""

    def __init__(self) -> None:
        self.reads: Counter[str] = Counter()
        self.loads: Counter[str] = Counter()
        self.compiles: Counter[tuple[str, str]] = Counter()


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Counts:
    seen = Counts()
    read, load, compile_ = reading.scenario_from_source, manager._load_ruleset, Compiler.compile

    def counted_read(source: Any) -> Any:
        seen.reads[source.file] += 1
        return read(source)

    def counted_load(game: str, *args: Any) -> Any:
        seen.loads[game] += 1
        return load(game, *args)

    def counted_compile(self: Compiler) -> Any:
        seen.compiles[self.scenario.file, self.ruleset.name] += 1
        return compile_(self)

    monkeypatch.setattr(reading, "scenario_from_source", counted_read)
    monkeypatch.setattr(manager, "_load_ruleset", counted_load)
    monkeypatch.setattr(Compiler, "compile", counted_compile)
    monkeypatch.chdir(ROOT)
    manager.shared_ruleset.cache_clear()  # a ruleset kept from another test would not be counted
    yield seen
    manager.shared_ruleset.cache_clear()


def invoke(*args: str, input: str | None = None) -> str:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exit_code == 0, result.output
    return result.output


def test_run_reads_loads_and_compiles_once(counts):
    invoke("run", T1)
    assert counts.reads == {T1: 1}
    assert counts.loads == {"digimon": 1}
    assert counts.compiles == {(T1, "digimon"): 1}


def test_run_under_another_game_loads_each_game_once(counts):
    """The file is written in Duel Masters' words: read by them, and linted
    in them (compiled under Duel Masters), but resolved under Yu-Gi-Oh!."""
    invoke("run", EVERY_GAME, "--game", "yugioh")
    assert counts.reads == {EVERY_GAME: 1}
    assert counts.loads == {"yugioh": 1, "duelmasters": 1}
    assert counts.compiles == {(EVERY_GAME, "yugioh"): 1, (EVERY_GAME, "duelmasters"): 1}


def test_run_and_save_reads_loads_and_compiles_once(counts, tmp_path):
    invoke("run", T1, "--stop-after", "1", "--save", str(tmp_path / "saved.json"))
    assert (counts.reads, counts.loads, counts.compiles) == ({T1: 1}, {"digimon": 1}, {(T1, "digimon"): 1})


def test_check_loads_each_game_once_and_compiles_once_per_game(counts):
    games = reading.load_scenario(EVERY_GAME, check_game=False).games()
    installed = [name for name in games if split_game(name)[0] in available_games()]
    counts.reads.clear()
    invoke("check", EVERY_GAME, T1)
    assert len(installed) >= 4
    assert counts.reads == {EVERY_GAME: 1, T1: 1}
    assert counts.loads == dict.fromkeys(installed, 1)  # digimon too: loaded once for both files
    assert counts.compiles == {**{(EVERY_GAME, name): 1 for name in installed}, (T1, "digimon"): 1}


def test_compare_compiles_once_per_game(counts):
    invoke("compare", EVERY_GAME, "--games", "digimon,duelmasters,yugioh")
    assert counts.reads == {EVERY_GAME: 1}
    assert counts.loads == {"digimon": 1, "duelmasters": 1, "yugioh": 1}
    assert counts.compiles == {(EVERY_GAME, name): 1 for name in ("digimon", "duelmasters", "yugioh")}


def test_play_compiles_once_however_often_it_undoes(counts):
    invoke("play", T1, input="upamon.draw\nundo\ngabumon.trash\nundo\n\n\n\n\n")
    assert (counts.reads, counts.loads, counts.compiles) == ({T1: 1}, {"digimon": 1}, {(T1, "digimon"): 1})


def test_explore_reads_loads_and_compiles_once(counts):
    invoke("explore", T1, "--jobs", "1", "--max-states", "50")
    assert (counts.reads, counts.loads, counts.compiles) == ({T1: 1}, {"digimon": 1}, {(T1, "digimon"): 1})


def test_resolving_a_bound_scenario_again_compiles_nothing(counts):
    bound = reading.bind(reading.load_scenario(T1, check_game=False))
    first = tcgtrig.resolve(bound)
    again = tcgtrig.resolve(bound, choices=[])
    assert first.keys("resolved") and again.keys("resolved")
    assert (counts.reads, counts.loads, counts.compiles) == ({T1: 1}, {"digimon": 1}, {(T1, "digimon"): 1})


def test_words_and_read_load_the_game_once(counts):
    invoke("words", "--game", "digimon")
    invoke("read", "--game", "digimon", "[On Play] Gain 1 memory.")
    assert counts.loads == {"digimon": 1}
