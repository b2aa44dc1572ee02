"""Source the engine writes and compiles as it runs (the record makers of
:mod:`tcgtrig.model.records`, the hook callers of
:mod:`tcgtrig.games.ruleset`), registered with :mod:`linecache` as attrs
registers the methods it writes: a traceback through generated code then
shows its lines, under a file name that says what made them."""

from __future__ import annotations

import itertools
import linecache
from types import CodeType

__all__ = ["compile_generated"]

#: numbers that keep two different sources of the same name apart
_NUMBERS = itertools.count(2)


def compile_generated(source: str, what: str) -> CodeType:
    """``source`` compiled under the file name ``<tcgtrig generated
    WHAT>`` (numbered when another source already holds that name), its
    lines registered with :mod:`linecache` for tracebacks.

    >>> code = compile_generated("def f():\\n    return 1 / 0\\n", "example")
    >>> code.co_filename, linecache.getline(code.co_filename, 2).strip()
    ('<tcgtrig generated example>', 'return 1 / 0')
    """
    lines = source.splitlines(True)
    filename = f"<tcgtrig generated {what}>"
    while (held := linecache.cache.get(filename)) is not None and (len(held) == 1 or held[2] != lines):
        filename = f"<tcgtrig generated {what} #{next(_NUMBERS)}>"
    # no modification time: linecache.checkcache keeps the entry (there is no file to check)
    linecache.cache[filename] = (len(source), None, lines, filename)
    return compile(source, filename, "exec")
