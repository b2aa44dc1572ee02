"""Resolved effects per second, printed; run by hand:

    python benchmarks/run.py            # the full set (about a minute)
    python benchmarks/run.py --quick    # smaller sizes

Cases:

- cascade: a long Digimon cascade.  A line of Digimon each unsuspends the
  next when it is unsuspended (a new priority layer every time), and a row
  of Tamers gains memory whenever any Digimon of theirs is unsuspended, so
  every layer is wide too.
- wide: thousands of effects triggered by one event, all in one layer:
  the pending pool and the ordering decision must not go quadratic.
- deep: a chain of 100,000 nested triggers (each derived from the one
  before, 100,000 priority layers): no recursion, constant Python stack.
- deep (core only): the same chain under a game that implements no hook
  but its info, to show what the Digimon hooks cost per step.
- cascade / wide / deep (duelmasters): the same positions in Duel Masters
  words (untap, tapped creatures, a mana counter): one waiting pool, so the
  cascade's abilities all wait together instead of in layers.
- segoc (yugioh): 10,000 triggers of one event form one chain by SEGOC,
  which then resolves last in, first out.
- responses (yugioh): a chain of 500 links built by the two players
  answering each other with quick effects (scripted), then resolved.
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import time
from typing import Any

import tcgtrig
from tcgtrig import GameInfo, hookimpl


def header(title: str) -> dict[str, Any]:
    return {"format": 1, "title": title, "game": "digimon", "players": ["A", "B"], "turn_player": "A",
            "counters": {"A": {"memory": 0}, "B": {"memory": 0}}}


def cascade(length: int, tamers: int) -> dict[str, Any]:
    cards: list[dict[str, Any]] = []
    for i in range(length):
        card: dict[str, Any] = {"id": f"d{i}", "owner": "A", "zone": "battle", "types": ["digimon"],
                                "stats": {"dp": 1000}, "flags": ["suspended"]}
        if i + 1 < length:
            card["abilities"] = [{"id": "next", "when": {"event": "unsuspended", "card": "self"},
                                  "do": [{"unsuspend": f"d{i + 1}"}]}]
        cards.append(card)
    for j in range(tamers):
        cards.append({"id": f"t{j}", "owner": "A", "zone": "battle", "types": ["tamer"], "abilities": [
            {"id": "memory", "when": {"event": "unsuspended", "card": "own"}, "do": [{"memory": 1}]}]})
    return {**header("benchmark: long cascade"), "cards": cards, "start": [{"unsuspend": "d0"}]}


def wide(width: int) -> dict[str, Any]:
    cards = [{"id": f"w{i}", "owner": "A" if i % 2 else "B", "zone": "battle", "types": ["tamer"],
              "abilities": [{"id": "memory", "when": {"event": "attacking"}, "do": [{"memory": 1}]}]}
             for i in range(width)]
    cards.append({"id": "attacker", "owner": "A", "zone": "battle", "types": ["digimon"], "stats": {"dp": 5000}})
    return {**header("benchmark: wide layer"), "cards": cards, "start": [{"attack": "attacker"}]}


def deep(depth: int) -> dict[str, Any]:
    # "depth", not memory: Digimon's memory is one gauge that stops at 10
    card = {"id": "engine", "owner": "A", "zone": "battle", "abilities": [
        {"id": "again", "when": {"event": "gained", "player": "self"},
         "condition": {"player": "self", "counter": "depth", "lt": depth},
         "do": [{"gain": {"counter": "depth"}}]}]}
    return {**header("benchmark: deep chain"), "cards": [card], "start": [{"gain": {"counter": "depth"}}]}


def dm_header(title: str) -> dict[str, Any]:
    return {**header(title), "game": "duelmasters", "counters": {"A": {"mana": 0}, "B": {"mana": 0}}}


def dm_cascade(length: int, watchers: int) -> dict[str, Any]:
    cards: list[dict[str, Any]] = []
    for i in range(length):
        card: dict[str, Any] = {"id": f"c{i}", "owner": "A", "zone": "battle", "types": ["creature"],
                                "stats": {"power": 1000}, "flags": ["tapped"]}
        if i + 1 < length:
            card["abilities"] = [{"id": "next", "when": {"event": "untapped", "card": "self"},
                                  "do": [{"untap": f"c{i + 1}"}]}]
        cards.append(card)
    for j in range(watchers):
        cards.append({"id": f"w{j}", "owner": "A", "zone": "battle", "types": ["creature"],
                      "stats": {"power": 1000}, "abilities": [
                          {"id": "mana", "when": {"event": "untapped", "card": "own"},
                           "do": [{"gain": {"counter": "mana"}}]}]})
    return {**dm_header("benchmark: long cascade (duelmasters)"), "cards": cards, "start": [{"untap": "c0"}]}


def dm_wide(width: int) -> dict[str, Any]:
    cards = [{"id": f"w{i}", "owner": "A" if i % 2 else "B", "zone": "battle", "types": ["creature"],
              "stats": {"power": 1000},
              "abilities": [{"id": "mana", "when": {"event": "attacking"}, "do": [{"gain": {"counter": "mana"}}]}]}
             for i in range(width)]
    cards.append({"id": "attacker", "owner": "A", "zone": "battle", "types": ["creature"], "stats": {"power": 5000}})
    return {**dm_header("benchmark: wide pool (duelmasters)"), "cards": cards, "start": [{"attack": "attacker"}]}


def dm_deep(depth: int) -> dict[str, Any]:
    card = {"id": "engine", "owner": "A", "zone": "battle", "abilities": [
        {"id": "again", "when": {"event": "gained", "player": "self"},
         "condition": {"player": "self", "counter": "mana", "lt": depth},
         "do": [{"gain": {"counter": "mana"}}]}]}
    return {**dm_header("benchmark: deep chain (duelmasters)"), "cards": [card],
            "start": [{"gain": {"counter": "mana"}}]}


def ygo_header(title: str) -> dict[str, Any]:
    return {**header(title), "game": "yugioh", "counters": {"A": {"lp": 8000}, "B": {"lp": 8000}}}


def ygo_segoc(width: int) -> dict[str, Any]:
    cards = [{"id": f"m{i}", "owner": "A" if i % 2 else "B", "zone": "field", "types": ["monster"],
              "abilities": [{"id": "gain", "when": {"event": "normal_summoned"}, "optional": bool(i % 3 == 0),
                             "wording": "if", "do": [{"lp": 1}]}]}
             for i in range(width)]
    cards.append({"id": "summoned", "owner": "A", "zone": "hand", "types": ["monster"]})
    return {**ygo_header("benchmark: SEGOC (yugioh)"), "cards": cards, "start": [{"normal_summon": "summoned"}]}


def ygo_responses(links: int) -> tuple[dict[str, Any], list[str]]:
    cards: list[dict[str, Any]] = [{"id": "starter", "owner": "A", "zone": "field", "abilities": [
        {"id": "main", "kind": "activated", "do": [{"lp": 1}]}]}]
    choices = []
    for i in range(links):
        owner = "B" if i % 2 == 0 else "A"
        cards.append({"id": f"q{i}", "owner": owner, "zone": "field", "abilities": [
            {"id": "quick", "kind": "activated", "speed": 2, "do": [{"lp": 1}]}]})
        choices.append(f"q{i}.quick")
    return {**ygo_header("benchmark: long chain of responses (yugioh)"), "cards": cards,
            "start": [{"activate": "starter.main"}]}, choices


class CoreOnly:
    @hookimpl
    def tcgtrig_game_info(self) -> GameInfo:
        return GameInfo(name="core-only", title="core defaults only", version="0")


def measure(name: str, data: dict[str, Any], ruleset: tcgtrig.Ruleset, choices: list[str] | None = None) -> None:
    scenario = tcgtrig.scenario_from_data(data, name)
    gc.collect()
    start = time.perf_counter()
    result = tcgtrig.resolve(scenario, ruleset, max_steps=10_000_000, choices=choices)
    seconds = time.perf_counter() - start
    resolved = len(result.keys("resolved"))
    layers = max((s.get("priority", 0) or 0 for s in result.trace), default=0)
    print(f"{name:<22} {resolved:>9,} effects  {seconds:>7.2f} s  {resolved / seconds:>9,.0f} effects/s"
          f"  {len(result.trace):>9,} trace steps  layers {layers:>7,}  outcome {result.outcome}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    digimon = tcgtrig.load_ruleset("digimon")
    core_only = tcgtrig.load_ruleset("core-only", plugins=(CoreOnly(),), autoload=False)
    print(f"tcgtrig {tcgtrig.__version__}, Python {sys.version.split()[0]}")
    measure("cascade (digimon)", cascade(1000 // scale, 50 // (scale if scale > 1 else 1)), digimon)
    measure("wide (digimon)", wide(10_000 // scale), digimon)
    measure("deep (digimon)", deep(100_000 // scale), digimon)
    measure("deep (core only)", deep(100_000 // scale), core_only)
    duelmasters = tcgtrig.load_ruleset("duelmasters")
    measure("cascade (duelmasters)", dm_cascade(1000 // scale, 50 // (scale if scale > 1 else 1)), duelmasters)
    measure("wide (duelmasters)", dm_wide(10_000 // scale), duelmasters)
    measure("deep (duelmasters)", dm_deep(100_000 // scale), duelmasters)
    yugioh = tcgtrig.load_ruleset("yugioh")
    measure("segoc (yugioh)", ygo_segoc(10_000 // scale), yugioh)
    data, choices = ygo_responses(500 // scale)
    measure("responses (yugioh)", data, yugioh, choices)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
