"""Review of issue 40 item 1 (a response whose words read only its card and
some zones is asked about again only after a card of those zones changed):
words that read more than that, shown by a window that offers a response
asking about everything would not (or the other way round).

Each position: B's window, then B chains ``x`` (discarding it), A chains
``a1``, B's next window.  Between B's two windows only ``x`` changed (hand
to graveyard) — and, through the continuous ability of ``lord`` ("while
``x`` is in the graveyard, +500 ATK"), a stat of a card of the field, which
is no change of that card.  Both chain links are of speed 2, so B's table
is kept between its windows; 12 plain quick effects keep the table larger
than what changes."""

from __future__ import annotations

from typing import Any

import pytest
import tcgtrig

from tests.core.test_responders_review import ruleset

HEAD = """\
format: 1
title: a stat a continuous ability changes, read by a response
players: [A, B]
turn_player: A
counters: {A: {lp: 8000}, B: {lp: 8000}}
cards:
  - {id: starter, owner: A, zone: field, types: [spell], abilities: [{id: main, kind: activated, speed: 2, do: [{lp: 1}]}]}
  - id: lord
    owner: A
    zone: field
    types: [monster]
    abilities:
      - id: boost
        kind: continuous
        condition: {card: x, in: graveyard}
        do: [{change: {card: BOOSTED, stat: atk, by: 500}}]
  - {id: c1, owner: A, zone: field, types: [monster], stats: {atk: 1000}}
  - {id: c2, owner: A, zone: field, types: [monster], stats: {atk: 1000}}
  - id: x
    owner: B
    zone: hand
    types: [monster]
    abilities: [{id: e, kind: activated, speed: 2, cost: [{discard: self}], do: [{lp: 1}]}]
  - {id: a1, owner: A, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2, do: [{lp: 1}]}]}
"""

FILLERS = "".join(
    f"  - {{id: f{i}, owner: {'AB'[i % 2]}, zone: field, types: [monster],"
    " abilities: [{id: e, kind: activated, speed: 2, do: [{lp: 1}]}]}\n"
    for i in range(12)
)


def position(boosted: str, reader: str) -> tcgtrig.Scenario:
    text = HEAD.replace("BOOSTED", boosted) + reader + FILLERS + "start: [{activate: starter.main}]\n"
    return tcgtrig.scenario_from_text(text, "<review>")


def b_windows(scenario: tcgtrig.Scenario, keep: bool) -> list[list[str]]:
    """The options of B's first and second windows."""
    engine = tcgtrig.Engine.for_scenario(scenario, ruleset("yugioh", keep))
    found: list[list[str]] = []
    for answer in ("x.e", "a1.e", None):
        decision = engine.advance()
        assert decision is not None and decision.kind == "respond"
        if decision.player == "B":
            found.append(list(decision.options))
        if answer is not None:
            engine.answer(answer)
    return found


READERS: dict[str, tuple[str, str]] = {
    # Hammer Shot's "the monster with the highest ATK", two of them: c1 and
    # c2 tie at 1000 until x is in the graveyard (c1: 1500); the target's
    # zone (the field) did not change
    "highest": (
        "c1",
        "  - {id: rd, owner: B, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2,"
        " target: {zone: field, owner: opponent, highest: atk, pick: 2}, do: [{lp: 1}]}]}\n",
    ),
    "lowest": (
        "c1",
        "  - {id: rd, owner: B, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2,"
        " target: {zone: field, owner: opponent, lowest: atk, pick: 2}, do: [{lp: 1}]}]}\n",
    ),
    # a cost of its own card whose planning asks the game (the battle hook,
    # which reads stats and anything else): a direct attack of 0 ATK does
    # nothing, one of 500 ATK deals damage
    "battle cost": (
        "rd",
        "  - {id: rd, owner: B, zone: field, types: [monster], stats: {atk: 0}, abilities: [{id: e,"
        " kind: activated, speed: 2, cost: [{battle: {card: self}}], do: [{lp: 1}]}]}\n",
    ),
}


@pytest.mark.parametrize("name", list(READERS))
def test_a_response_reading_what_no_zone_change_shows_is_asked_again(name: str) -> None:
    boosted, reader = READERS[name]
    scenario = position(boosted, reader)
    asked_everything = b_windows(scenario, keep=False)
    kept = b_windows(scenario, keep=True)
    assert kept == asked_everything
    first, second = asked_everything
    # the window's answer did change: offered in one, not in the other
    assert ("rd.e" in first) != ("rd.e" in second)


def test_the_positions_keep_answers_of_zone_readers() -> None:
    """The positions do exercise kept answers: a response reading only a
    zone (the field) is not asked about again after a change of the hand
    and the graveyard."""
    asked: list[str] = []
    from tcgtrig.runtime.activation import Activating

    real = Activating.activation_failure

    def counting(self: Any, effect: Any, *args: Any) -> Any:
        asked.append(effect.key)
        return real(self, effect, *args)

    reader = (
        "  - {id: rd, owner: B, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2,"
        " target: {zone: field, owner: opponent, pick: 2}, do: [{lp: 1}]}]}\n"
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Activating, "activation_failure", counting)
        first, second = b_windows(position("c1", reader), keep=True)
    assert "rd.e" in first and "rd.e" in second
    assert asked.count("rd.e") == 1


COPIES = """\
format: 1
title: copies of a card whose cost is a battle, one of them stronger
players: [A, B]
turn_player: A
counters: {A: {lp: 8000}, B: {lp: 8000}}
cards:
  - {id: starter, owner: A, zone: field, types: [spell], abilities: [{id: main, kind: activated, speed: 2, do: [{lp: 1}]}]}
  - id: lord
    owner: A
    zone: field
    types: [monster]
    abilities: [{id: boost, kind: continuous, do: [{change: {card: r2, stat: atk, by: 500}}]}]
  - id: r1
    name: R
    owner: B
    zone: field
    types: [monster]
    stats: {atk: 0}
    abilities: [{id: e, kind: activated, speed: 2, cost: [{battle: {card: self}}], do: [{lp: 1}]}]
  - id: r2
    name: R
    owner: B
    zone: field
    types: [monster]
    stats: {atk: 0}
    abilities: [{id: e, kind: activated, speed: 2, cost: [{battle: {card: self}}], do: [{lp: 1}]}]
start: [{activate: starter.main}]
"""


def test_copies_whose_battle_cost_reads_a_stat_a_continuous_ability_changes_are_asked_apart() -> None:
    """r1 and r2 are copies (alike in their records), but ``lord`` raises
    r2's ATK only: a direct attack of 0 ATK changes nothing (r1's cost
    cannot be paid), one of 500 ATK deals damage (r2's can).  Grouped, the
    copies were asked about through r1 and neither was offered."""
    engine = tcgtrig.Engine.for_scenario(tcgtrig.scenario_from_text(COPIES, "<copies>"), "yugioh")
    decision = engine.advance()
    assert decision is not None and decision.player == "B"
    assert list(decision.options) == ["r2.e", "pass"]
