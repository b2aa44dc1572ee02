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
import re

import tcgtrig
from rich.console import Console
from tcgtrig.render import MAX_ORDER_SHOWN, print_tree, render_text
from tcgtrig.safe_text import NAME_LIMIT, SHORTENED_NOTE, Shown, escape_controls

#: What a terminal would act on: escape sequences, BEL, CR, DEL, C1, bidi controls.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
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
    assert trace["title"] == "\x1b]0;PWNED\x07 \x1b[2J \x1b]8;;javascript:alert(1)\x1b\\click\x1b]8;;\x1b\\ \u202eevil \r"
    assert trace["title"] in trace["counters"]["A"]
