"""Gained abilities (``grant``): a card gains an ability that travels with
its pile, ends with the card's move or its duration, and saves and restores."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import run, scenario
from tcgtrig import DefaultChooser, Engine
from tcgtrig.scenario.serialization import state_from_dict, state_to_dict

GRANTER = """
    cards:
      - id: giver
        owner: A
        zone: hand
        abilities:
          - id: main
            kind: activated
            do:
              - grant:
                  card: mon
                  UNTIL
                  ability: {id: gained, when: {event: ping}, do: [{gain: {counter: n}}]}
      - {id: mon, owner: A, zone: battle}
      - {id: top, owner: A, zone: hand}
    start:
      - activate: giver.main
    """


def test_a_gained_ability_triggers_under_the_granters_key(plain):
    result = run(GRANTER.replace("UNTIL", "").rstrip(" ") + "      - emit: {event: ping}\n", plain)
    assert result.keys("resolved") == ["giver.main", "giver.gained"]
    assert result.state.counter("A", "n") == 1
    assert [s["event"] for s in result.trace if s.kind == "event"][0] == "gained_effect"


def test_it_travels_with_the_pile_when_the_card_is_covered(plain):
    result = run(
        GRANTER.replace("UNTIL", "")
        + """
      - stack: {card: top, onto: mon}
      - emit: {event: ping}
    """,
        plain,
    )
    assert result.keys("resolved") == ["giver.main", "giver.gained"]
    assert any(m.key == "giver.gained" for m in result.state.cards["top"].mods)


def test_it_ends_when_the_card_moves(plain):
    result = run(
        GRANTER.replace("UNTIL", "")
        + """
      - move: {card: mon, to: hand}
      - emit: {event: ping}
    """,
        plain,
    )
    assert result.keys("resolved") == ["giver.main"]


def test_it_ends_with_its_duration(plain):
    result = run(
        GRANTER.replace("UNTIL", "until: end_of_turn")
        + """
      - end_turn: {}
      - emit: {event: ping}
    """,
        plain,
    )
    assert result.keys("resolved") == ["giver.main"]


def test_a_gained_ability_round_trips_through_a_saved_state():
    compiled = scenario(GRANTER.replace("UNTIL", "")).compile(tcgtrig.load_ruleset("digimon"))
    ruleset = tcgtrig.load_ruleset("digimon")
    engine = Engine(ruleset, compiled.state, compiled.start).run(DefaultChooser())
    saved = state_to_dict(engine.state)
    assert saved["cards"][1]["mods"][0]["ability"]["id"] == "gained"
    restored = state_from_dict(saved, ruleset)
    start = scenario("cards: []\nstart: [{emit: {event: ping}}]\n").compile(ruleset).start
    again = Engine(ruleset, restored, start).run(DefaultChooser())
    assert [s["effect"] for s in again.trace if s.kind == "resolved"] == ["giver.gained"]


def test_a_gained_id_may_not_shadow_a_printed_one(plain):
    with pytest.raises(tcgtrig.TcgTrigError, match="already an ability printed on giver"):
        run(GRANTER.replace("UNTIL", "").replace("id: gained", "id: main"), plain)


def test_a_gained_ability_held_by_a_pile_triggers_once_and_follows_its_top_card():
    result = run(
        """
        cards:
          - id: giver
            owner: A
            zone: hand
            abilities:
              - id: main
                kind: activated
                do:
                  - grant: {card: mon, ability: {id: gained, when: {event: moved}, do: [{gain: {counter: n}}]}}
          - {id: mon, owner: A, zone: battle}
          - {id: under, owner: A, zone: sources, under: mon}
        start:
          - activate: giver.main
          - move: {card: mon, to: trash, alone: true}
        """,
        "digimon",
    )
    # the pile's top card left alone: the card under it now holds the gained ability,
    # which triggered once (not once more for the card that left) and resolves
    assert result.keys("triggered") == ["giver.gained"] and result.keys("resolved") == ["giver.main", "giver.gained"]
    assert any(m.key == "giver.gained" for m in result.state.cards["under"].mods)


def test_each_card_that_gained_a_once_per_turn_ability_has_its_own_use(plain):
    result = run(
        """
        cards:
          - id: giver
            owner: A
            zone: hand
            abilities:
              - id: main
                kind: activated
                do:
                  - grant: {card: [one, two], ability: {id: g, once_per_turn: true, when: ping, do: [{gain: {counter: n}}]}}
          - {id: one, owner: A, zone: battle}
          - {id: two, owner: A, zone: battle}
        start: [{activate: giver.main}, {emit: {event: ping}}]
        """,
        plain,
    )
    assert result.keys("resolved") == ["giver.main", "giver.g", "giver.g"]
    assert result.state.used == {"giver.g@one": 1, "giver.g@two": 1}


def test_a_grant_id_may_not_repeat_on_one_card(plain):
    with pytest.raises(tcgtrig.TcgTrigError, match="already grants an ability with id 'g'"):
        run(
            """
            cards:
              - {id: one, owner: A, zone: battle}
            start:
              - grant: {card: one, ability: {id: g, when: ping, do: []}}
              - grant: {card: one, ability: {id: g, when: pong, do: []}}
            """,
            plain,
        )


def test_a_granted_ability_is_checked_like_any_other(plain):
    with pytest.raises(tcgtrig.TcgTrigError, match=r"grant\.ability\.per_turn: expected an integer"):
        run(
            """
            cards: [{id: one, owner: A, zone: battle}]
            start: [{grant: {card: one, ability: {id: g, when: ping, per_turn: two, do: []}}}]
            """,
            plain,
        )


def test_a_saved_gained_ability_may_name_other_cards():
    ruleset = tcgtrig.load_ruleset("digimon")
    compiled = scenario("""
        cards:
          - {id: mon, owner: A, zone: battle}
          - {id: foe, owner: B, zone: battle}
        start:
          - grant: {card: mon, ability: {id: g, when: ping, do: [{move: {card: foe, to: trash}}]}}
        """).compile(ruleset)
    engine = Engine(ruleset, compiled.state, compiled.start).run(DefaultChooser())
    restored = state_from_dict(state_to_dict(engine.state), ruleset)
    start = scenario("cards: []\nstart: [{emit: {event: ping}}]\n").compile(ruleset).start
    again = Engine(ruleset, restored, start).run(DefaultChooser())
    assert again.state.cards["foe"].zone == "trash"
