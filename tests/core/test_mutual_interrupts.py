"""Interrupts and replacements that set each other off (issue 36).

Two cards each with "when this would be deleted, delete the other" nested
interrupt windows without end under every ruleset but Digimon's, until
the machine's frame limit ended the run under a frame that was still
stepping: an ``IndexError``.  Now the frames are dropped between steps,
so a game that limits no interrupt gets an endless loop's verdict, and
each bundled game (and example game) states the rule that stops the
nesting (``tests/hostile/mutual-*.yaml`` expect it under every game; the
scenario files cite each rule).

The fuzz: pairs and triples of cards whose interrupts and replacements
move one another, under every installed game and variant, resolved by a
seeded random player: no exception, every triggered effect ends once,
every cause comes first, and the end is complete or says why.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import tcgtrig
from helpers import plain_ruleset
from tcgtrig.choices import RandomChooser
from tcgtrig.conformance import check_causes, check_endings
from tcgtrig.engine import Engine
from traces.every_game import games as game_names

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


@pytest.mark.parametrize("game", ["digimon", "duelmasters", "yugioh", "magic", "lorcana"])
def test_every_game_stops_the_nesting_by_its_rule(game):
    would = tcgtrig.load_ruleset(game).info.would_effects
    for kind in ("interrupt", "replacement"):
        for prevent in (False, True):
            result = tcgtrig.resolve(mutual(kind, prevent), game)
            assert result.outcome == "complete", (kind, prevent, result.reason)
            if kind == "interrupt" and not would:  # Magic and Lorcana have no "when … would" triggers
                assert result.keys("triggered") == [] and result.state.cards["x"].zone == "grave"
                continue
            assert len(result.keys("failed")) == 1, (kind, prevent)


# -- the fuzz ------------------------------------------------------------------------------------------


def mutual_position(seed: int) -> dict[str, Any]:
    """Two or three cards whose interrupts and replacements move the others
    (to the grave, or back to the field), in core words; the same for a seed."""
    rng = random.Random(seed)
    ids = [f"c{i}" for i in range(rng.randint(2, 3))]
    cards = []
    for card_id in ids:
        others = [other for other in ids if other != card_id]
        abilities = []
        for number in range(rng.randint(1, 2)):
            kind = rng.choice(["interrupt", "replacement"])
            when: dict[str, Any] = {"event": "moved", "to": rng.choice(["grave", "grave", "field"])}
            when["card"] = rng.choice(["self", "self", "any", *others])
            moved = rng.sample(others, rng.randint(1, len(others)))
            do: list[dict[str, Any]] = [{"move": {"card": moved if len(moved) > 1 else moved[0], "to": "grave"}}]
            if rng.random() < 0.3:
                do.append({"move": {"card": rng.choice(ids), "to": "field"}})
            if kind == "replacement" or rng.random() < 0.4:
                do.insert(rng.randint(0, len(do)), {"prevent": {}})
            ability: dict[str, Any] = {"id": f"a{number}", "kind": kind, "when": when, "do": do}
            if rng.random() < 0.3:
                ability["optional"] = True
            abilities.append(ability)
        cards.append({"id": card_id, "owner": rng.choice(["A", "B"]), "zone": "field", "abilities": abilities})
    start = rng.sample(ids, rng.randint(1, 2))
    return {
        "format": 1,
        "title": f"mutual interrupts, seed {seed}",
        "players": ["A", "B"],
        "turn_player": "A",
        "cards": cards,
        "start": [{"move": {"card": start if len(start) > 1 else start[0], "to": "grave"}}],
    }


def resolve_mutual(seed: int, game: str) -> None:
    scenario = tcgtrig.scenario_from_data(mutual_position(seed), f"mutual-{seed}.yaml")
    engine = Engine.for_scenario(scenario, game).run(RandomChooser(seed))
    result = engine.result()
    complete = result.outcome == "complete"
    assert complete or (result.trace[-1].kind == "ended" and result.reason), (game, seed)
    check_endings(result.trace, complete=complete)
    check_causes(result.trace)


@pytest.mark.parametrize("game", game_names())
def test_mutual_interrupts_never_break_a_game(game):
    for seed in range(12):
        resolve_mutual(seed, game)


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
def test_mutual_interrupts_never_break_a_game_many(game):
    for seed in range(12, 400):
        resolve_mutual(seed, game)
