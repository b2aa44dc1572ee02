"""The fused path: the common case of a resolution in one loop.

Most of a long resolution is the same few steps over and over: nothing
is pending but one effect, it needs no answer from anyone, nothing can
interrupt or replace what it does, and what it does triggers the next
one.  The frames (:mod:`tcgtrig.runtime.frames`) take each of those steps
as a frame's move, through the machine's general methods; this module
takes them in one loop, with the game's hooks called exactly as the
frames call them and the trace written step for step the same.

It hands over to the frames — and the frames stay the reference — as soon
as anything could wait or branch: a decision (an order, a use, a pick), a
rules action, an interrupt window, a cost, targets, an action that is not
a primitive one, a chain someone may respond to.  In a chain game where no
one can respond, the loop adds the links and resolves the chain itself.  :class:`~tcgtrig.engine.Engine` ``fused=False``
turns the path off; ``tests/core/test_fused_path.py`` checks that both
give the same trace, byte for byte, on every bundled file and on random
positions.

A part of the machine: its state, and the methods the other parts
implement, are declared on :class:`~tcgtrig.runtime.machine_base.MachineBase`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..language import BY_MODEL
from ..model.pending import PendingEffect
from ..model.values import Ability, Draw, Query
from .frames import Declare, EffectRun, MainLoop, ResolveChain, Settle, ask_order
from .machine_base import MEMORY_EVERY_LINKS, MachineBase

if TYPE_CHECKING:
    from .machine import Machine

__all__ = ["Fusing", "fusable"]


def fusable(ability: Ability, draw_one_at_a_time: bool, rules_between_actions: bool = False) -> bool:
    """Whether an ability's effect can run on the fused path once picked:
    a triggered ability with no cost and no targets, whose actions are all
    primitive ones that pick no cards (each is carried out at once: nothing
    can make it wait) — only one of them where the game's rules act between
    the actions of a resolution (``RunActions``).  Whether its player is
    asked to use it (an optional one not declared yet) is looked at as it is
    picked."""
    if ability.kind != "triggered" or ability.cost or ability.targets or not ability.do:
        return False
    if rules_between_actions and len(ability.do) > 1:
        return False
    for action in ability.do:
        kind = BY_MODEL.get(type(action))
        if kind is None or (draw_one_at_a_time and type(action) is Draw):
            return False
        for name in kind.card_fields:
            selector = getattr(action, name)
            if type(selector) is Query and selector.pick is not None:
                return False
    return True


class Fusing(MachineBase):
    """The fused path (mixed into the machine)."""

    def fused_cycle(self, loop: MainLoop, picked: PendingEffect | None = None) -> None:
        """From ``loop``'s settle: settle, pick and carry out effects while
        each is the only one that may go next and can run at once; hand
        back to the frames, with ``loop`` where the frames would have it,
        as soon as one is not.  ``picked``: a pending effect its player
        just picked (``loop`` asked): it is carried out first.

        Each step it inlines is a frame's move or a call of the general
        path; the game's hooks are still called, each where the frames call
        it."""
        machine: Machine = self  # type: ignore[assignment]  # a part of the machine
        state, ruleset, pool, frames = self.state, self.ruleset, self.pool, self.frames
        conditional, fast = self.conditional, self.index.fast
        # whether another effect still waits, read at C speed: the pool's ids, and (chain games) the
        # effects offered in the next window (a list only a chain window replaces, after this hands back)
        waiting, offers = pool._rank_of, self.offers
        recheck = ruleset.info.recheck_trigger_condition
        checks = ruleset.checks_pending
        # what the loop guards' quick look reads of the frames, the chain and the
        # chooser: none of it changes while the loop runs (it hands back first),
        # except in a chain game (its chain, and whether the last moment was answered)
        rest = machine.quick_rest() if not self.chain else None
        effect: PendingEffect | None = picked
        while True:
            if effect is None:
                effect = self._fused_pick(loop, rest)
                if effect is None:
                    return  # handed back to the frames
            ability = effect.ability
            verdict = fast.get(id(ability))  # self._fusable_now(ability), without the call once known
            fused = verdict[1] if verdict is not None and verdict[0] is ability else self._fusable_now(ability)
            if not fused or (ability.optional and effect.declaration != "made"):
                loop.take(machine, effect)  # the frames' way
                if self.outcome is not None or self.decision is not None or not frames or frames[-1] is not loop:
                    return
                effect = None
                continue
            # take (MainLoop.take, Activation.attempt): it leaves the pool, with the rule
            # that put it first if another waits; may it go?
            pool.remove(effect.id)
            placed: tuple[Any, ...] = ()  # its activated step's rule and ahead_of, if another waits
            if waiting or offers:
                placed = machine.place(effect, next(iter(pool.next_bucket().values())) if waiting else offers[0])
            loop.phase = "pick" if self.chain else "settle"
            self.fused_effects += 1
            if effect.id in conditional.effects:
                conditional.discard(effect.id, state)
            drop = ruleset.check_pending(state, effect, "activation", self.last_moment) if checks else None
            if drop is None and recheck and ability.trigger_condition is not None:
                drop = machine.trigger_condition_lapsed(effect)
            if drop is not None:
                machine.drop(effect, drop)
                effect = None
                continue
            reason = machine.activation_failure(effect, "main", None)
            if reason is not None:
                machine.record("failed", effect, reason=reason)
                effect = None
                continue
            if self.chain:
                self._fused_link(effect, placed)
            else:
                self._fused_activate(effect, placed)
            effect = None
            if self.outcome is not None or not frames or frames[-1] is not loop:
                return

    def _fusable_now(self, ability: Ability) -> bool:
        """:func:`fusable`, found once per ability (``AbilityIndex.fast``)."""
        verdict = self.index.fast.get(id(ability))
        if verdict is None or verdict[0] is not ability:
            ruleset = self.ruleset
            fused = fusable(ability, ruleset.info.draw_one_at_a_time, ruleset.rules_between_actions)
            verdict = self.index.fast[id(ability)] = (ability, fused)
        return verdict[1]

    def _fused_pick(self, loop: MainLoop, rest: tuple[Any, ...] | None) -> PendingEffect | None:
        """Settle (if ``loop`` is to), then the one pending effect that may go
        next; ``None`` when the frames take over (``loop`` is left where they
        want it).  In a chain game, a chain no one can respond to resolves
        here when nothing more is pending."""
        machine: Machine = self  # type: ignore[assignment]  # a part of the machine
        state, ruleset, pool = self.state, self.ruleset, self.pool
        rules = ruleset.processes_rules
        while True:
            if loop.phase == "settle":
                # settle (Settle.begin): the game's rules, then what triggered becomes pending
                # a game with no rules hook is not asked (the cards it would be shown wait for the frames)
                todo = ruleset.rules_processing(state, self.view, state.take_touched()) if rules else ()
                if todo:
                    loop.phase = "pick"
                    machine.push(Settle())
                    if self.outcome is None and not machine.check_loop("rules"):
                        machine.run_rules(todo)
                    return None
                if self.matched and (not self.chain_links or self.on_top):
                    machine.admit()
                loop.phase = "pick"
            # pick (MainLoop.pick)
            if machine.check_loop("pick", rest):
                return None
            bucket = pool.next_bucket()
            if self.conditional.effects and machine.recheck_trigger_conditions(bucket):
                bucket = pool.next_bucket()
            if bucket:
                break
            if not self.chain_links or self.offers:
                loop.nothing_pending(machine)
                return None
            loop.phase = "settle"  # MainLoop.nothing_pending, which would open the window
            if not self._fused_chain():
                return None
        if len(bucket) == 1 and not ruleset.orders_pending and not self.due:
            return next(iter(bucket.values()))  # the one effect, whose controller orders nothing
        player = ruleset.who_orders(state, bucket) if ruleset.orders_pending else next(iter(bucket.values())).controller
        if self.due and player in self.due:
            machine.push(Declare(machine.declarations_due(player)))
            return None
        if len(bucket) != 1:
            loop.labels = ask_order(machine, pool, bucket, player, "pending effect")
            loop.phase = "picked"
            return None
        return next(iter(bucket.values()))

    def _fused_link(self, effect: PendingEffect, placed: tuple[Any, ...]) -> None:
        """Chain games: an effect that may go is activated as the chain's
        next link (:meth:`Activating.activate
        <tcgtrig.runtime.activation.Activating.activate>`); ``placed``: its
        step's ``rule`` and ``ahead_of``, if another effect waited."""
        self._checked = None
        if effect.ability.uses_per_turn:
            self.state.mark_used(self.ruleset.once_per_turn_key(self.state, effect))
        links = self.chain_links
        if not links:
            self.chains += 1
        self.trace.add("activated", effect.trace_head() + ("chain", self.chains, "chain_link", len(links) + 1) + placed)
        if links:
            self._stacked = self.chains  # Activating.add_link
        links.append(effect)
        self.chain_keys.push(effect.key)

    def _fused_chain(self) -> bool:
        """Chain games: resolve the chain, last link first, when no one can
        respond to it — no card has an activated ability and nothing is
        offered, so both players pass its window
        (:class:`~tcgtrig.runtime.frames.ChainWindow`,
        :class:`~tcgtrig.runtime.frames.ResolveChain`).  ``False`` when
        the frames take over (a link that cannot run at once, or the end)."""
        machine: Machine = self  # type: ignore[assignment]  # a part of the machine
        links, keys = self.chain_links, self.chain_keys
        while links:
            # machine.out_of_memory(), which reads the memory every few links
            if self.over_budget is not None or not (self.links_resolved + 1) & MEMORY_EVERY_LINKS:
                if machine.out_of_memory():
                    return False
            else:
                self.links_resolved += 1
            self.resolving_link = len(links)
            keys.pop()  # machine.take_link()
            effect = links.pop()
            self.moment += 1  # a link resolving is something that happens, even if it changes nothing
            self.last_moment = self.moment
            self.last_events = ()
            # scope, instance, trigger_cause, depth
            run = EffectRun(machine.scope_of(effect), effect.id, effect.id, effect.depth)
            if effect.negated:
                if effect.ability.kind == "activated" and self.ruleset.places_activated:
                    machine.push(ResolveChain(resolved_one=True))  # as ResolveChain: its card goes where the game says
                    machine.put_away(effect, run, "negated")
                    return False
                continue
            if not self._fusable_now(effect.ability):
                machine.push(ResolveChain(resolved_one=True))  # the rest of the chain, once this link is done
                machine.resolve(effect, run, link=len(links) + 1)
                return False
            link: tuple[Any, ...] = ("chain", self.chains, "chain_link", len(links) + 1)
            if self._stacked == self.chains:  # as Activating.resolve: it shared the chain
                link += ("rule", self.ruleset.chain_order)
            self._fused_resolve(effect, run, link)
            if self.outcome is not None:
                return False
        self.resolving_link = 0
        return True

    def _fused_activate(self, effect: PendingEffect, placed: tuple[Any, ...]) -> None:
        """An effect that may go is activated and resolved
        (:meth:`Activating.activate <tcgtrig.runtime.activation.Activating.activate>`);
        ``placed``: its step's ``rule`` and ``ahead_of``, if another effect waited."""
        machine: Machine = self  # type: ignore[assignment]  # a part of the machine
        state = self.state
        checked, self._checked = self._checked, None
        if effect.ability.uses_per_turn:
            state.mark_used(self.ruleset.once_per_turn_key(state, effect))
        scope = checked[1] if checked is not None and checked[0] is effect else machine.scope_of(effect)
        self.trace.add("activated", effect.trace_head() + placed)
        run = EffectRun(scope, effect.id, effect.id, effect.depth)  # scope, instance, trigger_cause, depth
        self._fused_resolve(effect, run, ())

    def _fused_resolve(self, effect: PendingEffect, run: EffectRun, link: tuple[Any, ...]) -> None:
        """Resolve an activated effect (:meth:`Activating.resolve
        <tcgtrig.runtime.activation.Activating.resolve>`; ``link``: the
        chain's keys for its trace step), each action at once
        (:meth:`Performing.perform_now <tcgtrig.runtime.performing.Performing.perform_now>`)."""
        machine: Machine = self  # type: ignore[assignment]  # a part of the machine
        do = effect.ability.do
        if effect.ability.trigger_condition is not None:  # one that may do nothing after all
            lapsed = machine.lapsed_on_resolution(effect, run)
            if lapsed is not None:
                link += ("reason", lapsed)
                do = ()
        self.trace.add("resolved", effect.trace_head() + link)
        self.last_instance = effect.id
        self.last_depth = effect.depth
        for action in do:
            machine.perform_now(action, run)  # never a pick here (fusable): always done at once
