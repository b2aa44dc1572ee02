"""Disney Lorcana's printed text, read into abilities.

One ability a line, as the cards print them:

- a **named ability**: its name in capitals ("FRESH INK"), then its text;
  the name becomes the ability's id;
- a **triggered ability**: "When …", "Whenever …", "At the start/end of
  … turn", the trigger condition up to the first comma (the grammar's
  ``trigger``), then the effect sentence by sentence (``sentence``); "you
  may" leading the effect makes it optional; "During your turn, whenever
  …" is a trigger condition (``{turn: self}``);
- an **activated ability**: "COST — EFFECT" ({E}, N {I}, banishing it);
  ink is not modelled, so only {E} and a banish are kept as costs;
- a **keyword**: Bodyguard, Challenger +N, Evasive, Rush, Ward, Resist +N,
  Singer N, Shift N, Reckless… are rules of challenging, singing and
  playing the scenario language does not model (:class:`Skipped`), as is
  reminder text in parentheses.

"Chosen" in Lorcana is chosen as the effect resolves (not targeted): a
query with ``pick``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any

from attrs import evolve
from lark import Token, Tree
from lark.exceptions import LarkError
from tcgtrig.printed import ReadAbility, Skipped, TextReader, Unreadable, grammar, number, without_reminders

_PARSER = functools.partial(grammar, __package__, "lorcana.lark", parser="earley", ambiguity="resolve")

#: keywords that are rules of challenging, questing, singing or playing the core does not model
RULE_KEYWORDS = re.compile(
    r"(bodyguard|evasive|rush|ward|reckless|alert|vanish|challenger [+-]\d+|resist [+-]\d+|singer \d+"
    r"|shift \d+( \{I\})?|shift: .+|[a-z ]+ shift \d+( \{I\})?|sing together \d+|boost \d+ \{I\})",
    re.IGNORECASE,
)
_STATS = {"{S}": "strength", "{W}": "willpower", "{L}": "lore"}
#: an ability's name: words in capitals before its text
_NAME = re.compile(r"^((?:['A-Z0-9][A-Z0-9'’,.!?&\-]*\s)+?)(?=[A-Z][a-z]|\{|[0-9]+ \{I\})")
#: a name printed otherwise (in title case): the words before a trigger's opening
_TITLED = re.compile(
    r"^([A-Z][^.:]*?) (?=(?:When|Whenever|At the (?:start|end) of|During your turn|Once during your turn) )"
)
_TRIGGER = re.compile(
    r"^(?:(During your turn|During an opponent's turn|Once during your turn), )?(When|Whenever|At) (.+?), (.+)$", re.I
)
_ACTIVATED = re.compile(r"^(.+?) [—-] (.+)$")
_SENTENCE = re.compile(r"(?<=\.)\s+(?=[A-Z])|, then ")


def _trees(tree: Tree[Token]) -> list[Tree[Token]]:
    return [child for child in tree.children if isinstance(child, Tree)]


def _tokens(tree: Tree[Token]) -> list[Token]:
    return [child for child in tree.children if isinstance(child, Token)]


def _query(trees: list[Tree[Token]], tokens: list[Token]) -> dict[str, Any]:
    """A query of cards in play from qualifiers, a noun and "of yours"."""
    query: dict[str, Any] = {"zone": "play"}
    for part in trees:
        kind = part.data
        if kind == "opposing":
            query["owner"] = "opponent"
        elif kind == "yours":
            query["owner"] = "self"
        elif kind == "damaged":
            query["stat"] = {"damage": {"gte": 1}}
        elif kind == "exerted":
            query["flag"] = "exerted"
        elif kind == "ready":
            query["no_flag"] = "exerted"
        elif kind == "other":
            query["exclude"] = "self"
        elif kind in ("character", "item", "location"):
            query["types"] = [kind]
        elif kind in ("character_or_location", "item_or_location"):
            query["types"] = kind.split("_or_")
        elif kind in ("stat_lte", "stat_gte"):
            amount, stat = _tokens(part)
            query["stat"] = {_STATS[str(stat)]: {kind[-3:]: number(amount)}}
        else:  # cost: not a stat the scenario gives
            raise Unreadable(kind)
    return query


def _object(tree: Tree[Token]) -> Any:
    """The cards an effect acts on, from ``object``."""
    kind = str(tree.data)
    if kind == "obj_self":
        return "self"
    if kind == "obj_it":
        return "event.card"
    if kind == "obj_your_others":
        return {"zone": "play", "owner": "self", "types": ["character"], "exclude": "self"}
    if kind == "obj_yours":
        return {"zone": "play", "owner": "self", "types": ["character"]}
    query = _query(_trees(tree), _tokens(tree))
    if kind == "obj_all":
        return query
    if kind == "obj_chosen_other":
        query["exclude"] = "self"
    query["pick"] = 1
    if kind == "obj_chosen_upto":
        query["pick"] = number(_tokens(tree)[0])
        query["upto"] = True
    return query


def _action(tree: Tree[Token]) -> list[dict[str, Any]]:
    """The actions of one effect.

    Why one function: one branch per printed template, each a line or two."""
    kind = str(tree.data)
    trees, tokens = _trees(tree), _tokens(tree)
    if kind in ("draw", "each_draws"):
        count = 1 if trees[0].data == "one" else number(_tokens(trees[0])[0])
        if kind == "each_draws":
            return [{"draw": {"player": who, "count": count}} for who in ("self", "opponent")]
        return [{"draw": count}]
    if kind == "gain_lore":
        return [{"gain_lore": number(tokens[0])}]
    if kind == "opponents_lose":
        return [{"lose": {"player": "opponent", "counter": "lore", "amount": number(tokens[0])}}]
    if kind == "you_lose":
        return [{"lose": {"counter": "lore", "amount": number(tokens[0])}}]
    if kind in ("banish", "exert", "ready"):
        return [{kind: _object(trees[0])}]
    if kind == "damage":
        return [{"deal_damage": {"card": _object(trees[0]), "amount": number(tokens[0])}}]
    if kind == "damage_from":
        if trees[0].data != "obj_self":
            raise Unreadable("damage from another card")
        return [{"deal_damage": {"card": _object(trees[1]), "amount": number(tokens[0])}}]
    if kind == "bounce":
        return [{"move": {"card": _object(trees[0]), "to": "hand"}}]
    if kind == "raise_hand":
        card = {"zone": "discard", "owner": "self", "types": [trees[0].data], "pick": 1}
        return [{"move": {"card": card, "to": "hand"}}]
    if kind == "raise_self":
        return [{"move": {"card": "self", "to": "hand"}}]
    if kind in ("pump", "pump_long"):
        if kind == "pump_long":
            raise Unreadable("until the start of your next turn")
        card = _object(trees[0])
        pairs = zip(tokens[0::2], tokens[1::2], strict=True)
        return [
            {"change": {"card": card, "stat": _STATS[str(stat)], "by": int(str(by)), "until": "end_of_turn"}}
            for by, stat in pairs
        ]
    if kind == "opponents_discard":
        return [{"discard": {"zone": "hand", "owner": "opponent", "pick": 1, "chooser": "opponent"}}]
    if kind in ("opponents_banish", "opponents_exert"):
        query = {"zone": "play", "owner": "opponent", "types": ["character"], "pick": 1, "chooser": "opponent"}
        if kind == "opponents_exert":
            query["no_flag"] = "exerted"
        return [{kind.split("_")[1]: query}]
    if kind == "you_discard":
        return [{"discard": {"zone": "hand", "owner": "self", "pick": 1}}]
    if kind == "if_you_do":
        return [{"if": {"did": "previous"}, "then": _action(trees[0])}]
    if kind == "may":
        return [{"may": _action(trees[0])}]
    if kind == "gains":
        flag = str(tokens[0]).lower().split(" ")[0]
        return [{"flag": {"card": _object(trees[0]), "set": flag, "until": "end_of_turn"}}]
    if kind in ("ink_self", "ink_top", "ink_self_ready"):
        inked: Any = "self" if kind != "ink_top" else {"zone": "deck", "owner": "self", "top": 1}
        flags = ["face_down", "exerted"] if kind != "ink_self_ready" else ["face_down"]
        return [{"move": {"card": inked, "to": "inkwell", "as": "inked", "flags": flags}}]
    raise Unreadable(kind)


_SELF_EVENTS: dict[str, tuple[dict[str, Any], str]] = {
    "played_self": ({"event": "moved", "to": "play", "card": "self"}, "on_play"),
    "quests_self": ({"event": "quested", "card": "self"}, "quests"),
    "challenges_self": ({"event": "challenging", "card": "self"}, "challenges"),
    "challenged_self": ({"event": "challenged", "card": "self"}, "challenged"),
    "banished_self": ({"event": "banished", "card": "self"}, "banished"),
    "banished_self_battle": ({"event": "banished", "card": "self", "by": "battle"}, "banished"),
    "damaged_self": ({"event": "damaged", "card": "self"}, "damaged"),
    "exerted_self": ({"event": "exerted", "card": "self"}, "exerted"),
    "leaves_self": ({"event": "moved", "from": "play", "card": "self"}, "leaves_play"),
    "sings_self": ({"event": "sung", "card": "self"}, "sings"),
    "readied_self": ({"event": "readied", "card": "self"}, "readied"),
    "you_draw": ({"event": "drawn", "player": "self"}, "draw"),
    "you_gain_lore": ({"event": "gained", "player": "self", "counter": "lore"}, "gain_lore"),
    "opponent_draws": ({"event": "drawn", "player": "opponent"}, "draw"),
}
_CHARACTERS: dict[str, dict[str, Any]] = {
    "yours": {"owner": "self", "types": ["character"]},
    "yours_other": {"owner": "self", "types": ["character"], "exclude": "self"},
    "another": {"types": ["character"], "exclude": "self"},
    "any": {"types": ["character"]},
    "opposing": {"owner": "opponent", "types": ["character"]},
    "your_items": {"owner": "self", "types": ["item"]},
    "any_item": {"types": ["item"]},
}


def _characters(tree: Tree[Token]) -> dict[str, Any]:
    """The card pattern of "one of your (other) [Toy] characters"."""
    kind = str(tree.data)
    if kind in ("yours_other_kind", "yours_kind", "any_kind"):
        card: dict[str, Any] = {"all_types": [str(_tokens(tree)[0]).lower(), "character"]}
        if kind != "any_kind":
            card["owner"] = "self"
        if kind == "yours_other_kind":
            card["exclude"] = "self"
        return card
    return dict(_CHARACTERS[kind])


class _Qualified(Exception):
    """A trigger whose event reads but not all its words: the header is
    read, those words are left unread."""

    def __init__(self, when: dict[str, Any], name: str, words: str) -> None:
        super().__init__(words)
        self.when, self.name, self.words = when, name, words


def _when(tree: Tree[Token]) -> tuple[dict[str, Any], str]:
    """The trigger pattern and the ability's name when it has none printed."""
    kind = str(tree.data)
    trees = _trees(tree)
    if kind in _SELF_EVENTS:
        pattern, name = _SELF_EVENTS[kind]
        return dict(pattern), name
    if kind == "played_other":
        return {"event": "moved", "to": "play", "card": {"owner": "self", "types": [trees[0].data]}}, "play"
    if kind == "played_action":
        return {"event": "played", "card": {"owner": "self", "types": [trees[0].data]}}, "play"
    if kind == "challenges_other":
        return {"event": "challenging", "card": _characters(trees[0])}, "challenges"
    if kind in ("banishes_self", "banishes_other"):
        # "this character banishes another character in a challenge": the banishing
        # character is no key of a trigger pattern — the header reads, this does not
        when: dict[str, Any] = {
            "event": "banished",
            "by": "battle",
            "card": {"types": ["character"], "exclude": "self"},
        }
        raise _Qualified(when, "banishes", "banishes another character in a challenge")
    if kind in ("quests_other", "banished_other", "banished_other_battle"):
        event = "quested" if kind == "quests_other" else "banished"
        when = {"event": event, "card": _characters(trees[0])}
        if kind == "banished_other_battle":
            when["by"] = "battle"
        return when, event
    if kind in ("start_turn", "end_turn"):
        event = "start_of_turn" if kind == "start_turn" else "end_of_turn"
        when = {"event": event}
        if trees[0].data != "each":
            when["player"] = "self" if trees[0].data == "your" else "opponent"
        return when, event
    raise Unreadable(kind)


class LorcanaReader(TextReader):
    """Lorcana's reading of printed text: one ability a line."""

    game = "lorcana"

    def read_part(self, words: str, types: Sequence[str]) -> Sequence[ReadAbility | Skipped] | None:
        text, reminders = without_reminders(words)
        if not text:
            return reminders
        if RULE_KEYWORDS.fullmatch(text.rstrip(".")):
            why = "keyword: a rule of challenging, questing, singing or playing the core does not model"
            return [Skipped(text, why), *reminders]
        named = _NAME.match(text + " ") or _TITLED.match(text)
        name, body = (named.group(1).strip(), text[named.end() :].strip()) if named else (None, text)
        if body == "Support":
            return [_support(text, name), *reminders]
        read = _triggered(text, body, name) or _activated(text, body, name)
        return None if read is None else [*read, *reminders]


def _id(name: str | None, fallback: str) -> str:
    if not name:
        return fallback
    return re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_") or fallback


def _triggered(words: str, body: str, name: str | None) -> list[ReadAbility] | None:
    match = _TRIGGER.match(body)
    if match is None:
        return None
    during, opening, condition, effect = match.groups()
    if opening.lower() == "at":
        if not re.match(r"the (start|end) of", condition, re.I):
            return None
    try:
        tree = _PARSER(start="trigger").parse(condition)
        if tree.data in ("played_self_quests", "played_self_leaves"):
            return _twice(words, tree.data, effect, name, during)
        when, fallback = _when(tree)
    except _Qualified as qualified:
        ability = _ability(words, qualified.when, effect, _id(name, qualified.name), during)
        return [evolve(ability, unread=(qualified.words, *ability.unread))]
    except (LarkError, Unreadable):
        return None
    return [_ability(words, when, effect, _id(name, fallback), during)]


def _ability(words: str, when: dict[str, Any], effect: str, name: str, during: str | None) -> ReadAbility:
    data: dict[str, Any] = {"when": when}
    if during:
        if during.lower().startswith("once "):
            data["once_per_turn"] = True
        data["trigger_condition"] = {"turn": "opponent" if "opponent" in during.lower() else "self"}
    if effect.lower().startswith("you may "):
        data["optional"] = True
        effect = effect[len("you may ") :]
    data["do"], unread = _effect(effect)
    return ReadAbility(words, data, name, unread=tuple(unread))


def _twice(words: str, kind: str, effect: str, name: str | None, during: str | None) -> list[ReadAbility]:
    """ "When you play this character and whenever he quests": one printed
    ability with two trigger conditions, read as two abilities."""
    second = (
        {"event": "quested", "card": "self"}
        if kind == "played_self_quests"
        else {"event": "moved", "from": "play", "card": "self"}
    )
    base = _id(name, "on_play")
    played = {"event": "moved", "to": "play", "card": "self"}
    return [_ability(words, played, effect, base, during), _ability(words, second, effect, base, during)]


def _support(words: str, name: str | None) -> ReadAbility:
    """Support (CR 10.10): "Whenever this character quests, you may add
    their {S} to another chosen character's {S} this turn" — its header
    read; the adding of one stat to another is not."""
    data = {"when": {"event": "quested", "card": "self"}, "optional": True, "do": []}
    return ReadAbility(words, data, "support", unread=("add their {S} to another chosen character's {S} this turn",))


def _activated(words: str, body: str, name: str | None) -> list[ReadAbility] | None:
    match = _ACTIVATED.match(body)
    if match is None:
        return None
    try:
        cost = _cost(_PARSER(start="cost").parse(match.group(1)))
    except (LarkError, Unreadable):
        return None
    data: dict[str, Any] = {"kind": "activated"}
    if cost:
        data["cost"] = cost
    data["do"], unread = _effect(match.group(2))
    return [ReadAbility(words, data, _id(name, "activated"), unread=tuple(unread))]


def _cost(tree: Tree[Token]) -> list[dict[str, Any]]:
    """The costs the core pays: {E} and banishing it (ink is not modelled)."""
    cost: list[dict[str, Any]] = []
    for part in _trees(tree):
        if part.data == "exert_cost":
            cost.append({"exert": "self"})
        elif part.data == "banish_cost":
            cost.append({"banish": "self"})
        elif part.data != "ink_cost":
            raise Unreadable(part.data)
    return cost


def _having(tree: Tree[Token]) -> dict[str, Any]:
    """ "if you have …": a condition read as the effect resolves."""
    kind = str(tree.data)
    tokens = [str(token) for token in _tokens(tree)]
    mine: dict[str, Any] = {"zone": "play", "owner": "self"}
    if kind == "named":
        return {"count": {**mine, "types": ["character"], "name": tokens[-1].strip()}, "gte": 1}
    if kind in ("kind_in_play", "other_kind_in_play"):
        query = {**mine, "all_types": [tokens[-1].lower(), "character"]}
        if kind == "other_kind_in_play":
            query["exclude"] = "self"
        return {"count": query, "gte": 1}
    if kind == "location_in_play":
        return {"count": {**mine, "types": ["location"]}, "gte": 1}
    if kind == "others_in_play":
        return {"count": {**mine, "types": ["character"], "exclude": "self"}, "gte": number(tokens[0])}
    if kind == "cards_in_hand":
        return {"count": {"zone": "hand", "owner": "self"}, "gte": number(tokens[0])}
    return {"count": {"zone": "hand", "owner": "self"}, "eq": 0}


def _effect(effect: str) -> tuple[list[dict[str, Any]], list[str]]:
    do: list[dict[str, Any]] = []
    unread: list[str] = []
    for sentence in _sentences(effect):
        try:
            tree = _PARSER(start="sentence").parse(sentence)
            trees = _trees(tree)
            if tree.data == "conditional":
                then = [action for child in trees[1:] for action in _action(child)]
                do.append({"if": _having(trees[0]), "then": then})
            else:
                do.extend(action for child in trees for action in _action(child))
        except (LarkError, Unreadable):
            unread.append(sentence)
    return do, unread


def _sentences(effect: str) -> Iterable[str]:
    for sentence in _SENTENCE.split(effect.strip()):
        sentence = sentence.strip()
        if sentence:
            yield sentence


READER = LorcanaReader()
