"""compare --html: the page, opened in a real headless browser (Debian's
chromium; .ci/run installs it when missing)."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
import tcgtrig
from click.testing import CliRunner
from tcgtrig.tools.cli import main

FOUR = "tests/scenarios/digimon/triggered-04.yaml"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="no chromium here (.ci/run installs it)")


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("page") / "compare.html"
    result = CliRunner().invoke(main, ["compare", FOUR, "--html", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def dom(page: Path) -> subprocess.CompletedProcess:
    """The page as the browser builds it (its DOM dumped), once for the module."""
    if CHROMIUM is None:
        pytest.skip("no chromium here (.ci/run installs it)")
    return browser("--dump-dom", page.as_uri())


def browser(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_page_is_self_contained(page):
    html = page.read_text(encoding="utf-8")
    assert "<script" not in html and "http://" not in html and "https://" not in html
    for game in tcgtrig.available_games():
        assert f'data-game="{game}"' in html


@needs_browser
def test_the_browser_shows_every_games_order_with_no_console_error(dom):
    shown = dom
    assert shown.returncode == 0, shown.stderr[-2000:]
    for game in tcgtrig.available_games():
        order = tcgtrig.resolve(tcgtrig.load_scenario(FOUR), game).keys("resolved")
        column = shown.stdout.split(f'data-game="{game}"', 1)[1].split("</section>", 1)[0]
        assert [key for key in order if f'data-effect="{key}"' in column] == order
    assert "CONSOLE" not in shown.stderr and "Uncaught" not in shown.stderr


def column(dom: str, game: str) -> str:
    return dom.split(f'data-game="{game}"', 1)[1].split("</section>", 1)[0]


@needs_browser
def test_each_game_names_its_own_structure_and_the_rule_that_placed_each_effect(dom):
    shown = dom
    assert shown.returncode == 0, shown.stderr[-2000:]
    yugioh = column(shown.stdout, "yugioh")
    assert '<div class="label">Chain 1 — the Chain resolves last in, first out (TCG Rulebook v10)</div>' in yugioh
    assert '<span class="tag">CL2</span>' in yugioh
    assert "why: SEGOC: the turn player's mandatory effects go on the Chain before" in yugioh
    if "magic" in tcgtrig.available_games():
        magic = column(shown.stdout, "magic")
        assert '<div class="label">stack 1 — the stack resolves last in, first out (CR 405.5)</div>' in magic
        assert '<span class="tag">#2</span>' in magic and "CL" not in magic and "Chain" not in magic
        assert "why: APNAP: the active player's triggered abilities go on the stack first" in magic
    assert "why: the newer priority layer first" in column(shown.stdout, "digimon")


@pytest.mark.slow
@needs_browser
def test_the_screenshot_has_a_full_column_per_game(page, tmp_path):
    shot = tmp_path / "compare.png"
    taken = browser(f"--screenshot={shot}", "--window-size=1500,1100", "--hide-scrollbars", page.as_uri())
    assert shot.exists(), taken.stderr[-2000:]
    width, height, pixels = read_png(shot.read_bytes())
    games = len(tcgtrig.available_games())
    # the coloured edges of the effect boxes, counted in each column's third of the page
    left, right = 24, width - 24
    counts = [0] * games
    for y in range(60, min(height, 1000), 2):
        row = pixels[y]
        for x in range(left, right, 2):
            r, g, b = row[x]
            if max(r, g, b) - min(r, g, b) > 90:  # a saturated colour, not text or a border
                counts[min((x - left) * games // (right - left), games - 1)] += 1
    assert all(count > 50 for count in counts), counts


def read_png(data: bytes) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
    """Width, height and RGB rows of an 8-bit, non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        chunk = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[list[tuple[int, int, int]]] = []
    previous = bytearray(stride)
    offset = 0
    for _ in range(height):
        kind, line = raw[offset], bytearray(raw[offset + 1 : offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([(line[x], line[x + 1], line[x + 2]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


@needs_browser
def test_the_page_does_not_say_the_games_agree_when_only_one_could_resolve_the_file(tmp_path):
    # issue 22 item 12: the text said so already; the page said "The games agree."
    three = "tests/scenarios/duelmasters/multiplayer-three-players-turn-order.yaml"  # Yu-Gi-Oh! is for two
    out = tmp_path / "one.html"
    result = CliRunner().invoke(main, ["compare", three, "--games", "duelmasters,yugioh", "--html", str(out)])
    assert result.exit_code == 0, result.output
    shown = browser("--dump-dom", out.as_uri())
    assert shown.returncode == 0, shown.stderr[-2000:]
    differences = shown.stdout.split('class="differences"', 1)[1]
    assert "Only duelmasters could resolve the file: nothing to compare with the others." in differences
    assert "The games agree." not in shown.stdout
    assert "cannot resolve:" in shown.stdout.split('data-game="yugioh"', 1)[1]


# -- the page a player would share (issue 23, item 6, in part) -------------------------------------------

NINE = "tests/scenarios/digimon/triggered-09.yaml"


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("shared") / "nine.html"
    result = CliRunner().invoke(main, ["compare", NINE, "--html", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def _plain(html_text: str) -> str:
    import html
    import re

    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html_text)))


def test_the_page_shows_the_position_its_source_notes_turn_and_each_cards_text(shared):
    scenario = tcgtrig.load_scenario(NINE)
    position = _plain(shared.split('<section class="position">', 1)[1].split("</section>", 1)[0])
    assert "Source: seeds/digimon-triggered-effects.txt" in position
    assert "Notes: Player A attacks with UlforceVeedramon" in position
    assert "Turn player: A" in position and "A — whose turn it is" in position
    for card in scenario.data["cards"]:
        assert card.get("name", card["id"]) in position
        for ability in card.get("abilities") or []:
            if ability.get("text"):
                assert " ".join(ability["text"].split()) in position


def test_each_column_lists_every_decision_who_chose_what(shared):
    column = _plain(shared.split('data-game="digimon"', 1)[1].split("</section>", 1)[0])
    assert "A chose sora_joe.trash (order; options: majiramon.unsuspend, sora_joe.trash)" in column
    assert "A chose use (use for joe_kido.memory; options: use, decline)" in column


def test_the_position_is_escaped_and_the_page_the_same_twice(tmp_path):
    import yaml

    data = yaml.safe_load(Path(FOUR).read_text(encoding="utf-8"))
    data["notes"] = "<script>alert(1)</script>"
    data["cards"][0]["name"] = "<img src=x onerror=alert(2)>"
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    pages = []
    for number in range(2):
        out = tmp_path / f"p{number}.html"
        assert CliRunner().invoke(main, ["compare", str(hostile), "--html", str(out)]).exit_code in (0, 1)
        pages.append(out.read_bytes())
    assert pages[0] == pages[1]
    assert b"<script>" not in pages[0] and b"&lt;script&gt;alert(1)&lt;/script&gt;" in pages[0]
    assert b"<img" not in pages[0] and b"&lt;img src=x onerror=alert(2)&gt;" in pages[0]


@needs_browser
def test_the_browser_shows_the_position_and_the_decisions(tmp_path):
    out = tmp_path / "nine.html"
    assert CliRunner().invoke(main, ["compare", NINE, "--html", str(out)]).exit_code in (0, 1)
    shown = browser("--dump-dom", out.as_uri())
    assert shown.returncode == 0, shown.stderr[-2000:]
    dom = _plain(shown.stdout)
    assert "Turn player: A" in dom and "Source: seeds/digimon-triggered-effects.txt" in dom
    assert "A chose sora_joe.trash" in dom


def test_each_effect_says_what_it_did(shared):
    column = shared.split('data-game="digimon"', 1)[1].split("</section>", 1)[0]
    joe = _plain(column.split('data-effect="joe_kido.memory"', 1)[1].split("</div>", 1)[0])
    assert "did: suspended BT2-085 Joe Kido; gained A memory 1" in joe
    majiramon = _plain(column.split('data-effect="majiramon.unsuspend"', 1)[1].split("</div>", 1)[0])
    assert "did: nothing that changed the game" in majiramon


@pytest.mark.slow  # a browser start
@needs_browser
def test_the_page_of_a_battle_in_duel_masters_words_shows_rules_not_words(tmp_path):
    # issue 36: each column says how the game read the file, the differences are rules, the names a vocabulary
    battle = "tests/scenarios/duelmasters/cross-game-battle-both-destroyed.yaml"
    out = tmp_path / "battle.html"
    result = CliRunner().invoke(main, ["compare", battle, "--html", str(out)])
    assert result.exit_code == 0, result.output
    shown = browser("--dump-dom", out.as_uri())
    assert shown.returncode == 0, shown.stderr[-2000:]
    yugioh = shown.stdout.split('data-game="yugioh"', 1)[1].split("</section>", 1)[0]
    assert "Yu-Gi-Oh! Trading Card Game has no tapped state" in yugioh
    magic = shown.stdout.split('data-game="magic"', 1)[1].split("</section>", 1)[0]
    assert "Why, as the file says:</b> APNAP" in magic
    differences = shown.stdout.split('class="differences"', 1)[1]
    ways, words = differences.split("The same things, named by each game", 1)
    assert "why, magic: tribe.score: put on the stack after another: APNAP" in ways
    for name in ("trash", "graveyard", "battlefield"):
        assert name not in ways, name
    assert "discard (zone): trash | graveyard | discard" in words
