"""The games this repository ships: the bundled ones and the example
packages under ``examples/games/`` — whichever of them are installed.

The generated pages (``docs/events.md``, ``docs/comparison.md``, the
gallery) and the tests that check them describe these games only, so a
game installed from elsewhere changes neither.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import tcgtrig

ROOT = Path(__file__).resolve().parents[1]


def repository_games(root: Path = ROOT) -> list[str]:
    """The installed games whose plugin module lives in ``root``, by name."""
    from tcgtrig.manager import list_games

    names = []
    for listing in list_games():
        if listing.error is not None:
            continue
        spec = importlib.util.find_spec(listing.module.split(":")[0])
        origin = Path(spec.origin).resolve() if spec is not None and spec.origin else None
        if origin is not None and origin.is_relative_to(root.resolve()):
            names.append(listing.name)
    return sorted(set(names) & set(tcgtrig.available_games()))
