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
  ends; what it prints is dropped (``sys.stdout`` and ``sys.stderr`` are
  then wrapped in a stream that drops the writes of the threads left
  behind).  Its module is never imported again in that process (the
  import would wait on it forever).

The cost is one thread per guarded call (about 0.1 ms).
"""

from __future__ import annotations

import io
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from ..base.errors import PluginError, TcgTrigError

__all__ = ["DEFAULT_TIMEOUT", "NOT_THE_PLUGINS", "TIMEOUT_VARIABLE", "guarded", "printed", "timeout"]

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


#: The threads left behind (by ident), still running
_left_behind: set[int] = set()
#: held while a worker finishes and while the caller decides it was left behind
_leaving = threading.Lock()


class _Silenced:
    """A stream that passes everything on to ``stream``, except what the
    threads left behind write: a plugin that never returned must not
    print into the output (``games --json``)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if threading.get_ident() in _left_behind:
            return len(text)
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _silenced(stream: Any) -> Any:
    return stream if stream is None or isinstance(stream, _Silenced) else _Silenced(stream)


def guarded(name: str, work: Callable[[], T], *, what: str) -> T:
    """Run plugin ``name``'s load-time code ``work`` (``what`` says what it
    does: "importing") in a worker thread with a deadline, its printing
    kept off the output.  Inside a guarded call, ``work`` just runs: the
    outer call's deadline and capture cover it.

    :raises PluginError: ``work`` raised, or did not finish in time.
    """
    if getattr(_worker, "active", False):
        return work()
    limit = timeout()
    outcome: dict[str, Any] = {}

    def run() -> None:
        _worker.active = True
        try:
            outcome["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - whatever plugin code raises is its failure
            outcome["error"] = exc
        finally:
            with _leaving:
                outcome["done"] = True
                _left_behind.discard(threading.get_ident())  # the ident may be given to another thread

    kept = _Kept()
    thread = threading.Thread(target=run, name=f"tcgtrig: {what} {name}", daemon=True)
    streams = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = kept  # set here, not in the worker: it may never leave
    try:
        thread.start()
        thread.join(limit)
    finally:
        with _leaving:  # the worker may be finishing now: it is left behind only if it has not
            left = "done" not in outcome and thread.ident is not None
            if left:  # what it prints from now on is dropped
                _left_behind.add(thread.ident)  # type: ignore[arg-type]
        if left:
            streams = _silenced(streams[0]), _silenced(streams[1])
        sys.stdout, sys.stderr = streams
    if kept.size:
        _printed[name] = (_printed.get(name, "") + kept.text())[:MAX_PRINTED]
    if left:
        raise PluginError(
            name,
            f"did not finish {what} in {limit:g} s (a plugin that never returns?); {TIMEOUT_VARIABLE} sets the limit",
        )
    error = outcome.get("error")
    if error is None:
        return outcome["value"]
    if isinstance(error, (TcgTrigError, MemoryError)):
        raise error  # already names the plugin; out of memory is the budget's verdict, not the plugin's fault
    raise PluginError(name, f"{what} raised {type(error).__name__}: {error}") from error
