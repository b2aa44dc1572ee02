"""tcgtrig — in which order do triggered effects resolve?

A game-agnostic core (events, triggers, pending effects, interrupt and
replacement windows, choices, traces) and one plugin per game supplying only
the policy.  The public API:

- reading positions: :func:`load_scenario`, :func:`scenario_from_text`,
  :func:`scenario_from_data`;
- resolving them: :func:`resolve` (or :class:`Engine` step by step),
  :func:`load_ruleset`, :func:`available_games`, :func:`list_games`;
- who decides: :class:`DefaultChooser`, :class:`ScriptedChooser`,
  :class:`RandomChooser`, :class:`InteractiveChooser`;
- checking: :func:`check_expectation`;
- writing a game: :data:`hookimpl`, :class:`GameInfo`, :class:`Drop`,
  :class:`GameEnd` and the model classes (see :mod:`tcgtrig.games.hookspecs`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

from .base import old_paths

old_paths.install()  # ``import tcgtrig.machine`` and the other paths of the first releases

#: Where each public name is defined.  They are imported when first used
#: (PEP 562): ``tcgtrig games`` and a plugin's ``from tcgtrig import
#: hookimpl, GameInfo`` do not build the engine, the scenario reader or the
#: validators.
_HOMES: dict[str, tuple[str, ...]] = {
    "choices": ("Chooser", "Decision", "DefaultChooser", "InteractiveChooser", "RandomChooser", "ScriptedChooser"),
    "engine": ("Engine",),
    "base.errors": ("ChoiceError", "PluginError", "ScenarioError", "TcgTrigError", "UnknownGameError"),
    "runtime.evaluate": ("Evaluator", "Scope"),
    "expect": ("Mismatch", "check_expectation"),
    "games.hookspecs": ("hookimpl", "hookspec", "reads"),
    "model.info": ("ActivationContext", "BattleResult", "ChainKeys", "Drop", "GameEnd", "GameInfo"),
    "games.manager": ("available_games", "list_games", "load_ruleset", "make_plugin_manager"),
    "games.ruleset": ("Ruleset",),
    "model.values": (
        "Ability",
        "Activate",
        "AllOf",
        "AnyOf",
        "Card",
        "CardIds",
        "Change",
        "Compare",
        "Count",
        "CounterIs",
        "CountIs",
        "Did",
        "Draw",
        "Emit",
        "Event",
        "Flag",
        "Gain",
        "HasFlag",
        "If",
        "InZone",
        "LoseGame",
        "May",
        "Mod",
        "Move",
        "Not",
        "Pattern",
        "Prevent",
        "Query",
        "Ref",
        "ResolvePending",
        "Stack",
        "StatIs",
        "Together",
        "TurnOf",
    ),
    "model.pending": ("PendingEffect", "PendingPool"),
    "resolution": ("Resolution", "Placement", "resolve"),
    "scenario.reading": ("Scenario", "load_scenario", "scenario_from_data", "scenario_from_text"),
    "scenario.serialization": ("state_from_dict", "state_to_dict"),
    "model.state": ("GameState",),
    "model.trace": ("Step", "Trace"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

if TYPE_CHECKING:  # what type checkers and IDEs read; at run time, __getattr__ below
    from .base.errors import (
        ChoiceError,
        PluginError,
        ScenarioError,
        TcgTrigError,
        UnknownGameError,
    )
    from .choices import (
        Chooser,
        Decision,
        DefaultChooser,
        InteractiveChooser,
        RandomChooser,
        ScriptedChooser,
    )
    from .engine import Engine
    from .expect import Mismatch, check_expectation
    from .games.hookspecs import hookimpl, hookspec, reads
    from .games.manager import (
        available_games,
        list_games,
        load_ruleset,
        make_plugin_manager,
    )
    from .games.ruleset import Ruleset
    from .model.info import ActivationContext, BattleResult, ChainKeys, Drop, GameEnd, GameInfo
    from .model.pending import PendingEffect, PendingPool
    from .model.state import GameState
    from .model.trace import Step, Trace
    from .model.values import (
        Ability,
        Activate,
        AllOf,
        AnyOf,
        Card,
        CardIds,
        Change,
        Compare,
        Count,
        CounterIs,
        CountIs,
        Did,
        Draw,
        Emit,
        Event,
        Flag,
        Gain,
        HasFlag,
        If,
        InZone,
        LoseGame,
        May,
        Mod,
        Move,
        Not,
        Pattern,
        Prevent,
        Query,
        Ref,
        ResolvePending,
        Stack,
        StatIs,
        Together,
        TurnOf,
    )
    from .resolution import Placement, Resolution, resolve
    from .runtime.evaluate import Evaluator, Scope
    from .scenario.reading import Scenario, load_scenario, scenario_from_data, scenario_from_text
    from .scenario.serialization import state_from_dict, state_to_dict


def __getattr__(name: str) -> Any:
    """Import a public name (or a submodule, ``tcgtrig.scenario``) when it
    is first asked for."""
    module = _HOME_OF.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        globals()[name] = value  # asked once: a plain attribute from now on
        return value
    if not name.startswith("__"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "__version__",
    # reading and resolving
    "Scenario",
    "load_scenario",
    "scenario_from_text",
    "scenario_from_data",
    "resolve",
    "Resolution",
    "Placement",
    "Engine",
    "Ruleset",
    "load_ruleset",
    "available_games",
    "list_games",
    "make_plugin_manager",
    "check_expectation",
    "Mismatch",
    "state_to_dict",
    "state_from_dict",
    # choosers
    "Chooser",
    "Decision",
    "DefaultChooser",
    "ScriptedChooser",
    "RandomChooser",
    "InteractiveChooser",
    # errors
    "TcgTrigError",
    "ScenarioError",
    "UnknownGameError",
    "PluginError",
    "ChoiceError",
    # writing a game
    "hookimpl",
    "hookspec",
    "reads",
    "GameInfo",
    "Drop",
    "GameEnd",
    "BattleResult",
    "ActivationContext",
    "ChainKeys",
    "GameState",
    "PendingEffect",
    "PendingPool",
    "Evaluator",
    "Scope",
    "Step",
    "Trace",
    # the model
    "Card",
    "Ability",
    "Pattern",
    "Event",
    "Mod",
    "Ref",
    "CardIds",
    "Query",
    "Count",
    "Compare",
    "InZone",
    "HasFlag",
    "StatIs",
    "CounterIs",
    "CountIs",
    "AllOf",
    "AnyOf",
    "Not",
    "Did",
    "TurnOf",
    "Move",
    "Stack",
    "Draw",
    "Gain",
    "LoseGame",
    "Flag",
    "Change",
    "Emit",
    "Activate",
    "Prevent",
    "If",
    "Together",
    "May",
    "ResolvePending",
]
