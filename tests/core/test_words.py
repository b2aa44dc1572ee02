"""The helpers games build their words with (tcgtrig.games.words)."""

from __future__ import annotations

import json

import pytest
import tcgtrig
from tcgtrig.games.words import card_argument, flag_word, move_word


def test_a_word_takes_a_selector_or_a_mapping_with_modifiers():
    assert card_argument("x") == ("x", {})
    assert card_argument({"zone": "hand", "pick": 1}) == ({"zone": "hand", "pick": 1}, {})  # a query
    assert card_argument({"card": ["x", "y"], "by": "battle", "label": "gone"}) == (
        ["x", "y"],
        {"by": "battle", "label": "gone"},
    )
    with pytest.raises(ValueError, match=r"unknown key 'to' \(legal: card, by, label\)"):
        card_argument({"card": "x", "to": "hand"})


def test_move_and_flag_words():
    discard = move_word("graveyard", "discarded", **{"from": "hand"})
    assert discard({"card": "x", "by": "cost"}) == {
        "move": {"card": "x", "to": "graveyard", "from": "hand", "as": "discarded", "by": "cost"}
    }
    assert flag_word("clear", "tapped", "untapped")("x") == {"flag": {"card": "x", "clear": "tapped", "as": "untapped"}}


# -- another game's word names its game and its meaning in core words (issue 23, item 1, in part) ----------


def test_another_games_word_is_read_by_the_roles_of_its_zones_and_events():
    # Duel Masters' destroy under Digimon: the Digimon way of being deleted, to the trash (it was "unknown action")
    text = (
        "format: 1\ntitle: t\ngame: duelmasters\nplayers: [A, B]\nturn_player: A\n"
        "cards:\n  - {id: c, owner: A, zone: battle}\n"
        "  - {id: w, owner: A, zone: battle, abilities: [{id: a, when: {event: deleted}, do: [{memory: 1}]}]}\n"
        "start: [{destroy: c}]\n"
    )
    scenario = tcgtrig.scenario_from_text(text, "w.yaml")
    result = tcgtrig.resolve(scenario, "digimon")
    assert result.state.cards["c"].zone == "trash" and result.keys("resolved") == ["w.a"]
    assert tcgtrig.resolve(scenario, "lorcana").state.cards["c"].zone == "discard"
    assert tcgtrig.resolve(scenario, "yugioh").state.cards["c"].zone == "graveyard"


def test_a_move_to_a_zone_the_game_has_no_counterpart_for_is_left_out_and_named():
    text = (
        "format: 1\ntitle: t\ngame: duelmasters\nplayers: [A, B]\nturn_player: A\n"
        "cards:\n  - {id: c, owner: A, zone: hand}\n  - {id: m, owner: A, zone: mana}\n"
        "start: [{put_into_mana: c}, {draw: 1}]\n"
    )
    result = tcgtrig.resolve(tcgtrig.scenario_from_text(text, "w.yaml"), "yugioh")
    assert result.state.cards["c"].zone == "hand"  # Yu-Gi-Oh! has no mana zone: the move is left out
    assert result.state.cards["m"].zone == "mana"  # a card already there stays in a zone of its own
    assert result.compiled.notes == (
        "Yu-Gi-Oh! Trading Card Game has no zone in the role 'resource': Duel Masters's 'mana' stays a zone of "
        "its own there, which its rules do not read, and what moves a card to or from it is left out",
        "'put_into_mana' (Duel Masters's word) has no meaning in Yu-Gi-Oh! Trading Card Game: the action is left "
        "out (line 9, start[0])",
    )


def test_a_state_the_game_has_not_is_left_out_concept_by_concept():
    # Duel Masters' attack taps the attacker; Yu-Gi-Oh! has no tapped state: it attacks without tapping
    text = (
        "format: 1\ntitle: t\nwords: duelmasters\nplayers: [A, B]\nturn_player: A\n"
        "cards:\n  - {id: c, owner: A, zone: battle, flags: [tapped]}\n"
        "  - {id: w, owner: A, zone: battle, abilities: [{id: see, when: {event: attacking}, "
        "condition: {card: c, no_flag: tapped}, do: [{gain: {counter: n}}]}]}\n"
        "start: [{attack: c}]\n"
    )
    scenario = tcgtrig.scenario_from_text(text, "a.yaml")
    yugioh = tcgtrig.resolve(scenario, "yugioh")
    assert yugioh.keys("resolved") == ["w.see"] and yugioh.state.counter("A", "n") == 1
    assert yugioh.state.cards["c"].flags == frozenset()
    assert yugioh.compiled.notes == (
        "Yu-Gi-Oh! Trading Card Game has no tapped state: Duel Masters's 'tapped' is left out (what sets or "
        "clears it does nothing there, and no card has it)",
    )
    magic = tcgtrig.resolve(scenario, "magic")  # Magic taps: the watcher's condition fails
    assert magic.keys("failed") == ["w.see"] and "tapped" in magic.state.cards["c"].flags
    assert magic.compiled.notes == ()


def test_a_start_with_no_meaning_at_all_is_refused_in_one_line():
    text = (
        "format: 1\ntitle: t\nwords: duelmasters\nplayers: [A, B]\nturn_player: A\n"
        "cards: [{id: c, owner: A, zone: battle}]\nstart: [{tap: c}]\n"
    )
    with pytest.raises(tcgtrig.ScenarioError) as caught:
        tcgtrig.resolve(tcgtrig.scenario_from_text(text, "t.yaml"), "yugioh")
    assert str(caught.value) == (
        "t.yaml:7: start: the start has no meaning in Yu-Gi-Oh! Trading Card Game: Yu-Gi-Oh! Trading Card Game "
        "has no tapped state: Duel Masters's 'tapped' is left out (what sets or clears it does nothing there, and "
        "no card has it); 'tap' (Duel Masters's word) has no meaning in Yu-Gi-Oh! Trading Card Game: the action is "
        "left out (line 7, start[0])"
    )


def test_tcgtrig_words_lists_each_games_words_beside_their_core_meaning():
    from click.testing import CliRunner
    from tcgtrig.tools.cli import main

    result = CliRunner().invoke(main, ["words", "--json"])
    assert result.exit_code == 0, result.output
    listing = json.loads(result.stdout)
    assert set(listing) == set(tcgtrig.available_games())
    delete = next(row for row in listing["digimon"] if row["word"] == "delete")
    assert delete == {"word": "delete", "sample": "X", "meaning": "{move: {card: X, to: trash, as: deleted}}"}
    text = CliRunner().invoke(main, ["words", "--game", "duelmasters"])
    assert "destroy: X  →  {move: {card: X, to: graveyard, as: destroyed}}" in text.stdout
    assert CliRunner().invoke(main, ["words", "--game", "nosuch"]).exit_code == 2


def test_a_file_written_in_one_games_words_is_read_by_roles_in_every_other():
    # `words: duelmasters`: its zones and trigger events too, not only its words
    path = "examples/11-duel-masters-words.yaml"
    scenario = tcgtrig.load_scenario(path)
    digimon = tcgtrig.resolve(scenario, "digimon")
    assert digimon.state.cards["bolshack"].zone == "battle" and digimon.state.cards["hulcus"].zone == "trash"
    assert digimon.keys("resolved") == ["hulcus.back", "watcher.see", "tribe.score"]  # it sees "deleted", "played"
    lorcana = tcgtrig.resolve(scenario, "lorcana")
    assert lorcana.state.cards["bolshack"].zone == "play" and lorcana.keys("resolved")[0] == "hulcus.back"
    text = (
        "format: 1\ntitle: t\nwords: duelmasters\nplayers: [A, B]\nturn_player: A\n"
        "cards: [{id: s, owner: B, zone: shields}]\nstart: [{break_shield: s}]\n"
    )
    with pytest.raises(tcgtrig.ScenarioError) as caught:  # breaking a shield is all it does: no meaning there
        tcgtrig.resolve(tcgtrig.scenario_from_text(text, "s.yaml"), "yugioh")
    assert str(caught.value).startswith(
        "s.yaml:7: start: the start has no meaning in Yu-Gi-Oh! Trading Card Game: Yu-Gi-Oh! Trading Card Game "
        "has no zone in the role 'life': Duel Masters's 'shields' stays a zone of its own there"
    )
    assert str(caught.value).endswith(
        "'break_shield' (Duel Masters's word) has no meaning in Yu-Gi-Oh! Trading Card Game: the action is left "
        "out (line 7, start[0])"
    )
