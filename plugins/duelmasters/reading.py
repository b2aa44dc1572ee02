"""Duel Masters printed text, read into abilities (issue 38).

The grammar is ``duelmasters.lark`` beside this module: English (the TCG's
DM-01…DM-12 wording) and Japanese (「このクリーチャーがバトルゾーンに出たとき、」
and the current 「出た時、」).  A creature's text is read a line at a time;
a spell's lines are one part, its effect (with its Shield Trigger, if it has
one).  Each ability is written as the bundled scenario files write it:

- "When you put this creature into the battle zone, …" /
  「このクリーチャーが出た時、…」: ``when: {event: moved, to: battle, card:
  self}``, ``active_in: battle``;
- Shield Trigger / 「S・トリガー」: an optional triggered ability of the card in
  the hand, tagged ``shield_trigger``, set off by its own ``broken`` event; a
  creature's summons it, a spell's is the spell (``cast: self``, its effect,
  then the spell to the graveyard, or the mana zone with Charger);
- "When this creature would be destroyed, … instead" (置換効果):
  ``kind: replacement`` whose actions start with ``prevent: {}``;
- a spell without Shield Trigger: an ``activated`` ability;
- Power attacker +N: the bundled files' continuous ability (while attacking);
  Slayer: "whenever this creature loses a battle, destroy the creature it
  battled";
- Blocker (a card type in scenario files: ``types: [blocker]``), Double and
  Triple breaker and Speed attacker (rules of the attack, which a file's
  start actions carry out), the evolution cost, and the restrictions on
  attacking and blocking (attacks and blocks are start actions: the
  scenario language checks no attack's legality) are :class:`Skipped`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import LarkError
from tcgtrig.printed import ReadAbility, Reading, Skipped, TextReader, Unreadable, grammar, number


def _parse(words: str, start: str) -> Any:
    """Parse with the grammar from ``start`` (one LALR parser per start: the
    core's cached :func:`grammar` takes hashable options only)."""
    return grammar(__package__, "duelmasters.lark", parser="lalr", start=start).parse(words)


#: header rule -> (ability name, trigger pattern, extra keys)
TRIGGERS: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "t_cip": ("cip", {"event": "moved", "to": "battle", "card": "self"}, {"active_in": "battle"}),
    "t_cip_own_other": ("creature_put", {"event": "moved", "to": "battle", "card": "own_other"}, {}),
    "t_cip_other": ("creature_put", {"event": "moved", "to": "battle", "card": "other"}, {}),
    "t_attacks": ("on_attack", {"event": "attacking", "card": "self"}, {}),
    "t_own_attacks": ("creature_attacks", {"event": "attacking", "card": "own"}, {}),
    "t_any_attacks": ("creature_attacks", {"event": "attacking"}, {}),
    "t_opp_attacks": ("opponent_attacks", {"event": "attacking", "card": "opponent"}, {}),
    "t_blocks": ("on_block", {"event": "blocked", "card": "self"}, {}),
    # a block while this creature's attack goes on (attacks are one at a time)
    "t_becomes_blocked": (
        "blocked",
        {"event": "blocked", "player": "opponent"},
        {
            "trigger_condition": {
                "all": [
                    {"happened": {"event": "attacking", "card": "self"}},
                    {"not": {"happened": {"event": "end_of_attack"}}},
                ]
            }
        },
    ),
    "t_destroyed": ("on_destroyed", {"event": "destroyed", "card": "self"}, {}),
    "t_own_destroyed": ("creature_destroyed", {"event": "destroyed", "card": "own"}, {}),
    "t_own_other_destroyed": ("creature_destroyed", {"event": "destroyed", "card": "own_other"}, {}),
    "t_any_destroyed": ("creature_destroyed", {"event": "destroyed"}, {}),
    "t_other_destroyed": ("creature_destroyed", {"event": "destroyed", "card": "other"}, {}),
    "t_opp_destroyed": ("creature_destroyed", {"event": "destroyed", "card": "opponent"}, {}),
    "t_to_graveyard": ("to_graveyard", {"event": "moved", "from": "battle", "to": "graveyard", "card": "self"}, {}),
    "t_leaves": ("leaves", {"event": "moved", "from": "battle", "card": "self"}, {}),
    "t_wins": ("wins_battle", {"event": "won_battle", "card": "self"}, {}),
    "t_loses": ("loses_battle", {"event": "lost_battle", "card": "self"}, {}),
    "t_end_mine": ("end_of_turn", {"event": "end_of_turn", "player": "self"}, {}),
    "t_end_opp": ("end_of_turn", {"event": "end_of_turn", "player": "opponent"}, {}),
    "t_start_mine": ("start_of_turn", {"event": "start_of_turn", "player": "self"}, {}),
    "t_opp_casts": ("opponent_casts", {"event": "cast", "card": "opponent"}, {}),
    "t_you_cast": ("you_cast", {"event": "cast", "card": "own"}, {}),
    "t_own_broken": ("shield_broken", {"event": "broken", "player": "self"}, {}),
    "t_opp_broken": ("shield_broken", {"event": "broken", "player": "opponent"}, {}),
    "w_destroyed": ("substitute", {"event": "destroyed", "card": "self"}, {"kind": "replacement"}),
    "w_shield_broken": ("shield_saver", {"event": "broken", "player": "self"}, {"kind": "replacement"}),
    "t_start_opp": ("start_of_turn", {"event": "start_of_turn", "player": "opponent"}, {}),
    "t_own_evolution_summoned": (
        "evolution_summoned",
        {"event": "summoned", "card": {"owner": "self", "types": ["evolution"]}},
        {},
    ),
    "w_leaves": ("substitute", {"event": "moved", "from": "battle", "card": "self"}, {"kind": "replacement"}),
    "t_end_any": ("end_of_turn", {"event": "end_of_turn"}, {}),
    "w_own_destroyed": ("substitute", {"event": "destroyed", "card": "own"}, {"kind": "replacement"}),
}

REMINDER = "reminder text"

#: keywords a card "has" (「ブロッカー」を持つ), as scenario files name them (``has: blocker``)
KEYWORDS_JA = {"ブロッカー": "blocker", "スレイヤー": "slayer", "スピードアタッカー": "speed_attacker"}

SKIPPED = {
    "blocker": "Blocker: a card type in scenario files (types: [blocker]); blocking is the start action block",
    "breaker": "a rule of the attack: how many shields it breaks (the start action break_shield)",
    "speed_attacker": "a rule of attacking (no summoning sickness): attacks are start actions",
    "evolution": "the evolution cost: what the creature is put on",
    "charger": "Charger: the spell goes to the mana zone after it (read into the spell's ability)",
    "reminder_line": REMINDER,
    "sympathy_line": "Sympathy: what the creature costs less to summon (a cost: the scenario language pays none)",
    "multicolor_line": "the rule of a multicolored card: it is put into the mana zone tapped",
    "cross_gear_line": "the card type Cross Gear: how it is put into play and crossed",
    "condition_keyword_line": "the condition that turns on the ability printed below it (read there)",
    "breaker_line": "a rule of the attack: how many shields it breaks (the start action break_shield)",
    "castle_line": "the card type Castle (城): how it fortifies a shield",
    "tap_rule_line": "how a tap ability is used (instead of attacking): the $tap line is the ability",
    "restriction_line": (
        "a restriction on attacking or blocking: attacks and blocks are the position's start actions, "
        "whose legality the scenario language does not check"
    ),
}

SHIELD_TRIGGER = {
    "tags": ["shield_trigger"],
    "active_in": "hand",
    "optional": True,
    "when": {"event": "broken", "card": "self"},
}

_SENTENCE = re.compile(r"(?<=\.)\s+|(?<=\.\")\s+|(?<=。)")
_REMINDER = re.compile(r"\([^()]*\)")
_TAP_RULE_JA = re.compile(r"このクリーチャーで攻撃する(かわりに|代わりに)、タップして次の能力を使ってもよい。")
_TRIGGER_THEN_TEXT = re.compile(r"(S(?:\(シールド\))?・トリガー\([^()]*\)) *(?=[^\s(])")
_KEYWORD_ABOVE_JA = re.compile(
    r"(ウェーブストライカー|アクセル|ターボラッシュ|メタモーフ|サイレントスキル)\s*\([^()]*\)"
)
#: "you may" leading an effect (after its "if …," condition), 「…てもよい。」 ending its first sentence
_MAY_LEADS = re.compile(r"^(if .*?, )?(you|he) may\b|(てもよい|てよい)。$", re.IGNORECASE)
#: "Shield Trigger. Destroy …": the keyword and the spell's effect on one line
_TRIGGER_THEN_TEXT_EN = re.compile(r"^(Shield [Tt]rigger(?: \([^()]*\))?)\.? +(?=[A-Z])(?!Cross\b)", re.MULTILINE)
_BULLET = re.compile(r"^[■●・]\s*")


def _check_zones(value: Any) -> None:
    """A query names its zone ("a card" alone is from nowhere)."""
    if isinstance(value, dict):
        if ("pick" in value or "owner" in value) and "zone" not in value and "card" not in value:
            raise Unreadable("a card from no zone")
        for item in value.values():
            _check_zones(item)
    elif isinstance(value, list):
        for item in value:
            _check_zones(item)


def _clean(value: Any) -> Any:
    """The data without the reading's own note (``_noun``)."""
    if isinstance(value, dict):
        return {key: _clean(item) for key, item in value.items() if key != "_noun"}
    if isinstance(value, list):
        return [_clean(item) for item in value]
    return value


def _civ(token: Any) -> str:
    words = {"光": "light", "水": "water", "闇": "darkness", "火": "fire", "自然": "nature"}
    return words.get(str(token), str(token).lower())


def _signed(token: Any) -> int:
    return int(str(token).replace(" ", ""))


@v_args(inline=True)
class _Build(Transformer):  # type: ignore[type-arg]
    """Trees to scenario data: a selection is a selector (``self``,
    ``event.card``, a query); an act is a list of actions; a sentence is
    ``(may, actions)``."""

    # -- selections
    def sel_self(self, *_: Any) -> str:
        return "self"

    def sel_event(self, *_: Any) -> str:
        return "event.card"

    def sel_top_one(self, *_: Any) -> dict[str, Any]:
        return {"zone": "deck", "owner": "self", "top": 1}

    def sel_top_nth(self, n: Token, *_: Any) -> dict[str, Any]:
        if number(n) != 1:
            raise Unreadable("the Nth card of the deck")
        return {"zone": "deck", "owner": "self", "top": 1}

    def sel_top_n(self, n: Token, *_: Any) -> dict[str, Any]:
        return {"zone": "deck", "owner": "self", "top": number(n)}

    def sel_query(self, *parts: Any) -> dict[str, Any]:
        query: dict[str, Any] = {}
        count: tuple[str, int] = ("one", 1)
        noun = "creature"
        for part in parts:
            if isinstance(part, tuple) and part[0] in ("one", "all", "upto", "n", "default"):
                count = part if part[0] != "default" else count
            elif isinstance(part, tuple) and part[0] == "noun":
                noun = part[1]
            elif isinstance(part, tuple) and part[0] == "jall":
                count = ("all", 0)
            elif isinstance(part, dict):
                for key, value in part.items():
                    if key == "all_types":
                        query.setdefault("all_types", []).extend(value)
                    else:
                        query[key] = value
        if noun == "shield":
            query.setdefault("zone", "shields")
        elif noun == "creature" and "zone" not in query:
            query["zone"] = "battle"
        if noun in ("creature", "spell"):
            query["_noun"] = noun
        if noun in ("creature", "spell") and (query.get("zone") != "battle" or "all_types" in query):
            query.setdefault("all_types", []).append(noun)
        if "all_types" in query and len(query["all_types"]) == 1 and "types" not in query:
            query["types"] = query.pop("all_types")
        kind, n = count
        if kind in ("one", "n"):
            query["pick"] = n
        elif kind == "upto":
            query["pick"] = n
            query["upto"] = True
        return query

    def c_one(self, *_: Any) -> tuple[str, int]:
        return ("one", 1)

    def c_all(self, *_: Any) -> tuple[str, int]:
        return ("all", 0)

    def c_upto(self, n: Token, *_: Any) -> tuple[str, int]:
        return ("upto", number(n))

    def c_n(self, n: Token, *_: Any) -> tuple[str, int]:
        return ("n", number(n))

    def c_default(self) -> tuple[str, int]:
        return ("default", 1)

    def jall(self, *_: Any) -> tuple[str, int]:
        return ("jall", 0)

    def o_opponent(self, *_: Any) -> dict[str, Any]:
        return {"owner": "opponent"}

    o_opponent_his = o_opponent

    def o_self(self, *_: Any) -> dict[str, Any]:
        return {"owner": "self"}

    def o_self_other(self, *_: Any) -> dict[str, Any]:
        return {"owner": "self", "exclude": "self"}

    def o_any(self) -> dict[str, Any]:
        return {}

    def a_untapped(self, *_: Any) -> dict[str, Any]:
        return {"no_flag": "tapped"}

    def a_tapped(self, *_: Any) -> dict[str, Any]:
        return {"flag": "tapped"}

    def a_civ(self, civ: Token, *_: Any) -> dict[str, Any]:
        words = {"光": "light", "水": "water", "闇": "darkness", "火": "fire", "自然": "nature"}
        return {"all_types": [words.get(str(civ), str(civ).lower())]}

    def a_civ_or(self, first: Token, second: Token, *_: Any) -> dict[str, Any]:
        words = {"光": "light", "水": "water", "闇": "darkness", "火": "fire", "自然": "nature"}
        return {"types": [words.get(str(civ), str(civ).lower()) for civ in (first, second)]}

    def a_other(self, *_: Any) -> dict[str, Any]:
        return {"exclude": "self"}

    def a_evolution(self, *_: Any) -> dict[str, Any]:
        return {"all_types": ["evolution"]}

    def a_non_evolution(self, *_: Any) -> dict[str, Any]:
        raise Unreadable("a non-evolution creature")

    def n_creature(self, *_: Any) -> tuple[str, str]:
        return ("noun", "creature")

    def n_card(self, *_: Any) -> tuple[str, str]:
        return ("noun", "card")

    def n_spell(self, *_: Any) -> tuple[str, str]:
        return ("noun", "spell")

    def n_shield(self, *_: Any) -> tuple[str, str]:
        return ("noun", "shield")

    def f_battle(self, *_: Any) -> dict[str, Any]:
        return {"zone": "battle"}

    def f_mana(self, *_: Any) -> dict[str, Any]:
        return {"zone": "mana"}

    def f_mana_self(self, *_: Any) -> dict[str, Any]:
        return {"zone": "mana", "owner": "self"}

    def f_mana_opp(self, *_: Any) -> dict[str, Any]:
        return {"zone": "mana", "owner": "opponent"}

    def f_graveyard(self, *_: Any) -> dict[str, Any]:
        return {"zone": "graveyard"}

    def f_graveyard_self(self, *_: Any) -> dict[str, Any]:
        return {"zone": "graveyard", "owner": "self"}

    def f_hand(self, *_: Any) -> dict[str, Any]:
        return {"zone": "hand"}

    def f_hand_self(self, *_: Any) -> dict[str, Any]:
        return {"zone": "hand", "owner": "self"}

    def f_deck_self(self, *_: Any) -> dict[str, Any]:
        return {"zone": "deck", "owner": "self"}

    def f_none(self) -> dict[str, Any]:
        return {}

    def f_power_lte(self, n: Token, *_: Any) -> dict[str, Any]:
        return {"stat": {"power": {"lte": number(n)}}}

    def f_power_gte(self, n: Token, *_: Any) -> dict[str, Any]:
        return {"stat": {"power": {"gte": number(n)}}}

    def f_has(self, name: Token, *_: Any) -> dict[str, Any]:
        word = str(name).strip('"「」 .').lower().replace(" ", "_")
        word = KEYWORDS_JA.get(word, word)
        if not word.isascii():
            raise Unreadable(f"the keyword {word}")
        return {"has": word}

    def f_race(self, race: Token, *_: Any) -> dict[str, Any]:
        """ "that has Dragon in its race": the race word, as a type."""
        return {"all_types": [_race(str(race))]}

    def f_random(self, *_: Any) -> dict[str, Any]:
        raise Unreadable("a card at random")

    # -- acts: lists of actions
    def draw_one(self, *_: Any) -> list[Any]:
        return [{"draw": 1}]

    def draw_n(self, n: Token, *_: Any) -> list[Any]:
        return [{"draw": number(n)}]

    def draw_upto(self, n: Token, *_: Any) -> list[Any]:
        """ "Draw up to N cards": a card at a time (Duel Masters draws one card
        N times), each one the player may stop before."""
        actions: list[Any] = [{"may": [{"draw": 1}]}]
        for _draw in range(number(n) - 1):
            actions = [{"may": [{"draw": 1}, *actions]}]
        return actions

    def draw_sel(self, sel: Any, *_: Any) -> list[Any]:
        """「カードをN枚(まで)引く」: the cards drawn, read as a selection
        (a card, no zone)."""
        if not isinstance(sel, dict) or set(sel) - {"pick", "upto", "_noun"} or "pick" not in sel:
            raise Unreadable("draw what")
        count = Token("INT", str(sel["pick"]))
        return self.draw_upto(count) if sel.get("upto") else self.draw_n(count)

    def each_draws(self, *_: Any) -> list[Any]:
        return [{"together": [{"draw": {"player": "self", "count": 1}}, {"draw": {"player": "opponent", "count": 1}}]}]

    def _word(word: str) -> Any:  # type: ignore[misc]
        def act(self: Any, sel: Any, *_: Any) -> list[Any]:
            return [{word: sel}]

        return act

    destroy = _word("destroy")
    tap = _word("tap")
    untap = _word("untap")
    return_to_hand = _word("return_to_hand")
    put_into_mana = _word("put_into_mana")
    put_into_battle = _word("put_into_battle")
    add_shield = _word("add_shield")
    break_shield = _word("break_shield")
    del _word

    def owner_graveyard(self, sel: Any, *_: Any) -> list[Any]:
        """「持ち主の墓地に置く」: from the battle zone that is destroying (the first
        sets' wording of 破壊する); from elsewhere, a move."""
        if sel == "self" or sel == "event.card" or (isinstance(sel, dict) and sel.get("zone") == "battle"):
            return [{"destroy": sel}]
        return [{"move": {"card": sel, "to": "graveyard"}}]

    def put_into_hand(self, sel: Any, *_: Any) -> list[Any]:
        return [{"move": {"card": sel, "to": "hand"}}]

    def put_into_graveyard(self, sel: Any, *_: Any) -> list[Any]:
        return [{"move": {"card": sel, "to": "graveyard"}}]

    def power_turn(self, sel: Any, by: Token, *_: Any) -> list[Any]:
        return [{"power": {"card": sel, "by": _signed(by), "until": "end_of_turn"}}]

    def power_plain(self, sel: Any, by: Token, *_: Any) -> list[Any]:
        raise Unreadable("power without a duration")

    def search_take(self, sel: Any, *_: Any) -> list[Any]:
        if not isinstance(sel, dict):
            raise Unreadable("take what")
        query = {**sel, "zone": "deck", "owner": "self"}
        noun = query.get("_noun")
        if noun and noun not in query.get("types", []) + query.get("all_types", []):
            query["types"] = [*query.get("types", []), noun]
        return [{"move": {"card": query, "to": "hand"}}]

    def discard_own(self, n: Token, *_: Any) -> list[Any]:
        return [{"discard": {"zone": "hand", "owner": "self", "pick": number(n)}}]

    def discard_opponent(self, n: Token, *_: Any) -> list[Any]:
        return [{"discard": {"zone": "hand", "owner": "opponent", "pick": number(n), "chooser": "opponent"}}]

    def choose_only(self, sel: Any, *_: Any) -> list[Any]:
        return [{"_choose": sel}]

    def choose_then(self, sel: Any, verb: Any) -> list[Any]:
        return [verb(sel)]

    def opponent_chooses(self, sel: Any, verb: Any) -> list[Any]:
        if not isinstance(sel, dict):
            raise Unreadable("the opponent chooses what")
        owner = sel.get("owner")
        query = {**sel, "owner": "opponent" if owner in (None, "opponent") else owner, "chooser": "opponent"}
        return [verb(query)]

    def opponent_discards(self, sel: Any, *_: Any) -> list[Any]:
        if not isinstance(sel, dict):
            raise Unreadable("discards what")
        return [{"discard": {**sel, "zone": "hand", "owner": "opponent", "chooser": "opponent"}}]

    def v_tap(self, *_: Any) -> Any:
        return lambda sel: {"tap": sel}

    def v_untap(self, *_: Any) -> Any:
        return lambda sel: {"untap": sel}

    def v_destroy(self, *_: Any) -> Any:
        return lambda sel: {"destroy": sel}

    def v_return(self, *_: Any) -> Any:
        return lambda sel: {"return_to_hand": sel}

    def v_mana(self, *_: Any) -> Any:
        return lambda sel: {"put_into_mana": sel}

    def v_hand(self, *_: Any) -> Any:
        return lambda sel: {"move": {"card": sel, "to": "hand"}}

    def v_graveyard(self, *_: Any) -> Any:
        return lambda sel: {"move": {"card": sel, "to": "graveyard"}}

    def v_battle(self, *_: Any) -> Any:
        return lambda sel: {"put_into_battle": sel}

    def v_shield(self, *_: Any) -> Any:
        return lambda sel: {"add_shield": sel}

    def bare_hand(self, *_: Any) -> list[Any]:
        return [{"return_to_hand": "event.card"}]

    def bare_mana(self, *_: Any) -> list[Any]:
        return [{"put_into_mana": "event.card"}]

    def bare_shield(self, *_: Any) -> list[Any]:
        return [{"add_shield": "event.card"}]

    # -- sentences: (may, actions, instead)
    def sentence(self, *parts: Any) -> tuple[bool, list[Any], bool]:
        may = any(isinstance(part, Token) and part.type == "MAY" for part in parts)
        acts = [part for part in parts if isinstance(part, list)]
        actions = [_clean(action) for act in acts for action in act]
        _check_zones(actions)
        return (may, actions, False)

    def sentence_instead(self, *parts: Any) -> tuple[bool, list[Any], bool]:
        may, actions, _ = self.sentence(*parts)
        return (may, actions, True)

    def jsentence_may(self, act: list[Any]) -> tuple[bool, list[Any], bool]:
        actions = [_clean(action) for action in act]
        _check_zones(actions)
        return (True, actions, False)

    def not_destroyed(self, *_: Any) -> tuple[bool, list[Any], bool]:
        """ "… this creature isn't destroyed": the destruction prevented."""
        return (False, [], True)

    def shuffle(self, *_: Any) -> tuple[bool, list[Any], bool]:
        return (False, [], False)

    search_deck = shuffle

    def effect(self, *sentences: Any) -> list[Any]:
        return list(sentences)

    jeffect = effect


BUILD = _Build()


def _chosen(sentences: Sequence[tuple[bool, list[Any], bool]]) -> list[tuple[bool, list[Any], bool]]:
    """ "Choose one of …. <Do something to> it." / 「…を1体選ぶ。そのクリーチャーを…」:
    the choice goes where the next sentence names "it" (its only mention).
    A choice nothing acts on is :class:`Unreadable`."""
    merged: list[tuple[bool, list[Any], bool]] = []
    pending: Any = None
    for may, acts, instead in sentences:
        if pending is not None:
            count = _mentions(acts)
            if count != 1:
                raise Unreadable("a choice no sentence acts on")
            acts = _replace(acts, pending)
            pending = None
        if len(acts) == 1 and isinstance(acts[0], dict) and "_choose" in acts[0]:
            pending = acts[0]["_choose"]
            continue
        merged.append((may, acts, instead))
    if pending is not None:
        raise Unreadable("a choice no sentence acts on")
    return merged


def _mentions(value: Any) -> int:
    if value == "event.card":
        return 1
    if isinstance(value, dict):
        return sum(_mentions(item) for item in value.values())
    if isinstance(value, list):
        return sum(_mentions(item) for item in value)
    return 0


def _replace(value: Any, query: Any) -> Any:
    if value == "event.card":
        return query
    if isinstance(value, dict):
        return {key: _replace(item, query) for key, item in value.items()}
    if isinstance(value, list):
        return [_replace(item, query) for item in value]
    return value


def _effect(sentences: Sequence[tuple[bool, list[Any], bool]]) -> tuple[bool, list[Any]]:
    """The actions of an effect's sentences, and whether the whole effect is
    optional ("you may" leading it); a later "you may" is a ``may``.
    A substitution's "instead" prevents the event first."""
    optional = False
    actions: list[Any] = []
    for index, (may, acts, instead) in enumerate(_chosen(sentences)):
        if instead and {"prevent": {}} not in actions:
            actions.insert(0, {"prevent": {}})
        if may and index == 0:
            optional = True
            actions.extend(acts)
        elif may:
            actions.append({"may": acts})
        else:
            actions.extend(acts)
    return optional, actions


def _prefix_unread(children: list[Any]) -> tuple[str, ...]:
    """A keyword before the header: Survivor shares the ability with the
    player's other Survivors (on this card it is the card's own); the
    others (Wave striker, Metamorph, Silent skill, Turbo rush, Accelerator)
    turn it on under a condition the reading does not say: unread.  The
    prefix is taken off ``children``."""
    if children and isinstance(children[0], Token) and children[0].type == "ANGLE_LABEL":
        children.pop(0)  # <鬼エンド>: the ability's name
        return ()
    if not children or getattr(children[0], "data", None) not in ("prefix", "jprefix", "jlabel"):
        return ()
    prefix = children.pop(0)
    if prefix.data == "jlabel":  # the ability's name: nothing to read
        return ()
    word = str(prefix.children[0])
    if prefix.children[0].type == "JCIV_LABEL":
        return (f"{word}: (the ability only under that civilization's condition)",)
    return () if word.lower() in ("survivor", "サバイバー") else (word,)


def _is_japanese(words: str) -> bool:
    return any("\u3040" <= char <= "\u9fff" for char in words)


#: (subject, event rule) -> the ability's name, where the first sets' names are kept
_NAMES = {
    ("self", "e_attacks"): "on_attack",
    ("self", "e_attacks_what"): "on_attack",
    ("self", "e_unblocked"): "on_attack",
    ("self", "e_blocks"): "on_block",
    ("self", "e_destroyed"): "on_destroyed",
    ("self", "e_put"): "cip",
    ("self", "e_leaves"): "leaves",
    ("self", "e_to_graveyard"): "to_graveyard",
    ("self", "e_wins"): "wins_battle",
    ("self", "e_loses"): "loses_battle",
    ("self", "e_becomes_blocked"): "blocked",
    ("own", "e_attacks"): "creature_attacks",
    ("any", "e_attacks"): "creature_attacks",
    ("opponent", "e_attacks"): "opponent_attacks",
    **{(who, "e_destroyed"): "creature_destroyed" for who in ("own", "own_other", "any", "other", "opponent")},
    **{(who, "e_put"): "creature_put" for who in ("own", "own_other", "any", "other")},
    ("shield_own", "e_broken"): "shield_broken",
    ("shield_opponent", "e_broken"): "shield_broken",
}

#: event rule -> (name word, the event pattern without its card, extra keys)
_EVENTS: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "e_attacks": ("attacks", {"event": "attacking"}, {}),
    "e_attacks_what": ("attacks", {"event": "attacking"}, {}),
    "e_unblocked": ("attacks", {"event": "attacking"}, {}),
    "e_attacked": ("attacked", {"event": "attacking", "player": "opponent"}, {}),
    "e_becomes_blocked": ("blocked", {"event": "blocked", "player": "opponent"}, {}),
    "e_blocks": ("blocks", {"event": "blocked"}, {}),
    "e_destroyed": ("destroyed", {"event": "destroyed"}, {}),
    "e_put": ("put", {"event": "moved", "to": "battle"}, {}),
    "e_leaves": ("leaves", {"event": "moved", "from": "battle"}, {}),
    "e_to_graveyard": ("to_graveyard", {"event": "moved", "from": "battle", "to": "graveyard"}, {}),
    "e_wins": ("wins_battle", {"event": "won_battle"}, {}),
    "e_loses": ("loses_battle", {"event": "lost_battle"}, {}),
    "e_loses_against": ("loses_battle", {"event": "lost_battle"}, {}),
    "w_destroyed": ("substitute", {"event": "destroyed"}, {"kind": "replacement"}),
    "w_leaves": ("substitute", {"event": "moved", "from": "battle"}, {"kind": "replacement"}),
    "e_broken": ("shield_broken", {"event": "broken"}, {}),
    "w_shield_broken": ("shield_saver", {"event": "broken"}, {"kind": "replacement"}),
    "e_summons": ("summons", {"event": "summoned"}, {}),
    "e_casts": ("casts", {"event": "cast"}, {}),
    "e_untaps": ("untaps", {"event": "untapped"}, {}),
    "e_discards": ("discards", {"event": "discarded"}, {}),
    "w_discarded": ("substitute", {"event": "discarded"}, {"kind": "replacement", "active_in": "hand"}),
}

#: event rules whose words narrow the event beyond what the pattern says (read as unread)
_NARROWER = {
    "e_attacks_what": "the attack's target",
    "e_unblocked": "and isn't blocked: the attack once no block was declared",
    "e_attacked": "is attacked: the attack's target",
    "e_loses_against": "against which creature",
}

_CROSSED = "the crossed creature: the scenario language has no cross gear crossed with a creature"

_Head = tuple[str, dict[str, Any], dict[str, Any], tuple[str, ...]]


_ATTACK_SELF = {"event": "attacking", "card": "self"}

#: Japanese headers that say more than one pattern: several events, or words read as unread
_JA_HEADS: dict[str, list[_Head]] = {
    "t_unblocked": [
        (
            "on_attack",
            _ATTACK_SELF,
            {},
            ("相手プレイヤーを攻撃してブロックされなかった (" + _NARROWER["e_unblocked"] + ")",),
        )
    ],
    "t_attacked": [
        (
            "attacked",
            {"event": "attacking", "player": "opponent"},
            {},
            ("攻撃された (" + _NARROWER["e_attacked"] + ")",),
        )
    ],
    "t_crossed_attacks": [("own_attacks", {"event": "attacking", "card": "own"}, {}, (_CROSSED,))],
    "t_crossed_unblocked": [
        ("own_attacks", {"event": "attacking", "card": "own"}, {}, (_CROSSED, _NARROWER["e_unblocked"]))
    ],
    "t_crossed_destroyed": [("own_destroyed", {"event": "destroyed", "card": "own"}, {}, (_CROSSED,))],
    "w_crossed_destroyed": [
        ("substitute", {"event": "destroyed", "card": "own"}, {"kind": "replacement"}, (_CROSSED,))
    ],
    "t_own_attacked": [
        (
            "own_attacked",
            {"event": "attacking", "player": "opponent"},
            {},
            ("自分のクリーチャーが攻撃された (" + _NARROWER["e_attacked"] + ")",),
        )
    ],
    "t_opp_unblocked": [
        (
            "opponent_attacks",
            {"event": "attacking", "card": "opponent"},
            {},
            ("自分を攻撃してブロックされなかった (" + _NARROWER["e_unblocked"] + ")",),
        )
    ],
    "t_attacks_creature": [("on_attack", _ATTACK_SELF, {}, ("クリーチャーを (" + _NARROWER["e_attacks_what"] + ")",))],
    "t_crossed_wins": [("own_wins_battle", {"event": "won_battle", "card": "own"}, {}, (_CROSSED,))],
    "t_card_to_graveyard": [("to_graveyard", {"event": "moved", "to": "graveyard", "card": "self"}, {}, ())],
    "w_own_other_destroyed": [("substitute", {"event": "destroyed", "card": "own_other"}, {"kind": "replacement"}, ())],
    "t_attacks_or_leaves": [
        ("on_attack", _ATTACK_SELF, {}, ()),
        ("leaves", {"event": "moved", "from": "battle", "card": "self"}, {}, ()),
    ],
    "w_discarded_opp_turn": [
        (
            "substitute",
            {"event": "discarded", "card": "self"},
            {"kind": "replacement", "active_in": "hand", "trigger_condition": {"turn": "opponent"}},
            (),
        )
    ],
}


def _words(tree: Any) -> str:
    return " ".join(str(token) for token in tree.scan_values(lambda _: True)) if isinstance(tree, Tree) else str(tree)


def _subject(tree: Any, put_by_you: bool = False) -> tuple[str, Any, tuple[str, ...]]:
    """``(who, card pattern, unread)``: who is self, own, own_other,
    opponent, other, any or crossed; a pattern narrowed by its words
    (civilizations, races, "evolution", "that has …") is a query."""
    who = {"s_self": "self", "s_crossed": "crossed", "s_own": "own", "s_own_other": "own_other"}.get(tree.data)
    who = who or {"s_opp": "opponent", "s_any": "any", "s_other": "other"}[tree.data]
    if who in ("self", "crossed"):
        return (who, "self" if who == "self" else "own", (_CROSSED,) if who == "crossed" else ())
    query: dict[str, Any] = {}
    shield = False
    unread: list[str] = []
    for child in tree.children:
        if not isinstance(child, Tree):
            continue
        if child.data == "n_shield":
            shield = True
        elif child.data == "n_race":
            query.setdefault("types", []).extend(_race(str(token)) for token in child.children)
        elif child.data == "n_creature":
            continue
        else:
            try:
                part = BUILD.transform(child)
            except (Unreadable, LarkError):
                unread.append(_words(child))
                continue
            for key, value in part.items():
                query[key] = [*query.get(key, []), *value] if key in ("all_types", "types") else value
    if "all_types" in query and "types" not in query and len(query["all_types"]) == 1:
        query["types"] = query.pop("all_types")
    if put_by_you and who == "any":
        who = "own"
    if put_by_you and who == "other":
        who = "own_other"
    if query.pop("exclude", None) == "self":
        who = {"own": "own_other", "any": "other"}.get(who, who)
    if shield:
        return ("shield_" + who, who, tuple(unread))
    if not query:
        return (who, None if who == "any" else who, tuple(unread))
    owner = {"own": "self", "own_other": "self", "opponent": "opponent"}.get(who)
    if owner:
        query["owner"] = owner
    if who in ("own_other", "other"):
        query["exclude"] = "self"
    return (who, query, tuple(unread))


def _race(word: str) -> str:
    """A race as scenario files type it: "Angel Commands" -> angel_command."""
    word = word.strip()
    word = word[:-2] if word.endswith("xes") else word[:-1] if word.endswith("s") else word
    return word.lower().replace(" ", "_")


def _english_header(tree: Any) -> list[_Head]:
    """The abilities an English header names: one per trigger event."""
    if tree.data == "t_after_attack":
        when = {"event": "end_of_attack"}
        extra = {"trigger_condition": {"happened": {"event": "attacking", "card": "self"}}}
        return [("after_attack", when, extra, ())]
    subtrees = [child for child in tree.children if isinstance(child, Tree)]
    turn = {"d_opponent": "opponent", "d_self": "self"}.get(subtrees[-1].data)
    if turn:  # "… during your opponent's turn": a trigger condition
        subtrees.pop()
    if tree.data == "t_player":
        player = {"p_opponent": "opponent", "p_self": "own", "p_any": None}[subtrees[0].data]
        heads = [_player_event(player, verb) for verb in subtrees[1:]]
    else:
        who, card, unread = _subject(subtrees[0], put_by_you=tree.data == "t_you_put")
        events = [Tree("e_put", [])] if tree.data == "t_you_put" else subtrees[1:]
        heads = [_event(who, card, event, unread) for event in events]
    if turn:
        heads = [
            (name, when, {**extra, "trigger_condition": {"turn": turn}}, notes) for name, when, extra, notes in heads
        ]
    return heads


def _event(who: str, card: Any, event: Tree[Token], unread: tuple[str, ...]) -> _Head:
    word, when, extra = _EVENTS[event.data]
    when, extra = dict(when), dict(extra)
    notes = (*unread, _NARROWER[event.data]) if event.data in _NARROWER else unread
    name = _NAMES.get((who, event.data)) or f"{who.replace('shield_', '')}_{word}".replace("any_", "creature_")
    if who == "self" or event.data.startswith("w_"):
        name = _NAMES.get((who, event.data), word)
    if who.startswith("shield_"):
        when["player"] = "opponent" if who == "shield_opponent" else "self"
        return (name if event.data != "w_shield_broken" else word, when, extra, notes)
    if event.data == "e_becomes_blocked" and who == "self":
        return ("blocked", *TRIGGERS["t_becomes_blocked"][1:], notes)
    if card is not None and "player" not in when:
        when["card"] = card
    if event.data == "e_put" and who == "self":
        extra["active_in"] = "battle"
    return (name, when, extra, notes)


def _player_event(player: str | None, verb: Tree[Token]) -> _Head:
    """ "Whenever your opponent summons a creature", "… casts a light or
    water spell", "When each player untaps his cards …"."""
    word, when, extra = _EVENTS[verb.data]
    when = dict(when)
    query: dict[str, Any] = {}
    for child in verb.children:
        if isinstance(child, Tree):
            for key, value in BUILD.transform(child).items():
                query["types" if key == "all_types" else key] = value
    if query:
        when["card"] = {**query, **({"owner": {"own": "self"}.get(player, player)} if player else {})}
    elif player:
        when["card"] = player
    prefix = {"opponent": "opponent", "own": "you", None: "player"}[player]
    return (f"{prefix}_{word}", when, dict(extra), ())


class DuelMastersReader(TextReader):
    """Duel Masters: a creature a line at a time, a spell whole."""

    game = "duelmasters"

    def normalize(self, text: str) -> str:
        text = super().normalize(text).replace('."', '".').replace(' ."', '".')
        text = text.replace('â€"', "—")  # the list's UTF-8 read as cp1252 ("Evolutionâ€"Put on …")
        text = _TRIGGER_THEN_TEXT.sub("\\1\n", text)
        text = _TRIGGER_THEN_TEXT_EN.sub("\\1\n", text)  # 「S・トリガー(…)カードを…」: the effect on a line of its own
        lines = (_BULLET.sub("", line) for line in text.split("\n"))
        return "\n".join(line for line in lines if line)

    def parts(self, text: str, types: Sequence[str]) -> Iterable[str]:
        if "spell" in types:
            return [text]
        lines = text.split("\n")
        parts: list[str] = []
        for (
            line
        ) in lines:  # 「…タップして次の能力を使ってもよい。」, 「ウェーブストライカー(…)」 and the next line: one part
            if parts and (_TAP_RULE_JA.fullmatch(parts[-1]) or _KEYWORD_ABOVE_JA.fullmatch(parts[-1])):
                parts[-1] += "\n" + line
            else:
                parts.append(line)
        return parts

    def read(self, text: str, types: Sequence[str] = ()) -> Reading:
        if "spell" not in types:
            return super().read(text, types)
        parts, unread = self._spell(self.normalize(text).split("\n"))
        return Reading(game=self.game, text=text, parts=tuple(parts), unread=tuple(unread))

    def read_part(self, words: str, types: Sequence[str]) -> Sequence[ReadAbility | Skipped] | None:
        if "spell" in types:
            parts, unread = self._spell(words.split("\n"))
            return None if unread else parts
        return self._line(words, types)

    # -- one line of a creature (or a keyword line of a spell)
    def _line(self, words: str, types: Sequence[str]) -> list[ReadAbility | Skipped] | None:
        try:
            tree = _parse(words, "line")
        except LarkError:
            return self._header_only(words)
        try:
            return self._from_line(tree, words, types)
        except (Unreadable, LarkError):
            return self._header_only(words)

    def _from_line(self, tree: Any, words: str, types: Sequence[str]) -> list[ReadAbility | Skipped]:
        kind = tree.data
        if kind == "keyword_line":
            return self._keyword(tree.children[0].data, tree, words, types)
        if kind in SKIPPED:
            return [Skipped(words, SKIPPED[kind])]
        if kind == "tap_line":
            optional, actions = _effect(BUILD.transform(tree.children[1]))
            return [self._tap_ability(words, optional, actions)]
        if kind == "shield_saver_line":
            data = {
                "kind": "replacement",
                "optional": True,
                "when": {"event": "broken", "player": "self"},
                "do": [{"prevent": {}}, {"destroy": "self"}],
            }
            return [ReadAbility(words, data, "shield_saver")]
        if kind == "saver_line":
            # the reminder says the ability in full: read it as the ability
            inside = str(tree.children[1])[1:-1].strip()
            inside = re.sub(r"^While this creature is in the battle zone, ", "", inside, flags=re.IGNORECASE)
            read = self._line(inside, types) or []
            return [
                ReadAbility(words, part.data, "saver", part.unread) for part in read if isinstance(part, ReadAbility)
            ] or [
                ReadAbility(
                    words,
                    {"kind": "replacement", "optional": True, "when": {"event": "destroyed", "card": "own"}, "do": []},
                    "saver",
                    (inside,),
                )
            ]
        if kind == "ninja_strike_line":
            return [self._ninja_strike(words, number(tree.children[1]))]
        if kind == "silent_skill_line":
            optional, actions = _effect(BUILD.transform(tree.children[-1]))
            return [self._silent_skill(words, actions)]
        children = list(tree.children)
        unread = _prefix_unread(children)
        optional, actions = _effect(BUILD.transform(children[1]))
        return [*self._ability(children[0], words, optional, actions, unread)]

    def _ability(
        self,
        header: Any,
        words: str,
        optional: bool,
        actions: list[Any],
        unread: tuple[str, ...] = (),
        instead: bool = False,
    ) -> list[ReadAbility]:
        """One ability per trigger event the header names ("summons a
        creature or casts a spell": two)."""
        key = header.data if isinstance(header, Tree) else str(header)
        if key == "w_destroyed" and _is_japanese(words) and {"prevent": {}} not in actions:
            key = "t_destroyed"  # 「破壊される時／墓地に置かれるとき、…」 without 「かわりに」
        if key in _JA_HEADS:
            heads = _JA_HEADS[key]
        else:
            heads = [(*TRIGGERS[key], ())] if key in TRIGGERS else _english_header(header)
        abilities = []
        instead = instead or {"prevent": {}} in actions
        for name, when, extra, notes in heads:
            data: dict[str, Any] = {**extra}
            if when.get("event") == "lost_battle" and instead:
                # "When this creature loses a battle, … instead": a substitute for its destruction
                when = {"event": "destroyed", "card": "self", "by": "battle"}
                data, name = {"kind": "replacement"}, "substitute"
            if data.get("kind") == "replacement" and not instead:
                data["kind"] = "interrupt"  # "when … would …, <do B>" without "instead": B, then the event
            if optional:
                data["optional"] = True
            data["when"] = dict(when)
            data["do"] = actions
            abilities.append(ReadAbility(words, data, name, (*notes, *unread)))
        return abilities

    def _strike_back(self, keyword: Any, words: str, unread: tuple[str, ...]) -> ReadAbility:
        """S・バック (civilization) / Strike back: when a card of that
        civilization goes from your shield zone to your hand, you may discard
        it (the cost) and cast this spell for no cost (as
        rule7-strike-back.yaml writes it)."""
        civs = [_civ(str(token).strip("()")) for token in keyword.children if isinstance(token, Token)]
        card: dict[str, Any] = {"owner": "self", "types": civs} if civs else {"owner": "self"}
        data = {
            "tags": ["strike_back"],
            "active_in": "hand",
            "optional": True,
            "when": {"event": "broken", "card": card},
            "cost": [{"discard": "event.card"}],
            "do": [{"cast": "self"}],
        }
        return ReadAbility(words, data, "strike_back", unread)

    def _ninja_strike(self, words: str, mana: int) -> ReadAbility:
        """ニンジャ・ストライク N: when an opponent's creature attacks, if you
        have N or more cards in your mana zone, you may summon it for no cost
        (as cr-usage-declarations-turn-player-first.yaml writes it, with the
        mana).  "Or blocks" is not read: a second trigger would let it be
        used twice."""
        data = {
            "tags": ["ninja_strike"],
            "active_in": "hand",
            "optional": True,
            "when": {"event": "attacking", "player": "opponent"},
            "trigger_condition": {"count": {"zone": "mana", "owner": "self"}, "gte": mana},
            "do": [{"summon": "self"}],
        }
        return ReadAbility(words, data, "ninja_strike", ("またはブロックした時 (or blocks)",))

    def _silent_skill(self, words: str, actions: list[Any], unread: tuple[str, ...] = ()) -> ReadAbility:
        """Silent skill: at the start of the player's turn, if this creature
        is tapped, they may keep it tapped (it is not untapped) and use the
        ability."""
        data = {
            "optional": True,
            "when": {"event": "start_of_turn", "player": "self"},
            "trigger_condition": {"card": "self", "flag": "tapped"},
            "do": actions,
        }
        return ReadAbility(words, data, "silent_skill", unread)

    def _tap_ability(self, words: str, optional: bool, actions: list[Any], unread: tuple[str, ...] = ()) -> ReadAbility:
        """A tap ability ("$tap …"): used instead of attacking, by tapping
        the creature (its cost)."""
        do = [{"may": actions}] if optional else actions
        data = {"kind": "activated", "cost": [{"tap": "self"}], "do": do}
        return ReadAbility(words, data, "tap_ability", unread)

    def _keyword(self, keyword: str, tree: Any, words: str, types: Sequence[str]) -> list[ReadAbility | Skipped]:
        if keyword in SKIPPED:
            return [Skipped(words, SKIPPED[keyword])]
        rest = [str(child) for child in tree.children if isinstance(child, Token) and child.type == "REST"]
        if keyword == "shield_trigger":
            do: list[Any] = [{"summon": "self"}] if "spell" not in types else [{"cast": "self"}]
            return [ReadAbility(words, {**SHIELD_TRIGGER, "do": do}, "s_trigger", tuple(rest))]
        if keyword == "shield_trigger_cross":
            # a cross gear's: generated (put into the battle zone), then crossed with a creature
            data = {**SHIELD_TRIGGER, "do": [{"put_into_battle": "self"}]}
            crossing = "and cross it with a creature: the scenario language has no cross gear crossed with a creature"
            return [ReadAbility(words, data, "s_trigger", (crossing,))]
        if keyword == "strike_back":
            return [self._strike_back(tree.children[0], words, tuple(rest))]
        if keyword in ("slayer", "civ_slayer"):
            data = {"when": {"event": "lost_battle", "card": "self"}, "do": [{"destroy": "event.against"}]}
            # "Nature and light slayer": only against those civilizations (a condition on the
            # creature battled, which the scenario language does not say)
            civs = re.split(r"\s+slayer", words, maxsplit=1, flags=re.IGNORECASE)[0]
            unread = (f"{civs} (only against those civilizations)",) if keyword == "civ_slayer" else ()
            return [ReadAbility(words, data, "slayer", unread)]
        # power attacker: the bundled files' continuous ability while attacking
        by = _signed(next(token for token in tree.children[0].children if isinstance(token, Token)))
        data = {
            "kind": "continuous",
            "condition": {
                "all": [
                    {"happened": {"event": "attacking", "card": "self"}},
                    {"not": {"happened": {"event": "end_of_attack"}}},
                ]
            },
            "do": [{"power": {"card": "self", "by": by}}],
        }
        return [ReadAbility(words, data, "power_attacker")]

    def _header_only(self, words: str) -> list[ReadAbility | Skipped] | None:
        """The header reads but not all of the body: the sentences that read
        are kept, the others reported unread."""
        try:
            tree = _parse(words, "head")
        except LarkError:
            return None
        children = list(tree.children)
        rest = str(children[-1]).strip()
        sentences, unread = self._sentences(rest)
        optional, actions = _effect(sentences)
        first = (_SENTENCE.split(_REMINDER.sub("", rest).strip()) or [""])[0]
        if unread and unread[0] == first and _MAY_LEADS.search(first):
            optional = True  # "you may …" leads the effect, even where the rest of its sentence is unread
        if isinstance(children[0], Token) and children[0].type in ("TAP", "JTAP_RULE"):
            return [self._tap_ability(words, optional, actions, tuple(unread))]
        if isinstance(children[0], Token) and children[0].type in ("SILENT_SKILL", "JSILENT_SKILL"):
            return [self._silent_skill(words, actions, tuple(unread))]
        prefix = _prefix_unread(children)
        # "… instead." unread still tells the kind: a substitute ("loses a battle, … instead")
        instead = any(re.search(r"\binstead\.$", words) for words in unread)
        return [*self._ability(children[0], words, optional, actions, (*prefix, *unread), instead)]

    def _sentences(self, text: str) -> tuple[list[tuple[bool, list[Any], bool]], list[str]]:
        start = "jsentence" if _is_japanese(text) else "sentence"
        read: list[tuple[bool, list[Any], bool]] = []
        unread: list[str] = []
        text = _REMINDER.sub("", text)
        choice: tuple[str, Any] | None = None  # "Choose …." waiting for the sentence that acts on it
        for sentence in (part.strip() for part in _SENTENCE.split(text) if part.strip()):
            try:
                result = BUILD.transform(_parse(sentence, start))
            except LarkError:
                result = None
            if choice is not None:
                words, chosen = choice
                choice = None
                try:
                    if result is None:
                        raise Unreadable(sentence)
                    read.extend(_chosen([chosen, result]))
                    continue
                except Unreadable:
                    unread.append(words)
            if result is None:
                unread.append(sentence)
            elif len(result[1]) == 1 and "_choose" in result[1][0]:
                choice = (sentence, result)
            else:
                read.append(result)
        if choice is not None:
            unread.append(choice[0])
        return read, unread

    # -- a spell: its keyword lines, and its effect (the Shield Trigger's body)
    def _spell(self, lines: list[str]) -> tuple[list[ReadAbility | Skipped], list[str]]:
        """A spell's parts, and the lines of its effect when none of it
        reads and it has no Shield Trigger (no ability to hang them on)."""
        parts: list[ReadAbility | Skipped] = []
        trigger: ReadAbility | None = None
        charger = False
        body: list[str] = []
        for line in lines:
            read = self._line(line, ("spell",))
            first = read[0] if read else None
            if isinstance(first, ReadAbility) and first.name in ("s_trigger", "strike_back"):
                trigger = first
            elif isinstance(first, Skipped) and first.why == SKIPPED["charger"]:
                charger = True
                parts.append(first)
            elif read and not (isinstance(first, ReadAbility) and first.data.get("when", {}).get("event") is None):
                parts.extend(read)
            else:
                body.append(line)
        sentences, unread = self._sentences(" ".join(body))
        optional, actions = _effect(sentences)
        after = {"put_into_mana": "self"} if charger else {"move": {"card": "self", "to": "graveyard"}}
        if optional:
            actions = [{"may": actions}]
        do = [{"cast": "self"}, *actions, after]
        words = "\n".join(body)
        if trigger is not None:
            words = "\n".join([trigger.words, *body])
            data = {**trigger.data, "do": do}
            return [ReadAbility(words, data, trigger.name, (*trigger.unread, *unread)), *parts], []
        if not body:
            return parts, []
        if not sentences:
            return parts, body
        ability = ReadAbility(words, {"kind": "activated", "active_in": "hand", "do": do}, "spell", tuple(unread))
        return [ability, *parts], []


READER = DuelMastersReader()
