"""How many times a condition met by several events of one moment
triggers is a rule each game states (``GameInfo.trigger_multiplicity``),
cited in its ``citations``; ``tcgtrig_trigger_each_event`` refines it per
ability.  A game that states nothing keeps one trigger for the moment, and
the conformance kit and ``tcgtrig games`` say the statement is missing.
Each game's own file: three cards destroyed at once and a watcher
(tests/scenarios/*/ and the example games' scenarios/, citing the rule)."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import info_only_ruleset, plain_ruleset
from tcgtrig import hookimpl
from tcgtrig.conformance import check_ruleset

THREE = """
format: 1
title: three cards leave at once, and a watcher
players: [A, B]
turn_player: A
cards:
  - {id: a, owner: A, zone: field}
  - {id: b, owner: B, zone: field}
  - {id: c, owner: B, zone: field}
  - {id: w, owner: A, zone: field, abilities: [{id: see, when: {event: moved, to: grave}, do: [{gain: {counter: n}}]}]}
start:
  - move: {card: [a, b, c], to: grave}
"""


def watched(ruleset: tcgtrig.Ruleset) -> int:
    result = tcgtrig.resolve(tcgtrig.scenario_from_text(THREE, "three.yaml"), ruleset)
    assert result.keys("resolved") == ["w.see"] * result.state.counter("A", "n")
    return result.state.counter("A", "n")


@pytest.mark.parametrize(("stated", "times"), [("per_event", 3), ("per_moment", 1), ("", 1)])
def test_the_game_says_how_many_times(stated, times):
    assert watched(info_only_ruleset("plain", trigger_multiplicity=stated)) == times


@pytest.mark.parametrize(
    ("game", "times"), [("digimon", 1), ("yugioh", 1), ("duelmasters", 3), ("magic", 3), ("lorcana", 3)]
)
def test_every_game_states_its_rule_and_cites_it(game, times):
    info = tcgtrig.load_ruleset(game).info
    assert info.trigger_multiplicity == ("per_event" if times == 3 else "per_moment")
    assert info.citation("trigger_multiplicity")


class OncePerMoment:
    """An ability tagged ``once`` triggers once whatever its game states."""

    @hookimpl
    def tcgtrig_trigger_each_event(self, ability):
        return False if "once" in ability.tags else None


def test_the_hook_refines_the_rule_per_ability():
    ruleset = tcgtrig.load_ruleset("magic", plugins=(OncePerMoment(),))
    assert watched(ruleset) == 3  # the hook says nothing of this ability: the game's rule
    tagged = THREE.replace("{id: see,", "{id: see, tags: [once],")
    result = tcgtrig.resolve(tcgtrig.scenario_from_text(tagged, "three.yaml"), ruleset)
    assert result.state.counter("A", "n") == 1


def test_the_conformance_kit_names_what_a_game_leaves_unstated():
    assert check_ruleset(plain_ruleset(), positions=2).unstated == ("trigger_multiplicity",)
    stated = info_only_ruleset("plain", trigger_multiplicity="per_event")
    assert check_ruleset(stated, positions=2).unstated == ("citations['trigger_multiplicity']",)
    assert check_ruleset("digimon", positions=2).unstated == ()
