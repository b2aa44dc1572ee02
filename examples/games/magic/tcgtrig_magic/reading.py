"""Magic's printed text (Oracle wording), read into abilities.

One ability a line, as Oracle text prints them.  A line is:

- a **triggered ability**: "When …", "Whenever …" or "At the beginning of
  …", the trigger condition up to the first comma (the grammar's
  ``trigger``), then the effect, sentence by sentence (``sentence``); "you
  may" leading the effect makes it optional;
- an **activated ability**: "COST: EFFECT" (``cost``: mana, {T},
  sacrificing it; mana is not modelled, so only {T} and a sacrifice are
  kept as costs);
- a **keyword** line: undying and persist are read as the triggered
  abilities the rules make of them (CR 702.93a, 702.79a, as
  ``scenarios/cr-603-10a-undying-looks-back-at-its-counters.yaml`` writes
  undying; the counter it returns with is left unread: the returned card
  is a new object, CR 400.7, that no selector names); exalted likewise (702.83a); cycling as the activated ability
  it is (702.29a); the keywords that are only rules of combat or
  targeting the scenario language does not model (flying, trample…) are
  :class:`Skipped`;
- reminder text in parentheses is :class:`Skipped`.

The card's own name is read as ``CARDNAME`` (Forge's convention; the card
list loader writes it so), "this creature" and "~" alike.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any, cast

from lark import Token, Tree
from lark.exceptions import LarkError
from tcgtrig.printed import ReadAbility, Skipped, TextReader, Unreadable, grammar, number, without_reminders

_PARSER = functools.partial(grammar, __package__, "magic.lark", parser="earley", ambiguity="resolve")

#: keywords that are rules of combat, casting or targeting the core does not model
RULE_KEYWORDS = frozenset(
    "flying trample vigilance haste reach defender deathtouch lifelink menace hexproof indestructible shroud "
    "flash fear intimidate shadow horsemanship first strike double strike changeling devoid "
    "plainswalker islandwalk swampwalk mountainwalk forestwalk flanking banding infect wither "
    "split second".split(" ")
) | {"first strike", "double strike", "split second"}

_TRIGGER = re.compile(r"^(When|Whenever|At) (.+?), (.+)$")
_ACTIVATED = re.compile(r"^([^:\"]+): (.+)$")
_SENTENCE = re.compile(r"(?<=\.)\s+(?=[A-Z])|, then ")


def _pt(token: Any) -> tuple[int, int]:
    power, toughness = str(token).split("/")
    try:
        return int(power), int(toughness)
    except ValueError:
        raise Unreadable(str(token)) from None


class _Qualified(Exception):
    """A trigger whose event reads but not a qualifier of its card ("a
    noncreature spell"): the header is read, the qualifier left unread."""

    def __init__(self, when: dict[str, Any], name: str, words: str) -> None:
        super().__init__(words)
        self.when, self.name, self.words = when, name, words


class _Context:
    """What one ability's sentences share: its target (the first "target"
    read), what "it" refers to."""

    def __init__(self, it: str) -> None:
        self.target: dict[str, Any] | None = None
        self.it = it


def _permanents(tree: Tree[Token], *, another: bool = False, lenient: list[str] | None = None) -> dict[str, Any]:
    """A query of permanents on the battlefield from ``permanents``.  With
    ``lenient``, the qualifiers no query can say (a colour, "nontoken") are
    listed there instead of making the words unreadable."""
    query: dict[str, Any] = {"zone": "battlefield"}
    kinds: list[str] = []
    subtypes: list[str] = []
    for child in tree.children:
        if not isinstance(child, Tree):
            continue
        if child.data == "subtype":
            subtypes.append(str(child.children[0]).lower())
        elif child.data in ("power_gte", "power_lte"):
            query["stat"] = {"power": {child.data[-3:]: number(child.children[0])}}
        elif child.data in ("nontoken", "color") and lenient is not None:
            lenient.append(str(child.children[0]) if child.children else str(child.data))
        elif child.data == "kind":
            kinds.append(str(child.children[0]).lower().rstrip("s"))
        elif child.data == "yours":
            query["owner"] = "self"
        elif child.data == "theirs":
            query["owner"] = "opponent"
        elif child.data == "other":
            another = True
        elif child.data == "tapped":
            query["flag"] = "tapped"
        elif child.data == "untapped":
            query["no_flag"] = "tapped"
        else:  # a colour, nontoken: no card type the scenario gives
            raise Unreadable(child.data)
    types: list[str] = []
    for kind in kinds:
        if kind == "artifact creature":
            query["all_types"] = ["artifact", "creature"]
        elif kind in ("nonland permanent", "noncreature artifact"):
            raise Unreadable(kind)
        elif kind != "permanent":
            types.append(kind)
    if subtypes and len(types) <= 1:
        query["all_types"] = [*subtypes, *types]
    elif subtypes:
        raise Unreadable("a subtype of several kinds")
    elif types:
        query["types"] = types
    if another:
        query["exclude"] = "self"
    return query


def _object(tree: Tree[Token], context: _Context) -> Any:
    """The cards an effect acts on, from ``object``."""
    if tree.data == "obj_self":
        return "self"
    if tree.data == "obj_it":
        return context.it
    query = _permanents(cast("Tree[Token]", tree.children[0]))
    if tree.data == "obj_all":
        return query
    query["pick"] = 1
    if tree.data == "obj_target_upto":
        query["upto"] = True
    if context.target is None:
        context.target = query
        context.it = "target"
        return "target"
    return query


def _gy_card(tree: Tree[Token], context: _Context) -> Any:
    words = [str(child).lower() for child in tree.children if isinstance(child, Token)]
    if any(child for child in tree.children if isinstance(child, Tree)):
        raise Unreadable("a coloured card")
    kind = words[-1].removesuffix(" card")
    query: dict[str, Any] = {"zone": "graveyard", "owner": "self", "pick": 1}
    if " or " in kind:
        query["types"] = kind.split(" or ")
    elif kind == "artifact creature":
        query["all_types"] = ["artifact", "creature"]
    elif kind != "permanent":
        query["types"] = [kind]
    if context.target is None:
        context.target = query
        return "target"
    return query


def _trees(tree: Tree[Token]) -> list[Tree[Token]]:
    return [child for child in tree.children if isinstance(child, Tree)]


def _tokens(tree: Tree[Token]) -> list[Token]:
    return [child for child in tree.children if isinstance(child, Token)]


def _action(tree: Tree[Token], context: _Context) -> list[dict[str, Any]]:
    """The actions of one effect (``effect`` subtrees).

    Why one function: one branch per printed template, each a line or two;
    split up they would only be a dispatch table of one-liners."""
    kind = str(tree.data)
    trees, tokens = _trees(tree), _tokens(tree)
    if kind == "draw":
        count = 1 if trees[0].data == "one" else number(_tokens(trees[0])[0])
        return [{"draw": count}]
    if kind in ("gain_life", "lose_life"):
        return [{kind.split("_")[0]: {"counter": "life", "amount": number(tokens[0])}}]
    if kind == "opp_loses":
        return [{"lose": {"player": "opponent", "counter": "life", "amount": number(tokens[0])}}]
    if kind == "each_loses":
        amount = number(tokens[0])
        return [{"lose": {"player": who, "counter": "life", "amount": amount}} for who in ("self", "opponent")]
    if kind in ("destroy", "exile"):
        return [{kind: _object(trees[0], context)}]
    if kind == "bounce":
        return [{"move": {"card": _object(trees[0], context), "to": "hand"}}]
    if kind in ("raise_hand", "raise_field"):
        card = _gy_card(trees[0], context)
        return [{"move": {"card": card, "to": "hand" if kind == "raise_hand" else "battlefield"}}]
    if kind == "raise_self_hand":
        return [{"move": {"card": "self", "to": "hand"}}]
    if kind == "raise_self_field":
        return [{"move": {"card": "self", "to": "battlefield"}}]
    if kind == "token":
        return _token(tree)
    if kind == "pump":
        card = _object(trees[0], context)
        power, toughness = _pt(tokens[0])
        return [
            {"change": {"card": card, "stat": stat, "by": by, "until": "end_of_turn"}}
            for stat, by in (("power", power), ("toughness", toughness))
            if by
        ]
    if kind == "damage":
        return _damage(trees, tokens, context)
    if kind in ("tap", "untap"):
        verb = "set" if kind == "tap" else "clear"
        return [{"flag": {"card": _object(trees[0], context), verb: "tapped"}}]
    if kind in ("one_counter", "counters"):
        count = 1 if kind == "one_counter" else number(tokens[0])
        card = _object(trees[-1], context)
        return [
            {"change": {"card": card, "stat": stat, "by": count}}
            for stat in ("plus_one_counters", "power", "toughness")
        ]
    if kind in ("named_counters", "remove_counters"):
        count, word = number(tokens[0]), str(tokens[1]).lower()
        by = count if kind == "named_counters" else -count
        return [{"change": {"card": _object(trees[-1], context), "stat": f"{word}_counters", "by": by}}]
    if kind in ("gains", "pump_gains"):
        return _gains(kind, trees, tokens, context)
    if kind in ("opponent_discards", "each_discards"):
        players = ("opponent",) if kind == "opponent_discards" else ("self", "opponent")
        return [{"discard": {"zone": "hand", "owner": who, "pick": 1, "chooser": who}} for who in players]
    if kind == "if_you_do":
        return [{"if": {"did": "previous"}, "then": _action(trees[0], context)}]
    if kind == "may":
        return [{"may": _action(trees[0], context)}]
    if kind == "sacrifice_self":
        return [{"sacrifice": "self"}]
    if kind == "sacrifice_one":
        query = _permanents(trees[0])
        return [{"sacrifice": {**query, "owner": "self", "pick": 1}}]
    if kind in ("discard_one", "discard_n"):
        count = 1 if kind == "discard_one" else number(tokens[0])
        return [{"discard": {"zone": "hand", "owner": "self", "pick": count}}]
    if kind in ("mill", "mill_one"):
        count = 1 if kind == "mill_one" else number(tokens[0])
        return [{"move": {"card": {"zone": "library", "owner": "self", "top": count}, "to": "graveyard"}}]
    raise Unreadable(kind)


def _gains(kind: str, trees: list[Tree[Token]], tokens: list[Token], context: _Context) -> list[dict[str, Any]]:
    """ "gains flying until end of turn": the keyword as a flag on the card
    for the turn (a query's ``has:`` finds it); with "gets +N/+N and"."""
    card = _object(trees[0], context)
    actions: list[dict[str, Any]] = []
    if kind == "pump_gains":
        power, toughness = _pt(tokens[0])
        for stat, by in (("power", power), ("toughness", toughness)):
            if by:
                actions.append({"change": {"card": card, "stat": stat, "by": by, "until": "end_of_turn"}})
    for token in tokens:
        if token.type == "KEYWORD":
            flag = str(token).lower().replace(" ", "_")
            actions.append({"flag": {"card": card, "set": flag, "until": "end_of_turn"}})
    return actions


def _token(tree: Tree[Token]) -> list[dict[str, Any]]:
    """ "Create a N/N … token": a token card waiting outside the game (the
    scenario gives it, ``types: [token]``) is put onto the battlefield."""
    first = _trees(tree)[0]
    count = 1 if first.data == "one" else number(_tokens(first)[0])
    query = {"zone": "outside", "owner": "self", "types": ["token"], "pick": count}
    return [{"move": {"card": query, "to": "battlefield"}}]


def _damage(trees: list[Tree[Token]], tokens: list[Token], context: _Context) -> list[dict[str, Any]]:
    amount = number(tokens[0])
    victim = trees[-1]
    if victim.data == "victim_opponents":
        return [{"lose": {"player": "opponent", "counter": "life", "amount": amount}}]
    if victim.data == "victim_you":
        return [{"lose": {"counter": "life", "amount": amount}}]
    if victim.data == "victim_players":
        return [{"lose": {"player": who, "counter": "life", "amount": amount}} for who in ("self", "opponent")]
    query = _permanents(cast("Tree[Token]", victim.children[0]))
    if victim.data == "victim_target":
        query["pick"] = 1
        if context.target is None:
            context.target, context.it = query, "target"
            return [{"deal_damage": {"card": "target", "amount": amount}}]
    return [{"deal_damage": {"card": query, "amount": amount}}]


#: trigger patterns (``trigger`` alternatives) as scenario ``when``
def _when(tree: Tree[Token]) -> tuple[dict[str, Any], str, str]:
    """The trigger pattern, the ability's name, and what "it" is in its effect."""
    kind = str(tree.data)
    trees = _trees(tree)
    if kind == "enters_self":
        return {"event": "moved", "to": "battlefield", "card": "self"}, "enters", "self"
    qualifiers: list[str] = []
    when, name, it = _pattern(kind, trees, qualifiers)
    if qualifiers:
        raise _Qualified(when, name, " ".join(qualifiers))
    return when, name, it


def _pattern(kind: str, trees: list[Tree[Token]], qualifiers: list[str]) -> tuple[dict[str, Any], str, str]:
    """Why one function: one branch per trigger template, each a line or two."""
    if kind == "enters_other":
        card = _permanents(trees[1], another=trees[0].data == "another", lenient=qualifiers)
        card.pop("zone")
        enters = trees[2]
        under = [child.data for child in _trees(enters)]
        if under:
            card["owner"] = "self" if under[0] == "yours" else "opponent"
        return {"event": "moved", "to": "battlefield", "card": card}, "enters", "event.card"
    if kind == "enters_self_or_other":
        card = _permanents(trees[2])
        card.pop("zone")
        return {"event": "moved", "to": "battlefield", "card": card}, "enters", "event.card"
    if kind == "cast":
        caster, spell = trees
        when: dict[str, Any] = {"event": "cast"}
        if caster.data != "anyone":
            when["actor"] = "self" if caster.data == "yours" else "opponent"
        words = [str(word).lower() for word in _tokens(spell)]
        if words:  # "a creature spell", "a noncreature spell": the spell's kind is not read
            raise _Qualified(when, "cast", " ".join(words))
        return when, "cast", "event.card"
    if kind == "dies_self":
        return {"event": "dies", "card": "self"}, "dies", "self"
    if kind == "dies_other":
        card = _permanents(trees[1], another=trees[0].data == "another", lenient=qualifiers)
        card.pop("zone")
        return {"event": "dies", "card": card}, "dies", "event.card"
    if kind == "attacks_self":
        return {"event": "attacking", "card": "self"}, "attacks", "self"
    if kind == "attacks_other":
        card = _permanents(trees[1], another=trees[0].data == "another", lenient=qualifiers)
        card.pop("zone")
        return {"event": "attacking", "card": card}, "attacks", "event.card"
    if kind == "blocks_self":
        return {"event": "blocked", "card": "self"}, "blocks", "self"
    if kind == "leaves_self":
        return {"event": "moved", "from": "battlefield", "card": "self"}, "leaves", "self"
    if kind == "tapped_self":
        return {"event": "flag_set", "flag": "tapped", "card": "self"}, "tapped", "self"
    if kind == "phase":
        whose, step = trees
        # the upkeep: the event the bundled scenario files emit for it (a step the core has no turn event for)
        event = "upkeep" if step.data == "upkeep" else "end_of_turn"
        when = {"event": event}
        if whose.data != "each":
            when["player"] = "self" if whose.data == "your" else "opponent"
        return when, step.data, "self"
    if kind == "gain_life_trigger":
        return {"event": "gained", "player": "self", "counter": "life"}, "gain_life", "self"
    if kind == "opponent_draws":
        return {"event": "drawn", "player": "opponent"}, "draws", "self"
    raise Unreadable(kind)


def _keyword_ability(word: str) -> ReadAbility | None:
    """Undying, persist and exalted as the triggered abilities the rules make
    of them; cycling as its activated ability."""
    name = word.lower()
    if name in ("undying", "persist"):
        stat = "plus_one_counters" if name == "undying" else "minus_one_counters"
        data = {
            "when": {"event": "dies", "card": "self"},
            "trigger_condition": {"not": {"card": "self", "stat": stat, "gte": 1}},
            "do": [{"move": {"card": "self", "to": "battlefield"}}],
        }
        # "with a +1/+1 counter on it": the card returned is a new object (CR 400.7), which no
        # selector of the scenario language names (``self`` finds nothing once it has moved)
        counter = "with a +1/+1 counter on it" if name == "undying" else "with a -1/-1 counter on it"
        return ReadAbility(word, data, name, unread=(counter,))
    if name == "exalted":
        data = {
            "when": {"event": "attacking", "card": {"owner": "self"}},
            "do": [
                {"change": {"card": "event.card", "stat": stat, "by": 1, "until": "end_of_turn"}}
                for stat in ("power", "toughness")
            ],
        }
        return ReadAbility(word, data, name, unread=("attacks alone",))
    if name.startswith("echo ") or name.startswith("cumulative upkeep "):
        data = {"when": {"event": "start_of_turn", "player": "self"}, "do": []}
        return ReadAbility(word, data, name.split(" ")[0], unread=(word,))
    if name == "for mirrodin!":
        when = {"event": "moved", "to": "battlefield", "card": "self"}
        token = {"card": {"zone": "outside", "owner": "self", "types": ["token"], "pick": 1}, "to": "battlefield"}
        return ReadAbility(word, {"when": when, "do": [{"move": token}]}, "for_mirrodin", unread=("attach it",))
    if re.fullmatch(r"(equip|unearth|reconfigure|fortify) .+", name):
        data = {"kind": "activated", "do": []}
        return ReadAbility(word, data, name.split(" ")[0], unread=(word,))
    if name.startswith("cycling ") or name == "cycling":
        data = {"kind": "activated", "active_in": "hand", "cost": [{"discard": "self"}], "do": [{"draw": 1}]}
        return ReadAbility(word, data, "cycling")
    return None


class MagicReader(TextReader):
    """Magic's reading of Oracle text: one ability a line."""

    game = "magic"

    def read_part(self, words: str, types: Sequence[str]) -> Sequence[ReadAbility | Skipped] | None:
        text, reminders = without_reminders(words)
        if not text:
            return reminders
        read = self._keywords(text) or self._triggered(text) or self._activated(text) or _static(text)
        if read is None and ("instant" in types or "sorcery" in types):
            read = _spell(text, "instant" in types)
        if read is None:
            return None
        return [*read, *reminders]

    def _keywords(self, text: str) -> list[ReadAbility | Skipped] | None:
        parts: list[ReadAbility | Skipped] = []
        for word in (part.strip() for part in text.rstrip(".").split(", ")):
            ability = _keyword_ability(word)
            if ability is not None:
                parts.append(ability)
            elif word.lower() in RULE_KEYWORDS or re.fullmatch(
                r"(protection from|enchant) [\w ]+|toxic \d+", word.lower()
            ):
                parts.append(Skipped(word, "keyword: a rule of combat, casting or targeting the core does not model"))
            else:
                return None
        return parts

    def _triggered(self, text: str) -> list[ReadAbility | Skipped] | None:
        match = _TRIGGER.match(text)
        if match is None:
            return None
        opening, condition, effect = match.groups()
        condition = condition if opening != "At" else f"the beginning of {condition.removeprefix('the beginning of ')}"
        if opening == "At" and not match.group(2).startswith("the beginning of"):
            return None
        unread: list[str] = []
        try:
            when, name, it = _when(_PARSER(start="trigger").parse(condition))
        except _Qualified as qualified:
            when, name, it = qualified.when, qualified.name, "event.card"
            unread.append(qualified.words)
        except (LarkError, Unreadable):
            return None
        data: dict[str, Any] = {"when": when}
        condition = re.match(r"if ([^,]+), (.+)$", effect)
        if condition:
            try:
                data["trigger_condition"] = _intervening(_PARSER(start="intervening").parse(condition.group(1)))
                effect = condition.group(2)
            except (LarkError, Unreadable):
                pass  # the "if" stays in the effect's words, unread
        if effect.lower().startswith("you may "):
            data["optional"] = True
            effect = effect[len("you may ") :]
        do, target, effect_unread = _effect(effect, _Context(it))
        if target is not None:
            data["target"] = target
        data["do"] = do
        return [ReadAbility(text, data, name, unread=(*unread, *effect_unread))]

    def _activated(self, text: str) -> list[ReadAbility | Skipped] | None:
        match = _ACTIVATED.match(text)
        if match is None:
            return None
        try:
            cost = _cost(_PARSER(start="cost").parse(match.group(1)))
        except (LarkError, Unreadable):
            return None
        do, target, unread = _effect(match.group(2), _Context("self"))
        data: dict[str, Any] = {"kind": "activated", "speed": 2}
        if cost:
            data["cost"] = cost
        if target is not None:
            data["target"] = target
        data["do"] = do
        return [ReadAbility(text, data, "activated", unread=tuple(unread))]


def _intervening(tree: Tree[Token]) -> dict[str, Any]:
    """An intervening "if" (CR 603.4): checked as the event happens and again
    as the ability resolves (the game's ``condition_on_resolution``)."""
    kind = str(tree.data)
    if kind == "card_in_hand":
        return {"count": {"zone": "hand", "owner": "self"}, "gte": 1}
    if kind == "graveyard_n":
        count, card_kind = _tokens(tree)
        kinds = str(card_kind).lower().removesuffix(" card").split(" or ")
        return {"count": {"zone": "graveyard", "owner": "self", "types": kinds}, "gte": number(count)}
    query = {**_permanents(_trees(tree)[0]), "owner": "self"}
    if kind == "control_none":
        return {"count": query, "eq": 0}
    return {"count": query, "gte": 1 if kind == "control_some" else number(_tokens(tree)[0])}


def _static(text: str) -> list[ReadAbility | Skipped] | None:
    """ "Creatures you control get +1/+1", "Other Spirit creatures you control
    get +0/+1": a continuous ability changing their power and toughness."""
    try:
        tree = _PARSER(start="static").parse(text)
        query = _permanents(_trees(tree)[0])
        power, toughness = _pt(_tokens(tree)[0])
    except (LarkError, Unreadable):
        return None
    do = [
        {"change": {"card": query, "stat": stat, "by": by}}
        for stat, by in (("power", power), ("toughness", toughness))
        if by
    ]
    return [ReadAbility(text, {"kind": "continuous", "do": do}, "static")]


def _spell(text: str, instant: bool) -> list[ReadAbility | Skipped] | None:
    """An instant's or a sorcery's effect: a spell its player casts, an
    activated ability of speed 2 (an instant) or 1 (a sorcery), as a
    Yu-Gi-Oh! Spell is."""
    do, target, unread = _effect(text, _Context("self"))
    if not do:
        return None
    data: dict[str, Any] = {"kind": "activated", "speed": 2 if instant else 1}
    if target is not None:
        data["target"] = target
    # the last step of resolving an instant or sorcery: put it into its owner's graveyard (CR 608.2n)
    data["do"] = [*do, {"move": {"card": "self", "to": "graveyard", "as": "resolved_spell"}}]
    return [ReadAbility(text, data, "spell", unread=tuple(unread))]


def _cost(tree: Tree[Token]) -> list[dict[str, Any]]:
    """The costs the core pays: {T} and sacrificing it (mana is not modelled)."""
    cost: list[dict[str, Any]] = []
    for part in _trees(tree):
        if part.data == "tap_cost":
            cost.append({"flag": {"card": "self", "set": "tapped"}})
        elif part.data == "sacrifice_cost":
            cost.append({"sacrifice": "self"})
        elif part.data != "mana":
            raise Unreadable(part.data)
    return cost


def _effect(effect: str, context: _Context) -> tuple[list[dict[str, Any]], dict[str, Any] | None, list[str]]:
    """The actions of an effect, sentence by sentence; the sentences that
    do not read are returned as unread."""
    do: list[dict[str, Any]] = []
    unread: list[str] = []
    for sentence in _sentences(effect):
        try:
            tree = _PARSER(start="sentence").parse(sentence)
            for child in _trees(tree):
                do.extend(_action(child, context))
        except (LarkError, Unreadable):
            unread.append(sentence)
    return do, context.target, unread


def _sentences(effect: str) -> Iterable[str]:
    for sentence in _SENTENCE.split(effect.strip()):
        sentence = sentence.strip()
        if sentence.startswith("Then "):
            sentence = sentence[len("Then ") :]
        if sentence:
            yield sentence


READER = MagicReader()
