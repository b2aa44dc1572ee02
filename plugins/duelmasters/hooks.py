"""The Duel Masters ruleset's hook implementations (the entry-point target).

Only ``@hookimpl`` functions live here; the rules themselves are in
:mod:`tcgtrig.plugins.duelmasters.policy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tcgtrig import ActivationContext, Card, Event, GameEnd, GameInfo, GameState, PendingEffect, hookimpl

from . import GAME_INFO, policy

if TYPE_CHECKING:
    from tcgtrig.printed import Reading


@hookimpl
def tcgtrig_game_info() -> GameInfo:
    return GAME_INFO


@hookimpl
def tcgtrig_action_aliases() -> dict[str, Any]:
    return dict(policy.ALIASES)


@hookimpl
def tcgtrig_look_back(card: Card, event: Event) -> bool:
    return policy.look_back(card, event)


@hookimpl
def tcgtrig_pending_rank(state: GameState, effect: PendingEffect) -> tuple[int, ...]:
    return policy.rank(state, effect)


@hookimpl
def tcgtrig_order_rule(first: PendingEffect, then: PendingEffect) -> str:
    return policy.order_rule(first, then)


@hookimpl
def tcgtrig_pending_details(state: GameState, effect: PendingEffect) -> dict[str, Any] | None:
    return policy.details(state, effect)


@hookimpl
def tcgtrig_declared_use(effect: PendingEffect) -> bool:
    return policy.declared(effect)


@hookimpl
def tcgtrig_replacements_together() -> bool:
    return True


@hookimpl
def tcgtrig_activation_blocked(effect: PendingEffect, context: ActivationContext) -> str | None:
    return policy.blocked(effect, context)


@hookimpl
def tcgtrig_rules_processing(state: GameState, view: Any, changed: Sequence[str]) -> list[Any]:
    return policy.state_check(state, view, changed)


@hookimpl
def tcgtrig_endless_loop(reason: str, stoppable: bool | None) -> GameEnd:
    return policy.endless(reason, stoppable)


@hookimpl
def tcgtrig_read_text(text: str, types: Sequence[str]) -> Reading | None:
    """Printed text, English or Japanese, read by the grammar
    ``duelmasters.lark`` (:mod:`tcgtrig.plugins.duelmasters.reading`)."""
    from .reading import READER  # lark is imported on first use

    return READER.read(text, types)
