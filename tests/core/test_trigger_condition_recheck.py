"""``GameInfo.recheck_trigger_condition``: a pending effect whose trigger
condition stopped holding is lost (Digimon CR 15-4-4-5); by default the
condition is only looked at as the event happens."""

from __future__ import annotations

import pytest
from helpers import info_only_ruleset, run
from tcgtrig.runtime.evaluate import Evaluator

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


# Re-checking every waiting effect before every pick was N² (issue 26): the
# machine re-checks only the conditions reading what changed.  What must be
# re-checked still is: a condition that held at the last pick is lost as
# soon as a later pick changes what it reads.

FLIPS_LATER = """
    cards:
      - id: a
        owner: A
        zone: battle
        abilities: [{id: go, when: {event: ping}, do: [{gain: {counter: other}}]}]
      - id: b
        owner: A
        zone: battle
        abilities: [{id: go, when: {event: ping}, do: [BREAK]}]
      - id: c
        owner: A
        zone: battle
        abilities:
          - {id: go, when: {event: ping}, trigger_condition: CONDITION, do: [{gain: {counter: n}}]}
      - id: d
        owner: A
        zone: battle
        abilities: [{id: go, when: {event: ping}, do: [{gain: {counter: other}}]}]
      - {id: t, owner: B, zone: battle}
    counters: {A: {ready: 1}, B: {ready: 1}}
    start: [{mark: {set: open}}, {emit: {event: ping}}]
    choices: [a.go, b.go]
    """


def steps(result):
    """``(kind, effect)`` of the steps about the four effects, and the choices."""
    return [
        (step.kind, step.get("effect") or step.get("label"))
        for step in result.trace
        if step.kind in ("resolved", "lost", "choice")
    ]


@pytest.mark.parametrize(
    ("condition", "breaks"),
    [
        ("{player: self, counter: ready, gte: 1}", "{lose: {counter: ready}}"),
        ("{player: opponent, counter: ready, gte: 1}", "{lose: {player: opponent, counter: ready}}"),
        ("{player: B, counter: ready, eq: 1}", "{gain: {player: B, counter: ready}}"),
        ("{not: {player: self, counter: ready, lt: 1}}", "{lose: {counter: ready}}"),
        ("{all: [{mark: open}, {player: self, counter: other, lte: 5}]}", "{mark: {clear: open}}"),
        ("{any: [{mark: shut}, {card: t, in: battle}]}", "{move: {card: t, to: trash}}"),
        ("{count: {zone: battle, owner: opponent}, gte: 1}", "{move: {card: t, to: trash}}"),
        ("{player: turn_player, counter: ready, gte: 1}", "{lose: {counter: ready}}"),
    ],
)
def test_a_condition_that_held_at_the_first_pick_is_lost_as_soon_as_a_later_pick_breaks_it(condition, breaks):
    """``c`` is checked before the first pick (it holds, and ``a``'s gain
    touches nothing it reads), and again before the third, after ``b``
    broke it: it is lost then, so ``d`` goes without a choice — whatever
    its condition reads."""
    ruleset = info_only_ruleset("recheck", recheck_trigger_condition=True)
    result = run(FLIPS_LATER.replace("CONDITION", condition).replace("BREAK", breaks), ruleset)
    assert steps(result) == [
        ("choice", "a.go"),
        ("resolved", "a.go"),
        ("choice", "b.go"),
        ("resolved", "b.go"),
        ("lost", "c.go"),
        ("resolved", "d.go"),
    ]


def test_a_condition_nothing_touches_still_holds():
    ruleset = info_only_ruleset("recheck", recheck_trigger_condition=True)
    text = FLIPS_LATER.replace("CONDITION", "{player: self, counter: ready, gte: 1}")
    text = text.replace("BREAK", "{lose: {player: opponent, counter: ready}}")
    result = run(text.replace("choices: [a.go, b.go]", "choices: [a.go, b.go, c.go]"), ruleset)
    assert result.keys("resolved") == ["a.go", "b.go", "c.go", "d.go"]
    assert result.state.counter("A", "n") == 1


def conditioned(count: int) -> str:
    """``count`` effects triggered at once, each re-checked while it waits
    (its condition reads a counter nothing changes)."""
    cards = "".join(
        f"""
      - id: k{i}
        owner: A
        zone: battle
        abilities:
          - id: go
            when: {{event: ping}}
            trigger_condition: {{player: self, counter: ready, gte: 1}}
            do: [{{gain: {{counter: n}}}}]"""
        for i in range(count)
    )
    return f"""
    cards:{cards}
    counters: {{A: {{ready: 1}}}}
    start: [{{emit: {{event: ping}}}}]
    """


def test_condition_checks_grow_linearly_with_the_effects_waiting(monkeypatch):
    """Counted, not timed: the conditions checked for N and 2N effects
    waiting at once (before issue 26, about N²/2 of them)."""
    ruleset = info_only_ruleset("recheck", recheck_trigger_condition=True)
    holds = Evaluator.holds
    calls = 0

    def counting(view, condition, scope, did=None):
        nonlocal calls
        calls += 1
        return holds(view, condition, scope, did)

    monkeypatch.setattr(Evaluator, "holds", counting)
    counts = {}
    for size in (100, 200):
        calls = 0
        result = run(conditioned(size), ruleset)
        assert result.state.counter("A", "n") == size
        counts[size] = calls
    assert counts[200] <= 2.2 * counts[100], counts
