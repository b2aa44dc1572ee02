"""The ``tcgtrig`` command, through click's CliRunner and as a real process.

Exit status contract (tcgtrig.tools.cli): 0 success, 1 an expectation did not
hold (``check``), 2 bad input reported as one ``error: …`` line on stderr,
never a traceback.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tcgtrig
import yaml
from click.testing import CliRunner, Result
from tcgtrig.tools.cli import main

SCENARIOS = Path(__file__).parent / "scenarios" / "digimon"
T1 = SCENARIOS / "triggered-01.yaml"
T1_TEXT = T1.read_text(encoding="utf-8")

# triggered-01 under digimon with the file's choices
T1_ORDER = [
    "gabumon.trash",
    "metalgarurumon.play",
    "garurumon.unsuspend",
    "upamon.draw",
    "zudomon.memory",
    "venommyotismon.memory",
]
# the first ordering decision of triggered-01: A's four priority-1 effects
T1_FIRST_OPTIONS = ["metalgarurumon.play", "zudomon.memory", "gabumon.trash", "upamon.draw"]

INSTALLED = tcgtrig.available_games()


@pytest.fixture
def runner() -> CliRunner:
    # wide enough that rich does not wrap the lines the tests read
    return CliRunner(env={"COLUMNS": "250", "FORCE_COLOR": None, "TTY_COMPATIBLE": None})


def invoke(runner: CliRunner, *args: object, input: str | None = None) -> Result:
    return runner.invoke(main, [str(a) for a in args], input=input)


def order_line(output: str) -> list[str]:
    line = next(line for line in output.splitlines() if line.startswith("Resolution order: "))
    return line.removeprefix("Resolution order: ").split(" → ")


def assert_one_line_error(result: Result, pattern: str) -> str:
    """Exit 2, nothing on stdout, one ``error:`` line on stderr matching ``pattern``."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert re.fullmatch(pattern, lines[0]), lines[0]
    return lines[0]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- games, version, help, schema ------------------------------------------------


def test_games_table_lists_digimon_with_version_and_module(runner):
    result = invoke(runner, "games")
    assert result.exit_code == 0
    row = next(line for line in result.stdout.splitlines() if line.startswith("digimon "))
    assert "Digimon Card Game" in row
    assert "1.0.0" in row
    assert "tcgtrig.plugins.digimon.hooks" in row
    assert "tcgtrig 0.1.0" in row
    header = result.stdout.splitlines()[0].split()
    assert header == ["game", "title", "version", "from"]


def test_games_json(runner):
    result = invoke(runner, "games", "--json")
    assert result.exit_code == 0
    listing = json.loads(result.stdout)
    assert [g["name"] for g in listing] == INSTALLED
    digimon = next(g for g in listing if g["name"] == "digimon")
    assert digimon == {
        "name": "digimon",
        "title": "Digimon Card Game",
        "version": "1.0.0",
        "module": "tcgtrig.plugins.digimon.hooks",
        "distribution": "tcgtrig",
        "distribution_version": "0.1.0",
        "error": None,
        "variants": [],
        "trigger_multiplicity": "per_moment",
        "unstated": [],
    }


def test_version_and_help(runner):
    assert invoke(runner, "--version").stdout == f"tcgtrig, version {tcgtrig.__version__}\n"
    result = invoke(runner, "--help")
    assert result.exit_code == 0
    commands = re.findall(r"^  (\w+)  ", result.stdout, flags=re.M)
    assert commands == ["check", "compare", "explore", "games", "play", "read", "resume", "run", "schema", "words"]


def test_schema_prints_the_json_schema_that_accepts_the_scenarios(runner):
    import jsonschema

    result = invoke(runner, "schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert schema["title"] == "tcgtrig scenario (format 1)"
    assert set(schema["required"]) == {"format", "title", "players", "turn_player", "cards", "start"}
    jsonschema.validate(yaml.safe_load(T1_TEXT), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"format": 2}, schema)


# -- run -------------------------------------------------------------------------


def test_run_prints_the_tree_and_the_resolution_order(runner):
    result = invoke(runner, "run", T1)
    assert result.exit_code == 0
    assert result.stderr == ""
    out = result.stdout
    assert out.splitlines()[0].startswith("Digimon triggered effects, example 1")
    assert "(Digimon Card Game)" in out.splitlines()[0]
    # effects with their card names, controller, priority, the rule that put them first and what became of them
    chosen = "— A orders their own effects within a priority layer as they choose (CR 15-4-3-5)"
    assert f"1. ▶ gabumon.trash  ST2-03 Gabumon · A  priority 1  {chosen}  ✓ resolved" in out
    assert f"2. ▶ metalgarurumon.play  BT1-044 MetalGarurumon · A  priority 1  {chosen}  ✓ resolved" in out
    assert (
        "3. ▶ garurumon.unsuspend  BT1-036 Garurumon · A  priority 2  — the newer priority layer first: it goes "
        "above every older pending effect (CR 15-4-5-2/3)  ✓ resolved"
    ) in out
    assert "6. ▶ venommyotismon.memory  BT2-079 VenomMyotismon · B  priority 1  ✓ resolved" in out  # alone: no rule
    assert "▲ triggered (priority 1): metalgarurumon.play (A), zudomon.memory (A)" in out
    assert "▲ triggered (priority 2): garurumon.unsuspend (A)" in out
    assert "trashed Digivolution card of Myotismon (B) sources → trash" in out
    # garurumon.unsuspend is drawn inside metalgarurumon.play, which played it
    lines = out.splitlines()
    play = next(i for i, line in enumerate(lines) if "metalgarurumon.play  BT1-044" in line)
    unsuspend = next(i for i, line in enumerate(lines) if "garurumon.unsuspend  BT1-036" in line)
    assert unsuspend > play
    assert lines[unsuspend].index("3.") > lines[play].index("2.")
    assert order_line(out) == T1_ORDER
    assert "Counters: memory 0" in out  # both gained 1: one gauge (CR 1-4-2-1)
    assert "Moved: garurumon sources → battle, myotismon_source sources → trash" in out


def test_the_tree_labels_repeated_effects_as_choice_names_them(runner):
    path = str(SCENARIOS / "triggered-03.yaml")
    out = invoke(runner, "run", path).stdout
    assert "malomyotismon.memory#1 (B), malomyotismon.memory#2 (B)" in out  # as they trigger
    assert "also waiting: malomyotismon.memory#1 (B, priority 1); malomyotismon.memory#2 (B, priority 1)" in out
    assert ("? B chose malomyotismon.memory#1 (order; among malomyotismon.memory#1, malomyotismon.memory#2)") in out
    assert "4. ▶ malomyotismon.memory#1  BT3-092 MaloMyotismon · B" in out
    # the labels the tree shows are the ones --choice takes
    script = ["use", "guilmon", "darktyrannomon_1", "darktyrannomon_2", "guilmon.memory", "malomyotismon.memory#2"]
    again = invoke(runner, "run", path, "--json", *[arg for label in script for arg in ("--choice", label)])
    activated = [step["id"] for step in json.loads(again.stdout)["steps"] if step["kind"] == "activated"]
    assert activated[-2:] == [5, 4]  # the second instance first


def test_run_with_explicit_game(runner):
    result = invoke(runner, "run", T1, "-g", "digimon")
    assert result.exit_code == 0
    assert order_line(result.stdout) == T1_ORDER


def test_run_json_follows_the_contract(runner):
    result = invoke(runner, "run", T1, "--json")
    assert result.exit_code == 0
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert list(data) == [
        "format",
        "game",
        "title",
        "outcome",
        "steps",
        "counters",
        "zones",
        "flags",
        "stats",
        "marks",
    ]  # optional: the file's attack is still going on at its end
    assert data["marks"] == ["attack_in_progress"]
    assert data["format"] == 1
    assert data["game"] == "digimon"
    assert data["title"] == yaml.safe_load(T1_TEXT)["title"]
    assert data["outcome"] == "complete"
    steps = data["steps"]
    assert all("kind" in s for s in steps)
    assert steps[0] == {"kind": "start", "effect": "start", "player": "A", "id": 0}
    effect_steps = [s for s in steps if s["kind"] in ("triggered", "activated", "resolved")]
    assert effect_steps and all({"effect", "player", "id", "cause"} <= set(s) for s in effect_steps)
    assert [s["effect"] for s in steps if s["kind"] == "resolved"] == T1_ORDER
    assert {s["effect"]: s["player"] for s in steps if s["kind"] == "resolved"}["venommyotismon.memory"] == "B"
    priorities = {s["effect"]: s["priority"] for s in steps if s["kind"] == "triggered"}
    assert priorities["garurumon.unsuspend"] == 2 and priorities["gabumon.trash"] == 1
    choices = [s for s in steps if s["kind"] == "choice"]
    assert [c["label"] for c in choices] == ["gabumon.trash", "metalgarurumon.play", "upamon.draw"]
    assert choices[0]["decision"] == "order" and choices[0]["options"] == T1_FIRST_OPTIONS
    events = [s for s in steps if s["kind"] == "event"]
    assert {"event": "played", "card": "garurumon", "from": "sources", "to": "battle"}.items() <= next(
        e for e in events if e["event"] == "played"
    ).items()
    assert data["counters"] == {"A": {"memory": 0}, "B": {"memory": 0}}
    assert data["zones"]["garurumon"] == "battle"
    assert data["zones"]["myotismon_source"] == "trash"
    assert data["zones"]["zudomon"] == "sources"
    assert data["flags"]["metalgarurumon"] == ["attacking"]  # unsuspended, still attacking
    assert data["stats"]["metalgarurumon"] == {"dp": 11000, "level": 6}
    assert "unused_choices" not in data


def test_run_json_is_byte_identical_across_runs(runner):
    first = invoke(runner, "run", T1, "--json").stdout_bytes
    second = invoke(runner, "run", T1, "--json").stdout_bytes
    assert first == second
    assert len(first) > 1000


def test_run_json_of_a_draw_has_a_reason(runner):
    result = invoke(runner, "run", T1, "--json", "--max-steps", "1")
    data = json.loads(result.stdout)
    assert result.exit_code == 3  # ended early: scripts can tell it from success
    assert data["outcome"] == "draw"
    assert "endless loop" in data["reason"]
    assert data["steps"][-1]["kind"] == "ended"


def test_run_choice_overrides_the_files_choices_and_changes_the_order(runner):
    result = invoke(runner, "run", T1, "--choice", "upamon.draw")
    assert result.exit_code == 0
    # upamon.draw first, then the default (earliest triggered) — the file's
    # script (gabumon.trash first) is not used at all
    assert order_line(result.stdout) == [
        "upamon.draw",
        "metalgarurumon.play",
        "garurumon.unsuspend",
        "zudomon.memory",
        "gabumon.trash",
        "venommyotismon.memory",
    ]
    result = invoke(runner, "run", T1, "--choice", "upamon.draw", "--choice", "zudomon.memory", "--json")
    steps = json.loads(result.stdout)["steps"]
    assert [s["effect"] for s in steps if s["kind"] == "resolved"][:3] == [
        "upamon.draw",
        "zudomon.memory",
        "metalgarurumon.play",
    ]


def test_run_reports_unused_choices(runner):
    args = [
        "--choice",
        "gabumon.trash",
        "--choice",
        "metalgarurumon.play",
        "--choice",
        "upamon.draw",
        "--choice",
        "zudomon.memory",
    ]
    text = invoke(runner, "run", T1, *args)
    assert text.exit_code == 0
    # the last decision had one legal option: the fourth label is left over
    assert "Unused scripted choices: zudomon.memory" in text.stdout
    assert json.loads(invoke(runner, "run", T1, *args, "--json").stdout)["unused_choices"] == ["zudomon.memory"]


def test_run_random_is_deterministic_per_seed(runner):
    orders = {}
    for seed in range(6):
        one = invoke(runner, "run", T1, "--random", seed, "--json")
        two = invoke(runner, "run", T1, "--random", seed, "--json")
        assert one.exit_code == two.exit_code == 0
        assert one.stdout == two.stdout
        orders[seed] = tuple(s["effect"] for s in json.loads(one.stdout)["steps"] if s["kind"] == "resolved")
        assert sorted(orders[seed]) == sorted(T1_ORDER)
    assert len(set(orders.values())) > 1
    text = invoke(runner, "run", T1, "--random", 3)
    assert order_line(text.stdout) == list(orders[3])


# -- check -----------------------------------------------------------------------


def test_check_passing_files(runner):
    files = sorted(SCENARIOS.glob("*.yaml"))
    # one check per installed game a file's expect names (portable files name two)
    checks = sum(len(set(yaml.safe_load(f.read_text(encoding="utf-8"))["expect"]) & set(INSTALLED)) for f in files)
    result = invoke(runner, "check", *files)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == f"{checks} passed, 0 failed"
    assert f"PASS {T1} [digimon]" in result.stdout
    assert result.stdout.count("PASS ") == checks


def test_check_one_file_for_one_game(runner):
    result = invoke(runner, "check", T1, "--game", "digimon")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"PASS {T1} [digimon]", "1 passed, 0 failed"]


def _swapped(tmp_path: Path) -> Path:
    text = T1_TEXT.replace(
        "resolved: [gabumon.trash, metalgarurumon.play,", "resolved: [metalgarurumon.play, gabumon.trash,"
    )
    assert text != T1_TEXT
    return write(tmp_path, "wrong.yaml", text)


def test_check_wrong_expectation_exits_1_and_shows_expected_vs_actual(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _swapped(tmp_path)
    result = invoke(runner, "check", "wrong.yaml")
    assert result.exit_code == 1
    out = result.stdout
    assert "FAIL wrong.yaml [digimon]" in out
    assert out.splitlines()[-1] == "0 passed, 1 failed"
    assert re.search(r"key\s.*expected\s.*actual", out)
    # expected then actual, on the same row
    assert re.search(r"resolved\s.*1\. metalgarurumon\.play\s.*1\. gabumon\.trash", out)
    assert re.search(r"2\. gabumon\.trash\s.*2\. metalgarurumon\.play", out)
    assert re.search(r"3\. garurumon\.unsuspend\s.*3\. garurumon\.unsuspend", out)
    assert "Traceback" not in result.output


def test_check_counts_passes_and_failures_together(runner, tmp_path):
    wrong = _swapped(tmp_path)
    counters = write(
        tmp_path,
        "counters.yaml",
        T1_TEXT.replace(
            "    counters: {A: {memory: 0}, B: {memory: 0}}", "    counters: {A: {memory: 5}, B: {memory: 0}}"
        ),
    )
    result = invoke(runner, "check", T1, wrong, counters)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "1 passed, 2 failed"
    assert re.search(r"counters\.A\.memory\s.*5\s.*0", result.stdout)
    assert "counters.B.memory" not in result.stdout


def test_check_uses_the_files_choices_for_the_game(runner, tmp_path):
    # choices as a mapping: the digimon list is the one used
    text = T1_TEXT.replace(
        "choices: [gabumon.trash, metalgarurumon.play, upamon.draw]",
        "choices:\n  nosuchgame: [upamon.draw]\n  digimon: [gabumon.trash, metalgarurumon.play, upamon.draw]",
    )
    assert text != T1_TEXT
    result = invoke(runner, "check", write(tmp_path, "mapped.yaml", text))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "1 passed, 0 failed"


def test_check_skips_expectations_for_games_that_are_not_installed(runner, tmp_path):
    text = T1_TEXT.replace("expect:\n  digimon:", "expect:\n  nosuchgame:")
    result = invoke(runner, "check", write(tmp_path, "other.yaml", text))
    assert result.exit_code == 0
    installed = ", ".join(tcgtrig.available_games())
    assert "SKIP" in result.stdout and f"game 'nosuchgame' is not installed (installed: {installed})" in result.stdout
    assert result.stdout.splitlines()[-1] == "0 passed, 0 failed, 1 skipped"


def test_a_file_without_game_runs_under_an_installed_game_its_expectations_name(runner, tmp_path):
    text = T1_TEXT.replace("game: digimon\n", "").replace(
        "expect:\n  digimon:", "expect:\n  nosuchgame: {}\n  digimon:"
    )
    result = invoke(runner, "run", write(tmp_path, "multi.yaml", text), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["game"] == "digimon"


def test_check_file_without_expectations_is_skipped(runner, tmp_path):
    text = T1_TEXT.split("\nexpect:")[0] + "\n"
    result = invoke(runner, "check", write(tmp_path, "noexpect.yaml", text))
    assert result.exit_code == 0
    assert "SKIP" in result.stdout and "no expect block" in result.stdout
    assert result.stdout.splitlines()[-1] == "0 passed, 0 failed, 1 skipped"


def test_check_unknown_game_is_bad_input(runner):
    result = invoke(runner, "check", T1, "--game", "digmon")
    assert result.exit_code == 2
    assert "unknown game 'digmon'" in result.stderr
    assert "installed: digimon" in result.stderr


# -- compare ---------------------------------------------------------------------


def test_compare_shows_a_column_per_installed_game(runner):
    result = invoke(runner, "compare", T1)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    header = next(line for line in lines if "#" in line)
    assert re.findall(r"[#\w]+", header) == ["#", *INSTALLED]
    cells = [re.findall(r"[^│┃]+", line) for line in lines if line.startswith("│")]
    rows = {c[0].strip(): [x.strip() for x in c[1:]] for c in cells}
    assert [rows[str(i)][INSTALLED.index("digimon")] for i in range(1, 7)] == T1_ORDER
    assert rows["end"][INSTALLED.index("digimon")] == "complete; A: memory 0; B: memory 0"


def test_compare_json(runner):
    result = invoke(runner, "compare", T1, "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data) == ["games", "differences", "vocabulary"]
    assert list(data["games"]) == INSTALLED
    digimon = data["games"]["digimon"]
    assert digimon["format"] == 1 and digimon["game"] == "digimon" and digimon["outcome"] == "complete"
    assert [s["effect"] for s in digimon["steps"] if s["kind"] == "resolved"] == T1_ORDER
    assert digimon["counters"] == {"A": {"memory": 0}, "B": {"memory": 0}}
    for difference in data["differences"]:
        assert set(difference["games"]) <= set(INSTALLED) and difference["what"]


def test_compare_names_the_games_and_variants_and_says_where_they_part(runner):
    four = "tests/scenarios/digimon/triggered-04.yaml"
    data = json.loads(invoke(runner, "compare", four, "--games", "digimon,yugioh/ocg", "--json").stdout)
    assert list(data["games"]) == ["digimon", "yugioh/ocg"]
    order = next(d for d in data["differences"] if d["what"] == "order")
    assert order["first"] == 2
    assert order["games"]["digimon"][:2] == ["omnimon.blitz", "upamon.draw"]
    assert order["games"]["yugioh/ocg"][:2] == ["omnimon.blitz", "omnimon.unsuspend"]
    text = invoke(runner, "compare", four, "--games", "digimon,duelmasters").stdout
    assert "Where the games part ways:" in text and "order, from effect 2:" in text


def test_compare_does_not_say_the_games_agree_when_only_one_could_resolve_the_file(runner):
    three = "tests/scenarios/duelmasters/multiplayer-three-players-turn-order.yaml"  # Yu-Gi-Oh! is for two
    text = invoke(runner, "compare", three, "--games", "duelmasters,yugioh").stdout
    assert "The games agree." not in text
    assert "Only duelmasters could resolve the file" in " ".join(text.split())


def test_compare_lists_marks_that_differ(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(
        tmp_path,
        "m.yaml",
        """format: 1
title: a mark only one game sets (Digimon's memory is one gauge, so B's side goes below 0)
players: [A, B]
turn_player: A
cards: []
start:
  - gain: {counter: memory, amount: 1}
  - if: {player: opponent, counter: memory, lt: 0}
    then: [{mark: {set: linked}}]
""",
    )
    data = json.loads(invoke(runner, "compare", "m.yaml", "--games", "digimon,yugioh", "--json").stdout)
    assert data["games"]["digimon"]["marks"] == ["linked"] and "marks" not in data["games"]["yugioh"]
    # a game's own bookkeeping is no rule: compared only with --all (issue 36)
    assert all(d["what"] != "marks" for d in data["differences"])
    assert "marks:" not in invoke(runner, "compare", "m.yaml", "--games", "digimon,yugioh").stdout
    data = json.loads(invoke(runner, "compare", "m.yaml", "--games", "digimon,yugioh", "--json", "--all").stdout)
    assert {"what": "marks", "games": {"digimon": ["linked"], "yugioh": []}} in data["differences"]
    text = invoke(runner, "compare", "m.yaml", "--games", "digimon,yugioh", "--all").stdout
    assert "marks: digimon: linked | yugioh: none" in text


def test_piped_compare_wraps_to_100_columns(tmp_path):
    # issue 22 item 12: off a terminal the table and the lines were up to 1,000 columns (3,000 bytes) wide
    cost = Path(__file__).parent.parent / "examples" / "09-cost-triggers.yaml"
    long = write(
        tmp_path,
        "long.yaml",
        cost.read_text(encoding="utf-8").replace(
            "cannon", "cannon_with_a_name_long_enough_to_need_wrapping_in_a_table"
        ),
    )
    for path in (cost, long):
        result = CliRunner(env={"COLUMNS": None, "FORCE_COLOR": None}).invoke(main, ["compare", str(path)])
        assert result.exit_code == 0, result.stderr
        lines = result.stdout.splitlines()
        assert max(len(line) for line in lines) == 100, result.stdout
        assert "Where the games part ways:" in lines
    folded = "".join(line.split("│")[2].strip() for line in lines if line.startswith("│"))
    assert "cannon_with_a_name_long_enough_to_need_wrapping_in_a_table.fire" in folded
    # COLUMNS says otherwise
    wide = CliRunner(env={"COLUMNS": "250", "FORCE_COLOR": None}).invoke(main, ["compare", str(long)])
    assert max(len(line) for line in wide.stdout.splitlines()) > 100


def test_compare_html_replaces_the_page_at_once(runner, tmp_path, monkeypatch):
    # issue 22 item 5: the page was opened (emptied) before it was made: a failure left an empty file
    import tcgtrig.tools.compare_html

    page = write(tmp_path, "page.html", "the page before")
    page.chmod(0o640)

    def fails(*args, **kwargs):
        raise tcgtrig.TcgTrigError("the page could not be made")

    monkeypatch.setattr(tcgtrig.tools.compare_html, "comparison_html", fails)
    assert_one_line_error(invoke(runner, "compare", T1, "--html", page), r"error: the page could not be made")
    assert page.read_text() == "the page before" and sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]
    monkeypatch.undo()
    assert invoke(runner, "compare", T1, "--html", page).exit_code == 0
    assert page.read_text().startswith("<!doctype html>") and page.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]
    fresh = tmp_path / "fresh.html"
    assert invoke(runner, "compare", T1, "--html", fresh).exit_code == 0
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask  # as any new file
    assert_one_line_error(
        invoke(runner, "compare", T1, "--html", tmp_path / "no" / "page.html"),
        rf"error: {re.escape(str(tmp_path / 'no' / 'page.html'))}: cannot write the page: "
        r"No such file or directory",
    )


def test_compare_with_an_unknown_game_lists_the_installed_ones(runner):
    assert_one_line_error(
        invoke(runner, "compare", T1, "--games", "digimon,nope"), r"error: unknown game 'nope' \(installed: .+\)"
    )


# -- play ------------------------------------------------------------------------


def test_play_resolves_with_the_persons_answers(runner):
    # a label, then a number, then Enter (the default)
    result = invoke(runner, "play", T1, input="upamon.draw\n2\n\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "A decides (order): which pending effect activates next" in out
    assert "  1. metalgarurumon.play  (default)" in out
    assert "  4. upamon.draw" in out
    # upamon.draw, then option 2 of (metalgarurumon.play, zudomon.memory,
    # gabumon.trash), then the default; the file's choices are not used
    assert order_line(out) == [
        "upamon.draw",
        "zudomon.memory",
        "metalgarurumon.play",
        "garurumon.unsuspend",
        "gabumon.trash",
        "venommyotismon.memory",
    ]
    assert out.count("decides (order)") == 3  # 4, 3, then 2 pending; 1 is not asked


def test_play_asks_again_after_an_illegal_answer(runner):
    result = invoke(runner, "play", T1, input="bogus\n9\n3\n3\n2\n")
    assert result.exit_code == 0, result.output
    assert "not a legal choice: 'bogus'" in result.stdout
    assert "not a legal choice: '9'" in result.stdout
    assert order_line(result.stdout) == [
        "gabumon.trash",
        "upamon.draw",
        "zudomon.memory",
        "metalgarurumon.play",
        "garurumon.unsuspend",
        "venommyotismon.memory",
    ]


# -- bad input: exit 2, one line, no traceback -----------------------------------


def test_yaml_syntax_error(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "bad.yaml", "format: 1\ntitle: x\nplayers: [A, B\nturn_player: A\n")
    assert_one_line_error(invoke(runner, "run", "bad.yaml"), r"error: bad\.yaml:4: not valid YAML: .+")


def test_json_syntax_error(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "bad.json", '{"format": 1,\n "title": "x",\n "players": ["A", "B"]\n "x": 1}')
    assert_one_line_error(invoke(runner, "run", "bad.json"), r"error: bad\.json:4: not valid JSON: .+")


def test_unknown_card_id(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = T1_TEXT.replace("  - attack: metalgarurumon", "  - attack: metalgarurumonx")
    line = text.splitlines().index("  - attack: metalgarurumonx") + 1
    write(tmp_path, "unk.yaml", text)
    pattern = rf"unk\.yaml:{line}: start\[0\]\.attack: unknown card 'metalgarurumonx' \(legal: .+\)"
    for command in ("run", "play"):
        message = assert_one_line_error(invoke(runner, command, "unk.yaml"), "error: " + pattern)
        legal = message.rsplit("(legal: ", 1)[1].rstrip(")").split(", ")
        assert {"metalgarurumon", "garurumon", "venommyotismon", "self"} <= set(legal)
    # check goes on with the other files, reports the bad one, and exits 2
    checked = invoke(runner, "check", "unk.yaml", T1)
    assert checked.exit_code == 2 and "Traceback" not in checked.output
    assert re.search(r"ERROR unk\.yaml \[digimon\]: " + pattern, checked.stdout)
    assert checked.stdout.splitlines()[-1] == "1 passed, 0 failed, 1 error"


def test_compare_fails_when_no_game_can_resolve_the_file(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = T1_TEXT.replace("  - attack: metalgarurumon", "  - attack: metalgarurumonx")
    line = text.splitlines().index("  - attack: metalgarurumonx") + 1
    write(tmp_path, "unk.yaml", text)
    assert_one_line_error(
        invoke(runner, "compare", "unk.yaml", "--json"),
        rf"error: no installed game could resolve this file: digimon: unk\.yaml:{line}: "
        r"start\[0\]\.attack: unknown card 'metalgarurumonx' .*",
    )


def test_text_output_keeps_colon_words_literally(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    named = write(tmp_path, "named.yaml", T1_TEXT.replace("name: ST2-03 Gabumon", 'name: "Gabumon :fire: :100:"'))
    assert "gabumon.trash  Gabumon :fire: :100: · A" in invoke(runner, "run", named).stdout


def test_boolean_choice_in_the_file(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # YAML reads true as a boolean (yes too before issue 37 item 33: YAML 1.2 reads it as text)
    write(tmp_path, "b.yaml", T1_TEXT.replace("choices: [gabumon.trash,", "choices: [true, gabumon.trash,"))
    assert_one_line_error(
        invoke(runner, "run", "b.yaml"),
        r"error: b\.yaml:\d+: choices\[0\]: True is a boolean: .*write 'use' or 'decline'",
    )


def test_unknown_game_lists_the_installed_games(runner):
    message = assert_one_line_error(
        invoke(runner, "run", T1, "--game", "nope"), r"error: unknown game 'nope' \(installed: .+\)"
    )
    assert message.endswith(f"(installed: {', '.join(INSTALLED)})")
    assert_one_line_error(invoke(runner, "play", T1, "-g", "nope"), r"error: unknown game 'nope' .*")


def test_file_without_a_game_needs_one(runner, tmp_path):
    path = write(
        tmp_path,
        "nogame.yaml",
        T1_TEXT.replace("game: digimon\n", "").replace("expect:\n  digimon:", "expect:\n  nosuchgame:"),
    )
    assert_one_line_error(
        invoke(runner, "run", path),
        r"error: no game given: the file has no 'game' key, names no installed game in "
        r"'expect', and no --game was passed \(installed: " + re.escape(", ".join(tcgtrig.available_games())) + r"\)",
    )
    assert invoke(runner, "run", path, "-g", "digimon").exit_code == 0


def test_illegal_scripted_choice_names_the_decision_and_the_legal_labels(runner):
    message = assert_one_line_error(
        invoke(runner, "run", T1, "--choice", "bogus"),
        r"error: choice #1 'bogus' is not legal for decision: order by A: "
        r"which pending effect activates next .*\(legal: .+\)",
    )
    assert message.endswith(f"(legal: {', '.join(T1_FIRST_OPTIONS)})")
    # the second label, for the second decision (upamon.draw already went)
    assert_one_line_error(
        invoke(runner, "run", T1, "--json", "--choice", "upamon.draw", "--choice", "garurumon.unsuspend"),
        r"error: choice #2 'garurumon.unsuspend' is not legal for decision: order by A: .*"
        r"\(legal: metalgarurumon\.play, zudomon\.memory, gabumon\.trash\)",
    )


@pytest.mark.parametrize("command", ["run", "compare", "play"])
def test_missing_file(runner, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(invoke(runner, command, "missing.yaml"), r"error: missing\.yaml: no such file")


def test_check_reports_a_missing_file_and_exits_2(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke(runner, "check", "missing.yaml")
    assert result.exit_code == 2
    assert result.stdout.splitlines() == ["ERROR missing.yaml: no such file", "0 passed, 0 failed, 1 error"]


def test_usage_errors_exit_2(runner):
    result = invoke(runner, "run", T1, "--random", "x")
    assert result.exit_code == 2
    assert "'x' is not a valid integer" in result.stderr
    assert invoke(runner, "run", T1, "--max-steps", "0").exit_code == 2
    assert invoke(runner, "frobnicate").exit_code == 2


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["run", "--bogus", "x"], "error: no such option '--bogus' (see: tcgtrig run --help)"),
        (["frobnicate"], "error: no such command 'frobnicate' (see: tcgtrig --help)"),
        (["explore"], "error: missing argument 'FILE' (see: tcgtrig explore --help)"),
    ],
)
def test_usage_errors_are_one_line_like_every_other_error(args, line):
    done = subprocess.run([sys.executable, "-m", "tcgtrig", *args], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", line + "\n")


# -- known bugs ------------------------------------------------------------------

MARKUP_PLAYER = """\
format: 1
title: markup in a player name
game: digimon
players: ["{name}", B]
turn_player: "{name}"
cards: []
start: []
"""


@pytest.mark.parametrize("name", ["[/]", "[p1]"])
def test_player_names_are_printed_literally(runner, tmp_path, name):
    path = write(tmp_path, "markup.yaml", MARKUP_PLAYER.format(name=name))
    result = invoke(runner, "run", path)
    assert result.exit_code == 0, result.exception
    assert f"start · {name} performs the start actions" in result.stdout


def test_recursive_yaml_alias_is_bad_input(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "rec.yaml", "&a [*a]\n")
    result = invoke(runner, "run", "rec.yaml")
    assert not isinstance(result.exception, RecursionError)
    assert_one_line_error(result, r"error: rec\.yaml.*")


# -- a real process --------------------------------------------------------------


def _tcgtrig(*args: object, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "COLUMNS": "250", "PYTHONIOENCODING": "utf-8", **env}
    return subprocess.run(
        [sys.executable, "-m", "tcgtrig", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        env=environ,
        cwd=cwd,
        timeout=60,
    )


def test_process_bad_input_gives_one_line_and_no_traceback(tmp_path):
    missing = _tcgtrig("run", "missing.yaml", cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stdout == ""
    assert missing.stderr == "error: missing.yaml: no such file\n"
    choice = _tcgtrig("run", T1, "--choice", "bogus")
    assert choice.returncode == 2
    assert "Traceback" not in choice.stderr
    assert choice.stderr.count("\n") == 1 and choice.stderr.startswith("error: choice #1 'bogus'")


def test_process_json_matches_the_runner_byte_for_byte(runner):
    process = _tcgtrig("run", T1, "--json", PYTHONHASHSEED="12345")
    assert process.returncode == 0
    assert process.stderr == ""
    assert process.stdout == invoke(runner, "run", T1, "--json").stdout
    assert [s["effect"] for s in json.loads(process.stdout)["steps"] if s["kind"] == "resolved"] == T1_ORDER


def test_process_on_a_non_utf8_stdout_has_no_traceback():
    process = _tcgtrig("run", T1, PYTHONIOENCODING="cp1252")
    assert "Traceback" not in process.stderr
    assert process.returncode == 0


def test_play_at_the_end_of_input_stops_with_a_clear_error(runner):
    result = invoke(runner, "play", T1, input="")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: play stopped: no answer (end of input)"
    assert "Traceback" not in result.output


def test_run_reads_standard_input_for_a_dash(runner):
    result = runner.invoke(main, ["run", "-"], input=T1_TEXT)
    assert result.exit_code == 0, result.output
    assert order_line(result.stdout) == T1_ORDER


def test_unused_scripted_choices_are_a_warning_on_standard_error(runner):
    result = invoke(
        runner,
        "run",
        T1,
        "--choice",
        "gabumon.trash",
        "--choice",
        "metalgarurumon.play",
        "--choice",
        "upamon.draw",
        "--choice",
        "use",
    )
    assert result.exit_code == 0
    assert "warning: scripted choices left unused: use" in result.stderr


def test_check_searches_a_directory_like_pytest(runner, tmp_path):
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    (nested / "t1.yaml").write_text(T1_TEXT, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a scenario", encoding="utf-8")
    result = invoke(runner, "check", tmp_path)
    assert result.exit_code == 0 and result.stdout.splitlines()[-1] == "1 passed, 0 failed"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert_one_line_error(invoke(runner, "check", empty), r"error: .*empty: no scenario files .*")


def test_short_version_flag(runner):
    assert invoke(runner, "-V").stdout == f"tcgtrig, version {tcgtrig.__version__}\n"


def test_shell_completion_offers_the_games_and_their_variants():
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "_TCGTRIG_COMPLETE": "bash_complete",
        "COMP_WORDS": "tcgtrig run x.yaml --game yu",
        "COMP_CWORD": "4",
    }
    done = subprocess.run(
        [sys.executable, "-c", "from tcgtrig.tools.cli import main; main(prog_name='tcgtrig')"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    offered = [line.split(",", 1)[1] for line in done.stdout.splitlines() if "," in line]
    assert "yugioh" in offered and "yugioh/ocg" in offered and "digimon" not in offered


# -- issue 22 item 17: an output that is the input file is refused ------------------


def _output_spellings(tmp_path: Path, scenario: Path) -> list[str]:
    """The input file named another way: as written, through '..', a
    symbolic link, a hard link."""
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link.yaml"
    link.symlink_to(scenario)
    hard = tmp_path / "hard.yaml"
    os.link(scenario, hard)
    return [str(scenario), str(tmp_path / "sub" / ".." / scenario.name), str(link), str(hard)]


@pytest.mark.parametrize("command", [("run", "--stop-after", "1", "--save"), ("compare", "--html")])
def test_an_output_naming_the_input_file_is_refused(runner, tmp_path, command):
    scenario = tmp_path / "t1.yaml"
    scenario.write_text(T1_TEXT, encoding="utf-8")
    option = command[-1]
    for output in _output_spellings(tmp_path, scenario):
        result = invoke(runner, *command, output, scenario)
        assert_one_line_error(
            result,
            rf"error: {option} .*: that is the input file .*t1\.yaml: writing it would "
            r"overwrite the scenario \(name another file\)",
        )
        assert scenario.read_text(encoding="utf-8") == T1_TEXT
    other = tmp_path / "out.any"
    assert invoke(runner, *command, other, scenario).exit_code == 0 and other.stat().st_size > 0


def test_a_bad_memory_setting_in_the_environment_is_said_not_ignored(monkeypatch):
    # issue 22 (review): TCGTRIG_MAX_MEMORY=lots silently fell back to the default bound
    monkeypatch.setenv("TCGTRIG_MAX_MEMORY", "lots")
    result = CliRunner().invoke(main, ["run", str(T1)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: TCGTRIG_MAX_MEMORY: 'lots' is not a size: expected a number of bytes")
    monkeypatch.setenv("TCGTRIG_MAX_MEMORY", "1G")
    assert CliRunner().invoke(main, ["run", str(T1)]).exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ["run", "--json", "tests/scenarios/digimon/triggered-09.yaml"],
        ["run", "tests/scenarios/digimon/triggered-09.yaml"],
        ["compare", "tests/scenarios/digimon/triggered-09.yaml"],
        ["explore", "--json", "tests/scenarios/digimon/qa-13-bt20-068-q4285.yaml"],
        ["games", "--json"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_a_reader_gone_ends_the_command_quietly_with_status_141(args):
    # `tcgtrig run --json F | head`: exit 1 and nothing said (click's and rich's handling of a broken pipe)
    root = Path(__file__).resolve().parent.parent
    process = subprocess.Popen(
        [sys.executable, "-m", "tcgtrig", *args], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    process.stdout.close()  # the reader is gone before the first line
    stderr = process.stderr.read()
    process.stderr.close()
    assert (process.wait(timeout=60), stderr) == (141, b"")
