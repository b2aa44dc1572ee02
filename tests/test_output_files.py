"""Where ``run --save`` and ``compare --html`` write (issue 37 item 25,
found by an attacker): they wrote a temporary file and renamed it over the
path, so a FIFO or a device node was replaced by a file — run as root,
``--save /dev/null`` replaced ``/dev/null`` itself.  A FIFO or a character
device is now written directly, anything else that is not a file (a
directory, a socket) refused, and nothing but a file is ever renamed over.

The tests never let the old code rename over ``/dev/null`` (they run as
root here): ``os.replace`` is made to refuse while they write to it.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from tcgtrig.tools.cli import main

T1 = Path(__file__).parent / "scenarios" / "digimon" / "triggered-01.yaml"
#: the two commands that write a file, with the option naming it
WRITERS = {
    "save": ("run", str(T1), "--stop-after", "1", "--save"),
    "html": ("compare", str(T1), "--html"),
}


def check_written(name: str, data: bytes) -> None:
    text = data.decode("utf-8")
    if name == "save":
        assert json.loads(text)["save_format"] == 2
    else:
        assert text.startswith("<!doctype html>") and text.rstrip().endswith("</html>")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", WRITERS)
def test_a_fifo_is_written_into_and_stays_a_fifo(tmp_path, name):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as reader:  # waits for the writer
            got.append(reader.read())

    reader = threading.Thread(target=read, daemon=True)  # a daemon: left waiting if nothing ever opens the FIFO
    reader.start()
    result = CliRunner().invoke(main, [*WRITERS[name], str(fifo)])
    assert result.exit_code == 0, (result.output, result.exception)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced by a file"
    reader.join()
    check_written(name, got[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.fifo"]  # no temporary file left


@pytest.mark.parametrize("name", WRITERS)
def test_dev_null_is_written_into_never_renamed_over(monkeypatch, name):
    def no_rename(*args: object) -> None:
        raise AssertionError(f"renamed over a device: {args}")

    monkeypatch.setattr(os, "replace", no_rename)
    monkeypatch.setattr(os, "rename", no_rename)
    before = os.stat("/dev/null")
    result = CliRunner().invoke(main, [*WRITERS[name], "/dev/null"])
    assert result.exit_code == 0, (result.output, result.exception)
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert not [p for p in os.listdir("/dev") if p.startswith(".null.")]  # no temporary file beside it


@pytest.mark.parametrize("name", WRITERS)
def test_a_socket_is_refused_and_left_alone(tmp_path, name):
    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(path))
        result = CliRunner().invoke(main, [*WRITERS[name], str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.endswith(
        f"{path}: cannot write {'the saved position' if name == 'save' else 'the page'}: "
        "a socket, not a file (name a file)\n"
    )
    assert stat.S_ISSOCK(os.lstat(path).st_mode)


@pytest.mark.parametrize("name", WRITERS)
@pytest.mark.parametrize("how", ["directory", "link to a directory", "trailing slash"])
def test_a_directory_is_refused(tmp_path, name, how):
    folder = tmp_path / "folder"
    folder.mkdir()
    target = {
        "directory": str(folder),
        "link to a directory": str(tmp_path / "link"),
        "trailing slash": str(tmp_path / "new") + "/",
    }[how]
    if how == "link to a directory":
        (tmp_path / "link").symlink_to(folder)
    result = CliRunner().invoke(main, [*WRITERS[name], target])
    assert result.exit_code == 2 and result.stdout == "" and len(result.stderr.splitlines()) == 1
    assert "directory" in result.stderr, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["folder"] + (["link"] if "link" in how else []))
    assert folder.is_dir() and not any(folder.iterdir())


def test_the_write_itself_refuses_a_directory(tmp_path):
    # click refuses an existing directory before the command runs; the writer must too (a directory
    # made meanwhile, another caller)
    from tcgtrig import TcgTrigError
    from tcgtrig.tools.cli import _write_atomically

    with pytest.raises(TcgTrigError, match="a directory, not a file"):
        _write_atomically(str(tmp_path), "text", "the page")
    assert sorted(tmp_path.iterdir()) == []
