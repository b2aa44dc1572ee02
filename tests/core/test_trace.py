"""The trace container: steps are kept as (kind, flat) pairs and made when read."""

from __future__ import annotations

import copy

from tcgtrig import Step, Trace

from tests.helpers import run

DEEP = """
    cards:
      - {id: x, owner: A, zone: battle, abilities: [{id: a, when: {event: gained}, do: [{gain: {counter: c}}],
                                                      condition: {player: self, counter: c, lt: 4}}]}
    start: [{gain: {counter: c}}]
"""


def test_steps_read_back_as_written():
    trace = Trace()
    trace.add("resolved", ("effect", "x.a", "player", "A", "id", 3))
    trace.append(Step.make("ended", outcome="draw", reason="loop"))
    assert len(trace) == 2 and trace
    assert trace[0] == Step.from_flat("resolved", ("effect", "x.a", "player", "A", "id", 3))
    assert trace[-1].kind == "ended" and trace[-1]["reason"] == "loop"
    assert [step.kind for step in trace] == ["resolved", "ended"]
    assert trace[1:] == [trace[1]]
    assert not Trace()


def test_a_copy_is_independent():
    trace = Trace([Step.make("start", effect="start", player="A", id=0)])
    for clone in (trace.copy(), copy.deepcopy(trace)):
        clone.add("resolved", ("effect", "x.a"))
        assert len(clone) == 2 and len(trace) == 1


def test_effects_of_a_kind_match_reading_every_step():
    result = run(DEEP)
    trace = result.trace
    for kind in ("resolved", "activated", "triggered", "failed", "choice", "event", "start"):
        slow = [step["effect"] for step in trace if step.kind == kind and step.get("effect")]
        assert trace.effects(kind) == slow
    assert result.keys("resolved") == ["x.a", "x.a", "x.a"]
    assert result.keys("failed") == ["x.a"]


def test_an_effect_key_written_after_other_keys_is_found():
    trace = Trace()
    trace.append(Step.make("choice", decision="order", player="A", label="b.go", effect="b.go"))
    trace.append(Step.make("choice", decision="target", player="A", label="c1"))
    assert trace.effects("choice") == ["b.go"]


def test_an_emit_writes_its_reason_in_the_events_step_and_unparses_to_it():
    from tcgtrig.scenario.unparse import action_to_data

    from tests.helpers import plain_ruleset, scenario

    text = """
        cards: [{id: x, owner: A, zone: battle}]
        start:
          - emit: {event: refused, card: x, by: rule, reason: "rule 1-2: not now"}
          - emit: {event: ping}
        """
    result = run(text, plain_ruleset())
    events = [step for step in result.trace if step.kind == "event"]
    assert events[0]["reason"] == "rule 1-2: not now" and events[0]["by"] == "rule"
    assert events[1].get("reason") is None  # only an emit that gives one
    assert result.to_dict()["steps"][1]["reason"] == "rule 1-2: not now"
    first = scenario(text).compile(plain_ruleset()).start[0]
    assert action_to_data(first) == {
        "emit": {"event": "refused", "card": ["x"], "by": "rule", "reason": "rule 1-2: not now"}
    }
