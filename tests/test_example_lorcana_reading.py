"""Lorcana's printed text read into abilities (issue 38): the example
package reads its own text with its own grammar
(examples/games/lorcana/tcgtrig_lorcana/lorcana.lark).  Texts are real
cards' (set-number as TheCardGoat/tcg-engines' Lorcana card list numbers
them)."""

from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest
import tcgtrig
import yaml
from tcgtrig.printed import Header, Skipped

ROOT = Path(__file__).resolve().parents[1]

if "lorcana" not in tcgtrig.available_games():
    if os.environ.get("TCGTRIG_REQUIRE_EXAMPLE_GAMES"):
        raise RuntimeError("the lorcana example game is not installed: pip install -e examples/games/lorcana")
    pytest.skip("the lorcana example game is not installed", allow_module_level=True)

RULESET = tcgtrig.load_ruleset("lorcana")
PLAYED = {"event": "moved", "to": "play", "card": "self"}


def read(text: str, types: tuple[str, ...] = ("character",)) -> tcgtrig.printed.Reading:
    return RULESET.read_text(text, types)


def test_the_ability_name_in_capitals_is_its_id_hidden_inkcaster_set4_98():
    (ability,) = read("FRESH INK When you play this item, draw a card.", ("item",)).abilities
    assert (ability.name, ability.data) == ("fresh_ink", {"when": PLAYED, "do": [{"draw": 1}]})


def test_you_may_draw_a_card_is_optional_maleficent_sorceress_set1_49():
    (ability,) = read("CAST MY SPELL! When you play this character, you may draw a card.").abilities
    assert ability.data == {"when": PLAYED, "optional": True, "do": [{"draw": 1}]}
    assert Header.of(ability.data).as_dict() == {
        "kind": "triggered",
        "event": "moved",
        "optional": True,
        "wording": "when",
        "once_per_turn": False,
        "speed": 1,
    }


def test_chosen_is_chosen_as_it_resolves_maleficent_monstrous_dragon_set1_113():
    (ability,) = read("DRAGON FIRE When you play this character, you may banish chosen character.").abilities
    assert ability.data == {
        "when": PLAYED,
        "optional": True,
        "do": [{"banish": {"zone": "play", "types": ["character"], "pick": 1}}],
    }


def test_when_this_character_is_banished_gramma_tala_set1_146():
    (ability,) = read(
        "I WILL BE WITH YOU When this character is banished, you may put this card into your inkwell facedown and exerted."
    ).abilities
    assert ability.data == {
        "when": {"event": "banished", "card": "self"},
        "optional": True,
        "do": [{"move": {"card": "self", "to": "inkwell", "as": "inked", "flags": ["face_down", "exerted"]}}],
    }


def test_quests_and_damage_to_chosen_opposing_character():
    (ability,) = read(
        "THIS CHANGES EVERYTHING Whenever this character quests, you may deal 3 damage to chosen damaged character."
    ).abilities  # Helga Sinclair - Femme Fatale, set 3-74
    assert ability.data == {
        "when": {"event": "quested", "card": "self"},
        "optional": True,
        "do": [
            {
                "deal_damage": {
                    "card": {"zone": "play", "stat": {"damage": {"gte": 1}}, "types": ["character"], "pick": 1},
                    "amount": 3,
                }
            }
        ],
    }


def test_keywords_are_skipped_and_an_unread_sentence_is_reported_donald_duck_perfect_gentleman_set2_77():
    reading = read("Shift 3\nALLOW ME At the start of your turn, each player may draw a card.")
    shift, allow_me = reading.parts
    assert isinstance(shift, Skipped) and shift.words == "Shift 3"
    assert allow_me.data["when"] == {"event": "start_of_turn", "player": "self"}
    assert allow_me.unread == ("each player may draw a card.",)
    assert reading.unread == () and not reading.whole


def test_lore_lost_and_a_sentence_left_unread_ursula_power_hungry_set1_59():
    (ability,) = read(
        "IT'S TOO EASY! When you play this character, each opponent loses 1 lore. "
        "You may draw a card for each 1 lore lost this way."
    ).abilities
    assert ability.data["do"] == [{"lose": {"player": "opponent", "counter": "lore", "amount": 1}}]
    assert ability.unread == ("You may draw a card for each 1 lore lost this way.",)


def test_during_your_turn_is_a_trigger_condition_and_what_no_pattern_says_is_unread_kronk_set2_185():
    reading = read(
        "Resist +1\nSCOUT LEADER During your turn, whenever this character banishes another character in a "
        "challenge, you may deal 2 damage to chosen character."
    )
    (ability,) = reading.abilities
    assert ability.data == {
        "when": {"event": "banished", "by": "battle", "card": {"types": ["character"], "exclude": "self"}},
        "trigger_condition": {"turn": "self"},
        "optional": True,
        "do": [{"deal_damage": {"card": {"zone": "play", "types": ["character"], "pick": 1}, "amount": 2}}],
    }
    # the banishing character is no key of a trigger pattern: the header reads, the words stay unread
    assert ability.unread == ("banishes another character in a challenge",)


def test_a_trigger_that_does_not_read_leaves_the_line_unread_the_bayou_set3_204():
    line = (
        "SHOW ME THE WAY Whenever a character quests while here, you may draw a card, then choose and discard a card."
    )
    reading = read(line, ("location",))
    assert reading.abilities == () and reading.unread == (line,)


def test_if_you_have_a_character_named_is_read_as_the_effect_resolves_elsa_trusted_sister_set7_55():
    (ability,) = read(
        "WHAT DO WE DO NOW? Whenever this character quests, if you have a character named Anna in play, gain 1 lore."
    ).abilities
    named = {"zone": "play", "owner": "self", "types": ["character"], "name": "Anna"}
    assert ability.data == {
        "when": {"event": "quested", "card": "self"},
        "do": [{"if": {"count": named, "gte": 1}, "then": [{"gain_lore": 1}]}],
    }


def test_gain_lore_when_others_are_banished_read_from_text_resolves_as_the_written_file_cr_7_4_3():
    """The Watcher of cr-7-4-3-three-banished-at-once-trigger-three-times.yaml
    given by its printed text alone: three of A's characters banished at
    once, it triggers three times, A gains 3 lore — as written."""
    path = ROOT / "examples/games/lorcana/scenarios/cr-7-4-3-three-banished-at-once-trigger-three-times.yaml"
    data = yaml.safe_load(path.read_text())
    written = tcgtrig.resolve(tcgtrig.scenario_from_data(copy.deepcopy(data), str(path)), "lorcana")
    watcher = next(card for card in data["cards"] if card["id"] == "watcher")
    watcher["abilities"] = read(watcher["abilities"][0]["text"]).scenario(first_id="see")
    scenario = tcgtrig.scenario_from_data(data, str(path))
    result = tcgtrig.resolve(scenario, "lorcana")
    expectation = scenario.compile(RULESET).expect
    assert expectation is not None and tcgtrig.check_expectation(result, expectation) == []
    assert result.keys("resolved") == written.keys("resolved") == ["watcher.see"] * 3


def test_a_chosen_character_with_at_most_n_strength_madame_medusa_set3_112():
    reading = read(
        "THAT TERRIBLE WOMAN When you play this character, banish chosen opposing character with 3 {S} or less."
    )
    (ability,) = reading.abilities
    assert ability.data["do"] == [
        {
            "banish": {
                "zone": "play",
                "owner": "opponent",
                "types": ["character"],
                "stat": {"strength": {"lte": 3}},
                "pick": 1,
            }
        }
    ]
