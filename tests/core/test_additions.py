"""The format's additions on the core defaults: costs, trigger conditions,
step boundaries in the start actions, and one-card-at-a-time draws."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import PlainGame, run, scenario
from tcgtrig import GameInfo, hookimpl

COST = """
    cards:
      - id: spell
        owner: A
        zone: hand
        abilities:
          - id: main
            kind: activated
            cost: [{move: {card: {zone: field, owner: self, pick: 1}, to: pile, as: sacrificed}}]
            do: [{gain: {counter: cards, amount: 3}}]
      - {id: c1, owner: A, zone: field}
      - id: watcher
        owner: B
        zone: side
        abilities:
          - {id: sees, when: {event: sacrificed, by: cost}, do: [{gain: {counter: seen}}]}
    start: [{activate: spell.main}]
    """


def test_cost_is_paid_before_the_effect_and_its_events_are_by_cost(plain):
    result = run(COST, plain)
    order = [
        (s.kind, s.get("effect") or s.get("event"))
        for s in result.trace
        if s.kind in ("activated", "resolved", "event")
    ]
    assert order == [
        ("activated", "spell.main"),
        ("event", "sacrificed"),
        ("resolved", "spell.main"),
        ("event", "gained"),
        ("activated", "watcher.sees"),
        ("resolved", "watcher.sees"),
        ("event", "gained"),
    ]
    assert result.state.cards["c1"].zone == "pile"
    assert result.state.counter("A", "cards") == 3 and result.state.counter("B", "seen") == 1


def test_a_cost_that_cannot_be_paid_fails_the_effect(plain):
    result = run(COST.replace("- {id: c1, owner: A, zone: field}", "- {id: c1, owner: B, zone: field}"), plain)
    assert result.keys("failed") == ["spell.main"]
    assert "cost cannot be paid" in next(s.get("reason") for s in result.trace if s.kind == "failed")
    assert result.state.counter("A", "cards") == 0 and result.state.cards["c1"].zone == "field"


def test_cost_of_a_pending_optional_effect_is_paid_after_use(plain):
    result = run(
        """
        cards:
          - id: x
            owner: A
            zone: field
            abilities:
              - id: pay
                when: ping
                optional: true
                cost: [{lose: {counter: mana, amount: 2}}]
                do: [{gain: {counter: cards}}]
        counters: {A: {mana: 2}}
        start: [{emit: {event: ping}}]
        """,
        plain,
        choices=["use"],
    )
    assert result.keys("resolved") == ["x.pay"]
    assert result.state.counter("A", "mana") == 0 and result.state.counter("A", "cards") == 1
    poor = run(
        """
        cards:
          - id: x
            owner: A
            zone: field
            abilities:
              - {id: pay, when: ping, optional: true, cost: [{lose: {counter: mana, amount: 2}}],
                 do: [{gain: {counter: cards}}]}
        counters: {A: {mana: 1}}
        start: [{emit: {event: ping}}]
        """,
        plain,
    )
    assert poor.keys("failed") == ["x.pay"] and poor.state.counter("A", "mana") == 1


TRIGGER_CONDITION = """
    cards:
      - id: x
        owner: A
        zone: field
        abilities:
          - id: gated
            when: ping
            trigger_condition: {count: {zone: field, owner: self}, gte: 2}
            do: [{gain: {counter: gated}}]
          - id: checked
            when: ping
            condition: {count: {zone: field, owner: self}, gte: 2}
            do: [{gain: {counter: checked}}]
      - {id: y, owner: A, zone: hand}
    start: [{emit: {event: ping}}, {move: {card: y, to: field}}]
    """


def test_trigger_condition_is_checked_when_the_event_happens(plain):
    result = run(TRIGGER_CONDITION, plain)
    # at the ping, A has one card on the field: 'gated' never triggers;
    # 'checked' triggers and its condition holds by the time it activates
    assert result.keys("triggered") == ["x.checked"]
    assert result.keys("resolved") == ["x.checked"]
    assert result.state.counter("A", "checked") == 1 and result.state.counter("A", "gated") == 0
    met = run(TRIGGER_CONDITION.replace("zone: hand}", "zone: field}"), plain)
    assert met.keys("resolved") == ["x.gated", "x.checked"]


STEPS = """
    cards:
      - id: x
        owner: A
        zone: field
        abilities:
          - {id: on_attack, when: attacking, do: [{gain: {counter: order, amount: 1}}]}
          - id: on_hit
            when: hit
            do: [{if: {player: self, counter: order, eq: 1}, then: [{gain: {counter: ok}}]}]
    start:
      - emit: {event: attacking, card: x}
      - resolve_pending: {}
      - emit: {event: hit, card: x}
    """


def test_resolve_pending_lets_waiting_effects_resolve_between_start_steps(plain):
    result = run(STEPS, plain)
    kinds = [(s.kind, s.get("effect") or s.get("event")) for s in result.trace if s.kind in ("resolved", "event")]
    assert kinds == [
        ("event", "attacking"),
        ("resolved", "x.on_attack"),
        ("event", "gained"),
        ("event", "hit"),
        ("resolved", "x.on_hit"),
        ("event", "gained"),
    ]
    assert result.state.counter("A", "ok") == 1
    without = run(STEPS.replace("      - resolve_pending: {}\n", ""), plain)
    kinds = [(s.kind, s.get("effect") or s.get("event")) for s in without.trace if s.kind in ("resolved", "event")]
    assert kinds[:3] == [("event", "attacking"), ("event", "hit"), ("resolved", "x.on_attack")]


def test_resolve_pending_only_in_start(plain):
    with pytest.raises(tcgtrig.ScenarioError) as info:
        scenario("""
            cards:
              - id: x
                owner: A
                zone: field
                abilities: [{id: a, when: ping, do: [{resolve_pending: {}}]}]
            start: [{emit: {event: ping}}]
            """).compile(plain)
    assert "works only in 'start'" in str(info.value) and "resolve_pending" in str(info.value)


class OneByOne(PlainGame):
    @hookimpl
    def tcgtrig_game_info(self) -> GameInfo:
        return GameInfo(name="plain", title="One card at a time", version="0", draw_one_at_a_time=True)


DRAWS = """
    cards:
      - {id: d1, owner: A, zone: deck}
      - {id: d2, owner: A, zone: deck}
      - {id: d3, owner: A, zone: deck}
      - id: w
        owner: B
        zone: side
        abilities: [{id: per_draw, when: drawn, do: [{gain: {counter: draws}}]}]
    start: [{draw: 2}]
    """


def test_draw_one_at_a_time_makes_one_event_per_card(plain):
    together = run(DRAWS, plain)
    one_by_one = run(DRAWS, tcgtrig.load_ruleset("plain", plugins=(OneByOne(),), autoload=False))
    draws = [
        [s.get("cards") for s in r.trace if s.kind == "event" and s.get("event") == "drawn"]
        for r in (together, one_by_one)
    ]
    assert draws == [[("d1", "d2")], [("d1",), ("d2",)]]
    assert together.state.counter("B", "draws") == 1 and one_by_one.state.counter("B", "draws") == 2
    assert one_by_one.state.cards["d2"].zone == "hand" and one_by_one.state.cards["d3"].zone == "deck"


SELF_MOVES = """
    cards:
      - id: x
        owner: A
        zone: field
        abilities:
          - {id: leave, when: ping, do: [{move: {card: self, to: pile}}, {flag: {card: self, set: marked}}]}
          - {id: gone_back, when: {event: moved, card: self, to: pile}, do: [{flag: {card: self, set: found}}]}
      - {id: top, owner: A, zone: hand}
    start: [{emit: {event: ping}}]
    """


def test_self_is_a_new_object_once_it_moved_again(plain):
    result = run(SELF_MOVES, plain)
    # 'leave' moved x: its later "this card" finds nothing; 'gone_back'
    # triggered by that move sees x where the move put it
    assert result.state.cards["x"].zone == "pile"
    assert result.state.cards["x"].flags == frozenset({"found"})


def test_self_follows_its_card_to_the_top_of_a_pile(plain):
    result = run(
        """
        cards:
          - id: x
            owner: A
            zone: field
            abilities:
              - {id: grow, when: ping, do: [{stack: {card: top, onto: self}}, {flag: {card: self, set: marked}}]}
          - {id: top, owner: A, zone: hand}
        start: [{emit: {event: ping}}]
        """,
        plain,
    )
    assert result.state.cards["x"].zone == "sources" and result.state.cards["top"].flags == frozenset({"marked"})


def test_a_pick_made_by_the_opponent(plain):
    text = """
        cards:
          - id: x
            owner: A
            zone: field
            abilities:
              - {id: cut, when: ping, do: [{move: {card: {zone: field, owner: opponent, pick: 1, chooser: opponent},
                                                  to: pile}}]}
          - {id: b1, owner: B, zone: field}
          - {id: b2, owner: B, zone: field}
        start: [{emit: {event: ping}}]
        """
    result = run(text, plain, choices=["b2"])
    picks = [s for s in result.trace if s.kind == "choice" and s.get("decision") == "target"]
    assert [(s.get("player"), s.get("label")) for s in picks] == [("B", "b2")]
    assert result.state.cards["b2"].zone == "pile" and result.state.cards["b1"].zone == "field"
    with pytest.raises(tcgtrig.ScenarioError, match="'chooser' says who picks: it needs 'pick'"):
        scenario(text.replace("pick: 1, ", "")).compile(plain)
