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


# -- Digimon -----------------------------------------------------------------------


def test_digimon_security_effects_go_first():
    result = resolve("tests/scenarios/digimon/qa-03-bt9-016.yaml", "digimon")
    rule = rule_of(result, "activated", "etemon.security")
    assert rule is not None and "[Security]" in rule and "CR 15-16-10-2" in rule


def test_digimon_a_newer_layer_goes_before_the_turn_players_older_effects():
    # PlatinumSukamon (B) triggered while A's (the turn player's) effects waited: its layer is newer
    result = resolve("tests/scenarios/digimon/cr-15-4-4-5-trigger-condition.yaml", "digimon")
    rule = rule_of(result, "activated", "platinumsukamon.de_digivolve")
    assert rule is not None and rule.startswith("the newer priority layer first") and "CR 15-4-5-2/3" in rule


def test_digimon_the_turn_player_first_within_a_layer():
    result = resolve("tests/scenarios/digimon/cr-6-1-4-1-memory-gauge.yaml", "digimon")
    rule = rule_of(result, "activated", "alphamon.memory")
    assert rule is not None and "turn player's effects first within a priority layer" in rule
    assert "CR 15-4-3-5" in rule


def test_digimon_the_turn_player_orders_their_own_effects_of_a_layer():
    result = resolve("tests/scenarios/digimon/triggered-01.yaml", "digimon")
    rule = rule_of(result, "activated", "gabumon.trash")
    assert rule is not None and rule.startswith("A orders their own effects") and "CR 15-4-3-5" in rule


def test_digimon_an_effect_alone_carries_no_rule():
    result = resolve("tests/scenarios/digimon/triggered-01.yaml", "digimon")
    last = [step for step in result.trace if step.kind == "activated"][-1]
    assert last.get("rule") is None  # nothing else waited: no competition, nothing to say


def test_digimon_an_interrupt_window_puts_replacements_first():
    result = resolve("examples/06-interrupt-versus-replacement.yaml", "digimon")
    applied = [step for step in result.trace if step.kind == "applied"]
    assert applied and "replacements" in applied[0]["rule"] and "CR 15-8-5" in applied[0]["rule"]


# -- Duel Masters ------------------------------------------------------------------


def test_duelmasters_the_active_players_waiting_abilities_first():
    result = resolve(EXAMPLE_11, "duelmasters")
    rule = rule_of(result, "activated", "hulcus.back")
    assert rule is not None and "active player's waiting abilities first" in rule and "rules 4" in rule


def test_duelmasters_shield_triggers_go_first():
    result = resolve("tests/scenarios/duelmasters/rule7-shield-trigger-first.yaml", "duelmasters")
    rule = rule_of(result, "activated", "st_spell.trigger")
    assert rule is not None and "Shield Trigger" in rule and "rule 7" in rule


# -- Yu-Gi-Oh! ----------------------------------------------------------------------


def test_yugioh_segoc_groups_put_the_links_on_the_chain():
    result = resolve("tests/scenarios/yugioh/case-01-dark-hole-sangan-peten.yaml", "yugioh")
    rules = [step.get("rule") for step in result.trace if step.kind == "activated" and step.get("chain") == 2]
    assert rules[0] == (
        "SEGOC: the turn player's mandatory effects go on the Chain before the opponent's mandatory ones "
        "(TCG Rulebook v10, p.50)"
    )
    assert "before the turn player's optional ones" in rules[1]
    assert "SEGOC" in rules[2] and "before the opponent's optional ones" in rules[2]
    assert rules[3:] == [None, None]  # the last trigger waited alone; a response is no ordering


def test_yugioh_a_chain_resolves_last_in_first_out():
    result = resolve("tests/scenarios/yugioh/case-01-dark-hole-sangan-peten.yaml", "yugioh")
    links = {(step["chain"], step["chain_link"]): step.get("rule") for step in result.trace if step.kind == "resolved"}
    assert links.pop((1, 1)) is None  # Dark Hole was alone on its chain: nothing waited on it
    assert set(links.values()) == {"the Chain resolves last in, first out (TCG Rulebook v10)"}
    assert len(links) == 5


def test_yugioh_goat_puts_the_earliest_trigger_first():
    result = resolve("tests/scenarios/yugioh/case-04-sangan-tributed-for-caius.yaml", "yugioh/goat")
    rule = rule_of(result, "activated", "sangan.search")
    assert rule is not None and rule.startswith("GOAT/Edison: the earliest trigger goes on the Chain first")


def test_yugioh_ocg_keeps_hand_triggers_out_of_segoc():
    result = resolve("tests/scenarios/yugioh/case-12-illusion-snatch-mobius-hand-trigger.yaml", "yugioh/ocg")
    ruled = [step["rule"] for step in result.trace if step.kind == "activated" and step.get("rule")]
    assert any(rule.startswith("OCG: optional triggers in the hand or Deck are not part of SEGOC") for rule in ruled)


# -- the example games ------------------------------------------------------------------


@needs("magic")
def test_magic_apnap_and_the_stack_last_in_first_out():
    result = resolve(EXAMPLE_11, "magic")
    apnap = (
        "APNAP: the active player's triggered abilities go on the stack first, then each other player's in turn "
        "order, on top (CR 603.3b, 101.4)"
    )
    assert rule_of(result, "activated", "hulcus.back") == apnap
    hulcus = next(step for step in result.trace if step.kind == "activated" and step["effect"] == "hulcus.back")
    tribe = next(step for step in result.trace if step.kind == "triggered" and step["effect"] == "tribe.score")
    assert hulcus["ahead_of"] == tribe["id"]  # the effect it went ahead of
    lifo = "the stack resolves last in, first out (CR 405.5)"
    # tribe.score is put on the stack last (APNAP) and resolves first (last in, first out)
    assert result.why("tribe.score") == [apnap, lifo]
    assert result.why("hulcus.back") == [apnap, lifo]
    first = result.placements()[0]
    assert (first.key, first.behind, first.activated, first.resolved) == ("tribe.score", (apnap,), None, lifo)
    assert first.rules == (apnap, lifo)


@needs("lorcana")
def test_lorcana_the_bag_puts_the_active_players_abilities_first():
    result = resolve(EXAMPLE_11, "lorcana")
    rule = rule_of(result, "activated", "hulcus.back")
    assert rule is not None and rule.startswith("the bag: the active player resolves all their")


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
    chosen = "chosen by A among equals"
    turn = "the turn player's first, then the others in turn order (the core's default order)"
    assert [(p.key, p.behind, p.activated, p.resolved) for p in result.placements()] == [
        ("b.other", (turn,), None, lifo),
        ("a.second", (chosen,), turn, lifo),
        ("a.first", (), chosen, lifo),
    ]
    assert result.why("a.first") == [chosen, lifo]
    assert result.why("a.second") == [chosen, turn, lifo]
