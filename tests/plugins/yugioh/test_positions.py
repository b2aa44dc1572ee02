"""Engine regressions found in review, each a small Yu-Gi-Oh! position (in
``positions/``) whose ``expect`` block states the right result: responses
answer the last thing that happened — not a cost, not what the rules did by
themselves, not a Summon that a resolving link has since followed; an offer
whose card left is lost; a monster's Quick Effect may be chained twice."""

from __future__ import annotations

from pathlib import Path

import bundled
import pytest
import tcgtrig

POSITIONS = sorted((Path(__file__).parent / "positions").glob("*.yaml"))


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_position(path):
    scenario = tcgtrig.load_scenario(path)
    for game in scenario.games():
        result = bundled.outcome(path, game)  # the run's one resolution of the pair
        if isinstance(result, tcgtrig.TcgTrigError):
            raise result
        # some scripts end with a probe a right engine never asks for (it stays unused)
        assert tcgtrig.check_expectation(result, result.compiled.expect) == [], game


def test_an_offer_whose_card_left_is_lost():
    result = tcgtrig.resolve(tcgtrig.load_scenario(Path(__file__).parent / "positions" / "offer-card-discarded.yaml"))
    lost = [s for s in result.trace if s.kind == "lost"]
    assert lost and all("its card moved" in s["reason"] for s in lost)


def test_two_keys_for_one_ruleset_are_an_error():
    text = """
format: 1
title: t
players: [A, B]
turn_player: A
cards: []
start: []
expect:
  yugioh: {resolved: []}
  yugioh/tcg: {resolved: []}
"""
    with pytest.raises(tcgtrig.ScenarioError, match="'yugioh' and 'yugioh/tcg' name the same ruleset"):
        tcgtrig.scenario_from_text(text).compile(tcgtrig.load_ruleset("yugioh"))


@pytest.mark.parametrize("name", ["yugioh/", "/ocg", "yugioh/OCG", "yugioh/nope"])
def test_bad_variant_names_are_refused(name):
    with pytest.raises(tcgtrig.UnknownGameError):
        tcgtrig.load_ruleset(name)
