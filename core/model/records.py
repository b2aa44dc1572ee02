"""Fast makers for the frozen records the engine makes on every effect.

attrs makes an instance of a frozen class field by field through
``object.__setattr__``: one call per field, which for a pending effect (25
fields) cost more than all the rest of its admission (issue 26).
:func:`maker` builds, once per class, a function that makes the instance on
a *twin* class — the same slots, no ``__setattr__`` of its own, so each
field is stored at slot speed — and then gives it the frozen class.
CPython allows that only between classes whose slots are laid out alike,
and checks it.  What comes out is an ordinary instance of the frozen class:
equal, hashed, printed, copied, ``evolve``\\ d and frozen like any other.

Where the interpreter refuses (the layouts are checked once, as the maker
is made), the maker is the class itself: slower, and the same records.
A maker takes the same keywords as the class — and, for a class whose
fields without a default come first, its fields in order without their
names, as the hot paths pass them — and runs no converter and no
validator: the engine's hot paths pass values already of each field's type
(a tuple where the class would convert to one).  Plugins, scenarios and
everything else make records through the class itself.

Each maker is declared with a ``Protocol`` beside its class
(``make_pending: MakePending = maker(PendingEffect)``) whose ``__call__``
lists the class's fields, so mypy checks every place a record is made —
the number, order and types of the arguments — at no cost when it runs;
``tests/core/test_records.py`` holds each Protocol to its class's fields.
The maker's source is registered with :mod:`linecache`
(:func:`~tcgtrig.base.generated.compile_generated`): a traceback through
it shows its lines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

from ..base.generated import compile_generated

__all__ = ["maker", "changer"]

_T = TypeVar("_T")


def maker(cls: type[_T]) -> Callable[..., _T]:
    """A function taking ``cls``'s keywords that makes an instance of
    ``cls`` (a frozen, slotted attrs class made with
    ``weakref_slot=False``) without its per-field ``__setattr__`` calls.
    A slotted class with no hook on assignment (a live object of the
    runtime, ``on_setattr=setters.NO_OP``) is made on itself, without
    attrs' ``__init__`` called through the type."""
    twin = _twin_of(cls)
    if twin is None:
        return cls
    scope: dict[str, Any] = {"_new": object.__new__, "_twin": twin, "_cls": cls, "_unset": object()}
    required: list[str] = []
    optional: list[str] = []
    body: list[str] = []
    for field in attrs.fields(cls):  # type: ignore[arg-type]  # cls is an attrs class
        default = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]  # the class, not the overload
            if default.takes_self:
                raise TypeError(f"{cls.__name__}.{field.name}: a maker cannot run a factory that takes self")
            scope[f"_make_{field.name}"] = default.factory
            value = f"_make_{field.name}()"  # called for each record, in the body
        else:
            scope[f"_default_{field.name}"] = default
            value = f"_default_{field.name}"
        if field.init:
            if default is attrs.NOTHING:
                required.append(field.alias)
                value = field.alias
            elif isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                optional.append(f"{field.alias}=_unset")
                value = f"{value} if {field.alias} is _unset else {field.alias}"
            else:
                optional.append(f"{field.alias}={value}")
                value = field.alias
        body.append(f"    self.{field.name} = {value}\n")
    # positional too, in the class's field order, when its fields without a
    # default come first (the hot paths' calls: no keywords to match)
    order = [field.alias for field in attrs.fields(cls) if field.init]  # type: ignore[arg-type]
    star = "" if order == [name.partition("=")[0] for name in required + optional] else "*, "
    signature = f"make_{cls.__name__}({star}{', '.join(required + optional)})"
    make: Callable[..., _T] = _function("maker", cls, twin, signature, body, scope)
    make.__doc__ = f"Make a :class:`{cls.__qualname__}` at slot speed (:func:`tcgtrig.model.records.maker`)."
    return make


def _function(kind: str, cls: type, twin: type, signature: str, body: list[str], scope: dict[str, Any]) -> Any:
    """The function ``signature`` that makes a record on ``twin``, sets its
    fields (``body``) and gives it ``cls``, compiled in ``scope`` and
    registered with linecache (a traceback through it shows its lines)."""
    source = (
        f"def {signature}:\n"
        "    self = _new(_twin)\n"
        + "".join(body)
        + ("    self.__class__ = _cls\n" if twin is not cls else "")
        + "    return self\n"
    )
    exec(compile_generated(source, f"{kind} of {cls.__qualname__}"), scope)  # noqa: S102 - our own field names
    return scope[signature.partition("(")[0]]


def _twin_of(cls: type[_T]) -> type | None:
    """The class a record of ``cls`` is made on before it is given ``cls``
    (``cls`` itself for a live object), or ``None`` where the interpreter
    will not give a twin's instance the class."""
    slots = cls.__dict__.get("__slots__")
    if slots is None:
        raise TypeError(f"{cls.__name__}: a maker needs a slotted class")
    if cls.__setattr__ is object.__setattr__:  # mutable, no hook on assignment: stored as it is
        return cls
    if "__weakref__" in slots:
        raise TypeError(f"{cls.__name__}: a maker needs a slotted class with weakref_slot=False")
    twin = type(f"_{cls.__name__}Twin", (object,), {"__slots__": slots})
    try:
        probe: Any = object.__new__(twin)
        probe.__class__ = cls
    except TypeError:
        return None
    return twin


def changer(cls: type[_T]) -> Callable[..., _T]:
    """A function ``change(record, **fields)`` that makes a copy of a
    ``cls`` record with ``fields`` changed, at slot speed: what
    :func:`attrs.evolve` makes, without running the class's ``__init__``
    (no converter, no validator: the values given are of each field's
    type), and with the fields ``__init__`` does not take (caches) back at
    their defaults.  Where the interpreter refuses a twin, it is
    :func:`attrs.evolve`."""
    twin = _twin_of(cls)
    if twin is None:
        return attrs.evolve
    scope: dict[str, Any] = {"_new": object.__new__, "_twin": twin, "_cls": cls, "_unset": object()}
    names: list[str] = []
    body: list[str] = []
    for field in attrs.fields(cls):  # type: ignore[arg-type]  # cls is an attrs class
        if field.init:
            names.append(f"{field.alias}=_unset")
            body.append(f"    self.{field.name} = record.{field.name} if {field.alias} is _unset else {field.alias}\n")
        elif isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]  # the class, not the overload
            scope[f"_make_{field.name}"] = field.default.factory
            body.append(f"    self.{field.name} = _make_{field.name}()\n")
        else:
            scope[f"_default_{field.name}"] = field.default
            body.append(f"    self.{field.name} = _default_{field.name}\n")
    change: Callable[..., _T] = _function(
        "changer", cls, twin, f"change_{cls.__name__}(record, *, {', '.join(names)})", body, scope
    )
    change.__doc__ = f"A changed copy of a :class:`{cls.__qualname__}` (:func:`tcgtrig.model.records.changer`)."
    return change
