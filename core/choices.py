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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .base.errors import ChoiceError
from .model.decision import DECLINE, NONE, PASS, USE, Decision, EffectLabels

if TYPE_CHECKING:
    from .engine import Engine

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
            from .tools.explore import cannot_matter  # explore builds on this module

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
