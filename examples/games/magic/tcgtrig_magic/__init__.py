"""Magic: The Gathering for tcgtrig: the stack (Comprehensive Rules 405,
603, 704).

Written only against tcgtrig's public API and registered under the
entry-point group ``tcgtrig.games``, as any third-party game is.  What it
decides:

- **The stack** is the core's chain model (``resolution="chain"``): last
  in, first out; players may respond (instants, activated abilities of
  ``speed`` 2) before each object resolves (CR 405, 117).
- **APNAP** (CR 603.3b, 101.4): the active player puts all their
  triggered abilities on the stack first, in the order they choose, then
  each other player in turn order — so the last player's resolve first.
  One :func:`tcgtrig_pending_rank`, cited by
  :func:`tcgtrig_order_rule`.  Multiplayer (CR 800): up to 8 players.
- **Mid-resolution triggers go on top** (CR 603.3): what triggers while an
  object resolves is put on the stack the next time a player would
  receive priority — on top of what is left, before the next object
  resolves (``chain_triggers="on_top"``).
- **Each occurrence** in one event triggers an ability once: "whenever a
  creature dies" triggers three times for three creatures destroyed at
  once (CR 603.2c: ``GameInfo.trigger_multiplicity = "per_event"``).
- **State-based actions** (CR 704.5a/b, 704.5f, 704.5g) before a player
  receives priority: a player with 0 or less life, or who drew from an
  empty library (``GameState.empty_draws``), loses the game (the
  core's ``LoseGame``, an event a replacement may replace: Lich's Mirror);
  a creature with toughness 0 or less, or with damage at least its
  toughness, is put into its owner's graveyard (it "dies").
- **Looking back** (CR 603.10a): a leaves-the-battlefield ability's
  intervening "if" reads the object as it last existed (undying:
  ``GameInfo.trigger_condition_looks_back``).
- **Replacement effects** (CR 614.5): one opportunity to affect an event
  and the events that replace it — no second activation in the event's
  series of interrupts (:func:`tcgtrig_activation_blocked`).  Magic has
  no "when … would" triggered abilities (a "would" is only a replacement,
  614.1; triggered abilities see what happened, 603.2):
  ``GameInfo.would_effects`` is off, and an interrupt written in another
  game's words never triggers.  Several replacements on one event: the
  affected player chooses which applies first (CR 616.1:
  :func:`tcgtrig_who_orders`), the others checked again (616.1e).
- **Its words** for the chain: "the stack" and its objects (#1, #2, …)
  (``GameInfo.terms``), last in, first out cited as CR 405.5.
- **Words**: ``destroy``, ``sacrifice``, ``exile``, ``discard``,
  ``deal_damage``; zones ``library``, ``hand``, ``battlefield``,
  ``graveyard``, ``exile`` (a draw takes from the ``library``: its role
  is ``deck``).

- **Combat damage** (CR 510): a ``battle`` marks damage equal to each
  creature's power on the other, at once (:func:`tcgtrig_battle_result`);
  the state-based actions then destroy (704.5g).  An unblocked attacker
  makes the defending player lose that much life.

Not modelled: mana and costs, the combat steps other than combat damage,
first strike and trample, layers, self-replacement effects first
(616.1a-d), a multiplayer game going on after a player lost (800.4a).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tcgtrig import (
    ActivationContext,
    BattleResult,
    CardIds,
    GameInfo,
    GameState,
    LoseGame,
    Move,
    PendingEffect,
    hookimpl,
)
from tcgtrig.games.words import card_argument, move_word

if TYPE_CHECKING:
    from tcgtrig.printed import Reading

#: the counter a player's life is (combat damage to a player lowers it)
LIFE = "life"

GAME_INFO = GameInfo(
    name="magic",
    title="Magic: The Gathering",
    version="0.1.0",
    summary="the stack: APNAP, last in first out, mid-resolution triggers on top, state-based actions",
    rules="Magic: The Gathering Comprehensive Rules",
    resolution="chain",
    chain_triggers="on_top",
    events=("dies", "damaged"),  # state-based actions put creatures into the graveyard; combat deals damage
    zones=("library", "hand", "battlefield", "graveyard", "exile"),
    stats=("power", "toughness", "damage"),
    battle_stat="power",  # combat: each creature deals damage equal to its power (CR 510.1a)
    zone_roles={"library": "deck", "hand": "hand", "battlefield": "field", "graveyard": "discard", "exile": "exile"},
    trigger_multiplicity="per_event",  # once for each occurrence in one event (CR 603.2c)
    # CR 603.2c: once per object; CR 405.5: the top (last-added) object resolves first
    citations={
        "trigger_multiplicity": "CR 603.2c",
        "chain": "CR 405.5",
        "condition_on_resolution": "CR 603.4",
        "trigger_condition_looks_back": "CR 603.10a",
    },
    condition_on_resolution=True,  # an intervening "if" is checked again as the ability resolves (603.4)
    # a leaves-the-battlefield ability looks back in time: its "if" reads the object as it last existed (603.10a)
    trigger_condition_looks_back=True,
    tokens_arrive=True,  # a token dies (goes to the graveyard), then ceases to exist (CR 111.7, 704.5d)
    event_roles={"dies": "destroyed", "discarded": "discarded", "exiled": "exiled"},
    flag_roles={"tapped": "tapped"},
    stat_roles={"power": "strength", "toughness": "toughness", "damage": "damage"},
    counter_roles={"life": "life"},
    type_roles={"creature": "unit", "instant": "spell", "sorcery": "spell"},
    would_effects=False,  # "would" is only ever a replacement (614.1); triggers see what happened (603.2)
    spent_abilities_trigger=False,  # "triggers only once each turn": spent, it does not trigger at all
    max_players=8,  # CR 800.1: any number; 8 is as many as a scenario file may name
    terms={"chain": "stack", "chain_link": "stack object", "chain_link_short": "#"},
)


def _deal_damage(arg: Any) -> dict[str, Any]:
    """``deal_damage: {card: X, amount: N}``: N damage marked on X."""
    if not isinstance(arg, dict) or type(arg.get("amount")) is not int:
        raise ValueError("deal_damage takes {card: SEL, amount: N}")
    card, modifiers = card_argument({k: v for k, v in arg.items() if k != "amount"})
    return {"change": {"card": card, "stat": "damage", "by": arg["amount"], "as": "damaged", **modifiers}}


WORDS = {
    "destroy": move_word("graveyard", "dies", **{"from": "battlefield"}),
    "sacrifice": move_word("graveyard", "dies", **{"from": "battlefield"}),
    "exile": move_word("exile", "exiled"),
    "discard": move_word("graveyard", "discarded", **{"from": "hand"}),
    "deal_damage": _deal_damage,
}


@hookimpl
def tcgtrig_game_info() -> GameInfo:
    return GAME_INFO


@hookimpl
def tcgtrig_read_text(text: str, types: Sequence[str]) -> Reading:
    """Magic's printed (Oracle) text read into abilities: one ability a
    line, "When/Whenever/At the beginning of" triggers, activated
    abilities, undying, persist, exalted and cycling, the common effect
    sentences (:mod:`tcgtrig_magic.reading`, ``magic.lark``)."""
    from .reading import READER

    return READER.read(text, types)


@hookimpl
def tcgtrig_action_aliases() -> dict[str, Any]:
    return dict(WORDS)


@hookimpl
def tcgtrig_pending_rank(state: GameState, effect: PendingEffect) -> tuple[int, ...]:
    """APNAP (CR 101.4): the active player's triggers go on the stack
    first, then each other player's in turn order.  Replacement effects
    that would apply to one event are not ordered by their controllers:
    they share the affected player's rank, and that player chooses (CR
    616.1, :func:`tcgtrig_who_orders`); replacements affecting different
    players' objects go APNAP by the affected player (101.4)."""
    if effect.ability.kind == "replacement":
        return (state.seat(_affected(effect)),)
    return (state.seat(effect.controller),)


def _affected(effect: PendingEffect) -> str:
    """The player an event a replacement would modify concerns: the player
    it happens to, or the controller of the object it happens to (CR 616.1)."""
    return next((event.player for event in effect.events if event.player), effect.controller)


@hookimpl
def tcgtrig_who_orders(state: GameState, effects: Sequence[PendingEffect]) -> str | None:
    """CR 616.1: when several replacement effects would apply to one event,
    the affected player (or the controller of the affected object) chooses
    which applies first, whoever controls them; the others wait to be
    checked again against the modified event (616.1e: the core drops one
    whose event no longer happens)."""
    if effects[0].ability.kind == "replacement":
        return _affected(effects[0])
    return None


@hookimpl
def tcgtrig_activation_blocked(effect: PendingEffect, context: ActivationContext) -> str | None:
    """CR 614.5: a replacement effect gets one opportunity to affect an
    event or the modified events that replace it — the event's series of
    interrupts here."""
    if context.window == "interrupt" and effect.key in context.series:
        return "a replacement effect gets only one opportunity to affect an event (CR 614.5)"
    return None


@hookimpl
def tcgtrig_battle_result(state: GameState, card: str, against: str | None, stat: Any) -> BattleResult:
    """Combat damage (CR 510): each creature deals damage equal to its
    power to the other, both at once (510.1a, 510.2); a creature whose power
    is 0 or less deals none.  The damage is marked on the creature (120.3):
    the state-based actions then destroy the ones with lethal damage, all at
    once (704.5g) — the battle destroys nothing itself.  An unblocked
    attacker (``against`` none) deals its damage to the defending player,
    who loses that much life (510.1b, 120.3a)."""
    power = max(stat(card, "power") or 0, 0)
    if against is None:
        defender = state.opponent(state.cards[card].owner)
        return BattleResult(damage=((defender, power),), counter=LIFE)
    theirs = max(stat(against, "power") or 0, 0)
    dealt = ((against, power), (card, theirs))
    return BattleResult(changes=tuple((who, "damage", amount, "damaged") for who, amount in dealt if amount > 0))


@hookimpl
def tcgtrig_order_rule(first: PendingEffect, then: PendingEffect) -> str:
    """Why ``first`` goes on the stack before ``then``: APNAP, or its
    player's own order among theirs, or the affected player's choice of
    replacement effects."""
    if first.ability.kind == "replacement" and then.ability.kind == "replacement" and first.rank == then.rank:
        return (
            f"{_affected(first)}, the affected player, chooses which replacement effect applies first; "
            "the others are checked again against the modified event (CR 616.1, 616.1e)"
        )
    if first.ability.kind == "replacement" and then.ability.kind == "replacement":
        return (
            "APNAP: the active player chooses the order of the replacement effects affecting them first, "
            "then each other player in turn order (CR 616.1, 101.4)"
        )
    if first.rank != then.rank:
        return (
            "APNAP: the active player's triggered abilities go on the stack first, then each other "
            "player's in turn order, on top (CR 603.3b, 101.4)"
        )
    return f"APNAP: {first.controller} puts their own triggered abilities on the stack in any order (CR 603.3b)"


@hookimpl
def tcgtrig_rules_processing(state: GameState, view: Any, changed: Sequence[str]) -> list[Any]:
    """State-based actions (CR 704.5a/b, 704.5f/g), all at once (704.3): a
    player with 0 or less life, or who drew from an empty library since
    they were last checked, loses the game — an event a replacement
    effect may replace (Lich's Mirror, 614) — and creatures that must die
    do.  A player's life counts only where the file gives it (a position
    without ``life`` is not one of 0 life)."""
    losing: list[Any] = []
    for player in state.players:
        if LIFE in state.counters.get(player, {}) and state.counter(player, LIFE) <= 0:
            losing.append(LoseGame(player=player, reason="0 or less life (CR 704.5a)", by="rule"))
        elif player in state.empty_draws:
            losing.append(LoseGame(player=player, reason="drew from an empty library (CR 704.5b)", by="rule"))
    return losing + _dying(state, view, changed)


def _dying(state: GameState, view: Any, changed: Sequence[str]) -> list[Any]:
    """CR 704.5f/g: the creatures with toughness 0 or less, or with damage
    at least their toughness, put into their owners' graveyards at once."""
    candidates = state.in_zone("battlefield") if view.continuous else [state.cards[c] for c in changed]
    dying = []
    for card in candidates:
        if card.zone != "battlefield" or "creature" not in card.types:
            continue
        toughness, damage = view.stat(card.id, "toughness"), view.stat(card.id, "damage") or 0
        if toughness is not None and (toughness <= 0 or damage >= toughness):
            dying.append(card.id)
    return [Move(card=CardIds(tuple(dying)), to="graveyard", as_="dies", by="rule")] if dying else []


__all__ = ["GAME_INFO", "WORDS"]
