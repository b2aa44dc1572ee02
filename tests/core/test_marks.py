"""Marks (``mark``): the game's own bookkeeping, on no card — set and
cleared silently, read by ``{mark: NAME}``, kept when cards move, listed at
the end, saved and restored, and part of what makes a position."""

from __future__ import annotations

import json

import pytest
import tcgtrig
from helpers import run, scenario
from tcgtrig import DefaultChooser, Engine
from tcgtrig.scenario.serialization import state_from_dict, state_to_dict
from tcgtrig.scenario.unparse import action_to_data, condition_to_data

WATCHER = """
    cards:
      - id: mon
        owner: A
        zone: battle
        abilities:
          - id: note
            when: {event: ping, card: self}
            do: [{mark: {set: noted}}]
      - id: reader
        owner: A
        zone: battle
        abilities:
          - id: read
            when: {event: pong}
            condition: {mark: noted}
            do: [{gain: {counter: n}}]
    start:
      - emit: {event: ping, card: mon}
      - resolve_pending: {}
      - move: {card: mon, to: hand}
      - emit: {event: pong}
      - resolve_pending: {}
    """


def test_a_mark_outlives_the_card_that_set_it_and_is_read_by_a_condition(plain):
    result = run(WATCHER, plain)
    assert result.keys("resolved") == ["mon.note", "reader.read"]
    assert result.state.counter("A", "n") == 1
    assert result.state.marks == frozenset({"noted"})
    assert result.to_dict()["marks"] == ["noted"]


def test_a_mark_emits_no_event_and_is_left_out_of_the_end_state_when_there_is_none(plain):
    result = run(WATCHER.rstrip(" ") + "      - mark: {clear: noted}\n      - emit: {event: pong}\n", plain)
    assert result.keys("resolved") == ["mon.note", "reader.read"]
    assert result.keys("failed") == ["reader.read"]  # the second pong finds no mark
    events = [s["event"] for s in result.trace if s.kind == "event"]
    assert events == ["ping", "moved", "pong", "gained", "pong"]  # nothing for the marks
    assert result.state.marks == frozenset()
    assert "marks" not in result.to_dict()


def test_did_sees_whether_a_mark_changed(plain):
    result = run(
        """
        cards: []
        start:
          - mark: {set: x}
          - if: {did: previous}
            then: [{gain: {counter: first}}]
          - mark: {set: x}
          - if: {did: previous}
            then: [{gain: {counter: second}}]
        """,
        plain,
    )
    assert result.state.counter("A", "first") == 1 and result.state.counter("A", "second") == 0


@pytest.mark.parametrize(
    "action, message",
    [
        ("{mark: {set: a, clear: a}}", "expected exactly one of 'set' or 'clear'"),
        ("{mark: {}}", "expected exactly one of 'set' or 'clear'"),
        ("{mark: noted}", "expected {set: NAME} or {clear: NAME}"),
        ("{mark: {set: a, to: b}}", "unknown key 'to'"),
        ("{mark: {set: a}, as: b}", "'mark' makes no event, so it takes no 'by' or 'as'"),
        ("{together: [{mark: {set: a}}, {emit: {event: ping}}]}", "'together' holds actions that happen at once"),
    ],
)
def test_a_bad_mark_is_a_clear_error(plain, action, message):
    with pytest.raises(tcgtrig.TcgTrigError, match=message.replace("{", r"\{").replace("(", r"\(")):
        run(f"cards: []\nstart: [{action}]\n", plain)


def test_marks_are_part_of_the_position_and_its_fingerprint():
    state = tcgtrig.GameState.build(["A", "B"], "A", [])
    before = state.fingerprint()
    assert state.set_mark("x", True) and not state.set_mark("x", True)
    assert state.fingerprint() != before
    copy = state.copy()
    assert copy.marks == frozenset({"x"})
    assert state.set_mark("x", False) and not state.set_mark("x", False)
    assert state.fingerprint() == before and copy.marks == frozenset({"x"})


def test_a_mark_is_saved_and_restored():
    ruleset = tcgtrig.load_ruleset("digimon")
    compiled = scenario("cards: []\nstart: [{mark: {set: attack_ended}}]\n").compile(ruleset)
    engine = Engine(ruleset, compiled.state, compiled.start).run(DefaultChooser())
    saved = json.loads(json.dumps(state_to_dict(engine.state)))
    assert saved["marks"] == ["attack_ended"]
    assert state_from_dict(saved, ruleset).marks == frozenset({"attack_ended"})
    assert "marks" not in state_to_dict(tcgtrig.GameState.build(["A", "B"], "A", []))


def test_marks_unparse_to_what_was_written(plain):
    compiled = scenario("""
        cards: []
        start:
          - mark: {set: a, }
          - if: {mark: a}
            then: [{mark: {clear: a}, label: cleared}]
        """).compile(plain)
    first, second = compiled.start
    assert action_to_data(first) == {"mark": {"set": "a"}}
    assert condition_to_data(second.condition) == {"mark": "a"}
    assert action_to_data(second.then[0]) == {"mark": {"clear": "a"}, "label": "cleared"}


def test_the_text_output_lists_the_marks_left(plain):
    from tcgtrig.tools.render import render_text

    assert "Marks: noted" in render_text(run(WATCHER, plain))
    assert "Marks:" not in render_text(run("cards: []\nstart: [{mark: {set: a}}, {mark: {clear: a}}]\n", plain))
