"""Review of the kept chain-window answers (``core/runtime/responders.py``):
more differentials against a window that asks about everything
(``window_reads = None``), on richer positions than ``test_responders.py``'s.

Each test plays a position in both modes with the same answers and
requires the same decisions (kind, player, options in order), the same
JSON trace byte for byte (so the same instance numbers), options of an
earlier ``respond`` decision that stay what they were, and an
``engine.copy()`` taken at a ``respond`` decision that, continued after the
original has run on, ends as the uninterrupted run does.  The positions
have piles (cards ``under`` another, abilities ``active_in: sources``),
costs that move, flag or detach cards (the ability's own card, another,
one from under its card), conditions on counters, marks, the turn and other
cards, ``when`` abilities, once per chain, soft, hard (shared names) and
twice per turn limits, speeds 1-3, negation (in costs too), hand
triggers (offered in the OCG's windows), grants, chains started while
another resolved, and a turn passing between chains.  Three games: Yu-Gi-Oh!,
its OCG variant, and a chain game with the core's speed rule alone (one
table per lowest speed).
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import attrs
import pytest
import tcgtrig
from tcgtrig import hookimpl
from tcgtrig.choices import RandomChooser
from tcgtrig.plugins.yugioh import GAME_INFO, policy
from tcgtrig.scenario.reading import scenario_from_data, scenario_from_text
from tcgtrig.tools.explore import explore_engine


class CoreSpeedChain:
    """Yu-Gi-Oh!'s words and zones, but only the core's rules: no hook
    answers a response (``responds_by_speed``), so a player's abilities are
    filed per lowest speed (2 or 3)."""

    @hookimpl
    def tcgtrig_game_info(self):
        return attrs.evolve(GAME_INFO, name="corechain", variants={})

    @hookimpl
    def tcgtrig_action_aliases(self):
        return dict(policy.ALIASES)


GAMES = ("yugioh", "yugioh/ocg", "corechain")


def ruleset(game: str, keep: bool) -> tcgtrig.Ruleset:
    if game == "corechain":
        found = tcgtrig.load_ruleset("corechain", plugins=(CoreSpeedChain(),), autoload=False)
        assert found.responds_by_speed
    else:
        found = tcgtrig.load_ruleset(game)
    if not keep:
        found.window_reads = None
    else:
        assert found.window_reads is not None
    return found


Asked = list[tuple[str, str, tuple[str, ...]]]


def reference(position: tcgtrig.Scenario, game: str, seed: int) -> tuple[Asked, list[str], str]:
    """Every window asks about everything: the decisions, the answers a
    seeded random player gave, the JSON trace."""
    engine = tcgtrig.Engine.for_scenario(position, ruleset(game, keep=False), max_steps=3000)
    chooser = RandomChooser(seed)
    asked: Asked = []
    answers: list[str] = []
    while (decision := engine.advance()) is not None:
        asked.append((decision.kind, decision.player, tuple(decision.options)))
        answers.append(chooser.choose(decision, engine))
        engine.answer(answers[-1])
    return asked, answers, engine.result().json_text()


def answer_on(engine: tcgtrig.Engine, answers: list[str], at: int, asked: Asked) -> str:
    while (decision := engine.advance()) is not None:
        asked.append((decision.kind, decision.player, tuple(decision.options)))
        assert at < len(answers), "more decisions than the reference asked"
        engine.answer(answers[at])
        at += 1
    return engine.result().json_text()


def assert_same_as_asking_everything(position: tcgtrig.Scenario, game: str, seed: int) -> int:
    """Kept answers against the reference, with a copy taken at one
    ``respond`` decision; how many ``respond`` decisions there were."""
    ref_asked, answers, ref_json = reference(position, game, seed)
    responds = [i for i, (kind, _, _) in enumerate(ref_asked) if kind == "respond"]
    copy_at = random.Random(seed).choice(responds) if responds else None
    engine = tcgtrig.Engine.for_scenario(position, ruleset(game, keep=True), max_steps=3000)
    asked: Asked = []
    decisions = []
    copy = None
    for at in itertools.count():
        decision = engine.advance()
        if decision is None:
            break
        asked.append((decision.kind, decision.player, tuple(decision.options)))
        decisions.append((decision, asked[-1][2]))
        if at == copy_at:
            copy, copy_asked = engine.copy(), list(asked)
        assert at < len(answers), "more decisions than the reference asked"
        engine.answer(answers[at])
    assert asked == ref_asked, "other decisions were asked"
    assert engine.result().json_text() == ref_json, "another trace"
    for decision, options in decisions:
        if decision.kind == "respond":
            assert tuple(decision.options) == options, "an earlier window's options changed"
    if copy is not None:
        assert copy_at is not None
        copy.answer(answers[copy_at])
        assert answer_on(copy, answers, copy_at + 1, copy_asked) == ref_json, "the copy ended otherwise"
        assert copy_asked == ref_asked
    return len(responds)


# ---------------------------------------------------------------------------
# Random positions of richer shapes
# ---------------------------------------------------------------------------

WHENS: list[dict[str, Any]] = [
    {"event": "activated"},
    {"event": "activated", "player": "opponent"},
    {"event": "activated", "card": {"types": ["spell"]}},
    {"event": "moved", "to": "graveyard"},
    {"event": "flag_set"},
    {"event": "gained"},
    {"event": "negated"},
    {"event": "moved", "card": "self"},
]


def costs(rng: random.Random, ids: list[str]) -> list[Any]:
    other, top = rng.choice(ids), rng.choice(ids)
    return [
        rng.choice(
            [
                {"lp": -1000},
                {"lose": {"player": "self", "counter": "n", "amount": 1}},
                {"move": {"card": "self", "to": "graveyard"}},
                {"move": {"card": other, "to": "graveyard"}},
                {"flag": {"card": other, "set": "face_down"}},
                {"flag": {"card": "self", "set": "face_down"}},
                {"move": {"card": {"zone": "sources", "under": "self", "pick": 1}, "to": "graveyard"}},
                {"discard": {"zone": "hand", "owner": "self", "pick": 1}},
                {"mark": {"set": "m"}},
                {"move": {"card": other, "to": "sources", "under": top}},
                {"negate": other},
            ]
        )
    ]


def condition(rng: random.Random, ids: list[str]) -> Any:
    other = rng.choice(ids)
    return rng.choice(
        [
            {"count": {"zone": "graveyard"}, "gte": rng.randint(1, 2)},
            {"player": "self", "counter": "n", "gte": 1},
            {"player": "opponent", "counter": "lp", "lte": 2500},
            {"mark": "m"},
            {"not": {"mark": "m"}},
            {"turn": "self"},
            {"card": other, "in": "field"},
            {"card": other, "no_flag": "face_down"},
            {"card": other, "stat": "atk", "gte": 1000},
            {"count": {"zone": "sources", "under": "self"}, "gte": 1},
        ]
    )


GRANTS = itertools.count()


def actions(rng: random.Random, ids: list[str]) -> list[Any]:
    other, top = rng.choice(ids), rng.choice(ids)
    return [
        rng.choice(
            [
                {"lp": 1},
                {"lp": -300},
                {"gain": {"player": "self", "counter": "n", "amount": 1}},
                {"lose": {"player": "opponent", "counter": "n", "amount": 1}},
                {"move": {"card": other, "to": rng.choice(["graveyard", "field", "hand"])}},
                {"destroy": "event.card"},
                {"flag": {"card": other, "set": "face_down"}},
                {"flag": {"card": other, "clear": "face_down"}},
                {"mark": {"set": "m"}},
                {"mark": {"clear": "m"}},
                {"negate_activation": "event.card"},
                {"negate": other},
                {"change": {"card": other, "stat": "atk", "by": 500}},
                {"special_summon": "self"},
                {"move": {"card": other, "to": "sources", "under": top}},
                {
                    "grant": {
                        "card": other,
                        "ability": {"id": f"g{next(GRANTS)}", "when": "flag_set", "do": [{"lp": 1}]},
                    }
                },
            ]
        )
        for _ in range(rng.randint(1, 2))
    ]


def rich_chain(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    ids = [f"c{i}" for i in range(rng.randint(4, 12))]
    cards: list[dict[str, Any]] = []
    tops: list[str] = []
    for i, card_id in enumerate(ids):
        zone = rng.choices(["field", "hand", "graveyard", "sources"], weights=[6, 2, 1, 3])[0]
        card: dict[str, Any] = {
            "id": card_id,
            "name": rng.choice(["Twin", "Twin", "Other", f"Card {i}"]),  # a hard limit is per name
            "owner": rng.choice(["A", "B"]),
            "zone": zone if zone != "sources" or tops else "field",
            "types": [rng.choice(["monster", "spell", "trap"])],
            "stats": {"atk": rng.choice([500, 1000, 1500])},
        }
        if card["zone"] == "sources":
            card["under"] = rng.choice(tops)
        elif card["zone"] == "field":
            tops.append(card_id)
        abilities = []
        for j in range(rng.choice([1, 1, 2, 3])):
            kind = rng.choices(["activated", "triggered"], weights=[4, 1])[0]
            ability: dict[str, Any] = {"id": f"e{j}", "kind": kind, "do": actions(rng, ids)}
            if kind == "activated":
                ability["speed"] = rng.choice([1, 2, 2, 2, 3])
                if rng.random() < 0.25:
                    ability["when"] = rng.choice(WHENS)
            else:
                ability["when"] = rng.choice(WHENS)
                ability["optional"] = rng.random() < 0.6
            if rng.random() < 0.35:
                ability["cost"] = costs(rng, ids)
            if rng.random() < 0.3:
                ability["condition"] = condition(rng, ids)
            if rng.random() < 0.1:
                ability["target"] = {"zone": "field", "pick": 1}
            if rng.random() < 0.5:
                ability["active_in"] = rng.sample(["field", "hand", "graveyard", "sources"], rng.randint(1, 2))
            roll = rng.random()
            if roll < 0.4:
                ability["once_per_turn"] = True
                if roll < 0.2:
                    ability["tags"] = ["hard_once_per_turn"]
            elif roll < 0.5:
                ability["per_turn"] = 2
            if rng.random() < 0.2:
                ability["tags"] = [*ability.get("tags", []), "once_per_chain"]
            abilities.append(ability)
        card["abilities"] = abilities
        cards.append(card)
    for i in range(rng.randint(6, 12)):  # plain quick effects: a window asks again about a few abilities only
        cards.append(
            {
                "id": f"q{i}",
                "owner": rng.choice(["A", "B"]),
                "zone": "field",
                "types": ["monster"],
                "abilities": [{"id": "e", "kind": "activated", "speed": rng.choice([1, 2, 2, 3]), "do": [{"lp": 1}]}],
            }
        )
    cards.append(
        {
            "id": "starter",
            "owner": "A",
            "zone": "field",
            "types": ["spell"],
            "abilities": [{"id": "main", "kind": "activated", "do": actions(rng, ids)}],
        }
    )
    cards += [{"id": "deck_a", "owner": "A", "zone": "deck"}, {"id": "deck_b", "owner": "B", "zone": "deck"}]
    start = rng.choice(
        [
            [{"activate": "starter.main"}],
            [{"move": {"card": rng.choice(ids), "to": "graveyard"}}],
            [{"activate": "starter.main"}, {"pass_turn": {}}, {"activate": "starter.main"}],
            [{"special_summon": rng.choice(ids)}, {"resolve_pending": {}}, {"activate": "starter.main"}],
        ]
    )
    return {
        "format": 1,
        "title": "rich random chain",
        "players": ["A", "B"],
        "turn_player": rng.choice(["A", "B"]),
        "counters": {"A": {"lp": 3000, "n": rng.randint(0, 2)}, "B": {"lp": 3000, "n": rng.randint(0, 2)}},
        "cards": cards,
        "start": start,
    }


@pytest.mark.parametrize("game", GAMES)
def test_rich_random_chains_play_out_as_when_every_window_asks_everything(game):
    responds = 0
    for seed in range(12):
        position = scenario_from_data(rich_chain(seed), "<rich random chain>", check_game=False)
        responds += assert_same_as_asking_everything(position, game, seed)
    assert responds >= 40  # the positions do build chains


# ---------------------------------------------------------------------------
# Positions aimed at what a window keeps
# ---------------------------------------------------------------------------

PILES = """\
format: 1
title: a pile whose cards work from under it, detached and stacked as costs
players: [A, B]
turn_player: A
counters: {A: {lp: 8000, n: 1}, B: {lp: 8000, n: 1}}
cards:
  - {id: starter, owner: A, zone: field, types: [spell], abilities: [{id: main, kind: activated, do: [{lp: 1}]}]}
  - id: xyz
    owner: B
    zone: field
    types: [monster]
    abilities:
      - {id: detach, kind: activated, speed: 2, do: [{lp: 1}],
         cost: [{move: {card: {zone: sources, under: self, pick: 1}, to: graveyard}}]}
  - {id: m1, name: Twin, owner: B, zone: sources, under: xyz, types: [monster],
     abilities: [{id: e, kind: activated, speed: 2, active_in: [sources], once_per_turn: true,
                  tags: [hard_once_per_turn], do: [{lp: 1}]}]}
  - {id: m2, name: Twin, owner: A, zone: sources, under: xyz, types: [monster],
     abilities: [{id: e, kind: activated, speed: 2, active_in: [sources, graveyard], once_per_turn: true,
                  tags: [hard_once_per_turn], do: [{lp: 1}]}]}
  - {id: m3, name: Other, owner: B, zone: sources, under: xyz, types: [monster],
     abilities: [{id: e, kind: activated, speed: 2, active_in: [graveyard], do: [{move: {card: self, to: sources, under: xyz}}]}]}
  - id: quick
    name: Twin
    owner: B
    zone: field
    types: [monster]
    abilities:
      - {id: e, kind: activated, speed: 2, once_per_turn: true, tags: [hard_once_per_turn], do: [{lp: 1}]}
      - {id: f, kind: activated, speed: 2, cost: [{move: {card: self, to: sources, under: xyz}}], do: [{lp: 1}]}
  - id: a_quick
    owner: A
    zone: field
    types: [trap]
    abilities:
      - {id: e, kind: activated, speed: 2, cost: [{move: {card: m2, to: graveyard}}], do: [{lp: 1}]}
      - {id: g, kind: activated, speed: 3, cost: [{flag: {card: xyz, set: face_down}}], do: [{lp: 1}]}
  - id: a_mon
    owner: A
    zone: field
    types: [monster]
    abilities:
      - {id: e, kind: activated, speed: 2, condition: {card: xyz, no_flag: face_down}, do: [{negate: xyz}]}
      - {id: c, kind: activated, speed: 2, condition: {count: {zone: sources, under: xyz}, gte: 2}, do: [{lp: 1}]}
start: [{activate: starter.main}]
"""

NEGATIONS = """\
format: 1
title: negation while the chain is built (a cost) and as links resolve; hand triggers on it
players: [A, B]
turn_player: A
counters: {A: {lp: 8000}, B: {lp: 8000}}
cards:
  - {id: starter, owner: A, zone: field, types: [spell], abilities: [{id: main, kind: activated, do: [{lp: 1}]}]}
  - id: b1
    owner: B
    zone: field
    types: [trap]
    abilities:
      - {id: e, kind: activated, speed: 2, cost: [{negate: starter}], do: [{lp: 1}]}
      - {id: w, kind: activated, speed: 2, when: {event: negated}, tags: [once_per_chain],
         do: [{negate_activation: event.card}]}
  - id: b2
    owner: B
    zone: field
    types: [monster]
    abilities:
      - {id: e, kind: activated, speed: 3, tags: [once_per_chain], cost: [{negate: a1}], do: [{destroy: a1}]}
  - id: a1
    owner: A
    zone: field
    types: [monster]
    abilities:
      - {id: e, kind: activated, speed: 2, do: [{negate_activation: b1}]}
      - {id: t, kind: triggered, when: {event: moved, card: self}, active_in: [graveyard], do: [{lp: 5}]}
  - id: a2
    owner: A
    zone: hand
    types: [monster]
    abilities:
      - {id: h, kind: triggered, optional: true, active_in: [hand], when: {event: negated},
         do: [{special_summon: self}]}
      - {id: q, kind: activated, speed: 2, active_in: [field], once_per_turn: true, do: [{lp: 1}]}
  - id: a3
    owner: A
    zone: hand
    types: [monster]
    abilities:
      - {id: h, kind: triggered, optional: true, active_in: [hand], when: {event: moved, to: graveyard},
         do: [{special_summon: self}]}
      - {id: q, kind: activated, speed: 3, active_in: [field], do: [{negate: b2}]}
start: [{activate: starter.main}]
"""

COUNTERS_MARKS_TURN = """\
format: 1
title: conditions on counters, marks and the turn; per-turn uses spent before and after a turn passes
players: [A, B]
turn_player: A
counters: {A: {lp: 8000, n: 0}, B: {lp: 8000, n: 1}}
cards:
  - {id: starter, owner: A, zone: field, types: [spell], abilities: [{id: main, kind: activated, do: [{lp: 1}]}]}
  - id: a1
    name: Twin
    owner: A
    zone: field
    types: [monster]
    abilities:
      - {id: e, kind: activated, speed: 2, condition: {player: self, counter: n, gte: 1}, once_per_turn: true,
         tags: [hard_once_per_turn], do: [{gain: {player: opponent, counter: n, amount: 1}}]}
      - {id: m, kind: activated, speed: 2, condition: {not: {mark: m}}, do: [{mark: {set: m}}]}
  - id: a2
    name: Twin
    owner: A
    zone: field
    types: [monster]
    abilities:
      - {id: e, kind: activated, speed: 2, once_per_turn: true, tags: [hard_once_per_turn], do: [{lp: 1}]}
      - {id: t, kind: activated, speed: 2, condition: {turn: self}, per_turn: 2, do: [{mark: {clear: m}}]}
  - id: b1
    owner: B
    zone: field
    types: [monster]
    abilities:
      - {id: e, kind: activated, speed: 2, cost: [{lose: {player: self, counter: n, amount: 1}}],
         do: [{gain: {player: opponent, counter: n, amount: 1}}]}
      - {id: m, kind: activated, speed: 2, condition: {mark: m}, once_per_turn: true, do: [{lp: 1}]}
      - {id: o, kind: activated, speed: 2, condition: {turn: opponent}, do: [{lp: 1}]}
start: [{activate: starter.main}, {pass_turn: {}}, {activate: starter.main}]
"""


@pytest.mark.parametrize("text", [PILES, NEGATIONS, COUNTERS_MARKS_TURN], ids=["piles", "negations", "turn"])
@pytest.mark.parametrize("game", GAMES)
def test_aimed_positions_play_out_as_when_every_window_asks_everything(text, game):
    position = scenario_from_text(text, "aimed.yaml")
    responds = sum(assert_same_as_asking_everything(position, game, seed) for seed in range(6))
    assert responds >= 6


def test_exploring_a_chain_position_finds_what_asking_everything_finds():
    position = scenario_from_text(PILES, "piles.yaml")
    found = []
    for keep in (True, False):
        engine = tcgtrig.Engine.for_scenario(position, ruleset("yugioh", keep), max_steps=3000)
        decision = engine.advance()
        assert decision is not None and decision.kind == "respond"
        engine.answer("quick.f")
        assert engine.advance() is not None
        exploration = explore_engine(engine, max_states=120)
        found.append(json.dumps(exploration.to_json(), sort_keys=True, default=str))
    assert found[0] == found[1]


NAMESAKES = """\
format: 1
title: a hard once per turn spent by a namesake (a response, a trigger), the chain's top speed unchanged
players: [A, B]
turn_player: A
counters: {A: {lp: 8000}, B: {lp: 8000}}
cards:
  - {id: starter, owner: A, zone: field, types: [spell], abilities: [{id: main, kind: activated, speed: 2, do: [{lp: 1}]}]}
  - {id: t1, name: Twin, owner: B, zone: field, types: [monster],
     abilities: [{id: e, kind: activated, speed: 2, once_per_turn: true, tags: [hard_once_per_turn], do: [{lp: 1}]}]}
  - {id: t2, name: Twin, owner: B, zone: field, types: [monster],
     abilities: [{id: e, kind: activated, speed: 2, once_per_turn: true, tags: [hard_once_per_turn], do: [{lp: 1}]}]}
  - {id: t3, name: Twin, owner: B, zone: field, types: [monster],
     abilities: [{id: e, kind: activated, speed: 2, per_turn: 2, tags: [hard_once_per_turn], do: [{lp: 1}]}]}
  - {id: t4, name: Twin, owner: B, zone: hand, types: [monster],
     abilities: [{id: e, kind: triggered, when: {event: activated, card: a2}, active_in: [hand], once_per_turn: true,
                  tags: [hard_once_per_turn], do: [{lp: 1}]}]}
  - {id: a1, owner: A, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2, do: [{lp: 1}]}]}
  - {id: a2, owner: A, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2, do: [{lp: 1}]}]}
  - {id: a3, owner: A, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2, do: [{lp: 1}]}]}
  - {id: b1, owner: B, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2, do: [{lp: 1}]}]}
  - {id: b2, owner: B, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2, do: [{lp: 1}]}]}
  - {id: b3, owner: B, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2, do: [{lp: 1}]}]}
  - {id: b4, owner: B, zone: field, types: [monster], abilities: [{id: e, kind: activated, speed: 2, do: [{lp: 1}]}]}
start: [{activate: starter.main}]
"""


@pytest.mark.parametrize("game", GAMES)
def test_a_per_turn_use_by_a_namesake_is_seen_at_the_next_window(game):
    position = scenario_from_text(NAMESAKES, "namesakes.yaml")
    responds = sum(assert_same_as_asking_everything(position, game, seed) for seed in range(8))
    assert responds >= 20


def test_after_a_namesake_spent_the_name_it_is_not_offered_though_nothing_else_changed():
    result = tcgtrig.resolve(scenario_from_text(NAMESAKES, "namesakes.yaml"), "yugioh", choices=["t1.e", "a1.e"])
    offered = [(step.get("player"), step.get("options")) for step in result.trace if step.kind == "choice"]
    assert offered[:3] == [
        ("B", ("t1.e", "t3.e", "b1.e", "b2.e", "b3.e", "b4.e", "pass")),  # t1 stands for its copy t2 too
        ("A", ("a1.e", "a2.e", "a3.e", "pass")),
        ("B", ("t3.e", "b1.e", "b2.e", "b3.e", "b4.e", "pass")),  # t2 shares t1's use; t3 may go twice
    ]
