"""How large a scenario file may be, in a module of its own: the command
line shows the limit in its options' help without importing the reader
(:mod:`tcgtrig.scenario.source`, which re-exports both; issue 40 item 3)."""

from __future__ import annotations

import os
import warnings

__all__ = ["DEFAULT_MAX_BYTES", "parse_max_bytes"]


def parse_max_bytes(text: str) -> int | None:
    """``TCGTRIG_MAX_BYTES``'s value: a whole number of bytes, 1 or more
    (``_`` may group its digits); ``None`` when it is empty (not set).

    :raises ValueError: anything else (the command line refuses it, issue 37
        item 34; the library warns and keeps the default limit).
    """
    value = text.strip()
    digits = value.replace("_", "")
    if not value:
        return None
    if not (digits.isascii() and digits.isdigit()) or int(digits) <= 0 or "__" in value or value[0] == "_":
        raise ValueError(f"{text!r} is not a number of bytes: expected a whole number, 1 or more (50000000)")
    return int(digits)


#: Bytes a scenario file may have; ``--max-bytes`` (or the environment
#: variable ``TCGTRIG_MAX_BYTES``) raises it.  A 100,000-card file is about
#: 15 MB of JSON.
def _limit_from_environment(default: int = 100 * 1024 * 1024) -> int:
    try:
        return parse_max_bytes(os.environ.get("TCGTRIG_MAX_BYTES", "")) or default
    except ValueError as exc:  # the command line refuses it; a library user is told, not stopped at import
        warnings.warn(f"TCGTRIG_MAX_BYTES: {exc}; the default limit of {default:,} bytes applies", stacklevel=2)
        return default


DEFAULT_MAX_BYTES = _limit_from_environment()
