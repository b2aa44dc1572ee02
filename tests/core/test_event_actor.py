"""Whose effect did it: events carry the acting player, patterns can ask
for it (``actor: self|opponent|any``)."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import run

WATCHER = """
cards:
  - id: watcher
    owner: A
    zone: battle
    abilities:
      - id: mine
        when: {event: moved, to: trash, actor: self}
        do: [{gain: {counter: mine}}]
      - id: theirs
        when: {event: moved, to: trash, actor: opponent}
        do: [{gain: {counter: theirs}}]
  - {id: victim, owner: A, zone: battle}
  - id: b_spell
    owner: B
    zone: hand
    abilities:
      - {id: main, kind: activated, do: [{move: {card: victim, to: trash}}]}
"""


def test_an_opponents_effect_is_told_from_your_own(plain):
    result = run(WATCHER + "start: [{activate: b_spell.main}]\n", plain)
    assert result.keys("resolved") == ["b_spell.main", "watcher.theirs"]
    assert result.state.counter("A", "theirs") == 1 and result.state.counter("A", "mine") == 0
    moved = next(s for s in result.trace if s.kind == "event" and s["event"] == "moved")
    assert moved["actor"] == "B"


def test_your_own_start_action_is_yours(plain):
    result = run(WATCHER + "start: [{move: {card: victim, to: trash}}]\n", plain)
    assert result.keys("resolved") == ["watcher.mine"]


def test_what_the_rules_do_has_no_actor(plain):
    result = run(
        """
        cards:
          - id: watcher
            owner: A
            zone: battle
            abilities:
              - {id: mine, when: {event: moved, actor: self}, do: [{gain: {counter: n}}]}
              - {id: plain, when: {event: moved}, do: [{gain: {counter: m}}]}
          - {id: victim, owner: A, zone: battle}
        start: [{move: {card: victim, to: trash, by: rule}}]
        """,
        plain,
    )
    assert result.keys("resolved") == ["watcher.plain"]


def test_an_unknown_actor_word_names_the_legal_ones(plain):
    with pytest.raises(tcgtrig.TcgTrigError, match="actor.*legal: self, opponent, any"):
        run(
            """
            cards:
              - id: w
                owner: A
                zone: battle
                abilities: [{id: x, when: {event: moved, actor: enemy}, do: []}]
            start: []
            """,
            plain,
        )
