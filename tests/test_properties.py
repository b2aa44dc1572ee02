"""Property tests: random positions under every game, random choices.

The generic invariants come from the conformance kit (what a third-party
game runs on itself); each game's own order is checked here from its
traces.  CI runs a bounded number of examples; ``--hypothesis-profile=long``
runs 10,000 per test.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
import tcgtrig
from hypothesis import given, settings
from hypothesis import strategies as st
from tcgtrig.choices import RandomChooser
from tcgtrig.conformance import check_position, check_ruleset, random_position
from tcgtrig.scenario.reading import scenario_from_data


def _every_ruleset() -> tuple[str, ...]:
    """Every installed game, and each of its variants but the default."""
    names: list[str] = []
    for game in tcgtrig.available_games():
        names.append(game)
        names += [f"{game}/{variant}" for variant, _ in tcgtrig.load_ruleset(game).info.variants[1:]]
    return tuple(names)


GAMES = _every_ruleset()
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
#: Each random position is a whole resolution (about 10 ms, more for a
#: loop): the ``ci`` profile runs 30 per test, ``long`` its own 10,000.
EXAMPLES = settings.default.max_examples if settings.default.max_examples > 1_000 else 30
given_seed = given(seed=SEEDS)


def property_test(test: Any) -> Any:
    return settings(max_examples=EXAMPLES, deadline=None)(given_seed(test))


@cache
def ruleset(game: str) -> tcgtrig.Ruleset:
    return tcgtrig.load_ruleset(game)


def resolved(data: dict[str, Any], game: str, seed: int) -> tcgtrig.Resolution:
    scenario = scenario_from_data(data, file="<random>", check_game=False)
    return tcgtrig.Engine.for_scenario(scenario, ruleset(game), max_steps=400).run(RandomChooser(seed)).result()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@property_test
def test_random_positions_keep_the_core_invariants(game, seed):
    counts = check_position(random_position(seed), ruleset(game), seed=seed)
    # the same position and seed take the same activations and decisions again
    assert check_position(random_position(seed), ruleset(game), seed=seed) == counts


def test_the_kit_is_one_call_and_says_what_it_looked_at():
    report = check_ruleset("digimon", positions=20)
    assert (report.game, report.positions) == ("digimon", 20)
    assert report.activations > 0 and report.decisions > 0


def test_the_kit_catches_a_game_that_breaks_an_invariant():
    from tcgtrig import hookimpl
    from tcgtrig.conformance import ConformanceError

    class Forgetful:  # loses track of time: the same seed no longer gives the same trace
        calls = 0

        @hookimpl
        def tcgtrig_pending_details(self):
            Forgetful.calls += 1
            return {"asked": Forgetful.calls}

    with pytest.raises(ConformanceError, match="the same seed gave another trace"):
        check_ruleset("digimon", positions=20, plugins=[Forgetful()])


def _main_activations(trace: list[tcgtrig.Step]) -> list[tuple[tcgtrig.Step, list[tcgtrig.Step]]]:
    """Each activation of a pending (main) effect, with what was pending then."""
    pending: dict[int, tcgtrig.Step] = {}
    out = []
    for step in trace:
        if step.kind == "triggered" and not step.get("interrupting"):
            pending[step["id"]] = step
        elif step.kind == "activated" and step.get("id") in pending:
            out.append((step, list(pending.values())))
            del pending[step["id"]]
        elif step.kind in ("declined", "failed", "lost", "missed", "resolved") and step.get("id") in pending:
            del pending[step["id"]]
    return out


@property_test
def test_digimon_newer_layers_first_and_the_turn_player_first_within_one(seed):
    data = random_position(seed)
    result = resolved(data, "digimon", seed)
    turn_player = data["turn_player"]
    for step, waiting in _main_activations(result.trace):
        top = max(s["priority"] for s in waiting)
        assert step["priority"] == top, "an effect of an older layer went before a newer one"
        layer = [s for s in waiting if s["priority"] == top]
        if any(s["player"] == turn_player for s in layer):
            assert step["player"] == turn_player, "the non-turn player went first within a layer"


@property_test
def test_duel_masters_shield_triggers_first_then_the_active_players(seed):
    data = random_position(seed, tags=("shield_trigger", "before_break"))
    result = resolved(data, "duelmasters", seed)
    classes = ("shield trigger", "before break", "ordinary")

    def rank(step: tcgtrig.Step) -> tuple[int, int]:
        return classes.index(step["class"]), 0 if step["side"] == "active" else 1

    for step, waiting in _main_activations(result.trace):
        assert rank(step) == min(rank(s) for s in waiting), "the pool's order was not kept"


@pytest.mark.parametrize("game", ["yugioh", "yugioh/ocg", "yugioh/goat"])
@property_test
def test_yugioh_chains_resolve_last_link_first(game, seed):
    result = resolved(random_position(seed), game, seed)
    links: dict[int, list[int]] = {}
    resolved_links: dict[int, list[int]] = {}
    for step in result.trace:
        if step.kind == "activated" and step.get("chain_link"):
            links.setdefault(step["chain"], []).append(step["chain_link"])
        elif step.kind in ("resolved", "failed") and step.get("chain_link"):
            resolved_links.setdefault(step["chain"], []).append(step["chain_link"])
    for chain, order in resolved_links.items():
        assert order == sorted(order, reverse=True), f"chain {chain} did not resolve last in, first out"
        assert links[chain] == sorted(links[chain]) == list(range(1, len(links[chain]) + 1))


@property_test
def test_yugioh_segoc_puts_the_turn_players_mandatory_triggers_first(seed):
    data = random_position(seed)
    result = resolved(data, "yugioh", seed)
    optional = {
        f"{card['id']}.{ability['id']}": bool(ability.get("optional"))
        for card in data["cards"]
        for ability in card.get("abilities") or []
    }
    turn_player = data["turn_player"]
    by_chain: dict[int, list[tuple[int, int]]] = {}
    for step in result.trace:
        if step.kind == "activated" and step.get("chain_link") and step.get("cause") is not None:
            group = (1 if optional.get(step["effect"]) else 0) * 2 + (0 if step["player"] == turn_player else 1)
            by_chain.setdefault(step["chain"], []).append((step.get("cause"), group))
    for chain, groups in by_chain.items():
        # links built from triggers of one moment (one cause) follow SEGOC's groups in order
        for cause in {c for c, _ in groups}:
            order = [g for c, g in groups if c == cause]
            assert order == sorted(order), f"chain {chain}: SEGOC groups out of order: {order}"
