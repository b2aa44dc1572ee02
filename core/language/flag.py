"""``flag``: set or clear a flag on cards (suspended, tapped, …), for good
or until a moment."""

from __future__ import annotations

from typing import Any

from attrs import evolve

from ..model.values import DURATIONS, Card, Flag, Mod
from .base import ActionKind, Moment, Op, Planning, Reader, Writer, card_event, make_op, named, some, unaffected


def read(
    reader: Reader, word: str, args: dict[str, Any], at: tuple[Any, ...], *, label: Any, by: Any, as_: Any
) -> Flag:
    reader.only(args, at, ("card", "set", "clear", "until", "as", "by", "label"))
    reader.need(args, at, "card")
    if ("set" in args) == ("clear" in args):
        raise reader.error(at, "expected exactly one of 'set' or 'clear'")
    which = "set" if "set" in args else "clear"
    name = reader.text(args[which], at + (which,))
    if "until" in args and which == "clear":
        raise reader.error(at + ("until",), "'until' says how long a flag that is set lasts")
    until = reader.text(args["until"], at + ("until",), choices=DURATIONS) if "until" in args else None
    return Flag(
        card=reader.selector(args["card"], at + ("card",)),
        set_=name if which == "set" else None,
        clear=name if which == "clear" else None,
        until=until,
        as_=as_,
        by=by,
        label=label,
    )


def write(action: Flag, writer: Writer) -> dict[str, Any]:
    which = {"set": action.set_} if action.set_ is not None else {"clear": action.clear}
    return {
        "flag": {
            "card": writer.card(action.card),
            **which,
            **some(by=action.by, until=action.until),
            **named(action),
        }
    }


def plan(planning: Planning, action: Flag) -> list[Op]:
    machine, part, chosen, scope, by, actor, did = planning
    state = machine.state
    ops: list[Op] = []
    for card_id in chosen.get("card", []):
        card = state.cards[card_id]
        if by == "effect" and unaffected(state, card, actor):
            continue  # it is not suspended, not tapped (Digimon CR 15-15-5-1)
        if action.set_ is not None and action.set_ in card.flags and any(mod.flag == action.set_ for mod in card.mods):
            # set for a while already: this setting keeps it longer (or for good), with no event
            mod = (
                Mod(flag=action.set_, until=action.until, effect=scope.key, player=scope.controller)
                if action.until is not None
                else None
            )
            event = card_event("flag_set", None, card, by, actor, flag=action.set_)
            ops.append(
                make_op(
                    part=part,
                    event=event,
                    subject=card_id,
                    incarnation=card.incarnation,
                    data=(("renew", mod),),
                    apply=apply,
                )
            )
            continue
        if action.set_ is not None and action.set_ not in card.flags:
            name, base, flag = action.as_ or "flag_set", "flag_set", action.set_
        elif action.clear is not None and action.clear in card.flags:
            name, base, flag = action.as_ or "flag_cleared", "flag_cleared", action.clear
        else:
            continue  # nothing to do: no action, no event
        event = card_event(name, base if action.as_ else None, card, by, actor, flag=flag)
        data: tuple[tuple[str, Any], ...] = ()
        if action.until is not None and action.set_ is not None:
            data = (("mod", Mod(flag=flag, until=action.until, effect=scope.key, player=scope.controller)),)
        ops.append(
            make_op(part=part, event=event, subject=card_id, incarnation=card.incarnation, data=data, apply=apply)
        )
    return ops


def apply(moment: Moment, op: Op, card: Card | None) -> None:
    """Set or clear the flag, if it is not so already; or keep a flag that
    is set for a while longer (``renew``: no event)."""
    assert card is not None
    state, event = moment.state, op.event
    assert event.flag is not None
    flags = set(card.flags)
    mods = card.mods
    if any(name == "renew" for name, _ in op.data):
        renewed = op.get("renew")
        if renewed is None:  # set for good now
            mods = tuple(m for m in mods if m.flag != event.flag)
        elif renewed not in mods:  # the same again adds nothing (a loop renewing it carries one: issue 37 item 23)
            mods = mods + (renewed,)
        state.replace(evolve(card, mods=mods))
        return
    if event.name == "flag_set" or event.base == "flag_set":
        if event.flag in flags:
            return
        flags.add(event.flag)
        if op.get("mod") is not None:
            mods = mods + (op.get("mod"),)
    else:
        if event.flag not in flags:
            return
        flags.discard(event.flag)
        mods = tuple(m for m in mods if m.flag != event.flag)
    state.replace(evolve(card, flags=frozenset(flags), mods=mods))
    moment.events.append(event)


KIND = ActionKind(words=("flag",), model=Flag, card_fields=("card",), read=read, write=write, plan=plan)
