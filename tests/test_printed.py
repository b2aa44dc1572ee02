"""Printed card text, read by each game (issue 38).

- the hand labels (tests/data/printed/<game>.yaml, drawn at random from the
  public card lists and labelled by hand): each bundled game's reader reads
  at least 95 % of the labelled cards' trigger headers exactly as labelled;
- ``tcgtrig read`` on each game's example text: the YAML printed is the
  abilities read, each under its words, and it compiles in a position;
- a card given by its printed text in a file resolves as the same card
  written by hand; words a game cannot read are one line of bad input.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tcgtrig
import yaml
from click.testing import CliRunner
from helpers import card_with
from tcgtrig.printed import Header
from tcgtrig.printed.reading import TRIGGERED_KINDS
from tcgtrig.tools.cli import main

DATA = Path(__file__).resolve().parent / "data" / "printed"
FIELDS = ("kind", "event", "optional", "wording", "once_per_turn", "speed")
#: the share of hand-labelled cards whose headers a reader must read as labelled
AGREEMENT = 0.95

#: one printed text per game, the id and event of the first ability read, and the card's types
EXAMPLES = {
    "digimon": ("[On Play] Trigger <Draw 1>. (Draw 1 card from your deck.)", "on_play", "played", ("digimon",)),
    "duelmasters": (
        "When you put this creature into the battle zone, draw a card.",
        None,
        "moved",
        ("creature",),
    ),
    "yugioh": (
        'If this card is sent to the GY: You can draw 1 card. You can only use this effect of "Example" once per turn.',
        None,
        "moved",
        ("monster", "effect"),
    ),
    "magic": ("When CARDNAME enters the battlefield, draw a card.", None, "moved", ("creature",)),
    "lorcana": ("FRESH INK When you play this character, you may draw a card.", "fresh_ink", "moved", ("character",)),
}


def _labelled(game: str) -> list[dict]:
    return yaml.safe_load((DATA / f"{game}.yaml").read_text(encoding="utf-8"))["cards"]


@pytest.mark.parametrize("game", ["digimon", "duelmasters", "yugioh"])
def test_each_bundled_game_reads_the_hand_labelled_headers(game):
    ruleset = tcgtrig.load_ruleset(game)
    cards = [card for card in _labelled(game) if card.get("headers")]
    wrong = []
    for card in cards:
        reading = ruleset.read_text(card["text"], tuple(card.get("types") or ()))
        read = [  # abilities that wait for an event: triggered, or activated with an activation condition
            Header.of(part.data).as_dict()
            for part in reading.abilities
            if part.data.get("kind", "triggered") in TRIGGERED_KINDS or "when" in part.data
        ]
        if read != [{key: header[key] for key in FIELDS} for header in card["headers"]]:
            wrong.append(card["id"])
    assert len(cards) >= 100
    assert 1 - len(wrong) / len(cards) >= AGREEMENT, f"{len(wrong)} of {len(cards)} cards read otherwise: {wrong}"


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_tcgtrig_read_prints_the_abilities_under_their_words(game):
    text, first_id, event, types = EXAMPLES[game]
    args = ["read", "--game", game, text, *[f"--type={t}" for t in types]]
    shown = CliRunner().invoke(main, args)
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("# ")  # the words first, as a comment
    abilities = yaml.safe_load(shown.output)
    assert abilities and abilities[0]["when"]["event"] == event
    if first_id:
        assert abilities[0]["id"] == first_id
    as_json = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    assert as_json["whole"] is True and as_json["parts"][0]["ability"] == abilities[0]
    card_with(game, abilities, "hand", types)


def test_words_not_read_are_shown_and_exit_1():
    shown = CliRunner().invoke(main, ["read", "--game", "digimon", "[On Play] Frobnicate the moon."])
    assert shown.exit_code == 1
    assert "NOT READ" in shown.output and "Frobnicate the moon" in shown.output


def test_read_needs_the_game():
    shown = CliRunner().invoke(main, ["read", "[On Play] Draw 1 card."])
    assert shown.exit_code == 2
    assert "--game GAME (legal: digimon, duelmasters, lorcana, magic, yugioh)" in shown.output


DISAGREES = """\
format: 1
title: printed text and written abilities disagree
game: duelmasters
players: [A, B]
turn_player: A
cards:
  - id: c
    owner: A
    zone: hand
    types: [creature]
    abilities:
      - id: draw
        text: "When you put this creature into the battle zone, you may draw a card."
        when: {event: moved, to: battle, card: self}
        active_in: battle
        do: [{draw: 1}]
start: [{move: {card: c, to: battle}}]
expect:
  duelmasters: {resolved: [c.draw]}
"""


def test_check_strict_reports_where_printed_text_and_abilities_disagree(tmp_path):
    written = tmp_path / "disagrees.yaml"
    written.write_text(DISAGREES, encoding="utf-8")
    assert CliRunner().invoke(main, ["check", str(written)]).exit_code == 0  # only --strict compares
    strict = CliRunner().invoke(main, ["check", "--strict", str(written)], terminal_width=400)
    assert strict.exit_code == 2
    assert "disagrees.yaml:12: cards[0].abilities[0]: its printed text reads optional: True ≠ False" in strict.output
    fixed = tmp_path / "agrees.yaml"
    fixed.write_text(
        DISAGREES.replace("        active_in: battle\n", "        active_in: battle\n        optional: true\n")
    )
    assert CliRunner().invoke(main, ["check", "--strict", str(fixed)]).exit_code == 0


def test_a_card_given_as_printed_names_its_unread_words(tmp_path):
    printed = tmp_path / "printed.yaml"
    printed.write_text(
        DISAGREES.replace(
            "    abilities:\n",
            '    text: "When you put this creature into the battle zone, frobnicate the moon."\n    x:\n',
        ).split("    x:\n")[0]
        + "start: []\n",
        encoding="utf-8",
    )
    shown = CliRunner().invoke(main, ["run", str(printed)])
    assert shown.exit_code == 2
    assert (
        shown.output.count("\n") == 1
        and "printed.yaml:11: cards[0].text: card 'c': Duel Masters cannot read" in shown.output
    )


def test_the_format_page_starts_from_a_card_given_as_printed():
    import re

    page = (Path(__file__).resolve().parents[1] / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    files = [text for text in re.findall(r"```yaml\n(.*?)```", page, re.S) if text.startswith("format: 1")]
    first = tcgtrig.scenario_from_text(files[0], "docs/scenario-format.md")
    assert any("text" in card and "abilities" not in card for card in first.data["cards"])
    for number, text in enumerate(files):
        scenario = tcgtrig.scenario_from_text(text, f"docs/scenario-format.md example {number + 1}")
        for game in scenario.games():
            result = tcgtrig.resolve(scenario, game)
            assert tcgtrig.check_expectation(result, result.compiled.expect) == [], (number, game)


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_a_part_longer_than_any_card_prints_is_unread_without_being_parsed(game):
    from tcgtrig.printed.reading import MAX_PART

    text, _, _, types = EXAMPLES[game]
    long = text.rstrip(".") + " and" * (MAX_PART // 4) + "."
    reading = tcgtrig.load_ruleset(game).read_text(long, types)
    assert any(len(words) > MAX_PART for words in reading.unread)  # the long part, unread as it is
    assert all(len(part.words) <= MAX_PART for part in reading.parts) and not reading.whole
    assert tcgtrig.load_ruleset(game).read_text(text, types).whole  # the card's own length still reads
