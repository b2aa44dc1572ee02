"""The walk-through ``docs/adding-a-game.md`` works as written (issue 39
item 5): its plugin is built from the page's own code blocks, in order,
registered under its entry point as ``pip install`` would, and its
scenario and its test are run.

The rule the page's plugin follows is One Piece's CR v1.2.0 8-6-1 and
8-6-1-1 (the turn player's simultaneous effects first, in the order they
choose; a new effect of the turn player waits for the non-turn player's
older one): the comprehensive rules, not a summary, decide (the README's
stub ranked the turn player first across batches, as the core's default
does — Lorcana's bag, not One Piece).

The page's scenario block is fenced ```` ```yaml title="…"````, so
``test_meta``'s check of the docs' examples (``tcgtrig check``, which has no
One Piece installed) leaves it to this file."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest
import tcgtrig
import tomllib

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "adding-a-game.md"

#: a fenced block that names its file: ```lang title="path"
FILE_BLOCK = re.compile(r'^```(\w+) title="([^"]+)"\n(.*?)^```$', re.M | re.S)


def page_files(text: str) -> dict[str, str]:
    """The files the page's blocks make, in order: a path named again continues its file."""
    files: dict[str, str] = {}
    for _language, path, body in FILE_BLOCK.findall(text):
        files[path] = f"{files[path]}\n\n{body}" if path in files else body
    return files


def install(files: dict[str, str], root: Path) -> str:
    """Write the page's files under ``root`` and lay out their distribution's
    metadata there (what ``pip install`` writes): the game's entry point as
    its ``pyproject.toml`` says.  Returns the game's name."""
    for path, body in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(body, encoding="utf-8")
    project = tomllib.loads(files["pyproject.toml"])["project"]
    (name, target), *more = project["entry-points"]["tcgtrig.games"].items()
    assert not more, "the walk-through registers one game"
    info = root / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n")
    (info / "entry_points.txt").write_text(f"[tcgtrig.games]\n{name} = {target}\n")
    return name


@pytest.fixture(scope="module")
def walked(tmp_path_factory: pytest.TempPathFactory):
    """The page's game, installed in a temporary folder on ``sys.path``."""
    root = tmp_path_factory.mktemp("onepiece")
    files = page_files(PAGE.read_text(encoding="utf-8"))
    game = install(files, root)
    sys.path.insert(0, str(root))
    try:
        yield game, root, files
    finally:
        sys.path.remove(str(root))
        for module in [m for m in sys.modules if m.split(".")[0] in ("tcgtrig_onepiece", "test_onepiece")]:
            del sys.modules[module]


def test_the_page_names_its_files():
    files = page_files(PAGE.read_text(encoding="utf-8"))
    assert {"pyproject.toml", "tcgtrig_onepiece/__init__.py", "tests/test_onepiece.py"} <= set(files)
    assert [path for path in files if path.endswith(".yaml")] == ["scenarios/cr-8-6-1.yaml"]


def test_the_game_is_installed_and_listed(walked):
    game, _, _ = walked
    assert game in tcgtrig.available_games()
    listing = {g.name: g for g in tcgtrig.list_games()}[game]
    assert (listing.title, listing.error, listing.unstated) == ("One Piece Card Game", None, ())


def test_turn_players_effects_first_in_their_order_then_the_older_batch(walked):
    """CR 8-6-1: A (the turn player) resolves Usopp's and Nami's first, in
    the order A chooses; Franky's [On K.O.], triggered by Usopp's, waits
    for Nami's (8-6-1-1) and for B's Buggy, which was already waiting."""
    game, root, _ = walked
    scenario = tcgtrig.load_scenario(root / "scenarios" / "cr-8-6-1.yaml")
    result = tcgtrig.resolve(scenario, game)
    assert result.keys("resolved") == ["usopp.on_play", "nami.watch", "buggy.watch", "franky.on_ko"]
    assert tcgtrig.check_expectation(result, result.compiled.expect) == []
    # the other order is A's to choose: the turn player orders their own simultaneous effects
    other = tcgtrig.resolve(scenario, game, choices=["nami.watch"])
    assert other.keys("resolved") == ["nami.watch", "usopp.on_play", "buggy.watch", "franky.on_ko"]


def test_the_pages_own_test_passes(walked):
    _, root, _ = walked
    sys.path.insert(0, str(root / "tests"))
    try:
        module = importlib.import_module("test_onepiece")
    finally:
        sys.path.remove(str(root / "tests"))
    tests = [getattr(module, name) for name in dir(module) if name.startswith("test_")]
    assert tests
    for test in tests:
        test()
