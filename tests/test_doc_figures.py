"""The figures the documentation states, measured (issue 37 item 20, new
user: the README said the quick tier takes about 70 s, a fresh clone took
94 s; and that the Lorcana plugin is 129 lines, it was 135).

A count (lines of a file, files in a folder, rulesets) is checked here
against what it counts.  A time cannot be (tests assert no time): it is
stated as "about N s" beside the command that measures it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import require_example_games

ROOT = Path(__file__).resolve().parents[1]

#: the pages a new user reads first (benchmarks/README.md is the measurements' log, dated by round)
PAGES = ["README.md", "CONTRIBUTING.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]
PAGES += sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").rglob("README.md"))

NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
NUMBERS |= {"nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def _lines(path: str) -> Callable[[], int]:
    def measure() -> int:
        return len((ROOT / path).read_text(encoding="utf-8").splitlines())

    return measure


def _files(pattern: str) -> Callable[[], int]:
    return lambda: len(list(ROOT.glob(pattern)))


def _rulesets() -> int:
    """The repository's games, each variant a ruleset of its own (``yugioh``, ``yugioh/ocg``, …)."""
    import sys

    import tcgtrig

    sys.path.insert(0, str(ROOT / "docs"))
    from repository_games import repository_games

    require_example_games()
    return sum(len(tcgtrig.load_ruleset(game).info.variants) or 1 for game in repository_games())


#: (page, the words around the figure with ``N`` where it stands, what measures it)
FIGURES: list[tuple[str, str, Callable[[], int]]] = [
    ("README.md", "The plugin is N lines", _lines("examples/games/lorcana/tcgtrig_lorcana/__init__.py")),
    ("README.md", "puts N positions from", _files("examples/*.yaml")),
    ("README.md", "and the N classic", _files("examples/compare/*.yaml")),
    ("README.md", "expected under all N", _rulesets),
    ("README.md", "from the rules under all N rulesets", _rulesets),
    ("examples/compare/README.md", "expected under all N rulesets", _rulesets),
]


def _stated(page: str, words: str) -> list[int]:
    """The figures a page states in ``words`` (a number, in digits or a word, for ``N``)."""
    text = " ".join((ROOT / page).read_text(encoding="utf-8").split())
    pattern = re.escape(words).replace("N", r"([0-9][0-9,]*|[a-z]+)")
    found = [m.group(1) for m in re.finditer(pattern, text)]
    return [int(f.replace(",", "")) if f[0].isdigit() else NUMBERS.get(f, -1) for f in found]


@pytest.mark.parametrize(("page", "words", "measure"), FIGURES, ids=[f"{p}: {w}" for p, w, _ in FIGURES])
def test_each_count_the_docs_state_is_what_it_counts(page, words, measure):
    stated = _stated(page, words)
    assert stated, f"{page} no longer says {words!r}: update FIGURES"
    assert set(stated) == {measure()}, f"{page} says {words!r} with N = {stated}; measured: {measure()}"


def test_every_count_of_lines_in_the_docs_is_checked_or_said_to_be_about():
    """A new "N lines" in a page is either in :data:`FIGURES` or "about N lines"."""
    checked = {(page, words) for page, words, _ in FIGURES}
    unchecked = []
    for page in PAGES:
        text = " ".join((ROOT / page).read_text(encoding="utf-8").split())
        for match in re.finditer(r"(\S+ \S+ )?([0-9][0-9,]*) lines\b", text):
            before = match.group(1) or ""
            if before.endswith("about ") or any(
                p == page and w.replace("N", match.group(2)) in text for p, w in checked
            ):
                continue
            unchecked.append(f"{page}: {match.group(0)}")
    assert unchecked == []


def test_the_test_tiers_times_are_about_and_name_the_command_that_measures_them():
    """The quick tier's time moves with the machine: "about N s", beside
    ``python -m pytest`` (whose last line reports it); a bound ("under N
    s") is a rule, not a measurement."""
    for page in ("README.md", "CONTRIBUTING.md"):
        text = " ".join((ROOT / page).read_text(encoding="utf-8").split())
        for match in re.finditer(r"quick tier[^.]*?\b(\S+) ([0-9]+) s\b", text):
            assert match.group(1) in ("about", "under"), f"{page}: {match.group(0)!r}"
            if match.group(1) == "about":
                around = text[max(0, match.start() - 300) : match.end() + 200]
                assert "python -m pytest" in around and "last line" in around, f"{page}: {match.group(0)!r}"
