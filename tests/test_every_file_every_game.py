"""Every bundled scenario file under every installed game: it loads and
compiles, or it is refused with one line naming a word of another game and
what that word means in core words — never a bare "unknown action", never
another error (issue 23, item 1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tcgtrig

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted({*ROOT.glob("tests/scenarios/**/*.yaml"), *ROOT.glob("tests/plugins/*/positions/*.yaml"),
                *ROOT.glob("examples/*.yaml"), *ROOT.glob("examples/games/*/scenarios/*.yaml")})
#: the one line a word of another game gets
ELSEWHERE = re.compile(r"^[^\n]*: unknown action '(\w+)' for game '[\w/]+': it is [^\n]*'s word\b[^\n]*$")


@pytest.mark.parametrize("game", tcgtrig.available_games())
def test_each_file_compiles_or_names_the_other_games_word(game):
    ruleset = tcgtrig.load_ruleset(game)
    compiled = refused = 0
    for path in FILES:
        scenario = tcgtrig.load_scenario(path, check_game=False)
        try:
            scenario.compile(ruleset)
        except tcgtrig.ScenarioError as error:
            match = ELSEWHERE.match(str(error))
            assert match, f"{path.relative_to(ROOT)} under {game}: {error}"
            assert match.group(1) not in ruleset.aliases
            refused += 1
        else:
            compiled += 1
    assert compiled >= 10 and compiled + refused == len(FILES) >= 150
