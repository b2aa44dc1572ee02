"""The resolution loop.

The engine is a small machine with an explicit stack of frames — no Python
recursion per nested trigger, effect or interrupt — so a cascade of any
depth runs in constant Python stack, and the whole position (state, pending
set, frames, trace) can be copied at any decision.

One pass of the main loop, for games that resolve at once (Digimon, Duel
Masters)::

    perform an effect's actions
      each action: choose its cards → open an interrupt window for the
      interrupts and replacements it would set off → apply what was not
      prevented (one moment) → note what it triggered
    settle: the game's rules processing, repeatedly; then what triggered
      becomes pending (one batch, ranked by the game)
    pick: the lowest-rank bucket; its player picks one; activate it
      (lost? condition? once per turn? optional?) and perform it

For chain games the picked effects go on a chain instead; when nothing is
pending, players respond in turn, and after two passes the chain resolves
last in, first out, before anything it triggered becomes pending.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Sequence
from typing import Any, Callable

from attrs import define, evolve, field

from . import actions as _actions
from .choices import DECLINE, NONE, PASS, USE, Chooser, Decision, EffectLabels
from .errors import ChoiceError
from .evaluate import Evaluator, Scope
from .info import ActivationContext, Drop, GameEnd
from .manager import Ruleset
from .model import (
    Ability,
    Action,
    Activate,
    Card,
    Event,
    If,
    May,
    Prevent,
    Query,
    Together,
)
from .pending import PendingEffect, PendingPool
from .state import GameState
from .trace import Step

__all__ = ["Engine", "AbilityIndex", "DEFAULT_MAX_STEPS"]

#: Activations and rules passes after which a resolution is declared endless.
DEFAULT_MAX_STEPS = 250_000
#: Frames deeper than this mean an effect keeps activating itself inline.
MAX_FRAMES = 50_000


# ---------------------------------------------------------------------------
# What the engine knows about abilities
# ---------------------------------------------------------------------------


@define(frozen=True)
class AbilityIndex:
    """Abilities found by event name, built once per resolution.

    Abilities never change during a resolution, so the index is shared by
    every copy of an engine.
    """

    triggers: dict[str, tuple[tuple[str, Ability], ...]]
    interrupts: dict[str, tuple[tuple[str, Ability], ...]]
    continuous: tuple[tuple[str, Ability], ...]
    by_key: dict[str, tuple[str, Ability]]

    @classmethod
    def build(cls, cards: Sequence[Card]) -> AbilityIndex:
        triggers: dict[str, list] = {}
        interrupts: dict[str, list] = {}
        continuous = []
        by_key = {}
        for card in cards:
            for ability in card.abilities:
                by_key[f"{card.id}.{ability.id}"] = (card.id, ability)
                if ability.kind == "continuous":
                    continuous.append((card.id, ability))
                elif ability.when is not None and ability.kind == "triggered":
                    triggers.setdefault(ability.when.event, []).append((card.id, ability))
                elif ability.when is not None and ability.kind in ("interrupt", "replacement"):
                    interrupts.setdefault(ability.when.event, []).append((card.id, ability))
        return cls(
            triggers={k: tuple(v) for k, v in triggers.items()},
            interrupts={k: tuple(v) for k, v in interrupts.items()},
            continuous=tuple(continuous),
            by_key=by_key,
        )

    def __deepcopy__(self, memo: dict) -> AbilityIndex:
        return self


@define(eq=False)
class Match:
    """An ability that matched events; it becomes pending at the next settle."""

    card: str
    ability: Ability
    self_card: str
    controller: str
    events: list[Event]
    moment: int
    incarnation: int
    cause: int
    depth: int


@define(eq=False)
class EffectRun:
    """One effect being carried out.

    :param scope: what ``self``, ``source``, ``event`` and players mean.
    :param instance: the effect's instance id (events it causes point here).
    :param trigger_cause: the instance its triggers are attributed to (an
        interrupt's triggers belong to the action it interrupted).
    :param depth: derivation depth; what it triggers is one deeper.
    :param by: ``effect`` or ``rule``: the ``by`` of its events.
    :param did: what its actions affected, by label and ``previous``.
    :param target: for an interrupt, the action it interrupts.
    :param ops: for an interrupt, the indexes of the target's ops it matched.
    :param start: the scenario's start actions (chain games: ``activate``
        there starts the chain).
    """

    scope: Scope
    instance: int
    trigger_cause: int
    depth: int
    by: str = "effect"
    did: dict[str, int] = field(factory=dict)
    target: Any = None
    ops: tuple[int, ...] = ()
    start: bool = False


# ---------------------------------------------------------------------------
# Frames
# ---------------------------------------------------------------------------


class Frame:
    """A unit of pending work; :meth:`step` advances it by one move."""

    def step(self, engine: Engine) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


@define(eq=False)
class MainLoop(Frame):
    start: tuple[Action, ...]
    phase: str = "start"
    labels: Any = None

    def step(self, engine: Engine) -> None:
        if self.phase == "start":
            engine.begin(self.start)
            self.phase = "settle"
        elif self.phase == "settle":
            self.phase = "pick"
            engine.push(Settle())
        elif self.phase == "pick":
            if engine.check_loop("pick"):
                return
            bucket = engine.pool.next_bucket()
            if not bucket:
                if engine.chain_links:
                    self.phase = "settle"
                    engine.push(ChainWindow())
                else:
                    engine.finish()
                return
            self.labels = EffectLabels(bucket)
            player = engine.ruleset.who_orders(engine.state, bucket)
            engine.ask(Decision(
                kind="order", player=player,
                prompt=f"which pending effect activates next ({len(bucket)} candidates)",
                options=self.labels, default=self.labels.first(), effect=None,
            ))
            self.phase = "picked"
        else:  # picked
            effect = self.labels.resolve(engine.take_answer())
            self.labels = None
            engine.pool.remove(effect.id)
            self.phase = "pick" if engine.ruleset.chain else "settle"
            engine.push(Activation(effect, "main"))


@define(eq=False)
class Settle(Frame):
    """Rules processing until quiet, then what triggered becomes pending."""

    phase: str = "rules"

    def step(self, engine: Engine) -> None:
        if self.phase == "rules":
            todo = engine.ruleset.rules_processing(engine.state, engine.view, engine.state.take_touched())
            if not todo:
                self.phase = "admit"
                return
            if engine.check_loop("rules"):
                return
            engine.run_rules(todo)
        else:
            engine.admit()
            engine.pop()


@define(eq=False)
class Activation(Frame):
    """Try to activate one effect: lost? allowed? used? then do it."""

    effect: PendingEffect
    window: str
    target: Any = None
    parent: EffectRun | None = None
    phase: str = "check"

    def step(self, engine: Engine) -> None:
        effect = self.effect
        if self.phase == "check":
            if self.window in ("main", "interrupt"):
                drop = engine.ruleset.check_pending(engine.state, effect, "activation", engine.moment)
                if drop is not None:
                    engine.drop(effect, drop)
                    engine.pop()
                    return
            reason = engine.activation_failure(effect, self.window, self.target)
            if reason is not None:
                engine.record("failed", effect, reason=reason)
                engine.pop()
                return
            if effect.ability.optional:
                engine.ask(Decision(
                    kind="use", player=effect.controller, prompt=f"use {effect.key}?",
                    options=(USE, DECLINE), default=USE, effect=effect.key,
                ))
                self.phase = "answer"
                return
            self.phase = "go"
        if self.phase == "answer":
            if engine.take_answer() == DECLINE:
                engine.record("declined", effect)
                engine.pop()
                return
            self.phase = "go"
        engine.pop()
        engine.activate(effect, self.window, self.target, self.parent)


@define(eq=False)
class RunActions(Frame):
    """Carry out a list of actions one after another ("then")."""

    actions: tuple[Action, ...]
    run: EffectRun
    index: int = 0

    def step(self, engine: Engine) -> None:
        if self.index >= len(self.actions):
            engine.pop()
            return
        action = self.actions[self.index]
        self.index += 1
        engine.begin_action(action, self.run)


@define(eq=False)
class MayFrame(Frame):
    action: May
    run: EffectRun
    asked: bool = False

    def step(self, engine: Engine) -> None:
        if not self.asked:
            self.asked = True
            engine.ask(Decision(
                kind="may", player=self.run.scope.controller,
                prompt=f"{self.run.scope.key}: do the optional part?",
                options=(USE, DECLINE), default=USE, effect=self.run.scope.key,
            ))
            return
        chosen = self.action.then if engine.take_answer() == USE else self.action.else_
        engine.pop()
        if chosen:
            engine.push(RunActions(chosen, self.run))


@define(eq=False)
class Perform(Frame):
    """One primitive action (or a ``together`` group): choose cards,
    open the interrupt window, apply what was not prevented."""

    parts: tuple[Action, ...]
    run: EffectRun
    label: str | None = None
    phase: str = "select"
    slots: list = field(factory=list)
    slot: int = 0
    chosen: list = field(factory=list)
    picking: list | None = None
    ops: list = field(factory=list)
    prevented: set = field(factory=set)

    def step(self, engine: Engine) -> None:
        if self.phase == "select":
            if not self.slots and not self.chosen:
                self.chosen = [dict() for _ in self.parts]
                for number, part in enumerate(self.parts):
                    for name in _actions.card_fields(part):
                        selector = getattr(part, name)
                        if selector is not None:
                            self.slots.append((number, name, selector))
            if self.select(engine):
                return  # waiting for a pick
            self.phase = "plan"
        if self.phase == "plan":
            for number, part in enumerate(self.parts):
                self.ops.extend(_actions.plan(engine, number, part, self.chosen[number],
                                              self.run.scope, self.run.by))
            self.phase = "apply"
            if self.ops:
                engine.open_window(self)
            return
        engine.pop()
        todo = [op for index, op in enumerate(self.ops) if index not in self.prevented]
        events, before = _actions.apply(engine, todo)
        engine.happened(events, before, self.run)
        count = len(events)
        self.run.did["previous"] = count
        if self.label:
            self.run.did[self.label] = count

    def select(self, engine: Engine) -> bool:
        """Resolve selectors; ask for picks.  True while waiting for an answer."""
        while self.slot < len(self.slots):
            number, name, selector = self.slots[self.slot]
            if self.picking is None:
                candidates = engine.view.select(selector, self.run.scope)
                need = selector.pick if isinstance(selector, Query) else None
                if need is None or (len(candidates) <= need and not selector.upto):
                    self.chosen[number][name] = candidates
                    self.slot += 1
                    continue
                self.picking = [candidates, [], need, selector.upto]
            candidates, picked, need, upto = self.picking
            if engine.has_answer():
                label = engine.take_answer()
                if label == NONE:
                    need = len(picked)
                else:
                    picked.append(label)
                    candidates.remove(label)
                self.picking = [candidates, picked, need, upto]
            if len(picked) >= need or not candidates:
                self.chosen[number][name] = picked
                self.picking = None
                self.slot += 1
                continue
            options = tuple(candidates) + ((NONE,) if upto else ())
            what = _actions.describe(self.parts[number])
            engine.ask(Decision(
                kind="target", player=self.run.scope.controller,
                prompt=f"{self.run.scope.key}: pick a card to {what} ({len(picked) + 1} of {need})",
                options=options, default=options[0], effect=self.run.scope.key,
            ))
            return True
        return False


@define(eq=False)
class InterruptWindow(Frame):
    """Interrupts and replacements before an action, one at a time."""

    target: Perform
    pool: PendingPool
    owns_series: bool
    phase: str = "pick"
    labels: Any = None

    def step(self, engine: Engine) -> None:
        if self.phase == "pick":
            bucket = self.pool.next_bucket()
            if not bucket:
                engine.close_window(self)
                return
            self.labels = EffectLabels(bucket)
            first = next(iter(bucket.values()))
            engine.ask(Decision(
                kind="order", player=first.controller,
                prompt=f"which interrupting effect activates next ({len(bucket)} candidates)",
                options=self.labels, default=self.labels.first(),
            ))
            self.phase = "picked"
            return
        effect = self.labels.resolve(engine.take_answer())
        self.labels = None
        self.pool.remove(effect.id)
        self.phase = "pick"
        engine.push(Activation(effect, "interrupt", target=self.target))


@define(eq=False)
class InlineActivation(Frame):
    """``activate: KEY`` — use another ability from inside an effect."""

    key: str
    run: EffectRun

    def step(self, engine: Engine) -> None:
        engine.pop()
        card_id, ability = engine.index.by_key[self.key]
        card = engine.state.cards[card_id]
        self_card = engine.view.self_of(card, ability)
        effect = PendingEffect(
            id=engine.new_id(), key=self.key, card=card_id, ability=ability,
            controller=engine.state.cards[self_card].owner, self_card=self_card,
            events=self.run.scope.events, timing=engine.timing, depth=self.run.depth,
            cause=self.run.instance, incarnation=card.incarnation, window="inline",
        )
        window = "chain" if (engine.chain and self.run.start) else "inline"
        engine.push(Activation(effect, window, parent=self.run))


@define(eq=False)
class ChainWindow(Frame):
    """Chain games: players respond in turn; two passes resolve the chain."""

    passes: int = 0
    labels: Any = None

    def step(self, engine: Engine) -> None:
        if self.labels is not None:
            label = engine.take_answer()
            candidates = self.labels
            self.labels = None
            if label == PASS:
                self.passes += 1
            else:
                self.passes = 0
                engine.push(Activation(candidates[label], "chain"))
                return
        if not engine.chain_links:
            engine.pop()
            return
        player = engine.ruleset.chain_responder(engine.state, tuple(engine.chain_links), self.passes)
        if player is None or self.passes >= 2:
            engine.pop()
            engine.push(ResolveChain())
            return
        candidates = engine.responses(player)
        if not candidates:
            self.passes += 1
            return
        self.labels = candidates
        engine.ask(Decision(
            kind="respond", player=player, prompt=f"respond to chain link {len(engine.chain_links)}?",
            options=tuple(candidates) + (PASS,), default=PASS,
        ))


@define(eq=False)
class ResolveChain(Frame):
    def step(self, engine: Engine) -> None:
        if not engine.chain_links:
            engine.pop()
            return
        effect = engine.chain_links.pop()
        engine.resolve(effect, EffectRun(
            scope=engine.scope_of(effect), instance=effect.id, trigger_cause=effect.id,
            depth=effect.depth,
        ), link=len(engine.chain_links) + 1)


# ---------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------


@define(eq=False)
class _LoopGuard:
    """Brent's cycle detection over positions, O(1) per step."""

    limit: int
    steps: int = 0
    power: int = 1
    lam: int = 0
    saved_quick: Any = None
    saved_full: Any = None

    def tick(self, quick: Any, full: Callable[[], Any]) -> str | None:
        self.steps += 1
        if self.steps > self.limit:
            return f"no end after {self.limit} activations and rules passes"
        if quick == self.saved_quick and full() == self.saved_full:
            return f"the same position came back after {self.lam} steps"
        self.lam += 1
        if self.lam >= self.power:
            self.saved_quick = quick
            self.saved_full = full()
            self.power *= 2
            self.lam = 0
        return None


@define(eq=False)
class Engine:
    """Resolves one position under one ruleset.

    Drive it with :meth:`run` and a chooser, or step by step with
    :meth:`advance` (returns the next :class:`Decision`, or ``None`` when
    done) and :meth:`answer`.  :meth:`copy` branches the whole position.

    :param ruleset: the game (:func:`tcgtrig.load_ruleset`).
    :param state: the position; the engine changes it.
    :param start: the actions the turn player performs as one effect.
    :param max_steps: activations plus rules passes before the resolution
        is declared endless.
    """

    ruleset: Ruleset
    state: GameState
    start: tuple[Action, ...] = field(converter=tuple, default=())
    max_steps: int = DEFAULT_MAX_STEPS
    pool: PendingPool = field(factory=PendingPool)
    trace: list[Step] = field(factory=list)
    frames: list[Frame] = field(factory=list)
    matched: list[Match] = field(factory=list)
    windows: list[InterruptWindow] = field(factory=list)
    chain_links: list[PendingEffect] = field(factory=list)
    series: set[str] | None = None
    decision: Decision | None = None
    outcome: GameEnd | None = None
    moment: int = 0
    timing: int = 0
    last_depth: int = 0
    last_instance: int = 0
    chooser_fingerprint: Callable[[], Any] | None = None
    index: AbilityIndex = field(default=None)
    view: Evaluator = field(default=None)
    _next_id: int = 1
    _answer: str | None = None
    _answered: bool = False
    _guard: _LoopGuard = field(default=None)

    def __attrs_post_init__(self) -> None:
        if self.index is None:
            self.index = AbilityIndex.build(list(self.state.cards.values()))
        self.view = Evaluator(self.state, self.index.continuous)
        if self._guard is None:
            self._guard = _LoopGuard(self.max_steps)
        if not self.frames and self.outcome is None:
            self.frames.append(MainLoop(self.start))

    # -- driving --------------------------------------------------------------

    @property
    def chain(self) -> bool:
        return self.ruleset.chain

    @property
    def finished(self) -> bool:
        return not self.frames or self.outcome is not None

    def advance(self) -> Decision | None:
        """Run until a player must decide (returned) or the end (``None``)."""
        frames = self.frames
        while frames and self.decision is None and self.outcome is None:
            frames[-1].step(self)
        return self.decision

    def answer(self, label: str) -> None:
        """Answer the pending decision with one of its labels."""
        decision = self.decision
        if decision is None:
            raise RuntimeError("no decision is pending")
        if label not in decision.options:
            raise ChoiceError(decision.describe(), label, decision.legal())
        if len(decision.options) > 1:
            self.trace.append(Step.make(
                "choice", decision=decision.kind, player=decision.player, label=label,
                effect=decision.effect,
                options=tuple(decision.options) if len(decision.options) <= 50 else len(decision.options),
            ))
        self.decision = None
        self._answer = label
        self._answered = True

    def run(self, chooser: Chooser) -> Engine:
        """Resolve to the end, asking ``chooser`` for every decision."""
        self.chooser_fingerprint = getattr(chooser, "fingerprint", None)
        while (decision := self.advance()) is not None:
            self.answer(chooser.choose(decision, self))
        return self

    def copy(self) -> Engine:
        """An independent copy of the whole position, e.g. to explore a choice."""
        new_state = self.state.copy()
        memo: dict[int, Any] = {id(self.state): new_state, id(self.ruleset): self.ruleset,
                                id(self.index): self.index}
        clone = _copy.copy(self)
        clone.state = new_state
        clone.pool = self.pool.copy()
        memo[id(self.pool)] = clone.pool
        clone.trace = list(self.trace)
        clone.frames = _copy.deepcopy(self.frames, memo)
        clone.windows = _copy.deepcopy(self.windows, memo)
        clone.matched = _copy.deepcopy(self.matched, memo)
        clone.chain_links = list(self.chain_links)
        clone.series = set(self.series) if self.series is not None else None
        clone._guard = _copy.copy(self._guard)
        clone.view = Evaluator(new_state, self.index.continuous)
        return clone

    # -- frames ---------------------------------------------------------------

    def push(self, frame: Frame) -> None:
        if len(self.frames) >= MAX_FRAMES:
            self.end(f"effects kept activating one another inside one effect ({MAX_FRAMES} nested)")
            return
        self.frames.append(frame)

    def pop(self) -> None:
        self.frames.pop()

    def ask(self, decision: Decision) -> None:
        """Ask a player; a decision with one legal option answers itself."""
        if len(decision.options) == 1:
            self._answer = decision.options[0]
            self._answered = True
            return
        self.decision = decision

    def has_answer(self) -> bool:
        return self._answered

    def take_answer(self) -> str:
        if not self._answered:
            raise RuntimeError("no answer to take")
        self._answered = False
        answer, self._answer = self._answer, None
        return answer  # type: ignore[return-value]

    def new_id(self) -> int:
        number = self._next_id
        self._next_id += 1
        return number

    # -- the trace --------------------------------------------------------------

    def record(self, kind: str, effect: PendingEffect, **extra: Any) -> None:
        self.trace.append(Step.make(
            kind, effect=effect.key, player=effect.controller, id=effect.id, cause=effect.cause,
            **dict(effect.details), **extra,
        ))

    def drop(self, effect: PendingEffect, drop: Drop) -> None:
        if drop.kind != "void":
            self.record(drop.kind, effect, reason=drop.reason or None)

    def end(self, reason: str) -> None:
        self.outcome = self.ruleset.endless_loop(self.state, reason)
        self.trace.append(Step.make("ended", outcome=self.outcome.outcome, reason=self.outcome.reason))
        self.frames.clear()
        self.decision = None

    def finish(self) -> None:
        self.frames.clear()

    # -- loops ----------------------------------------------------------------

    def check_loop(self, where: str) -> bool:
        """Count a step; end the resolution if the position repeats."""
        chooser = self.chooser_fingerprint() if self.chooser_fingerprint else None
        quick = (where, self.state.fingerprint(), self.pool.quick_fingerprint(), len(self.frames), chooser)

        def full() -> Any:
            cards = tuple(c.dynamic() for c in self.state.cards.values())
            counters = tuple(sorted((p, tuple(sorted(v.items()))) for p, v in self.state.counters.items()))
            frames = tuple((type(f).__name__, getattr(f, "phase", None)) for f in self.frames)
            return (where, cards, counters, tuple(sorted(self.state.used)), self.pool.fingerprint(),
                    frames, chooser)

        reason = self._guard.tick(quick, full)
        if reason is not None:
            self.end(f"endless loop: {reason}")
            return True
        return False

    # -- starting and settling ------------------------------------------------------

    def begin(self, start: tuple[Action, ...]) -> None:
        player = self.state.turn_player
        self.trace.append(Step.make("start", effect="start", player=player, id=0))
        run = EffectRun(scope=Scope(key="start", controller=player), instance=0, trigger_cause=0,
                        depth=0, start=True)
        self.push(RunActions(start, run))

    def run_rules(self, actions: Sequence[Action]) -> None:
        """Perform what rules processing returned, all at one moment."""
        player = self.state.turn_player
        actions = _flatten(Together(actions=tuple(actions)))
        cards = []
        for action in actions:
            selector = getattr(action, "card", None)
            if selector is not None:
                cards.extend(self.view.select(selector, Scope(key="rules", controller=player)))
        self.state.touch(cards)  # look again next pass, even if the batch was prevented
        self.trace.append(Step.make("rules", player=player, cards=tuple(cards), cause=self.last_instance))
        run = EffectRun(scope=Scope(key="rules", controller=player), instance=self.last_instance,
                        trigger_cause=self.last_instance, depth=self.last_depth, by="rule")
        self.push(Perform(tuple(actions), run))

    def admit(self) -> None:
        """What triggered since the last settle becomes pending, as one batch."""
        if not self.matched:
            return
        self.timing += 1
        matched, self.matched = self.matched, []
        for match in matched:
            effect = PendingEffect(
                id=self.new_id(), key=f"{match.card}.{match.ability.id}", card=match.card,
                ability=match.ability, controller=match.controller, self_card=match.self_card,
                events=tuple(match.events), moment=match.moment, timing=self.timing,
                depth=match.depth, cause=match.cause, incarnation=match.incarnation,
            )
            effect = self._ranked(effect)
            drop = self.ruleset.check_pending(self.state, effect, "admission", self.moment)
            if drop is None and self.chain:
                drop = self.ruleset.check_pending(self.state, effect, "window", self.moment)
            if drop is not None and drop.kind == "void":
                continue
            self.record("triggered", effect, event=match.events[0].name)
            if drop is not None:
                self.drop(effect, drop)
                continue
            self.pool.add(effect)

    def _ranked(self, effect: PendingEffect) -> PendingEffect:
        effect = effect.placed(self.ruleset.rank(self.state, effect))
        details = self.ruleset.details(self.state, effect)
        return effect.placed(effect.rank, details) if details else effect

    # -- activation -------------------------------------------------------------

    def scope_of(self, effect: PendingEffect) -> Scope:
        return Scope(key=effect.key, controller=effect.controller, card=effect.card,
                     self_card=effect.self_card, events=effect.events)

    def activation_failure(self, effect: PendingEffect, window: str, target: Any) -> str | None:
        ability = effect.ability
        if ability.once_per_turn and self.state.is_used(self.ruleset.once_per_turn_key(self.state, effect)):
            return "once per turn: already used this turn"
        if not self.view.holds(ability.condition, self.scope_of(effect)):
            return "its condition is not met"
        context = ActivationContext(
            window=window,
            series=frozenset(self.series or ()),
            interrupting=tuple(op.event.name for op in target.ops) if target is not None else (),
            chain=tuple(e.key for e in self.chain_links),
        )
        return self.ruleset.blocked(self.state, effect, context)

    def activate(self, effect: PendingEffect, window: str, target: Any, parent: EffectRun | None) -> None:
        ability = effect.ability
        if ability.once_per_turn:
            self.state.mark_used(self.ruleset.once_per_turn_key(self.state, effect))
        if window == "interrupt" and self.series is not None:
            self.series.add(effect.key)
        if window in ("main", "chain") and self.chain:
            self.record("activated", effect, link=len(self.chain_links) + 1)
            self.chain_links.append(effect)
            return
        if ability.kind == "replacement":
            self.record("applied", effect)
        else:
            self.record("activated", effect)
        if window == "interrupt":
            matched = tuple(i for i, op in enumerate(target.ops) if op.event in effect.events)
            run = EffectRun(scope=self.scope_of(effect), instance=effect.id,
                            trigger_cause=target.run.trigger_cause, depth=target.run.depth,
                            target=target, ops=matched)
        elif window == "inline" and parent is not None:
            run = EffectRun(scope=self.scope_of(effect), instance=effect.id,
                            trigger_cause=parent.trigger_cause, depth=parent.depth,
                            target=parent.target, ops=parent.ops)
        else:
            run = EffectRun(scope=self.scope_of(effect), instance=effect.id,
                            trigger_cause=effect.id, depth=effect.depth)
        self.resolve(effect, run, record=ability.kind != "replacement")

    def resolve(self, effect: PendingEffect, run: EffectRun, *, record: bool = True, link: int | None = None) -> None:
        if record:
            self.record("resolved", effect, link=link)
        if run.trigger_cause == effect.id:
            self.last_instance = effect.id
            self.last_depth = effect.depth
        if effect.ability.do:
            self.push(RunActions(effect.ability.do, run))

    def responses(self, player: str) -> dict[str, PendingEffect]:
        """Chain games: the activated abilities ``player`` may respond with."""
        found: dict[str, PendingEffect] = {}
        chain = tuple(self.chain_links)
        for key, (card_id, ability) in self.index.by_key.items():
            if ability.kind != "activated":
                continue
            card = self.state.cards[card_id]
            if card.zone not in ability.active_in:
                continue
            self_card = self.view.self_of(card, ability)
            if self.state.cards[self_card].owner != player:
                continue
            effect = PendingEffect(
                id=0, key=key, card=card_id, ability=ability, controller=player, self_card=self_card,
                timing=self.timing, depth=self.last_depth + 1, cause=self.last_instance,
                incarnation=card.incarnation, window="chain",
            )
            if self.activation_failure(effect, "chain", None) is not None:
                continue
            if self.ruleset.can_respond(self.state, chain, effect):
                found[key] = effect
        return {key: evolve(e, id=self.new_id()) for key, e in found.items()}

    # -- actions ----------------------------------------------------------------

    def begin_action(self, action: Action, run: EffectRun) -> None:
        if isinstance(action, If):
            branch = action.then if self.view.holds(action.condition, run.scope, run.did) else action.else_
            if branch:
                self.push(RunActions(branch, run))
        elif isinstance(action, May):
            self.push(MayFrame(action, run))
        elif isinstance(action, Activate):
            self.push(InlineActivation(action.key, run))
        elif isinstance(action, Prevent):
            self.prevent(action, run)
        elif isinstance(action, Together):
            self.push(Perform(tuple(_flatten(action)), run, label=action.label))
        else:
            self.push(Perform((action,), run, label=getattr(action, "label", None)))

    def prevent(self, action: Prevent, run: EffectRun) -> None:
        target: Perform | None = run.target
        if target is None:
            return
        if action.card is None:
            indexes = run.ops
        else:
            cards = set(self.view.select(action.card, run.scope))
            indexes = tuple(i for i, op in enumerate(target.ops) if op.subject in cards)
        count = 0
        for index in indexes:
            if index in target.prevented:
                continue
            target.prevented.add(index)
            count += 1
            op = target.ops[index]
            self.trace.append(Step.make(
                "prevented", effect=run.scope.key, player=run.scope.controller, id=run.instance,
                cause=run.instance, event=op.event.name, card=op.subject,
            ))
        run.did["previous"] = count
        if action.label:
            run.did[action.label] = count

    def open_window(self, target: Perform) -> None:
        """Find the interrupts and replacements ``target`` sets off."""
        found: dict[tuple[str, str], Match] = {}
        state = self.state
        for op in target.ops:
            event = op.event
            for name in event.names():
                for card_id, ability in self.index.interrupts.get(name, ()):
                    card = state.cards[card_id]
                    if card.zone not in ability.active_in:
                        continue
                    self_card = self.view.self_of(card, ability)
                    controller = state.cards[self_card].owner
                    if not self.view.matches(ability.when, event, controller, self_card, card_id):
                        continue
                    match = found.get((card_id, ability.id))
                    if match is None:
                        match = found[(card_id, ability.id)] = Match(
                            card_id, ability, self_card, controller, [], self.moment,
                            card.incarnation, target.run.instance, target.run.depth + 1)
                    if event not in match.events:
                        match.events.append(event)
        if not found:
            return
        owns = self.series is None
        if owns:
            self.series = set()
        self.timing += 1
        pool = PendingPool()
        what = ", ".join(f"{op.event.name} {op.subject or op.event.player}" for op in target.ops[:6])
        for match in found.values():
            effect = PendingEffect(
                id=self.new_id(), key=f"{match.card}.{match.ability.id}", card=match.card,
                ability=match.ability, controller=match.controller, self_card=match.self_card,
                events=tuple(match.events), moment=self.moment, timing=self.timing,
                depth=match.depth, cause=target.run.instance, incarnation=match.incarnation,
                window="interrupt",
            )
            effect = self._ranked(effect)
            if match.ability.kind != "replacement":  # a replacement applies; it is not triggered
                self.record("triggered", effect, event=match.events[0].name, interrupting=what)
            pool.add(effect)
        window = InterruptWindow(target, pool, owns)
        self.windows.append(window)
        self.push(window)

    def close_window(self, window: InterruptWindow) -> None:
        self.pop()
        self.windows.remove(window)
        if window.owns_series:
            self.series = None

    def happened(self, events: list[Event], before: dict[str, Card], run: EffectRun) -> None:
        """Record one moment: trace it, match triggers, drop what moved away."""
        if not events:
            return
        self.moment += 1
        moment = self.moment
        for event in events:
            self.trace.append(Step.make(
                "event", event=event.name, card=event.card, player=event.player,
                **{"from": event.from_}, to=event.to, by=event.by, counter=event.counter,
                amount=event.amount, flag=event.flag, stat=event.stat,
                cards=event.cards or None, cause=run.instance,
            ))
        self._match(events, before, run, moment)
        for card_id in before:
            self._check_moved(card_id)

    def _match(self, events: list[Event], before: dict[str, Card], run: EffectRun, moment: int) -> None:
        state = self.state
        view = self.view
        found: dict[tuple[str, str], Match] = {}
        for event in events:
            for name in event.names():
                for card_id, ability in self.index.triggers.get(name, ()):
                    now = state.cards[card_id]
                    hit = None
                    if now.zone in ability.active_in:
                        self_card = view.self_of(now, ability)
                        controller = state.cards[self_card].owner
                        if view.matches(ability.when, event, controller, self_card, card_id):
                            hit = (self_card, controller)
                    if hit is None and card_id in before:
                        was = before[card_id]
                        if was.zone in ability.active_in:
                            self_card = view.self_of(was, ability, before)
                            # look back only for events about the card itself (or its top card)
                            if event.card in (self_card, card_id):
                                controller = view.owner_in(self_card, before)
                                if view.matches(ability.when, event, controller, self_card, card_id):
                                    hit = (self_card, controller)
                    if hit is None:
                        continue
                    match = found.get((card_id, ability.id))
                    if match is None:
                        match = found[(card_id, ability.id)] = Match(
                            card_id, ability, hit[0], hit[1], [], moment, now.incarnation,
                            run.trigger_cause, run.depth + 1)
                    if event not in match.events:
                        match.events.append(event)
        self.matched.extend(found.values())

    def _check_moved(self, card_id: str) -> None:
        pools = [self.pool] + [w.pool for w in self.windows]
        for pool in pools:
            for effect in pool.of_card(card_id):
                drop = self.ruleset.check_pending(self.state, effect, "moved", self.moment)
                if drop is not None:
                    pool.remove(effect.id)
                    self.drop(effect, drop)


def _flatten(together: Together) -> list[Action]:
    """The primitive actions of a ``together`` (nested groups flattened)."""
    out: list[Action] = []
    todo: list[Action] = list(reversed(together.actions))
    while todo:
        action = todo.pop()
        if isinstance(action, Together):
            todo.extend(reversed(action.actions))
        else:
            out.append(action)
    return out

