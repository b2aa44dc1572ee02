"""The blow-ups of issue 22 as real processes under ``prlimit --as=2G``:
each ends with a clear verdict (exit status 3, or 0 where the rules end it),
never a traceback or a MemoryError.

- ``tests/hostile/fan-out-2.yaml``, ``fan-out-50.yaml``: every activation
  triggers 2 (50) more.  ``run --json`` grew ~155 KB a step (the default
  step limit projected ~39 GB); now the pile-up is seen within a few steps.
- a ping-pong between two cards with ids of 100 KB and 400 KB (files of
  200 KB and 800 KB, written here), running to the step limit: memory grew
  with name length × steps (3.2 GB, then a MemoryError); now it does not.

All the processes start at once (a module fixture) and get a generous
deadline, only so that a regression cannot hang the suite: no time is
asserted.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from helpers import run_processes
from test_long_names import LOOP

HOSTILE = Path(__file__).parent / "hostile"
#: the address-space limit the processes run under
LIMIT = "--as=2147483648"
#: seconds all the processes get together before they count as hung
DEADLINE = 300
PILED = "kept recurring while the pending effects only piled up"

pytestmark = [
    pytest.mark.skipif(shutil.which("prlimit") is None, reason="prlimit (util-linux) is not installed"),
    pytest.mark.slow,
]  # each blow-up runs to its bound in a child process

LONG_LOOP = (
    LOOP
    + """\
expect:
  digimon:
    outcome: draw
    counters: {{A: {{n: 125000}}}}  # a.go ran 125,000 times: the whole step limit, not a memory verdict before it
"""
)

#: the generated files: name → length of each card id
LONG = {"long-names-200k.yaml": 100_000, "long-names-800k.yaml": 400_000}

#: every process: an id → (arguments after ``tcgtrig``, the file, what goes to standard input)
ANSWERS = b"1\n" * 300
RUNS: dict[str, tuple[tuple[str, ...], str, bytes]] = {
    **{
        f"{verb}-{name}": (args, name, b"")
        for name in ("fan-out-2.yaml", "fan-out-50.yaml")
        for verb, args in (("run", ("run",)), ("json", ("run", "--json")))
    },
    **{
        f"json-{game}-fan-out-50.yaml": (("run", "--json", "-g", game), "fan-out-50.yaml", b"")
        for game in ("duelmasters", "yugioh")
    },
    "play-fan-out-50.yaml": (("play",), "fan-out-50.yaml", ANSWERS),
    # the whole step limit, with the output one line: the memory a step takes does not grow with the names
    **{f"check-{name}": (("check",), name, b"") for name in LONG},
    # the JSON trace names the effects in every step: its size does grow with the names, so a few steps
    **{f"json-{name}": (("run", "--json", "--max-steps", "20"), name, b"") for name in LONG},
    # the text tree of long names is shortened by another item of the issue: a short run
    "tree-long-names-200k.yaml": (("run", "--max-steps", "2000"), "long-names-200k.yaml", b""),
}


@pytest.fixture(scope="module")
def blowups(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int | None, str, str]]:
    """Each of :data:`RUNS` under ``prlimit``, all at once: its exit status
    (``None``: still running at the deadline, then killed), stdout and
    stderr (long outputs go to files)."""
    where = tmp_path_factory.mktemp("blowups")
    for name, length in LONG.items():
        (where / name).write_text(LONG_LOOP.format(a="a" * length, b="b" * length), encoding="utf-8")
    environ = {**os.environ, "COLUMNS": "250", "PYTHONIOENCODING": "utf-8"}
    environ.pop("TCGTRIG_MAX_MEMORY", None)  # the default bound, under the address-space limit
    commands = {
        run_id: (
            [
                "prlimit",
                LIMIT,
                sys.executable,
                "-m",
                "tcgtrig",
                *args,
                str(HOSTILE / name if (HOSTILE / name).exists() else where / name),
            ],
            stdin,
        )
        for run_id, (args, name, stdin) in RUNS.items()
    }
    return {
        run_id: (
            done.status,
            done.stdout if done.status is not None else "",
            done.stderr if done.status is not None else "",
        )
        for run_id, done in run_processes(commands, where, DEADLINE, env=environ).items()
    }


def result_of(blowups, run_id: str) -> tuple[int, str, str]:
    status, stdout, stderr = blowups[run_id]
    assert status is not None, f"tcgtrig {' '.join(RUNS[run_id][0])} {RUNS[run_id][1]} ran past {DEADLINE} s"
    assert "Traceback" not in stderr and "MemoryError" not in stderr, stderr[-3000:]
    assert "memory limit reached" not in stdout and "out of memory" not in stderr, (stdout[-2000:], stderr[-2000:])
    return status, stdout, stderr


@pytest.mark.parametrize("name", ["fan-out-2.yaml", "fan-out-50.yaml"])
def test_a_fan_out_ends_with_a_verdict_naming_the_effects(blowups, name):
    status, stdout, stderr = result_of(blowups, f"run-{name}")
    assert status == 3 and stderr == ""
    assert "endless loop: c0.go" in stdout and PILED in stdout


@pytest.mark.parametrize(
    "run_id",
    ["json-fan-out-2.yaml", "json-fan-out-50.yaml", "json-duelmasters-fan-out-50.yaml", "json-yugioh-fan-out-50.yaml"],
)
def test_a_fan_out_ends_with_a_verdict_in_the_json_trace(blowups, run_id):
    status, stdout, stderr = result_of(blowups, run_id)
    assert status == 3 and stderr == ""
    trace = json.loads(stdout)
    assert trace["outcome"] in ("loop", "draw") and trace["reason"].startswith("endless loop: c")
    assert PILED in trace["reason"]
    assert trace["steps"][-1]["kind"] == "ended"


def test_playing_a_fan_out_ends_with_the_verdict(blowups):
    status, stdout, _ = result_of(blowups, "play-fan-out-50.yaml")
    assert status in (0, 3)
    assert PILED in stdout


@pytest.mark.parametrize("name", list(LONG))
def test_long_names_run_to_the_step_limit_within_the_memory_bound(blowups, name):
    status, stdout, stderr = result_of(blowups, f"check-{name}")
    assert status == 0, stdout[-2000:]
    assert stdout.splitlines()[-1] == "1 passed, 0 failed"  # outcome: draw, at the step limit


@pytest.mark.parametrize("name", list(LONG))
def test_long_names_in_the_json_trace(blowups, name):
    status, stdout, stderr = result_of(blowups, f"json-{name}")
    assert status == 3 and stderr == ""
    trace = json.loads(stdout)
    assert trace["reason"].startswith("step limit reached: no end after 20 steps")
    assert trace["steps"][-1]["kind"] == "ended"


def test_long_names_in_the_text_tree(blowups):
    # the tree shortens names over 80 characters: its text does not grow with name length x steps
    status, stdout, stderr = result_of(blowups, "tree-long-names-200k.yaml")
    assert status == 3 and "step limit reached: no end after 2000 steps" in stdout
    assert len(stdout) < 2_000_000 and max(map(len, stdout.splitlines())) < 10_000
