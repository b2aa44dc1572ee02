"""run --stop-after N --save, then resume: exactly the trace an
uninterrupted run gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from tcgtrig.cli import main

ROOT = Path(__file__).resolve().parents[1]
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
    stopped = runner.invoke(main, ["run", str(ROOT / file), "--game", game, "--stop-after", str(stop),
                                   "--save", str(saved)])
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
    import tcgtrig

    out = []
    for path in sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")) + sorted((ROOT / "examples").glob("*.yaml")):
        for game in tcgtrig.load_scenario(path, check_game=False).games():
            out.append((path, game))
    return out


@pytest.mark.parametrize("path, game", _bundled(), ids=lambda v: v.name if isinstance(v, Path) else v)
def test_every_bundled_file_resumes_identically_from_every_stop(path, game):
    """Every game, every bundled file, every stop point (after 0, 1, 2, …
    activations, including mid-chain and mid-interrupt window)."""
    import tcgtrig
    from tcgtrig.choices import ScriptedChooser
    from tcgtrig.saving import resume_position, run_until, save_position

    scenario = tcgtrig.load_scenario(path, check_game=False)
    whole = tcgtrig.resolve(scenario, game)
    expected = whole.json_text()
    activations = len(whole.keys("activated"))
    for stop in range(activations + 1):
        engine = tcgtrig.Engine.for_scenario(scenario, game)
        chooser = ScriptedChooser(list(engine.compiled.choices))
        run_until(engine, chooser, stop)
        saved = json.loads(json.dumps(save_position(scenario, engine, chooser)))
        assert resume_position(saved, str(path)).json_text() == expected, f"stopped after {stop}"


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
    for broken in ("{", '{"save_format": 1}', "[1, 2]", '{"save_format": 1, "scenario": {}, "game": "digimon", '
                   '"answers": [], "remaining_choices": [], "stopped_after_steps": 0}'):
        saved.write_text(broken, encoding="utf-8")
        result = runner.invoke(main, ["resume", str(saved)])
        assert result.exit_code == 2 and result.stderr.startswith("error: ") and "Traceback" not in result.output
