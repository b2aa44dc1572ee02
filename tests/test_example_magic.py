"""The Magic: The Gathering example package (examples/games/magic): an
out-of-tree chain game whose triggers raised mid-resolution go on top of
the stack.  Its scenario files resolve as they expect, it passes the
conformance kit, and the stack tells it apart from every other game."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import tcgtrig
from tcgtrig.conformance import check_ruleset
from tcgtrig.tools.compare import compare_games

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "examples" / "games" / "magic" / "scenarios").glob("*.yaml"))

if "magic" not in tcgtrig.available_games():
    if os.environ.get("TCGTRIG_REQUIRE_EXAMPLE_GAMES"):
        raise RuntimeError("the magic example game is not installed: pip install -e examples/games/magic")
    pytest.skip(
        "the magic example game is not installed (pip install -e examples/games/magic)", allow_module_level=True
    )


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_each_scenario_resolves_as_it_expects(path):
    scenario = tcgtrig.load_scenario(path)
    result = tcgtrig.resolve(scenario, "magic")
    expectation = scenario.compile(tcgtrig.load_ruleset("magic")).expect
    assert expectation is not None and tcgtrig.check_expectation(result, expectation) == []


def test_it_passes_the_conformance_kit():
    report = check_ruleset("magic", positions=40)
    assert report.positions == 40 and report.activations > 0


def test_a_trigger_raised_mid_resolution_goes_on_top_of_the_stack():
    path = ROOT / "examples/games/magic/scenarios/cr-603-3-trigger-during-resolution-goes-on-top.yaml"
    results = compare_games(tcgtrig.load_scenario(path), ["yugioh", "magic"])
    assert results["magic"].keys("resolved") == ["trap.upkeep", "artist.dies", "pulse.upkeep"]
    assert results["magic"].state.cards["elf"].zone == "graveyard"  # state-based actions: damage >= toughness
    assert results["yugioh"].keys("resolved")[:2] == ["trap.upkeep", "pulse.upkeep"]  # the whole chain first


def test_a_draw_takes_from_the_library():
    from tcgtrig.scenario.reading import scenario_from_text

    text = (
        "format: 1\ntitle: draw\ngame: magic\nplayers: [A, B]\nturn_player: A\n"
        "cards: [{id: top, owner: A, zone: library}, {id: next, owner: A, zone: library}]\n"
        "start: [{draw: {count: 1}}]\n"
    )
    result = tcgtrig.resolve(scenario_from_text(text, "draw.yaml"), "magic")
    assert (result.state.cards["top"].zone, result.state.cards["next"].zone) == ("hand", "library")


def test_an_instant_answering_the_trigger_resolves_first_and_passing_lets_the_creature_die():
    path = ROOT / "examples/games/magic/scenarios/cr-405-instant-answers-a-trigger-on-the-stack.yaml"
    scenario = tcgtrig.load_scenario(path)
    answered = tcgtrig.resolve(scenario, "magic")
    assert answered.keys("resolved") == ["growth.cast", "pyre.upkeep"]
    assert answered.state.cards["bear"].zone == "battlefield"
    passed = tcgtrig.resolve(scenario, "magic", choices=["pass"])
    assert passed.keys("resolved") == ["pyre.upkeep"] and passed.state.cards["bear"].zone == "graveyard"


def test_combat_damage_is_marked_and_an_unblocked_attacker_damages_the_player():
    # CR 510.1a: a creature with 0 power deals no combat damage; 510.1b, 120.3a: unblocked, to the player
    from tcgtrig.scenario.reading import scenario_from_text

    text = (
        "format: 1\ntitle: combat\ngame: magic\nplayers: [A, B]\nturn_player: A\ncounters: {B: {life: 20}}\n"
        "cards:\n  - {id: giant, owner: A, zone: battlefield, types: [creature], stats: {power: 3, toughness: 3}}\n"
        "  - {id: wall, owner: B, zone: battlefield, types: [creature], stats: {power: 0, toughness: 4}}\n"
        "start: [{battle: {card: giant, against: wall}}, {battle: {card: giant}}]\n"
    )
    result = tcgtrig.resolve(scenario_from_text(text, "combat.yaml"), "magic")
    dealt = [(s["event"], s["card"], s["amount"], s["by"]) for s in result.trace if s.kind == "event"]
    assert dealt == [("damaged", "wall", 3, "battle"), ("lost", None, 3, "battle")]
    assert (result.stat("wall", "damage"), result.stat("giant", "damage")) == (3, None)
    assert result.state.cards["wall"].zone == "battlefield" and result.state.counter("B", "life") == 17


def test_the_affected_player_chooses_which_replacement_applies_first():
    # CR 616.1: the controller of the affected object chooses, whoever controls the replacements;
    # 616.1e: the other is checked again, and the death it would replace no longer happens
    path = ROOT / "examples/games/magic/scenarios/cr-616-1-affected-player-orders-replacements.yaml"
    scenario = tcgtrig.load_scenario(path)
    exiled = tcgtrig.resolve(scenario, "magic")
    (asked,) = [s for s in exiled.trace if s.kind == "choice"]
    assert (asked["decision"], asked["player"], asked["options"]) == ("order", "A", ("wolf.home", "rest.exile"))
    assert exiled.keys("failed") == ["wolf.home"] and exiled.state.cards["wolf"].zone == "exile"
    home = tcgtrig.resolve(scenario, "magic", choices=["wolf.home"])
    assert home.keys("failed") == ["rest.exile"] and home.state.cards["wolf"].zone == "hand"
    with pytest.raises(tcgtrig.ChoiceError, match=r"which replacement effect .*legal: wolf.home, rest.exile"):
        tcgtrig.resolve(scenario, "magic", choices=["nope"])


BOTH_LOSE_1 = "[{lose: {counter: life}}, {lose: {player: opponent, counter: life}}]"


def _lose_life(players: str, life: str, start: str) -> tcgtrig.Resolution:
    from tcgtrig.scenario.reading import scenario_from_text

    text = (
        f"format: 1\ntitle: loss\ngame: magic\nplayers: {players}\nturn_player: A\ncounters: {life}\n"
        f"cards: [{{id: x, owner: A, zone: battlefield}}]\nstart: {start}\n"
    )
    return tcgtrig.resolve(scenario_from_text(text, "loss.yaml"), "magic")


def test_losing_the_game_ends_it_and_players_losing_at_once_draw():
    # CR 704.5a: 0 or less life loses, by the state-based actions, all at once (704.3); 104.4a: a draw
    both = _lose_life("[A, B]", "{A: {life: 1}, B: {life: 1}}", BOTH_LOSE_1)
    assert (both.outcome, both.state.counter("A", "life")) == ("draw", 0)
    one = _lose_life("[A, B]", "{A: {life: 1}, B: {life: 5}}", BOTH_LOSE_1)
    assert one.outcome == "B wins"
    assert [(s["event"], s["player"], s["by"]) for s in one.trace if s.kind == "event"][-1] == (
        "lost_game",
        "A",
        "rule",
    )
    # an effect's loss, and a player without a life counter never loses for it
    effect = _lose_life("[A, B, C]", "{A: {life: 20}}", "[{lose_game: {player: B, reason: an effect}}]")
    assert effect.outcome == "B loses"
    assert _lose_life("[A, B]", "{}", "[{lose: {player: opponent, counter: n}}]").outcome == "complete"
