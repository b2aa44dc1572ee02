"""A response whose words read only its own card and some zones is asked
about again only when a card of those zones changed (issue 40 item 1:
kept between windows unless what it reads changed): what its words read
(:func:`tcgtrig.runtime.window_reads.zones_read`), and random chains of
such responses against windows that ask about everything."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import tcgtrig
from helpers import scenario
from tcgtrig.runtime.activation import Activating
from tcgtrig.runtime.window_reads import zones_read

from tests.core.test_responders_review import assert_same_as_asking_everything

ROOT = Path(__file__).resolve().parents[2]


def words(text: str) -> Any:
    """The one ability of card ``c`` in a position of these words."""
    position = scenario(
        "game: yugioh\ncards:\n  - {id: c, owner: A, zone: hand, abilities: [{id: e, kind: activated, speed: 2, "
        + text
        + ", do: [{lp: 1}]}]}\n  - {id: d, owner: B, zone: field}\nstart: []\n"
    )
    return tcgtrig.scenario.reading.bind(position, "yugioh").compiled.state.cards["c"].abilities[0]


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("cost: [{discard: self}], target: {zone: graveyard, owner: opponent, pick: 1}", {"graveyard"}),
        ("condition: {count: {zone: [field, hand], types: [monster]}, gte: 2}", {"field", "hand"}),
        ("condition: {all: [{card: self, in: hand}, {not: {count: {zone: banished}, gte: 3}}]}", {"banished"}),
        ("cost: [{move: {card: self, to: graveyard}}]", set()),
        ("cost: [{lp: -1000}]", None),  # a counter
        ("condition: {player: self, counter: lp, gte: 1000}", None),
        ("condition: {card: d, in: field}", None),  # a named card
        ("target: {zone: field, stat: {atk: {gte: 1000}}, pick: 1}", None),  # a stat
        ("target: {pick: 1}", None),  # every zone
        ("cost: [{discard: {zone: hand, owner: self, pick: 1}}]", None),  # another card paid
        ("condition: {mark: m}", None),
    ],
)
def test_what_words_read(text, read):
    found = zones_read(words(text), stats_vary=False)
    assert found == (None if read is None else frozenset(read))


ZONES = ["hand", "field", "graveyard", "banished"]


def reader(rng: random.Random) -> dict[str, Any]:
    """An activated ability whose words read some zones (and its own card)."""
    ability: dict[str, Any] = {"id": "e", "kind": "activated", "speed": rng.choice([2, 2, 3])}
    zone = rng.choice(ZONES)
    ability["active_in"] = rng.choice(["hand", "field"])
    roll = rng.random()
    query: dict[str, Any] = {"zone": zone, "owner": rng.choice(["self", "opponent", "any"])}
    if rng.random() < 0.4:
        query[rng.choice(["flag", "no_flag"])] = "face_down"
    if rng.random() < 0.3:
        query["types"] = [rng.choice(["monster", "spell"])]
    if roll < 0.5:
        ability["target"] = {**query, "pick": rng.choice([1, 1, 2])}
    else:
        ability["condition"] = {"count": query, rng.choice(["gte", "lte"]): rng.randint(0, 2)}
    if rng.random() < 0.5:
        ability["cost"] = [rng.choice([{"discard": "self"}, {"move": {"card": "self", "to": "banished"}}])]
    return ability


def actions(rng: random.Random, ids: list[str]) -> list[dict[str, Any]]:
    other = rng.choice(ids)
    return [
        rng.choice(
            [
                {"move": {"card": other, "to": rng.choice(ZONES)}},
                {"flag": {"card": other, "set": "face_down"}},
                {"flag": {"card": other, "clear": "face_down"}},
                {"lp": -100},
                {"banish": {"zone": "graveyard", "pick": 1}},
                {"draw": 1},
            ]
        )
    ]


def zone_chain(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    ids = [f"c{i}" for i in range(rng.randint(16, 40))]  # a table larger than what changes at once
    cards: list[dict[str, Any]] = []
    for card_id in ids:
        ability = reader(rng) if rng.random() < 0.8 else {"id": "e", "kind": "activated", "speed": 2}
        ability["do"] = actions(rng, ids)
        cards.append(
            {
                "id": card_id,
                "owner": rng.choice(["A", "B"]),
                "zone": rng.choice(ZONES),
                "types": [rng.choice(["monster", "spell"])],
                "flags": ["face_down"] if rng.random() < 0.3 else [],
                "abilities": [ability],
            }
        )
    cards += [{"id": f"deck_{p.lower()}{i}", "owner": p, "zone": "deck"} for p in "AB" for i in range(3)]
    cards.append(
        {
            "id": "starter",
            "owner": "A",
            "zone": "field",
            "abilities": [{"id": "main", "kind": "activated", "do": [{"lp": 1}]}],
        }
    )
    return {
        "format": 1,
        "title": "random zone readers",
        "players": ["A", "B"],
        "turn_player": "A",
        "counters": {"A": {"lp": 8000}, "B": {"lp": 8000}},
        "cards": cards,
        "start": [{"activate": "starter.main"}],
    }


def test_the_random_zone_readers_do_keep_answers():
    """The generator's positions have responses asked about less than at every window."""
    kept = 0
    for seed in range(20):
        position = tcgtrig.scenario_from_data(zone_chain(seed), "<zone chain>", check_game=False)
        kept += sum(
            1
            for (_, _, ability) in tcgtrig.Engine.for_scenario(position, "yugioh").machine.index.activated
            if zones_read(ability, False)
        )
    assert kept >= 100


def test_random_zone_readers_offer_what_asking_everything_offers():
    responds = 0
    for seed in range(60):
        position = tcgtrig.scenario_from_data(zone_chain(seed), "<zone chain>", check_game=False)
        responds += assert_same_as_asking_everything(position, "yugioh", seed)
    assert responds >= 200  # the positions do build chains


def test_a_chain_of_crows_asks_one_question_a_link(monkeypatch):
    """Each window asks about its player's Crows once (one group, whose
    target's zone changed), and a Crow chosen is not asked about again as
    it activates."""
    asked: list[str] = []
    real = Activating.activation_failure

    def counting(self: Any, effect: Any, *args: Any) -> Any:
        asked.append(effect.key)
        return real(self, effect, *args)

    monkeypatch.setattr(Activating, "activation_failure", counting)
    result = tcgtrig.resolve(tcgtrig.load_scenario(ROOT / "benchmarks" / "positions" / "responses-50.yaml"))
    assert len(result.chains()[0]) == 51
    crows = [key for key in asked if key.startswith("crow_")]
    assert len(crows) <= 51, len(
        crows
    )  # at b3a8c99: 700 (each Crow in the hand, at each window, and again as it activates)
