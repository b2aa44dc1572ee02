"""The pending effects whose ``trigger_condition`` is re-checked while they
wait (``GameInfo.recheck_trigger_condition``), indexed by what each
condition reads.

Before each pick the machine re-checks the conditions of the effects that
may go next.  Re-checking every one of them before every pick is N² for N
effects waiting at once (issue 26).  A condition is a function of the parts
of the state it reads and of the effect's own scope, which does not change
while the effect waits: so a condition that held when it was last checked
still holds as long as nothing it reads has changed since.  :class:`Rechecks`
keeps, for each effect, what its condition reads (:func:`condition_reads`),
learns from the state what changed since its last look
(:meth:`GameState.take_counters_set
<tcgtrig.model.state.GameState.take_counters_set>`, :meth:`GameState.changes
<tcgtrig.model.state.GameState.changes>`, the turn), and hands back only the
effects to check again: new ones, and those whose reads were touched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.pending import PendingEffect
from ..model.state import GameState
from ..model.values import AllOf, AnyOf, AtTrigger, Condition, CounterIs, Did, Marked, Not, TurnOf

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

__all__ = ["Reads", "EVERYTHING", "condition_reads", "Rechecks"]


@frozen
class Reads:
    """What a condition reads, for an effect of ``controller``.

    :param counters: ``(player, counter)`` of each counter it reads.
    :param other: whether it reads anything but counters (cards, marks, the
        turn, the history).
    :param any_counter: whether it may read any counter (a stat, a count:
        continuous abilities and queries read what they like).
    """

    counters: frozenset[tuple[str, str]] = frozenset()
    other: bool = False
    any_counter: bool = False

    def __or__(self, more: Reads) -> Reads:
        return Reads(self.counters | more.counters, self.other or more.other, self.any_counter or more.any_counter)


#: what a condition whose reads are not known in advance may read
EVERYTHING = Reads(other=True, any_counter=True)
_NOTHING = Reads()


def condition_reads(condition: Condition, controller: str, state: GameState) -> Reads:
    """What ``condition`` may read when an effect of ``controller`` checks
    it, as :meth:`Evaluator.holds <tcgtrig.runtime.evaluate.Evaluator.holds>`
    reads it with no ``did`` counts.  Only the plain words are narrowed: a
    counter against a plain number, whose turn it is, a mark; anything else
    may read everything."""
    if isinstance(condition, (AllOf, AnyOf)):
        found = _NOTHING
        for part in condition.conditions:
            found = found | condition_reads(part, controller, state)
        return found
    if isinstance(condition, Not):
        return condition_reads(condition.condition, controller, state)
    if isinstance(condition, AtTrigger):
        # read as it triggered when the effect kept it, else now: its words' reads cover both
        return condition_reads(condition.condition, controller, state)
    if isinstance(condition, Did):
        return _NOTHING  # no effect's counts while it waits: always false
    if isinstance(condition, (TurnOf, Marked)):
        return Reads(other=True)
    if isinstance(condition, CounterIs) and isinstance(condition.compare.value, int):
        if condition.player == "self":
            return Reads(counters=frozenset({(controller, condition.counter)}))
        if condition.player == "opponent":
            # the players never change: the same opponent on every look
            return Reads(counters=frozenset({(state.opponent(controller), condition.counter)}))
        if condition.player != "turn_player":
            return Reads(counters=frozenset({(condition.player, condition.counter)}))
    return EVERYTHING


class Rechecks:
    """The effects whose trigger condition is re-checked while they wait,
    by what their condition reads; which of them to check again.

    An effect is *clean* when its condition held at the last
    :meth:`to_check` and nothing it reads changed since; every other is
    *dirty* (a new one is).  Only dirty effects among those that may go
    next are checked again.
    """

    def __init__(self) -> None:
        #: each effect's place (the order they came in) and reads, by id
        #: (read it, change it through :meth:`add` and :meth:`discard`)
        self.effects: dict[int, tuple[int, Reads]] = {}
        self._dirty: dict[int, None] = {}
        self._by_counter: dict[tuple[str, str], dict[int, None]] = {}
        self._by_other: dict[int, None] = {}
        self._by_any_counter: dict[int, None] = {}
        self._added = 0
        #: the state's :meth:`~tcgtrig.model.state.GameState.changes` and turn at the last look
        self._seen: tuple[int, str, int] | None = None

    def add(self, effect: PendingEffect, reads: Reads, state: GameState) -> None:
        """Re-check ``effect`` while it waits (first before it may go next)."""
        if not self.effects:
            state.keep_counters_set(True)
        self.effects[effect.id] = (self._added, reads)
        self._added += 1
        self._dirty[effect.id] = None
        for key in reads.counters:
            self._by_counter.setdefault(key, {})[effect.id] = None
        if reads.other:
            self._by_other[effect.id] = None
        if reads.any_counter:
            self._by_any_counter[effect.id] = None

    def discard(self, effect_id: int, state: GameState) -> None:
        """Stop re-checking an effect (it activates, or was lost)."""
        entry = self.effects.pop(effect_id, None)
        if entry is None:
            return
        reads = entry[1]
        self._dirty.pop(effect_id, None)
        for key in reads.counters:
            watchers = self._by_counter[key]
            del watchers[effect_id]
            if not watchers:
                del self._by_counter[key]
        if reads.other:
            del self._by_other[effect_id]
        if reads.any_counter:
            del self._by_any_counter[effect_id]
        if not self.effects:
            state.keep_counters_set(False)
            self._seen = None

    def to_check(self, bucket: dict[int, PendingEffect], state: GameState) -> list[PendingEffect]:
        """The effects of ``bucket`` (those that may go next) to check again
        now, in the order they came in; they count as clean from here on
        (the caller discards those whose condition no longer holds)."""
        self._note_changes(state)
        dirty = self._dirty
        if not dirty:
            return []
        if len(dirty) < len(bucket):
            found = [i for i in dirty if i in bucket]
        else:
            found = [i for i in bucket if i in dirty]
        for effect_id in found:
            del dirty[effect_id]
        reads = self.effects
        found.sort(key=lambda i: reads[i][0])
        return [bucket[i] for i in found]

    def _note_changes(self, state: GameState) -> None:
        """Make dirty the effects whose reads changed since the last look."""
        seen = (state.changes(), state.turn_player, state.turn)
        dirty = self._dirty
        if seen != self._seen:
            if self._seen is not None:
                dirty.update(self._by_other)
            self._seen = seen
        counters = state.take_counters_set()
        if counters:
            dirty.update(self._by_any_counter)
            by_counter = self._by_counter
            for key in counters:
                watchers = by_counter.get(key)
                if watchers:
                    dirty.update(watchers)

    def copy(self) -> Rechecks:
        """An independent copy (for :meth:`Machine.copy <tcgtrig.runtime.machine.Machine.copy>`)."""
        clone = Rechecks()
        clone.effects = dict(self.effects)
        clone._dirty = dict(self._dirty)
        clone._by_counter = {key: dict(ids) for key, ids in self._by_counter.items()}
        clone._by_other = dict(self._by_other)
        clone._by_any_counter = dict(self._by_any_counter)
        clone._added = self._added
        clone._seen = self._seen
        return clone
