"""Which abilities an event sets off.

Abilities are found through an index by event name, never by scanning every
card.  A card that moved at this moment is also checked as it was just
before (leave-the-zone triggers look back); the game may limit that.  One
trigger per ability per moment, whatever number of its events matched,
unless the game counts every event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from attrs import Factory, field

from ..model.pending import PendingEffect, make_pending
from ..model.state import GameState
from ..model.values import (
    SOURCES,
    Ability,
    Action,
    AtTrigger,
    Battle,
    Card,
    Change,
    Count,
    CounterIs,
    Event,
    Gain,
    Grant,
    Happened,
    HappenedCount,
    Mod,
    Pattern,
    Query,
    StatIs,
    StatOf,
    walk_objects,
)
from .evaluate import Evaluator, fixed_values, is_fixed_value
from .loops import Read, number_reads
from .responders import copies_answer_alike
from .window_reads import zones_read

if TYPE_CHECKING:
    from attrs import define  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import define  # attrs.define, the methods compiled ahead of time

__all__ = ["AbilityIndex", "Match", "match_triggers", "match_interrupts"]


#: ``when.card`` words that name no one card: every such ability is checked
_ANY_CARD = (None, "any", "own", "own_other", "opponent", "other")

#: a triggered ability as :class:`Listeners` files it: (its place in file
#: order, card id, the ability, its effect key)
_Entry = tuple[int, str, Ability, str]
#: the ``fixed`` words of an ability (:func:`~tcgtrig.runtime.evaluate.fixed_values`)
_Fixed = tuple[Count | StatOf | AtTrigger, ...]


@define(frozen=True)
class Listeners:
    """The triggered abilities listening for one event name, each with its
    place in file order (the order they are checked in, which numbers
    what they trigger).

    An ability whose ``when.card`` names one card (an id, or ``source``:
    its own card) is filed under that card, and one whose ``when.card`` is
    ``self`` under its own card; only the rest are checked for every
    event.  So an event on one card looks at the abilities that may be
    about it, not at every ability listening for its name.
    """

    every: tuple[_Entry, ...] = ()
    by_card: dict[str, tuple[_Entry, ...]] = {}
    by_self: dict[str, tuple[_Entry, ...]] = {}
    #: whether every ability is checked for every event (none is filed by
    #: card): :meth:`about` is then ``every``, read without the call
    only_every: bool = field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "only_every", not self.by_card and not self.by_self)

    @classmethod
    def build(cls, entries: Sequence[tuple[str, Ability, str]]) -> Listeners:
        """From ``(card id, ability, effect key)`` in file order."""
        every: list[_Entry] = []
        by_card: dict[str, list[_Entry]] = {}
        by_self: dict[str, list[_Entry]] = {}
        for place, (card_id, ability, key) in enumerate(entries):
            want = ability.when.card if ability.when is not None else None
            entry = (place, card_id, ability, key)
            if want in _ANY_CARD:
                every.append(entry)
            elif want == "self":
                by_self.setdefault(card_id, []).append(entry)
            else:
                by_card.setdefault(card_id if want == "source" else want, []).append(entry)
        return cls(
            tuple(every),
            {k: tuple(v) for k, v in by_card.items()},
            {k: tuple(v) for k, v in by_self.items()},
        )

    def about(self, event_card: str | None, state: GameState, moved_roots: dict[str, list[str]]) -> Sequence[_Entry]:
        """The abilities that may trigger on an event about ``event_card``,
        in file order.  A ``self`` ability's self is its card or the top of
        the pile it is under, now or, for a card that moved at this moment,
        as it was (``moved_roots``: each such pile top's moved cards)."""
        if self.only_every:
            return self.every
        found = list(self.every)
        if event_card is not None:
            found.extend(self.by_card.get(event_card, ()))
            if self.by_self:
                owners = {event_card: None}
                for card in state.stack_below(event_card):
                    owners[card.id] = None
                for card_id in moved_roots.get(event_card, ()):
                    owners[card_id] = None
                for owner in owners:
                    found.extend(self.by_self.get(owner, ()))
            found.sort(key=_place)
        return found


def _place(entry: _Entry) -> int:
    return entry[0]


def _file_under(table: dict[str, list[Any]], pattern: Pattern, entry: Any) -> None:
    """File ``entry`` under each event name ``pattern`` waits for."""
    for name in pattern.names:
        table.setdefault(name, []).append(entry)


@define(frozen=True)
class AbilityIndex:
    """Abilities found by event name, built once per resolution.

    Printed abilities never change during a resolution, and the abilities a
    card may gain (``grant``) are all written in the file, so the index is
    built once and shared by every copy of an engine; who holds a gained
    ability is looked up in the state when an event happens.

    Each ability's effect key (``<card id>.<ability id>``) is made here,
    once: every effect, trace step and event about it shares that one
    string, so the memory a long resolution takes does not grow with the
    length of the names in it.
    """

    #: interrupts and replacements by event name: (card id, ability, effect key)
    interrupts: dict[str, tuple[tuple[str, Ability, str], ...]]
    continuous: tuple[tuple[str, Ability], ...]
    by_key: dict[str, tuple[str, Ability]]
    activated: tuple[tuple[str, str, Ability], ...] = ()
    granted: dict[str, tuple[tuple[str, Ability], ...]] = {}
    granted_interrupts: dict[str, tuple[tuple[str, Ability], ...]] = {}
    fixed: dict[int, tuple[Ability, _Fixed]] = Factory(dict)
    #: triggered abilities by event name, filed by the card they are about
    listeners: dict[str, Listeners] = {}
    #: cards with an ability whose ``when.card`` is ``self``
    self_listeners: frozenset[str] = frozenset()
    #: the conditions in the words that read a counter
    counter_reads: tuple[CounterIs, ...] = ()
    #: counters the words only ever raise, or only ever lower; and the
    #: stats (``("stat", name)``) that ``change`` only ever raises, or only
    #: ever lowers, and the counts of the turn's history below (which only grow)
    one_way: frozenset[Any] = frozenset()
    #: the words' reads of the other numbers the growth guard leaves out of
    #: positions, cards' stats and the turn's history (:func:`number_reads`)
    number_reads: tuple[Read, ...] = ()
    #: the patterns of the ``happened`` conditions that count alike for
    #: every asker, whose counts :data:`number_reads` compare (``("happened", i)``)
    history_patterns: tuple[Pattern, ...] = ()
    #: ``activated`` as :meth:`responders` files it, per (player, lowest speed)
    _responders: dict[tuple[str, int | None], tuple[tuple[str, str, Ability], ...]] = Factory(dict)
    #: :meth:`alike`'s answers, by the id of the list they are for
    _alike: dict[int, tuple[tuple[tuple[str, str, Ability], ...], tuple[int | None, ...]]] = Factory(dict)
    #: :meth:`zones_read`'s answers, by the id of the list they are for
    _zones: dict[int, tuple[tuple[tuple[str, str, Ability], ...], tuple[frozenset[str] | None, ...]]] = Factory(dict)

    def responders(
        self, player: str, cards: dict[str, Card], speed: int | None
    ) -> tuple[tuple[str, str, Ability], ...]:
        """The activated abilities ``player`` could respond with, in the
        order of :attr:`activated`: those of the cards ``player`` owns (an
        owner never changes), and those working from under another card
        (``self`` is then the top card, whoever owns it).  ``speed``: only
        those of that speed or more.  Made once per player and speed."""
        known = self._responders.get((player, speed))
        if known is None:
            known = self._responders[player, speed] = tuple(
                item
                for item in self.activated
                if (cards[item[1]].owner == player or SOURCES in item[2].active_in)
                and (speed is None or item[2].speed >= speed)
            )
        return known

    def alike(self, items: tuple[tuple[str, str, Ability], ...]) -> tuple[int | None, ...]:
        """For :meth:`responders`' ``items``: each ability's words, numbered
        alike for equal words, or ``None`` for words that may tell copies
        of a card apart (:func:`~tcgtrig.runtime.responders.copies_answer_alike`).
        Made once per list.  Words that read a stat are never grouped in a
        position with continuous abilities that change stats: they may
        change one copy's and not the other's."""
        known = self._alike.get(id(items))
        if known is None or known[0] is not items:
            kinds: dict[Ability, int] = {}
            stats_vary = self.stats_vary()
            numbers = tuple(
                kinds.setdefault(ability, len(kinds)) if copies_answer_alike(ability, stats_vary) else None
                for _, _, ability in items
            )
            known = self._alike[id(items)] = (items, numbers)
        return known[1]

    def stats_vary(self) -> bool:
        """Whether a continuous ability of the position changes a stat: a
        card's record then does not show its stats (what copies are
        compared by, and a read only a zone's change would show)."""
        return any(isinstance(action, Change) for _, ability in self.continuous for action in ability.do)

    def zones_read(self, items: tuple[tuple[str, str, Ability], ...]) -> tuple[frozenset[str] | None, ...]:
        """For :meth:`responders`' ``items``: the zones each ability's words
        read beyond its own card, or ``None`` for words that may read
        anything (:func:`~tcgtrig.runtime.window_reads.zones_read`).  Made
        once per list."""
        known = self._zones.get(id(items))
        if known is None or known[0] is not items:
            stats_vary = self.stats_vary()
            known = self._zones[id(items)] = (items, tuple(zones_read(ability, stats_vary) for _, _, ability in items))
        return known[1]

    def fixed_values(self, ability: Ability) -> _Fixed:
        """What of ``ability``'s words is read as it triggers (kept per ability)."""
        known = self.fixed.get(id(ability))
        if known is None or known[0] is not ability:
            known = self.fixed[id(ability)] = (ability, fixed_values(ability))
        return known[1]

    @classmethod
    def build(cls, cards: Sequence[Card], start: Sequence[Action] = (), *, would: bool = True) -> AbilityIndex:
        """Index the cards' abilities, and the abilities their words (and the
        ``start`` actions, and changes already on the cards) may grant
        (``would``: the game has "when … would" effects; else they are not
        indexed: they never trigger)."""
        triggers: dict[str, list[tuple[str, Ability, str]]] = {}
        interrupts: dict[str, list[tuple[str, Ability, str]]] = {}
        continuous = []
        activated = []
        by_key = {}
        self_listeners: set[str] = set()
        for card in cards:
            for ability in card.abilities:
                key = f"{card.id}.{ability.id}"
                by_key[key] = (card.id, ability)
                if ability.kind == "activated":
                    activated.append((key, card.id, ability))
                elif ability.kind == "continuous":
                    continuous.append((card.id, ability))
                elif ability.when is not None and ability.kind in ("triggered", "consequence"):
                    _file_under(triggers, ability.when, (card.id, ability, key))
                    if ability.when.card == "self":
                        self_listeners.add(card.id)
                elif ability.when is not None and ability.kind in ("interrupt", "replacement"):
                    if would or ability.kind == "replacement":
                        _file_under(interrupts, ability.when, (card.id, ability, key))
        granted: dict[str, list[tuple[str, Ability]]] = {}
        granted_interrupts: dict[str, list[tuple[str, Ability]]] = {}
        grants, counter_words, fixed = _read_words(cards, start)
        signs: dict[Any, set[int]] = {}
        for item in counter_words:
            if isinstance(item, Gain):
                signs.setdefault(item.counter, set()).add(item.sign)
            elif isinstance(item, Change):
                amount = item.by_amount
                signs.setdefault(("stat", item.stat), set()).update(
                    (1 if amount > 0 else -1,) if type(amount) is int else (1, -1)
                )
        reads, patterns = number_reads(counter_words)
        for key, ability in grants:
            if ability.when is None or (ability.kind == "interrupt" and not would):
                continue
            into = granted if ability.kind == "triggered" else granted_interrupts
            _file_under(into, ability.when, (key, ability))
        return cls(
            granted={k: tuple(v) for k, v in granted.items()},
            granted_interrupts={k: tuple(v) for k, v in granted_interrupts.items()},
            listeners={k: Listeners.build(v) for k, v in triggers.items()},
            fixed=fixed,
            counter_reads=tuple(dict.fromkeys(item for item in counter_words if isinstance(item, CounterIs))),
            one_way=frozenset(name for name, seen in signs.items() if len(seen) == 1)
            | {("happened", number) for number in range(len(patterns))},
            number_reads=reads,
            history_patterns=patterns,
            self_listeners=frozenset(self_listeners),
            interrupts={k: tuple(v) for k, v in interrupts.items()},
            continuous=tuple(continuous),
            by_key=by_key,
            activated=tuple(activated),
        )

    def __deepcopy__(self, memo: dict[int, object]) -> AbilityIndex:
        return self


#: an ability that matched events, as :func:`match_triggers` finds it: the
#: pending effect it becomes at the next settle, before its admission (id 0,
#: no batch yet: :meth:`PendingEffect._admit <tcgtrig.model.pending.PendingEffect._admit>`)
Match = PendingEffect


def match_triggers(
    index: AbilityIndex,
    view: Evaluator,
    events: Sequence[Event],
    before: dict[str, Card],
    moment: int,
    cause: int,
    depth: int,
    look_back: Callable[[Card, Ability, Event, str, bool], bool] | None = None,
) -> list[Match]:
    """The triggered abilities one moment's events set off, in event order.

    A card that moved at this moment is checked as it is now and as it was
    just before; ``look_back(card_before, ability, event, self_card,
    arrived)`` may refuse the second check (``arrived`` False), or the first
    where the ability works only where the card arrived (``arrived`` True:
    it was not there when the event happened) — default: allowed.

    Why one function: it runs once per moment over every event and every
    ability listening for it.  The tables and methods it takes out of the
    loops are local variables, which helpers would be passed on every event.
    """
    # every ability the index files has a ``when`` (AbilityIndex.build): it goes
    # to ``matches`` unchecked, where mypy sees ``Pattern | None``
    state = view.state
    found: dict[tuple[str, str, int], Match] = {}
    moved_roots: dict[str, list[str]] = {}
    if before:  # cards moved at this moment
        for card_id in index.self_listeners.intersection(before):
            moved_roots.setdefault(view.self_of(before[card_id], None, before), []).append(card_id)
    listeners = index.listeners
    cards = state.cards
    for event in events:
        base = event.base  # event.names(), without the call
        for name in (event.name,) if base is None or base == event.name else (event.name, base):
            heard = listeners.get(name)
            if heard is None:
                entries: Sequence[_Entry] = ()
            else:
                entries = heard.every if heard.only_every else heard.about(event.card, state, moved_roots)
            for _, card_id, ability, key in entries:
                now = cards[card_id]
                hit = looked_back = False
                if now.zone in ability.active_in:
                    # view.self_of, without the call for a card on no pile
                    self_card = card_id if now.under is None or now.zone != SOURCES else view.self_of(now, ability)
                    controller = cards[self_card].owner
                    hit = view.matches(ability.when, event, controller, self_card, card_id, before)  # type: ignore[arg-type]  # has a when
                    if hit and look_back is not None and card_id in before:
                        was = before[card_id]
                        if was.zone not in ability.active_in:  # it arrived at this moment where the ability works
                            hit = look_back(was, ability, event, self_card, True)
                if not hit and card_id in before:
                    was = before[card_id]
                    if was.zone in ability.active_in:
                        self_card = view.self_of(was, ability, before)
                        controller = view.owner_in(self_card, before)
                        if view.matches(ability.when, event, controller, self_card, card_id, before) and (  # type: ignore[arg-type]  # has a when
                            look_back is None or look_back(was, ability, event, self_card, False)
                        ):
                            hit = looked_back = True
                if hit:
                    # in make_pending's order: id (given as it is admitted), key, card, ability,
                    # controller, self_card, events, moment, timing (likewise), depth, cause,
                    # incarnation, self_incarnation, looked_back
                    fresh = make_pending(
                        0,
                        key,
                        card_id,
                        ability,
                        controller,
                        self_card,
                        (event,),
                        moment,
                        0,
                        depth,
                        cause,
                        now.incarnation,
                        cards[self_card].incarnation,
                        looked_back,
                    )
                    if found.setdefault((card_id, key, _UNGRANTED), fresh) is not fresh:  # _note, without the call
                        _note(found, event, fresh)  # the moment's second event for it
            for key, ability in index.granted.get(name, ()):
                for holder, looked_back, grant in _holders(state, ability, before):
                    controller = state.controller(holder) if not looked_back else view.owner_in(holder, before)
                    if view.matches(ability.when, event, controller, holder, holder, before):  # type: ignore[arg-type]  # has a when
                        now = state.cards[holder]
                        _note(
                            found,
                            event,
                            _found(now, now, ability, key, controller, event, moment, cause, depth, looked_back, grant),
                        )
    return list(found.values())


def match_interrupts(
    index: AbilityIndex,
    view: Evaluator,
    events: Sequence[Event],
    *,
    moment: int,
    cause: int,
    depth: int,
) -> list[Match]:
    """The interrupts and replacements that events *about to happen* set off.

    Why one function: as :func:`match_triggers`, for every action that may
    be interrupted."""
    # every ability the index files has a ``when`` (AbilityIndex.build): it goes
    # to ``matches`` unchecked, where mypy sees ``Pattern | None``
    state = view.state
    found: dict[tuple[str, str, int], Match] = {}
    for event in events:
        for name in event.names():
            for card_id, ability, key in index.interrupts.get(name, ()):
                card = state.cards[card_id]
                if card.zone not in ability.active_in:
                    continue
                self_card = view.self_of(card, ability)
                controller = state.cards[self_card].owner
                if not view.matches(ability.when, event, controller, self_card, card_id):  # type: ignore[arg-type]  # has a when
                    continue
                fresh = _found(card, state.cards[self_card], ability, key, controller, event, moment, cause, depth)
                _note(found, event, fresh)
            for key, ability in index.granted_interrupts.get(name, ()):
                for holder, _, grant in _holders(state, ability, {}):
                    controller = state.controller(holder)
                    if view.matches(ability.when, event, controller, holder, holder):  # type: ignore[arg-type]  # has a when
                        card = state.cards[holder]
                        fresh = _found(card, card, ability, key, controller, event, moment, cause, depth, grant=grant)
                        _note(found, event, fresh)
    return list(found.values())


def _holders(state: GameState, ability: Ability, before: dict[str, Card]) -> list[tuple[str, bool, Mod]]:
    """Who holds ``ability`` as a gained one: (card, looked back, the grant).

    The cards that hold it now, then those that held a grant just before
    they moved at this moment and hold it no longer (``True``: looked back)
    — a grant that went on to the card now on top of the pile is counted
    once, for the card that holds it now.
    """
    found = [(card.id, False, mod) for card in state.gifted() for mod in card.mods if mod.ability is ability]
    held = {id(mod) for _, _, mod in found}
    for card in before.values():
        for mod in card.mods:
            if mod.ability is ability and id(mod) not in held:
                found.append((card.id, True, mod))
                held.add(id(mod))
    return found


#: the kinds of word :func:`tcgtrig.runtime.evaluate.is_fixed_value` may accept
_MAYBE_FIXED = frozenset({Count, StatOf, AtTrigger})


#: the words that read or change a number the growth guard compares (:func:`_read_words`)
_NUMBER_WORDS = frozenset({CounterIs, Gain, Change, StatIs, Query, StatOf, Battle, Happened, HappenedCount})


def _read_words(
    cards: Sequence[Card], start: Sequence[Action]
) -> tuple[list[tuple[str, Ability]], list[Any], dict[int, tuple[Ability, _Fixed]]]:
    """One walk of every word of the cards (their abilities, and those they
    gained already) and of the start actions, gathering: every ``grant``
    there and every gained ability on a card, as (effect key, ability); the
    counter words (``CounterIs`` and ``Gain``), in walk order; each
    printed ability's :func:`fixed_values`, by ``id``.  The counter words are those of
    :data:`_NUMBER_WORDS`: what reads or changes a counter, a stat or the
    turn's history."""
    found: dict[int, tuple[str, Ability]] = {}
    counters: list[Any] = []
    fixed: dict[int, tuple[Ability, _Fixed]] = {}
    for card in cards:
        for mod in card.mods:
            if mod.ability is not None and mod.key is not None:
                found[id(mod.ability)] = (mod.key, mod.ability)
    roots: list[tuple[Action, ...] | Ability] = [tuple(start)]
    for card in cards:
        roots.extend(card.abilities)
        roots.extend(mod.ability for mod in card.mods if mod.ability is not None)
    for root in roots:
        values: dict[Any, None] = {}
        for item in walk_objects(root):
            kind = type(item)
            if kind in _NUMBER_WORDS:
                counters.append(item)
            if kind is Grant:
                found[id(item.ability)] = (item.key, item.ability)
            elif kind in _MAYBE_FIXED and is_fixed_value(item):
                values[item] = None
        if isinstance(root, Ability):
            fixed[id(root)] = (root, tuple(values))
    return list(found.values()), counters, fixed


def _found(
    card: Card,
    self_card: Card,
    ability: Ability,
    key: str,
    controller: str,
    event: Event,
    moment: int,
    cause: int,
    depth: int,
    looked_back: bool = False,
    grant: Mod | None = None,
) -> Match:
    """The match of ``card``'s ability for ``event`` (``self_card``: what
    ``self`` is; ``looked_back``: as the card was just before it moved;
    ``grant``: the gained ability it holds it through), as the interrupts
    and gained abilities make it (:func:`match_triggers` makes a printed
    ability's match itself, positionally: that one runs for every event)."""
    return make_pending(
        id=0,
        card=card.id,
        ability=ability,
        self_card=self_card.id,
        controller=controller,
        events=(event,),
        moment=moment,
        incarnation=card.incarnation,
        cause=cause,
        depth=depth,
        self_incarnation=self_card.incarnation,
        looked_back=looked_back,
        key=key,
        granted=grant is not None,
        grant=grant,
    )


#: the third part of the key :func:`_note` files a match under, for one that was not gained
_UNGRANTED = id(None)


def _note(found: dict[tuple[str, str, int], Match], event: Event, fresh: Match) -> None:
    """Keep ``fresh``, found for ``event``, or add ``event`` to the ability's
    match of this moment (one per ability per moment)."""
    match = found.setdefault((fresh.card, fresh.key, id(fresh.grant)), fresh)
    if match is fresh:
        return
    for seen in match.events:  # two equal events of a moment are still two
        if seen is event:
            return
    match._also(event)
