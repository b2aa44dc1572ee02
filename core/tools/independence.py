"""Pending effects that commute with everything: partial-order reduction
for :mod:`~tcgtrig.tools.explore`.

When several effects wait and a player orders them, the explorer tries
every order.  An effect is *independent* at that position when what it
changes (its footprint) is touched by nothing else that could happen: no
other ability on any card, no action of the scenario's start, no rule of
the game, and no ability listens to the events it makes.  Then resolving it
first loses no outcome — whatever order the others take, the independent
effect can go first and change nothing they see — so the explorer tries
only that order there, and the path counts of what it finds are lower
bounds.

The footprints are read from the declarative words and are deliberately
coarse: a counter or a stat by its name, whoever's or whichever card's.
Anything the reading does not follow touches everything: queries, draws,
moves, flags, conditions, numbers read from the position, optional
effects, costs, targets, once-per-turn limits, and every word that is not
a gain, a loss, a stat change on a named card or an ``emit`` (which
changes nothing: only what listens to its event matters).  A game's rules
read the counters of ``GameInfo.rule_counters`` (every counter when it
says ``None``) and the stats of ``GameInfo.stats``.  A position with an
interrupt, a replacement, a continuous or an activated ability, or a
granted one anywhere, is never reduced; nor is one whose abilities may
set one another off in a circle (where an endless loop is cut depends on
the order things happened in).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..model.values import (
    Ability,
    Action,
    CardIds,
    Change,
    Condition,
    Emit,
    Gain,
    If,
    Ref,
)
from ..runtime.rechecks import condition_reads

if TYPE_CHECKING:
    from ..engine import Engine
    from ..model.decision import Decision
    from ..model.pending import PendingEffect
    from ..model.state import GameState

__all__ = ["Footprints"]

#: what a word changes: ("counter", name) or ("stat", name)
Token = tuple[str, str]


class _Everything(Exception):
    """A word the reading does not follow: it may touch anything."""


class _Footprint:
    """What some words read and write, and the events they make."""

    __slots__ = ("reads", "writes", "events")

    def __init__(self) -> None:
        self.reads: set[Token] = set()
        self.writes: set[Token] = set()
        self.events: set[str] = set()


class Footprints:
    """What every ability of a position touches, read once per search."""

    def __init__(self, engine: Engine) -> None:
        machine = engine.machine
        state = machine.state
        info = machine.ruleset.info
        self._state = state  # for its players, which never change
        self._rule_counters = None if info.rule_counters is None else frozenset(info.rule_counters)
        self._rule_stats = frozenset(info.stats)
        #: whether the position can be reduced at all
        self.enabled = True
        #: the event names some ability listens to
        self._listened: set[str] = set()
        #: for each token, the ability keys reading it and writing it ("" for the start actions)
        self._readers: dict[Token, set[str]] = {}
        self._writers: dict[Token, set[str]] = {}
        #: abilities whose words the reading does not follow: they may touch anything
        self._anything: set[str] = set()
        #: each listening ability: the event it listens to, and the events it makes (None: any)
        listening: list[tuple[str, set[str] | None]] = []
        for card_id, card in state.cards.items():
            if any(mod.ability is not None for mod in card.mods):
                self.enabled = False  # a granted ability: its words are not on any card
            for ability in card.abilities:
                if ability.kind != "triggered":
                    self.enabled = False
                if ability.when is not None:
                    self._listened.update(ability.when.names)
                key = f"{card_id}.{ability.id}"
                emits = self._own(key, [*ability.cost, *ability.do])
                if not _plain(ability):
                    self._anything.add(key)
                if ability.when is not None:
                    listening.extend((name, emits) for name in ability.when.names)
        self._own("", machine.start)
        if _can_cycle(listening):
            # effects that may set one another off without end: where such a
            # loop is cut (a verdict, the step limit) depends on the order
            self.enabled = False

    def _own(self, key: str, actions: Iterable[Action]) -> set[str] | None:
        """File what ``actions`` read and change under ``key``; the events
        they make (``None``: any event)."""
        try:
            found = _footprint(actions, self._state)
        except _Everything:
            self._anything.add(key)
            return None
        for token in found.reads:
            self._readers.setdefault(token, set()).add(key)
        for token in found.writes:
            self._writers.setdefault(token, set()).add(key)
        return found.events

    def independent(self, effect: PendingEffect) -> bool:
        """Whether ``effect`` commutes with everything else that can happen."""
        if not self.enabled or not _plain(effect.ability):
            return False
        try:
            found = _footprint(effect.ability.do, self._state)
        except _Everything:
            return False
        if found.events & self._listened:
            return False  # it may set something off
        if self._anything - {effect.key}:
            return False  # an ability that may read or touch anything, the turn's events included
        others = {effect.key}
        for token in found.writes:
            kind, name = token
            if kind == "counter" and (self._rule_counters is None or name in self._rule_counters):
                return False  # a rule of the game reads it
            if kind == "stat" and name in self._rule_stats:
                return False
            if (self._readers.get(token, set()) | self._writers.get(token, set())) - others:
                return False  # another ability, or the start, reads or changes it too
        for token in found.reads:
            if self._writers.get(token, set()) - others:
                return False  # another ability, or the start, changes what it reads
        return True

    def first_independent(self, decision: Decision) -> str | None:
        """The first option of an ordering decision whose effect is
        independent, if any (the decision's labels name pending effects)."""
        resolve = getattr(decision.options, "resolve", None)
        if decision.kind != "order" or resolve is None or not self.enabled:
            return None
        for label in decision.options:
            effect = resolve(label)
            if effect is not None and self.independent(effect):
                return str(label)
        return None


def _can_cycle(listening: list[tuple[str, set[str] | None]]) -> bool:
    """Whether abilities may set one another off in a circle: ``listening``
    holds each one's event and the events its effect makes."""
    heard = {event for event, _ in listening}
    # from each event, the events the abilities listening to it make
    leads: dict[str, set[str]] = {}
    for event, emits in listening:
        leads.setdefault(event, set()).update(heard if emits is None else emits & heard)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in leads:
        if start in state:
            continue
        path = [(start, iter(sorted(leads[start])))]
        state[start] = 1
        while path:
            event, following = path[-1]
            step = next(following, None)
            if step is None:
                state[event] = 2
                path.pop()
            elif state.get(step) == 1:
                return True
            elif step not in state:
                state[step] = 1
                path.append((step, iter(sorted(leads.get(step, ())))))
    return False


def _plain(ability: Ability) -> bool:
    """An ability whose resolving is its actions alone: no choice, no
    condition, no cost, no target, no limit shared with other effects."""
    return (
        ability.kind == "triggered"
        and not ability.optional
        and not ability.once_per_turn
        and not ability.per_turn
        and ability.condition is None
        and ability.trigger_condition is None
        and not ability.cost
        and not ability.targets
    )


def _footprint(actions: Iterable[Action], state: GameState, into: _Footprint | None = None) -> _Footprint:
    """What ``actions`` read and change and the names of the events they
    make; :class:`_Everything` for a word the reading does not follow."""
    found = into if into is not None else _Footprint()
    for action in actions:
        if type(action) is Gain and type(action.amount) is int:
            found.writes.add(("counter", action.counter))
            base = "gained" if action.sign > 0 else "lost"
            found.events.update((action.as_ or base, base))
        elif type(action) is Change and type(action.by_amount) is int and _named_card(action.card):
            found.writes.add(("stat", action.stat))
            found.events.update((action.as_ or "stat_changed", "stat_changed"))
        elif type(action) is Emit:  # it only says something happened
            found.events.add(action.event)
        elif type(action) is If:
            _reads(action.condition, state, found.reads)
            _footprint([*action.then, *action.else_], state, found)
        else:
            raise _Everything
    return found


def _reads(condition: Condition, state: GameState, reads: set[Token]) -> None:
    """What a condition reads (:func:`~tcgtrig.runtime.rechecks.condition_reads`,
    by counter name: whoever's it is)."""
    found = condition_reads(condition, state.players[0], state)
    if found.other or found.any_counter:
        raise _Everything
    reads.update(("counter", name) for _, name in found.counters)


def _named_card(selector: object) -> bool:
    """A card named outright (by id, or the ability's own), not a query."""
    return type(selector) is CardIds or (type(selector) is Ref and selector.role in ("self", "source"))
