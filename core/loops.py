"""Telling an endless resolution from a long one.

Two detectors watch the positions a resolution passes through, each with
Brent's cycle detection (O(1) per step, comparing against one saved
position):

- :class:`LoopGuard`: the same position came back — endless, unless a
  player was asked on the way and could choose differently; and the step
  limit, which ends whatever runs too long.
- :class:`GrowthGuard`: the same position came back *leaving out the
  counters' values* — the same effects recurring while only numbers
  change.  Whether that is endless depends on who reads those numbers
  (:func:`settled`); when it is not endless yet but nothing can change
  before the step limit (:func:`steady_cycles`), the limit's verdict is
  given at once instead of after running every step up to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from attrs import define, frozen, setters

from .model import CounterIs

__all__ = ["LoopGuard", "GrowthGuard", "Growth", "settled", "steady_cycles"]

#: a counter change in one turn of a cycle: (player, counter, before, now)
Change = tuple[str, str, int, int]


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

    def tick(self, quick: Any, full: Callable[[], Any], asked: int) -> tuple[str, bool | None] | None:
        """``None``, or why the resolution is endless and whether a player
        could stop it (``None``: not known)."""
        self.steps += 1
        if self.steps > self.limit:
            return (f"step limit reached: no end after {self.limit} steps (activations and rules passes; "
                    "max_steps or --max-steps raises it)", None)
        if quick == self.saved_quick and full() == self.saved_full:
            steps = self.lam + 1
            return (f"endless loop: the same position came back after {steps} step{'s' if steps != 1 else ''}",
                    asked > self.saved_asked)
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
    counters ``grown`` change, that began at trace length ``since``.

    ``steady`` is ``None`` when the cycle is endless (``stoppable``: a
    player was asked since it began); else the number of steps it is sure
    to go on unchanged, which is more than the step limit leaves.
    """

    grown: list[str]
    since: int
    stoppable: bool
    steady: int | None = None


@define(eq=False, on_setattr=setters.NO_OP)  # live object: no per-assignment hooks
class GrowthGuard:
    """Brent's cycle detection over positions *leaving out the counters'
    values*: the same effects recurring while only numbers grow.

    Such a cycle is endless when nothing that reads the numbers that
    change can come out differently as they go on changing the same way:
    no rule of the game reads them (``GameInfo.rule_counters``), and every
    condition of the position that does (``CounterIs`` against a fixed
    number) is settled for good — ``lp >= 0`` while ``lp`` only grows.
    Otherwise the cycle may end at some threshold: if that threshold is
    further away than the step limit, the limit is sure to come first.
    """

    power: int = 1
    lam: int = 0
    saved_quick: Any = None
    saved_full: Any = None
    saved_counters: Any = None
    saved_steps: int = 0
    saved_asked: int = 0
    #: while the budget is above this, the cycle last looked at goes on as
    #: it did (no read of its counters can change yet): nothing to look at
    quiet_until: int | None = None

    def tick(self, quick: Any, full: Callable[[], Any], counters: Callable[[], dict[str, dict[str, int]]],
             steps: int, asked: int, rules: frozenset[str] | None, reads: Sequence[CounterIs],
             one_way: frozenset[str], budget: int) -> Growth | None:
        """``None``, or the cycle found (see :class:`Growth`).

        ``budget`` is how many steps the step limit still allows.  The
        cheap tests come first: while a cycle goes on that some reader of
        its counters may yet stop, only the counters are looked at, and the
        whole position is compared only when there is a verdict to give."""
        if rules is not None and quick == self.saved_quick and (self.quiet_until is None or budget <= self.quiet_until):
            before = self.saved_counters
            empty: dict[str, int] = {}
            changes = [(player, name, before.get(player, empty).get(name, 0), value)
                       for player, values in counters().items() for name, value in values.items()
                       if before.get(player, empty).get(name) != value]
            grown = sorted({name for _, name, _, _ in changes})
            if grown and not set(grown) & rules:
                open_reads = [read for read in reads if not settled(read, changes, one_way)]
                if not open_reads:
                    if full() == self.saved_full:
                        return Growth(grown, self.saved_steps, asked > self.saved_asked)
                elif asked == self.saved_asked:  # no one chose: the cycle repeats exactly
                    cycles = steady_cycles(open_reads, changes, one_way)
                    steady = None if cycles is None else cycles * (self.lam + 1)
                    if steady is not None and steady >= budget and full() == self.saved_full:
                        return Growth(grown, self.saved_steps, False, steady)
                    if steady is not None:  # no read can change for that many steps: no verdict either
                        self.quiet_until = budget - steady
        self.lam += 1
        if self.lam >= self.power:
            self.saved_quick = quick
            self.saved_full = full()
            self.saved_counters = {player: dict(values) for player, values in counters().items()}
            self.saved_steps = steps
            self.saved_asked = asked
            self.quiet_until = None
            self.power *= 2
            self.lam = 0
        return None


def settled(read: CounterIs, changes: Sequence[Change], one_way: frozenset[str]) -> bool:
    """Whether ``read`` comes out the same however long the counters go on
    changing as they did in one turn of the cycle (from the value before to
    the value now, for every player whose counter of that name changed).
    Only a counter the position can move one way only (``one_way``: it is
    gained and never lost, or the reverse) is known between the two ends."""
    moved = [(old, new) for _, name, old, new in changes if name == read.counter]
    if not moved:
        return True
    limit = _fixed_limit(read, one_way)
    if limit is None:
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


def steady_cycles(reads: Sequence[CounterIs], changes: Sequence[Change], one_way: frozenset[str]) -> int | None:
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


def _fixed_limit(read: CounterIs, one_way: frozenset[str]) -> int | None:
    """The number ``read`` compares a one-way counter with, or ``None``."""
    if read.counter not in one_way:
        return None
    limit = read.compare.value
    if isinstance(limit, bool) or not isinstance(limit, int):
        return None  # compared with a value that may itself change: not known
    return limit
