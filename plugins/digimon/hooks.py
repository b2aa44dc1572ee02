"""The Digimon ruleset's hook implementations (the entry-point target).

Only ``@hookimpl`` functions live here; the rules themselves are in
:mod:`tcgtrig.plugins.digimon.policy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tcgtrig import (
    ActivationContext,
    BattleResult,
    Card,
    Drop,
    GameEnd,
    GameInfo,
    GameState,
    PendingEffect,
    hookimpl,
)

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
def tcgtrig_pending_rank(state: GameState, effect: PendingEffect) -> tuple[int, ...]:
    return policy.rank(state, effect)


@hookimpl
def tcgtrig_order_rule(first: PendingEffect, then: PendingEffect) -> str:
    return policy.order_rule(first, then)


@hookimpl
def tcgtrig_pending_details(effect: PendingEffect) -> dict[str, Any] | None:
    return policy.details(effect)


@hookimpl
def tcgtrig_check_pending(state: GameState, effect: PendingEffect, point: str) -> Drop | None:
    return policy.not_a_digivolution(state, effect, point) or policy.lost(state, effect)


@hookimpl
def tcgtrig_activation_blocked(state: GameState, effect: PendingEffect, context: ActivationContext) -> str | None:
    return policy.blocked(effect, context) or policy.forbidden(state, effect)


@hookimpl
def tcgtrig_rules_processing(state: GameState, view: Any, changed: Sequence[str]) -> list[Any]:
    return policy.rules_processing(state, view, changed)


@hookimpl
def tcgtrig_under_cards_zone(card: Card, to: str) -> str:
    return "trash"


@hookimpl
def tcgtrig_battle_result(state: GameState, card: str, against: str | None, stat: Any) -> BattleResult | None:
    return policy.battle_result(state, card, against, stat)


@hookimpl
def tcgtrig_linked_counters(state: GameState, player: str, counter: str, value: int) -> dict[str, int] | None:
    return policy.linked_counters(state, player, counter, value)


@hookimpl
def tcgtrig_turn_ends(state: GameState) -> str | None:
    return policy.turn_ends(state)


@hookimpl
def tcgtrig_describe_counters(state: GameState) -> list[str]:
    return policy.describe_counters(state)


@hookimpl
def tcgtrig_endless_loop(reason: str, stoppable: bool | None) -> GameEnd:
    return policy.endless(reason, stoppable)


@hookimpl
def tcgtrig_read_text(text: str, types: Sequence[str]) -> Reading | None:
    """Digimon printed text: its timing headers, keywords and common effect
    sentences (:mod:`tcgtrig.plugins.digimon.reading`, ``digimon.lark``)."""
    from .reading import READER  # lark is imported on first use

    return READER.read(text, types)
