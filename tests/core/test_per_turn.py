"""Per-turn limits: ``once_per_turn``, ``per_turn: N``, and games in which a
spent ability does not trigger at all (``GameInfo.spent_abilities_trigger``)."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import info_only_ruleset, plain_ruleset, run

PING_THRICE = """
    cards:
      - id: twice
        owner: A
        zone: battle
        abilities:
          - {id: go, per_turn: 2, when: {event: ping}, do: [{gain: {counter: n}}]}
    start:
      - emit: {event: ping}
      - resolve_pending: {}
      - emit: {event: ping}
      - resolve_pending: {}
      - emit: {event: ping}
    """


def test_per_turn_two_resolves_twice_then_fails_by_default(plain):
    result = run(PING_THRICE, plain)
    assert result.keys("resolved") == ["twice.go", "twice.go"]
    assert result.keys("failed") == ["twice.go"]
    failed = next(s for s in result.trace if s.kind == "failed")
    assert "2 times per turn" in failed["reason"]
    assert result.state.counter("A", "n") == 2 and result.state.used == {"twice.go": 2}


def test_a_spent_ability_does_not_trigger_where_the_game_says_so():
    strict = info_only_ruleset("strict", spent_abilities_trigger=False)
    result = run(PING_THRICE, strict)
    assert result.keys("triggered") == ["twice.go", "twice.go"]
    assert result.keys("resolved") == ["twice.go", "twice.go"] and result.keys("failed") == []


def test_an_effect_already_pending_when_the_count_runs_out_still_fails():
    strict = info_only_ruleset("strict", spent_abilities_trigger=False)
    result = run(
        """
        cards:
          - id: a
            owner: A
            zone: battle
            abilities:
              - {id: go, once_per_turn: true, when: {event: ping}, do: [{gain: {counter: n}}]}
        start: [{emit: {event: ping}}, {emit: {event: ping}}]
        """,
        strict,
    )
    # both triggered before either activated: the second finds its use spent
    assert result.keys("triggered") == ["a.go", "a.go"]
    assert result.keys("resolved") == ["a.go"] and result.keys("failed") == ["a.go"]


def test_both_spellings_of_once_cannot_disagree():
    with pytest.raises(tcgtrig.TcgTrigError, match="per_turn"):
        run(
            """
            cards:
              - id: a
                owner: A
                zone: battle
                abilities:
                  - {id: go, once_per_turn: true, per_turn: 2, when: {event: ping}, do: []}
            start: []
            """,
            plain_ruleset(),
        )


def test_per_turn_round_trips_through_scenario_data(plain):
    ability = tcgtrig.Ability(id="go", per_turn=2)
    assert ability.uses_per_turn == 2
    assert tcgtrig.Ability(id="go", once_per_turn=True).uses_per_turn == 1
    assert tcgtrig.Ability(id="go").uses_per_turn == 0


def test_a_position_in_progress_can_start_with_uses_spent():
    strict = info_only_ruleset("strict", spent_abilities_trigger=False)
    result = run(PING_THRICE.rstrip(" ") + "    used: [twice.go]\n", strict)
    assert result.keys("resolved") == ["twice.go"] and result.state.used == {"twice.go": 2}


SPENT_INTERRUPT = """
    cards:
      - id: mon
        owner: A
        zone: battle
        abilities:
          - id: save
            kind: interrupt
            once_per_turn: true
            when: {event: deleted, card: self}
            do: [{prevent: {}}]
    used: [mon.save]
    start:
      - move: {card: mon, to: trash, as: deleted}
    """


def test_a_spent_interrupt_does_not_trigger_where_the_game_says_so():
    # the "when ... would" window checks the per-turn use as the interrupt would trigger (runtime/performing.py)
    strict = info_only_ruleset("strict", spent_abilities_trigger=False)
    result = run(SPENT_INTERRUPT, strict)
    assert result.keys("triggered") == [] and result.keys("failed") == []
    assert result.state.cards["mon"].zone == "trash"


def test_a_spent_interrupt_triggers_and_fails_by_default(plain):
    result = run(SPENT_INTERRUPT, plain)
    assert result.keys("failed") == ["mon.save"] and result.keys("prevented") == []
    assert result.state.cards["mon"].zone == "trash"
