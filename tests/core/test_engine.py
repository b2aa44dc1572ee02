"""The resolution loop, with the core defaults (no game policy).

The ``plain`` ruleset implements only ``tcgtrig_game_info``: turn player
first, oldest batch first, nothing lost, no rules processing.  Every test
asserts what resolved, in which order, and the end state.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import tcgtrig
from helpers import run, scenario
from tcgtrig import ScriptedChooser

DIGIMON_SCENARIOS = Path(__file__).parents[1] / "scenarios" / "digimon"


def test_start_is_one_effect_and_triggers_wait_for_it(plain):
    result = run(
        """
        cards:
          - id: watcher
            owner: A
            zone: battle
            abilities:
              - id: count
                when: {event: gained, player: self, counter: memory}
                do: [{gain: {counter: seen}}]
        start:
          - gain: {counter: memory}
          - gain: {counter: memory}
        """,
        plain,
    )
    # two sequential gains are two moments: the ability triggers twice, after both
    kinds = [s.kind for s in result.trace]
    assert kinds.index("triggered") > max(
        i for i, s in enumerate(result.trace) if s.kind == "event" and s.get("cause") == 0
    )
    assert result.keys("resolved") == ["watcher.count", "watcher.count"]
    assert result.state.counter("A", "seen") == 2


def test_together_is_one_moment_so_one_trigger(plain):
    result = run(
        """
        cards:
          - {id: x, owner: B, zone: battle}
          - {id: y, owner: B, zone: battle}
          - id: watcher
            owner: A
            zone: battle
            abilities:
              - id: count
                when: {event: deleted, player: opponent}
                do: [{gain: {counter: hits, amount: {count: event.card}}}]
        start:
          - together:
              - move: {card: x, to: trash, as: deleted}
              - move: {card: y, to: trash, as: deleted}
        """,
        plain,
    )
    assert result.keys("resolved") == ["watcher.count"]
    assert result.state.counter("A", "hits") == 2  # one trigger, both cards in its event


def test_query_without_pick_moves_all_matches_at_once(plain):
    result = run(
        """
        cards:
          - {id: x, owner: B, zone: battle}
          - {id: y, owner: B, zone: battle}
          - id: watcher
            owner: A
            zone: battle
            abilities:
              - id: count
                when: {event: moved, to: trash}
                do: [{gain: {counter: hits}}]
        start:
          - move: {card: {zone: battle, owner: opponent}, to: trash}
        """,
        plain,
    )
    assert result.keys("resolved") == ["watcher.count"]
    assert result.state.cards["x"].zone == result.state.cards["y"].zone == "trash"


def test_turn_player_first_then_opponent_by_default(plain):
    result = run(
        """
        cards:
          - id: b1
            owner: B
            zone: battle
            abilities: [{id: go, when: {event: ping}, do: [{gain: {counter: n}}]}]
          - id: a1
            owner: A
            zone: battle
            abilities: [{id: go, when: {event: ping}, do: [{gain: {counter: n}}]}]
        start:
          - emit: {event: ping}
        """,
        plain,
    )
    assert result.keys("resolved") == ["a1.go", "b1.go"]


def test_scripted_order_and_duplicate_labels(plain):
    text = """
        cards:
          - id: twice
            owner: A
            zone: battle
            abilities:
              - id: note
                when: {event: gained, player: self, counter: memory}
                do: [{gain: {counter: got, amount: {count: event.card}}}]
          - id: rival
            owner: A
            zone: battle
            abilities: [{id: go, when: {event: gained, counter: memory}, do: []}]
        start:
          - gain: {counter: memory}
        """
    result = run(text, plain, choices=["rival.go"])
    assert result.keys("resolved") == ["rival.go", "twice.note"]
    # the default chooser takes the earliest-triggered effect
    assert run(text, plain).keys("resolved") == ["twice.note", "rival.go"]


def test_same_key_twice_is_labelled_with_a_number(plain):
    result = run(
        """
        cards:
          - id: w
            owner: A
            zone: battle
            abilities:
              - id: note
                when: {event: ping}
                do: [{gain: {counter: seen}}]
          - id: filler
            owner: A
            zone: battle
        start:
          - emit: {event: ping}
          - emit: {event: ping}
        """,
        plain,
        choices=["w.note#2"],
    )
    choice = next(s for s in result.trace if s.kind == "choice")
    assert choice["options"] == ("w.note#1", "w.note#2")
    resolved_ids = [s["id"] for s in result.trace if s.kind == "resolved"]
    assert resolved_ids == sorted(resolved_ids, reverse=True)  # the second instance went first


def test_optional_effect_declined_is_recorded(plain):
    result = run(
        """
        cards:
          - id: may
            owner: A
            zone: battle
            abilities:
              - {id: go, optional: true, when: {event: ping}, do: [{gain: {counter: n}}]}
        start: [{emit: {event: ping}}]
        """,
        plain,
        choices=["decline"],
    )
    assert result.keys("declined") == ["may.go"]
    assert result.keys("resolved") == []
    assert result.state.counter("A", "n") == 0


def test_condition_fails_and_spends_no_once_per_turn(plain):
    result = run(
        """
        cards:
          - id: opt
            owner: A
            zone: battle
            abilities:
              - id: go
                once_per_turn: true
                when: {event: ping}
                condition: {player: self, counter: memory, gte: 1}
                do: [{gain: {counter: n}}]
        start:
          - emit: {event: ping}
          - gain: {counter: memory}
          - emit: {event: ping}
        """,
        plain,
    )
    # both triggers were pending when memory was already 1: the first activates,
    # the second finds its once-per-turn spent
    assert result.keys("resolved") == ["opt.go"]
    assert result.keys("failed") == ["opt.go"]
    failed = next(s for s in result.trace if s.kind == "failed")
    assert "once per turn" in failed["reason"]
    assert result.state.used == {"opt.go": 1}


def test_failed_condition_keeps_once_per_turn_available(plain):
    result = run(
        """
        cards:
          - id: opt
            owner: A
            zone: battle
            abilities:
              - id: go
                once_per_turn: true
                when: {event: ping}
                condition: {card: opt, flag: ready}
                do: [{gain: {counter: n}}]
        start: [{emit: {event: ping}}]
        """,
        plain,
    )
    assert result.keys("failed") == ["opt.go"]
    assert result.state.used == {}


def test_every_triggered_effect_ends_exactly_once(plain):
    result = run(
        """
        cards:
          - id: a
            owner: A
            zone: battle
            abilities:
              - {id: one, when: {event: ping}, do: [{emit: {event: pong}}]}
              - {id: two, optional: true, when: {event: ping}, do: []}
              - {id: three, when: {event: pong}, condition: {card: a, flag: never}, do: []}
        start: [{emit: {event: ping}}]
        """,
        plain,
        choices=["a.one", "decline"],
    )
    triggered = [s["id"] for s in result.trace if s.kind == "triggered"]
    ended = [s["id"] for s in result.trace if s.kind in tcgtrig.model.trace.OUTCOME_KINDS]
    assert sorted(triggered) == sorted(ended)
    assert len(ended) == len(set(ended)) == 3


def test_leave_the_zone_trigger_looks_back(plain):
    result = run(
        """
        cards:
          - id: mon
            owner: A
            zone: battle
            abilities:
              - {id: on_deletion, when: {event: deleted, card: self}, do: [{gain: {counter: n}}]}
              - {id: other_left, when: {event: moved, card: other}, do: [{gain: {counter: seen}}]}
          - {id: other_card, owner: A, zone: battle}
        start:
          - together:
              - move: {card: mon, to: trash, as: deleted}
              - move: {card: other_card, to: trash}
        """,
        plain,
    )
    # as it was just before the move, mon saw its own deletion and the other card leaving with it
    assert result.keys("resolved") == ["mon.on_deletion", "mon.other_left"]
    assert (result.state.counter("A", "n"), result.state.counter("A", "seen")) == (1, 1)


def test_inherited_ability_belongs_to_the_top_cards_controller(plain):
    result = run(
        """
        cards:
          - {id: top, owner: B, zone: battle}
          - id: src
            owner: A
            zone: sources
            under: top
            abilities:
              - {id: go, when: {event: attacking, card: self}, do: [{gain: {counter: n}}]}
        start: [{emit: {event: attacking, card: top}}]
        """,
        plain,
    )
    step = next(s for s in result.trace if s.kind == "resolved")
    assert step["player"] == "B"
    assert result.state.counter("B", "n") == 1


def test_cards_under_a_moving_card_go_with_it_by_default(plain):
    result = run(
        """
        cards:
          - {id: top, owner: A, zone: battle}
          - {id: src, owner: A, zone: sources, under: top}
        start: [{move: {card: top, to: hand}}]
        """,
        plain,
    )
    assert result.state.cards["src"].zone == "hand"
    assert result.state.cards["src"].under is None


def test_stack_puts_a_card_on_top(plain):
    result = run(
        """
        cards:
          - {id: old, owner: A, zone: battle, flags: [suspended]}
          - {id: src, owner: A, zone: sources, under: old}
          - id: new
            owner: A
            zone: hand
            abilities:
              - {id: when_digivolving, when: {event: digivolved, card: self}, do: [{gain: {counter: n}}]}
        start: [{stack: {card: new, onto: old, as: digivolved}}]
        """,
        plain,
    )
    state = result.state
    assert (state.cards["new"].zone, state.cards["old"].zone, state.cards["old"].under) == ("battle", "sources", "new")
    assert state.cards["new"].flags == {"suspended"}
    assert state.top("src").id == "new"
    assert result.keys("resolved") == ["new.when_digivolving"]


def test_interrupt_prevents_the_action_and_its_triggers_wait(plain):
    result = run(
        """
        cards:
          - id: mon
            owner: A
            zone: battle
            abilities:
              - id: save
                kind: interrupt
                when: {event: deleted, card: self}
                do: [{gain: {counter: saved}}, {prevent: {}}]
              - {id: on_deletion, when: {event: deleted, card: self}, do: []}
          - id: watcher
            owner: A
            zone: battle
            abilities:
              - {id: seen, when: {event: gained, counter: saved}, do: []}
        start:
          - move: {card: mon, to: trash, as: deleted}
          - emit: {event: after}
        """,
        plain,
    )
    kinds = [(s.kind, s.get("effect") or s.get("event")) for s in result.trace]
    assert ("prevented", "mon.save") in kinds
    assert result.state.cards["mon"].zone == "battle"
    # the interrupt's own gain triggered watcher, but only after the start effect finished
    triggered_at = kinds.index(("triggered", "watcher.seen"))
    assert triggered_at > kinds.index(("event", "after"))
    assert result.keys("resolved") == ["mon.save", "watcher.seen"]


def test_replacement_applies_without_activation(plain):
    result = run(
        """
        cards:
          - id: wall
            owner: B
            zone: battle
            abilities:
              - {id: block, kind: replacement, when: {event: gained, player: opponent}, do: [{prevent: {}}]}
        start: [{gain: {counter: memory, amount: 3}}]
        """,
        plain,
    )
    assert result.keys("applied") == ["wall.block"]
    assert result.keys("resolved") == []
    assert result.state.counter("A", "memory") == 0


def test_may_and_did_conditions(plain):
    text = """
        cards:
          - {id: fodder, owner: A, zone: hand}
          - id: mon
            owner: A
            zone: battle
            abilities:
              - id: pay_or_stay
                when: {event: ping}
                do:
                  - may: [{move: {card: {zone: hand, owner: self, pick: 1}, to: trash, label: paid}}]
                  - if: {did: paid}
                    then: [{gain: {counter: paid}}]
                    else: [{gain: {counter: unpaid}}]
        start: [{emit: {event: ping}}]
        """
    paid = run(text, plain, choices=["use"])
    assert (paid.state.counter("A", "paid"), paid.state.cards["fodder"].zone) == (1, "trash")
    unpaid = run(text, plain, choices=["decline"])
    assert (unpaid.state.counter("A", "unpaid"), unpaid.state.cards["fodder"].zone) == (1, "hand")


def test_pick_asks_the_acting_player_and_upto_can_stop(plain):
    text = """
        cards:
          - {id: x, owner: B, zone: battle}
          - {id: y, owner: B, zone: battle}
          - {id: z, owner: B, zone: battle}
        start:
          - move: {card: {zone: battle, owner: opponent, pick: 2, upto: true}, to: trash}
        """
    two = run(text, plain, choices=["z", "x"])
    assert sorted(c.id for c in two.state.in_zone("trash")) == ["x", "z"]
    one = run(text, plain, choices=["y", "none"])
    assert [c.id for c in one.state.in_zone("trash")] == ["y"]


def test_pick_with_no_more_matches_than_needed_asks_nothing(plain):
    result = run(
        """
        cards:
          - {id: x, owner: B, zone: battle}
        start: [{move: {card: {zone: battle, owner: opponent, pick: 1}, to: trash}}]
        """,
        plain,
        chooser=ScriptedChooser([]),
    )
    assert result.state.cards["x"].zone == "trash"
    assert not any(s.kind == "choice" for s in result.trace)


def test_continuous_ability_changes_stats_while_it_holds(plain):
    result = run(
        """
        cards:
          - {id: mon, owner: A, zone: battle, stats: {dp: 1000}}
          - id: aura
            owner: A
            zone: battle
            abilities:
              - id: boost
                kind: continuous
                condition: {card: mon, flag: suspended}
                do: [{change: {card: mon, stat: dp, by: 2000}}]
        start:
          - flag: {card: mon, set: suspended}
        """,
        plain,
    )
    assert result.stat("mon", "dp") == 3000
    assert result.to_dict()["stats"]["mon"] == {"dp": 3000}


def test_activate_applies_another_ability_inline(plain):
    result = run(
        """
        cards:
          - id: spell
            owner: A
            zone: hand
            abilities:
              - {id: main, kind: activated, do: [{gain: {counter: memory, amount: 2}}]}
          - id: watcher
            owner: A
            zone: battle
            abilities: [{id: seen, when: {event: gained}, do: []}]
        start:
          - activate: spell.main
          - move: {card: spell, to: trash}
        """,
        plain,
    )
    assert result.keys("resolved") == ["spell.main", "watcher.seen"]
    assert result.state.counter("A", "memory") == 2


@pytest.mark.slow
def test_a_100000_deep_chain_of_nested_triggers_completes():
    result = run(
        """
        cards:
          - id: engine
            owner: A
            zone: battle
            abilities:
              - id: again
                when: {event: gained, player: self}
                condition: {player: self, counter: depth, lt: 100000}
                do: [{gain: {counter: depth}}]
        start: [{gain: {counter: depth}}]
        """,
        "digimon",
    )  # not memory: Digimon's memory gauge stops at 10
    assert result.outcome == "complete"
    assert result.state.counter("A", "depth") == 100_000
    assert len(result.keys("resolved")) == 99_999
    assert max(s.get("priority", 0) for s in result.trace) == 100_000
    assert sys.getrecursionlimit() < 100_000  # the depth was not bought with the recursion limit


def test_endless_loop_ends_in_a_draw_with_a_message(plain):
    result = run(
        """
        cards:
          - id: flip
            owner: A
            zone: battle
            abilities:
              - {id: up, when: {event: flag_set}, do: [{flag: {card: flip, clear: suspended}}]}
              - {id: down, when: {event: flag_cleared}, do: [{flag: {card: flip, set: suspended}}]}
        start: [{flag: {card: flip, set: suspended}}]
        """,
        plain,
    )
    assert result.outcome == "draw"
    assert "endless loop" in result.reason
    assert result.trace[-1].kind == "ended"


def test_unbounded_growth_stops_at_the_step_limit(plain):
    result = run(
        """
        cards:
          - id: grow
            owner: A
            zone: battle
            abilities:
              - {id: more, when: {event: gained}, do: [{gain: {counter: memory}}]}
        start: [{gain: {counter: memory}}]
        """,
        plain,
        max_steps=500,
    )
    assert result.outcome == "draw"
    assert "500" in result.reason
    assert result.state.counter("A", "memory") < 600


def test_same_input_gives_the_same_trace_byte_for_byte(plain):
    import json

    text = """
        cards:
          - id: a
            owner: A
            zone: battle
            abilities:
              - {id: x, when: {event: ping}, do: [{emit: {event: pong}}]}
              - {id: y, when: {event: ping}, do: [{gain: {counter: n}}]}
              - {id: z, when: {event: pong}, do: [{gain: {counter: n}}]}
        start: [{emit: {event: ping}}]
        """
    first = json.dumps(run(text, plain, choices=["a.y"]).to_dict())
    second = json.dumps(run(text, plain, choices=["a.y"]).to_dict())
    assert first == second


def test_engine_can_be_driven_step_by_step_and_copied(plain):
    compiled = scenario("""
        cards:
          - id: a
            owner: A
            zone: battle
            abilities:
              - {id: x, when: {event: ping}, do: [{gain: {counter: x}}]}
              - {id: y, when: {event: ping}, do: [{gain: {counter: y}}]}
        start: [{emit: {event: ping}}]
        """).compile(plain)
    engine = tcgtrig.Engine(plain, compiled.state, compiled.start)
    decision = engine.advance()
    assert decision.kind == "order" and list(decision.options) == ["a.x", "a.y"]
    branch = engine.copy()
    engine.answer("a.x")
    branch.answer("a.y")
    assert engine.advance() is None and branch.advance() is None
    first = [s["effect"] for s in engine.trace if s.kind == "resolved"]
    second = [s["effect"] for s in branch.trace if s.kind == "resolved"]
    assert (first, second) == (["a.x", "a.y"], ["a.y", "a.x"])
    assert engine.state is not branch.state


def test_answer_must_be_legal(plain):
    compiled = scenario("""
        cards:
          - id: a
            owner: A
            zone: battle
            abilities:
              - {id: x, when: {event: ping}, do: []}
              - {id: y, when: {event: ping}, do: []}
        start: [{emit: {event: ping}}]
        """).compile(plain)
    engine = tcgtrig.Engine(plain, compiled.state, compiled.start)
    engine.advance()
    with pytest.raises(tcgtrig.ChoiceError) as info:
        engine.answer("a.z")
    assert "a.x" in str(info.value) and "a.y" in str(info.value)


def test_taking_a_card_out_of_a_pile_leaves_the_rest_in_place(plain):
    result = run(
        """
        cards:
          - {id: old, owner: A, zone: battle}
          - {id: bottom, owner: A, zone: sources, under: old}
          - {id: new, owner: A, zone: hand}
        start:
          - stack: {card: new, onto: old}
          - move: {card: old, to: trash}
          - move: {card: {zone: sources, under: new}, to: hand}
        """,
        plain,
    )
    state = result.state
    # "old" was covered by "new", then taken out: "bottom" stayed in the pile under "new",
    # and a query for cards under "new" finds it at any depth
    assert state.cards["old"].zone == "trash"
    assert state.cards["bottom"].zone == "hand"
    moved = [s["card"] for s in result.trace if s.kind == "event" and s.get("to") == "hand"]
    assert moved == ["bottom"]


def test_a_middle_card_keeps_its_place_in_the_pile(plain):
    result = run(
        """
        cards:
          - {id: old, owner: A, zone: battle}
          - {id: bottom, owner: A, zone: sources, under: old}
          - {id: new, owner: A, zone: hand}
        start:
          - stack: {card: new, onto: old}
          - move: {card: old, to: trash}
        """,
        plain,
    )
    assert result.state.cards["bottom"].zone == "sources"
    assert result.state.top("bottom").id == "new"


def test_a_finite_cascade_that_looks_alike_is_not_a_loop(plain):
    # the second ping is about another card: the same effect key, a different
    # triggering event, and the cascade ends
    result = run(
        """
        cards:
          - {id: p, owner: A, zone: battle}
          - {id: s, owner: A, zone: hand}
          - id: w
            owner: A
            zone: battle
            abilities:
              - id: echo
                when: {event: ping}
                do:
                  - if: {card: event.card, in: hand}
                    then: []
                    else: [{emit: {event: ping, card: s}}]
        start: [{emit: {event: ping, card: p}}]
        """,
        plain,
    )
    assert result.outcome == "complete"
    assert result.keys("resolved") == ["w.echo", "w.echo"]


def test_what_is_pending_when_a_loop_ends_is_lost(plain):
    result = run(
        """
        cards:
          - id: grow
            owner: A
            zone: battle
            abilities:
              - {id: more, when: {event: gained}, do: [{gain: {counter: memory}}]}
              - {id: also, when: {event: gained}, do: []}
        start: [{gain: {counter: memory}}]
        """,
        plain,
        max_steps=5,
    )
    assert result.outcome == "draw"
    triggered = {s["id"] for s in result.trace if s.kind == "triggered"}
    ended = [s["id"] for s in result.trace if s.kind in tcgtrig.model.trace.OUTCOME_KINDS]
    assert sorted(ended) == sorted(triggered)  # every triggered effect still ends exactly once
    assert result.trace[-1].kind == "ended" and result.trace[-2].kind == "lost"


def test_a_repeated_position_reports_the_cycle_length(plain):
    result = run(
        """
        cards:
          - id: flip
            owner: A
            zone: battle
            abilities:
              - {id: up, when: {event: flag_set}, do: [{flag: {card: flip, clear: lit}}]}
              - {id: down, when: {event: flag_cleared}, do: [{flag: {card: flip, set: lit}}]}
        start: [{flag: {card: flip, set: lit}}]
        """,
        plain,
    )
    assert "came back after 2 steps" in result.reason


def test_step_boundaries_in_a_row_are_not_an_endless_loop(plain):
    result = run(
        """
        cards: []
        start: [{resolve_pending: {}}, {resolve_pending: {}}, {resolve_pending: {}}, {end_turn: {}}]
        """,
        plain,
    )
    assert result.outcome == "complete" and result.state.turn_player == "B"


def test_a_resolution_gives_its_trace_as_a_dict_and_as_json_text(plain):
    import json as _json

    result = run("cards: []\nstart: [{gain: {counter: n}}]\n", plain)
    assert result.to_dict()["format"] == 1
    lazy = result.to_dict(lazy=True)  # the steps made as they are written
    assert {**lazy, "steps": list(lazy["steps"])} == result.to_dict()
    assert _json.loads(result.json_text()) == result.to_dict()


def test_effect_labels_read_well():
    from helpers import ability, pending
    from tcgtrig.choices import EffectLabels

    labels = EffectLabels({i: pending(ability(), id=i, key=f"c{i}.x") for i in range(1, 9)})
    assert repr(labels).startswith("EffectLabels([c1.x, c2.x") and "(8 in all)" in repr(labels)


def test_help_on_the_engine_shows_its_public_methods_not_its_working_parts():
    import pydoc

    text = pydoc.render_doc(tcgtrig.Engine, renderer=pydoc.plaintext)
    for public in ("advance(", "answer(", "run(", "copy(", "result(", "for_scenario(", "pending", "decision"):
        assert public in text
    for internal in ("chain_keys", "last_moment", "resolving_link", "take_answer", "open_window", "frames"):
        assert internal not in text
    signature = text.splitlines()[3]
    assert "Engine(ruleset: 'Ruleset', state: 'GameState', start" in signature and "pool" not in signature


def test_a_hand_stepped_engine_gives_a_resolution_like_resolve():
    from tcgtrig.tools.render import render_text

    scenario = tcgtrig.load_scenario(DIGIMON_SCENARIOS / "triggered-01.yaml")
    engine = tcgtrig.Engine.for_scenario(scenario, "digimon")
    assert repr(engine).startswith("<Engine digimon 'Digimon triggered effects, example 1")
    asked = []
    while (decision := engine.advance()) is not None:
        asked.append(decision.options[-1])
        engine.answer(decision.options[-1])
    result = engine.result()
    again = tcgtrig.resolve(scenario, "digimon", choices=asked)
    assert result.keys("resolved") == again.keys("resolved") and len(result.keys("resolved")) == 6
    assert result.json_text() == again.json_text()
    assert "Moved: garurumon sources → battle" in render_text(result)


def test_an_engine_built_from_a_bare_state_notes_where_its_cards_started():
    digimon = tcgtrig.load_ruleset("digimon")
    compiled = tcgtrig.load_scenario(DIGIMON_SCENARIOS / "triggered-01.yaml").compile(digimon)
    engine = tcgtrig.Engine(digimon, compiled.state, compiled.start)  # the engine changes this state
    result = engine.run(tcgtrig.DefaultChooser()).result()
    assert result.compiled.state.cards["garurumon"].zone == "sources"
    assert result.state.cards["garurumon"].zone == "battle"


def test_the_pile_up_guard_reads_the_pool_and_the_declarations_where_the_position_holds_them():
    # the guards leave parts of Machine.position() out by their place in it: a new part must move the places
    from tcgtrig.runtime.machine import _COUNTERS_AT, _DUE_AT, _POOL_AT

    engine = tcgtrig.Engine.for_scenario(
        tcgtrig.load_scenario(Path(__file__).parents[1] / "scenarios" / "digimon" / "triggered-01.yaml")
    )
    assert engine.advance() is not None and len(engine.pending) > 1
    machine = engine.machine
    position = machine.position()
    assert position[_COUNTERS_AT] == machine.counters_now()
    assert position[_POOL_AT] == machine.pool.fingerprint()
    assert position[_DUE_AT] == tuple(sorted((p, len(ids)) for p, ids in machine.due.items()))
