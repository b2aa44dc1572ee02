"""Issue 40 review: cases where cards alike in their records still answer
apart in a chain window, so grouping them as one option (issue 40 item 1)
would offer a response no copy may make, or hide one a copy may make.
Each test compares what is offered, and what a chosen copy does, with the
game's answer when every copy is asked about (``copies_alike`` off)."""

from __future__ import annotations

from typing import Any

import pytest
import tcgtrig
from helpers import scenario
from tcgtrig.base.errors import TcgTrigError

#: two Strikers alike in their records; a Banner's continuous ability
#: raises the ATK of one of them (BOOSTED) by 500, and a Striker may
#: respond only while its ATK is 1500 or more
BANNER = """\
game: yugioh
cards:
  - {id: jar, name: Jar of Greed, owner: A, zone: field, types: [trap],
     abilities: [{id: draw, kind: activated, speed: 2, do: [{lp: 1}]}]}
  - {id: banner, name: Banner, owner: B, zone: field, types: [spell],
     abilities: [{id: boost, kind: continuous, do: [{change: {card: BOOSTED, stat: atk, by: 500}}]}]}
  - {id: m_1, name: Striker, owner: B, zone: field, types: [monster], stats: {atk: 1000}, abilities: [STRIKE]}
  - {id: m_2, name: Striker, owner: B, zone: field, types: [monster], stats: {atk: 1000}, abilities: [STRIKE]}
start: [{activate: jar.draw}]
""".replace(
    "STRIKE",
    "{id: strike, kind: activated, speed: 2, condition: {card: self, stat: atk, gte: 1500}, do: [{lp: 2}]}",
)


def respond_options(result: tcgtrig.Resolution) -> list[tuple[Any, ...]]:
    return [(step.get("options"), step.get("copies")) for step in result.trace if step.kind == "choice"]


@pytest.mark.parametrize("boosted", ["m_1", "m_2"])
def test_a_continuous_ability_naming_one_copy_sets_it_apart(boosted):
    # Yu-Gi-Oh! Rulebook v10, "Activation Conditions": an effect can be
    # activated only while its condition is met; the Banner's +500 ATK
    # applies to the card it names only (a continuous effect), so only that
    # Striker has 1500 ATK and may respond
    text = BANNER.replace("BOOSTED", boosted)
    result = tcgtrig.resolve(scenario(text), "yugioh")
    assert respond_options(result)[0] == ((f"{boosted}.strike", "pass"), None)
    chosen = tcgtrig.resolve(scenario(text), "yugioh", choices=[f"{boosted}.strike"])
    assert chosen.chains() == [["jar.draw", f"{boosted}.strike"]]
    other = "m_2" if boosted == "m_1" else "m_1"
    with pytest.raises(TcgTrigError, match=f"'{other}.strike' is not legal"):
        tcgtrig.resolve(scenario(text), "yugioh", choices=[f"{other}.strike"])


def test_copies_that_a_continuous_ability_treats_alike_are_still_one_option_without_stat_words():
    # the Banner boosts m_1 only, but a response that reads no stat answers alike for both
    text = BANNER.replace("BOOSTED", "m_1").replace("condition: {card: self, stat: atk, gte: 1500}, ", "")
    result = tcgtrig.resolve(scenario(text), "yugioh")
    assert respond_options(result)[0] == (("m_1.strike", "pass"), {"m_1.strike": 2})
