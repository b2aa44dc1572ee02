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
- :class:`InteractiveChooser` — asks a person (``tcgtrig play``): a
  number or a label, and on request ``undo`` and ``outcomes``.

Any object with ``choose(decision, engine) -> str`` is a chooser.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .base.errors import ChoiceError
from .model.decision import DECLINE, NONE, PASS, USE, Decision, EffectLabels

if TYPE_CHECKING:
    from .engine import Engine
    from .tools.explore import Exploration

__all__ = [
    "Decision",
    "Chooser",
    "DefaultChooser",
    "ScriptedChooser",
    "RandomChooser",
    "InteractiveChooser",
    "UndoAnswer",
    "pending_lines",
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
        """What the loop guards see of this chooser: nothing while the
        script lasts, as ``explore`` sees nothing of whoever answers (the
        guards then save and compare the same positions on replay as while
        exploring, so a script ``explore`` lists replays to the outcome
        listed beside it, a loop at the same step: issue 37, item 29).
        A loop the script may yet break is held back (:meth:`answering`).
        Then the fallback's."""
        if self.cursor < len(self.labels):
            return None
        inner = getattr(self.fallback, "fingerprint", None)
        return inner() if inner else object()

    def answering(self) -> bool:
        """Whether scripted answers remain: a position that came back with
        a player asked on the way is no loop yet (the script may stop it,
        CR-style "the player declares how many times")."""
        return self.cursor < len(self.labels)


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


#: What an :class:`InteractiveChooser` shows while it explores: given what it
#: is doing, a context manager giving the callback told the positions reached
#: (or ``None``: nothing shown).
ProgressShown = Callable[[str], AbstractContextManager[Callable[[int], None] | None]]


class UndoAnswer(Exception):
    """The person took back their last answer (``undo``, see
    :class:`InteractiveChooser`).  ``answers`` are the answers kept, in
    order: answering a fresh engine's decisions with them (``tcgtrig play``
    builds the engine from the scenario again) gives the position of the
    decision to ask again.  The engine the chooser was answering is left
    part-way through."""

    def __init__(self, undone: str, answers: Sequence[str]) -> None:
        super().__init__(f"undone: {undone}")
        self.undone = undone
        self.answers = tuple(answers)


class InteractiveChooser:
    """Ask a person: show what is pending and the decision, read a label or
    its number (an empty answer: the default).

    :param ask: reads one answer; given the prompt.
    :param say: shows one line.
    :param skip_irrelevant: take the default, without asking, when exploring
        (within the budget) shows that every answer leads to the same
        outcome; past the budget, say so and ask.
    :param undo: the answer ``undo`` takes back the person's last answer
        (and the answers taken for them after it): :class:`~tcgtrig.choices.UndoAnswer` is
        raised, the caller rebuilds the position from its ``answers``.
    :param outcomes: the answer ``outcomes`` explores where each option
        leads (the budget shared out equally) and asks again.
    :param max_states: the work budget of one question explored (positions
        reached; default :data:`tcgtrig.tools.explore.DEFAULT_QUESTION_BUDGET`).
    :param max_depth: the answers on one path explored (default
        :data:`tcgtrig.tools.explore.DEFAULT_MAX_DEPTH`).
    :param progress: what to show while exploring (:data:`ProgressShown`).
    :param why_stopped: what a budget that ran out is called (default: the
        exploration's ``reason``).

    :attr:`answers` is every answer given so far, those taken without asking
    included: the ``choices`` script that replays the session.
    """

    def __init__(
        self,
        ask: Callable[[str], str],
        say: Callable[[str], None],
        *,
        skip_irrelevant: bool = False,
        undo: bool = False,
        outcomes: bool = False,
        max_states: int | None = None,
        max_depth: int | None = None,
        progress: ProgressShown | None = None,
        why_stopped: Callable[[Exploration], str] | None = None,
    ) -> None:
        self._ask = ask
        self._say = say
        self._calls = 0
        self.skip_irrelevant = skip_irrelevant
        self.words = [word for word, wanted in (("undo", undo), ("outcomes", outcomes)) if wanted]
        self.max_states = max_states
        self.max_depth = max_depth
        self._progress = progress or (lambda what: nullcontext(None))
        self._why_stopped = why_stopped or (lambda found: str(found.reason))
        self.answers: list[str] = []
        self._asked: list[int] = []  # where in ``answers`` the person's own answers are

    @property
    def prompt(self) -> str:
        """What :func:`ask` is given: the kinds of answer it takes."""
        return f"choice (a number or label{'; ' + ', '.join(self.words) if self.words else ''})"

    def choose(self, decision: Decision, engine: Engine | None = None) -> str:
        self._calls += 1
        if self.skip_irrelevant and engine is not None:
            taken = self._if_irrelevant(decision, engine)
            if taken is not None:
                self.answers.append(taken)
                return taken
        options = decision.legal()
        self._show(decision, options, engine)
        while True:
            answer = self._ask(self.prompt).strip()
            label = self._label(answer, decision, options)
            if label is not None:
                self._asked.append(len(self.answers))
                self.answers.append(label)
                return label
            if answer in self.words:
                self._take_word(answer, options, engine)
            else:
                legal = ", ".join([*options, *self.words])
                self._say(f"  not a legal choice: {answer!r} (legal: {legal})")

    def fingerprint(self) -> object:
        return ("person", self._calls)

    def _show(self, decision: Decision, options: Sequence[str], engine: Engine | None) -> None:
        """What is pending, the decision and its numbered options."""
        for line in pending_lines(engine) if engine is not None else ():
            self._say(line)
        self._say(f"\n{decision.player} decides ({decision.kind}): {decision.prompt}")
        copies = decision.copies()
        for number, label in enumerate(options, 1):
            mark = "  (default)" if label == decision.default else ""
            alike = f"  (stands for {copies[label]} copies)" if label in copies else ""
            self._say(f"  {number}. {label}{alike}{mark}")

    @staticmethod
    def _label(answer: str, decision: Decision, options: Sequence[str]) -> str | None:
        """The label an answer names: empty is the default, a label first
        (card ids may be digits or words), then an option's number."""
        if not answer:
            return decision.default
        if answer in decision.options:
            return answer
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return options[int(answer) - 1]
        return None

    def _take_word(self, word: str, options: Sequence[str], engine: Engine | None) -> None:
        """``undo`` (raises :class:`UndoAnswer`) or ``outcomes``."""
        if word == "outcomes":
            if engine is None:
                self._say("  outcomes: there is no position to explore from")
            else:
                self._where_options_lead(options, engine)
            return
        if not self._asked:
            self._say("  nothing to undo: you have not answered a decision yet")
            return
        cut = self._asked.pop()
        undone = self.answers[cut]
        del self.answers[cut:]
        self._say(f"  undone: {undone}")
        raise UndoAnswer(undone, self.answers)

    def _budget(self) -> dict[str, Any]:
        """The budget given, as keyword arguments of the explorer."""
        given = {"max_states": self.max_states, "max_depth": self.max_depth}
        return {name: value for name, value in given.items() if value is not None}

    def _if_irrelevant(self, decision: Decision, engine: Engine) -> str | None:
        """The default when exploring (within the budget) shows that every
        answer leads to the same outcome; ``None``: ask."""
        from .tools.explore import explore_question  # explore builds on this module

        with self._progress("exploring whether the answer matters") as progress:
            found = explore_question(engine, decision, progress=progress, **self._budget())
        if found.complete:  # one outcome, whatever the answers
            self._say(
                f"\n{decision.player} decides ({decision.kind}): every answer leads to the same "
                f"outcome (explored), so {decision.default} is taken"
            )
            return decision.default
        if found.stopped_by != "outcomes":  # a second outcome would have said it matters
            self._say(f"\ncould not tell whether the answer changes the outcome ({self._why_stopped(found)}): asking")
        return None

    def _where_options_lead(self, options: Sequence[str], engine: Engine) -> None:
        """``outcomes``: explore each option (the budget shared out equally)
        and show its first outcomes."""
        from .tools.explore import DEFAULT_MAX_DEPTH, DEFAULT_QUESTION_BUDGET, explore_engine

        share = max(1, (self.max_states or DEFAULT_QUESTION_BUDGET) // len(options))
        done = 0  # positions reached for the options before
        with self._progress("exploring the outcomes") as progress:
            for number, label in enumerate(options, 1):
                child = engine.copy()
                child.answer(label)
                found = explore_engine(
                    child,
                    max_states=share,
                    max_depth=self.max_depth or DEFAULT_MAX_DEPTH,
                    progress=None if progress is None else functools.partial(_offset, progress, done),
                )
                done += found.reached
                more = "" if found.complete else f" (not all explored: {self._why_stopped(found)})"
                count = f"{len(found.outcomes)} outcome{'s' if len(found.outcomes) != 1 else ''}"
                self._say(f"  {number}. {label} → {count}{more}: {_ends(found)}")


def _offset(progress: Callable[[int], None], before: int, reached: int) -> None:
    progress(before + reached)


def _ends(found: Exploration, most: int = 3) -> str:
    """The first outcomes an exploration found: how each ended and its
    counters — and, for outcomes that would print alike so (they differ
    only in where a card went, its flags or stats), what tells them apart
    (issue 37, item 28)."""
    shown = found.outcomes[:most]
    texts = [
        f"{o.outcome}, "
        + ", ".join(f"{p}: " + ", ".join(f"{k} {v}" for k, v in c.items()) for p, c in o.end["counters"].items())
        for o in shown
    ]
    told = []
    for outcome, text in zip(shown, texts, strict=True):
        alike = [other.end for other, other_text in zip(shown, texts, strict=True) if other_text == text]
        told.append(text if len(alike) < 2 else f"{text} ({_apart(outcome.end, alike)})")
    return "; ".join(told) or "none found"


def _apart(end: dict[str, Any], alike: Sequence[dict[str, Any]]) -> str:
    """What of ``end`` differs among the end states ``alike``: each card's
    zone, flags and stats, and the marks, where they are not all the same."""
    said = []
    for part in ("zones", "flags", "stats", "marks"):
        if part == "marks":
            if len({tuple(other.get(part, ())) for other in alike}) > 1:
                said.append("marks " + (" ".join(end.get(part, ())) or "none"))
            continue
        for key in end[part].keys() | {key for other in alike for key in other[part]}:
            values = {repr(other[part].get(key)) for other in alike}
            if len(values) > 1:
                said.append(f"{part[:-1]} {key} {_shown(end[part].get(key))}")
    return ", ".join(sorted(said))


def _shown(value: Any) -> str:
    """A zone, a list of flags or a card's stats, in a few words."""
    if isinstance(value, list):
        return " ".join(value) or "none"
    if isinstance(value, dict):
        return " ".join(f"{name} {number}" for name, number in value.items()) or "none"
    return "none" if value is None else str(value)


def pending_lines(engine: Engine, most: int = 12) -> list[str]:
    """What is pending, in the game's own structure: the chain being built,
    then the pending effects in the order the game ranks them, each with
    the game's details (priority layer, pool class and side, …)."""
    lines = []
    if engine.chain_links:
        term = engine.ruleset.info.term  # the game's words: Yu-Gi-Oh!'s Chain and CL1, Magic's stack and #1
        links = ", ".join(
            f"{term('chain_link_short')}{i} {e.key} ({e.controller})" for i, e in enumerate(engine.chain_links, 1)
        )
        lines.append(f"  {term('chain')}: {links}")
    waiting = []
    for effect in engine.pending:
        details = ", ".join(f"{k} {v}" for k, v in effect.details)
        waiting.append(f"{effect.key} ({effect.controller}{', ' + details if details else ''})")
        if len(waiting) > most:
            break
    if waiting:
        more = f" and {len(engine.pending) - most} more" if len(waiting) > most else ""
        lines.append("  pending, as the game ranks them: " + "; ".join(waiting[:most]) + more)
    return lines
