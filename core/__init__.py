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
  :class:`GameEnd` and the model classes (see :mod:`tcgtrig.hookspecs`).
"""

from .choices import (
    Chooser,
    Decision,
    DefaultChooser,
    InteractiveChooser,
    RandomChooser,
    ScriptedChooser,
)
from .engine import Engine  # noqa: E402
from .errors import (
    ChoiceError,
    PluginError,
    ScenarioError,
    TcgTrigError,
    UnknownGameError,
)
from .evaluate import Evaluator, Scope
from .expect import Mismatch, check_expectation  # noqa: E402
from .hookspecs import hookimpl, hookspec
from .info import ActivationContext, ChainKeys, Drop, GameEnd, GameInfo

# Modules below import the names above: keep them last.
from .manager import (  # noqa: E402
    Ruleset,
    available_games,
    list_games,
    load_ruleset,
    make_plugin_manager,
)
from .model import (
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
from .pending import PendingEffect, PendingPool
from .resolution import Resolution, resolve  # noqa: E402
from .scenario import Scenario, load_scenario, scenario_from_data, scenario_from_text  # noqa: E402
from .serialization import state_from_dict, state_to_dict  # noqa: E402
from .state import GameState
from .trace import Step

__version__ = "0.1.0"

__all__ = [
    "__version__",
    # reading and resolving
    "Scenario",
    "load_scenario",
    "scenario_from_text",
    "scenario_from_data",
    "resolve",
    "Resolution",
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
    "GameInfo",
    "Drop",
    "GameEnd",
    "ActivationContext",
    "ChainKeys",
    "GameState",
    "PendingEffect",
    "PendingPool",
    "Evaluator",
    "Scope",
    "Step",
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
