"""Stop a resolution part-way, save the position, resume it later
(``tcgtrig run --stop-after N --save FILE``, ``tcgtrig resume FILE``).

A saved position holds the scenario as it was read, the ruleset, every
answer given so far and the scripted choices still to come, and, for
people and other tools, the game state and what is pending at the stop.
Resolution is deterministic, so resuming replays the answers given and then
goes on: the trace is exactly the one an uninterrupted run gives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .choices import ScriptedChooser
from .engine import Engine
from .errors import TcgTrigError
from .manager import load_ruleset
from .resolution import Resolution
from .scenario import Scenario, scenario_from_data
from .serialization import state_to_dict

__all__ = ["SAVE_FORMAT", "run_until", "save_position", "resume_position"]

SAVE_FORMAT = 1


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
    while not engine.finished:
        if engine.decision is not None:
            engine.answer(chooser.choose(engine.decision, engine))
            continue
        machine.frames[-1].step(machine)
        if enough() and engine.decision is None:
            return


def save_position(scenario: Scenario, engine: Engine, chooser: ScriptedChooser) -> dict[str, Any]:
    """The position ``engine`` stopped in, as JSON-compatible data."""
    answers = [step.get("label") for step in engine.trace if step.kind == "choice"]
    pending = _pending(engine)
    return {
        "save_format": SAVE_FORMAT,
        "game": engine.ruleset.name,
        "file": scenario.file,
        "scenario": scenario.data,
        "answers": answers,
        "remaining_choices": list(chooser.remaining),
        "stopped_after_steps": len(engine.trace),
        "state": state_to_dict(engine.state),
        "pending": pending,
        # for people and tools: what is in progress (resuming replays the answers, which rebuilds it)
        "chain": [{"link": number, "effect": effect.key, "player": effect.controller, "id": effect.id}
                  for number, effect in enumerate(engine.chain_links, 1)],
        "interrupt_windows": [
            {"before": [{"event": op.event.name, "about": op.subject or op.event.player} for op in window.target.ops],
             "pending": [{"effect": e.key, "player": e.controller, "id": e.id} for e in window.pool]}
            for window in engine.machine.windows],
        "resolving": [type(frame).__name__ for frame in engine.machine.frames],
        "finished": engine.finished,
    }


def resume_position(data: Any, source: str = "<saved position>") -> Resolution:
    """Finish a saved position: the same trace as an uninterrupted run."""
    if not isinstance(data, dict) or data.get("save_format") != SAVE_FORMAT:
        raise TcgTrigError(f"{source}: not a saved position of tcgtrig (save_format {SAVE_FORMAT})")
    for key, kind in (("scenario", dict), ("game", str), ("answers", list), ("remaining_choices", list)):
        if not isinstance(data.get(key), kind):
            raise TcgTrigError(f"{source}: key {key!r}: expected {kind.__name__}")
    steps = data.get("stopped_after_steps")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise TcgTrigError(f"{source}: key 'stopped_after_steps': expected a number of steps")
    scenario = scenario_from_data(data["scenario"], file=str(data.get("file") or source), check_game=False)
    ruleset = load_ruleset(data["game"])
    compiled = scenario.compile(ruleset)
    chooser = ScriptedChooser([str(label) for label in [*data["answers"], *data["remaining_choices"]]])
    engine = Engine(ruleset, compiled.state.copy(), compiled.start, compiled=compiled, title=scenario.title)
    _step_until(engine, chooser, lambda: len(engine.trace) >= steps)  # replay to where it was saved
    if (len(engine.trace) != steps or state_to_dict(engine.state) != data.get("state")
            or _pending(engine) != data.get("pending")):
        raise TcgTrigError(f"{source}: the saved state and pending effects are not where its scenario and answers "
                           "lead (was the file edited?): save the position again")
    return engine.run(chooser).result(chooser.remaining)


def _pending(engine: Engine) -> list[dict[str, Any]]:
    return [{"effect": effect.key, "player": effect.controller, "id": effect.id} for effect in engine.pending]
