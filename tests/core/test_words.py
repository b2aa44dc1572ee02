"""The helpers games build their words with (tcgtrig.words)."""

from __future__ import annotations

import json

import pytest
import tcgtrig
from tcgtrig.words import card_argument, flag_word, move_word


def test_a_word_takes_a_selector_or_a_mapping_with_modifiers():
    assert card_argument("x") == ("x", {})
    assert card_argument({"zone": "hand", "pick": 1}) == ({"zone": "hand", "pick": 1}, {})  # a query
    assert card_argument({"card": ["x", "y"], "by": "battle", "label": "gone"}) == (
        ["x", "y"], {"by": "battle", "label": "gone"})
    with pytest.raises(ValueError, match=r"unknown key 'to' \(legal: card, by, label\)"):
        card_argument({"card": "x", "to": "hand"})


def test_move_and_flag_words():
    discard = move_word("graveyard", "discarded", **{"from": "hand"})
    assert discard({"card": "x", "by": "cost"}) == {
        "move": {"card": "x", "to": "graveyard", "from": "hand", "as": "discarded", "by": "cost"}}
    assert flag_word("clear", "tapped", "untapped")("x") == {"flag": {"card": "x", "clear": "tapped", "as": "untapped"}}


# -- another game's word names its game and its meaning in core words (issue 23, item 1, in part) ----------


def test_another_games_word_says_whose_it_is_and_what_it_means_in_core_words():
    text = ("format: 1\ntitle: t\ngame: duelmasters\nplayers: [A, B]\nturn_player: A\n"
            "cards: [{id: c, owner: A, zone: battle}]\nstart: [{destroy: c}]\n")
    with pytest.raises(tcgtrig.ScenarioError) as caught:
        tcgtrig.resolve(tcgtrig.scenario_from_text(text, "w.yaml"), "digimon")
    message = str(caught.value)
    assert "w.yaml:7: start[0]: unknown action 'destroy' for game 'digimon': it is Duel Masters's word " \
           "(destroy: X means {move: {card: X, to: graveyard, as: destroyed}})" in message
    assert "delete" in message  # the legal options list Digimon's own words


def test_tcgtrig_words_lists_each_games_words_beside_their_core_meaning():
    from click.testing import CliRunner
    from tcgtrig.cli import main

    result = CliRunner().invoke(main, ["words", "--json"])
    assert result.exit_code == 0, result.output
    listing = json.loads(result.stdout)
    assert set(listing) == set(tcgtrig.available_games())
    delete = next(row for row in listing["digimon"] if row["word"] == "delete")
    assert delete == {"word": "delete", "sample": "X", "meaning": "{move: {card: X, to: trash, as: deleted}}"}
    text = CliRunner().invoke(main, ["words", "--game", "duelmasters"])
    assert "destroy: X  →  {move: {card: X, to: graveyard, as: destroyed}}" in text.stdout
    assert CliRunner().invoke(main, ["words", "--game", "nosuch"]).exit_code == 2
