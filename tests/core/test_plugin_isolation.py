"""One broken plugin breaks no other game (issue 22, item 15).

Each case installs a fake distribution (a dist-info folder and a module on
``sys.path``) whose game breaks in one way — it raises at import, exits,
raises a ``BaseException``, prints, never returns, or registers a name
another package has — and checks that the other games still list and
resolve, and that the broken one is named.  Values a plugin returns are
checked where they enter the core (``Ruleset``), with the plugin named.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import tcgtrig
from click.testing import CliRunner
from helpers import TWO_EFFECTS_ON_PING, PlainGame, run
from tcgtrig import Drop, GameEnd, GameInfo, PluginError, hookimpl
from tcgtrig.tools.cli import main
from tcgtrig.tools.compare import compare_games

DIGIMON_FILE = Path(__file__).resolve().parents[1] / "scenarios" / "digimon" / "triggered-01.yaml"

GOOD_GAME = """
from tcgtrig import GameInfo, hookimpl


@hookimpl
def tcgtrig_game_info():
    return GameInfo(name="{name}", title="{title}", version="1")
"""


def install(root: Path, distribution: str, game: str, module: str, source: str) -> Path:
    """Lay out an installed distribution under ``root``: ``game`` is the
    entry-point name, ``module`` the module that holds the plugin."""
    root.mkdir(parents=True, exist_ok=True)
    info = root / f"{distribution.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[tcgtrig.games]\n{game} = {module}\n")
    (root / f"{module}.py").write_text(textwrap.dedent(source))
    return root


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """Install a broken game: ``installed(game, source)``; its module is
    forgotten afterwards."""
    modules = []

    def install_one(game: str, source: str, *, module: str | None = None, distribution: str | None = None) -> None:
        module = module or f"{game}_{len(modules)}_game"
        root = install(tmp_path / module, distribution or f"tcgtrig-{game}", game, module, source)
        monkeypatch.syspath_prepend(str(root))
        modules.append(module)

    yield install_one
    for module in modules:
        sys.modules.pop(module, None)


def listing(name: str) -> list[tcgtrig.games.manager.GameListing]:
    return [g for g in tcgtrig.list_games() if g.name == name]


def games_json() -> list[dict]:
    result = CliRunner().invoke(main, ["games", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # stays JSON whatever a plugin printed


BROKEN_AT_IMPORT = {
    "raises": ("raise RuntimeError('no luck')\n", "RuntimeError: no luck"),
    "exits": ("import sys\nsys.exit(3)\n", "SystemExit: 3"),
    "base": ("raise BaseException('base')\n", "BaseException: base"),
    "interrupts": ("raise KeyboardInterrupt('from the plugin')\n", "KeyboardInterrupt: from the plugin"),
    "generator": ("raise GeneratorExit('odd')\n", "GeneratorExit: odd"),
}


@pytest.mark.parametrize("game", list(BROKEN_AT_IMPORT))
def test_a_plugin_broken_at_import_is_named_and_the_others_still_list(installed, game):
    source, said = BROKEN_AT_IMPORT[game]
    installed(game, source)
    with pytest.raises(PluginError) as caught:
        tcgtrig.load_ruleset(game)
    assert caught.value.plugin == game and said in str(caught.value)
    (broken,) = listing(game)
    assert broken.error is not None and said in broken.error
    listed = {g["name"]: g for g in games_json()}
    assert said in listed[game]["error"]
    assert listed["digimon"]["error"] is None and listed["digimon"]["title"] == "Digimon Card Game"


@pytest.mark.parametrize("game", list(BROKEN_AT_IMPORT))
def test_compare_resolves_under_the_other_games(installed, game):
    installed(game, BROKEN_AT_IMPORT[game][0])
    scenario = tcgtrig.load_scenario(DIGIMON_FILE)
    results = compare_games(scenario)
    assert not isinstance(results["digimon"], str)
    assert results["digimon"].keys("resolved")[0] == "gabumon.trash"
    assert results[game].startswith(f"game plugin {game!r}: could not be loaded from ")
    assert BROKEN_AT_IMPORT[game][1] in results[game]


def test_a_file_whose_own_game_is_broken_still_compares_under_the_others(installed):
    installed("raises", BROKEN_AT_IMPORT["raises"][0])
    text = DIGIMON_FILE.read_text().replace("game: digimon\n", "game: raises\n", 1)
    scenario = tcgtrig.scenario_from_text(text, "own.yaml")  # the broken game is not checked at load
    results = compare_games(scenario, ["raises", "digimon"])
    assert "RuntimeError: no luck" in results["raises"] and not isinstance(results["digimon"], str)
    with pytest.raises(PluginError, match="no luck"):
        tcgtrig.resolve(scenario, "raises")  # run names it


def test_a_broken_plugin_is_imported_once(installed, tmp_path):
    counter = tmp_path / "count"
    installed("flaky", f"with open({str(counter)!r}, 'a') as out:\n    out.write('x')\nraise RuntimeError('once')\n")
    for _ in range(3):
        with pytest.raises(PluginError, match="once"):
            tcgtrig.load_ruleset("flaky")
    assert counter.read_text() == "x"


def test_a_keyboard_interrupt_in_a_hook_still_stops_the_program():
    class Interrupted(PlainGame):
        @hookimpl
        def tcgtrig_pending_rank(self, effect):
            raise KeyboardInterrupt

    ruleset = tcgtrig.load_ruleset("plain", plugins=(Interrupted(),), autoload=False)
    with pytest.raises(KeyboardInterrupt):
        run(SCENARIO, ruleset)


@pytest.mark.parametrize("raised", [SystemExit(4), GeneratorExit("odd"), BaseException("base")], ids=repr)
def test_a_base_exception_in_a_hook_is_the_plugins_failure(raised):
    class Exits(PlainGame):
        @hookimpl
        def tcgtrig_pending_rank(self, effect):
            raise raised

    ruleset = tcgtrig.load_ruleset("plain", plugins=(Exits(),), autoload=False)
    with pytest.raises(PluginError) as caught:
        run(SCENARIO, ruleset)
    assert caught.value.plugin == "Exits-0" and caught.value.hook == "tcgtrig_pending_rank"
    assert f"raised {type(raised).__name__}: {raised}" in str(caught.value)


def test_a_word_that_exits_is_the_plugins_failure():
    class ExitingWord(PlainGame):
        @hookimpl
        def tcgtrig_action_aliases(self):
            return {"leave": lambda arg: sys.exit(5)}

    ruleset = tcgtrig.load_ruleset("plain", plugins=(ExitingWord(),), autoload=False)
    with pytest.raises(PluginError, match=r"the word 'leave' raised SystemExit: 5"):
        run("cards: []\nstart: [{leave: 1}]\n", ruleset)


# -- printing --------------------------------------------------------------------

PRINTS = """
import sys
print("hello from the import")
print("and on stderr", file=sys.stderr)
from tcgtrig import GameInfo, hookimpl


@hookimpl
def tcgtrig_game_info():
    print("hello from game info")
    return GameInfo(name="prints", title="Prints", version="1")
"""


def test_what_a_plugin_prints_while_loading_is_kept_off_the_output(installed):
    installed("prints", PRINTS)
    listed = {g["name"]: g for g in games_json()}
    assert listed["prints"]["error"] is None and listed["prints"]["title"] == "Prints"
    assert "hello from the import\nand on stderr\n" in listed["prints"]["printed"]
    assert "hello from game info" in listed["prints"]["printed"]
    assert "printed" not in listed["digimon"]
    table = CliRunner().invoke(main, ["games"])
    assert "printed while loading: hello from the import\\nand on stderr\\n" in table.stdout
    compared = CliRunner().invoke(main, ["compare", str(DIGIMON_FILE), "--json"])
    assert compared.exit_code == 0 and "prints" in json.loads(compared.stdout)["games"]


def test_a_game_that_states_no_trigger_multiplicity_is_listed_with_what_it_leaves_unstated(installed):
    # issue 36: how many times three cards destroyed at once trigger "whenever a card is destroyed" is
    # each game's rule; one that says nothing gets one trigger for the moment, and is told so
    installed("silent", GOOD_GAME.format(name="silent", title="Silent"))
    listed = {g["name"]: g for g in games_json()}
    assert (listed["silent"]["trigger_multiplicity"], listed["silent"]["unstated"]) == (None, ["trigger_multiplicity"])
    assert listed["magic"]["trigger_multiplicity"] == "per_event" and listed["magic"]["unstated"] == []
    table = CliRunner().invoke(main, ["games"], env={"COLUMNS": "250"}).stdout.splitlines()
    row = table.index(next(line for line in table if line.startswith("silent ")))
    assert "states no trigger_multiplicity (GameInfo): one trigger per moment assumed" in table[row + 1]
    assert not any("states no" in line for line in table if line.startswith(("digimon", "  digimon")))


# -- a plugin that never returns ---------------------------------------------------

HANGS = """
import os
import time

while not os.path.exists({stop!r}):  # the test lets it go at the end
    time.sleep(0.02)
"""


@pytest.fixture
def hanging(installed, tmp_path, monkeypatch):
    """A game whose import does not return until the test ends."""
    stop = tmp_path / "stop"
    installed("hangs", HANGS.format(stop=str(stop)))
    monkeypatch.setenv("TCGTRIG_PLUGIN_TIMEOUT", "0.5")
    yield
    stop.touch()


def test_a_plugin_that_never_returns_is_left_behind_and_named(hanging, monkeypatch):
    with pytest.raises(PluginError) as caught:
        tcgtrig.load_ruleset("hangs")
    assert caught.value.plugin == "hangs"
    assert "did not finish loading in 0.5 s" in str(caught.value) and "TCGTRIG_PLUGIN_TIMEOUT" in str(caught.value)
    monkeypatch.setenv("TCGTRIG_PLUGIN_TIMEOUT", "30")  # a second try does not wait on the first one
    with pytest.raises(PluginError, match="is still loading from .*: an earlier attempt did not finish"):
        tcgtrig.load_ruleset("hangs")
    listed = {g["name"]: g for g in games_json()}
    assert "still loading" in listed["hangs"]["error"] and listed["digimon"]["error"] is None


TICKS = """
import os
import time

ticks = 0
while not os.path.exists({stop!r}):
    ticks += 1
    print("tick", ticks)
    with open({count!r}, "w") as out:
        out.write(str(ticks))
    time.sleep(0.02)
"""


def test_what_a_plugin_left_behind_prints_is_dropped(installed, tmp_path, monkeypatch, capsys):
    stop, count = tmp_path / "stop", tmp_path / "count"
    installed("ticks", TICKS.format(stop=str(stop), count=str(count)))
    monkeypatch.setenv("TCGTRIG_PLUGIN_TIMEOUT", "0.3")
    try:
        with pytest.raises(PluginError, match="did not finish"):
            tcgtrig.load_ruleset("ticks")
        seen = int(count.read_text() or 0)  # (read as the plugin's thread rewrites it: maybe empty)
        deadline = 600  # polls of 0.05 s: only so that a broken test cannot hang
        while int(count.read_text() or 0) < seen + 3 and deadline:
            __import__("time").sleep(0.05)
            deadline -= 1
        print("the program's own output")
        out = capsys.readouterr()
        assert "the program's own output" in out.out and "tick" not in out.out + out.err
        assert tcgtrig.games.guard.printed("ticks").startswith("tick 1\n")  # what it printed in time is kept
    finally:
        stop.touch()


# -- several threads, and printing while resolving (issue 37 items 27 and 31) ----------

SLOW_PRINTER = """
import sys
import time

print("importing {name}")
time.sleep(0.3)  # the other threads start loading meanwhile
from tcgtrig import GameInfo, hookimpl


@hookimpl
def tcgtrig_game_info():
    print("info of {name}", file=sys.stderr)
    return GameInfo(name="{name}", title="{title}", version="1")
"""


def test_threads_loading_games_for_the_first_time_at_once_lose_no_output(installed, capsys):
    """Issue 37 item 27 (the attack): two threads loading the games for the
    first time at once left ``sys.stdout`` and ``sys.stderr`` replaced by
    the capture: everything printed afterwards was lost.  Real threads,
    two of them on each of two games; the main thread prints meanwhile."""
    import threading

    for name in ("slow_a", "slow_b"):
        installed(name, SLOW_PRINTER.format(name=name, title=name.upper()))
    streams = sys.stdout, sys.stderr
    start = threading.Barrier(5)
    titles: dict[int, str] = {}
    errors: list[BaseException] = []

    def load(number: int, game: str) -> None:
        start.wait()
        try:
            titles[number] = tcgtrig.load_ruleset(game).info.title
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=load, args=(n, g)) for n, g in enumerate(["slow_a", "slow_b"] * 2)]
    for thread in threads:
        thread.start()
    start.wait()
    print("the program's own output, while the games load")
    for thread in threads:
        thread.join(60)
    assert (sys.stdout, sys.stderr) == streams  # the program's own streams again
    assert errors == [] and titles == {0: "SLOW_A", 1: "SLOW_B", 2: "SLOW_A", 3: "SLOW_B"}
    print("and afterwards")
    out = capsys.readouterr()
    assert "the program's own output, while the games load\nand afterwards\n" in out.out
    assert "importing" not in out.out + out.err and "info of" not in out.out + out.err
    kept = tcgtrig.games.guard.printed("slow_a")  # imported once, its info asked by each thread
    assert kept.count("importing slow_a\n") == 1 and kept.count("info of slow_a\n") == 2


PRINTING_HOOK = """
from tcgtrig import GameInfo, hookimpl


@hookimpl
def tcgtrig_game_info():
    return GameInfo(name="chatty", title="Chatty", version="1")


@hookimpl
def tcgtrig_pending_rank(effect):
    print("ranking", effect.key)
"""


@pytest.mark.parametrize("command", ["run", "compare", "explore"])
def test_a_hook_that_prints_while_resolving_leaves_the_json_output_alone(installed, command):
    """Issue 37 item 31 (the attack): a hook that prints corrupted ``run
    --json`` of its game.  What it prints goes to standard error."""
    installed("chatty", PRINTING_HOOK)
    games = ["--games", "chatty"] if command == "compare" else ["-g", "chatty"]
    done = CliRunner().invoke(main, [command, str(DIGIMON_FILE), "--json", *games])
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)  # the JSON alone
    if command != "explore":
        assert (data if command == "run" else data["games"]["chatty"])["outcome"] == "complete"
    assert "ranking gabumon.trash" in done.stderr and "ranking" not in done.stdout


HANGING_INFO = """
import os
import time
from tcgtrig import hookimpl


@hookimpl
def tcgtrig_game_info():
    with open({count!r}, "a") as out:
        out.write("x")
    while not os.path.exists({stop!r}):  # the test lets it go at the end
        time.sleep(0.02)
"""


def test_a_hanging_info_hook_is_waited_for_once(installed, tmp_path, monkeypatch):
    """Issue 37 item 31 (the attack): a hanging ``tcgtrig_game_info`` took
    twice its timeout in ``run`` — the file's game was loaded as the file
    was checked, and loaded again to resolve it, each waiting the whole
    time.  A game whose loading never finished is not tried again in the
    process: its hook is entered once."""
    stop, count = tmp_path / "stop", tmp_path / "count"
    installed("stuck", HANGING_INFO.format(count=str(count), stop=str(stop)))
    monkeypatch.setenv("TCGTRIG_PLUGIN_TIMEOUT", "0.5")
    try:
        with pytest.raises(PluginError, match=r"did not finish loading in 0.5 s \(a plugin that never returns\?\)"):
            tcgtrig.load_ruleset("stuck")
        done = CliRunner().invoke(main, ["run", str(DIGIMON_FILE), "-g", "stuck", "--json"])
        assert count.read_text() == "x"  # entered once: not waited for again
        assert done.exit_code == 2 and done.stdout == ""
        assert done.stderr == (
            "error: game plugin 'stuck': is still loading from 'stuck_0_game': an earlier attempt did not finish in "
            "0.5 s (a plugin that never returns?); TCGTRIG_PLUGIN_TIMEOUT sets the limit\n"
        )
    finally:
        stop.touch()


def test_the_plugin_time_limit_must_be_a_number(monkeypatch):
    monkeypatch.setenv("TCGTRIG_PLUGIN_TIMEOUT", "soon")
    with pytest.raises(tcgtrig.TcgTrigError, match=r"TCGTRIG_PLUGIN_TIMEOUT='soon': expected a number of seconds"):
        tcgtrig.load_ruleset("digimon")


@pytest.mark.slow
def test_process_games_lists_the_others_when_a_plugin_spins_forever(tmp_path):
    """As a process: the import that spins is left behind, and the program
    still ends (the thread is a daemon)."""
    root = install(tmp_path, "tcgtrig-spins", "spins", "spins_game", "while True:\n    pass\n")
    env = {**os.environ, "PYTHONPATH": str(root), "TCGTRIG_PLUGIN_TIMEOUT": "5"}
    done = subprocess.run(
        [sys.executable, "-m", "tcgtrig", "games", "--json"], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0 and done.stderr == ""
    listed = {g["name"]: g for g in json.loads(done.stdout)}
    assert "did not finish loading in 5 s" in listed["spins"]["error"]
    assert all(listed[name]["error"] is None for name in ("digimon", "duelmasters", "yugioh"))


# -- a name two packages register ----------------------------------------------------


def test_a_package_that_registers_a_bundled_name_is_refused_and_named(installed):
    installed("digimon", GOOD_GAME.format(name="digimon", title="Impostor"), distribution="tcgtrig-impostor")
    assert tcgtrig.load_ruleset("digimon").info.title == "Digimon Card Game"  # the bundled game wins
    used, refused = listing("digimon")
    assert used.distribution == "tcgtrig" and used.error is None
    assert refused.distribution == "tcgtrig-impostor"
    assert refused.error == (
        f"game plugin 'digimon': tcgtrig-impostor 1.0 · {refused.module} is not used: the name 'digimon' is taken "
        "by the bundled game (tcgtrig 0.1.0 · tcgtrig.plugins.digimon.hooks), which is used; uninstall the other "
        "package or register the game under another name"
    )
    assert tcgtrig.available_games().count("digimon") == 1


def test_two_packages_that_register_one_name_are_both_refused(installed):
    installed("twin", GOOD_GAME.format(name="twin", title="First"), distribution="tcgtrig-first")
    installed("twin", GOOD_GAME.format(name="twin", title="Second"), distribution="tcgtrig-second")
    with pytest.raises(PluginError) as caught:
        tcgtrig.load_ruleset("twin")
    message = str(caught.value)
    assert "the name 'twin' is registered by 2 packages: " in message and "neither is used" in message
    assert "tcgtrig-first 1.0 · twin_" in message and "tcgtrig-second 1.0 · twin_" in message
    assert [g.error is not None for g in listing("twin")] == [True, True]


# -- values a plugin returns ------------------------------------------------------------

SCENARIO = TWO_EFFECTS_ON_PING


def _details_game(details: object, depth_word: str = "depth") -> tcgtrig.Ruleset:
    class Details(PlainGame):
        @hookimpl
        def tcgtrig_game_info(self):
            return GameInfo(name="plain", title="Plain", version="0", terms={"depth": depth_word})

        @hookimpl
        def tcgtrig_pending_details(self, effect):
            return details

    return tcgtrig.load_ruleset("plain", plugins=(Details(),), autoload=False)


@pytest.mark.parametrize(
    "details",
    [
        {"note": math.nan},
        {"note": math.inf},
        {"effect": "x"},
        {"reason": "x"},
        {"two lines": 1},
        {"": 1},
        {"note": "one\nline"},
        {"note": "\u202eevil"},
        {"note": "x" * 1001},
        {"note": 10**12},
        {"note": [1]},
        {"note": {"a": 1}},
        {1: "x"},
    ],
    ids=repr,
)
def test_unfit_trace_details_are_the_plugins_failure(details):
    with pytest.raises(PluginError) as caught:
        run(SCENARIO, _details_game(details))
    assert caught.value.hook == "tcgtrig_pending_details" and caught.value.plugin == "Details-0"
    assert "expected a dict of words to plain values" in str(caught.value)


@pytest.mark.parametrize("depth", [-1, 3, 10**9, "high", 1.5, True])
def test_the_games_depth_detail_is_how_deep_the_effect_was_derived(depth):
    with pytest.raises(PluginError) as caught:
        run(SCENARIO, _details_game({"layer": depth}, depth_word="layer"))
    assert "'layer' (the game's word for depth) to be how deep the effect was derived: a whole number from 0 to" in str(
        caught.value
    )


def test_reasons_built_from_the_files_own_words_are_not_the_plugins_failure():
    """A reason or key a plugin builds from the scenario's words holds what
    the file holds (control characters, 10,000-character ids): the output
    escapes and shortens it, the plugin is not blamed."""
    long_id = "c" * 10_000

    class Words(PlainGame):
        @hookimpl
        def tcgtrig_once_per_turn_key(self, effect):
            return f"{effect.key}@\x1b[2J"

        @hookimpl
        def tcgtrig_activation_blocked(self, effect):
            return f"{effect.key} is in \x1b]0;zone\x07"

    ruleset = tcgtrig.load_ruleset("plain", plugins=(Words(),), autoload=False)
    text = (
        f"cards:\n  - {{id: {long_id}, owner: A, zone: battle, abilities: [{{id: go, when: ping, once_per_turn: true, "
        "do: [{gain: {counter: n}}]}]}\nstart: [{emit: {event: ping}}]\n"
    )
    result = run(text, ruleset)
    assert result.keys("failed") == [f"{long_id}.go"]
    step = next(s for s in result.trace if s.kind == "failed")
    assert step.get("reason") == f"{long_id}.go is in \x1b]0;zone\x07"


def test_a_sound_float_does_not_let_an_equal_whole_number_out_of_range_through():
    # 1e10 == 10**10: the float is a sound detail, the whole number is beyond ±10**9
    answers = iter([{"note": 1e10}, {"note": 10**10}])

    class Details(PlainGame):
        @hookimpl
        def tcgtrig_pending_details(self, effect):
            return next(answers)

    with pytest.raises(PluginError) as caught:
        run(SCENARIO, tcgtrig.load_ruleset("plain", plugins=(Details(),), autoload=False))
    assert "10000000000" in str(caught.value)


def test_sound_details_pass_and_reach_the_trace():
    result = run(
        SCENARIO,
        _details_game({"layer": 1, "note": "ok", "share": 0.5, "flagged": True, "none": None}, depth_word="layer"),
    )
    step = next(s for s in result.trace if s.kind == "triggered")
    assert (step.get("layer"), step.get("note"), step.get("share"), step.get("flagged")) == (1, "ok", 0.5, True)


@pytest.mark.parametrize(
    ("hook", "answer", "wanted"),
    [
        ("tcgtrig_activation_blocked", ["a", "list"], "a reason (text) or None"),
        ("tcgtrig_check_pending", Drop("lost", 42), "reason: text"),
        ("tcgtrig_once_per_turn_key", "", "a key (text) or None"),
    ],
)
def test_unfit_reasons_are_the_plugins_failure(hook, answer, wanted):
    def answer_hook(self, effect):  # noqa: ANN001, ANN202
        return answer

    answer_hook.__name__ = hook
    extra = type("Answers", (), {hook: hookimpl(answer_hook)})()
    ruleset = tcgtrig.load_ruleset("plain", plugins=(PlainGame(), extra), autoload=False)
    scenario = SCENARIO.replace(
        "{id: first, when: ping, do: []}", "{id: first, when: ping, do: [], once_per_turn: true}"
    )
    with pytest.raises(PluginError) as caught:
        run(scenario, ruleset)
    assert caught.value.hook == hook and wanted in str(caught.value)


def test_an_unfit_game_end_is_the_plugins_failure():
    class Ends(PlainGame):
        @hookimpl
        def tcgtrig_endless_loop(self):
            return GameEnd("draw", None)

    ruleset = tcgtrig.load_ruleset("plain", plugins=(Ends(),), autoload=False)
    loop = (
        "cards:\n  - {id: a, owner: A, zone: battle, abilities: [{id: again, when: ping, do: [{emit: {event: ping}}]}]}\n"
        "start: [{emit: {event: ping}}]\n"
    )
    with pytest.raises(PluginError, match=r"a GameEnd\(outcome: a word, reason: text\)"):
        run(loop, ruleset, max_steps=50)


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"title": "Two\nlines"}, "title 'Two\\nlines': expected one line of text"),
        ({"title": ""}, "title '': expected one line of text"),
        ({"title": 5}, "title 5: expected one line of text"),
        ({"version": None}, "version None: expected one line of text"),
        ({"name": "Plain Game"}, "name 'Plain Game': expected lower-case letters, digits and _"),
        ({"variants": {"Fast mode": "x"}}, "variants 'Fast mode'"),
        ({"terms": {"depth": "two\nlines"}}, "terms 'depth'"),
        ({"events": ["ok", ""]}, "events: '': expected a word"),
        ({"draw_one_at_a_time": "yes"}, "draw_one_at_a_time 'yes': expected True or False"),
        ({"trigger_multiplicity": "each"}, "unknown trigger_multiplicity 'each' (legal: per_event, per_moment)"),
    ],
)
def test_unfit_game_info_is_the_plugins_failure(fields, said):
    class Odd:
        @hookimpl
        def tcgtrig_game_info(self):
            return GameInfo(**{"name": "plain", "title": "Plain", "version": "0", **fields})

    with pytest.raises(PluginError) as caught:
        tcgtrig.load_ruleset("plain", plugins=(Odd(),), autoload=False)
    assert caught.value.hook == "tcgtrig_game_info"
    assert said in str(caught.value)


def test_words_must_be_functions():
    class NotAFunction(PlainGame):
        @hookimpl
        def tcgtrig_action_aliases(self):
            return {"boom": "not callable"}

    with pytest.raises(PluginError, match="expected a dict of words to alias functions"):
        tcgtrig.load_ruleset("plain", plugins=(NotAFunction(),), autoload=False)


def test_the_core_step_keys_are_the_trace_schemas():
    from tcgtrig.games.ruleset import CORE_STEP_KEYS
    from tcgtrig.scenario.reading import schema

    assert CORE_STEP_KEYS == set(schema("trace")["$defs"]["step"]["properties"])


def test_a_word_that_exits_on_a_sample_does_not_stop_the_typo_check():
    """The typo check tries each word with sample arguments to read what it
    emits: one that calls sys.exit on a sample has refused it, nothing more."""
    from tcgtrig.tools.lint import game_events

    class Picky(PlainGame):
        @hookimpl
        def tcgtrig_action_aliases(self):
            def leave(arg):  # noqa: ANN001, ANN202
                if arg != "x":
                    sys.exit("no")
                return {"emit": {"event": "left"}}

            return {"leave": leave}

    ruleset = tcgtrig.load_ruleset("plain", plugins=(Picky(),), autoload=False)
    assert "left" in game_events(ruleset)
