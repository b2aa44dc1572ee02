"""Shared test helpers: build scenarios from text and resolve them (import helpers)."""

from __future__ import annotations

import functools
import random
import subprocess
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import tcgtrig
import yaml
from attrs import define
from tcgtrig import GameInfo, Resolution, Scenario, hookimpl


@functools.cache
def yaml_file(path: Path) -> Any:
    """A YAML file's data, read once for the whole run (libyaml's loader when
    it is there).  Shared between tests: read it, do not change it."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


#: one card whose two abilities both trigger on ``ping`` and do nothing: the smallest order to decide
TWO_EFFECTS_ON_PING = """\
format: 1
title: two effects
players: [A, B]
turn_player: A
cards:
  - id: a
    owner: A
    zone: battle
    abilities:
      - {id: first, when: ping, do: []}
      - {id: second, when: ping, do: []}
start: [{emit: {event: ping}}]
"""


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


@define(frozen=True)
class Finished:
    """How a command run as a process ended: ``status`` is ``None`` when it
    was still running at the deadline (it was then killed)."""

    status: int | None
    stdout: str
    stderr: str


def run_processes(
    commands: dict[str, tuple[list[str], bytes]], where: Path, deadline: float, **popen: Any
) -> dict[str, Finished]:
    """Run every command at once (name → argv, what goes to its standard
    input), its output in files under ``where``; wait for all of them
    together for at most ``deadline`` seconds, kill what is left.
    ``popen``: more arguments for :class:`subprocess.Popen` (env, preexec_fn)."""
    running = {}
    for name, (argv, stdin) in commands.items():
        out, err = (where / f"{name}.out").open("wb"), (where / f"{name}.err").open("wb")
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=out, stderr=err, cwd=where, **popen)
        process.stdin.write(stdin)  # type: ignore[union-attr]
        process.stdin.close()  # type: ignore[union-attr]
        running[name] = (process, out, err)
    ends = time.monotonic() + deadline
    found = {}
    for name, (process, out, err) in running.items():
        try:
            process.wait(timeout=max(ends - time.monotonic(), 0.1))
            status: int | None = process.returncode
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            status = None
        out.close()
        err.close()
        found[name] = Finished(
            status,
            (where / f"{name}.out").read_text(encoding="utf-8", errors="replace"),
            (where / f"{name}.err").read_text(encoding="utf-8", errors="replace"),
        )
    return found


def require_example_games() -> None:
    """Skip the calling test when an example game package of
    ``examples/games/`` is not installed (the pages it checks show those
    games), saying how to install it; with ``TCGTRIG_REQUIRE_EXAMPLE_GAMES``
    set (as CI sets it), fail instead."""
    import os
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs"))
    from repository_games import missing_example_games

    missing = missing_example_games()
    if missing:
        why = (
            f"example game(s) not installed: {', '.join(missing)} "
            f"(pip install -e examples/games/{missing[0]}, as the README's first command does)"
        )
        if os.environ.get("TCGTRIG_REQUIRE_EXAMPLE_GAMES"):
            pytest.fail(why)
        pytest.skip(why)


def responses(links: int, game: str = "yugioh") -> tuple[str, list[str]]:
    """A starter of A's and ``links`` quick abilities, B's and A's in turn,
    each chosen as its player's response (as ``benchmarks/run.py``'s
    ``ygo_responses``), in the game ``game``."""
    cards = ["  - {id: starter, owner: A, zone: field, abilities: [{id: main, kind: activated, do: [{lp: 1}]}]}"]
    for i in range(links):
        owner = "B" if i % 2 == 0 else "A"
        cards.append(
            f"  - {{id: q{i}, owner: {owner}, zone: field,"
            " abilities: [{id: quick, kind: activated, speed: 2, do: [{lp: 1}]}]}"
        )
    text = f"game: {game}\ncards:\n" + "\n".join(cards) + "\nstart: [{activate: starter.main}]\n"
    return text, [f"q{i}.quick" for i in range(links)]


def read_card(game: str, reading: Any, zone: str, types: Sequence[str] = ()) -> Any:
    """Compile a position of one card of A's in ``zone`` whose abilities are
    those ``reading`` (a :class:`tcgtrig.printed.Reading`) read: an ability
    read whole must compile under its game."""
    return card_with(game, reading.scenario(), zone, types)


def card_with(game: str, abilities: list[Any], zone: str, types: Sequence[str] = ()) -> Any:
    """Compile under ``game`` a position of one card of A's in ``zone`` with
    ``abilities`` (scenario data)."""
    data = {
        "format": 1,
        "title": "read from printed text",
        "game": game,
        "players": ["A", "B"],
        "turn_player": "A",
        "cards": [{"id": "c", "owner": "A", "zone": zone, "types": list(types), "abilities": abilities}],
        "start": [],
    }
    return tcgtrig.scenario_from_data(data).compile(tcgtrig.load_ruleset(game))


def random_chain(seed: int) -> dict[str, Any]:
    """Cards of both players with activated abilities of speeds 1–3, spells
    and monsters, some of them with what a window reads: a cost that pays
    life points, sends a card to the graveyard or turns it face down; a
    condition on a graveyard; a ``when``; once per chain; once per turn,
    soft or hard (some cards share a name)."""
    rng = random.Random(seed)
    count = rng.randint(3, 12)
    cards = []
    for i in range(count):
        ability: dict[str, Any] = {"id": "e", "kind": "activated", "speed": rng.choice([1, 2, 2, 3])}
        ability["do"] = [rng.choice([{"lp": 1}, {"gain": {"counter": "n"}}, {"lp": -100}])]
        other = f"c{rng.randrange(count)}"
        roll = rng.random()
        if roll < 0.1:
            ability["cost"] = [{"lp": -1000}]
        elif roll < 0.2:
            ability["cost"] = [{"move": {"card": other, "to": "graveyard"}}]
        elif roll < 0.3:
            ability["cost"] = [{"flag": {"card": other, "set": "face_down"}}]
        elif roll < 0.4:
            ability["when"] = rng.choice(
                [
                    {"event": "activated"},
                    {"event": "activated", "player": "opponent"},
                    {"event": "activated", "card": {"types": ["spell"]}},
                ]
            )
        elif roll < 0.5:
            ability["condition"] = {"count": {"zone": "graveyard"}, "gte": rng.randint(0, 2)}
        if rng.random() < 0.3:
            ability["once_per_turn"] = True
            if rng.random() < 0.5:
                ability["tags"] = ["hard_once_per_turn"]
        if rng.random() < 0.2:
            ability["tags"] = [*ability.get("tags", []), "once_per_chain"]
        cards.append(
            {
                "id": f"c{i}",
                "name": rng.choice(["Twin", "Twin", "Other", f"Card {i}"]),  # a hard limit is per name
                "owner": rng.choice(["A", "B"]),
                "zone": "field",
                "types": [rng.choice(["monster", "spell", "trap"])],
                "abilities": [ability],
            }
        )
    cards.append(
        {
            "id": "starter",
            "owner": "A",
            "zone": "field",
            "abilities": [{"id": "main", "kind": "activated", "speed": 1, "do": [{"lp": 1}]}],
        }
    )
    return {
        "format": 1,
        "title": "random chain",
        "players": ["A", "B"],
        "turn_player": "A",
        "counters": {"A": {"lp": 3000}, "B": {"lp": 3000}},
        "cards": cards,
        "start": [{"activate": "starter.main"}],
    }
