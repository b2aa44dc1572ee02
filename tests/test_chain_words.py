"""Each game names its own structure (issue 36): Magic's stack and its
objects (#1, #2), Yu-Gi-Oh!'s Chain and Chain Links (CL1), the core's
neutral chain and CL for a game that names none (``GameInfo.terms``) —
in the tree ``tcgtrig run`` prints and in the questions players are
asked.  The HTML page is checked in a browser (test_compare_page.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcgtrig
from click.testing import CliRunner
from helpers import run
from tcgtrig import GameInfo, hookimpl
from tcgtrig.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
MAGIC = ROOT / "examples/games/magic/scenarios"
CASE_01 = ROOT / "tests/scenarios/yugioh/case-01-dark-hole-sangan-peten.yaml"


def tree(path: Path, game: str) -> str:
    result = CliRunner().invoke(main, ["run", str(path), "--game", game])
    assert result.exit_code == 0, result.output
    return result.stdout


def first_question(path: Path, game: str) -> str:
    decision = tcgtrig.Engine.for_scenario(tcgtrig.load_scenario(path), game).advance()
    assert decision is not None
    return decision.prompt


@pytest.mark.skipif("magic" not in tcgtrig.available_games(), reason="the magic example is not installed")
def test_magic_shows_the_stack_and_its_objects():
    out = tree(MAGIC / "cr-603-3-trigger-during-resolution-goes-on-top.yaml", "magic")
    assert "1. ▶ pulse.upkeep  A's Pulse · A  stack 1 · #1" in out
    assert "⛓ stack 1: #1 pulse.upkeep (A), #2 trap.upkeep (B) — resolves from #2 down" in out
    assert "◀ resolve stack 1 #2: trap.upkeep" in out
    assert "(triggered during stack 1 #2 trap.upkeep)" in out
    assert "CL" not in out and "chain" not in out.lower()
    assert first_question(MAGIC / "cr-405-instant-answers-a-trigger-on-the-stack.yaml", "magic") == (
        "respond to stack object 1?"
    )


def test_yugioh_shows_chains_and_chain_links():
    out = tree(CASE_01, "yugioh")
    assert "⛓ Chain 2: CL1 a_sangan.search (A), CL2 b_sangan.search (B)" in out
    assert "Chain 2 · CL1" in out and "◀ resolve Chain 2 CL5: a_jar.main" in out
    assert "chain " not in out  # never the core's lower-case word
    assert first_question(CASE_01, "yugioh") == "respond to Chain Link 1?"


class PlainChain:
    """A chain game that names nothing: the core's words."""

    @hookimpl
    def tcgtrig_game_info(self) -> GameInfo:
        return GameInfo(name="plain", title="Plain chain", version="0", resolution="chain")


def test_a_game_that_names_nothing_gets_the_cores_words():
    from tcgtrig.tools.render import render_text

    ruleset = tcgtrig.load_ruleset("plain", plugins=(PlainChain(),), autoload=False)
    text = """
        cards:
          - id: a
            owner: A
            zone: field
            abilities:
              - {id: one, when: ping, do: [{gain: {counter: n}}]}
              - {id: two, when: ping, do: [{gain: {counter: n}}]}
        start: [{emit: {event: ping}}]
        """
    out = render_text(run(text, ruleset))
    assert "Chain 1 · CL1" not in out and "chain 1 · CL1" in out
    assert (
        "⛓ chain 1: CL1 a.one (A), CL2 a.two (A) — resolves from CL2 down  · the chain resolves last in, first out"
        in out
    )
