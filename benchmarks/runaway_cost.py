"""What a step of a runaway loop costs as it runs on (issue 37 item 23):
the two attacks of ``tests/test_runaway.py`` — an effect raising its own
card's stat whenever that stat changes, one re-triggering from what
happened this turn, and a card bouncing whenever it moves while a word
reads the turn's history — at step limits of 1,000, 5,000 and 40,000
steps (``--steps`` sets others), under Digimon.  The loops themselves are
ended as endless at once (only a stat or the turn's history grows, and
nothing that reads them can stop them); each ``-read`` variant has a
reader the loop guards cannot judge, so it runs to the step limit: a
constant cost per step shows as the same µs per step at every size.

Run by hand (``python benchmarks/runaway_cost.py [--steps 1000 5000 40000]``);
only the public API is used, so a copy run with another installation's
Python measures that installation.  The tests never check a time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import tcgtrig

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_runaway import BOUNCE_LOOP, HISTORY_LOOP, STAT_LOOP, reading  # noqa: E402

LOOPS = {"stat": STAT_LOOP, "history": HISTORY_LOOP, "bounce": BOUNCE_LOOP}
LOOPS.update({f"{name}-read": reading(text) for name, text in list(LOOPS.items())})


def measure(text: str, steps: int, game: str) -> tuple[float, str]:
    """Seconds to resolve ``text`` with the step limit at ``steps``, and the outcome."""
    scenario = tcgtrig.scenario_from_text(text, "loop.yaml")
    began = time.perf_counter()
    result = tcgtrig.resolve(scenario, game, max_steps=steps)
    return time.perf_counter() - began, f"{result.outcome}: {(result.reason or '')[:40]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[1_000, 5_000, 40_000])
    parser.add_argument("--game", default="digimon")
    parser.add_argument("--only", choices=sorted(LOOPS), action="append")
    args = parser.parse_args()
    print(f"{'loop':<12} {'steps':>7} {'seconds':>8} {'µs/step':>8}  outcome")
    for name in args.only or list(LOOPS):
        for steps in args.steps:
            seconds, outcome = measure(LOOPS[name], steps, args.game)
            print(f"{name:<12} {steps:>7,} {seconds:>8.2f} {seconds / steps * 1e6:>8.1f}  {outcome}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
