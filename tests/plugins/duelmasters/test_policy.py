"""The Duel Masters ruleset: its policy functions one by one, its words, and
the coverage of the seed examples and rule cases by scenario files."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcgtrig
from helpers import ability, pending, run, yaml_file
from tcgtrig import ActivationContext, Card, Event, GameState
from tcgtrig.plugins.duelmasters import policy

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "duelmasters"
DUELMASTERS = tcgtrig.load_ruleset("duelmasters")


@pytest.fixture
def state() -> GameState:
    return GameState.build(("A", "B"), "A", [Card(id="c", name="c", owner="A", zone="battle")])


def test_rank_shield_triggers_then_before_break_then_ordinary_active_player_first(state):
    nap_trigger = pending(ability(tags=("shield_trigger",)), controller="B")
    ap_strike_back = pending(ability(tags=("strike_back",)), controller="A")
    before_break = pending(ability(tags=("before_break",)), controller="B")
    ap_ordinary = pending(ability(), controller="A", timing=9)
    nap_ordinary = pending(ability(), controller="B", timing=1)
    ranked = sorted(
        [nap_ordinary, ap_ordinary, before_break, nap_trigger, ap_strike_back], key=lambda e: policy.rank(state, e)
    )
    assert ranked == [ap_strike_back, nap_trigger, before_break, ap_ordinary, nap_ordinary]


def test_rank_has_no_batch_number_so_new_triggers_join_the_same_pool(state):
    old = pending(ability(), controller="A", timing=1)
    new = pending(ability(), controller="A", timing=7)
    assert policy.rank(state, old) == policy.rank(state, new)


def test_rank_before_an_event_puts_the_turn_players_substitutions_first(state):
    tp = pending(ability(kind="replacement"), controller="A", window="interrupt")
    ntp = pending(ability(kind="replacement"), controller="B", window="interrupt")
    assert policy.rank(state, tp) < policy.rank(state, ntp)


def test_details_name_the_class_and_the_side(state):
    assert policy.details(state, pending(ability(tags=("shield_trigger",)), controller="B")) == {
        "class": "shield trigger",
        "side": "non-active",
    }
    assert policy.details(state, pending(ability())) == {"class": "ordinary", "side": "active"}
    assert policy.details(state, pending(ability(), window="interrupt")) is None


@pytest.mark.parametrize(
    "tags",
    [("shield_trigger",), ("strike_back",), ("g_strike",), ("ninja_strike",), ("revolution_change",), ("declare",)],
)
def test_usage_declarations(tags):
    assert policy.declared(pending(ability(tags=tags)))
    assert not policy.declared(pending(ability(tags=("before_break",))))


def test_a_leaving_card_looks_back_only_at_itself():
    card = Card(id="son_kun", name="Son Kun", owner="A", zone="battle")
    assert policy.look_back(card, Event(name="destroyed", card="son_kun"))
    assert not policy.look_back(card, Event(name="destroyed", card="other"))


def test_a_substitution_never_applies_twice_to_one_event():
    effect = pending(ability(kind="replacement"))
    assert policy.blocked(effect, ActivationContext(window="interrupt", series=frozenset({"c.x"})))
    assert policy.blocked(effect, ActivationContext(window="interrupt")) is None


def test_a_when_it_would_interrupt_is_a_substitution_too():
    # "when A would happen, do B, then A": the substitution's second form (issue 36: two of them that
    # destroyed each other nested without end)
    effect = pending(ability(kind="interrupt"))
    assert policy.blocked(effect, ActivationContext(window="interrupt", series=frozenset({"c.x"})))
    assert policy.blocked(effect, ActivationContext(window="interrupt", series=frozenset({"c.y"}))) is None


def test_state_check_destroys_creatures_with_power_zero_or_less():
    result = run(
        """
        cards:
          - {id: weak, owner: A, zone: battle, types: [creature], stats: {power: 1000}}
          - {id: strong, owner: B, zone: battle, types: [creature], stats: {power: 3000}}
          - {id: spell, owner: B, zone: battle, types: [spell]}
        start:
          - power: {card: [weak, strong, spell], by: -2000}
        """,
        DUELMASTERS,
    )
    assert [s.get("cards") for s in result.trace if s.kind == "rules"] == [("weak",)]
    assert result.state.cards["weak"].zone == "graveyard" and result.state.cards["strong"].zone == "battle"
    destroyed = [s for s in result.trace if s.kind == "event" and s.get("event") == "destroyed"]
    assert [(s.get("card"), s.get("by")) for s in destroyed] == [("weak", "rule")]


def test_a_waiting_ability_is_independent_of_its_source():
    result = run(
        """
        cards:
          - id: pm
            owner: A
            zone: battle
            types: [creature]
            stats: {power: 1000}
            abilities:
              - {id: gone, when: {event: destroyed, card: self}, do: [{gain: {counter: n}}]}
              - {id: also, when: {event: destroyed, card: self}, do: [{gain: {counter: n}}]}
        start:
          - destroy: pm
        """,
        DUELMASTERS,
    )
    assert result.keys("resolved") == ["pm.gone", "pm.also"] and result.keys("lost") == []


@pytest.mark.parametrize(
    ("word", "arg", "expected"),
    [
        ("destroy", "x", {"move": {"card": "x", "to": "graveyard", "as": "destroyed"}}),
        (
            "destroy",
            {"card": "x", "by": "battle"},
            {"move": {"card": "x", "to": "graveyard", "as": "destroyed", "by": "battle"}},
        ),
        ("summon", "x", {"move": {"card": "x", "to": "battle", "as": "summoned"}}),
        ("put_into_battle", "x", {"move": {"card": "x", "to": "battle", "as": "put_into_battle"}}),
        (
            "break_shield",
            ["s1", "s2"],
            {"move": {"card": ["s1", "s2"], "to": "hand", "from": "shields", "as": "broken"}},
        ),
        ("tap", "x", {"flag": {"card": "x", "set": "tapped", "as": "tapped"}}),
        ("untap", "x", {"flag": {"card": "x", "clear": "tapped", "as": "untapped"}}),
        ("put_into_mana", "x", {"move": {"card": "x", "to": "mana", "as": "put_into_mana"}}),
        ("return_to_hand", "x", {"move": {"card": "x", "to": "hand", "as": "returned"}}),
        ("discard", "x", {"move": {"card": "x", "to": "graveyard", "from": "hand", "as": "discarded"}}),
        ("add_shield", "x", {"move": {"card": "x", "to": "shields", "as": "shield_added"}}),
        ("cast", "x", {"emit": {"event": "cast", "card": "x"}}),
        ("power", {"card": "x", "by": 3000}, {"change": {"card": "x", "stat": "power", "by": 3000}}),
        (
            "power",
            {"card": "x", "by": -1, "until": "end_of_turn"},
            {"change": {"card": "x", "stat": "power", "by": -1, "until": "end_of_turn"}},
        ),
    ],
)
def test_game_words_expand_to_core_actions(word, arg, expected):
    assert policy.ALIASES[word](arg) == expected


def test_bad_word_arguments_are_named():
    with pytest.raises(ValueError, match="unknown key 'bogus' \\(legal: card, by, label\\)"):
        policy.ALIASES["destroy"]({"card": "x", "bogus": 1})
    with pytest.raises(ValueError, match="expected {card"):
        policy.ALIASES["power"]({"card": "x"})


SEEDS = {
    "rule1-olzekia-savage-earth.yaml": "rule 1",
    "rule2-funk-swine-snout.yaml": "rule 2",
    "rule3-heavens-gate-milzam-first.yaml": "rule 3",
    "rule3-heavens-gate-emeralda-first.yaml": "rule 3",
    "rule4-propeller-mutant-mirror.yaml": "rule 4",
    "rule4-dark-sanji-own-turn.yaml": "rule 4",
    "rule4-dark-sanji-ninja-strike.yaml": "rule 4",
    "rule5-jin-magnum.yaml": "rule 5",
    "rule5-truekaiser-baradios.yaml": "rule 5",
    "rule7-shield-trigger-first.yaml": "rule 7",
    "interactions-aqua-hulcus-fuuma-devil.yaml": "Interactions",
    "interactions-dark-soul-creation-aqua-soldier.yaml": "Interactions",
    "interactions-trigger-vs-effect-condition.yaml": "Interactions",
}
RULE_CASES = range(1, 12)


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_every_seed_example_has_a_scenario_that_asserts_its_order(name):
    data = yaml_file(SCENARIOS / name)
    assert "seeds/duelmasters-trigger-ability.txt" in data["source"] and SEEDS[name] in data["source"]
    assert data["expect"]["duelmasters"]["resolved"] is not None


@pytest.mark.parametrize("number", RULE_CASES)
def test_every_canonical_rule_case_has_a_scenario(number):
    """research/engines.md §4, Duel Masters acceptance examples 1–11."""
    files = [
        p
        for p in SCENARIOS.glob("*.yaml")
        if p.name.startswith(f"cr-{number}-") or f"acceptance example {number} " in yaml_file(p)["source"]
    ]
    assert files, f"no scenario file for acceptance example {number}"
    for path in files:
        assert "duelmasters" in yaml_file(path)["expect"], path.name


def test_the_non_turn_player_declares_after_the_turn_player_processed_theirs():
    """506.3b/c: the turn player declares and processes, then the other player declares."""
    result = tcgtrig.resolve(
        tcgtrig.load_scenario(SCENARIOS / "cr-usage-declarations-turn-player-first.yaml"), "duelmasters"
    )
    order = [(s.kind, s.get("effect")) for s in result.trace if s.kind in ("declared", "resolved")]
    assert order == [
        ("declared", "revolution.change"),
        ("resolved", "revolution.change"),
        ("resolved", "revolution.cip"),
        ("declared", "ninja.strike"),
        ("resolved", "ninja.strike"),
        ("resolved", "ninja.cip"),
    ]


def test_a_strike_back_pays_its_cost_by_discarding_the_broken_card():
    result = tcgtrig.resolve(tcgtrig.load_scenario(SCENARIOS / "rule7-strike-back.yaml"), "duelmasters")
    discards = [s for s in result.trace if s.kind == "event" and s.get("event") == "discarded"]
    assert [(s.get("card"), s.get("by")) for s in discards] == [("fire_shield", "cost")]
    declined = tcgtrig.resolve(
        tcgtrig.load_scenario(SCENARIOS / "rule7-strike-back.yaml"), "duelmasters", choices=["decline"]
    )
    assert declined.keys("declined") == ["sback.strike_back"]
    assert declined.state.cards["fire_shield"].zone == "hand" and declined.keys("resolved") == ["attacker.breaks"]


def test_this_creature_is_a_new_object_once_it_left():
    """110.5a: the waiting +3000 still resolves, but "this creature" is gone
    (Funk and Swine Snout, rule 2): no change lands on the card in the
    graveyard."""
    result = run(
        """
        cards:
          - id: funk
            owner: A
            zone: hand
            types: [creature]
            stats: {power: 2000}
            abilities:
              - {id: static, kind: continuous, active_in: battle,
                 do: [{change: {card: {zone: battle, exclude: self}, stat: power, by: -1000}}]}
          - id: swine
            owner: A
            zone: battle
            types: [creature]
            stats: {power: 1000}
            abilities:
              - {id: boost, when: {event: moved, to: battle, card: other}, do: [{power: {card: self, by: 3000}}]}
        start:
          - summon: funk
        """,
        DUELMASTERS,
    )
    assert result.keys("resolved") == ["swine.boost"]
    assert result.state.cards["swine"].zone == "graveyard" and result.state.cards["swine"].mods == ()
    assert not [s for s in result.trace if s.kind == "event" and s.get("event") == "stat_changed"]


def test_the_tree_shows_the_waiting_pool_its_classes_and_who_chooses():
    from tcgtrig.tools.render import render_text

    result = tcgtrig.resolve(tcgtrig.load_scenario(SCENARIOS / "cr-8-before-break.yaml"), "duelmasters")
    text = render_text(result)
    assert "▲ triggered (class before break, side active): x.before_break#1 (A), x.before_break#2 (A)" in text
    assert (
        "? A chose a_watch.watch#1 (order; among a_watch.watch#1, a_watch.watch#2) · also waiting: "
        "b_one.pig (B, class ordinary, side non-active); b_two.pig (B, class ordinary, side non-active)"
    ) in text
    assert "☑ declared s1.s_trigger" in text and "class shield trigger, side non-active" in text


def test_the_ruleset_page_lists_every_scenario_file_and_word():
    page = (Path(__file__).resolve().parents[3] / "docs" / "duelmasters.md").read_text()
    for path in SCENARIOS.glob("*.yaml"):
        stem = path.stem
        base = stem.removesuffix("-control").removesuffix("-met")
        assert f"`{stem}`" in page or (f"`{base}`" in page and stem != base), f"{path.name} is not listed"
    for word in policy.ALIASES:
        assert f"`{word}`" in page, word
