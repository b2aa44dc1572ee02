"""Every command that reads a file reads standard input for ``-``; a bad
``TCGTRIG_MAX_BYTES`` is refused; the memory bound holds while the output
is written (issue 37 item 34, found by an attacker: ``-`` worked for
``run`` only, ``TCGTRIG_MAX_BYTES=lots`` was silently ignored, and ``run
--max-memory 40M`` of a long loop peaked at 67 MB while it drew its tree).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tcgtrig
import tcgtrig.tools.cli
from click.testing import CliRunner
from rich.console import Console
from tcgtrig.base import budget
from tcgtrig.tools import render
from tcgtrig.tools.cli import main
from test_long_names import long_loop

ROOT = Path(__file__).resolve().parents[1]
T1 = ROOT / "tests" / "scenarios" / "digimon" / "triggered-01.yaml"
T1_TEXT = T1.read_text(encoding="utf-8")

#: Every command that reads a file (``tcgtrig --help``), with its other arguments.
READERS = {
    "run": ("run",),
    "run --json": ("run", "--json"),
    "check": ("check",),
    "compare": ("compare",),
    "compare --json": ("compare", "--json"),
    "explore": ("explore", "--jobs", "1"),
    "play": ("play",),
}


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "250", "FORCE_COLOR": None, "TTY_COMPATIBLE": None})


@pytest.fixture
def answers(tmp_path, monkeypatch) -> Path:
    """``play -`` reads its answers from the terminal: here, a file."""
    path = tmp_path / "tty"
    path.write_text("\n" * 20, encoding="utf-8")  # Enter: the default answer, every time
    monkeypatch.setattr(tcgtrig.tools.cli, "TERMINAL", str(path))
    return path


@pytest.mark.parametrize("name", READERS)
def test_every_command_reads_standard_input_for_a_dash(runner, answers, name):
    args = READERS[name]
    from_file = runner.invoke(main, [*args, str(T1)], input="\n" * 20)
    from_stdin = runner.invoke(main, [*args, "-"], input=T1_TEXT)
    assert from_file.exit_code == 0, from_file.output
    assert from_stdin.exit_code == 0, (from_stdin.output, from_stdin.exception)
    assert from_stdin.stdout.replace("<stdin>", str(T1)) == from_file.stdout


def test_resume_reads_the_saved_position_from_standard_input(runner, tmp_path):
    saved = tmp_path / "saved.json"
    stopped = runner.invoke(main, ["run", str(T1), "--stop-after", "2", "--save", str(saved)])
    assert stopped.exit_code == 0, stopped.output
    from_file = runner.invoke(main, ["resume", str(saved), "--json"])
    from_stdin = runner.invoke(main, ["resume", "-", "--json"], input=saved.read_text(encoding="utf-8"))
    assert from_stdin.exit_code == 0, from_stdin.output
    assert json.loads(from_stdin.stdout) == json.loads(from_file.stdout)


def test_standard_input_is_read_once(runner):
    result = runner.invoke(main, ["check", "-", "-"], input=T1_TEXT)
    assert result.exit_code == 2
    assert "PASS <stdin> [digimon]" in result.stdout
    assert "ERROR <stdin>: standard input is read once: name '-' only once" in result.stdout


def test_play_from_standard_input_without_a_terminal_says_so(runner, monkeypatch, tmp_path):
    monkeypatch.setattr(tcgtrig.tools.cli, "TERMINAL", str(tmp_path / "no-terminal"))
    result = runner.invoke(main, ["play", "-"], input=T1_TEXT)
    assert result.exit_code == 2
    assert result.stderr == (
        "error: play stopped: no answer: the scenario was read from standard input and there is no "
        "terminal to answer at (name the file, and answer on standard input)\n"
    )


@pytest.mark.parametrize("setting", ["lots", "0", "-5", "1e9", "2G", "١٢"])
def test_a_bad_byte_limit_in_the_environment_is_refused(monkeypatch, setting):
    monkeypatch.setenv("TCGTRIG_MAX_BYTES", setting)
    for command in ("run", "check", "compare", "explore", "play", "resume"):
        result = CliRunner().invoke(main, [command, str(T1)])
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.startswith(
            f"error: TCGTRIG_MAX_BYTES: {setting!r} is not a number of bytes: expected a whole number, 1 or more"
        ), result.stderr
        assert len(result.stderr.splitlines()) == 1


def test_a_good_byte_limit_in_the_environment_is_used(monkeypatch):
    from tcgtrig.scenario import source

    monkeypatch.setattr(source, "MAX_BYTES", source.MAX_BYTES)  # the command sets it for the process: put it back
    monkeypatch.setenv("TCGTRIG_MAX_BYTES", "1_000")
    result = CliRunner().invoke(main, ["run", str(T1)])
    assert result.exit_code == 2 and "larger than the limit of 1,000 bytes" in result.stderr
    assert CliRunner().invoke(main, ["run", str(T1), "--max-bytes", "100000"]).exit_code == 0


# -- the memory bound while the output is written -------------------------------

#: a loop that runs until the memory bound (or the step limit) stops it: tens of thousands of steps
LOOP = long_loop(10)

#: run the command in this process, then say its peak resident size (KiB) on standard error: the
#: process's own (VmHWM: getrusage's peak counts the parent's size before the exec)
PEAK = """\
import re, sys
from tcgtrig.tools.cli import main
try:
    main(sys.argv[1:])
finally:
    status = open("/proc/self/status").read()
    sys.stderr.write("\\npeak " + re.search(r"VmHWM:\\s*(\\d+)", status).group(1) + "\\n")
"""


def test_the_tree_is_cut_where_the_bound_is_reached_and_the_end_is_still_written(monkeypatch):
    result = tcgtrig.resolve(tcgtrig.scenario_from_text(LOOP), "digimon", max_steps=10_000)
    readings = iter(range(100))  # within the bound for the first 3 readings, then past it
    monkeypatch.setattr(budget, "exceeded", lambda: "memory limit reached: (test)" if next(readings) >= 3 else None)
    out = io.StringIO()
    render.print_tree(result, Console(file=out, width=200))  # not a terminal: plain text, written in batches
    text = out.getvalue()
    drawn = "more steps are not drawn (the tree stops here: memory limit reached: (test); --json gives every step)"
    assert drawn in render.render_text(result)  # the tree: cut while it is drawn
    assert text.count("\n") == render.MEMORY_EVERY + 1 + len(render.end_state_lines(result))
    assert "\n… the rest of the tree is not written: memory limit reached: (test)\nResolution order: " in text
    assert "\nOutcome: draw — " in text  # the end state is written all the same


def peak_of(*args: str, where: Path) -> tuple[float, str, str]:
    """A command's peak resident size (MiB), its standard output and error."""
    with open(where / "out", "wb") as out:
        done = subprocess.run(
            [sys.executable, "-c", PEAK, *args],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.PIPE,
            timeout=600,
            check=False,
        )
    stderr = done.stderr.decode()
    return int(stderr.rsplit("peak ", 1)[1]) / 1024, (where / "out").read_text(encoding="utf-8"), stderr


@pytest.mark.slow  # a fresh process each, run to its memory bound: CI runs them
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the peak resident size, as Linux reports it")
@pytest.mark.parametrize(
    "args", [("run",), ("run", "--json"), ("play",), ("compare",), ("compare", "--json")], ids=" ".join
)
def test_the_memory_bound_holds_to_the_last_byte_written(tmp_path, args):
    scenario = tmp_path / "loop.yaml"
    scenario.write_text(LOOP, encoding="utf-8")
    # the interpreter and the engine (some 30 MiB), and 24 MiB for the loop's trace and its output
    start, _, _ = peak_of("run", str(ROOT / "tests" / "scenarios" / "digimon" / "triggered-01.yaml"), where=tmp_path)
    bound = int(start) + 24
    peak, written, stderr = peak_of(*args, str(scenario), "--max-memory", f"{bound}M", where=tmp_path)
    assert "memory limit reached" in written, stderr
    assert "Traceback" not in stderr
    # the work stops at the bound (less what it keeps for the output); the output is written within it:
    # past it by no more than what is made between two readings of the memory in use (the tree took 24 MiB more)
    assert peak < bound + 2, f"peak {peak:.1f} MiB against a bound of {bound} MiB: {written[-300:]} {stderr[-600:]}"


def test_a_library_user_is_warned_of_a_bad_max_bytes_setting() -> None:
    """Issue 37 item 34: the library does not stop at import on a bad
    ``TCGTRIG_MAX_BYTES`` (the command line refuses it), but says so and
    keeps the default limit."""
    code = "import tcgtrig.scenario.source as s; print(s.MAX_BYTES == 100 * 1024 * 1024)"
    env = {**os.environ, "TCGTRIG_MAX_BYTES": "lots"}  # read at import: a fresh process
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "True"
    assert "TCGTRIG_MAX_BYTES: 'lots' is not a number of bytes" in done.stderr
    assert "the default limit of 104,857,600 bytes applies" in done.stderr


def test_the_page_stops_drawing_where_the_bound_is_reached(monkeypatch):
    """Issue 37 item 34, ``compare --html``: the page reads the memory in
    use as it draws each column and every few hundred effects; once the
    bound is reached, the rest is a note saying so, not drawn."""
    from tcgtrig.tools import compare_html

    scenario = tcgtrig.scenario_from_text(LOOP)
    results = {game: tcgtrig.resolve(scenario, game, max_steps=5_000) for game in ("digimon", "duelmasters")}
    readings = iter(range(100))  # within the bound for the first 2 readings, then past it
    monkeypatch.setattr(budget, "exceeded", lambda: "memory limit reached: (test)" if next(readings) >= 2 else None)
    page = compare_html.comparison_html("loop", results)
    # digimon's column is drawn (reading 1), its effects read the memory after 250 (2) and 500 (3: cut)
    assert page.count('class="effect"') == 2 * compare_html.MEMORY_EVERY
    assert "the rest is not drawn: memory limit reached: (test)" in page
    assert 'data-game="duelmasters"><h2>duelmasters</h2><p class="note">not drawn: memory limit reached' in page
