"""A guarded call's worker thread is kept for the next call (issue 40 item
3: a thread started and woken for each of the five games was 4 ms of
``tcgtrig games`` on a loaded machine), never one that was left behind,
and never one a forked child does not have."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
from tcgtrig.games import guard


def where() -> int:
    return threading.get_ident()


def test_a_worker_that_finished_serves_the_next_call():
    first = guard.guarded("one", where, what="loading")
    second = guard.guarded("two", where, what="loading")
    assert first == second != threading.get_ident()
    assert guard.guarded("nested", lambda: guard.guarded("inner", where, what="loading"), what="loading") == first


def test_a_worker_left_behind_serves_no_other_call(monkeypatch):
    guard.guarded("warm", where, what="loading")  # a worker is kept
    release = threading.Event()
    seen: list[int] = []

    def hang() -> None:
        seen.append(threading.get_ident())
        release.wait(10)

    monkeypatch.setenv(guard.TIMEOUT_VARIABLE, "0.2")
    with pytest.raises(guard.Unfinished, match="did not finish loading"):
        guard.guarded("stuck", hang, what="loading")
    monkeypatch.delenv(guard.TIMEOUT_VARIABLE)
    try:
        assert guard.guarded("next", where, what="loading") != seen[0]
    finally:
        release.set()
    left = next(thread for thread in threading.enumerate() if thread.ident == seen[0])
    left.join(5)
    assert not left.is_alive()  # it ends once its work does


def test_calls_at_once_get_workers_of_their_own():
    both = threading.Barrier(2, timeout=5)
    found: list[int] = []

    def meet() -> int:
        both.wait()  # each waits for the other: they run at the same time, in two workers
        return threading.get_ident()

    other = threading.Thread(target=lambda: found.append(guard.guarded("a", meet, what="loading")))
    other.start()
    found.append(guard.guarded("b", meet, what="loading"))
    other.join(5)
    assert len(set(found)) == 2


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="fork")
def test_a_forked_child_starts_its_own_worker():
    code = (
        "import os, sys\n"
        "from tcgtrig.games import guard\n"
        "guard.guarded('parent', lambda: None, what='loading')\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    print(guard.guarded('child', lambda: 'child ok', what='loading'), flush=True)\n"
        "    os._exit(0)\n"
        "os.waitpid(pid, 0)\n"
    )
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=30,
        env={**__import__("os").environ, guard.TIMEOUT_VARIABLE: "5"},
    )
    assert done.stdout.strip() == "child ok", done.stderr
    assert time.monotonic() - began < 5  # it did not wait for a worker the child does not have
