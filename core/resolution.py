"""The library's front door: resolve a scenario under a game.

>>> from tcgtrig import load_scenario, resolve
>>> result = resolve(load_scenario("tests/scenarios/digimon/triggered-01.yaml"), "digimon")
>>> result.keys("resolved")          # doctest: +SKIP
['gabumon.trash', 'metalgarurumon.play', ...]
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import field

from .base import jsontext
from .base.errors import ChoiceError, PluginError
from .choices import Chooser, ScriptedChooser
from .engine import DEFAULT_MAX_STEPS, Engine
from .games.manager import Ruleset, pick_game
from .model.state import GameState
from .model.trace import Trace
from .scenario.reading import Bound, Compiled, Scenario, bind, load_scenario
from .scenario.source import format_path

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from .base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

__all__ = ["Resolution", "Placement", "resolve", "pick_game", "summary"]

#: the steps whose ``rule`` says why their effect went when it did (and ``ahead_of``, ahead of which)
_PLACING = frozenset({"activated", "applied", "resolved"})


@frozen
class Placement:
    """Why a resolved effect resolved where it did (:meth:`Resolution.placements`).

    :param key: the effect key.
    :param id: its instance.
    :param behind: the rules that put other effects ahead of it while it
        waited (the ``rule`` of each step whose ``ahead_of`` is it), in
        trace order, each once: in a chain game, why it went on the chain
        later (and so resolves sooner).
    :param activated: the rule that put it ahead of another waiting effect
        as it activated (its ``activated`` step's ``rule``), if one waited.
    :param resolved: chain games: the rule that resolved it when it did
        (its ``resolved`` step's: the chain's last in, first out), if its
        chain held another link.
    """

    key: str
    id: int
    behind: tuple[str, ...] = ()
    activated: str | None = None
    resolved: str | None = None

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule that placed it, in that order, each once."""
        found = [*self.behind, *(rule for rule in (self.activated, self.resolved) if rule is not None)]
        return tuple(dict.fromkeys(found))


@frozen(kw_only=True)
class Resolution:
    """What happened when a scenario was resolved under one game."""

    game: str
    title: str
    engine: Engine = field(eq=False, repr=False)
    compiled: Compiled = field(eq=False, repr=False)
    unused_choices: tuple[str, ...] = ()

    @property
    def trace(self) -> Trace:
        return self.engine.trace

    @property
    def state(self) -> GameState:
        return self.engine.state

    @property
    def outcome(self) -> str:
        return self.engine.outcome.outcome if self.engine.outcome else "complete"

    @property
    def reason(self) -> str | None:
        return self.engine.outcome.reason if self.engine.outcome else None

    def keys(self, kind: str) -> list[str]:
        """Effect keys of the steps of one kind, in trace order."""
        return self.trace.effects(kind)

    def chains(self) -> list[list[str]]:
        """Chain games: each chain's links from link 1 up, as effect keys."""
        chains: dict[int, list[str]] = {}
        for step in self.trace:
            if step.kind == "activated" and step.get("chain_link"):
                chains.setdefault(step["chain"], []).append(step["effect"])
        return [chains[number] for number in sorted(chains)]

    def why(self, effect: str | int) -> list[str]:
        """The rules that placed an effect, in trace order, each once: those
        that put other effects ahead of it while it waited (their steps'
        ``ahead_of`` is it), the ``rule`` of its own ``activated`` (or
        ``applied``) step — what put it ahead of the effects still
        waiting — and, in a chain game, of its ``resolved`` step.
        ``effect``: an instance id, or an effect key (every instance of
        it).  Empty when it never competed."""
        ids = {effect} if isinstance(effect, int) else None
        if ids is None:
            ids = {step.get("id") for step in self.trace if step.kind == "triggered" and step.get("effect") == effect}
            ids |= {step.get("id") for step in self.trace if step.kind in _PLACING and step.get("effect") == effect}
        found: dict[str, None] = {}
        for step in self.trace:
            rule = step.get("rule")
            if rule is not None and step.kind in _PLACING and (step.get("id") in ids or step.get("ahead_of") in ids):
                found[rule] = None
        return list(found)

    def placements(self) -> list[Placement]:
        """For each resolved effect, in resolution order (as
        ``keys("resolved")``), the rules that placed it."""
        activated: dict[int, str] = {}
        behind: dict[int, dict[str, None]] = {}
        out = []
        for step in self.trace:
            if step.kind in ("activated", "applied"):
                rule = step.get("rule")
                if rule is not None:
                    activated[step["id"]] = rule
                    behind.setdefault(step["ahead_of"], {})[rule] = None
            elif step.kind == "resolved":
                number = step["id"]
                out.append(
                    Placement(
                        step["effect"], number, tuple(behind.get(number, ())), activated.get(number), step.get("rule")
                    )
                )
        return out

    def stat(self, card_id: str, name: str) -> int | None:
        return self.engine.view.stat(card_id, name)

    def to_dict(self, *, lazy: bool = False) -> dict[str, Any]:
        """The JSON trace of the contract (``tcgtrig run --json``), as a dict.

        ``lazy``: the steps are a :class:`tcgtrig.base.jsontext.Items`, each made
        as it is written (:func:`tcgtrig.base.jsontext.dump`): printing a long
        trace then takes no more memory than the trace itself."""
        out: dict[str, Any] = {"format": 1, "game": self.game, "title": self.title, "outcome": self.outcome}
        if self.reason:
            out["reason"] = self.reason
        trace = self.trace
        out["steps"] = (
            jsontext.Items(lambda: (step.to_dict() for step in trace)) if lazy else [step.to_dict() for step in trace]
        )
        out.update(summary(self.state, self.engine.view))
        if self.unused_choices:
            out["unused_choices"] = list(self.unused_choices)
        if self.compiled.notes:
            out["notes"] = list(self.compiled.notes)
        return out

    def json_text(self, indent: int | None = 2) -> str:
        """The JSON trace as text, exactly as ``tcgtrig run --json`` prints it."""
        if indent is None:
            return jsontext.escape_unsafe(json.dumps(self.to_dict(), ensure_ascii=False))
        return jsontext.dumps(self.to_dict(lazy=True), indent)


def summary(state: GameState, view: Any) -> dict[str, Any]:
    """Counters, zones, flags, (effective) stats and any marks at the end."""
    counters = {p: dict(sorted(state.counters.get(p, {}).items())) for p in state.players}
    zones = {c.id: c.zone for c in state.cards.values()}
    flags = {c.id: sorted(c.flags) for c in state.cards.values()}
    stats: dict[str, dict[str, int]] = {}
    for card in state.cards.values():
        names = {name for name, _ in card.stats} | {m.stat for m in card.mods}
        values = {name: view.stat(card.id, name) for name in sorted(names)}
        if values:
            stats[card.id] = values
    marks = {"marks": sorted(state.marks)} if state.marks else {}  # most games never set one
    return {"counters": counters, "zones": zones, "flags": flags, "stats": stats, **marks}


def resolve(
    scenario: Scenario | Bound | str | Path,
    game: str | Ruleset | None = None,
    *,
    chooser: Chooser | None = None,
    choices: Iterable[str] | None = None,
    plugins: Iterable[object] = (),
    max_steps: int = DEFAULT_MAX_STEPS,
) -> Resolution:
    """Resolve a scenario under a game.

    :param scenario: a :class:`Scenario`, a path to a scenario file, or a
        scenario already bound to its game
        (:func:`tcgtrig.scenario.reading.bind`: read, loaded and compiled
        once; ``game`` and ``plugins`` are then not used).
    :param game: a game name or a :class:`Ruleset`; default: the file's.
    :param chooser: who decides; default: the file's ``choices``, then the
        default chooser.
    :param choices: scripted labels replacing the file's ``choices``.
    :param plugins: extra plugins (house rules) for the game.
    :param max_steps: activations and rules passes before the resolution is
        declared an endless loop.
    """
    if isinstance(scenario, Bound):
        bound = scenario
    else:
        if not isinstance(scenario, Scenario):  # checked as it is compiled for the game, once
            scenario = load_scenario(scenario, check_game=False)
        bound = bind(scenario, game, plugins=plugins)
    scenario, ruleset = bound.scenario, bound.ruleset
    engine = Engine.for_scenario(bound, max_steps=max_steps)
    from_file = chooser is None and choices is None
    if chooser is None:
        chooser = ScriptedChooser(list(choices) if choices is not None else engine.compiled.choices)
    try:
        engine.run(chooser)
    except PluginError as exc:
        if exc.activations is not None:
            raise
        done = sum(1 for step in engine.trace if step.kind == "activated")
        raise PluginError(exc.plugin, exc.detail, hook=exc.hook, activations=done) from exc
    except ChoiceError as exc:
        if from_file and exc.index is not None:  # point at the entry in the file
            raise _in_the_file(exc, exc.index, scenario, ruleset) from None
        raise
    unused = tuple(chooser.remaining) if isinstance(chooser, ScriptedChooser) else ()
    return engine.result(unused)


def _in_the_file(exc: ChoiceError, index: int, scenario: Scenario, ruleset: Ruleset) -> ChoiceError:
    """An illegal scripted choice from the file's ``choices`` (entry
    ``index``, from 1), pointing at that entry: the file, its line and path."""
    raw = scenario.data.get("choices")
    path: tuple[str | int | None, ...] = ("choices", ruleset.key_in(raw)) if isinstance(raw, dict) else ("choices",)
    path += (index - 1,)
    return ChoiceError(
        exc.decision,
        exc.label,
        exc.legal,
        index=index,
        file=scenario.file,
        line=scenario.source.line(path),
        path=format_path(path),
    )
