"""Engine regressions found in review, each a small Duel Masters position
(in ``positions/``) whose ``expect`` block states the right result:
replacements applied together (609.9) pay their costs and apply only to the
events they took; costs that would change nothing cannot be paid; trigger
conditions hold for interrupts and replacements too; two one-card draws
stay two events."""

from __future__ import annotations

from pathlib import Path

import bundled
import pytest
import tcgtrig
from helpers import scenario

POSITIONS = sorted((Path(__file__).parent / "positions").glob("*.yaml"))


@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.stem)
def test_position(path):
    tcgtrig.load_scenario(path)  # its own game is installed and compiles it
    result = bundled.outcome(path, "duelmasters")  # the run's one resolution of the pair
    if isinstance(result, tcgtrig.TcgTrigError):
        raise result
    assert tcgtrig.check_expectation(result, result.compiled.expect) == []


def test_the_costs_that_cannot_be_paid_fail():
    for name in ("sback-cost-card-gone", "tap-cost-already-tapped"):
        result = tcgtrig.resolve(
            tcgtrig.load_scenario(Path(__file__).parent / "positions" / f"{name}.yaml"), "duelmasters"
        )
        reasons = [s.get("reason") for s in result.trace if s.kind == "failed"]
        assert reasons and all("cost cannot be paid" in r for r in reasons), name


def test_resolve_pending_cannot_stand_in_together():
    with pytest.raises(tcgtrig.ScenarioError, match="'together' holds actions that happen at once"):
        scenario("""
            cards: []
            start:
              - together: [{draw: 1}, {resolve_pending: {}}]
            """).compile(tcgtrig.load_ruleset("duelmasters"))


def test_a_trigger_condition_on_an_ability_that_does_not_trigger_is_refused():
    with pytest.raises(tcgtrig.ScenarioError, match="a continuous ability does not trigger"):
        scenario("""
            cards:
              - id: x
                owner: A
                zone: battle
                abilities: [{id: s, kind: continuous, trigger_condition: {count: {zone: battle}, gte: 1},
                             do: [{change: {card: self, stat: power, by: 1}}]}]
            start: []
            """).compile(tcgtrig.load_ruleset("duelmasters"))


def test_power_works_in_a_continuous_ability():
    result = tcgtrig.resolve(
        scenario("""
        cards:
          - id: x
            owner: A
            zone: battle
            types: [creature]
            stats: {power: 1000}
            abilities: [{id: s, kind: continuous, do: [{power: {card: self, by: 2000}}]}]
        start: []
        """),
        "duelmasters",
    )
    assert result.stat("x", "power") == 3000
