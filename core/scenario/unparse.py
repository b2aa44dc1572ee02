"""Model objects back to scenario data — the reader's inverse.

Abilities, patterns, actions, selectors and conditions built in Python or
read from a file are the same objects; this module writes any of them as the
scenario data that reads back into an equal object, using core action words
only (so the data reads back under any game).  Saved states use it.
"""

from __future__ import annotations

from typing import Any

from ..language import BY_MODEL, CONTROL_BY_MODEL
from ..model.values import (
    Ability,
    AllOf,
    AnyOf,
    AtTrigger,
    CardIds,
    Compare,
    Count,
    CounterIs,
    CountIs,
    Did,
    DidCount,
    Happened,
    HappenedCount,
    HasFlag,
    InZone,
    Marked,
    Not,
    Pattern,
    Query,
    Ref,
    StatIs,
    StatOf,
    TargetRef,
    TurnOf,
)

__all__ = ["ability_to_data", "action_to_data", "condition_to_data", "selector_to_data", "pattern_to_data"]


def _some(**items: Any) -> dict[str, Any]:
    """The items whose value is not ``None``/``False``/empty."""
    return {k: v for k, v in items.items() if v not in (None, False, (), [], {})}


def pattern_to_data(pattern: Pattern) -> dict[str, Any]:
    return {
        "event": list(pattern.names) if pattern.events else pattern.event,
        **_some(
            card=pattern.card if pattern.card_is is None else selector_to_data(pattern.card_is),
            player=pattern.player,
            to=pattern.to,
            by=pattern.by,
            counter=pattern.counter,
            flag=pattern.flag,
            stat=pattern.stat,
            actor=pattern.actor,
            against=pattern.against,
        ),
        **({"from": pattern.from_} if pattern.from_ else {}),
    }


def selector_to_data(selector: Any) -> Any:
    if isinstance(selector, Ref):
        return {"event": "event.card", "against": "event.against"}.get(selector.role, selector.role)
    if isinstance(selector, CardIds):
        return list(selector.ids)
    if isinstance(selector, TargetRef):
        return "target" if selector.name == "target" else f"target.{selector.name}"
    if isinstance(selector, Query):
        stats: dict[str, dict[str, Any]] = {}
        for stat, op, value in selector.stat:
            stats[stat] = {op: _amount(value)}
        return _some(
            zone=list(selector.zone),
            owner=selector.owner,
            types=list(selector.types),
            all_types=list(selector.all_types),
            has=selector.has,
            name=selector.name,
            flag=selector.flag,
            no_flag=selector.no_flag,
            stat=stats,
            under=selector_to_data(selector.under) if selector.under is not None else None,
            exclude=selector_to_data(selector.exclude) if selector.exclude is not None else None,
            pick=_amount(selector.pick),
            upto=selector.upto,
            chooser=selector.chooser,
            highest=selector.highest,
            lowest=selector.lowest,
            top=selector.top,
            cards_under={op: _amount(value) for op, value in selector.cards_under},
        )
    raise TypeError(f"not a selector: {selector!r}")


def _amount(amount: Any) -> Any:
    fixed = {"fixed": True} if getattr(amount, "fixed", False) else {}
    if isinstance(amount, Count):
        return {"count": selector_to_data(amount.of), **fixed}
    if isinstance(amount, StatOf):
        return {"card": selector_to_data(amount.card), "stat": amount.stat, **fixed}
    if isinstance(amount, DidCount):
        return {"did": amount.label}
    if isinstance(amount, HappenedCount):
        return {"happened": pattern_to_data(amount.pattern)}
    return amount


def _compare(compare: Compare) -> dict[str, Any]:
    return {compare.op: _amount(compare.value)}


def condition_to_data(condition: Any) -> dict[str, Any]:
    if isinstance(condition, Happened):
        return {"happened": pattern_to_data(condition.pattern), **_compare(condition.compare)}
    if isinstance(condition, AtTrigger):
        return {"at_trigger": condition_to_data(condition.condition)}
    if isinstance(condition, AllOf):
        return {"all": [condition_to_data(c) for c in condition.conditions]}
    if isinstance(condition, AnyOf):
        return {"any": [condition_to_data(c) for c in condition.conditions]}
    if isinstance(condition, Not):
        return {"not": condition_to_data(condition.condition)}
    if isinstance(condition, Did):
        return {"did": condition.label}
    if isinstance(condition, TurnOf):
        return {"turn": condition.player}
    if isinstance(condition, Marked):
        return {"mark": condition.name}
    if isinstance(condition, CountIs):
        return {"count": selector_to_data(condition.of), **_compare(condition.compare)}
    if isinstance(condition, CounterIs):
        return {"player": condition.player, "counter": condition.counter, **_compare(condition.compare)}
    if isinstance(condition, InZone):
        return {"card": selector_to_data(condition.card), "in": list(condition.zone)}
    if isinstance(condition, HasFlag):
        return {"card": selector_to_data(condition.card), "no_flag" if condition.negate else "flag": condition.flag}
    if isinstance(condition, StatIs):
        return {"card": selector_to_data(condition.card), "stat": condition.stat, **_compare(condition.compare)}
    raise TypeError(f"not a condition: {condition!r}")


def _actions(actions: Any) -> list[dict[str, Any]]:
    return [action_to_data(a) for a in actions]


def action_to_data(action: Any) -> dict[str, Any]:
    """An action as scenario data: its home writes it (:mod:`tcgtrig.language`)."""
    kind = BY_MODEL.get(type(action)) or CONTROL_BY_MODEL.get(type(action))
    if kind is not None:
        return kind.write(action, WRITER)
    raise TypeError(f"not an action: {action!r}")


class _Writer:
    """What an action's home writes its fields back with (:class:`tcgtrig.language.Writer`)."""

    card = staticmethod(selector_to_data)
    amount = staticmethod(_amount)

    @staticmethod
    def ability(ability: Ability) -> dict[str, Any]:
        return ability_to_data(ability)

    actions = staticmethod(_actions)
    condition = staticmethod(condition_to_data)


WRITER = _Writer()


def ability_to_data(ability: Ability) -> dict[str, Any]:
    """An ability as scenario data (``active_in`` always written out)."""
    data: dict[str, Any] = {"id": ability.id, "kind": ability.kind}
    if ability.when is not None:
        data["when"] = pattern_to_data(ability.when)
    data.update(_some(optional=ability.optional, once_per_turn=ability.once_per_turn, per_turn=ability.per_turn))
    if ability.wording != "when":
        data["wording"] = ability.wording
    if ability.speed != 1:
        data["speed"] = ability.speed
    data.update(_some(tags=list(ability.tags)))
    data["active_in"] = list(ability.active_in)
    if ability.condition is not None:
        data["condition"] = condition_to_data(ability.condition)
    if ability.trigger_condition is not None:
        data["trigger_condition"] = condition_to_data(ability.trigger_condition)
    if ability.targets:
        if len(ability.targets) == 1 and ability.targets[0][0] == "target":
            data["target"] = selector_to_data(ability.targets[0][1])
        else:
            data["targets"] = {name: selector_to_data(query) for name, query in ability.targets}
    if ability.cost:
        data["cost"] = _actions(ability.cost)
    data["do"] = _actions(ability.do)
    if ability.text is not None:
        data["text"] = ability.text
    return data
