"""The garbage-collector policy while resolving (tcgtrig.base.collector).

The engine holds the cyclic collector back while it resolves; that is only
sound because resolving makes no reference cycles, which is checked here on
every bundled scenario.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest
import tcgtrig
from tcgtrig import PluginError, hookimpl
from tcgtrig.base.collector import RESOLVING_THRESHOLDS, held_back

from tests.helpers import PlainGame, run

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "traces"))
from make import bundled_pairs  # noqa: E402


@pytest.fixture
def default_thresholds():
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


def test_resolving_every_bundled_scenario_leaves_no_cyclic_garbage():
    engines = []
    for path, game in bundled_pairs():
        scenario = tcgtrig.load_scenario(path, check_game=False)
        engines.append(tcgtrig.Engine.for_scenario(scenario, game))
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for engine in engines:
            engine.run(tcgtrig.DefaultChooser())
        cycles = gc.collect()  # the engines are still alive: only garbage made while resolving counts
        finished = sum(engine.finished for engine in engines)
    finally:
        if enabled:
            gc.enable()
    assert finished >= 150
    assert cycles == 0, "resolving made reference cycles: the collector may not be held back"


def _counting(limit: int) -> str:
    return f"""
        cards:
          - {{id: x, owner: A, zone: battle, abilities: [{{id: a, when: {{event: gained}}, do: [{{gain: {{counter: c}}}}],
                                                          condition: {{player: self, counter: c, lt: {limit}}}}}]}}
        start: [{{gain: {{counter: c}}}}]
        """


def _thresholds_seen(limit: int) -> tuple[list[str], list[tuple[int, ...]]]:
    """The effects resolved counting to ``limit``, and the collector's
    thresholds as each effect was ranked."""
    seen = []

    class Watcher(PlainGame):
        @hookimpl
        def tcgtrig_pending_rank(self, state, effect):
            seen.append(gc.get_threshold())

    ruleset = tcgtrig.load_ruleset("plain", plugins=(Watcher(),), autoload=False)
    return run(_counting(limit), ruleset).keys("resolved"), seen


def test_a_long_advance_holds_the_collector_back_and_restores_it_after(default_thresholds):
    resolved, seen = _thresholds_seen(5000)
    assert len(resolved) == 4999
    # held back from the loop guard's first reading of the memory (2,048 steps in) to the end
    held = seen.index(RESOLVING_THRESHOLDS)
    assert 0 < held <= 2048 and set(seen[:held]) == {(700, 10, 10)} and set(seen[held:]) == {RESOLVING_THRESHOLDS}
    assert gc.get_threshold() == (700, 10, 10)


def test_a_short_advance_leaves_the_collector_as_it_is(default_thresholds):
    """Between two decisions an advance allocates little: switching the
    thresholds there (once per decision) cost more than it saved."""
    resolved, seen = _thresholds_seen(3)
    assert resolved == ["x.a", "x.a"]
    assert seen == [(700, 10, 10)] * 3  # the third fails its condition


def test_thresholds_are_restored_when_a_plugin_raises_while_they_are_held(default_thresholds):
    class Broken(PlainGame):
        @hookimpl
        def tcgtrig_pending_rank(self, state, effect):
            if state.counter("A", "c") > 3000:
                assert gc.get_threshold() == RESOLVING_THRESHOLDS
                raise ValueError("boom")

    ruleset = tcgtrig.load_ruleset("plain", plugins=(Broken(),), autoload=False)
    with pytest.raises(PluginError, match="boom"):
        run(_counting(5000), ruleset)
    assert gc.get_threshold() == (700, 10, 10)


def test_nested_holds_restore_once_at_the_outermost(default_thresholds):
    with held_back():
        with held_back():
            assert gc.get_threshold() == RESOLVING_THRESHOLDS
        assert gc.get_threshold() == RESOLVING_THRESHOLDS
    assert gc.get_threshold() == (700, 10, 10)


def test_a_program_s_own_settings_are_left_alone():
    saved = gc.get_threshold()
    try:
        gc.set_threshold(1_000_000, 10, 10)  # higher than the engine's: kept
        with held_back():
            assert gc.get_threshold() == (1_000_000, 10, 10)
        gc.set_threshold(0)  # automatic collection off: stays off
        with held_back():
            assert gc.get_threshold()[0] == 0
        assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*saved)
