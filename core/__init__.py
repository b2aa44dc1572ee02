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

__version__ = "0.1.0"

#: Every public name, once, and the module (under ``tcgtrig``) it is
#: defined in.  ``__all__`` is its keys; each name is imported when first
#: used (PEP 562, :func:`__getattr__`), so ``tcgtrig games`` and a plugin's
#: ``from tcgtrig import hookimpl, GameInfo`` do not build the engine, the
#: scenario reader or the validators.
_HOMES: dict[str, str] = {
    # reading and resolving
    "Scenario": "scenario.reading",
    "load_scenario": "scenario.reading",
    "scenario_from_text": "scenario.reading",
    "scenario_from_data": "scenario.reading",
    "resolve": "resolution",
    "Resolution": "resolution",
    "Placement": "resolution",
    "Engine": "engine",
    "Ruleset": "games.ruleset",
    "load_ruleset": "games.manager",
    "available_games": "games.manager",
    "list_games": "games.manager",
    "make_plugin_manager": "games.manager",
    "check_expectation": "expect",
    "Mismatch": "expect",
    "state_to_dict": "scenario.serialization",
    "state_from_dict": "scenario.serialization",
    "check_ruleset": "conformance",
    "explore": "tools.explore",
    # choosers
    "Chooser": "choices",
    "Decision": "choices",
    "DefaultChooser": "choices",
    "ScriptedChooser": "choices",
    "RandomChooser": "choices",
    "InteractiveChooser": "choices",
    "UndoAnswer": "choices",
    # errors
    "TcgTrigError": "base.errors",
    "ScenarioError": "base.errors",
    "UnknownGameError": "base.errors",
    "PluginError": "base.errors",
    "ChoiceError": "base.errors",
    # writing a game
    "hookimpl": "games.hookspecs",
    "hookspec": "games.hookspecs",
    "reads": "games.hookspecs",
    "GameInfo": "model.info",
    "Drop": "model.info",
    "GameEnd": "model.info",
    "BattleResult": "model.info",
    "ActivationContext": "model.info",
    "ChainKeys": "model.info",
    "GameState": "model.state",
    "PendingEffect": "model.pending",
    "PendingPool": "model.pending",
    "Evaluator": "runtime.evaluate",
    "Scope": "runtime.evaluate",
    "Step": "model.trace",
    "Trace": "model.trace",
    "card_argument": "games.words",
    "move_word": "games.words",
    "flag_word": "games.words",
    # the model
    "Card": "model.values",
    "Ability": "model.values",
    "Pattern": "model.values",
    "Event": "model.values",
    "Mod": "model.values",
    "Ref": "model.values",
    "CardIds": "model.values",
    "Query": "model.values",
    "Count": "model.values",
    "Compare": "model.values",
    "InZone": "model.values",
    "HasFlag": "model.values",
    "StatIs": "model.values",
    "CounterIs": "model.values",
    "CountIs": "model.values",
    "AllOf": "model.values",
    "AnyOf": "model.values",
    "Not": "model.values",
    "Did": "model.values",
    "TurnOf": "model.values",
    "Move": "model.values",
    "Stack": "model.values",
    "Draw": "model.values",
    "Gain": "model.values",
    "LoseGame": "model.values",
    "Flag": "model.values",
    "Change": "model.values",
    "Emit": "model.values",
    "Activate": "model.values",
    "Prevent": "model.values",
    "If": "model.values",
    "Together": "model.values",
    "May": "model.values",
    "ResolvePending": "model.values",
}

__all__ = ["__version__", *_HOMES]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: type checkers read the block below
if TYPE_CHECKING:
    # BEGIN generated from _HOMES for type checkers and IDEs: python tests/test_exports.py --write
    from .base.errors import ChoiceError as ChoiceError
    from .base.errors import PluginError as PluginError
    from .base.errors import ScenarioError as ScenarioError
    from .base.errors import TcgTrigError as TcgTrigError
    from .base.errors import UnknownGameError as UnknownGameError
    from .choices import Chooser as Chooser
    from .choices import Decision as Decision
    from .choices import DefaultChooser as DefaultChooser
    from .choices import InteractiveChooser as InteractiveChooser
    from .choices import RandomChooser as RandomChooser
    from .choices import ScriptedChooser as ScriptedChooser
    from .choices import UndoAnswer as UndoAnswer
    from .conformance import check_ruleset as check_ruleset
    from .engine import Engine as Engine
    from .expect import Mismatch as Mismatch
    from .expect import check_expectation as check_expectation
    from .games.hookspecs import hookimpl as hookimpl
    from .games.hookspecs import hookspec as hookspec
    from .games.hookspecs import reads as reads
    from .games.manager import available_games as available_games
    from .games.manager import list_games as list_games
    from .games.manager import load_ruleset as load_ruleset
    from .games.manager import make_plugin_manager as make_plugin_manager
    from .games.ruleset import Ruleset as Ruleset
    from .games.words import card_argument as card_argument
    from .games.words import flag_word as flag_word
    from .games.words import move_word as move_word
    from .model.info import ActivationContext as ActivationContext
    from .model.info import BattleResult as BattleResult
    from .model.info import ChainKeys as ChainKeys
    from .model.info import Drop as Drop
    from .model.info import GameEnd as GameEnd
    from .model.info import GameInfo as GameInfo
    from .model.pending import PendingEffect as PendingEffect
    from .model.pending import PendingPool as PendingPool
    from .model.state import GameState as GameState
    from .model.trace import Step as Step
    from .model.trace import Trace as Trace
    from .model.values import Ability as Ability
    from .model.values import Activate as Activate
    from .model.values import AllOf as AllOf
    from .model.values import AnyOf as AnyOf
    from .model.values import Card as Card
    from .model.values import CardIds as CardIds
    from .model.values import Change as Change
    from .model.values import Compare as Compare
    from .model.values import Count as Count
    from .model.values import CounterIs as CounterIs
    from .model.values import CountIs as CountIs
    from .model.values import Did as Did
    from .model.values import Draw as Draw
    from .model.values import Emit as Emit
    from .model.values import Event as Event
    from .model.values import Flag as Flag
    from .model.values import Gain as Gain
    from .model.values import HasFlag as HasFlag
    from .model.values import If as If
    from .model.values import InZone as InZone
    from .model.values import LoseGame as LoseGame
    from .model.values import May as May
    from .model.values import Mod as Mod
    from .model.values import Move as Move
    from .model.values import Not as Not
    from .model.values import Pattern as Pattern
    from .model.values import Prevent as Prevent
    from .model.values import Query as Query
    from .model.values import Ref as Ref
    from .model.values import ResolvePending as ResolvePending
    from .model.values import Stack as Stack
    from .model.values import StatIs as StatIs
    from .model.values import Together as Together
    from .model.values import TurnOf as TurnOf
    from .resolution import Placement as Placement
    from .resolution import Resolution as Resolution
    from .resolution import resolve as resolve
    from .runtime.evaluate import Evaluator as Evaluator
    from .runtime.evaluate import Scope as Scope
    from .scenario.reading import Scenario as Scenario
    from .scenario.reading import load_scenario as load_scenario
    from .scenario.reading import scenario_from_data as scenario_from_data
    from .scenario.reading import scenario_from_text as scenario_from_text
    from .scenario.serialization import state_from_dict as state_from_dict
    from .scenario.serialization import state_to_dict as state_to_dict
    from .tools.explore import explore as explore
    # END generated


def __getattr__(name: str) -> object:
    """Import a public name (or a submodule, ``tcgtrig.scenario``) when it
    is first asked for."""
    module = _HOMES.get(name)
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
