"""Explore: positions visited and time, with one job and with several,
and with one order standing for effects that commute; run by hand:

    python benchmarks/explore.py            # 10 and 12 independent triggers
    python benchmarks/explore.py 10 14      # other sizes

Issue 26's targets: 14 independent triggers explored in under a second
with the same outcomes (one order for all: 13 positions), and N
independent triggers plus one pair whose order matters keeping both
outcomes.

N independent simultaneous triggers (each gains its own counter, so every
order ends alike): without sharing equal positions the explorer would face
N! orders; with it, about 2^N positions.  Up to ``SERIAL_FIRST`` positions
reached a search runs in one process; above it, unless its branches keep
meeting (they do here), it is explored option by option, the first
decision's options going to worker processes, which do not share the
positions they found ("farmed out at once" forces that).  "positions" are
the positions asked.
"""

from __future__ import annotations

import sys
import time

import tcgtrig
from tcgtrig.tools.explore import SERIAL_FIRST, available_cores, explore


def independent(count: int, pair: bool = False) -> tcgtrig.Scenario:
    """``count`` triggers each gaining its own counter; with ``pair``, two
    more whose order matters (one gains x, the other reads it)."""
    dos = [[{"gain": {"counter": f"n{i}"}}] for i in range(count)]
    if pair:
        dos.append([{"gain": {"counter": "x"}}])
        dos.append(
            [
                {
                    "if": {"counter": "x", "gte": 1},
                    "then": [{"gain": {"counter": "late"}}],
                    "else": [{"gain": {"counter": "early"}}],
                }
            ]
        )
    cards = [
        {"id": f"c{i}", "owner": "A", "zone": "battle", "abilities": [{"id": "x", "when": "ping", "do": do}]}
        for i, do in enumerate(dos)
    ]
    return tcgtrig.scenario_from_data(
        {
            "format": 1,
            "title": f"{count} independent triggers",
            "game": "digimon",
            "players": ["A", "B"],
            "turn_player": "A",
            "cards": cards,
            "start": [{"emit": {"event": "ping"}}],
        }
    )


def main() -> None:
    sizes = [int(arg) for arg in sys.argv[1:]] or [10, 12]
    cores = available_cores()
    print(f"{cores} cores; one process up to {SERIAL_FIRST:,} positions, then farmed out")
    for count in sizes:
        scene = independent(count)
        for jobs, serial_first, what in (
            (1, SERIAL_FIRST, "1 job"),
            (cores, SERIAL_FIRST, f"{cores} jobs (default)"),
            (cores, 0, f"{cores} jobs, farmed out at once"),
        ):
            began = time.perf_counter()
            found = explore(scene, "digimon", jobs=jobs, serial_first=serial_first)
            took = time.perf_counter() - began
            print(
                f"{count:>3} triggers · {what:<28} {found.states:>8,} positions  {took:7.2f} s  "
                f"{len(found.outcomes)} outcome(s)"
            )
    print("\none order for effects that commute (1 job): every order → one order")
    for count in [*sizes, 14]:
        for pair in (False, True):
            scene = independent(count, pair)
            row = []
            for reduce in (False, True):
                if not reduce and count > 12:
                    row.append("(every order: skipped above 12)")
                    continue
                began = time.perf_counter()
                found = explore(scene, "digimon", jobs=1, reduce=reduce)
                took = time.perf_counter() - began
                row.append(f"{found.states:>7,} positions {took:6.2f} s {len(found.outcomes)} outcome(s)")
            what = f"{count} independent" + (" + a pair" if pair else "")
            print(f"  {what:<24} " + "  →  ".join(row))


if __name__ == "__main__":
    main()
