"""Every bundled scenario's JSON trace is byte-identical to the stored one.

The stored traces (``tests/traces``) pin down behaviour while the engine is
reshaped for speed.  When a change to a trace is intended, regenerate them
with ``python tests/traces/make.py`` and say why in the commit.
"""

from __future__ import annotations

import sys
from pathlib import Path

import bundled
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "traces"))
from make import HERE, ROOT, bundled_pairs, stored_path  # noqa: E402

PAIRS = list(bundled_pairs())


@pytest.mark.parametrize("path, game", PAIRS, ids=lambda v: str(v.relative_to(ROOT)) if isinstance(v, Path) else v)
def test_trace_is_byte_identical_to_the_stored_one(path, game):
    stored = stored_path(path, game)
    assert stored.is_file(), f"no stored trace for {path.name} under {game}: run python tests/traces/make.py"
    # the run's one resolution of the pair (bundled.outcome): what make.py's trace_text writes
    assert bundled.json_text(path, game) + "\n" == stored.read_text(encoding="utf-8")


def test_every_stored_trace_belongs_to_a_bundled_file():
    import tcgtrig

    expected = {stored_path(path, game) for path, game in PAIRS}
    installed = set(tcgtrig.available_games())
    stored = {path for path in HERE.rglob("*.json") if path.relative_to(HERE).parts[0] in installed}
    assert stored - expected == set(), "stored traces without a scenario: delete them or run make.py"
    assert len(expected) == len(PAIRS) >= 150


def test_every_file_under_every_game_gives_what_it_gave_before_the_layers(monkeypatch):
    """Issue 25: the move into layers changed no resolution.  The digests
    (``tests/traces/every-game.json``) were made at 607831e, before it.

    1,544 pairs, in both tiers: each resolution is the run's one of that
    pair (:func:`bundled.outcome`, shared with the other per-file checks);
    a refusal is read again from the relative path, as the digests name it."""
    import json

    from every_game import STORED, digests

    stored = json.loads(STORED.read_text(encoding="utf-8"))
    monkeypatch.chdir(ROOT)
    now = digests(shared_text)
    changed = sorted(key for key in stored.keys() | now.keys() if stored.get(key) != now.get(key))
    assert len(stored) >= 1500
    assert changed == [], "outputs changed (regenerate with python tests/traces/every_game.py if meant):\n" + "\n".join(
        changed[:20]
    )


def shared_text(path: str, game: str) -> str | None:
    """The JSON trace of ``path`` (relative to the root) under ``game`` from
    the run's one resolution of the pair; ``None`` when the game refused
    it (the digest then reads the refusal itself)."""
    result = bundled.resolved(ROOT / path, game)
    return None if result is None else result.json_text()
