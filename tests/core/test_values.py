"""Numbers in words: read from a card, counted, fixed as the effect
triggers; compound card types; patterns that describe the event's card."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import run

DP_RIVALS = """
    cards:
      - id: me
        owner: A
        zone: battle
        stats: {dp: 5000}
        abilities:
          - id: go
            when: {event: ping}
            do:
              - move: {card: {zone: battle, owner: opponent, stat: {dp: {lte: {card: self, stat: dp}}}}, to: trash}
      - {id: small, owner: B, zone: battle, stats: {dp: 5000}}
      - {id: big, owner: B, zone: battle, stats: {dp: 6000}}
    start: [{emit: {event: ping}}]
    """


def test_a_query_compares_with_another_cards_stat(plain):
    result = run(DP_RIVALS, plain)
    assert result.state.cards["small"].zone == "trash" and result.state.cards["big"].zone == "battle"


def test_a_condition_compares_with_another_cards_stat(plain):
    result = run(
        """
        cards:
          - id: me
            owner: A
            zone: battle
            stats: {dp: 5000}
            abilities:
              - id: go
                when: {event: ping}
                condition: {card: big, stat: dp, gt: {card: self, stat: dp}}
                do: [{gain: {counter: n}}]
          - {id: big, owner: B, zone: battle, stats: {dp: 6000}}
        start: [{emit: {event: ping}}]
        """,
        plain,
    )
    assert result.state.counter("A", "n") == 1


FIXED = """
    cards:
      - id: counter_card
        owner: A
        zone: battle
        abilities:
          - id: first
            when: {event: ping}
            do: [{move: {card: {zone: hand, owner: self}, to: trash}}]
          - id: later
            when: {event: ping}
            do: [{gain: {counter: n, amount: {count: {zone: hand, owner: self}, fixed: FIXED}}}]
      - {id: h1, owner: A, zone: hand}
      - {id: h2, owner: A, zone: hand}
    start: [{emit: {event: ping}}]
    choices: [counter_card.first]
    """


@pytest.mark.parametrize("fixed, gained", [("true", 2), ("false", 0)])
def test_a_fixed_number_is_read_as_the_effect_triggered(plain, fixed, gained):
    result = run(FIXED.replace("FIXED", fixed), plain)
    assert result.keys("resolved") == ["counter_card.first", "counter_card.later"]
    assert result.state.counter("A", "n") == gained


def test_all_types_wants_every_word(plain):
    result = run(
        """
        cards:
          - id: me
            owner: A
            zone: battle
            abilities:
              - id: go
                when: {event: ping}
                do: [{move: {card: {zone: battle, all_types: [red, tamer]}, to: trash}}]
          - {id: red_tamer, owner: A, zone: battle, types: [red, tamer]}
          - {id: blue_tamer, owner: A, zone: battle, types: [blue, tamer]}
          - {id: red_digimon, owner: A, zone: battle, types: [red, digimon]}
        start: [{emit: {event: ping}}]
        """,
        plain,
    )
    assert [c for c in ("red_tamer", "blue_tamer", "red_digimon") if result.state.cards[c].zone == "trash"] == [
        "red_tamer"
    ]


def test_a_pattern_can_describe_the_events_card(plain):
    result = run(
        """
        cards:
          - id: rika
            owner: A
            zone: battle
            abilities:
              - id: go
                when: {event: attacking, card: {name: Renamon, owner: self}}
                do: [{gain: {counter: n}}]
          - {id: renamon, name: Renamon, owner: A, zone: battle}
          - {id: agumon, name: Agumon, owner: A, zone: battle}
        start:
          - emit: {event: attacking, card: agumon}
          - emit: {event: attacking, card: renamon}
        """,
        plain,
    )
    assert result.keys("resolved") == ["rika.go"] and result.state.counter("A", "n") == 1


def test_a_pattern_card_query_may_not_pick(plain):
    with pytest.raises(tcgtrig.TcgTrigError, match="no 'pick'"):
        run(
            """
            cards:
              - id: rika
                owner: A
                zone: battle
                abilities: [{id: go, when: {event: attacking, card: {zone: battle, pick: 1}}, do: []}]
            start: []
            """,
            plain,
        )


def test_a_value_needs_a_card_and_a_stat(plain):
    with pytest.raises(tcgtrig.TcgTrigError, match="stat"):
        run(
            """
            cards:
              - id: me
                owner: A
                zone: battle
                abilities: [{id: go, when: ping, condition: {card: self, stat: dp, lte: {card: self}}, do: []}]
            start: []
            """,
            plain,
        )


AT_TRIGGER = """
    cards:
      - id: mon
        owner: A
        zone: battle
        abilities:
          - id: fixed
            when: {event: moved, card: self}
            condition: {at_trigger: {count: {zone: sources, under: self}, gte: 1}}
            do: [{gain: {counter: fixed}}]
          - id: now
            when: {event: moved, card: self}
            condition: {count: {zone: sources, under: self}, gte: 1}
            do: [{gain: {counter: now}}]
      - {id: src, owner: A, zone: sources, under: mon}
    start: [{move: {card: mon, to: trash}}]
    """


def test_an_at_trigger_condition_of_a_leaving_card_looks_at_it_as_it_left(plain):
    result = run(AT_TRIGGER, plain)
    assert result.keys("resolved") == ["mon.fixed"] and result.keys("failed") == ["mon.now"]


def test_a_pattern_query_reads_a_card_that_left_as_it_was(plain):
    result = run(
        """
        cards:
          - id: watcher
            owner: A
            zone: battle
            abilities:
              - id: small
                when: {event: moved, to: trash, card: {stat: {dp: {lte: 3000}}}}
                do: [{gain: {counter: n}}]
          - {id: weak, owner: B, zone: battle, stats: {dp: 5000}}
        start:
          - change: {card: weak, stat: dp, by: -3000}
          - move: {card: weak, to: trash}
        """,
        plain,
    )
    # 2000 DP as it was deleted; in the trash the change is gone (5000)
    assert result.keys("resolved") == ["watcher.small"]
