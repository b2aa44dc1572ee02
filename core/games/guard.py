"""Loading a game plugin so that a broken one breaks only its own game.

A plugin's load-time code — its import, the hooks a ruleset asks once
(game info, words, variants) — runs through :func:`guarded`:

- whatever it raises, ``SystemExit`` and other ``BaseException`` included,
  becomes a :class:`PluginError` naming the plugin (the user's Ctrl-C
  still stops the program: it arrives in the waiting thread);
- what it prints is kept off the output (``games --json`` stays JSON) and
  kept for ``tcgtrig games`` to show (:func:`printed`);
- it gets :func:`timeout` seconds (``TCGTRIG_PLUGIN_TIMEOUT``, default
  10): the code runs in a daemon thread the caller waits for, and one that
  does not finish by then is left behind and reported.  Python cannot stop
  a thread: an abandoned one may go on using the CPU until the program
  ends; what it prints is dropped.  Its module is never imported again
  in that process (the import would wait on it forever), and a game whose
  loading did not finish is not loaded again either (each try would wait
  the whole time again).

Printing is kept apart thread by thread, never by swapping the streams
for everyone: while any guarded call runs, ``sys.stdout`` and
``sys.stderr`` are routers (:class:`_Router`) that send each worker's
writes to its own capture and every other thread's where they always go;
they are taken away again when the last guarded call ends (unless a
thread left behind must be kept quiet).  So several threads may load
games at once.

A worker thread that finished in time is kept for the next guarded call
(issue 40 item 3: starting a thread for each of the five games, and waking
it, was 4 ms of ``tcgtrig games`` on a loaded machine); one left behind is
never given another call, and a call made while every kept worker is busy
(another thread loading a game at once) gets a new one.  A child process
made by ``fork`` starts with none kept.
"""

from __future__ import annotations

import contextlib
import io
import os
import queue
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ..base.errors import PluginError, TcgTrigError

__all__ = [
    "DEFAULT_TIMEOUT",
    "NOT_THE_PLUGINS",
    "TIMEOUT_VARIABLE",
    "Unfinished",
    "guarded",
    "is_left_behind",
    "printed",
    "prints_to_stderr",
    "timeout",
    "unrouted",
]

T = TypeVar("T")

#: Seconds a plugin's load-time code may take before it counts as hung.
DEFAULT_TIMEOUT = 10.0
#: The environment variable that sets it.
TIMEOUT_VARIABLE = "TCGTRIG_PLUGIN_TIMEOUT"
#: What plugin code may raise that is not its failure: the user's Ctrl-C,
#: and running out of memory (the budget's verdict, exit 3).  Everything
#: else it raises, ``SystemExit`` included, is the plugin's failure.
NOT_THE_PLUGINS = (KeyboardInterrupt, MemoryError)
#: The most a plugin's printing kept for ``tcgtrig games`` (characters).
MAX_PRINTED = 2000

_worker = threading.local()
#: What each plugin printed while loading, by plugin name.
_printed: dict[str, str] = {}


def timeout() -> float:
    """The seconds a plugin's load-time code gets (``TCGTRIG_PLUGIN_TIMEOUT``)."""
    raw = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    if not raw:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(raw)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds < 1e6:
        raise TcgTrigError(
            f"{TIMEOUT_VARIABLE}={raw!r}: expected a number of seconds above 0 (default {DEFAULT_TIMEOUT:g})"
        )
    return seconds


def printed(name: str) -> str:
    """What plugin ``name`` printed while loading in this process (kept off the output)."""
    return _printed.get(name, "")


class _Kept(io.TextIOBase):
    """A stream that keeps the first :data:`MAX_PRINTED` characters written to it."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.size < MAX_PRINTED:
            self.parts.append(str(text)[: MAX_PRINTED - self.size])
            self.size += len(self.parts[-1])
        return len(text)

    def text(self) -> str:
        return "".join(self.parts)


#: Where each thread's printing goes while it is routed (by thread ident):
#: what it writes to ``sys.stdout`` and to ``sys.stderr``, each to a
#: stream, or dropped (``None``).  The threads left behind are here too,
#: every write dropped.  Every other thread prints as it would.
_routes: dict[int, tuple[Any, Any]] = {}
#: The threads left behind (by ident), still running
_left_behind: set[int] = set()
#: held while a worker finishes and while the caller decides it was left
#: behind, and while the routers are put in place or taken away
_leaving = threading.RLock()
#: how many routed sections are under way (the routers stay while any is)
_routing = 0


class _Router:
    """``sys.stdout`` or ``sys.stderr`` (``which``: 0 or 1) while some
    thread's printing is routed: each thread's writes go where its route
    says, and every other thread's to the stream this one stands for.  No
    thread sees another's printing go astray (issue 37 item 27: swapping
    the process-wide streams for a capture lost what other threads
    printed, and two threads loading at once left the capture in place)."""

    def __init__(self, stream: Any, which: int) -> None:
        self._stream = stream
        self._which = which

    def write(self, text: str) -> Any:
        route = _routes.get(threading.get_ident())
        if route is None:
            return self._stream.write(text)
        target = route[self._which]
        return len(text) if target is None else target.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def unrouted(stream: Any) -> Any:
    """The stream a routed ``sys.stdout`` or ``sys.stderr`` stands for (``stream`` itself otherwise)."""
    return stream._stream if isinstance(stream, _Router) else stream


def _route(ident: int, out: Any, err: Any) -> None:
    """From now on thread ``ident`` prints to ``out`` and ``err`` (see :data:`_routes`)."""
    with _leaving:
        _routes[ident] = (out, err)


def _begin_routing() -> None:
    """Put the routers in place (if they are not) for one more routed section."""
    global _routing
    with _leaving:
        _routing += 1
        if not isinstance(sys.stdout, _Router):
            sys.stdout = _Router(sys.stdout, 0)
        if not isinstance(sys.stderr, _Router):
            sys.stderr = _Router(sys.stderr, 1)


def _end_routing() -> None:
    """One routed section less: when none is left, and no thread left
    behind must be kept quiet, the streams are the program's own again."""
    global _routing
    with _leaving:
        _routing -= 1
        if _routing or _routes:
            return
        sys.stdout, sys.stderr = unrouted(sys.stdout), unrouted(sys.stderr)


@contextlib.contextmanager
def prints_to_stderr() -> Iterator[None]:
    """While it lasts, what this thread prints to standard output goes to
    standard error (what plugin code called now prints must not reach a
    JSON output: ``run --json``); other threads print as they would."""
    ident = threading.get_ident()
    if ident in _routes:
        yield  # inside a guarded call: its capture already keeps the output clean
        return
    _begin_routing()
    try:
        _route(ident, unrouted(sys.stderr), unrouted(sys.stderr))
        yield
    finally:
        with _leaving:
            _routes.pop(ident, None)
            _end_routing()


class _Worker:
    """A daemon thread that runs guarded calls' work, one after another,
    until it is given ``None`` (its caller stopped waiting for it)."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="tcgtrig: loading", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        _worker.active = True
        while (job := self.jobs.get()) is not None:
            job()


#: Workers waiting for a guarded call (see the module's docstring)
_idle: list[_Worker] = []


def _a_worker(name: str, what: str) -> _Worker:
    """A kept worker if one is idle, else a new one, named after the call."""
    with _leaving:
        worker = _idle.pop() if _idle else None
    if worker is None:
        worker = _Worker()
    worker.thread.name = f"tcgtrig: {what} {name}"
    return worker


if hasattr(os, "register_at_fork"):  # a forked child has the list but not the threads
    os.register_at_fork(after_in_child=_idle.clear)


def guarded(name: str, work: Callable[[], T], *, what: str) -> T:
    """Run plugin ``name``'s load-time code ``work`` (``what`` says what it
    does: "importing") in a worker thread with a deadline, its printing
    kept off the output.  Inside a guarded call, ``work`` just runs: the
    outer call's deadline and capture cover it.  Any number of threads may
    call it at once: each worker's printing is kept apart, and other
    threads print as they would (:class:`_Router`).

    :raises PluginError: ``work`` raised, or did not finish in time.
    """
    if getattr(_worker, "active", False):
        return work()
    limit = timeout()
    outcome: dict[str, Any] = {}
    kept = _Kept()
    finished = threading.Lock()
    finished.acquire()

    def run() -> None:
        _route(threading.get_ident(), kept, kept)
        try:
            outcome["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - whatever plugin code raises is its failure
            outcome["error"] = exc
        finally:
            with _leaving:
                outcome["done"] = True
                ident = threading.get_ident()
                _left_behind.discard(ident)
                _routes.pop(ident, None)
            finished.release()

    worker = _a_worker(name, what)
    _begin_routing()  # here, not in the worker: it may never leave
    try:
        worker.jobs.put(run)
        finished.acquire(True, limit)
    finally:
        with _leaving:  # the worker may be finishing now: it is left behind only if it has not
            left = "done" not in outcome and worker.thread.ident is not None
            if left:  # what it prints from now on is dropped; it serves no other call
                _left_behind.add(worker.thread.ident)  # type: ignore[arg-type]
                _routes[worker.thread.ident] = (None, None)  # type: ignore[index]
                worker.jobs.put(None)
            else:
                _idle.append(worker)
            _end_routing()
    if kept.size:
        with _leaving:
            _printed[name] = (_printed.get(name, "") + kept.text())[:MAX_PRINTED]
    if left:
        raise Unfinished(
            name,
            f"did not finish {what} in {limit:g} s (a plugin that never returns?); {TIMEOUT_VARIABLE} sets the limit",
        )
    error = outcome.get("error")
    if error is None:
        return outcome["value"]
    if isinstance(error, (TcgTrigError, MemoryError)):
        raise error  # already names the plugin; out of memory is the budget's verdict, not the plugin's fault
    raise PluginError(name, f"{what} raised {type(error).__name__}: {error}") from error


class Unfinished(PluginError):
    """A guarded call's plugin code did not finish in time (it was left behind)."""


def is_left_behind(thread: threading.Thread) -> bool:
    """Whether ``thread`` is a worker a guarded call stopped waiting for."""
    return thread.ident in _left_behind
