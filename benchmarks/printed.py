"""Reading printed card text, measured (issue 38 items 4–6).

1. **Card pools** (``--digimon FILE`` …, the public lists the user gives; see
   ``benchmarks/card_lists.py``): per game, the cards with a triggered effect
   (by their printed words), the share whose headers read (every part of
   the text read at least as far as its header: what kind of ability it is,
   its event, optional or mandatory, When/If, once per turn, speed; whether
   they are read *right* is what the hand labels measure), and the share
   read whole (every word read,
   and the abilities compile in a position under the game).
2. **Hand labels** (``tests/data/printed/<game>.yaml``): the share of the
   labelled cards whose headers the reader reads exactly as labelled (kind,
   event, optional, When/If, once per turn, speed, for every triggered
   ability in printed order), and the share of labelled abilities.
3. **Differential** (the bundled scenario files): each ability that carries
   its card's printed ``text:`` is given by its ``id`` and ``text:`` alone
   wherever that text reads whole; the file is resolved again under its game
   and its trace compared with the file as written.

Targets: Digimon and Yu-Gi-Oh! headers ≥ 95 %, whole ≥ 60 %; labels ≥ 95 %.
Run by hand::

    python benchmarks/printed.py --digimon cards.json --yugioh yaml-yugi/data/cards \\
        --duelmasters DuelMastersCards.json --magic cardsfolder --lorcana allCards.json
    python benchmarks/printed.py --labels --differential   # no card list needed
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import card_lists
import tcgtrig
import yaml
from tcgtrig.printed import Header, Reading
from tcgtrig.printed.reading import TRIGGERED_KINDS

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "tests" / "data" / "printed"
TARGETS = {"digimon": (95.0, 60.0), "yugioh": (95.0, 60.0)}
LABEL_TARGET = 95.0
SCENARIO_GLOBS = ("tests/scenarios/**/*.yaml", "examples/games/*/scenarios/*.yaml")
#: where a card in a position is put, by the first of its types the game knows (else the field zone)
_FIELD = {"digimon": "battle", "duelmasters": "battle", "yugioh": "field", "magic": "battlefield", "lorcana": "play"}


def triggered_headers(reading: Reading) -> list[Header]:
    """The headers of the abilities that wait for an event: triggered kinds, and activated abilities with an
    activation condition (a Quick Effect's "When …"), as tests/test_printed.py compares them."""
    return [
        Header.of(part.data)
        for part in reading.abilities
        if part.data.get("kind", "triggered") in TRIGGERED_KINDS or "when" in part.data
    ]


def compiles(game: str, ruleset: tcgtrig.Ruleset, card: card_lists.PrintedCard, reading: Reading) -> str | None:
    """Why the abilities read do not compile in a position under the game
    (``None``: they do)."""
    data = {
        "format": 1,
        "title": card.name,
        "game": game,
        "players": ["A", "B"],
        "turn_player": "A",
        "cards": [
            {
                "id": "c",
                "owner": "A",
                "zone": _FIELD[game],
                "types": list(card.types),
                "abilities": reading.scenario(),
            }
        ],
        "start": [],
    }
    try:
        tcgtrig.scenario_from_data(data, card.id, check_game=False).compile(ruleset)
    except tcgtrig.TcgTrigError as exc:
        return str(exc)
    return None


def pool(game: str, path: str, show: int) -> dict[str, Any]:
    """Item 4 for one game's list."""
    ruleset = tcgtrig.load_ruleset(game)
    cards = card_lists.load(game, path)
    marked = [card for card in cards if card_lists.has_trigger(game, card.text)]
    started = time.perf_counter()
    headers = whole = 0
    unread: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for card in marked:
        reading = ruleset.read_text(card.text, card.types)
        assert reading is not None
        if not reading.unread and reading.abilities:
            headers += 1
        if reading.whole:
            why = compiles(game, ruleset, card, reading)
            if why is None:
                whole += 1
            else:
                refused[why.split(": ", 2)[-1][:90]] += 1
        for words in reading.all_unread():
            unread[_family(words)] += 1
    seconds = time.perf_counter() - started
    share = {"headers": 100 * headers / max(len(marked), 1), "whole": 100 * whole / max(len(marked), 1)}
    return {
        "game": game,
        "list": path,
        "cards": len(cards),
        "with_trigger": len(marked),
        "headers_read": headers,
        "read_whole": whole,
        "headers_pct": round(share["headers"], 1),
        "whole_pct": round(share["whole"], 1),
        "seconds": round(seconds, 2),
        "unread_families": unread.most_common(show),
        "not_compiled": refused.most_common(show),
    }


def _family(words: str) -> str:
    """The first few words of a sentence not read: what groups them."""
    return " ".join(words.split()[:4])


def labels(game: str) -> dict[str, Any] | None:
    """Item 5 for one game's hand labels."""
    path = LABELS / f"{game}.yaml"
    if not path.exists():
        return None
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    ruleset = tcgtrig.load_ruleset(game)
    if not ruleset.reads_text:
        return None
    agree = with_trigger = abilities = abilities_agree = 0
    wrong: list[dict[str, Any]] = []
    for card in data["cards"]:
        wanted = [
            Header(
                kind=h["kind"],
                event=h["event"],
                optional=h["optional"],
                wording=h["wording"],
                once_per_turn=h["once_per_turn"],
                speed=h["speed"],
            )
            for h in card.get("headers") or []
        ]
        if not wanted:
            continue
        with_trigger += 1
        reading = ruleset.read_text(card["text"], tuple(card.get("types") or ()))
        assert reading is not None
        got = triggered_headers(reading)
        abilities += len(wanted)
        abilities_agree += sum(a == b for a, b in zip(wanted, got, strict=False))
        if got == wanted:
            agree += 1
        else:
            wrong.append(
                {
                    "id": card["id"],
                    "name": card.get("name"),
                    "labelled": [h.as_dict() for h in wanted],
                    "read": [h.as_dict() for h in got],
                    "unread": reading.all_unread(),
                }
            )
    return {
        "game": game,
        "labelled_cards": with_trigger,
        "cards_agree": agree,
        "cards_pct": round(100 * agree / max(with_trigger, 1), 1),
        "labelled_abilities": abilities,
        "abilities_agree": abilities_agree,
        "abilities_pct": round(100 * abilities_agree / max(abilities, 1), 1),
        "disagreements": wrong,
    }


def differential() -> dict[str, Any]:
    """Item 6: each bundled file whose abilities carry printed text, given
    by that text alone wherever it reads whole."""
    files = sorted({p for pattern in SCENARIO_GLOBS for p in ROOT.glob(pattern)})
    counts = Counter()
    differ: list[str] = []
    for path in files:
        outcome = _differential_file(path)
        counts[outcome[0]] += 1
        if outcome[0].endswith("differs"):
            differ.append(f"{path.relative_to(ROOT)}: {outcome[1]}")
    return {"files": len(files), **dict(sorted(counts.items())), "differs": differ}


def _differential_file(path: Path) -> tuple[str, str]:
    """``(verdict, detail)``: ``no text``, ``not read`` (no ability's text
    reads whole), ``whole same``/``whole differs`` (every text reads whole),
    ``part same``/``part differs`` (some do)."""
    scenario = tcgtrig.load_scenario(path, check_game=False)
    game = scenario.game
    if not game:
        return "no game", ""
    try:
        ruleset = tcgtrig.load_ruleset(game)
    except tcgtrig.TcgTrigError:
        return "game not installed", ""
    if not ruleset.reads_text:
        return "game reads no text", ""
    data = copy.deepcopy(scenario.data)
    texts = read = 0
    for card in data["cards"]:
        for number, ability in enumerate(card.get("abilities") or []):
            if not isinstance(ability.get("text"), str):
                continue
            texts += 1
            reading = ruleset.read_text(ability["text"], tuple(card.get("types") or ()))
            if reading is not None and reading.whole and len(reading.abilities) == 1:
                card["abilities"][number] = {"id": ability["id"], "text": ability["text"]}
                read += 1
    if not texts:
        return "no text", ""
    if not read:
        return "not read", ""
    kind = "whole" if read == texts else "part"
    try:
        before = _trace(tcgtrig.load_scenario(path, check_game=False), ruleset)
        after = _trace(tcgtrig.scenario_from_data(data, str(path), check_game=False), ruleset)
    except tcgtrig.TcgTrigError as exc:
        return f"{kind} differs", f"refused: {exc}"
    if before == after:
        return f"{kind} same", ""
    return f"{kind} differs", _first_difference(before, after)


def _trace(scenario: tcgtrig.Scenario, ruleset: tcgtrig.Ruleset) -> dict[str, Any]:
    result = tcgtrig.resolve(scenario, ruleset)
    trace = result.to_dict()
    return {key: trace[key] for key in ("steps", "outcome", "counters", "zones", "flags", "stats") if key in trace}


def _first_difference(before: dict[str, Any], after: dict[str, Any]) -> str:
    for key in before:
        if before[key] != after.get(key):
            if isinstance(before[key], list):
                for index, (a, b) in enumerate(zip(before[key], after.get(key) or [], strict=False)):
                    if a != b:
                        return f"{key}[{index}]: {json.dumps(a)[:160]} ≠ {json.dumps(b)[:160]}"
                return f"{key}: {len(before[key])} ≠ {len(after.get(key) or [])} items"
            return f"{key}: {json.dumps(before[key])[:160]} ≠ {json.dumps(after.get(key))[:160]}"
    return "?"


def _mark(value: float, target: float | None) -> str:
    if target is None:
        return "info"
    return "pass" if value >= target else "MISS"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for game in card_lists.LOADERS:
        parser.add_argument(f"--{game}", metavar="PATH", help=f"the {game} card list (see benchmarks/card_lists.py)")
    parser.add_argument("--labels", action="store_true", help="measure the hand labels (tests/data/printed)")
    parser.add_argument("--differential", action="store_true", help="the bundled files given by their text")
    parser.add_argument("--show", type=int, default=8, help="how many unread families to list per game")
    parser.add_argument("--json", metavar="OUT", help="also write every figure as JSON")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"pools": [], "labels": [], "differential": None}
    for game in card_lists.LOADERS:
        path = getattr(args, game)
        if path:
            figures = pool(game, path, args.show)
            report["pools"].append(figures)
            header_target, whole_target = TARGETS.get(game, (None, None))
            print(
                f"{game:12} {figures['with_trigger']:6,} of {figures['cards']:6,} cards with a triggered effect; "
                f"headers read {figures['headers_pct']:5.1f} % [{_mark(figures['headers_pct'], header_target)}"
                f"{f' ≥ {header_target:.0f} %' if header_target else ''}], "
                f"whole {figures['whole_pct']:5.1f} % [{_mark(figures['whole_pct'], whole_target)}"
                f"{f' ≥ {whole_target:.0f} %' if whole_target else ''}]; {figures['seconds']:.1f} s"
            )
            for family, count in figures["unread_families"]:
                print(f"    {count:5,} unread: {family} …")
            for why, count in figures["not_compiled"]:
                print(f"    {count:5,} read whole, not compiled: {why}")
    if args.labels:
        for game in card_lists.LOADERS:
            figures = labels(game)
            if figures is None:
                continue
            report["labels"].append(figures)
            print(
                f"{game:12} labels: {figures['cards_agree']}/{figures['labelled_cards']} cards agree "
                f"({figures['cards_pct']:.1f} %) [{_mark(figures['cards_pct'], LABEL_TARGET)} ≥ {LABEL_TARGET:.0f} %]; "
                f"{figures['abilities_agree']}/{figures['labelled_abilities']} abilities "
                f"({figures['abilities_pct']:.1f} %)"
            )
            for wrong in figures["disagreements"][: args.show]:
                print(f"    {wrong['id']} {wrong['name']}: labelled {wrong['labelled']}, read {wrong['read']}")
    if args.differential:
        figures = differential()
        report["differential"] = figures
        counted = {k: v for k, v in figures.items() if k not in ("files", "differs")}
        print(f"differential: {figures['files']} bundled files; " + ", ".join(f"{k}: {v}" for k, v in counted.items()))
        for line in figures["differs"]:
            print(f"    differs: {line}")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
