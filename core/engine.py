"""The public handle on a resolution: :class:`Engine`.

It wraps the internal :class:`~tcgtrig.runtime.machine.Machine` (the resolution
loop, in ``machine.py``, ``activation.py`` and ``performing.py``), which
tcgtrig's own tools drive directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .choices import Chooser, Decision
from .games.manager import Ruleset
from .model.info import GameEnd
from .model.pending import PendingEffect
from .model.state import GameState
from .model.trace import Trace
from .model.values import Action
from .runtime.evaluate import Evaluator
from .runtime.machine import DEFAULT_MAX_STEPS, MAX_FRAMES, Machine
from .scenario.reading import Bound, Compiled, Scenario, bind

if TYPE_CHECKING:
    from .resolution import Resolution

__all__ = ["Engine", "Machine", "DEFAULT_MAX_STEPS", "MAX_FRAMES"]


class Engine:
    """Resolves one position under one ruleset.

    Drive it with :meth:`run` and a chooser, or step by step: :meth:`advance`
    returns the next :class:`~tcgtrig.Decision` (``None`` when the
    resolution is over) and :meth:`answer` takes one of its labels.
    :meth:`copy` branches the whole position; :meth:`result` gives the
    :class:`~tcgtrig.resolution.Resolution` (trace, tree, JSON) at any point.

    >>> engine = Engine.for_scenario(load_scenario("tests/scenarios/digimon/triggered-01.yaml"))
    >>> while (decision := engine.advance()) is not None:  # doctest: +SKIP
    ...     engine.answer(decision.options[-1])
    >>> engine.result().keys("resolved")  # doctest: +SKIP

    :param ruleset: the game (:func:`tcgtrig.load_ruleset`).
    :param state: the position; the engine changes it.
    :param start: the actions the turn player performs as one effect.
    :param max_steps: activations plus rules passes before the resolution
        is declared endless.
    :param compiled: the compiled scenario ``state`` and ``start`` came from
        (``None``: the engine notes where the cards start by itself).
    :param title: the title :meth:`result` gives.
    """

    __slots__ = ("machine", "compiled", "title")

    #: The working parts (internal: tcgtrig's own tools use them).
    machine: Machine
    #: What the position was made from: :meth:`result` reads the starting zones.
    compiled: Compiled
    #: The resolution's title.
    title: str

    def __init__(
        self,
        ruleset: Ruleset,
        state: GameState,
        start: Sequence[Action] = (),
        max_steps: int = DEFAULT_MAX_STEPS,
        *,
        compiled: Compiled | None = None,
        title: str = "",
    ) -> None:
        self.machine = Machine(ruleset, state, tuple(start), max_steps=max_steps)
        self.compiled = (
            compiled
            if compiled is not None
            else Compiled(game=ruleset.name, state=state.copy(), start=tuple(start), choices=(), expect=None)
        )
        self.title = title

    @classmethod
    def for_scenario(
        cls,
        scenario: Scenario | Bound,
        game: str | Ruleset | None = None,
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
    ) -> Engine:
        """An engine at the start of ``scenario`` under ``game`` (a name,
        ``GAME/VARIANT`` or a :class:`Ruleset`; default: the file's game).
        A :class:`~tcgtrig.scenario.reading.Bound` scenario is already bound
        to its game (``game`` is not used): the engine starts from a copy of
        its compiled state, nothing is loaded or compiled again."""
        bound = scenario if isinstance(scenario, Bound) else bind(scenario, game)
        compiled = bound.compiled
        return cls(
            bound.ruleset,
            compiled.state.copy(),
            compiled.start,
            max_steps,
            compiled=compiled,
            title=bound.scenario.title,
        )

    @classmethod
    def _wrap(cls, machine: Machine, compiled: Compiled, title: str) -> Engine:
        engine = cls.__new__(cls)
        engine.machine, engine.compiled, engine.title = machine, compiled, title
        return engine

    def __repr__(self) -> str:
        where = "finished" if self.finished else f"{len(self.machine.pool)} pending"
        return f"<Engine {self.ruleset.name} {self.title or ''!r}: {len(self.trace)} steps, {where}>"

    # -- what the position is ------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        """The game."""
        return self.machine.ruleset

    @property
    def state(self) -> GameState:
        """The position now: cards, counters, turn."""
        return self.machine.state

    @property
    def trace(self) -> Trace:
        """Every step so far (the JSON trace's ``steps``)."""
        return self.machine.trace

    @property
    def decision(self) -> Decision | None:
        """The decision waiting for an answer, if any."""
        return self.machine.decision

    @property
    def outcome(self) -> GameEnd | None:
        """How the resolution ended early (an endless loop, a game's end), if it did."""
        return self.machine.outcome

    @property
    def finished(self) -> bool:
        """Whether the resolution is over."""
        return self.machine.finished

    @property
    def pending(self) -> tuple[PendingEffect, ...]:
        """The effects waiting to activate, in the game's order."""
        return tuple(self.machine.pool)

    @property
    def chain_links(self) -> tuple[PendingEffect, ...]:
        """Chain games: the chain being built, link 1 first."""
        return tuple(self.machine.chain_links)

    @property
    def view(self) -> Evaluator:
        """Reads the position with continuous effects applied (``view.stat``)."""
        return self.machine.view

    # -- driving it ------------------------------------------------------------

    def advance(self) -> Decision | None:
        """Run until a player must decide (returned) or the end (``None``)."""
        return self.machine.advance()

    def answer(self, label: str) -> None:
        """Answer the waiting decision with one of its labels.

        :raises ChoiceError: ``label`` is not one of the legal labels.
        """
        self.machine.answer(label)

    def run(self, chooser: Chooser) -> Engine:
        """Resolve to the end, asking ``chooser`` for every decision."""
        machine = self.machine
        machine.chooser_fingerprint = getattr(chooser, "fingerprint", None)
        machine.chooser_answering = getattr(chooser, "answering", None)
        while (decision := machine.advance()) is not None:
            machine.answer(chooser.choose(decision, self))
        return self

    def copy(self) -> Engine:
        """An independent copy of the whole position, e.g. to try a choice."""
        return Engine._wrap(self.machine.copy(), self.compiled, self.title)

    def result(self, unused_choices: Sequence[str] = ()) -> Resolution:
        """What happened so far, as a :class:`~tcgtrig.resolution.Resolution`
        (the tree, the JSON trace, the end state)."""
        from .resolution import Resolution

        return Resolution(
            game=self.ruleset.name,
            title=self.title,
            engine=self,
            compiled=self.compiled,
            unused_choices=tuple(unused_choices),
        )
