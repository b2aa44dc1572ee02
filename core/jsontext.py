"""JSON text as ``json.dumps(value, indent=2, ensure_ascii=False)`` writes
it, quicker.

With ``indent``, the standard library encodes in pure Python, one
generator per nested value: on a trace of a million steps that takes most
of the run.  Traces hold only plain values (dicts, lists, strings,
numbers, booleans, null), so a direct writer using the C string encoder
gives the same bytes faster: a mapping of plain values (a trace step) is
encoded by the C encoder in one call, with the line break and indent as
its item separator.  Anything else is handed to :func:`json.dumps` whole.

JSON text is also printed to terminals, so besides the control characters
JSON always escapes (C0: ``\\u001b``), DEL, the C1 controls, the line and
paragraph separators and the bidi controls (U+202E) are written as
``\\uXXXX`` escapes (:func:`escape_unsafe`): the data is the same, the
text does nothing to a terminal.  Other characters, any script, are
written as they are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

__all__ = ["dumps", "escape_unsafe"]

#: What JSON may hold raw but a terminal acts on (JSON escapes C0 itself).
_UNSAFE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


class _Unusual(Exception):
    """A value the direct writer leaves to :mod:`json`."""


def dumps(value: Any, indent: int = 2) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=False)``, with the
    characters a terminal acts on escaped (:func:`escape_unsafe`)."""
    out: list[str] = []
    try:
        _write(value, out, "\n", " " * indent)
    except (_Unusual, RecursionError):
        return escape_unsafe(json.dumps(value, indent=indent, ensure_ascii=False))
    return escape_unsafe("".join(out))


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def escape_unsafe(text: str) -> str:
    """JSON text with DEL, C1 controls, line separators and bidi controls
    written as ``\\uXXXX``: outside strings JSON text has none of them, so
    this changes no value.  An ASCII text is checked at once."""
    if text.isascii():
        if "\x7f" not in text:
            return text
    elif _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_escape, text)


def _scalar(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    raise _Unusual


def _key(key: Any) -> str:
    if type(key) is str:
        return encode_basestring(key)
    if key is None or type(key) in (bool, int, float):
        return '"' + _scalar(key).strip('"') + '"'
    raise _Unusual


_PLAIN = frozenset({str, int, float, bool, type(None)})
#: by item separator: the C encoder writing one mapping of plain values
_FLAT: dict[str, Callable[[Any, int], Any]] = {}


def _flat(separator: str) -> Callable[[Any], str]:
    encode = _FLAT.get(separator)
    if encode is None:
        if c_make_encoder is None:  # no C accelerator: the library's own way
            encoder = json.JSONEncoder(ensure_ascii=False, separators=(separator, ": "))
            encode = _FLAT[separator] = lambda value, _: (encoder.encode(value),)
        else:
            encode = _FLAT[separator] = c_make_encoder(
                None, None, encode_basestring, None, ": ", separator, False, False, True)
    return lambda value: "".join(encode(value, 0))


def _write(value: Any, out: list[str], newline: str, step: str) -> None:
    kind = type(value)
    if kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + step
        if _is_flat(value):
            out.append("{" + inner + _flat("," + inner)(value)[1:-1] + newline + "}")
            return
        separator = "{" + inner
        for key, item in value.items():
            out.append(separator)
            out.append(_key(key))
            out.append(": ")
            _write(item, out, inner, step)
            separator = "," + inner
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + step
        separator = "[" + inner
        flat_run: list[dict] = []
        for item in value:
            if type(item) is dict and item and _is_flat(item):
                flat_run.append(item)
                continue
            if flat_run:
                out.append(separator)
                out.append(_flat_dicts(flat_run, inner, step))
                flat_run = []
                separator = "," + inner
            out.append(separator)
            _write(item, out, inner, step)
            separator = "," + inner
        if flat_run:
            out.append(separator)
            out.append(_flat_dicts(flat_run, inner, step))
        out.append(newline + "]")
    else:
        out.append(_scalar(value))


def _is_flat(mapping: dict) -> bool:
    """A non-empty mapping of words to plain values (a trace step, mostly)."""
    return set(map(type, mapping.values())) <= _PLAIN and set(map(type, mapping)) == {str}


def _flat_dicts(run: list[dict], newline: str, step: str) -> str:
    """Consecutive items of a list, each a flat mapping, at indent
    ``newline``: one call of the C encoder for the whole run.

    With ``",\n" + indent`` as its only item separator, the encoder writes
    every key of every mapping on a line of its own; a real line break
    never occurs inside an encoded string, so the only places where one
    mapping ends and the next begins are the ``},<separator>{`` between
    them, which are then given their own lines."""
    inner = newline + step
    text = _flat("," + inner)(run)
    return "{" + inner + text[2:-2].replace("}," + inner + "{", newline + "}," + newline + "{" + inner) + newline + "}"
