"""Trace steps: what happened during a resolution, in order.

A :class:`Step` is a frozen value with a ``kind`` and flat keys.  The JSON
trace (``tcgtrig run --json``) is the list of steps as dicts; the readable
tree is drawn from the same steps by :mod:`tcgtrig.render`.

Step kinds written by the core:

``start``      the scenario's start actions begin (effect ``start``, id 0)
``event``      something happened (``event``, ``card``, ``player``, …)
``triggered``  an effect became pending (``id``, ``cause``, game keys)
``activated``  an effect was activated
``resolved``   an effect's resolution began
``declined``   an optional effect was not used
``failed``     activation was attempted but its condition was not met, its
               once-per-turn was spent, or the game forbade it (``reason``)
``missed``     it missed the timing (chain games)
``lost``       it left the pending set without an attempt (``reason``)
``prevented``  an interrupt or replacement stopped an action for a card
``applied``    a replacement ability applied (no activation)
``rules``      the game's rules processing acted (``cards``)
``choice``     a player answered a decision (``decision``, ``label``)
``ended``      the resolution ended early (``outcome``, ``reason``)
"""

from __future__ import annotations

from typing import Any

__all__ = ["Step", "OUTCOME_KINDS"]

#: Every triggered effect ends in exactly one of these.
OUTCOME_KINDS = ("resolved", "declined", "failed", "missed", "lost")


class Step:
    """One line of the trace: a ``kind`` and flat keys, in the order written.

    A step is a frozen value.  It is the engine's most numerous object (four
    or five per effect), so it is kept small: the keys and values sit in one
    flat tuple, ``(key, value, key, value, …)``.
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
            out[flat[i]] = ([list(v) if isinstance(v, tuple) else v for v in value] if isinstance(value, tuple)
                            else value)
        return out

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Step:
            return NotImplemented
        return self.kind == other.kind and self._flat == other._flat  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.kind, self._flat))

    def __repr__(self) -> str:
        return f"Step(kind={self.kind!r}, data={self.data!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Step.from_flat, (self.kind, self._flat))

    def __copy__(self) -> Step:
        return self

    def __deepcopy__(self, memo: dict) -> Step:
        return self


# the slots' own setters: a step is built past its frozen __setattr__, four
# or five times per effect
_new = object.__new__
_set_kind = Step.__dict__["kind"].__set__
_set_flat = Step.__dict__["_flat"].__set__
