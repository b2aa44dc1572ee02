"""Digimon's attack timings as words (CR 11, 12, 16-5, 15-15-1).

An attack proceeds through timings, each only once all processing of the
one before is done (11-1-3/4): the attack declaration, counter timing, block
timing, the confirmation of the attack (a battle or a security check: the
scenario says what happens) and the end of the attack.  The words keep the
attack's state in flags on the cards:

- ``attacking`` on the attacking Digimon (cleared when it leaves the
  battle area, so "an attacking Digimon in the battle area", 12-1-6, is
  "a card with the flag ``attacking``");
- ``attack_target`` on the Digimon attacked, if one is (11-2-7);
- ``attack_ended`` on the attacker once an effect ended the attack
  (15-15-1-1);
- ``blocking`` on the Digimon that blocked (12-1-7).

The attack itself is the game's mark ``attack_in_progress``: set by the
declaration, cleared once all processing of the end of the attack is done
(11-6-2), by the next declaration after an effect ended the attack, or as
the turn passes (``GameInfo.turn_marks``).  While it is set, a new attack declaration can't be made (11-2-4,
Q&A Q4594, Q4728): the word ``attack`` then does nothing — nothing is
suspended, nothing is marked, no [When Attacking] effect triggers — but for
the rule event ``attack_not_declared`` on the Digimon, whose trace step cites
11-2-4.  A mark, not a flag: the attack goes on after the attacker left the
battle area (11-1-5).

That an effect ended the attack is also the game's mark ``attack_ended``
(the ``mark`` action), which is what the later timings read: a flag goes
with its card, and the attacker may leave the battle area after its attack
was ended (an [End of Attack] effect returning it to the hand) — the
timings the ended attack skipped must still not come, and the end of the
attack must not come twice.

<Blocker> is a word the Digimon carries, printed (``types: [blocker]``) or
gained for a while (``flag: {set: blocker, until: …}``); either counts
(16-5-1/2).  A block is not a triggered effect: it happens at block timing,
by rule, if the attack was not ended and the attacker is still in the battle
area (12-1-6, Q&A Q1388, Q6491, Q3775).
"""

from __future__ import annotations

from typing import Any

__all__ = ["WORDS"]

ATTACKING = {"zone": "battle", "flag": "attacking"}
ENDED = "attack_ended"
ON = {"not": {"mark": ENDED}}
ATTACKER_IN_BATTLE = {"count": ATTACKING, "gte": 1}
#: the game's mark for "an attack is going on", from its declaration to the end of its processing
IN_ATTACK = "attack_in_progress"
DURING_AN_ATTACK = {"mark": IN_ATTACK}
#: the trace's reason for an attack declaration the rules refuse
NO_NEW_ATTACK = "CR 11-2-4: a new attack declaration can't be made during an attack"
#: the game's mark while the attack target is a Digimon (11-2-7), set at the declaration or by a block
ON_A_DIGIMON = "attack_on_a_digimon"
TARGET_REMOVED = "CR 11-2-6: the attack target Digimon was removed during the attack: the attack fails"
#: the flags an attack leaves on cards
ATTACK_FLAGS = ("attacking", "attack_target", "blocking", "attack_ended")


def _attack_argument(arg: Any) -> tuple[Any, Any]:
    if isinstance(arg, dict) and "card" in arg:
        extra = sorted(set(arg) - {"card", "target"})
        if extra:
            raise ValueError(f"unknown key {extra[0]!r} (legal: card, target)")
        return arg["card"], arg.get("target")
    return arg, None


def attack(arg: Any) -> list[dict[str, Any]]:
    """The attack declaration (11-2-8): the game is marked
    ``attack_in_progress``, and together: suspend the Digimon, mark it
    attacking (and its target), and the event ``attacking``.  During an
    attack the declaration can't be made (11-2-4): only the rule event
    ``attack_not_declared``, citing it."""
    card, target = _attack_argument(arg)
    return _declare(card, [{"mark": {"set": IN_ATTACK}}, *_declaration(card, target)])


def _declare(card: Any, declaration: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An attack declaration, by ``attack`` or ``full_attack``: an attack an
    effect ended (``end_attack``) is over by now — its end of attack timing
    came at once (15-15-1-1) and a declaration waits for all processing
    (11-1-3) — so what it left is cleared first; an attack still going on
    refuses this one (11-2-4).  An ``attack`` inside an effect that resolves
    during the ended attack's own end processing is taken as after it: the
    words cannot see that effects are still pending (no card is known to
    need it)."""
    return [
        {"if": {"mark": ENDED}, "then": _attack_over()},
        {"if": DURING_AN_ATTACK, "then": _refused(card), "else": declaration},
    ]


def _declaration(card: Any, target: Any) -> list[dict[str, Any]]:
    """Suspend the Digimon, mark it attacking (and its target: the attack
    is then on a Digimon, the game's mark :data:`ON_A_DIGIMON`), and the
    event ``attacking``, together."""
    actions: list[dict[str, Any]] = [
        {"flag": {"card": card, "set": "suspended", "as": "suspended"}},
        {"flag": {"card": card, "set": "attacking", "as": "attack_declared", "by": "rule"}},
    ]
    if target is not None:
        actions.append({"flag": {"card": target, "set": "attack_target", "as": "attack_targeted", "by": "rule"}})
    actions.append({"emit": {"event": "attacking", "card": card}})
    on_a_digimon = [{"mark": {"set": ON_A_DIGIMON}}] if target is not None else []
    return [*on_a_digimon, {"together": actions}]


def _refused(card: Any) -> list[dict[str, Any]]:
    """What an attack declaration during an attack does (11-2-4): it is not
    made.  The rule event says so in the trace; then setting the mark that
    is set already changes nothing, so ``did: previous`` reads 0 (no attack
    was declared), as it reads the declaration's events when there is one."""
    return [
        {"emit": {"event": "attack_not_declared", "card": card, "by": "rule", "reason": NO_NEW_ATTACK}},
        {"mark": {"set": IN_ATTACK}},
    ]


def counter_timing(arg: Any) -> list[dict[str, Any]]:
    """Counter timing (11-3): the event ``counter_timing`` for the non-turn
    player — their [Counter] effects — unless an effect ended the attack.
    It comes even if the attacker left the battle area (11-1-5)."""
    _no_argument(arg, "counter_timing")
    return [
        {"if": ON, "then": [{"emit": {"event": "counter_timing", "player": "opponent", "by": "rule"}}]},
        {"resolve_pending": {}},
    ]


def block_timing(arg: Any) -> list[dict[str, Any]]:
    """Block timing (11-4, 12): if the attack goes on and the attacker is in
    the battle area, the non-turn player may block with one unsuspended
    Digimon that has <Blocker> and is not the attack target (12-1-5): it
    is suspended and becomes the attack target (event ``blocked``).  Nobody
    blocking, the attack target stays what it was (12-1-1: a block is what
    switches it)."""
    _no_argument(arg, "block_timing")
    blocker = {
        "zone": "battle",
        "owner": "opponent",
        "has": "blocker",
        "no_flag": "suspended",
        "exclude": {"zone": "battle", "flag": "attack_target"},
        "pick": 1,
        "upto": True,
        "chooser": "opponent",
    }
    blocking = {"zone": "battle", "flag": "blocking"}
    switch = [
        {
            "together": [
                {"flag": {"card": blocking, "set": "suspended", "as": "suspended", "by": "rule"}},
                {"flag": {"card": {"zone": "battle", "flag": "attack_target"}, "clear": "attack_target", "by": "rule"}},
            ]
        },
        {"flag": {"card": blocking, "set": "attack_target", "by": "rule"}},
        {"mark": {"set": ON_A_DIGIMON}},
    ]
    # only a block switches the attack target (12-1-1): with no blocker, the target stays
    block = [
        {"flag": {"card": blocker, "set": "blocking", "as": "blocked", "by": "rule"}},
        {"if": {"count": blocking, "gte": 1}, "then": switch},
    ]
    return [{"if": {"all": [ON, ATTACKER_IN_BATTLE]}, "then": block}, {"resolve_pending": {}}]


def end_attack(arg: Any) -> dict[str, Any]:
    """An effect ends the attack (15-15-1-1): the end of attack timing comes
    right after that effect (event ``end_of_attack``, the attacking
    player's, whoever ended it); later timings of the attack do not."""
    _no_argument(arg, "end_attack")
    return {
        "if": {"all": [ON, ATTACKER_IN_BATTLE]},
        "then": [
            {"mark": {"set": ENDED}},
            {
                "together": [
                    {"flag": {"card": ATTACKING, "set": ENDED, "as": "attack_ended"}},
                    {"emit": {"event": "end_of_attack", "player": "turn_player", "by": "rule"}},
                ]
            },
        ],
    }


def end_of_attack(arg: Any) -> list[dict[str, Any]]:
    """The end of the attack (11-6): the event ``end_of_attack`` (unless an
    effect already ended it), what it triggers resolves — the attack goes on
    until then (11-6-2, Q&A Q4728) — and the attack's flags and marks are
    cleared: a new attack can be declared."""
    _no_argument(arg, "end_of_attack")
    return [
        {"if": ON, "then": [{"emit": {"event": "end_of_attack", "player": "turn_player", "by": "rule"}}]},
        {"resolve_pending": {}},
        *_attack_over(),
    ]


def _attack_over() -> list[dict[str, Any]]:
    """Clear what an attack left: its flags on cards, and its marks."""
    clear = [{"flag": {"card": {"flag": name}, "clear": name, "by": "rule"}} for name in ATTACK_FLAGS]
    marks = [{"mark": {"clear": name}} for name in (ENDED, ON_A_DIGIMON, IN_ATTACK)]
    return [{"together": clear}, *marks]


def full_attack(arg: Any) -> list[dict[str, Any]]:
    """A whole attack, timing by timing (11-1-3): the declaration and what
    it triggers, counter timing, block timing, then — if the attack still
    goes on and the attacker is in the battle area — the actions listed in
    ``success`` (the battle or the security check), then the end of the
    attack.  Only in the start actions (each timing waits for all
    processing).  Declared as ``attack`` is (:func:`_declare`): an attack
    still going on refuses it, and none of its timings come."""
    if isinstance(arg, dict) and "card" in arg:
        success = arg.get("success", [])
        if not isinstance(success, list):
            raise ValueError("'success' is a list of actions")
        declared = {k: v for k, v in arg.items() if k != "success"}
    else:
        success, declared = [], arg
    card, target = _attack_argument(declared)
    timings: list[dict[str, Any]] = [{"mark": {"set": IN_ATTACK}}, *_declaration(card, target), {"resolve_pending": {}}]
    timings += counter_timing({}) + block_timing({})
    if success:
        timings.append({"if": {"all": [ON, ATTACKER_IN_BATTLE]}, "then": success})
        timings.append({"resolve_pending": {}})
    timings += end_of_attack({})
    return _declare(card, timings)


#: where a checked security card is while its check goes on (13-1-6: "not in any particular area")
REVEALED = "revealed"


def security_check(arg: Any) -> list[dict[str, Any]]:
    """A security check by the attacking Digimon (13-1): one card at a
    time (13-1-3), ``checks`` times (default 1), each only while the
    Digimon is still in the battle area (13-1-5): the top security card of
    its opponent is revealed (moved to ``revealed`` as ``checked``, by
    rule: [Security] effects watch ``{event: checked, card: self}``), what
    that triggers resolves (13-1-8-2), a Security Digimon battles the
    checking Digimon and what the battle triggers resolves (13-1-8-3; the
    Security Digimon is not deleted if it loses, 14-2-3), and the revealed
    card goes to the trash unless it went somewhere (13-1-8-4).  Only in
    the start actions."""
    if isinstance(arg, dict) and "card" in arg:
        extra = sorted(set(arg) - {"card", "checks"})
        if extra:
            raise ValueError(f"unknown key {extra[0]!r} (legal: card, checks)")
        card, checks = arg["card"], arg.get("checks", 1)
    else:
        card, checks = arg, 1
    if isinstance(checks, bool) or not isinstance(checks, int) or not 1 <= checks <= 10:
        raise ValueError("'checks' is a number of security checks from 1 to 10")
    present = {"card": card, "in": "battle"}
    security_digimon = {"zone": REVEALED, "types": ["digimon"]}
    one = [
        {
            "move": {
                "card": {"zone": "security", "owner": "opponent", "top": 1},
                "to": REVEALED,
                "as": "checked",
                "by": "rule",
            }
        },
        {"resolve_pending": {}},
        {
            "if": {"all": [present, {"count": security_digimon, "gte": 1}]},
            "then": [{"battle": {"card": card, "against": security_digimon}}, {"resolve_pending": {}}],
        },
        {"move": {"card": {"zone": REVEALED}, "to": "trash", "by": "rule"}},
    ]
    return [{"if": present, "then": one} for _ in range(checks)]


def confirm_attack(arg: Any) -> list[dict[str, Any]]:
    """Confirming the attack (11-5), for ``full_attack``'s ``success``: an
    attack on a Digimon (the one with ``attack_target``) is a battle with
    it (11-5-1-3) and what it triggers resolves; an attack on a Digimon
    that was removed during the attack fails (11-2-6: the rule event
    ``attack_failed``), it does not turn into a security check; an attack
    on the player is
    a security check (11-5-1-1); on a player with no security card left,
    the attacking player wins the game (11-5-1-2: ``win``).  That a
    Digimon may be unable to check security (and then does not win) is not
    modelled."""
    target = {"zone": "battle", "flag": "attack_target"}
    card = arg["card"] if isinstance(arg, dict) and "card" in arg else arg
    wins = {"win": {"player": "self", "reason": "CR 11-5-1-2: the attack succeeded on a player with no security cards"}}
    return [
        {
            "if": {"count": target, "gte": 1},
            "then": [{"battle": {"card": card, "against": target}}, {"resolve_pending": {}}],
            "else": [
                {
                    "if": {"mark": ON_A_DIGIMON},
                    "then": [
                        {"emit": {"event": "attack_failed", "card": card, "by": "rule", "reason": TARGET_REMOVED}}
                    ],
                    "else": [
                        {
                            "if": {"count": {"zone": "security", "owner": "opponent"}, "gte": 1},
                            "then": security_check(arg),
                            "else": [wins],
                        }
                    ],
                }
            ],
        }
    ]


def _no_argument(arg: Any, word: str) -> None:
    if arg not in (None, {}):
        raise ValueError(f"{word} takes no arguments: write {{{word}: {{}}}}")


WORDS = {
    "attack": attack,
    "counter_timing": counter_timing,
    "block_timing": block_timing,
    "end_attack": end_attack,
    "end_of_attack": end_of_attack,
    "full_attack": full_attack,
    "security_check": security_check,
    "confirm_attack": confirm_attack,
}
