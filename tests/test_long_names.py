"""Long names in long loops (issue 22, item 5): the memory a resolution
takes per step does not grow with the length of the names in it.  Every
effect, trace step and decision about an ability shares one string for its
key, made once (before: a 200 KB file peaked at 3.2 GB, and 800 KB gave a
MemoryError)."""

from __future__ import annotations

import tracemalloc

import pytest
import tcgtrig

#: a ping-pong that runs to the step limit: its condition reads a counter
#: that goes both ways, so no guard can call it endless early
LOOP = """\
format: 1
title: long names in a loop that runs to the step limit
game: digimon
players: [A, B]
turn_player: A
cards:
  - id: {a}
    owner: A
    zone: battle
    abilities: [{{id: go, when: {{event: ping_a}}, do: [{{gain: {{counter: n, amount: 2}}}}, {{lose: {{counter: n}}}},
                {{if: {{player: self, counter: n, gte: 0}}, then: [{{emit: {{event: ping_b}}}}]}}]}}]
  - id: {b}
    owner: A
    zone: battle
    abilities: [{{id: go, when: {{event: ping_b}}, do: [{{emit: {{event: ping_a}}}}]}}]
start: [{{emit: {{event: ping_a}}}}]
"""


def long_loop(length: int) -> str:
    """The loop with card ids ``length`` characters long."""
    return LOOP.format(a="a" * length, b="b" * length)


def resolve(text: str, game: str = "digimon", **kwargs) -> tcgtrig.Resolution:
    return tcgtrig.resolve(tcgtrig.scenario_from_text(text, "long.yaml"), game, **kwargs)


def test_every_step_about_an_ability_shares_one_key_string():
    result = resolve(long_loop(10_000), max_steps=300)
    assert "step limit reached" in result.reason
    keys = [step.get("effect") for step in result.trace if step.get("effect") not in (None, "start")]
    assert len(keys) > 800
    assert len({id(key) for key in keys}) == 2  # one string per ability, not one per step


@pytest.mark.slow
def test_memory_per_step_does_not_grow_with_the_names():
    def peak(length: int) -> int:
        scenario = tcgtrig.scenario_from_text(long_loop(length), "long.yaml")
        tracemalloc.start()
        try:
            tcgtrig.resolve(scenario, "digimon", max_steps=2_000)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    short, long = peak(10), peak(100_000)
    # 2,000 steps: a copy of a 100 KB name per step would be 200 MB (it was); sharing leaves the names' own 200 KB
    assert long - short < 5_000_000


def test_labels_of_repeated_keys_are_shared_across_decisions():
    # Duel Masters' single pool: the same key pending twice is offered as KEY#1, KEY#2, decision after decision
    name = "c" * 5_000
    text = f"""\
format: 1
title: t
players: [A, B]
turn_player: A
cards:
  - id: {name}
    owner: A
    zone: battle
    abilities: [{{id: go, when: {{event: ping}}, do: [{{gain: {{counter: n}}}},
                {{if: {{player: self, counter: n, lt: 30}}, then: [{{emit: {{event: ping}}}}, {{emit: {{event: ping}}}}]}}]}}]
start: [{{emit: {{event: ping}}}}, {{emit: {{event: ping}}}}]
"""
    result = resolve(text, "duelmasters", max_steps=5_000)
    assert result.outcome == "complete"
    offered = [label for step in result.trace if step.kind == "choice" for label in step.get("options", ())]
    assert len(offered) > 50 and all(label.startswith(name) for label in offered)
    assert len({id(label) for label in offered}) == len(set(offered))  # one string per label
