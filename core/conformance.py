"""A conformance kit: the invariants every ruleset keeps, on random positions.

A game plugin runs it on itself from its own test suite::

    from .conformance import check_ruleset

    def test_my_game_keeps_the_core_invariants():
        check_ruleset("mygame", positions=100)

:func:`random_position` builds a position in core words only — cards with
triggered, optional, once-per-turn, conditional, interrupt and replacement
abilities whose actions set one another off — so it loads under any game.
:func:`world_position` builds one in the game's own world, from what the
game declares: its zones and events (``GameInfo`` and its words), its
words (each tried with an argument it accepts, see :func:`check_words`)
and cards carrying its stats (``GameInfo.stats``, at values that set its
rules processing off).
:func:`check_position` resolves it with a seeded random player and checks:

- every triggered effect ends exactly once (resolved, declined, failed,
  missed or lost), and every step's cause came before it;
- the same seed gives the same trace, byte for byte;
- stopping at any decision, copying the engine and going on gives the
  same trace as going straight through;
- the JSON trace fits its published schema;
- the resolution ends (to completion, or as an endless loop with a reason).

A failure raises :class:`ConformanceError` with the seed and the position's
YAML, ready to be saved as a scenario file and debugged.  The
:class:`Report` also names the rules the game should state and leaves to
the core's default (``GameInfo.unstated``: how many times a condition met
by several events at once triggers, and its citation): not a failure, so
a game written before they were asked for still passes.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import yaml
from attrs import frozen

from .choices import RandomChooser
from .engine import Engine
from .games.manager import Ruleset, load_ruleset
from .model.trace import OUTCOME_KINDS, Step
from .scenario.reading import Scenario, scenario_from_data, schema

__all__ = [
    "ConformanceError",
    "Report",
    "check_endings",
    "check_causes",
    "random_position",
    "world_position",
    "check_position",
    "check_ruleset",
    "check_words",
    "ENDINGS",
]

#: Steps that end an effect instance.
ENDINGS = frozenset(OUTCOME_KINDS) | {"applied"}
#: Activations and rules passes a random position may take.
STEP_BUDGET = 400
#: Decisions (besides the first and the last) at which a copy is checked.
COPY_STOPS = 3

_EVENTS = ("ping", "pong", "moved", "gained", "flag_set")
_ZONES = ("field", "hand", "grave")


class ConformanceError(AssertionError):
    """An invariant did not hold: which, for which seed, on which position."""


@frozen
class Report:
    """What :func:`check_ruleset` looked at."""

    game: str
    positions: int
    activations: int
    decisions: int
    #: the rules every game should state that this one leaves to the core's
    #: default or does not cite (``GameInfo.unstated``): not a failure, a
    #: statement to add
    unstated: tuple[str, ...] = ()


def check_endings(trace: Sequence[Step], *, complete: bool) -> None:
    """Every triggered instance ends once (at most once when the run stopped
    early); no instance ends twice; an instance that ends without having
    triggered is one an effect activated inline or a replacement."""
    triggered = [step["id"] for step in trace if step.kind == "triggered"]
    if len(triggered) != len(set(triggered)):
        raise ConformanceError("an instance triggered twice")
    endings = Counter(step["id"] for step in trace if step.kind in ENDINGS)
    twice = sorted(i for i, n in endings.items() if n > 1)
    if twice:
        raise ConformanceError(f"instances ended more than once: {twice}")
    unended = sorted(i for i in triggered if endings[i] == 0)
    if complete and unended:
        raise ConformanceError(f"triggered instances that never ended: {unended}")
    ever = set(triggered)
    for step in trace:
        if step.kind in ENDINGS and step["id"] in ever and step.kind not in OUTCOME_KINDS:
            raise ConformanceError(f"a triggered effect ended in {step.kind!r}")
        if step.kind in ENDINGS and step["id"] not in ever and step.kind == "missed":
            raise ConformanceError(f"an effect that never triggered missed the timing: {step.to_dict()}")


def check_causes(trace: Sequence[Step]) -> None:
    """A step's ``cause`` is the start (0) or an instance shown before it."""
    seen = {0}
    for step in trace:
        cause = step.get("cause")
        if cause is not None and cause not in seen:
            raise ConformanceError(f"a step caused by an instance not shown yet: {step.to_dict()}")
        if step.get("id") is not None:
            seen.add(step["id"])


def random_position(seed: int, *, cards: int | None = None, tags: Sequence[str] = ()) -> dict[str, Any]:
    """A random position in core words (scenario data), the same for a seed;
    with ``tags``, some abilities carry one of them (a game's words)."""
    rng = random.Random(seed)
    count = cards if cards is not None else rng.randint(2, 6)
    ids = [f"c{i}" for i in range(count)]
    out = []
    for card_id in ids:
        zone = rng.choice(_ZONES)
        card: dict[str, Any] = {"id": card_id, "owner": rng.choice(["A", "B"]), "zone": zone}
        abilities = [_ability(rng, ids, number) for number in range(rng.randint(0, 2))]
        for ability in abilities:
            if tags and rng.random() < 0.3:
                ability["tags"] = [rng.choice(list(tags))]
        if abilities:
            card["abilities"] = abilities
            if rng.random() < 0.3:
                for ability in abilities:
                    ability["active_in"] = list(_ZONES)
        out.append(card)
    start = [_action(rng, ids) for _ in range(rng.randint(1, 3))]
    return {
        "format": 1,
        "title": f"random position {seed}",
        "players": ["A", "B"],
        "turn_player": rng.choice(["A", "B"]),
        "cards": out,
        "start": start,
    }


#: Sample arguments a game's word is tried with, ``x`` standing for a card
#: and ``z`` for a zone: the first it accepts is how the kit writes it.
_WORD_SAMPLES: tuple[Any, ...] = (
    "x",
    {"card": "x"},
    1,
    {},
    {"card": "x", "amount": 1},
    {"card": "x", "by": 1},
    {"card": "x", "to": "z"},
    {"count": 1},
    None,
)


def _filled(sample: Any, card: str, zone: str) -> Any:
    if sample == "x":
        return card
    if isinstance(sample, dict):
        return {k: card if v == "x" else zone if v == "z" else v for k, v in sample.items()}
    return sample


def check_words(ruleset: Ruleset) -> dict[str, tuple[Any, bool]]:
    """Each of the game's words with the first sample argument it accepts
    (``x`` for a card), and whether it may stand in an ability's actions as
    well as in the start (an attack's timing words are start steps):
    ``{word: (sample, in_abilities)}``.  A word that accepts a sample but
    does not compile to core actions fails the kit, naming it.

    :raises ConformanceError: a word expands to something that is not core
        actions.
    """
    words: dict[str, tuple[Any, bool]] = {}
    for word, expand in sorted(ruleset.aliases.items()):
        for sample in _WORD_SAMPLES:
            try:
                expand(_filled(sample, "c0", "hand"))
            except Exception:  # noqa: BLE001 - a word may refuse a sample: then it is not written that way
                continue
            written = {word: _filled(sample, "c0", "hand")}
            try:
                _scenario(_one_card([written], [])).compile(ruleset)
            except Exception as exc:  # noqa: BLE001 - the word's fault, whatever was raised
                raise ConformanceError(
                    f"{ruleset.name}: the word {word!r} with {sample!r} does not expand to core actions: {exc}"
                ) from exc
            try:
                _scenario(_one_card([], [written])).compile(ruleset)
                in_abilities = True
            except Exception:  # noqa: BLE001 - a start step only
                in_abilities = False
            words[word] = (sample, in_abilities)
            break
    return words


def _one_card(start: list[Any], do: list[Any]) -> dict[str, Any]:
    card: dict[str, Any] = {"id": "c0", "owner": "A", "zone": "hand"}
    if do:
        card["abilities"] = [{"id": "a0", "when": {"event": "ping"}, "do": do}]
    return {
        "format": 1,
        "title": "a word",
        "players": ["A", "B"],
        "turn_player": "A",
        "cards": [card],
        "start": start or [{"emit": {"event": "ping"}}],
    }


def world_position(seed: int, ruleset: Ruleset, *, cards: int | None = None) -> dict[str, Any]:
    """A random position in ``ruleset``'s own world (scenario data), the
    same for a seed: its zones, events, words and stats."""
    from .tools.lint import game_events, game_zones

    rng = random.Random(seed)
    zones = sorted(game_zones(ruleset) | {"hand"})
    events = sorted(game_events(ruleset))
    words = _words_of(ruleset)
    stats = ruleset.info.stats
    count = cards if cards is not None else rng.randint(2, 6)
    ids = [f"c{i}" for i in range(count)]

    def action(start: bool = False) -> dict[str, Any]:
        roll = rng.random()
        usable = sorted(word for word, (_, in_abilities) in words.items() if start or in_abilities)
        if usable and roll < 0.4:
            word = rng.choice(usable)
            return {word: _filled(words[word][0], rng.choice(ids), rng.choice(zones))}
        if stats and roll < 0.6:
            return {"change": {"card": rng.choice(ids), "stat": rng.choice(stats), "by": rng.choice([-3000, -1, 1])}}
        if roll < 0.8:
            return {"move": {"card": rng.choice(ids), "to": rng.choice(zones)}}
        return {"emit": {"event": rng.choice(events)}}

    out = []
    for card_id in ids:
        card: dict[str, Any] = {"id": card_id, "owner": rng.choice(["A", "B"]), "zone": rng.choice(zones)}
        if stats:
            card["stats"] = {stat: rng.choice([0, 1, 2, 3000]) for stat in stats}
        abilities = []
        for number in range(rng.randint(0, 2)):
            ability: dict[str, Any] = {
                "id": f"a{number}",
                "when": {"event": rng.choice(events)},
                "do": [action() for _ in range(rng.randint(1, 2))],
            }
            if rng.random() < 0.3:
                ability["optional"] = True
            if rng.random() < 0.2:
                ability["once_per_turn"] = True
            abilities.append(ability)
        if abilities:
            card["abilities"] = abilities
        out.append(card)
    start = [action(start=True) for _ in range(rng.randint(1, 3))]
    return {
        "format": 1,
        "title": f"{ruleset.name} position {seed}",
        "players": ["A", "B"],
        "turn_player": rng.choice(["A", "B"]),
        "cards": out,
        "start": start,
    }


_WORDS: dict[int, dict[str, tuple[Any, bool]]] = {}


def _words_of(ruleset: Ruleset) -> dict[str, tuple[Any, bool]]:
    if id(ruleset) not in _WORDS:
        _WORDS.clear()  # one ruleset at a time: the kit checks one game
        _WORDS[id(ruleset)] = check_words(ruleset)
    return _WORDS[id(ruleset)]


def _ability(rng: random.Random, ids: list[str], number: int) -> dict[str, Any]:
    kind = rng.choices(["triggered", "interrupt", "replacement"], weights=[8, 1, 1])[0]
    if kind == "triggered":
        when: dict[str, Any] = {"event": rng.choice(_EVENTS)}
    else:
        when = {"event": "moved"}
    if rng.random() < 0.4:
        when["card"] = rng.choice(["self", "own", "any", "opponent", *ids])
    ability: dict[str, Any] = {"id": f"a{number}", "when": when}
    if kind != "triggered":
        ability["kind"] = kind
    if rng.random() < 0.3:
        ability["optional"] = True
    if rng.random() < 0.2:
        ability["once_per_turn"] = True
    if rng.random() < 0.2:
        ability["condition"] = {"player": "self", "counter": "n", "lt": rng.randint(1, 4)}
    do = [_action(rng, ids) for _ in range(rng.randint(1, 2))]
    if kind == "replacement":
        do = [{"prevent": {}}, *do[:1]]
    ability["do"] = do
    return ability


def _action(rng: random.Random, ids: list[str]) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.35:
        return {"gain": {"player": rng.choice(["self", "opponent"]), "counter": rng.choice(["n", "m"])}}
    if roll < 0.6:
        return {"emit": {"event": rng.choice(["ping", "pong"])}}
    if roll < 0.85:
        card: Any = rng.choice(ids) if rng.random() < 0.6 else {"zone": rng.choice(_ZONES), "pick": 1, "upto": True}
        return {"move": {"card": card, "to": rng.choice(_ZONES)}}
    return {"flag": {"card": rng.choice(ids), "set": "marked"}}


class _Stopped(Exception):
    """Raised by :class:`_Replay` where a copy is to be made."""


class _Replay:
    """The answers a seeded random player gave, given again — with its
    fingerprint, so loop detection sees the same run (a random player
    never repeats itself)."""

    def __init__(self, answers: Sequence[str], *, calls: int = 0, stop_at: int | None = None) -> None:
        self.answers = answers
        self.calls = calls
        self.stop_at = stop_at

    def choose(self, decision: Any, engine: Any = None) -> str:
        if self.calls == self.stop_at:
            raise _Stopped
        self.calls += 1
        return self.answers[self.calls - 1]

    def fingerprint(self) -> object:
        return ("random", self.calls)


def _scenario(data: dict[str, Any]) -> Scenario:
    return scenario_from_data(data, file=f"<{data['title']}>", check_game=False)


def _answers(trace: Iterable[Step]) -> list[str]:
    return [step["label"] for step in trace if step.kind == "choice"]


@lru_cache(maxsize=1)
def _trace_validator() -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(schema("trace"))


def check_position(data: dict[str, Any], ruleset: Ruleset, seed: int = 0) -> tuple[int, int]:
    """Resolve one position with a seeded random player and check every
    invariant; the number of activations and of decisions asked."""
    scenario = _scenario(data)

    def fail(why: str) -> ConformanceError:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
        return ConformanceError(f"{ruleset.name}, seed {seed}: {why}\n--- the position ---\n{text}")

    def straight() -> Engine:
        return Engine.for_scenario(scenario, ruleset, max_steps=STEP_BUDGET).run(RandomChooser(seed))

    try:
        first = straight()
        result = first.result()
        complete = result.outcome == "complete"
        if not complete and not (result.trace and result.trace[-1].kind == "ended" and result.reason):
            raise fail(f"ended as {result.outcome!r} without saying why")
        check_endings(result.trace, complete=complete)
        check_causes(result.trace)
        text = result.json_text()
        if straight().result().json_text() != text:
            raise fail("the same seed gave another trace")
        errors = sorted(_trace_validator().iter_errors(json.loads(text)), key=lambda e: list(e.path))
        if errors:
            raise fail(f"the JSON trace does not fit its schema: {errors[0].message} at {list(errors[0].path)}")
        answers = _answers(result.trace)
        stops = sorted(
            {0, len(answers), *random.Random(seed).sample(range(len(answers) + 1), min(COPY_STOPS, len(answers) + 1))}
        )
        for stop in stops:  # copy at a decision, then go on: the same trace
            engine = Engine.for_scenario(scenario, ruleset, max_steps=STEP_BUDGET)
            try:
                engine.run(_Replay(answers, stop_at=stop))
            except _Stopped:
                pass
            branch = engine.copy()
            branch.run(_Replay(answers, calls=stop))
            if branch.result().json_text() != text:
                raise fail(f"a copy made after {stop} answers went another way")
    except ConformanceError:
        raise
    except Exception as exc:  # noqa: BLE001 - any other failure is a broken invariant too
        raise fail(f"{type(exc).__name__}: {exc}") from exc
    return len(result.keys("activated")), len(answers)


def check_ruleset(
    game: str | Ruleset, *, positions: int = 100, seed: int = 0, plugins: Iterable[object] = ()
) -> Report:
    """Check ``positions`` random positions under ``game`` (a name or a
    :class:`~tcgtrig.Ruleset`).  Raises :class:`ConformanceError` on the first broken
    invariant; returns what was looked at."""
    ruleset = game if isinstance(game, Ruleset) else load_ruleset(game, plugins=plugins)
    check_words(ruleset)
    activations = decisions = 0
    for number in range(seed, seed + positions):
        # every other position in the game's own world: its zones, words, stats and rules processing
        data = world_position(number, ruleset) if number % 2 else random_position(number)
        done, asked = check_position(data, ruleset, seed=number)
        activations += done
        decisions += asked
    return Report(ruleset.name, positions, activations, decisions, ruleset.info.unstated)
