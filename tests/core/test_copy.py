"""Copying a position (``explore``, ``Engine.copy``): frames and effects
being carried out are copied field by field, sharing the frozen values and
copying what may change, so a copy and its original never affect each
other (issue 26: copies share what is immutable)."""

from __future__ import annotations

import copy

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
