"""Chain games (``GameInfo.resolution = "chain"``), with a toy ruleset.

The toy game is the smallest policy a Yu-Gi-Oh!-like game needs: SEGOC-like
ranks, the default responder and spell-speed checks, and missing the timing
through ``tcgtrig_check_pending``.  The core does the rest: links in rank
order, response windows, last-in-first-out resolution, and triggers that
wait for the whole chain.
"""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import run, scenario
from tcgtrig import Drop, GameInfo, hookimpl


class ChainGame:
    @hookimpl
    def tcgtrig_game_info(self):
        return GameInfo(name="chainy", title="Chain toy", version="0", resolution="chain")

    @hookimpl
    def tcgtrig_pending_rank(self, state, effect):
        # turn player's mandatory, opponent's mandatory, turn player's optional, opponent's optional
        return ((2 if effect.optional else 0) + (0 if effect.controller == state.turn_player else 1),)

    @hookimpl
    def tcgtrig_check_pending(self, effect, point, last_moment):
        if point == "window" and effect.optional and effect.ability.wording == "when" and effect.moment < last_moment:
            return Drop("missed", "its event was not the last thing to happen")
        return None


def chainy() -> tcgtrig.Ruleset:
    return tcgtrig.load_ruleset("chainy", plugins=(ChainGame(),), autoload=False)


def test_responses_resolve_last_in_first_out():
    result = run(
        """
        cards:
          - id: spell
            owner: A
            zone: hand
            abilities: [{id: main, kind: activated, do: [{gain: {counter: lp, amount: 1}}]}]
          - id: trap
            owner: B
            zone: field
            abilities: [{id: quick, kind: activated, speed: 2, do: [{gain: {counter: lp, amount: 5}}]}]
        start: [{activate: spell.main}]
        """,
        chainy(),
        choices=["trap.quick"],
    )
    assert result.keys("activated") == ["spell.main", "trap.quick"]
    assert result.keys("resolved") == ["trap.quick", "spell.main"]
    links = [(s["chain"], s["chain_link"]) for s in result.trace if s.kind == "resolved"]
    assert links == [(1, 2), (1, 1)]


def test_speed_one_cannot_respond_and_passing_closes_the_window():
    result = run(
        """
        cards:
          - id: spell
            owner: A
            zone: hand
            abilities: [{id: main, kind: activated, do: []}]
          - id: slow
            owner: B
            zone: field
            abilities: [{id: ignition, kind: activated, speed: 1, do: []}]
        start: [{activate: spell.main}]
        """,
        chainy(),
    )
    assert result.keys("activated") == ["spell.main"]
    assert not any(s.kind == "choice" for s in result.trace)  # nothing B could respond with


def test_triggers_wait_for_the_whole_chain_and_form_the_next_one():
    result = run(
        """
        cards:
          - id: spell
            owner: A
            zone: hand
            abilities: [{id: main, kind: activated, do: [{emit: {event: boom}}]}]
          - id: trap
            owner: B
            zone: field
            abilities: [{id: quick, kind: activated, speed: 2, do: [{move: {card: trap, to: grave}}]}]
          - id: a_watch
            owner: A
            zone: field
            abilities: [{id: seen, when: boom, do: []}]
          - id: b_watch
            owner: B
            zone: field
            abilities: [{id: seen, when: boom, optional: true, wording: if, do: []}]
        start: [{activate: spell.main}]
        """,
        chainy(),
        choices=["trap.quick"],
    )
    kinds = [(s.kind, s.get("effect")) for s in result.trace]
    # both links resolved before anything they triggered became pending
    assert kinds.index(("resolved", "spell.main")) < kinds.index(("triggered", "a_watch.seen"))
    # the next chain: mandatory before optional, then last in, first out
    assert result.keys("activated")[2:] == ["a_watch.seen", "b_watch.seen"]
    assert result.keys("resolved")[2:] == ["b_watch.seen", "a_watch.seen"]


def test_an_optional_when_trigger_misses_the_timing_after_then():
    result = run(
        """
        cards:
          - id: victim
            owner: B
            zone: field
            abilities:
              - {id: when_you_can, when: {event: moved, card: self}, optional: true, wording: when, active_in: [field, grave], do: []}
              - {id: if_you_can, when: {event: moved, card: self}, optional: true, wording: if, active_in: [field, grave], do: []}
          - id: spell
            owner: A
            zone: hand
            abilities:
              - id: main
                kind: activated
                do:
                  - move: {card: victim, to: grave}
                  - gain: {counter: lp, amount: 1}
        start: [{activate: spell.main}]
        """,
        chainy(),
    )
    assert result.keys("missed") == ["victim.when_you_can"]
    assert result.keys("resolved") == ["spell.main", "victim.if_you_can"]


def test_a_chain_being_built_is_part_of_the_position():
    """Building a chain changes nothing on the board; the loop detector must
    still see two positions with different chains as different."""
    result = run(
        """
        cards:
          - id: x
            owner: A
            zone: field
            flags: [up]
            abilities:
              - {id: down, kind: activated, do: [{flag: {card: x, clear: up}}]}
              - {id: up, when: {event: flag_cleared, card: self}, do: [{flag: {card: x, set: up}}]}
              - {id: a, when: {event: flag_set, card: self}, do: []}
              - {id: b, when: {event: flag_set, card: self}, do: []}
        start: [{activate: x.down}]
        """,
        chainy(),
    )
    assert result.outcome == "complete"
    assert result.chains() == [["x.down"], ["x.up"], ["x.a", "x.b"]]


def test_after_an_action_that_starts_no_chain_a_player_may_start_one():
    text = """
        cards:
          - {id: mon, owner: A, zone: hand}
          - id: trap
            owner: B
            zone: field
            abilities: [{id: main, kind: activated, speed: 2, when: {event: summoned, player: opponent},
                         do: [{move: {card: event.card, to: gone}}]}]
        start: [{move: {card: mon, to: field, as: summoned}}]
        """
    answered = run(text, chainy(), choices=["trap.main"])
    assert answered.chains() == [["trap.main"]] and answered.state.cards["mon"].zone == "gone"
    asked = [(s.get("decision"), s.get("player"), s.get("label")) for s in answered.trace if s.kind == "choice"]
    assert asked[0] == ("respond", "B", "trap.main")  # A, asked first, had nothing to start a chain with
    passed = run(text, chainy())  # the default chooser passes: nothing happens
    assert passed.chains() == [] and passed.state.cards["mon"].zone == "field"


def test_a_second_chain_started_after_the_first_resolved_is_not_a_loop():
    """Issue 22 item 8: the turn player starts chain 2 in the window after
    chain 1 resolved, then passes in the window after chain 2.  The position
    before and after that pass differ only in whether the window has been
    offered: it is not the same position, and the resolution completes."""
    result = run(
        """
        counters: {A: {lp: 8000}, B: {lp: 8000}}
        cards:
          - id: x
            owner: A
            zone: field
            abilities: [{id: main, kind: activated, speed: 2, do: [{gain: {counter: lp, amount: 100}}]}]
        start: [{activate: x.main}]
        """,
        chainy(),
        choices=["pass", "x.main"],
    )
    assert result.outcome == "complete", result.reason
    assert result.chains() == [["x.main"], ["x.main"]]
    assert result.state.counter("A", "lp") == 8200
    asked = [(s.get("player"), s.get("label")) for s in result.trace if s.kind == "choice"]
    # chain 1 unanswered; chain 2 started after it; nothing chained to it; the window after it passed
    assert asked == [("A", "pass"), ("A", "x.main"), ("A", "pass"), ("A", "pass")]


def test_whether_the_open_window_was_offered_and_what_may_answer_are_part_of_the_position():
    """The open window for the last thing that happened, before and after it
    was offered, and the events a ``when`` may answer, make different
    positions (loop detection and explore compare them)."""
    engine = tcgtrig.Engine.for_scenario(
        scenario("""
        cards:
          - id: x
            owner: A
            zone: field
            abilities: [{id: main, kind: activated, speed: 2, do: []}]
        start: [{gain: {counter: lp, amount: 1}}]
        """),
        chainy(),
    )
    machine = engine.machine
    machine.last_events = (tcgtrig.Event(name="gained", player="A"),)
    before = machine.position()
    machine.answered_moment = machine.last_moment
    offered = machine.position()
    machine.last_events = (tcgtrig.Event(name="drawn", player="A"),)
    assert len({before, offered, machine.position()}) == 3


# -- when what triggers while a chain resolves goes on (GameInfo.chain_triggers; issue 23, item 2) ----------

ON_TOP = """format: 1
title: a trigger raised while a chain resolves
players: [A, B]
turn_player: A
cards:
  - {id: p, owner: A, zone: field, abilities: [{id: go, when: {event: ping}, do: [{gain: {counter: p}}]}]}
  - {id: q, owner: B, zone: field, abilities: [{id: go, when: {event: ping}, do: [{emit: {event: pong}}]}]}
  - {id: r, owner: A, zone: field, abilities: [{id: go, when: {event: pong}, do: [{gain: {counter: r}}]}]}
start:
  - emit: {event: ping}
"""


def test_a_trigger_raised_mid_chain_waits_for_the_chain_or_goes_on_top():
    import attrs
    from tcgtrig import hookimpl
    from tcgtrig.plugins.yugioh import GAME_INFO
    from tcgtrig.scenario.reading import scenario_from_text

    class OnTop:  # Magic's rule (CR 603.3): on top of what is left, before the next link
        @hookimpl(tryfirst=True)
        def tcgtrig_game_info(self):
            return attrs.evolve(GAME_INFO, chain_triggers="on_top")

    scene = scenario_from_text(ON_TOP, "on-top.yaml")
    segoc = tcgtrig.resolve(scene, "yugioh")
    assert segoc.keys("resolved") == ["q.go", "p.go", "r.go"]  # r waits for the whole chain: a chain of its own
    assert [s.get("chain") for s in segoc.trace if s.kind == "activated"] == [1, 1, 2]
    stack = tcgtrig.resolve(scene, tcgtrig.load_ruleset("yugioh", plugins=[OnTop()]))
    assert stack.keys("resolved") == ["q.go", "r.go", "p.go"]  # r goes on top of p, on the same chain
    assert [s.get("chain") for s in stack.trace if s.kind == "activated"] == [1, 1, 1]


def test_an_unknown_chain_triggers_value_names_the_legal_ones():
    import attrs
    from tcgtrig import hookimpl
    from tcgtrig.base.errors import PluginError
    from tcgtrig.plugins.yugioh import GAME_INFO

    class Odd:
        @hookimpl(tryfirst=True)
        def tcgtrig_game_info(self):
            return attrs.evolve(GAME_INFO, chain_triggers="sideways")

    with pytest.raises(PluginError, match="unknown chain_triggers 'sideways' \\(legal: after_chain, on_top\\)"):
        tcgtrig.load_ruleset("yugioh", plugins=[Odd()])
