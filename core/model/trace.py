"""Trace steps: what happened during a resolution, in order.

A :class:`Step` is a frozen value with a ``kind`` and flat keys.  The JSON
trace (``tcgtrig run --json``) is the list of steps as dicts; the readable
tree is drawn from the same steps by :mod:`tcgtrig.tools.render`.

Step kinds written by the core:

``start``      the scenario's start actions begin (effect ``start``, id 0)
``event``      something happened (``event``, ``card``, ``player``, …; ``reason``
               when an ``emit`` cites a rule)
``triggered``  an effect became pending (``id``, ``cause``, game keys)
``activated``  an effect was activated
``resolved``   an effect's resolution began
``declined``   an optional effect was not used
``failed``     activation was attempted but its condition was not met, its
               once-per-turn was spent, or the game forbade it (``reason``)
``missed``     it missed the timing (chain games)
``lost``       it left the pending set without an attempt (``reason``)
``prevented``  an interrupt or replacement stopped an action for a card
``negated``    a chain link was negated (``what``, ``negated_by``): it will
               not resolve
``applied``    a replacement ability applied (no activation)
``rules``      the game's rules processing acted (``cards``)
``choice``     a player answered a decision (``decision``, ``label``)
``ended``      the resolution ended early (``outcome``, ``reason``)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

__all__ = ["Step", "Trace", "OUTCOME_KINDS"]

#: Every triggered effect ends in exactly one of these.
OUTCOME_KINDS = ("resolved", "declined", "failed", "missed", "lost", "negated")


class Step:
    """One line of the trace: a ``kind`` and flat keys, in the order written.

    A step is a frozen value, kept small: the keys and values sit in one
    flat tuple, ``(key, value, key, value, …)``.  The engine writes four or
    five per effect into a :class:`Trace`, which keeps only the kind and
    that tuple and makes the step when it is read.
    """

    __slots__ = ("kind", "_flat")

    kind: str
    _flat: tuple[Any, ...]

    def __init__(self, kind: str, data: tuple[tuple[str, Any], ...] = ()) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "_flat", tuple(item for pair in data for item in pair))

    @classmethod
    def make(cls, kind: str, *, keep: tuple[str, ...] = (), **fields: Any) -> Step:
        """A step with the given keys; keys whose value is ``None`` are left
        out, except those named in ``keep`` (written as null)."""
        flat = []
        for key, value in fields.items():
            if value is not None or key in keep:
                flat.append(key)
                flat.append(value)
        return cls.from_flat(kind, tuple(flat))

    @classmethod
    def from_flat(cls, kind: str, flat: tuple[Any, ...]) -> Step:
        """A step from ``(key, value, key, value, …)``, taken as it is."""
        step = _new(cls)
        _set_kind(step, kind)
        _set_flat(step, flat)
        return step

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Step is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Step is frozen: cannot delete {name!r}")

    @property
    def data(self) -> tuple[tuple[str, Any], ...]:
        """The keys and values as pairs, in order."""
        flat = self._flat
        return tuple(zip(flat[::2], flat[1::2], strict=True))

    def get(self, key: str, default: Any = None) -> Any:
        flat = self._flat
        for i in range(0, len(flat), 2):
            if flat[i] == key:
                return flat[i + 1]
        return default

    def __getitem__(self, key: str) -> Any:
        if key == "kind":
            return self.kind
        flat = self._flat
        for i in range(0, len(flat), 2):
            if flat[i] == key:
                return flat[i + 1]
        raise KeyError(key)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        flat = self._flat
        for i in range(0, len(flat), 2):
            value = flat[i + 1]
            out[flat[i]] = (
                [list(v) if isinstance(v, tuple) else v for v in value] if isinstance(value, tuple) else value
            )
        return out

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Step:
            return NotImplemented
        return self.kind == other.kind and self._flat == other._flat

    def __hash__(self) -> int:
        return hash((self.kind, self._flat))

    def __repr__(self) -> str:
        return f"Step(kind={self.kind!r}, data={self.data!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Step.from_flat, (self.kind, self._flat))

    def __copy__(self) -> Step:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Step:
        return self


# the slots' own setters: a step is built past its frozen __setattr__, four
# or five times per effect
_new = object.__new__
_set_kind = Step.__dict__["kind"].__set__
_set_flat = Step.__dict__["_flat"].__set__


class Trace(Sequence[Step]):
    """The steps of a resolution, in order: a read-only sequence of
    :class:`Step` values that the engine appends to.

    Four or five steps are written per effect and most are never read one
    by one (a benchmark reads none; a JSON trace reads each once), so each
    is kept as the pair ``(kind, flat)`` it is made of, and the
    :class:`Step` is made when it is read.  Reading a step twice gives two
    equal steps.
    """

    __slots__ = ("_rows",)

    def __init__(self, steps: Iterable[Step] = ()) -> None:
        self._rows: list[tuple[str, tuple[Any, ...]]] = [(step.kind, step._flat) for step in steps]

    def add(self, kind: str, flat: tuple[Any, ...]) -> None:
        """Write a step of ``kind`` with keys and values ``flat``
        (``(key, value, key, value, …)``, as :meth:`Step.from_flat`)."""
        self._rows.append((kind, flat))

    def append(self, step: Step) -> None:
        """Write a step made already."""
        self._rows.append((step.kind, step._flat))

    def copy(self) -> Trace:
        clone = Trace()
        clone._rows = list(self._rows)
        return clone

    def effects(self, kind: str) -> list[str]:
        """The effect keys of the steps of ``kind``, in order (steps with
        no effect left out), read without making the steps."""
        found = []
        for step_kind, flat in self._rows:
            if step_kind == kind:
                # the engine writes an effect's key first; other steps are searched
                effect = flat[1] if flat and flat[0] == "effect" else _from_flat(step_kind, flat).get("effect")
                if effect:
                    found.append(effect)
        return found

    def __len__(self) -> int:
        return len(self._rows)

    def __bool__(self) -> bool:
        return bool(self._rows)

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> list[Step]: ...

    def __getitem__(self, index: int | slice) -> Step | list[Step]:
        if isinstance(index, slice):
            return [_from_flat(kind, flat) for kind, flat in self._rows[index]]
        kind, flat = self._rows[index]
        return _from_flat(kind, flat)

    def __iter__(self) -> Iterator[Step]:
        for kind, flat in self._rows:
            yield _from_flat(kind, flat)

    def __repr__(self) -> str:
        return f"<Trace of {len(self._rows)} steps>"

    def __deepcopy__(self, memo: dict[int, Any]) -> Trace:
        return self.copy()  # the pairs hold only plain values


_from_flat = Step.from_flat
