"""What a chain window keeps between windows (``core/runtime/responders.py``).

When the game's hooks say what their answers read (``tcgtrig.reads``), a
window asks again only about the abilities whose answer may have changed:
a chain of N responses asks O(N) questions, not O(N²).  Whatever is kept,
a user must not be able to tell: the same responses offered, in the same
order, with the same instance numbers, and the same trace byte for byte
as a window that asks about everything (the reference: ``window_reads``
set to ``None``, as for a game whose hooks declare nothing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tcgtrig
from attrs import evolve
from helpers import random_chain, responses, run, scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tcgtrig import GameInfo, hookimpl, reads
from tcgtrig.choices import RandomChooser
from tcgtrig.runtime.responders import leaf_at, nth, put, rank, tree_of, walk
from tcgtrig.scenario.reading import load_scenario, scenario_from_data

ROOT = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------------------
# The counted tree
# ---------------------------------------------------------------------------


class Effect:
    """A stand-in for an effect checked (any object)."""

    def __init__(self, n: int) -> None:
        self.n = n


def Leaf(n: int, copies: int = 1) -> tuple[Effect, int]:  # noqa: N802 (reads as the leaf it makes)
    """A legal response's leaf: shown (standing for ``copies``), or one of a group's others (0)."""
    return (Effect(n), copies)


def assert_tree_is(root: Any, depth: int, model: list[Any]) -> None:
    legal = [place for place, leaf in enumerate(model) if leaf is not None]
    shown = [place for place in legal if model[place][1]]
    assert list(walk(root, depth)) == shown
    for index, place in enumerate(shown):
        assert nth(root, depth, index) == place
    for place, leaf in enumerate(model):
        assert leaf_at(root, depth, place) is leaf
        assert rank(root, depth, place) == sum(1 for other in legal if other < place)


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(min_value=0, max_value=40),
    start=st.lists(st.booleans(), max_size=40),
    changes=st.lists(
        st.tuples(st.integers(min_value=0, max_value=39), st.booleans(), st.integers(min_value=0, max_value=3)),
        max_size=30,
    ),
)
def test_the_tree_counts_ranks_and_keeps_every_earlier_version(size, start, changes):
    model: list[Any] = [Leaf(i, i % 3) if i < len(start) and start[i] else None for i in range(size)]
    root, depth = tree_of(model)
    versions = [(root, list(model))]
    assert_tree_is(root, depth, model)
    for place, legal, copies in changes:
        if place >= size:
            continue
        model[place] = Leaf(place, copies) if legal else None
        root = put(root, depth, place, model[place])
        versions.append((root, list(model)))
    for old_root, old_model in versions:  # a window's answers stay what they were
        assert_tree_is(old_root, depth, old_model)


# ---------------------------------------------------------------------------
# Declaring reads
# ---------------------------------------------------------------------------


def test_reads_names_what_is_legal():
    with pytest.raises(
        ValueError,
        match=r"unknown 'chain\.length' \(legal: chain\.own, chain\.top_speed, state\.card, card\.id, state\)",
    ):
        reads("chain.length")

    @reads("chain.own")
    def hook() -> None: ...

    assert hook.tcgtrig_reads == frozenset({"chain.own"})  # type: ignore[attr-defined]


class Toy:
    """A chain game of the core's rules alone."""

    @hookimpl
    def tcgtrig_game_info(self):
        return GameInfo(name="toy", title="Chain toy", version="0", resolution="chain")


class Declared:
    @hookimpl
    @reads("chain.top_speed")
    def tcgtrig_can_respond(self, chain, effect):
        return None  # the core's rule


class Undeclared:
    @hookimpl
    def tcgtrig_can_respond(self, chain, effect):
        return None


def toy(*plugins: object) -> tcgtrig.Ruleset:
    return tcgtrig.load_ruleset("toy", plugins=(Toy(), *plugins), autoload=False)


def test_what_the_answers_read_is_the_union_of_the_declarations():
    assert tcgtrig.load_ruleset("yugioh").window_reads == frozenset({"chain.own", "chain.top_speed", "state.card"})
    assert toy().window_reads == frozenset({"chain.top_speed"})  # the core's speed rule
    assert toy(Declared()).window_reads == frozenset({"chain.top_speed"})
    assert toy(Undeclared()).window_reads is None  # one hook may read anything


# ---------------------------------------------------------------------------
# A long chain asks O(N) questions when the hooks say what they read
# ---------------------------------------------------------------------------


def questions(links: int, declare: bool) -> int:
    """How often ``tcgtrig_can_respond`` is asked over a chain of ``links``
    responses, each player answering every link; its implementation says
    what it reads if ``declare``."""
    asked = [0]

    def can_respond(chain: Any, effect: Any) -> None:
        asked[0] += 1
        return None  # the core's rule

    class Counting:
        tcgtrig_can_respond = hookimpl(reads("chain.top_speed")(can_respond) if declare else can_respond)

    text, choices = responses(links, "toy")
    result = run(text, toy(Counting()), choices=choices)
    assert result.keys("resolved") == [f"q{i}.quick" for i in reversed(range(links))] + ["starter.main"]
    return asked[0]


def test_a_chain_of_n_responses_asks_about_each_ability_a_bounded_number_of_times():
    links = 80
    declared = questions(links, declare=True)
    undeclared = questions(links, declare=False)
    # declared: each player's abilities once, then the one that joined the chain at each window
    assert declared <= 4 * links, declared
    # undeclared: every ability of the responding player at every window
    assert undeclared >= links * links // 4, undeclared


def test_the_responses_offered_are_those_a_window_asking_everything_offers():
    text, choices = responses(40, "yugioh")
    cached = run(text, "yugioh", choices=choices)
    reference = tcgtrig.load_ruleset("yugioh")
    reference.window_reads = None
    general = run(text, reference, choices=choices)
    assert cached.json_text() == general.json_text()
    offered = [step for step in cached.trace if step.kind == "choice"]
    # A's window at link 2 offers A's quick effects (20), B's at link 1 B's (20), with pass
    assert [step.get("options") for step in offered[:2]] == [
        tuple(f"q{i}.quick" for i in range(0, 40, 2)) + ("pass",),
        tuple(f"q{i}.quick" for i in range(1, 40, 2)) + ("pass",),
    ]


def test_the_options_of_a_respond_decision_are_a_sequence_of_labels():
    text, _ = responses(6, "yugioh")
    engine = tcgtrig.Engine.for_scenario(scenario(text), "yugioh")
    decision = engine.advance()
    assert decision is not None and decision.kind == "respond"
    options = decision.options
    assert list(options) == ["q0.quick", "q2.quick", "q4.quick", "pass"]
    assert options == ("q0.quick", "q2.quick", "q4.quick", "pass")
    assert (len(options), options[0], options[-1], options[1:3]) == (4, "q0.quick", "pass", ["q2.quick", "q4.quick"])
    assert "q2.quick" in options and "q1.quick" not in options and "pass" in options
    with pytest.raises(IndexError):
        options[4]
    engine.answer("q2.quick")
    assert engine.advance() is not None
    assert list(options) == ["q0.quick", "q2.quick", "q4.quick", "pass"]  # an earlier window's options stay


# ---------------------------------------------------------------------------
# Differential: kept answers against asking everything
# ---------------------------------------------------------------------------


def both(position: tcgtrig.Scenario, game: str, seed: int) -> None:
    seen = []
    for keep in (True, False):
        ruleset = tcgtrig.load_ruleset(game)
        if not keep:
            ruleset.window_reads = None
        engine = tcgtrig.Engine.for_scenario(position, ruleset, max_steps=20_000)
        chooser = RandomChooser(seed)
        asked = []
        while (decision := engine.advance()) is not None:
            asked.append((decision.kind, decision.player, tuple(decision.options)))
            engine.answer(chooser.choose(decision, engine))
        seen.append((asked, engine.result().json_text()))
    assert seen[0][0] == seen[1][0], "other decisions were asked"
    assert seen[0][1] == seen[1][1], "another trace"


@pytest.mark.parametrize("game", ["yugioh", "yugioh/ocg"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_chains_offer_the_same_whether_answers_are_kept_or_not(game, seed):
    both(scenario_from_data(random_chain(seed), "<random chain>", check_game=False), game, seed)


CHAIN_FILES = sorted(
    path
    for pattern in ("tests/scenarios/yugioh/*.yaml", "tests/plugins/yugioh/positions/*.yaml")
    for path in ROOT.glob(pattern)
)


@pytest.mark.parametrize("path", CHAIN_FILES, ids=lambda path: path.name)
def test_every_yugioh_file_resolves_the_same_whether_answers_are_kept_or_not(path):
    both(load_scenario(path, check_game=False), "yugioh", 0)


@pytest.mark.parametrize("path", sorted(ROOT.glob("examples/games/magic/scenarios/*.yaml")), ids=lambda path: path.name)
def test_every_magic_file_resolves_the_same_whether_answers_are_kept_or_not(path):
    # the example game implements none of the hooks: the core's own rule (the top link's speed) is kept
    if "magic" not in tcgtrig.available_games():
        pytest.skip("the example game magic is not installed")
    both(load_scenario(path, check_game=False), "magic", 0)


def test_a_hard_once_per_turn_used_by_one_card_is_not_offered_on_its_namesake():
    cards = [
        "{id: starter, owner: A, zone: field, abilities: [{id: main, kind: activated, do: [{lp: 1}]}]}",
        "{id: a1, owner: A, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2,"
        " do: [{lp: 1}]}]}",
    ]
    for twin in ("t1", "t2"):
        cards.append(
            f"{{id: {twin}, name: Twin, owner: B, zone: field, types: [monster], abilities: [{{id: e,"
            " kind: activated, speed: 2, once_per_turn: true, tags: [hard_once_per_turn], do: [{lp: 1}]}]}"
        )
    text = "game: yugioh\ncards:\n" + "".join(f"  - {card}\n" for card in cards)
    text += "start: [{activate: starter.main}]\n"
    result = run(text, "yugioh", choices=["t1.e", "a1.e"])
    offered = [(step.get("player"), step.get("options")) for step in result.trace if step.kind == "choice"]
    # t1 and t2 are copies: one option standing for both; after t1 spent the name's use, B is not
    # asked again: t2 shares it (A's monster may go again)
    assert [options for player, options in offered if player == "B"] == [("t1.e", "pass")]
    assert [step.get("copies") for step in result.trace if step.kind == "choice"][0] == {"t1.e": 2}
    assert offered[1] == ("A", ("a1.e", "pass"))
    assert result.chains() == [["starter.main", "t1.e", "a1.e"]]


def test_a_watcher_is_told_which_cards_changed_and_which_per_turn_keys_were_used():
    state = tcgtrig.GameState.build(("A", "B"), "A", [tcgtrig.Card(id="c", name="C", owner="A", zone="field")])
    changes = state.watch()
    state.replace(evolve(state.cards["c"], zone="graveyard"))
    state.mark_used("c.e")
    state.set_counter("A", "lp", 10)  # counters are told apart by the fingerprint
    assert (changes.cards, changes.used, changes.other) == ({"c"}, {"c.e"}, False)
    state.set_mark("noted", True)
    assert changes.other
    changes.clear()
    assert (changes.cards, changes.used, changes.other) == (set(), set(), False)
    copy = state.copy()
    copy.replace(evolve(copy.cards["c"], zone="field"))
    assert changes.cards == set()  # a copy tells no one
