"""The Yu-Gi-Oh! ruleset: its policy functions one by one, its variants, its
words, and the coverage of the research cases and seed examples."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import tcgtrig
from attrs import evolve
from helpers import ability, pending, run, yaml_file
from tcgtrig import ActivationContext, Card, Event, GameState
from tcgtrig.plugins.yugioh import policy

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "yugioh"


@pytest.fixture
def state() -> GameState:
    return GameState.build(
        ("A", "B"),
        "A",
        [
            Card(id="c", name="Sangan", owner="A", zone="graveyard"),
            Card(id="h", name="Illusion Snatch", owner="A", zone="hand"),
        ],
    )


def test_segoc_groups(state):
    tp_mandatory = pending(ability(), controller="A")
    ntp_mandatory = pending(ability(), controller="B")
    tp_optional = pending(ability(optional=True), controller="A")
    ntp_optional = pending(ability(optional=True), controller="B")
    ranked = sorted([ntp_optional, tp_optional, ntp_mandatory, tp_mandatory], key=lambda e: policy.rank(state, e))
    assert ranked == [tp_mandatory, ntp_mandatory, tp_optional, ntp_optional]
    assert [policy.details(state, e)["group"] for e in ranked] == list(policy.GROUPS)


def test_goat_puts_the_earliest_trigger_first_within_a_segoc_group(state):
    early, late = pending(ability(), moment=1), pending(ability(), moment=2)
    assert policy.rank_trigger_first(state, early) < policy.rank_trigger_first(state, late)
    assert policy.goat_order_rule(state, early, late) is not None
    # issue 37 item 7: across groups SEGOC still decides, in GOAT as now
    early_optional = pending(ability(optional=True), moment=1)
    assert policy.rank_trigger_first(state, early_optional) > policy.rank_trigger_first(state, late)
    assert policy.rank(state, early_optional) > policy.rank(state, late)
    assert policy.goat_order_rule(state, late, early_optional) is None


@pytest.mark.parametrize(
    ("fields", "missed"),
    [
        ({"optional": True, "wording": "when"}, True),
        ({"optional": True, "wording": "if"}, False),
        ({"optional": False, "wording": "when"}, False),
    ],
)
def test_only_optional_when_effects_miss_the_timing(fields, missed):
    effect = pending(ability(**fields), moment=3)
    assert (policy.missed(effect, "window", last_moment=4) is not None) == missed
    assert policy.missed(effect, "window", last_moment=3) is None  # its event was the last thing
    assert policy.missed(effect, "admission", last_moment=4) is None


def test_the_pending_check_is_moved_away_then_missed(state):
    kinds, flags, wordings, incarnations, points = (
        ("triggered", "activated"),
        (True, False),
        ("when", "if"),
        (0, 1),
        (
            "admission",
            "window",
            "activation",
        ),
    )
    drops = 0
    for kind, optional, wording, incarnation, granted, point in itertools.product(
        kinds, flags, wordings, incarnations, flags, points
    ):
        effect = pending(ability(kind=kind, optional=optional, wording=wording), moment=3, incarnation=incarnation)
        if granted:
            effect = evolve(effect, granted=True)
        expected = policy.moved_away(state, effect) or policy.missed(effect, point, last_moment=4)
        found = policy.check_pending(state, effect, point, last_moment=4)
        assert (found and (found.kind, found.reason)) == (expected and (expected.kind, expected.reason))
        drops += expected is not None
    assert drops == 15  # lost: 12 triggers of another copy, not gained; missed: 3 more


def test_a_miss_during_a_cost_says_so():
    effect = pending(ability(optional=True), moment=3, events=(Event(name="tributed", card="c", by="cost"),))
    drop = policy.missed(effect, "window", last_moment=5)
    assert drop.kind == "missed" and "while a cost was paid" in drop.reason


def test_a_trigger_whose_card_changed_location_is_lost(state):
    # Sangan ("c") is in the GY as incarnation 0, where its trigger was met
    assert policy.moved_away(state, pending(ability(), incarnation=0)) is None
    drop = policy.moved_away(state, pending(ability(), incarnation=1))  # it triggered as another copy
    assert drop is not None and drop.kind == "lost" and "now: graveyard" in drop.reason
    # an activated effect is not a trigger: where its card went is the chain's business
    assert policy.moved_away(state, pending(ability(kind="activated"), incarnation=1)) is None


def test_soft_once_per_turn_is_per_card_copy_and_hard_per_name(state):
    soft = pending(ability(once_per_turn=True), incarnation=2)
    assert policy.once_per_turn_key(state, soft) != policy.once_per_turn_key(
        state, pending(ability(once_per_turn=True), incarnation=3)
    )
    hard = pending(ability(once_per_turn=True, tags=("hard_once_per_turn",)), incarnation=2)
    assert (
        policy.once_per_turn_key(state, hard)
        == policy.once_per_turn_key(
            state, pending(ability(once_per_turn=True, tags=("hard_once_per_turn",)), incarnation=5)
        )
        == "A:Sangan:x"
    )


def test_once_per_chain_and_no_second_activation_while_on_the_chain(state):
    on_chain = ActivationContext(window="chain", chain=("c.x",))
    assert "once per chain" in policy.blocked(state, pending(ability(tags=("once_per_chain",))), on_chain)
    assert "already on the chain" in policy.blocked(state, pending(ability(kind="activated")), on_chain)
    assert policy.blocked(state, pending(ability(kind="activated")), ActivationContext(window="chain")) is None
    monster = GameState.build(("A", "B"), "A", [Card(id="c", name="M", owner="A", zone="field", types=("monster",))])
    assert policy.blocked(monster, pending(ability(kind="activated")), on_chain) is None  # a Quick Effect repeats


def test_one_replacement_per_destruction(state):
    replacement = pending(ability(kind="replacement"))
    redirected = ActivationContext(window="interrupt", interrupting=("destroyed",), nested=True)
    assert "one replacement per destruction" in policy.blocked(state, replacement, redirected)
    # the first destruction, and another event a replacement makes: only the same replacement twice is refused
    first = ActivationContext(window="interrupt", interrupting=("destroyed",), series=frozenset({"c.y"}))
    assert policy.blocked(state, replacement, first) is None
    sent = ActivationContext(window="interrupt", interrupting=("moved",), nested=True, series=frozenset({"c.y"}))
    assert policy.blocked(state, replacement, sent) is None
    again = ActivationContext(window="interrupt", interrupting=("moved",), nested=True, series=frozenset({"c.x"}))
    assert "already applied in this series" in policy.blocked(state, replacement, again)


@pytest.mark.parametrize(
    ("speed", "top", "ok"), [(1, 1, False), (2, 1, True), (2, 2, True), (2, 3, False), (3, 3, True), (3, 1, True)]
)
def test_spell_speeds(speed, top, ok):
    chain = [pending(ability(kind="activated", speed=top))]
    assert policy.can_respond(chain, pending(ability(kind="activated", speed=speed))) == ok
    assert policy.can_respond(chain, pending(ability())) is False  # a trigger never responds


def test_ocg_hidden_zone_triggers(state):
    hand = pending(ability(optional=True), card="h", key="h.x")
    assert policy.ocg_offered(state, hand)
    assert not policy.ocg_offered(state, pending(ability(optional=True)))  # in the graveyard: public
    assert not policy.ocg_offered(state, pending(ability(), card="h", key="h.x"))  # mandatory
    on_speed_2 = [pending(ability(kind="activated", speed=2))]
    on_speed_3 = [pending(ability(kind="activated", speed=3))]
    assert policy.ocg_can_respond(on_speed_2, hand) is True and policy.ocg_can_respond(on_speed_3, hand) is False
    assert policy.ocg_can_respond(on_speed_2, pending(ability(kind="activated", speed=2))) is None


def test_variants_load_and_unknown_ones_are_refused():
    assert [tcgtrig.load_ruleset(name).name for name in ("yugioh", "yugioh/tcg", "yugioh/ocg", "yugioh/goat")] == [
        "yugioh",
        "yugioh",
        "yugioh/ocg",
        "yugioh/goat",
    ]
    with pytest.raises(tcgtrig.UnknownGameError, match=r"unknown variant 'yugioh/edison' \(legal: yugioh/tcg, "):
        tcgtrig.load_ruleset("yugioh/edison")


def test_a_spell_sent_away_by_rule_is_not_the_last_thing_to_happen():
    text = """
        counters: {A: {lp: 8000}, B: {lp: 8000}}
        cards:
          - id: hole
            owner: A
            zone: field
            abilities:
              - {id: main, kind: activated,
                 do: [{destroy: {zone: field, types: [monster]}}, {send_to_graveyard: {card: self, by: BY}}]}
          - id: peten
            owner: A
            zone: field
            types: [monster]
            abilities:
              - {id: revive, optional: true, when: {event: destroyed, card: self}, active_in: graveyard, do: []}
        start: [{activate: hole.main}]
        """
    assert run(text.replace("BY", "rule"), "yugioh").keys("resolved") == ["hole.main", "peten.revive"]
    assert run(text.replace("BY", "effect"), "yugioh").keys("missed") == ["peten.revive"]


@pytest.mark.parametrize(
    ("word", "arg", "expected"),
    [
        ("destroy", "x", {"move": {"card": "x", "to": "graveyard", "as": "destroyed"}}),
        (
            "send_to_graveyard",
            {"card": "x", "by": "rule"},
            {"move": {"card": "x", "to": "graveyard", "as": "sent_to_graveyard", "by": "rule"}},
        ),
        ("tribute", "x", {"move": {"card": "x", "to": "graveyard", "as": "tributed"}}),
        ("normal_summon", "x", {"move": {"card": "x", "to": "field", "as": "normal_summoned"}}),
        ("tribute_summon", "x", {"move": {"card": "x", "to": "field", "as": "tribute_summoned"}}),
        ("special_summon", "x", {"move": {"card": "x", "to": "field", "as": "special_summoned"}}),
        ("banish", "x", {"move": {"card": "x", "to": "banished", "as": "banished"}}),
        ("discard", "x", {"move": {"card": "x", "to": "graveyard", "from": "hand", "as": "discarded"}}),
        (
            "set",
            "x",
            # issue 37 item 9: face-down Defense Position, as part of the Set
            {"move": {"card": "x", "to": "field", "as": "set", "flags": ["face_down", "defense_position"]}},
        ),
        ("lp", -500, {"lose": {"counter": "lp", "amount": 500}}),
        ("damage", 500, {"lose": {"player": "opponent", "counter": "lp", "amount": 500}}),
    ],
)
def test_game_words_expand_to_core_actions(word, arg, expected):
    assert policy.ALIASES[word](arg) == expected


def _sources() -> dict[str, str]:
    return {p.name: yaml_file(p)["source"] for p in SCENARIOS.glob("*.yaml")}


@pytest.mark.parametrize("number", range(1, 18))
def test_every_research_case_has_a_scenario(number):
    files = [name for name in _sources() if name.startswith(f"case-{number:02d}-")]
    assert files, f"no scenario file for research case {number}"
    for name in files:
        assert "ygo.md" in _sources()[name] and any(
            k.startswith("yugioh") for k in yaml_file(SCENARIOS / name)["expect"]
        ), name


@pytest.mark.parametrize("card", ["zaborg", "peten", "abysshilde", "flowerbot", "solemn-wishes", "aromage-jasmine"])
def test_every_seed_example_has_a_scenario(card):
    files = [name for name, source in _sources().items() if name.startswith("seed-") and card in name]
    assert files, card
    assert all("yugioh-trigger-effect.txt" in _sources()[name] for name in files)


def test_a_digimon_position_makes_chains_under_yugioh():
    """triggered-04, written in core words: two chains, no false loop while the
    board is unchanged between them (a chain being built is part of the
    position)."""
    path = SCENARIOS.parent / "digimon" / "triggered-04.yaml"
    result = tcgtrig.resolve(tcgtrig.load_scenario(path), "yugioh")
    assert result.outcome == "complete"
    assert result.chains() == [
        ["omnimon.unsuspend", "omnimon.blitz"],
        ["upamon.draw", "veemon.draw", "venommyotismon.memory"],
    ]
    digimon = tcgtrig.resolve(tcgtrig.load_scenario(path), "digimon")
    assert digimon.keys("resolved") != result.keys("resolved")


def test_the_ruleset_page_lists_every_scenario_file_and_word():
    page = (Path(__file__).resolve().parents[3] / "docs" / "yugioh.md").read_text()
    for path in SCENARIOS.glob("*.yaml"):
        stem = path.stem
        base = stem.removesuffix("-declined")
        assert f"`{stem}`" in page or (f"`{base}`" in page and stem != base), f"{path.name} is not listed"
    for word in policy.ALIASES:
        assert f"`{word}`" in page, word


def test_the_tree_draws_each_chain_as_judges_write_it():
    from tcgtrig.tools.render import render_text

    result = tcgtrig.resolve(tcgtrig.load_scenario(SCENARIOS / "case-09-upstart-call-stratos-mst.yaml"), "yugioh")
    lines = render_text(result).splitlines()
    summary = next(i for i, line in enumerate(lines) if "⛓ Chain 1:" in line)  # the game's words (GameInfo.terms)
    assert "CL1 upstart.main (A), CL2 call.main (B), CL3 mst.main (A) — resolves from CL3 down" in lines[summary]
    assert lines[summary].endswith("· the Chain resolves last in, first out (TCG Rulebook v10)")
    resolves = [i for i, line in enumerate(lines) if "◀ resolve Chain 1" in line]
    assert resolves and min(resolves) > summary
    assert ["CL3" in lines[resolves[0]], "CL1" in lines[resolves[-1]]] == [True, True]
    assert any("✗ missed stratos.search" in line and "misses the timing" in line for line in lines)


def test_a_miss_at_chain_link_two_or_higher_says_which_link():
    drop = policy.missed(pending(ability(optional=True), moment=3, link=3), "window", last_moment=5)
    assert "at Chain Link 3, and Chain Link 2 resolved after it" in drop.reason
    result = tcgtrig.resolve(tcgtrig.load_scenario(SCENARIOS / "case-09-upstart-call-stratos-mst.yaml"), "yugioh")
    missed = [s for s in result.trace if s.kind == "missed"]
    assert [(s["effect"], "Chain Link 2" in s["reason"]) for s in missed] == [("stratos.search", True)]
