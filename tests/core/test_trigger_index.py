"""Triggered abilities are filed by the card their event is about
(``card: self``, ``card: source`` or a card id), and only the rest are
checked for every event: the same abilities trigger, in the same order, as
when every listener is checked."""

from __future__ import annotations

from helpers import run


def test_listeners_of_one_card_and_of_every_card_trigger_in_file_order():
    result = run("""
        cards:
          - {id: any1, owner: A, zone: battle, abilities: [{id: x, when: {event: ping}, do: [{gain: {counter: n}}]}]}
          - {id: named, owner: A, zone: battle, abilities: [{id: x, when: {event: ping, card: target}, do: [{gain: {counter: n}}]}]}
          - {id: watcher, owner: A, zone: battle, abilities: [{id: x, when: {event: ping, card: any1}, do: [{gain: {counter: n}}]}]}
          - {id: target, owner: A, zone: battle, abilities: [{id: x, when: {event: ping, card: self}, do: [{gain: {counter: n}}]}, {id: y, when: {event: ping, card: source}, do: [{gain: {counter: n}}]}]}
          - {id: any2, owner: B, zone: battle, abilities: [{id: x, when: {event: ping, card: any}, do: [{gain: {counter: n}}]}]}
        start: [{emit: {event: ping, card: target}}]
        """)
    assert result.keys("triggered") == ["any1.x", "named.x", "target.x", "target.y", "any2.x"]
    assert result.state.counter("A", "n") == 4 and result.state.counter("B", "n") == 1


def test_an_ability_under_a_pile_hears_events_about_the_top_card():
    # "this Digimon" of an inherited effect is the top card of the pile it works from
    result = run("""
        cards:
          - {id: top, owner: A, zone: battle, types: [digimon]}
          - id: middle
            owner: A
            zone: sources
            under: top
            abilities: [{id: x, when: {event: ping, card: self}, do: [{gain: {counter: n}}]}]
          - id: bottom
            owner: A
            zone: sources
            under: middle
            abilities: [{id: x, when: {event: ping, card: self}, do: [{gain: {counter: m}}]}]
          - {id: elsewhere, owner: A, zone: battle, abilities: [{id: x, when: {event: ping, card: self}, do: [{gain: {counter: k}}]}]}
        start: [{emit: {event: ping, card: top}}]
        """)
    assert result.keys("triggered") == ["middle.x", "bottom.x"]
    assert (result.state.counter("A", "n"), result.state.counter("A", "m"), result.state.counter("A", "k")) == (1, 1, 0)


def test_a_card_that_moved_at_the_moment_is_heard_as_it_was():
    # the pile's top card is deleted: its inherited "when this Digimon is deleted" looks back at the pile
    result = run("""
        cards:
          - {id: top, owner: A, zone: battle, types: [digimon]}
          - id: inherited
            owner: A
            zone: sources
            under: top
            abilities: [{id: x, when: {event: deleted, card: self}, active_in: [sources], do: [{gain: {counter: n}}]}]
        start: [{delete: top}]
        """)
    assert "inherited.x" in result.keys("triggered")
    assert result.state.counter("A", "n") == 1
