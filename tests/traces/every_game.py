"""Every bundled scenario file under every installed game and variant: a
digest of what it gives, its JSON trace or its one-line refusal.

``python tests/traces/every_game.py`` writes ``every-game.json``;
``tests/test_golden_traces.py`` compares against it.  The digests kept in
the repository were made before issue 25 moved the core into layers, and
pin down that the move changed no resolution under any game.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STORED = HERE / "every-game.json"
PATTERNS = (
    "tests/scenarios/**/*.yaml",
    "tests/plugins/*/positions/*.yaml",
    "examples/*.yaml",
    "examples/games/*/scenarios/*.yaml",
)


def games() -> list[str]:
    """Every installed game, and each of its variants (``yugioh/ocg``)."""
    import tcgtrig

    names = []
    for name in tcgtrig.available_games():
        names.append(name)
        names += [f"{name}/{variant}" for variant, _ in tcgtrig.load_ruleset(name).info.variants]
    return names


#: a JSON trace already made elsewhere (the test suite's one resolution of the pair), or ``None``
Known = Callable[[str, str], "str | None"]


def outputs(known: Known | None = None) -> Iterator[tuple[str, str]]:
    """``("file :: game", text)`` for every bundled file under every game,
    read with paths relative to the repository (as errors name them: run
    it from the repository's root).  ``known(path, game)``: the pair's JSON
    trace when it is already made, else ``None`` (it is then resolved
    here, and a refusal read)."""
    import tcgtrig
    from tcgtrig import TcgTrigError

    files = sorted({str(p.relative_to(ROOT)) for pattern in PATTERNS for p in ROOT.glob(pattern)})
    for game in games():
        for path in files:
            text = known(path, game) if known is not None else None
            if text is None:
                try:
                    text = tcgtrig.resolve(tcgtrig.load_scenario(path, check_game=False), game).json_text()
                except TcgTrigError as error:
                    text = f"refused: {error}"
            yield f"{path} :: {game}", text


def digests(known: Known | None = None) -> dict[str, str]:
    return {key: hashlib.sha256(text.encode("utf-8")).hexdigest()[:16] for key, text in outputs(known)}


if __name__ == "__main__":
    os.chdir(ROOT)
    found = digests()
    STORED.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(found)} digests written to {STORED.relative_to(ROOT)}", file=sys.stderr)
