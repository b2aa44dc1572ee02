"""Digimon's attack timings (CR 11, 12, 15-15-1-1): declaration, counter
timing, block timing, the attack's success, the end of the attack."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import run
from tcgtrig.plugins.digimon import attack

POSITION = """
    cards:
      - id: agumon
        owner: A
        zone: battle
        types: [digimon]
        abilities:
          - {id: wa, when: {event: attacking, card: self}, do: [{memory: 1}]}
      - id: ender
        owner: B
        zone: battle
        types: [digimon]
        abilities:
          - {id: counter, when: {event: counter_timing, player: self}, optional: true, do: [{end_attack: {}}]}
      - {id: wall, owner: B, zone: battle, types: [digimon, blocker]}
      - id: eoa
        owner: A
        zone: battle
        types: [tamer]
        abilities:
          - {id: end, when: {event: end_of_attack}, do: [{memory: 1}]}
          - {id: blocked, when: {event: blocked}, do: [{gain: {counter: blocks}}]}
    start:
      - full_attack: {card: agumon, success: [{delete: {zone: battle, flag: attack_target, owner: opponent}}]}
    """


def test_the_timings_come_in_order_and_a_blocker_becomes_the_target():
    result = run(POSITION.rstrip(" ") + "    choices: [decline, wall]\n")
    assert result.keys("resolved") == ["agumon.wa", "eoa.blocked", "eoa.end"]
    assert result.state.cards["wall"].zone == "trash"  # the blocker was the target of the battle
    assert "attacking" not in result.state.cards["agumon"].flags  # the attack is over
    events = [s["event"] for s in result.trace if s.kind == "event"]
    assert (
        events.index("attacking")
        < events.index("counter_timing")
        < events.index("blocked")
        < events.index("end_of_attack")
    )


def test_an_attack_ended_by_an_effect_skips_block_and_success():
    result = run(POSITION.rstrip(" ") + "    choices: [use]\n")
    assert result.keys("resolved") == ["agumon.wa", "ender.counter", "eoa.end"]
    events = [s["event"] for s in result.trace if s.kind == "event"]
    assert "blocked" not in events and events.count("end_of_attack") == 1
    assert result.state.cards["wall"].zone == "battle"
    assert result.state.cards["wall"].flags == frozenset()


def test_no_block_once_the_attacker_left_the_battle_area():
    result = run(
        POSITION.replace("do: [{end_attack: {}}]", "do: [{bounce: agumon}]").rstrip(" ") + "    choices: [use]\n"
    )
    events = [s["event"] for s in result.trace if s.kind == "event"]
    assert "blocked" not in events and "end_of_attack" in events  # 12-1-6, 11-1-5
    assert result.state.cards["wall"].zone == "battle"


def test_an_ended_attack_stays_ended_when_the_attacker_leaves_and_a_new_attack_starts_afresh():
    # the [Counter] effect ends the attack, then an [End of Attack] effect returns the attacker
    text = POSITION.replace("do: [{end_attack: {}}]", "do: [{end_attack: {}}, {bounce: agumon}]")
    result = run(text.rstrip(" ") + "    choices: [use]\n")
    events = [s["event"] for s in result.trace if s.kind == "event"]
    assert events.count("end_of_attack") == 1 and events.count("counter_timing") == 1
    assert result.keys("resolved") == ["agumon.wa", "ender.counter", "eoa.end"]
    assert result.state.marks == frozenset()  # cleared at the end of the attack
    # an attack left ended by the bare words (no end_of_attack) does not end the next full_attack
    again = run("""
        cards:
          - id: one
            owner: A
            zone: battle
            types: [digimon]
            abilities: [{id: stop, when: {event: attacking, card: self}, do: [{end_attack: {}}]}]
          - {id: two, owner: A, zone: battle, types: [digimon]}
          - id: b
            owner: B
            zone: battle
            abilities: [{id: c, when: {event: counter_timing, player: self}, do: [{gain: {counter: n}}]}]
        start:
          - attack: one
          - resolve_pending: {}
          - full_attack: two
        """)
    assert again.keys("resolved") == ["one.stop", "b.c"]


TWO_ATTACKERS = """
    cards:
      - id: one
        owner: A
        zone: battle
        types: [digimon]
        abilities: [{id: wa, when: {event: attacking, card: self}, do: [{gain: {counter: one}}]}]
      - id: two
        owner: A
        zone: battle
        types: [digimon]
        abilities: [{id: wa, when: {event: attacking, card: self}, do: [{gain: {counter: two}}]}]
    start:
      - attack: one
      - resolve_pending: {}
    """


def _refusals(result: tcgtrig.Resolution) -> list[tuple[str, str, str]]:
    return [
        (s["card"], s["by"], s["reason"])
        for s in result.trace
        if s.kind == "event" and s["event"] == "attack_not_declared"
    ]


def test_no_attack_can_be_declared_during_an_attack():
    # CR 11-2-4, Q&A Q4594: the second declaration does not happen at all
    result = run(TWO_ATTACKERS.rstrip(" ") + "      - attack: two\n      - resolve_pending: {}\n")
    assert result.keys("triggered") == ["one.wa"]
    assert result.state.cards["two"].flags == frozenset()  # not suspended, not attacking
    assert result.state.cards["one"].flags == {"suspended", "attacking"}  # the first attack goes on
    assert _refusals(result) == [("two", "rule", "CR 11-2-4: a new attack declaration can't be made during an attack")]
    assert result.state.marks == frozenset({"attack_in_progress"})
    step = next(s for s in result.to_dict()["steps"] if s.get("event") == "attack_not_declared")
    assert step["reason"].startswith("CR 11-2-4")


def test_the_attack_goes_on_after_its_attacker_left_the_battle_area():
    # 11-1-5: the attacker leaving does not end the attack, so no new one yet
    text = TWO_ATTACKERS.replace("do: [{gain: {counter: one}}]", "do: [{bounce: self}]")
    result = run(text.rstrip(" ") + "      - attack: two\n")
    assert result.state.cards["one"].zone == "hand"
    assert [card for card, _, _ in _refusals(result)] == ["two"]
    assert "suspended" not in result.state.cards["two"].flags


def test_a_new_attack_is_declared_once_the_attack_ended():
    result = run(
        TWO_ATTACKERS.rstrip(" ") + "      - end_of_attack: {}\n      - attack: two\n      - resolve_pending: {}\n"
    )
    assert result.keys("resolved") == ["one.wa", "two.wa"]
    assert result.state.cards["two"].flags == {"suspended", "attacking"}
    assert _refusals(result) == []
    # and by full_attack, one after the other
    again = run(
        TWO_ATTACKERS.replace(
            "- attack: one\n      - resolve_pending: {}", "- full_attack: one\n      - full_attack: two"
        )
    )
    assert again.keys("resolved") == ["one.wa", "two.wa"] and _refusals(again) == []
    assert again.state.marks == frozenset()


def test_did_previous_reads_whether_the_attack_was_declared():
    text = """
        cards:
          - {id: one, owner: A, zone: battle, types: [digimon]}
          - id: two
            owner: A
            zone: battle
            types: [digimon]
            abilities:
              - id: go
                when: {event: attacking, card: one}
                do:
                  - attack: two
                  - if: {did: previous}
                    then: [{gain: {counter: attacked}}]
                    else: [{gain: {counter: refused}}]
        start:
          - attack: one
          - resolve_pending: {}
        """
    result = run(text)
    assert result.state.counter("A", "refused") == 1 and result.state.counter("A", "attacked") == 0
    result = run(text.replace("          - attack: one\n", "          - emit: {event: attacking, card: one}\n"))
    assert result.state.counter("A", "attacked") == 1 and result.state.counter("A", "refused") == 0


def test_a_full_attack_during_an_attack_is_not_declared_and_none_of_its_timings_come():
    text = TWO_ATTACKERS.rstrip(" ") + "      - full_attack: two\n"
    text = text.replace(
        "    start:",
        """      - id: b
        owner: B
        zone: battle
        abilities: [{id: c, when: {event: counter_timing, player: self}, do: [{gain: {counter: n}}]}]
    start:""",
    )
    result = run(text)
    assert result.keys("resolved") == ["one.wa"]  # no counter timing, no end of attack: they were the first's
    events = [s["event"] for s in result.trace if s.kind == "event"]
    assert "counter_timing" not in events and "end_of_attack" not in events
    assert [card for card, _, _ in _refusals(result)] == ["two"]
    assert result.state.cards["one"].flags == {"suspended", "attacking"}


def test_a_gained_blocker_flag_counts_as_blocker():
    text = POSITION.replace("types: [digimon, blocker]", "types: [digimon], flags: [blocker]")
    result = run(text.rstrip(" ") + "    choices: [decline, wall]\n")
    assert "eoa.blocked" in result.keys("resolved")


def test_the_words_refuse_arguments_they_do_not_take():
    with pytest.raises(ValueError, match="takes no arguments"):
        attack.counter_timing({"card": "x"})
    with pytest.raises(ValueError, match="legal: card, target"):
        attack.attack({"card": "x", "at": "y"})
    with pytest.raises(tcgtrig.TcgTrigError, match="resolve_pending"):
        run("""
            cards:
              - id: a
                owner: A
                zone: battle
                abilities: [{id: x, when: ping, do: [{full_attack: a}]}]
            start: []
            """)


def test_a_new_attack_is_declared_once_an_effect_ended_the_attack():
    # 15-15-1-1: the end of attack timing came at once; once its processing
    # is done the attack is over (11-6-2), so a bare `attack` is declared
    ended = TWO_ATTACKERS.replace("do: [{gain: {counter: one}}]", "do: [{end_attack: {}}]")
    result = run(ended.rstrip(" ") + "      - attack: two\n      - resolve_pending: {}\n")
    assert _refusals(result) == []
    assert result.keys("resolved") == ["one.wa", "two.wa"]
    assert result.state.cards["two"].flags == {"suspended", "attacking"}
    assert result.state.marks == frozenset({"attack_in_progress"})  # the second attack goes on


def test_a_new_turn_ends_an_attack_left_open():
    # an attack's marks last no longer than its turn: the next turn's
    # declaration is made
    result = run(
        TWO_ATTACKERS.rstrip(" ") + "      - pass_turn: {}\n      - pass_turn: {}\n      - attack: two\n"
        "      - resolve_pending: {}\n"
    )
    assert _refusals(result) == []
    assert "attacking" in result.state.cards["two"].flags
