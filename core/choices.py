"""Who decides: decisions, and the choosers that answer them.

The engine never decides anything a player would.  It stops at a
:class:`Decision` (labelled options, a documented default) and asks a
:class:`Chooser`.  Bundled choosers:

- :class:`DefaultChooser` — deterministic: the first legal option, which is
  the earliest-triggered effect for an ordering decision, ``use`` for an
  optional effect, the first matching cards (scenario order) for targets and
  ``pass`` in response windows.
- :class:`ScriptedChooser` — the scenario's ``choices``, consumed in order,
  then the default.  A label that is not legal is an error naming the
  decision and the legal labels.
- :class:`RandomChooser` — a seeded random choice among the legal options.
- :class:`InteractiveChooser` — asks a person (``tcgtrig play``).

Any object with ``choose(decision, engine) -> str`` is a chooser.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from attrs import field, frozen

from .errors import ChoiceError

if TYPE_CHECKING:
    from .engine import Engine
    from .pending import PendingEffect

__all__ = [
    "Decision",
    "Chooser",
    "DefaultChooser",
    "ScriptedChooser",
    "RandomChooser",
    "InteractiveChooser",
    "EffectLabels",
    "USE",
    "DECLINE",
    "PASS",
    "NONE",
]

#: an effect's key (a label), read at C speed over a whole bucket
_KEY = attrgetter("key")

USE = "use"
DECLINE = "decline"
PASS = "pass"
NONE = "none"


@frozen(kw_only=True)
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

    def __deepcopy__(self, memo: dict) -> object:
        return self

    def describe(self) -> str:
        return f"{self.kind} by {self.player}: {self.prompt}"

    def legal(self) -> list[str]:
        return list(self.options)


class EffectLabels(Sequence[str]):
    """The labels of an ordering decision, computed lazily.

    A label is the effect key; when the same key is pending more than once,
    ``KEY#n`` names the n-th of them (in trigger order) and the plain key
    means the first.  Only ``len``, the first label and membership are
    needed for the default and scripted choosers, and those cost O(1) (plus
    a scan for a plain key), so a decision among thousands of pending
    effects stays cheap.
    """

    def __init__(self, effects: dict[int, PendingEffect], made: dict[tuple[str, int], str] | None = None) -> None:
        """``made``: the ``KEY#n`` labels made for earlier decisions, to be
        reused (one string per label, however often it is offered: a
        trace keeps the labels offered)."""
        self._effects = effects
        self._made = made if made is not None else {}
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


@runtime_checkable
class Chooser(Protocol):
    """Anything that answers decisions."""

    def choose(self, decision: Decision, engine: Engine) -> str:
        """Return one of ``decision.options``."""
        ...


class DefaultChooser:
    """Always the documented default (see the module docstring)."""

    def choose(self, decision: Decision, engine: Engine | None = None) -> str:
        return decision.default

    def fingerprint(self) -> object:
        return None


class ScriptedChooser:
    """Consume scripted labels in order; then defer to ``fallback``.

    :param labels: the script.
    :param fallback: who decides when the script runs out.
    """

    def __init__(self, labels: Sequence[str], fallback: Chooser | None = None) -> None:
        self.labels = [str(label) for label in labels]
        self.cursor = 0
        self.fallback = fallback or DefaultChooser()

    @property
    def remaining(self) -> list[str]:
        return self.labels[self.cursor :]

    def choose(self, decision: Decision, engine: Engine | None = None) -> str:
        if self.cursor >= len(self.labels):
            return self.fallback.choose(decision, engine)  # type: ignore[arg-type]
        label = self.labels[self.cursor]
        if label not in decision.options:
            raise ChoiceError(decision.describe(), label, decision.legal(), index=self.cursor + 1)
        self.cursor += 1
        return label

    def fingerprint(self) -> object:
        if self.cursor < len(self.labels):
            return ("script", self.cursor)
        inner = getattr(self.fallback, "fingerprint", None)
        return ("fallback", inner() if inner else object())


class RandomChooser:
    """A seeded random legal option: the same seed gives the same choices."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._calls = 0

    def choose(self, decision: Decision, engine: Engine | None = None) -> str:
        self._calls += 1
        options = decision.legal()
        return options[self._rng.randrange(len(options))]

    def fingerprint(self) -> object:
        return ("random", self._calls)  # never repeats: random play never "loops"


class InteractiveChooser:
    """Ask a person: show the decision, read a label (or its number)."""

    def __init__(self, ask: Callable[[str], str], say: Callable[[str], None], *, skip_irrelevant: bool = False) -> None:
        self._ask = ask
        self._say = say
        self._calls = 0
        self.skip_irrelevant = skip_irrelevant

    def choose(self, decision: Decision, engine: Engine | None = None) -> str:
        self._calls += 1
        options = decision.legal()
        if self.skip_irrelevant and engine is not None:
            from .explore import cannot_matter  # explore builds on this module

            if cannot_matter(engine, decision):
                self._say(
                    f"\n{decision.player} decides ({decision.kind}): every answer leads to the same "
                    f"outcome (explored), so {decision.default} is taken"
                )
                return decision.default
        self._say(f"\n{decision.player} decides ({decision.kind}): {decision.prompt}")
        for number, label in enumerate(options, 1):
            mark = "  (default)" if label == decision.default else ""
            self._say(f"  {number}. {label}{mark}")
        while True:
            answer = self._ask("choice").strip()
            if not answer:
                return decision.default
            if answer in decision.options:  # a label first: card ids may be digits
                return answer
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            self._say(f"  not a legal choice: {answer!r}")

    def fingerprint(self) -> object:
        return ("person", self._calls)
