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
    from tcgtrig.games.manager import list_games

    names = []
    for listing in list_games():
        if listing.error is not None:
            continue
        spec = importlib.util.find_spec(listing.module.split(":")[0])
        origin = Path(spec.origin).resolve() if spec is not None and spec.origin else None
        if origin is not None and origin.is_relative_to(root.resolve()):
            names.append(listing.name)
    return sorted(set(names) & set(tcgtrig.available_games()))


def example_packages(root: Path = ROOT) -> dict[str, Path]:
    """The example game packages under ``examples/games/``: game name → folder
    (the name its pyproject registers under ``tcgtrig.games``)."""
    import re

    found = {}
    for pyproject in sorted((root / "examples" / "games").glob("*/pyproject.toml")):
        text = pyproject.read_text(encoding="utf-8")
        section = text.split('[project.entry-points."tcgtrig.games"]', 1)
        if len(section) == 2:
            for name in re.findall(r"^\s*([A-Za-z0-9_-]+)\s*=", section[1].split("\n[", 1)[0], re.M):
                found[name] = pyproject.parent
    return found


def missing_example_games(root: Path = ROOT) -> list[str]:
    """The example games not installed: the generated pages show them, so
    the checks of those pages need them (the README's first command
    installs them)."""
    installed = set(tcgtrig.available_games())
    return sorted(name for name in example_packages(root) if name not in installed)
