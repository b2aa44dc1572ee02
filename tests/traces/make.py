"""Write the stored JSON traces the golden-trace test compares against.

    python tests/traces/make.py

Run it only when a change to a trace is intended, and say why in the
commit: a speed-up must leave every bundled trace byte-identical.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def bundled_pairs() -> Iterator[tuple[Path, str]]:
    """Every bundled scenario file with every game it expects."""
    import tcgtrig

    files = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")) + sorted((ROOT / "examples").glob("*.yaml"))
    installed = set(tcgtrig.available_games())
    for path in files:
        for game in tcgtrig.load_scenario(path, check_game=False).games():
            if game.split("/")[0] in installed:  # an example package's game only once it is installed
                yield path, game


def stored_path(path: Path, game: str) -> Path:
    relative = path.relative_to(ROOT).with_suffix("")
    return HERE / game / (str(relative).replace("/", "__") + ".json")


def trace_text(path: Path, game: str) -> str:
    import tcgtrig

    return tcgtrig.resolve(tcgtrig.load_scenario(path, check_game=False), game).json_text() + "\n"


def main() -> int:
    written = 0
    for path, game in bundled_pairs():
        target = stored_path(path, game)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(trace_text(path, game), encoding="utf-8")
        written += 1
    print(f"{written} traces written under {HERE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
