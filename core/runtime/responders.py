"""The responses a chain window offers, and what is kept of them between windows.

At each window of a chain the responding player's activated abilities are
checked: is the card where the ability works, is it spent, does its
condition hold, does the game forbid it (``tcgtrig_activation_blocked``),
may it answer the chain's top link (``tcgtrig_can_respond``)?  A chain of N
responses in which each player has N/2 quick effects would ask that N²/2
times.  When the game's hooks say what their answers read
(:func:`tcgtrig.reads`), the answers are kept per player and speed in a
:class:`ResponderTable`, and a window asks again only about

- the abilities whose key joined the chain since that player's last window
  (``"chain.own"``);
- the abilities whose card changed (``"state.card"``: the state tells a
  watcher which cards it replaced, :meth:`GameState.watch`);
- after a per-turn use, the abilities with a per-turn limit; after a
  change, those whose words read more than their card (a condition, a
  cost, targets): when their words read only their card and some zones
  (:mod:`tcgtrig.runtime.window_reads`), after a change of a card of those
  zones;
- the abilities with a ``when``, which match the window's events,

while the chain's top speed (``"chain.top_speed"``), the turn, the marks
and the rest of the chain below stay as they were; anything else — or a
hook that reads the whole state (``"state"``) or declares nothing — asks
about them all.

The legal responses are the leaves of a persistent counted tree, in the
order the abilities are filed: a window changes O(log N) nodes, a label's
place among them (which gives its effect's instance number) takes O(log N),
and the :class:`Responses` of an earlier window stay what they were.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Hashable, Iterator, Mapping, Sequence
from operator import add
from typing import Any, overload

from ..base.identity import by_identity
from ..model.pending import PendingEffect, change_pending
from ..model.state import Changes, GameState
from ..model.values import (
    SOURCES,
    Ability,
    AtTrigger,
    Battle,
    Did,
    Happened,
    HappenedCount,
    Marked,
    Query,
    StatIs,
    StatOf,
)

__all__ = ["ResponderTable", "Responses", "ResponseLabels", "tree_of"]

#: a tree node: ``(legal, shown, left, right)`` above the leaves, or a
#: leaf: ``None`` (no legal response there) or ``(effect, copies)``: the
#: effect checked, a legal response; ``copies`` > 0 when the leaf shows an
#: option standing for that many alike responses (the first of its
#: :class:`Copies`), 0 for the others of the group
Node = Any
Leaf = tuple[PendingEffect, int]


def _counts(node: Node, level: int) -> tuple[int, int]:
    if level:
        return node[0], node[1]
    if node is None:
        return 0, 0
    return 1, 1 if node[1] else 0


def tree_of(leaves: Sequence[Leaf | None]) -> tuple[Node, int]:
    """The counted tree over ``leaves`` and its depth (levels above the leaves)."""
    depth = max(len(leaves) - 1, 0).bit_length()
    level: list[Node] = list(leaves) + [None] * ((1 << depth) - len(leaves))
    legal = [0 if leaf is None else 1 for leaf in level]
    shown = [0 if leaf is None or not leaf[1] else 1 for leaf in level]
    while len(level) > 1:
        legal = list(map(add, legal[::2], legal[1::2]))
        shown = list(map(add, shown[::2], shown[1::2]))
        level = list(zip(legal, shown, level[::2], level[1::2], strict=True))
    return level[0], depth


def _same(node: Node, leaf: Leaf | None) -> bool:
    if node is None or leaf is None:
        return node is leaf
    return bool(node[0] is leaf[0] and node[1] == leaf[1])


def put(root: Node, depth: int, place: int, leaf: Leaf | None) -> Node:
    """``root`` with the leaf at ``place`` replaced (the nodes on its path are new)."""
    path: list[tuple[Node, int]] = []
    node = root
    for level in range(depth, 0, -1):
        side = (place >> (level - 1)) & 1
        path.append((node, side))
        node = node[2 + side]
    if _same(node, leaf):
        return root
    new: Node = leaf
    for level in range(1, depth + 1):
        parent, side = path.pop()
        left, right = (parent[2], new) if side else (new, parent[3])
        (legal_left, shown_left), (legal_right, shown_right) = _counts(left, level - 1), _counts(right, level - 1)
        new = (legal_left + legal_right, shown_left + shown_right, left, right)
    return new


def leaf_at(root: Node, depth: int, place: int) -> Leaf | None:
    node = root
    for level in range(depth, 0, -1):
        node = node[2 + ((place >> (level - 1)) & 1)]
    return node  # type: ignore[no-any-return]


def rank(root: Node, depth: int, place: int) -> int:
    """How many legal responses come before ``place`` (shown or not)."""
    before = 0
    node = root
    for level in range(depth, 0, -1):
        if (place >> (level - 1)) & 1:
            before += _counts(node[2], level - 1)[0]
            node = node[3]
        else:
            node = node[2]
    return before


def nth(root: Node, depth: int, index: int) -> int:
    """The place of the ``index``-th option shown (0-based; it exists)."""
    node = root
    place = 0
    for level in range(depth, 0, -1):
        left = node[2]
        here = _counts(left, level - 1)[1]
        if index < here:
            node, place = left, place << 1
        else:
            index -= here
            node, place = node[3], (place << 1) | 1
    return place


def legal(root: Node, depth: int, shown_only: bool = False) -> Iterator[tuple[int, Leaf]]:
    """The legal responses' places and leaves, in order (``shown_only``:
    only the leaves that show an option)."""
    field = 1 if shown_only else 0
    todo: list[tuple[Node, int, int]] = [(root, depth, 0)]
    while todo:
        node, level, place = todo.pop()
        if not _counts(node, level)[field]:
            continue
        if not level:
            yield place, node
            continue
        todo.append((node[3], level - 1, (place << 1) | 1))
        todo.append((node[2], level - 1, place << 1))


def walk(root: Node, depth: int) -> Iterator[int]:
    """The places of the options shown, in order."""
    return (place for place, _ in legal(root, depth, shown_only=True))


def leaves_of(root: Node, depth: int, size: int) -> list[Leaf | None]:
    """The first ``size`` leaves of the tree, in order."""
    leaves: list[Leaf | None] = [None] * size
    for place, leaf in legal(root, depth):
        leaves[place] = leaf
    return leaves


#: the group of the abilities that cannot respond now (their card is not
#: where they work, or not their player's, or a ``when`` matched nothing):
#: never asked, never shown
IDLE: Hashable = ("idle",)

#: words that read what tells copies of a card apart (the turn's history,
#: marks, what an earlier action or the trigger did)
_TELLS_COPIES_APART = (Happened, HappenedCount, Marked, Did, AtTrigger)


class ResponderTable:
    """One player's activated abilities of one lowest speed, and the
    answers last found for them (a leaf per ability: the effect checked, if
    it may respond), with what those answers were found under.

    Abilities alike — the same words on copies of a card (cards alike in
    everything but their ids: name, owner, zone, stats, flags, types,
    modifiers; in no pile), neither of them on the chain, the same per-turn
    state — are one *group* (their signature: ``Activating.alike``).  A
    group is asked about once, through its first ability, and shown as one
    option standing for its copies: a window costs the groups asked about,
    not the abilities."""

    __slots__ = (
        "items",
        "where",
        "volatile",
        "broad",
        "piled",
        "alike",
        "per_turn",
        "by_card",
        "state",
        "changes",
        "root",
        "depth",
        "mark",
        "keys",
        "length",
        "pops",
        "top",
        "sig_of",
        "effects",
        "groups",
        "answers",
        "reads",
        "read_anywhere",
        "read_in",
    )

    def __init__(
        self,
        items: tuple[tuple[str, str, Ability], ...],
        alike: tuple[int | None, ...],
        zones_read: tuple[frozenset[str] | None, ...],
        state: GameState,
        changes: Changes,
    ) -> None:
        """``alike``: each ability's words, numbered alike for equal words
        (:meth:`AbilityIndex.alike <tcgtrig.runtime.triggers.AbilityIndex.alike>`);
        ``zones_read``: the zones each one's words read beyond its card, or
        ``None`` for anything (:meth:`AbilityIndex.zones_read
        <tcgtrig.runtime.triggers.AbilityIndex.zones_read>`);
        ``changes``: what ``state`` tells the table changed (:meth:`GameState.watch`)."""
        self.items = items
        #: each ability's place, by key (keys are unique: card id and ability id)
        self.where: dict[str, int] = {key: place for place, (key, _, _) in enumerate(items)}
        #: the abilities with a ``when``: they match each window's events, so are asked each time
        self.volatile = tuple(place for place, item in enumerate(items) if item[2].when is not None)
        #: the abilities whose own words read the state beyond their card (a
        #: condition, a cost, targets; working from under another card):
        #: their groups are asked again after any change of the state
        self.broad = frozenset(place for place, (_, _, ability) in enumerate(items) if _reads_beyond_its_card(ability))
        #: the abilities that work from under another card: what ``self``
        #: is (the top of the pile) and whose it is change with the cards
        #: above theirs, not with theirs: placed again after any card changed
        self.piled = tuple(place for place, (_, _, ability) in enumerate(items) if SOURCES in ability.active_in)
        #: what each ability's words read beyond its card: the zones, or ``None``: anything
        self.reads = tuple(
            None if SOURCES in item[2].active_in else read for item, read in zip(items, zones_read, strict=True)
        )
        #: each ability's words, numbered alike for equal words (``None``:
        #: words that may tell copies apart: never grouped)
        self.alike = alike
        #: the places of the abilities with a per-turn limit, by the key
        #: they were last found to spend: asked again after a use of it
        self.per_turn: dict[str, set[int]] = {}
        #: the places of each card's abilities: asked again when the card changes
        self.by_card: dict[str, list[int]] = {}
        for place, (_, card_id, _) in enumerate(items):
            self.by_card.setdefault(card_id, []).append(place)
        self.state = state
        self.changes = changes
        #: the answers (``None``: none yet, every ability is asked about)
        self.root: Node = None
        self.depth = 0
        #: what the answers were found under: the state (its change count,
        #: fingerprint, turn and turn player), the chain (its object, length
        #: and number of links taken off) and its top speed
        self.mark: tuple[Any, ...] = ()
        self.keys: object = None
        self.length = 0
        self.pops = 0
        self.top: int | None = None
        self.forget()

    def forget(self) -> None:
        """Drop the groups: every ability is placed and asked about again."""
        #: each ability's group, by place (``None``: not placed)
        self.sig_of: list[Hashable | None] = [None] * len(self.items)
        #: each ability's effect as last made to be checked (``None``: idle)
        self.effects: list[PendingEffect | None] = [None] * len(self.items)
        #: each group's places, in order (the idle group is not kept)
        self.groups: dict[Hashable, list[int]] = {}
        #: each group's answer, once asked: may its abilities respond?
        self.answers: dict[Hashable, bool] = {IDLE: False}
        #: the groups of abilities in :attr:`broad` whose words may read anything
        self.read_anywhere: set[Hashable] = set()
        #: the others, by each zone their words read
        self.read_in: dict[str, set[Hashable]] = {}
        self.per_turn.clear()

    def leave(self, place: int, updates: dict[int, Leaf | None]) -> None:
        """Take the ability at ``place`` out of its group; ``updates``: the
        leaves to put, by place."""
        sig = self.sig_of[place]
        updates[place] = None
        if sig is None or sig == IDLE:
            return
        members = self.groups[sig]
        index = bisect_left(members, place)
        del members[index]
        if not members:
            del self.groups[sig]
            self.answers.pop(sig, None)
            if place in self.broad:
                read = self.reads[place]
                for zone in () if read is None else read:
                    self.read_in[zone].discard(sig)
                self.read_anywhere.discard(sig)
        elif self.answers.get(sig):
            first = members[0]
            updates[first] = (self.effects[first], len(members))  # type: ignore[assignment]

    def join(self, place: int, sig: Hashable, effect: PendingEffect | None, updates: dict[int, Leaf | None]) -> None:
        """Put the ability at ``place`` (its effect to check: ``effect``) in
        the group ``sig``: it shares the group's answer, if the group has one."""
        self.sig_of[place] = sig
        self.effects[place] = effect
        if sig == IDLE:
            updates[place] = None
            return
        members = self.groups.get(sig)
        if members is None:
            members = self.groups[sig] = [place]
            if place in self.broad:
                read = self.reads[place]
                if read is None:
                    self.read_anywhere.add(sig)
                for zone in () if read is None else read:
                    self.read_in.setdefault(zone, set()).add(sig)
        else:
            insort(members, place)
        if not self.answers.get(sig):
            updates[place] = None
            return
        first = members[0]
        updates[place] = (effect, 0)  # type: ignore[assignment]
        if place == first and len(members) > 1:
            second = members[1]
            updates[second] = (self.effects[second], 0)  # type: ignore[assignment]
        updates[first] = (self.effects[first], len(members))  # type: ignore[assignment]

    def to_ask(self, zones: set[str]) -> set[Hashable]:
        """The groups whose words read beyond their cards, to ask about
        after the state changed, cards of ``zones`` among what changed:
        those that may read anything, and those that read one of ``zones``."""
        asked = set(self.read_anywhere)
        read_in = self.read_in
        for zone in zones:
            found = read_in.get(zone)
            if found:
                asked.update(found)
        return asked

    def answer(self, sig: Hashable, may: bool, updates: dict[int, Leaf | None]) -> None:
        """The group ``sig`` may respond (``may``) or not: its leaves."""
        before = self.answers.get(sig)
        self.answers[sig] = may
        if before is may:
            return
        members = self.groups[sig]
        if not may:
            for place in members:
                updates[place] = None
            return
        effects = self.effects
        for place in members:
            updates[place] = (effects[place], 0)  # type: ignore[assignment]
        updates[members[0]] = (effects[members[0]], len(members))  # type: ignore[assignment]

    def apply(self, updates: dict[int, Leaf | None]) -> None:
        """Put ``updates`` in the tree (rebuilt when they are many, or it has none)."""
        if self.root is None or len(updates) * 8 > len(self.items):
            size = len(self.items)
            leaves: list[Leaf | None] = [None] * size if self.root is None else leaves_of(self.root, self.depth, size)
            for place, leaf in updates.items():
                leaves[place] = leaf
            self.root, self.depth = tree_of(leaves)
            return
        root, depth = self.root, self.depth
        for place, leaf in updates.items():
            root = put(root, depth, place, leaf)
        self.root = root


def _reads_beyond_its_card(ability: Ability) -> bool:
    return bool(ability.condition is not None or ability.cost or ability.targets or SOURCES in ability.active_in)


def copies_answer_alike(ability: Ability, stats_vary: bool = False) -> bool:
    """Whether two copies of a card (alike but for their ids) answer alike
    for ``ability``: not when it matches events (``when``), works from a
    pile, or its words read what tells copies apart — the turn's history,
    marks, what an earlier action did, a query's order (``top``, highest,
    lowest); nor, when continuous abilities change stats in the position
    (``stats_vary``), when they read a stat (a battle as a cost does): a continuous ability may
    change one copy's stat and not the other's (a ``change`` naming one
    card), and the card's record, which the copies are compared by, holds
    only its printed stats and lasting changes."""
    alike, reads_a_stat = _alike_words(ability)
    return alike and not (stats_vary and reads_a_stat)


@by_identity  # a compiled position's abilities are shared by every engine made from it
def _alike_words(ability: Ability) -> tuple[bool, bool]:
    """Whether ``ability``'s words answer alike for copies whatever the
    position, and whether they read a stat."""
    if ability.when is not None or SOURCES in ability.active_in:
        return False, False
    reads_stats = False
    todo: list[object] = [ability.condition, ability.cost, ability.targets]
    while todo:
        item = todo.pop()
        if isinstance(item, (tuple, list)):
            todo.extend(item)
            continue
        if isinstance(item, _TELLS_COPIES_APART):
            return False, False
        if isinstance(item, Query):
            if item.top is not None or item.highest or item.lowest:
                return False, False
            reads_stats = reads_stats or bool(item.stat)
        # a battle (a cost) is planned with the stats of its cards (tcgtrig_battle_result)
        reads_stats = reads_stats or isinstance(item, (StatIs, StatOf, Battle))
        fields = getattr(type(item), "__attrs_attrs__", None)
        if fields is not None:
            todo.extend(getattr(item, f.name) for f in fields)
    return True, reads_stats


class Responses(Mapping[str, PendingEffect]):
    """The responses a player may choose in a chain window, by label, in
    the order they are offered: the activated abilities found (in the
    order they are filed; a group of alike ones by its first, standing for
    its copies), then the offered pending effects.  Every copy's label is
    legal.

    An activated ability's effect is made with its instance number only
    when it is looked up (the response chosen); the other numbers it
    holds are used up all the same, as if each had been made, a number
    for each copy."""

    __slots__ = ("_root", "_depth", "_items", "_where", "_first", "_moment", "_offers", "_count", "_shown")

    def __init__(
        self,
        table: ResponderTable | None,
        first: int,
        moment: tuple[int, int, int],
        offers: dict[str, PendingEffect],
    ) -> None:
        """``table``: the activated abilities and their answers (``None``:
        none); ``first``: the first instance number; ``moment``: the
        window's timing, depth and cause, which the effect chosen is made
        with; ``offers``: the offered pending effects, taken as they are."""
        self._items: tuple[tuple[str, str, Ability], ...] = ()
        if table is None:
            self._root, self._depth, self._where = None, 0, {}
        else:
            self._root, self._depth, self._where = table.root, table.depth, table.where
            self._items = table.items
        self._first = first
        self._moment = moment
        self._offers = offers
        self._count, self._shown = _counts(self._root, self._depth)

    def __deepcopy__(self, memo: dict[int, object]) -> Responses:
        return self  # nothing in it changes once made: a copied machine may share it

    @property
    def activated(self) -> int:
        """How many activated abilities may respond, copies included (each holds an instance number)."""
        return self._count

    def _place(self, label: str) -> int | None:
        place = self._where.get(label)
        if place is None or leaf_at(self._root, self._depth, place) is None:
            return None
        return place

    def __getitem__(self, label: str) -> PendingEffect:
        offer = self._offers.get(label)
        if offer is not None:
            return offer
        place = self._place(label)
        if place is None:
            raise KeyError(label)
        leaf = leaf_at(self._root, self._depth, place)
        assert leaf is not None
        effect = leaf[0]
        number = self._first + rank(self._root, self._depth, place)
        timing, depth, cause = self._moment
        if effect.timing != timing or effect.depth != depth or effect.cause != cause:
            return change_pending(effect, id=number, timing=timing, depth=depth, cause=cause)
        return change_pending(effect, id=number)

    def __contains__(self, label: object) -> bool:
        return isinstance(label, str) and (label in self._offers or self._place(label) is not None)

    def __iter__(self) -> Iterator[str]:
        items = self._items
        for place in walk(self._root, self._depth):
            yield items[place][0]
        yield from self._offers

    def __len__(self) -> int:
        return self._shown + len(self._offers)

    def label(self, index: int) -> str:
        """The ``index``-th label (0-based, in range)."""
        if index < self._shown:
            return self._items[nth(self._root, self._depth, index)][0]
        return list(self._offers)[index - self._shown]

    def copies(self) -> dict[str, int]:
        """The labels that stand for more than one alike response, with how many."""
        items = self._items
        return {items[place][0]: leaf[1] for place, leaf in legal(self._root, self._depth, True) if leaf[1] > 1}

    def labels(self, last: str) -> ResponseLabels:
        """The decision's options: these labels, then ``last`` (pass)."""
        return ResponseLabels(self, last)


class ResponseLabels(Sequence[str]):
    """The options of a ``respond`` decision, computed lazily: ``len``,
    membership and the last option (pass, the default) cost O(log N), so a
    window with thousands of legal responses is not listed unless read."""

    __slots__ = ("_responses", "_last")

    def __init__(self, responses: Responses, last: str) -> None:
        self._responses = responses
        self._last = last

    def __deepcopy__(self, memo: dict[int, object]) -> ResponseLabels:
        return self

    def __repr__(self) -> str:
        shown = [self[i] for i in range(min(len(self), 6))]
        more = f", … ({len(self)} in all)" if len(self) > 6 else ""
        return f"ResponseLabels([{', '.join(shown)}{more}])"

    def __len__(self) -> int:
        return len(self._responses) + 1

    def copies(self) -> dict[str, int]:
        """The options that stand for more than one alike response, with how many."""
        return self._responses.copies()

    def __contains__(self, label: object) -> bool:
        return label == self._last or label in self._responses

    def __iter__(self) -> Iterator[str]:
        yield from self._responses
        yield self._last

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return list(self)[index]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("response option index out of range")
        if index == size - 1:
            return self._last
        return self._responses.label(index)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]
