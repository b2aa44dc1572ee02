"""Digimon printed text read into abilities (Issue 38).

The text is cut into the parts its effects are printed in: a line, cut again
before each timing header (``[On Play]``, ``[Main]``…) and before each
keyword that is an ability of its own (``<Blocker>``, ``<Raid>``…) that
starts a new effect.  Each part is read by the grammar ``digimon.lark``:
its header (the timings, ``[Once Per Turn]``, ``Inherited Effect:``), then
its sentences one by one, so a sentence the grammar does not know leaves
the others read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, cast

from attrs import evolve, frozen
from lark import Discard, Lark, Token, Transformer, Tree
from lark.exceptions import UnexpectedInput, VisitError
from tcgtrig.printed import ReadAbility, Reading, Skipped, TextReader, grammar, without_reminders

TIMINGS = (
    r"On Play|When Moving|When Digivolving|When Attacking|On Deletion|End of Attack|"
    r"Your Turn|Opponent's Turn|All Turns|"
    r"Start of Your Turn|Start of Opponent's Turn|End of Your Turn|End of Opponent's Turn|End of All Turns|"
    r"At End of Opponent's Turn|Start of Your Main Phase|Start of Opponent's Main Phase|Once Per Turn|"
    r"Twice Per Turn|Security|Main|Counter|Hand|Trash|Breeding|Rule|Digivolve|DNA Digivolve|DNA Digivolution|"
    r"App Fusion|Assembly -\d+|Burst Digivolve|Fusionize|App Driver|Link"
)
#: keywords printed as abilities of their own (not the effect words <Draw 1>, <De-Digivolve 1>…)
OWN_KEYWORDS = (
    r"Blocker|Piercing|Security Attack [+-]\d+|Security A\. [+-]\d+|Reboot|Jamming|Retaliation|Rush|Raid|Alliance|"
    r"Barrier|Blast Digivolve|Blast DNA Digivolve[^>]*|Armor Purge|Collision|Fortitude|Evade|Training|Vortex|"
    r"Scapegoat|Execute|Material Save \d+|Fragment[^>]*|Decoy[^>]*|Progress|Ice ?[Cc]lad|Decode[^>]*|"
    r"Overclock[^>]*|Partition[^>]*|Detach[^>]*|Ascension|Use Req\.[^>]*|Engage|Guard|Digisorption[^>]*|Link \+\d+|"
    r"Delay"
)
_HEADER = re.compile(rf"\[(?:{TIMINGS})\]", re.IGNORECASE)
_KEYWORD = re.compile(rf"<(?:{OWN_KEYWORDS})>")
_START = re.compile(
    rf"\[(?:{TIMINGS})\]|<(?:{OWN_KEYWORDS})>|Digivolve: |DNA Digivolve: |Inherited Effect: ", re.IGNORECASE
)


def cut(line: str) -> list[str]:
    """One printed line cut before each header or keyword that starts a new
    effect: one after a sentence's end, a closing bracket that is not a
    header, a digit (a cost), or at the start — never inside quotes or
    parentheses, nor between the headers of one effect."""
    starts = [0]
    depth = quotes = 0
    last_header_end = -1
    index = 0
    while index < len(line):
        char = line[index]
        if char == '"':
            quotes ^= 1
        elif char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        match = _START.match(line, index) if not quotes and not depth else None
        if match is not None:
            before = line[:index].rstrip()
            requirement = _REQUIREMENT.match(line[starts[-1] : index]) is not None
            if index and last_header_end != len(before) and (_ends_effect(before) or requirement):
                starts.append(index)
            if _HEADER.match(line, index):
                last_header_end = match.end()
            index = match.end()
            continue
        index += 1
    bounds = [*starts[1:], len(line)]
    return [line[a:b].strip() for a, b in zip(starts, bounds, strict=True) if line[a:b].strip()]


def _ends_effect(before: str) -> bool:
    return bool(before) and (before[-1] in '.)>]!"' or before[-1].isdigit())


# -- cutting a part into its header and its sentences ---------------------------

_HEAD = re.compile(rf"^(?:Inherited Effect: ?)?(?:(?:\[(?:{TIMINGS})\]|<(?:{OWN_KEYWORDS})>) ?)*", re.IGNORECASE)
_REQUIREMENT = re.compile(
    r"^(\[(Digivolve|DNA Digivolve|DNA Digivolution|App Fusion|Assembly -\d+|Burst Digivolve|Fusionize|App Driver|"
    r"Link|DigiXros -\d+)\]|Digivolve: |DNA Digivolve: |DNA Digivolution: |DigiXros -?\d+:)",
    re.IGNORECASE,
)


def sentences(body: str) -> list[str]:
    """A body cut after each full stop that is not inside quotes,
    parentheses or a keyword's brackets."""
    out: list[str] = []
    start = depth = quotes = 0
    for index, char in enumerate(body):
        if char == '"':
            quotes ^= 1
        elif char in "(<":
            depth += 1
        elif char in ")>":
            depth = max(0, depth - 1)
        elif char in ".:" and not quotes and not depth and (index + 1 == len(body) or body[index + 1] == " "):
            if char == "." or body[start:index].lstrip("・ ").startswith(("Activate", "activate")):
                out.append(body[start : index + 1].strip(" ・"))
                start = index + 1
    rest = body[start:].strip(" ・")
    if rest:
        out.append(rest)
    return [sentence for sentence in out if sentence.strip(" .")]


# -- from trees to scenario data ------------------------------------------------

Data = dict[str, Any]

DIGIMON: Data = {"zone": "battle", "types": ["digimon"]}
_OWNERS = {"opponent": "opponent", "own": "self", "own_other": "self"}
_STAT_WORDS = {"dp": "dp", "level": "level", "play cost": "cost"}


def _flat(items: Iterable[Any]) -> list[Data]:
    out: list[Data] = []
    for item in items:
        out.extend(item if isinstance(item, list) else [item])
    return out


def _int(token: Any) -> int:
    return int(token)


def _self_is(query: Data) -> Data:
    """ "This Digimon has …": it is one of the Digimon in the battle area that
    match (there are more of them with it than without it)."""
    matching = {"zone": "battle", **query}
    return {"count": matching, "gt": {"count": {**matching, "exclude": "self"}}}


def _any(conditions: list[Data]) -> Data:
    return conditions[0] if len(conditions) == 1 else {"any": conditions}


def _name(token: Any) -> str:
    return str(token)[1:].rsplit("]", 1)[0]


class _Build(Transformer):  # type: ignore[type-arg]
    """Each rule of ``digimon.lark`` into scenario data."""

    def WHEN(self, token: Any) -> Any:  # noqa: N802 - a terminal's callback: Discard
        return Discard

    def COMMA_AND(self, token: Any) -> Any:  # noqa: N802 - a terminal's callback: Discard
        return Discard

    # ---- targets
    def opponent(self, _: list[Any]) -> str:
        return "opponent"

    def own(self, _: list[Any]) -> str:
        return "own"

    def own_other(self, _: list[Any]) -> str:
        return "own_other"

    def level(self, items: list[Any]) -> Data:
        value = int(items[0])
        cmp = str(items[1]).split()[-1].lower() if len(items) > 1 else "eq"
        op = {"lower": "lte", "less": "lte", "higher": "gte", "more": "gte"}.get(cmp, "eq")
        return {"stat": {"level": {op: value}}}

    def suspended(self, _: list[Any]) -> Data:
        return {"flag": "suspended"}

    def unsuspended(self, _: list[Any]) -> Data:
        return {"no_flag": "suspended"}

    def color(self, items: list[Any]) -> Data:
        if len(items) > 1:  # "red or blue Digimon": any of the colors, and a Digimon (_finish)
            return {"trait_any": [str(item).lower() for item in items]}
        return {"colors": [str(items[0]).lower()]}

    def other(self, _: list[Any]) -> Data:
        return {"exclude": "self"}

    def trait_any(self, items: list[Any]) -> Data:
        return {"trait_any": [_type_word(_name(item)) for item in items]}

    def cost_adj(self, items: list[Any]) -> Data:
        return {"stat": {"cost": {_cmp_word(items[1]): int(items[0])}}}

    def set_memory(self, items: list[Any]) -> list[Data]:
        """ "If you have N or less memory, set it to M": the memory gauge goes
        from 10 to -10 (CR 6-1), so one step a value it may hold, each
        gaining what takes it to M (a gain that reaches M matches no later
        step)."""
        condition, value = items[0], int(items[1])
        limit = condition.get("lte")
        if condition.get("counter") != "memory" or limit is None:
            raise _Unread
        return [
            {"if": {"player": "self", "counter": "memory", "eq": held}, "then": [{"memory": value - held}]}
            for held in range(-10, min(limit, value - 1) + 1)
        ]

    def play_revealed(self, items: list[Any]) -> Data:
        return {"play": {**items[0], "zone": "revealed", "owner": "self"}}

    def trait_adj(self, items: list[Any]) -> Data:
        return {"trait": [_name(item) for item in items]} if len(items) > 1 else {"trait": _name(items[0])}

    trait_post = trait_adj

    def named(self, items: list[Any]) -> Data:
        if len(items[0]) > 1:
            raise _Unread  # two names: a query has one
        return {"name": items[0][0]}

    def n_digimon(self, _: list[Any]) -> Data:
        return {"types": ["digimon"]}

    def n_digimon_tamer(self, _: list[Any]) -> Data:
        return {"types": ["digimon", "tamer"]}

    def names(self, items: list[Any]) -> list[str]:
        return [_name(item) for item in items]

    def n_named(self, items: list[Any]) -> Data:
        if len(items[0]) > 1:
            raise _Unread  # two names: a query has one
        return {"name": items[0][0]}

    def trait_names(self, items: list[Any]) -> Data:
        names = items[0]
        return {"trait": names[0]} if len(names) == 1 else {"trait_any": [_type_word(name) for name in names]}

    def n_card(self, _: list[Any]) -> Data:
        return {}

    def n_tamer(self, _: list[Any]) -> Data:
        return {"types": ["tamer"]}

    def n_security_digimon(self, _: list[Any]) -> Data:
        return {"types": ["digimon"], "zone": "security"}

    def dp_lte(self, items: list[Any]) -> Data:
        return {"stat": {"dp": {"lte": int(items[0])}}}

    def dp_gte(self, items: list[Any]) -> Data:
        return {"stat": {"dp": {"gte": int(items[0])}}}

    def dp_lte_self(self, _: list[Any]) -> Data:
        return {"stat": {"dp": {"lte": {"card": "self", "stat": "dp"}}}}

    def cost_lte(self, items: list[Any]) -> Data:
        return {"stat": {"cost": {"lte": int(items[-1])}}}

    def cost_gte(self, items: list[Any]) -> Data:
        return {"stat": {"cost": {"gte": int(items[0])}}}

    def lowest(self, items: list[Any]) -> Data:
        word, stat = str(items[0]).lower().split(" ", 1)
        return {word: _STAT_WORDS[stat]}

    def _query(self, owner: str | None, parts: list[Data]) -> Data:
        query: Data = {"zone": "battle"}
        if owner is not None:
            query["owner"] = _OWNERS[owner]
        for part in parts:
            _merge(query, part)
        if owner == "own_other":
            query["exclude"] = "self"
        return _finish(query)

    def self_target(self, _: list[Any]) -> str:
        return "self"

    def it_target(self, _: list[Any]) -> str:
        return IT

    def pick_target(self, items: list[Any]) -> Data:
        return {**self._query(items[1], items[2:]), "pick": int(items[0])}

    def upto_target(self, items: list[Any]) -> Data:
        return {**self._query(items[1], items[2:]), "pick": int(items[0]), "upto": True}

    def all_target(self, items: list[Any]) -> Data:
        return self._query(items[0], items[1:])

    def lowest_target(self, items: list[Any]) -> Data:
        return {**self._query(items[1], [self.lowest([items[2]]), items[3]]), "pick": int(items[0])}

    def counted(self, items: list[Any]) -> Data:
        return {**self._query(None, items[1:]), "pick": int(items[0])}

    def target(self, items: list[Any]) -> Any:
        return items[0]

    def cardq(self, items: list[Any]) -> Any:
        return items[0]

    def n_option(self, _: list[Any]) -> Data:
        return {"types": ["option"]}

    # ---- cards in a zone
    def z_hand(self, _: list[Any]) -> Data:
        return {"zone": "hand", "owner": "self"}

    def z_trash(self, _: list[Any]) -> Data:
        return {"zone": "trash", "owner": "self"}

    def z_sources(self, _: list[Any]) -> Data:
        return {"zone": "sources", "under": "self"}

    def z_under_tamers(self, _: list[Any]) -> Data:
        # "from under one of your Tamers", as qa-25-bt21-021-bt21-083-*.yaml writes it
        return {"zone": "sources", "under": {"zone": "battle", "owner": "self", "types": ["tamer"]}}

    def z_security(self, _: list[Any]) -> Data:
        return {"zone": "security", "owner": "self"}

    def zones(self, items: list[Any]) -> list[Data]:
        return list(items)

    # ---- actions
    def gain_memory(self, items: list[Any]) -> Data:
        return {"memory": int(items[0])}

    def lose_memory(self, items: list[Any]) -> Data:
        return {"memory": -int(items[0])}

    def draw_kw(self, items: list[Any]) -> Data:
        return {"draw": int(re.findall(r"\d+", str(items[-1]))[0])}

    def draw(self, items: list[Any]) -> Data:
        return {"draw": int(items[0])}

    def delete(self, items: list[Any]) -> Data:
        return {"delete": items[0]}

    def suspend(self, items: list[Any]) -> Data:
        return {"suspend": items[0]}

    def unsuspend(self, items: list[Any]) -> Data:
        return {"unsuspend": items[0]}

    def bounce(self, items: list[Any]) -> Data:
        return {"bounce": items[0]}

    def bounce_self(self, _: list[Any]) -> Data:
        return {"bounce": "self"}

    def to_deck_bottom(self, items: list[Any]) -> Data:
        return {"move": {"card": items[0], "to": "deck", "as": "returned"}}

    def trash(self, items: list[Any]) -> Data:
        return {"trash": items[0]}

    def discard(self, items: list[Any]) -> Data:
        return {"trash": {"zone": "hand", "owner": "self", "pick": int(items[0])}}

    def mill(self, items: list[Any]) -> Data:
        return {"trash": {"zone": "deck", "owner": "self", "top": _int(items[0])}}

    def trash_security(self, items: list[Any]) -> Data:
        owner = "opponent" if any("opponent" in str(item).lower() for item in items) else "self"
        return {"trash": {"zone": "security", "owner": owner, "top": 1}}

    def POSS(self, token: Any) -> str:  # noqa: N802 - a terminal's callback
        return str(token)

    def trash_opp_sources(self, items: list[Any]) -> Data:
        """ "Trash the top (bottom) N digivolution cards of 1 of your
        opponent's Digimon": N of its digivolution cards, as
        triggered-01.yaml writes "trash 1 digivolution card" (which of them
        does not change the order effects resolve in)."""
        numbers = [int(item) for item in items if isinstance(item, Token) and item.type == "INT"]
        if numbers[-1] != 1:
            raise _Unread
        return {"trash": {"zone": "sources", "owner": "opponent", "pick": numbers[0] if len(numbers) > 1 else 1}}

    def trash_any_sources(self, items: list[Any]) -> Data:
        return {"trash": {"zone": "sources", "owner": "opponent", "pick": int(items[0])}}

    def count_cards(self, items: list[Any]) -> int:
        return int(items[0]) if items else 1

    def top(self, _: list[Any]) -> str:
        return "top"

    def bottom(self, _: list[Any]) -> str:
        return "bottom"

    def in_hand(self, _: list[Any]) -> Data:
        return {"zone": "hand", "owner": "self"}

    def in_trash(self, _: list[Any]) -> Data:
        return {"zone": "trash", "owner": "self"}

    def restated(self, _: list[Any]) -> list[Data]:
        # said again: the rules trash the cards under a Digimon that leaves (tcgtrig_under_cards_zone)
        return []

    def self_level(self, items: list[Any]) -> Data:
        return {"card": "self", "stat": "level", "eq": int(items[0])}

    def security_eq(self, items: list[Any]) -> Data:
        return {"count": {"zone": "security", "owner": "self"}, "eq": int(items[0])}

    def opp_count(self, items: list[Any]) -> Data:
        query: Data = {"zone": "battle", "owner": "opponent"}
        for part in items[2:]:
            if not isinstance(part, Token):  # "in play"
                _merge(query, part)
        return {"count": _finish(query), _cmp(items[1]): int(items[0])}

    def return_from(self, items: list[Any]) -> Data:
        card, zones = items[0], items[1]
        return _from_zone("bounce", card, zones[0]) if len(zones) == 1 else _any_zone("bounce", card, zones)

    def self_to_security(self, items: list[Any]) -> Data:
        return {"move": {"card": "self", "to": "security"}}

    def switch_target(self, items: list[Any]) -> Data:
        return {"flag": {"card": items[0], "set": "attack_target"}}

    def cant(self, items: list[Any]) -> Data:
        what = str(items[1]).lower().removeprefix("can't ")
        flag: Data = {"card": items[0], "set": "cant_" + _type_word(what)}
        if len(items) > 2:
            flag["until"] = items[2]
        return {"flag": flag}

    def prevent(self, _: list[Any]) -> Data:
        return {"prevent": {}}

    def trash_opp_security(self, _: list[Any]) -> Data:
        return {"trash": {"zone": "security", "owner": "opponent", "top": 1}}

    def play_self(self, _: list[Any]) -> Data:
        return {"play": "self"}

    def play(self, items: list[Any]) -> Data | list[Data]:
        card, zones = items[0], items[1]
        return (
            [_from_zone("play", card, zone) for zone in zones[:1]]
            if len(zones) == 1
            else _any_zone("play", card, zones)
        )

    def play_token(self, items: list[Any]) -> Data:
        # a token waits in a zone of its own until played (qa-18-q5417-blocker-played-in-counter.yaml)
        return {"play": {"zone": "outside", "owner": "self", "name": _name(items[1]), "pick": int(items[0])}}

    def add_self(self, _: list[Any]) -> Data:
        return {"move": {"card": "self", "to": "hand"}}

    def place_self(self, _: list[Any]) -> Data:
        return {"move": {"card": "self", "to": "battle", "flags": ["placed"]}}

    def activate_main(self, items: list[Any]) -> Data:
        if _name(items[0]).lower() != "main":
            raise _Unread
        return {MAIN: True}

    def dp_change(self, items: list[Any]) -> Data:
        target, by = items[0], int(items[2])
        change: Data = {"card": target, "stat": "dp", "by": by}
        if len(items) > 3:
            change["until"] = items[3]
        return {"change": change}

    def dp_change_give(self, items: list[Any]) -> Data:
        return self.dp_change([items[0], None, *items[1:]])

    def for_turn(self, _: list[Any]) -> str:
        return "end_of_turn"

    def until_opp(self, _: list[Any]) -> str:
        return "end_of_opponents_turn"

    def de_digivolve(self, items: list[Any]) -> Data:
        if int(re.findall(r"\d+", str(items[0]))[0]) != 1:
            raise _Unread
        return {"trash_top": items[1]}

    def recovery(self, items: list[Any]) -> Data:
        count = int(re.findall(r"\d+", str(items[-1]))[0])
        return {"move": {"card": {"zone": "deck", "owner": "self", "top": count}, "to": "security"}}

    def reveal(self, items: list[Any]) -> Data:
        return {"move": {"card": {"zone": "deck", "owner": "self", "top": _int(items[0])}, "to": "revealed"}}

    def add_revealed(self, items: list[Any]) -> Data:
        card = items[0]
        if "_names" in card:
            raise _Unread
        return {"move": {"card": {**card, "zone": "revealed", "owner": "self", "upto": True}, "to": "hand"}}

    def add_revealed_two(self, items: list[Any]) -> list[Data]:
        return [self.add_revealed([items[0]]), self.add_revealed([items[1]])]

    def trash_rest(self, _: list[Any]) -> Data:
        return {"trash": {"zone": "revealed", "owner": "self"}}

    def rest_to_deck(self, _: list[Any]) -> Data:
        return {"move": {"card": {"zone": "revealed", "owner": "self"}, "to": "deck"}}

    def security_to_hand(self, items: list[Any]) -> Data:
        top = str(items[0]).lower() == "top"
        query: Data = (
            {"zone": "security", "owner": "self", "pick": 1}
            if not top
            else {"zone": "security", "owner": "self", "top": 1}
        )
        return {"move": {"card": query, "to": "hand"}}

    def self_may_attack(self, _: list[Any]) -> Data:
        return {"may": [{"attack": "self"}]}

    def save(self, _: list[Any]) -> Data:
        return {
            "may": [
                {
                    "move": {
                        "card": "self",
                        "to": "sources",
                        "under": {"zone": "battle", "owner": "self", "types": ["tamer"], "pick": 1},
                    }
                }
            ]
        }

    def blitz_clause(self, _: list[Any]) -> Data:
        # <Blitz>: "this Digimon may attack" (optional, as triggered-04.yaml writes it)
        return {"do": [{"may": [{"attack": "self"}]}], "may": True}

    def can_by(self, items: list[Any]) -> Data:
        # "You can X by Y": by Y, X (CR 15-7)
        return {"do": [*_label(items[1]), {"if": {"did": "paid"}, "then": items[0]}], "by": True}

    def end_attack(self, _: list[Any]) -> Data:
        return {"end_attack": {}}

    def gains_keyword(self, items: list[Any]) -> Data:
        attack = re.fullmatch(r"<security a(?:ttack|\.) ?([+-]\d+)>", str(items[2]).lower())
        if attack:
            change: Data = {"card": items[0], "stat": "security_attack", "by": int(attack.group(1))}
            if len(items) > 3:
                change["until"] = items[3]
            return {"change": change}
        word = _keyword_word(str(items[2]))
        if word is None:
            raise _Unread
        flag: Data = {"card": items[0], "set": word}
        if len(items) > 3:
            flag["until"] = items[3]
        return {"flag": flag}

    def actions(self, items: list[Any]) -> list[Data]:
        return _flat(items)

    # ---- subjects that may act
    def may_attack(self, _: list[Any]) -> str:
        return "attack"

    def may_attack_digimon(self, _: list[Any]) -> Data:
        return {"attack_target": {"zone": "battle", "owner": "opponent", "types": ["digimon"], "pick": 1}}

    def may_battle(self, items: list[Any]) -> Data:
        return {"against": items[0]}

    def may_unsuspend(self, _: list[Any]) -> str:
        return "unsuspend"

    def may_digivolve(self, items: list[Any]) -> Data:
        into = {**items[0], "zone": "hand", "owner": "self"}
        return {"into": into}

    def subject_may(self, items: list[Any]) -> Data:
        target, verb = items
        if verb == "attack":
            action: Data = {"attack": target}
        elif verb == "unsuspend":
            action = {"unsuspend": target}
        elif "attack_target" in verb:
            action = {"attack": {"card": target, "target": verb["attack_target"]}}
        elif "against" in verb:
            action = {"battle": {"card": target, "against": verb["against"]}}
        else:
            action = {"digivolve": {"card": target, **verb}}
        theirs = isinstance(target, dict) and target.get("owner") == "opponent"
        # "this Digimon may …", "1 of your Digimon may …": the player's choice, the effect optional as "you may"
        return {"do": [{"may": [action]}]} if theirs else {"do": [{"may": [action]}], "may": True}

    # ---- clauses
    def then(self, _: list[Any]) -> None:
        return None

    def body(self, items: list[Any]) -> Data:
        return _clause(items[-1])

    def may(self, items: list[Any]) -> Data:
        return {"do": [{"may": items[0]}], "may": True}

    def may_to(self, items: list[Any]) -> Data:
        return {"do": [{"may": [*_label(items[0]), {"if": {"did": "paid"}, "then": items[1]}]}], "may": True}

    def if_clause(self, items: list[Any]) -> Data:
        inner = _clause(items[1])
        return {**inner, "do": [{"if": items[0], "then": inner["do"]}]}

    def by_clause(self, items: list[Any]) -> Data:
        inner = _clause(items[1])
        return {**inner, "do": [*_label(items[0]), {"if": {"did": "paid"}, "then": inner["do"]}], "by": True}

    def when_clause(self, items: list[Any]) -> Data:
        inner = _clause(items[1])
        return {**inner, "trigger": items[0]}

    # ---- conditions
    def memory_cmp(self, items: list[Any]) -> Data:
        return {"player": "self", "counter": "memory", _cmp(items[1]): int(items[0])}

    def hand_cmp(self, items: list[Any]) -> Data:
        return {"count": {"zone": "hand", "owner": "self"}, _cmp(items[1]): int(items[0])}

    def security_cmp(self, items: list[Any]) -> Data:
        return {"count": {"zone": "security", "owner": "self"}, _cmp(items[1]): int(items[0])}

    def opp_memory_cmp(self, items: list[Any]) -> Data:
        # the memory gauge is shared: the opponent's side of it (CR 1-4-2-1, as qa-09-bt13-089.yaml counts it)
        return {"player": "opponent", "counter": "memory", _cmp(items[1]): int(items[0])}

    def opp_security_cmp(self, items: list[Any]) -> Data:
        return {"count": {"zone": "security", "owner": "opponent"}, _cmp(items[1]): int(items[0])}

    def opp_pile_cmp(self, items: list[Any]) -> Data:
        return {"count": {"zone": str(items[2]).lower(), "owner": "opponent"}, _cmp(items[1]): int(items[0])}

    def trash_cmp(self, items: list[Any]) -> Data:
        return {"count": {"zone": "trash", "owner": "self"}, _cmp(items[1]): int(items[0])}

    def tamer_cmp(self, items: list[Any]) -> Data:
        return {"count": {"zone": "battle", "owner": "self", "types": ["tamer"]}, _cmp(items[1]): int(items[0])}

    def opp_has_digimon(self, _: list[Any]) -> Data:
        return {"count": {"zone": "battle", "owner": "opponent", "types": ["digimon"]}, "gte": 1}

    def self_suspended(self, _: list[Any]) -> Data:
        return {"card": "self", "flag": "suspended"}

    def self_unsuspended(self, _: list[Any]) -> Data:
        return {"card": "self", "no_flag": "suspended"}

    def opp_has_none(self, items: list[Any]) -> Data:
        query: Data = {"zone": "battle", "owner": "opponent"}
        for part in items:
            _merge(query, part)
        return {"count": _finish(query), "eq": 0}

    def while_clause(self, items: list[Any]) -> Data:
        inner = _clause(items[1])
        return {**inner, "while": items[0]}

    def until_clause(self, items: list[Any]) -> Data:
        until, actions = items
        out = []
        for action in actions:
            word = next(iter(action))
            if word not in ("change", "flag") or not isinstance(action[word], dict):
                raise _Unread
            out.append({word: {**action[word], "until": until}})
        return {"do": out}

    def you_have(self, items: list[Any]) -> Data:
        items = [item for item in items if not isinstance(item, Token)]
        query: Data = {"zone": "battle", "owner": "self"}
        for part in items:
            _merge(query, part)
        return {"count": _finish(query), "gte": 1}

    def opp_turn(self, _: list[Any]) -> Data:
        return {"turn": "opponent"}

    def my_turn(self, _: list[Any]) -> Data:
        return {"turn": "self"}

    def has_source(self, items: list[Any]) -> Data:
        counts = [{"count": {"zone": "sources", "under": "self", "name": name}, "gte": 1} for name in items[0]]
        return counts[0] if len(counts) == 1 else {"any": counts}

    def did(self, _: list[Any]) -> Data:
        return {"did": "previous"}

    def did_not(self, _: list[Any]) -> Data:
        return {"not": {"did": "previous"}}

    def self_named(self, items: list[Any]) -> Data:
        return _any([_self_is({"name": name}) for name in items[0]])

    def self_trait(self, items: list[Any]) -> Data:
        return _self_is({"types": [_type_word(name) for name in items[0]]})

    def self_text(self, _: list[Any]) -> Data:
        raise _Unread  # no query reads a card's text

    def dont_have_named(self, items: list[Any]) -> Data:
        return {"count": {"zone": "battle", "owner": "self", "name": _name(items[0])}, "eq": 0}

    def have_named(self, items: list[Any]) -> Data:
        return {"count": {"zone": "battle", "owner": "self", "name": _name(items[0])}, "gte": 1}

    # ---- trigger clauses
    def s_owned(self, items: list[Any]) -> Data | str:
        owner, parts = items[0], items[1:]
        return _subject(owner, parts)

    def s_any(self, items: list[Any]) -> Data | str:
        return _subject(None, items)

    def s_another(self, items: list[Any]) -> Data | str:
        subject = _subject(None, items)
        if subject != "any":
            raise _Unread
        return "other"

    def s_self(self, _: list[Any]) -> str:
        return "self"

    def t_self_attacks(self, _: list[Any]) -> Data:
        return {"when": {"event": "attacking", "card": "self"}, "tags": ["untimed"]}

    def t_attacks(self, items: list[Any]) -> Data:
        return {"when": {"event": "attacking", "card": items[-1]}}

    def t_self_suspended(self, _: list[Any]) -> Data:
        return {"when": {"event": "suspended", "card": "self"}}

    def t_suspended(self, items: list[Any]) -> Data:
        return {"when": {"event": "suspended", "card": items[-1]}}

    def t_self_unsuspended(self, _: list[Any]) -> Data:
        return {"when": {"event": "unsuspended", "card": "self"}}

    def t_played_or_digivolved(self, items: list[Any]) -> Data:
        return {"when": {"event": "played", "card": items[0]}, "_also": {"event": "digivolved", "card": items[0]}}

    def t_attacks_player(self, items: list[Any]) -> Data:
        return {"when": {"event": "attacking", "card": items[0]}, "_unread": ["attacks a player"]}

    def t_opp_plays(self, items: list[Any]) -> Data:
        card = items[-1]
        if isinstance(card, dict):
            card = {**card, "owner": "opponent"}
        elif card in ("any", "other"):
            card = "opponent"
        else:
            raise _Unread
        return {"when": {"event": "played", "card": card}}

    def t_would_play(self, items: list[Any]) -> Data:
        return {"when": {"event": "played", "card": items[0]}, "kind": "interrupt"}

    def t_hatched(self, items: list[Any]) -> Data:
        return {"when": {"event": "moved", "card": items[0], "from": "breeding", "to": "battle"}}

    def t_target_switched(self, _: list[Any]) -> Data:
        return {"when": {"event": "flag_set", "flag": "attack_target"}}

    def t_placed_under(self, _: list[Any]) -> Data:
        return {"when": {"event": "moved", "to": "sources"}, "_unread": ["placed under this Digimon"]}

    def t_self_trashed_sources(self, _: list[Any]) -> Data:
        return {"when": {"event": "trashed", "card": "self", "from": "sources", "by": "effect"}}

    def t_opp_sources_trashed(self, _: list[Any]) -> Data:
        return {"when": {"event": "trashed", "from": "sources", "player": "opponent"}}

    def t_checks(self, _: list[Any]) -> Data:
        return {"when": {"event": "checked", "card": "opponent"}}

    def t_unsuspended(self, items: list[Any]) -> Data:
        return {"when": {"event": "unsuspended", "card": items[-1]}}

    def t_self_would_delete(self, _: list[Any]) -> Data:
        return {"when": {"event": "deleted", "card": "self"}, "kind": "interrupt"}

    def t_self_would_delete_battle(self, _: list[Any]) -> Data:
        return {"when": {"event": "deleted", "card": "self", "by": "battle"}, "kind": "interrupt"}

    def t_self_would_leave(self, _: list[Any]) -> Data:
        return {"when": {"event": "moved", "card": "self", "from": "battle"}, "kind": "interrupt"}

    def t_would_delete(self, items: list[Any]) -> Data:
        return {"when": {"event": "deleted", "card": items[-1]}, "kind": "interrupt"}

    def t_would_leave(self, items: list[Any]) -> Data:
        return {"when": {"event": "moved", "card": items[-1], "from": "battle"}, "kind": "interrupt"}

    def t_self_deleted(self, _: list[Any]) -> Data:
        return {"when": {"event": "deleted", "card": "self"}}

    def t_deleted(self, items: list[Any]) -> Data:
        return {"when": {"event": "deleted", "card": items[-1]}}

    def t_played(self, items: list[Any]) -> Data:
        return {"when": {"event": "played", "card": items[-1]}}

    def t_digivolved(self, items: list[Any]) -> Data:
        if items[-1] == "own":  # "one of your Digimon digivolves", as q6698 writes it
            return {"when": {"event": "digivolved", "player": "self"}}
        return {"when": {"event": "digivolved", "card": items[-1]}}

    def t_used(self, items: list[Any]) -> Data:
        posts = [item for item in items if isinstance(item, dict)]
        if len(posts) > 1:
            query: Data = {"owner": "self"}
            for part in posts:
                _merge(query, part)
            return {"when": {"event": "used", "card": _finish(query)}}
        return {"when": {"event": "used", "card": "own"}}

    def t_opp_used(self, items: list[Any]) -> Data:
        return {"when": {"event": "used", "card": "opponent"}}

    def t_security_removed(self, _: list[Any]) -> Data:
        return {"when": {"event": "moved", "from": "security", "player": "self"}}

    def t_opp_security_removed(self, _: list[Any]) -> Data:
        return {"when": {"event": "moved", "from": "security", "player": "opponent"}}

    def t_wins(self, _: list[Any]) -> Data:
        # the opponent's Digimon deleted in a battle against this one (the event's ``against``)
        return {"when": dict(_DELETES_IN_BATTLE)}

    def t_wins_survives(self, _: list[Any]) -> Data:
        # "… and survives": this Digimon is still in the battle area as the effect triggers
        return {"when": dict(_DELETES_IN_BATTLE), "trigger_condition": {"card": "self", "in": "battle"}}

    def t_self_blocks(self, _: list[Any]) -> Data:
        return {"when": {"event": "blocked", "card": "self"}}

    def t_self_trashed_by_effect(self, _: list[Any]) -> Data:
        return {"when": {"event": "trashed", "card": "self", "by": "effect"}}

    def t_at_the_end(self, items: list[Any]) -> Data:
        words = str(items[0]).lower()
        player = "opponent" if "opponent" in words else "self" if "your turn" in words else None
        return {"when": {"event": "end_of_turn", **({"player": player} if player else {})}}

    def t_attack_ends(self, _: list[Any]) -> Data:
        return {"when": {"event": "end_of_attack"}}

    def t_any_used(self, _: list[Any]) -> Data:
        return {"when": {"event": "used", "card": "any"}}

    def t_self_would_play(self, _: list[Any]) -> Data:
        return {"when": {"event": "played", "card": "self"}, "kind": "interrupt"}

    def t_self_would_use(self, _: list[Any]) -> Data:
        return {"when": {"event": "used", "card": "self"}, "kind": "interrupt"}

    def t_self_would_leave_opp(self, _: list[Any]) -> Data:
        return {"when": {**_WOULD_LEAVE, "actor": "opponent"}, "kind": "interrupt"}

    def t_would_leave_opp(self, items: list[Any]) -> Data:
        return {
            "when": {"event": "moved", "card": items[0], "from": "battle", "actor": "opponent"},
            "kind": "interrupt",
        }

    def t_self_would_digivolve(self, _: list[Any]) -> Data:
        return {"when": {"event": "digivolved", "card": "self"}, "kind": "interrupt"}

    def t_self_digivolved(self, _: list[Any]) -> Data:
        return {"when": {"event": "digivolved", "card": "self"}}

    def t_self_linked(self, _: list[Any]) -> Data:
        # a card plugged in as a link card (CR 4-9): a move the game has no zone or event of its own for
        return {"when": {"event": "moved"}, "_unread": ["gets linked"]}

    def t_linked(self, items: list[Any]) -> Data:
        return {"when": {"event": "moved"}, "_unread": ["gets linked"]}

    def t_hand_trashed(self, _: list[Any]) -> Data:
        return {"when": {"event": "trashed", "from": "hand", "player": "self"}}

    def t_hand_trashed_by_you(self, _: list[Any]) -> Data:
        return {"when": {"event": "trashed", "from": "hand", "player": "self", "actor": "self"}}

    def t_burst_trashed(self, _: list[Any]) -> Data:
        return {"when": {"event": "trashed", "card": "self", "from": "sources", "by": "cost"}}

    def t_opp_hand_added(self, _: list[Any]) -> Data:
        return {"when": {"event": "moved", "to": "hand", "player": "opponent", "by": "effect"}}

    def t_hand_added(self, _: list[Any]) -> Data:
        return {"when": {"event": "moved", "to": "hand", "player": "self", "by": "effect"}}

    def t_won_battle(self, _: list[Any]) -> Data:
        return {"when": {"event": "won_battle", "card": "self"}}

    def t_security_added(self, _: list[Any]) -> Data:
        return {"when": {"event": "moved", "to": "security", "player": "self"}}

    def t_self_trashed_from(self, items: list[Any]) -> Data:
        return {"when": {"event": "trashed", "card": "self", "from": _zone_word(items[-1])}}

    def t_self_trashed_from_by_effect(self, items: list[Any]) -> Data:
        return {"when": {"event": "trashed", "card": "self", "from": _zone_word(items[-1]), "by": "effect"}}

    def t_self_trashed_battle(self, _: list[Any]) -> Data:
        return {"when": {"event": "trashed", "card": "self", "from": "battle", "by": "effect"}}

    def t_deck_trashed(self, _: list[Any]) -> Data:
        return {"when": {"event": "trashed", "from": "deck", "player": "self"}}

    def t_any_security_removed(self, _: list[Any]) -> Data:
        return {"when": {"event": "moved", "from": "security", "player": "any"}}

    def t_suspended_by_effect(self, items: list[Any]) -> Data:
        return {"when": {"event": "suspended", "card": items[-1], "by": "effect"}}

    def t_played_by_effect(self, items: list[Any]) -> Data:
        return {"when": {"event": "played", "card": items[-1], "by": "effect"}}

    def t_self_deleted_battle(self, _: list[Any]) -> Data:
        return {"when": {"event": "deleted", "card": "self", "by": "battle"}}

    def t_deleted_by_rule(self, items: list[Any]) -> Data:
        return {"when": {"event": "deleted", "card": items[0], "by": "rule"}}

    def t_self_blocked(self, _: list[Any]) -> Data:
        # the event's card is the blocker (attack.py); this Digimon is the one attacking
        return {
            "when": {"event": "blocked", "card": "opponent"},
            "trigger_condition": {"card": "self", "flag": "attacking"},
        }

    def t_self_attacks_player(self, _: list[Any]) -> Data:
        raise _Unread  # "attacks a player": the pattern has no attack target


def _zone_word(token: Any) -> str:
    text = str(token).lower()
    for word, zone in (("deck", "deck"), ("hand", "hand"), ("security", "security"), ("digivolution", "sources")):
        if word in text:
            return zone
    return "trash"


class _Unread(Exception):
    """A sentence the grammar parsed whose meaning the scenario language
    cannot say (yet): left unread."""


MAIN = "_activate_main"
#: "it" in an effect, until the trigger says which card it is
IT = "_it"


def _merge(query: Data, part: Data) -> None:
    for key, value in part.items():
        if key == "trait_any":
            if "trait_any" in query:
                raise _Unread  # two lists of alternatives in one query: a query has one
            query["trait_any"] = value
        elif key in ("colors", "trait"):
            words = value if isinstance(value, list) else [value]
            query.setdefault("all_types", []).extend(_type_word(word) for word in words)
        elif key == "stat":
            query.setdefault("stat", {}).update(value)
        elif key == "types" and "types" in query:
            query["types"] = [*query["types"], *value]
        elif key == "zone":
            query["zone"] = value
        else:
            query[key] = value
    if "all_types" in query and "types" in query and len(query["types"]) == 1 and "trait_any" not in query:
        query["all_types"] = [*query.pop("types"), *query["all_types"]]


def _cmp_word(token: Any) -> str:
    return "gte" if str(token).split()[-1].lower() in ("higher", "more") else "lte"


def _finish(query: Data) -> Data:
    """A query whose "[A] or [B] trait" is any of its types: the kind of
    card it names is then one all of them have."""
    traits = query.pop("trait_any", None)
    if traits is not None:
        query["all_types"] = [*query.pop("types", []), *query.get("all_types", [])]
        if not query["all_types"]:
            del query["all_types"]
        query["types"] = traits
    return query


def _type_word(word: str) -> str:
    return re.sub(r"[^0-9a-z]+", "_", word.lower()).strip("_")


def _subject(owner: str | None, parts: list[Data]) -> Data | str:
    """A trigger's subject as a pattern's ``card``: the short words where
    they say it all, else a query."""
    plain = [part for part in parts if part != {"types": ["digimon"]}]
    if not plain:
        return {"opponent": "opponent", "own": "own", "own_other": "own_other", None: "any"}[owner]
    query: Data = {}
    if owner is not None:
        query["owner"] = _OWNERS[owner]
    for part in parts:
        _merge(query, part)
    if owner == "own_other":
        raise _Unread
    return _finish(query)


def _cmp(token: Any) -> str:
    return "gte" if str(token).lower() == "more" else "lte"


def _label(actions: list[Data]) -> list[Data]:
    """A cost's actions, the last one labelled ``paid``."""
    if not actions:
        raise _Unread
    return [*actions[:-1], {**actions[-1], "label": "paid"}]


def _clause(item: Any) -> Data:
    if isinstance(item, dict) and "do" in item:
        return item
    return {"do": _flat([item])}


def _from_zone(word: str, card: Data, zone: Data) -> Data:
    if "_names" in card:
        raise _Unread
    return {word: {**card, **zone}}


def _any_zone(word: str, card: Data, zones: list[Data]) -> Data:
    """ "from your hand or trash": one query over the zones (a query's
    ``zone`` may list several), when they are all the player's own."""
    if "_names" in card or any(set(zone) != {"zone", "owner"} or zone["owner"] != "self" for zone in zones):
        raise _Unread
    return {word: {**card, "zone": [zone["zone"] for zone in zones], "owner": "self"}}


def _keyword_word(text: str) -> str | None:
    words = {
        "blocker": "blocker",
        "piercing": "piercing",
        "reboot": "reboot",
        "jamming": "jamming",
        "rush": "rush",
        "raid": "raid",
        "retaliation": "retaliation",
        "barrier": "barrier",
        "evade": "evade",
        "collision": "collision",
        "alliance": "alliance",
    }
    return words.get(text.strip("<>").lower())


# -- the header ---------------------------------------------------------------------

#: timing header → (name, trigger pattern, extra keys)
EVENTS: dict[str, tuple[str, Data, Data]] = {
    "on play": ("on_play", {"event": "played", "card": "self"}, {}),
    "when digivolving": ("when_digivolving", {"event": "digivolved", "card": "self"}, {}),
    "when attacking": ("when_attacking", {"event": "attacking", "card": "self"}, {}),
    "on deletion": ("on_deletion", {"event": "deleted", "card": "self"}, {}),
    "end of attack": (
        "end_of_attack",
        {"event": "end_of_attack"},
        {"trigger_condition": {"card": "self", "flag": "attacking"}},
    ),
    "start of your turn": ("start_of_your_turn", {"event": "start_of_turn", "player": "self"}, {}),
    "start of opponent's turn": ("start_of_opponents_turn", {"event": "start_of_turn", "player": "opponent"}, {}),
    "end of your turn": ("end_of_your_turn", {"event": "end_of_turn", "player": "self"}, {}),
    "end of opponent's turn": ("end_of_opponents_turn", {"event": "end_of_turn", "player": "opponent"}, {}),
    "at end of opponent's turn": ("end_of_opponents_turn", {"event": "end_of_turn", "player": "opponent"}, {}),
    "end of all turns": ("end_of_all_turns", {"event": "end_of_turn"}, {}),
    # no event marks the main phase (docs/events.md): its start is read as the start of the turn
    "start of your main phase": ("start_of_your_main_phase", {"event": "start_of_turn", "player": "self"}, {}),
    "start of opponent's main phase": (
        "start_of_opponents_main_phase",
        {"event": "start_of_turn", "player": "opponent"},
        {},
    ),
    "when moving": ("when_moving", {"event": "moved", "card": "self", "from": "breeding", "to": "battle"}, {}),
    "counter": ("counter", {"event": "counter_timing", "player": "self"}, {}),
    "security": (
        "security",
        {"event": "checked", "card": "self"},
        {"tags": ["security"], "active_in": ["security", "revealed"]},
    ),
}
TURNS = {"your turn": {"turn": "self"}, "opponent's turn": {"turn": "opponent"}, "all turns": None}
ZONES = {"hand": "hand", "trash": "trash", "breeding": "breeding"}


@frozen
class Head:
    """What an effect's headers say."""

    inherited: bool = False
    events: tuple[str, ...] = ()
    turn: str | None = None
    per_turn: int | None = None
    zone: str | None = None
    main: bool = False
    keywords: tuple[str, ...] = ()


def read_head(tree: Tree[Any]) -> Head:  # its parts: the INHERITED token, or trees of one token
    inherited, events, keywords = False, [], []
    turn = zone = None
    per_turn: int | None = None
    main = False
    for item in tree.children:
        if isinstance(item, Token) and item.type == "INHERITED":
            inherited = True
            continue
        first = cast(Token, item.children[0])  # a header's parts are each one token
        word = str(first)
        low = word.lower()
        if first.type == "KEYWORD_ABILITY":
            keywords.append(word)
        elif low in EVENTS:
            events.append(low)
        elif low in TURNS:
            turn = low
        elif low in ("once per turn", "twice per turn"):
            per_turn = 1 if low.startswith("once") else 2
        elif low in ZONES:
            zone = ZONES[low]
        elif low == "main":
            main = True
    if "security" in events and turn is not None:
        # "[Security] [Opponent's Turn] …": the {Security} icon, an effect that works while the card is face up
        # in the security stack (CR 15-14-5), not the [Security] timing of its check
        events.remove("security")
        zone = "security"
    return Head(inherited, tuple(events), turn, per_turn, zone, main, tuple(keywords))


# -- keywords that are abilities (CR 16), per their reminder text ----------------------

_ATTACK_TARGET: Data = {
    "zone": "battle",
    "owner": "opponent",
    "types": ["digimon"],
    "no_flag": "suspended",
    "highest": "dp",
    "pick": 1,
}
_PREVENT_IF_PAID: Data = {"if": {"did": "paid"}, "then": [{"prevent": {}}]}
_DELETED: Data = {"event": "deleted", "card": "self"}
_WOULD_LEAVE: Data = {"event": "moved", "card": "self", "from": "battle"}
#: keyword → (its ability without ``do``, its ``do`` or None when not read)
KEYWORDS: dict[str, tuple[Data, list[Data] | None]] = {
    "raid": (
        {"when": {"event": "attacking", "card": "self"}, "optional": True, "tags": ["keyword"]},
        [{"flag": {"card": _ATTACK_TARGET, "set": "attack_target"}}],
    ),
    "retaliation": (
        {
            "when": {**_DELETED, "by": "battle"},
            "tags": ["keyword"],
            "trigger_condition": {"card": "event.against", "in": "battle"},
        },
        [{"delete": "event.against"}],
    ),
    "armor purge": (
        {"kind": "interrupt", "optional": True, "when": _DELETED, "tags": ["keyword"]},
        [{"trash_top": "self"}, {"prevent": {}}],
    ),
    "evade": (
        {
            "kind": "interrupt",
            "optional": True,
            "when": _DELETED,
            "tags": ["keyword"],
            "condition": {"card": "self", "no_flag": "suspended"},
        },
        [{"suspend": "self"}, {"prevent": {}}],
    ),
    "barrier": (
        {"kind": "interrupt", "optional": True, "when": {**_DELETED, "by": "battle"}, "tags": ["keyword"]},
        [{"trash": {"zone": "security", "owner": "self", "top": 1}, "label": "paid"}, _PREVENT_IF_PAID],
    ),
    "fortitude": (  # CR 16-27-3: its processing is mandatory
        {
            "when": _DELETED,
            "tags": ["keyword"],
            "condition": {"at_trigger": {"count": {"zone": "sources", "under": "self"}, "gte": 1}},
        },
        [{"play": "self"}],
    ),
    "scapegoat": (
        {"kind": "interrupt", "optional": True, "when": {**_DELETED, "actor": "opponent"}, "tags": ["keyword"]},
        [
            {
                "delete": {"zone": "battle", "owner": "self", "types": ["digimon"], "exclude": "self", "pick": 1},
                "label": "paid",
            },
            _PREVENT_IF_PAID,
        ],
    ),
    "decoy": (
        {
            "kind": "interrupt",
            "optional": True,
            "when": {"event": "deleted", "card": "own_other", "actor": "opponent"},
            "tags": ["keyword"],
        },
        None,
    ),
    "alliance": ({"when": {"event": "attacking", "card": "self"}, "optional": True, "tags": ["keyword"]}, None),
    "partition": ({"kind": "interrupt", "optional": True, "when": _WOULD_LEAVE, "tags": ["keyword"]}, None),
    "decode": ({"kind": "interrupt", "optional": True, "when": _WOULD_LEAVE, "tags": ["keyword"]}, None),
    "fragment": ({"kind": "interrupt", "optional": True, "when": _DELETED, "tags": ["keyword"]}, None),
    "material save": ({"when": _DELETED, "optional": True, "tags": ["keyword"]}, None),
    "overclock": ({"when": {"event": "end_of_turn", "player": "self"}, "optional": True, "tags": ["keyword"]}, None),
    "execute": ({"when": {"event": "end_of_turn", "player": "self"}, "optional": True, "tags": ["keyword"]}, None),
    "vortex": (  # CR 16-33-3: its processing is optional
        {"when": {"event": "end_of_turn", "player": "self"}, "optional": True, "tags": ["keyword"]},
        [
            {
                "attack": {
                    "card": "self",
                    "target": {"zone": "battle", "owner": "opponent", "types": ["digimon"], "pick": 1},
                }
            }
        ],
    ),
}
#: <Blast Digivolve>'s effect
BLAST: Data = {
    "digivolve": {"card": {"zone": "battle", "owner": "self", "types": ["digimon"], "pick": 1}, "into": "self"}
}
#: <Delay> (CR 16-17), as cr-16-17-3-delay-not-the-turn-it-was-placed.yaml writes it
DELAY: Data = {
    "kind": "activated",
    "condition": {"not": {"happened": {"event": "moved", "card": "self", "to": "battle"}}},
    "cost": [{"trash": "self"}],
}
#: keywords that are a rule about the Digimon: it carries the flag (``has: blocker``)
FLAG_KEYWORDS = ("blocker", "piercing", "reboot", "jamming", "rush", "collision", "iceclad", "ice clad", "progress")


def keyword_ability(word: str) -> tuple[Data, list[str]]:
    """The ability a keyword printed alone is (its reminder text), and the
    words of it not read."""
    inner = word.strip("<>").strip()
    low = inner.lower()
    attack = re.fullmatch(r"security a(?:ttack|\.) ?([+-]\d+)", low)
    if attack:
        return {
            "kind": "continuous",
            "do": [{"change": {"card": "self", "stat": "security_attack", "by": int(attack.group(1))}}],
        }, []
    key = next((name for name in KEYWORDS if low.startswith(name)), None)
    if key is None:
        return {"kind": "continuous"}, [word]
    header, do = KEYWORDS[key]
    if do is None:
        return dict(header), [word]
    return {**header, "do": do}, []


# -- the reader ---------------------------------------------------------------------


def _parser(start: str) -> Lark:
    """The grammar's parser for one start rule (built once)."""
    return grammar(__package__, "digimon.lark", start=start, parser="lalr")


_RULE_LINE = re.compile(r"^(\[Rule\]|Trait: |Name: |Digivolve |DigiXros )", re.IGNORECASE)
#: sentences that are a rule about the card itself: how it may be used, what it is named
_RULE_SENTENCE = re.compile(
    r"color requirements|also treated as|name is also|as if its name|may also be placed for this card's DigiXros",
    re.IGNORECASE,
)
#: a whole part in parentheses that is an effect of its own, not a keyword's reminder (DigiXros cards)
_NAMELESS = re.compile(r"\((When [^()]*)\)\.?")
_INHERITED_MARK = re.compile(r" ?\(inherited\)", re.IGNORECASE)
_GLUED = re.compile(r"(?<=[a-z)]\.)(?=[A-Z\[<])")


_WHEN = re.compile(
    r"^(When |Whenever |At the end of |If [^,]* would |If [^,]* becomes? (un)?suspended,)", re.IGNORECASE
)


def _read(start: str, words: str) -> Any:
    """The words read from the grammar's rule ``start`` into scenario data,
    or None when they do not parse or say what the language cannot (a
    broken grammar is an error, not words unread)."""
    try:
        return _Build().transform(_parser(start).parse(words))
    except (UnexpectedInput, _Unread):
        return None
    except VisitError as error:
        if isinstance(error.orig_exc, _Unread):
            return None
        raise


def _sentence(sentence: str) -> Data | None:
    read = _read("sentence", sentence)
    return None if read is None else _clause(read)


def _trigger_only(sentence: str) -> Data | None:
    """A sentence "When …, …" that does not read whole: the words up to one
    of its commas read as a trigger clause — exactly, else loosely (by its
    verb, the words around it unread) — and the rest read as a sentence of
    its own if it can be (else it is unread, under ``_rest``)."""
    commas = [match.start() for match in re.finditer(",", sentence)]
    for comma in commas:
        trigger = _read("trigger", sentence[:comma])
        if trigger is not None:
            return _with_rest(trigger, sentence[comma + 1 :])
    loose = grammar(__package__, "digimon.lark", start="loose", parser="earley", ambiguity="resolve")
    for comma in commas[:4]:
        try:
            trigger = _loose(loose.parse(sentence[:comma]), sentence[:comma])
        except (UnexpectedInput, _Unread):
            continue
        return _with_rest(trigger, sentence[comma + 1 :])
    return None


def _granted_keyword(words: str) -> str | None:
    """The keyword a "While …, this Digimon gains <X>." effect grants, if
    it is one that is an ability of its own (not a rule word)."""
    parser = grammar(__package__, "digimon.lark", start="gains_keyword", parser="earley", ambiguity="resolve")
    try:
        tree = parser.parse(words.strip())
    except UnexpectedInput:
        return None
    granted = [str(child) for child in tree.children if isinstance(child, Token) and child.type == "KEYWORD_ABILITY"]
    abilities = [word for word in granted if _keyword_reads(word)]
    return abilities[0] if len(abilities) == 1 else None  # "gains <Rush> and <Retaliation>": <Retaliation>'s


def _keyword_reads(word: str) -> bool:
    """Whether a keyword is an ability the reader writes (its effect read)."""
    low = word.strip("<>").lower()
    key = next((name for name in KEYWORDS if low.startswith(name)), None)
    return key is not None and KEYWORDS[key][1] is not None


def _lead(words: str) -> Data:
    """What the leading words of an effect not read say of its header:
    "you may …" or "By <cost>, …" make it optional."""
    parser = grammar(__package__, "digimon.lark", start="lead", parser="earley", ambiguity="resolve")
    try:
        tree = parser.parse(words.strip())
    except UnexpectedInput:
        return {}
    return {"may": True} if tree.data == "lead_may" else {"by": True}


def _with_rest(trigger: Data, rest: str) -> Data:
    clause = _sentence(rest.strip())
    if clause is None or "trigger" in clause:
        return {"trigger": trigger, "do": [], "_rest": rest.strip()}
    return {**clause, "trigger": trigger}


#: "this Digimon deletes an opponent's Digimon in battle": that Digimon's deletion by a battle against this one
_DELETES_IN_BATTLE: Data = {"event": "deleted", "by": "battle", "player": "opponent", "against": "self"}

#: a loose trigger's verb → its event and kind
_VERBS = {
    "v_would_delete": ("deleted", "interrupt"),
    "v_would_leave": ("moved", "interrupt"),
    "v_would_play": ("played", "interrupt"),
    "v_would_digivolve": ("digivolved", "interrupt"),
    "v_deleted": ("deleted", "triggered"),
    "v_played": ("played", "triggered"),
    "v_digivolved": ("digivolved", "triggered"),
    "v_attacks": ("attacking", "triggered"),
    "v_suspended": ("suspended", "triggered"),
    "v_unsuspended": ("unsuspended", "triggered"),
    "v_trashed": ("trashed", "triggered"),
    "v_returned": ("returned", "triggered"),
    "v_deletes": ("deleted", "triggered"),
    "v_checks": ("checked", "triggered"),
    "v_is_blocked": ("blocked", "triggered"),
    "v_placed": ("moved", "triggered"),
    "v_leaves": ("moved", "triggered"),
    "v_moves": ("moved", "triggered"),
    "v_added": ("moved", "triggered"),
    "v_removed": ("moved", "triggered"),
}
#: what the verb says beyond its event: the pattern's keys
_VERB_KEYS: dict[str, Data] = {
    "v_would_leave": {"from": "battle"},
    "v_leaves": {"from": "battle"},
    "v_moves": {"from": "breeding", "to": "battle"},
    "v_placed": {"to": "sources"},
    "v_added": {"to": "hand"},
    "v_removed": {"from": "security"},
}


def _loose(tree: Tree[Token], words: str) -> Data:
    """A trigger read by its verb alone: whose card from the words before it
    ("this" its own, "opponent's" theirs, "your" the player's), the whole
    clause left unread."""
    verb = next(child for child in tree.children if isinstance(child, Tree))
    becomes = verb.data in ("v_suspended", "v_unsuspended") and re.search(r"\bbecomes?\b", words) is not None
    if (
        cast(Token, tree.children[0]).type == "IF"
        and not verb.data.startswith("v_would")
        and " would " not in f" {words} "
    ):
        if not becomes:  # "If … becomes suspended" is an event (an older wording of "When …")
            raise _Unread  # "If …" is a condition, unless it says what would happen
    event, kind = _VERBS[verb.data]
    at = tree.children.index(verb)
    before = " ".join(str(child) for child in tree.children[:at]).lower()
    after = " ".join(str(child) for child in tree.children[at + 1 :]).lower()
    when: Data = {"event": event, "card": _whose(before), **_VERB_KEYS.get(str(verb.data), {})}
    data: Data = {"when": when, "_unread": [words]}
    if verb.data in ("v_deletes", "v_checks"):  # the card it deletes or checks is the event's
        when["card"] = "opponent" if "opponent" in after else "any"
        if "battle" in after:
            when["by"] = "battle"
    elif verb.data == "v_is_blocked":  # the event's card is the blocker (attack.py)
        when["card"] = "opponent"
        data["trigger_condition"] = {"card": "self", "flag": "attacking"}
    if " would " in f" {before} ":  # "When an opponent's effect would delete this Digimon"
        kind = "interrupt"
        when["card"] = _whose(after) if verb.data == "v_deletes" else when["card"]
        when.pop("by", None)
    if kind != "triggered":
        data["kind"] = kind
    return data


def _whose(words: str) -> str:
    if re.search(r"\bthis\b|\bit\b", words):
        return "self"
    if "opponent" in words:
        return "opponent"
    return "own" if "your" in words else "any"


def _rule_first(part: str) -> list[str]:
    """A part that opens with rule sentences about the card (its color
    requirements, its name): each of them a part, then the rest."""
    if not _RULE_SENTENCE.search(part) or _HEAD.match(part).group(0):  # type: ignore[union-attr]
        return [part]
    pieces = sentences(part)
    for index, sentence in enumerate(pieces):
        if not _RULE_SENTENCE.search(sentence):
            return [*pieces[:index], " ".join(pieces[index:])]
    return pieces


class DigimonReader(TextReader):
    """Digimon card text into abilities (see the module's docstring)."""

    game = "digimon"

    def parts(self, text: str, types: Sequence[str]) -> Iterable[str]:
        if text.lower().startswith("(paraphrase"):
            return [text]  # marked as the file's own words: one part, not read (read_part)
        out: list[str] = []
        for line in _GLUED.sub(" ", text).split("\n"):
            if _INHERITED_MARK.search(line):  # "(inherited)", as the scenario files mark an inherited effect
                line = "Inherited Effect: " + _INHERITED_MARK.sub("", line).strip()
            if out and (line.startswith(("・", "(", "-")) or line == "."):
                out[-1] = f"{out[-1]} {line}"  # a choice, reminder text or a stop belongs to the effect above
                continue
            inherited = line.startswith("Inherited Effect:")
            for index, part in enumerate(cut(line)):
                part = f"Inherited Effect: {part}" if inherited and index else part
                out.extend(_rule_first(part))
        return out

    def read_part(self, words: str, types: Sequence[str]) -> Sequence[ReadAbility | Skipped] | None:
        if words.lower().startswith("(paraphrase"):
            return None  # a scenario file's own words for the effect, not the printed card: not read as printed
        if _REQUIREMENT.match(words):
            return [Skipped(words, "a digivolution requirement, not an effect")]
        nameless = _NAMELESS.fullmatch(words)
        if nameless:  # "(When this Digimon would be deleted, you may place …)": an effect printed in parentheses
            return self.read_part(nameless.group(1) + ".", types)
        if _RULE_LINE.match(words) or (
            _RULE_SENTENCE.search(words) and len(sentences(words)) == 1 and not _HEAD.match(words).group(0)  # type: ignore[union-attr]
        ):
            return [Skipped(words, "a rule of the card (a name, a trait, a requirement), not an effect")]
        prefix = _HEAD.match(words)
        head_words = prefix.group(0).strip() if prefix else ""
        try:
            head = read_head(_parser("head").parse(head_words))
        except UnexpectedInput:
            return None
        body = words[len(prefix.group(0)) if prefix else 0 :].strip()
        body, skipped = without_reminders(body)
        if not body.strip(" .") and skipped and not (head.events or head.main or head.keywords or head.turn):
            return [Skipped(words, "reminder text")]
        read = self.read_effect(words, head, body)
        if read is None:
            return None
        return [*read, *skipped]

    def read_effect(self, words: str, head: Head, body: str) -> list[ReadAbility | Skipped] | None:
        """The abilities of one effect: one per timing header, each with the
        body read sentence by sentence."""
        if head.keywords and not head.events and not head.main and not head.turn and not body.strip(" ."):
            return [self.keyword(words, head, word) for word in head.keywords]
        clauses, unread = self.read_body(body, head)
        if head.main and head.keywords == ("<Delay>",):  # CR 16-17: "by trashing this card in your battle area, …"
            data = _with_head({**DELAY, "do": [action for clause in clauses for action in clause["do"]]}, head)
            return [ReadAbility(words, data, "delay", tuple(unread))]
        if head.keywords == ("<Blast Digivolve>",) and not clauses:
            # "(One of your Digimon may digivolve into this card without paying the cost.)", as qa-18 writes it
            clauses = [{"do": [BLAST], "by": True}]
        elif head.keywords:
            unread = [" ".join(head.keywords), *unread]
        bases = self.bases(head, clauses, bool(_WHEN.match(body)), body)
        if clauses and "trigger" in clauses[0]:
            unread = [*clauses[0]["trigger"].get("_unread", []), *unread]
        if bases is None:
            return None
        out: list[ReadAbility | Skipped] = []
        for name, base in bases:
            data = _assemble(base, head, clauses)
            if data.get("kind") == "continuous" and any(set(action) != {"change"} for action in data["do"]):
                # a lasting effect that is not a stat change: the language cannot say it
                data, unread = {**data, "do": []}, [*unread, *(s for s in sentences(body) if s not in unread)]
            out.append(ReadAbility(words, data, name, tuple(unread)))
        return out

    def keyword(self, words: str, head: Head, word: str) -> ReadAbility | Skipped:
        if word.strip("<>").lower() in FLAG_KEYWORDS:
            return Skipped(
                words, f"a keyword the rules apply: the card's type word {_type_word(word)!r} (docs/digimon.md)"
            )
        data, unread = keyword_ability(word)
        name = _type_word(re.sub(r"[^A-Za-z ]", "", word.strip("<>")).strip() or "keyword")
        return ReadAbility(words, _with_head(data, head), "inherited" if head.inherited else name, tuple(unread))

    def read_body(self, body: str, head: Head) -> tuple[list[Data], list[str]]:
        """The clauses of the sentences read, and the sentences not read.  A
        first sentence "When …, …" whose effect does not read keeps its
        trigger (an empty clause with it), so its header is still read."""
        clauses: list[Data] = []
        unread: list[str] = []
        for index, sentence in enumerate(sentences(body)):
            clause = _sentence(sentence)
            if clause is None and index == 0 and _WHEN.match(sentence):
                clause = _trigger_only(sentence)
                if clause is not None and "_rest" in clause:
                    rest = clause.pop("_rest")
                    unread.append(rest)
                    clause.update(_lead(rest))
                elif clause is None:  # a "When …" that is no trigger: what follows its comma may be optional
                    rest = sentence.split(",", 1)[-1]
                    clauses.append({"do": [], **_lead(rest)})
                    unread.append(sentence)
                    continue
            elif clause is None and index == 0:
                clause = {"do": [], **_lead(sentence)}
                unread.append(sentence)
                clauses.append(clause)
                continue
            if clause is None:
                unread.append(sentence)
            else:
                clauses.append(clause)
        return clauses, unread

    def bases(
        self, head: Head, clauses: list[Data], untimed_when: bool, body_words: str = ""
    ) -> list[tuple[str, Data]] | None:
        """Each ability's header keys, with its name; None when there is no
        header at all."""
        trigger = clauses[0].get("trigger") if clauses else None
        out: list[tuple[str, Data]] = []
        for event in head.events:
            name, when, extra = EVENTS[event]
            out.append((name, {"when": dict(when), **extra}))
        if head.main:
            out.append(("main", {"kind": "activated"}))
        if not out and trigger is not None:
            base = {key: value for key, value in trigger.items() if not key.startswith("_")}
            out.append(("effect", base))
            if "_also" in trigger:  # "when … are played or digivolve": one ability a trigger event
                out.append(("effect", {**base, "when": trigger["_also"]}))
        if not out and (head.turn or head.zone) and body_words:
            granted = _granted_keyword(body_words)
            if granted is not None:  # "While …, this Digimon gains <Evade>": that keyword's ability, while …
                out.append(
                    (
                        _type_word(granted.strip("<>")),
                        {k: v for k, v in keyword_ability(granted)[0].items() if k != "do"},
                    )
                )
        if not out and untimed_when:
            return None  # a "When …" effect whose trigger is not read: its header is not read
        if not out and (head.turn or head.zone or head.per_turn):
            out.append(("effect", {"kind": "continuous"}))
        if not out:
            return None
        if head.inherited:
            out = [("inherited", base) for _, base in out]
        return out

    def read(self, text: str, types: Sequence[str] = ()) -> Reading:
        """The text read; "activate this card's [Main] effect" takes the
        actions of the card's own [Main] effect."""
        reading = super().read(text, types)
        main = next((part for part in reading.abilities if part.name == "main"), None)
        parts: list[ReadAbility | Skipped] = []
        for part in reading.parts:
            if isinstance(part, ReadAbility) and _has_main(part.data.get("do", [])):
                if main is None or main.unread:
                    part = evolve(
                        part, data=_drop_main(part.data), unread=(*part.unread, "Activate this card's [Main] effect.")
                    )
                else:
                    part = evolve(part, data=_with_main(part.data, main.data.get("do", [])))
            parts.append(part)
        return evolve(reading, parts=tuple(parts))


def _has_main(actions: list[Data]) -> bool:
    return any(MAIN in action for action in actions)


def _with_main(data: Data, main: list[Data]) -> Data:
    do: list[Data] = []
    for action in data["do"]:
        do.extend(main if MAIN in action else [action])
    return {**data, "do": do}


def _drop_main(data: Data) -> Data:
    return {**data, "do": [action for action in data["do"] if MAIN not in action]}


def _with_head(data: Data, head: Head) -> Data:
    """An ability's data with what its headers add: the turn it works in,
    its uses a turn, the zone it works from."""
    data = dict(data)
    kind = data.get("kind", "triggered")
    turn = TURNS[head.turn] if head.turn else None
    if turn:
        key = "condition" if kind in ("continuous", "activated") else "trigger_condition"
        data[key] = _all(data.get(key), turn)
    if head.per_turn == 1:
        data["once_per_turn"] = True
    elif head.per_turn == 2:
        data["per_turn"] = 2
    if head.inherited:
        data["active_in"] = "sources"
    elif head.zone:
        data["active_in"] = head.zone
    elif kind != "activated" and "active_in" not in data:
        # a card's own effect works while it is in play, in the battle area (not from the breeding
        # area, CR 3-4-7-4), wherever the card starts: a Digimon played from under another sees its
        # own [On Play] (the differential of issue 38 item 6: triggered-01's Garurumon)
        data["active_in"] = "battle"
    return data


def _all(first: Data | None, second: Data) -> Data:
    return second if first is None else {"all": [first, second]}


def _assemble(base: Data, head: Head, clauses: list[Data]) -> Data:
    """One ability from its header keys and the clauses of its sentences."""
    data = dict(base)
    do: list[Data] = []
    for clause in clauses:
        do.extend(clause["do"])
    first = clauses[0] if clauses else {}
    if first.get("while") is not None:
        if data.get("kind") == "continuous" and len(clauses) == 1:
            data["condition"] = first["while"]
        else:
            do = [{"if": first["while"], "then": first["do"]}, *do[len(first["do"]) :]]
    if first.get("may") or first.get("by"):
        if data.get("kind") not in ("continuous", "activated"):  # a player who activates does not decline
            data["optional"] = True
            if first.get("may") and len(clauses) == 1 and len(do) == 1 and "may" in do[0]:
                do = list(do[0]["may"])
    # "it" is the card the trigger is about: this card, or the event's
    card = data.get("when", {}).get("card", "self") if isinstance(data.get("when"), dict) else "self"
    data["do"] = _replace(do, IT, "self" if card == "self" else "event.card")
    return _with_head(data, head)


def _replace(value: Any, old: str, new: str) -> Any:
    if value == old:
        return new
    if isinstance(value, list):
        return [_replace(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: _replace(item, old, new) for key, item in value.items()}
    return value


READER = DigimonReader()
