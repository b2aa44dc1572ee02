"""Draw the cards whose headers are labelled by hand (issue 38 item 5).

    python benchmarks/label_sample.py GAME LIST --seed 38 --count 130

takes the cards of ``LIST`` that :func:`card_lists.has_trigger` marks (in
the list's order), draws ``--count`` of them with
``random.Random(seed).sample``, sorts the drawn cards back into the list's
order, and prints a YAML skeleton to label: each card's id, name, types,
printed text and an empty ``headers: []``.  The same list, seed and count
always give the same cards.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from card_lists import LOADERS, PrintedCard, has_trigger, load  # noqa: E402


def draw(game: str, path: str | Path, seed: int, count: int) -> list[PrintedCard]:
    """``count`` cards with a triggered effect, drawn with ``seed``, in the list's order."""
    marked = [card for card in load(game, path) if has_trigger(game, card.text)]
    picked = set(random.Random(seed).sample(range(len(marked)), min(count, len(marked))))
    return [card for index, card in enumerate(marked) if index in picked]


def skeleton(cards: list[PrintedCard]) -> str:
    """The YAML list to label, one entry a card."""
    entries = [
        {"id": card.id, "name": card.name, "types": list(card.types), "text": card.text, "headers": []}
        for card in cards
    ]
    return yaml.safe_dump(entries, allow_unicode=True, sort_keys=False, width=100)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(LOADERS))
    parser.add_argument("list", help="the public card list's file or folder")
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--count", type=int, default=130)
    args = parser.parse_args(argv)
    sys.stdout.write(skeleton(draw(args.game, args.list, args.seed, args.count)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
