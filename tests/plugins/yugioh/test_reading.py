"""Yu-Gi-Oh! printed text read into abilities (issue 38): the header of
each template family (event, kind, optional, "When"/"If", once per turn,
spell speed), the body read, the words left unread, and a position whose
cards are read from their printed text resolving like the hand-written
file.

Texts are the printed English card texts (yaml-yugi, DawnbrandBots/yaml-yugi
data/cards), each test naming the card and its password.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import tcgtrig
from helpers import read_card, yaml_file
from tcgtrig.plugins.yugioh.reading import READER
from tcgtrig.printed import Header, Skipped

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "yugioh"
MONSTER = ("monster", "effect")


def read_one(text: str, types=MONSTER):
    reading = READER.read(text, types)
    assert len(reading.abilities) == 1, reading
    return reading.abilities[0]


def header(text: str, types=MONSTER) -> dict:
    return Header.of(read_one(text, types).data).as_dict()


def compiles(reading, types=MONSTER, zone: str = "field") -> None:
    read_card("yugioh", reading, zone, types)


# -- headers ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "text", "types", "expected"),
    [
        (
            # Peten the Dark Clown (52624755): "When …: You can" misses the timing
            "Peten the Dark Clown",
            'When this card is sent to the GY: You can banish this card from your GY; Special Summon 1 "Peten the Dark Clown" from your hand or Deck.',
            MONSTER,
            {
                "kind": "triggered",
                "event": "moved",
                "optional": True,
                "wording": "when",
                "once_per_turn": False,
                "speed": 1,
            },
        ),
        (
            # Mermail Abysshilde (22446869): "If …: You can", hard once per turn
            "Mermail Abysshilde",
            'If this card is sent to the GY: You can Special Summon 1 "Mermail" monster from your hand, except "Mermail Abysshilde". You can only use this effect of "Mermail Abysshilde" once per turn.',
            MONSTER,
            {
                "kind": "triggered",
                "event": "moved",
                "optional": True,
                "wording": "if",
                "once_per_turn": True,
                "speed": 1,
            },
        ),
        (
            # Caius the Shadow Monarch (9748752): mandatory "If", Tribute Summoned
            "Caius the Shadow Monarch",
            "If this card is Tribute Summoned: Target 1 card on the field; banish that target, and if you do, inflict 1000 damage to your opponent if it is a DARK monster.",
            MONSTER,
            {
                "kind": "triggered",
                "event": "tribute_summoned",
                "optional": False,
                "wording": "if",
                "once_per_turn": False,
                "speed": 1,
            },
        ),
        (
            # Torrential Tribute (53582587): a Trap Card's activation, speed 2, with its condition in `when` (its event is in the header: Header.of keeps it);
            # "a monster(s) is Summoned" is any Summon (a list of events, any of them)
            "Torrential Tribute",
            "When a monster(s) is Summoned: Destroy all monsters on the field.",
            ("trap",),
            {
                "kind": "activated",
                "event": "normal_summoned or tribute_summoned or flip_summoned or special_summoned",
                "optional": False,
                "wording": "when",
                "once_per_turn": False,
                "speed": 2,
            },
        ),
        (
            # Solemn Judgment (41420027): a Counter Trap, speed 3
            "Solemn Judgment",
            "When a monster(s) would be Summoned, OR a Spell/Trap Card is activated: Pay half your LP; negate the Summon or activation, and if you do, destroy that card.",
            ("trap", "counter"),
            {
                "kind": "activated",
                "event": "normal_summoned or tribute_summoned or flip_summoned or special_summoned",
                "optional": False,
                "wording": "when",
                "once_per_turn": False,
                "speed": 3,
            },
        ),
        (
            # Mystical Space Typhoon (5318639): a Quick-Play Spell, speed 2
            "Mystical Space Typhoon",
            "Target 1 Spell/Trap on the field; destroy that target.",
            ("spell", "quick_play"),
            {
                "kind": "activated",
                "event": None,
                "optional": False,
                "wording": "when",
                "once_per_turn": False,
                "speed": 2,
            },
        ),
        (
            # D.D. Crow (24508238): a Quick Effect, speed 2
            "D.D. Crow",
            "(Quick Effect): You can discard this card to the GY, then target 1 card in your opponent's GY; banish that target.",
            MONSTER,
            {
                "kind": "activated",
                "event": None,
                "optional": False,
                "wording": "when",
                "once_per_turn": False,
                "speed": 2,
            },
        ),
        (
            # Gale Dogra (16229315): an Ignition Effect, speed 1
            "Gale Dogra",
            "You can pay 3000 LP; send 1 monster from your Extra Deck to the GY.",
            MONSTER,
            {
                "kind": "activated",
                "event": None,
                "optional": False,
                "wording": "when",
                "once_per_turn": False,
                "speed": 1,
            },
        ),
        (
            # Mystic Tomato (83011277): destroyed by battle
            "Mystic Tomato",
            "When this card is destroyed by battle and sent to the GY: You can Special Summon 1 DARK monster with 1500 or less ATK from your Deck, in Attack Position.",
            MONSTER,
            {
                "kind": "triggered",
                "event": "destroyed",
                "optional": True,
                "wording": "when",
                "once_per_turn": False,
                "speed": 1,
            },
        ),
        (
            # Cyber Dragon Herz (56364287, first effect): soft once per turn before the condition
            "Aromage Jasmine (as the seed writes it)",
            "Once per turn, if this card is Special Summoned: You can gain 500 LP.",
            MONSTER,
            {
                "kind": "triggered",
                "event": "special_summoned",
                "optional": True,
                "wording": "if",
                "once_per_turn": True,
                "speed": 1,
            },
        ),
        (
            # Solemn Wishes (35346968): "Each time …, …" is a Trigger Effect with no colon; a Trap's effect is speed 2
            "Solemn Wishes",
            "Each time you draw a card(s), gain 500 LP.",
            ("trap", "continuous"),
            {
                "kind": "triggered",
                "event": "drawn",
                "optional": False,
                "wording": "when",
                "once_per_turn": False,
                "speed": 2,
            },
        ),
    ],
)
def test_the_header_of_each_template(card, text, types, expected):
    assert header(text, types) == expected, card


def test_a_trigger_reads_its_pattern_and_body_as_the_bundled_files_write_them():
    # Sangan (26202165), as case-01 writes it (reduced)
    sangan = read_one(
        "If this card is sent from the field to the GY: Add 1 monster with 1500 or less ATK from your Deck to your hand."
    )
    assert sangan.data == {
        "kind": "triggered",
        "when": {"event": "moved", "card": "self", "to": "graveyard", "from": "field"},
        "wording": "if",
        "do": [
            {
                "move": {
                    "card": {
                        "pick": 1,
                        "types": ["monster"],
                        "stat": {"atk": {"lte": 1500}},
                        "zone": "deck",
                        "owner": "self",
                    },
                    "to": "hand",
                }
            }
        ],
    }
    # Peten the Dark Clown (52624755): cost, Special Summon by name, where it works
    peten = read_one(
        'When this card is sent to the GY: You can banish this card from your GY; Special Summon 1 "Peten the Dark Clown" from your hand or Deck.'
    )
    assert peten.data["cost"] == [{"banish": "self"}]
    assert peten.data["active_in"] == "graveyard"
    assert peten.data["do"] == [
        {"special_summon": {"pick": 1, "zone": ["hand", "deck"], "owner": "self", "name": "Peten the Dark Clown"}}
    ]


def test_a_target_and_a_then():
    # Raigeki Break (4178474)
    ability = read_one("Discard 1 card, then target 1 card on the field; destroy that target.", ("trap",))
    assert ability.data["cost"] == [{"discard": {"pick": 1, "zone": "hand", "owner": "self"}}]
    assert ability.data["target"] == {"pick": 1, "zone": "field"}
    assert ability.data["do"] == [{"destroy": "target"}]


def test_negate_the_activation_and_if_you_do_destroy_it():
    # Magic Jammer (77414722)
    ability = read_one(
        "When a Spell Card is activated: Discard 1 card; negate the activation, and if you do, destroy it.",
        ("trap", "counter"),
    )
    assert ability.data["when"] == {"event": "activated", "card": {"types": ["spell"]}}
    assert ability.data["do"] == [
        {"negate_activation": "event.card"},
        {"if": {"did": "previous"}, "then": [{"destroy": "event.card"}]},
    ]


def test_each_effect_once_per_turn_applies_to_every_effect_before_it():
    # Labrynth Cooclock (2511)
    reading = READER.read(
        '(Quick Effect): You can discard this card; this turn, you can activate 1 Normal Trap Card that was Set this turn, if you control a "Labrynth" monster. '
        'If a card(s) is sent from your hand to the GY to activate your Normal Trap Card or your "Labrynth" card or effect, except "Labrynth Cooclock", while this card is in your GY (except during the Damage Step): '
        'You can add this card to your hand, or Special Summon it. You can only use each effect of "Labrynth Cooclock" once per turn.',
        MONSTER,
    )
    assert [Header.of(a.data).once_per_turn for a in reading.abilities] == [True, True]
    assert all("hard_once_per_turn" in a.data["tags"] for a in reading.abilities)
    assert isinstance(reading.parts[-1], Skipped)


def test_material_lines_and_summoning_procedures_are_read_as_no_ability():
    # Gagaga Cowboy (12014404): its material line; Cyber Dragon (70095154): its procedure
    reading = READER.read(
        "2 Level 4 monsters\nOnce per turn: You can detach 1 material from this card; inflict 800 damage to your opponent.",
        ("monster", "xyz", "effect"),
    )
    assert isinstance(reading.parts[0], Skipped) and reading.parts[0].why == "Summoning materials"
    procedure = READER.read(
        "If only your opponent controls a monster, you can Special Summon this card (from your hand).", MONSTER
    )
    assert procedure.abilities == () and procedure.whole


def test_words_that_do_not_read_are_reported_and_the_header_still_is():
    # Sangan (26202165), as printed: the rider on the name is not read
    reading = READER.read(
        "If this card is sent from the field to the GY: Add 1 monster with 1500 or less ATK from your Deck to your hand, "
        "but you cannot activate cards, or the effects of cards, with that name for the rest of this turn.",
        MONSTER,
    )
    assert reading.unread == ()
    assert not reading.whole
    assert Header.of(reading.abilities[0].data).event == "moved"
    assert reading.all_unread() == [
        "Add 1 monster with 1500 or less ATK from your Deck to your hand, but you cannot activate cards, "
        "or the effects of cards, with that name for the rest of this turn."
    ]


def test_every_ability_read_compiles():
    for text, types in [
        ("If this card is Tribute Summoned: Target 1 card on the field; banish that target.", MONSTER),
        ("When a monster(s) is Summoned: Destroy all monsters on the field.", ("trap",)),
        (
            "Target 1 face-up monster your opponent controls; destroy that target, then your opponent gains 1000 LP.",
            ("spell",),
        ),
        (
            "Once per turn: You can detach 1 material from this card; this card gains 500 ATK until the end of this turn.",
            ("monster", "xyz", "effect"),
        ),
    ]:
        reading = READER.read(text, types)
        assert reading.whole, reading
        compiles(reading, types)


# -- a position read from text -----------------------------------------------------

#: case-01's cards, as printed (Sangan as the file reduces it)
PRINTED = {
    "dark_hole": ("Destroy all monsters on the field.", ("spell",)),
    "a_sangan": (
        "If this card is sent from the field to the GY: Add 1 monster with 1500 or less ATK from your Deck to your hand.",
        MONSTER,
    ),
    "b_sangan": (
        "If this card is sent from the field to the GY: Add 1 monster with 1500 or less ATK from your Deck to your hand.",
        MONSTER,
    ),
    "a_peten": (
        'When this card is sent to the GY: You can banish this card from your GY; Special Summon 1 "Peten the Dark Clown" from your hand or Deck.',
        MONSTER,
    ),
    "b_peten": (
        'When this card is sent to the GY: You can banish this card from your GY; Special Summon 1 "Peten the Dark Clown" from your hand or Deck.',
        MONSTER,
    ),
    "a_jar": ("Draw 1 card.", ("trap",)),
    "b_jar": ("Draw 1 card.", ("trap",)),
}


def test_case_01_read_from_text_resolves_as_the_hand_written_file():
    """research/ygo.md §2 case 1 (Yugipedia, SEGOC example 1; TCG Rulebook
    v10 p.50): Dark Hole destroys both players' Sangan and Peten; the chain
    is built TP mandatory, NTP mandatory, TP optional, NTP optional.  Each
    card's abilities read from its printed text (with the file's ability
    ids) resolve to the same chains, order and zones."""
    path = SCENARIOS / "case-01-dark-hole-sangan-peten.yaml"
    written = tcgtrig.resolve(tcgtrig.load_scenario(path), "yugioh")
    data = copy.deepcopy(yaml_file(path))
    for card in data["cards"]:
        if card["id"] in PRINTED:
            text, types = PRINTED[card["id"]]
            reading = READER.read(text, types)
            assert reading.whole, reading
            card["abilities"] = reading.scenario(first_id=card["abilities"][0]["id"])
    read = tcgtrig.resolve(tcgtrig.scenario_from_data(data), "yugioh")
    assert (
        read.chains()
        == written.chains()
        == [
            ["dark_hole.main"],
            ["a_sangan.search", "b_sangan.search", "a_peten.summon", "b_peten.summon", "a_jar.main"],
        ]
    )
    assert read.keys("resolved") == written.keys("resolved")
    assert read.outcome == written.outcome == "complete"


def test_a_condition_that_names_no_event_is_read_as_a_condition_of_an_ignition_effect():
    # Unexpected Dai (3653955): "If you control no monsters:" — no event, so no trigger
    ability = read_one(
        "If you control no monsters: Special Summon 1 Level 4 or lower Normal Monster from the Deck.", ("spell",)
    )
    assert ability.data["kind"] == "activated"
    assert ability.data["condition"] == {"count": {"zone": "field", "owner": "self", "types": ["monster"]}, "eq": 0}


def test_tokens_and_a_summoning_lock():
    # Chaos Witch (1434): its Tokens wait in the zone `tokens`, as case-06 places them
    ability = read_one(
        'You can Tribute this card; Special Summon 2 "Dark Beast Tokens" (Fiend/DARK/Level 2/ATK 1000/DEF 500).'
    )
    assert ability.data["cost"] == [{"tribute": "self"}]
    assert ability.data["do"] == [
        {"special_summon": {"zone": "tokens", "owner": "self", "name": "Dark Beast Token", "pick": 2}}
    ]
    # Over Tuning (the lock after "also" is read as no ability, and said so)
    reading = READER.read(
        "If you control a Tuner: Special Summon 1 Tuner from your hand, also you cannot Special Summon from the Extra Deck for the rest of this turn, except Synchro Monsters.",
        ("spell",),
    )
    assert [type(part).__name__ for part in reading.parts] == ["ReadAbility", "Skipped"]
    assert reading.parts[1].why == "a restriction the scenario language does not express"


def test_except_the_turn_it_was_sent_there_is_a_condition_not_a_trigger():
    # Glow-Up Bulb (67441435): its GY effect is an Ignition effect; being sent to the GY is no event here
    ability = read_one(
        "If this card is in your GY, except the turn it was sent there: You can send 1 card from the top of your Deck to the GY; Special Summon this card.",
    )
    assert Header.of(ability.data).kind == "activated"
    assert ability.data["active_in"] == "graveyard"
    assert ability.data["condition"] == {"not": {"happened": {"event": "moved", "card": "self", "to": "graveyard"}}}
    # words between parentheses that name no timing the language models stay unread
    reading = READER.read("If this card is Special Summoned (from your GY): You can draw 1 card.", MONSTER)
    assert reading.all_unread() == ["If this card is Special Summoned from your GY"]


def test_effects_that_start_no_chain_and_quick_effects_with_a_condition():
    # Call of the Haunted (97077563): "When this card leaves the field, destroy that monster." starts no Chain
    # (its rulings; the bundled ruling-call-of-the-haunted-* files write it `consequence`)
    assert (
        header("When this card leaves the field, destroy that monster.", ("trap", "continuous"))["kind"]
        == "consequence"
    )
    # Ghost Belle & Haunted Mansion (73642296): a Quick Effect is activated in response, even with a condition
    belle = read_one(
        "When a card or effect is activated that includes any of these effects (Quick Effect): You can discard this card; negate that effect.",
    )
    assert (belle.data["kind"], belle.data["speed"], belle.data["when"]["event"]) == ("activated", 2, "activated")
    assert belle.data["active_in"] == "hand"


def test_a_condition_after_the_event_is_its_trigger_condition():
    # a template of many End Phase effects (written for this test): "During the End Phase, if this card was … this turn:"
    ability = read_one("During the End Phase, if this card was Special Summoned this turn: You can draw 1 card.")
    assert ability.data["when"] == {"event": "end_of_turn"}
    assert ability.data["trigger_condition"] == {"happened": {"event": "special_summoned", "card": "self"}}
    assert ability.data["wording"] == "when"


def _waiting(text: str, types=MONSTER) -> list[tuple]:
    """(kind, event, optional, wording, once per turn, speed) of each ability that waits for an event."""
    reading = READER.read(text, types)
    headers = [Header.of(a.data) for a in reading.abilities if a.data["kind"] != "activated" or "when" in a.data]
    return [(h.kind, h.event, h.optional, h.wording, h.once_per_turn, h.speed) for h in headers]


@pytest.mark.parametrize(
    ("card", "text", "types", "expected"),
    [
        (
            # Speedroid Maliciousmagnet (62899696): the Summon is the event, not the Main Phase; "If" gives the wording
            "Speedroid Maliciousmagnet",
            'During your Main Phase, if this card is Normal or Special Summoned: You can target 1 face-up monster your opponent controls; destroy it. You can only use this effect of "Speedroid Maliciousmagnet" once per turn.',
            MONSTER,
            # a Tribute Summon is a Normal Summon (Rulebook v10): "Normal or Special Summoned" waits for all three
            [("triggered", "normal_summoned or tribute_summoned or special_summoned", True, "if", True, 1)],
        ),
        (
            # Darklord Tezcatlipoca (88234365): "would …, … instead" is a replacement (as the bundled
            # ruling-destruction-replacement-one-per-destruction.yaml writes it, with no wording)
            "Darklord Tezcatlipoca",
            'If a "Darklord" monster(s) you control would be destroyed by battle or card effect, you can discard this card instead.',
            MONSTER,
            [("replacement", "destroyed", True, "when", False, 1)],
        ),
        (
            # Dark Red Enchanter (45462639): placing a counter "each time …" starts no Chain
            "Dark Red Enchanter",
            "If this card is Normal Summoned: Draw 1 card. Each time a Spell Card is activated, place 1 Spell Counter on this card when that Spell resolves.",
            MONSTER,
            [
                ("triggered", "normal_summoned or tribute_summoned", False, "if", False, 1),
                ("consequence", "activated", False, "when", False, 1),
            ],
        ),
        (
            # Magical Musket - Fiendish Deal (92534075): "You can only activate 1 X per turn" limits the card's
            # activation, not its Trigger Effect; "If this card was …" describes, "is sent" is the event
            "Magical Musket - Fiendish Deal",
            'If this card in your possession is sent to your GY by an opponent\'s card effect: You can draw 1 card. You can only activate 1 "Magical Musket - Fiendish Deal" per turn.',
            ("trap", "continuous"),
            [("triggered", "moved", True, "if", False, 2)],
        ),
        (
            # Tri-Brigade Showdown (7889323): a fixed timing of the turn is worded "when" whatever word follows it
            "Tri-Brigade Showdown",
            'After damage calculation, if your "Tri-Brigade" monster battled an opponent\'s monster: You can draw 1 card.',
            ("spell", "continuous"),
            [("triggered", "after_damage_calculation", True, "when", False, 1)],
        ),
    ],
)
def test_the_headers_of_cards_with_several_effects(card, text, types, expected):
    assert _waiting(text, types) == expected, card


@pytest.mark.parametrize(
    ("card", "text", "types", "expected"),
    [
        (
            # Nettles (19505896): "… instead" is what the replacement does in place of the destruction:
            # `prevent`, then the action (as ruling-destruction-replacement-one-per-destruction.yaml writes it)
            "Nettles",
            "If this face-up card would be destroyed, you can destroy 1 face-up Plant-Type monster you control instead.",
            ("monster", "tuner"),
            {
                "kind": "replacement",
                "when": {"event": "destroyed", "card": "self"},
                "optional": True,
                "do": [
                    {"prevent": {}},
                    {
                        "destroy": {
                            "pick": 1,
                            "no_flag": "face_down",
                            "types": ["monster"],
                            "zone": "field",
                            "owner": "self",
                            "all_types": ["plant"],
                        }
                    },
                ],
            },
        ),
        (
            # Double Cyclone (75652080): two targets, named, destroyed at once
            "Double Cyclone",
            "Target 1 Spell/Trap you control and 1 Spell/Trap your opponent controls; destroy them.",
            ("spell", "quick_play"),
            {
                "kind": "activated",
                "speed": 2,
                "targets": {
                    "first": {"types": ["spell", "trap"], "zone": "field", "owner": "self", "pick": 1},
                    "second": {"types": ["spell", "trap"], "zone": "field", "owner": "opponent", "pick": 1},
                },
                "do": [{"together": [{"destroy": "target.first"}, {"destroy": "target.second"}]}],
            },
        ),
        (
            # Performapal Odd-Eyes Unicorn (86157908): an amount equal to a stat of the target
            "Performapal Odd-Eyes Unicorn",
            'When this card is Normal or Special Summoned: You can target 1 "Performapal" monster in your GY; gain LP equal to its ATK.',
            MONSTER,
            {
                "kind": "triggered",
                "when": {"event": ["normal_summoned", "tribute_summoned", "special_summoned"], "card": "self"},
                "optional": True,
                "wording": "when",
                "target": {
                    "pick": 1,
                    "types": ["monster"],
                    "zone": "graveyard",
                    "owner": "self",
                    "all_types": ["performapal"],
                },
                "do": [{"gain": {"player": "self", "counter": "lp", "amount": {"card": "target", "stat": "atk"}}}],
                "active_in": "field",  # its own Summon puts it there, wherever it starts
            },
        ),
        (
            # Solar Recharge (691925): "send the top 2 cards of your Deck to the GY" is the Deck's first 2 cards
            "Solar Recharge",
            'Discard 1 "Lightsworn" monster; draw 2 cards, then send the top 2 cards of your Deck to the GY.',
            ("spell",),
            {
                "kind": "activated",
                "speed": 1,
                "cost": [
                    {
                        "discard": {
                            "pick": 1,
                            "types": ["monster"],
                            "all_types": ["lightsworn"],
                            "zone": "hand",
                            "owner": "self",
                        }
                    }
                ],
                "do": [{"draw": 2}, {"send_to_graveyard": {"zone": "deck", "owner": "self", "top": 2}}],
            },
        ),
        (
            # a condition counting your GY ("If you have no Spells/Traps in your GY:", as Ignition effects print it)
            "a GY count",
            "If you have no Spells/Traps in your GY: You can draw 1 card.",
            MONSTER,
            {
                "kind": "activated",
                "speed": 1,
                "condition": {"count": {"zone": "graveyard", "owner": "self", "types": ["spell", "trap"]}, "eq": 0},
                "do": [{"draw": 1}],
            },
        ),
    ],
)
def test_replacements_two_targets_and_amounts_read_whole(card, text, types, expected):
    reading = READER.read(text, types)
    assert reading.whole, (card, reading.all_unread())
    assert [ability.data for ability in reading.abilities] == [expected], card
    compiles(reading, types)


def test_that_monster_after_an_event_about_this_card_is_not_the_events_card():
    # Call of the Haunted's "When this card leaves the field, destroy that monster": "that monster" is
    # the monster it Special Summoned, not the card that left (the differential of issue 38 item 6
    # found the revived monster never destroyed); the scenario language cannot name it: unread
    reading = tcgtrig.load_ruleset("yugioh").read_text(
        "When this card leaves the field, destroy that monster.", ("trap", "continuous")
    )
    (ability,) = reading.abilities
    assert ability.unread == ("destroy that monster.",) and not reading.whole


def test_a_summon_of_this_card_works_on_the_field():
    reading = tcgtrig.load_ruleset("yugioh").read_text(
        "If this card is Special Summoned: You can gain 500 LP.", ("monster", "effect")
    )
    assert reading.abilities[0].data["active_in"] == "field"


def test_a_summon_in_defense_position_sets_the_flag():
    # Goyo Guardian (7391448): "Special Summon that monster to your field in Defense Position"
    text = (
        "When this card destroys an opponent's monster by battle and sends it to the GY: "
        "You can Special Summon that monster to your field in Defense Position."
    )
    ability = read_one(text)
    assert ability.unread == ()
    assert ability.data["do"] == [
        {"special_summon": "event.card"},
        {"flag": {"card": "event.card", "set": "defense_position"}},
    ]
    compiles(READER.read(text, MONSTER))


def test_another_and_or_more_in_a_control_condition():
    # Hand of the Six Samurai (78792195): "If you control another "Six Samurai" monster:"
    text = (
        'If you control another "Six Samurai" monster: You can Tribute 1 "Six Samurai" monster, '
        "then target 1 monster on the field; destroy that target."
    )
    ability = read_one(text)
    assert ability.unread == ()
    assert ability.data["condition"] == {
        "count": {
            "zone": "field",
            "owner": "self",
            "exclude": "self",
            "types": ["monster"],
            "all_types": ["six samurai"],
        },
        "gte": 1,
    }
    compiles(READER.read(text, MONSTER))


@pytest.mark.parametrize(
    ("card", "text", "types", "key", "expected"),
    [
        (
            # Link Bound (51335426): "you control or in your GY" — the field and the GY, both yours
            "Link Bound",
            "Target 1 Link Monster you control or in your GY; return it to the Extra Deck.",
            ("spell", "quick_play"),
            "target",
            {"pick": 1, "types": ["monster"], "zone": ["field", "graveyard"], "owner": "self", "all_types": ["link"]},
        ),
        (
            # Chaos Seed (76766706): "LIGHT or DARK Warrior-Type monsters" — one of the Attributes, and a monster
            "Chaos Seed",
            "You can target 1 of your banished LIGHT or DARK Warrior-Type monsters; add it to your hand.",
            ("spell",),
            "target",
            {
                "pick": 1,
                "owner": "self",
                "zone": "banished",
                "types": ["light", "dark"],
                "all_types": ["warrior", "monster"],
            },
        ),
        (
            # Rescue Rabbit (85138716), its cost as printed: "banish this card you control" works on the field
            "Rescue Rabbit",
            "You can banish this card you control; draw 1 card.",
            MONSTER,
            "active_in",
            "field",
        ),
    ],
)
def test_queries_over_zones_and_alternatives(card, text, types, key, expected):
    ability = read_one(text, types)
    assert ability.unread == (), card
    assert ability.data[key] == expected, card
    compiles(READER.read(text, types), types)


@pytest.mark.parametrize(
    ("card", "text", "types", "expected"),
    [
        (
            # Magnetic Field (4740489): a Level and two type words
            "Magnetic Field",
            'If you control a Level 4 or lower EARTH Rock monster: You can target 1 Level 4 or lower "Magnet Warrior" '
            "monster in your GY; Special Summon it.",
            ("spell", "continuous"),
            {
                "count": {
                    "zone": "field",
                    "owner": "self",
                    "stat": {"level": {"lte": 4}},
                    "types": ["monster"],
                    "all_types": ["earth", "rock"],
                },
                "gte": 1,
            },
        ),
        (
            # Tri-Brigade Springans Kitt (19304410): one of two archetypes, one name left out
            "Tri-Brigade Springans Kitt",
            'If you control a "Tri-Brigade" or "Springans" monster, except "Tri-Brigade Springans Kitt": '
            "You can Special Summon this card from your hand.",
            MONSTER,
            {
                "count": {
                    "zone": "field",
                    "owner": "self",
                    "exclude": {"name": "Tri-Brigade Springans Kitt"},
                    "types": ["tri-brigade", "springans"],
                    "all_types": ["monster"],
                },
                "gte": 1,
            },
        ),
    ],
)
def test_control_conditions_with_levels_alternatives_and_exceptions(card, text, types, expected):
    ability = read_one(text, types)
    assert ability.unread == (), card
    assert ability.data["condition"] == expected, card
    compiles(READER.read(text, types), types)


def test_which_ritual_spell_summons_the_card_is_a_procedure():
    # Cyber Angel Idaten (3629090): "You can Ritual Summon this card with …" starts no Chain: no ability
    text = (
        'You can Ritual Summon this card with "Machine Angel Ritual". If this card is Ritual Summoned: '
        "You can add 1 Ritual Spell from your Deck or GY to your hand."
    )
    types = ("monster", "ritual", "effect")
    reading = READER.read(text, types)
    assert reading.whole
    assert isinstance(reading.parts[0], Skipped) and reading.parts[0].why.startswith("a Summoning procedure")
    compiles(reading, types)


def test_while_after_the_event_is_a_condition_or_where_the_card_works():
    # Ursarctic Megapolar (28715905): "while you control another "Ursarctic" monster" holds as the Summon happens
    megapolar = READER.read(
        'If this card is Special Summoned while you control another "Ursarctic" monster: '
        "You can target 1 Spell/Trap your opponent controls; destroy it.",
        MONSTER,
    )
    assert megapolar.whole
    assert megapolar.abilities[0].data["trigger_condition"] == {
        "count": {
            "zone": "field",
            "owner": "self",
            "exclude": "self",
            "types": ["monster"],
            "all_types": ["ursarctic"],
        },
        "gte": 1,
    }
    # Feather Wind (71060915), a Counter Trap: the state as it is activated
    wind = READER.read(
        'When a Spell/Trap Card is activated while you control a face-up "Elemental HERO Avian": '
        "Negate the activation and destroy it.",
        ("trap", "counter"),
    )
    assert wind.whole
    assert wind.abilities[0].data["when"] == {"event": "activated", "card": {"types": ["spell", "trap"]}}
    assert wind.abilities[0].data["condition"] == {
        "count": {"zone": "field", "owner": "self", "no_flag": "face_down", "name": "Elemental HERO Avian"},
        "gte": 1,
    }
    # Link Streamer (23331400): "while this monster is on the field" is where it works
    streamer = READER.read(
        "When a Cyberse monster(s) is Normal or Special Summoned to your field while this monster is on the field "
        '(except during the Damage Step): You can Special Summon 1 "Data Token" (Cyberse/LIGHT/Level 1/ATK 0/DEF 0).',
        MONSTER,
    )
    assert streamer.whole and streamer.abilities[0].data["active_in"] == "field"
    for reading, types in ((megapolar, MONSTER), (wind, ("trap", "counter")), (streamer, MONSTER)):
        compiles(reading, types)


def test_the_kind_of_card_an_opponent_activates_and_an_unmodelled_phase():
    # Trap Jammer (19252988): the activation of a Trap Card; "during the Battle Phase" is not modelled: unread
    text = "When your opponent activates a Trap Card during the Battle Phase: Negate the activation, and if you do, destroy it."
    reading = READER.read(text, ("trap", "counter"))
    assert reading.abilities[0].data["when"] == {"event": "activated", "card": {"types": ["trap"], "owner": "opponent"}}
    assert reading.abilities[0].unread == ("When your opponent activates a Trap Card during the Battle Phase",)


def test_at_least_other_and_have_in_a_condition_and_a_level_in_an_event():
    # Flick Clown (209710): "at least 2 other …" and "… and have no cards in your hand"
    clown = read_one(
        "If you control at least 2 other Cyberse monsters and have no cards in your hand: "
        "You can pay 1000 LP; draw 1 card."
    )
    assert clown.unread == ()
    assert clown.data["condition"] == {
        "all": [
            {
                "count": {
                    "zone": "field",
                    "owner": "self",
                    "exclude": "self",
                    "types": ["monster"],
                    "all_types": ["cyberse"],
                },
                "gte": 2,
            },
            {"count": {"zone": "hand", "owner": "self"}, "eq": 0},
        ]
    }
    # Starry Knight Orbitael (44818): the returning card's Level is part of the event's card
    text = (
        "If a face-up Level 7 LIGHT Dragon monster you control returns to the hand, while this card is in your GY "
        "(except during the Damage Step): You can draw 1 card."
    )
    orbitael = read_one(text)
    assert orbitael.unread == ()
    assert orbitael.data["when"]["card"] == {
        "stat": {"level": {"eq": 7}},
        "types": ["monster"],
        "all_types": ["light", "dragon"],
        "owner": "self",
    }
    assert orbitael.data["active_in"] == "graveyard"
    compiles(READER.read(text, MONSTER))


def test_you_have_a_card_in_your_gy_other_than_a_name():
    # Laval Volcano Handmaiden (2407147): the state after the event, with a name left out
    text = (
        'When this card is sent to the GY, if you have a "Laval" monster in your GY other than '
        '"Laval Volcano Handmaiden": You can send 1 "Laval" monster from your Deck to your GY.'
    )
    ability = read_one(text)
    assert ability.unread == ()
    assert ability.data["trigger_condition"] == {
        "count": {
            "exclude": {"name": "Laval Volcano Handmaiden"},
            "zone": "graveyard",
            "owner": "self",
            "types": ["monster"],
            "all_types": ["laval"],
        },
        "gte": 1,
    }
    compiles(READER.read(text, MONSTER))


def test_gains_atk_equal_to_another_cards_atk():
    # Brinegir (2102065): "this card gains ATK equal to that monster's ATK" — the change by the target's current ATK
    text = (
        "If this card is Normal or Special Summoned: You can target 1 WATER monster in your GY; "
        "this card gains ATK equal to that monster's ATK until the end of this turn."
    )
    ability = read_one(text)
    assert ability.unread == ()
    assert ability.data["do"] == [
        {"change": {"card": "self", "stat": "atk", "by": {"card": "target", "stat": "atk"}, "until": "end_of_turn"}}
    ]
    compiles(READER.read(text, MONSTER))


@pytest.mark.parametrize(
    ("card", "text", "expected"),
    [
        (
            # Risebell the Star Psycher (14812659): a Level changed; "during either player's turn" is a Quick Effect
            "Risebell the Star Psycher",
            "Once per turn, during either player's turn: You can target 1 face-up monster on the field; "
            "increase its Level by 1.",
            {
                "kind": "activated",
                "speed": 2,
                "once_per_turn": True,
                "target": {"pick": 1, "no_flag": "face_down", "types": ["monster"], "zone": "field"},
                "do": [{"change": {"card": "target", "stat": "level", "by": 1}}],
            },
        ),
        (
            # Doom Dozer (76039636): "the top card of their Deck"
            "Doom Dozer",
            "If this card inflicts battle damage to your opponent: Send the top card of their Deck to the GY.",
            {
                "kind": "triggered",
                "when": {"event": "lost", "counter": "lp", "player": "opponent", "by": "battle"},
                "wording": "if",
                "do": [{"send_to_graveyard": {"zone": "deck", "owner": "opponent", "top": 1}}],
            },
        ),
        (
            # Sonic Warrior (17932494): "you currently control"
            "Sonic Warrior",
            "If this card is sent to the Graveyard: All Level 2 or lower monsters you currently control gain 500 ATK.",
            {
                "kind": "triggered",
                "when": {"event": "moved", "card": "self", "to": "graveyard"},
                "wording": "if",
                "do": [
                    {
                        "change": {
                            "card": {
                                "stat": {"level": {"lte": 2}},
                                "types": ["monster"],
                                "zone": "field",
                                "owner": "self",
                            },
                            "stat": "atk",
                            "by": 500,
                        }
                    }
                ],
            },
        ),
    ],
)
def test_levels_their_deck_and_currently(card, text, expected):
    reading = READER.read(text, MONSTER)
    assert reading.whole, card
    assert reading.abilities[0].data == expected, card
    compiles(reading)


def test_whose_phase_and_a_named_card_on_the_field():
    # Aurkus, Lightsworn Druid (7183277): "During each of your End Phases" — the End Phase of your turn only
    aurkus = READER.read("During each of your End Phases: Send the top 2 cards of your Deck to the Graveyard.", MONSTER)
    assert aurkus.whole
    assert aurkus.abilities[0].data["trigger_condition"] == {"turn": "self"}
    # Divine Punishment (81066751): any of the nouns; '"X" is on the field' is a condition
    text = (
        'When a Spell/Trap Card, or monster effect, is activated, while "The Sanctuary in the Sky" is on the field: '
        "Negate the activation, and if you do, destroy it."
    )
    punishment = READER.read(text, ("trap", "counter"))
    assert punishment.whole
    data = punishment.abilities[0].data
    assert data["when"] == {"event": "activated", "card": {"types": ["spell", "trap", "monster"]}}
    assert data["condition"] == {"count": {"zone": "field", "name": "The Sanctuary in the Sky"}, "gte": 1}
    compiles(aurkus)
    compiles(punishment, ("trap", "counter"))


def test_a_token_counted_in_a_condition():
    # Mecha Phantom Beast Blackfalcon (4417407): "While you control a Token" reads; the protection does not
    reading = READER.read(
        "While you control a Token, this card cannot be destroyed by battle or card effects.", MONSTER
    )
    ability = reading.abilities[0]
    assert ability.data["condition"] == {"count": {"zone": "field", "owner": "self", "types": ["token"]}, "gte": 1}
    assert ability.unread == ("this card cannot be destroyed by battle or card effects.",)


def test_special_summon_both():
    # Impcantation Bookstone (18474999): two Special Summons at once
    text = (
        "You can reveal 1 Ritual Spell in your hand; Special Summon both this card from your hand and "
        '1 "Impcantation" monster from your Deck, except "Impcantation Bookstone".'
    )
    reading = READER.read(text, MONSTER)
    assert reading.whole
    data = reading.abilities[0].data
    assert data["active_in"] == "hand"
    assert data["do"] == [
        {
            "together": [
                {"special_summon": "self"},
                {
                    "special_summon": {
                        "pick": 1,
                        "types": ["monster"],
                        "zone": "deck",
                        "owner": "self",
                        "exclude": {"name": "Impcantation Bookstone"},
                        "all_types": ["impcantation"],
                    }
                },
            ]
        }
    ]
    compiles(reading, zone="hand")
