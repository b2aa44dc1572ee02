"""The bundled scenario files, each resolved once per game for the whole
run (issue 39, item 4): ``import bundled``.

Every per-file check (golden traces, the every-game digests, the trace
schema, the render order, conformance, save/resume, the lint's events)
reads its resolution from :func:`outcome`, so a (file, game) pair is
resolved once however many checks read it.  What is cached is shared
between tests: read it, do not change it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import tcgtrig
from tcgtrig import Resolution, Ruleset, Scenario, TcgTrigError

ROOT = Path(__file__).resolve().parents[1]
#: the files the per-file checks read: the suite's scenarios and the examples
SCENARIOS = sorted({*ROOT.glob("tests/scenarios/**/*.yaml"), *ROOT.glob("examples/*.yaml")})


def files(*patterns: str) -> list[Path]:
    """The files under the repository's root matching any of ``patterns``, sorted."""
    return sorted({path for pattern in patterns for path in ROOT.glob(pattern)})


@cache
def ruleset(game: str) -> Ruleset:
    """The ruleset of ``game`` (a variant too: ``yugioh/ocg``), loaded once."""
    return tcgtrig.load_ruleset(game)


@cache
def scenario(path: Path) -> Scenario:
    """The file, read once (its own game unchecked: each game checks it as it compiles)."""
    return tcgtrig.load_scenario(path, check_game=False)


@cache
def outcome(path: Path, game: str) -> Resolution | TcgTrigError:
    """``path`` resolved under ``game`` with the file's own choices, or the
    error that refused it (a file in another game's words)."""
    try:
        return tcgtrig.resolve(scenario(path), ruleset(game))
    except TcgTrigError as error:
        return error


def checked(path: Path) -> Scenario:
    """:func:`scenario`, its own ``game`` checked as ``tcgtrig.load_scenario``
    checks it (installed, and the file compiles for it): that error is
    raised again, with the words ``load_scenario`` gives it."""
    found = scenario(path)
    if found.game is not None and isinstance(outcome(path, found.game), TcgTrigError):
        tcgtrig.load_scenario(path)  # raises when the file's own game refuses it
    return found


def resolved(path: Path, game: str) -> Resolution | None:
    """:func:`outcome`, ``None`` when the game refused the file."""
    found = outcome(path, game)
    return found if isinstance(found, Resolution) else None


@cache
def json_text(path: Path, game: str) -> str:
    """The JSON trace of ``path`` under ``game`` (as ``tcgtrig run --json`` writes it)."""
    found = outcome(path, game)
    if isinstance(found, TcgTrigError):
        raise found
    return found.json_text()


def steps_taken(result: Resolution) -> int:
    """The activations and rules passes the resolution took (what
    ``max_steps`` bounds)."""
    return result.engine.machine.steps()[0]
