"""The games' entry points are read from the installed packages' metadata
without importing :mod:`importlib.metadata` (issue 40 item 3: its import
was 15 ms of ``tcgtrig games``), and the answer is the standard library's:
these tests hold :func:`tcgtrig.games.entry_points.find` to
:func:`importlib.metadata.entry_points` on this installation and on
installations laid out for the purpose, the unusual ones included (read by
importlib.metadata itself)."""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from tcgtrig.games import entry_points
from tcgtrig.games.entry_points import GameEntryPoint, Unusual

ROOT = Path(__file__).resolve().parents[2]
GROUP = "tcgtrig.games"


def standard(group: str) -> tuple[GameEntryPoint, ...]:
    importlib.invalidate_caches()  # importlib.metadata keeps each folder's listing by its modification time
    return entry_points._from_importlib(group)


def dist(root: Path, folder: str, entry_points_txt: str | None, metadata: str = "") -> Path:
    info = root / folder
    info.mkdir(parents=True)
    name = folder.rpartition(".")[0].partition("-")[0]
    (info / ("PKG-INFO" if folder.endswith(".egg-info") else "METADATA")).write_text(
        metadata or f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8"
    )
    if entry_points_txt is not None:
        (info / "entry_points.txt").write_text(textwrap.dedent(entry_points_txt), encoding="utf-8")
    return info


@pytest.mark.parametrize("group", [GROUP, "console_scripts", "pytest11", "no.such.group"])
def test_this_installation_reads_as_the_standard_library_reads_it(group):
    found = entry_points.find(group)
    assert found == standard(group)
    if group == GROUP:
        assert {"digimon", "duelmasters", "yugioh"} <= {ep.name for ep in found}
        assert {ep.distribution for ep in found if ep.name == "digimon"} == {"tcgtrig"}


def test_from_the_repository_root_too():
    """``python -c`` puts the current folder first on the path, where a
    source checkout may hold an old ``tcgtrig.egg-info``: the standard
    library takes that copy of the project, and so does the reader."""
    probe = (
        "from tcgtrig.games import entry_points as e\n"
        "for g in ('tcgtrig.games', 'console_scripts'):\n"
        "    assert e.find(g) == e._from_importlib(g), g\n"
        "print('same')"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip() == "same", done.stderr


def test_laid_out_installations(tmp_path, monkeypatch):
    first, second, missing = tmp_path / "first", tmp_path / "second", tmp_path / "missing"
    # the first copy of a project on the path hides the later ones (names compared normalized)
    dist(first, "Toy_Game-1.0.dist-info", f"[{GROUP}]\ntoy = toy_first\n")
    dist(second, "toy.game-2.0.dist-info", f"[{GROUP}]\ntoy = toy_second\n")
    # comments, blanks, blanks around '=', an attribute, extras, other groups, a line before any group
    dist(
        first,
        "card_pack-3.1.dist-info",
        f"""\
        stray = line
        # a comment
        [console_scripts]
        pack = card_pack.cli:main

        [{GROUP}]
          # an indented comment
          pack   =   card_pack.hooks:Plugin.instance [fast]
        other=card_pack.other
        """,
        "Metadata-Version: 2.1\nname: Card-Pack\nSummary: a summary\n  on two lines\nversion: 3.1\n\nName: not this\n",
    )
    # an egg-info folder (no version in its name), an egg-info file (no entry points, but it hides a later copy)
    dist(second, "legacy.egg-info", f"[{GROUP}]\nlegacy = legacy_game\n")
    (first / "hidden-1.0.egg-info").write_text("Metadata-Version: 1.0\nName: hidden\nVersion: 1.0\n")
    dist(second, "hidden-2.0.dist-info", f"[{GROUP}]\nhidden = hidden_game\n")
    # no entry_points.txt, and one without the group
    dist(second, "plain-1.0.dist-info", None)
    dist(second, "other-1.0.dist-info", "[console_scripts]\nother = other:main\n")
    monkeypatch.setattr(sys, "path", [str(first), str(missing), str(second)])
    found = entry_points.find(GROUP)
    assert found == standard(GROUP)  # the same order too (a folder's listing order, not sorted)
    assert sorted((ep.name, ep.value, ep.distribution, ep.version) for ep in found) == [
        ("legacy", "legacy_game", "legacy", "1.0"),
        ("other", "card_pack.other", "Card-Pack", "3.1"),
        ("pack", "card_pack.hooks:Plugin.instance [fast]", "Card-Pack", "3.1"),
        ("toy", "toy_first", "Toy_Game", "1.0"),
    ]


def test_an_install_shows_up_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert entry_points.find(GROUP) == ()
    info = dist(tmp_path, "late-1.0.dist-info", f"[{GROUP}]\nlate = late_game\n")
    assert [ep.name for ep in entry_points.find(GROUP)] == ["late"]
    (info / "entry_points.txt").unlink()  # uninstalled (as far as the group goes)
    assert entry_points.find(GROUP) == ()


@pytest.mark.parametrize("layout", ["zip", "upper-case suffix", "folded name", "not a header"])
def test_unusual_installations_are_read_by_the_standard_library(tmp_path, monkeypatch, layout):
    root = tmp_path / "site"
    if layout == "zip":
        root = tmp_path / "games.zip"
        with zipfile.ZipFile(root, "w") as archive:
            archive.writestr("zipped-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped\nVersion: 1.0\n")
            archive.writestr("zipped-1.0.dist-info/entry_points.txt", f"[{GROUP}]\nzipped = zipped_game\n")
    elif layout == "upper-case suffix":
        dist(root, "Upper-1.0.DIST-INFO", f"[{GROUP}]\nupper = upper_game\n")
    elif layout == "folded name":
        dist(root, "folded-1.0.dist-info", f"[{GROUP}]\nf = f\n", "Name: folded\n  more\nVersion: 1\n")
    else:
        dist(root, "odd-1.0.dist-info", f"[{GROUP}]\nodd = odd\n", "Name: odd\nnot a header\nVersion: 1\n")
    monkeypatch.setattr(sys, "path", [str(root)])
    with pytest.raises(Unusual):
        tuple(entry_points._read(GROUP, sys.path))
    found = entry_points.find(GROUP)
    assert found == standard(GROUP) and len(found) == 1


def test_an_entry_point_loads_its_module_or_attribute():
    assert GameEntryPoint("x", "tcgtrig.games.hookspecs", GROUP, "", "", "").load().__name__ == (
        "tcgtrig.games.hookspecs"
    )
    hookimpl = GameEntryPoint("x", "tcgtrig.games.hookspecs : hookimpl", GROUP, "", "", "").load()
    assert hookimpl is importlib.import_module("tcgtrig.games.hookspecs").hookimpl
    with pytest.raises(ValueError, match="is not an entry point"):
        GameEntryPoint("x", "not a module!", GROUP, "", "", "").load()
