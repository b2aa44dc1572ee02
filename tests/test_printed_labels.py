"""The hand-labelled printed headers of tests/data/printed/ (issue 38 item 5)
have the shape the reading benchmark expects.

Each file holds cards drawn at random from a public card list
(``benchmarks/label_sample.py``) with every triggered ability's header
labelled by hand.  These tests check the files only: at least 100 cards with
a triggered ability, at most 200 texts a game, and every header with the six
fields of :class:`tcgtrig.printed.Header`, each with a legal value (its event
one that docs/events.md lists for the game or the core).  How far the
game's reader agrees with the labels is measured by the benchmark, not here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from tcgtrig.printed import Header
from tcgtrig.printed.reading import TRIGGERED_KINDS

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "printed"
GAMES = ("digimon", "yugioh", "duelmasters")
FIELDS = ("kind", "event", "optional", "wording", "once_per_turn", "speed")


def _events() -> dict[str, set[str]]:
    """Event names per section of docs/events.md (``core`` for the core's)."""
    text = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    sections: dict[str, set[str]] = {}
    for chunk in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        title, _, body = chunk.partition("\n")
        key = "core" if title.strip() == "The core" else (re.findall(r"\(`(\w+)`\)", title) or [title])[0]
        events = body.split("\nZones")[0]  # the zones follow the events
        sections[key] = set(re.findall(r"`(\w+)`", events.partition(":")[2]))
    return sections


EVENTS = _events()


def _load(game: str) -> dict[str, Any]:
    data = yaml.safe_load((DATA / f"{game}.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{game}.yaml: a mapping with source, draw and cards"
    return data


def test_events_md_was_read():
    assert {"moved", "end_of_turn", "start_of_turn"} <= EVENTS["core"]
    assert "digivolved" in EVENTS["digimon"] and "broken" in EVENTS["duelmasters"]
    assert "special_summoned" in EVENTS["yugioh"]


@pytest.mark.parametrize("game", GAMES)
def test_file_names_its_source_and_draw(game):
    data = _load(game)
    assert data["game"] == game
    source = data["source"]
    for key in ("repository", "path", "commit", "licence"):
        assert source.get(key), f"{game}.yaml: source.{key} is missing"
    assert re.fullmatch(r"[0-9a-f]{40}", source["commit"]), source["commit"]
    assert data["draw"].startswith(f"python benchmarks/label_sample.py {game} ")
    assert "--seed 38" in data["draw"]


@pytest.mark.parametrize("game", GAMES)
def test_counts(game):
    cards = _load(game)["cards"]
    assert len(cards) <= 200, f"{game}: {len(cards)} texts, at most 200"
    labelled = [card for card in cards if card["headers"]]
    assert len(labelled) >= 100, f"{game}: {len(labelled)} cards with a triggered ability, at least 100"
    assert len({str(card["id"]) for card in cards}) == len(cards), f"{game}: a card drawn twice"


@pytest.mark.parametrize("game", GAMES)
def test_every_card_and_header_is_well_formed(game):
    legal = EVENTS["core"] | EVENTS[game]
    for card in _load(game)["cards"]:
        where = f"{game}.yaml {card.get('id')}"
        assert {"id", "name", "types", "text", "headers"} <= set(card), where
        assert isinstance(card["text"], str) and card["text"].strip(), where
        assert isinstance(card["types"], list), where
        if not card["headers"]:
            assert card.get("note") == "no triggered effect", f"{where}: an empty card says why"
        for header in card["headers"]:
            assert set(header) == {"words", *FIELDS}, f"{where}: fields {sorted(header)}"
            assert isinstance(header["words"], str) and header["words"].strip(), where
            # an ability that waits for an event: a triggered kind, or an activated one with an activation
            # condition (a Quick Effect's or a Spell/Trap Card's When), as the benchmark compares them
            assert header["kind"] in (*TRIGGERED_KINDS, "activated"), f"{where}: kind {header['kind']!r}"
            # several events, any of them ("normal_summoned or tribute_summoned"): each one is legal
            unknown = [event for event in header["event"].split(" or ") if event not in legal]
            assert not unknown, f"{where}: event {unknown[0]!r} is not in docs/events.md"
            assert isinstance(header["optional"], bool) and isinstance(header["once_per_turn"], bool), where
            assert header["wording"] in ("when", "if"), where
            assert header["speed"] in (1, 2, 3), where
            if game != "yugioh":
                assert header["wording"] == "when" and header["speed"] == 1, f"{where}: Yu-Gi-Oh! fields"


@pytest.mark.parametrize("game", GAMES)
def test_labels_compare_as_headers(game):
    """A label is a :class:`Header` as the benchmark builds one from a reading."""
    for card in _load(game)["cards"]:
        for header in card["headers"]:
            data = {"kind": header["kind"], "when": {"event": header["event"]}, "optional": header["optional"]}
            data |= {"wording": header["wording"], "once_per_turn": header["once_per_turn"], "speed": header["speed"]}
            assert Header.of(data).as_dict() == {key: header[key] for key in FIELDS}
