"""Actions and the moments they make: the :class:`~tcgtrig.runtime.machine.Machine`'s
part that begins each action of an effect, opens the interrupt window an
action sets off, and records what happened at each moment — the trace's
events and the triggers they match.

A part of the machine: its state, and the methods the other parts
implement, are declared on :class:`~tcgtrig.runtime.machine_base.MachineBase`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from attrs import evolve

from ..language import BY_MODEL, NOT_AT_ONCE, Moment, make_planning
from ..model.info import Drop, GameEnd
from ..model.pending import PendingEffect, PendingPool
from ..model.trace import Step
from ..model.values import (
    Ability,
    Action,
    Activate,
    AtTrigger,
    Card,
    Delay,
    Draw,
    Emit,
    Event,
    If,
    Mark,
    May,
    Negate,
    PassTurn,
    Prevent,
    Query,
    ResolvePending,
    Together,
    Win,
)
from .actions import apply
from .evaluate import Scope, make_scope, relative_player
from .frames import (
    ApplyConsequence,
    DelayedStart,
    EffectRun,
    InlineActivation,
    InterruptWindow,
    MainLoop,
    MayFrame,
    Perform,
    RunActions,
    flatten,
)
from .machine_base import MachineBase
from .triggers import Match, match_interrupts, match_triggers

if TYPE_CHECKING:
    from .machine import Machine

#: the primitive actions (one :class:`~tcgtrig.runtime.frames.Perform` each)
_AT_ONCE = frozenset(BY_MODEL)


def at_once(interruptible: bool, draw_one_at_a_time: bool) -> frozenset[type]:
    """The actions :meth:`Performing.begin_action` carries out at once
    (:meth:`Performing.perform_now`, no frame): the primitive ones — none
    where a card may interrupt or replace one, and not a draw in a game
    that draws one card at a time."""
    if interruptible:
        return frozenset()
    return _AT_ONCE - {Draw} if draw_one_at_a_time else _AT_ONCE


#: what a replacement applying together with others does at once: the rest
#: of its actions wait for the others'
_NOT_COLLECTED = NOT_AT_ONCE

#: turns a resolution may end by itself (``tcgtrig_turn_ends``) before it is
#: called endless
MAX_TURNS_ENDED = 1_000


class Performing(MachineBase):
    """Actions, interrupt windows and moments (mixed into the machine)."""

    def begin_action(self, action: Action, run: EffectRun) -> None:
        """Begin one of an effect's actions: at once when nothing could
        make it wait (:meth:`perform_now`), else through its frame or its
        control action's method."""
        if run.collect is None and type(action) in self._at_once and self.perform_now(action, run):
            return  # nothing could make it wait
        self.begin_waiting(action, run)

    def begin_waiting(self, action: Action, run: EffectRun) -> None:
        """Begin an action :meth:`perform_now` did not carry out: a
        replacement's gathered with others', a control action, a draw taken
        one card at a time, or a :class:`~tcgtrig.runtime.frames.Perform`."""
        if run.collect is not None and not isinstance(action, _NOT_COLLECTED):
            # a replacement applying together with others: its actions wait for theirs
            for part in flatten(action) if isinstance(action, Together) else [action]:
                if isinstance(part, Draw) and self.ruleset.info.draw_one_at_a_time:
                    count = self.view.amount(part.count, run.scope, run.did)
                    run.collect.extend((evolve(part, count=1), run) for _ in range(count))
                else:
                    run.collect.append((part, run))
            return
        begin = _BEGIN.get(type(action))
        if begin is not None:  # a control action: the machine's own business
            begin(self, action, run)
        elif (
            type(action) is Draw
            and self.ruleset.info.draw_one_at_a_time
            and (count := self.view.amount(action.count, run.scope, run.did)) > 1
        ):
            self.push(RunActions(tuple(evolve(action, count=1) for _ in range(count)), run))
        else:
            self.push(Perform((action,), run, label=getattr(action, "label", None)))

    # How each control action runs (its words are read and written back in
    # tcgtrig.language.control); _BEGIN below maps each class to its method.

    def _begin_if(self, action: If, run: EffectRun) -> None:
        branch = action.then if self.view.holds(action.condition, run.scope, run.did) else action.else_
        if branch:
            self.push(RunActions(branch, run))

    def _begin_may(self, action: May, run: EffectRun) -> None:
        self.push(MayFrame(action, run))

    def _begin_activate(self, action: Activate, run: EffectRun) -> None:
        self.push(InlineActivation(action.key, run))

    def _begin_negate(self, action: Negate, run: EffectRun) -> None:
        self.negate(action, run)  # the chain's business (Activating)

    def _begin_win(self, action: Win, run: EffectRun) -> None:
        player = relative_player(self.state, action.player, run.scope.controller)
        self._close(GameEnd(f"{player} wins", action.reason or f"{player} wins the game"))

    def _begin_together(self, action: Together, run: EffectRun) -> None:
        self.push(Perform(tuple(flatten(action)), run, label=action.label))

    def _begin_resolve_pending(self, action: ResolvePending, run: EffectRun) -> None:
        self.push(MainLoop((), phase="settle", nested=True))

    def _begin_pass_turn(self, action: PassTurn, run: EffectRun) -> None:
        self.pass_turn(run, action.check)

    def _begin_delay(self, action: Delay, run: EffectRun) -> None:
        """``delay``: its actions wait, as part of this effect, until the game
        says the resolution sequence is over (:meth:`begin_delayed`)."""
        later = EffectRun(
            scope=run.scope,
            instance=run.instance,
            trigger_cause=run.trigger_cause,
            depth=run.depth,
            by=run.by,
            did=dict(run.did),
        )
        self.delayed.append((action.actions, later))
        run.note(0, action.label)

    def begin_delayed(self) -> bool:
        """If the game says so (``tcgtrig_delayed_due``), what every ``delay``
        put off begins, in the order put off, each with a ``delayed`` step;
        whether it did."""
        if not self.delayed or not self.ruleset.delayed_due(self.state, tuple(self.chain_links)):
            return False
        delayed, self.delayed = self.delayed, []
        term = self.ruleset.info.term
        over = f"the {term('chain')} has resolved" if self.chain else "the effect is over"
        reason = self.cite("delay", f"put off until {over}")
        for actions, run in reversed(delayed):  # pushed last-first: the first put off happens first
            self.push(DelayedStart(actions, run, reason))
        return True

    def _begin_mark(self, action: Mark, run: EffectRun) -> None:
        changed = self.state.set_mark(action.set_ or action.clear or "", action.set_ is not None)
        run.note(int(changed), action.label)

    def perform_now(self, action: Action, run: EffectRun) -> bool:
        """A primitive action no one may interrupt or replace: what
        :class:`~tcgtrig.runtime.frames.Perform` does with it, at once and without a
        frame — unless a player may have to pick some of its cards (then
        nothing is done and ``False`` is returned)."""
        scope = run.scope
        chosen: dict[str, list[str]] = {}
        kind = BY_MODEL[type(action)]
        for name in kind.card_fields:  # card_fields(action), without the call
            selector = getattr(action, name)
            if selector is None:
                continue
            if type(selector) is Query and selector.pick is not None:
                return False  # selecting has changed nothing: the Perform frame starts afresh
            chosen[name] = self.view.select(selector, scope)
        # plan() and apply() take the Machine, which this part only ever is a part of
        machine: Machine = self  # type: ignore[assignment]
        by = getattr(action, "by", None) or run.by  # plan(), without the call
        ops = kind.plan(
            make_planning((machine, 0, chosen, scope, by, None if by == "rule" else scope.controller, run.did)), action
        )
        count = 0
        if ops:  # a gauge already full, a card already tapped: nothing to apply
            if len(ops) == 1 and ops[0].subject is None:  # a player's counter: apply(), without the call
                events: list[Event] = []
                before: dict[str, Card] = {}
                ops[0].apply(Moment(machine, events, before), ops[0], None)
            else:
                events, before = apply(machine, ops)
            if events:
                self.happened(events, before, run)
                count = len(events)
        # run.note(count, label), without the call
        did = run.did
        did["previous"] = count
        label = getattr(action, "label", None)
        if label:
            did[label] = count
        return True

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
        run = EffectRun(scope=Scope(key="rules", controller=player), instance=0, trigger_cause=0, depth=0, by="rule")
        self.push(
            RunActions(
                (Emit(event="end_of_turn", player="turn_player", by="rule"), ResolvePending(), PassTurn(check=True)),
                run,
            )
        )
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
        state.forget_history()
        for mark in self.ruleset.info.turn_marks:
            state.set_mark(mark, False)
        state.turn_player = state.opponent(ending)
        state.turn += 1
        self.trace.append(
            Step.make("turn", player=state.turn_player, turn=state.turn, cards=tuple(ended), cause=run.instance)
        )
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
            self.trace.append(
                Step.make(
                    "prevented",
                    effect=run.scope.key,
                    player=run.scope.controller,
                    id=run.instance,
                    cause=run.instance,
                    event=op.event.name,
                    card=op.subject,
                )
            )
        run.note(count, action.label)

    def open_window(self, target: Perform) -> None:
        """Open a window for the interrupts and replacements ``target`` sets off."""
        if not self._interruptible:
            return  # no card has one
        found = self._interrupts_found(target)
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
            effect = self._waiting_interrupt(match, target)
            if not self.ruleset.info.spent_abilities_trigger and self.spent(effect):
                continue  # it does not trigger at all
            effect = self._ranked(effect)
            if match.ability.kind != "replacement":  # a replacement applies; it is not triggered
                self.record(
                    "triggered",
                    effect,
                    event=match.events[0].name,
                    interrupting=what,
                    about=tuple((op.event.name, op.subject or op.event.player) for op in target.ops[:6]),
                )
            pool.add(effect)
        replacements = [e for e in pool if e.kind == "replacement"]
        together = len(replacements) > 1 and self.ruleset.replacements_together(self.state, replacements)
        window = InterruptWindow(target, pool, owns, together=together)
        self.windows.append(window)
        self.push(window)

    def _interrupts_found(self, target: Perform) -> list[Match]:
        """The interrupts and replacements the events ``target`` is about to
        make set off, whose trigger conditions hold."""
        return [
            match
            for match in match_interrupts(
                self.index,
                self.view,
                [op.event for op in target.ops],
                moment=self.moment,
                cause=target.run.instance,
                depth=target.run.depth + 1,
            )
            if self._trigger_condition_holds(match)
        ]

    def _waiting_interrupt(self, match: Match, target: Perform) -> PendingEffect:
        """The pending effect an interrupt (or a replacement) found waits as."""
        return evolve(
            match,
            id=self.new_id(),
            moment=self.moment,
            timing=self.timing,
            cause=target.run.instance,
            window="interrupt",
        )

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
        for event in events:  # any() over generators costs 1.5% of an effect here
            if event.by != "rule":
                self.last_moment = moment  # what the rules do by themselves is not "the last thing to happen"
                if len(events) == 1:  # the usual moment: no list to build
                    answerable: tuple[Event, ...] = (event,) if event.by != "cost" else ()
                else:
                    answerable = tuple([event for event in events if event.by != "cost"])
                if answerable:  # nothing answers a cost, and a cost hides nothing
                    self.last_events = answerable
                break
        trace = self.trace
        for event in events:
            trace.add("event", _event_flat(event, run.instance))
        if self.state.keep_history:
            self.state.record(events)
        fixed = self.index.fixed
        look_back = None
        if self.ruleset.has_look_back:

            def look_back(card: Card, ability: Ability, event: Event, self_card: str, arrived: bool) -> bool:
                return self.ruleset.look_back(self.state, card, ability, event, self_card, arrived)

        link, matched = self.resolving_link, self.matched
        consequences: list[Match] = []
        for match in match_triggers(
            self.index, self.view, events, before, moment, run.trigger_cause, run.depth + 1, look_back
        ):
            if len(match.events) > 1 and self.ruleset.trigger_each_event(self.state, match.ability, match.events):
                found: list[PendingEffect] | tuple[PendingEffect] = [
                    evolve(match, events=(event,)) for event in match.events
                ]
            else:
                found = (match,)
            for m in found:
                # self._trigger_condition_holds(m) and self._fix_values(m), without the calls for none
                ability = m.ability
                if ability.trigger_condition is None or self._trigger_condition_holds(m, before):
                    if link:
                        m._link_to(link)
                    known = fixed.get(id(ability))
                    if known is None or known[0] is not ability or known[1]:
                        self._fix_values(m, before)
                    if ability.kind == "consequence":
                        consequences.append(m)
                    else:
                        matched.append(m)
        for card_id in before:
            self._check_moved(card_id)
        if self.losers:
            self._game_lost(events)
        if consequences:
            self.apply_consequences(consequences, run)

    def _game_lost(self, events: list[Event]) -> None:
        """Players lost the game at this moment (``lose_game``): the one
        player left wins; no player left, it is a draw (Magic CR 104.4a)."""
        losers, self.losers = self.losers, ()
        left = [player for player in self.state.players if player not in losers]
        reasons = [event.reason for event in events if event.player in losers and event.reason]
        said = f"{' and '.join(losers)} {'loses' if len(losers) == 1 else 'lose'} the game"
        reason = f"{said}: {'; '.join(reasons)}" if reasons else said
        if len(left) == 1:
            self._close(GameEnd(f"{left[0]} wins", reason))
        elif not left:
            self._close(GameEnd("draw", reason))
        else:
            self._close(GameEnd(f"{' and '.join(losers)} {'loses' if len(losers) == 1 else 'lose'}", reason))

    def apply_consequences(self, found: list[Match], run: EffectRun) -> None:
        """The ``consequence`` abilities a moment set off happen now, as part
        of what ``run`` is doing, one after another in trigger order and
        before its next action: not activated, on no chain, nothing to
        answer.  Each is an effect instance of its own (an ``applied``
        step); what it makes happen triggers as if ``run`` had done it."""
        for match in reversed(found):  # pushed last-first: the first found happens first
            effect = evolve(match, id=self.new_id(), moment=self.moment, timing=self.timing, cause=run.instance)
            consequence = EffectRun(
                scope=self.scope_of(effect),
                instance=effect.id,
                trigger_cause=run.trigger_cause,
                depth=run.depth,
                by=run.by,
            )
            self.push(ApplyConsequence(effect, consequence))

    def _fix_values(self, match: Match, before: dict[str, Card] | None = None) -> None:
        """Read the ability's ``fixed`` numbers and ``at_trigger`` conditions
        now, as it triggers — for one that triggered as its card left, as
        things were just before it left."""
        refs = self.index.fixed_values(match.ability)
        if not refs:
            return
        view = self.view.as_before(before) if match.looked_back and before else self.view
        scope = self._match_scope(match)
        match._fix(
            tuple(
                (ref, int(view.holds(ref.condition, scope)) if isinstance(ref, AtTrigger) else view.read(ref, scope))
                for ref in refs
            )
        )

    def _trigger_condition_holds(self, match: Match, before: dict[str, Card] | None = None) -> bool:
        """An ability with a ``trigger_condition`` triggers only if it holds
        as the event happens — in games that say so
        (``GameInfo.trigger_condition_looks_back``), for one that triggered
        as its card left (it looked back), as things were just before it
        left: the object as it last existed (Magic CR 603.10a)."""
        condition = match.ability.trigger_condition
        if condition is None:
            return True
        looks_back = match.looked_back and self.ruleset.info.trigger_condition_looks_back
        view = self.view.as_before(before) if looks_back and before else self.view
        return view.holds(condition, self._match_scope(match))

    @staticmethod
    def _match_scope(match: Match) -> Scope:
        """What an ability's words mean as it triggers."""
        return make_scope(
            key=match.key,
            controller=match.controller,
            card=match.card,
            self_card=match.self_card,
            events=match.events,
        )

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
        comes, and as they activate).  ``True`` if any was dropped.

        Only the conditions that may have changed are checked again: new
        ones, and those reading what changed since (:class:`Rechecks
        <tcgtrig.runtime.rechecks.Rechecks>`); the others held when last
        checked and read the same state, so they still hold."""
        lapsed = []
        for effect in self.conditional.to_check(bucket, self.state):
            drop = self.trigger_condition_lapsed(effect)
            if drop is not None:
                lapsed.append((effect, drop))
        for effect, drop in lapsed:
            self.conditional.discard(effect.id, self.state)
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


def _event_flat(event: Event, cause: int) -> tuple[Any, ...]:
    """The keys of an event's trace step: its name and card (written even when
    null), then its other keys that are set, then the effect it was part of.
    One test per key rather than a loop over pairs: once per event."""
    flat: list[object] = ["event", event.name, "card", event.card]
    if event.player is not None:
        flat += ("player", event.player)
    if event.from_ is not None:
        flat += ("from", event.from_)
    if event.to is not None:
        flat += ("to", event.to)
    if event.by is not None:
        flat += ("by", event.by)
    if event.counter is not None:
        flat += ("counter", event.counter)
    if event.amount is not None:
        flat += ("amount", event.amount)
    if event.flag is not None:
        flat += ("flag", event.flag)
    if event.stat is not None:
        flat += ("stat", event.stat)
    if event.cards:
        flat += ("cards", event.cards)
    if event.actor is not None:
        flat += ("actor", event.actor)
    if event.reason is not None:
        flat += ("reason", event.reason)
    if event.against is not None:
        flat += ("against", event.against)
    flat += ("cause", cause)
    return tuple(flat)


#: How each control action begins: a method of the machine (``prevent`` and
#: ``negate`` are the interrupt window's and the chain's own).
_BEGIN: dict[type, Callable[[Performing, Any, EffectRun], None]] = {
    If: Performing._begin_if,
    May: Performing._begin_may,
    Activate: Performing._begin_activate,
    Prevent: Performing.prevent,
    Negate: Performing._begin_negate,
    Win: Performing._begin_win,
    Together: Performing._begin_together,
    ResolvePending: Performing._begin_resolve_pending,
    PassTurn: Performing._begin_pass_turn,
    Mark: Performing._begin_mark,
    Delay: Performing._begin_delay,
}
