"""JSON text as ``json.dumps(value, indent=2, ensure_ascii=False)`` writes
it, quicker — whole (:func:`dumps`) or streamed in chunks (:func:`dump`).

With ``indent``, the standard library encodes in pure Python, one
generator per nested value: on a trace of a million steps that takes most
of the run.  Traces hold only plain values (dicts, lists, strings,
numbers, booleans, null), so a direct writer using the C string encoder
gives the same bytes faster: a mapping of plain values (a trace step) is
encoded by the C encoder in one call, with the line break and indent as
its item separator.  Anything else is handed to :func:`json.dumps`: the
whole value by :func:`dumps`, the list item or mapping entry it is in by
:func:`dump`, which has written what came before it already.

:func:`dump` holds at most about :data:`CHUNK` characters of text at a
time, and a list may be an :class:`Items` — made item by item as it is
written — so printing a trace of a million steps takes no more memory than
the trace itself.

JSON text is also printed to terminals, so besides the control characters
JSON always escapes (C0: ``\\u001b``), DEL, the C1 controls, the line and
paragraph separators, the bidi controls (U+202E) and the characters that
show nothing (U+200B, the tag characters U+E0000…: a pair of surrogate
escapes) are written as ``\\uXXXX`` escapes (:func:`escape_unsafe`): the data is the same, the
text does nothing to a terminal.  Other characters, any script, are
written as they are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

from .safe_text import UNSAFE_IN_JSON

__all__ = ["dumps", "dump", "escape_unsafe", "Items", "CHUNK"]

_UNSAFE = re.compile(f"[{UNSAFE_IN_JSON}]")

#: About how many characters :func:`dump` gathers before it writes them.
CHUNK = 1 << 16
#: Trace steps encoded in one call of the C encoder, at most, while streaming.
_RUN = 256


class Items:
    """A list whose items are made as they are written (a trace's steps as
    dicts): JSON text of it is that of ``list(make())``.  It can be
    iterated more than once."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Iterable[Any]]) -> None:
        self.make = make

    def __iter__(self) -> Iterator[Any]:
        return iter(self.make())

    def __repr__(self) -> str:
        return "Items(…)"


class _Unusual(Exception):
    """A value the direct writer leaves to :mod:`json`."""


def _plain(value: Any) -> Any:
    """For :func:`json.dumps`: an :class:`Items` is a list."""
    if type(value) is Items:
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _library(value: Any, indent: int) -> str:
    return json.dumps(value, indent=indent, ensure_ascii=False, default=_plain)


def dumps(value: Any, indent: int = 2) -> str:
    """``json.dumps(value, indent=indent, ensure_ascii=False)``, with the
    characters a terminal acts on escaped (:func:`escape_unsafe`)."""
    out: list[str] = []
    try:
        _write(value, out, "\n", " " * indent, None)
    except (_Unusual, RecursionError):
        return escape_unsafe(_library(value, indent))
    return escape_unsafe("".join(out))


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # beyond the first plane (a tag character): JSON writes the pair of surrogates
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escape_unsafe(text: str) -> str:
    """JSON text with DEL, C1 controls, line separators and bidi controls
    written as ``\\uXXXX``: outside strings JSON text has none of them, so
    this changes no value (and any piece of JSON text can be escaped on its
    own).  An ASCII text is checked at once."""
    if text.isascii():
        if "\x7f" not in text:
            return text
    elif _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_escape, text)


def dump(value: Any, write: Callable[[str], Any], indent: int = 2) -> None:
    """Write :func:`dumps`'s text of ``value`` through ``write``, in chunks
    of about :data:`CHUNK` characters: the same text, never whole in
    memory."""
    out: list[str] = []
    sink = _Sink(out, write)
    try:
        _write(value, out, "\n", " " * indent, sink)
    except RecursionError:
        if sink.written:
            raise
        out.clear()
        out.append(_library(value, indent))
    except _Unusual:  # a scalar at the top: nothing was written yet
        out.clear()
        out.append(_library(value, indent))
    sink.flush()


class _Sink:
    """Where :func:`dump` writes: the text gathered so far goes out when it
    has grown past :data:`CHUNK`, between two list items or mapping entries
    (so a value the direct writer cannot write is written again, by
    :mod:`json`, from the start of its item: see :func:`_unit`)."""

    __slots__ = ("out", "write", "written")

    def __init__(self, out: list[str], write: Callable[[str], Any]) -> None:
        self.out = out
        self.write = write
        self.written = False

    def between(self) -> None:
        """Between two units: write what was gathered, if it is enough."""
        out = self.out
        if len(out) >= 1024 or (out and len(out[-1]) >= CHUNK // 4):
            self.flush()

    def flush(self) -> None:
        if self.out:
            self.write(escape_unsafe("".join(self.out)))
            self.out.clear()
            self.written = True


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
                None, None, encode_basestring, None, ": ", separator, False, False, True
            )
    return lambda value: "".join(encode(value, 0))


def _write(value: Any, out: list[str], newline: str, step: str, sink: _Sink | None) -> None:
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
            if sink is None:
                out.append(_key(key))
                out.append(": ")
                _write(item, out, inner, step, sink)
            else:
                _unit(out, newline, step, sink, {key: item}, key, item)
            separator = "," + inner
        out.append(newline + "}")
    elif kind is list or kind is tuple or kind is Items:
        inner = newline + step
        separator = "[" + inner
        flat_run: list[dict] = []
        for item in value:
            if type(item) is dict and item and _is_flat(item):
                flat_run.append(item)
                if sink is None or len(flat_run) < _RUN:
                    continue
            if flat_run:
                out.append(separator)
                out.append(_flat_dicts(flat_run, inner, step))
                separator = "," + inner
                if sink is not None:
                    sink.between()
                if flat_run[-1] is item:
                    flat_run = []
                    continue  # the item ended a run long enough to write
                flat_run = []
            out.append(separator)
            if sink is None:
                _write(item, out, inner, step, sink)
            else:
                _unit(out, inner, step, sink, None, None, item)
            separator = "," + inner
        if flat_run:
            out.append(separator)
            out.append(_flat_dicts(flat_run, inner, step))
            separator = "," + inner
        out.append("[]" if separator == "[" + inner else newline + "]")
    else:
        out.append(_scalar(value))


def _unit(out: list[str], newline: str, step: str, sink: _Sink, entry: dict | None, key: Any, item: Any) -> None:
    """Stream one list item (``entry`` None; ``newline`` is its indent) or
    one mapping entry (``entry``: ``{key: item}``; ``newline`` is the
    mapping's indent); then, between units, the text may go out.  A value
    the direct writer cannot write is written by :mod:`json` instead, from
    the start of the unit: nothing of it went out yet."""
    mark = len(out)
    try:
        if entry is None:
            _write(item, out, newline, step, sink)
        else:
            out.append(_key(key))
            out.append(": ")
            _write(item, out, newline + step, step, sink)
    except _Unusual:
        if len(out) < mark:
            raise  # text of this unit went out already (a nested unit could not be rewritten): cannot happen
        del out[mark:]
        if entry is None:
            out.append(_library(item, len(step)).replace("\n", newline))
        else:
            whole = _library(entry, len(step))  # "{\n" + step + the entry + "\n}"
            out.append(whole[2 + len(step) : -2].replace("\n", newline))
    sink.between()


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
