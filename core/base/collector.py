"""The cyclic garbage collector while a resolution runs.

Resolving allocates several objects per effect and keeps some of them (the
trace grows by four or five steps per effect).  With CPython's default
thresholds a young collection runs every 700 allocations and an old one
each time the survivors grow by a quarter, walking the ever-growing trace
again and again: 5–10% of the time of a 100,000-effect resolution and
more as it grows, for nothing —
the engine makes no reference cycles (``tests/core/test_collector.py``
checks that resolving every bundled scenario leaves no cyclic garbage), so
everything it drops is freed by reference counting alone.

Once a :meth:`~tcgtrig.runtime.machine.Machine.advance` has run a while
(the loop guard's first reading of the memory, at most 2,048 steps in),
the collector is held back for the rest of it rather than switched off:
the young generation is collected every 50,000 allocations instead of 700,
and the old ones almost never.  A short advance — one between two
decisions — leaves the thresholds alone: switching them at every decision
cost more than it saved (issue 26: 8k instructions per decision).  A plugin
that does make cycles still has them collected, just later.  The thresholds
are process-wide, so they are set on the outermost entry only (nested or
concurrent resolutions share it) and restored when the last one leaves.

A command of the command line holds the collector back for all of its run
(issue 40 item 3): its start-up imports modules and builds classes, objects
that live until the process ends, and the default thresholds walked them
again and again (5–9 ms of ``tcgtrig run``).  At its end
(:func:`frozen_at_exit`) what is still alive is frozen
(:func:`gc.freeze`) rather than walked once more by the collection the
interpreter makes as it exits (15–20 ms); Python does not promise to
finalize objects that are alive at exit, and the command line leaves none
that needs it (its files are closed by ``with``).
"""

from __future__ import annotations

import atexit
import gc
import threading

__all__ = ["frozen_at_exit", "held_back", "RESOLVING_THRESHOLDS"]

#: ``gc.set_threshold`` while resolving: young collections every 50,000
#: net allocations; the middle and old generations after 20 and 100 of
#: the one below.
RESOLVING_THRESHOLDS = (50_000, 20, 100)


class _HeldBack:
    """The context manager :func:`held_back` returns (one, shared): a plain
    class rather than a generator, entered and left by hand by a long
    :meth:`~tcgtrig.runtime.machine.Machine.advance`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        self.saved: tuple[int, ...] | None = None

    def __enter__(self) -> None:
        with self.lock:
            if self.depth == 0:
                current = gc.get_threshold()
                if current[0] and current[0] < RESOLVING_THRESHOLDS[0]:
                    self.saved = current
                    gc.set_threshold(*RESOLVING_THRESHOLDS)
            self.depth += 1

    def __exit__(self, *exc_info: object) -> None:
        with self.lock:
            self.depth -= 1
            if self.depth == 0 and self.saved is not None:
                gc.set_threshold(*self.saved)
                self.saved = None


_HELD_BACK = _HeldBack()


def held_back() -> _HeldBack:
    """Hold the collector back (:data:`RESOLVING_THRESHOLDS`) inside a
    ``with`` block; the thresholds in force before are restored afterwards,
    even if the resolution raises.  A collector a program switched off
    stays off, and thresholds a program set higher are left as they are."""
    return _HELD_BACK


_freezing = [False]


def frozen_at_exit() -> None:
    """At the interpreter's exit, freeze what is alive (:func:`gc.freeze`)
    before its last collection, which then has nothing to walk: for a
    process that ends when its work does (a command of the command line).
    Registered once however often it is called."""
    with _HELD_BACK.lock:
        if not _freezing[0]:
            _freezing[0] = True
            atexit.register(gc.freeze)
