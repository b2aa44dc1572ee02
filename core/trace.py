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

from attrs import frozen

__all__ = ["Step", "OUTCOME_KINDS"]

#: Every triggered effect ends in exactly one of these.
OUTCOME_KINDS = ("resolved", "declined", "failed", "missed", "lost")


@frozen
class Step:
    """One line of the trace."""

    kind: str
    data: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def make(cls, kind: str, *, keep: tuple[str, ...] = (), **fields: Any) -> Step:
        """A step with the given keys; keys whose value is ``None`` are left
        out, except those named in ``keep`` (written as null)."""
        return cls(kind, tuple((k, v) for k, v in fields.items() if v is not None or k in keep))

    def get(self, key: str, default: Any = None) -> Any:
        for name, value in self.data:
            if name == key:
                return value
        return default

    def __getitem__(self, key: str) -> Any:
        if key == "kind":
            return self.kind
        for name, value in self.data:
            if name == key:
                return value
        raise KeyError(key)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name, value in self.data:
            out[name] = [list(v) if isinstance(v, tuple) else v for v in value] if isinstance(value, tuple) else value
        return out

    def __deepcopy__(self, memo: dict) -> Step:
        return self
