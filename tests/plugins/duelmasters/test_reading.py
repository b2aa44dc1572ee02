"""Issue 38: Duel Masters printed text read into abilities (plugins/duelmasters/reading.py).

English texts: Latepate64/duel-masters-json (the TCG's DM-01 wording);
Japanese: super-pylori/duel-masters-cardlist (the OCG's card list, 「出たとき」
of the first sets and 「出した時」 of the later ones).  Each test names the
card and its set number.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import tcgtrig
from helpers import read_card, yaml_file
from tcgtrig.printed import Header, ReadAbility, Skipped

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "duelmasters"
DUELMASTERS = tcgtrig.load_ruleset("duelmasters")
CIP = {"event": "moved", "to": "battle", "card": "self"}
S_TRIGGER = {
    "tags": ["shield_trigger"],
    "active_in": "hand",
    "optional": True,
    "when": {"event": "broken", "card": "self"},
}
SPELL_REMINDER = "Shield trigger (When this spell is put into your hand from your shield zone, you may cast it immediately for no cost.)"


def read(text: str, types: tuple[str, ...] = ("creature",)) -> Any:
    reading = DUELMASTERS.read_text(text, types)
    assert reading is not None, "Duel Masters reads printed text"
    return reading


def only(text: str, types: tuple[str, ...] = ("creature",)) -> ReadAbility:
    reading = read(text, types)
    assert reading.whole, reading.all_unread()
    (ability,) = reading.abilities
    return ability


def compiles(reading: Any, zone: str = "battle", types: tuple[str, ...] = ("creature",)) -> None:
    read_card("duelmasters", reading, zone, types)


# -- English headers and bodies ------------------------------------------------


def test_put_into_the_battle_zone_you_may_draw():
    # Aqua Hulcus, DM-01 23/110
    ability = only("When you put this creature into the battle zone, you may draw a card.")
    assert ability.name == "cip"
    assert ability.data == {"active_in": "battle", "optional": True, "when": CIP, "do": [{"draw": 1}]}
    assert Header.of(ability.data).as_dict() == {
        "kind": "triggered",
        "event": "moved",
        "optional": True,
        "wording": "when",
        "once_per_turn": False,
        "speed": 1,
    }


def test_top_card_of_the_deck_into_the_mana_zone():
    # Bronze-Arm Tribe, DM-01 90/110
    ability = only(
        "When you put this creature into the battle zone, put the top card of your deck into your mana zone."
    )
    assert ability.data["do"] == [{"put_into_mana": {"zone": "deck", "owner": "self", "top": 1}}]


def test_up_to_two_creatures_from_the_graveyard():
    # Gigargon, DM-01 57/110
    ability = only(
        "When you put this creature into the battle zone, return up to 2 creatures from your graveyard to your hand."
    )
    assert ability.data["do"] == [
        {"return_to_hand": {"zone": "graveyard", "owner": "self", "types": ["creature"], "pick": 2, "upto": True}}
    ]


def test_end_of_your_turn_and_a_keyword_skipped():
    # Urth, Purifying Elemental, DM-01 S2/110
    reading = read(
        "Double breaker (This creature breaks 2 shields.)\nAt the end of each of your turns, you may untap this creature."
    )
    skipped, ability = reading.parts
    assert isinstance(skipped, Skipped) and "shields" in skipped.why
    assert ability.data == {
        "optional": True,
        "when": {"event": "end_of_turn", "player": "self"},
        "do": [{"untap": "self"}],
    }


def test_substitution_would_be_destroyed_instead():
    # Aqua Knight, DM-01 24/110
    ability = only("When this creature would be destroyed, return it to your hand instead.")
    assert ability.name == "substitute"
    assert ability.data == {
        "kind": "replacement",
        "when": {"event": "destroyed", "card": "self"},
        "do": [{"prevent": {}}, {"return_to_hand": "event.card"}],
    }


def test_shield_trigger_spell_is_the_spell():
    # Holy Awe, DM-01 6/110
    reading = read(f"{SPELL_REMINDER}\nTap all your opponent's creatures in the battle zone.", ("spell",))
    (ability,) = reading.abilities
    assert reading.whole and ability.name == "s_trigger"
    assert ability.data == {
        **S_TRIGGER,
        "do": [
            {"cast": "self"},
            {"tap": {"owner": "opponent", "zone": "battle"}},
            {"move": {"card": "self", "to": "graveyard"}},
        ],
    }
    compiles(reading, "shields", ("spell",))


def test_shield_trigger_creature_is_summoned():
    # Twister Fish, DM-05
    ability = only(
        "Shield trigger (When this creature is put into your hand from your shield zone, "
        "you may summon it immediately for no cost.)"
    )
    assert ability.data == {**S_TRIGGER, "do": [{"summon": "self"}]}


def test_power_attacker_as_the_bundled_files_write_it():
    # Deathblade Beetle, DM-01 S9/110
    reading = read("Power attacker +4000 (While attacking, this creature gets +4000 power.)\nDouble breaker")
    assert reading.whole
    bundled = yaml_file(SCENARIOS / "interactions-power-attacker-for-the-attack.yaml")
    written = bundled["cards"][0]["abilities"][0]
    ability = reading.abilities[0]
    assert ability.data == {key: written[key] for key in ("kind", "condition", "do")} | {
        "do": [{"power": {"card": "self", "by": 4000}}]
    }


def test_blocker_and_restrictions_are_skipped():
    # Acid Reflux, the Fleshboiler, DM-09 26/55
    reading = read(
        "Blocker (Whenever an opponent's creature attacks, you may tap this creature to stop the attack. "
        "Then the 2 creatures battle.)\nThis creature can't attack.\n"
        "Slayer (Whenever this creature battles, destroy the other creature after the battle.)"
    )
    blocker, restriction, slayer = reading.parts
    assert isinstance(blocker, Skipped) and "types: [blocker]" in blocker.why
    assert isinstance(restriction, Skipped)
    assert slayer.data == {"when": {"event": "lost_battle", "card": "self"}, "do": [{"destroy": "event.against"}]}
    compiles(reading)


def test_strike_back_as_the_bundled_file_writes_it():
    # rule7-strike-back.yaml's text (the wiki's paraphrase): the header reads, the paraphrase does not
    reading = read(
        "S・バック (fire): when a fire card is put into your hand from your shield zone, you may discard it; "
        "if you do, cast this spell for no cost.",
        ("spell",),
    )
    (ability,) = reading.abilities
    assert ability.data == {
        "tags": ["strike_back"],
        "active_in": "hand",
        "optional": True,
        "when": {"event": "broken", "card": {"owner": "self", "types": ["fire"]}},
        "cost": [{"discard": "event.card"}],
        "do": [{"cast": "self"}, {"move": {"card": "self", "to": "graveyard"}}],
    }
    assert ability.unread


def test_you_may_leading_an_unread_sentence_is_still_optional():
    # cross-game-battle-both-destroyed.yaml's text: "summon Bolshack Dragon" (a card by name) is not read
    reading = read("When this creature is destroyed, you may summon Bolshack Dragon from your hand.")
    (ability,) = reading.abilities
    assert Header.of(ability.data).optional and ability.unread


def test_a_spell_whose_effect_reads_nothing_is_unread():
    reading = read("Take an extra turn after this one.", ("spell",))
    assert reading.abilities == () and reading.unread == ("Take an extra turn after this one.",)


def test_unread_sentence_keeps_the_header():
    # Gigaberos, DM-01 55/110: the choice "X or destroy this creature" is not read
    reading = read(
        "When you put this creature into the battle zone, destroy 2 of your other creatures or destroy this creature."
    )
    (ability,) = reading.abilities
    assert Header.of(ability.data).event == "moved"
    assert ability.unread == ("destroy 2 of your other creatures or destroy this creature.",)
    assert not reading.whole and reading.unread == ()


def test_words_without_a_header_are_unread():
    reading = read("Whenever your opponent would choose a creature in the battle zone, he can't choose this one.")
    assert reading.abilities == () and reading.unread


def test_becomes_blocked_is_a_block_during_this_creatures_attack():
    # Coliseum Shell, DM-08 48/55
    ability = only("Whenever this creature becomes blocked, you may put the top card of your deck into your mana zone.")
    assert ability.data["when"] == {"event": "blocked", "player": "opponent"}
    assert ability.data["trigger_condition"] == {
        "all": [{"happened": {"event": "attacking", "card": "self"}}, {"not": {"happened": {"event": "end_of_attack"}}}]
    }


def test_shield_saver_is_a_substitution():
    # Nastasha, Channeler of Suns, DM-08 S1/55
    ability = only("When one of your shields would be broken, you may destroy this creature instead.")
    assert ability.data == {
        "kind": "replacement",
        "optional": True,
        "when": {"event": "broken", "player": "self"},
        "do": [{"prevent": {}}, {"destroy": "self"}],
    }


def test_draw_up_to_three_is_a_card_at_a_time():
    # Astral Warper, DM-04 2/55 (drawing n cards is drawing 1 card n times)
    ability = only("When you put this creature into the battle zone, draw up to 3 cards.")
    assert ability.data["do"] == [{"may": [{"draw": 1}, {"may": [{"draw": 1}, {"may": [{"draw": 1}]}]}]}]


def test_tap_ability_is_activated_by_tapping():
    # Aeropica, DM-06 3/110
    reading = read(
        "Instead of having this creature attack, you may tap it to use its $tap ability.\n"
        "$tap Choose a creature in the battle zone and return it to its owner's hand."
    )
    skipped, ability = reading.parts
    assert isinstance(skipped, Skipped) and reading.whole
    assert ability.data == {
        "kind": "activated",
        "cost": [{"tap": "self"}],
        "do": [{"return_to_hand": {"zone": "battle", "pick": 1}}],
    }
    compiles(reading)


# -- Japanese ----------------------------------------------------------------


def test_japanese_first_sets_deta_toki():
    # アクア・ハルカス, DM1 80/110
    ability = only("このクリーチャーがバトルゾーンに出たとき、カードを1枚引いてよい。")
    assert ability.data == {"active_in": "battle", "optional": True, "when": CIP, "do": [{"draw": 1}]}


def test_japanese_return_a_creature():
    # 一角魚, DM1 20/110
    ability = only(
        "このクリーチャーがバトルゾーンに出たとき、バトルゾーンにあるクリーチャーを1体選び、持ち主の手札に戻してよい。"
    )
    assert ability.data["optional"] is True
    assert ability.data["do"] == [{"return_to_hand": {"zone": "battle", "pick": 1}}]


def test_japanese_s_trigger_spell():
    # デーモン・ハンド, DM18 35/140
    reading = read(
        "S・トリガー(この呪文をシールドゾーンから手札に加える時、コストを支払わずにすぐ唱えてもよい)\n相手のクリーチャーを1体破壊する。",
        ("spell",),
    )
    (ability,) = reading.abilities
    assert reading.whole
    assert ability.data["do"][1] == {"destroy": {"owner": "opponent", "zone": "battle", "pick": 1}}
    assert {key: ability.data[key] for key in S_TRIGGER} == S_TRIGGER


def test_japanese_substitution():
    # アクア・ナイト, DM18 27/140
    ability = only("このクリーチャーが破壊される時、墓地に置くかわりに自分の手札に戻す。")
    assert ability.data["kind"] == "replacement"
    assert ability.data["do"] == [{"prevent": {}}, {"return_to_hand": "event.card"}]


def test_japanese_choose_then_the_chosen_creature():
    # DM6 46/110: 「…1体選ぶ。…そのクリーチャーのパワーは+4000される。」
    reading = read(
        "S(シールド)・トリガー(この呪文をシールドゾーンから手札に加えるとき、コストを支払わずにすぐ唱えてよい)\n"
        "バトルゾーンにある、自分の「ブロッカー」を持つクリーチャーを1体選ぶ。"
        "このターンが終わるまで、そのクリーチャーのパワーは+4000される。",
        ("spell",),
    )
    assert reading.whole
    chosen = {"zone": "battle", "owner": "self", "has": "blocker", "pick": 1}
    assert reading.abilities[0].data["do"][1] == {"power": {"card": chosen, "by": 4000, "until": "end_of_turn"}}


def test_japanese_ninja_strike_reads_its_mana_not_its_block():
    # 斬隠オロチ, DM29 2/55: ニンジャ・ストライク 7 (as cr-usage-declarations-turn-player-first.yaml writes it)
    reading = read("ニンジャ・ストライク 7")
    (ability,) = reading.abilities
    assert ability.data == {
        "tags": ["ninja_strike"],
        "active_in": "hand",
        "optional": True,
        "when": {"event": "attacking", "player": "opponent"},
        "trigger_condition": {"count": {"zone": "mana", "owner": "self"}, "gte": 7},
        "do": [{"summon": "self"}],
    }
    assert ability.unread == ("またはブロックした時 (or blocks)",)


# -- read from text, resolved as the bundled file -----------------------------


@pytest.mark.parametrize("language", ["en", "ja"])
def test_shield_trigger_read_from_text_resolves_as_the_bundled_file(language):
    """rule7-shield-trigger-first.yaml (the seed's rule 7): its Shield Trigger
    spell given by its printed text instead of its hand-written ability
    resolves in the same order, to the same zones."""
    bundled = yaml_file(SCENARIOS / "rule7-shield-trigger-first.yaml")
    data = copy.deepcopy(bundled)
    text = {
        "en": f"{SPELL_REMINDER}\nDestroy one of your opponent's creatures that has power 3000 or less.",
        "ja": "S・トリガー\n相手のパワー3000以下のクリーチャーを1体破壊する。",
    }[language]
    abilities = read(text, ("spell",)).scenario(first_id="trigger")
    data["cards"][1]["abilities"] = abilities
    result = tcgtrig.resolve(tcgtrig.scenario_from_data(data), DUELMASTERS)
    expected = bundled["expect"]["duelmasters"]
    assert result.keys("resolved") == expected["resolved"]
    assert {card: result.state.cards[card].zone for card in expected["zones"]} == expected["zones"]


# -- headers read by who and what (read-dm2) ------------------------------------


def test_a_race_is_read_as_a_type_of_the_event_card():
    # Simian Warrior Grash, DM-09 43/55
    ability = only(
        "Whenever one of your Armorloids is destroyed, your opponent chooses a card in his mana zone "
        "and puts it into his graveyard."
    )
    assert ability.data["when"] == {"event": "destroyed", "card": {"types": ["armorloid"], "owner": "self"}}


def test_two_trigger_events_are_two_abilities_and_both_trigger():
    """Aqua Rider, DM-06 31/110: "summons a creature or casts a spell" — one
    ability per trigger event (603.2): B's summon and B's cast each set one
    off (the body, a granted Blocker, is unread)."""
    reading = read(
        'Whenever your opponent summons a creature or casts a spell, this creature gets "blocker" until the end '
        'of the turn. (Whenever an opponent\'s creature attacks, you may tap a creature that has "blocker" '
        "to stop the attack. Then the 2 creatures battle.)"
    )
    assert [Header.of(a.data).event for a in reading.abilities] == ["summoned", "cast"]
    assert [a.data["when"]["card"] for a in reading.abilities] == ["opponent", "opponent"]
    assert reading.all_unread() == ['this creature gets "blocker" until the end of the turn.'] * 2
    data = {
        "format": 1,
        "title": "Aqua Rider's two events",
        "game": "duelmasters",
        "players": ["A", "B"],
        "turn_player": "B",
        "cards": [
            {"id": "rider", "owner": "A", "zone": "battle", "types": ["creature"], "abilities": reading.scenario()},
            {"id": "b_creature", "owner": "B", "zone": "hand", "types": ["creature"]},
            {"id": "b_spell", "owner": "B", "zone": "hand", "types": ["spell"]},
        ],
        "start": [{"summon": "b_creature"}, {"resolve_pending": {}}, {"cast": "b_spell"}, {"resolve_pending": {}}],
    }
    result = tcgtrig.resolve(tcgtrig.scenario_from_data(data), DUELMASTERS)
    assert result.keys("resolved") == ["rider.opponent_summons", "rider.opponent_casts"]


def test_attacking_and_not_blocked_reads_its_header():
    # Trixo, Wicked Doll, DM-09 33/55: the header is the attack; "isn't blocked" is unread
    reading = read(
        "Whenever this creature is attacking your opponent and isn't blocked, your opponent chooses one of his "
        "creatures and destroys it."
    )
    (ability,) = reading.abilities
    header = Header.of(ability.data)
    assert (header.kind, header.event, header.optional) == ("triggered", "attacking", False)
    assert ability.data["do"] == [
        {"destroy": {"owner": "opponent", "zone": "battle", "pick": 1, "chooser": "opponent"}}
    ]
    assert ability.unread == ("and isn't blocked: the attack once no block was declared",)


def test_loses_a_battle_instead_is_a_substitute_for_the_destruction():
    # Gashi Gashi, the Brave Puppet, DM-13 34/55: "… instead" makes it a substitute even where the body is unread
    reading = read(
        "(This creature is put into your mana zone tapped.)\nWhen this creature loses a battle, put this creature "
        "and the other creature into their owner's mana zone instead."
    )
    (ability,) = reading.abilities
    assert ability.data["kind"] == "replacement"
    assert ability.data["when"] == {"event": "destroyed", "card": "self", "by": "battle"}
    assert ability.unread == ("put this creature and the other creature into their owner's mana zone instead.",)


def test_after_this_creature_attacks_is_the_end_of_its_attack():
    # Frenzy Drum, DM-15 27/55
    reading = read(
        "Blocker (Whenever an opponent's creature attacks, you may tap this creature to stop the attack. "
        "Then the 2 creatures battle.)\nAfter this creature attacks, destroy this creature."
    )
    assert reading.whole
    assert reading.abilities[0].data == {
        "trigger_condition": {"happened": {"event": "attacking", "card": "self"}},
        "when": {"event": "end_of_attack"},
        "do": [{"destroy": "self"}],
    }
    compiles(reading)


def test_you_may_after_an_if_clause_with_a_comma_is_optional():
    # Beinz Sayla, Guardian of Cleansing Light, DM-15 39/55: the name in the condition holds a comma
    reading = read(
        "When you put this creature into the battle zone, if you have a Beinz Sayla, Guardian of Cleansing Light "
        "in your graveyard, you may choose one of your opponent's creatures in the battle zone and tap it."
    )
    header = Header.of(reading.abilities[0].data)
    assert (header.kind, header.event, header.optional) == ("triggered", "moved", True)


def test_a_civilization_slayer_reads_its_header():
    # Gigakail, DM-05 26/55: Slayer only against nature and light creatures (that condition unread)
    reading = read(
        "Nature and light slayer (Whenever this creature battles a nature or light creature, destroy the nature "
        "or light creature after the battle.)"
    )
    (ability,) = reading.abilities
    assert ability.data == {"when": {"event": "lost_battle", "card": "self"}, "do": [{"destroy": "event.against"}]}
    assert ability.unread == ("Nature and light (only against those civilizations)",)


def test_japanese_unblocked_reads_its_header():
    # 妖魔賢者メルカプ, DM13 26/55
    reading = read(
        "マナゾーンに置く時、このカードはタップして置く。\n"
        "このクリーチャーが相手プレイヤーを攻撃してブロックされなかった時、バトルゾーンにある相手のクリーチャーをすべてタップする。"
    )
    (ability,) = reading.abilities
    assert ability.data["when"] == {"event": "attacking", "card": "self"}
    assert ability.data["do"] == [{"tap": {"zone": "battle", "owner": "opponent"}}]
    assert len(ability.unread) == 1 and "ブロックされなかった" in ability.unread[0]
