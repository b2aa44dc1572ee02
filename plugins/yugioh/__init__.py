"""Yu-Gi-Oh! — chains, SEGOC, spell speeds, missing the timing.

Follows the current TCG rulebook (v10) by default, with two variants:

- ``tcg`` (default): simultaneous triggers form one chain by SEGOC — the
  turn player's mandatory effects, the opponent's mandatory effects, the
  turn player's optional effects, the opponent's optional effects, each
  player ordering their own within a group; hand triggers join SEGOC;
- ``ocg``: optional triggers activated from a hidden zone (the hand, the
  Deck) are not part of SEGOC: they are offered in the response window
  after the SEGOC chain is built, and may go on top of a Spell Speed 1 or 2
  link, not on top of a Spell Speed 3 one (Konami OCG FAQ);
- ``goat``: the older TCG rule still used by the GOAT and Edison formats —
  within a SEGOC group (two mandatory, or two optional, effects of one
  player) a trigger that happened earlier goes on the chain first (Sangan
  Tributed for Caius: Sangan is Chain Link 1); SEGOC's groups still come
  first.

In every variant:

- activating an effect makes a chain link; nothing resolves while a chain
  is being built; the chain resolves last in, first out; what triggers
  while it resolves (or while a cost is paid) waits for the whole chain,
  then forms the next chain;
- after each link the opponent of its player may respond, then the other
  player; two passes in a row resolve the chain.  Trigger and ignition
  effects are Spell Speed 1 and never respond; Spell Speed 2 responds to
  1 or 2; Spell Speed 3 to anything, and only Spell Speed 3 to Spell Speed
  3;
- an optional "when … you can" trigger (``wording: when``) misses the
  timing when its event was not the last thing to happen — met during a
  cost, in the first half of a "then" sequence, as Tribute or material
  before the summon, or at Chain Link 2 or higher with earlier links
  resolving after it (a resolving link counts even if it does nothing);
  mandatory and "if" triggers never miss;
- a Spell or Trap Card activated from the hand is placed on the field as
  it is activated, and sits there while it is a Chain Link; once resolved
  it goes to the GY, unless it is a Continuous, Field or Equip card;
- once per event: a draw of two cards is one draw;
- "Once per turn" (soft) is per card copy and usable again after the card
  leaves and comes back; "you can only use this effect of X once per turn"
  (tag ``hard_once_per_turn``) is per player and card name; tag
  ``once_per_chain`` allows one activation per chain;
- one replacement per destruction: a card destroyed by another card's
  "destroy 1 other card instead" cannot redirect that destruction back;
- what a card does "after this Chain resolves" (Last Turn's Special
  Summon, ``delay``) waits for the whole Chain: the core's default
  ``tcgtrig_delayed_due``; an effect that does not start a Chain (Call of
  the Haunted's "when this card leaves the field, destroy that monster")
  is a ``consequence`` ability, applied at once.
"""

from tcgtrig import GameInfo

GAME_INFO = GameInfo(
    name="yugioh",
    title="Yu-Gi-Oh! Trading Card Game",
    version="1.0.0",
    summary="chains built by SEGOC, resolved last in first out; spell speeds; missing the timing",
    rules="Yu-Gi-Oh! TCG Rulebook v10 and Konami's rulings as quoted by Yugipedia and judge articles",
    resolution="chain",
    terms={"depth": "depth", "chain": "Chain", "chain_link": "Chain Link", "chain_link_short": "CL"},
    variants={
        "tcg": "the current TCG rulebook: hand triggers join SEGOC",
        "ocg": "OCG: optional hand and Deck triggers come after SEGOC, in the response window",
        "goat": "GOAT/Edison: within a SEGOC group, the earliest trigger goes on the chain first",
    },
    rule_counters=(),  # no rule here reads a counter
    rule_stats=(),  # stats are compared only in battles (a word: read there)
    # a Trigger Effect activates once each time its condition is met: one act, once (Yugipedia, Trigger Effect)
    trigger_multiplicity="per_moment",
    citations={
        "trigger_multiplicity": "Trigger Effects activate once each time their condition is met (one act)",
        "chain": "TCG Rulebook v10",  # a Chain resolves from its last Chain Link to its first
        # "After Ceasefire resolves, the turn player Special Summons a monster for Last Turn"
        "delay": "GOAT FAQ, Last Turn",
    },
    stats=("atk", "def", "level"),  # what its rules read
    zone_roles={"deck": "deck", "hand": "hand", "field": "field", "graveyard": "discard", "banished": "exile"},
    event_roles={
        "destroyed": "destroyed",
        "discarded": "discarded",
        "special_summoned": "put_into_play",
        "banished": "exiled",
    },
    stat_roles={"atk": "strength", "def": "defense", "level": "level"},
    counter_roles={"lp": "life"},
    type_roles={"monster": "unit", "spell": "spell"},
    battle_stat="atk",  # damage calculation: tcgtrig_battle_result (positions, battle damage)
    # a Set Spell or Trap Card is turned face-up as it is activated (Rulebook v10, "Activating a Set card")
    revealed_on_activation="face_down",
)
