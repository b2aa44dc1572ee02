"""The core's words load and resolve under every installed game, whether
or not the game reads them (a file that uses a word a game ignores still
loads): per_turn, actor, pattern card queries, lasting, used, grant,
at_trigger, fixed values, all_types, has, end_turn."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import scenario

TEXT = """
    counters: {A: {score: 1}}
    used: [watcher.twice]
    cards:
      - id: watcher
        owner: A
        zone: battle
        types: [red, tamer]
        lasting:
          - {stat: power, by: 1000, until: end_of_turn}
          - {flag: guarded, until: end_of_opponents_turn}
        abilities:
          - id: twice
            per_turn: 2
            when: {event: moved, actor: opponent, card: {all_types: [red, digimon]}}
            condition: {at_trigger: {count: {has: guarded}, gte: 1}}
            do:
              - gain: {counter: score, amount: {count: {zone: battle}, fixed: true}}
      - {id: red_one, owner: A, zone: battle, types: [red, digimon], stats: {power: 500}}
      - id: b_card
        owner: B
        zone: hand
        abilities:
          - id: main
            kind: activated
            do:
              - move: {card: {zone: battle, types: [digimon], stat: {power: {lte: {card: watcher, stat: power}}}, owner: opponent}, to: trash}
              - grant: {card: watcher, until: end_of_turn, ability: {id: gained, when: ping, do: [{gain: {counter: n}}]}}
    start:
      - activate: b_card.main
      - emit: {event: ping}
      - end_turn: {}
    """


@pytest.mark.parametrize("game", tcgtrig.available_games())
def test_the_core_words_load_and_resolve_under_every_game(game):
    result = tcgtrig.resolve(scenario(TEXT), game)
    assert result.outcome == "complete"
    assert result.state.cards["red_one"].zone == "trash"
    assert result.keys("resolved")[:2] == ["b_card.main", "watcher.twice"]
