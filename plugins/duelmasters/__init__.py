"""Duel Masters (デュエル・マスターズ) — the order triggered abilities resolve in.

Follows the current 総合ゲームルール (comprehensive rules, Ver.1.51) as quoted
by the official rule-change pages, and the community wiki's "Trigger
Ability" page where the rules are silent.  Where the wiki is older than the
rules, the rules win:

- once triggered, an ability waits in one **waiting pool** (待機状態),
  independent of its source (110.5a): it still resolves after its creature
  left (the wiki's "the ability doesn't trigger" for Funk and Swine Snout is
  the older reading: the ability waits, then does nothing to a creature
  that is gone);
- nothing resolves in the middle of a spell or another ability (rule 1);
- static abilities apply at all times, and the state check destroys every
  creature with power 0 or less (rule 2) — between resolutions, and between
  the actions of one resolution too: it takes precedence over resolving
  (Q&A 46075; dmwiki 状況起因処理);
- the active player's waiting abilities go first, in the order they choose,
  then the non-active player's (rules 3–4); an active-player ability that
  triggers while a non-active player's ability resolves goes ahead of the
  non-active player's remaining ones (rule 5, 511.1e);
- Shield Triggers, Strike Backs and G-Strikes go before every other waiting
  ability, the active player's first; a non-active player's Shield Trigger
  goes before the active player's ordinary abilities (rule 7, 101.4d);
  "before break" abilities come next (603.7, 509.4);
- usage declarations (506.3b/c, 511.1b–c, 603.2e): Shield Triggers, Strike
  Backs, G-Strikes, Ninja Strikes, Revolution Changes (and abilities tagged
  ``declare``) are declared used or not by their player right before that
  player's waiting abilities are processed — the turn player declares and
  processes theirs, then the non-turn player declares; a declared ability
  must be used when it resolves (Q45607);
- a card that left a zone looks back in time only at events about itself
  (603.5c, Son Kun Q39429, Eine's Mic Q43783); one that arrived in a zone
  at that moment sees from there only events about itself (Q&A 2020-10-23:
  a creature destroyed together with another Dragon was not in the
  graveyard when that Dragon was destroyed);
- an ability triggers once for each event that meets it, even for events of
  one moment ("whenever a creature is destroyed");
- drawing n cards is drawing 1 card n times;
- substitution (置換効果, ``kind: replacement``): the event does not happen,
  so nothing triggers from it; several substitutions on events of one
  moment are decided by their controllers, the turn player first, and then
  apply all at once (609.9/609.9a); a substitution never applies twice to
  one event, and "when A would happen, do B, then A" (``kind: interrupt``)
  is a substitution too (its second form).

Not expressible in the scenario format, and so not implemented: rule 6 (a
waiting ability whose target changed card type is reset — no action
changes a card's type); shields "waiting" in the shield zone while Shield
Triggers are declared (113.6a: here they are in the hand already, which
only matters to an ability that counts shields or hand cards during the
declarations).
"""

from tcgtrig import GameInfo

GAME_INFO = GameInfo(
    name="duelmasters",
    title="Duel Masters",
    version="1.0.0",
    summary="one waiting pool, active player first, Shield Triggers first, static abilities first, substitution",
    rules="Duel Masters 総合ゲームルール Ver.1.51 (2026-07-23), as quoted by the official rule-change pages",
    resolution="immediate",
    draw_one_at_a_time=True,
    # one effect's several events each trigger (603.2b, as the community wiki's トリガー能力 page quotes it)
    trigger_multiplicity="per_event",
    citations={"trigger_multiplicity": "総合ゲームルール 603.2b"},
    # state-based processing takes precedence over resolving: power 0 or less is destroyed at once,
    # between the actions of one resolution too (dmwiki 状況起因処理; Q&A 46075)
    rules_between_actions=True,
    events=("destroyed",),  # state-based: power 0 or less (rule 2)
    zones=("graveyard",),
    rule_counters=(),  # no rule here reads a counter
    rule_stats=(("power", "lte", 0),),  # a creature with power 0 or less is destroyed (rule 2)
    stats=("power",),  # what its rules read
    zone_roles={
        "deck": "deck",
        "hand": "hand",
        "battle": "field",
        "graveyard": "discard",
        "shields": "life",
        "mana": "resource",
    },
    event_roles={
        "destroyed": "destroyed",
        "discarded": "discarded",
        "returned": "returned_to_hand",
        "summoned": "put_into_play",
        "put_into_battle": "put_into_play",
        "put_into_mana": "resourced",
        "tapped": "tapped",
        "untapped": "untapped",
        "broken": "life_lost",
    },
    flag_roles={"tapped": "tapped"},
    stat_roles={"power": "strength"},
    type_roles={"creature": "unit", "spell": "spell"},
    battle_stat="power",  # the creature with the lower power is destroyed, both when equal
    max_players=4,  # Duel Party, the multiplayer format: turns and waiting abilities go in turn order
)
