"""Copying a position (``explore``, ``Engine.copy``): frames and effects
being carried out are copied field by field, sharing the frozen values and
copying what may change, so a copy and its original never affect each
other (issue 26: copies share what is immutable)."""

from __future__ import annotations

import copy

import tcgtrig
from helpers import run, scenario
from tcgtrig.model.values import CardIds, Move
from tcgtrig.runtime.evaluate import Scope
from tcgtrig.runtime.frames import EffectRun, MainLoop, Perform, shallow_copy


def make_frames() -> tuple[EffectRun, Perform, Perform]:
    run = EffectRun(scope=Scope(key="a.go", controller="A"), instance=3, trigger_cause=1, depth=1)
    run.did["previous"] = 2
    move = Move(card=CardIds(("b",)), to="trash")
    first = Perform((move,), run, label="gone")
    first.chosen.append({"card": ["b"]})
    second = Perform((move, move), run, runs=(run, run), merge_into=first)
    return run, first, second


def test_frozen_fields_are_shared_and_live_ones_copied():
    run, first, second = make_frames()
    run_copy, first_copy, second_copy = copy.deepcopy([run, first, second])
    assert first_copy.parts is first.parts and run_copy.scope is run.scope
    assert first_copy.chosen == first.chosen and first_copy.chosen is not first.chosen
    assert run_copy.did == {"previous": 2} and run_copy.did is not run.did


def test_a_copy_keeps_which_frame_points_at_which():
    run, first, second = make_frames()
    run_copy, first_copy, second_copy = copy.deepcopy([run, first, second])
    assert first_copy.run is run_copy and second_copy.merge_into is first_copy
    assert second_copy.runs == (run_copy, run_copy)


def test_changing_a_copy_leaves_the_original_alone():
    run, first, second = make_frames()
    run_copy, first_copy, _ = copy.deepcopy([run, first, second])
    run_copy.note(5, "gone")
    first_copy.chosen[0]["card"].append("c")
    first_copy.phase = "apply"
    assert run.did == {"previous": 2}
    assert first.chosen == [{"card": ["b"]}] and first.phase == "select"


def test_a_shallow_copy_has_the_same_values_in_a_new_object():
    loop = MainLoop((), phase="settle", nested=True)
    twin = shallow_copy(loop)
    assert twin is not loop and (twin.start, twin.phase, twin.nested) == ((), "settle", True)


ORDER = """
cards:
  - {id: a, owner: A, zone: battle, abilities: [{id: x, when: ping, do: [{gain: {counter: n}}]}]}
  - {id: b, owner: A, zone: battle, abilities: [{id: y, when: ping, do: [{gain: {counter: m}}]}]}
  - {id: c, owner: A, zone: battle, abilities: [{id: z, when: ping, do: [{gain: {counter: k}}]}]}
start: [{emit: {event: ping}}]
"""


def test_a_copy_at_an_order_decision_goes_on_alike_after_the_original_has_finished():
    # the decision's labels read the pending effects: the copy's must read its own, not the original's
    answers = ["b.y", "c.z"]
    uninterrupted = run(ORDER, "digimon", choices=answers).json_text()
    engine = tcgtrig.Engine.for_scenario(scenario(ORDER), "digimon")
    decision = engine.advance()
    assert decision is not None and list(decision.options) == ["a.x", "b.y", "c.z"]
    copied = engine.copy()
    for label in answers:  # the original goes first, to the end
        engine.answer(label)
        engine.advance()
    assert engine.finished
    assert list(copied.decision.options) == ["a.x", "b.y", "c.z"]
    for label in answers:
        copied.answer(label)
        copied.advance()
    assert copied.result().json_text() == uninterrupted
