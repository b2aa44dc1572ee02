"""Helpers for a game's words (``tcgtrig_action_aliases``).

Most of a game's words name one core action on some cards: ``destroy: X``
is a move to the graveyard, ``tap: X`` sets a flag.  Each word takes a
selector, or a mapping ``{card: selector}`` that may also carry the
modifiers every core action takes (``by``, ``label``).  These helpers build
such words, so every game reads its words' arguments the same way and
names the legal keys alike in its errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["MODIFIERS", "card_argument", "move_word", "flag_word"]

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
