"""Digimon Card Game — the order triggered effects resolve in.

Follows the Comprehensive Rules Ver.4.2 (2026-08-18) where the community
wiki pages differ from them:

- effects triggered together share a *priority layer*; effects triggered
  while one resolves form a new layer above every pending one, the
  opponent's included (CR 15-4-5-2/3);
- inside a layer the turn player activates all of theirs first, one at a
  time in the order they choose, then the opponent (15-4-3-5);
- ``[Security]`` effects (tag ``security``) go before other simultaneous
  triggers (15-16-10-2);
- an activation condition is checked when the effect would activate: not
  met, the effect fails and spends no [Once Per Turn]; an activated effect
  spends it even when it does nothing (wiki examples 6, 9, 10);
- a pending effect is lost when its card moves — leaves its area or becomes
  a new card (15-4-4-3), or is covered by digivolving and so loses the
  effect (15-4-4-4) — or when its trigger condition stops holding
  (15-4-4-5); an inherited [On Deletion] is pending for the deleted top
  card (15-8-3-5, Q&A Q4285/Q4286);
- Digimon deleted together trigger on each other's deletion, but those
  effects are lost: their cards are new cards by then (Q&A Q1222, Q2046);
- a [Once Per Turn] / [Twice Per Turn] effect used up this turn does not
  trigger at all (15-14-1-2);
- rules processing runs between activations: Digimon with 0 DP are
  deleted, level-2 cards without DP and stray option cards in the battle
  area are trashed, all at once; what it triggers is simultaneous with what
  triggered at that timing (15-4-3-3 — the wiki's extra "+1 priority" for
  these is not the official rule);
- "when … would" effects (kind ``interrupt``) interrupt the action, are
  ordered like triggers, and each activates at most once per series of
  interrupts (15-8-5-4); what they trigger waits for the action;
- no new attack declaration can be made during an attack, which lasts
  until all processing of its end is resolved (11-2-4, 11-6-2; Q&A Q4594,
  Q4728): the declaration does not happen, and the trace says why;
- digivolution cards go to the trash when their Digimon leaves;
- an endless loop no player can stop ends the game in a draw (18-3).

Priority numbers in traces (``priority``) are the wiki's dice: how deep an
effect was derived, the start being 0.
"""

from tcgtrig import GameInfo

GAME_INFO = GameInfo(
    name="digimon",
    title="Digimon Card Game",
    version="1.0.0",
    summary="priority layers, turn player first, rules processing, 'when … would' interrupts",
    rules="Digimon Card Game Comprehensive Rules Ver.4.2 (2026-08-18)",
    resolution="immediate",
    terms={"depth": "priority"},
    spent_abilities_trigger=False,
    citations={
        "per_turn": "CR 15-14-1",
        "condition": "CR 15-6",
        "trigger_condition": "CR 15-4-4-5",
        "trigger_multiplicity": "CR 15-5-2; Q&A Q2603",
    },
    trigger_multiplicity="per_moment",  # one trigger condition met several times at once triggers once
    recheck_trigger_condition=True,
    events=("deleted", "trashed"),  # rules processing: DP 0 or less, a Tamer/Option where it cannot stay
    zones=("trash",),
    rule_counters=("memory",),  # the memory gauge ends the turn (CR 6-6-4)
    rule_stats=(("dp", "lte", 0),),  # rules processing deletes a Digimon with 0 DP or less (CR 17-1)
    turn_marks=("attack_in_progress", "attack_ended"),  # an attack is part of its turn (CR 11-1)
    stats=("dp", "level"),  # what its rules read
    zone_roles={"deck": "deck", "hand": "hand", "battle": "field", "trash": "discard", "security": "life"},
    tokens_arrive=True,  # CR 4-21-5: removed from the game, "considered to be placed in that area"
    tokens_never_added_to=("hand",),  # CR 15-1-10, Q&A Q1266: but never "added to the hand"
    battle_stat="dp",  # CR 14-1
    event_roles={
        "deleted": "destroyed",
        "returned": "returned_to_hand",
        "played": "put_into_play",
        "trashed": "discarded",
        "suspended": "tapped",
        "unsuspended": "untapped",
    },
    flag_roles={"suspended": "tapped"},
    stat_roles={"dp": "strength", "level": "level"},
    type_roles={"digimon": "unit", "option": "spell"},
)
