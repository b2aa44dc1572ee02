"""``compare`` tells the games' rules apart, not their words (issue 36).

A position written once in one game's words resolves under every game;
the differences are read by role (Digimon's ``trash`` and Magic's
``graveyard`` are both the discard pile: no difference, a vocabulary
line); a game's own bookkeeping (marks) shows only with ``--all``; each
column says how the game read the file; a flat script is its own game's.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
import tcgtrig
from click.testing import CliRunner
from helpers import require_example_games
from tcgtrig.tools.cli import main
from tcgtrig.tools.compare import compare, comparison_json, describe_difference, differences, vocabulary

ROOT = Path(__file__).resolve().parents[1]
BATTLE = ROOT / "tests" / "scenarios" / "duelmasters" / "cross-game-battle-both-destroyed.yaml"
FILES = sorted(
    {
        *ROOT.glob("examples/*.yaml"),
        *ROOT.glob("examples/compare/*.yaml"),
        *ROOT.glob("tests/scenarios/**/*.yaml"),
    }
)
#: what compares by role (the order, chains and endings compare effect keys, the same in every game)
BY_ROLE = ("zone", "flags", "stat", "counter", "events")


@pytest.fixture(autouse=True)
def _example_games_installed() -> None:
    require_example_games()


def run(*args: object) -> str:
    result = CliRunner(env={"COLUMNS": "250"}).invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, (result.output, result.stderr)
    return result.stdout


@cache
def _names_by_role() -> dict[str, set[str]]:
    """Every name any installed game gives a role, by role (all kinds);
    read once for the run (each file's test reads it)."""
    out: dict[str, set[str]] = {}
    for game in tcgtrig.available_games():
        info = tcgtrig.load_ruleset(game).info
        for kind in ("zone", "event", "flag", "stat", "counter", "type"):
            for name, role in getattr(info, f"{kind}_roles"):
                out.setdefault(f"{kind}:{role}", set()).add(name)
    return out


def test_the_battle_in_duel_masters_words_resolves_under_every_game_each_by_its_rule():
    comparison = compare(tcgtrig.load_scenario(BATTLE))
    orders = {column.game: column.result.keys("resolved") for column in comparison.columns}
    assert orders == {
        "digimon": ["hulcus.back", "bolshack.cip", "tribe.score"],
        "duelmasters": ["hulcus.back", "bolshack.cip", "tribe.score"],
        "lorcana": ["hulcus.back", "bolshack.cip", "tribe.score"],
        "magic": ["tribe.score", "hulcus.back", "bolshack.cip"],  # APNAP
        "yugioh": ["hulcus.back", "tribe.score", "bolshack.cip"],  # SEGOC: the optional one is Chain Link 2
    }
    # both "when destroyed" resolve everywhere: no game is silent
    assert all({"hulcus.back", "tribe.score"} <= set(order) for order in orders.values())


def test_the_battle_shows_no_difference_of_names_only():
    text = run("compare", BATTLE)
    where = text.split("Where the games part ways:", 1)[1].split("The same things, named by each game", 1)
    differences_text, words = where[0], where[1]
    for name in ("trash", "graveyard", "battlefield", "suspended", "tapped", "attack_in_progress"):
        assert not re.search(rf"\b{name}\b", differences_text), name
    assert "discard (zone): trash | graveyard | discard" in words
    assert "unit (type)" not in words  # the cards' types are read, not compared
    data = json.loads(run("compare", BATTLE, "--json"))
    assert {"kind": "zone", "role": "discard", "games": {"digimon": "trash", "duelmasters": "graveyard"}} not in data[
        "vocabulary"
    ]  # each game that named the role is listed
    discard = next(v for v in data["vocabulary"] if v["kind"] == "zone" and v["role"] == "discard")
    assert discard["games"]["digimon"] == "trash" and discard["games"]["lorcana"] == "discard"
    assert all(d["what"] != "zone" for d in data["differences"])  # every card ends in the same place by role


def test_a_game_without_a_concept_says_so_in_its_column():
    data = json.loads(run("compare", BATTLE, "--json"))
    assert data["games"]["yugioh"]["notes"] == [
        "Yu-Gi-Oh! Trading Card Game has no tapped state: Duel Masters's 'tapped' is left out (what sets or "
        "clears it does nothing there, and no card has it)"
    ]
    assert "Duel Masters has one stat of the role 'strength'" in " ".join(data["games"]["magic"]["notes"])
    assert "notes" not in data["games"]["duelmasters"]
    assert data["games"]["magic"]["because"].startswith("APNAP")  # the file's own reason, beside the column
    text = run("compare", BATTLE)
    assert "How each game read the file:" in text and "yugioh:\n  Yu-Gi-Oh! Trading Card Game has no tapped" in text


def test_marks_are_the_games_bookkeeping_compared_only_with_all():
    digimon_words = ROOT / "tests" / "scenarios" / "digimon" / "cr-15-14-1-twice-per-turn.yaml"  # attack_in_progress
    plain = json.loads(run("compare", digimon_words, "--json"))
    assert all(d["what"] != "marks" for d in plain["differences"])
    every = json.loads(run("compare", digimon_words, "--json", "--all"))
    assert [d for d in every["differences"] if d["what"] == "marks"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_difference_is_of_names_only(path):
    """Wherever a difference is read by role, no two of its values are
    names of one role (``trash | graveyard``): the names went into the
    vocabulary."""
    scenario = tcgtrig.load_scenario(path, check_game=False)
    try:
        comparison = compare(scenario, explore_budget=0)
    except tcgtrig.TcgTrigError:
        return  # no game could resolve it (a file that expects a refusal)
    same = _names_by_role()
    for difference in differences(comparison):
        if difference["what"] not in BY_ROLE:
            continue
        values = {json.dumps(v, sort_keys=True) for v in difference["games"].values()}
        shown = describe_difference(difference)
        for names in same.values():
            found = {name for name in names if any(re.search(rf"\b{re.escape(name)}\b", v) for v in values)}
            assert len(found) <= 1 or len({v for v in values if any(n in v for n in found)}) <= 1, shown
    for entry in vocabulary(comparison):
        assert len(set(entry["games"].values())) > 1


def test_a_flat_script_is_its_own_games_and_the_others_take_their_defaults():
    t1 = ROOT / "tests" / "scenarios" / "digimon" / "triggered-01.yaml"  # game: digimon, choices: [...]
    data = comparison_json(compare(tcgtrig.load_scenario(t1), ["digimon", "duelmasters", "yugioh"]))
    assert "notes" not in data["games"]["digimon"] or not any(
        "choices" in note for note in data["games"]["digimon"]["notes"]
    )
    for game in ("duelmasters", "yugioh"):
        assert "error" not in data["games"][game]
        assert any(
            note.startswith("the file's choices are Digimon Card Game's: resolved with its default answers")
            for note in data["games"][game]["notes"]
        ), data["games"][game].get("notes")
    text = run("compare", t1, "--games", "digimon,duelmasters")
    assert "cannot resolve" not in text


ORDER_MATTERS = """\
format: 1
title: order matters
game: digimon
players: [A, B]
turn_player: A
cards:
  - {id: a, owner: A, zone: battle, abilities: [{id: one, when: {event: go}, do: [{gain: {counter: n}}]}]}
  - id: b
    owner: A
    zone: battle
    abilities:
      - {id: two, when: {event: go}, do: [{if: {player: self, counter: n, gte: 1}, then: [{gain: {counter: m}}]}]}
start: [{emit: {event: go, player: A}}]
choices: [b.two]
"""


def test_where_the_answers_change_the_result_the_distinct_outcomes_are_shown(tmp_path):
    # two of A's effects, one reads what the other did: their order (A's choice) changes the end
    comparison = compare(tcgtrig.scenario_from_text(ORDER_MATTERS, "o.yaml"), ["digimon", "duelmasters"])
    digimon, duelmasters = comparison.columns
    assert digimon.outcomes == () and digimon.result.keys("resolved") == ["b.two", "a.one"]
    assert [r.keys("resolved") for r in duelmasters.outcomes] == [["a.one", "b.two"], ["b.two", "a.one"]]
    assert duelmasters.explored == "every answer tried"
    path = tmp_path / "o.yaml"
    path.write_text(ORDER_MATTERS, encoding="utf-8")
    text = run("compare", path, "--games", "digimon,duelmasters")
    assert "the answers change the result: 2 distinct outcomes (every answer tried):" in text
    assert "1. a.one → b.two (the default answers)" in text


def test_games_that_agree_while_another_cannot_resolve_say_so(tmp_path):
    # issue 36: "nothing to compare" when two games resolved and agreed
    shield = tmp_path / "shield.yaml"
    shield.write_text(
        "format: 1\ntitle: a shield broken\nwords: duelmasters\nplayers: [A, B]\nturn_player: A\n"
        "cards: [{id: s, owner: B, zone: shields}]\nstart: [{break_shield: s}]\n",
        encoding="utf-8",
    )
    text = run("compare", shield, "--games", "duelmasters,digimon,yugioh")
    assert "nothing to compare" not in text
    assert "The games that resolved the file agree (duelmasters, digimon); yugioh could not." in text
    text = run(
        "compare", ROOT / "examples" / "04-optional-when-misses-timing.yaml", "--games", "yugioh,yugioh/goat,yugioh/ocg"
    )
    assert "The games agree." in text


def test_where_the_games_part_ways_names_the_rule_on_each_side():
    data = json.loads(run("compare", BATTLE, "--json"))
    order = next(d for d in data["differences"] if d["what"] == "order")
    assert order["first"] == 1
    why = order["why"]
    assert why["magic"].startswith("tribe.score: put on the stack after another: APNAP")
    assert "(CR 603.3b, 101.4)" in why["magic"] and why["magic"].endswith("last in, first out (CR 405.5)")
    assert (
        why["duelmasters"]
        == "hulcus.back: the active player's waiting abilities first, then the other players' in turn order (rules 4–5)"
    )
    assert why["digimon"] == "hulcus.back: the turn player's effects first within a priority layer (CR 15-4-3-5)"
    assert "SEGOC" in why["yugioh"] and "Chain resolves last in, first out" in why["yugioh"]
    text = run("compare", BATTLE)
    assert "    why, magic: tribe.score: put on the stack after another: APNAP" in text
    chains = next(d for d in data["differences"] if d["what"] == "chains")
    assert chains["terms"] == {"magic": "stack", "yugioh": "Chain"}
    assert "what each chain game built: magic: stack (" in text
