"""The action language: each primitive action in one home.

Every action word of the core is here.  A primitive action (``move``,
``stack``, ``draw``, ``gain``/``lose``,
``flag``, ``change``, ``emit``, ``grant``, ``battle``, ``lose_game``) has one module here
holding all of it: how its scenario words are read (``read``) and written
back (``write``), which of its fields name cards chosen before it happens,
how it is planned into ops with their would-be events (``plan``) and how
each op is carried out (``apply``).  Its model class stays with the other
values in :mod:`tcgtrig.model.values`.

The control actions (``if``, ``may``, ``together``, ``negate``, …) are
read and written back in :mod:`.control`; how they run is the machine's
own business (:mod:`tcgtrig.runtime.performing`).

Adding a primitive action: its attrs class in ``model/values.py``, a module
here ending in ``KIND = ActionKind(...)``, its line in :data:`PRIMITIVES`,
its entry in the schema (``scenario/schema/scenario.schema.json``) and
``docs/scenario-format.md``, and its tests.

The homes get their collaborators as arguments (:mod:`.base`): this layer
sits above the games and below both the runtime and the scenario files.
"""

from __future__ import annotations

from . import battle, change, draw, emit, flag, gain, grant, lose_game, move, stack
from .base import ActionKind, Moment, Op, Planning, Reader, Writer, make_planning
from .control import CONTROLS, NOT_AT_ONCE, ControlKind

__all__ = [
    "CORE_ACTIONS",
    "PRIMITIVES",
    "BY_MODEL",
    "BY_WORD",
    "CONTROLS",
    "CONTROL_BY_MODEL",
    "CONTROL_BY_WORD",
    "NOT_AT_ONCE",
    "ActionKind",
    "ControlKind",
    "Moment",
    "Op",
    "Planning",
    "make_planning",
    "Reader",
    "Writer",
]

#: The core action words every game understands, in the order an error
#: lists them.
CORE_ACTIONS = (
    "move",
    "stack",
    "draw",
    "gain",
    "lose",
    "flag",
    "change",
    "emit",
    "activate",
    "prevent",
    "if",
    "together",
    "may",
    "resolve_pending",
    "end_turn",
    "pass_turn",
    "grant",
    "mark",
    "negate",
    "battle",
    "win",
    "delay",
    "lose_game",
)

#: every primitive action, in the order the schema lists them
PRIMITIVES: tuple[ActionKind, ...] = (
    move.KIND,
    stack.KIND,
    draw.KIND,
    gain.KIND,
    flag.KIND,
    change.KIND,
    emit.KIND,
    grant.KIND,
    battle.KIND,
    lose_game.KIND,
)

#: a primitive action's home, by its model class
BY_MODEL: dict[type, ActionKind] = {kind.model: kind for kind in PRIMITIVES}

#: a primitive action's home, by each of its scenario words
BY_WORD: dict[str, ActionKind] = {word: kind for kind in PRIMITIVES for word in kind.words}

#: a control action's home, by its model class and by each of its words
CONTROL_BY_MODEL: dict[type, ControlKind] = {kind.model: kind for kind in CONTROLS}
CONTROL_BY_WORD: dict[str, ControlKind] = {word: kind for kind in CONTROLS for word in kind.words}
