"""run --stop-after N --save, then resume: exactly the trace an
uninterrupted run gives."""

from __future__ import annotations

import json
import re
from pathlib import Path

import bundled
import pytest
from click.testing import CliRunner
from tcgtrig.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
T1 = ROOT / "tests" / "scenarios" / "digimon" / "triggered-01.yaml"
FILES = [
    ("tests/scenarios/digimon/triggered-01.yaml", "digimon"),
    ("tests/scenarios/digimon/interrupt-05.yaml", "digimon"),
    ("tests/scenarios/digimon/qa-16-bt4-097-q1248.yaml", "digimon"),
    ("tests/scenarios/digimon/triggered-04.yaml", "yugioh"),
    ("tests/scenarios/digimon/triggered-04.yaml", "duelmasters"),
    ("examples/10-simultaneous-replacements.yaml", "duelmasters"),
    ("examples/09-cost-triggers.yaml", "yugioh"),
]


@pytest.mark.parametrize("file, game", FILES)
@pytest.mark.parametrize("stop", [0, 1, 3])
def test_resume_gives_the_uninterrupted_trace(tmp_path, file, game, stop):
    runner = CliRunner()
    whole = runner.invoke(main, ["run", str(ROOT / file), "--game", game, "--json"])
    assert whole.exit_code == 0, whole.output
    saved = tmp_path / "position.json"
    stopped = runner.invoke(
        main, ["run", str(ROOT / file), "--game", game, "--stop-after", str(stop), "--save", str(saved)]
    )
    assert stopped.exit_code == 0, stopped.output
    position = json.loads(saved.read_text(encoding="utf-8"))
    assert position["game"] == game and "state" in position and isinstance(position["pending"], list)
    resumed = runner.invoke(main, ["resume", str(saved), "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout) == json.loads(whole.stdout)


def test_stop_after_and_save_go_together(tmp_path):
    result = CliRunner().invoke(main, ["run", str(ROOT / FILES[0][0]), "--stop-after", "2"])
    assert result.exit_code == 2 and "--stop-after and --save go together" in result.stderr


def test_a_file_that_is_not_a_saved_position_is_bad_input(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}', encoding="utf-8")
    result = CliRunner().invoke(main, ["resume", str(bad)])
    assert result.exit_code == 2 and "not a saved position" in result.stderr


def _bundled() -> list[tuple[Path, str]]:
    return [(path, game) for path in bundled.SCENARIOS for game in bundled.scenario(path).games()]


@pytest.mark.parametrize("path, game", _bundled(), ids=lambda v: v.name if isinstance(v, Path) else v)
def test_every_bundled_file_resumes_identically_from_every_stop(path, game):
    """Every game, every bundled file, every stop point (after 0, 1, 2, …
    activations, including mid-chain and mid-interrupt window).

    One run is stopped at each point in turn and saved there (a stop
    steps the engine as a run from the start would: ``run_until`` counts
    the activations of the whole trace); each save is resumed.  The
    uninterrupted trace is the run's one resolution of the pair."""
    import tcgtrig
    from tcgtrig.choices import ScriptedChooser
    from tcgtrig.saving import resume_position, run_until, save_position

    scenario = bundled.scenario(path)
    expected = bundled.json_text(path, game)  # raises when the game refuses the file
    whole = bundled.resolved(path, game)
    assert whole is not None
    activations = len(whole.keys("activated"))
    engine = tcgtrig.Engine.for_scenario(scenario, game)
    chooser = ScriptedChooser(list(engine.compiled.choices))
    for stop in range(activations + 1):
        run_until(engine, chooser, stop)
        saved = json.loads(json.dumps(save_position(scenario, engine, chooser)))
        assert resume_position(saved, str(path)).json_text() == expected, f"stopped after {stop}"
    run_until(engine, chooser, activations + 1)  # on to the end: the stopped run finishes as the whole one
    assert engine.finished and engine.result(tuple(chooser.remaining)).json_text() == expected


def test_an_edited_save_is_refused(tmp_path):
    runner = CliRunner()
    saved = tmp_path / "position.json"
    runner.invoke(main, ["run", str(ROOT / FILES[0][0]), "--stop-after", "2", "--save", str(saved)])
    data = json.loads(saved.read_text(encoding="utf-8"))
    data["state"]["counters"]["A"]["memory"] = 7
    saved.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(main, ["resume", str(saved)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "not where its scenario and answers lead (was the file edited?)" in result.stderr
    for broken in (
        "{",
        '{"save_format": 1}',
        "[1, 2]",
        '{"save_format": 1, "scenario": {}, "game": "digimon", '
        '"answers": [], "remaining_choices": [], "stopped_after_steps": 0}',
    ):
        saved.write_text(broken, encoding="utf-8")
        result = runner.invoke(main, ["resume", str(saved)])
        assert result.exit_code == 2 and result.stderr.startswith("error: ") and "Traceback" not in result.output


# -- issue 22 item 7: a save holds every option that affects the result -----------

LONG = """\
format: 1
title: a long but finite cascade
game: digimon
players: [A, B]
turn_player: A
counters: {A: {tokens: 0}}
cards:
  - id: x
    owner: A
    zone: battle
    abilities:
      - id: again
        when: {event: gained, player: self}
        condition: {counter: tokens, player: self, lt: LIMIT}
        do: [{gain: {counter: tokens, amount: 1}}]
start:
  - gain: {counter: tokens, amount: 1}
"""


def _long(tmp_path: Path, limit: int = 150) -> Path:
    path = tmp_path / "long.yaml"
    path.write_text(LONG.replace("LIMIT", str(limit)), encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _memory_bound_restored(monkeypatch):
    """--max-memory and resume set the process's bound: each test gets it back."""
    from tcgtrig.base import budget

    monkeypatch.setattr(budget, "_max_memory", budget.max_memory())


def _stop_and_resume(runner: CliRunner, tmp_path: Path, file: Path, stop: int, *options: str):
    saved = tmp_path / f"stop-{stop}.json"
    stopped = runner.invoke(main, ["run", str(file), *options, "--stop-after", str(stop), "--save", str(saved)])
    assert stopped.exit_code == 0, stopped.output
    return json.loads(saved.read_text(encoding="utf-8")), runner.invoke(main, ["resume", str(saved), "--json"])


def test_resume_keeps_max_steps(tmp_path):
    """run --max-steps 100 --stop-after 2 --save, then resume: the step
    limit's verdict, as the uninterrupted run gives (it was 'complete')."""
    runner, file = CliRunner(), _long(tmp_path)
    whole = runner.invoke(main, ["run", str(file), "--max-steps", "100", "--json"])
    assert whole.exit_code == 3 and json.loads(whole.stdout)["outcome"] == "draw"
    for stop in (0, 1, 2, 5):
        position, resumed = _stop_and_resume(runner, tmp_path, file, stop, "--max-steps", "100")
        assert position["options"]["max_steps"] == 100
        assert resumed.exit_code == 3, resumed.output
        assert json.loads(resumed.stdout) == json.loads(whole.stdout), f"stopped after {stop}"


@pytest.mark.parametrize("file, game", FILES[:4])
def test_a_random_run_is_saved_and_resumed(tmp_path, file, game):
    """--random SEED (after any --choice) can be saved part-way: resuming
    gives the trace of the uninterrupted random run."""
    runner = CliRunner()
    for seed, choices in (("7", ()), ("12345", ()), ("3", ("--choice", "upamon.draw"))):
        options = ["--game", game, "--random", seed, *choices]
        whole = runner.invoke(main, ["run", str(ROOT / file), *options, "--json"])
        if whole.exit_code == 2:
            continue  # the scripted label is not legal under this game
        for stop in (0, 1, 3):
            position, resumed = _stop_and_resume(runner, tmp_path, ROOT / file, stop, *options)
            assert position["options"]["random"] == int(seed)
            assert resumed.exit_code == whole.exit_code, resumed.output
            assert json.loads(resumed.stdout) == json.loads(whole.stdout), f"seed {seed}, stopped after {stop}"


def test_a_game_variant_is_kept(tmp_path):
    runner, file = (
        CliRunner(),
        ROOT / "tests/scenarios/yugioh/case-13-illusion-snatch-chains-to-bottomless-trap-hole.yaml",
    )
    whole = runner.invoke(main, ["run", str(file), "--game", "yugioh/ocg", "--json"])
    position, resumed = _stop_and_resume(runner, tmp_path, file, 1, "--game", "yugioh/ocg")
    assert position["game"] == "yugioh/ocg" and json.loads(resumed.stdout) == json.loads(whole.stdout)


def test_the_memory_bound_is_saved_and_can_only_be_lowered_by_a_save(tmp_path):
    """The save records the memory bound; resuming keeps the tighter of it
    and the bound in force (a save cannot lift it); an explicit
    --max-memory on resume decides."""
    from tcgtrig.base import budget

    runner, file = CliRunner(), _long(tmp_path, limit=5000)
    saved = tmp_path / "position.json"
    stopped = runner.invoke(main, ["run", str(file), "--max-memory", "1000", "--stop-after", "0", "--save", str(saved)])
    assert stopped.exit_code == 0, stopped.output
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["options"]["max_memory"] == 1000
    budget.set_max_memory(budget.DEFAULT_MAX_MEMORY)
    resumed = runner.invoke(main, ["resume", str(saved), "--json"])
    assert resumed.exit_code == 3 and json.loads(resumed.stdout)["reason"].startswith("memory limit reached")
    explicit = runner.invoke(main, ["resume", str(saved), "--json", "--max-memory", "none"])
    assert explicit.exit_code == 0 and json.loads(explicit.stdout)["outcome"] == "complete"
    data["options"]["max_memory"] = None  # "no bound" in a save does not lift the bound in force
    saved.write_text(json.dumps(data), encoding="utf-8")
    budget.set_max_memory(1000)
    lifted = runner.invoke(main, ["resume", str(saved), "--json"])
    assert lifted.exit_code == 3 and json.loads(lifted.stdout)["reason"].startswith("memory limit reached")


def _a_save(tmp_path: Path) -> tuple[Path, dict]:
    saved = tmp_path / "position.json"
    result = CliRunner().invoke(main, ["run", str(ROOT / FILES[0][0]), "--stop-after", "2", "--save", str(saved)])
    assert result.exit_code == 0, result.output
    return saved, json.loads(saved.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("save_format", True, r"key 'save_format': expected the whole number 2 \(or 1\), got true"),
        ("save_format", 1.0, r"key 'save_format': expected the whole number 2 \(or 1\), got 1\.0"),
        ("save_format", 2.0, r"key 'save_format': expected the whole number 2 \(or 1\), got 2\.0"),
        ("save_format", "2", r"key 'save_format': expected the whole number 2 \(or 1\), got '2'"),
        ("save_format", 3, r"save_format 3 is not one this tcgtrig reads \(2, 1\)"),
        ("options", [], r"key 'options': expected a mapping"),
        (
            "options",
            {"max_steps": 10, "random": None, "max_memory": None, "colour": 1},
            r"key 'options': unknown key 'colour' \(legal: max_memory, max_steps, random\)",
        ),
        (
            "options.max_steps",
            "100",
            r"key 'options\.max_steps': expected a whole number of steps, 1 or more, got '100'",
        ),
        ("options.max_steps", True, r"key 'options\.max_steps': expected a whole number of steps, 1 or more, got true"),
        ("options.max_steps", 0, r"key 'options\.max_steps': expected a whole number of steps, 1 or more, got 0"),
        (
            "options.max_steps",
            10.0,
            r"key 'options\.max_steps': expected a whole number of steps, 1 or more, got 10\.0",
        ),
        ("options.random", 1.5, r"key 'options\.random': expected a whole number \(the seed\) or null, got 1\.5"),
        ("options.random", False, r"key 'options\.random': expected a whole number \(the seed\) or null, got false"),
        (
            "options.max_memory",
            "2G",
            r"key 'options\.max_memory': expected a number of bytes, 1 or more, or null, got '2G'",
        ),
        (
            "options.max_memory",
            -5,
            r"key 'options\.max_memory': expected a number of bytes, 1 or more, or null, got -5",
        ),
        (
            "scripted_answers",
            99,
            r"key 'scripted_answers': expected a whole number from 0 to 2 \(the answers\), got 99",
        ),
        (
            "scripted_answers",
            True,
            r"key 'scripted_answers': expected a whole number from 0 to 2 \(the answers\), got true",
        ),
        ("answers", [1, 2], r"key 'answers': expected a list of labels \(strings\), got 1 at \[0\]"),
        (
            "remaining_choices",
            [None],
            r"key 'remaining_choices': expected a list of labels \(strings\), got null at \[0\]",
        ),
        ("stopped_after_steps", 3.0, r"key 'stopped_after_steps': expected a number of steps"),
        ("game", "digimom", r"unknown game 'digimom'.*"),
    ],
)
def test_a_hostile_save_is_one_clear_line(tmp_path, key, value, message):
    saved, data = _a_save(tmp_path)
    where, _, name = key.rpartition(".")
    (data[where] if where else data)[name] = value
    saved.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["resume", str(saved)])
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert re.search(message, result.stderr), result.stderr


def test_a_save_of_format_1_resumes_with_the_default_options(tmp_path):
    """Saves written before the options were saved: their defaults."""
    saved, data = _a_save(tmp_path)
    whole = CliRunner().invoke(main, ["run", str(ROOT / FILES[0][0]), "--json"])
    data["save_format"] = 1
    del data["options"], data["scripted_answers"]
    saved.write_text(json.dumps(data), encoding="utf-8")
    resumed = CliRunner().invoke(main, ["resume", str(saved), "--json"])
    assert resumed.exit_code == 0 and json.loads(resumed.stdout) == json.loads(whole.stdout)


def test_answers_that_the_replay_does_not_give_are_refused(tmp_path):
    saved, data = _a_save(tmp_path)
    assert data["answers"] and data["scripted_answers"] == len(data["answers"])
    data["scripted_answers"] = 0  # the script's answers claimed to be the default chooser's
    data["answers"] = list(reversed(data["answers"]))
    saved.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["resume", str(saved)])
    assert result.exit_code == 2 and "not where its scenario and answers lead" in result.stderr


def test_a_save_that_cannot_be_written_leaves_the_old_file_and_says_why(tmp_path, monkeypatch):
    # issue 22 (review): text that is no text (half a character, from a plugin) gave a traceback and an empty file
    import tcgtrig.saving

    saved = tmp_path / "s.json"
    saved.write_text("the old save", encoding="utf-8")
    real = tcgtrig.saving.save_position
    monkeypatch.setattr(tcgtrig.saving, "save_position", lambda *args: {**real(*args), "note": "half \ud800"})
    result = CliRunner().invoke(main, ["run", str(T1), "--stop-after", "1", "--save", str(saved)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "cannot write the saved position: surrogates not allowed" in result.stderr
    assert saved.read_text(encoding="utf-8") == "the old save" and list(tmp_path.iterdir()) == [saved]


def test_a_save_through_a_symbolic_link_writes_the_file_it_leads_to(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    result = CliRunner().invoke(main, ["run", str(T1), "--stop-after", "1", "--save", str(link)])
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and json.loads(target.read_text(encoding="utf-8"))["save_format"] == 2


@pytest.mark.parametrize("game", ["digimon", "duelmasters", "core_only"])
def test_a_stop_in_a_long_cascade_falls_where_it_was_asked(tmp_path, game):
    """Stopping an uninterruptible cascade after N activations: the save
    holds exactly N activations, and the resumed run gives the
    uninterrupted trace (written for the fused path, retired in issue 39,
    which carried out such a cascade in one step)."""
    import sys

    import tcgtrig
    from tcgtrig.choices import ScriptedChooser
    from tcgtrig.saving import resume_position, run_until, save_position

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import run as positions  # benchmarks/run.py: its deep chain

    data = positions.dm_deep(30) if game == "duelmasters" else positions.deep(30)
    scenario = tcgtrig.scenario_from_data(data, "<deep chain>", check_game=False)
    ruleset = (
        tcgtrig.load_ruleset("core_only", plugins=(positions.CoreOnly(),), autoload=False)
        if game == "core_only"
        else tcgtrig.load_ruleset(game)
    )
    whole = tcgtrig.Engine.for_scenario(scenario, ruleset).run(ScriptedChooser([]))
    assert len(whole.result().keys("activated")) > 20
    for stop in (1, 3, 17):
        engine = tcgtrig.Engine.for_scenario(scenario, ruleset)
        chooser = ScriptedChooser([])
        run_until(engine, chooser, stop)
        assert not engine.finished and engine.result().keys("activated") == ["engine.again"] * stop
        saved = json.loads(json.dumps(save_position(scenario, engine, chooser)))
        if game != "core_only":  # a save names its game: the core-only one is not installed to resume under
            assert resume_position(saved, "<saved>").json_text() == whole.result().json_text(), stop


# -- issue 37 item 32: a save made before the rules changed -------------------------

SHIFTY_GAME = """
from pathlib import Path

from tcgtrig import GameInfo, hookimpl

RULES = Path({rules!r})  # the version of the rules installed: the test changes it


@hookimpl
def tcgtrig_game_info():
    return GameInfo(name="shifty", title="Shifty", version=RULES.read_text())


@hookimpl
def tcgtrig_pending_rank(effect):
    # rules 1.0: all at once, the turn player picks; rules 2.0 (a new ruling): b's effects first
    return (0,) if RULES.read_text() == "1.0" or effect.key.startswith("b.") else (1,)
"""

SHIFTY_FILE = """\
format: 1
title: two effects at once
players: [A, B]
turn_player: A
cards:
  - {id: a, owner: A, zone: battle, abilities: [{id: up, when: ping, do: [{gain: {counter: a}}]}]}
  - {id: b, owner: A, zone: battle, abilities: [{id: up, when: ping, do: [{gain: {counter: b}}]}]}
start: [{emit: {event: ping}}]
"""


@pytest.fixture
def shifty(tmp_path, monkeypatch):
    """The game ``shifty`` installed (a dist-info folder and a module on
    ``sys.path``), its rules at version 1.0: returns the file holding it."""
    import sys

    root = tmp_path / "shifty"
    info = root / "tcgtrig_shifty-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tcgtrig-shifty\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tcgtrig.games]\nshifty = shifty_game\n")
    rules = tmp_path / "rules"
    rules.write_text("1.0")
    (root / "shifty_game.py").write_text(SHIFTY_GAME.format(rules=str(rules)))
    monkeypatch.syspath_prepend(str(root))
    yield rules
    sys.modules.pop("shifty_game", None)


def test_a_save_made_under_other_rules_says_so_and_offers_to_replay_the_file(shifty, tmp_path):
    """Issue 37 item 32 (the attack): a save written before the rules
    changed was refused as "was the file edited?".  A save names the rules'
    version it was made with (the game's ``GameInfo.version`` and
    tcgtrig's); made with others, it says so and gives the command that
    replays the file under the rules installed now."""
    runner = CliRunner()
    path, saved = tmp_path / "two.yaml", tmp_path / "position.json"
    path.write_text(SHIFTY_FILE, encoding="utf-8")
    stopped = runner.invoke(
        main, ["run", str(path), "-g", "shifty", "--choice", "b.up", "--stop-after", "1", "--save", str(saved)]
    )
    assert stopped.exit_code == 0, stopped.output
    assert runner.invoke(main, ["resume", str(saved)]).exit_code == 0  # the same rules: it resumes
    shifty.write_text("2.0")  # the rules change: b's effect goes first by rule, no one is asked
    result = runner.invoke(main, ["resume", str(saved)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr == (
        f"error: {saved}: this save was made with shifty rules 1.0 (tcgtrig {tcgtrig_version()}), this is shifty "
        f"rules 2.0 (tcgtrig {tcgtrig_version()}): under these rules its answers no longer lead to the saved "
        f"position; replay the file instead: tcgtrig run {path} --game shifty --choice b.up\n"
    )
    replayed = runner.invoke(main, ["run", str(path), "--game", "shifty", "--choice", "b.up"])
    assert replayed.exit_code == 0, replayed.output
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["rules"] == {"tcgtrig": tcgtrig_version(), "version": "1.0"} and data["answers"] == ["b.up"]


def test_an_edited_save_under_the_same_rules_is_still_refused_as_edited(shifty, tmp_path):
    runner = CliRunner()
    path, saved = tmp_path / "two.yaml", tmp_path / "position.json"
    path.write_text(SHIFTY_FILE, encoding="utf-8")
    runner.invoke(main, ["run", str(path), "-g", "shifty", "--stop-after", "1", "--save", str(saved)])
    data = json.loads(saved.read_text(encoding="utf-8"))
    data["state"]["counters"]["A"]["a"] = 7
    saved.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(main, ["resume", str(saved)])
    assert result.exit_code == 2 and "not where its scenario and answers lead (was the file edited?)" in result.stderr
    data["rules"] = {"tcgtrig": tcgtrig_version(), "version": 1}
    saved.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(main, ["resume", str(saved)])
    assert result.exit_code == 2 and "key 'rules': expected a mapping of tcgtrig, version to version strings" in (
        result.stderr
    )


def test_a_long_script_is_shortened_in_the_replay_command():
    import tcgtrig
    from tcgtrig.saving import SavedPosition, replay_command

    saved = SavedPosition(
        source="s.json",
        scenario=tcgtrig.scenario_from_text(SHIFTY_FILE, "my file.yaml", check_game=False),
        game="shifty",
        answers=(),
        script=tuple(f"x{n}" for n in range(20)),
        seed=5,
        max_steps=100,
        max_memory=None,
        stopped_after_steps=0,
        state=None,
        pending=None,
    )
    command = replay_command(saved)
    assert command.startswith("tcgtrig run 'my file.yaml' --game shifty --choice x0 --choice x1 ")
    assert "--choice x11 --random 5 --max-steps 100 (and --choice for each of the other 8 answers" in command


def tcgtrig_version() -> str:
    import tcgtrig

    return tcgtrig.__version__
