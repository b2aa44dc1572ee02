"""The Digimon ruleset: its policy functions one by one, its words, and the
coverage of the seed examples by scenario files."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcgtrig
from helpers import run, yaml_file
from tcgtrig import ActivationContext, Card, GameState, PendingEffect
from tcgtrig.plugins.digimon import policy

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "digimon"


def pending(ability: tcgtrig.Ability, **fields) -> PendingEffect:
    base = dict(id=1, key="c.x", card="c", ability=ability, controller="A", self_card="c", timing=1, depth=1)
    return PendingEffect(**{**base, **fields})


def plain_ability(**fields) -> tcgtrig.Ability:
    return tcgtrig.Ability(id="x", **fields)


@pytest.fixture
def state() -> GameState:
    return GameState.build(
        ("A", "B"),
        "A",
        [
            Card(id="c", name="c", owner="A", zone="battle"),
        ],
    )


def test_rank_security_then_newest_batch_then_turn_player(state):
    ability = plain_ability()
    security = pending(plain_ability(tags=("security",)), controller="B", timing=1)
    old_tp = pending(ability, controller="A", timing=1)
    new_ntp = pending(ability, controller="B", timing=2)
    new_tp = pending(ability, controller="A", timing=2)
    ranks = sorted([old_tp, new_ntp, security, new_tp], key=lambda e: policy.rank(state, e))
    assert ranks == [security, new_tp, new_ntp, old_tp]


def test_rank_in_an_interrupt_window_puts_replacements_first(state):
    interrupt = pending(plain_ability(kind="interrupt"), window="interrupt")
    replacement = pending(plain_ability(kind="replacement"), controller="B", window="interrupt")
    assert policy.rank(state, replacement) < policy.rank(state, interrupt)


def test_priority_is_the_derivation_depth():
    assert policy.details(pending(plain_ability(), depth=3)) == {"priority": 3}
    assert policy.details(pending(plain_ability(), window="interrupt")) is None


def test_a_pending_effect_is_lost_when_its_card_moved(state):
    effect = pending(plain_ability(), incarnation=0)
    assert policy.lost(state, effect) is None
    state.replace(tcgtrig.Card(id="c", name="c", owner="A", zone="trash", incarnation=1))
    drop = policy.lost(state, effect)
    assert drop.kind == "lost" and "15-4-4-3" in drop.reason


def test_an_interrupt_activates_once_per_series():
    effect = pending(plain_ability(kind="interrupt"), window="interrupt")
    assert policy.blocked(effect, ActivationContext(window="interrupt", series=frozenset())) is None
    reason = policy.blocked(effect, ActivationContext(window="interrupt", series=frozenset({"c.x"})))
    assert "15-8-5-4" in reason
    assert policy.blocked(effect, ActivationContext(window="main", series=frozenset({"c.x"}))) is None


def test_rules_processing_deletes_zero_dp_and_trashes_eggs_and_options():
    result = run("""
        cards:
          - {id: weak, owner: B, zone: battle, types: [digimon], stats: {dp: 2000}}
          - {id: strong, owner: B, zone: battle, types: [digimon], stats: {dp: 5000}}
          - {id: egg, owner: A, zone: battle, stats: {level: 2}}
          - {id: option, owner: A, zone: battle, types: [option]}
          - {id: placed_option, owner: A, zone: battle, types: [option], flags: [placed]}
          - {id: tamer, owner: A, zone: battle, types: [tamer]}
          - id: watcher
            owner: A
            zone: battle
            types: [tamer]
            abilities:
              - {id: saw, when: {event: deleted, by: rule, player: opponent}, do: [{memory: 1}]}
        start:
          - change: {card: weak, stat: dp, by: -2000, until: end_of_turn}
        """)
    zones = {c.id: c.zone for c in result.state.cards.values()}
    assert zones == {
        "weak": "trash",
        "strong": "battle",
        "egg": "trash",
        "option": "trash",
        "placed_option": "battle",
        "tamer": "battle",
        "watcher": "battle",
    }
    rules = [s for s in result.trace if s.kind == "rules"]
    assert len(rules) == 1 and set(rules[0]["cards"]) == {"weak", "egg", "option"}  # all at once
    assert result.keys("resolved") == ["watcher.saw"]


def test_digivolution_cards_go_to_the_trash_with_their_digimon():
    result = run("""
        cards:
          - {id: mon, owner: A, zone: battle, types: [digimon], stats: {dp: 3000}}
          - {id: src, owner: A, zone: sources, under: mon}
        start: [{bounce: mon}]
        """)
    assert (result.state.cards["mon"].zone, result.state.cards["src"].zone) == ("hand", "trash")


def test_an_endless_loop_is_a_draw_only_when_nobody_can_stop_it():
    forced = policy.endless("endless loop: the same position came back", False)
    assert forced.outcome == "draw" and "no player can stop" in forced.reason and "18-3" in forced.reason
    stoppable = policy.endless("endless loop: the same position came back", True)
    assert stoppable.outcome == "loop" and "declares how many times" in stoppable.reason
    limit = policy.endless("endless loop: no end after 10 steps", None)
    assert limit.outcome == "draw" and "treated as an endless loop" in limit.reason


STOPPABLE_LOOP = """
    cards:
      - id: x
        owner: A
        zone: battle
        types: [digimon]
        stats: {dp: 3000}
        abilities:
          - {id: up, optional: true, when: {event: suspended, card: self}, do: [{unsuspend: self}]}
          - {id: down, when: {event: unsuspended, card: self}, do: [{suspend: self}]}
    start: [{suspend: x}]
    """


def test_a_loop_a_player_could_stop_is_not_a_draw():
    result = run(STOPPABLE_LOOP)
    assert result.outcome == "loop" and "CR 18-3" in result.reason
    declined = run(STOPPABLE_LOOP, choices=["use", "use", "decline"])
    assert declined.outcome == "complete"
    assert declined.keys("resolved") == ["x.up", "x.down", "x.up", "x.down"]


@pytest.mark.parametrize(
    ("word", "arg", "expected"),
    [
        ("delete", "x", {"move": {"card": "x", "to": "trash", "as": "deleted"}}),
        ("play", "x", {"move": {"card": "x", "to": "battle", "as": "played"}}),
        ("trash", "x", {"move": {"card": "x", "to": "trash", "as": "trashed"}}),
        ("bounce", "x", {"move": {"card": "x", "to": "hand", "as": "returned"}}),
        ("suspend", "x", {"flag": {"card": "x", "set": "suspended", "as": "suspended"}}),
        ("unsuspend", "x", {"flag": {"card": "x", "clear": "suspended", "as": "unsuspended"}}),
        ("digivolve", {"card": "x", "into": "y"}, {"stack": {"card": "y", "onto": "x", "as": "digivolved"}}),
        ("memory", -2, {"lose": {"counter": "memory", "amount": 2}}),
        ("use", "x", {"emit": {"event": "used", "card": "x"}}),
    ],
)
def test_game_words_expand_to_core_actions(word, arg, expected):
    assert policy.ALIASES[word](arg) == expected


def test_digivolve_needs_card_and_into():
    with pytest.raises(ValueError):
        policy.ALIASES["digivolve"]("x")


SEEDS = (
    [f"triggered-{n:02d}.yaml" for n in range(1, 11)]
    + [f"interrupt-{n:02d}.yaml" for n in range(1, 7)]
    + ["interrupt-x.yaml"]
)


@pytest.mark.parametrize("name", SEEDS)
def test_every_seed_example_has_a_scenario_that_asserts_its_order(name):
    data = yaml_file(SCENARIOS / name)
    assert "seeds/digimon-" in data["source"]
    assert data["expect"]["digimon"]["resolved"], "the resolution order is asserted"


def test_every_qa_case_cites_its_ruling_and_asserts_its_order():
    files = sorted(SCENARIOS.glob("qa-*.yaml"))
    assert len(files) >= 11
    for path in files:
        data = yaml_file(path)
        assert "Q&A" in data["source"] or "Q" in data["title"], path.name
        assert "resolved" in data["expect"]["digimon"], path.name  # the order (possibly: nothing)


def test_this_digimon_and_that_digimon_follow_digivolution():
    # Q5787 written with "that Digimon": after the first effect digivolves the
    # attacker, the inherited +1000 and the tamer's digivolve both mean the new
    # top card, not the card that went under it
    result = run(
        """
        cards:
          - id: tamer
            owner: A
            zone: battle
            types: [tamer]
            abilities:
              - id: evo
                when: {event: attacking, card: own}
                do: [{digivolve: {card: event.card, into: {zone: hand, owner: self, name: Rust, pick: 1}}}]
          - {id: tyrannomon, owner: A, zone: battle, types: [digimon], stats: {dp: 5000, level: 4}}
          - id: koromon
            owner: A
            zone: sources
            under: tyrannomon
            abilities:
              - {id: evo, when: {event: attacking, card: self}, do: [{digivolve: {card: self, into: {zone: hand, owner: self, name: Master, pick: 1}}}]}
              - {id: boost, when: {event: attacking, card: self}, do: [{change: {card: self, stat: dp, by: 1000}}]}
          - {id: master, name: MasterTyrannomon, owner: A, zone: hand, types: [digimon], stats: {dp: 8000, level: 5}}
          - {id: rust, name: RustTyrannomon, owner: A, zone: hand, types: [digimon], stats: {dp: 13000, level: 6}}
        start: [{attack: tyrannomon}]
        """,
        choices=["koromon.evo", "koromon.boost"],
    )
    zones = {c: result.state.cards[c].zone for c in ("tyrannomon", "master", "rust")}
    assert zones == {"tyrannomon": "sources", "master": "sources", "rust": "battle"}
    assert result.stat("rust", "dp") == 14000  # the boost went onto the Digimon, and stayed through digivolving
    assert result.state.cards["rust"].flags == {"suspended", "attacking"}  # still attacking


def test_only_a_top_card_can_be_digivolved_onto():
    result = run("""
        cards:
          - {id: top, owner: A, zone: battle, types: [digimon], stats: {dp: 5000}}
          - {id: under_card, owner: A, zone: sources, under: top}
          - {id: new, owner: A, zone: hand, types: [digimon], stats: {dp: 8000}}
        start: [{digivolve: {card: under_card, into: new}}]
        """)
    assert result.state.cards["new"].zone == "hand"
    assert not [s for s in result.trace if s.kind == "event"]


def _pile_state() -> GameState:
    """A's Digimon ``top`` with ``src`` under it, both in the trash after a deletion."""
    return GameState.build(
        ("A", "B"),
        "B",
        [
            Card(id="top", name="top", owner="A", zone="trash", incarnation=1),
            Card(id="src", name="src", owner="A", zone="trash", incarnation=1),
        ],
    )


def test_an_inherited_on_deletion_waits_on_the_deleted_top_card():
    state = _pile_state()
    deleted = tcgtrig.Event(name="deleted", card="top", player="A")
    effect = pending(
        plain_ability(active_in=("sources",)),
        key="src.x",
        card="src",
        self_card="top",
        incarnation=1,
        self_incarnation=1,
        looked_back=True,
        events=(deleted,),
    )
    assert policy.lost(state, effect) is None
    # the digivolution card that printed it leaves the trash: still pending (Q4286)
    state.replace(Card(id="src", name="src", owner="A", zone="hand", incarnation=2))
    assert policy.lost(state, effect) is None
    # the top card leaves the trash: lost (Q4285)
    state.replace(Card(id="top", name="top", owner="A", zone="hand", incarnation=2))
    drop = policy.lost(state, effect)
    assert drop.kind == "lost" and "15-8-3-5" in drop.reason and "Q4285" in drop.reason


def test_a_card_that_left_with_the_card_it_watched_triggers_and_is_lost():
    state = _pile_state()
    other = tcgtrig.Event(name="deleted", card="foe", player="B")
    effect = pending(
        plain_ability(active_in=("sources",)),
        key="src.x",
        card="src",
        self_card="top",
        incarnation=1,
        self_incarnation=1,
        looked_back=True,
        events=(other,),
    )
    drop = policy.lost(state, effect)
    assert drop.kind == "lost" and "Q2046" in drop.reason and "15-4-4-3" in drop.reason


def test_a_digivolved_card_lost_the_effect_it_did_not_become_a_new_card(state):
    effect = pending(plain_ability(), incarnation=0)
    state.replace(Card(id="c", name="c", owner="A", zone="sources", under="d", incarnation=1))
    drop = policy.lost(state, effect)
    assert "15-4-4-4" in drop.reason and "3-1-3-1-3" in drop.reason and "15-4-4-3)" not in drop.reason


def test_an_inherited_effect_is_lost_when_its_digivolution_card_leaves_the_pile():
    state = GameState.build(
        ("A", "B"),
        "A",
        [
            Card(id="top", name="top", owner="A", zone="battle"),
            Card(id="src", name="src", owner="A", zone="trash", incarnation=1),
        ],
    )
    effect = pending(
        plain_ability(active_in=("sources",)),
        key="src.x",
        card="src",
        self_card="top",
        incarnation=0,
        self_incarnation=0,
    )
    drop = policy.lost(state, effect)
    assert "15-4-4-4" in drop.reason and "digivolution card" in drop.reason


def test_memory_is_one_gauge_capped_at_ten():
    state = GameState.build(("A", "B"), "A", [])
    assert policy.linked_counters(state, "A", "memory", 3) == {"A": 3, "B": -3}
    assert policy.linked_counters(state, "B", "memory", 12) == {"B": 10, "A": -10}
    assert policy.linked_counters(state, "A", "lp", 3) is None


def test_memory_on_the_opponents_side_ends_the_turn():
    state = GameState.build(("A", "B"), "A", [], counters={"A": {"memory": -2}, "B": {"memory": 2}})
    assert "6-1-4-1" in policy.turn_ends(state) and "2 on B's side" in policy.turn_ends(state)
    state.set_counter("A", "memory", 0)
    assert policy.turn_ends(state) is None
    assert policy.describe_counters(state) == ["memory 0"]
    state.set_counter("A", "memory", -4)
    assert policy.describe_counters(state) == ["memory 4 on B's side"]


def test_a_gain_the_cap_stops_reports_what_moved():
    result = run("""
        counters: {A: {memory: 9}}
        cards: []
        start: [{memory: 3}]
        """)
    gained = next(s for s in result.trace if s.kind == "event" and s["event"] == "gained")
    assert gained["amount"] == 1 and result.state.counter("A", "memory") == 10


def test_the_ruleset_page_lists_every_scenario_file_and_word():
    page = (Path(__file__).resolve().parents[3] / "docs" / "digimon.md").read_text()
    for path in SCENARIOS.glob("*.yaml"):
        assert f"`{path.name}`" in page, f"{path.name} is not listed in docs/digimon.md"
    for word in policy.ALIASES:
        assert f"`{word}`" in page, word


def test_a_gain_at_the_cap_is_no_event():
    result = run("""
        counters: {A: {memory: 10}}
        cards:
          - id: w
            owner: A
            zone: battle
            abilities: [{id: seen, when: {event: gained, counter: memory}, do: [{gain: {counter: n}}]}]
        start: [{memory: 2}]
        """)
    assert result.keys("triggered") == [] and result.state.counter("A", "memory") == 10
