"""The figures of issue 10 (speed), each with its target and a pass/miss mark;
run by hand (tests never assert a time):

    python benchmarks/run.py                 # every figure, full sizes
    python benchmarks/run.py --quick         # smaller sizes (under a minute)
    python benchmarks/run.py --only effects  # one section (repeatable)
    python benchmarks/run.py --no-depth      # the full run without the 1M-deep child
    python benchmarks/run.py --json out.json # also write the figures as JSON

Sections (``--only`` names):

- baseline: the floor every per-effect figure is divided by — a bare loop
  that pushes ``(rank, seq, fn)`` on a heap, pops it and calls ``fn``
  (median of 5 runs of 100,000 items, in this process; the effects
  section adds two runs before each case and divides by the median of all).
- effects: µs per resolved effect, timing ``Engine.advance`` alone (the
  engine is built first), for every bundled game on a long cascade, a
  100,000-deep chain and a 20,000-deep cascade through 20,000 distinct
  cards and events; target ≤ 20× the baseline (aim 10×).  The older cases
  (wide layers, the core-only chain, SEGOC, a chain of responses) follow,
  for information.
- load: loading (``load_scenario(check_game=False)``) and compiling
  (``Scenario.compile``) a 20,000-card JSON file, one ability per card
  (≤ 50 µs per card each); the same file as YAML (within 3× of JSON).
- scaling: per effect with 100,000 effects pending at once against 10
  pending, per event with 100,000 listening abilities (one matches)
  against 10 (each within 2×); cards/s loading plain cards and one pile.
- conditions: N effects with a ``trigger_condition`` pending at once under
  a game that re-checks them before each pick (Digimon), at four sizes:
  seconds and condition evaluations, which must grow linearly (issue 26).
- depth: a 1,000,000-deep cascade of nested triggers in a child process
  (and 100,000 to show linearity): time, peak memory, bytes per level.
- runaway: the non-repeating ping-pong under every game (< 5 s, its
  outcome), and ``tests/hostile/loop-counter-*.yaml`` under every game
  through ``tcgtrig run --json`` (seconds, exit status, outcome, memory).
- startup: wall time of ``tcgtrig games`` (≤ 100 ms) and ``tcgtrig run`` on a
  small file (≤ 150 ms, issue 40 item 3), medians of 15 rounds with the bytecode
  cached, each round also timing ``python -c pass`` (the floor), and the imports
  that dominate ``import tcgtrig.tools.cli``.
- explore: ten independent simultaneous triggers: positions and time.

The cases:

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
- cascade (yugioh): monsters each turning the next face-up (the flag
  ``face_down`` cleared) when they are, and watchers gaining 1 LP whenever
  one of their cards is: every step is a chain of 1 + watchers links.
- deep (yugioh): an effect that gains 1 LP when LP are gained, 100,000
  times.  Yu-Gi-Oh! cannot make one 100,000-link chain of triggers: what
  triggers while a chain resolves waits for the chain to end and starts
  the next one, so this is 100,000 one-link chains, each triggered by the
  last (the same depth of derivation as the other games' chains).  The
  long single chain is the responses case (quick effects answering each
  other), kept at 500 links.
- distinct: 20,000 cards, card *i* triggering on the event *e_i* and
  emitting *e_{i+1}* (every game).
- segoc (yugioh): 10,000 triggers of one event form one chain by SEGOC,
  which then resolves last in, first out.
- responses (yugioh): a chain of 500 links built by the two players
  answering each other with quick effects (scripted), then resolved.

Only the public API is used, so a copy of this folder run with another
installation's Python measures that installation (the "before" column of
benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import gc
import heapq
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import tcgtrig
import yaml
from tcgtrig import GameInfo, hookimpl

GAMES = ("digimon", "duelmasters", "yugioh")
SECTIONS = ("baseline", "effects", "load", "scaling", "conditions", "depth", "runaway", "startup", "explore")
#: Per effect, as a multiple of the bare heap loop: the target, and the aim.
RATIO_TARGET, RATIO_AIM = 20.0, 10.0
#: Enough steps for the largest case: the step limit is not what is measured.
NO_LIMIT = 100_000_000


# ---------------------------------------------------------------------------
# The positions
# ---------------------------------------------------------------------------

ZONE = {"digimon": "battle", "duelmasters": "battle", "yugioh": "field"}
COUNTERS = {"digimon": {"memory": 0}, "duelmasters": {"mana": 0}, "yugioh": {"lp": 8000}}


def game_header(title: str, game: str = "digimon") -> dict[str, Any]:
    return {
        "format": 1,
        "title": title,
        "game": game,
        "players": ["A", "B"],
        "turn_player": "A",
        "counters": {"A": dict(COUNTERS[game]), "B": dict(COUNTERS[game])},
    }


def header(title: str) -> dict[str, Any]:
    return game_header(title, "digimon")


def cascade(length: int, tamers: int) -> dict[str, Any]:
    cards: list[dict[str, Any]] = []
    for i in range(length):
        card: dict[str, Any] = {
            "id": f"d{i}",
            "owner": "A",
            "zone": "battle",
            "types": ["digimon"],
            "stats": {"dp": 1000},
            "flags": ["suspended"],
        }
        if i + 1 < length:
            card["abilities"] = [
                {"id": "next", "when": {"event": "unsuspended", "card": "self"}, "do": [{"unsuspend": f"d{i + 1}"}]}
            ]
        cards.append(card)
    for j in range(tamers):
        cards.append(
            {
                "id": f"t{j}",
                "owner": "A",
                "zone": "battle",
                "types": ["tamer"],
                "abilities": [{"id": "memory", "when": {"event": "unsuspended", "card": "own"}, "do": [{"memory": 1}]}],
            }
        )
    return {**header("benchmark: long cascade"), "cards": cards, "start": [{"unsuspend": "d0"}]}


def wide(width: int) -> dict[str, Any]:
    cards = [
        {
            "id": f"w{i}",
            "owner": "A" if i % 2 else "B",
            "zone": "battle",
            "types": ["tamer"],
            "abilities": [{"id": "memory", "when": {"event": "attacking"}, "do": [{"memory": 1}]}],
        }
        for i in range(width)
    ]
    cards.append({"id": "attacker", "owner": "A", "zone": "battle", "types": ["digimon"], "stats": {"dp": 5000}})
    return {**header("benchmark: wide layer"), "cards": cards, "start": [{"attack": "attacker"}]}


def deep(depth: int) -> dict[str, Any]:
    # "depth", not memory: Digimon's memory is one gauge that stops at 10
    card = {
        "id": "engine",
        "owner": "A",
        "zone": "battle",
        "abilities": [
            {
                "id": "again",
                "when": {"event": "gained", "player": "self"},
                "condition": {"player": "self", "counter": "depth", "lt": depth},
                "do": [{"gain": {"counter": "depth"}}],
            }
        ],
    }
    return {**header("benchmark: deep chain"), "cards": [card], "start": [{"gain": {"counter": "depth"}}]}


def dm_header(title: str) -> dict[str, Any]:
    return game_header(title, "duelmasters")


def dm_cascade(length: int, watchers: int) -> dict[str, Any]:
    cards: list[dict[str, Any]] = []
    for i in range(length):
        card: dict[str, Any] = {
            "id": f"c{i}",
            "owner": "A",
            "zone": "battle",
            "types": ["creature"],
            "stats": {"power": 1000},
            "flags": ["tapped"],
        }
        if i + 1 < length:
            card["abilities"] = [
                {"id": "next", "when": {"event": "untapped", "card": "self"}, "do": [{"untap": f"c{i + 1}"}]}
            ]
        cards.append(card)
    for j in range(watchers):
        cards.append(
            {
                "id": f"w{j}",
                "owner": "A",
                "zone": "battle",
                "types": ["creature"],
                "stats": {"power": 1000},
                "abilities": [
                    {"id": "mana", "when": {"event": "untapped", "card": "own"}, "do": [{"gain": {"counter": "mana"}}]}
                ],
            }
        )
    return {**dm_header("benchmark: long cascade (duelmasters)"), "cards": cards, "start": [{"untap": "c0"}]}


def dm_wide(width: int) -> dict[str, Any]:
    cards = [
        {
            "id": f"w{i}",
            "owner": "A" if i % 2 else "B",
            "zone": "battle",
            "types": ["creature"],
            "stats": {"power": 1000},
            "abilities": [{"id": "mana", "when": {"event": "attacking"}, "do": [{"gain": {"counter": "mana"}}]}],
        }
        for i in range(width)
    ]
    cards.append({"id": "attacker", "owner": "A", "zone": "battle", "types": ["creature"], "stats": {"power": 5000}})
    return {**dm_header("benchmark: wide pool (duelmasters)"), "cards": cards, "start": [{"attack": "attacker"}]}


def dm_deep(depth: int) -> dict[str, Any]:
    card = {
        "id": "engine",
        "owner": "A",
        "zone": "battle",
        "abilities": [
            {
                "id": "again",
                "when": {"event": "gained", "player": "self"},
                "condition": {"player": "self", "counter": "mana", "lt": depth},
                "do": [{"gain": {"counter": "mana"}}],
            }
        ],
    }
    return {
        **dm_header("benchmark: deep chain (duelmasters)"),
        "cards": [card],
        "start": [{"gain": {"counter": "mana"}}],
    }


def ygo_header(title: str) -> dict[str, Any]:
    return game_header(title, "yugioh")


def ygo_cascade(length: int, watchers: int) -> dict[str, Any]:
    cards: list[dict[str, Any]] = []
    for i in range(length):
        card: dict[str, Any] = {
            "id": f"y{i}",
            "owner": "A",
            "zone": "field",
            "types": ["monster"],
            "flags": ["face_down"],
        }
        if i + 1 < length:
            card["abilities"] = [
                {
                    "id": "next",
                    "when": {"event": "flag_cleared", "card": "self", "flag": "face_down"},
                    "do": [{"flag": {"card": f"y{i + 1}", "clear": "face_down"}}],
                }
            ]
        cards.append(card)
    for j in range(watchers):
        cards.append(
            {
                "id": f"w{j}",
                "owner": "A",
                "zone": "field",
                "types": ["monster"],
                "abilities": [
                    {
                        "id": "gain",
                        "when": {"event": "flag_cleared", "card": "own", "flag": "face_down"},
                        "do": [{"lp": 1}],
                    }
                ],
            }
        )
    return {
        **ygo_header("benchmark: long cascade (yugioh)"),
        "cards": cards,
        "start": [{"flag": {"card": "y0", "clear": "face_down"}}],
    }


def ygo_deep(depth: int) -> dict[str, Any]:
    start_lp = COUNTERS["yugioh"]["lp"]
    card = {
        "id": "engine",
        "owner": "A",
        "zone": "field",
        "types": ["monster"],
        "abilities": [
            {
                "id": "again",
                "when": {"event": "gained", "player": "self"},
                "condition": {"player": "self", "counter": "lp", "lt": start_lp + depth},
                "do": [{"lp": 1}],
            }
        ],
    }
    return {**ygo_header("benchmark: deep chain (yugioh)"), "cards": [card], "start": [{"lp": 1}]}


def ygo_segoc(width: int) -> dict[str, Any]:
    cards = [
        {
            "id": f"m{i}",
            "owner": "A" if i % 2 else "B",
            "zone": "field",
            "types": ["monster"],
            "abilities": [
                {
                    "id": "gain",
                    "when": {"event": "normal_summoned"},
                    "optional": bool(i % 3 == 0),
                    "wording": "if",
                    "do": [{"lp": 1}],
                }
            ],
        }
        for i in range(width)
    ]
    cards.append({"id": "summoned", "owner": "A", "zone": "hand", "types": ["monster"]})
    return {**ygo_header("benchmark: SEGOC (yugioh)"), "cards": cards, "start": [{"normal_summon": "summoned"}]}


def ygo_responses(links: int, per_turn: bool = False) -> tuple[dict[str, Any], list[str]]:
    """A starter of A's and ``links`` quick effects, B's and A's in turn,
    each chosen as its player's response; ``per_turn``: each says "you can
    only use this effect of a card of this name once per turn" (a hard
    once per turn: every activation spends a use)."""
    cards: list[dict[str, Any]] = [
        {
            "id": "starter",
            "owner": "A",
            "zone": "field",
            "abilities": [{"id": "main", "kind": "activated", "do": [{"lp": 1}]}],
        }
    ]
    choices = []
    for i in range(links):
        owner = "B" if i % 2 == 0 else "A"
        cards.append(
            {
                "id": f"q{i}",
                "owner": owner,
                "zone": "field",
                "abilities": [{"id": "quick", "kind": "activated", "speed": 2, "do": [{"lp": 1}]}],
            }
        )
        if per_turn:
            cards[-1]["abilities"][0].update(once_per_turn=True, tags=["hard_once_per_turn"])
        choices.append(f"q{i}.quick")
    return {
        **ygo_header("benchmark: long chain of responses (yugioh)"),
        "cards": cards,
        "start": [{"activate": "starter.main"}],
    }, choices


def distinct(count: int, game: str = "digimon") -> dict[str, Any]:
    """Card i triggers on the event e_i and emits e_{i+1}: one ability per
    card, every event a new name."""
    cards = [
        {
            "id": f"c{i}",
            "owner": "A",
            "zone": ZONE[game],
            "abilities": [
                {
                    "id": "next",
                    "when": {"event": f"e{i}"},
                    "do": [{"emit": {"event": f"e{i + 1}"}} if i + 1 < count else {"gain": {"counter": "done"}}],
                }
            ],
        }
        for i in range(count)
    ]
    return {
        **game_header(f"benchmark: cascade through {count:,} distinct cards", game),
        "cards": cards,
        "start": [{"emit": {"event": "e0"}}],
    }


def pending(width: int, rounds: int) -> dict[str, Any]:
    """``width`` effects pending at once, ``rounds`` times: each start action
    triggers every watcher, and all of them resolve before the next."""
    cards = [
        {
            "id": f"w{i}",
            "owner": "A" if i % 2 else "B",
            "zone": "battle",
            "types": ["tamer"],
            "abilities": [{"id": "gain", "when": {"event": "ping"}, "do": [{"gain": {"counter": "n"}}]}],
        }
        for i in range(width)
    ]
    start: list[dict[str, Any]] = []
    for _ in range(rounds):
        start += [{"emit": {"event": "ping"}}, {"resolve_pending": {}}]
    return {**header(f"benchmark: {width:,} pending at once, {rounds:,} times"), "cards": cards, "start": start[:-1]}


def listeners(count: int, events: int) -> dict[str, Any]:
    """One card pinging itself ``events`` times while ``count`` abilities
    listen for a ping on another card (each a specific id): one match per
    event among ``count + 1`` abilities filed under that event."""
    cards: list[dict[str, Any]] = [
        {
            "id": f"l{i}",
            "owner": "A",
            "zone": "battle",
            "types": ["tamer"],
            "abilities": [
                {
                    "id": "watch",
                    "when": {"event": "ping", "card": f"l{(i + 1) % count}"},
                    "do": [{"gain": {"counter": "n"}}],
                }
            ],
        }
        for i in range(count)
    ]
    cards.append(
        {
            "id": "p",
            "owner": "A",
            "zone": "battle",
            "types": ["digimon"],
            "abilities": [
                {
                    "id": "again",
                    "when": {"event": "ping", "card": "p"},
                    "condition": {"player": "self", "counter": "k", "lt": events},
                    "do": [{"gain": {"counter": "k"}}, {"emit": {"event": "ping", "card": "p"}}],
                }
            ],
        }
    )
    return {
        **header(f"benchmark: {count:,} listeners, one matching"),
        "cards": cards,
        "start": [{"emit": {"event": "ping", "card": "p"}}],
    }


def conditioned(count: int) -> dict[str, Any]:
    """``count`` effects triggered by one event, each with a
    ``trigger_condition`` on a counter nothing changes: Digimon re-checks
    it before every pick (``GameInfo.recheck_trigger_condition``)."""
    cards = [
        {
            "id": f"k{i}",
            "owner": "A",
            "zone": "battle",
            "types": ["tamer"],
            "abilities": [
                {
                    "id": "gain",
                    "when": {"event": "ping"},
                    "trigger_condition": {"player": "self", "counter": "ready", "gte": 1},
                    "do": [{"gain": {"counter": "n"}}],
                }
            ],
        }
        for i in range(count)
    ]
    data = {**header(f"benchmark: {count:,} conditioned effects pending at once"), "cards": cards}
    data["counters"]["A"]["ready"] = 1
    return {**data, "start": [{"emit": {"event": "ping"}}]}


def plain(count: int) -> dict[str, Any]:
    cards = [{"id": f"p{i}", "owner": "A" if i % 2 else "B", "zone": "battle"} for i in range(count)]
    return {**header(f"benchmark: {count:,} plain cards"), "cards": cards, "start": []}


def pile(count: int) -> dict[str, Any]:
    """One pile: each card stacked under the one before."""
    cards: list[dict[str, Any]] = [{"id": "s0", "owner": "A", "zone": "battle"}]
    cards += [{"id": f"s{i}", "owner": "A", "zone": "sources", "under": f"s{i - 1}"} for i in range(1, count)]
    return {**header(f"benchmark: a pile of {count:,} cards"), "cards": cards, "start": []}


#: The loop of tests/test_runaway.py (PING_PONG): two cards triggering each
#: other forever while two counters grow, nothing reading them.
PING_PONG = """\
format: 1
title: a loop that never repeats a position
players: [A, B]
turn_player: A
cards:
  - id: a
    owner: A
    zone: battle
    abilities: [{id: go, when: {event: ping_a}, do: [{gain: {counter: n}}, {emit: {event: ping_b}}]}]
  - id: b
    owner: A
    zone: battle
    abilities: [{id: go, when: {event: ping_b}, do: [{gain: {counter: m}}, {emit: {event: ping_a}}]}]
start: [{emit: {event: ping_a}}]
"""


class CoreOnly:
    @hookimpl
    def tcgtrig_game_info(self) -> GameInfo:
        return GameInfo(name="core_only", title="core defaults only", version="0")


# ---------------------------------------------------------------------------
# Figures: each printed as it is measured, and again in the summary
# ---------------------------------------------------------------------------

FIGURES: list[dict[str, Any]] = []
MARK = {True: "pass", False: "MISS", None: "info"}


def figure(section: str, name: str, value: str, target: str = "—", ok: bool | None = None, **raw: Any) -> None:
    FIGURES.append({"section": section, "figure": name, "value": value, "target": target, "mark": MARK[ok], **raw})
    print(f"  {name:<52} {value:>24}   target {target:<22} {MARK[ok]}", flush=True)


def title(text: str) -> None:
    print(f"\n== {text}", flush=True)


def median_time(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def ratio_mark(ratio: float) -> tuple[str, bool]:
    return f"≤ {RATIO_TARGET:.0f}× (aim {RATIO_AIM:.0f}×)", ratio <= RATIO_TARGET


# ---------------------------------------------------------------------------
# 1. The floor
# ---------------------------------------------------------------------------


def heap_loop(count: int) -> float:
    """Seconds to push ``count`` items ``(rank, seq, fn)`` on a heap, pop
    them all and call each ``fn``."""
    draw = random.Random(0)
    ranks = [draw.randrange(10) for _ in range(count)]

    def fn() -> None:
        pass

    gc.collect()
    began = time.perf_counter()
    heap: list[tuple[int, int, Callable[[], None]]] = []
    for seq, rank in enumerate(ranks):
        heapq.heappush(heap, (rank, seq, fn))
    while heap:
        heapq.heappop(heap)[2]()
    return time.perf_counter() - began


class Bench:
    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self.scale = 10 if quick else 1
        self.floor: float | None = None  # µs per item of the bare heap loop
        self.floor_runs: list[float] = []  # the runs it is the median of
        self.rulesets: dict[str, tcgtrig.Ruleset] = {}
        self.tmp = Path(tempfile.mkdtemp(prefix="tcgtrig-bench-"))
        # child processes keep compiled bytecode, as an installation does
        # (in a folder of ours, not beside the sources)
        CHILD_ENV.pop("PYTHONDONTWRITEBYTECODE", None)
        CHILD_ENV["PYTHONPYCACHEPREFIX"] = str(self.tmp / "pycache")

    def ruleset(self, game: str) -> tcgtrig.Ruleset:
        if game not in self.rulesets:
            if game == "core_only":
                self.rulesets[game] = tcgtrig.load_ruleset("core_only", plugins=(CoreOnly(),), autoload=False)
            else:
                self.rulesets[game] = tcgtrig.load_ruleset(game)
        return self.rulesets[game]

    def baseline(self) -> float:
        if self.floor is None:
            title("1. baseline: a bare heap loop (push (rank, seq, fn), pop, call), median of 5 × 100,000 items")
            runs = [heap_loop(100_000) / 100_000 * 1e6 for _ in range(5)]
            self.floor = statistics.median(runs)
            self.floor_runs = runs
            figure(
                "baseline",
                "bare heap loop (µs/item)",
                f"{self.floor:.2f} µs",
                runs=", ".join(f"{r:.2f}" for r in runs),
                value_raw=self.floor,
            )
            print(f"  {'':<52} the five runs: {', '.join(f'{r:.2f}' for r in runs)} µs")
        return self.floor

    # -- driving an engine ----------------------------------------------------

    def engine(self, data: dict[str, Any], game: str, max_steps: int = NO_LIMIT) -> tcgtrig.Engine:
        scenario = tcgtrig.scenario_from_data(data, data["title"], check_game=False)
        return tcgtrig.Engine.for_scenario(scenario, self.ruleset(game), max_steps=max_steps)

    @staticmethod
    def drive(engine: tcgtrig.Engine, chooser: Any = None) -> float:
        """Seconds spent in ``advance``/``answer`` until the end."""
        chooser = chooser or tcgtrig.DefaultChooser()
        gc.collect()
        began = time.perf_counter()
        while (decision := engine.advance()) is not None:
            engine.answer(chooser.choose(decision, engine))
        return time.perf_counter() - began

    def per_effect(
        self, data: dict[str, Any], game: str, choices: Sequence[str] | None = None
    ) -> tuple[float, int, str, int]:
        """µs per resolved effect, effects, outcome, trace steps."""
        engine = self.engine(data, game)
        chooser = tcgtrig.ScriptedChooser(list(choices)) if choices else None
        seconds = self.drive(engine, chooser)
        result = engine.result()
        effects = len(result.keys("resolved"))
        steps = len(engine.trace)
        outcome = result.outcome
        del engine, result
        gc.collect()
        return seconds / max(effects, 1) * 1e6, effects, outcome, steps

    # -- 2. per effect ------------------------------------------------------------

    def effects(self) -> None:
        self.baseline()
        s = self.scale
        title("2. per effect, Engine.advance alone (ratio to the heap loop's median over the section)")
        cases: list[tuple[str, Callable[[], dict[str, Any]], str, bool]] = [
            ("digimon: long cascade", lambda: cascade(1000 // s, 50 // s), "digimon", True),
            (f"digimon: {100_000 // s:,}-deep chain", lambda: deep(100_000 // s), "digimon", True),
            (f"digimon: {20_000 // s:,} distinct cards", lambda: distinct(20_000 // s, "digimon"), "digimon", True),
            ("duelmasters: long cascade", lambda: dm_cascade(1000 // s, 50 // s), "duelmasters", True),
            (f"duelmasters: {100_000 // s:,}-deep chain", lambda: dm_deep(100_000 // s), "duelmasters", True),
            (
                f"duelmasters: {20_000 // s:,} distinct cards",
                lambda: distinct(20_000 // s, "duelmasters"),
                "duelmasters",
                True,
            ),
            ("yugioh: long cascade", lambda: ygo_cascade(1000 // s, 50 // s), "yugioh", True),
            (f"yugioh: {100_000 // s:,} chained one-link chains", lambda: ygo_deep(100_000 // s), "yugioh", True),
            (f"yugioh: {20_000 // s:,} distinct cards", lambda: distinct(20_000 // s, "yugioh"), "yugioh", True),
            (f"(extra) digimon: wide, {10_000 // s:,} in one layer", lambda: wide(10_000 // s), "digimon", False),
            (f"(extra) core only: {100_000 // s:,}-deep chain", lambda: deep(100_000 // s), "core_only", False),
            (f"(extra) duelmasters: wide, {10_000 // s:,} waiting", lambda: dm_wide(10_000 // s), "duelmasters", False),
            (f"(extra) yugioh: SEGOC, {10_000 // s:,} links", lambda: ygo_segoc(10_000 // s), "yugioh", False),
        ]
        floors = list(self.floor_runs)
        done = []
        for name, make, game, targeted in cases:
            data = make()
            floors.extend(self.floor_now())
            done.append((name, *self.per_effect(data, game), targeted))
            print(f"  … {name}: {done[-1][1]:.1f} µs/effect", flush=True)
        data, choices = ygo_responses(500 // s)
        floors.extend(self.floor_now())
        done.append((f"(extra) yugioh: {500 // s} responses", *self.per_effect(data, "yugioh", choices), False))
        floors.extend(self.floor_now())
        floor = statistics.median(floors)
        print(
            f"  the heap loop, {len(floors)} runs spread over this section (before, between and after the cases): "
            f"median {floor:.2f} µs, from {min(floors):.2f} to {max(floors):.2f}",
            flush=True,
        )
        for name, micro, effects, outcome, steps, targeted in done:
            self.effect_figure(name, micro, effects, outcome, steps, targeted, floor)
        self.responses_scaling()

    def responses_scaling(self) -> None:
        """A Yu-Gi-Oh! chain of N responses at four sizes: seconds per link,
        and how often the game is asked whether an ability may respond
        (``Ruleset.can_respond``).  Both linear in N (issue 26): a window
        asks only about the abilities whose answer may have changed since
        the player's last window, not about every ability the player has."""
        base = max(100 // self.scale, 10)
        sizes = (base, 2 * base, 4 * base, 8 * base)
        can_respond = tcgtrig.Ruleset.can_respond
        rows = []
        for links in sizes:
            data, choices = ygo_responses(links)
            seconds = statistics.median(
                self.drive(self.engine(data, "yugioh"), tcgtrig.ScriptedChooser(list(choices))) for _ in range(3)
            )
            asked = 0

            def counting(ruleset: Any, *args: Any) -> bool:
                nonlocal asked
                asked += 1
                return can_respond(ruleset, *args)

            tcgtrig.Ruleset.can_respond = counting  # type: ignore[method-assign]
            try:
                self.drive(self.engine(data, "yugioh"), tcgtrig.ScriptedChooser(list(choices)))
            finally:
                tcgtrig.Ruleset.can_respond = can_respond  # type: ignore[method-assign]
            rows.append((links, seconds, asked))
            figure(
                "effects",
                f"(extra) yugioh: chain of {links} responses",
                f"{seconds:.3f} s = {seconds / links * 1e6:.0f} µs/link",
                value_raw=seconds,
                links=links,
                per_link=seconds / links,
                asked=asked,
            )
        (small, small_s, small_asked), (big, big_s, big_asked) = rows[0], rows[-1]
        figure(
            "effects",
            f"chain of responses: questions, {big} ÷ {small} links",
            f"{big_asked / small_asked:.1f}× for {big / small:.0f}× the links",
            f"linear: ≤ {1.1 * big / small:.1f}×",
            big_asked / small_asked <= 1.1 * big / small,
            value_raw=[asked for _, _, asked in rows],
            sizes=list(sizes),
        )
        figure(
            "effects",
            f"chain of responses: seconds per link, {big} ÷ {small} links",
            f"{(big_s / big) / (small_s / small):.2f}×",
            "≤ 2×",
            (big_s / big) / (small_s / small) <= 2,
            value_raw=[seconds for _, seconds, _ in rows],
            sizes=list(sizes),
        )
        # each activation spends a per-turn use: only the abilities of that key are asked about again
        data, choices = ygo_responses(8 * base, per_turn=True)
        seconds = statistics.median(
            self.drive(self.engine(data, "yugioh"), tcgtrig.ScriptedChooser(list(choices))) for _ in range(3)
        )
        figure(
            "effects",
            f"(extra) yugioh: chain of {8 * base} once-per-turn responses",
            f"{seconds:.3f} s = {seconds / (8 * base) * 1e6:.0f} µs/link",
            value_raw=seconds,
            links=8 * base,
        )

    @staticmethod
    def floor_now() -> list[float]:
        """Two runs of the heap loop (µs per item of 100,000), between cases.

        The machine's speed drifts over the section's minute (the loop alone
        moved by a third within one run), so the floor the cases are divided
        by is the median of runs spread over the whole section, not only
        of those taken before it began."""
        return [heap_loop(100_000) / 100_000 * 1e6 for _ in range(2)]

    def effect_figure(
        self, name: str, micro: float, effects: int, outcome: str, steps: int, targeted: bool, floor: float
    ) -> None:
        ratio = micro / floor
        target, ok = ratio_mark(ratio)
        complete = outcome == "complete"
        figure(
            "effects",
            f"{name} (µs/effect)",
            f"{micro:.1f} µs = {ratio:.0f}×",
            target if targeted else "(info)",
            (ok and complete) if targeted else None,
            value_raw=micro,
            ratio=ratio,
            floor=floor,
            effects=effects,
            outcome=outcome,
            steps=steps,
        )
        print(
            f"  {'':<52} {effects:>12,} effects, {steps / max(effects, 1):.1f} trace steps each, outcome {outcome}",
            flush=True,
        )

    # -- 3. loading and compiling -------------------------------------------------

    def write(self, data: dict[str, Any], name: str) -> Path:
        path = self.tmp / name
        if name.endswith(".json"):
            path.write_text(json.dumps(data, indent=1), encoding="utf-8")
        else:
            dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
            path.write_text(yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
        return path

    @staticmethod
    def repeat_for(first: float) -> int:
        return 1 if first > 2 else 3

    def timed_load(self, path: Path, check_game: bool) -> tuple[float, tcgtrig.Scenario]:
        """Median seconds of ``load_scenario`` (several runs when it is quick)."""
        gc.collect()
        began = time.perf_counter()
        scenario = tcgtrig.load_scenario(path, check_game=check_game)
        first = time.perf_counter() - began
        if self.repeat_for(first) == 1:
            return first, scenario
        times = [first, *(median_time(lambda: tcgtrig.load_scenario(path, check_game=check_game), 1) for _ in range(2))]
        return statistics.median(times), scenario

    def load(self) -> None:
        count = 20_000 // self.scale
        title(f"3. loading and compiling a {count:,}-card file, one ability per card, under each game")
        self.warm_up()
        for game in ("digimon", "duelmasters", "yugioh"):
            self.load_game(game, count)

    def load_game(self, game: str, count: int) -> None:
        data = distinct(count, game)
        json_path, yaml_path = self.write(data, f"distinct-{game}.json"), self.write(data, f"distinct-{game}.yaml")
        print(f"  {game}: {json_path.stat().st_size / 1e6:.1f} MB JSON, {yaml_path.stat().st_size / 1e6:.1f} MB YAML")
        json_s, scenario = self.timed_load(json_path, check_game=False)
        ruleset = self.ruleset(game)
        compile_s = median_time(lambda: scenario.compile(ruleset), self.repeat_for(json_s))
        yaml_s, _ = self.timed_load(yaml_path, check_game=False)
        full_s, _ = self.timed_load(json_path, check_game=True)
        per = 1e6 / count
        figure(
            "load",
            f"{game}: load JSON, {count:,} cards (µs/card)",
            f"{json_s * per:.0f} µs ({json_s:.2f} s)",
            "≤ 50 µs",
            json_s * per <= 50,
            value_raw=json_s * per,
        )
        figure(
            "load",
            f"{game}: compile, {count:,} cards (µs/card)",
            f"{compile_s * per:.0f} µs ({compile_s:.2f} s)",
            "≤ 50 µs",
            compile_s * per <= 50,
            value_raw=compile_s * per,
        )
        figure(
            "load",
            f"{game}: load YAML, {count:,} cards (µs/card)",
            f"{yaml_s * per:.0f} µs ({yaml_s:.2f} s)",
            "(info)",
            value_raw=yaml_s * per,
        )
        figure(
            "load",
            f"{game}: YAML load ÷ JSON load",
            f"{yaml_s / json_s:.1f}×",
            "≤ 3×",
            yaml_s / json_s <= 3,
            value_raw=yaml_s / json_s,
        )
        figure(
            "load",
            f"{game}: load_scenario(JSON) with its check (µs/card)",
            f"{full_s * per:.0f} µs ({full_s:.2f} s)",
            "(info: load + compile)",
            value_raw=full_s * per,
        )

    def warm_up(self) -> None:
        """Load one small file first: the schema, the checking ruleset and
        the validators are built once per process, not per card."""
        tcgtrig.load_scenario(self.write(plain(2), "warm.json"))

    # -- 4. flat scaling ----------------------------------------------------------

    def scaling(self) -> None:
        floor = self.baseline()
        big = 100_000 // self.scale
        title(f"4. flat scaling (per effect / per event, small against {big:,})")
        total = 100_000 // self.scale
        micro_small, effects_small, _, _ = self.per_effect(pending(10, total // 10), "digimon")
        micro_big, effects_big, outcome, _ = self.per_effect(pending(big, 1), "digimon")
        print(
            f"  10 pending × {total // 10:,}: {micro_small:.1f} µs/effect ({effects_small:,} effects); "
            f"{big:,} pending × 1: {micro_big:.1f} µs/effect ({effects_big:,} effects, {outcome})"
        )
        figure(
            "scaling",
            f"per effect, {big:,} pending ÷ 10 pending",
            f"{micro_big / micro_small:.2f}×",
            "≤ 2×",
            micro_big / micro_small <= 2,
            value_raw=micro_big / micro_small,
            small=micro_small,
            big=micro_big,
            ratio_big=micro_big / floor,
        )
        events = 10_000 // self.scale
        per_small, _, _, _ = self.per_effect(listeners(10, events), "digimon")
        # a slow engine at 100,000 listeners would take hours: a first look
        # with few events, kept when it already takes a second
        per_big, effects, outcome, _ = self.per_effect(listeners(big, 200), "digimon")
        if per_big * effects < 1e6:
            per_big, effects, outcome, _ = self.per_effect(listeners(big, events), "digimon")
        # one effect resolved per ping event: µs per effect is µs per event
        print(
            f"  {events:,} events, one match each: 10 listeners {per_small:.1f} µs/event; "
            f"{big:,} listeners {per_big:.1f} µs/event ({effects:,} effects, {outcome})"
        )
        figure(
            "scaling",
            f"per event, {big:,} listeners ÷ 10 listeners",
            f"{per_big / per_small:.2f}×",
            "≤ 2×",
            per_big / per_small <= 2,
            value_raw=per_big / per_small,
            small=per_small,
            big=per_big,
        )
        self.warm_up()
        for what, make, sizes, quick in (
            ("plain cards", plain, (1_000, 10_000, 100_000), (1_000, 3_000, 10_000)),
            ("one pile", pile, (1_000, 10_000, 20_000), (1_000, 2_000, 5_000)),
        ):
            if self.quick:
                sizes = quick
            rates = []
            for size in sizes:
                path = self.write(make(size), f"{what.replace(' ', '-')}-{size}.json")
                seconds, _ = self.timed_load(path, check_game=True)
                rates.append(size / seconds)
                print(
                    f"  {what}: {size:>7,} cards load in {seconds:7.2f} s = {size / seconds:>9,.0f} cards/s", flush=True
                )
            rate_text = " / ".join(f"{rate:,.0f}" for rate in rates)
            sizes_text = "/".join(f"{size / 1000:g}k" for size in sizes)
            flat = min(rates) / max(rates)
            figure(
                "scaling",
                f"load {what} at {sizes_text} (cards/s)",
                rate_text,
                "linear: slowest ≥ ½ fastest",
                flat >= 0.5,
                value_raw=rates,
                sizes=list(sizes),
            )

    # -- 4b. conditions re-checked before each pick ---------------------------------

    def conditions(self) -> None:
        """Seconds and condition evaluations for N conditioned effects
        pending at once: linear in N (issue 26), not N² (a re-check of
        every waiting effect before each pick)."""
        sizes = (100, 200, 400, 800) if self.quick else (250, 500, 1_000, 2_000)
        title(f"4b. {'/'.join(f'{n:,}' for n in sizes)} conditioned effects pending at once (digimon re-checks them)")
        from tcgtrig.runtime.evaluate import Evaluator  # counted, not timed: a wrapper of its own run

        holds = Evaluator.holds
        rows = []
        for size in sizes:
            data = conditioned(size)
            # the median of three: the smallest take a hundredth of a second
            seconds = statistics.median(self.drive(self.engine(data, "digimon")) for _ in range(3))
            calls = 0

            def counting(view: Any, condition: Any, scope: Any, did: Any = None) -> bool:
                nonlocal calls
                calls += 1
                return holds(view, condition, scope, did)

            Evaluator.holds = counting
            try:
                engine = self.engine(data, "digimon")
                self.drive(engine)
            finally:
                Evaluator.holds = holds
            resolved = len(engine.result().keys("resolved"))
            rows.append((size, seconds, calls))
            print(
                f"  {size:>6,} effects: {seconds:7.3f} s, {calls:>10,} condition evaluations "
                f"({calls / size:.1f} per effect), {resolved:,} resolved",
                flush=True,
            )
        (small, small_s, small_calls), (big, big_s, big_calls) = rows[0], rows[-1]
        growth = (big_calls / small_calls) / (big / small)
        figure(
            "conditions",
            f"condition evaluations, {big:,} ÷ {small:,} effects",
            f"{big_calls / small_calls:.1f}× for {big / small:.0f}× the effects",
            f"linear: ≤ {1.1 * big / small:.1f}×",
            growth <= 1.1,
            value_raw=[calls for _, _, calls in rows],
            sizes=list(sizes),
        )
        figure(
            "conditions",
            f"seconds per effect, {big:,} ÷ {small:,} effects",
            f"{(big_s / big) / (small_s / small):.2f}×",
            "≤ 2×",
            (big_s / big) / (small_s / small) <= 2,
            value_raw=[seconds for _, seconds, _ in rows],
            sizes=list(sizes),
        )

    # -- 5. depth -------------------------------------------------------------------

    def depth(self) -> None:
        sizes = (5_000, 25_000) if self.quick else (100_000, 1_000_000)
        title(f"5. depth: {' and '.join(f'{n:,}' for n in sizes)} nested triggers, each in a child process")
        found = []
        for size in sizes:
            done = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--depth-child", str(size)],
                capture_output=True,
                text=True,
                env=CHILD_ENV,
            )
            if done.returncode != 0:
                tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["?"]
                figure(
                    "depth",
                    f"{size:,}-deep cascade",
                    f"failed: exit {done.returncode}",
                    "completes",
                    False,
                    error=tail[0],
                )
                continue
            got = json.loads(done.stdout.strip().splitlines()[-1])
            per_level = (got["peak_kb"] - got["before_kb"]) * 1024 / size
            got["bytes_per_level"] = per_level
            found.append(got)
            ok = got["outcome"] == "complete" and got["effects"] == size - 1
            figure(
                "depth",
                f"{size:,}-deep cascade: time, outcome",
                f"{got['seconds']:.1f} s, {got['outcome']}",
                "completes",
                ok,
                **got,
            )
            figure(
                "depth",
                f"{size:,}-deep cascade: peak memory",
                f"{got['peak_kb'] / 1024:,.0f} MiB",
                "(info)",
                value_raw=got["peak_kb"],
            )
            figure(
                "depth", f"{size:,}-deep cascade: bytes per level", f"{per_level:,.0f} B", "(info)", value_raw=per_level
            )
        if len(found) == 2 and min(f["bytes_per_level"] for f in found) > 0:
            growth = found[1]["bytes_per_level"] / found[0]["bytes_per_level"]
            figure(
                "depth",
                f"bytes per level, {sizes[1]:,} ÷ {sizes[0]:,}",
                f"{growth:.2f}×",
                "linear: ≤ 1.5×",
                growth <= 1.5,
                value_raw=growth,
            )

    # -- 6. runaway loops -------------------------------------------------------------

    def runaway(self) -> None:
        title("6. runaway loops: the non-repeating ping-pong, then tests/hostile/loop-counter-*.yaml by the CLI")
        for game in GAMES:
            began = time.perf_counter()
            result = tcgtrig.resolve(tcgtrig.scenario_from_text(PING_PONG, "ping-pong.yaml"), game)
            seconds = time.perf_counter() - began
            reason = (result.reason or "").split(" (")[0]
            figure(
                "runaway",
                f"ping-pong under {game}",
                f"{seconds:.2f} s, {result.outcome}",
                "< 5 s, an outcome",
                seconds < 5 and bool(result.outcome),
                value_raw=seconds,
                outcome=result.outcome,
                reason=result.reason,
                activations=len(result.keys("activated")),
            )
            print(f"  {'':<52} {reason[:110]}")
        hostile = repository() / "tests" / "hostile"
        for name in ("loop-counter-bound.yaml", "loop-counter-read.yaml"):
            path = hostile / name
            if not path.exists():
                print(f"  {path} is missing: skipped")
                continue
            # quick: the bounded loop runs to the step limit (250,000 by default), a 50th of it
            limit = ["--max-steps", "5000"] if self.quick and "bound" in name else []
            for game in GAMES:
                got = run_cli(["run", str(path), "--game", game, "--json", *limit], self.tmp / "out.json")
                ok = got["seconds"] < 5 and got["status"] in (0, 3) and bool(got["outcome"])
                figure(
                    "runaway",
                    f"{name} --game {game}{' ' + ' '.join(limit) if limit else ''}",
                    f"{got['seconds']:.1f} s, exit {got['status']}, {got['outcome'] or '?'}",
                    "(info: not the default limit)" if limit else "< 5 s, an outcome",
                    None if limit else ok,
                    value_raw=got["seconds"],
                    **got,
                )
                print(f"  {'':<52} peak {got['peak_kb'] / 1024:,.0f} MiB; {got['reason'][:100]}", flush=True)

    # -- 7. start-up ------------------------------------------------------------------

    def startup(self) -> None:
        title(
            f"7. start-up: wall time, median of {STARTUP_REPEAT} rounds (subprocesses, compiled bytecode cached; "
            "each round runs the floor and both commands, so that the machine's load weighs on all three alike)"
        )
        small = repository() / "tests" / "scenarios" / "digimon" / "triggered-01.yaml"
        if not small.exists():
            small = self.write({**header("small"), "cards": [], "start": []}, "small.yaml")
        commands = {
            "python -c pass (the floor)": [sys.executable, "-c", "pass"],
            "tcgtrig games": [*cli(), "games"],
            f"tcgtrig run {small.name}": [*cli(), "run", str(small)],
        }
        for command in commands.values():
            wall(command)  # compiles the bytecode once (CHILD_ENV: the benchmark's own cache folder)
        walls: dict[str, list[float]] = {name: [] for name in commands}
        cpus: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(STARTUP_REPEAT):
            for name, command in commands.items():
                seconds, cpu = wall_and_cpu(command)
                walls[name].append(seconds)
                cpus[name].append(cpu)
        (floor_name, floor_runs), *timed = walls.items()
        floor = statistics.median(floor_runs)
        figure("startup", floor_name, f"{floor * 1000:.0f} ms", "(info)", value_raw=floor)
        no_cache = {**CHILD_ENV, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(self.tmp / "none")}
        for (name, runs), target in zip(timed, (STARTUP_TARGETS["games"], STARTUP_TARGETS["run"]), strict=True):
            seconds, cpu = statistics.median(runs), statistics.median(cpus[name])
            figure(
                "startup",
                name,
                f"{seconds * 1000:.0f} ms",
                f"≤ {target * 1000:.0f} ms",
                seconds <= target,
                value_raw=seconds,
                above_floor_ms=round((seconds - floor) * 1000),
                cpu_ms=round(cpu * 1000),
            )
            cold = wall(commands[name], no_cache)
            print(
                f"  {'':<52} {(seconds - floor) * 1000:.0f} ms above the floor, {cpu * 1000:.0f} ms of CPU; "
                f"{cold * 1000:.0f} ms without compiled bytecode"
            )
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import tcgtrig.tools.cli"],
            capture_output=True,
            text=True,
            env=CHILD_ENV,
        )
        rows = []
        for line in done.stderr.splitlines():
            match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
            if match:
                rows.append((int(match[2]), int(match[1]), len(match[3]), match[4]))
        total = max((row[0] for row in rows), default=0)
        print(f"  import tcgtrig.tools.cli: {total / 1000:.0f} ms cumulative; the top five (cumulative, self):")
        for cumulative, own, _, module in sorted(rows, reverse=True)[:5]:
            print(f"    {module:<40} {cumulative / 1000:7.1f} ms  {own / 1000:6.1f} ms")
        print("  outside tcgtrig:")
        outside = [row for row in rows if not row[3].startswith("tcgtrig")]
        for cumulative, own, _, module in sorted(outside, reverse=True)[:5]:
            print(f"    {module:<40} {cumulative / 1000:7.1f} ms  {own / 1000:6.1f} ms")
        top = ", ".join(f"{m} {c / 1000:.0f}" for c, _, _, m in sorted(outside, reverse=True)[:5])
        figure(
            "startup",
            "import tcgtrig.tools.cli (-X importtime)",
            f"{total / 1000:.0f} ms",
            "(info)",
            value_raw=total / 1e6,
            top_outside_ms=top,
        )

    # -- 8. explore ---------------------------------------------------------------------

    def explore(self) -> None:
        title("8. explore: ten independent simultaneous triggers")
        try:
            from explore import independent  # benchmarks/explore.py, beside this file
            from tcgtrig.tools.explore import explore
        except ImportError as exc:
            print(f"  explore is not available here: {exc}")
            return
        scene = independent(10)
        for jobs, what in ((1, "1 job"), (None, "default jobs")):
            began = time.perf_counter()
            found = explore(scene, "digimon", jobs=jobs)
            took = time.perf_counter() - began
            figure(
                "explore",
                f"10 independent triggers, {what}",
                f"{found.states:,} states, {took:.2f} s",
                "(info: no number set)",
                value_raw=took,
                states=found.states,
                outcomes=len(found.outcomes),
            )


# ---------------------------------------------------------------------------
# Processes
# ---------------------------------------------------------------------------


def repository() -> Path:
    """The checkout whose tcgtrig is imported (tests/hostile lives there),
    else the one this file is in."""
    for root in (Path(tcgtrig.__file__).resolve().parent.parent, Path(__file__).resolve().parent.parent):
        if (root / "tests").is_dir():
            return root
    return Path.cwd()


def cli() -> list[str]:
    """The ``tcgtrig`` command of the Python running this file."""
    script = Path(sys.executable).parent / "tcgtrig"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tcgtrig"]


#: The environment of every child process (see ``Bench``).
CHILD_ENV = dict(os.environ)
#: Rounds of the start-up commands; each figure is the median of its runs (one run is at the mercy of the
#: machine's load), at least 15 (issue 40 item 3).
STARTUP_REPEAT = 15
#: The start-up targets (issue 40 item 3), in seconds, with the bytecode cached.
STARTUP_TARGETS = {"games": 0.100, "run": 0.150}


def wall(command: list[str], env: dict[str, str] | None = None) -> float:
    return wall_and_cpu(command, env)[0]


def wall_and_cpu(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """The wall time of ``command`` and the CPU time it used (user and system, its children's included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env or CHILD_ENV)
    seconds = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def peak_kb() -> int:
    """This process's peak resident memory in KiB.  VmHWM starts afresh
    at exec; ``ru_maxrss`` would keep the peak of the (large) parent it
    was forked from."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


#: ``tcgtrig ARGS`` through the console script's own ``main``, writing the
#: peak memory (VmHWM, KiB) to the file named first when it exits:
#: ``python -c CLI_CHILD PEAK_FILE ARGS…``
CLI_CHILD = """\
import atexit, sys

def peak(path=sys.argv[1]):
    status = open("/proc/self/status").read().splitlines()
    kb = next((line.split()[1] for line in status if line.startswith("VmHWM:")), "0")
    open(path, "w").write(kb)

atexit.register(peak)
sys.argv = ["tcgtrig", *sys.argv[2:]]
from tcgtrig.tools.cli import main
main()
"""


def run_cli(args: list[str], out: Path) -> dict[str, Any]:
    """Run the CLI with its output in a file: seconds, exit status, the
    child's peak memory, and the outcome read from the JSON's head."""
    peak = out.with_suffix(".peak")
    with out.open("wb") as stdout:
        began = time.perf_counter()
        child = subprocess.run(
            [sys.executable, "-c", CLI_CHILD, str(peak), *args], stdout=stdout, stderr=subprocess.STDOUT, env=CHILD_ENV
        )
        seconds = time.perf_counter() - began
    with out.open("rb") as text:
        head = text.read(8192).decode("utf-8", "replace")
    outcome = re.search(r'"outcome": "([^"]*)"', head)
    reason = re.search(r'"reason": "((?:[^"\\]|\\.)*)"', head)
    error = head.strip().splitlines()[-1] if head.strip() and not outcome else ""
    try:
        peak_used = int(peak.read_text())
    except (OSError, ValueError):
        peak_used = 0
    return {
        "seconds": seconds,
        "status": child.returncode,
        "peak_kb": peak_used,
        "outcome": outcome[1] if outcome else "",
        "reason": reason[1] if reason else error,
        "output_mb": out.stat().st_size / 1e6,
    }


def depth_child(size: int) -> None:
    """In a child process: build the deep chain, then resolve it; print
    JSON with the peak memory before and after resolving."""
    ruleset = tcgtrig.load_ruleset("digimon")
    scenario = tcgtrig.scenario_from_data(deep(size), "deep", check_game=False)
    engine = tcgtrig.Engine.for_scenario(scenario, ruleset, max_steps=NO_LIMIT)
    gc.collect()
    before = peak_kb()
    seconds = Bench.drive(engine)
    peak = peak_kb()
    result = engine.result()
    print(
        json.dumps(
            {
                "size": size,
                "seconds": seconds,
                "effects": len(result.keys("resolved")),
                "outcome": result.outcome,
                "before_kb": before,
                "peak_kb": peak,
                "trace_steps": len(engine.trace),
            }
        )
    )


# ---------------------------------------------------------------------------


def summary(began: float) -> None:
    print("\n== summary")
    width = max((len(f["figure"]) for f in FIGURES), default=10)
    print(f"  {'figure':<{width}}  {'value':<30} {'target':<28} mark")
    for f in FIGURES:
        print(f"  {f['figure']:<{width}}  {f['value']:<30} {f['target']:<28} {f['mark']}")
    marks = [f["mark"] for f in FIGURES]
    print(
        f"\n  {marks.count('pass')} pass, {marks.count('MISS')} miss, {marks.count('info')} for information; "
        f"{time.perf_counter() - began:.0f} s in all"
    )


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"tcgtrig {tcgtrig.__version__} ({Path(tcgtrig.__file__).parent}), Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} CPUs ({cpu})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller sizes (under a minute)")
    parser.add_argument(
        "--only",
        action="append",
        choices=SECTIONS,
        metavar="NAME",
        help=f"run only this section (repeatable): {', '.join(SECTIONS)}",
    )
    parser.add_argument("--no-depth", action="store_true", help="skip the depth section (its children take minutes)")
    parser.add_argument("--json", metavar="PATH", help="also write every figure to PATH as JSON")
    parser.add_argument("--depth-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.depth_child:
        depth_child(args.depth_child)
        return
    sections = args.only or [s for s in SECTIONS if not (s == "depth" and args.no_depth)]
    began = time.perf_counter()
    print(machine() + (", quick sizes" if args.quick else ""))
    bench = Bench(args.quick)
    try:
        for section in sections:
            try:
                getattr(bench, section)()
            except Exception as exc:  # a broken section must not lose the others' figures
                traceback.print_exc()
                figure(section, f"section {section}", f"failed: {type(exc).__name__}", "runs", False)
    finally:
        shutil.rmtree(bench.tmp, ignore_errors=True)
    summary(began)
    if args.json:
        Path(args.json).write_text(
            json.dumps({"machine": machine(), "quick": args.quick, "figures": FIGURES}, indent=1, ensure_ascii=False),
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
