"""Every action of the core has one home (``core/language/``): the words a
scenario file uses, the model class, and the ways it is read, written back,
planned and carried out are found together."""

from __future__ import annotations

import attrs
import pytest
from tcgtrig import load_ruleset, scenario_from_text
from tcgtrig.language import BY_MODEL, BY_WORD, CONTROL_BY_MODEL, CONTROL_BY_WORD, CORE_ACTIONS, PRIMITIVES
from tcgtrig.model.values import ACTION_TYPES
from tcgtrig.scenario.unparse import action_to_data


def test_every_word_has_one_home():
    assert sorted(CORE_ACTIONS) == sorted([*BY_WORD, *CONTROL_BY_WORD])
    assert not set(BY_WORD) & set(CONTROL_BY_WORD)


def test_every_model_class_has_one_home():
    assert set(ACTION_TYPES) == set(BY_MODEL) | set(CONTROL_BY_MODEL)
    assert not set(BY_MODEL) & set(CONTROL_BY_MODEL)


@pytest.mark.parametrize("kind", PRIMITIVES, ids=lambda kind: kind.words[0])
def test_card_fields_are_fields_of_the_model(kind):
    names = {field.name for field in attrs.fields(kind.model)}
    assert set(kind.card_fields) <= names


SIX_ACTIONS = """
format: 1
title: one effect, six words
game: digimon
players: [A, B]
turn_player: A
counters: {A: {memory: 0}, B: {memory: 0}}
cards:
  - id: a
    owner: A
    zone: battle
    abilities:
      - id: go
        when: {event: played, card: self}
        do:
          - together:
              - {move: {card: b, to: trash}, label: gone}
              - {gain: {player: self, counter: memory, amount: 2}}
          - flag: {card: self, set: suspended, until: end_of_turn}
          - change: {card: self, stat: dp, by: 1000}
          - if: {did: gone}
            then: [{draw: {player: opponent, count: 1}}]
  - {id: b, owner: B, zone: battle}
start:
  - emit: {event: played, card: a}
"""


def test_each_home_writes_back_what_it_read():
    scenario = scenario_from_text(SIX_ACTIONS)
    compiled = scenario.compile(load_ruleset("digimon"))
    effect = compiled.state.cards["a"].abilities[0].do
    written = [action_to_data(action) for action in effect]
    assert [next(iter(data)) for data in written] == ["together", "flag", "change", "if"]
    assert written[0]["together"][0] == {"move": {"card": ["b"], "to": "trash", "label": "gone"}}
    assert written[1] == {"flag": {"card": "self", "set": "suspended", "until": "end_of_turn"}}
    assert written[3]["then"] == [{"draw": {"player": "opponent", "count": 1}}]
