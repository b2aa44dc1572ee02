"""``GameInfo.recheck_trigger_condition``: a pending effect whose trigger
condition stopped holding is lost (Digimon CR 15-4-4-5); by default the
condition is only looked at as the event happens."""

from __future__ import annotations

from helpers import info_only_ruleset, run

POSITION = """
    cards:
      - id: first
        owner: A
        zone: battle
        abilities:
          - {id: go, when: {event: ping}, do: [{lose: {counter: ready}}]}
      - id: second
        owner: A
        zone: battle
        abilities:
          - id: go
            when: {event: ping}
            trigger_condition: {player: self, counter: ready, gte: 1}
            do: [{gain: {counter: n}}]
    counters: {A: {ready: 1}}
    start: [{emit: {event: ping}}]
    choices: [first.go]
    """


def test_by_default_a_trigger_condition_is_only_checked_at_the_event(plain):
    result = run(POSITION, plain)
    assert result.keys("resolved") == ["first.go", "second.go"]


def test_a_game_can_make_the_effect_lost_once_its_trigger_condition_lapses():
    ruleset = info_only_ruleset("recheck", recheck_trigger_condition=True)
    result = run(POSITION, ruleset)
    assert result.keys("resolved") == ["first.go"]
    assert result.keys("lost") == ["second.go"]
    lost = next(s for s in result.trace if s.kind == "lost")
    assert "trigger condition no longer holds" in lost["reason"]
    assert result.state.counter("A", "n") == 0
