"""Every ordering step carries the rule that placed it (issue 36).

When the core takes an effect from the pending effects while another
still waits, its ``activated`` step says why it goes first, as the game's
plugin states the rule (``tcgtrig_order_rule``); in a chain game, the
``resolved`` step of a chain link says why it resolves when it does.
Each test resolves a real ordering and reads the rule off the trace and
through :meth:`Resolution.why` / :meth:`Resolution.placements`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import tcgtrig
from helpers import PlainGame, run
from tcgtrig import hookimpl

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_11 = ROOT / "examples" / "11-duel-masters-words.yaml"


def resolve(path: str | Path, game: str) -> tcgtrig.Resolution:
    return tcgtrig.resolve(tcgtrig.load_scenario(ROOT / path), game)


def rule_of(result: tcgtrig.Resolution, kind: str, key: str) -> str | None:
    """The ``rule`` of the first step of ``kind`` about ``key``."""
    return next(step.get("rule") for step in result.trace if step.kind == kind and step.get("effect") == key)


def needs(game: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(game not in tcgtrig.available_games(), reason=f"the {game} example is not installed")


# -- a game that states no rule ---------------------------------------------------------

TWO_AND_ONE = """
    cards:
      - id: a
        owner: A
        zone: field
        abilities:
          - {id: first, when: ping, do: [{gain: {counter: n}}]}
          - {id: second, when: ping, do: [{gain: {counter: n}}]}
      - id: b
        owner: B
        zone: field
        abilities:
          - {id: other, when: ping, do: [{gain: {counter: n}}]}
    start: [{emit: {event: ping}}]
    """


def plain(*plugins: object) -> tcgtrig.Ruleset:
    return tcgtrig.load_ruleset("plain", plugins=(PlainGame(), *plugins), autoload=False)


def test_a_third_party_game_gets_the_cores_words():
    result = run(TWO_AND_ONE, plain())
    assert [step.get("rule") for step in result.trace if step.kind == "activated"] == [
        "chosen by A among equals",
        "the turn player's first, then the others in turn order (the core's default order)",
        None,
    ]
    assert result.why(1) == ["chosen by A among equals"]  # by instance id too


def test_a_game_that_ranks_but_states_no_rule_says_nothing_of_its_ranks():
    class Ranks:
        @hookimpl
        def tcgtrig_pending_rank(self, state, effect):
            return (0 if effect.key == "b.other" else 1,)

    result = run(TWO_AND_ONE, plain(Ranks()))
    rules = {step["effect"]: step.get("rule") for step in result.trace if step.kind == "activated"}
    assert rules == {"b.other": None, "a.first": "chosen by A among equals", "a.second": None}


def test_a_chain_game_that_cites_nothing_still_says_its_chain_resolves_last_in_first_out():
    class PlainChain:
        @hookimpl
        def tcgtrig_game_info(self):
            return tcgtrig.GameInfo(name="plain", title="Plain chain", version="0", resolution="chain")

    ruleset = tcgtrig.load_ruleset("plain", plugins=(PlainChain(),), autoload=False)
    result = run(TWO_AND_ONE, ruleset)
    lifo = "the chain resolves last in, first out"
    assert [(p.key, p.activated, p.resolved) for p in result.placements()] == [
        ("b.other", None, lifo),
        ("a.second", "the turn player's first, then the others in turn order (the core's default order)", lifo),
        ("a.first", "chosen by A among equals", lifo),
    ]
    assert result.why("a.first") == ["chosen by A among equals", lifo]
