"""The helpers games build their words with (tcgtrig.words)."""

from __future__ import annotations

import pytest
from tcgtrig.words import card_argument, flag_word, move_word


def test_a_word_takes_a_selector_or_a_mapping_with_modifiers():
    assert card_argument("x") == ("x", {})
    assert card_argument({"zone": "hand", "pick": 1}) == ({"zone": "hand", "pick": 1}, {})  # a query
    assert card_argument({"card": ["x", "y"], "by": "battle", "label": "gone"}) == (
        ["x", "y"], {"by": "battle", "label": "gone"})
    with pytest.raises(ValueError, match=r"unknown key 'to' \(legal: card, by, label\)"):
        card_argument({"card": "x", "to": "hand"})


def test_move_and_flag_words():
    discard = move_word("graveyard", "discarded", **{"from": "hand"})
    assert discard({"card": "x", "by": "cost"}) == {
        "move": {"card": "x", "to": "graveyard", "from": "hand", "as": "discarded", "by": "cost"}}
    assert flag_word("clear", "tapped", "untapped")("x") == {"flag": {"card": "x", "clear": "tapped", "as": "untapped"}}
