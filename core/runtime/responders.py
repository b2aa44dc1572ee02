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
- after a per-turn use, the abilities with a per-turn limit; after any
  change, those whose words read more than their card (a condition, a
  cost, targets);
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

from collections.abc import Iterator, Mapping, Sequence
from operator import add
from typing import Any, overload

from attrs import evolve

from ..model.pending import PendingEffect
from ..model.state import Changes, GameState
from ..model.values import SOURCES, Ability

__all__ = ["ResponderTable", "Responses", "ResponseLabels", "tree_of"]

#: a tree node: ``(count, left, right)`` above the leaves, or a leaf:
#: the effect checked (a legal response) or ``None``
Node = Any


def _count(node: Node, level: int) -> int:
    if level:
        return int(node[0])
    return 0 if node is None else 1


def tree_of(leaves: Sequence[PendingEffect | None]) -> tuple[Node, int]:
    """The counted tree over ``leaves`` and its depth (levels above the leaves)."""
    depth = max(len(leaves) - 1, 0).bit_length()
    level: list[Node] = list(leaves) + [None] * ((1 << depth) - len(leaves))
    counts = [0 if leaf is None else 1 for leaf in level]
    while len(level) > 1:
        counts = list(map(add, counts[::2], counts[1::2]))
        level = list(zip(counts, level[::2], level[1::2], strict=True))
    return level[0], depth


def put(root: Node, depth: int, place: int, leaf: PendingEffect | None) -> Node:
    """``root`` with the leaf at ``place`` replaced (the nodes on its path are new)."""
    path: list[tuple[Node, int]] = []
    node = root
    for level in range(depth, 0, -1):
        side = (place >> (level - 1)) & 1
        path.append((node, side))
        node = node[1 + side]
    if node is leaf:
        return root
    new: Node = leaf
    for level in range(1, depth + 1):
        parent, side = path.pop()
        left, right = (parent[1], new) if side else (new, parent[2])
        new = (_count(left, level - 1) + _count(right, level - 1), left, right)
    return new


def leaf_at(root: Node, depth: int, place: int) -> PendingEffect | None:
    node = root
    for level in range(depth, 0, -1):
        node = node[1 + ((place >> (level - 1)) & 1)]
    return node  # type: ignore[no-any-return]


def rank(root: Node, depth: int, place: int) -> int:
    """How many legal responses come before ``place``."""
    before = 0
    node = root
    for level in range(depth, 0, -1):
        if (place >> (level - 1)) & 1:
            before += _count(node[1], level - 1)
            node = node[2]
        else:
            node = node[1]
    return before


def nth(root: Node, depth: int, index: int) -> int:
    """The place of the ``index``-th legal response (0-based; it exists)."""
    node = root
    place = 0
    for level in range(depth, 0, -1):
        left = node[1]
        here = _count(left, level - 1)
        if index < here:
            node, place = left, place << 1
        else:
            index -= here
            node, place = node[2], (place << 1) | 1
    return place


def legal(root: Node, depth: int) -> Iterator[tuple[int, PendingEffect]]:
    """The legal responses' places and effects, in order."""
    todo: list[tuple[Node, int, int]] = [(root, depth, 0)]
    while todo:
        node, level, place = todo.pop()
        if not _count(node, level):
            continue
        if not level:
            yield place, node
            continue
        todo.append((node[2], level - 1, (place << 1) | 1))
        todo.append((node[1], level - 1, place << 1))


def walk(root: Node, depth: int) -> Iterator[int]:
    """The places of the legal responses, in order."""
    return (place for place, _ in legal(root, depth))


def leaves_of(root: Node, depth: int, size: int) -> list[PendingEffect | None]:
    """The first ``size`` leaves of the tree, in order."""
    leaves: list[PendingEffect | None] = [None] * size
    for place, effect in legal(root, depth):
        leaves[place] = effect
    return leaves


class ResponderTable:
    """One player's activated abilities of one lowest speed, and the
    answers last found for them (a leaf per ability: the effect checked, if
    it may respond), with what those answers were found under."""

    __slots__ = (
        "items",
        "where",
        "volatile",
        "broad",
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
    )

    def __init__(self, items: tuple[tuple[str, str, Ability], ...], state: GameState, changes: Changes) -> None:
        """``changes``: what ``state`` tells the table changed (:meth:`GameState.watch`)."""
        self.items = items
        #: each ability's place, by key (keys are unique: card id and ability id)
        self.where: dict[str, int] = {key: place for place, (key, _, _) in enumerate(items)}
        #: the abilities with a ``when``: they match each window's events, so are asked each time
        self.volatile = tuple(place for place, item in enumerate(items) if item[2].when is not None)
        #: the abilities whose own words read the state beyond their card (a
        #: condition, a cost, targets; working from under another card):
        #: asked again after any change of the state
        self.broad = tuple(place for place, (_, _, ability) in enumerate(items) if _reads_beyond_its_card(ability))
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


def _reads_beyond_its_card(ability: Ability) -> bool:
    return bool(ability.condition is not None or ability.cost or ability.targets or SOURCES in ability.active_in)


class Responses(Mapping[str, PendingEffect]):
    """The responses a player may choose in a chain window, by label, in
    the order they are offered: the activated abilities found (in the
    order they are filed), then the offered pending effects.

    An activated ability's effect is made with its instance number only
    when it is looked up (the response chosen); the other numbers it
    holds are used up all the same, as if each had been made."""

    __slots__ = ("_root", "_depth", "_items", "_where", "_first", "_moment", "_offers", "_count")

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
        self._count = _count(self._root, self._depth)

    def __deepcopy__(self, memo: dict[int, object]) -> Responses:
        return self  # nothing in it changes once made: a copied machine may share it

    @property
    def activated(self) -> int:
        """How many activated abilities may respond (each holds an instance number)."""
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
        effect = leaf_at(self._root, self._depth, place)
        assert effect is not None
        number = self._first + rank(self._root, self._depth, place)
        timing, depth, cause = self._moment
        if effect.timing != timing or effect.depth != depth or effect.cause != cause:
            return evolve(effect, id=number, timing=timing, depth=depth, cause=cause)
        return evolve(effect, id=number)

    def __contains__(self, label: object) -> bool:
        return isinstance(label, str) and (label in self._offers or self._place(label) is not None)

    def __iter__(self) -> Iterator[str]:
        items = self._items
        for place in walk(self._root, self._depth):
            yield items[place][0]
        yield from self._offers

    def __len__(self) -> int:
        return self._count + len(self._offers)

    def label(self, index: int) -> str:
        """The ``index``-th label (0-based, in range)."""
        if index < self._count:
            return self._items[nth(self._root, self._depth, index)][0]
        return list(self._offers)[index - self._count]

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
