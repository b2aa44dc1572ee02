"""Model objects back to scenario data — the reader's inverse.

Abilities, patterns, actions, selectors and conditions built in Python or
read from a file are the same objects; this module writes any of them as the
scenario data that reads back into an equal object, using core action words
only (so the data reads back under any game).  Saved states use it.
"""

from __future__ import annotations

from typing import Any

from ..model.values import (
    Ability,
    Activate,
    AllOf,
    AnyOf,
    AtTrigger,
    Battle,
    CardIds,
    Change,
    Compare,
    Count,
    CounterIs,
    CountIs,
    Did,
    DidCount,
    Draw,
    Emit,
    Flag,
    Gain,
    Grant,
    Happened,
    HappenedCount,
    HasFlag,
    If,
    InZone,
    Mark,
    Marked,
    May,
    Move,
    Negate,
    Not,
    PassTurn,
    Pattern,
    Prevent,
    Query,
    Ref,
    ResolvePending,
    Stack,
    StatIs,
    StatOf,
    TargetRef,
    Together,
    TurnOf,
    Win,
)

__all__ = ["ability_to_data", "action_to_data", "condition_to_data", "selector_to_data", "pattern_to_data"]


def _some(**items: Any) -> dict[str, Any]:
    """The items whose value is not ``None``/``False``/empty."""
    return {k: v for k, v in items.items() if v not in (None, False, (), [], {})}


def pattern_to_data(pattern: Pattern) -> dict[str, Any]:
    return {
        "event": pattern.event,
        **_some(
            card=pattern.card if pattern.card_is is None else selector_to_data(pattern.card_is),
            player=pattern.player,
            to=pattern.to,
            by=pattern.by,
            counter=pattern.counter,
            flag=pattern.flag,
            stat=pattern.stat,
            actor=pattern.actor,
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
    label = _some(label=getattr(action, "label", None))
    if isinstance(action, Move):
        return {
            "move": {
                "card": selector_to_data(action.card),
                "to": action.to,
                **_some(
                    under=selector_to_data(action.under) if action.under is not None else None,
                    alone=action.alone,
                    by=action.by,
                ),
                **({"from": action.from_} if action.from_ else {}),
                **({"as": action.as_} if action.as_ else {}),
                **label,
            }
        }
    if isinstance(action, Stack):
        return {
            "stack": {
                "card": selector_to_data(action.card),
                "onto": selector_to_data(action.onto),
                **_some(by=action.by),
                **({"as": action.as_} if action.as_ else {}),
                **label,
            }
        }
    if isinstance(action, Draw):
        return {
            "draw": {
                "player": action.player,
                "count": _amount(action.count),
                **_some(by=action.by),
                **({"as": action.as_} if action.as_ else {}),
                **label,
            }
        }
    if isinstance(action, Gain):
        return {
            "gain" if action.sign > 0 else "lose": {
                "player": action.player,
                "counter": action.counter,
                "amount": _amount(action.amount),
                **_some(by=action.by),
                **({"as": action.as_} if action.as_ else {}),
                **label,
            }
        }
    if isinstance(action, Flag):
        which = {"set": action.set_} if action.set_ is not None else {"clear": action.clear}
        return {
            "flag": {
                "card": selector_to_data(action.card),
                **which,
                **_some(by=action.by, until=action.until),
                **({"as": action.as_} if action.as_ else {}),
                **label,
            }
        }
    if isinstance(action, Change):
        data = {
            "change": {
                "card": selector_to_data(action.card),
                "stat": action.stat,
                "by": _amount(action.by_amount),
                **_some(until=action.until),
                **({"as": action.as_} if action.as_ else {}),
                **label,
            }
        }
        return {**data, **_some(by=action.by)}  # "by" inside change is the amount
    if isinstance(action, Emit):
        return {
            "emit": {
                "event": action.event,
                **_some(
                    card=selector_to_data(action.card) if action.card is not None else None,
                    player=action.player,
                    by=action.by,
                    reason=action.reason,
                ),
                **label,
            }
        }
    if isinstance(action, Activate):
        return {"activate": action.key, **label}
    if isinstance(action, Battle):
        against = {"against": selector_to_data(action.against)} if action.against is not None else {}
        hold = {"hold": action.hold} if action.hold is not None else {}
        return {"battle": {"card": selector_to_data(action.card), **against, **hold}, **label}
    if isinstance(action, Win):
        return {"win": {"player": action.player, **({"reason": action.reason} if action.reason else {})}, **label}
    if isinstance(action, Negate):
        return {"negate": {"card": selector_to_data(action.card), "what": action.what}, **label}
    if isinstance(action, Prevent):
        return {"prevent": {"card": selector_to_data(action.card)} if action.card is not None else {}, **label}
    if isinstance(action, If):
        return {
            "if": condition_to_data(action.condition),
            "then": _actions(action.then),
            **({"else": _actions(action.else_)} if action.else_ else {}),
            **label,
        }
    if isinstance(action, Together):
        return {"together": _actions(action.actions), **label}
    if isinstance(action, May):
        return {"may": _actions(action.then), **({"else": _actions(action.else_)} if action.else_ else {}), **label}
    if isinstance(action, ResolvePending):
        return {"resolve_pending": {}, **label}
    if isinstance(action, PassTurn):
        return {"pass_turn": {}, **label}
    if isinstance(action, Mark):
        return {"mark": {"set": action.set_} if action.set_ is not None else {"clear": action.clear}, **label}
    if isinstance(action, Grant):
        return {
            "grant": {
                "card": selector_to_data(action.card),
                "ability": ability_to_data(action.ability),
                **_some(until=action.until, by=action.by),
                **({"as": action.as_} if action.as_ else {}),
                **label,
            }
        }
    raise TypeError(f"not an action: {action!r}")


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
