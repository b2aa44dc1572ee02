"""The control actions: the words that steer a resolution rather than
change the game — ``if``, ``may``, ``together``, ``activate``, ``prevent``,
``negate``, ``win``, ``delay``, ``resolve_pending``, ``end_turn``/``pass_turn``
and ``mark``.

Each has one section here: how its words are read and written back.  How
it runs is the machine's own business (frames, windows, the end of the
game): :meth:`tcgtrig.runtime.performing.Performing.begin_action` looks its
method up by the action's class (``_BEGIN``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..model.values import (
    Action,
    Activate,
    Delay,
    Emit,
    If,
    Mark,
    May,
    Negate,
    PassTurn,
    Prevent,
    ResolvePending,
    Together,
    Win,
)
from .base import Reader, Writer, some

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

__all__ = ["CONTROLS", "ControlKind", "NEGATIONS", "NOT_AT_ONCE"]

#: what ``negate`` may negate: a chain link's activation, or its effect only
NEGATIONS = ("activation", "effect")

#: ``read(reader, word, arg, raw, path, depth, label=…, by=…, as_=…)``: the
#: actions the word means (``raw`` is the whole item, for ``then``/``else``)
ReadControl = Callable[..., list[Action]]


@frozen
class ControlKind:
    """One control action: its words, its model class, how it is read and
    written back, and whether it may stand in a ``together`` (only
    ``together`` itself may: the others do not happen at one moment)."""

    words: tuple[str, ...]
    model: type[Any]
    read: ReadControl
    write: Callable[[Any, Writer], dict[str, Any]]
    at_once: bool = False


def _no_event(reader: Reader, word: str, path: tuple[Any, ...], by: Any, as_: Any, why: str) -> None:
    if by is not None or as_ is not None:
        raise reader.error(path, f"'{word}' {why}")


# -- if ---------------------------------------------------------------------


def read_if(
    reader: Reader, word: str, arg: Any, raw: dict[str, Any], path: tuple[Any, ...], depth: int, **mods: Any
) -> list[Action]:
    at = path + (word,)
    then = reader.actions(raw.get("then") or [], path + ("then",), depth)
    other = reader.actions(raw.get("else") or [], path + ("else",), depth)
    return [If(condition=reader.condition(arg, at), then=then, else_=other, label=mods["label"])]


def write_if(action: If, writer: Writer) -> dict[str, Any]:
    return {
        "if": writer.condition(action.condition),
        "then": writer.actions(action.then),
        **({"else": writer.actions(action.else_)} if action.else_ else {}),
        **some(label=action.label),
    }


# -- may --------------------------------------------------------------------


def read_may(
    reader: Reader, word: str, arg: Any, raw: dict[str, Any], path: tuple[Any, ...], depth: int, **mods: Any
) -> list[Action]:
    then = reader.actions(arg or [], path + (word,), depth)
    other = reader.actions(raw.get("else") or [], path + ("else",), depth)
    return [May(then=then, else_=other, label=mods["label"])]


def write_may(action: May, writer: Writer) -> dict[str, Any]:
    return {
        "may": writer.actions(action.then),
        **({"else": writer.actions(action.else_)} if action.else_ else {}),
        **some(label=action.label),
    }


# -- together ---------------------------------------------------------------


def read_together(
    reader: Reader, word: str, arg: Any, raw: dict[str, Any], path: tuple[Any, ...], depth: int, **mods: Any
) -> list[Action]:
    at = path + (word,)
    members = reader.actions(arg, at, depth)
    for index, member in enumerate(members):
        if isinstance(member, NOT_AT_ONCE):
            raise reader.error(
                at + (index,),
                "'together' holds actions that happen at once "
                "(move, stack, draw, gain, lose, flag, change, emit, together); "
                "write the others one after another",
            )
    return [Together(actions=members, label=mods["label"])]


def write_together(action: Together, writer: Writer) -> dict[str, Any]:
    return {"together": writer.actions(action.actions), **some(label=action.label)}


# -- resolve_pending ----------------------------------------------------------


def read_resolve_pending(
    reader: Reader, word: str, arg: Any, raw: dict[str, Any], path: tuple[Any, ...], depth: int, **mods: Any
) -> list[Action]:
    at = path + (word,)
    if reader.context != "start":
        raise reader.error(
            at,
            "'resolve_pending' is a step boundary of the start actions: it works "
            "only in 'start' (an effect never lets others resolve in its middle)",
        )
    if arg not in (None, {}):
        raise reader.error(at, "expected {} (it takes no arguments)")
    return [ResolvePending(label=mods["label"])]


def write_resolve_pending(action: ResolvePending, writer: Writer) -> dict[str, Any]:
    return {"resolve_pending": {}, **some(label=action.label)}


# -- end_turn, pass_turn ----------------------------------------------------


def read_pass_turn(
    reader: Reader, word: str, arg: Any, raw: dict[str, Any], path: tuple[Any, ...], depth: int, **mods: Any
) -> list[Action]:
    """``pass_turn``: the next player's turn begins.  ``end_turn``: the
    turn's end (an ``end_of_turn`` event, what it triggers), then that."""
    at = path + (word,)
    if reader.context != "start":
        raise reader.error(at, f"'{word}' is a step of the turn: only the scenario's start can take it")
    if arg not in ({}, None):
        raise reader.error(at, f"'{word}' takes no arguments: write {{{word}: {{}}}}")
    if word == "pass_turn":
        return [PassTurn(label=mods["label"])]
    return [Emit(event="end_of_turn", player="turn_player", by="rule"), ResolvePending(), PassTurn(label=mods["label"])]


def write_pass_turn(action: PassTurn, writer: Writer) -> dict[str, Any]:
    return {"pass_turn": {}, **some(label=action.label)}


# -- mark -------------------------------------------------------------------


def read_mark(
    reader: Reader, word: str, arg: Any, raw: dict[str, Any], path: tuple[Any, ...], depth: int, **mods: Any
) -> list[Action]:
    at = path + (word,)
    if not isinstance(arg, dict):
        raise reader.error(at, f"expected {{set: NAME}} or {{clear: NAME}}, got {reader.describe(arg)}")
    _no_event(reader, word, path, mods["by"], mods["as_"], "makes no event, so it takes no 'by' or 'as'")
    reader.only(arg, at, ("set", "clear"))
    if ("set" in arg) == ("clear" in arg):
        raise reader.error(at, "expected exactly one of 'set' or 'clear'")
    which = "set" if "set" in arg else "clear"
    name = reader.text(arg[which], at + (which,))
    return [Mark(set_=name if which == "set" else None, clear=name if which == "clear" else None, label=mods["label"])]


def write_mark(action: Mark, writer: Writer) -> dict[str, Any]:
    return {
        "mark": {"set": action.set_} if action.set_ is not None else {"clear": action.clear},
        **some(label=action.label),
    }


# -- delay ------------------------------------------------------------------


def read_delay(
    reader: Reader, word: str, arg: Any, raw: dict[str, Any], path: tuple[Any, ...], depth: int, **mods: Any
) -> list[Action]:
    at = path + (word,)
    _no_event(reader, word, path, mods["by"], mods["as_"], "puts actions off: it takes no 'by' or 'as'")
    if not isinstance(arg, list) or not arg:
        raise reader.error(at, "expected a list of actions to do once the current resolution sequence is over")
    return [Delay(actions=reader.actions(arg, at, depth), label=mods["label"])]


def write_delay(action: Delay, writer: Writer) -> dict[str, Any]:
    return {"delay": writer.actions(action.actions), **some(label=action.label)}


# -- activate -----------------------------------------------------------------


def read_activate(
    reader: Reader, word: str, arg: Any, raw: dict[str, Any], path: tuple[Any, ...], depth: int, **mods: Any
) -> list[Action]:
    if not isinstance(arg, str) or arg not in reader.printed_keys:
        raise reader.error(
            path + (word,), f"unknown effect key {arg!r} (a printed ability)", sorted(reader.printed_keys)
        )
    return [Activate(key=arg, label=mods["label"])]


def write_activate(action: Activate, writer: Writer) -> dict[str, Any]:
    return {"activate": action.key, **some(label=action.label)}


# -- win --------------------------------------------------------------------


def read_win(
    reader: Reader, word: str, arg: Any, raw: dict[str, Any], path: tuple[Any, ...], depth: int, **mods: Any
) -> list[Action]:
    at, label = path + (word,), mods["label"]
    _no_event(reader, word, path, mods["by"], mods["as_"], "ends the game: it takes no 'by' or 'as'")
    if arg in (None, {}):
        return [Win(label=label)]
    if not isinstance(arg, dict):
        return [Win(player=reader.player(arg, at), label=label)]
    reader.only(arg, at, ("player", "reason"))
    reason = reader.line(arg["reason"], at + ("reason",)) if "reason" in arg else None
    return [Win(player=reader.player(arg.get("player", "self"), at + ("player",)), reason=reason, label=label)]


def write_win(action: Win, writer: Writer) -> dict[str, Any]:
    return {
        "win": {"player": action.player, **({"reason": action.reason} if action.reason else {})},
        **some(label=action.label),
    }


# -- negate -------------------------------------------------------------------


def read_negate(
    reader: Reader, word: str, arg: Any, raw: dict[str, Any], path: tuple[Any, ...], depth: int, **mods: Any
) -> list[Action]:
    at, label = path + (word,), mods["label"]
    _no_event(reader, word, path, mods["by"], mods["as_"], "takes no 'by' or 'as'")
    if isinstance(arg, dict) and ("card" in arg or "what" in arg):
        reader.only(arg, at, ("card", "what"))
        reader.need(arg, at, "card")
        what = reader.text(arg.get("what", "activation"), at + ("what",), choices=NEGATIONS)
        return [Negate(card=reader.selector(arg["card"], at + ("card",)), what=what, label=label)]
    return [Negate(card=reader.selector(arg, at), label=label)]


def write_negate(action: Negate, writer: Writer) -> dict[str, Any]:
    return {"negate": {"card": writer.card(action.card), "what": action.what}, **some(label=action.label)}


# -- prevent ------------------------------------------------------------------


def read_prevent(
    reader: Reader, word: str, arg: Any, raw: dict[str, Any], path: tuple[Any, ...], depth: int, **mods: Any
) -> list[Action]:
    at = path + (word,)
    if reader.context not in ("interrupt", "replacement", "activated"):
        raise reader.error(
            at,
            "'prevent' works only in an interrupt or replacement ability (it stops the action about to happen)",
        )
    card = None
    if isinstance(arg, dict) and "card" in arg:
        card = reader.selector(arg["card"], at + ("card",))
    if isinstance(arg, dict):
        reader.only(arg, at, ("card",))
    elif arg is not None:
        raise reader.error(at, "expected {} or {card: …}")
    return [Prevent(card=card, label=mods["label"])]


def write_prevent(action: Prevent, writer: Writer) -> dict[str, Any]:
    return {
        "prevent": {"card": writer.card(action.card)} if action.card is not None else {},
        **some(label=action.label),
    }


#: every control action, by its words and model class
CONTROLS: tuple[ControlKind, ...] = (
    ControlKind(("if",), If, read_if, write_if),
    ControlKind(("may",), May, read_may, write_may),
    ControlKind(("together",), Together, read_together, write_together, at_once=True),
    ControlKind(("resolve_pending",), ResolvePending, read_resolve_pending, write_resolve_pending),
    ControlKind(("end_turn", "pass_turn"), PassTurn, read_pass_turn, write_pass_turn),
    ControlKind(("mark",), Mark, read_mark, write_mark),
    ControlKind(("activate",), Activate, read_activate, write_activate),
    ControlKind(("win",), Win, read_win, write_win),
    ControlKind(("delay",), Delay, read_delay, write_delay),
    ControlKind(("negate",), Negate, read_negate, write_negate),
    ControlKind(("prevent",), Prevent, read_prevent, write_prevent),
)

#: the control actions that cannot happen at one moment with others (in a
#: ``together``, or collected with a replacement's actions)
NOT_AT_ONCE: tuple[type[Any], ...] = tuple(kind.model for kind in CONTROLS if not kind.at_once)
