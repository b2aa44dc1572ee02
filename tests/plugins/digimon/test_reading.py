"""Digimon printed text read into abilities (Issue 38): each template family
on a real card's text, the header and the data read, the words left unread,
and a card read from its text resolving like the hand-written file.

Card texts: the official English card list as aegis-digimon-tcg keeps it
(packages/shared/src/cards/data/cards.json), inherited effects under the
heading "Inherited Effect:".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tcgtrig
import yaml
from helpers import read_card
from tcgtrig import scenario_from_data
from tcgtrig.plugins.digimon.reading import READER, cut
from tcgtrig.printed import Header, Skipped

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "digimon"
OPPONENTS_4000 = {"zone": "battle", "owner": "opponent", "types": ["digimon"], "stat": {"dp": {"lte": 4000}}, "pick": 1}


def read_one(text: str) -> tuple[dict[str, Any], tuple[str, ...], str]:
    reading = READER.read(text, ["digimon"])
    (ability,) = reading.abilities
    return ability.data, ability.unread, ability.name


def compiles(text: str, types: list[str]) -> None:
    read_card("digimon", READER.read(text, types), "battle", types)


# -- headers ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "text", "name", "header"),
    [
        ("BT1-070 Kuwagamon", "[On Play] Suspend 1 of your opponent's Digimon.", "on_play", ("triggered", "played")),
        (
            "BT16-012 Silphymon (its [When Attacking])",
            "[When Attacking] Delete 1 of your opponent's Digimon with 4000 DP or less.",
            "when_attacking",
            ("triggered", "attacking"),
        ),
        ("BT11-079 DarkLizardmon", "[On Deletion] <Draw 1>", "on_deletion", ("triggered", "deleted")),
        (
            "[End of Attack] as cr-11-5-1-2 writes it",
            "[End of Attack] Gain 1 memory.",
            "end_of_attack",
            ("triggered", "end_of_attack"),
        ),
        (
            "ST20-12 Sora Takenouchi & Kari Kamiya",
            "[Security] Play this card without paying the cost.",
            "security",
            ("triggered", "checked"),
        ),
        ("ST1-16 Gaia Force", "[Main] Delete 1 of your opponent's Digimon.", "main", ("activated", None)),
        (
            "BT11-049 Vegiemon",
            "[Start of Your Turn] Gain 1 memory.",
            "start_of_your_turn",
            ("triggered", "start_of_turn"),
        ),
    ],
)
def test_timing_headers(card: str, text: str, name: str, header: tuple[str, str | None]) -> None:
    data, unread, read_name = read_one(text)
    assert (read_name, unread) == (name, ())
    assert (Header.of(data).kind, Header.of(data).event) == header


def test_two_timings_are_two_abilities_with_one_body() -> None:
    # "[On Play][When Digivolving] …" (BT13-087 Dynasmon, body reduced) is two abilities with the same body
    reading = READER.read("[On Play][When Digivolving] Gain 1 memory.", ["digimon"])
    assert [(a.name, a.data["when"]["event"]) for a in reading.abilities] == [
        ("on_play", "played"),
        ("when_digivolving", "digivolved"),
    ]


def test_inherited_once_per_turn_untimed_trigger() -> None:
    # BT19-049 Gargomon's inherited effect
    data, unread, name = read_one(
        "Inherited Effect: [When Attacking] [Once Per Turn] Suspend 1 of your opponent's Digimon."
    )
    assert (name, unread) == ("inherited", ())
    assert data == {
        "when": {"event": "attacking", "card": "self"},
        "do": [{"suspend": {"zone": "battle", "owner": "opponent", "types": ["digimon"], "pick": 1}}],
        "once_per_turn": True,
        "active_in": "sources",
    }


def test_your_turn_when_is_a_trigger_condition() -> None:
    # BT19-015 Gallantmon's "[Your Turn][Once Per Turn] When an opponent's Digimon is deleted, …" (body
    # reduced): "[Your Turn]" is the trigger's timing (CR 15-16-8-1)
    data, unread, _ = read_one(
        "Inherited Effect: [Your Turn][Once Per Turn] When an opponent's Digimon is deleted, "
        "trash the top card of your opponent's security stack."
    )
    assert unread == ()
    assert data["when"] == {"event": "deleted", "card": "opponent"}
    assert data["trigger_condition"] == {"turn": "self"}
    assert data["do"] == [{"trash": {"zone": "security", "owner": "opponent", "top": 1}}]


def test_would_is_an_interrupt_and_by_is_optional() -> None:
    # BT11-040 Sukamon's inherited effect (qa-07-bt11-040.yaml writes it by hand)
    data, unread, _ = read_one(
        "Inherited Effect: [All Turns] When this Digimon would be deleted, by deleting 1 other Digimon "
        "with [Sukamon] in its name, prevent that deletion."
    )
    header = Header.of(data)
    assert (header.kind, header.event, header.optional) == ("interrupt", "deleted", True)
    assert unread == ()
    assert data["do"][-1] == {"if": {"did": "paid"}, "then": [{"prevent": {}}]}


def test_twice_per_turn() -> None:
    # BT1-039 Cerberusmon's "[When Attacking][Twice Per Turn]" (body reduced)
    data, _, _ = read_one("[When Attacking][Twice Per Turn] Gain 1 memory.")
    assert (data.get("per_turn"), Header.of(data).once_per_turn) == (2, False)


# -- keywords ---------------------------------------------------------------------


def test_raid_is_an_optional_attacking_trigger() -> None:
    # BT11-014 GrapLeomon: <Raid> and its reminder text
    reading = READER.read(
        "<Raid> (When this Digimon attacks, you may switch the target of attack to 1 of your opponent's "
        "unsuspended Digimon with the highest DP.)",
        ["digimon"],
    )
    (raid,) = reading.abilities
    assert Header.of(raid.data).as_dict()["event"] == "attacking"
    assert raid.data["optional"] is True and raid.data["tags"] == ["keyword"]
    assert any(isinstance(part, Skipped) and part.why == "reminder text" for part in reading.parts)
    assert reading.whole


def test_blocker_is_a_rule_and_retaliation_a_trigger() -> None:
    # ST8-07 (Blocker); EX9-061 Devimon's inherited <Retaliation>
    reading = READER.read("<Blocker>\nInherited Effect: <Retaliation>.", ["digimon"])
    assert isinstance(reading.parts[0], Skipped)
    (retaliation,) = reading.abilities
    assert retaliation.data["when"] == {"event": "deleted", "card": "self", "by": "battle"}
    assert retaliation.data["active_in"] == "sources"


def test_digivolution_requirement_is_skipped_and_cut_off() -> None:
    # BT12-043 RizeGreymon: the requirement runs into its [When Digivolving] effect
    parts = cut("Digivolve: 3 from Lv.5 w/[RizeGreymon] in name [When Digivolving] Gain 1 memory.")
    assert parts == ["Digivolve: 3 from Lv.5 w/[RizeGreymon] in name", "[When Digivolving] Gain 1 memory."]
    reading = READER.read("[Digivolve] Lv.4 w/[Growlmon] in name or w/[Hero] trait: Cost 3", ["digimon"])
    assert isinstance(reading.parts[0], Skipped) and reading.abilities == ()


# -- bodies -----------------------------------------------------------------------


def test_reveal_add_and_return_the_rest() -> None:
    # the search template many [On Play] effects print (a template, not one card's text)
    reading = READER.read(
        "[On Play] Reveal the top 3 cards of your deck. Add 1 Tamer card among them to the hand. "
        "Return the rest to the bottom of the deck.",
        ["digimon"],
    )
    (ability,) = reading.abilities
    assert ability.unread == ()
    assert ability.data["do"] == [
        {"move": {"card": {"zone": "deck", "owner": "self", "top": 3}, "to": "revealed"}},
        {
            "move": {
                "card": {"types": ["tamer"], "pick": 1, "zone": "revealed", "owner": "self", "upto": True},
                "to": "hand",
            }
        },
        {"move": {"card": {"zone": "revealed", "owner": "self"}, "to": "deck"}},
    ]


def test_security_activates_the_main_effect() -> None:
    # an Option card's usual [Security]: "Activate this card's [Main] effect." (BT1-090 Gravity Crush's shape, reduced)
    reading = READER.read("[Main] Gain 2 memory.\n[Security] Activate this card's [Main] effect.", ["option"])
    main, security = reading.abilities
    assert security.data["do"] == main.data["do"] == [{"memory": 2}]
    assert security.data["tags"] == ["security"]


def test_dp_change_for_the_turn_and_condition() -> None:
    data, unread, _ = read_one("[When Attacking] 1 of your opponent's Digimon gets -2000 DP for the turn.")
    assert unread == ()
    assert data["do"] == [
        {
            "change": {
                "card": {"zone": "battle", "owner": "opponent", "types": ["digimon"], "pick": 1},
                "stat": "dp",
                "by": -2000,
                "until": "end_of_turn",
            }
        }
    ]
    data, unread, _ = read_one("[Start of Your Main Phase] If your opponent has a Digimon, gain 1 memory.")
    assert unread == ()
    assert data["do"] == [
        {
            "if": {"count": {"zone": "battle", "owner": "opponent", "types": ["digimon"]}, "gte": 1},
            "then": [{"memory": 1}],
        }
    ]


def test_unread_sentences_are_reported() -> None:
    # BT3-109: a granted effect in quotes is not read; the [Main] header is
    reading = READER.read(
        '[Main] 1 of your Digimon gains "[On Deletion] Play this card without paying its memory cost." for the turn.',
        ["option"],
    )
    (main,) = reading.abilities
    assert main.name == "main" and main.unread and not reading.whole


@pytest.mark.parametrize(
    ("text", "types"),
    [
        ("[On Play] Delete 1 of your opponent's Digimon with 4000 DP or less.", ["digimon"]),
        ("Inherited Effect: [Your Turn] This Digimon gets +2000 DP.", ["digimon"]),
        ("[Security] Play this card without paying its memory cost.", ["tamer"]),
        ("<Evade>\n<Armor Purge>\n<Barrier>\n<Fortitude>", ["digimon"]),
    ],
)
def test_read_abilities_compile(text: str, types: list[str]) -> None:
    compiles(text, types)


# -- a card read from text resolves like the hand-written file ---------------------------


def test_read_from_text_resolves_like_the_file() -> None:
    """cr-11-2-6: the attacker's [When Attacking] "Delete 1 of your opponent's
    Digimon with 4000 DP or less." read from its text gives the same result as
    the hand-written ability."""
    path = SCENARIOS / "cr-11-2-6-attack-target-deleted-attack-fails.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    written = tcgtrig.resolve(scenario_from_data(data), "digimon")
    for card in data["cards"]:
        for index, ability in enumerate(card.get("abilities") or []):
            reading = READER.read(ability["text"], card.get("types", []))
            if reading.whole and len(reading.abilities) == 1:
                (read,) = reading.scenario(first_id=ability["id"])
                card["abilities"][index] = read
                assert read["do"] == [{"delete": OPPONENTS_4000}]
    from_text = tcgtrig.resolve(scenario_from_data(data), "digimon")
    assert from_text.keys("resolved") == written.keys("resolved")
    assert {c: card.zone for c, card in from_text.state.cards.items()} == {
        c: card.zone for c, card in written.state.cards.items()
    }


def test_delay_and_blast_digivolve_per_their_reminder_text() -> None:
    # BT10-100 Impulse Memory Boost!: "[Main] <Delay> (…)・Gain 2 memory.", as cr-16-17-3 writes <Delay>;
    # ST22-05 Sakuyamon's <Blast Digivolve>, as qa-18-q5417 writes it
    reading = READER.read(
        "[Main] <Delay> (By trashing this card in your battle area, activate the effect below. You can't activate "
        "this effect the turn this card enters play.)・Gain 2 memory.",
        ["option"],
    )
    (delay,) = reading.abilities
    assert delay.data["cost"] == [{"trash": "self"}] and delay.data["do"] == [{"memory": 2}] and reading.whole
    reading = READER.read(
        "[Hand] [Counter] <Blast Digivolve> (One of your Digimon may digivolve into this card without paying the cost.)",
        ["digimon"],
    )
    (blast,) = reading.abilities
    assert blast.data["when"] == {"event": "counter_timing", "player": "self"}
    assert (blast.data["optional"], blast.data["active_in"]) == (True, "hand")


def test_set_memory_is_one_step_a_value_of_the_gauge() -> None:
    # BT16-086 Hacker Judge
    data, unread, _ = read_one("[On Play] If you have 2 or less memory, set it to 3.")
    assert unread == ()
    assert data["do"][0] == {"if": {"player": "self", "counter": "memory", "eq": -10}, "then": [{"memory": 13}]}
    assert data["do"][-1] == {"if": {"player": "self", "counter": "memory", "eq": 2}, "then": [{"memory": 1}]}


def test_trait_lists_and_zones() -> None:
    # BT26-045 GranKuwagamon (reduced to this sentence)
    data, unread, _ = read_one(
        "[When Digivolving] You may play 1 level 4 or lower [Insectoid] or [Titan] trait Digimon card "
        "from your hand or trash without paying the cost."
    )
    assert unread == () and data["optional"] is True
    assert data["do"] == [
        {
            "play": {
                "zone": ["hand", "trash"],
                "owner": "self",
                "stat": {"level": {"lte": 4}},
                "all_types": ["digimon"],
                "types": ["insectoid", "titan"],
                "pick": 1,
            }
        }
    ]


def test_an_effect_not_read_still_says_it_is_optional() -> None:
    # BT12-062 Greymon's shape: "[When Digivolving] If you don't have a Tamer with [Tai Kamiya] in its name in
    # play, you may play 1 Tamer card …" — its words are not all read, "you may" leading them is
    data, unread, _ = read_one(
        "[When Digivolving] If you don't have a Tamer with [Tai Kamiya] in its name in play, you may play 1 Tamer "
        "card with [Tai Kamiya] in its name from your hand without paying its cost."
    )
    assert unread and Header.of(data).as_dict() == {
        "kind": "triggered",
        "event": "digivolved",
        "optional": True,
        "wording": "when",
        "once_per_turn": False,
        "speed": 1,
    }


def test_it_is_the_card_the_trigger_is_about() -> None:
    # cr-18-3-endless-loop-no-one-can-stop.yaml: "When an opponent's Digimon becomes unsuspended, suspend it."
    data, unread, _ = read_one("[All Turns] When an opponent's Digimon becomes unsuspended, suspend it.")
    assert unread == () and data["do"] == [{"suspend": "event.card"}]


def test_the_scenario_files_words_read_as_they_write_them() -> None:
    # cr-15-14-1-twice-per-turn.yaml: "You can X by Y" is "by Y, X" (CR 15-7), optional, [Twice Per Turn] per_turn 2;
    # qa-13-bt20-068-q4285.yaml marks an inherited effect "(inherited)"
    data, unread, _ = read_one(
        "[When Attacking][Twice Per Turn] You can unsuspend this Digimon by trashing 3 cards in your hand."
    )
    assert unread == () and (data["optional"], data["per_turn"]) == (True, 2)
    assert data["do"] == [
        {"trash": {"zone": "hand", "owner": "self", "pick": 3}, "label": "paid"},
        {"if": {"did": "paid"}, "then": [{"unsuspend": "self"}]},
    ]
    data, unread, name = read_one("(inherited) [On Deletion] Gain 1 memory.")
    assert (name, data["active_in"], unread) == ("inherited", "sources", ())


def test_a_cards_own_effect_works_in_the_battle_area_wherever_the_card_starts():
    # BT1-032 Garurumon-like: played from among another Digimon's digivolution cards, its [On Play] sees itself
    (on_play,) = tcgtrig.load_ruleset("digimon").read_text("[On Play] Unsuspend this Digimon.", ("digimon",)).abilities
    assert on_play.data["active_in"] == "battle"
    (inherited,) = (
        tcgtrig.load_ruleset("digimon")
        .read_text("Inherited Effect: [When Attacking] Unsuspend this Digimon.", ("digimon",))
        .abilities
    )
    assert inherited.data["active_in"] == "sources"


# -- who may decline: "you may" and "this Digimon may" leading an effect (Q&A Q1624, Q1818) -----------------


@pytest.mark.parametrize(
    ("card", "text", "do"),
    [
        (  # BT26-047 TyrantKabuterimon: the player's "may" is the whole effect, written as `optional: true`
            "BT26-047 TyrantKabuterimon",
            "[On Play] This Digimon may battle 1 of your opponent's Digimon.",
            [
                {
                    "battle": {
                        "card": "self",
                        "against": {"zone": "battle", "owner": "opponent", "types": ["digimon"], "pick": 1},
                    }
                }
            ],
        ),
        (  # qa-09-bt13-089.yaml's Digimon: "You may play …" leading
            "qa-09-bt13-089.yaml",
            "[End of Your Turn] You may play 1 level 3 Digimon card from your hand without paying the cost.",
            [
                {
                    "play": {
                        "zone": "hand",
                        "stat": {"level": {"eq": 3}},
                        "types": ["digimon"],
                        "pick": 1,
                        "owner": "self",
                    }
                }
            ],
        ),
        (  # BT13-085 Crowmon: "If …, this Digimon may digivolve …" (its words not all read; "may" leads them)
            "BT13-085 Crowmon",
            "[When Attacking] If you have a Tamer, this Digimon may digivolve into [Ravemon] in your trash for the "
            "digivolution cost.",
            None,
        ),
    ],
)
def test_may_leading_an_effect_makes_it_optional(card: str, text: str, do: list[dict[str, Any]] | None) -> None:
    data, unread, _ = read_one(text)
    assert data["optional"] is True, card
    if do is not None:
        assert (data["do"], unread) == (do, ())


def test_delay_in_a_body_is_a_cost_and_the_security_icon_is_no_check() -> None:
    # qa-10-bt15-081.yaml's Biting Crush: "When …, <Delay> …" is optional (CR 16-17-2: trashing it is a choice);
    # BT19-100 D-Reaper Zone: "[Security] [Opponent's Turn] When …" works from the security stack (CR 15-14-5)
    data, _, _ = read_one(
        "[All Turns] When an effect plays an opponent's Digimon, <Delay> (trash this card: …) You may play 1 "
        "[Leviamon] from your trash without paying the cost."
    )
    assert (Header.of(data).event, data["optional"]) == ("played", True)
    reading = READER.read(
        "[Security] [Opponent's Turn] When an opponent's Digimon attacks, if all of your Digimon and Tamers have the "
        "[D-Reaper] trait, the attacking Digimon get -1000 DP for the turn.",
        ["option"],
    )
    (ability,) = reading.abilities
    assert (Header.of(ability.data).event, ability.data["active_in"]) == ("attacking", "security")


def test_deleting_in_battle_and_surviving_and_keywords_per_the_cr() -> None:
    # BT1-077 Okuwamon's inherited shape: the opponent's Digimon deleted in a battle against this one, which is
    # still in the battle area ("and survives");
    # ST22-13 GrandGalemon: <Fortitude> is mandatory (CR 16-27-3), <Vortex> optional (16-33-3)
    data, unread, _ = read_one(
        "[All Turns] When this Digimon deletes an opponent's Digimon in battle and survives, gain 1 memory."
    )
    assert unread == () and data["when"] == {
        "event": "deleted",
        "by": "battle",
        "player": "opponent",
        "against": "self",
    }
    assert data["trigger_condition"] == {"card": "self", "in": "battle"}
    fortitude, vortex = READER.read("<Fortitude>\n<Vortex>", ["digimon"]).abilities
    assert (fortitude.data.get("optional", False), vortex.data["optional"]) == (False, True)


def test_a_paraphrase_is_not_read_as_printed_text() -> None:
    # interrupt-x.yaml: a file's own account of an effect, marked "(paraphrase …)"
    reading = READER.read("(paraphrase: gained from Ebonwumon) [Your Turn] You must trash 1 card.", ["digimon"])
    assert reading.abilities == () and reading.unread


def test_this_digimon_has_a_name_or_trait() -> None:
    # BT19-024 Shoutmon X4's inherited shape / BT14-040's: "If this Digimon has [X] in its name" — it is one of the
    # matching Digimon in the battle area (more of them with it than without it); "in its text" is not read
    data, unread, _ = read_one(
        "Inherited Effect: [When Attacking] If this Digimon has [Shoutmon] in its name, <Draw 1>."
    )
    mine = {"zone": "battle", "name": "Shoutmon"}
    assert unread == () and data["do"] == [
        {"if": {"count": mine, "gt": {"count": {**mine, "exclude": "self"}}}, "then": [{"draw": 1}]}
    ]
    _, unread, _ = read_one("Inherited Effect: [When Attacking] If this Digimon has <Save> in its text, <Draw 1>.")
    assert unread


def test_colors_listed_are_alternatives_of_one_kind() -> None:
    # "yellow, black or purple Digimon card": a Digimon of any of the colors (before: any card of any of the words)
    data, unread, _ = read_one(
        "[On Play] You may play 1 yellow, black or purple Digimon card from your hand without paying the cost."
    )
    assert unread == () and data["do"] == [
        {
            "play": {
                "zone": "hand",
                "all_types": ["digimon"],
                "types": ["yellow", "black", "purple"],
                "pick": 1,
                "owner": "self",
            }
        }
    ]
