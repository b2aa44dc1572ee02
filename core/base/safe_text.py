"""Strings from a scenario file made safe to show on a terminal.

A name, a title or a note can hold characters a terminal acts on instead
of showing: YAML ``"\\e]0;title\\a"`` or JSON ``"\\u001b[2J"`` (escape
sequences: a window title, a screen clear, an OSC 8 link), a carriage
return that overwrites the line, a bidi control (U+202E) that shows
text reversed, or a character that shows nothing (a zero-width space
U+200B, a tag character U+E0041) that makes one name pass for another.  Every string a command prints goes through
:func:`escape_controls`: those characters are shown escaped, ``\\x1b``,
``\\u202e``, as Python writes them.  The JSON output keeps the data and
writes them as ``\\uXXXX`` escapes (:mod:`tcgtrig.base.jsontext`).

Text output also shortens very long names (:class:`Shown`): a card id of
100 KB in a loop of thousands of steps would otherwise print gigabytes.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

__all__ = [
    "UNSAFE",
    "UNSAFE_IN_JSON",
    "NAME_LIMIT",
    "SENTENCE_LIMIT",
    "escape_controls",
    "Shown",
    "SafeStream",
    "SHORTENED_NOTE",
]

#: C0 and C1 control characters, DEL, line and paragraph separators, the
#: bidi controls (embeddings, overrides, isolates, marks), and the characters
#: that show nothing (issue 37 item 35): Unicode's default-ignorable ones —
#: zero-width space, joiners and non-joiners, word joiner, invisible
#: operators, soft hyphen, zero-width no-break space, Hangul fillers, the tag
#: characters U+E0000-U+E0FFF, … — but for the variation selectors, which
#: choose how a visible character is drawn (an emoji's colour form).
#: ``"Goblin\u200b"`` looks like ``"Goblin"`` and a tag run can hide a text:
#: shown raw, a name could pass for another one.
_INVISIBLE = (
    "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200d\u2060-\u2065\u206a-\u206f\u3164"
    "\ufeff\uffa0\ufff0-\ufffb\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e00ff"
    "\U000e01f0-\U000e0fff"
)
_OTHERS = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069" + _INVISIBLE
UNSAFE = "\x00-\x1f" + _OTHERS
#: What JSON text may hold raw but a terminal acts on (JSON escapes C0 itself).
UNSAFE_IN_JSON = _OTHERS
_UNSAFE = re.compile(f"[{UNSAFE}]")
_UNSAFE_BUT_LINES = re.compile(f"[\x00-\x09\x0b-\x1f{_OTHERS}]")  # a line break stays one
#: Characters of a name (a card id, a card's name, a zone) shown at most.
NAME_LIMIT = 80
#: Characters of a sentence (a title, a reason, a game's details) shown at most,
#: once each name in it is shortened: the engine's own reasons are far shorter.
SENTENCE_LIMIT = 2_000
SHORTENED_NOTE = (
    f"names longer than {NAME_LIMIT} characters (and texts longer than {SENTENCE_LIMIT:,}) are "
    "shortened with … (--json gives them whole)"
)
_LONG_WORD = re.compile(rf"\S{{{NAME_LIMIT + 1},}}")


def _escaped(match: re.Match[str]) -> str:
    """As Python writes the character (``\\x1b``, ``\\u200b``); a filler that
    Python deems printable (U+3164) as its ``\\u`` escape too."""
    char = match.group()
    shown = repr(char)[1:-1]
    if shown != char:
        return shown
    return f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}"


def escape_controls(text: str, lines: bool = False) -> str:
    """``text`` with every control, bidi and invisible character shown
    escaped (``\\x1b``, ``\\n``, ``\\u202e``, ``\\u200b``); other text, any
    script, unchanged.
    With ``lines``, a line break stays a line break."""
    unsafe = _UNSAFE_BUT_LINES if lines else _UNSAFE
    if unsafe.search(text) is None:
        return text
    return unsafe.sub(_escaped, text)


class Shown:
    """Turns values into text safe to print: shortened, then escaped; and
    remembers whether it shortened any (for a note saying so)."""

    def __init__(self) -> None:
        self.shortened = False

    def __call__(self, value: Any, limit: int = NAME_LIMIT, lines: bool = False) -> str:
        text = value if type(value) is str else str(value)
        if len(text) > limit:
            self.shortened = True
            text = text[: limit - 1] + "…"
        return escape_controls(text, lines)

    def sentence(self, value: Any, lines: bool = False) -> str:
        """A sentence (a reason, a title) safe to print: every name in it
        (a run of characters without a space) longer than
        :data:`NAME_LIMIT` shortened, the sentence itself kept whole up to
        :data:`SENTENCE_LIMIT` characters, then escaped.  With ``lines``
        (a file's ``source`` or ``notes``: paragraphs), a line break stays
        a line break."""
        text = value if type(value) is str else str(value)
        if len(text) > NAME_LIMIT and _LONG_WORD.search(text) is not None:
            self.shortened = True
            text = _LONG_WORD.sub(lambda word: word.group()[: NAME_LIMIT - 1] + "…", text)
        return self(text, SENTENCE_LIMIT, lines)


class SafeStream:
    """A text stream that writes control and bidi characters escaped (a
    line break stays a line break): the command line's standard output and
    error, so that nothing a command echoes acts on the terminal.

    Everything else — ``isatty``, ``encoding``, ``flush``, the binary
    ``buffer`` — is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        if type(text) is str and _UNSAFE_BUT_LINES.search(text) is not None:
            self.stream.write(_UNSAFE_BUT_LINES.sub(_escaped, text))
        else:
            self.stream.write(text)
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
