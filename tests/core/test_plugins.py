"""Finding games: entry points, out-of-tree games, broken plugins."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import tcgtrig
from helpers import TWO_EFFECTS_ON_PING, PlainGame, run
from tcgtrig import GameInfo, PluginError, UnknownGameError, hookimpl

TOY_GAME = '''
"""A third-party game: everyone's effects in reverse trigger order."""
from tcgtrig import GameInfo, hookimpl


@hookimpl
def tcgtrig_game_info():
    return GameInfo(name="toy", title="Toy Game", version="2.5")


@hookimpl
def tcgtrig_pending_rank(effect):
    return (-effect.id,)
'''

SCENARIO = TWO_EFFECTS_ON_PING


def install_fake_distribution(root: Path, name: str, module: str, source: str) -> None:
    """Lay out an installed distribution (dist-info + module) under ``root``."""
    info = root / f"{name.replace('-', '_')}-1.0.dist-info"  # the name part has no dashes
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[tcgtrig.games]\n{module.split('_')[0]} = {module}\n")
    (root / f"{module}.py").write_text(textwrap.dedent(source))


@pytest.fixture
def toy_installed(tmp_path, monkeypatch):
    install_fake_distribution(tmp_path, "tcgtrig-toy", "toy_game", TOY_GAME)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("toy_game", None)


def test_bundled_game_is_an_entry_point():
    assert "digimon" in tcgtrig.available_games()
    listing = {g.name: g for g in tcgtrig.list_games()}["digimon"]
    assert listing.distribution == "tcgtrig"
    assert listing.module == "tcgtrig.plugins.digimon.hooks"
    assert listing.title == "Digimon Card Game" and listing.error is None


def test_out_of_tree_game_is_listed_and_usable(toy_installed):
    assert "toy" in tcgtrig.available_games()
    listing = {g.name: g for g in tcgtrig.list_games()}["toy"]
    assert (listing.title, listing.version, listing.distribution) == ("Toy Game", "2.5", "tcgtrig-toy")
    result = tcgtrig.resolve(tcgtrig.scenario_from_text(SCENARIO), "toy")
    assert result.keys("resolved") == ["a.second", "a.first"]


def test_out_of_tree_game_from_the_command_line(tmp_path):
    install_fake_distribution(tmp_path, "tcgtrig-toy", "toy_game", TOY_GAME)
    scenario_file = tmp_path / "s.yaml"
    scenario_file.write_text(SCENARIO)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    games = subprocess.run([sys.executable, "-m", "tcgtrig", "games"], capture_output=True, text=True, env=env)
    assert games.returncode == 0
    assert "toy" in games.stdout and "Toy Game" in games.stdout and "digimon" in games.stdout
    ran = subprocess.run(
        [sys.executable, "-m", "tcgtrig", "run", str(scenario_file), "--game", "toy", "--json"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert ran.returncode == 0, ran.stderr
    assert '"game": "toy"' in ran.stdout


def test_unknown_game_lists_the_installed_ones():
    with pytest.raises(UnknownGameError) as info:
        tcgtrig.load_ruleset("pokemon")
    assert "digimon" in info.value.available
    assert "unknown game 'pokemon'" in str(info.value)


def test_broken_import_is_named(tmp_path, monkeypatch):
    install_fake_distribution(tmp_path, "tcgtrig-broken", "broken_game", "raise ImportError('no luck')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        tcgtrig.load_ruleset("broken")
    assert info.value.plugin == "broken"
    assert "no luck" in str(info.value) and "broken_game" in str(info.value)
    listing = {g.name: g for g in tcgtrig.list_games()}
    assert listing["broken"].error and listing["digimon"].error is None


def test_hook_that_raises_is_named():
    class Exploding(PlainGame):
        @hookimpl
        def tcgtrig_pending_rank(self, effect):
            raise ZeroDivisionError("oops")

    ruleset = tcgtrig.load_ruleset("plain", plugins=(Exploding(),), autoload=False)
    with pytest.raises(PluginError) as info:
        run(SCENARIO, ruleset)
    assert info.value.plugin == "Exploding-0"  # the plugin whose code raised, as registered
    assert info.value.hook == "tcgtrig_pending_rank"
    assert "ZeroDivisionError: oops" in str(info.value)


def test_hook_with_a_bad_return_value_is_named():
    class BadRank(PlainGame):
        @hookimpl
        def tcgtrig_pending_rank(self, effect):
            return [1, 2]

    ruleset = tcgtrig.load_ruleset("plain", plugins=(BadRank(),), autoload=False)
    with pytest.raises(PluginError) as info:
        run(SCENARIO, ruleset)
    assert "tcgtrig_pending_rank" in str(info.value) and "tuple" in str(info.value)


def test_hook_that_does_not_exist_is_refused():
    class Typo(PlainGame):
        @hookimpl
        def tcgtrig_pending_rnak(self, effect):
            return (0,)

    with pytest.raises(PluginError) as info:
        tcgtrig.load_ruleset("plain", plugins=(Typo(),), autoload=False)
    assert "tcgtrig_pending_rnak" in str(info.value)


def test_a_plugin_that_is_not_a_game_is_refused():
    class NotAGame:
        @hookimpl
        def tcgtrig_pending_rank(self, effect):
            return (0,)

    with pytest.raises(PluginError) as info:
        tcgtrig.load_ruleset("nothing", plugins=(NotAGame(),), autoload=False)
    assert "not a game" in str(info.value)


def test_house_rules_plugin_overrides_the_game():
    class EveryoneReversed:
        @hookimpl(tryfirst=True)
        def tcgtrig_pending_rank(self, effect):
            return (-effect.id,)

    result = tcgtrig.resolve(tcgtrig.scenario_from_text(SCENARIO), "digimon", plugins=(EveryoneReversed(),))
    assert result.keys("resolved") == ["a.second", "a.first"]


def test_addhooks_lets_a_game_add_its_own_hooks():
    class Specs:
        @tcgtrig.hookspec
        def tcgtrig_plain_bonus(self) -> int:
            """A game-specific hook."""

    class Game(PlainGame):
        @hookimpl
        def tcgtrig_addhooks(self, pluginmanager):
            pluginmanager.add_hookspecs(Specs)

    class Extension:
        @hookimpl
        def tcgtrig_plain_bonus(self):
            return 7

    pm = tcgtrig.make_plugin_manager(None, plugins=(Game(),), autoload=False)
    pm.register(Extension())
    assert pm.hook.tcgtrig_plain_bonus() == [7]


def test_info_name_must_match_the_entry_point(tmp_path, monkeypatch):
    install_fake_distribution(
        tmp_path,
        "tcgtrig-liar",
        "liar_game",
        """
        from tcgtrig import GameInfo, hookimpl

        @hookimpl
        def tcgtrig_game_info():
            return GameInfo(name="digimon", title="Impostor", version="0")
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        tcgtrig.load_ruleset("liar")
    assert "calls itself 'digimon'" in str(info.value)


def test_game_info_is_a_value():
    info = GameInfo(name="x", title="X", version="1", terms={"depth": "priority"})
    assert info.term("depth") == "priority" and info.term("chain") == "chain"
