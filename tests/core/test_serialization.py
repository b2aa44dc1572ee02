"""Saving and restoring game states: state_to_dict / state_from_dict, and
GameState.copy and fingerprint().

A saved state is plain JSON; reading it back (with the game whose words its
abilities use) gives a state that saves to the same data, hashes the same
and plays the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tcgtrig
from attrs import evolve
from helpers import run, scenario
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tcgtrig import (
    Ability,
    Card,
    DefaultChooser,
    Engine,
    GameState,
    Mod,
    Pattern,
    ScenarioError,
    state_from_dict,
    state_to_dict,
)

DIGIMON = tcgtrig.load_ruleset("digimon")


def round_trip(state: GameState, ruleset: tcgtrig.Ruleset = DIGIMON) -> tuple[dict[str, Any], GameState]:
    """Save ``state``, pass it through JSON text, read it back."""
    saved = state_to_dict(state)
    return saved, state_from_dict(json.loads(json.dumps(saved)), ruleset)


def layout(state: GameState) -> dict[str, Any]:
    """What the indexes say: zones in order, piles, top cards, controllers."""
    zones = sorted({c.zone for c in state.cards.values()})
    return {
        "zones": {z: [c.id for c in state.in_zone(z)] for z in zones},
        "under": {i: [c.id for c in state.under(i)] for i in state.cards},
        "below": {i: [c.id for c in state.stack_below(i)] for i in state.cards},
        "top": {i: state.top(i).id for i in state.cards},
        "controller": {i: state.controller(i) for i in state.cards},
    }


# ---------------------------------------------------------------------------
# Hand-built states
# ---------------------------------------------------------------------------


def test_cards_in_zones_with_flags_stats_types_and_names():
    state = (
        scenario("""
        counters: {A: {memory: 3}}
        cards:
          - {id: agu, name: BT1-010 Agumon, owner: A, zone: battle, flags: [suspended, blocked],
             stats: {dp: 2000, level: 3}, types: [digimon, rookie]}
          - {id: opt, owner: B, zone: hand, types: [option]}
          - {id: deck1, owner: A, zone: deck}
          - {id: deck2, owner: A, zone: deck}
          - {id: gone, owner: B, zone: trash, flags: [face_down]}
        start: []
        """)
        .compile(DIGIMON)
        .state
    )
    saved, restored = round_trip(state)
    assert state_to_dict(restored) == saved
    agu = restored.cards["agu"]
    assert (agu.name, agu.owner, agu.zone) == ("BT1-010 Agumon", "A", "battle")
    assert agu.flags == frozenset({"suspended", "blocked"})
    assert (agu.base_stat("dp"), agu.base_stat("level")) == (2000, 3)
    assert agu.types == ("digimon", "rookie")
    assert restored.cards["opt"].name == "opt"  # the default name is kept
    assert [c.id for c in restored.in_zone("deck")] == ["deck1", "deck2"]  # deck order: top first
    assert layout(restored) == layout(state)
    assert restored.fingerprint() == state.fingerprint()
    assert saved["cards"][0]["flags"] == ["blocked", "suspended"]  # sorted, JSON lists


def test_stacked_sources_keep_their_piles():
    state = (
        scenario("""
        cards:
          - {id: top, owner: A, zone: battle}
          - {id: mid, owner: A, zone: sources, under: top}
          - {id: low, owner: B, zone: sources, under: mid}
          - {id: base, owner: B, zone: battle}
          - {id: first, owner: B, zone: sources, under: base}
          - {id: second, owner: A, zone: sources, under: base}
        start: []
        """)
        .compile(DIGIMON)
        .state
    )
    saved, restored = round_trip(state)
    assert state_to_dict(restored) == saved
    assert [c.id for c in restored.stack_below("top")] == ["mid", "low"]
    assert [c.id for c in restored.under("base")] == ["first", "second"]
    assert restored.top("low").id == "top"
    assert restored.controller("low") == "A"  # the owner of the top card
    assert layout(restored) == layout(state)


def test_a_pile_built_during_play_round_trips():
    result = run("""
        cards:
          - {id: old, owner: A, zone: battle, flags: [suspended]}
          - {id: bottom, owner: A, zone: sources, under: old}
          - {id: new, owner: A, zone: hand}
          - {id: armor, owner: A, zone: hand}
        start:
          - digivolve: {card: old, into: new}
          - digivolve: {card: new, into: armor}
          - trash_top: armor
        """)
    state = result.state
    assert state.top("bottom").id == "new"  # armor purged: new is on top again
    saved, restored = round_trip(state)
    assert state_to_dict(restored) == saved
    assert layout(restored) == layout(state)
    assert restored.cards["new"].flags == frozenset({"suspended"})
    assert {c.id: c.incarnation for c in restored.cards.values()} == {c.id: c.incarnation for c in state.cards.values()}
    assert restored.cards["armor"].incarnation == 2  # stacked, then trashed


def test_lasting_stat_changes_round_trip_with_their_values():
    result = run("""
        cards:
          - {id: mon, owner: A, zone: battle, stats: {dp: 5000}}
          - {id: bare, owner: B, zone: battle}
          - id: aura
            owner: A
            zone: battle
            abilities:
              - {id: boost, kind: continuous, do: [{change: {card: mon, stat: dp, by: 1000}}]}
        start:
          - change: {card: mon, stat: dp, by: -3000, until: end_of_turn}
          - change: {card: mon, stat: dp, by: 500}
          - change: {card: bare, stat: dp, by: 2000, until: end_of_opponents_turn}
        """)
    state = result.state
    assert result.stat("mon", "dp") == 3500
    saved, restored = round_trip(state)
    assert state_to_dict(restored) == saved
    assert restored.cards["mon"].mods == (
        Mod(stat="dp", by=-3000, until="end_of_turn", effect="start", player="A"),
        Mod(stat="dp", by=500, until=None, effect="start", player="A"),
    )
    assert restored.cards["mon"].base_stat("dp") == 5000  # mods stay apart from the printed value
    view = Engine(DIGIMON, restored).view  # continuous abilities come back with the cards
    assert view.stat("mon", "dp") == 3500
    assert view.stat("bare", "dp") == 2000
    assert restored.fingerprint() == state.fingerprint()


def test_once_per_turn_use_round_trips_and_still_counts():
    text = """
        cards:
          - id: opt
            owner: A
            zone: battle
            abilities:
              - {id: go, once_per_turn: true, when: {event: ping}, do: [{memory: 1}]}
        start: [{emit: {event: ping}}]
        """
    first = run(text)
    assert first.keys("resolved") == ["opt.go"] and first.state.used == {"opt.go": 1}
    saved, restored = round_trip(first.state)
    assert saved["used"] == ["opt.go"] and restored.used == {"opt.go": 1}
    # the same trigger again on the restored state: once per turn is spent, so
    # under Digimon it does not even trigger (CR 15-14-1-2)
    again = Engine(DIGIMON, restored, first.compiled.start).run(DefaultChooser())
    assert [s.kind for s in again.trace if s.get("effect") == "opt.go"] == []
    assert again.state.counter("A", "memory") == 1


def test_counters_round_trip_including_negative_and_missing_ones():
    result = run("""
        counters: {A: {score: 2, lp: 8000}}
        cards:
          - id: mon
            owner: A
            zone: battle
            abilities:
              - {id: pay, when: ping, do: [{lose: {counter: score, amount: 5}}, {gain: {player: opponent, counter: mana}}]}
        start: [{emit: {event: ping}}]
        """)
    state = result.state
    assert state.counters == {"A": {"score": -3, "lp": 8000}, "B": {"mana": 1}}
    saved, restored = round_trip(state)
    assert saved["counters"] == {"A": {"lp": 8000, "score": -3}, "B": {"mana": 1}}
    assert restored.counters == state.counters
    assert restored.counter("B", "score") == 0
    assert restored.fingerprint() == state.fingerprint()


def test_turn_players_and_incarnations_round_trip():
    result = run("""
        cards:
          - {id: wanderer, owner: B, zone: battle}
        start:
          - bounce: wanderer
          - play: wanderer
          - trash: wanderer
        """)
    state = result.state
    state.turn = 4
    saved, restored = round_trip(state)
    assert (restored.players, restored.turn_player, restored.turn) == (("A", "B"), "A", 4)
    assert restored.cards["wanderer"].incarnation == 3
    assert restored.cards["wanderer"].zone == "trash"
    assert state_to_dict(restored) == saved


def test_restored_abilities_play_the_same():
    text = """
        counters: {A: {memory: 0}, B: {memory: 0}}
        cards:
          - {id: foe, owner: B, zone: battle, stats: {dp: 3000}}
          - id: mon
            owner: A
            zone: battle
            stats: {dp: 6000}
            abilities:
              - {id: hit, when: {event: attacking, card: self}, optional: true,
                 do: [{delete: {zone: battle, owner: opponent, pick: 1}}]}
          - id: src
            owner: A
            zone: sources
            under: mon
            abilities:
              - {id: inherited, when: {event: deleted, player: opponent}, do: [{memory: 1}]}
          - id: foe_guard
            owner: B
            zone: battle
            abilities:
              - {id: save, kind: interrupt, when: {event: deleted, card: foe}, once_per_turn: true,
                 do: [{memory: 2}]}
        start: [{attack: mon}]
        """
    original = scenario(text).compile(DIGIMON)
    expected = Engine(DIGIMON, original.state.copy(), original.start).run(DefaultChooser())
    saved, restored = round_trip(original.state)
    assert state_to_dict(restored) == saved
    replay = Engine(DIGIMON, restored, original.start).run(DefaultChooser())
    assert [s.to_dict() for s in replay.trace] == [s.to_dict() for s in expected.trace]
    assert [s["effect"] for s in replay.trace if s.kind == "resolved"] == ["mon.hit", "foe_guard.save", "src.inherited"]
    assert (replay.state.counter("A", "memory"), replay.state.counter("B", "memory")) == (
        -1,
        1,
    )  # one memory gauge (CR 1-4-2-1)
    assert state_to_dict(replay.state) == state_to_dict(expected.state)


def test_a_saved_state_speaks_core_words_and_reads_back_under_any_game(plain):
    state = (
        scenario("""
        cards:
          - id: mon
            owner: A
            zone: battle
            abilities: [{id: go, when: ping, do: [{memory: 1}]}]
        start: []
        """)
        .compile(DIGIMON)
        .state
    )
    saved = state_to_dict(state)
    assert saved["cards"][0]["abilities"] == [
        {
            "id": "go",
            "kind": "triggered",
            "when": {"event": "ping"},
            "active_in": ["battle"],
            "do": [{"gain": {"player": "self", "counter": "memory", "amount": 1}}],
        }
    ]
    restored = state_from_dict(saved, plain)  # "memory" was a Digimon word; the save is not
    assert restored.cards["mon"].abilities == state.cards["mon"].abilities


def test_a_saved_state_is_plain_json():
    result = run("""
        counters: {A: {memory: 1}}
        cards:
          - {id: mon, owner: A, zone: battle, stats: {dp: 1000}, flags: [suspended], types: [digimon]}
          - {id: src, owner: A, zone: sources, under: mon}
        start: [{change: {card: mon, stat: dp, by: 1000, until: end_of_turn}}]
        """)
    saved = state_to_dict(result.state)
    assert json.loads(json.dumps(saved, sort_keys=True)) == saved  # nothing but JSON types
    assert set(saved) == {"state_format", "players", "turn_player", "turn", "counters", "used", "cards"}
    assert saved["state_format"] == 1
    assert saved["cards"][0]["mods"] == [
        {"stat": "dp", "by": 1000, "until": "end_of_turn", "effect": "start", "player": "A"}
    ]


def test_copy_is_independent_of_the_original():
    state = (
        scenario("""
        counters: {A: {memory: 1}}
        cards:
          - {id: mon, owner: A, zone: battle, flags: [suspended]}
          - {id: src, owner: A, zone: sources, under: mon}
          - {id: foe, owner: B, zone: hand}
        start: []
        """)
        .compile(DIGIMON)
        .state
    )
    saved, print_before, where = state_to_dict(state), state.fingerprint(), layout(state)
    copy = state.copy()
    assert copy.fingerprint() == print_before and state_to_dict(copy) == saved
    copy.replace(evolve(copy.cards["src"], zone="trash", under=None, incarnation=1))
    copy.replace(evolve(copy.cards["mon"], flags=frozenset()))
    copy.set_counter("A", "memory", 5)
    copy.set_counter("B", "lp", 2)
    copy.mark_used("mon.go")
    assert (state_to_dict(state), state.fingerprint(), layout(state)) == (saved, print_before, where)
    assert state.used == {} and state.counter("A", "memory") == 1
    assert [c.id for c in copy.in_zone("trash")] == ["src"] and copy.under("mon") == []
    assert copy.fingerprint() != print_before
    # and the other way round
    state.replace(evolve(state.cards["foe"], zone="battle"))
    assert copy.cards["foe"].zone == "hand" and [c.id for c in copy.in_zone("battle")] == ["mon"]


# ---------------------------------------------------------------------------
# Edges found by these tests (fixed)
# ---------------------------------------------------------------------------


def test_a_move_to_sources_needs_a_parent():
    with pytest.raises(ScenarioError, match="needs 'under'"):
        run("""
            cards:
              - {id: x, owner: A, zone: hand}
            start:
              - move: {card: x, to: sources}
            """)


def test_stacking_onto_a_card_of_its_own_pile_does_nothing_and_round_trips():
    result = run("""
        cards:
          - {id: top, owner: A, zone: battle}
          - {id: mid, owner: A, zone: sources, under: top}
          - {id: low, owner: A, zone: sources, under: mid}
        start:
          - stack: {card: top, onto: low}
          - move: {card: top, to: sources, under: low}
        """)
    assert result.outcome == "complete"
    assert [c.id for c in result.state.in_zone("battle")] == ["top"]
    assert not [s for s in result.trace if s.kind == "event"]
    saved, restored = round_trip(result.state)
    assert state_to_dict(restored) == saved


def test_a_state_built_in_python_round_trips_its_abilities():
    ability = Ability(id="go", when=Pattern(event="ping"), active_in=("battle",))
    state = GameState.build(
        ["A", "B"], "A", [Card(id="mon", name="mon", owner="A", zone="battle", abilities=(ability,))]
    )
    saved, restored = round_trip(state)
    assert saved["cards"][0]["abilities"][0]["when"] == {"event": "ping"}
    assert restored.cards["mon"].abilities == (ability,)


# ---------------------------------------------------------------------------
# Properties over random small positions
# ---------------------------------------------------------------------------

PLAYERS = ("A", "B")
ZONES = ("battle", "hand", "trash", "deck", "security", "breeding")
ABILITIES = (
    {"id": "ping", "when": "ping", "do": [{"memory": 1}]},
    {
        "id": "on_play",
        "when": {"event": "played", "card": "self"},
        "active_in": "battle",
        "do": [{"delete": {"zone": "battle", "owner": "opponent", "pick": 1}}],
    },
    {
        "id": "guard",
        "kind": "interrupt",
        "when": {"event": "deleted", "card": "self"},
        "optional": True,
        "once_per_turn": True,
        "do": [{"prevent": {}}],
    },
    {
        "id": "aura",
        "kind": "continuous",
        "condition": {"turn": "self"},
        "do": [{"change": {"card": "self", "stat": "dp", "by": 1000}}],
    },
    {
        "id": "main",
        "kind": "activated",
        "tags": ["security"],
        "text": "[Main] gain 1 memory",
        "do": [{"may": [{"memory": 1}]}],
    },
)


@st.composite
def positions(draw: Any) -> dict[str, Any]:
    """Scenario data for a small random position (always valid)."""
    count = draw(st.integers(1, 7))
    cards = []
    for number in range(count):
        card: dict[str, Any] = {"id": f"c{number}", "owner": draw(st.sampled_from(PLAYERS))}
        if number and draw(st.integers(0, 3)) == 0:  # stacked under an earlier card: no circles
            card["zone"] = "sources"
            card["under"] = f"c{draw(st.integers(0, number - 1))}"
        else:
            card["zone"] = draw(st.sampled_from(ZONES))
        if draw(st.booleans()):
            card["name"] = draw(st.sampled_from(["Agumon", "Gabumon", "ST1-01 Koromon", "Ω"]))
        stats = draw(
            st.dictionaries(st.sampled_from(["dp", "level", "cost"]), st.integers(-20_000, 20_000), max_size=3)
        )
        if stats:
            card["stats"] = stats
        flags = draw(st.lists(st.sampled_from(["suspended", "placed", "tapped", "face_down"]), unique=True, max_size=3))
        if flags:
            card["flags"] = flags
        types = draw(st.lists(st.sampled_from(["digimon", "tamer", "option", "digi-egg"]), unique=True, max_size=2))
        if types:
            card["types"] = types
        abilities = draw(st.lists(st.sampled_from(ABILITIES), unique_by=lambda a: a["id"], max_size=2))
        if abilities:
            card["abilities"] = abilities
        cards.append(card)
    counters = draw(
        st.dictionaries(
            st.sampled_from(PLAYERS),
            st.dictionaries(st.sampled_from(["memory", "lp", "mana"]), st.integers(-10, 10), max_size=3),
            max_size=2,
        )
    )
    memory = draw(st.one_of(st.none(), st.integers(-10, 10)))
    if memory is not None:  # Digimon's memory is one gauge: the two sides must agree
        counters = {
            **counters,
            "A": {**counters.get("A", {}), "memory": memory},
            "B": {**counters.get("B", {}), "memory": -memory},
        }
    else:
        counters = {p: {k: v for k, v in values.items() if k != "memory"} for p, values in counters.items()}
    return {
        "format": 1,
        "title": "random position",
        "players": list(PLAYERS),
        "turn_player": draw(st.sampled_from(PLAYERS)),
        "counters": counters,
        "cards": cards,
        "start": [],
    }


@st.composite
def extras(draw: Any) -> dict[str, Any]:
    """What a scenario cannot say: lasting changes, incarnations, use, the turn."""
    mods = st.lists(
        st.builds(
            Mod,
            stat=st.sampled_from(["dp", "level"]),
            by=st.integers(-5000, 5000),
            until=st.sampled_from([None, "end_of_turn", "end_of_opponents_turn"]),
            effect=st.sampled_from([None, "start", "c0.ping"]),
        ),
        max_size=2,
    )
    return {
        "mods": draw(st.lists(mods, min_size=7, max_size=7)),
        "incarnations": draw(st.lists(st.integers(0, 3), min_size=7, max_size=7)),
        "used": draw(st.lists(st.sampled_from(["c0.guard", "c1.guard", "c0.main", "x.y"]), max_size=3)),
        "turn": draw(st.integers(1, 5)),
    }


def build(data: dict[str, Any], more: dict[str, Any]) -> GameState:
    state = tcgtrig.scenario_from_data(data, "<random>").compile(DIGIMON).state
    for number, card in enumerate(list(state.cards.values())):
        state.replace(evolve(card, mods=tuple(more["mods"][number]), incarnation=more["incarnations"][number]))
    for key in more["used"]:
        state.mark_used(key)
    state.turn = more["turn"]
    return state


PROPERTY = settings(max_examples=50, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(positions(), extras())
def test_random_positions_round_trip(data, more):
    state = build(data, more)
    saved, restored = round_trip(state)
    assert state_to_dict(restored) == saved
    assert restored.fingerprint() == state.fingerprint()
    assert layout(restored) == layout(state)
    assert restored.used == state.used and restored.turn == state.turn
    for card in state.cards.values():
        again = restored.cards[card.id]
        assert (again.mods, again.incarnation, again.stats, again.flags) == (
            card.mods,
            card.incarnation,
            card.stats,
            card.flags,
        )
        assert [a.id for a in again.abilities] == [a.id for a in card.abilities]
        assert [a.active_in for a in again.abilities] == [a.active_in for a in card.abilities]
    # saving the restored state and reading it once more changes nothing
    assert state_to_dict(round_trip(restored)[1]) == saved


@PROPERTY
@given(positions(), extras())
def test_equal_states_have_equal_fingerprints(data, more):
    first, second = build(data, more), build(data, more)
    assert first is not second
    assert state_to_dict(first) == state_to_dict(second)
    assert first.fingerprint() == second.fingerprint()
    assert first.copy().fingerprint() == first.fingerprint()


@PROPERTY
@given(positions(), extras(), st.data())
def test_a_copy_is_independent_of_the_original(data, more, pick):
    state = build(data, more)
    saved, fingerprint, where = state_to_dict(state), state.fingerprint(), layout(state)
    counters = {p: dict(v) for p, v in state.counters.items()}
    copy = state.copy()
    card = copy.cards[pick.draw(st.sampled_from(sorted(copy.cards)), label="card")]
    player = pick.draw(st.sampled_from(PLAYERS), label="player")
    counter = pick.draw(st.sampled_from(["memory", "lp", "mana"]), label="counter")
    copy.replace(evolve(card, zone="limbo", under=None, flags=card.flags | {"moved"}, incarnation=card.incarnation + 1))
    copy.set_counter(player, counter, copy.counter(player, counter) + 1)
    copy.mark_used("copy.only")
    # the original did not move
    assert state_to_dict(state) == saved
    assert state.fingerprint() == fingerprint
    assert layout(state) == where
    assert state.counters == counters and "copy.only" not in state.used
    assert state.cards[card.id] is not copy.cards[card.id]
    # the copy did
    assert copy.fingerprint() != fingerprint
    assert [c.id for c in copy.in_zone("limbo")] == [card.id]
    if card.under is not None:  # it left its pile in the copy only
        assert card.id not in [c.id for c in copy.under(card.under)]
        assert card.id in [c.id for c in state.under(card.under)]


@PROPERTY
@given(positions(), extras(), st.data())
def test_undoing_a_change_restores_the_fingerprint(data, more, pick):
    state = build(data, more)
    fingerprint = state.fingerprint()
    card = state.cards[pick.draw(st.sampled_from(sorted(state.cards)), label="card")]
    player = pick.draw(st.sampled_from(PLAYERS), label="player")
    counter = pick.draw(st.sampled_from(["memory", "lp", "mana"]), label="counter")
    value = state.counter(player, counter)
    state.set_counter(player, counter, value)  # an explicit 0 is a different state from none…
    fingerprint = state.fingerprint()  # …so start from the explicit value
    state.replace(evolve(card, zone="limbo", flags=card.flags | {"moved"}, mods=card.mods + (Mod(stat="dp", by=1),)))
    state.set_counter(player, counter, value + 7)
    assert state.fingerprint() != fingerprint
    state.replace(card)
    state.set_counter(player, counter, value)
    assert state.fingerprint() == fingerprint


@pytest.mark.parametrize(
    "path", sorted((Path(__file__).parents[1] / "scenarios").rglob("*.yaml")), ids=lambda p: p.stem
)
def test_every_ability_of_every_scenario_file_writes_back_to_an_equal_ability(path, plain):
    scenario = tcgtrig.load_scenario(path)
    ruleset = tcgtrig.load_ruleset(scenario.games()[0])
    state = scenario.compile(ruleset).state
    # a position of more than two players is restored with its own game (the plain one allows two)
    restored = state_from_dict(
        json.loads(json.dumps(state_to_dict(state))), plain if len(state.players) == 2 else ruleset
    )
    for card in state.cards.values():
        assert restored.cards[card.id].abilities == card.abilities, card.id


def test_a_draw_from_an_empty_deck_is_kept_until_the_rules_read_it():
    # the players who drew from an empty deck since the rules were last processed (Magic CR 704.5b)
    state = GameState.build(["A", "B"], "A", [])
    state.drew_from_empty("B")
    before = state.fingerprint()
    saved, restored = round_trip(state)
    assert saved["empty_draws"] == ["B"] and restored.empty_draws == ("B",)
    assert restored.fingerprint() == before and state.copy().empty_draws == ("B",)
    state.forget_empty_draws()
    assert state.empty_draws == () and "empty_draws" not in state_to_dict(state)
