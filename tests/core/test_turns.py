"""Turn steps: ``end_turn`` / ``pass_turn``, durations that end with a
turn, per-turn uses reset, and changes already in effect at the start."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import run

POSITION = """
    cards:
      - id: mon
        owner: A
        zone: battle
        stats: {dp: 5000}
        lasting:
          - {stat: dp, by: -1000, until: end_of_turn}
          - {stat: dp, by: -2000, until: end_of_opponents_turn, player: A}
          - {flag: cant_attack, until: end_of_your_turn, player: A}
        abilities:
          - id: end
            once_per_turn: true
            when: {event: end_of_turn, player: self}
            do: [{gain: {counter: ended}}]
          - id: start
            when: {event: start_of_turn, player: self}
            do: [{gain: {counter: started}}]
          - id: ping
            once_per_turn: true
            when: {event: ping}
            do: [{gain: {counter: pinged}}]
    """


def test_the_turn_ends_and_the_other_player_starts(plain):
    result = run(
        POSITION.rstrip(" ")
        + """
    start:
      - emit: {event: ping}
      - end_turn: {}
      - emit: {event: ping}
      - end_turn: {}
    """,
        plain,
    )
    assert result.keys("resolved") == ["mon.ping", "mon.end", "mon.ping", "mon.start"]
    state = result.state
    assert state.turn_player == "A" and state.turn == 3
    # turn 1 (A's) ended: end_of_turn and end_of_your_turn changes went; turn 2 (B's) ended:
    # the change lasting until the end of A's opponent's turn went too
    assert result.stat("mon", "dp") == 5000 and "cant_attack" not in state.cards["mon"].flags
    assert state.counter("A", "pinged") == 2  # once per turn, new again in B's turn


def test_durations_end_only_with_their_turn(plain):
    result = run(POSITION.rstrip(" ") + "    start: [{end_turn: {}}]\n", plain)
    assert result.state.turn_player == "B"
    assert result.stat("mon", "dp") == 3000  # the opponent's-turn change lasts through B's turn
    turn = next(s for s in result.trace if s.kind == "turn")
    assert turn["player"] == "B" and turn["turn"] == 2 and turn["cards"] == ("mon",)


def test_a_lasting_flag_starts_set(plain):
    result = run(POSITION.rstrip(" ") + "    start: []\n", plain)
    assert "cant_attack" in result.state.cards["mon"].flags and result.stat("mon", "dp") == 2000


def test_a_flag_set_for_the_turn_is_cleared_when_it_ends(plain):
    result = run(
        """
        cards:
          - {id: mon, owner: A, zone: battle}
        start:
          - flag: {card: mon, set: shielded, until: end_of_turn}
          - flag: {card: mon, set: marked}
          - end_turn: {}
        """,
        plain,
    )
    assert result.state.cards["mon"].flags == frozenset({"marked"})


@pytest.mark.parametrize(
    "text, message",
    [
        ("  - change: {card: mon, stat: dp, by: 1, until: forever}\n", "end_of_turn"),
        ("  - flag: {card: mon, clear: x, until: end_of_turn}\n", "how long a flag that is set lasts"),
    ],
)
def test_bad_durations_name_the_legal_words(plain, text, message):
    with pytest.raises(tcgtrig.TcgTrigError, match=message):
        run("cards: [{id: mon, owner: A, zone: battle}]\nstart:\n" + text, plain)


def test_turn_steps_belong_to_the_start_only(plain):
    with pytest.raises(tcgtrig.TcgTrigError, match="only the scenario's start"):
        run(
            """
            cards:
              - id: mon
                owner: A
                zone: battle
                abilities: [{id: x, when: ping, do: [{end_turn: {}}]}]
            start: []
            """,
            plain,
        )


def test_the_tree_says_whose_turn_begins_and_what_ended():
    from tcgtrig.model.trace import Step
    from tcgtrig.tools.render import step_line

    step = Step.make("turn", player="B", turn=2, cards=("mon",))
    assert step_line(step, {"mon": "Greymon"}) == "turn 2: B's turn begins — lasting changes ended on Greymon"


def test_a_passed_turn_is_a_new_position_not_a_loop(plain):
    result = run(
        """
        cards: []
        start: [{resolve_pending: {}}, {pass_turn: {}}, {resolve_pending: {}}, {pass_turn: {}}]
        """,
        plain,
    )
    assert result.outcome == "complete" and result.state.turn == 3


def test_a_flag_set_again_lasts_as_long_as_the_longer_setting(plain):
    result = run(
        """
        cards:
          - {id: a, owner: A, zone: battle}
          - {id: b, owner: A, zone: battle}
        start:
          - flag: {card: [a, b], set: blocker, until: end_of_turn}
          - flag: {card: a, set: blocker}
          - flag: {card: b, set: blocker, until: end_of_opponents_turn}
          - end_turn: {}
        """,
        plain,
    )
    assert "blocker" in result.state.cards["a"].flags  # set for good the second time
    assert "blocker" in result.state.cards["b"].flags  # lasts into the opponent's turn
    assert [s["event"] for s in result.trace if s.kind == "event"].count("flag_set") == 2  # no event when renewed
