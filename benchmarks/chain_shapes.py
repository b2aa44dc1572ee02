"""Two Yu-Gi-Oh! chain shapes, timed per Chain Link against ygopro-core's
figures (issue 40 item 2):

- **responses**: A activates Jar of Greed; then N D.D. Crows are chained
  from the hand, B's and A's in turn (each a Quick Effect: discard itself,
  target a card in the opponent's GY);
- **SEGOC**: A's Card Destruction discards N Broww, Huntsman of Dark
  World, whose N triggers go on one chain (SEGOC).

Each shape at 50, 200 and 800 links is a scenario file in
``benchmarks/positions/`` (``--write`` makes them again from the functions
below).  Only ``Engine.advance``/``answer`` is timed, as the issue timed
ygopro-core's engine alone: the file is read, compiled and the engine built
before the clock starts.  Median of ``--runs`` (5), printed as µs per link
with its growth from the smallest size, against the issue's targets.

Run by hand (``python benchmarks/chain_shapes.py [--runs 5] [--sizes 50 200 800]``);
only the public API is used, so a copy run with another installation's
Python measures that installation.  The tests never check a time.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from pathlib import Path
from typing import Any

import tcgtrig
import yaml

POSITIONS = Path(__file__).resolve().parent / "positions"
SIZES = (50, 200, 800)
#: ygopro-core's µs per link on this kind of machine (issue 40), and the targets
CORE = {"responses": {50: 80, 200: 160, 800: 1388}, "segoc": {50: 70, 200: 147, 800: 494}}
TARGET = {"responses": {50: 80, 200: 160, 800: 1400}, "segoc": {50: 85, 200: 85, 800: 85}}
#: the per-link cost may grow this much from the smallest size to the largest
FLAT = 1.5

CROW = (
    "(Quick Effect): You can discard this card to the GY, then target 1 card in your opponent's GY; banish that target."
)


def responses(links: int) -> dict[str, Any]:
    """Jar of Greed, then ``links`` D.D. Crows, B's and A's in turn, each
    chosen by its player; each A's Crow targets the Crow B discarded just
    before it, each B's Crow the card A discarded last (Pot of Greed, for
    the first)."""
    cards: list[dict[str, Any]] = [
        {
            "id": "jar",
            "name": "Jar of Greed",
            "owner": "A",
            "zone": "field",
            "types": ["trap"],
            "abilities": [{"id": "draw", "text": "Draw 1 card.", "kind": "activated", "speed": 2, "do": [{"draw": 1}]}],
        },
        {"id": "pot", "name": "Pot of Greed", "owner": "A", "zone": "graveyard", "types": ["spell"]},
        {"id": "a_deck", "name": "A card in A's Deck", "owner": "A", "zone": "deck"},
    ]
    choices: list[str] = []
    for i in range(links):
        cards.append(
            {
                "id": f"crow_{i}",
                "name": "D.D. Crow",
                "owner": "B" if i % 2 == 0 else "A",
                "zone": "hand",
                "types": ["monster", "dark", "winged_beast"],
                "stats": {"atk": 100, "def": 100, "level": 1},
                "abilities": [
                    {
                        "id": "banish",
                        "text": CROW,
                        "kind": "activated",
                        "speed": 2,
                        "active_in": "hand",
                        "cost": [{"discard": "self"}],
                        "target": {"zone": "graveyard", "owner": "opponent", "pick": 1},
                        "do": [{"banish": "target"}],
                    }
                ],
            }
        )
        choices.append(f"crow_{i}.banish")
        target = "pot" if i == 0 else f"crow_{i - 1}"
        if i >= 2:  # the first two have one card to target: not asked
            choices.append(target)
    return {
        **_header(
            f"Benchmark: Jar of Greed, then {links} D.D. Crows chained from the hand, players in turn",
            'Card texts: Jar of Greed (Normal Trap) "Draw 1 card."; D.D. Crow "' + CROW + '"',
            "A's turn. A activates the Set Jar of Greed (Chain Link 1); B answers with a D.D. Crow, A with one"
            " of theirs, and so on, each targeting the card its opponent discarded last. The chain then"
            " resolves last in, first out.",
        ),
        "cards": cards,
        "start": [{"activate": "jar.draw"}],
        "choices": choices,
    }


def segoc(links: int) -> dict[str, Any]:
    """Card Destruction with ``links`` Broww in A's hand: their triggers,
    all A's and mandatory, go on one chain in the order A chooses (the
    default: file order)."""
    cards: list[dict[str, Any]] = [
        {
            "id": "card_destruction",
            "name": "Card Destruction",
            "owner": "A",
            "zone": "field",
            "types": ["spell"],
            "abilities": [
                {
                    "id": "main",
                    "text": (
                        "Both players discard as many cards as possible from their hands, then each player"
                        " draws the same number of cards they discarded."
                    ),
                    "kind": "activated",
                    "do": [
                        {
                            "together": [
                                {"discard": {"zone": "hand", "owner": "self"}, "label": "mine"},
                                {"discard": {"zone": "hand", "owner": "opponent"}, "label": "theirs"},
                            ]
                        },
                        {"draw": {"player": "self", "count": {"did": "mine"}}},
                        {"draw": {"player": "opponent", "count": {"did": "theirs"}}},
                    ],
                }
            ],
        }
    ]
    for i in range(links):
        cards.append(
            {
                "id": f"broww_{i}",
                "name": "Broww, Huntsman of Dark World",
                "owner": "A",
                "zone": "hand",
                "types": ["monster", "dark", "fiend"],
                "stats": {"atk": 1400, "def": 800, "level": 3},
                "abilities": [
                    {
                        "id": "draw",
                        "text": "If this card is discarded to the GY: Draw 1 card.",
                        "when": {"event": "discarded", "card": "self"},
                        "wording": "if",
                        "active_in": "graveyard",
                        "do": [{"draw": 1}],
                    }
                ],
            }
        )
    cards.extend(
        {"id": f"a_deck_{i}", "name": "A card in A's Deck", "owner": "A", "zone": "deck"} for i in range(2 * links)
    )
    return {
        **_header(
            f"Benchmark: Card Destruction discards {links} Broww, whose triggers form one chain (SEGOC)",
            'Card texts: Card Destruction (Normal Spell); Broww, Huntsman of Dark World, "If this card is'
            ' discarded to the GY: Draw 1 card." The current printing adds a second draw when an'
            " opponent's effect discarded it, and a once per turn: left out, so that every copy triggers"
            " and only the chain's shape is timed.",
            "A's turn. Card Destruction resolves: A discards every Broww and draws as many. All the Broww"
            " triggered at once, each A's and mandatory: one SEGOC chain, which then resolves last in,"
            " first out, each drawing a card.",
        ),
        "cards": cards,
        "start": [{"activate": "card_destruction.main"}],
    }


def _header(title: str, texts: str, notes: str) -> dict[str, Any]:
    """A position's keys before its cards: A's turn, under Yu-Gi-Oh!."""
    return {
        "format": 1,
        "title": title,
        "source": f"Issue 40 (the shape ygopro-core was timed on). {texts}",
        "notes": f"{notes} Written by benchmarks/chain_shapes.py --write.",
        "game": "yugioh",
        "players": ["A", "B"],
        "turn_player": "A",
    }


SHAPES = {"responses": responses, "segoc": segoc}


def path_of(shape: str, links: int) -> Path:
    return POSITIONS / f"{shape}-{links}.yaml"


class _Flow(yaml.SafeDumper):
    """Block style for the file, flow style (a line each) for every card."""


def _card_line(dumper: yaml.SafeDumper, data: dict[str, Any]) -> yaml.Node:
    flow = "owner" in data and "zone" in data
    return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=flow or None)


_Flow.add_representer(dict, _card_line)


def text_of(shape: str, links: int) -> str:
    """The scenario file of ``shape`` at ``links``, as ``--write`` writes it."""
    return yaml.dump(SHAPES[shape](links), Dumper=_Flow, sort_keys=False, width=10_000, allow_unicode=True)


def write() -> None:
    POSITIONS.mkdir(exist_ok=True)
    for shape in SHAPES:
        for links in SIZES:
            path = path_of(shape, links)
            path.write_text(text_of(shape, links), encoding="utf-8")
            print(f"wrote {path}")


def seconds(bound: Any) -> float:
    """Seconds in ``advance``/``answer`` to resolve ``bound`` with its file's choices."""
    engine = tcgtrig.Engine.for_scenario(bound)
    chooser = tcgtrig.ScriptedChooser(list(engine.compiled.choices))
    gc.collect()
    began = time.perf_counter()
    while (decision := engine.advance()) is not None:
        engine.answer(chooser.choose(decision, engine))
    spent = time.perf_counter() - began
    assert engine.result().outcome == "complete"
    return spent


def measure(shape: str, links: int, runs: int) -> float:
    """Median µs per link over ``runs`` runs of ``shape`` at ``links``."""
    from tcgtrig.scenario.reading import bind

    bound = bind(tcgtrig.load_scenario(path_of(shape, links), check_game=False), "yugioh")
    return statistics.median(seconds(bound) for _ in range(runs)) / links * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--only", choices=sorted(SHAPES), action="append")
    parser.add_argument("--write", action="store_true", help="write the scenario files again, then stop")
    args = parser.parse_args()
    if args.write:
        write()
        return 0
    print(f"{'shape':<10} {'links':>6} {'µs/link':>8} {'ygopro-core':>12} {'target':>7}  mark")
    for shape in args.only or list(SHAPES):
        figures = {}
        for links in args.sizes:
            micro = figures[links] = measure(shape, links, args.runs)
            target = TARGET[shape].get(links)
            core = CORE[shape].get(links)
            mark = "info" if target is None else ("pass" if micro <= target else "MISS")
            shown = f"{core if core else '':>12} {target if target else '':>7}"
            print(f"{shape:<10} {links:>6} {micro:>8.0f} {shown}  {mark}", flush=True)
        small, big = min(figures), max(figures)
        growth = figures[big] / figures[small]
        print(
            f"{shape:<10} growth per link {big} ÷ {small}: {growth:.2f}×  (target ≤ {FLAT}×)"
            f"  {'pass' if growth <= FLAT else 'MISS'}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
