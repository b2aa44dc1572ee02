"""Every JSON trace the suite's scenario files produce, under every game,
follows the published trace schema (tcgtrig schema --trace)."""

from __future__ import annotations

import json
from pathlib import Path

import bundled
import jsonschema
import pytest
import tcgtrig
from click.testing import CliRunner
from tcgtrig.scenario.reading import schema
from tcgtrig.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted([*ROOT.glob("tests/scenarios/*/*.yaml"), *ROOT.glob("examples/*.yaml")])
VALIDATOR = jsonschema.Draft202012Validator(schema("trace"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_trace_follows_the_schema(path):
    scenario = bundled.checked(path)
    checked = 0
    for game in dict.fromkeys([*tcgtrig.available_games(), *scenario.games()]):  # variants the file names too
        result = bundled.resolved(path, game)  # the run's one resolution of the pair
        if result is None:
            continue  # a file in one game's words does not load under another
        errors = sorted(VALIDATOR.iter_errors(result.to_dict()), key=str)
        assert not errors, f"{game}: {errors[0].message} at {list(errors[0].absolute_path)}"
        checked += 1
    assert checked >= 1


def test_the_trace_schema_is_printed_and_names_the_step_kinds():
    result = CliRunner().invoke(main, ["schema", "--trace"])
    assert result.exit_code == 0
    printed = json.loads(result.stdout)
    assert printed["title"].startswith("tcgtrig JSON trace")
    kinds = printed["$defs"]["step"]["properties"]["kind"]["description"]
    for kind in ("event", "triggered", "resolved", "lost", "choice", "turn_end"):
        assert kind in kinds
