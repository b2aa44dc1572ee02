"""The readable tree is in the order things happened (issue 22, item 11).

Lines are nested by cause, but a line never goes under a line whose
subtree was already followed by later lines: read top to bottom, the tree
is the trace's order.  Checked for every bundled scenario and example under
every game that can resolve it.
"""

from __future__ import annotations

import re
from pathlib import Path

import bundled
import pytest
import tcgtrig
from tcgtrig.tools.render import build_tree, render_text, tree_lines

ROOT = Path(__file__).parent.parent
FILES = sorted((ROOT / "tests" / "scenarios").glob("*/*.yaml")) + sorted((ROOT / "examples").glob("*.yaml"))
GAMES = ("digimon", "duelmasters", "yugioh", "yugioh/goat", "yugioh/ocg")
ACTIVATION = re.compile(r"(?:^|[─ ])(\d+)\. ▶ ")
CHOICE = re.compile(r"\? (\S+) chose .*? \((\w+)")


def resolutions(path: Path) -> list[tcgtrig.Resolution]:
    """``path`` under each of :data:`GAMES` that can resolve it (the run's
    one resolution of each pair: :func:`bundled.outcome`)."""
    bundled.checked(path)  # the file's own game is installed, and compiles it
    found = [bundled.resolved(path, game) for game in GAMES]
    return [result for result in found if result is not None]  # None: a file in another game's words


def printed(text: str) -> list[tuple[str, ...]]:
    """The activations (by number) and decisions (by player and kind), in
    the order the tree prints them."""
    out: list[tuple[str, ...]] = []
    for line in text.splitlines():
        if (match := ACTIVATION.search(line)) is not None:
            out.append(("activated", match.group(1)))
        elif (match := CHOICE.search(line)) is not None:
            out.append(("choice", match.group(1), match.group(2)))
    return out


def happened(result: tcgtrig.Resolution) -> list[tuple[str, ...]]:
    """The same, in the order of the trace."""
    out: list[tuple[str, ...]] = []
    for step in result.trace:
        if step.kind == "activated":
            out.append(("activated", str(sum(1 for o in out if o[0] == "activated") + 1)))
        elif step.kind == "choice":
            out.append(("choice", step["player"], step["decision"]))
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_activations_and_decisions_print_in_the_order_they_happened(path):
    for result in resolutions(path):
        assert printed(render_text(result)) == happened(result), result.game


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_step_is_drawn_at_or_below_the_line_of_the_step_before(path):
    for result in resolutions(path):
        places: list = []
        root = build_tree(result, places)
        line_of = {id(node): number for number, (_, node) in enumerate(tree_lines(root))}
        lines = [line_of[id(node)] for node in places]
        assert len(lines) == len(result.trace)
        assert lines == sorted(lines), result.game


def lines_of(path: str, game: str | None = None) -> list[str]:
    scenario = tcgtrig.load_scenario(ROOT / path)
    return render_text(tcgtrig.resolve(scenario, game or scenario.game)).splitlines()


def test_the_readme_example_shows_each_decision_before_the_effect_it_started():
    lines = lines_of("tests/scenarios/digimon/triggered-09.yaml")
    use = next(i for i, line in enumerate(lines) if "? A chose use (use for joe_kido.memory)" in line)
    order = next(i for i, line in enumerate(lines) if "? A chose joe_kido.memory (order;" in line)
    activated = next(i for i, line in enumerate(lines) if "2. ▶ joe_kido.memory" in line)
    assert order < use < activated
    assert lines[use].index("?") == lines[activated].index("2.")  # beside it, under the effect it triggered during


def test_a_later_chain_starts_at_the_top_not_inside_the_chain_before():
    lines = lines_of("tests/scenarios/yugioh/case-01-dark-hole-sangan-peten.yaml")
    link = next(line for line in lines if "▶ a_sangan.search" in line)
    assert link.startswith("├── 2. ▶ a_sangan.search") and "Chain 2 · CL1" in link
    assert "(triggered during Chain 1 CL1 dark_hole.main)" in link


def test_an_effect_activated_after_others_says_what_it_triggered_during():
    lines = lines_of("examples/09-cost-triggers.yaml", "duelmasters")
    numbers = [int(m.group(1)) for line in lines if (m := ACTIVATION.search(line))]
    assert numbers == [1, 2, 3, 4]
    assert any("4. ▶ vigil.watch" in line and "(triggered during 1. cannon.fire)" in line for line in lines)
    # its cost came first: the effect resolves after it, on a line of its own
    cost = next(i for i, line in enumerate(lines) if "by cost" in line)
    assert "✓ its cost paid, it resolves" in lines[cost + 1]
