"""Reading the state through an effect's eyes: selectors, conditions,
amounts, trigger patterns and effective stats (continuous abilities).

Nothing here changes the state.  :class:`Scope` says who is asking (the
effect's controller, its card, what ``self`` means, the triggering events);
:class:`Evaluator` answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from attrs import evolve, field

from ..language.base import relative_player
from ..model.records import changer, maker
from ..model.state import GameState
from ..model.values import (
    SOURCES,
    Ability,
    AllOf,
    Amount,
    AnyOf,
    AtTrigger,
    Card,
    CardIds,
    Change,
    Compare,
    Condition,
    Count,
    CounterIs,
    CountIs,
    Did,
    DidCount,
    Event,
    Happened,
    HappenedCount,
    HasFlag,
    InZone,
    Marked,
    Not,
    Pattern,
    Query,
    Ref,
    Selector,
    StatIs,
    StatOf,
    TargetRef,
    TurnOf,
    Value,
    walk,
)

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

__all__ = ["Scope", "Evaluator", "relative_player", "fixed_values"]

if TYPE_CHECKING:
    # ``tuple`` converts (called by a function), typed for the events (mypy cannot type a
    # field whose converter is the generic class ``tuple``)
    def _events(events: Iterable[Event], /) -> tuple[Event, ...]: ...

else:

    def _events(events):  # not tuple itself: attrs reads the converter's signature, and tuple's takes tokenize (6 ms)
        return tuple(events)


def fixed_values(ability: Ability) -> tuple[Count | StatOf | AtTrigger, ...]:
    """The ``fixed`` numbers and ``at_trigger`` conditions in an ability's
    words (read when it triggers).  Walked once per ability by
    :class:`tcgtrig.runtime.triggers.AbilityIndex`, which keeps the answer."""
    return tuple(dict.fromkeys(item for item in walk(ability) if is_fixed_value(item)))


def is_fixed_value(item: Any) -> bool:
    """Whether a word is read as its ability triggers (see :func:`fixed_values`)."""
    return isinstance(item, (Count, StatOf)) and item.fixed or isinstance(item, AtTrigger)


@frozen(kw_only=True, weakref_slot=False)  # made by make_scope (records.maker)
class Scope:
    """Who is asking: the context an effect's selectors are read in.

    :param key: the effect key (``start`` for the scenario's start).
    :param controller: the effect's controller ("self" for players).
    :param card: the ability's own card (``source``).
    :param self_card: what ``self`` means (the top card for inherited ones).
    :param events: the events that triggered the effect.
    :param self_incarnation: the incarnation of ``self_card`` when the effect
        triggered (or activated): once that card moves again it is a new
        object, and ``self`` no longer finds it — except a card covered by
        another since (digivolution, evolution), which ``self`` follows to
        the top of its pile.  ``None``: ``self`` is found wherever it is.
    :param fixed: the ``fixed`` values of the effect's words, as read when
        it triggered.
    :param targets: what it targeted as it was activated: ``(name, query,
        ((card id, incarnation), …))`` for each of its ``targets``.
    """

    key: str
    controller: str
    card: str | None = None
    self_card: str | None = None
    events: tuple[Event, ...] = field(default=(), converter=_events)
    self_incarnation: int | None = None
    fixed: tuple[tuple[Any, int | None], ...] = ()
    targets: tuple[tuple[str, Query, tuple[tuple[str, int], ...]], ...] = ()

    def __deepcopy__(self, memo: dict[int, object]) -> Scope:
        return self


class MakeScope(Protocol):
    """The signature of :data:`make_scope`: :class:`Scope`'s fields in order, each
    by place or by name (checked against the class: ``tests/core/test_records.py``)."""

    def __call__(
        self,
        key: str,
        controller: str,
        card: str | None = ...,
        self_card: str | None = ...,
        events: tuple[Event, ...] = ...,
        self_incarnation: int | None = ...,
        fixed: tuple[tuple[Any, int | None], ...] = ...,
        targets: tuple[tuple[str, Query, tuple[tuple[str, int], ...]], ...] = ...,
    ) -> Scope: ...


#: :class:`Scope`'s keywords, at slot speed (:func:`~tcgtrig.model.records.maker`):
#: ``events`` must be a tuple
make_scope: MakeScope = maker(Scope)


class ChangeScope(Protocol):
    """The signature of :data:`change_scope`: ``record``, then any of
    :class:`Scope`'s fields by name (checked against the class:
    ``tests/core/test_records.py``)."""

    def __call__(
        self,
        record: Scope,
        *,
        key: str = ...,
        controller: str = ...,
        card: str | None = ...,
        self_card: str | None = ...,
        events: tuple[Event, ...] = ...,
        self_incarnation: int | None = ...,
        fixed: tuple[tuple[Any, int | None], ...] = ...,
        targets: tuple[tuple[str, Query, tuple[tuple[str, int], ...]], ...] = ...,
    ) -> Scope: ...


#: a changed copy of a :class:`Scope`, at slot speed (:func:`~tcgtrig.model.records.changer`):
#: every value given already of its field's type
change_scope: ChangeScope = changer(Scope)


class _Tally:
    """How many events of one turn's ``history`` fit a pattern for one
    asker (:meth:`Evaluator.happened`), as far as the first ``seen`` of
    them: ``total``, and by the event's card (``counts``).  ``plain`` is the
    pattern without its ``card_is``, which is asked of each card as it is
    when the count is read."""

    __slots__ = ("pattern", "plain", "history", "seen", "total", "counts")

    def __init__(self, pattern: Pattern, history: list[Event]) -> None:
        self.pattern = pattern
        self.plain = pattern if pattern.card_is is None else evolve(pattern, card_is=None)
        self.history = history  # a new turn (or a copied state) has a new list: counted afresh
        self.seen = 0
        self.total = 0
        self.counts: dict[str | None, int] = {}


class Evaluator:
    """Answers questions about a state for effects and patterns.

    ``continuous`` lists ``(card id, ability)`` for every continuous ability,
    built once per resolution (abilities never change during it).
    """

    def __init__(self, state: GameState, continuous: Sequence[tuple[str, Ability]] = ()) -> None:
        self.state = state
        self.continuous = tuple(continuous)
        self._busy: set[tuple[str, str]] = set()
        self._past: tuple[dict[str, Card], Evaluator] | None = None
        #: what :meth:`happened` counted so far, by who asked
        self._tallies: dict[tuple[int, str, str, str], _Tally] = {}
        #: how many events of the turn's history :meth:`happened` looked at
        self.examined = 0

    # -- abilities ----------------------------------------------------------

    @staticmethod
    def is_active(card: Card, ability: Ability) -> bool:
        return card.zone in ability.active_in

    def self_of(self, card: Card, ability: Ability | None = None, world: dict[str, Card] | None = None) -> str:
        """What ``self`` means for ``ability`` on ``card``: the card itself, or
        for an ability working from under another card, the top card."""
        if card.zone != SOURCES or card.under is None:
            return card.id
        seen = 0
        current = card
        while current.under is not None and seen <= len(self.state.cards):
            parent_id = current.under
            parent = (world or {}).get(parent_id) or self.state.cards.get(parent_id)
            if parent is None:
                break
            current = parent
            seen += 1
        return current.id

    def owner_in(self, card_id: str, world: dict[str, Card] | None = None) -> str:
        card = (world or {}).get(card_id) or self.state.cards[card_id]
        return card.owner

    # -- selectors ----------------------------------------------------------

    def select(self, selector: Selector | None, scope: Scope) -> list[str]:
        """Card ids a selector finds now, in scenario order (picks not applied)."""
        state = self.state
        if selector is None:
            return []
        if isinstance(selector, Ref):
            if selector.role == "self":
                card = state.cards.get(scope.self_card) if scope.self_card is not None else None
                if card is None:
                    return []
                if scope.self_incarnation is not None and card.incarnation != scope.self_incarnation:
                    if card.zone != SOURCES:
                        return []  # it moved since: a new object
                    return [state.top(card.id).id]  # covered since: "this creature" is the pile's top
                return [card.id]
            if selector.role == "source":
                return [scope.card] if scope.card in state.cards else []
            if selector.role == "against":
                return list(dict.fromkeys(e.against for e in scope.events if e.against in state.cards))
            found: dict[str, None] = {}
            for event in scope.events:
                if event.card is not None and event.card in state.cards:
                    card = state.cards[event.card]
                    if card.zone == SOURCES and event.to != SOURCES:
                        # covered since (digivolved): the card now stands for its pile's top card
                        card = state.top(card.id)
                    found[card.id] = None
                for card_id in event.cards:
                    found[card_id] = None
            return [c for c in found if c in state.cards]
        if isinstance(selector, CardIds):
            return [c for c in selector.ids if c in state.cards]
        if isinstance(selector, TargetRef):
            return self.targets(selector.name, scope)
        return self._query(selector, scope)

    def targets(self, name: str, scope: Scope) -> list[str]:
        """An effect's targets that still count: the same objects as when
        they were targeted, still fitting the targeting query."""
        for target_name, query, chosen in scope.targets:
            if target_name == name:
                return [
                    card_id
                    for card_id, incarnation in chosen
                    if self.state.cards[card_id].incarnation == incarnation and self.fits(card_id, query, scope)
                ]
        return []

    def as_before(self, before: dict[str, Card]) -> Evaluator:
        """An evaluator of the position just before the cards in ``before``
        moved (made once per moment)."""
        if self._past is not None and self._past[0] is before:
            return self._past[1]
        past = self.state.copy(share_history=True)  # read only: the turn's history need not be copied
        for card in before.values():
            past.replace(card)
        view = Evaluator(past, self.continuous)
        self._past = (before, view)
        return view

    def fits(self, card_id: str, query: Query, scope: Scope) -> bool:
        """Whether one card is among what ``query`` finds (``pick`` aside)."""
        card = self.state.cards.get(card_id)
        if card is None or (query.zone and card.zone not in query.zone):
            return False
        return bool(self._query(query, scope, only=card))

    def finds(self, query: Query, scope: Scope, need: int) -> bool:
        """Whether ``query`` finds at least ``need`` cards now (``pick``
        aside): it stops looking once it has, and looks in no order unless
        the query's words need one."""
        if query.top is not None or query.highest or query.lowest:
            return len(self._query(query, scope)) >= need
        return need <= 0 or len(self._query(query, scope, enough=need)) >= need

    def _query(self, query: Query, scope: Scope, only: Card | None = None, enough: int = 0) -> list[str]:
        """What ``query`` finds (``only``: of that one card; ``enough``:
        stop at that many, found in no particular order)."""
        state = self.state
        pool = (only,) if only is not None else self._pool(query.zone, bool(enough))
        owner = None
        not_owner = None  # "an opponent's": any player but the asking one
        if query.owner == "opponent":
            not_owner = scope.controller
        elif query.owner not in (None, "any"):
            owner = relative_player(state, query.owner, scope.controller)
        under: set[str] | None = None
        if query.under is not None:
            under = set(self.select(query.under, scope))
        excluded = set(self.select(query.exclude, scope)) if query.exclude is not None else set()
        name = query.name.lower() if query.name else None
        stats = [(stat, op, self.value(value, scope)) for stat, op, value in query.stat]
        under_counts = [(op, self.value(value, scope)) for op, value in query.cards_under]
        words = (name, under, stats, under_counts)
        more = bool(
            query.types
            or query.all_types
            or query.has is not None
            or name is not None
            or query.flag is not None
            or query.no_flag is not None
            or under is not None
            or stats
            or under_counts
        )
        whose = owner is not None or not_owner is not None
        result = []
        for card in pool:
            if excluded and card.id in excluded:
                continue
            if whose:
                controller = card.owner if card.under is None else state.controller(card.id)
                if controller == not_owner or (owner is not None and controller != owner):
                    continue
            if more and not self._fits_words(card, query, words):
                continue
            result.append(card.id)
            if enough and len(result) >= enough:
                break
        if (query.highest or query.lowest) and result:
            result = self._extreme(result, query.highest or query.lowest or "", bool(query.highest))
        if query.top is not None and only is None:
            result = result[: query.top]
        return result

    def _fits_words(
        self,
        card: Card,
        query: Query,
        words: tuple[str | None, set[str] | None, list[tuple[str, str, Any]], list[tuple[str, Any]]],
    ) -> bool:
        """Whether ``card`` fits ``query``'s words beyond its zone and owner
        (``words``: the name, the cards it must be under, the stats and
        pile sizes, as :meth:`_query` read them once)."""
        name, under, stats, under_counts = words
        if query.types and not any(t in card.types for t in query.types):
            return False
        if query.all_types and not all(t in card.types for t in query.all_types):
            return False
        if query.has is not None and query.has not in card.types and query.has not in card.flags:
            return False
        if name is not None and name not in card.name.lower():
            return False
        if query.flag is not None and query.flag not in card.flags:
            return False
        if query.no_flag is not None and query.no_flag in card.flags:
            return False
        if under is not None and not self._is_under(card, under):
            return False
        if stats and not all(self._compare(self.stat(card.id, stat), op, value) for stat, op, value in stats):
            return False
        return not under_counts or all(
            self._compare(len(self.state.stack_below(card.id)), op, value) for op, value in under_counts
        )

    def _pool(self, zones: tuple[str, ...], any_order: bool) -> Iterable[Card]:
        """The cards a query looks through: those of ``zones`` (all of
        them if none), in scenario order unless ``any_order``."""
        state = self.state
        if not zones:
            return state.cards.values()
        if any_order:
            return (card for zone in zones for card in state.in_zone_any_order(zone))
        if len(zones) == 1:
            return state.in_zone(zones[0])
        return sorted((card for zone in zones for card in state.in_zone(zone)), key=lambda c: state.order_of(c.id))

    def _extreme(self, cards: list[str], stat: str, highest: bool) -> list[str]:
        """The cards with the highest (lowest) value of ``stat``, all of them
        when tied; cards without it are left out."""
        values = {card_id: self.stat(card_id, stat) for card_id in cards}
        known = [v for v in values.values() if v is not None]
        if not known:
            return []
        best = max(known) if highest else min(known)
        return [card_id for card_id in cards if values[card_id] == best]

    def _is_under(self, card: Card, tops: set[str]) -> bool:
        """Whether ``card`` is stacked, at any depth, under one of ``tops``."""
        seen = 0
        while card.under is not None and seen <= len(self.state.cards):
            if card.under in tops:
                return True
            card = self.state.cards[card.under]
            seen += 1
        return False

    @staticmethod
    def _compare(number: int | None, op: str, value: int | None) -> bool:
        return number is not None and value is not None and Compare(op, value).test(number)

    def value(self, value: Value, scope: Scope, did: dict[str, int] | None = None) -> int | None:
        """A number: plain, counted, or read from a card — now, or as it was
        when the effect triggered (``fixed``; read now when it was not
        triggered); or how many things an earlier action of the effect
        affected (``did``: the effect's counts).  ``None`` when there is no
        card to read it from."""
        if isinstance(value, int):
            return value
        if isinstance(value, DidCount):
            return (did or {}).get(value.label, 0)
        if isinstance(value, HappenedCount):
            return self.happened(value.pattern, scope)
        if value.fixed and scope.fixed:
            for ref, number in scope.fixed:
                if ref == value:
                    return number
        return self.read(value, scope)

    def read(self, value: Count | StatOf, scope: Scope) -> int | None:
        """A counted or card-read number as it is now."""
        if isinstance(value, Count):
            return len(self.select(value.of, scope))
        cards = self.select(value.card, scope)
        return self.stat(cards[0], value.stat) if cards else None

    def amount(self, amount: Amount, scope: Scope, did: dict[str, int] | None = None) -> int:
        if isinstance(amount, int):
            return amount
        return self.value(amount, scope, did) or 0

    def test(self, compare: Compare, number: int, scope: Scope, did: dict[str, int] | None = None) -> bool:
        if isinstance(compare.value, int):
            return compare.test(number)
        value = self.value(compare.value, scope, did)
        return value is not None and compare.test(number, value)

    # -- conditions ---------------------------------------------------------

    def holds(self, condition: Condition | None, scope: Scope, did: dict[str, int] | None = None) -> bool:
        """Whether a condition holds now (``None`` always holds)."""
        if condition is None:
            return True
        state = self.state
        if isinstance(condition, CounterIs):  # the commonest, first; self.test without the call for a plain number
            player = relative_player(state, condition.player, scope.controller)
            number = state.counter(player, condition.counter)
            compare = condition.compare
            if type(compare.value) is int:
                return compare.test(number)
            return self.test(compare, number, scope, did)
        if isinstance(condition, AllOf):
            return all(self.holds(c, scope, did) for c in condition.conditions)
        if isinstance(condition, AnyOf):
            return any(self.holds(c, scope, did) for c in condition.conditions)
        if isinstance(condition, Not):
            return not self.holds(condition.condition, scope, did)
        if isinstance(condition, Did):
            return (did or {}).get(condition.label, 0) > 0
        if isinstance(condition, AtTrigger):
            for ref, value in scope.fixed:
                if ref == condition:
                    return bool(value)
            return self.holds(condition.condition, scope, did)
        if isinstance(condition, TurnOf):
            if condition.player == "opponent":  # any opponent's turn
                return state.turn_player != scope.controller
            return state.turn_player == relative_player(state, condition.player, scope.controller)
        if isinstance(condition, CountIs):
            return self.test(condition.compare, len(self.select(condition.of, scope)), scope, did)
        if isinstance(condition, Marked):
            return condition.name in state.marks
        if isinstance(condition, Happened):
            return self.test(condition.compare, self.happened(condition.pattern, scope), scope, did)
        cards = self.select(condition.card, scope)
        if not cards:
            return False
        if isinstance(condition, InZone):
            return all(state.cards[c].zone in condition.zone for c in cards)
        if isinstance(condition, HasFlag):
            return all((condition.flag in state.cards[c].flags) != condition.negate for c in cards)
        if isinstance(condition, StatIs):
            for card_id in cards:
                value = self.stat(card_id, condition.stat)
                if value is None or not self.test(condition.compare, value, scope, did):
                    return False
            return True
        raise TypeError(f"unknown condition {condition!r}")

    def happened(self, pattern: Pattern, scope: Scope) -> int:
        """How many events of this turn so far fit ``pattern``, read for the
        effect ``scope`` speaks for.

        Each asker's count is kept (:class:`_Tally`) and brought up to date
        by looking at the events recorded since it last asked, so an effect
        that asks at every step of a long turn costs the same at each step
        (issue 37 item 23: rescanning the turn made such a loop quadratic).
        What a pattern asks of the event's card as it is now (``card_is``)
        is asked once per card."""
        self_card = scope.self_card or scope.card or ""
        card = scope.card or ""
        history = self.state.history
        key = (id(pattern), scope.controller, self_card, card)
        tally = self._tallies.get(key)
        if tally is None or tally.pattern is not pattern or tally.history is not history:
            tally = self._tallies[key] = _Tally(pattern, history)
        if tally.seen < len(history):
            matches, plain, controller = self.matches, tally.plain, scope.controller
            counts = tally.counts
            for event in history[tally.seen :]:
                if matches(plain, event, controller, self_card, card):
                    counts[event.card] = counts.get(event.card, 0) + 1
                    tally.total += 1
            self.examined += len(history) - tally.seen
            tally.seen = len(history)
        query = pattern.card_is
        if query is None:
            return tally.total
        asking = Scope(key="", controller=scope.controller, card=card, self_card=self_card)
        fits = self.fits
        return sum(n for card_id, n in tally.counts.items() if card_id is not None and fits(card_id, query, asking))

    # -- stats ----------------------------------------------------------------

    def stat(self, card_id: str, name: str) -> int | None:
        """A card's stat with lasting changes and continuous abilities applied.

        ``None`` when the card has no such stat and nothing changes it.
        """
        card = self.state.cards[card_id]
        value = card.base_stat(name)
        total = value or 0
        touched = value is not None
        guarded = card.carries_unaffected()
        controller = self.state.controller(card_id) if guarded else card.owner
        for mod in card.mods:
            if mod.stat == name:
                if guarded and mod.effect is not None and card.unaffected_by(mod.player, controller):
                    continue  # applied, but dormant while effects do not affect it (Digimon CR 15-15-5-2)
                total += mod.by
                touched = True
        for source_id, ability in self.continuous:
            if guarded and card.unaffected_by(self.state.controller(source_id), controller):
                continue
            bonus = self._continuous_bonus(source_id, ability, card_id, name)
            if bonus is not None:
                total += bonus
                touched = True
        return total if touched else None

    def _continuous_bonus(self, source_id: str, ability: Ability, card_id: str, name: str) -> int | None:
        marker = (source_id, ability.id)
        if marker in self._busy:
            return None  # a continuous ability never reads its own result
        source = self.state.cards[source_id]
        if not self.is_active(source, ability):
            return None
        changes = [a for a in ability.do if isinstance(a, Change) and a.stat == name]
        if not changes:
            return None
        scope = self.scope_for(source, ability)
        self._busy.add(marker)
        try:
            if not self.holds(ability.condition, scope):
                return None
            bonus = 0
            hit = False
            for change in changes:
                if card_id in self.select(change.card, scope):
                    bonus += self.amount(change.by_amount, scope)
                    hit = True
            return bonus if hit else None
        finally:
            self._busy.discard(marker)

    def scope_for(self, card: Card, ability: Ability, events: Sequence[Event] = ()) -> Scope:
        self_card = self.self_of(card, ability)
        return Scope(
            key=f"{card.id}.{ability.id}",
            controller=self.state.cards[self_card].owner,
            card=card.id,
            self_card=self_card,
            events=tuple(events),
        )

    # -- patterns -----------------------------------------------------------

    def matches(
        self,
        pattern: Pattern,
        event: Event,
        controller: str,
        self_card: str,
        card: str,
        before: dict[str, Card] | None = None,
    ) -> bool:
        """Whether ``event`` fits ``pattern`` for an ability of ``card``
        controlled by ``controller`` whose ``self`` is ``self_card``.

        A query on the event's card looks at the card as it was just before
        it moved, when it moved at this moment (``before``): "when a Digimon
        with 3000 DP or less is deleted" reads its DP as it was deleted.

        Why one function: it is the engine's hottest test, every event
        against every ability listening for it.  Its checks run cheapest
        first and return at the first that fails; split into helpers, each
        would be a call on every event.
        """
        name = pattern.event  # not in event.names(), without the call
        if name != event.name and name != event.base:
            others = pattern.events  # "when a monster is Summoned": any of several names
            if not others or (event.name not in others and event.base not in others):
                return False
        want = pattern.card
        if want is not None and want != "any":
            got = event.card
            if got is None:
                return False
            if want == "self":
                if got != self_card:
                    return False
            elif want == "source":
                if got != card:
                    return False
            elif want == "own":
                if event.player != controller:
                    return False
            elif want == "own_other":
                if event.player != controller or got == self_card:
                    return False
            elif want == "opponent":
                if event.player == controller or event.player is None:
                    return False
            elif want == "other":
                if got == self_card:
                    return False
            elif got != want:
                return False
        if pattern.player is not None and pattern.player != "any":
            if event.player is None:
                return False
            if pattern.player == "self" and event.player != controller:
                return False
            if pattern.player == "opponent" and event.player == controller:
                return False
        if pattern.card_is is not None:
            view = self.as_before(before) if before and event.card in before else self
            scope = Scope(key="", controller=controller, card=card, self_card=self_card)
            if event.card is None or not view.fits(event.card, pattern.card_is, scope):
                return False
        if pattern.actor is not None and pattern.actor != "any":
            if event.actor is None:
                return False
            if (event.actor == controller) != (pattern.actor == "self"):
                return False
        if pattern.from_ is not None and event.from_ != pattern.from_:
            return False
        if pattern.to is not None and event.to != pattern.to:
            return False
        if pattern.by is not None and event.by != pattern.by:
            return False
        if pattern.counter is not None and event.counter != pattern.counter:
            return False
        if pattern.flag is not None and event.flag != pattern.flag:
            return False
        if pattern.stat is not None and event.stat != pattern.stat:
            return False
        against = pattern.against
        if against is not None:
            wanted = self_card if against == "self" else card if against == "source" else against
            if event.against != wanted:
                return False
        return True
