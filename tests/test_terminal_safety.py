"""Nothing from a scenario file acts on the terminal, and text output does
not grow with the length of a name (issue 22, items 13 and 5).

A name, a title, a zone or a counter can hold escape sequences (YAML
``"\\e"``, JSON ``"\\u001b"``) or bidi controls: every command shows them
escaped; the JSON keeps them as data, written as ``\\uXXXX``.  A very long
name is shortened in text output (``--json`` gives it whole).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tcgtrig
from click.testing import CliRunner
from rich.console import Console
from tcgtrig.base.safe_text import NAME_LIMIT, SHORTENED_NOTE, Shown, escape_controls
from tcgtrig.tools.cli import main
from tcgtrig.tools.render import MAX_ORDER_SHOWN, print_tree, render_text

#: What a terminal would act on: escape sequences, BEL, CR, DEL, C1, bidi controls;
#: and what shows nothing (issue 37 item 35: zero-width characters, the tag characters).
RAW = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\u200b-\u200d\u2060\ufeff\U000e0000-\U000e007f]"
)
#: The styles rich writes on a terminal (SGR sequences) are the only escapes allowed there.
STYLES = re.compile(r"\x1b\[[0-9;]*m")

HOSTILE = '"\\e]0;PWNED\\a \\e[2J \\e]8;;javascript:alert(1)\\e\\\\click\\e]8;;\\e\\\\ \\u202Eevil \\r"'


def looping(card: str, name: str, steps: int) -> str:
    """A file whose one effect re-triggers itself ``steps`` times."""
    return f"""format: 1
title: a loop of {steps} steps
game: digimon
players: [A, B]
turn_player: A
cards:
  - id: {card}
    name: "{name}"
    owner: A
    zone: battle
    abilities:
      - id: again
        when: {{event: gained}}
        condition: {{counter: lp, lte: {steps}}}
        do: [{{gain: {{counter: lp, amount: 1}}}}]
start:
  - gain: {{counter: lp, amount: 1}}
"""


def test_escape_controls_shows_what_a_terminal_acts_on():
    assert escape_controls("a\x1b]0;x\x07b\u202ec\x85\r\n") == "a\\x1b]0;x\\x07b\\u202ec\\x85\\r\\n"
    assert escape_controls("W・ブレイカー é") == "W・ブレイカー é"


def test_escape_controls_shows_what_shows_nothing():
    # issue 37 item 35 (the attack): zero-width and tag characters were printed raw
    assert escape_controls("Gob\u200blin\u2060\ufeff") == "Gob\\u200blin\\u2060\\ufeff"
    assert escape_controls("a\U000e0041\U000e007fb\u3164") == "a\\U000e0041\\U000e007fb\\u3164"
    assert escape_controls("❤\ufe0f 👍🏽 é") == "❤\ufe0f 👍🏽 é"  # a variation selector draws a visible character
    shown = Shown()
    assert shown("x" * NAME_LIMIT) == "x" * NAME_LIMIT and not shown.shortened
    assert shown("x" * (NAME_LIMIT + 1)) == "x" * (NAME_LIMIT - 1) + "…" and shown.shortened


def test_the_tree_shows_long_names_shortened_and_its_size_does_not_grow_with_them():
    short = tcgtrig.resolve(tcgtrig.scenario_from_text(looping("c", "N", 300)), "digimon")
    long = tcgtrig.resolve(tcgtrig.scenario_from_text(looping("c" * 100_000, "N" * 100_000, 300)), "digimon")
    text = render_text(long)
    assert SHORTENED_NOTE in text
    assert len(text) < 4 * len(render_text(short))  # 300 steps of a 100 KB name: 90 MB before
    assert f"{'c' * (NAME_LIMIT - 1)}…" in text and "c" * NAME_LIMIT not in text
    assert all(len(line) < MAX_ORDER_SHOWN * (NAME_LIMIT + 10) for line in text.splitlines())
    resolved = [step["effect"] for step in json.loads(long.json_text())["steps"] if step["kind"] == "resolved"]
    assert resolved[-1] == "c" * 100_000 + ".again"  # whole in the JSON


def hostile_result() -> tcgtrig.Resolution:
    text = f"""format: 1
title: {HOSTILE}
game: digimon
players: [A, B]
turn_player: A
cards:
  - id: x
    name: {HOSTILE}
    owner: A
    zone: battle
    abilities:
      - id: go
        when: {{event: {HOSTILE}}}
        do:
          - gain: {{counter: {HOSTILE}, amount: 1}}
          - move: {{card: self, to: {HOSTILE}}}
          - mark: {{set: {HOSTILE}}}
start:
  - emit: {{event: {HOSTILE}, card: x}}
"""
    return tcgtrig.resolve(tcgtrig.scenario_from_text(text), "digimon")


def test_the_tree_shows_control_characters_escaped():
    result = hostile_result()
    text = render_text(result)
    assert RAW.search(text) is None, text
    assert "\\x1b]0;PWNED\\x07" in text and "\\u202eevil" in text and "x.go" in text
    terminal = io.StringIO()
    print_tree(result, Console(file=terminal, force_terminal=True, width=200))
    assert "\\x1b]0;PWNED\\x07" in terminal.getvalue()
    assert RAW.search(STYLES.sub("", terminal.getvalue())) is None


def test_the_json_trace_keeps_them_as_data_written_escaped():
    result = hostile_result()
    text = result.json_text()
    assert RAW.search(text.replace("\n", "")) is None
    trace = json.loads(text)
    assert (
        trace["title"] == "\x1b]0;PWNED\x07 \x1b[2J \x1b]8;;javascript:alert(1)\x1b\\click\x1b]8;;\x1b\\ \u202eevil \r"
    )
    assert trace["title"] in trace["counters"]["A"]


# -- every command, on the hostile corpus's files ---------------------------------

CORPUS = Path(__file__).parent / "hostile"
ESCAPES = ("terminal-escapes.yaml", "terminal-escapes.json")
COMMANDS = (
    ("run",),
    ("run", "--json"),
    ("check",),
    ("compare",),
    ("compare", "--json"),
    ("explore",),
    ("explore", "--json"),
    ("play",),
)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": None, "FORCE_COLOR": None, "TTY_COMPATIBLE": None})


def assert_nothing_raw(*texts: str) -> None:
    for text in texts:
        found = RAW.search(text)
        assert found is None, (
            f"{found.group()!r} at {found.start()}: {text[max(found.start() - 80, 0) : found.end() + 80]!r}"
        )


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("name", ESCAPES)
def test_every_command_shows_them_escaped(runner, name, command):
    path = CORPUS / name
    result = runner.invoke(main, [*command, str(path)], input="")
    assert result.exit_code == 0, (result.stdout, result.stderr)
    assert_nothing_raw(result.stdout, result.stderr)
    if command != ("check",):  # check names no title (the file passes): the rest show them, escaped
        assert re.search(r"\\(x1b|u001b|u202e)", result.stdout), result.stdout
    if "--json" in command:  # the data is kept: the title, as the file says it
        data = json.loads(result.stdout)
        title = tcgtrig.load_scenario(path).title
        assert "\x1b]0;PWNED\x07" in title
        if command[0] == "run":
            assert data["title"] == title
        elif command[0] == "compare":
            assert {trace["title"] for trace in data["games"].values()} == {title}


@pytest.mark.parametrize("name", ESCAPES)
def test_the_page_shows_them_escaped(runner, tmp_path, name):
    page = tmp_path / "page.html"
    result = runner.invoke(main, ["compare", str(CORPUS / name), "--html", str(page)])
    assert result.exit_code == 0, result.stderr
    html = page.read_text(encoding="utf-8")
    assert_nothing_raw(html)
    assert "\\x1b]0;PWNED\\x07" in html


def test_a_failed_expectation_and_a_scripted_choice_show_them_escaped(runner, tmp_path):
    text = (CORPUS / "terminal-escapes.yaml").read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(
        text.replace('zones: {bell: "\\u202Egraveyard"}', 'zones: {bell: "\\e[2Jwrong"}'), encoding="utf-8"
    )
    checked = runner.invoke(main, ["check", str(wrong)])
    assert checked.exit_code == 1 and "FAIL" in checked.stdout
    assert "\\x1b[2Jwrong" in checked.stdout
    ran = runner.invoke(main, ["run", str(wrong), "--choice", "\x1b]0;PWNED\x07", "--choice", "\u202e"])
    assert ran.exit_code == 0 and "warning: scripted choices left unused: \\x1b]0;PWNED\\x07, \\u202e" in ran.stderr
    assert_nothing_raw(checked.stdout, checked.stderr, ran.stdout, ran.stderr)


def test_a_process_writes_no_raw_escape_to_a_pipe():
    done = subprocess.run(
        [sys.executable, "-m", "tcgtrig", "run", str(CORPUS / "terminal-escapes.yaml")], capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert_nothing_raw(done.stdout.decode("utf-8"), done.stderr.decode("utf-8"))


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminal here")
@pytest.mark.parametrize("command", [("run",), ("check",), ("compare",), ("games",)], ids=" ".join)
def test_on_a_terminal_the_only_escapes_are_the_styles(command):
    """On a terminal rich styles the output (SGR sequences): nothing else."""
    leader, follower = os.openpty()
    args = [*command] if command == ("games",) else [*command, str(CORPUS / "terminal-escapes.yaml")]
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")} | {
        "TERM": "xterm-256color",
        "COLUMNS": "200",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "tcgtrig", *args],
        stdout=follower,
        stderr=follower,
        stdin=subprocess.DEVNULL,
        env=environ,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the process is done
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert process.wait(timeout=60) == 0
    shown = b"".join(chunks).decode("utf-8").replace("\r\n", "\n")
    assert STYLES.search(shown) or command == ("games",)  # it was a terminal: styled
    assert_nothing_raw(STYLES.sub("", shown))


def test_the_page_does_not_grow_with_long_names_or_long_loops(monkeypatch):
    import tcgtrig.tools.compare_html
    from tcgtrig.tools.compare import compare_games
    from tcgtrig.tools.compare_html import comparison_html

    monkeypatch.setattr(tcgtrig.tools.compare_html, "MAX_PAGE_EFFECTS", 50)
    short = compare_games(tcgtrig.scenario_from_text(looping("c", "N", 300)), ["digimon"])
    long = compare_games(tcgtrig.scenario_from_text(looping("c" * 100_000, "N" * 100_000, 300)), ["digimon"])
    page = comparison_html("long", long)
    assert len(page) < 4 * len(comparison_html("short", short))  # 300 effects of 100 KB names: 60 MB before
    assert SHORTENED_NOTE in page and f"{'c' * (NAME_LIMIT - 1)}…" in page
    assert page.count('class="effect"') == 50 and "… and 250 more effects resolved" in page


def test_a_usage_error_shows_them_escaped(runner):
    # click echoes the argument as it was given (a group-level error uses its repr)
    result = runner.invoke(main, ["run", "a.yaml", "\x1b]0;PWNED\x07x"])
    assert result.exit_code == 2
    assert result.stderr == "error: got unexpected extra argument (\\x1b]0;PWNED\\x07x) (see: main run --help)\n"


def test_a_reason_is_printed_whole_and_only_its_long_names_are_shortened():
    # the engine's reasons were cut at 300 characters (Digimon's CR 18-3 instruction lost its end), with a note
    # blaming long names where there were none
    fan = Path(__file__).parent / "hostile" / "fan-out-2.yaml"
    result = tcgtrig.resolve(tcgtrig.load_scenario(fan))
    assert len(result.reason) > 300
    shown = CliRunner().invoke(main, ["run", str(fan)])
    assert f"Outcome: {result.outcome} — {result.reason}" in shown.stdout
    assert "shortened" not in shown.stdout
    long_id = "c" * 500
    text = fan.read_text(encoding="utf-8").replace("c0", long_id)
    shown = CliRunner().invoke(main, ["run", "-"], input=text)
    outcome = next(line for line in shown.stdout.splitlines() if line.startswith("Outcome:"))
    assert long_id not in outcome and long_id[:79] + "…" in outcome and outcome.endswith(result.reason[-60:])
    assert "names longer than 80 characters" in shown.stdout


def test_the_progress_line_redraws_with_real_control_codes_and_shows_its_text_escaped(monkeypatch):
    # through the safe stream, "\r" and the erase code reached a terminal as the text "\r" and "\x1b[K"
    import io

    from tcgtrig.base.safe_text import SafeStream
    from tcgtrig.tools.cli import _Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    raw = Terminal()
    monkeypatch.setattr("sys.stderr", SafeStream(raw))
    with _Progress("exploring \x1b]0;title\x07", every=10) as progress:
        progress(25)
    assert raw.getvalue() == "\rexploring \\x1b]0;title\\x07… 25 positions\r\x1b[K"
