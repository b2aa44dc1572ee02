"""Yu-Gi-Oh! chain rules as plain functions (no pluggy here)."""

from __future__ import annotations

from typing import Any

from tcgtrig import Ability, ActivationContext, BattleResult, Card, Drop, Event, GameState, PendingEffect
from tcgtrig.games.words import card_argument, move_word

#: Zones whose cards the opponent cannot see (the OCG keeps their optional
#: triggers out of SEGOC).
HIDDEN_ZONES = ("hand", "deck")
HARD_ONCE_PER_TURN = "hard_once_per_turn"
ONCE_PER_CHAIN = "once_per_chain"
GROUPS = ("TP mandatory", "NTP mandatory", "TP optional", "NTP optional")
#: the event of a card destroyed (its role ``destroyed``)
DESTROYED = "destroyed"


def segoc_group(state: GameState, effect: PendingEffect) -> int:
    """0 turn player's mandatory, 1 opponent's mandatory, 2 turn player's
    optional, 3 opponent's optional (TCG Rulebook v10, p.50)."""
    return (2 if effect.optional else 0) + (0 if effect.controller == state.turn_player else 1)


def rank(state: GameState, effect: PendingEffect) -> tuple[int, ...]:
    """SEGOC; before an event, replacements first, the turn player's first."""
    if effect.window == "interrupt":
        return (0 if effect.kind == "replacement" else 1, 0 if effect.controller == state.turn_player else 1)
    return (segoc_group(state, effect),)


def rank_trigger_first(state: GameState, effect: PendingEffect) -> tuple[int, ...] | None:
    """GOAT/Edison: SEGOC first; within one SEGOC group (two mandatory, or
    two optional, effects of the same player) the trigger that happened
    earlier goes on the chain first, instead of its player ordering them
    (the Edison compendium, "SEGOC and Early Trigger")."""
    if effect.window == "interrupt":
        return None
    return (segoc_group(state, effect), effect.moment)


#: each SEGOC group in words, as :func:`order_rule` cites it
GROUP_WORDS = (
    "the turn player's mandatory",
    "the opponent's mandatory",
    "the turn player's optional",
    "the opponent's optional",
)
SEGOC = "TCG Rulebook v10, p.50"


def order_rule(state: GameState, first: PendingEffect, then: PendingEffect) -> str:
    """The rule of :func:`rank` that puts ``first`` on the Chain ahead of
    ``then``: their SEGOC groups, or each player ordering their own within
    a group; before an event, replacements, then the turn player's."""
    if first.window == "interrupt":
        if first.rank[0] != then.rank[0]:
            return "a replacement effect ('instead') applies before the effects that wait for the event"
        if first.rank[1] != then.rank[1]:
            return "the turn player's effects first"
        return f"{first.controller} orders their own effects as they choose"
    mine, theirs = segoc_group(state, first), segoc_group(state, then)
    if mine != theirs:
        return f"SEGOC: {GROUP_WORDS[mine]} effects go on the Chain before {GROUP_WORDS[theirs]} ones ({SEGOC})"
    return f"SEGOC: {first.controller} orders their own effects within a group as they choose ({SEGOC})"


def goat_order_rule(state: GameState, first: PendingEffect, then: PendingEffect) -> str | None:
    """GOAT/Edison: within one SEGOC group an earlier trigger goes on the
    Chain first; between groups, and among simultaneous ones, SEGOC (the
    game's own rule)."""
    if first.window == "interrupt" or first.moment == then.moment:
        return None
    if segoc_group(state, first) != segoc_group(state, then):
        return None
    return (
        "GOAT/Edison: the earliest trigger goes on the Chain first within a SEGOC group "
        "(the TCG rule before Rulebook v10)"
    )


def ocg_order_rule(state: GameState, then: PendingEffect) -> str | None:
    """OCG: what waits next is an optional trigger in a hidden zone, offered
    only after the SEGOC Chain is built (Konami OCG FAQ)."""
    if not ocg_offered(state, then):
        return None
    return (
        "OCG: optional triggers in the hand or Deck are not part of SEGOC: they may be activated only "
        "after it, in the response window (Konami OCG FAQ)"
    )


def details(state: GameState, effect: PendingEffect) -> dict[str, Any] | None:
    if effect.window != "main":
        return None
    return {"group": GROUPS[segoc_group(state, effect)]}


def check_pending(state: GameState, effect: PendingEffect, point: str, last_moment: int) -> Drop | None:
    """A pending trigger that :func:`moved_away`, or that :func:`missed` the
    timing.  Their cheap tests first: it runs up to three times for every
    trigger (as it is admitted, at the window, as it activates)."""
    ability = effect.ability
    if ability.kind != "triggered":
        return None
    if not effect.granted:
        card = state.cards.get(effect.card)
        if card is not None and card.incarnation != effect.incarnation:
            return moved_away(state, effect)
    if point == "window" and ability.optional:
        return missed(effect, point, last_moment)
    return None


def look_back(state: GameState, card: Card, ability: Ability, event: Event) -> bool:
    """A card that left as the event happened sees its own leaving ("when
    this card is sent from the field to the GY"), and another card's event
    only with an effect that activates where the card went: a Trigger
    Effect activates from where its card is ("location matters"), so a
    monster watching the field that is destroyed with the card it watches
    is gone from the field with it."""
    if event.card == card.id:
        return True
    now = state.cards.get(card.id)
    return now is not None and now.zone in ability.active_in


def moved_away(state: GameState, effect: PendingEffect) -> Drop | None:
    """A trigger effect whose card changed location after it triggered
    (the field, the GY, the hand, banishment, the Deck — or left and came
    back, a new card) does not activate: a Trigger Effect waits for the next
    chain in the place where its condition was met, and activates only from
    there ("location matters"; research case 15: a FLIP effect does not
    activate if the monster left the zone first)."""
    if effect.kind != "triggered" or effect.granted:
        return None
    card = state.cards.get(effect.card)
    if card is None or card.incarnation == effect.incarnation:
        return None
    return Drop(
        "lost",
        f"its card changed location after it triggered (now: {card.zone}): a trigger "
        "effect activates only from where its condition was met",
    )


def missed(effect: PendingEffect, point: str, last_moment: int) -> Drop | None:
    """An optional "when … you can" trigger misses the timing when its
    event was not the last thing to happen."""
    if point != "window" or not effect.optional or effect.ability.wording != "when":
        return None
    if effect.kind != "triggered" or effect.moment >= last_moment:
        return None
    if any(event.by == "cost" for event in effect.events):
        why = "its event happened while a cost was paid"
    elif effect.link >= 2:
        why = f"its event happened at Chain Link {effect.link}, and Chain Link {effect.link - 1} resolved after it"
    else:
        why = (
            "something else happened after its event (a later part of the same effect, or the summon "
            "its Tribute or material was for)"
        )
    return Drop("missed", f"{why}: an optional 'when … you can' effect misses the timing")


def once_per_turn_key(state: GameState, effect: PendingEffect) -> str:
    """Hard: per player and card name.  Soft: per card copy — a card that
    left and came back is a new copy."""
    if HARD_ONCE_PER_TURN in effect.tags:
        name = state.cards[effect.card].name
        return f"{effect.controller}:{name}:{effect.ability.id}"
    return f"{effect.key}@{effect.incarnation}"


def blocked(state: GameState, effect: PendingEffect, context: ActivationContext) -> str | None:
    """Once per chain; and a Spell or Trap already activated on the chain
    cannot be activated again while it is there (a monster's Quick Effect
    may be, unless it says once per chain).  A card that does not say it is
    a monster counts as a Spell or Trap.  Before an event, one replacement
    per destruction: :func:`replaced`."""
    if context.window == "interrupt" and (why := replaced(effect, context)) is not None:
        return why
    if effect.key in context.chain:
        if ONCE_PER_CHAIN in effect.tags:
            return "once per chain: already activated in this chain"
        if effect.kind == "activated" and "monster" not in state.cards[effect.card].types:
            return "already on the chain: an activated Spell or Trap cannot be activated again"
    return None


def replaced(effect: PendingEffect, context: ActivationContext) -> str | None:
    """One replacement per destruction: a card destroyed by another card's
    replacement ("destroy 1 other card instead") is destroyed, and cannot
    apply its own replacement to that destruction (the judges' rulings on
    destruction replacement effects, rules 1 and 2).  For other events the
    rulings found say nothing; what they imply — a replacement applies to
    an event once — is kept: none applies twice in the event's series
    (derived).  Yu-Gi-Oh! has no "when … would" effects that act before an
    event but these ("instead"): an interrupt is read as one."""
    if context.nested and DESTROYED in context.interrupting:
        return "the destruction is already a replacement's: one replacement per destruction"
    if effect.key in context.series:
        return "a replacement applies to an event once: already applied in this series"
    return None


#: the card types placed on the field as they are activated from the hand
SPELL_TRAP = ("spell", "trap")
#: the Spells and Traps that stay on the field once they resolved
STAYS = ("continuous", "field", "equip")


def activation_zone(state: GameState, effect: PendingEffect, point: str) -> str | None:
    """A Spell or Trap Card activated from the hand is placed face-up on the
    field (its Spell & Trap Zone) as it is activated, and stays there while
    it is a Chain Link: it can be targeted and destroyed there.  Once it
    resolved, a Spell or Trap on the field goes to the GY unless it is a
    Continuous, Field or Equip card (types ``continuous``, ``field``,
    ``equip``), which stays (Rulebook v10, "Spell Cards" and "Trap
    Cards").  A Spell or Trap whose activation was negated goes to the GY
    when its Chain Link is reached, Continuous ones too: it never resolved
    (Rulebook v10, "Chain": a negated card is sent to the GY)."""
    card = state.cards[effect.card]
    if "monster" in card.types or not any(kind in card.types for kind in SPELL_TRAP):
        return None
    if point == "activation":
        return "field" if card.zone == "hand" else None
    if card.zone != "field" or (point == "resolved" and any(kind in card.types for kind in STAYS)):
        return None
    return "graveyard"


def can_respond(chain: Any, effect: PendingEffect) -> bool:
    """Spell speeds: 1 never responds; 2 responds to 1 or 2; 3 to anything,
    and only 3 to 3.  Triggers are speed 1."""
    if effect.kind == "triggered":
        return False
    top = chain[-1].ability.speed if chain else 1
    return effect.ability.speed >= max(2, top)


def ocg_offered(state: GameState, effect: PendingEffect) -> bool:
    """OCG: an optional trigger activated from a hidden zone is not part of
    SEGOC."""
    return effect.kind == "triggered" and effect.optional and state.cards[effect.card].zone in HIDDEN_ZONES


def ocg_can_respond(chain: Any, effect: PendingEffect) -> bool | None:
    """OCG: a hand trigger may be added on top of a Spell Speed 1 or 2
    link, not on top of a Spell Speed 3 one."""
    if effect.kind != "triggered":
        return None
    top = chain[-1].ability.speed if chain else 1
    return top <= 2


#: a monster destroyed by battle, on the field until the end of the Damage Step
BATTLE_DESTROYED = "destroyed_by_battle"
#: the flag of a monster in Defense Position (a monster without it is in Attack Position)
DEFENSE = "defense_position"


def battle_result(state: GameState, card: str, against: str | None, stat: Any) -> BattleResult:
    """Damage calculation (Rulebook v10, "Damage Calculation"): ATK against
    ATK in Attack Position (the lower is destroyed and its controller takes
    the difference; equal: both destroyed, unless both have 0 ATK); ATK
    against DEF in Defense Position (a lower DEF is destroyed, with no
    damage; a higher DEF deals the difference to the attacker's
    controller); a direct attack deals the attacker's ATK."""
    attack = stat(card, "atk") or 0
    if against is None:
        return BattleResult(damage=((state.opponent(state.controller(card)), attack),), counter="lp")
    if DEFENSE in state.cards[against].flags:
        defense = stat(against, "def") or 0
        if attack > defense:
            return BattleResult(destroyed=(against,), winner=card)
        if attack < defense:
            return BattleResult(damage=((state.controller(card), defense - attack),), counter="lp", losers=())
        return BattleResult()
    other = stat(against, "atk") or 0
    if attack == other:
        return BattleResult(destroyed=(card, against) if attack > 0 else ())
    winner, loser = (card, against) if attack > other else (against, card)
    return BattleResult(
        destroyed=(loser,), winner=winner, damage=((state.controller(loser), abs(attack - other)),), counter="lp"
    )


# -- the game's words ----------------------------------------------------------


#: the flag of a face-down card (a Set card)
FACE_DOWN = "face_down"


def _set(arg: Any) -> dict[str, Any]:
    """A monster is Set: face-down in Defense Position (Rulebook v10, "Set")
    — it arrives with both flags, part of the Set itself (no event of their
    own).  A flip clears ``face_down`` and leaves the position.  (A Spell or
    Trap is Set with ``move: {…, as: set, flags: [face_down]}``.)"""
    card, modifiers = card_argument(arg)
    return {"move": {"card": card, "to": "field", "as": "set", "flags": [FACE_DOWN, DEFENSE], **modifiers}}


def _flip_summon(arg: Any) -> dict[str, Any]:
    """A Flip Summon (Rulebook v10, "Flip Summon"): a face-down Defense
    Position monster is changed to face-up Attack Position; its event is
    ``flip_summoned`` (what "When … is Flip Summoned" and "When a monster is
    Summoned" wait for)."""
    card, modifiers = card_argument(arg)
    return {
        "together": [
            {"flag": {"card": card, "clear": FACE_DOWN, "as": "flip_summoned"}, **modifiers},
            {"flag": {"card": card, "clear": DEFENSE}},
        ]
    }


def _number(arg: Any) -> int:
    if isinstance(arg, bool) or not isinstance(arg, int):
        raise ValueError("expected a number of LP")
    return arg


def _lp(arg: Any) -> dict[str, Any]:
    amount = _number(arg)
    return {("gain" if amount >= 0 else "lose"): {"counter": "lp", "amount": abs(amount)}}


def _negate(what: str) -> Any:
    def word(arg: Any) -> dict[str, Any]:
        card, modifiers = card_argument(arg)
        return {"negate": {"card": card, "what": what}, **{k: v for k, v in modifiers.items() if k == "label"}}

    return word


def _damage_step(arg: Any) -> list[dict[str, Any]]:
    """The Damage Step of an attack (Rulebook v10, "Damage Step"), only in
    the start actions: the start of the Damage Step and what it triggers;
    a face-down monster attacked is flipped face-up (``flipped``) before
    damage calculation; damage calculation (``battle``); after damage
    calculation, what the flip, the battle and the damage triggered (FLIP
    effects, "inflicts battle damage") resolves; then the end of the Damage
    Step: a monster destroyed by battle at damage calculation carries the
    flag ``destroyed_by_battle`` and stays on the field until now, when it
    is sent to the GY (``destroyed``, ``by: battle``), and what that
    triggers resolves — so a FLIP effect that waited for damage
    calculation still activates."""
    if not isinstance(arg, dict) or "card" not in arg or set(arg) - {"card", "against"}:
        raise ValueError("expected {card: the attacking monster, against: the monster it attacks (none: direct)}")
    card, against = arg["card"], arg.get("against")
    steps: list[dict[str, Any]] = [
        {"emit": {"event": "start_of_damage_step", "card": card, "by": "rule"}},
        {"resolve_pending": {}},
    ]
    if against is not None:
        steps.append(
            {
                "if": {"card": against, "flag": "face_down"},
                "then": [{"flag": {"card": against, "clear": "face_down", "as": "flipped", "by": "rule"}}],
            }
        )
    steps += [
        {"emit": {"event": "before_damage_calculation", "card": card, "by": "rule"}},
        {"battle": {"card": card, **({"against": against} if against is not None else {}), "hold": BATTLE_DESTROYED}},
        {"emit": {"event": "after_damage_calculation", "card": card, "by": "rule"}},
        {"resolve_pending": {}},
        {"emit": {"event": "end_of_damage_step", "card": card, "by": "rule"}},
        {"destroy": {"card": {"zone": "field", "flag": BATTLE_DESTROYED}, "by": "battle"}},
        {"resolve_pending": {}},
    ]
    return steps


def _damage(arg: Any) -> dict[str, Any]:
    return {"lose": {"player": "opponent", "counter": "lp", "amount": abs(_number(arg))}}


ALIASES = {
    "destroy": move_word("graveyard", "destroyed"),
    "send_to_graveyard": move_word("graveyard", "sent_to_graveyard"),
    "tribute": move_word("graveyard", "tributed"),
    "normal_summon": move_word("field", "normal_summoned"),
    "tribute_summon": move_word("field", "tribute_summoned"),
    "special_summon": move_word("field", "special_summoned"),
    "banish": move_word("banished", "banished"),
    "discard": move_word("graveyard", "discarded", **{"from": "hand"}),
    "set": _set,
    "flip_summon": _flip_summon,
    "lp": _lp,
    "damage": _damage,
    "damage_step": _damage_step,
    "negate_activation": _negate("activation"),
    "negate_effect": _negate("effect"),
}
