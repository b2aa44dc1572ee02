"""Game state to JSON-compatible data and back (cattrs).

Un/structuring lives here, apart from the model.  A saved state writes each
ability as scenario data in core action words (:mod:`tcgtrig.scenario.unparse`), so
reading it again goes through the same checks as a scenario file — nothing
is evaluated as code — under any game.
"""

from __future__ import annotations

from typing import Any

import cattrs
from attrs import evolve

from ..games.manager import Ruleset
from ..model.state import GameState
from ..model.values import Ability, Card, Event, Mod
from .unparse import ability_to_data

__all__ = ["make_converter", "state_to_dict", "state_from_dict"]

STATE_FORMAT = 1


def make_converter() -> cattrs.Converter:
    """The converter for states: cards, mods and abilities as plain data."""
    converter = cattrs.Converter()
    converter.register_unstructure_hook(frozenset, lambda value: sorted(value))
    converter.register_unstructure_hook(Ability, ability_to_data)

    def unstructure_card(card: Card) -> dict[str, Any]:
        data: dict[str, Any] = {"id": card.id, "name": card.name, "owner": card.owner, "zone": card.zone}
        if card.under is not None:
            data["under"] = card.under
        if card.stats:
            data["stats"] = dict(card.stats)
        if card.flags:
            data["flags"] = sorted(card.flags)
        if card.types:
            data["types"] = list(card.types)
        if card.abilities:
            data["abilities"] = [converter.unstructure(a) for a in card.abilities]
        if card.mods:
            data["mods"] = [converter.unstructure(m) for m in card.mods]
        if card.incarnation:
            data["incarnation"] = card.incarnation
        return data

    def unstructure_mod(mod: Mod) -> dict[str, Any]:
        data: dict[str, Any] = {"stat": mod.stat, "by": mod.by, "until": mod.until, "effect": mod.effect}
        for name in ("player", "flag", "key"):
            if getattr(mod, name) is not None:
                data[name] = getattr(mod, name)
        if mod.ability is not None:
            data["ability"] = ability_to_data(mod.ability)
        return data

    converter.register_unstructure_hook(Mod, unstructure_mod)
    converter.register_unstructure_hook(Card, unstructure_card)
    return converter


def state_to_dict(state: GameState) -> dict[str, Any]:
    """A JSON-compatible snapshot of ``state``."""
    converter = make_converter()
    return {
        "state_format": STATE_FORMAT,
        "players": list(state.players),
        "turn_player": state.turn_player,
        "turn": state.turn,
        "counters": {p: dict(sorted(v.items())) for p, v in state.counters.items()},
        "used": sorted(k for k, n in state.used.items() for _ in range(n)),
        **({"marks": sorted(state.marks)} if state.marks else {}),
        **({"empty_draws": list(state.empty_draws)} if state.empty_draws else {}),
        **({"history": [_event_to_dict(e) for e in state.history]} if state.keep_history else {}),
        "cards": [converter.unstructure(card) for card in state.cards.values()],
    }


_EVENT_KEYS = (
    "name",
    "base",
    "card",
    "player",
    "from_",
    "to",
    "by",
    "counter",
    "amount",
    "flag",
    "stat",
    "actor",
    "against",
)


def _event_to_dict(event: Event) -> dict[str, Any]:
    """An event of the turn's history, its keys that are set."""
    data = {key.rstrip("_"): getattr(event, key) for key in _EVENT_KEYS if getattr(event, key) is not None}
    if event.cards:
        data["cards"] = list(event.cards)
    return data


def _event_from_dict(raw: dict[str, Any]) -> Event:
    return Event(**{("from_" if key == "from" else key): value for key, value in raw.items()})


def _mod_from_dict(raw: dict[str, Any], converter: cattrs.Converter, data: dict[str, Any], ruleset: Ruleset) -> Mod:
    """A saved change; a gained ability is read back as scenario data."""
    from .reading import scenario_from_data

    if not raw.get("ability"):
        return converter.structure({k: v for k, v in raw.items() if k != "ability"}, Mod)
    # read among the saved cards, so that its words may name them
    cards = [{k: v for k, v in card.items() if k not in ("mods", "incarnation")} for card in data["cards"]]
    ids = {card["id"] for card in cards}
    holder_id = next(f"gained_{n}" for n in range(len(ids) + 1) if f"gained_{n}" not in ids)
    holder = {"id": holder_id, "owner": data["players"][0], "zone": "gained", "abilities": [raw["ability"]]}
    scenario = scenario_from_data(
        {
            "format": 1,
            "title": "gained ability",
            "players": data["players"],
            "turn_player": data["turn_player"],
            "cards": [*cards, holder],
            "start": [],
        },
        file="<saved state>",
    )
    ability = scenario.compile(ruleset).state.cards[holder_id].abilities[0]
    return evolve(converter.structure({k: v for k, v in raw.items() if k != "ability"}, Mod), ability=ability)


def state_from_dict(data: dict[str, Any], ruleset: Ruleset) -> GameState:
    """Rebuild a state saved by :func:`state_to_dict`, for ``ruleset``.

    The cards are read as a scenario (same checks, same errors); what a
    scenario cannot say — lasting stat changes, incarnations, once-per-turn
    use, the game's marks — is restored on top.
    """
    from .reading import (
        scenario_from_data,  # scenario imports this module's neighbours
    )

    converter = make_converter()
    cards = [{k: v for k, v in card.items() if k not in ("mods", "incarnation")} for card in data["cards"]]
    scenario = scenario_from_data(
        {
            "format": 1,
            "title": "saved state",
            "players": data["players"],
            "turn_player": data["turn_player"],
            "counters": data.get("counters") or {},
            "cards": cards,
            "start": [],
        },
        file="<saved state>",
    )
    state = scenario.compile(ruleset).state
    for raw in data["cards"]:
        card = state.cards[raw["id"]]
        mods = tuple(_mod_from_dict(m, converter, data, ruleset) for m in raw.get("mods") or ())
        state.replace(evolve(card, mods=mods, incarnation=raw.get("incarnation", 0)))
    for key in data.get("used") or ():
        state.mark_used(key)
    for name in data.get("marks") or ():
        state.set_mark(name, True)
    for player in data.get("empty_draws") or ():
        state.drew_from_empty(player)
    if "history" in data:
        state.keep_history = True
        state.forget_history()
        state.record(_event_from_dict(raw) for raw in data["history"])
    state.turn = data.get("turn", 1)
    return state
