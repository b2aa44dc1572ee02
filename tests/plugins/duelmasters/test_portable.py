"""Digimon seed scenarios written in core words run under Duel Masters too,
and the two games resolve them in different orders."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcgtrig

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "digimon"
PORTABLE = ["triggered-04.yaml", "triggered-05.yaml", "triggered-09.yaml"]


@pytest.mark.parametrize("name", PORTABLE)
def test_a_portable_digimon_position_resolves_in_another_order_under_duel_masters(name):
    scenario = tcgtrig.load_scenario(SCENARIOS / name)
    assert {"digimon", "duelmasters"} <= set(scenario.games())
    # each game with its own choices from the file
    digimon = tcgtrig.resolve(scenario, "digimon")
    duelmasters = tcgtrig.resolve(scenario, "duelmasters")
    assert digimon.outcome == duelmasters.outcome == "complete"
    assert not digimon.unused_choices and not duelmasters.unused_choices
    assert digimon.keys("resolved") != duelmasters.keys("resolved")
    # the same effects, only in another order
    assert sorted(digimon.keys("resolved")) == sorted(duelmasters.keys("resolved"))
