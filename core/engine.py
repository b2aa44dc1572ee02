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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from attrs import define, evolve, field, setters

from .actions import card_fields, plan
from .choices import Chooser, Decision
from .errors import ChoiceError
from .evaluate import Evaluator, Scope, relative_player
from .frames import (
    EffectRun,
    Frame,
    InlineActivation,
    InterruptWindow,
    MainLoop,
    MayFrame,
    Perform,
    ResolveEffect,
    RunActions,
    flatten,
)
from .info import ActivationContext, ChainKeys, Drop, GameEnd
from .loops import GrowthGuard, LoopGuard
from .manager import Ruleset, load_ruleset
from .model import (
    SOURCES,
    Action,
    Activate,
    AtTrigger,
    Card,
    CounterIs,
    Draw,
    Emit,
    Event,
    Gain,
    If,
    May,
    PassTurn,
    Prevent,
    Query,
    ResolvePending,
    Together,
)
from .pending import PendingEffect, PendingPool
from .scenario import Compiled, Scenario
from .state import GameState
from .trace import Step
from .triggers import AbilityIndex, Match, match_interrupts, match_triggers

if TYPE_CHECKING:
    from .resolution import Resolution

__all__ = ["Engine", "Machine", "DEFAULT_MAX_STEPS", "MAX_FRAMES"]

#: Activations and rules passes after which a resolution is declared endless.
DEFAULT_MAX_STEPS = 250_000
#: Frames deeper than this mean an effect keeps activating itself inline.
MAX_FRAMES = 50_000
#: turns a resolution may end by itself (``tcgtrig_turn_ends``) before it is
#: called endless
MAX_TURNS_ENDED = 1_000


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class Machine:
    """The working parts of an :class:`Engine`: the frames drive it.

    Everything here is internal to tcgtrig (frames, explore, save and
    resume use it); programs use :class:`Engine`.
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
    due: dict[str, dict[int, None]] = field(factory=dict)
    offers: list[PendingEffect] = field(factory=list)
    shown: set[int] = field(factory=set)
    last_events: tuple[Event, ...] = ()
    chains: int = 0
    resolving_link: int = 0
    answered_moment: int = -1
    series: set[str] | None = None
    decision: Decision | None = None
    outcome: GameEnd | None = None
    moment: int = 0
    last_moment: int = 0
    timing: int = 0
    last_depth: int = 0
    last_instance: int = 0
    asked: int = 0
    chooser_fingerprint: Callable[[], Any] | None = None
    index: AbilityIndex = field(default=None)
    view: Evaluator = field(default=None)
    _next_id: int = 1
    _answer: str | None = None
    _answered: bool = False
    _guard: LoopGuard = field(default=None)
    _growth: GrowthGuard = field(factory=GrowthGuard)
    #: counters the game's rules read (``None``: any may matter)
    _rule_counters: frozenset[str] | None = None
    #: the conditions of the position that read a counter
    _counter_reads: tuple[CounterIs, ...] = ()
    #: counters the position's actions only ever raise, or only ever lower
    _one_way: frozenset[str] = frozenset()
    chain_keys: ChainKeys = field(factory=ChainKeys)
    conditional: dict[int, None] = field(factory=dict)
    turns_ended: int = 0
    #: whether the game builds chains (the ruleset's, read on every activation)
    chain: bool = field(init=False, default=False)

    def __attrs_post_init__(self) -> None:
        self.chain = self.ruleset.chain
        if self.index is None:
            self.index = AbilityIndex.build(list(self.state.cards.values()), self.start)
        self.view = Evaluator(self.state, self.index.continuous)
        if self._guard is None:
            self._guard = LoopGuard(self.max_steps)
        rule_counters = self.ruleset.info.rule_counters
        if rule_counters is not None:
            self._rule_counters = frozenset(rule_counters)
            self._counter_reads = self.index.counter_reads
            self._one_way = self.index.one_way
        if not self.frames and self.outcome is None:
            self.frames.append(MainLoop(self.start))

    # -- driving --------------------------------------------------------------

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

    def copy(self) -> Machine:
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
        clone.chain_keys = ChainKeys(self.chain_keys)
        clone.due = {player: dict(ids) for player, ids in self.due.items()}
        clone.offers = list(self.offers)
        clone.shown = set(self.shown)
        clone.conditional = dict(self.conditional)
        clone.series = set(self.series) if self.series is not None else None
        clone._guard = _copy.copy(self._guard)
        clone._growth = _copy.copy(self._growth)
        clone.view = Evaluator(new_state, self.index.continuous)
        return clone

    # -- frames ---------------------------------------------------------------

    def push(self, frame: Frame) -> None:
        if len(self.frames) >= MAX_FRAMES:
            self.end(f"endless loop: effects kept activating one another inside one effect ({MAX_FRAMES} nested)")
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
        self.asked += 1
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
        """Trace what happened to an effect: its key, player, id and cause,
        the game's details of it, then ``extra`` (``None`` values left out)."""
        flat = ["effect", effect.key, "player", effect.controller, "id", effect.id]
        if effect.cause is not None:
            flat += ("cause", effect.cause)
        for key, value in effect.details:
            if value is not None:
                flat += (key, value)
        for key, value in extra.items():
            if value is not None:
                flat += (key, value)
        self.trace.append(Step.from_flat(kind, tuple(flat)))

    def drop(self, effect: PendingEffect, drop: Drop) -> None:
        if drop.kind != "void":
            self.record(drop.kind, effect, reason=drop.reason or None)

    def end(self, reason: str, stoppable: bool | None = None) -> None:
        """End the resolution early (an endless loop); what is still pending is lost."""
        self.outcome = self.ruleset.endless_loop(self.state, reason, stoppable)
        for pool in [w.pool for w in reversed(self.windows)] + [self.pool]:
            for effect in list(pool):
                pool.remove(effect.id)
                self.record("lost", effect, reason="the resolution ended before it could activate")
        self.trace.append(Step.make("ended", outcome=self.outcome.outcome, reason=self.outcome.reason))
        self.frames.clear()
        self.decision = None

    def finish(self) -> None:
        self.frames.clear()

    # -- loops ----------------------------------------------------------------

    def position(self) -> Any:
        """What makes the position what it is, apart from how it was reached:
        the cards, counters, per-turn uses and turn, what is pending (the
        pool, interrupt windows, the chain, offers, due declarations), and
        where each frame is — its phase, how far its action list has got
        (two step boundaries in a row are two places), whose effect it runs
        and what that effect did.  Equal positions play out alike (loop
        detection, ``explore``)."""
        state = self.state
        frames = tuple(
            (type(f).__name__, getattr(f, "phase", None), getattr(f, "index", None),
             f.run.scope.key if hasattr(f, "run") else None,
             tuple(sorted(f.run.did.items())) if hasattr(f, "run") else ())
            for f in self.frames)
        return (
            tuple(c.dynamic() for c in state.cards.values()),
            self.counters_now(),
            tuple(sorted(state.used.items())), state.turn, state.turn_player,
            self.pool.fingerprint(),
            tuple(w.pool.fingerprint() for w in self.windows),
            tuple(e.signature() for e in self.chain_links), tuple(e.signature() for e in self.offers),
            tuple(sorted((p, len(ids)) for p, ids in self.due.items())),
            tuple(sorted(self.series)) if self.series is not None else None,
            frames,
        )

    def counters_now(self) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
        """Every player's counters, in a fixed order."""
        return tuple(sorted((p, tuple(sorted(v.items()))) for p, v in self.state.counters.items()))

    def check_loop(self, where: str) -> bool:
        """Count a step; end the resolution if the position repeats."""
        chooser = self.chooser_fingerprint() if self.chooser_fingerprint else None
        top = self.chain_links[-1].signature() if self.chain_links else None
        # what the quick look at the position shares with the look that leaves out the counters
        rest = (self.pool.quick_fingerprint(), len(self.frames), chooser, len(self.chain_links), top,
                len(self.offers), self.state.turn, self.state.turn_player)
        quick = (where, self.state.fingerprint(), rest)

        def full() -> Any:
            return (where, self.position(), chooser)

        verdict = self._guard.tick(quick, full, self.asked)
        if verdict is not None:
            reason, stoppable = verdict
            self.end(reason, stoppable)
            return True
        if self._rule_counters is None:
            return False
        shape_quick = (where, self.state.shape_fingerprint(), rest)

        def shape() -> Any:
            position = self.position()
            return (where, position[:1] + position[2:], chooser)

        growing = self._growth.tick(shape_quick, shape, lambda: self.state.counters, len(self.trace), self.asked,
                                    self._rule_counters, self._counter_reads, self._one_way,
                                    self._guard.limit - self._guard.steps)
        if growing is None:
            return False
        members = list(dict.fromkeys(step.get("effect") for step in self.trace[growing.since:]
                                     if step.kind == "activated" and step.get("effect")))
        shown = ", ".join(members[:8]) + (f" and {len(members) - 8} more" if len(members) > 8 else "")
        grown = ", ".join(growing.grown)
        if growing.steady is None:
            self.end(f"endless loop: {shown} kept recurring with only {grown} changing, and nothing that reads "
                     "them can stop it", growing.stoppable)
        else:
            self.end(f"step limit reached: {shown} kept recurring with only {grown} changing, and what reads "
                     f"{'them' if len(growing.grown) > 1 else 'it'} cannot change for another {growing.steady:,} "
                     f"steps: the limit of {self._guard.limit} steps comes first (max_steps or --max-steps "
                     "raises it)", None)
        return True

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
        actions = flatten(Together(actions=tuple(actions)))
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
        """What triggered since the last settle becomes pending, as one batch.

        An optional effect whose use the game has its controller declare
        (``tcgtrig_declared_use``) waits with its declaration ``due``.
        """
        if not self.matched:
            return
        self.timing += 1
        matched, self.matched = self.matched, []
        for match in matched:
            effect = PendingEffect(
                id=self.new_id(), key=match.key or f"{match.card}.{match.ability.id}", card=match.card,
                ability=match.ability, controller=match.controller, self_card=match.self_card,
                events=tuple(match.events), moment=match.moment, timing=self.timing, granted=match.granted,
                grant=match.grant,
                depth=match.depth, cause=match.cause, incarnation=match.incarnation, link=match.link,
                self_incarnation=match.self_incarnation, looked_back=match.looked_back, fixed=match.fixed,
            )
            if not self.ruleset.info.spent_abilities_trigger and self.spent(effect):
                continue  # it does not trigger at all
            effect = self._ranked(effect)
            drop = self.ruleset.check_pending(self.state, effect, "admission", self.last_moment)
            if drop is None and self.chain:
                drop = self.ruleset.check_pending(self.state, effect, "window", self.last_moment)
            if drop is not None and drop.kind == "void":
                continue
            self.record("triggered", effect, event=match.events[0].name)
            if drop is not None:
                self.drop(effect, drop)
                continue
            if self.chain and self.ruleset.offered_in_window(self.state, effect):
                self.offers.append(effect)
                continue
            if effect.ability.optional and self.ruleset.declared_use(self.state, effect):
                effect = evolve(effect, declaration="due")
                self.due.setdefault(effect.controller, {})[effect.id] = None
            if effect.ability.trigger_condition is not None and self.ruleset.info.recheck_trigger_condition:
                self.conditional[effect.id] = None
            self.pool.add(effect)

    def declarations_due(self, player: str) -> list[PendingEffect]:
        """Take ``player``'s pending effects whose use is still to be declared,
        in trigger order."""
        ids = self.due.pop(player, None) or {}
        return [self.pool.get(i) for i in ids if i in self.pool]

    def _ranked(self, effect: PendingEffect) -> PendingEffect:
        effect = effect.placed(self.ruleset.rank(self.state, effect))
        details = self.ruleset.details(self.state, effect)
        return effect.placed(effect.rank, details) if details else effect

    # -- activation -------------------------------------------------------------

    def scope_of(self, effect: PendingEffect) -> Scope:
        """What an effect's words mean now.  ``self`` of an ability working
        from a pile is the pile's top card *now*: a Digimon that digivolved
        since its inherited effect triggered is still "this Digimon"."""
        self_card = effect.self_card
        card = self.state.cards.get(effect.card)
        if effect.granted and card is not None and not effect.looked_back:
            # a gained ability goes with its pile: its card is the one that holds it now
            holder = self.state.holder_of(effect.grant) or self.state.top(card.id)
            return Scope(key=effect.key, controller=effect.controller, card=holder.id, self_card=holder.id,
                         events=effect.events, fixed=effect.fixed)
        if card is not None and card.zone == SOURCES and card.incarnation == effect.incarnation:
            self_card = self.view.self_of(card, effect.ability)
        # the card's own "this card" is the card as it was when the effect began
        incarnation = effect.incarnation if self_card == effect.card else None
        if effect.looked_back and self_card == effect.self_card:
            incarnation = effect.self_incarnation  # the top card that left, not a later visit of it
        return Scope(key=effect.key, controller=effect.controller, card=effect.card,
                     self_card=self_card, events=effect.events, self_incarnation=incarnation, fixed=effect.fixed)

    def activation_failure(self, effect: PendingEffect, window: str, target: Any) -> str | None:
        ability = effect.ability
        if self.spent(effect):
            limit = ability.uses_per_turn
            return self.cite("per_turn", "once per turn: already used this turn" if limit == 1
                             else f"{limit} times per turn: already used {limit} times this turn")
        if ability.condition is not None or ability.cost:
            scope = self.scope_of(effect)
            if not self.view.holds(ability.condition, scope):
                return self.cite("condition", "its condition is not met")
            if ability.cost and not self.can_pay(ability.cost, scope):
                return self.cite("cost", "its cost cannot be paid in full")
        if not self.ruleset.may_block:
            return None
        context = ActivationContext(
            window=window,
            series=frozenset(self.series or ()),
            interrupting=tuple(op.event.name for op in target.ops) if target is not None else (),
            chain=self.chain_keys,
        )
        return self.ruleset.blocked(self.state, effect, context)

    def cite(self, rule: str, reason: str) -> str:
        """A core reason, with the game's rule for it (``GameInfo.citations``)."""
        citation = self.ruleset.info.citation(rule)
        return f"{reason} ({citation})" if citation else reason

    def spent(self, effect: PendingEffect) -> bool:
        """Whether the effect's per-turn uses are all spent."""
        limit = effect.ability.uses_per_turn
        return bool(limit) and self.state.is_used(self.ruleset.once_per_turn_key(self.state, effect), limit)

    def add_link(self, effect: PendingEffect) -> None:
        self.chain_links.append(effect)
        self.chain_keys.push(effect.key)

    def take_link(self) -> PendingEffect:
        self.chain_keys.pop()
        return self.chain_links.pop()

    def can_pay(self, cost: Sequence[Action], scope: Scope) -> bool:
        """Whether a cost can be paid in full now: every ``pick: N`` finds N
        cards the action would change, every card it names is there and
        would be changed (not already tapped, still in the zone it is taken
        from), every counter it lowers is high enough."""
        state = self.state
        for action in cost:
            for part in flatten(action) if isinstance(action, Together) else [action]:
                if isinstance(part, (If, May, Activate, Prevent, ResolvePending, PassTurn)):
                    continue
                if isinstance(part, Gain) and part.sign < 0:
                    player = relative_player(state, part.player, scope.controller)
                    if state.counter(player, part.counter) < self.view.amount(part.amount, scope):
                        return False
                for name in card_fields(part):
                    selector = getattr(part, name)
                    if selector is None:
                        continue
                    found = self.view.select(selector, scope)
                    if name == "card":
                        found = [card for card in found if self._cost_changes(part, card, scope)]
                    if isinstance(selector, Query):
                        if selector.pick is not None and not selector.upto and len(found) < selector.pick:
                            return False
                    elif not found or len(found) < len(self.view.select(selector, scope)):
                        return False
        return True

    def _cost_changes(self, part: Action, card: str, scope: Scope) -> bool:
        """Whether a cost's action would do anything to ``card``."""
        chosen = {name: self.view.select(getattr(part, name), scope)
                  for name in card_fields(part) if name != "card"}
        chosen["card"] = [card]
        return bool(plan(self, 0, part, chosen, scope, "cost"))

    def mark_activated(self, effect: PendingEffect, window: str) -> None:
        """Spend its once per turn; note it in the series of interrupts."""
        if effect.ability.uses_per_turn:
            self.state.mark_used(self.ruleset.once_per_turn_key(self.state, effect))
        if window == "interrupt" and self.series is not None:
            self.series.add(effect.key)

    @staticmethod
    def cost_run(run: EffectRun) -> EffectRun:
        """How an effect's cost is paid: its events are ``by: cost``."""
        return EffectRun(scope=run.scope, instance=run.instance, trigger_cause=run.trigger_cause,
                         depth=run.depth, by="cost", did=run.did)

    def activate(self, effect: PendingEffect, window: str, target: Any, parent: EffectRun | None) -> None:
        ability = effect.ability
        self.mark_activated(effect, window)
        if window in ("main", "chain") and self.chain:
            if not self.chain_links:
                self.chains += 1
            self.record("activated", effect, chain=self.chains, chain_link=len(self.chain_links) + 1)
            self.add_link(effect)
            if ability.cost:
                run = EffectRun(scope=self.scope_of(effect), instance=effect.id, trigger_cause=effect.id,
                                depth=effect.depth)
                self.push(RunActions(ability.cost, self.cost_run(run)))
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
        if ability.cost:  # paid first; the effect resolves once it is paid
            self.push(ResolveEffect(effect, run, ability.kind != "replacement"))
            self.push(RunActions(ability.cost, self.cost_run(run)))
            return
        self.resolve(effect, run, record=ability.kind != "replacement")

    def resolve(self, effect: PendingEffect, run: EffectRun, *, record: bool = True, link: int | None = None) -> None:
        if record:
            self.record("resolved", effect, chain=self.chains if link is not None else None, chain_link=link)
        if run.trigger_cause == effect.id:
            self.last_instance = effect.id
            self.last_depth = effect.depth
        if effect.ability.do:
            self.push(RunActions(effect.ability.do, run))

    def responses(self, player: str) -> dict[str, PendingEffect]:
        """Chain games: what ``player`` may respond with: activated abilities
        whose ``when`` (if any) matches the last link's activation or an event
        of the moment just before the window, and the pending effects offered
        in this window (``tcgtrig_offered_in_window``)."""
        found: dict[str, PendingEffect] = {}
        chain = tuple(self.chain_links)
        recent = self.last_events
        if chain:
            top = chain[-1]
            recent = (Event(name="activated", card=top.card, player=top.controller), *recent)
        for key, card_id, ability in self.index.activated:
            card = self.state.cards[card_id]
            if card.zone not in ability.active_in:
                continue
            self_card = self.view.self_of(card, ability)
            if self.state.cards[self_card].owner != player:
                continue
            events: tuple[Event, ...] = ()
            if ability.when is not None:
                events = tuple(e for e in recent if self.view.matches(ability.when, e, player, self_card, card_id))
                if not events:
                    continue
            effect = PendingEffect(
                id=0, key=key, card=card_id, ability=ability, controller=player, self_card=self_card,
                events=events, timing=self.timing, depth=self.last_depth + 1, cause=self.last_instance,
                incarnation=card.incarnation, window="chain",
            )
            if self.activation_failure(effect, "chain", None) is not None:
                continue
            if self.ruleset.can_respond(self.state, chain, effect):
                found[key] = effect
        found = {key: evolve(e, id=self.new_id()) for key, e in found.items()}
        for effect in self.offers:
            if (effect.controller == player and effect.key not in found
                    and self.activation_failure(effect, "chain", None) is None
                    and self.ruleset.can_respond(self.state, chain, effect)):
                found[effect.key] = effect
                self.shown.add(effect.id)
        return found

    def open_window_after_action(self) -> bool:
        """Chain games: whether the last thing that happened, which started no
        chain, opens a response window — once, and only if some activated
        ability could answer it (spell speed 2 or more)."""
        if not self.chain or not self.last_events or self.answered_moment == self.last_moment:
            return False
        self.answered_moment = self.last_moment
        return any(ability.speed >= 2 for _, _, ability in self.index.activated)

    def withdraw_offers(self) -> None:
        """Offers not taken in their response window are not used: declined
        if they could have been, missed if no window allowed them."""
        offers, self.offers = self.offers, []
        for effect in offers:
            if effect.id in self.shown:
                self.record("declined", effect, reason="not activated in the response window it was offered in")
            elif (why := self.activation_failure(effect, "chain", None)) is not None:
                self.record("failed", effect, reason=why)
            else:
                self.record("missed", effect, reason="no response window allowed it (the chain's speed)")
            self.shown.discard(effect.id)

    # -- actions ----------------------------------------------------------------

    def begin_action(self, action: Action, run: EffectRun) -> None:
        if run.collect is not None and not isinstance(action, (If, May, Activate, Prevent, ResolvePending, PassTurn)):
            # a replacement applying together with others: its actions wait for theirs
            for part in flatten(action) if isinstance(action, Together) else [action]:
                if isinstance(part, Draw) and self.ruleset.info.draw_one_at_a_time:
                    count = self.view.amount(part.count, run.scope)
                    run.collect.extend((evolve(part, count=1), run) for _ in range(count))
                else:
                    run.collect.append((part, run))
            return
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
            self.push(Perform(tuple(flatten(action)), run, label=action.label))
        elif isinstance(action, ResolvePending):
            self.push(MainLoop((), phase="settle", nested=True))
        elif isinstance(action, PassTurn):
            self.pass_turn(run, action.check)
        elif isinstance(action, Draw) and self.ruleset.info.draw_one_at_a_time and (
                count := self.view.amount(action.count, run.scope)) > 1:
            self.push(RunActions(tuple(evolve(action, count=1) for _ in range(count)), run))
        else:
            self.push(Perform((action,), run, label=getattr(action, "label", None)))

    def end_turn_if_over(self) -> bool:
        """All processing is done: if the game says the turn ends, end it —
        ``end_of_turn``, what it triggers, then the turn passes (if the game
        still says so).  ``True`` if it did."""
        reason = self.ruleset.turn_ends(self.state)
        if reason is None:
            return False
        self.turns_ended += 1
        if self.turns_ended > MAX_TURNS_ENDED:
            self.end(f"endless loop: the turn ended {MAX_TURNS_ENDED} times in a row")
            return True
        player = self.state.turn_player
        self.trace.append(Step.make("turn_end", player=player, reason=reason, cause=0))
        run = EffectRun(scope=Scope(key="rules", controller=player), instance=0, trigger_cause=0, depth=0,
                        by="rule")
        self.push(RunActions((Emit(event="end_of_turn", player="turn_player", by="rule"), ResolvePending(),
                              PassTurn(check=True)), run))
        return True

    def pass_turn(self, run: EffectRun, check: bool = False) -> None:
        """The turn ends: what lasts until then ends, per-turn uses reset,
        and the other player's turn starts.  With ``check``, only if the game
        still says the turn ends (memory back on the turn player's side: the
        turn goes on)."""
        state = self.state
        ending = state.turn_player
        if check and self.ruleset.turn_ends(state) is None:
            self.trace.append(Step.make("turn_continues", player=ending, cause=run.instance))
            return
        ended: list[str] = []
        for card in list(state.cards.values()):
            if not any(mod.ends_with_turn_of(ending) for mod in card.mods):
                continue
            keep = tuple(mod for mod in card.mods if not mod.ends_with_turn_of(ending))
            gone = {mod.flag for mod in card.mods if mod.flag and mod.ends_with_turn_of(ending)}
            gone -= {mod.flag for mod in keep if mod.flag}
            state.replace(evolve(card, mods=keep, flags=card.flags - gone))
            ended.append(card.id)
        state.reset_used()
        state.turn_player = state.opponent(ending)
        state.turn += 1
        self.trace.append(Step.make("turn", player=state.turn_player, turn=state.turn, cards=tuple(ended),
                                    cause=run.instance))
        self.happened([Event(name="start_of_turn", player=state.turn_player, by="rule")], {}, run)

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
        """Open a window for the interrupts and replacements ``target`` sets off."""
        found = [match for match in match_interrupts(self.index, self.view, [op.event for op in target.ops],
                                                     moment=self.moment, cause=target.run.instance,
                                                     depth=target.run.depth + 1)
                 if self._trigger_condition_holds(match)]
        if not found:
            return
        for match in found:
            self._fix_values(match)
        owns = self.series is None
        if owns:
            self.series = set()
        self.timing += 1
        pool = PendingPool()
        what = ", ".join(f"{op.event.name} {op.subject or op.event.player}" for op in target.ops[:6])
        for match in found:
            effect = PendingEffect(
                id=self.new_id(), key=match.key or f"{match.card}.{match.ability.id}", card=match.card,
                ability=match.ability, controller=match.controller, self_card=match.self_card,
                events=tuple(match.events), moment=self.moment, timing=self.timing, granted=match.granted,
                grant=match.grant,
                depth=match.depth, cause=target.run.instance, incarnation=match.incarnation,
                self_incarnation=match.self_incarnation, fixed=match.fixed, window="interrupt",
            )
            if not self.ruleset.info.spent_abilities_trigger and self.spent(effect):
                continue  # it does not trigger at all
            effect = self._ranked(effect)
            if match.ability.kind != "replacement":  # a replacement applies; it is not triggered
                self.record("triggered", effect, event=match.events[0].name, interrupting=what,
                            about=tuple((op.event.name, op.subject or op.event.player) for op in target.ops[:6]))
            pool.add(effect)
        replacements = [e for e in pool if e.kind == "replacement"]
        together = len(replacements) > 1 and self.ruleset.replacements_together(self.state, replacements)
        window = InterruptWindow(target, pool, owns, together=together)
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
        if any(event.by != "rule" for event in events):
            self.last_moment = moment  # what the rules do by themselves is not "the last thing to happen"
            answerable = tuple(event for event in events if event.by != "cost")
            if answerable:  # nothing answers a cost, and a cost hides nothing
                self.last_events = answerable
        trace = self.trace
        for event in events:
            flat = ["event", event.name, "card", event.card]  # card is written even when null
            for key, value in (("player", event.player), ("from", event.from_), ("to", event.to), ("by", event.by),
                               ("counter", event.counter), ("amount", event.amount), ("flag", event.flag),
                               ("stat", event.stat), ("cards", event.cards or None), ("actor", event.actor),
                               ("cause", run.instance)):
                if value is not None:
                    flat += (key, value)
            trace.append(Step.from_flat("event", tuple(flat)))
        look_back = None
        if self.ruleset.has_look_back:
            def look_back(card: Card, ability: Any, event: Event, self_card: str) -> bool:
                return self.ruleset.look_back(self.state, card, ability, event, self_card)
        for match in match_triggers(self.index, self.view, events, before, moment=moment,
                                    cause=run.trigger_cause, depth=run.depth + 1, look_back=look_back):
            if len(match.events) > 1 and self.ruleset.trigger_each_event(self.state, match.ability, match.events):
                found = [evolve(match, events=[event]) for event in match.events]
            else:
                found = [match]
            for m in found:
                if self._trigger_condition_holds(m):
                    m.link = self.resolving_link
                    self._fix_values(m, before)
                    self.matched.append(m)
        for card_id in before:
            self._check_moved(card_id)

    def _fix_values(self, match: Match, before: dict[str, Card] | None = None) -> None:
        """Read the ability's ``fixed`` numbers and ``at_trigger`` conditions
        now, as it triggers — for one that triggered as its card left, as
        things were just before it left."""
        refs = self.index.fixed_values(match.ability)
        if not refs:
            return
        view = self.view.as_before(before) if match.looked_back and before else self.view
        scope = self._match_scope(match)
        match.fixed = tuple(
            (ref, int(view.holds(ref.condition, scope)) if isinstance(ref, AtTrigger) else view.read(ref, scope))
            for ref in refs)

    def _trigger_condition_holds(self, match: Match) -> bool:
        """An ability with a ``trigger_condition`` triggers only if it holds
        as the event happens."""
        condition = match.ability.trigger_condition
        if condition is None:
            return True
        return self.view.holds(condition, self._match_scope(match))

    @staticmethod
    def _match_scope(match: Match) -> Scope:
        """What an ability's words mean as it triggers."""
        return Scope(key=match.key or f"{match.card}.{match.ability.id}", controller=match.controller,
                     card=match.card, self_card=match.self_card, events=tuple(match.events))

    def trigger_condition_lapsed(self, effect: PendingEffect) -> Drop | None:
        """Games that re-check a pending effect's ``trigger_condition``
        (``GameInfo.recheck_trigger_condition``): lost once it stops holding."""
        condition = effect.ability.trigger_condition
        if condition is None or not self.ruleset.info.recheck_trigger_condition:
            return None
        if self.view.holds(condition, self.scope_of(effect)):
            return None
        return Drop("lost", self.cite("trigger_condition", "its trigger condition no longer holds"))

    def recheck_trigger_conditions(self, bucket: dict[int, PendingEffect]) -> bool:
        """Before a pick: drop the effects that may go next whose trigger
        condition stopped holding (the others are looked at when their turn
        comes, and as they activate).  ``True`` if any was dropped."""
        lapsed = []
        if len(self.conditional) < len(bucket):
            candidates = [bucket[i] for i in self.conditional if i in bucket]
        else:
            candidates = [e for i, e in bucket.items() if i in self.conditional]
        for effect in candidates:
            drop = self.trigger_condition_lapsed(effect)
            if drop is not None:
                lapsed.append((effect, drop))
        for effect, drop in lapsed:
            del self.conditional[effect.id]
            self.pool.remove(effect.id)
            self.drop(effect, drop)
        return bool(lapsed)

    def _check_moved(self, card_id: str) -> None:
        for effect in [e for e in self.offers if e.card == card_id]:
            if self.state.cards[card_id].incarnation != effect.incarnation:
                self.offers.remove(effect)
                self.shown.discard(effect.id)
                self.record("lost", effect, reason="its card moved before it could be activated")
        pools = [self.pool] + [w.pool for w in self.windows]
        for pool in pools:
            for effect in pool.of_card(card_id):
                drop = self.ruleset.check_pending(self.state, effect, "moved", self.last_moment)
                if drop is not None:
                    pool.remove(effect.id)
                    self.drop(effect, drop)


class Engine:
    """Resolves one position under one ruleset.

    Drive it with :meth:`run` and a chooser, or step by step: :meth:`advance`
    returns the next :class:`~tcgtrig.choices.Decision` (``None`` when the
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

    def __init__(self, ruleset: Ruleset, state: GameState, start: Sequence[Action] = (),
                 max_steps: int = DEFAULT_MAX_STEPS, *, compiled: Compiled | None = None, title: str = "") -> None:
        self.machine = Machine(ruleset, state, tuple(start), max_steps=max_steps)
        self.compiled = compiled if compiled is not None else Compiled(
            game=ruleset.name, state=state.copy(), start=tuple(start), choices=(), expect=None)
        self.title = title

    @classmethod
    def for_scenario(cls, scenario: Scenario, game: str | Ruleset | None = None, *,
                     max_steps: int = DEFAULT_MAX_STEPS) -> Engine:
        """An engine at the start of ``scenario`` under ``game`` (a name,
        ``GAME/VARIANT`` or a :class:`Ruleset`; default: the file's game)."""
        from .resolution import pick_game

        ruleset = game if isinstance(game, Ruleset) else load_ruleset(pick_game(scenario, game))
        compiled = scenario.compile(ruleset)
        return cls(ruleset, compiled.state.copy(), compiled.start, max_steps, compiled=compiled,
                   title=scenario.title)

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
    def trace(self) -> list[Step]:
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

        return Resolution(game=self.ruleset.name, title=self.title, engine=self, compiled=self.compiled,
                          unused_choices=tuple(unused_choices))
