"""The chain shapes ``benchmarks/chain_shapes.py`` times (issue 40 item 2)
are the positions its functions describe, and resolve as their notes say."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import tcgtrig
from helpers import yaml_file

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import chain_shapes  # noqa: E402


@pytest.mark.parametrize("links", chain_shapes.SIZES)
@pytest.mark.parametrize("shape", sorted(chain_shapes.SHAPES))
def test_each_file_is_what_its_function_writes(shape, links):
    assert yaml_file(chain_shapes.path_of(shape, links)) == chain_shapes.SHAPES[shape](links), (
        "run python benchmarks/chain_shapes.py --write"
    )


def test_the_crows_chain_up_in_turn_and_resolve_last_in_first_out():
    result = tcgtrig.resolve(chain_shapes.path_of("responses", 50))
    crows = [f"crow_{i}.banish" for i in range(50)]
    assert result.chains() == [["jar.draw", *crows]]
    assert result.keys("resolved") == [*reversed(crows), "jar.draw"]
    zones = {card.id: card.zone for card in result.state.cards.values()}
    # each Crow banished the card its opponent discarded just before it; the last one discarded stays
    assert zones["pot"] == "banished" and zones["a_deck"] == "hand" and zones["jar"] == "graveyard"
    assert [zones[f"crow_{i}"] for i in range(50)] == ["banished"] * 49 + ["graveyard"]
    respond = [step for step in result.trace if step.kind == "choice" and step.get("decision") == "respond"]
    assert respond[0].get("copies") == {"crow_0.banish": 25}  # B's 25 Crows: one option


def test_the_broww_triggers_make_one_chain_and_each_draws():
    result = tcgtrig.resolve(chain_shapes.path_of("segoc", 50))
    browws = [f"broww_{i}.draw" for i in range(50)]
    assert result.chains() == [["card_destruction.main"], browws]
    assert result.keys("resolved") == ["card_destruction.main", *reversed(browws)]
    in_hand = sum(card.zone == "hand" for card in result.state.cards.values())
    assert in_hand == 100  # 50 drawn for the discarded cards, 50 by the Broww
