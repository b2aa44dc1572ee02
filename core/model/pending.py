"""Pending effects and the pool they wait in.

A :class:`PendingEffect` is one triggering of one ability: it waits until the
ruleset lets it activate.  The :class:`PendingPool` keeps them bucketed by the
*rank* the ruleset gave each one (see ``tcgtrig_pending_rank``): the effects
that may activate next are exactly the bucket with the lowest rank.  Adding,
removing and finding the next bucket are O(log n), so a cascade with
thousands of pending effects never goes quadratic.

The pool also keeps, in O(1) per change, how many of each kind of effect
(equal :meth:`PendingEffect.signature`) wait in it: the loop guards use
that to recognise effects that only pile up (:mod:`tcgtrig.runtime.loops`).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from attrs import field, setters

from .records import changer, maker
from .values import Ability, AtTrigger, Count, Event, Mod, Query, StatOf

if TYPE_CHECKING:
    from attrs import define, frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import define, frozen  # attrs' own, the methods compiled ahead of time

if TYPE_CHECKING:
    # ``tuple`` converts (called by a function), typed for the events (mypy cannot type a
    # field whose converter is the generic class ``tuple``)
    def _events(events: Iterable[Event], /) -> tuple[Event, ...]: ...

else:

    def _events(events):  # not tuple itself: attrs reads the converter's signature, and tuple's takes tokenize (6 ms)
        return tuple(events)


__all__ = ["PendingEffect", "PendingPool", "make_pending", "event_signature"]

_MASK = (1 << 64) - 1

#: the place a game gives a pending effect (``tcgtrig_pending_rank``):
#: numbers, compared as a tuple, the lowest first
Rank = tuple[int, ...]
#: the ``fixed`` values of an effect's words, each with what it read as
#: the effect triggered
Fixed = tuple[tuple[Count | StatOf | AtTrigger, int | None], ...]
#: what an effect targeted: ``(name, query, ((card id, incarnation), …))``
Targets = tuple[tuple[str, Query, tuple[tuple[str, int], ...]], ...]
#: an event, as a :meth:`PendingEffect.signature` holds it: its name, card,
#: player, from, to, by, counter, amount, flag, stat and cards
EventSignature = tuple[
    str,
    str | None,
    str | None,
    str | None,
    str | None,
    str | None,
    str | None,
    int | None,
    str | None,
    str | None,
    tuple[str, ...],
]


def event_signature(e: Event) -> EventSignature:
    """An event as a signature holds it (no ids: equal events behave alike)."""
    return (e.name, e.card, e.player, e.from_, e.to, e.by, e.counter, e.amount, e.flag, e.stat, e.cards)


#: :meth:`PendingEffect.signature`: key, controller, self card,
#: declaration, negated, the targets chosen (by name) and the events
Signature = tuple[
    str, str, str, str, str, tuple[tuple[str, tuple[tuple[str, int], ...]], ...], tuple[EventSignature, ...]
]
#: :meth:`PendingPool.fingerprint` and :meth:`PendingPool.shape`: per
#: bucket, the signatures in it
Fingerprint = tuple[tuple[Signature, ...], ...]


@frozen(kw_only=True, weakref_slot=False)  # made by make_pending (records.maker)
class PendingEffect:
    """One triggered (or activated) effect waiting for its turn.

    :param id: instance number, unique within a resolution (``#3``).
    :param key: the effect key, ``<card id>.<ability id>``.
    :param card: the card whose ability this is.
    :param controller: the player who controls (and orders) it.
    :param self_card: the card ``self`` means (the top card for inherited ones).
    :param events: the events that triggered it (one moment's worth).
    :param moment: the moment of those events (for "last thing that happened").
    :param timing: the admission batch number; larger is newer.
    :param depth: how many effects deep it was derived (start = 0).
    :param cause: instance id of the effect during which it triggered.
    :param incarnation: its card's incarnation when it triggered.
    :param self_incarnation: the incarnation of ``self_card`` just after it
        triggered (equal to ``incarnation`` when ``self_card`` is ``card``).
    :param looked_back: it triggered from its card as it was just before the
        card moved (a leave-the-zone trigger); an inherited one then waits on
        the top card that left, not on the card it is printed on.
    :param fixed: the ``fixed`` numbers of its words, read as it triggered.
    :param granted: its ability was gained (``grant``): it belongs to the
        card that holds ``grant`` (the gained ability, a ``Mod``) now.
    :param grant: that gained ability, followed from card to card of its pile.
    :param window: ``main`` for the pending set, ``interrupt`` inside an
        interrupt window.
    :param rank: the ordering key the ruleset gave it.
    :param details: game-specific keys copied into its trace steps.
    :param link: chain games: the chain link that was resolving when it
        triggered (0: none was).
    :param targets: what it targeted as it was activated (see
        :class:`~tcgtrig.runtime.evaluate.Scope`).
    :param negated: chain games: ``activation`` or ``effect`` once a
        ``negate`` negated this link (it is then not resolved), with
        ``negated_by`` the key of the effect that did.
    :param declaration: for an effect whose use is declared
        (``tcgtrig_declared_use``): ``due`` until its controller declares,
        ``made`` once declared (it then activates without asking again);
        empty for every other effect.
    """

    id: int
    key: str
    card: str
    ability: Ability = field(eq=False, repr=False)
    controller: str
    self_card: str
    events: tuple[Event, ...] = field(default=(), converter=_events, eq=False, repr=False)
    moment: int = 0
    timing: int = 0
    depth: int = 0
    cause: int | None = None
    incarnation: int = 0
    self_incarnation: int = 0
    looked_back: bool = False
    fixed: Fixed = field(default=(), eq=False, repr=False)
    granted: bool = False
    grant: Mod | None = field(default=None, eq=False, repr=False)
    window: str = "main"
    rank: Rank = ()
    details: tuple[tuple[str, Any], ...] = ()
    link: int = 0
    declaration: str = ""
    targets: Targets = field(default=(), eq=False, repr=False)
    negated: str = ""
    negated_by: str = ""
    #: the first keys of its trace steps, worked out by :meth:`trace_head`
    #: (a copy made with ``evolve`` works them out afresh)
    _head: tuple[Any, ...] | None = field(default=None, init=False, eq=False, repr=False)
    #: :meth:`signature`, once worked out
    _signature: Signature | None = field(default=None, init=False, eq=False, repr=False)
    #: :meth:`signature_hash`, once worked out
    _signature_hash: int | None = field(default=None, init=False, eq=False, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> object:
        return self

    def signature(self) -> Signature:
        """What makes this effect what it is, apart from its id and rank:
        equal signatures behave alike (used to recognise a repeated position)."""
        signature = self._signature
        if signature is None:
            signature = (
                self.key,
                self.controller,
                self.self_card,
                self.declaration,
                self.negated,
                tuple((name, chosen) for name, _, chosen in self.targets),
                tuple(event_signature(e) for e in self.events),
            )
            _set_signature(self, signature)
        return signature

    def signature_hash(self) -> int:
        """A hash of :meth:`signature` (64 bits), worked out once: the pool
        adds and takes it away on every change."""
        value = self._signature_hash
        if value is None:
            events = self.events
            if len(events) == 1 and not self.targets:
                # what nearly every effect is: its signature's parts hashed flat, without
                # building the signature (equal signatures hash alike still: keep the
                # event's fields here those of signature())
                e = events[0]
                value = hash(
                    (
                        self.key,
                        self.controller,
                        self.self_card,
                        self.declaration,
                        self.negated,
                        e.name,
                        e.card,
                        e.player,
                        e.from_,
                        e.to,
                        e.by,
                        e.counter,
                        e.amount,
                        e.flag,
                        e.stat,
                        e.cards,
                    )
                )
            else:
                value = hash(self.signature())
            value &= _MASK
            _set_signature_hash(self, value)
        return value

    # -- filled in by the engine, in place, before the effect is admitted ----
    # The trigger matcher makes an effect as its ability matches (id 0, no
    # batch yet), the moment's other events and its chain link and fixed
    # numbers are added as they are found, and admission gives it its id,
    # batch, rank and details.  Until then nothing but the engine holds it
    # (a copy of the engine copies the ones it holds): one object per
    # pending effect, on the hot path.

    def _also(self, event: Event) -> None:
        """One more event of its moment set it off."""
        _set_events(self, self.events + (event,))

    def _link_to(self, link: int) -> None:
        """The chain link that was resolving as it triggered."""
        _set_link(self, link)

    def _fix(self, fixed: Fixed) -> None:
        """Its ``fixed`` numbers, read as it triggered."""
        _set_fixed(self, fixed)

    def _admit(self, id: int, timing: int, rank: Rank | None = None) -> None:
        """Its instance number and admission batch, as it is admitted, and
        its rank if it is known already (else :meth:`_place` gives it)."""
        _set_id(self, id)
        _set_timing(self, timing)
        if rank is not None:
            _set_rank(self, rank)

    def _place(self, rank: Rank, details: tuple[tuple[str, Any], ...]) -> None:
        """Give a new effect its rank and trace details, in place.

        Only the engine calls this, on an effect it has just made and not
        yet pooled (the game's rank and details hooks have seen it, nothing
        keeps it): one object per pending effect instead of three, on the
        hot path.
        """
        _set_rank(self, rank)
        _set_details(self, details)

    def trace_head(self) -> tuple[Any, ...]:
        """The keys every trace step about this effect begins with, flat:
        its key, player, id and cause, then the game's details that are
        set.  Worked out once, when the first step is written (its rank and
        details are placed by then)."""
        head = self._head
        if head is None:
            cause = self.cause
            if cause is None:
                head = ("effect", self.key, "player", self.controller, "id", self.id)
            else:
                head = ("effect", self.key, "player", self.controller, "id", self.id, "cause", cause)
            if self.details:
                head += tuple(part for key, value in self.details if value is not None for part in (key, value))
            _set_head(self, head)
        return head

    @property
    def optional(self) -> bool:
        return self.ability.optional

    @property
    def kind(self) -> str:
        return self.ability.kind

    @property
    def tags(self) -> tuple[str, ...]:
        return self.ability.tags


class MakePending(Protocol):
    """The signature of :data:`make_pending`: :class:`PendingEffect`'s fields in order, each
    by place or by name (checked against the class: ``tests/core/test_records.py``)."""

    def __call__(
        self,
        id: int,
        key: str,
        card: str,
        ability: Ability,
        controller: str,
        self_card: str,
        events: tuple[Event, ...] = ...,
        moment: int = ...,
        timing: int = ...,
        depth: int = ...,
        cause: int | None = ...,
        incarnation: int = ...,
        self_incarnation: int = ...,
        looked_back: bool = ...,
        fixed: Fixed = ...,
        granted: bool = ...,
        grant: Mod | None = ...,
        window: str = ...,
        rank: Rank = ...,
        details: tuple[tuple[str, Any], ...] = ...,
        link: int = ...,
        declaration: str = ...,
        targets: Targets = ...,
        negated: str = ...,
        negated_by: str = ...,
    ) -> PendingEffect: ...


#: :class:`PendingEffect`'s keywords, at slot speed (:func:`~tcgtrig.model.records.maker`):
#: ``events`` must be a tuple
make_pending: MakePending = maker(PendingEffect)


class ChangePending(Protocol):
    """The signature of :data:`change_pending`: ``record``, then any of
    :class:`PendingEffect`'s fields by name (checked against the class:
    ``tests/core/test_records.py``)."""

    def __call__(
        self,
        record: PendingEffect,
        *,
        id: int = ...,
        key: str = ...,
        card: str = ...,
        ability: Ability = ...,
        controller: str = ...,
        self_card: str = ...,
        events: tuple[Event, ...] = ...,
        moment: int = ...,
        timing: int = ...,
        depth: int = ...,
        cause: int | None = ...,
        incarnation: int = ...,
        self_incarnation: int = ...,
        looked_back: bool = ...,
        fixed: Fixed = ...,
        granted: bool = ...,
        grant: Mod | None = ...,
        window: str = ...,
        rank: Rank = ...,
        details: tuple[tuple[str, Any], ...] = ...,
        link: int = ...,
        declaration: str = ...,
        targets: Targets = ...,
        negated: str = ...,
        negated_by: str = ...,
    ) -> PendingEffect: ...


#: a changed copy of a :class:`PendingEffect`, at slot speed (:func:`~tcgtrig.model.records.changer`):
#: every value given already of its field's type
change_pending: ChangePending = changer(PendingEffect)

#: the two slots :meth:`PendingEffect._place` sets, past the frozen ``__setattr__``
_set_rank = PendingEffect.__dict__["rank"].__set__
_set_events = PendingEffect.__dict__["events"].__set__
_set_link = PendingEffect.__dict__["link"].__set__
_set_fixed = PendingEffect.__dict__["fixed"].__set__
_set_id = PendingEffect.__dict__["id"].__set__
_set_timing = PendingEffect.__dict__["timing"].__set__
_set_details = PendingEffect.__dict__["details"].__set__
_set_head = PendingEffect.__dict__["_head"].__set__
_set_signature = PendingEffect.__dict__["_signature"].__set__
_set_signature_hash = PendingEffect.__dict__["_signature_hash"].__set__


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class PendingPool:
    """Pending effects bucketed by rank; the lowest rank goes next.

    Besides the buckets it keeps, in O(1) per change, a hash of the
    multiset of pending effects (by signature), how many of each kind
    wait (:meth:`kinds`, keyed by :meth:`PendingEffect.signature_hash`) and
    a hash of the *set* of kinds (:meth:`shape_fingerprint`).
    """

    _buckets: dict[Rank, dict[int, PendingEffect]] = field(factory=dict)
    _heap: list[Rank] = field(factory=list)
    _rank_of: dict[int, Rank] = field(factory=dict)
    _by_card: dict[str, dict[int, None]] = field(factory=dict)
    _hash: int = 0
    #: how many pending effects of each kind, by signature hash
    _kinds: dict[int, int] = field(factory=dict)
    #: the hash of the set of kinds: the sum of their signature hashes
    _kinds_hash: int = 0
    #: per bucket, how many effects left it since it was last compacted
    _holes: dict[Rank, int] = field(factory=dict)
    #: per bucket that has held more than one effect, each effect's key by id,
    #: in the bucket's order (an ordering decision's labels, read without
    #: touching the effects: :meth:`keys_of`); most buckets only ever hold one
    _keys: dict[Rank, dict[int, str]] = field(factory=dict)
    #: per bucket in ``_keys``, how many of its effects have each key
    _key_counts: dict[Rank, dict[str, int]] = field(factory=dict)

    def __len__(self) -> int:
        return len(self._rank_of)

    def __bool__(self) -> bool:
        return bool(self._rank_of)

    def __contains__(self, effect_id: int) -> bool:
        return effect_id in self._rank_of

    def __iter__(self) -> Iterator[PendingEffect]:
        """Every pending effect, lowest rank first (O(n log n))."""
        for rank in sorted(self._buckets):
            yield from self._buckets[rank].values()

    def add(self, effect: PendingEffect) -> None:
        rank = effect.rank
        bucket = self._buckets.get(rank)
        if bucket is None:
            self._buckets[rank] = {effect.id: effect}
            heapq.heappush(self._heap, rank)
        else:
            keys = self._keys.get(rank)
            if keys is None:  # its second effect: the first one's key too
                (first,) = bucket.values()
                keys = self._keys[rank] = {first.id: first.key}
                counts = self._key_counts[rank] = {first.key: 1}
            else:
                counts = self._key_counts[rank]
            bucket[effect.id] = effect
            keys[effect.id] = key = effect.key
            counts[key] = counts.get(key, 0) + 1
        self._rank_of[effect.id] = rank
        self._by_card.setdefault(effect.card, {})[effect.id] = None
        if effect.self_card != effect.card:
            self._by_card.setdefault(effect.self_card, {})[effect.id] = None
        # self._count(effect), written out: it runs for every pending effect
        kind = effect._signature_hash
        if kind is None:
            kind = effect.signature_hash()
        self._hash = (self._hash + kind) & _MASK
        kinds = self._kinds
        count = kinds.get(kind, 0)
        kinds[kind] = count + 1
        if not count:
            self._kinds_hash = (self._kinds_hash + kind) & _MASK

    def _count(self, effect: PendingEffect) -> None:
        """One more pending effect of ``effect``'s kind."""
        kind = effect._signature_hash
        if kind is None:
            kind = effect.signature_hash()
        self._hash = (self._hash + kind) & _MASK
        kinds = self._kinds
        count = kinds.get(kind, 0)
        kinds[kind] = count + 1
        if not count:
            self._kinds_hash = (self._kinds_hash + kind) & _MASK

    def _uncount(self, effect: PendingEffect) -> None:
        """One fewer pending effect of ``effect``'s kind (counted in, so its hash is known)."""
        kind: int = effect._signature_hash  # type: ignore[assignment]
        self._hash = (self._hash - kind) & _MASK
        kinds = self._kinds
        count = kinds[kind]
        if count == 1:
            del kinds[kind]
            self._kinds_hash = (self._kinds_hash - kind) & _MASK
        else:
            kinds[kind] = count - 1

    def remove(self, effect_id: int) -> PendingEffect:
        rank = self._rank_of.pop(effect_id)
        bucket = self._buckets[rank]
        effect = bucket.pop(effect_id)
        if not bucket:
            del self._buckets[rank]
            if self._keys.pop(rank, None) is not None:
                del self._key_counts[rank]
                self._holes.pop(rank, None)
        else:
            keys, counts = self._keys[rank], self._key_counts[rank]
            key = keys.pop(effect_id)
            left = counts[key] - 1
            if left:
                counts[key] = left
            else:
                del counts[key]
            # a dict keeps a hole where an entry was, and iterating from the
            # front walks past every hole: compact a bucket emptied from the front
            holes = self._holes[rank] = self._holes.get(rank, 0) + 1
            if holes > 16 and holes > len(bucket):
                self._buckets[rank] = dict(bucket)
                self._keys[rank] = dict(keys)
                self._holes[rank] = 0
        by_card = self._by_card
        card = effect.card
        owned = by_card[card]
        del owned[effect_id]
        if not owned:
            del by_card[card]
        if effect.self_card != card:  # it works from under another card: filed under that one too
            owned = by_card[effect.self_card]
            del owned[effect_id]
            if not owned:
                del by_card[effect.self_card]
        # self._uncount(effect), written out
        kind: int = effect._signature_hash  # type: ignore[assignment]
        self._hash = (self._hash - kind) & _MASK
        kinds = self._kinds
        count = kinds[kind]
        if count == 1:
            del kinds[kind]
            self._kinds_hash = (self._kinds_hash - kind) & _MASK
        else:
            kinds[kind] = count - 1
        return effect

    def replace(self, effect: PendingEffect) -> None:
        """Put a changed copy of a pending effect in its place (same rank,
        same place among its bucket)."""
        bucket = self._buckets[self._rank_of[effect.id]]
        self._uncount(bucket[effect.id])
        bucket[effect.id] = effect
        self._count(effect)

    def get(self, effect_id: int) -> PendingEffect:
        return self._buckets[self._rank_of[effect_id]][effect_id]

    def next_bucket(self) -> dict[int, PendingEffect]:
        """The effects that may go next, in the order they triggered.

        The returned dict is live: do not keep it across changes.
        """
        heap = self._heap
        while heap and heap[0] not in self._buckets:
            heapq.heappop(heap)
        if not heap:
            return {}
        return self._buckets[heap[0]]

    def keys_of(self, bucket: dict[int, PendingEffect]) -> list[str] | None:
        """The keys of a bucket :meth:`next_bucket` gave, in its order, if
        no key is there twice: an ordering decision's labels, at C speed.
        ``None`` if a key is there twice, or ``bucket`` is no longer one of
        this pool's buckets."""
        rank = self._rank_of.get(next(iter(bucket), -1))
        if rank is None or self._buckets.get(rank) is not bucket:
            return None
        keys = self._keys.get(rank)
        if keys is None:  # a bucket that only ever held one effect
            return [effect.key for effect in bucket.values()]
        return list(keys.values()) if len(self._key_counts[rank]) == len(keys) else None

    def of_card(self, card_id: str) -> list[PendingEffect]:
        """The pending effects of one card's abilities, and those that work
        from a pile under it (their ``self_card``)."""
        return [self.get(i) for i in self._by_card.get(card_id, ())]

    def quick_fingerprint(self) -> tuple[int, int]:
        """O(1): a hash of the multiset of pending effects, and their number."""
        return (self._hash, len(self._rank_of))

    def shape_fingerprint(self) -> int:
        """O(1): a hash of the *set* of kinds of pending effects — how many
        of each kind wait left out (see :meth:`shape`)."""
        return self._kinds_hash

    def kinds(self) -> dict[int, int]:
        """How many pending effects of each kind (by signature hash) wait.
        The dict is live: copy it to keep it."""
        return self._kinds

    def fingerprint(self) -> Fingerprint:
        """O(n): every pending effect's signature, bucket by bucket in rank
        order and in trigger order within a bucket.

        Absolute rank values and ids are left out, so two pools that hold
        alike effects in the same order are equal (loop detection relies on
        this).
        """
        return tuple(
            tuple(effect.signature() for effect in self._buckets[rank].values()) for rank in sorted(self._buckets)
        )

    def shape(self) -> Fingerprint:
        """O(n): :meth:`fingerprint` leaving out how many of each kind of
        effect wait (:meth:`shape_of`)."""
        return self.shape_of(self.fingerprint())

    @staticmethod
    def shape_of(fingerprint: Fingerprint) -> Fingerprint:
        """A :meth:`fingerprint` leaving out how many of each kind of effect
        wait: bucket by bucket in rank order, the kinds in the order they
        first come in it, and a run of buckets with the same kinds once (a
        game that layers its batches makes one bucket per batch).

        Two pools of the same shape differ at most in how many times each
        effect waits: where one holds more of every kind, effects piled up
        (:class:`tcgtrig.runtime.loops.GrowthGuard`)."""
        shape: list[tuple[Signature, ...]] = []
        last: tuple[Signature, ...] | None = None
        for bucket in fingerprint:
            these = tuple(dict.fromkeys(bucket))
            if these != last:
                shape.append(these)
                last = these
        return tuple(shape)

    def has_shape(self, shape: Fingerprint) -> tuple[bool, int]:
        """Whether :meth:`shape` would be ``shape``, and how many pending
        effects were looked at to tell: it stops at the first difference,
        so a pool whose order differs early costs little to compare."""
        looked = 0
        place = 0  # the next bucket of ``shape`` to match
        last: tuple[Signature, ...] | None = None  # the bucket of ``shape`` matched last
        for rank in sorted(self._buckets):
            ahead = shape[place] if place < len(shape) else None
            as_last, as_ahead = last is not None, ahead is not None  # what this bucket may still equal
            seen: set[int] = set()
            for effect in self._buckets[rank].values():
                looked += 1
                kind = effect.signature_hash()
                if kind in seen:
                    continue
                nth = len(seen)
                seen.add(kind)
                signature = effect.signature()
                # as_last (as_ahead) holds only while last (ahead) is not None
                as_last = as_last and nth < len(last) and last[nth] == signature  # type: ignore[arg-type, index]
                as_ahead = as_ahead and nth < len(ahead) and ahead[nth] == signature  # type: ignore[arg-type, index]
                if not (as_last or as_ahead):
                    return False, looked
            if as_last and len(seen) == len(last):  # type: ignore[arg-type]
                continue  # one more bucket of the run ``last`` began
            if as_ahead and len(seen) == len(ahead):  # type: ignore[arg-type]
                last = ahead
                place += 1
                continue
            return False, looked
        return place == len(shape), looked

    def copy(self) -> PendingPool:
        return PendingPool(
            buckets={r: dict(b) for r, b in self._buckets.items()},
            heap=list(self._heap),
            rank_of=dict(self._rank_of),
            by_card={c: dict(i) for c, i in self._by_card.items()},
            hash=self._hash,
            kinds=dict(self._kinds),
            kinds_hash=self._kinds_hash,
            holes=dict(self._holes),
            keys={r: dict(k) for r, k in self._keys.items()},
            key_counts={r: dict(c) for r, c in self._key_counts.items()},
        )
