"""Response windows of long chains: each window looks only at the
responding player's activated abilities, and an effect is made only for
the response chosen, so a chain of N responses costs O(N) effects; what is
offered (its labels, their order, the default) is as before."""

from __future__ import annotations

from typing import Any

import pytest
import tcgtrig
import tcgtrig.runtime.activation as activation
import tcgtrig.runtime.responders as responders
from helpers import responses, run
from tcgtrig import GameInfo, hookimpl


def effects_made(monkeypatch: pytest.MonkeyPatch, links: int) -> tuple[int, list[str]]:
    """How many pending effects the activation part makes over a chain of
    ``links`` responses, and the order the effects resolved in."""
    made = [0]
    real_effect, real_evolve, real_change = activation.PendingEffect, activation.evolve, activation.change_pending

    def effect(*args: Any, **kwargs: Any) -> Any:
        made[0] += 1
        return real_effect(*args, **kwargs)

    def evolve(inst: Any, **changes: Any) -> Any:
        made[0] += isinstance(inst, real_effect)
        return real_evolve(inst, **changes)

    def change(inst: Any, **changes: Any) -> Any:
        made[0] += 1
        return real_change(inst, **changes)

    monkeypatch.setattr(activation, "PendingEffect", effect)
    monkeypatch.setattr(activation, "evolve", evolve)
    monkeypatch.setattr(activation, "change_pending", change)
    monkeypatch.setattr(responders, "change_pending", change)
    text, choices = responses(links)
    result = run(text, "yugioh", choices=choices)
    monkeypatch.undo()
    assert result.outcome == "complete"
    return made[0], result.keys("resolved")


def test_a_chain_of_n_responses_makes_effects_in_linear_number(monkeypatch):
    small, order = effects_made(monkeypatch, 60)
    large, _ = effects_made(monkeypatch, 120)
    # every link was chosen, and the chain resolved last in first out
    assert order == [f"q{i}.quick" for i in reversed(range(60))] + ["starter.main"]
    assert large <= 2.2 * small, (small, large)


def choices_of(result: tcgtrig.Resolution) -> list[list[str]]:
    return [list(step["options"]) for step in result.trace if step.kind == "choice"]


class Toy:
    """A chain game with the core's spell-speed rule (no ``tcgtrig_can_respond``)."""

    @hookimpl
    def tcgtrig_game_info(self):
        return GameInfo(name="toychain", title="Chain toy", version="0", resolution="chain")


@pytest.mark.parametrize("game", ["toychain", "yugioh"])
def test_a_response_slower_than_the_top_link_is_not_offered(game):
    ruleset = tcgtrig.load_ruleset("toychain", plugins=(Toy(),), autoload=False) if game == "toychain" else game
    result = run(
        """
        cards:
          - {id: spell, owner: A, zone: hand, abilities: [{id: main, kind: activated, do: []}]}
          - {id: slow, owner: B, zone: field, abilities: [{id: ignition, kind: activated, speed: 1, do: []}]}
          - {id: quick, owner: B, zone: field, abilities: [{id: q, kind: activated, speed: 2, do: []}]}
          - {id: counter, owner: B, zone: field, abilities: [{id: c, kind: activated, speed: 3, do: []}]}
          - {id: a2, owner: A, zone: field, abilities: [{id: q, kind: activated, speed: 2, do: []}]}
        start: [{activate: spell.main}]
        """,
        ruleset,
        choices=["counter.c"],
    )
    # B may answer the speed-1 spell with speed 2 or 3; A may not answer speed 3 with speed 2
    assert choices_of(result)[0] == ["quick.q", "counter.c", "pass"]
    assert all(step["player"] == "B" for step in result.trace if step.kind == "choice")
    assert result.keys("resolved") == ["counter.c", "spell.main"]


def test_a_once_per_turn_response_used_once_is_not_offered_again():
    ruleset = tcgtrig.load_ruleset("toychain", plugins=(Toy(),), autoload=False)
    result = run(
        """
        cards:
          - {id: spell, owner: A, zone: hand, abilities: [{id: main, kind: activated, do: []}]}
          - {id: once, owner: B, zone: field, abilities: [{id: q, kind: activated, speed: 2, per_turn: 1, do: []}]}
          - {id: again, owner: B, zone: field, abilities: [{id: q, kind: activated, speed: 2, do: []}]}
          - {id: mine, owner: A, zone: field, abilities: [{id: q, kind: activated, speed: 2, do: []}]}
        start: [{activate: spell.main}]
        """,
        ruleset,
        choices=["once.q", "mine.q", "again.q", "pass", "pass"],
    )
    options = choices_of(result)
    assert options[0] == ["once.q", "again.q", "pass"]
    assert options[2] == ["again.q", "pass"]  # B's second window: the once-per-turn one is spent
    assert result.keys("resolved") == ["again.q", "mine.q", "once.q", "spell.main"]
    ids = [(step["effect"], step["id"]) for step in result.trace if step.kind == "activated"]
    assert [key for key, _ in ids] == ["spell.main", "once.q", "mine.q", "again.q"]
