"""Issue 24's words, each shown by what it changes: numbers and queries
(``did``, ``highest``, ``top``), the turn's history (``happened``,
``history``), tokens, targets chosen on activation, negation, ``unaffected``
and more than two players.  Battles are in ``test_hooks.py`` (their hook)
and in the scenario files."""

from __future__ import annotations

import json

import pytest
import tcgtrig
from helpers import PlainGame, plain_ruleset, run
from tcgtrig import GameInfo, hookimpl
from tcgtrig.scenario.serialization import state_from_dict, state_to_dict


def zones(result: tcgtrig.Resolution, *cards: str) -> tuple[str, ...]:
    return tuple(result.state.cards[card].zone for card in cards)


# -- numbers and queries --------------------------------------------------------


def test_did_counts_what_each_labelled_part_of_a_together_moved():
    result = run(
        """
        cards:
          - {id: a1, owner: A, zone: hand}
          - {id: b1, owner: B, zone: hand}
          - {id: b2, owner: B, zone: hand}
        start:
          - together:
              - {move: {card: {zone: hand, owner: self}, to: trash}, label: mine}
              - {move: {card: {zone: hand, owner: opponent}, to: trash}, label: theirs}
          - gain: {player: self, counter: score, amount: {did: theirs}}
          - gain: {player: opponent, counter: score, amount: {did: mine}}
          - gain: {player: self, counter: total, amount: {did: previous}}
        """,
        plain_ruleset(),
    )
    assert (result.state.counter("A", "score"), result.state.counter("B", "score")) == (2, 1)
    assert result.state.counter("A", "total") == 1  # the gain just before changed one counter once


def test_highest_keeps_every_tied_card_and_lowest_the_least():
    result = run(
        """
        cards:
          - {id: low, owner: B, zone: field, stats: {atk: 1}}
          - {id: high1, owner: B, zone: field, stats: {atk: 5}}
          - {id: high2, owner: B, zone: field, stats: {atk: 5}}
          - {id: statless, owner: B, zone: field}
        start:
          - move: {card: {zone: field, highest: atk}, to: gone}
          - move: {card: {zone: field, lowest: atk}, to: least}
        """,
        plain_ruleset(),
    )
    assert zones(result, "high1", "high2", "low", "statless") == ("gone", "gone", "least", "field")


def test_top_keeps_the_first_listed_cards_of_a_zone():
    result = run(
        """
        cards:
          - {id: first, owner: A, zone: pile}
          - {id: second, owner: A, zone: pile}
          - {id: third, owner: A, zone: pile}
        start: [{move: {card: {zone: pile, top: 2}, to: out}}]
        """,
        plain_ruleset(),
    )
    assert zones(result, "first", "second", "third") == ("out", "out", "pile")


# -- the turn's history -----------------------------------------------------------


HISTORY = """
    history: [{event: used, card: opt}]
    cards:
      - {id: opt, owner: A, zone: trash}
      - id: w
        owner: A
        zone: field
        abilities:
          - id: count
            when: {event: ping}
            do:
              - gain: {player: self, counter: seen, amount: {happened: {event: used, player: self}}}
              - if: {happened: {event: pong}, gte: 2}
                then: [{gain: {player: self, counter: twice, amount: 1}}]
    start:
      - emit: {event: used, card: opt}
      - emit: {event: pong}
      - emit: {event: pong}
      - emit: {event: ping}
    """


def test_happened_counts_this_turns_events_including_the_history_given():
    result = run(HISTORY, plain_ruleset())
    assert result.state.counter("A", "seen") == 2  # the listed use and the one in the start
    assert result.state.counter("A", "twice") == 1  # both pongs happened before


def test_the_history_is_forgotten_as_the_turn_passes():
    result = run(
        HISTORY.replace("      - emit: {event: ping}\n", "      - pass_turn: {}\n      - emit: {event: ping}\n"),
        plain_ruleset(),
    )
    assert result.state.counter("A", "seen") == 0 and result.state.counter("A", "twice") == 0


def test_the_history_survives_a_save_and_changes_the_fingerprint():
    ruleset = plain_ruleset()
    state = (
        tcgtrig.scenario_from_text(
            "format: 1\ntitle: t\nplayers: [A, B]\nturn_player: A\n" + HISTORY.replace("\n    ", "\n"), "h.yaml"
        )
        .compile(ruleset)
        .state
    )
    restored = state_from_dict(json.loads(json.dumps(state_to_dict(state))), ruleset)
    assert restored.history == state.history and restored.keep_history
    assert restored.fingerprint() == state.fingerprint()
    fewer = state.copy()
    fewer.forget_history()
    assert fewer.fingerprint() != state.fingerprint()


def test_a_file_no_word_of_which_reads_the_history_keeps_none():
    result = run(
        """
        cards: [{id: c, owner: A, zone: field}]
        start: [{emit: {event: ping}}]
        """,
        plain_ruleset(),
    )
    assert not result.state.keep_history and result.state.history == []


# -- tokens -----------------------------------------------------------------------


class Tokens(PlainGame):
    def __init__(self, arrive: bool) -> None:
        self.arrive = arrive

    @hookimpl
    def tcgtrig_game_info(self) -> GameInfo:
        return GameInfo(
            name="plain",
            title="Tokens",
            version="0",
            tokens_arrive=self.arrive,
            zone_roles={"field": "field", "bin": "discard"},
        )


@pytest.mark.parametrize(("arrive", "to"), [(True, "bin"), (False, "nowhere")])
def test_a_token_leaving_the_field_ceases_to_exist(arrive, to):
    result = run(
        """
        cards:
          - {id: tok, owner: A, zone: field, types: [token]}
          - {id: card, owner: A, zone: field}
          - {id: waiting, owner: A, zone: outside, types: [token]}
        start:
          - move: {card: [tok, card], to: bin}
          - move: {card: waiting, to: field}
        """,
        tcgtrig.load_ruleset("plain", plugins=(Tokens(arrive),), autoload=False),
    )
    assert zones(result, "tok", "card", "waiting") == ("nowhere", "bin", "field")
    moved = next(s for s in result.trace if s.kind == "event" and s["card"] == "tok")
    assert moved["to"] == to


# -- targets and negation -----------------------------------------------------------


#: a card whose effect targets an opponent's card on activation, and moves it away
ZAPPER = """
    cards:
      - id: zapper
        owner: A
        zone: field
        abilities:
          - {id: zap, kind: activated, target: {zone: field, owner: opponent, pick: 1}, do: [{move: {card: target, to: gone}}]}
"""


def test_an_effect_with_no_legal_target_cannot_activate():
    result = run(ZAPPER + "    start: [{activate: zapper.zap}]\n", "yugioh")
    assert result.keys("failed") == ["zapper.zap"] and result.keys("resolved") == []


def test_a_target_is_chosen_once_and_kept():
    result = run(
        ZAPPER
        + """\
      - {id: one, owner: B, zone: field}
      - {id: two, owner: B, zone: field}
    start: [{activate: zapper.zap}]
    choices: [two]
    """,
        "yugioh",
    )
    assert zones(result, "one", "two") == ("field", "gone")
    assert [s["card"] for s in result.trace if s.kind == "event" and s["event"] == "targeted"] == ["two"]


def test_a_target_name_the_ability_does_not_have_is_an_error():
    with pytest.raises(tcgtrig.ScenarioError, match=r"'target.foe': the ability has no such target"):
        run(
            """
            cards:
              - id: zapper
                owner: A
                zone: field
                abilities:
                  - {id: zap, kind: activated, targets: {mine: {zone: field, pick: 1}}, do: [{move: {card: target.foe, to: gone}}]}
            start: []
            """,
            "yugioh",
        )


def test_negate_outside_a_chain_negates_nothing():
    result = run(
        """
        cards:
          - {id: c, owner: A, zone: field}
        start:
          - negate: c
          - if: {did: previous}
            then: [{move: {card: c, to: gone}}]
        """,
        plain_ruleset(),
    )
    assert zones(result, "c") == ("field",) and result.keys("negated") == []


def test_negating_the_effect_is_shown_as_such():
    result = run(
        """
        cards:
          - {id: spell, owner: A, zone: field, abilities: [{id: main, kind: activated, do: [{draw: 1}]}]}
          - id: stopper
            owner: B
            zone: field
            abilities:
              - {id: main, kind: activated, speed: 3, when: {event: activated, card: spell}, do: [{negate_effect: event.card}]}
        start: [{activate: spell.main}]
        choices: [stopper.main]
        """,
        "yugioh",
    )
    step = next(s for s in result.trace if s.kind == "negated")
    assert (step["effect"], step["what"], step["negated_by"]) == ("spell.main", "effect", "stopper.main")
    assert result.keys("resolved") == ["stopper.main"]


# -- unaffected -----------------------------------------------------------------------


def test_an_unaffected_card_is_chosen_but_not_moved_by_effects_yet_pays_a_cost():
    result = run(
        """
        cards:
          - id: payer
            owner: A
            zone: field
            types: [unaffected]
            abilities:
              - {id: go, kind: activated, cost: [{move: {card: self, to: bin}}], do: [{gain: {counter: paid, amount: 1}}]}
          - id: mover
            owner: B
            zone: field
            abilities:
              - {id: push, kind: activated, do: [{move: {card: guarded, to: bin}}]}
          - {id: guarded, owner: A, zone: field, flags: [unaffected_by_opponent]}
        start:
          - activate: mover.push
          - activate: payer.go
        """,
        plain_ruleset(),
    )
    assert zones(result, "guarded", "payer") == ("field", "bin")
    assert result.state.counter("A", "paid") == 1


# -- more than two players ---------------------------------------------------------------


class Party(PlainGame):
    @hookimpl
    def tcgtrig_game_info(self) -> GameInfo:
        return GameInfo(name="plain", title="Party", version="0", max_players=3)


PARTY = """
    format: 1
    title: three
    players: [A, B, C]
    turn_player: C
    cards:
      - {id: a, owner: A, zone: field, abilities: [{id: w, when: ping, do: [{gain: {counter: n, amount: 1}}]}]}
      - {id: b, owner: B, zone: field, abilities: [{id: w, when: ping, do: [{lose: {player: opponent, counter: lp, amount: 1}}]}]}
      - {id: c, owner: C, zone: field, abilities: [{id: w, when: ping, do: [{gain: {counter: n, amount: 1}}]}]}
    start: [{emit: {event: ping}}, {pass_turn: {}}]
    """


def test_more_players_go_in_turn_order_and_opponent_means_each_of_them():
    result = run(PARTY, tcgtrig.load_ruleset("plain", plugins=(Party(),), autoload=False))
    # the effects wait for the start, which passes the turn from C to A: A's first, then B, then C
    assert result.keys("resolved") == ["a.w", "b.w", "c.w"]
    assert (result.state.counter("C", "lp"), result.state.counter("A", "lp"), result.state.counter("B", "lp")) == (
        -1,
        -1,
        0,
    )
    assert result.state.turn_player == "A"


def test_a_game_for_two_refuses_a_third_player():
    with pytest.raises(
        tcgtrig.ScenarioError,
        match=r"players: Plain \(core defaults\) is played by at most 2 "
        r"players; the file names 3",
    ):
        run(PARTY, plain_ruleset())


# -- winning ------------------------------------------------------------------------------


def test_win_ends_the_game_and_what_is_pending_is_lost():
    result = run(
        """
        cards:
          - id: c
            owner: A
            zone: field
            abilities:
              - {id: first, when: ping, do: [{win: {player: opponent, reason: "the house rule says so"}}]}
              - {id: second, when: ping, do: [{gain: {counter: n, amount: 1}}]}
        start: [{emit: {event: ping}}]
        """,
        plain_ruleset(),
    )
    assert (result.outcome, result.reason) == ("B wins", "the house rule says so")
    assert result.keys("resolved") == ["c.first"] and result.keys("lost") == ["c.second"]
    assert result.state.counter("A", "n") == 0
