"""Every bundled scenario file under every installed game: it loads and
compiles (another game's words read by the roles of their zones, events
and flags), or it is refused with one line naming the word that has no
meaning there, or naming the number of players the game allows (issue 24,
item 7) — never a bare "unknown action", never another error (issue 23,
item 1)."""

from __future__ import annotations

import re
from pathlib import Path

import bundled
import pytest
import tcgtrig

ROOT = Path(__file__).resolve().parents[1]
FILES = bundled.files(
    "tests/scenarios/**/*.yaml",
    "tests/plugins/*/positions/*.yaml",
    "examples/*.yaml",
    "examples/games/*/scenarios/*.yaml",
)
#: the one line a word of another game gets
ELSEWHERE = re.compile(
    r"^[^\n]*: (?:unknown action '(\w+)' for game '[\w/]+': it is [^\n]*'s word\b"
    r"|'(\w+)' \([^\n]*'s word\) has no meaning in "
    r"|players: [^\n]* is played by at most \d+ players; the file names \d+"
    r"|start: the start has no meaning in )[^\n]*$"
)


@pytest.mark.parametrize("game", tcgtrig.available_games())
def test_each_file_compiles_or_names_the_other_games_word(game):
    ruleset = bundled.ruleset(game)
    compiled = refused = 0
    for path in FILES:
        if bundled.resolved(path, game) is not None:  # the run's one resolution of the pair: it compiled
            compiled += 1
            continue
        try:  # refused: compiling again (cheap, it stops at the word) tells a refusal from a run's error
            bundled.scenario(path).compile(ruleset)
        except tcgtrig.ScenarioError as error:
            match = ELSEWHERE.match(str(error))
            assert match, f"{path.relative_to(ROOT)} under {game}: {error}"
            assert (match.group(1) or match.group(2)) not in ruleset.aliases
            refused += 1
        else:
            compiled += 1
    assert compiled >= 60 and compiled + refused == len(FILES) >= 150
