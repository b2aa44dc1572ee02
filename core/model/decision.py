"""A question the engine asks a player: a :class:`Decision` with labelled
options and a documented default, and the labels every game shares
(``use``, ``decline``, ``pass``, ``none``).

Who answers is the front door's business (:mod:`tcgtrig.choices`); the
runtime only asks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Protocol

from attrs import field

from .records import maker

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

if TYPE_CHECKING:
    from .pending import PendingEffect

__all__ = ["Decision", "EffectLabels", "USE", "DECLINE", "PASS", "NONE"]

#: an effect's key (a label), read at C speed over a whole bucket
_KEY = attrgetter("key")

USE = "use"
DECLINE = "decline"
PASS = "pass"
NONE = "none"


@frozen(kw_only=True, weakref_slot=False)
class Decision:
    """A question the engine asks a player.

    :param kind: ``order`` (which pending effect next), ``use`` (use an
        optional effect?), ``may`` (do an optional part of an effect?),
        ``target`` (pick a card), ``respond`` (respond in a chain window).
    :param player: who decides.
    :param prompt: one line a person can read.
    :param options: the legal labels (supports ``len``, ``in`` and iteration).
    :param default: the label the default chooser takes.
    :param effect: the effect key the decision is about, if any.
    """

    kind: str
    player: str
    prompt: str
    options: Sequence[str] = field(eq=False)
    default: str
    effect: str | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> object:
        return self

    def describe(self) -> str:
        return f"{self.kind} by {self.player}: {self.prompt}"

    def legal(self) -> list[str]:
        return list(self.options)

    def copies(self) -> dict[str, int]:
        """The options that stand for more than one alike choice, with how
        many (alike responses in a chain window: the same words on copies
        of a card); empty for most decisions."""
        counted = getattr(self.options, "copies", None)
        return counted() if counted is not None else {}


class MakeDecision(Protocol):
    """The signature of :data:`make_decision`: :class:`Decision`'s fields in order, each
    by place or by name (checked against the class: ``tests/core/test_records.py``)."""

    def __call__(
        self,
        kind: str,
        player: str,
        prompt: str,
        options: Sequence[str],
        default: str,
        effect: str | None = ...,
    ) -> Decision: ...


#: :class:`Decision`'s keywords, at slot speed (:func:`~tcgtrig.model.records.maker`)
make_decision: MakeDecision = maker(Decision)


class EffectLabels(Sequence[str]):
    """The labels of an ordering decision, computed lazily.

    A label is the effect key; when the same key is pending more than once,
    ``KEY#n`` names the n-th of them (in trigger order) and the plain key
    means the first.  Only ``len``, the first label and membership are
    needed for the default and scripted choosers, and those cost O(1) (plus
    a scan for a plain key), so a decision among thousands of pending
    effects stays cheap.  The labels read the pool's bucket as it is: they
    are the decision's until it is answered (a copied engine's decision
    reads the copy's pool).
    """

    def __init__(
        self,
        effects: dict[int, PendingEffect],
        made: dict[tuple[str, int], str] | None = None,
        keys_of: Callable[[dict[int, PendingEffect]], list[str] | None] | None = None,
    ) -> None:
        """``made``: the ``KEY#n`` labels made for earlier decisions, to be
        reused (one string per label, however often it is offered: a
        trace keeps the labels offered); ``keys_of``: where the effects'
        keys are kept in order (``None`` from it: work them out), asked
        only if every label is wanted."""
        self._effects = effects
        self._made = made if made is not None else {}
        self._keys_of = keys_of
        self._labels: list[str] | None = None
        self._resolved: tuple[str, PendingEffect | None] | None = None

    def __repr__(self) -> str:
        labels = self._all()
        shown = ", ".join(labels[:6]) + (f", … ({len(labels)} in all)" if len(labels) > 6 else "")
        return f"EffectLabels([{shown}])"

    def __len__(self) -> int:
        return len(self._effects)

    def first(self) -> str:
        """The earliest-triggered effect's key (a legal label: it names the
        first instance of that key).  O(1): the default chooser's answer."""
        return next(iter(self._effects.values())).key

    def _all(self) -> list[str]:
        if self._labels is None and self._keys_of is not None:
            self._labels = self._keys_of(self._effects)  # kept by the pool: no key twice
        if self._labels is None:
            keys = list(map(_KEY, self._effects.values()))
            if len(set(keys)) == len(keys):  # the usual case: every key once, labels are the keys
                self._labels = keys
                return keys
            counts: dict[str, int] = {}
            for effect in self._effects.values():
                counts[effect.key] = counts.get(effect.key, 0) + 1
            seen: dict[str, int] = {}
            labels = []
            for effect in self._effects.values():
                if counts[effect.key] == 1:
                    labels.append(effect.key)
                else:
                    number = seen[effect.key] = seen.get(effect.key, 0) + 1
                    label = self._made.get((effect.key, number))
                    if label is None:
                        label = self._made[effect.key, number] = f"{effect.key}#{number}"
                    labels.append(label)
            self._labels = labels
        return self._labels

    def __getitem__(self, index: Any) -> Any:
        return self._all()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __contains__(self, label: object) -> bool:
        return isinstance(label, str) and self.resolve(label) is not None

    def resolve(self, label: str) -> PendingEffect | None:
        """The pending effect a label names, or ``None``.  The last answer
        is kept: a label is checked (``in``) and then resolved."""
        if self._resolved is not None and self._resolved[0] == label:
            return self._resolved[1]
        effect = self._find(label)
        self._resolved = (label, effect)
        return effect

    def _find(self, label: str) -> PendingEffect | None:
        for first in self._effects.values():
            if first.key == label:
                return first  # the default chooser's answer (the plain key names the first of that key)
            break
        key, _, number = label.partition("#")
        wanted = 1
        if number:
            if not number.isdigit() or int(number) < 1:
                return None
            wanted = int(number)
        seen = 0
        for effect in self._effects.values():
            if effect.key == key:
                seen += 1
                if seen == wanted:
                    return effect
        return None
