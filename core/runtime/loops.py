"""Telling an endless resolution from a long one.

Two detectors watch the positions a resolution passes through, each with
Brent's cycle detection (O(1) per step, comparing against one saved
position):

- :class:`LoopGuard`: the same position came back — endless, unless a
  player was asked on the way and could choose differently; and the step
  limit, which ends whatever runs too long.
- :class:`GrowthGuard`: the same position came back *leaving out the
  numbers and how many times each pending effect waits* — the same
  effects recurring while only numbers change (counters, cards' stats,
  the turn's history, which words read only as counts), or while the
  pending effects only pile up (each activation triggers more than one).
  Whether that is endless depends on who reads those numbers
  (:func:`settled`); when it is not endless yet but nothing can change
  before the step limit (:func:`steady_cycles`), the limit's verdict is
  given at once instead of after running every step up to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from attrs import evolve, setters

from ..model.pending import Fingerprint
from ..model.values import Battle, Compare, CounterIs, Happened, HappenedCount, Pattern, Query, StatIs, StatOf

if TYPE_CHECKING:
    from attrs import define, frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import define, frozen  # attrs' own, the methods compiled ahead of time

__all__ = [
    "LoopGuard",
    "GrowthGuard",
    "Growth",
    "Facts",
    "Look",
    "Read",
    "number_reads",
    "settled",
    "steady_cycles",
    "STATS",
    "HISTORY",
    "MOVED",
]

#: a number's change in one turn of a cycle: (owner, name, before, now) — a
#: counter (the player, the counter's name), a card's stat (the card,
#: ``("stat", name)``), or a count of the turn's history (``""``,
#: ``("happened", number)``, or :data:`HISTORY` for its length)
Change = tuple[str, Any, int, int]

#: what a read of every stat names (a battle compares any two)
STATS = ("stats", "")
#: the turn's history as a whole (its length): what a read that cannot be judged names
HISTORY = ("history", "")
#: how many times a card moved (its ``incarnation``), given with its stats:
#: a card that moved carries new stat changes, not the old ones changed further
MOVED = ("moved", "")


class Read(NamedTuple):
    """A condition on a number that is not a counter, as the growth guard
    judges it (as it judges a :class:`~tcgtrig.model.values.CounterIs`):
    ``counter`` names the number as the changes name it (``("stat",
    name)``, :data:`STATS`, ``("happened", number)``, :data:`HISTORY`);
    ``compare`` is its comparison, or ``None``: read some way that cannot
    be judged (a card's stat against another's, a count used as an
    amount), settled only while the number does not move."""

    counter: Any
    compare: Compare | None


#: ``card`` words of a pattern whose meaning depends on who asks
_RELATIVE_CARDS = frozenset({"self", "source", "own", "own_other", "opponent", "other"})


def number_reads(words: Sequence[Any]) -> tuple[tuple[Read, ...], tuple[Pattern, ...]]:
    """The reads among ``words`` (model objects, in walk order) of cards'
    stats and of the turn's history, and the patterns of the ``happened``
    conditions whose counts they compare (``("happened", i)``: the i-th).

    A ``happened`` count is compared as a number only when it is the same
    for every effect that asks (its pattern names no one relative to the
    asker, and asks nothing of the event's card): then it only grows
    through the turn.  Any other is settled only when no growth can change
    it (``lt: 0``), else it reads the history as a whole (:data:`HISTORY`);
    so does a ``happened`` count used as a number anywhere."""
    reads: dict[Read, None] = {}
    patterns: dict[Pattern, int] = {}
    for item in words:
        kind = type(item)
        if kind is StatIs:
            reads[Read(("stat", item.stat), item.compare)] = None
        elif kind is Query:
            for stat, op, value in item.stat:
                reads[Read(("stat", stat), Compare(op, value))] = None
            for stat in (item.highest, item.lowest):
                if stat:
                    reads[Read(("stat", stat), None)] = None
        elif kind is StatOf:
            reads[Read(("stat", item.stat), None)] = None
        elif kind is Battle:
            reads[Read(STATS, None)] = None
        elif kind is HappenedCount:
            reads[Read(HISTORY, None)] = None
        elif kind is Happened:
            pattern = item.pattern
            if _counts_alike(pattern):
                number = patterns.setdefault(pattern, len(patterns))
                reads[Read(("happened", number), item.compare)] = None
            elif _settles_from(item.compare) != 0:
                reads[Read(HISTORY, None)] = None
    return tuple(reads), tuple(patterns)


def _counts_alike(pattern: Pattern) -> bool:
    """Whether ``pattern`` counts the same events whoever asks."""
    return (
        pattern.card_is is None
        and pattern.card not in _RELATIVE_CARDS
        and pattern.player in (None, "any")
        and pattern.actor in (None, "any")
        and pattern.against not in ("self", "source")
    )


def _settles_from(compare: Compare) -> int | None:
    """The least count from which ``compare`` comes out the same however
    the count grows (0: any count), or ``None``: compared with a value
    that may change."""
    limit = compare.value
    if isinstance(limit, bool) or not isinstance(limit, int):
        return None
    return max(limit if compare.op in ("gte", "lt") else limit + 1, 0)


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class LoopGuard:
    """Brent's cycle detection over positions, and the step limit.

    ``asked`` counts the decisions players were really asked (more than one
    option): if any was asked since the saved position, a player could have
    broken the cycle by choosing differently.
    """

    limit: int
    steps: int = 0
    power: int = 1
    lam: int = 0
    saved_quick: Any = None
    saved_full: Any = None
    saved_asked: int = 0

    def tick(
        self, quick: Any, full: Callable[[], Any], asked: int, answering: Callable[[], bool] | None = None
    ) -> tuple[str, bool | None] | None:
        """``None``, or why the resolution is endless and whether a player
        could stop it (``None``: not known).

        ``answering``: whether the player still has answers given ahead (a
        script): a position that came back with a player asked on the way
        is then no loop yet — the answers to come may break it — and the
        search goes on as if it had not come back."""
        self.steps += 1
        if self.steps > self.limit:
            return (
                f"step limit reached: no end after {self.limit} steps (activations and rules passes; "
                "max_steps or --max-steps raises it)",
                None,
            )
        if (
            quick == self.saved_quick
            and full() == self.saved_full
            and not (asked > self.saved_asked and answering is not None and answering())
        ):
            steps = self.lam + 1
            return (
                f"endless loop: the same position came back after {steps} step{'s' if steps != 1 else ''}",
                asked > self.saved_asked,
            )
        self.lam += 1
        if self.lam >= self.power:
            self.saved_quick = quick
            self.saved_full = full()
            self.saved_asked = asked
            self.power *= 2
            self.lam = 0
        return None


@frozen
class Growth:
    """What :meth:`GrowthGuard.tick` found: a cycle in which only the
    counters ``grown`` change and pending effects pile up (``piled`` more
    wait than when it began, ``waiting`` in all), that began at trace
    length ``since`` and took ``steps`` steps.

    ``steady`` is ``None`` when the cycle is endless (``stoppable``: a
    player was asked since it began); else the number of steps it is sure
    to go on unchanged, which is more than the step limit leaves.
    """

    grown: list[str]
    since: int
    stoppable: bool
    steady: int | None = None
    piled: int = 0
    waiting: int = 0
    steps: int = 0


class Facts(NamedTuple):
    """What :class:`GrowthGuard` reads of the resolution besides the
    position, when it saves a position or judges a cycle."""

    #: the step's number
    step: int
    #: the trace's length
    trace: int
    #: how many decisions players were really asked
    asked: int
    #: the counters the game's rules read (``None``: any may matter)
    rules: frozenset[str] | None
    #: the conditions in the words (and the game's rules) that read a
    #: counter, a stat or the turn's history
    reads: Sequence[CounterIs | Read]
    #: counters (and stats, and counts: see :class:`Read`) the position only
    #: ever raises, or only ever lowers
    one_way: frozenset[Any]
    #: how many steps the step limit still allows
    budget: int


class Look(Protocol):
    """The position at one step, as :class:`GrowthGuard` reads it (worked
    out only when asked for)."""

    def shape(self) -> Any:
        """The whole position, leaving out the counters' values."""

    def pile(self, shape: Any) -> Any:
        """A :meth:`shape` (this one or one seen before), leaving out the
        pending effects too (compared by :meth:`pool_has`)."""

    def pool_shape(self, shape: Any) -> Fingerprint:
        """The pending effects of a :meth:`shape`, leaving out how many of
        each kind wait (:meth:`tcgtrig.model.pending.PendingPool.shape_of`)."""

    def pool_has(self, pool_shape: Fingerprint) -> tuple[bool, int]:
        """Whether the pending effects now have ``pool_shape``, and how many
        of them were looked at to tell."""

    def counters(self) -> dict[str, dict[str, int]]:
        """Every player's counters now (live: not kept)."""

    def numbers(self) -> dict[str, dict[Any, int]]:
        """The other numbers :meth:`shape` leaves out, now, as :data:`Change`
        names them: the stats of every card that carries stat changes (and
        :data:`MOVED`), and the counts of the turn's history (a new dict)."""

    def pending(self) -> tuple[int, int, dict[int, int]]:
        """The pending effects: a hash of their multiset, their number, and
        how many of each kind wait (live: not kept)."""

    def facts(self) -> Facts:
        """The resolution's :class:`Facts` at this step."""


#: A pile-up is judged by comparing whole positions, pending effects and
#: all (up to the first difference): over a resolution, at most this many
#: pending effects looked at per step on average, plus
#: :data:`PILE_WORK_FREE`, so a pool that keeps nearly repeating can never
#: make the guard quadratic.
PILE_WORK_PER_STEP = 32
PILE_WORK_FREE = 1 << 16


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class GrowthGuard:
    """Brent's cycle detection over positions *leaving out the counters'
    values and how many times each pending effect waits*: the same effects
    recurring while only numbers grow, or while pending effects pile up.

    The quick look (``quick``) leaves out both; at a match the guard looks
    closer.  The same effects wait, as many of each: a cycle in which only
    counters change (the whole position is compared, as it is).  More of
    every kind wait than when the cycle began, and more in all: the
    effects piled up, and the positions are compared by their
    :meth:`Look.pile`.  A pile-up ends only when the pending effects
    drain, and each turn of the cycle leaves more of them: it is endless
    unless a counter it changes is read.

    The numbers are the counters, and the others :meth:`Look.numbers`
    gives: the stats of the cards that carry stat changes, and the counts
    of the turn's history the words compare (:func:`number_reads`); a read
    of them is judged as a read of a counter is (:class:`Read`).

    Such a cycle is endless when nothing that reads the numbers that
    change can come out differently as they go on changing the same way:
    no rule of the game reads them (``GameInfo.rule_counters``; with
    ``None`` any may matter, so only a pile-up with no counter changing
    counts), and every condition of the position that does (``CounterIs``
    against a fixed number) is settled for good — ``lp >= 0`` while ``lp``
    only grows.  Otherwise the cycle may end at some threshold: if that
    threshold is further away than the step limit, the limit is sure to
    come first.
    """

    power: int = 1
    lam: int = 0
    saved_quick: Any = None
    saved_full: Any = None
    #: the saved position's pending effects as :meth:`Look.pool_shape`, once needed
    saved_pool: Fingerprint | None = None
    saved_counters: Any = None
    #: the other numbers when saved (:meth:`Look.numbers`)
    saved_numbers: Any = None
    #: the pending effects when saved: multiset hash, number, count by kind
    saved_pending: tuple[int, int, dict[int, int]] = (0, 0, {})
    saved_trace: int = 0
    saved_step: int = 0
    saved_asked: int = 0
    #: while the budget is above this, the cycle last looked at goes on as
    #: it did (no read of its counters can change yet): nothing to look at
    quiet_until: int | None = None
    #: steps seen, and pending effects compared in judging pile-ups
    ticks: int = 0
    pile_work: int = 0

    def tick(self, quick: Any, look: Look, budget: int, answering: Callable[[], bool] | None = None) -> Growth | None:
        """``None``, or the cycle found (see :class:`Growth`).

        ``quick`` is the position's quick look, leaving out the counters'
        values (unless the game's rules may read any: ``Facts.rules`` is
        ``None``) and how many of each pending effect wait; ``look`` gives
        the rest when it is needed (:meth:`Look.facts`: the step's number,
        the trace's length — a guard may be shown only some steps: see
        :meth:`~tcgtrig.runtime.machine.Machine.check_loop`); ``budget`` is
        how many steps the step limit still allows, read at every step
        while a cycle is known to go on unchanged.  The cheap tests come first:
        while a cycle goes on that some reader of its counters may yet
        stop, only the counters are looked at, and the whole position is
        compared only when there is a verdict to give.  ``answering``: as
        :meth:`LoopGuard.tick` (a cycle a player could stop is none while
        answers given ahead remain)."""
        self.ticks += 1
        if quick == self.saved_quick and (self.quiet_until is None or budget <= self.quiet_until):
            found = self._examine(look, look.facts())
            if found is not None and not (found.stoppable and answering is not None and answering()):
                return found
        self.lam += 1
        if self.lam >= self.power:
            facts = look.facts()
            self.saved_quick = quick
            self.saved_full = look.shape()
            self.saved_pool = None
            self.saved_counters = {player: dict(values) for player, values in look.counters().items()}
            self.saved_numbers = look.numbers()
            multiset, waiting, kinds = look.pending()
            self.saved_pending = (multiset, waiting, dict(kinds))
            self.saved_trace = facts.trace
            self.saved_step = facts.step
            self.saved_asked = facts.asked
            self.quiet_until = None
            self.power *= 2
            self.lam = 0
        return None

    def _examine(self, look: Look, facts: Facts) -> Growth | None:
        """The quick look matched the saved position: what changed since?"""
        step, _, asked, rules, reads, one_way, budget = facts
        multiset, waiting, kinds = look.pending()
        saved_multiset, saved_waiting, saved_kinds = self.saved_pending
        if waiting == saved_waiting and multiset == saved_multiset:
            piled = 0
        elif waiting > saved_waiting and all(kinds.get(kind, 0) >= count for kind, count in saved_kinds.items()):
            piled = waiting - saved_waiting
        else:
            return None  # some kinds waited more before: the pool may be draining
        before = self.saved_counters
        empty: dict[str, int] = {}
        changes = [
            (player, name, before.get(player, empty).get(name, 0), value)
            for player, values in look.counters().items()
            for name, value in values.items()
            if before.get(player, empty).get(name) != value
        ]
        counters = {name for _, name, _, _ in changes}
        numbers = _number_changes(self.saved_numbers, look.numbers())
        if numbers is None:
            return None  # a card's stat changes started over (it moved), or are not the same ones
        changes += numbers
        grown = sorted({_shown(owner, name) for owner, name, _, _ in changes})
        if not grown and not piled:
            return None  # nothing grew: the same position, which is the LoopGuard's to judge
        if grown and (rules is None or counters & rules):
            return None  # a number the game's rules (may) read changed
        found = Growth(
            grown,
            self.saved_trace,
            asked > self.saved_asked,
            piled=piled,
            waiting=waiting,
            steps=step - self.saved_step,
        )
        open_reads = [read for read in reads if not settled(read, changes, one_way)]
        if not open_reads:
            return found if self._same(look, piled) else None
        if asked != self.saved_asked:
            return None  # someone chose: the cycle may not repeat exactly
        cycles = steady_cycles(open_reads, changes, one_way)
        steady = None if cycles is None else cycles * (step - self.saved_step)
        if steady is not None and steady >= budget and self._same(look, piled):
            return evolve(found, stoppable=False, steady=steady)
        if steady is not None:  # no read can change for that many steps: no verdict either
            self.quiet_until = budget - steady
        return None

    def _same(self, look: Look, piled: int) -> bool:
        """Whether the position is the saved one, as far as the cycle found
        may differ: by its counters, and by how many effects wait if
        ``piled``.  A pile-up's comparison is paid for from an allowance
        that grows with the steps (:data:`PILE_WORK_PER_STEP`): past it,
        the comparison is skipped (no verdict yet) until enough steps paid."""
        if not piled:
            return bool(look.shape() == self.saved_full)
        if self.pile_work > PILE_WORK_PER_STEP * self.ticks + PILE_WORK_FREE:
            return False
        if self.saved_pool is None:
            self.saved_pool = look.pool_shape(self.saved_full)
            self.pile_work += sum(map(len, self.saved_pool))
        same, looked = look.pool_has(self.saved_pool)
        self.pile_work += looked + 1
        return same and bool(look.pile(look.shape()) == look.pile(self.saved_full))


def _number_changes(before: dict[str, dict[Any, int]], now: dict[str, dict[Any, int]]) -> list[Change] | None:
    """The numbers of :meth:`Look.numbers` that changed from ``before`` to
    ``now``; ``None`` when they cannot be compared: not the same ones, or
    a card whose stats changed moved in between (its changes started over:
    they did not go one way)."""
    if before.keys() != now.keys():
        return None
    changes: list[Change] = []
    for owner, values in now.items():
        old = before[owner]
        if old == values:
            continue
        if old.keys() != values.keys():
            return None
        moved = old.get(MOVED) != values.get(MOVED)
        for name, value in values.items():
            if old[name] != value and name != MOVED:
                if moved:
                    return None
                changes.append((owner, name, old[name], value))
    return changes


def _shown(owner: str, name: Any) -> str:
    """A changed number, as a verdict names it."""
    if type(name) is str:
        return name
    if name[0] == "stat":
        return f"the {name[1]} of {owner}"
    return "the turn's history"


def _moves(read: CounterIs | Read, changes: Sequence[Change]) -> list[tuple[int, int]]:
    """How the numbers ``read`` reads changed (:data:`STATS`: every stat)."""
    want = read.counter
    if want == STATS:
        return [(old, new) for _, name, old, new in changes if type(name) is tuple and name[0] == "stat"]
    return [(old, new) for _, name, old, new in changes if name == want]


def settled(read: CounterIs | Read, changes: Sequence[Change], one_way: frozenset[Any]) -> bool:
    """Whether ``read`` comes out the same however long the counters go on
    changing as they did in one turn of the cycle (from the value before to
    the value now, for every player whose counter of that name changed).
    Only a counter the position can move one way only (``one_way``: it is
    gained and never lost, or the reverse) is known between the two ends."""
    moved = _moves(read, changes)
    if not moved:
        return True
    limit = _fixed_limit(read, one_way)
    if limit is None or read.compare is None:
        return False
    op = read.compare.op
    for old, new in moved:
        if read.compare.test(old) != read.compare.test(new):
            return False  # it came out differently within the cycle: this was no repeat
        rising = new > old
        if op in ("gte", "gt"):
            done = read.compare.test(new) if rising else not read.compare.test(new)
        elif op in ("lte", "lt"):
            done = not read.compare.test(new) if rising else read.compare.test(new)
        else:  # eq, ne: settled once the counter has moved past the number for good
            done = new > limit if rising else new < limit
        if not done:
            return False
    return True


def steady_cycles(reads: Sequence[CounterIs | Read], changes: Sequence[Change], one_way: frozenset[Any]) -> int | None:
    """How many more turns of the cycle are sure to come out as this one
    did: in each, every counter of ``changes`` moves on by the same amount,
    and no read of ``reads`` can change its answer until a counter reaches
    its number.  ``None``: not known (a counter that moves both ways, or a
    read against a value that may itself change).

    A counter moving one way passes through every value between the ends
    of a turn, so a turn is sure only while it stays short of the number:
    from ``now`` rising by ``step`` towards ``limit``, that is
    ``(limit - 1 - now) // step`` turns, whatever the comparison."""
    fewest: int | None = None
    for read in reads:
        limit = _fixed_limit(read, one_way)
        if limit is None:
            return None
        for _, name, old, new in changes:
            if name != read.counter:
                continue
            step = new - old
            if step > 0:
                cycles = (limit - 1 - new) // step if new < limit else None  # past it: never again
            else:
                cycles = (new - 1 - limit) // -step if new > limit else None
            if cycles is not None:
                fewest = max(cycles, 0) if fewest is None else min(fewest, max(cycles, 0))
    return fewest


def _fixed_limit(read: CounterIs | Read, one_way: frozenset[Any]) -> int | None:
    """The number ``read`` compares a one-way counter with, or ``None``."""
    if read.counter not in one_way or read.compare is None:
        return None
    limit = read.compare.value
    if isinstance(limit, bool) or not isinstance(limit, int):
        return None  # compared with a value that may itself change: not known
    return limit
