"""The machine's state, declared once.

:class:`~tcgtrig.runtime.machine.Machine` is one object made of three parts:
:class:`~tcgtrig.runtime.activation.Activating` (activation, resolution,
chain responses), :class:`~tcgtrig.runtime.performing.Performing` (actions,
interrupt windows, moments) and the machine itself (the loop, the trace,
admission, loop guards).  :class:`MachineBase`, which all three derive
from, holds the position every part reads and writes — its attrs fields —
and declares the methods one part calls on another, so each part reads
(and type-checks) on its own::

    MachineBase ── Activating ─┐
         └──────── Performing ─┴── Machine

Nothing here runs in the loop: the fields are the machine's slots, and
each declared method is implemented by exactly one part, which comes
first in the machine's method resolution order.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from attrs import field, setters

from ..model.info import ActivationContext, ChainKeys
from ..model.pending import PendingEffect, PendingPool
from ..model.trace import Trace
from .loops import GrowthGuard, LoopGuard
from .rechecks import Rechecks

if TYPE_CHECKING:
    from attrs import define  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import define  # attrs.define, the methods compiled ahead of time

if TYPE_CHECKING:
    from ..games.manager import Ruleset
    from ..model.decision import Decision
    from ..model.info import Drop, GameEnd
    from ..model.state import GameState
    from ..model.values import Action, Card, Event, Negate
    from .evaluate import Evaluator, Scope
    from .frames import EffectRun, Frame, InterruptWindow
    from .responders import ResponderTable
    from .triggers import AbilityIndex, Match

    # ``tuple`` converts (called by a function), typed for the start actions (mypy cannot
    # type a field whose converter is the generic class ``tuple``)
    def _actions(actions: Iterable[Action], /) -> tuple[Action, ...]: ...

else:

    def _actions(actions):  # not tuple itself: attrs reads the converter's signature, and tuple's takes tokenize (6 ms)
        return tuple(actions)


__all__ = ["MachineBase", "DEFAULT_MAX_STEPS", "MEMORY_EVERY_LINKS"]

#: Activations and rules passes after which a resolution is declared endless.
DEFAULT_MAX_STEPS = 250_000
#: Chain links resolved between two readings of the memory in use (a mask):
#: a long chain resolves without a step being counted, and each link may
#: trigger many effects.
MEMORY_EVERY_LINKS = 63


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class MachineBase:
    """The position and the working state of a
    :class:`~tcgtrig.runtime.machine.Machine`, and the methods its parts call
    on one another.

    The fields are the machine's (its ``__init__`` takes them, in this
    order); :meth:`Machine.__attrs_post_init__
    <tcgtrig.runtime.machine.Machine.__attrs_post_init__>` fills in
    ``index``, ``view`` and the guard.  The methods below are abstract:
    each says which part implements it.  Never instantiated by itself.
    """

    ruleset: Ruleset
    state: GameState
    start: tuple[Action, ...] = field(converter=_actions, default=())
    max_steps: int = DEFAULT_MAX_STEPS
    pool: PendingPool = field(factory=PendingPool)
    trace: Trace = field(factory=Trace)
    frames: list[Frame] = field(factory=list)
    matched: list[Match] = field(factory=list)
    windows: list[InterruptWindow] = field(factory=list)
    chain_links: list[PendingEffect] = field(factory=list)
    due: dict[str, dict[int, None]] = field(factory=dict)
    offers: list[PendingEffect] = field(factory=list)
    shown: set[int] = field(factory=set)
    last_events: tuple[Event, ...] = ()
    chains: int = 0
    resolving_link: int = 0
    links_resolved: int = 0
    #: the ``KEY#n`` labels of ordering decisions made so far, shared (:class:`~tcgtrig.choices.EffectLabels`)
    labels_made: dict[tuple[str, int], str] = field(factory=dict)
    #: the memory bound's verdict, found where the resolution cannot end at once
    over_budget: str | None = None
    answered_moment: int = -1
    series: set[str] | None = None
    decision: Decision | None = None
    outcome: GameEnd | None = None
    #: the players a ``lose_game`` of the moment being carried out made lose (read and emptied as it is recorded)
    losers: tuple[str, ...] = ()
    moment: int = 0
    last_moment: int = 0
    timing: int = 0
    last_depth: int = 0
    last_instance: int = 0
    asked: int = 0
    chooser_fingerprint: Callable[[], Any] | None = None
    #: whether the chooser still has answers given ahead (a script): the loop guards
    #: then hold back the verdict on a loop a player could stop (their answers may)
    chooser_answering: Callable[[], bool] | None = None
    index: AbilityIndex = field(default=None)
    view: Evaluator = field(default=None)
    _next_id: int = 1
    _answer: str | None = None
    _answered: bool = False
    #: the effect whose activation was just checked, and its scope then
    _checked: tuple[PendingEffect, Scope] | None = None
    #: chain games: per effect key, the effect an activated ability was last
    #: checked as in a response window (kept while nothing it is made of changes)
    _probes: dict[str, PendingEffect] = field(factory=dict)
    #: chain games: per responding player and lowest speed, the answers kept between windows
    _responder_tables: dict[tuple[str, int | None], ResponderTable] = field(factory=dict)
    #: per window, the activation context with no series and no target
    _contexts: dict[str, ActivationContext] = field(factory=dict)
    #: whether any card has (or may gain) an interrupt or a replacement
    _interruptible: bool = field(init=False, default=True)
    #: the actions carried out at once, without a frame, when nothing makes them wait: the primitive
    #: ones (none where a card may interrupt or replace; a draw not, where the game draws one card at a time)
    _at_once: frozenset[type] = field(init=False, default=frozenset())
    #: whether this advance holds the collector back (:meth:`Machine.advance`)
    _holding: bool = False
    #: one frame move per step: the main loop hands back after each effect it takes, so that
    #: stepping stops where it is asked to (:func:`tcgtrig.saving.run_until`)
    one_move: bool = False
    _guard: LoopGuard = field(default=None)
    _growth: GrowthGuard = field(factory=GrowthGuard)
    #: the growth guard shown only the positions with more pending than ever before
    _records: GrowthGuard = field(factory=GrowthGuard)
    _most_pending: int = 0
    _last_record: int = -1
    #: whether a loop guard or the step limit ended the resolution: where it
    #: ended then depends on how the position was reached (the guards'
    #: history), not on the position alone (``explore``'s memo reads it)
    guard_ended: bool = False
    #: the loop guards' look at the position, made once and pointed at each step
    #: in turn (:meth:`~tcgtrig.runtime.machine.Machine.check_loop`)
    _looking: Any = None
    #: counters the game's rules read (``None``: any may matter)
    _rule_counters: frozenset[str] | None = None
    chain_keys: ChainKeys = field(factory=ChainKeys)
    #: the pending effects whose trigger condition is re-checked while they wait
    conditional: Rechecks = field(factory=Rechecks)
    turns_ended: int = 0
    #: what a ``delay`` put off, with the effect it is part of, in the order put off
    #: (:meth:`~tcgtrig.runtime.performing.Performing.begin_delayed`)
    delayed: list[tuple[tuple[Action, ...], EffectRun]] = field(factory=list)
    #: who was asked the last ordering decision, until the effect they chose is taken
    _orderer: str | None = None
    #: the effect just taken while others waited, and its ``activated`` step's keys: the rule that put
    #: it first and the instance it went ahead of
    _placed: tuple[int, tuple[Any, ...]] | None = None
    #: chain games: the last chain that held more than one link (its links resolve by the chain's order)
    _stacked: int = 0
    #: whether the game builds chains (the ruleset's, read on every activation)
    chain: bool = field(init=False, default=False)
    #: whether what triggers while a chain resolves goes on top after each link (the ruleset's)
    on_top: bool = field(init=False, default=False)

    # -- implemented by Machine ---------------------------------------------------

    @abstractmethod
    def push(self, frame: Frame) -> None:
        """Put a frame on the stack (:meth:`Machine.push <tcgtrig.runtime.machine.Machine.push>`)."""
        raise NotImplementedError

    @abstractmethod
    def pop(self) -> None:
        """Take the top frame off the stack (:meth:`Machine.pop <tcgtrig.runtime.machine.Machine.pop>`)."""
        raise NotImplementedError

    @abstractmethod
    def new_id(self) -> int:
        """A new effect instance id (:meth:`Machine.new_id <tcgtrig.runtime.machine.Machine.new_id>`)."""
        raise NotImplementedError

    @abstractmethod
    def record(self, kind: str, effect: PendingEffect, **extra: Any) -> None:
        """Trace what happened to an effect (:meth:`Machine.record <tcgtrig.runtime.machine.Machine.record>`)."""
        raise NotImplementedError

    @abstractmethod
    def drop(self, effect: PendingEffect, drop: Drop) -> None:
        """Trace an effect that will not activate (:meth:`Machine.drop <tcgtrig.runtime.machine.Machine.drop>`)."""
        raise NotImplementedError

    @abstractmethod
    def end(self, reason: str, stoppable: bool | None = None) -> None:
        """End the resolution early, as the game scores it (:meth:`Machine.end
        <tcgtrig.runtime.machine.Machine.end>`)."""
        raise NotImplementedError

    @abstractmethod
    def _close(self, outcome: GameEnd) -> None:
        """End the resolution with ``outcome``; what is pending is lost
        (:meth:`Machine._close <tcgtrig.runtime.machine.Machine._close>`)."""
        raise NotImplementedError

    @abstractmethod
    def _ranked(self, effect: PendingEffect) -> PendingEffect:
        """``effect`` with the rank and trace details the game gives it
        (:meth:`Machine._ranked <tcgtrig.runtime.machine.Machine._ranked>`)."""
        raise NotImplementedError

    # -- implemented by Activating ------------------------------------------------

    @abstractmethod
    def scope_of(self, effect: PendingEffect) -> Scope:
        """What an effect's words mean now (:meth:`Activating.scope_of
        <tcgtrig.runtime.activation.Activating.scope_of>`)."""
        raise NotImplementedError

    @abstractmethod
    def spent(self, effect: PendingEffect) -> bool:
        """Whether an effect's per-turn uses are all spent (:meth:`Activating.spent
        <tcgtrig.runtime.activation.Activating.spent>`)."""
        raise NotImplementedError

    @abstractmethod
    def cite(self, rule: str, reason: str) -> str:
        """A core reason, with the game's rule for it (:meth:`Activating.cite
        <tcgtrig.runtime.activation.Activating.cite>`)."""
        raise NotImplementedError

    @abstractmethod
    def negate(self, action: Negate, run: EffectRun) -> None:
        """Negate chain links (:meth:`Activating.negate <tcgtrig.runtime.activation.Activating.negate>`)."""
        raise NotImplementedError

    # -- implemented by Performing ------------------------------------------------

    @abstractmethod
    def begin_action(self, action: Action, run: EffectRun) -> None:
        """Begin one action of an effect (:meth:`Performing.begin_action
        <tcgtrig.runtime.performing.Performing.begin_action>`)."""
        raise NotImplementedError

    @abstractmethod
    def begin_waiting(self, action: Action, run: EffectRun) -> None:
        """Begin an action not carried out at once (:meth:`Performing.begin_waiting
        <tcgtrig.runtime.performing.Performing.begin_waiting>`)."""
        raise NotImplementedError

    @abstractmethod
    def perform_now(self, action: Action, run: EffectRun) -> bool:
        """Carry out a primitive action at once, if no player picks its
        cards (:meth:`Performing.perform_now
        <tcgtrig.runtime.performing.Performing.perform_now>`)."""
        raise NotImplementedError

    @abstractmethod
    def happened(self, events: list[Event], before: dict[str, Card], run: EffectRun) -> None:
        """Record one moment (:meth:`Performing.happened <tcgtrig.runtime.performing.Performing.happened>`)."""
        raise NotImplementedError
