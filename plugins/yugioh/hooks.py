"""The Yu-Gi-Oh! ruleset's hook implementations (the entry-point target).

Only ``@hookimpl`` functions live here; the rules are in
:mod:`tcgtrig.plugins.yugioh.policy`.  The ``ocg`` and ``goat`` variants
are small plugins registered on top (:func:`tcgtrig_variant`): they answer
only the hooks where their rule differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tcgtrig import (
    Ability,
    ActivationContext,
    BattleResult,
    Card,
    Drop,
    Event,
    GameInfo,
    GameState,
    PendingEffect,
    hookimpl,
    reads,
)

from . import GAME_INFO, policy

if TYPE_CHECKING:
    from tcgtrig.printed import Reading


@hookimpl
def tcgtrig_game_info() -> GameInfo:
    return GAME_INFO


@hookimpl
def tcgtrig_variant(variant: str) -> object | None:
    return VARIANTS.get(variant)


@hookimpl
def tcgtrig_action_aliases() -> dict[str, Any]:
    return dict(policy.ALIASES)


@hookimpl
def tcgtrig_look_back(state: GameState, card: Card, ability: Ability, event: Event) -> bool:
    return policy.look_back(state, card, ability, event)


@hookimpl
def tcgtrig_pending_rank(state: GameState, effect: PendingEffect) -> tuple[int, ...]:
    return policy.rank(state, effect)


@hookimpl
def tcgtrig_order_rule(state: GameState, first: PendingEffect, then: PendingEffect) -> str:
    return policy.order_rule(state, first, then)


@hookimpl
def tcgtrig_pending_details(state: GameState, effect: PendingEffect) -> dict[str, Any] | None:
    return policy.details(state, effect)


@hookimpl
def tcgtrig_check_pending(state: GameState, effect: PendingEffect, point: str, last_moment: int) -> Drop | None:
    return policy.check_pending(state, effect, point, last_moment)


@hookimpl
@reads("state.card")
def tcgtrig_once_per_turn_key(state: GameState, effect: PendingEffect) -> str:
    return policy.once_per_turn_key(state, effect)


@hookimpl
@reads("chain.own", "state.card")
def tcgtrig_activation_blocked(state: GameState, effect: PendingEffect, context: ActivationContext) -> str | None:
    return policy.blocked(state, effect, context)


@hookimpl
def tcgtrig_activation_zone(state: GameState, effect: PendingEffect, point: str) -> str | None:
    return policy.activation_zone(state, effect, point)


@hookimpl
@reads("chain.top_speed")
def tcgtrig_can_respond(chain: Any, effect: PendingEffect) -> bool:
    return policy.can_respond(chain, effect)


@hookimpl
def tcgtrig_battle_result(state: GameState, card: str, against: str | None, stat: Any) -> BattleResult:
    return policy.battle_result(state, card, against, stat)


@hookimpl
def tcgtrig_read_text(text: str, types: Sequence[str]) -> Reading | None:
    """Yu-Gi-Oh! card text (Problem-Solving Card Text) read into abilities:
    :mod:`tcgtrig.plugins.yugioh.reading` (its grammar: ``yugioh.lark``)."""
    from .reading import READER

    return READER.read(text, types)


class OCG:
    """``yugioh/ocg``: optional hidden-zone triggers come after SEGOC."""

    @hookimpl
    def tcgtrig_offered_in_window(self, state: GameState, effect: PendingEffect) -> bool:
        return policy.ocg_offered(state, effect)

    @hookimpl
    @reads("chain.top_speed")
    def tcgtrig_can_respond(self, chain: Any, effect: PendingEffect) -> bool | None:
        return policy.ocg_can_respond(chain, effect)

    @hookimpl
    def tcgtrig_order_rule(self, state: GameState, then: PendingEffect) -> str | None:
        return policy.ocg_order_rule(state, then)


class Goat:
    """``yugioh/goat``: within a SEGOC group, the earliest trigger goes on the chain first."""

    @hookimpl
    def tcgtrig_pending_rank(self, state: GameState, effect: PendingEffect) -> tuple[int, ...] | None:
        return policy.rank_trigger_first(state, effect)

    @hookimpl
    def tcgtrig_order_rule(self, state: GameState, first: PendingEffect, then: PendingEffect) -> str | None:
        return policy.goat_order_rule(state, first, then)


VARIANTS: dict[str, object] = {"ocg": OCG(), "goat": Goat()}
