"""What the command line shows a new user, and what an attacker's input
does to it (issue 37, items 15 to 18, 24 and 26)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
from pathlib import Path
from unittest import mock

import pytest
import tcgtrig
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from tcgtrig.tools import cli
from tcgtrig.tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

#: a file whose source and notes are YAML folded text: paragraphs, each ending in a line break
PARAGRAPHS = """\
format: 1
title: paragraphs
game: digimon
source: >
  Digimon CR 15-4-3-5: the turn player activates theirs first.

  A second paragraph of the source.
notes: >
  First paragraph of the notes.

  Second paragraph of the notes.
players: [A, B]
turn_player: A
cards:
  - id: scout
    owner: A
    zone: battle
    abilities: [{id: go, when: alarm, do: [{gain: {counter: n, amount: 1}}]}]
start: [{emit: {event: alarm}}]
expect:
  digimon:
    resolved: [scout.go]
    because: >
      the only effect;
      it resolves.
"""


def _page(tmp_path: Path, text: str, *args: str) -> str:
    file = tmp_path / "position.yaml"
    file.write_text(text, encoding="utf-8")
    out = tmp_path / "page.html"
    result = CliRunner().invoke(main, ["compare", str(file), "--html", str(out), *args])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_the_page_keeps_the_files_line_breaks_instead_of_writing_backslash_n(tmp_path):
    """Issue 37 item 15 (new user): the HTML page showed a literal ``\\n`` in
    Source and Notes (YAML's folded text ends each paragraph with a line
    break, which was escaped as a control character)."""
    page = _page(tmp_path, PARAGRAPHS, "--games", "digimon")
    about = re.findall(r'<p class="about">(.*?)</p>', page, re.S)
    assert about == [
        "<b>Source:</b> Digimon CR 15-4-3-5: the turn player activates theirs first.\nA second paragraph of the source.",
        "<b>Notes:</b> First paragraph of the notes.\nSecond paragraph of the notes.",
    ]
    assert "the only effect; it resolves." in page
    assert "\\n" not in page


def test_no_page_of_the_gallery_shows_a_backslash_n():
    """Issue 37 item 15 (new user): every page in docs/gallery/ showed
    ``\\n`` in its Source and Notes (the pages are generated: python
    docs/make_comparison.py)."""
    pages = sorted((ROOT / "docs" / "gallery").glob("*.html"))
    assert len(pages) >= 11
    assert [page.name for page in pages if "\\n" in page.read_text(encoding="utf-8")] == []


@pytest.mark.slow  # a browser start
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium here (.ci/run installs it)")
def test_the_browser_shows_the_notes_paragraphs_on_their_own_lines(tmp_path):
    """Issue 37 item 15 (new user), as the browser draws it: the text of the
    Notes (``innerText``, which follows the page's CSS) holds the line break
    and no ``\\n``.  The page has no script; a copy gets one that writes
    what the browser shows into the page, read back with --dump-dom."""
    page = _page(tmp_path, PARAGRAPHS, "--games", "digimon")
    probe = (
        "<script>document.body.insertAdjacentHTML('beforeend', '<pre id=shown></pre>');"
        "document.getElementById('shown').textContent = JSON.stringify("
        "[...document.querySelectorAll('.about, .because')].map(e => e.innerText));</script></body>"
    )
    copy = tmp_path / "probed.html"
    copy.write_text(page.replace("</body>", probe), encoding="utf-8")
    dumped = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", copy.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    shown = re.search(r'<pre id="shown">(.*?)</pre>', dumped.stdout, re.S)
    assert shown is not None, dumped.stderr[-2000:]
    texts = json.loads(shown.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert "Notes: First paragraph of the notes.\nSecond paragraph of the notes." in texts
    assert not any("\\n" in text for text in texts)


def test_games_and_words_piped_are_not_padded_nor_wrapped():
    """Issue 37 item 16 (new user): ``tcgtrig games > FILE`` and ``words``
    padded every row to about 1,000 columns (rich pads a table's rows to
    its width off a terminal), and ``words`` wrapped its longest rows."""
    runner = CliRunner()
    listed = runner.invoke(main, ["games"])
    assert listed.exit_code == 0
    rows = listed.output.splitlines()
    assert [row for row in rows if row.endswith(" ")] == []
    assert rows[1].split()[0] == "digimon" and len(rows[1]) < 200
    words = runner.invoke(main, ["words"])
    assert words.exit_code == 0
    lines = words.output.splitlines()
    assert [line for line in lines if line.endswith(" ")] == []
    every = sum(len(tcgtrig.load_ruleset(name).aliases) for name in tcgtrig.available_games())
    assert len(lines) == 1 + every  # the header, then one line per word: none wrapped


#: cells of a table: what a plugin or a file may say (brackets, which rich reads as markup, characters rich
#: lays out one column wide and some it does not), already escaped as the commands escape them.  Not a
#: backslash: rich's markup loses or doubles one before a bracket or at the end of a cell (its escape and
#: its reading of ``\[`` disagree); the table laid out without rich shows it as it is.
CELL = st.lists(st.sampled_from([*"ab Z09-_./:()·é[]→日\u0301", "[red]", "[/]", "[b]x"]), max_size=8).map("".join)


def _table_written(headers: list[str], rows: list[list[tuple[str, str]]], through_rich: bool) -> str:
    """What ``cli._print_table`` writes to a piped standard output, laid out here or by rich."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), mock.patch.object(cli, "_plain", lambda stream: not through_rich):
        cli._print_table(headers, rows)
    return out.getvalue()


@settings(max_examples=300, deadline=None)
@given(
    headers=st.lists(CELL.filter(bool), min_size=1, max_size=4),
    texts=st.lists(st.lists(CELL, min_size=4, max_size=4), max_size=5),
    styles=st.lists(st.sampled_from(["", "red", "yellow", "dim"]), min_size=4, max_size=4),
)
def test_a_table_piped_is_laid_out_as_rich_lays_it_out(headers, texts, styles):
    """Issue 40 item 3: ``games`` and ``words`` piped lay their table out
    without importing rich (20 ms of the command's start): byte for byte
    what rich writes off a terminal, whatever the cells hold."""
    rows = [[(text, style) for text, style in zip(row, styles, strict=False)][: len(headers)] for row in texts]
    rows = [row + [("", "")] * (len(headers) - len(row)) for row in rows]
    assert _table_written(headers, rows, through_rich=False) == _table_written(headers, rows, through_rich=True)


def test_games_piped_is_what_rich_printed():
    """The installed games' table, laid out here and by rich: the same bytes."""
    plain = CliRunner().invoke(main, ["games"])
    with mock.patch.object(cli, "_plain", lambda stream: False):
        through_rich = CliRunner().invoke(main, ["games"])
    assert plain.exit_code == through_rich.exit_code == 0
    assert plain.output == through_rich.output
    assert "  yugioh/ocg   OCG" in plain.output


def test_explore_says_each_difference_in_words_not_as_python_reprs():
    """Issue 37 item 17 (new user): explore's outcomes printed
    ``counter A: {'memory': 0} (outcome 1: {'memory': -1})`` and
    ``flag omnimon: ['suspended'] (outcome 1: [])``."""
    shown = CliRunner().invoke(main, ["explore", "tests/scenarios/digimon/triggered-04.yaml"])
    assert shown.exit_code == 0, shown.output
    assert "   counter A memory: 0 (outcome 1: -1)\n   counter B memory: 0 (outcome 1: 1)\n" in shown.output
    assert "   flags omnimon: suspended (outcome 1: none)\n" in shown.output
    assert not re.search(r"[{}\[\]']", shown.output.split("\n2. ", 1)[1].replace("choices: [", "").replace("]\n", ""))


def _many_options(tmp_path: Path, count: int) -> Path:
    cards = "\n".join(f"  - {{id: c{i:02d}, owner: A, zone: hand}}" for i in range(count))
    file = tmp_path / "many.yaml"
    file.write_text(
        "format: 1\ntitle: many options\ngame: digimon\nplayers: [A, B]\nturn_player: A\n"
        f"cards:\n{cards}\nstart: [{{move: {{card: {{zone: hand, owner: A, pick: 1}}, to: trash}}}}]\n",
        encoding="utf-8",
    )
    return file


def test_compare_html_of_a_decision_with_more_than_fifty_options(tmp_path):
    """Issue 37 item 24 (attacker): a decision of more than 50 options (the
    trace then keeps only their number) ended ``compare --html`` in
    ``TypeError: 'int' object is not iterable``."""
    file = _many_options(tmp_path, 60)
    out = tmp_path / "page.html"
    made = CliRunner().invoke(main, ["compare", str(file), "--html", str(out)])
    assert made.exit_code == 0, made.output
    page = out.read_text(encoding="utf-8")
    assert "A chose <b>c00</b> (target for start; options: 60, counted but not listed by the trace)" in page
    fewer = tmp_path / "fewer.html"
    assert CliRunner().invoke(main, ["compare", str(_many_options(tmp_path, 30)), "--html", str(fewer)]).exit_code == 0
    assert "options: c00, c01, c02" in fewer.read_text(encoding="utf-8")


#: a file for Yu-Gi-Oh! whose start is a Duel Masters word Yu-Gi-Oh! has no meaning for
MANA = """\
format: 1
title: into the mana zone
game: yugioh
players: [A, B]
turn_player: A
cards:
  - {id: a, owner: A, zone: battle, abilities: [{id: x, when: {event: put_into_mana, card: self}, do: [{gain: {counter: n, amount: 1}}]}]}
start: [{put_into_mana: a}]
"""


def test_game_option_checks_the_file_under_that_game_not_its_own(tmp_path):
    """Issue 37 item 26 (attacker): with ``--game duelmasters``, a Duel
    Masters word in a file whose ``game:`` is Yu-Gi-Oh! was refused, because
    the file was first compiled for its own game at load time."""
    file = tmp_path / "mana.yaml"
    file.write_text(MANA, encoding="utf-8")
    runner = CliRunner()
    own = runner.invoke(main, ["run", str(file)])
    assert own.exit_code == 2 and "the start has no meaning in Yu-Gi-Oh!" in own.output
    ran = runner.invoke(main, ["run", str(file), "--game", "duelmasters", "--json"])
    assert ran.exit_code == 0, ran.output
    assert '"resolved"' in ran.output and "a.x" in ran.output
    explored = runner.invoke(main, ["explore", str(file), "--game", "duelmasters"])
    assert explored.exit_code == 0, explored.output
    saved = runner.invoke(
        main, ["run", str(file), "--game", "duelmasters", "--stop-after", "0", "--save", str(tmp_path / "s.json")]
    )
    assert saved.exit_code == 0, saved.output
    played = runner.invoke(main, ["play", str(file), "--game", "duelmasters"], input="")
    assert "no meaning" not in played.output
    result = tcgtrig.resolve(file, "duelmasters")
    assert result.keys("resolved") == ["a.x"] and result.state.cards["a"].zone == "mana"
    assert result.state.counter("A", "n") == 1


class _KnockOut:
    """A game of one word, ``ko``: the card goes to the trash as the event ``ko``."""

    @tcgtrig.hookimpl
    def tcgtrig_game_info(self) -> tcgtrig.GameInfo:
        return tcgtrig.GameInfo(name="knockout", title="Knock-out", version="0", zones=("field", "trash"))

    @tcgtrig.hookimpl
    def tcgtrig_action_aliases(self) -> dict:
        from tcgtrig.games.words import move_word

        return {"ko": move_word("trash", "ko")}


KOED = """\
format: 1
title: a misspelt event and word
players: [A, B]
turn_player: A
cards:
  - {id: a, owner: A, zone: field, abilities: [{id: x, when: {event: koed, card: self}, do: [{gain: {counter: n, amount: 1}}]}]}
start: [{ko: a}]
"""


def test_a_typo_hint_offers_the_games_own_word_first():
    """Issue 37 item 18 (new user): ``koed`` in a game whose word is ``ko``
    suggested ``moved`` (a core event exactly as close, and first by name):
    the game's own words are offered first, for a misspelt event and a
    misspelt action word alike."""
    from tcgtrig.tools.lint import lint

    ruleset = tcgtrig.load_ruleset("knockout", plugins=(_KnockOut(),), autoload=False)
    scenario = tcgtrig.scenario_from_text(KOED, "koed.yaml", check_game=False)
    assert [f.message for f in lint(scenario, ruleset)] == [
        "nothing emits the event 'koed': no action of this file, no word or rule of knockout (did you mean 'ko'?)"
    ]
    misspelt = tcgtrig.scenario_from_text(KOED.replace("{ko: a}", "{koed: a}"), "koed.yaml", check_game=False)
    with pytest.raises(tcgtrig.ScenarioError, match=r"unknown action 'koed' for game 'knockout': did you mean 'ko'\?"):
        misspelt.compile(ruleset)
    # a core name clearly closer is still offered
    typo = tcgtrig.scenario_from_text(KOED.replace("event: koed", "event: movd"), "koed.yaml", check_game=False)
    assert "(did you mean 'moved'?)" in lint(typo, ruleset)[0].message
