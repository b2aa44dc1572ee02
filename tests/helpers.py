"""Shared test helpers: build scenarios from text and resolve them (import helpers)."""

from __future__ import annotations

import textwrap
from typing import Any

import tcgtrig
from tcgtrig import GameInfo, Resolution, Scenario, hookimpl

HEADER = """\
format: 1
title: test
players: [A, B]
turn_player: A
"""


def scenario(text: str, file: str = "test.yaml") -> Scenario:
    """A scenario from (indented) YAML text; :data:`HEADER` is added when
    the text has no ``format`` key."""
    text = textwrap.dedent(text)
    if "format:" not in text:
        text = HEADER + text
    return tcgtrig.scenario_from_text(text, file)


def run(text: str, game: Any = "digimon", **kwargs: Any) -> Resolution:
    """Resolve scenario text under ``game`` (a name or a Ruleset)."""
    return tcgtrig.resolve(scenario(text), game, **kwargs)


class PlainGame:
    """A game that implements nothing but its info: the core defaults."""

    @hookimpl
    def tcgtrig_game_info(self) -> GameInfo:
        return GameInfo(name="plain", title="Plain (core defaults)", version="0")


def plain_ruleset(*extra: object) -> tcgtrig.Ruleset:
    """A ruleset made of :class:`PlainGame` plus ``extra`` plugins."""
    return tcgtrig.load_ruleset("plain", plugins=(PlainGame(), *extra), autoload=False)



def ability(**fields: Any) -> tcgtrig.Ability:
    """An ability with id ``x`` and the given fields (policy unit tests)."""
    return tcgtrig.Ability(id="x", **fields)


def pending(ability: tcgtrig.Ability, **fields: Any) -> tcgtrig.PendingEffect:
    """A pending effect ``c.x`` of player A's card ``c`` (policy unit tests)."""
    base = dict(id=1, key="c.x", card="c", ability=ability, controller="A", self_card="c", timing=1, depth=1)
    return tcgtrig.PendingEffect(**{**base, **fields})


def info_only_ruleset(name: str, **info: Any) -> tcgtrig.Ruleset:
    """A game that implements nothing but its info, with ``info``'s
    ``GameInfo`` fields (``spent_abilities_trigger=False``, …)."""

    class InfoOnly:
        @hookimpl
        def tcgtrig_game_info(self) -> GameInfo:
            return GameInfo(name=name, title=f"{name} (core defaults and {', '.join(info)})", version="0", **info)

    return tcgtrig.load_ruleset(name, plugins=(InfoOnly(),), autoload=False)
