"""The game state: cards, counters and what has been used this turn.

:class:`GameState` is the one live (mutable) container of the model.  Cards in
it are frozen values, so :meth:`GameState.copy` only copies dictionaries:
cheap enough to branch a position at every decision.  All changes go through
its methods, which keep the indexes (zone, stacking) and an incremental
fingerprint up to date in O(1) per change.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from attrs import field, setters

from .values import Card, CardDynamic, Event

if TYPE_CHECKING:
    from attrs import define  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import define  # attrs.define, the methods compiled ahead of time

__all__ = ["Changes", "GameState", "without_amounts"]

_MASK = (1 << 64) - 1
#: a counter not set yet (:meth:`GameState.set_counter`)
_UNSET = object()


class Changes:
    """What changed of a state since a watcher last looked (:meth:`GameState.watch`):
    the cards replaced and the zones they were in or came to, the per-turn
    keys used, and whether anything else but a counter changed (marks, the
    history, a new turn's resets).  Counters are told apart by
    :meth:`GameState.fingerprint`."""

    __slots__ = ("cards", "zones", "used", "other")

    def __init__(self) -> None:
        self.cards: set[str] = set()
        self.zones: set[str] = set()
        self.used: set[str] = set()
        self.other = False

    def clear(self) -> None:
        self.cards.clear()
        self.zones.clear()
        self.used.clear()
        self.other = False


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class GameState:
    """Where every card is, every counter's value, and once-per-turn use.

    :param players: the two player names, turn order.
    :param turn_player: whose turn it is.
    :param cards: the cards, in the order the scenario lists them.
    :param counters: per-player numbers (memory, lp, mana, …).
    :param used: how many times each per-turn ability key was used this
        turn (``[Once Per Turn]``, ``[Twice Per Turn]``).
    :param marks: the marks the game carries, on no card (the ``mark``
        action: rules bookkeeping that outlives cards moving).
    :param empty_draws: the players who had to draw from an empty deck
        (a draw that found fewer cards than it asked for) since the game's
        rules were last processed: ``tcgtrig_rules_processing`` reads it
        (Magic CR 704.5b), and the core empties it once they were.
    :param history: what happened this turn, in order — kept only when
        ``keep_history`` is set (some words read it: ``happened``), since a
        long cascade would otherwise hold every event it made.
    """

    players: tuple[str, ...]
    turn_player: str
    cards: dict[str, Card] = field(factory=dict)
    counters: dict[str, dict[str, int]] = field(factory=dict)
    used: dict[str, int] = field(factory=dict)
    turn: int = 1
    marks: frozenset[str] = frozenset()
    empty_draws: tuple[str, ...] = ()
    history: list[Event] = field(factory=list)
    keep_history: bool = False
    _order: dict[str, int] = field(factory=dict, repr=False)
    _zones: dict[str, dict[str, None]] = field(factory=dict, repr=False)
    _children: dict[str, dict[str, None]] = field(factory=dict, repr=False)
    _hash: int = field(default=0, repr=False)
    #: the counters' share of ``_hash``
    _counter_hash: int = field(default=0, repr=False)
    #: the cards that carry stat changes: the hash of each one's
    #: :meth:`~tcgtrig.model.values.Card.dynamic` part, and of that part
    #: leaving out the changes' amounts (:func:`without_amounts`)
    _numbers: dict[str, tuple[int, int]] = field(factory=dict, repr=False)
    #: what :meth:`shape_fingerprint` adds to ``_hash`` to leave out the stat
    #: changes' amounts and the turn's history
    _number_delta: int = field(default=0, repr=False)
    _touched: set[str] = field(factory=set, repr=False)
    _gifted: dict[str, None] = field(factory=dict, repr=False)
    #: each card's :meth:`~tcgtrig.model.values.Card.dynamic` part, in card order
    _dynamic: dict[str, CardDynamic] = field(factory=dict, repr=False)
    #: how many times anything but a counter changed (cards, marks, the
    #: history, per-turn uses): see :meth:`changes`
    _changes: int = field(default=0, repr=False)
    #: the counters set since the last :meth:`take_counters_set` (``None``:
    #: not kept; see :meth:`keep_counters_set`)
    _counters_set: set[tuple[str, str]] | None = field(default=None, repr=False)
    #: who is told what changed (:meth:`watch`); a copy has none
    _watchers: list[Changes] = field(factory=list, repr=False)
    #: the ids of each zone's cards in scenario order, as :meth:`in_zone`
    #: last sorted them, kept up to date as cards come and go; a copy
    #: sorts again
    _sorted: dict[str, list[str]] = field(factory=dict, repr=False)

    @classmethod
    def build(
        cls,
        players: Iterable[str],
        turn_player: str,
        cards: Iterable[Card],
        counters: dict[str, dict[str, int]] | None = None,
        used: Iterable[str] = (),
        turn: int = 1,
    ) -> GameState:
        """Make a state and its indexes from plain values."""
        players = tuple(players)
        state = cls(players=players, turn_player=turn_player, turn=turn)
        for player in players:
            state.counters[player] = {}
        for player, values in (counters or {}).items():
            for name, value in values.items():
                state.set_counter(player, name, value)
        for card in cards:
            state._order[card.id] = len(state._order)
            state._index(card)
        for key in used:
            state.mark_used(key)
        state._touched = set(state.cards)  # a new position is checked in full
        return state

    # -- reading ----------------------------------------------------------

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def opponent(self, player: str) -> str:
        """The player after ``player`` in turn order: with two players, the
        other one."""
        return self.next_player(player)

    def next_player(self, player: str) -> str:
        """Who takes the turn after ``player``."""
        players = self.players
        if player not in players:
            return player
        return players[(players.index(player) + 1) % len(players)]

    def opponents(self, player: str) -> tuple[str, ...]:
        """Every other player, in turn order from the one after ``player``."""
        players = self.players
        if player not in players:
            return ()
        at = players.index(player)
        return tuple(players[(at + step) % len(players)] for step in range(1, len(players)))

    def seat(self, player: str) -> int:
        """How far ``player`` comes after the turn player in turn order (the
        turn player is 0): the order several players' effects go in."""
        players = self.players
        if player not in players or self.turn_player not in players:
            return 0
        return (players.index(player) - players.index(self.turn_player)) % len(players)

    def counter(self, player: str, name: str) -> int:
        return self.counters.get(player, {}).get(name, 0)

    def in_zone(self, zone: str) -> Iterator[Card]:
        """The cards in ``zone``, in scenario order (as they are when the
        iteration starts)."""
        ids = self._sorted.get(zone)
        if ids is None:
            ids = self._sorted[zone] = sorted(self._zones.get(zone, {}), key=self._order.__getitem__)
        cards = self.cards
        return (cards[card_id] for card_id in tuple(ids))

    def in_zone_any_order(self, zone: str) -> Iterator[Card]:
        """The cards in ``zone``, in no particular order (cheaper: for a
        count, or whether there are enough)."""
        cards = self.cards
        return (cards[card_id] for card_id in tuple(self._zones.get(zone, {})))

    def under(self, card_id: str) -> list[Card]:
        """The cards stacked directly under ``card_id``, in scenario order."""
        ids = self._children.get(card_id, {})
        return [self.cards[i] for i in sorted(ids, key=self._order.__getitem__)]

    def has_under(self, card_id: str) -> bool:
        """Whether any card is stacked under ``card_id``."""
        return bool(self._children.get(card_id))

    def stack_below(self, card_id: str) -> list[Card]:
        """Every card under ``card_id``, however deep (iterative)."""
        found: list[Card] = []
        todo = [card_id]
        while todo:
            for child in self.under(todo.pop()):
                found.append(child)
                todo.append(child.id)
        return found

    def top(self, card_id: str) -> Card:
        """The card at the top of the stack ``card_id`` is in."""
        card = self.cards[card_id]
        seen = 0
        while card.under is not None and card.under in self.cards and seen < len(self.cards):
            card = self.cards[card.under]
            seen += 1
        return card

    def controller(self, card_id: str) -> str:
        """Who controls a card: the owner of the top card of its stack."""
        return self.top(card_id).owner

    def order_of(self, card_id: str) -> int:
        return self._order[card_id]

    def gifted(self) -> list[Card]:
        """The cards that hold a gained ability (``grant``), in file order."""
        return sorted((self.cards[i] for i in self._gifted), key=lambda c: self._order[c.id])

    def holder_of(self, grant: object) -> Card | None:
        """The card that holds this very gained ability (a ``Mod``) now."""
        for card in self.gifted():
            if any(mod is grant for mod in card.mods):
                return card
        return None

    def is_used(self, key: str, limit: int = 1) -> bool:
        """Whether ``key`` was used ``limit`` times (or more) this turn."""
        return self.used.get(key, 0) >= limit

    def fingerprint(self) -> int:
        """A hash of everything that can change; equal states hash equal."""
        return self._hash

    def dynamic(self) -> tuple[CardDynamic, ...]:
        """What can change of every card, in card order (kept up to date
        as cards change: O(1) per change, one C-speed copy here)."""
        return tuple(self._dynamic.values())

    def changes(self) -> int:
        """A number that moves whenever anything but a counter, the turn
        player or the turn number changes: cards, marks, the history, the
        per-turn uses.  Equal numbers: none of these changed in between."""
        return self._changes

    def keep_counters_set(self, keep: bool) -> None:
        """Start (or stop) noting which counters are set, for
        :meth:`take_counters_set`."""
        if not keep:
            self._counters_set = None
        elif self._counters_set is None:
            self._counters_set = set()

    def take_counters_set(self) -> set[tuple[str, str]]:
        """``(player, counter)`` of each counter set since the last call (or
        since :meth:`keep_counters_set`), forgotten; empty when not kept."""
        found = self._counters_set
        if not found:
            return set()
        self._counters_set = set()
        return found

    def watch(self) -> Changes:
        """A :class:`Changes` this state fills in as it changes, from now on
        (an O(1) note per change for each watcher: a machine keeps a few)."""
        changes = Changes()
        self._watchers.append(changes)
        return changes

    def carrying(self) -> dict[str, tuple[int, int]]:
        """The cards that carry stat changes, by id (live: not kept)."""
        return self._numbers

    def shape_fingerprint(self) -> int:
        """:meth:`fingerprint` leaving out the numbers: the counters' values,
        the amounts of the stat changes cards carry, and the turn's history
        (which words read only as counts: ``happened``).  States that differ
        only in their numbers hash equal."""
        return (self._hash - self._counter_hash + self._number_delta) & _MASK

    # -- changing ---------------------------------------------------------

    def replace(self, card: Card) -> None:
        """Put a new version of a card in place of the old one."""
        old = self.cards.get(card.id)
        if old is not None:
            self._unindex(old)
        elif card.id not in self._order:
            self._order = {**self._order, card.id: len(self._order)}  # shared by copies
        self._index(card)
        if (old is None or old.zone != card.zone) and self._sorted:
            self._resort(card.id, None if old is None else old.zone, card.zone)
        if self._watchers:
            for watcher in self._watchers:
                watcher.zones.add(card.zone)
                if old is not None:
                    watcher.zones.add(old.zone)

    def _resort(self, card_id: str, left: str | None, entered: str) -> None:
        """Keep :attr:`_sorted` in step: ``card_id`` left zone ``left`` and entered ``entered``."""
        order = self._order
        place = order[card_id]
        if left is not None and (ids := self._sorted.get(left)) is not None:
            index = bisect_left(ids, place, key=order.__getitem__)
            if index < len(ids) and ids[index] == card_id:
                del ids[index]
        if (ids := self._sorted.get(entered)) is not None:
            insort(ids, card_id, key=order.__getitem__)

    def take_touched(self) -> list[str]:
        """The cards replaced since the last call, in scenario order; forgets them."""
        touched = self._touched
        if not touched:
            return []
        self._touched = set()
        return sorted(touched, key=self._order.__getitem__)

    def touch(self, card_ids: Iterable[str]) -> None:
        """Count cards as changed (for the next :meth:`take_touched`)."""
        self._touched.update(card_ids)

    def set_counter(self, player: str, name: str, value: int) -> None:
        values = self.counters.get(player)
        if values is None:
            values = self.counters[player] = {}
        old = values.get(name, _UNSET)
        if old != value:  # set to what it is (a capped gauge): the hashes stay
            delta = hash(("counter", player, name, value))
            if old is not _UNSET:
                delta -= hash(("counter", player, name, old))
            values[name] = value
            self._hash = (self._hash + delta) & _MASK
            self._counter_hash = (self._counter_hash + delta) & _MASK
        if self._counters_set is not None:
            self._counters_set.add((player, name))

    def mark_used(self, key: str) -> None:
        count = self.used.get(key, 0)
        if count:
            self._hash = (self._hash - hash(("used", key, count))) & _MASK
        self.used[key] = count + 1
        self._hash = (self._hash + hash(("used", key, count + 1))) & _MASK
        self._changes += 1
        for watcher in self._watchers:
            watcher.used.add(key)

    def set_mark(self, name: str, on: bool) -> bool:
        """Set (``on``) or clear the mark ``name``; whether that changed it."""
        if (name in self.marks) == on:
            return False
        self.marks = self.marks | {name} if on else self.marks - {name}
        delta = hash(("mark", name))
        self._hash = (self._hash + (delta if on else -delta)) & _MASK
        self._changes += 1
        self._changed_other()
        return True

    def drew_from_empty(self, player: str) -> None:
        """``player`` had to draw from an empty deck (see ``empty_draws``)."""
        if player in self.empty_draws:
            return
        self.empty_draws += (player,)
        self._hash = (self._hash + hash(("empty_draw", player))) & _MASK
        self._changes += 1
        self._changed_other()

    def forget_empty_draws(self) -> None:
        """The rules were processed: no one has drawn from an empty deck since."""
        if not self.empty_draws:
            return
        for player in self.empty_draws:
            self._hash = (self._hash - hash(("empty_draw", player))) & _MASK
        self.empty_draws = ()
        self._changes += 1
        self._changed_other()

    def record(self, events: Iterable[Event]) -> None:
        """Events that just happened, for the turn's history (when kept)."""
        for event in events:
            entry = hash(("history", len(self.history), event))
            self._hash = (self._hash + entry) & _MASK
            self._number_delta = (self._number_delta - entry) & _MASK
            self.history.append(event)
            self._changes += 1
            self._changed_other()

    def forget_history(self) -> None:
        """A new turn: nothing has happened in it yet."""
        for index, event in enumerate(self.history):
            entry = hash(("history", index, event))
            self._hash = (self._hash - entry) & _MASK
            self._number_delta = (self._number_delta + entry) & _MASK
        self.history = []
        self._changes += 1
        self._changed_other()

    def reset_used(self) -> None:
        """A new turn: no per-turn ability has been used."""
        for key, count in self.used.items():
            self._hash = (self._hash - hash(("used", key, count))) & _MASK
        self.used = {}
        self._changes += 1
        self._changed_other()

    def _changed_other(self) -> None:
        for watcher in self._watchers:
            watcher.other = True

    def copy(self, *, share_history: bool = False) -> GameState:
        """An independent copy (cards are shared: they are immutable).
        With ``share_history``, the turn's history is the same list, not a
        copy: for a view that only reads (a long turn's history would make
        every such copy cost more than the last)."""
        return GameState(
            players=self.players,
            turn_player=self.turn_player,
            cards=dict(self.cards),
            counters={p: dict(v) for p, v in self.counters.items()},
            used=dict(self.used),
            turn=self.turn,
            marks=self.marks,
            empty_draws=self.empty_draws,
            history=self.history if share_history else list(self.history),
            keep_history=self.keep_history,
            order=self._order,  # never changes after build: shared
            zones={z: dict(ids) for z, ids in self._zones.items()},
            children={c: dict(ids) for c, ids in self._children.items()},
            hash=self._hash,
            counter_hash=self._counter_hash,
            numbers=dict(self._numbers),
            number_delta=self._number_delta,
            touched=set(self._touched),
            gifted=dict(self._gifted),
            dynamic=dict(self._dynamic),
            changes=self._changes,
            counters_set=set(self._counters_set) if self._counters_set is not None else None,
        )

    # -- indexes ----------------------------------------------------------

    def _index(self, card: Card) -> None:
        self.cards[card.id] = card
        mods = card.mods
        if mods and any(mod.ability is not None for mod in mods):
            self._gifted[card.id] = None
        self._touched.add(card.id)
        self._zones.setdefault(card.zone, {})[card.id] = None
        if card.under is not None:
            self._children.setdefault(card.under, {})[card.id] = None
        dynamic = self._dynamic[card.id] = card.dynamic()
        full = hash(dynamic)
        self._hash = (self._hash + full) & _MASK
        if mods and any(mod.stat for mod in mods):
            shape = hash(without_amounts(dynamic))
            self._numbers[card.id] = (full, shape)
            self._number_delta = (self._number_delta + shape - full) & _MASK
        self._changes += 1
        if self._watchers:
            for watcher in self._watchers:
                watcher.cards.add(card.id)

    def _unindex(self, card: Card) -> None:
        if card.mods:
            parts = self._numbers.pop(card.id, None)
            if parts is not None:
                self._number_delta = (self._number_delta - parts[1] + parts[0]) & _MASK
        self._gifted.pop(card.id, None)
        self._zones[card.zone].pop(card.id, None)
        if card.under is not None:
            self._children.get(card.under, {}).pop(card.id, None)
        self._hash = (self._hash - hash(self._dynamic[card.id])) & _MASK


def without_amounts(dynamic: CardDynamic) -> CardDynamic:
    """A card's :meth:`~tcgtrig.model.values.Card.dynamic` part, leaving out
    the amounts of the stat changes it carries (what they change, from
    whom and for how long stay): the loop guards compare those amounts as
    numbers, like counters."""
    card_id, zone, under, stats, flags, mods = dynamic
    kept = tuple(
        (mod.stat, mod.until, mod.effect, mod.player, mod.flag, mod.ability, mod.key) if mod.stat else mod
        for mod in mods
    )
    return (card_id, zone, under, stats, flags, kept)  # type: ignore[return-value]  # a stat change as a tuple
