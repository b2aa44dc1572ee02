"""Activating and resolving effects: the :class:`~tcgtrig.runtime.machine.Machine`'s
part that decides whether a picked effect may go (spent? its condition?
its cost? forbidden by the game?) and then carries it out — or, in chain
games, puts it on the chain and answers it.

A part of the machine: its state, and the methods the other parts
implement, are declared on :class:`~tcgtrig.runtime.machine_base.MachineBase`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from attrs import evolve

from ..language import NOT_AT_ONCE
from ..language.base import Moment, card_event, make_op
from ..language.flag import apply as flag_apply
from ..model.info import ActivationContext
from ..model.pending import PendingEffect, change_pending
from ..model.trace import Step
from ..model.values import (
    SOURCES,
    Action,
    Event,
    Gain,
    Move,
    Negate,
    Query,
    Ref,
    Together,
    make_event,
)
from .actions import card_fields, plan
from .evaluate import Scope, change_scope, make_scope, relative_player
from .frames import (
    ChooseTargets,
    EffectRun,
    Perform,
    ResolveEffect,
    RunActions,
    flatten,
    make_run,
)
from .machine_base import MachineBase
from .responders import IDLE, Leaf, ResponderTable, Responses

if TYPE_CHECKING:
    from .machine import Machine

#: "this card": the card an effect was activated with, as long as it has not moved since
SELF = Ref("self")


class Activating(MachineBase):
    """Activation, resolution and chain responses (mixed into the machine)."""

    def scope_of(self, effect: PendingEffect) -> Scope:
        """What an effect's words mean now.  ``self`` of an ability working
        from a pile is the pile's top card *now*: a Digimon that digivolved
        since its inherited effect triggered is still "this Digimon"."""
        self_card = effect.self_card
        card = self.state.cards.get(effect.card)
        if effect.granted and card is not None and not effect.looked_back:
            # a gained ability goes with its pile: its card is the one that holds it now
            holder = self.state.holder_of(effect.grant) or self.state.top(card.id)
            return make_scope(
                key=effect.key,
                controller=effect.controller,
                card=holder.id,
                self_card=holder.id,
                events=effect.events,
                fixed=effect.fixed,
                targets=effect.targets,
            )
        if card is not None and card.zone == SOURCES and card.incarnation == effect.incarnation:
            self_card = self.view.self_of(card, effect.ability)
        # the card's own "this card" is the card as it was when the effect began
        incarnation = effect.incarnation if self_card == effect.card else None
        if effect.looked_back and self_card == effect.self_card:
            incarnation = effect.self_incarnation  # the top card that left, not a later visit of it
        # make_scope's fields in order (key, controller, card, self_card, events,
        # self_incarnation, fixed, targets): made for every effect that activates
        return make_scope(
            effect.key,
            effect.controller,
            effect.card,
            self_card,
            effect.events,
            incarnation,
            effect.fixed,
            effect.targets,
        )

    def activation_failure(self, effect: PendingEffect, window: str, target: Perform | None) -> str | None:
        """Why ``effect`` may not be activated now (``None``: it may): its
        uses this turn are spent, its condition does not hold, its cost
        cannot be paid, it has nothing to target, or the game blocks it.
        An ability with no per-turn limit, condition, cost or targets, in a
        game that blocks nothing, has nothing to look at
        (:meth:`Activation.attempt <tcgtrig.runtime.frames.Activation.attempt>`
        does not call this for it)."""
        ability = effect.ability
        if ability.uses_per_turn and self.spent(effect):
            limit = ability.uses_per_turn
            return self.cite(
                "per_turn",
                "once per turn: already used this turn"
                if limit == 1
                else f"{limit} times per turn: already used {limit} times this turn",
            )
        if ability.condition is not None or ability.cost:
            scope = self.scope_of(effect)
            self._checked = (effect, scope)  # activate() reads it again if nothing happened since
            if not self.view.holds(ability.condition, scope):
                return self.cite("condition", "its condition is not met")
            if ability.cost and not self.can_pay(ability.cost, scope):
                return self.cite("cost", "its cost cannot be paid in full")
        if ability.targets:
            scope = self.scope_of(effect)
            for name, query in ability.targets:
                need = self.view.amount(query.pick, scope) if query.pick is not None and not query.upto else 1
                if not self.view.finds(query, scope, need):
                    return self.cite("target", f"nothing it could target as '{name}'")
        if not self.ruleset.may_block:
            return None
        if target is None and not self.series:
            # the usual context: made once per window, while the chain it shows is the same object
            context = self._contexts.get(window)
            if context is None or context.chain is not self.chain_keys:
                context = self._contexts[window] = ActivationContext(window=window, chain=self.chain_keys)
        else:
            context = ActivationContext(
                window=window,
                series=frozenset(self.series or ()),
                interrupting=tuple(op.event.name for op in target.ops) if target is not None else (),
                chain=self.chain_keys,
                nested=target is not None and target.run.target is not None,
            )
        return self.ruleset.blocked(self.state, effect, context)

    def cite(self, rule: str, reason: str) -> str:
        """A core reason, with the game's rule for it (``GameInfo.citations``)."""
        citation = self.ruleset.info.citation(rule)
        return f"{reason} ({citation})" if citation else reason

    def lapsed_on_resolution(self, effect: PendingEffect, run: EffectRun) -> str | None:
        """Games that check a ``trigger_condition`` again as the effect
        resolves (``GameInfo.condition_on_resolution``): why it does
        nothing, once the condition no longer holds; else ``None``."""
        condition = effect.ability.trigger_condition
        if condition is None or not self.ruleset.info.condition_on_resolution or effect.ability.kind != "triggered":
            return None
        if self.view.holds(condition, run.scope):
            return None
        return self.cite("condition_on_resolution", "its condition no longer holds as it resolves: it does nothing")

    def spent(self, effect: PendingEffect) -> bool:
        """Whether the effect's per-turn uses are all spent."""
        limit = effect.ability.uses_per_turn
        return bool(limit) and self.state.is_used(self.ruleset.once_per_turn_key(self.state, effect), limit)

    def place(self, effect: PendingEffect, then: PendingEffect) -> tuple[Any, ...]:
        """``effect`` was taken from the pending effects to activate while
        ``then`` still waits: the rule that put it first
        (:meth:`Ruleset.order_rule <tcgtrig.games.ruleset.Ruleset.order_rule>`;
        its chooser, if an ordering decision was just answered) and the
        instance it went ahead of, as its ``activated`` step's keys
        (``rule``, ``ahead_of``; none without a rule), kept for that step
        (:meth:`placed_rule`)."""
        chooser, self._orderer = self._orderer, None
        rule = self.ruleset.order_rule(self.state, effect, then, chooser)
        if rule is None:
            self._placed = None
            return ()
        keys = ("rule", rule, "ahead_of", then.id)
        self._placed = (effect.id, keys)
        return keys

    def placed_rule(self, effect: PendingEffect) -> tuple[Any, ...]:
        """The trace keys :meth:`place` kept for ``effect`` (``rule`` and
        ``ahead_of``, or none), which it gives once."""
        placed = self._placed
        if placed is None:
            return ()
        self._placed = None
        return placed[1] if placed[0] == effect.id else ()

    def can_pay(self, cost: Sequence[Action], scope: Scope) -> bool:
        """Whether a cost can be paid in full now: every ``pick: N`` finds N
        cards the action would change, every card it names is there and
        would be changed (not already tapped, still in the zone it is taken
        from), every counter it lowers is high enough."""
        state = self.state
        for action in cost:
            for part in flatten(action) if isinstance(action, Together) else [action]:
                if isinstance(part, NOT_AT_ONCE):
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
                        if (
                            selector.pick is not None
                            and not selector.upto
                            and len(found) < self.view.amount(selector.pick, scope)
                        ):
                            return False
                    elif not found or len(found) < len(self.view.select(selector, scope)):
                        return False
        return True

    def _cost_changes(self, part: Action, card: str, scope: Scope) -> bool:
        """Whether a cost's action would do anything to ``card``."""
        chosen = {name: self.view.select(getattr(part, name), scope) for name in card_fields(part) if name != "card"}
        chosen["card"] = [card]
        # plan() takes the Machine, which this part only ever is a part of
        machine: Machine = self  # type: ignore[assignment]
        return bool(plan(machine, 0, part, chosen, scope, "cost"))

    def mark_activated(self, effect: PendingEffect, window: str) -> None:
        """Spend its once per turn; note it in the series of interrupts."""
        if effect.ability.uses_per_turn:
            self.state.mark_used(self.ruleset.once_per_turn_key(self.state, effect))
        if window == "interrupt" and self.series is not None:
            self.series.add(effect.key)

    @staticmethod
    def cost_run(run: EffectRun) -> EffectRun:
        """How an effect's cost is paid: its events are ``by: cost``."""
        return EffectRun(
            scope=run.scope,
            instance=run.instance,
            trigger_cause=run.trigger_cause,
            depth=run.depth,
            by="cost",
            did=run.did,
        )

    def activate(self, effect: PendingEffect, window: str, target: Perform | None, parent: EffectRun | None) -> None:
        """Activate a picked effect that may go: spend its use, record it
        (with the rule that put it first), then add it to the chain (chain
        games) or resolve it — its cost and targets first, if it has any.

        Why one function: it runs for every effect; the steps of the usual
        case (a triggered effect with no cost or targets) are inlined, each
        naming the method it stands for, which the other cases call."""
        ability = effect.ability
        checked, self._checked = self._checked, None
        # its scope as its activation was checked, just now (nothing has happened since)
        scope = checked[1] if checked is not None and checked[0] is effect else None
        if ability.uses_per_turn or window == "interrupt":
            self.mark_activated(effect, window)
        # why it went first, if another waited (self.placed_rule(effect), without the call)
        placed, rule = self._placed, ()
        if placed is not None:
            self._placed = None
            if placed[0] == effect.id:
                rule = placed[1]
        activated = ability.kind == "activated"
        if self.chain and (window == "main" or window == "chain"):
            links = self.chain_links
            if not links:
                self.chains += 1
            link = len(links) + 1
            # its trace head, made as it was admitted (effect.trace_head(), without the call once made)
            head = effect._head or effect.trace_head()
            self.trace.add("activated", head + ("chain", self.chains, "chain_link", link) + rule)
            if activated:
                effect, scope = self.put_in_place(effect, scope)
            # it becomes the chain's newest link (its key kept with it, for the links' per-chain checks)
            if links:
                self._stacked = self.chains  # its links resolve by the chain's order
            links.append(effect)
            self.chain_keys.push(effect.key)
            if ability.cost or ability.targets:  # its scope is worked out again as the link resolves
                run = EffectRun(
                    scope=scope if scope is not None else self.scope_of(effect),
                    instance=effect.id,
                    trigger_cause=effect.id,
                    depth=effect.depth,
                )
                if ability.targets:  # chosen once the cost is paid
                    self.push(ChooseTargets(effect, run))
                if ability.cost:
                    self.push(RunActions(ability.cost, self.cost_run(run)))
            return
        head = effect._head or effect.trace_head()  # made as it was admitted: trace_head(), without the call
        self.trace.add("applied" if ability.kind == "replacement" else "activated", head + rule)
        if activated:
            effect, scope = self.put_in_place(effect, scope)
        if scope is None:
            scope = self.scope_of(effect)
        if target is not None:  # the interrupt window (only it has a target): against the action it interrupts
            matched = tuple(i for i, op in enumerate(target.ops) if op.event in effect.events)
            run = EffectRun(
                scope=scope,
                instance=effect.id,
                trigger_cause=target.run.trigger_cause,
                depth=target.run.depth,
                target=target,
                ops=matched,
            )
        elif window == "inline" and parent is not None:
            run = EffectRun(
                scope=scope,
                instance=effect.id,
                trigger_cause=parent.trigger_cause,
                depth=parent.depth,
                target=parent.target,
                ops=parent.ops,
            )
        else:  # scope, instance, trigger_cause, depth
            run = make_run(scope, effect.id, effect.id, effect.depth)
        if ability.cost or ability.targets:  # paid first, then targets; the effect resolves once they are
            self.push(ResolveEffect(effect, run, ability.kind != "replacement"))
            if ability.targets:
                self.push(ChooseTargets(effect, run))
            if ability.cost:
                self.push(RunActions(ability.cost, self.cost_run(run)))
            return
        self.resolve(effect, run, ability.kind != "replacement", None)

    def put_in_place(self, effect: PendingEffect, scope: Scope | None) -> tuple[PendingEffect, Scope | None]:
        """An activated ability's card is put where the game says as it is
        activated (``tcgtrig_activation_zone``), ``by: rule``, as part of
        the activation: the effect, the same, now belongs to the card where
        it was put (and its scope is worked out again).  Called for an
        activated ability only (its callers look at the kind)."""
        self.reveal(effect)
        if not self.ruleset.places_activated:
            return effect, scope
        state = self.state
        card = state.cards.get(effect.card)
        zone = self.ruleset.activation_zone(state, effect, "activation") if card is not None else None
        if card is None or zone is None or zone == card.zone or card.incarnation != effect.incarnation:
            return effect, scope
        events: list[Event] = []
        before: dict[str, Any] = {}
        machine: Machine = self  # type: ignore[assignment]  # a part of the machine
        Moment(machine, events, before).move(card, zone, None, "rule", None, "moved", None)
        now = state.cards[card.id].incarnation
        placed = evolve(
            effect,
            incarnation=now,
            self_incarnation=now if effect.self_card == card.id else effect.self_incarnation,
        )
        run = EffectRun(scope=self.scope_of(placed), instance=placed.id, trigger_cause=placed.id, depth=placed.depth)
        self.happened(events, before, run)
        return placed, None

    def reveal(self, effect: PendingEffect) -> None:
        """An activated ability's card loses the game's
        ``GameInfo.revealed_on_activation`` flag as it is activated, by rule
        (a Set card turned face-up), before its cost."""
        flag = self.ruleset.info.revealed_on_activation
        card = self.state.cards.get(effect.card) if flag else None
        if card is None or flag not in card.flags or card.incarnation != effect.incarnation:
            return
        events: list[Event] = []
        event = card_event("flag_cleared", None, card, "rule", None, flag=flag)
        op = make_op(part=0, event=event, subject=card.id, incarnation=card.incarnation, data=(), apply=flag_apply)
        machine: Machine = self  # type: ignore[assignment]  # a part of the machine
        flag_apply(Moment(machine, events, {}), op, card)
        run = EffectRun(scope=self.scope_of(effect), instance=effect.id, trigger_cause=effect.id, depth=effect.depth)
        self.happened(events, {}, run)

    def put_away(self, effect: PendingEffect, run: EffectRun, point: str = "resolved") -> None:
        """Once an activated effect's actions are done (or its negated chain
        link is reached: ``point`` ``negated``), its card goes where the game
        says (``tcgtrig_activation_zone``), ``by: rule``: the card it was
        activated with, if its actions left it there ("this card")."""
        zone = self.ruleset.activation_zone(self.state, effect, point)
        if zone is not None:
            self.push(RunActions((Move(card=SELF, to=zone, by="rule"),), run))

    def resolve(self, effect: PendingEffect, run: EffectRun, record: bool, link: int | None) -> None:
        """Carry out an activated effect: its ``resolved`` step (``record``;
        ``link``: its place on the chain, ``None`` off the chain), then its
        actions.  Every argument is given (a call with defaults to fill in
        costs more: this runs for every effect)."""
        ability = effect.ability
        lapsed = self.lapsed_on_resolution(effect, run) if ability.trigger_condition is not None else None
        if record:
            head = effect._head or effect.trace_head()  # made as it was admitted: trace_head(), without the call
            if link is not None:
                head += ("chain", self.chains, "chain_link", link)
                if self._stacked == self.chains:  # it shared the chain: the chain's order says when it resolves
                    head += ("rule", self.ruleset.chain_order)
            if lapsed is not None:
                head += ("reason", lapsed)
            self.trace.add("resolved", head)
        if run.trigger_cause == effect.id:
            self.last_instance = effect.id
            self.last_depth = effect.depth
        do = () if lapsed is not None else ability.do
        if ability.kind == "activated" and self.ruleset.places_activated:
            self.put_away(effect, run)  # once its actions are done
        if len(do) == 1:  # no list to keep a place in: self.begin_action(do[0], run), without the call
            action = do[0]
            if run.collect is not None or type(action) not in self._at_once or not self.perform_now(action, run):
                self.begin_waiting(action, run)
        elif do:
            self.push(RunActions(do, run))

    def targets_chosen(
        self, effect: PendingEffect, run: EffectRun, chosen: tuple[tuple[str, Query, tuple[tuple[str, int], ...]], ...]
    ) -> None:
        """An effect's targets are chosen: it keeps them while it waits (a
        chain link), and each target is ``targeted`` (an event)."""
        run.scope = change_scope(run.scope, targets=chosen)
        links = self.chain_links
        for index in range(len(links) - 1, -1, -1):  # its link: the top one, as it activates
            if links[index].id == effect.id:
                links[index] = change_pending(links[index], targets=chosen)
                break
        state = self.state
        events = [
            make_event(
                name="targeted", card=card_id, player=state.cards[card_id].owner, by=run.by, actor=run.scope.controller
            )
            for _, _, cards in chosen
            for card_id, _ in cards
        ]
        # Choosing a target is part of the activation, not an event that closes a timing: a waiting
        # trigger does not miss its timing for it, and what could be answered before (a Summon) still can,
        # beside the targeting itself.
        last, answerable = self.last_moment, self.last_events
        self.happened(events, {}, run)
        self.last_moment = last
        if events and self.last_events is not answerable:
            self.last_events = (*answerable, *self.last_events)

    def negate(self, action: Negate, run: EffectRun) -> None:
        """Negate the newest link of each card the action finds (see
        :class:`~tcgtrig.model.values.Negate`)."""
        cards = set(self.view.select(action.card, run.scope))
        events = []
        for index in range(len(self.chain_links) - 1, -1, -1):
            link = self.chain_links[index]
            if link.card not in cards or link.negated or link.id == run.instance:
                continue
            cards.discard(link.card)
            self.chain_links[index] = evolve(link, negated=action.what, negated_by=run.scope.key)
            self.trace.append(
                Step.make(
                    "negated",
                    effect=link.key,
                    player=link.controller,
                    id=link.id,
                    cause=run.instance,
                    chain=self.chains,
                    chain_link=index + 1,
                    what=action.what,
                    negated_by=run.scope.key,
                )
            )
            events.append(
                Event(name="negated", card=link.card, player=link.controller, by=run.by, actor=run.scope.controller)
            )
        self.happened(events, {}, run)
        run.note(len(events), action.label)

    def responses(self, player: str) -> Responses:
        """Chain games: what ``player`` may respond with: activated abilities
        whose ``when`` (if any) matches the last link's activation or an event
        of the moment just before the window, and the pending effects offered
        in this window (``tcgtrig_offered_in_window``).

        Only ``player``'s abilities are looked at (filed once, by owner, and
        by speed when the core's speed rule is the game's).  Their answers
        are kept between windows when the game's hooks say what they read
        (:mod:`tcgtrig.runtime.responders`): a window then asks only about
        the abilities whose answer may have changed.  The effect with its
        instance number is made only for the response chosen."""
        chain = tuple(self.chain_links)
        moment = (self.timing, self.last_depth + 1, self.last_instance)
        if not self.index.activated and not self.offers:
            return Responses(None, 0, moment, {})  # nothing could respond: no activation event to build
        ruleset = self.ruleset
        table = None
        if self.index.activated:
            top = chain[-1].ability.speed if chain else None
            floor = max(2, top or 1) if ruleset.responds_by_speed else None
            table, places, asked = self._responder_table(player, floor, top)
            self._check_responders(player, chain, table, places, asked)
        # each response found has its instance number, as if its effect were made now
        first = self._next_id
        found = Responses(table, first, moment, {})
        self._next_id += found.activated
        offers: dict[str, PendingEffect] = {}
        for effect in self.offers:
            if (
                effect.controller == player
                and effect.key not in found
                and effect.key not in offers
                and self.activation_failure(effect, "chain", None) is None
                and ruleset.can_respond(self.state, chain, effect)
            ):
                offers[effect.key] = effect
                self.shown.add(effect.id)
        return Responses(table, first, moment, offers) if offers else found

    def _responder_table(
        self, player: str, floor: int | None, top: int | None
    ) -> tuple[ResponderTable, Sequence[int] | None, set[Hashable]]:
        """``player``'s abilities of speed ``floor`` or more, with the
        answers kept from their last window; the places of those to place
        and ask about again (``None``: all of them, the answers are not
        kept); and the groups whose words read beyond their cards to ask
        about again besides (:meth:`ResponderTable.to_ask`: after a change,
        those that read the zones it touched, or anything)."""
        items = self.index.responders(player, self.state.cards, floor)
        reads = self.ruleset.window_reads
        state = self.state
        mark = (state.changes(), state.fingerprint(), state.turn, state.turn_player)
        keys = self.chain_keys
        table = self._responder_tables.get((player, floor))
        if table is None or table.items is not items or table.state is not state:
            changes = table.changes if table is not None and table.state is state else state.watch()
            table = self._responder_tables[player, floor] = ResponderTable(
                items, self.index.alike(items), self.index.zones_read(items), state, changes
            )
        changes = table.changes
        if table.root is not None and (
            reads is None
            or self.series
            or table.keys is not keys
            or table.pops != keys.pops
            or len(keys) < table.length
            or table.top != top
            or (table.mark != mark and (changes.other or "state" in reads or table.mark[2:] != mark[2:]))
        ):
            table.root = None  # (a window's Responses keep the answers they were made with)
        places: list[int] | None = None
        asked: set[Hashable] = set()
        if table.root is not None:
            where = table.where
            again = {where[key] for key in keys[table.length :] if key in where}
            again.update(table.volatile)
            if table.mark != mark:
                by_card, cards = table.by_card, state.cards
                for card_id in changes.cards:
                    again.update(by_card.get(card_id, ()))
                    # a card put under another: that one now has a pile (its group: Activating.alike)
                    if (parent := cards[card_id].under) is not None:
                        again.update(by_card.get(parent, ()))
                if changes.cards:
                    again.update(table.piled)
                per_turn = table.per_turn
                for key in changes.used:
                    again.update(per_turn.get(key, ()))
                asked = table.to_ask(changes.zones)
            if len(again) * 4 <= len(items) * 3:
                places = sorted(again)
            else:
                table.root = None  # most of them: placing all afresh is cheaper than moving them
        if table.root is None:
            table.forget()
        changes.clear()
        table.mark, table.keys, table.pops, table.top, table.length = mark, keys, keys.pops, top, len(keys)
        return table, places, asked

    def _check_responders(
        self,
        player: str,
        chain: tuple[PendingEffect, ...],
        table: ResponderTable,
        places: Sequence[int] | None,
        asked: set[Hashable],
    ) -> None:
        """Place the abilities of ``table`` at ``places`` in their groups
        (all of them when ``None``), then ask about each group that gained
        one, and the groups ``asked``, through its first ability."""
        recent = self.last_events
        if chain:
            top = chain[-1]
            recent = (Event(name="activated", card=top.card, player=top.controller), *recent)
        updates: dict[int, Leaf | None] = {}
        sig_of = table.sig_of
        for place in range(len(table.items)) if places is None else places:
            sig, effect = self.alike(player, table, place, recent)
            if sig != sig_of[place] or effect is not table.effects[place]:
                table.leave(place, updates)
                table.join(place, sig, effect, updates)
            asked.add(sig)
        if places is None:
            asked = set(table.groups)
        asked.discard(IDLE)
        ruleset, state, effects, groups = self.ruleset, self.state, table.effects, table.groups
        for sig in sorted((sig for sig in asked if sig in groups), key=lambda sig: groups[sig][0]):
            effect = effects[groups[sig][0]]
            assert effect is not None
            may = self.activation_failure(effect, "chain", None) is None and ruleset.can_respond(state, chain, effect)
            table.answer(sig, may, updates)
        table.apply(updates)

    def alike(
        self, player: str, table: ResponderTable, place: int, recent: tuple[Event, ...]
    ) -> tuple[Hashable, PendingEffect | None]:
        """The group of ``table``'s ability at ``place`` and its effect to
        check (made again only when what it holds changed): :data:`IDLE`
        when it cannot respond (its card is not where it works, or not
        ``player``'s, or its ``when`` matches no recent event); the words
        and what the card is, for copies that answer alike; else its own.

        Why one function: it is what a window costs per ability asked
        about; the checks read better in the order a response is looked at."""
        key, card_id, ability = table.items[place]
        cards = self.state.cards
        card = cards[card_id]
        self_card = self.view.self_of(card, ability) if card.zone in ability.active_in else None
        if self_card is None or cards[self_card].owner != player:
            return IDLE, None
        events: tuple[Event, ...] = ()
        if ability.when is not None:
            events = tuple(e for e in recent if self.view.matches(ability.when, e, player, self_card, card_id))
            if not events:
                return IDLE, None
        timing, depth, cause = self.timing, self.last_depth + 1, self.last_instance
        effect = self._probes.get(key)
        if (
            effect is None
            or effect.ability is not ability
            or effect.controller != player
            or effect.self_card != self_card
            or effect.incarnation != card.incarnation
            or effect.events != events
        ):
            effect = self._probes[key] = PendingEffect(
                id=0,
                key=key,
                card=card_id,
                ability=ability,
                controller=player,
                self_card=self_card,
                events=events,
                timing=timing,
                depth=depth,
                cause=cause,
                incarnation=card.incarnation,
                window="chain",
            )
        spent = False
        if ability.uses_per_turn:  # asked again when the key it spends is used
            spends = self.ruleset.once_per_turn_key(self.state, effect)
            table.per_turn.setdefault(spends, set()).add(place)
            spent = self.state.is_used(spends, ability.uses_per_turn)
        kind = table.alike[place]
        if kind is None or not self.ruleset.copies_alike or card.under is not None or self.state.has_under(card_id):
            return (place,), effect
        what = (card.name, card.owner, card.zone, card.stats, card.flags, card.types, card.mods)
        return (kind, *what, key in self.chain_keys, spent), effect

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
