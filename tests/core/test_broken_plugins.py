"""A broken game plugin is named — the plugin, the hook and the value —
for every hook: one that raises, and one that returns the wrong type.

Each hook is broken in turn by a house-rules plugin over a bundled game,
and the game's scenario files are resolved until one calls the hook."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcgtrig
from tcgtrig import PluginError, hookimpl
from tcgtrig.tools.render import render_text

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
GAMES = ("digimon", "duelmasters", "yugioh")
#: Hooks called while resolving (the others are called as a game loads).
RESOLVING_HOOKS = sorted(
    name
    for name in dir(tcgtrig.games.hookspecs)
    if name.startswith("tcgtrig_")
    and name not in ("tcgtrig_game_info", "tcgtrig_variant", "tcgtrig_addhooks", "tcgtrig_action_aliases")
)


def _broken(hook: str, raises: bool) -> object:
    def broken(self):  # noqa: ANN001, ANN202 - a hook may take any subset of its arguments
        if raises:
            raise RuntimeError(f"broken {hook}")
        return object()  # no hook returns that

    broken.__name__ = hook
    cls = type("Raises" if raises else "WrongType", (), {hook: hookimpl(tryfirst=True)(broken)})
    return cls()


def _first_failure(hook: str, raises: bool) -> PluginError | None:
    for game in GAMES:
        ruleset = tcgtrig.load_ruleset(game, plugins=[_broken(hook, raises)])
        for path in sorted((SCENARIOS / game).glob("*.yaml")) + sorted((SCENARIOS / "core").glob("*.yaml")):
            scenario = tcgtrig.load_scenario(path, check_game=False)
            try:
                render_text(tcgtrig.resolve(scenario, ruleset, max_steps=2_000))  # the tree asks some hooks too
            except PluginError as exc:
                return exc
            except tcgtrig.TcgTrigError:
                continue  # another game's words
    return None


def test_every_hook_is_checked():
    specs = {name for name in dir(tcgtrig.games.hookspecs) if name.startswith("tcgtrig_")}
    assert len(RESOLVING_HOOKS) == len(specs) - 4 >= 19


@pytest.mark.parametrize("raises", [True, False], ids=["raises", "wrong-type"])
@pytest.mark.parametrize("hook", RESOLVING_HOOKS)
def test_a_broken_hook_names_the_plugin_the_hook_and_the_value(hook, raises):
    error = _first_failure(hook, raises)
    assert error is not None, f"no bundled scenario called {hook}"
    assert error.hook == hook
    assert error.plugin == ("Raises-0" if raises else "WrongType-0")
    if raises:
        assert f"raised RuntimeError: broken {hook}" in str(error)
    else:
        assert "returned <object object at" in str(error) and "expected" in str(error)
    assert str(error).startswith(f"game plugin '{error.plugin}' in hook {hook}: ")


def test_a_word_that_raises_is_the_plugins_fault_not_the_files():
    class BadWord:
        @hookimpl
        def tcgtrig_action_aliases(self):
            return {"explode": lambda arg: 1 / 0}

    ruleset = tcgtrig.load_ruleset("digimon", plugins=[BadWord()])
    scenario = tcgtrig.scenario_from_text(
        "format: 1\ntitle: t\nplayers: [A, B]\nturn_player: A\ncards: []\nstart: [{explode: 1}]\n", "w.yaml"
    )
    with pytest.raises(PluginError) as caught:
        tcgtrig.resolve(scenario, ruleset)
    assert caught.value.hook == "tcgtrig_action_aliases" and caught.value.plugin == "BadWord-0"
    assert "the word 'explode' raised ZeroDivisionError" in str(caught.value)


def test_the_position_before_the_failure_is_sound_and_saveable():
    from tcgtrig.choices import ScriptedChooser
    from tcgtrig.saving import run_until, save_position

    class LateFailure:  # breaks on an effect that triggers only after others resolved
        @hookimpl(tryfirst=True)
        def tcgtrig_pending_details(self, effect):
            if effect.key == "garurumon.unsuspend":
                raise RuntimeError("broken late")

    ruleset = tcgtrig.load_ruleset("digimon", plugins=[LateFailure()])
    scenario = tcgtrig.load_scenario(SCENARIOS / "digimon" / "triggered-01.yaml", check_game=False)
    with pytest.raises(PluginError) as caught:
        tcgtrig.resolve(scenario, ruleset)
    done = caught.value.activations
    assert done is not None and done >= 1
    assert f"(after {done} activation" in str(caught.value) and f"--stop-after {done} --save" in str(caught.value)
    engine = tcgtrig.Engine.for_scenario(scenario, ruleset)
    chooser = ScriptedChooser(list(engine.compiled.choices))
    run_until(engine, chooser, done)  # the position before the failing step is reached without it
    saved = save_position(scenario, engine, chooser)
    assert saved["stopped_after_steps"] == len(engine.trace) and saved["state"]["cards"]
