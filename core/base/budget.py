"""How much memory tcgtrig may use, and how much it uses now.

Every command works within one memory bound: a resolution, an exploration
or a play session that reaches it ends with a verdict (``memory limit
reached: …``; exit status 3 on the command line) instead of exhausting the
machine.  The bound is :data:`DEFAULT_MAX_MEMORY` (2 GiB), or
``--max-memory`` / the environment variable ``TCGTRIG_MAX_MEMORY``
(``512M``, ``4G``, a number of bytes, or ``none``), and never more than
80% of the process's address-space limit (``ulimit -v``, ``prlimit
--as``) when one is set: the verdict comes before a ``MemoryError``.

What is measured is the whole process (its resident size, and its
address space where that is limited), read from ``/proc/self/statm``:
about 10 µs a reading, so the loops read it every few thousand steps.
Where ``/proc`` is missing, the peak resident size stands in.

A worker process of ``explore --jobs N`` is measured by what it grew since
it started (:func:`count_from_here`): a forked process's resident size
counts the pages it still shares with its parent, so measuring it whole
would charge each worker for the parent again.  Where exactly a memory cut
falls therefore depends on the machine (its page size, its allocator, what
the parent held when the workers started); that it falls, with a verdict,
does not.

The bound holds to the last byte a command writes (issue 37 item 34): a
command that still has its output to make (the tree, the page) keeps part
of the bound for it (:func:`keep_for_output`), so the work stops that much
earlier; the output is then made within the whole bound, and cut with a
note where it would go past it (:func:`for_output`).
"""

from __future__ import annotations

import os
import re
import resource
import sys

__all__ = [
    "DEFAULT_MAX_MEMORY",
    "parse_size",
    "describe_size",
    "set_max_memory",
    "max_memory",
    "limit",
    "usage",
    "exceeded",
    "count_from_here",
    "keep_for_output",
    "for_output",
    "OUTPUT_SHARE",
    "OUTPUT_RESERVE_MAX",
]

#: The default bound on the memory a command uses.
DEFAULT_MAX_MEMORY = 2 * 1024**3
#: The share of an address-space limit (``ulimit -v``) the bound stays under.
ADDRESS_SPACE_SHARE = 0.8

_UNITS = {
    "": 1,
    "B": 1,
    "K": 1024,
    "KB": 1024,
    "KIB": 1024,
    "M": 1024**2,
    "MB": 1024**2,
    "MIB": 1024**2,
    "G": 1024**3,
    "GB": 1024**3,
    "GIB": 1024**3,
    "T": 1024**4,
    "TB": 1024**4,
    "TIB": 1024**4,
}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*")
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def parse_size(text: str) -> int | None:
    """``"512M"`` → 536870912; ``"none"`` → ``None`` (no bound).

    :raises ValueError: not a size (the message lists the forms accepted).
    """
    if text.strip().lower() in ("none", "off", "unlimited"):
        return None
    match = _SIZE.fullmatch(text.replace("_", ""))
    unit = match.group(2).upper() if match else ""
    if match is None or unit not in _UNITS:
        raise ValueError(
            f"{text!r} is not a size: expected a number of bytes with an optional unit (K, M, G, T: 512M, 2G) or 'none'"
        )
    size = int(float(match.group(1)) * _UNITS[unit])
    if size <= 0:
        raise ValueError(f"{text!r} is not a size: it must be more than 0 bytes")
    return size


def describe_size(size: int) -> str:
    """``2147483648`` → ``2.0 GiB``."""
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} B"


def _from_environment() -> int | None:
    text = os.environ.get("TCGTRIG_MAX_MEMORY", "").strip()
    if not text:
        return DEFAULT_MAX_MEMORY
    try:
        return parse_size(text)
    except ValueError:
        return DEFAULT_MAX_MEMORY  # a bad setting must not switch the bound off


_max_memory: int | None = _from_environment()
#: the resident size not counted against the bound (see :func:`count_from_here`)
_baseline = 0
#: The share of the room a command has left (the bound less what it uses at
#: its start) kept for writing its output while it works, and the most kept.
OUTPUT_SHARE = 0.25
OUTPUT_RESERVE_MAX = 64 * 1024**2
#: bytes of the bound the work may not use: kept for the output (see :func:`keep_for_output`)
_reserve = 0


def keep_for_output(share: float = OUTPUT_SHARE) -> None:
    """Keep part of the bound for the output this process writes once the
    work is done (``share`` of the room left now, at most
    :data:`OUTPUT_RESERVE_MAX`): until :func:`for_output`, :func:`exceeded`
    says the bound is reached that much earlier.  A command whose work is
    several resolutions side by side (``compare``) keeps a larger share:
    each resolution may pass the bound by what it makes before it first
    reads the memory."""
    global _reserve
    _reserve = 0
    if _max_memory is not None:
        room = max(_max_memory - (usage()[0] - _baseline), 0)
        _reserve = min(int(room * share), OUTPUT_RESERVE_MAX)


def for_output() -> None:
    """The work is done: the output may use the whole bound."""
    global _reserve
    _reserve = 0


def set_max_memory(size: int | None) -> None:
    """Set the bound for this process (``None``: no bound of tcgtrig's own;
    an address-space limit still counts).  Nothing of it is kept for the
    output until :func:`keep_for_output` says so again."""
    global _max_memory, _reserve
    _max_memory = size
    _reserve = 0


def count_from_here() -> None:
    """From now on, count only the resident memory this process gains
    against the bound: what it holds now (pages a forked worker shares with
    its parent) is the parent's, already counted there.  An address-space
    limit is per process and still counts whole.  What its parent keeps
    for its output is not the worker's to keep: the share it is given is
    its own, whole."""
    global _baseline, _reserve
    _baseline = usage()[0]
    _reserve = 0


def max_memory() -> int | None:
    """The bound as set (``--max-memory``, ``TCGTRIG_MAX_MEMORY`` or the
    default), before an address-space limit is taken into account."""
    return _max_memory


def _address_space_limit() -> int | None:
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ValueError, OSError, AttributeError):  # pragma: no cover - no such limit here
        return None
    return None if soft == resource.RLIM_INFINITY or soft <= 0 else soft


def limit() -> tuple[int | None, int | None]:
    """``(resident, address space)``: the two bounds checked, in bytes
    (``None``: not bounded); the resident one less what is kept for the
    output while the work goes on (:func:`keep_for_output`)."""
    space = _address_space_limit()
    resident = _max_memory - _reserve if _max_memory is not None else None
    return resident, (int(space * ADDRESS_SPACE_SHARE) if space is not None else None)


def usage() -> tuple[int, int | None]:
    """``(resident, address space)`` of this process now, in bytes (the
    address space is ``None`` where it cannot be read)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            fields = statm.read().split()
        return int(fields[1]) * _PAGE, int(fields[0]) * _PAGE
    except (OSError, IndexError, ValueError):  # pragma: no cover - not Linux
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return (peak if sys.platform == "darwin" else peak * 1024), None


def exceeded() -> str | None:
    """``None`` while this process is within the bound; else the verdict,
    saying what was in use, what the bound is and how to raise it."""
    resident_limit, space_limit = limit()
    if resident_limit is None and space_limit is None:
        return None
    resident, space = usage()
    if resident_limit is not None and resident - _baseline >= resident_limit:
        bound = describe_size(resident_limit + _reserve)
        if _reserve:
            bound += f", less {describe_size(_reserve)} kept for writing the output"
        if _baseline:
            return (
                f"memory limit reached: a worker process grew by {describe_size(resident - _baseline)}, "
                f"its share of the bound is {bound} (--max-memory or TCGTRIG_MAX_MEMORY raises it)"
            )
        return (
            f"memory limit reached: {describe_size(resident)} in use, the bound is "
            f"{bound} (--max-memory or TCGTRIG_MAX_MEMORY raises it)"
        )
    if space_limit is not None and space is not None and space >= space_limit:
        return (
            f"memory limit reached: {describe_size(space)} of address space in use, the bound is "
            f"{describe_size(space_limit)} (80% of this process's address-space limit, ulimit -v)"
        )
    return None
