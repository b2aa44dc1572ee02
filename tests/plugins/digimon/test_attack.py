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
    assert events.index("attacking") < events.index("counter_timing") < events.index("blocked") \
        < events.index("end_of_attack")


def test_an_attack_ended_by_an_effect_skips_block_and_success():
    result = run(POSITION.rstrip(" ") + "    choices: [use]\n")
    assert result.keys("resolved") == ["agumon.wa", "ender.counter", "eoa.end"]
    events = [s["event"] for s in result.trace if s.kind == "event"]
    assert "blocked" not in events and events.count("end_of_attack") == 1
    assert result.state.cards["wall"].zone == "battle"
    assert result.state.cards["wall"].flags == frozenset()


def test_no_block_once_the_attacker_left_the_battle_area():
    result = run(POSITION.replace("do: [{end_attack: {}}]", "do: [{bounce: agumon}]").rstrip(" ") + "    choices: [use]\n")
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
