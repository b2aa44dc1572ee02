"""Helpers for a game's words (``tcgtrig_action_aliases``).

Most of a game's words name one core action on some cards: ``destroy: X``
is a move to the graveyard, ``tap: X`` sets a flag.  Each word takes a
selector, or a mapping ``{card: selector}`` that may also carry the
modifiers every core action takes (``by``, ``label``).  These helpers build
such words, so every game reads its words' arguments the same way and
names the legal keys alike in its errors.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["MODIFIERS", "card_argument", "move_word", "flag_word", "closest"]

#: What may stand beside ``card`` in a word's mapping, as in core actions.
MODIFIERS = ("by", "label")

Word = Callable[[Any], dict[str, Any]]


def card_argument(arg: Any) -> tuple[Any, dict[str, Any]]:
    """A word's card selector and its modifiers: ``X`` or ``{card: X, by: battle}``.

    :raises ValueError: an unknown key, naming the legal ones.
    """
    if isinstance(arg, dict) and "card" in arg:
        extra = sorted(set(arg) - {"card", *MODIFIERS})
        if extra:
            raise ValueError(f"unknown key {extra[0]!r} (legal: card, {', '.join(MODIFIERS)})")
        return arg["card"], {key: arg[key] for key in MODIFIERS if key in arg}
    return arg, {}


def move_word(to: str, as_: str, **fixed: Any) -> Word:
    """A word that moves its cards to ``to`` as the event ``as_`` (``fixed``
    adds keys such as ``from`` or ``alone``)."""

    def expand(arg: Any) -> dict[str, Any]:
        card, modifiers = card_argument(arg)
        return {"move": {"card": card, "to": to, **fixed, "as": as_, **modifiers}}

    return expand


def flag_word(verb: str, flag: str, as_: str) -> Word:
    """A word that sets (``verb="set"``) or clears (``"clear"``) a flag."""

    def expand(arg: Any) -> dict[str, Any]:
        card, modifiers = card_argument(arg)
        return {"flag": {"card": card, verb: flag, "as": as_, **modifiers}}

    return expand


#: How close a name must be to be offered as a hint (``difflib``'s ratio).
CLOSE = 0.6
#: How much closer another name must be to be offered before one of the game's own.
OWN_FIRST = 0.1


def closest(name: str, known: Iterable[str], own: Iterable[str] = ()) -> str | None:
    """The known name closest to a misspelt ``name``, for a hint ("did you
    mean …?"), or ``None``.  The game's own names (``own``: its words, its
    events, the file's) are offered first: one of them is preferred unless
    another name is closer by more than ``OWN_FIRST`` (issue 37 item
    18: ``koed`` in a game whose word emits ``ko`` suggested the core's
    ``moved``, as close and first by name)."""
    ours = set(own)
    best: tuple[float, str] | None = None
    for candidate in sorted(known):
        matcher = difflib.SequenceMatcher(None, name, candidate)
        if matcher.real_quick_ratio() < CLOSE or matcher.quick_ratio() < CLOSE:
            continue
        ratio = matcher.ratio()
        if ratio < CLOSE:
            continue
        score = ratio + (OWN_FIRST if candidate in ours else 0.0)
        if best is None or score > best[0]:
            best = (score, candidate)
    return best[1] if best is not None else None
