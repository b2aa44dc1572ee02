"""The Disney Lorcana example package (examples/games/lorcana): an
out-of-tree game, installed as the README's first command does.  Its
scenario files resolve as they expect, it passes the conformance kit, and
its bag tells it apart from the three bundled games."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import tcgtrig
import yaml
from tcgtrig.conformance import check_ruleset
from tcgtrig.scenario.reading import scenario_from_data
from tcgtrig.tools.compare import compare_games

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "examples" / "games" / "lorcana" / "scenarios").glob("*.yaml"))

if "lorcana" not in tcgtrig.available_games():
    if os.environ.get("TCGTRIG_REQUIRE_EXAMPLE_GAMES"):
        raise RuntimeError("the lorcana example game is not installed: pip install -e examples/games/lorcana")
    pytest.skip(
        "the lorcana example game is not installed (pip install -e examples/games/lorcana)", allow_module_level=True
    )


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_each_scenario_resolves_as_it_expects(path):
    scenario = tcgtrig.load_scenario(path)
    result = tcgtrig.resolve(scenario, "lorcana")
    expectation = scenario.compile(tcgtrig.load_ruleset("lorcana")).expect
    assert expectation is not None and tcgtrig.check_expectation(result, expectation) == []


def test_it_passes_the_conformance_kit():
    report = check_ruleset("lorcana", positions=40)
    assert report.positions == 40 and report.activations > 0


def test_the_bag_and_the_game_state_check_tell_lorcana_apart_from_every_bundled_game():
    path = ROOT / "examples/games/lorcana/scenarios/bag-new-trigger-waits-its-turn-and-game-state-check.yaml"
    results = compare_games(tcgtrig.load_scenario(path), ["digimon", "duelmasters", "yugioh", "lorcana"])
    ends = {game: (tuple(r.keys("resolved")), r.state.cards["ursula"].zone) for game, r in results.items()}
    assert ends["lorcana"] == (("ariel.song", "sebastian.song", "flounder.lore", "ursula.banished"), "discard")
    assert ends["digimon"][0][:2] == ("ariel.song", "flounder.lore")  # a derived effect above every older one
    assert ends["yugioh"][0][0] == "sebastian.song"  # a chain: last in, first out
    assert ends["duelmasters"][1] == "play"  # its state check reads power, not damage
    assert len(set(ends.values())) == 4


def test_the_words_expand_to_core_actions():
    ruleset = tcgtrig.load_ruleset("lorcana")
    text = """
format: 1
title: words
game: lorcana
players: [A, B]
turn_player: A
cards:
  - {id: hero, owner: A, zone: play, types: [character], stats: {willpower: 3, damage: 0}}
  - {id: song, owner: A, zone: hand}
start:
  - exert: hero
  - deal_damage: {card: hero, amount: 3}
  - ink: song
  - gain_lore: 2
"""
    result = tcgtrig.resolve(scenario_from_data(yaml.safe_load(text), file="<words>"), ruleset)
    assert result.state.cards["hero"].zone == "discard"  # banished by the game state check
    assert result.state.cards["song"].zone == "inkwell"
    assert result.state.counter("A", "lore") == 2


def test_a_challenge_puts_damage_counters_and_a_negative_strength_deals_none():
    # 4.6.6.1: a character whose {S} is negative deals no damage in a challenge
    text = """
format: 1
title: challenge
game: lorcana
players: [A, B]
turn_player: A
cards:
  - {id: hero, owner: A, zone: play, types: [character], stats: {strength: 2, willpower: 5}}
  - {id: weak, owner: B, zone: play, types: [character], stats: {strength: -1, willpower: 3}}
start:
  - battle: {card: hero, against: weak}
"""
    result = tcgtrig.resolve(scenario_from_data(yaml.safe_load(text), file="<challenge>"), "lorcana")
    dealt = [(s["event"], s["card"], s["amount"], s["by"]) for s in result.trace if s.kind == "event"]
    assert dealt == [("damaged", "weak", 2, "battle")]
    assert (result.stat("weak", "damage"), result.stat("hero", "damage")) == (2, None)
    assert {card.zone for card in result.state.cards.values()} == {"play"}
