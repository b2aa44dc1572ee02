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
