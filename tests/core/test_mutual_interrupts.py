"""Interrupts and replacements that set each other off (issue 36).

Two cards each with "when this would be deleted, delete the other" nested
interrupt windows without end under every ruleset but Digimon's, until
the machine's frame limit ended the run under a frame that was still
stepping: an ``IndexError``.  Now the frames are dropped between steps,
so a game that limits no interrupt gets an endless loop's verdict.
"""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import plain_ruleset
from tcgtrig.engine import Engine

MUTUAL = """
format: 1
title: two interrupts that move each other
players: [A, B]
turn_player: A
cards:
  - {id: x, owner: A, zone: field, abilities: [{id: save, kind: KIND, when: {event: moved, card: self, to: grave},
     do: DO_X}]}
  - {id: y, owner: B, zone: field, abilities: [{id: save, kind: KIND, when: {event: moved, card: self, to: grave},
     do: DO_Y}]}
start:
  - move: {card: x, to: grave}
"""


def mutual(kind: str, prevent: bool) -> tcgtrig.Scenario:
    first = "[{prevent: {}}, " if prevent else "["
    text = (
        MUTUAL.replace("KIND", kind)
        .replace("DO_X", first + "{move: {card: y, to: grave}}]")
        .replace("DO_Y", first + "{move: {card: x, to: grave}}]")
    )
    return tcgtrig.scenario_from_text(text, "mutual.yaml")


@pytest.mark.parametrize("prevent", [False, True], ids=["also", "instead"])
@pytest.mark.parametrize("kind", ["interrupt", "replacement"])
def test_a_game_that_limits_no_interrupt_gets_an_endless_loops_verdict(monkeypatch, kind, prevent):
    # the frame limit ended the run from inside a push, and the frame that pushed read the emptied stack
    monkeypatch.setattr("tcgtrig.runtime.machine.MAX_FRAMES", 300)
    result = tcgtrig.resolve(mutual(kind, prevent), plain_ruleset())
    assert result.outcome == "draw"
    assert result.reason == "endless loop: effects kept activating one another inside one effect (300 nested)"
    assert result.trace[-1].kind == "ended"
    assert result.state.cards["x"].zone == "field"  # the run ended before the first deletion happened


def test_the_stack_is_dropped_once_the_run_has_ended(monkeypatch):
    monkeypatch.setattr("tcgtrig.runtime.machine.MAX_FRAMES", 300)
    engine = Engine.for_scenario(mutual("interrupt", False), plain_ruleset())
    assert engine.advance() is None
    assert engine.finished and engine.machine.frames == []
    assert engine.copy().result().outcome == "draw"
