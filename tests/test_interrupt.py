"""Ctrl-C (issue 22, item 6): every command ends with one line,
``<command> stopped (Ctrl-C)``, and exit status 130 — and ``explore
--jobs 2`` leaves no worker process behind and never hangs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from tcgtrig.tools.cli import main

ROOT = Path(__file__).parent
T1 = ROOT / "scenarios" / "digimon" / "triggered-01.yaml"
CHAIN = ROOT / "hostile" / "explore-chain-7.yaml"


def _interrupted(*args: object, **kwargs: object) -> None:
    raise KeyboardInterrupt


@pytest.mark.parametrize("command", ["run", "check", "compare", "explore", "play", "resume"])
def test_ctrl_c_is_one_line_and_exit_130_for_every_command(tmp_path, monkeypatch, command):
    runner = CliRunner()
    target = T1
    if command == "resume":
        target = tmp_path / "saved.json"
        saved = runner.invoke(main, ["run", str(T1), "--stop-after", "1", "--save", str(target)])
        assert saved.exit_code == 0, saved.output
    monkeypatch.setattr("tcgtrig.runtime.machine.Machine.advance", _interrupted)  # every command resolves something
    result = runner.invoke(main, [command, str(target)], input="")
    assert (result.exit_code, result.stderr) == (130, f"{command} stopped (Ctrl-C)\n"), result.output
    assert "Traceback" not in result.output and "Aborted" not in result.output


def _endless_chain(where: Path) -> Path:
    """Quick effects that may chain again and again: a search that does
    not end, farmed out to workers (its branches never meet).  The traps
    are Continuous: a Normal Trap goes to the GY once resolved (issue 37
    item 8), and the search would end."""
    path = where / "endless-chain.yaml"
    text = CHAIN.read_text(encoding="utf-8").replace(" once_per_turn: true,", "")
    path.write_text(text.replace("types: [trap]", "types: [trap, continuous]"), encoding="utf-8")
    return path


def _in_group(group: int) -> list[int]:
    """The processes of a process group that are still there (zombies aside)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _ctrl_c_as_at_a_terminal() -> None:
    """In the child: Ctrl-C does what it does at a terminal, even where the
    tests run with it ignored (a shell's background job): Python then
    turns it into ``KeyboardInterrupt``."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


#: Ctrl-C is sent this many times, at different moments: before, while and after the workers start.
TRIES = 8


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_ctrl_c_during_explore_with_two_jobs_ends_every_process(tmp_path):
    # a rare hang (1 in ~40) and orphan workers: Ctrl-C goes to the whole process group, as a terminal sends it
    chain = _endless_chain(tmp_path)
    command = [
        sys.executable,
        "-m",
        "tcgtrig",
        "explore",
        str(chain),
        "--jobs",
        "2",
        "--max-states",
        "100000000",
        "--max-outcomes",
        "100000000",
    ]
    workers_seen = 0
    for attempt in range(TRIES):
        errors = tmp_path / f"stderr-{attempt}.txt"
        with errors.open("wb") as stream:
            process = subprocess.Popen(
                command,
                stdout=subprocess.DEVNULL,
                stderr=stream,
                cwd=tmp_path,
                start_new_session=True,
                preexec_fn=_ctrl_c_as_at_a_terminal,
                env={**os.environ, "PYTHONFAULTHANDLER": "1"},
            )
        try:
            deadline = time.monotonic() + 30
            # half the tries wait for the workers; the others interrupt whatever is running
            while attempt % 2 == 0 and len(_in_group(process.pid)) < 3 and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.8 + 0.15 * attempt if attempt % 2 else 0.05 * attempt)
            workers_seen += len(_in_group(process.pid)) - 1
            os.killpg(process.pid, signal.SIGINT)
            try:
                status = process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGABRT)  # where it hangs, on its stderr (faulthandler)
                process.wait(timeout=10)
                status = None
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        stderr = errors.read_text(encoding="utf-8", errors="replace")
        assert (status, stderr) == (130, "explore stopped (Ctrl-C)\n"), (attempt, status, stderr[-2000:])
        assert _in_group(process.pid) == [], f"worker processes outlived explore (try {attempt})"
    assert workers_seen >= TRIES  # the workers were running when Ctrl-C came, most times
