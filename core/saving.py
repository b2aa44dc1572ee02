"""Stop a resolution part-way, save the position, resume it later
(``tcgtrig run --stop-after N --save FILE``, ``tcgtrig resume FILE``).

A saved position holds the scenario as it was read, the ruleset (variant
included), every answer given so far (how many of them came from the
script) and the scripted choices still to come, the run's ``options``
that change its result (the step limit, the ``--random`` seed, the memory
bound), and, for people and other tools, the game state and what is
pending at the stop.  Resolution is deterministic, so resuming builds the
same chooser, replays the answers and then goes on: the trace is exactly
the one an uninterrupted run with the same options gives.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from typing import Any, TypeGuard

from attrs import frozen

from . import __version__
from .base import budget
from .base.errors import TcgTrigError
from .choices import DefaultChooser, RandomChooser, ScriptedChooser
from .engine import DEFAULT_MAX_STEPS, Engine
from .games.manager import Ruleset, load_ruleset
from .resolution import Resolution
from .scenario.reading import Scenario, scenario_from_data
from .scenario.serialization import state_to_dict

__all__ = [
    "SAVE_FORMAT",
    "SAVE_FORMATS_READ",
    "SavedPosition",
    "run_until",
    "save_position",
    "read_position",
    "finish_position",
    "resume_position",
    "replay_command",
    "rules_of",
]

#: The format :func:`save_position` writes: 2 added ``options`` and ``scripted_answers``.
SAVE_FORMAT = 2
#: The formats :func:`read_position` reads (1: saved before the options were; their defaults).
SAVE_FORMATS_READ = (2, 1)
#: The keys of ``options``.
OPTIONS = ("max_memory", "max_steps", "random")
#: The keys of ``rules``: the version of the game's rules (``GameInfo.version``) and of tcgtrig.
RULES = ("tcgtrig", "version")
#: Scripted answers a suggested ``tcgtrig run`` command spells out; past that, the save lists them.
MAX_CHOICES_SHOWN = 12


@frozen(kw_only=True)
class SavedPosition:
    """A saved position, checked: what resuming needs.

    :param script: the scripted labels as the run had them (those answered,
        then those still to come).
    :param seed: the ``--random`` seed, or ``None`` (the default chooser
        answers once the script runs out).
    :param max_memory: the memory bound the run had (``None``: none).
    """

    source: str
    scenario: Scenario
    game: str
    answers: tuple[str, ...]
    script: tuple[str, ...]
    seed: int | None
    max_steps: int
    max_memory: int | None
    stopped_after_steps: int
    state: Any
    pending: Any
    #: the rules it was made with (:func:`rules_of`); ``None``: not said (saved before saves said it)
    rules: dict[str, str] | None = None


def run_until(engine: Engine, chooser: ScriptedChooser, activations: int) -> None:
    """Resolve until ``activations`` effects have activated (or the end)."""
    seen = counted = 0

    def enough() -> bool:
        nonlocal seen, counted
        trace = engine.trace
        seen += sum(1 for step in trace[counted:] if step.kind == "activated")
        counted = len(trace)
        return seen >= activations

    _step_until(engine, chooser, enough)


def _step_until(engine: Engine, chooser: ScriptedChooser, enough: Callable[[], bool]) -> None:
    """One frame step at a time, answering from ``chooser``, until after a
    step ``enough()`` holds with no question open (or the end)."""
    machine = engine.machine
    # as Engine.run does: the loop detector sees the chooser's state, so a stop changes nothing
    machine.chooser_fingerprint = chooser.fingerprint
    machine.chooser_answering = getattr(chooser, "answering", None)
    # the main loop hands back after each effect it takes (it goes on to the next in the same step otherwise)
    machine.one_move = True
    try:
        while not engine.finished:
            if engine.decision is not None:
                engine.answer(chooser.choose(engine.decision, engine))
                continue
            machine.frames[-1].step(machine)
            machine.drop_frames_if_ended()
            if enough() and engine.decision is None:
                return
    finally:
        machine.one_move = False


def save_position(scenario: Scenario, engine: Engine, chooser: ScriptedChooser) -> dict[str, Any]:
    """The position ``engine`` stopped in, as JSON-compatible data.

    ``chooser`` is the one the run answered with: a script, then the
    default chooser or a :class:`~tcgtrig.choices.RandomChooser`.

    :raises TcgTrigError: another chooser answers after the script (a
        person, a program): its answers cannot be replayed.
    """
    fallback = chooser.fallback
    if not isinstance(fallback, (DefaultChooser, RandomChooser)):
        raise TcgTrigError(
            "this position cannot be saved: after the script it is answered neither by the default "
            "chooser nor by --random, so resuming could not answer as it did"
        )
    seed = fallback.seed if isinstance(fallback, RandomChooser) else None
    return {
        "save_format": SAVE_FORMAT,
        "game": engine.ruleset.name,
        "rules": rules_of(engine.ruleset),
        "file": scenario.file,
        "scenario": scenario.data,
        "options": {"max_steps": engine.machine.max_steps, "random": seed, "max_memory": budget.max_memory()},
        "answers": _answers(engine),
        "scripted_answers": chooser.cursor,
        "remaining_choices": list(chooser.remaining),
        "stopped_after_steps": len(engine.trace),
        "state": state_to_dict(engine.state),
        "pending": _pending(engine),
        # for people and tools: what is in progress (resuming replays the answers, which rebuilds it)
        "chain": [
            {"link": number, "effect": effect.key, "player": effect.controller, "id": effect.id}
            for number, effect in enumerate(engine.chain_links, 1)
        ],
        "interrupt_windows": [
            {
                "before": [
                    {"event": op.event.name, "about": op.subject or op.event.player} for op in window.target.ops
                ],
                "pending": [{"effect": e.key, "player": e.controller, "id": e.id} for e in window.pool],
            }
            for window in engine.machine.windows
        ],
        "resolving": [type(frame).__name__ for frame in engine.machine.frames],
        "finished": engine.finished,
    }


def read_position(data: Any, source: str = "<saved position>") -> SavedPosition:
    """Check saved data (a save may come from anywhere): every key resuming
    reads has the type it needs, or one clear :class:`TcgTrigError`."""
    if not isinstance(data, dict) or "save_format" not in data:
        raise TcgTrigError(f"{source}: not a saved position of tcgtrig (it has no save_format)")
    version = data["save_format"]
    if not _whole(version):
        raise TcgTrigError(
            f"{source}: key 'save_format': expected the whole number {SAVE_FORMAT} (or "
            f"{', '.join(map(str, SAVE_FORMATS_READ[1:]))}), got {_shown(version)}"
        )
    if version not in SAVE_FORMATS_READ:
        raise TcgTrigError(
            f"{source}: save_format {version} is not one this tcgtrig reads "
            f"({', '.join(map(str, SAVE_FORMATS_READ))}): was it saved by a newer tcgtrig?"
        )
    for key, kind in (("scenario", dict), ("game", str)):
        if not isinstance(data.get(key), kind):
            raise TcgTrigError(f"{source}: key {key!r}: expected {'a mapping' if kind is dict else 'a string'}")
    answers = _labels(data, "answers", source)
    remaining = _labels(data, "remaining_choices", source)
    steps = data.get("stopped_after_steps")
    if not _whole(steps) or steps < 0:
        raise TcgTrigError(f"{source}: key 'stopped_after_steps': expected a number of steps, got {_shown(steps)}")
    scripted = data.get("scripted_answers", len(answers)) if version >= 2 else len(answers)
    if not _whole(scripted) or not 0 <= scripted <= len(answers):
        raise TcgTrigError(
            f"{source}: key 'scripted_answers': expected a whole number from 0 to {len(answers)} "
            f"(the answers), got {_shown(scripted)}"
        )
    options = _options(data, version, source)
    file = data.get("file")
    scenario = scenario_from_data(
        data["scenario"], file=file if isinstance(file, str) and file else source, check_game=False
    )
    return SavedPosition(
        source=source,
        scenario=scenario,
        game=data["game"],
        answers=tuple(answers),
        script=(*answers[:scripted], *remaining),
        seed=options["random"],
        max_steps=options["max_steps"],
        max_memory=options["max_memory"],
        stopped_after_steps=steps,
        state=data.get("state"),
        pending=data.get("pending"),
        rules=_rules(data, source),
    )


def finish_position(saved: SavedPosition) -> Resolution:
    """Replay a checked save to where it stopped, check it got there, and
    resolve to the end: the trace of an uninterrupted run."""
    chooser = ScriptedChooser(
        list(saved.script), fallback=RandomChooser(saved.seed) if saved.seed is not None else None
    )
    ruleset = load_ruleset(saved.game)
    other_rules = saved.rules is not None and saved.rules != rules_of(ruleset)
    try:
        engine = Engine.for_scenario(saved.scenario, ruleset, max_steps=saved.max_steps)
        _step_until(engine, chooser, lambda: len(engine.trace) >= saved.stopped_after_steps)  # to where it was saved
    except TcgTrigError as exc:
        if other_rules:  # the rules it was saved with read it differently: say that, not what broke
            raise TcgTrigError(_made_with_other_rules(saved, ruleset)) from exc
        raise
    if (
        len(engine.trace) != saved.stopped_after_steps
        or tuple(_answers(engine)) != saved.answers
        or state_to_dict(engine.state) != saved.state
        or _pending(engine) != saved.pending
    ):
        if other_rules:
            raise TcgTrigError(_made_with_other_rules(saved, ruleset))
        raise TcgTrigError(
            f"{saved.source}: the saved state and pending effects are not where its scenario and "
            "answers lead (was the file edited?): save the position again"
        )
    return engine.run(chooser).result(chooser.remaining)


def rules_of(ruleset: Ruleset) -> dict[str, str]:
    """The version of the rules a resolution follows: the game's own
    (``GameInfo.version``) and tcgtrig's, whose core decides as much."""
    return {"tcgtrig": __version__, "version": ruleset.info.version}


def _shown_rules(game: str, rules: dict[str, str]) -> str:
    return f"{game} rules {rules['version'] or '(no version)'} (tcgtrig {rules['tcgtrig']})"


def _made_with_other_rules(saved: SavedPosition, ruleset: Ruleset) -> str:
    """Why a save made under other rules does not resume, and how to
    replay its file instead (issue 37 item 32: it was refused as edited)."""
    assert saved.rules is not None
    return (
        f"{saved.source}: this save was made with {_shown_rules(saved.game, saved.rules)}, this is "
        f"{_shown_rules(saved.game, rules_of(ruleset))}: under these rules its answers no longer lead to the "
        f"saved position; replay the file instead: {replay_command(saved)}"
    )


def replay_command(saved: SavedPosition) -> str:
    """The ``tcgtrig run`` command that plays the saved file again with the
    same script and options (the script spelled out up to
    :data:`MAX_CHOICES_SHOWN` answers)."""
    words = ["tcgtrig", "run", shlex.quote(saved.scenario.file), "--game", shlex.quote(saved.game)]
    script = list(saved.script)
    shown = script[:MAX_CHOICES_SHOWN]
    for label in shown:
        words += ["--choice", shlex.quote(label)]
    if saved.seed is not None:
        words += ["--random", str(saved.seed)]
    if saved.max_steps != DEFAULT_MAX_STEPS:
        words += ["--max-steps", str(saved.max_steps)]
    command = " ".join(words)
    if len(script) > len(shown):
        command += (
            f" (and --choice for each of the other {len(script) - len(shown):,} answers: the save's "
            "'answers', then its 'remaining_choices')"
        )
    return command


def resume_position(data: Any, source: str = "<saved position>") -> Resolution:
    """Finish a saved position: the same trace as an uninterrupted run.

    The memory bound in force is the process's (:mod:`tcgtrig.base.budget`):
    ``tcgtrig resume`` tightens it to the saved one; a program decides."""
    return finish_position(read_position(data, source))


def _answers(engine: Engine) -> list[str]:
    return [step.get("label") for step in engine.trace if step.kind == "choice"]


def _pending(engine: Engine) -> list[dict[str, Any]]:
    return [{"effect": effect.key, "player": effect.controller, "id": effect.id} for effect in engine.pending]


def _whole(value: Any) -> TypeGuard[int]:
    """An integer, not a bool (Python's ``True`` is an int) nor ``1.0``."""
    return type(value) is int


def _shown(value: Any) -> str:
    """A value as the JSON file wrote it (``true``, ``1.0``, ``'2'``), short."""
    if isinstance(value, str):
        text = repr(value)
    else:
        try:
            text = json.dumps(value)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _labels(data: dict[str, Any], key: str, source: str) -> list[str]:
    value = data.get(key)
    if not isinstance(value, list):
        raise TcgTrigError(f"{source}: key {key!r}: expected a list of labels (strings), got {_shown(value)}")
    for index, label in enumerate(value):
        if not isinstance(label, str):
            raise TcgTrigError(
                f"{source}: key {key!r}: expected a list of labels (strings), got {_shown(label)} at [{index}]"
            )
    return value


def _rules(data: dict[str, Any], source: str) -> dict[str, str] | None:
    """The rules a save says it was made with, checked (``None``: it does not say)."""
    rules = data.get("rules")
    if rules is None:
        return None
    if (
        not isinstance(rules, dict)
        or sorted(rules) != sorted(RULES)
        or not all(isinstance(value, str) and len(value) <= 200 for value in rules.values())
    ):
        raise TcgTrigError(
            f"{source}: key 'rules': expected a mapping of {', '.join(RULES)} to version strings, got {_shown(rules)}"
        )
    return dict(rules)


def _options(data: dict[str, Any], version: int, source: str) -> dict[str, Any]:
    """The run's options, checked (a save of format 1 had none: the defaults)."""
    options = data.get("options", {}) if version >= 2 else {}
    if not isinstance(options, dict):
        raise TcgTrigError(
            f"{source}: key 'options': expected a mapping of {', '.join(OPTIONS)}, got {_shown(options)}"
        )
    unknown = sorted(set(options) - set(OPTIONS), key=str)
    if unknown:
        raise TcgTrigError(f"{source}: key 'options': unknown key {str(unknown[0])!r} (legal: {', '.join(OPTIONS)})")
    steps = options.get("max_steps", DEFAULT_MAX_STEPS)
    if not _whole(steps) or steps < 1:
        raise TcgTrigError(
            f"{source}: key 'options.max_steps': expected a whole number of steps, 1 or more, got {_shown(steps)}"
        )
    seed = options.get("random")
    if seed is not None and not _whole(seed):
        raise TcgTrigError(
            f"{source}: key 'options.random': expected a whole number (the seed) or null, got {_shown(seed)}"
        )
    memory = options.get("max_memory")
    if memory is not None and (not _whole(memory) or memory < 1):
        raise TcgTrigError(
            f"{source}: key 'options.max_memory': expected a number of bytes, 1 or more, or null, got {_shown(memory)}"
        )
    return {"max_steps": steps, "random": seed, "max_memory": memory}
