"""Yu-Gi-Oh! printed text (Problem-Solving Card Text) read into abilities.

An effect is one sentence, or a sentence followed by the sentences that go
on with it ("Then …", "You can only use this effect of "X" once per
turn").  Its activation condition is before its top-level colon, its cost
before its top-level semicolon; the grammar (``yugioh.lark``) reads each
piece from its own start rule, and the functions here build the ability in
the words of the bundled scenario files: ``when: {event: special_summoned,
card: self}``, ``wording: if``, ``optional: true`` for "You can",
``speed`` for Quick Effects, Spells and Traps, ``once_per_turn`` (with the
tag ``hard_once_per_turn`` for "You can only use this effect of X once
per turn").
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
from tcgtrig.printed import ReadAbility, Reading, Skipped, TextReader, grammar

from .policy import DEFENSE, FACE_DOWN, HARD_ONCE_PER_TURN

#: the grammar, one LALR parser per start rule (each built once, on first use)
_parser = functools.partial(grammar, __package__, "yugioh.lark", parser="lalr")

#: A sentence that goes on with the effect before it.
_CONTINUES = (
    "Then",
    "Also",
    "After that",
    "If you do",
    "It ",
    "That ",
    "They ",
    "Those ",
    "This turn",
    "For the rest of this turn",
    "Otherwise",
    "●",
    "Until the end",
    "During the next ",
    "The ",
    "Its ",
    "Their ",
    "(",
)
_OPT = "You can only "


def split_top(text: str, separator: str) -> list[str]:
    """``text`` cut at each ``separator`` outside quotes and parentheses."""
    pieces, depth, quoted, start = [], 0, False, 0
    for index, char in enumerate(text):
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif char == separator and depth == 0:
            if separator != "." or text[index + 1 : index + 2] in ("", " ", "\n"):
                pieces.append(text[start : index + 1 if separator == "." else index])
                start = index + 1
    pieces.append(text[start:])
    return [piece.strip() for piece in pieces if piece.strip()]


def _sentences(line: str) -> list[str]:
    """The line's sentences; a sentence in parentheses followed by more
    words ("(You do not use "Polymerization".) If this card is …") is two."""
    sentences: list[str] = []
    for sentence in split_top(line, "."):
        close = _closing(sentence) if sentence.startswith("(") else -1
        if 0 < close < len(sentence) - 1 and sentence[close + 1 :].strip()[:1].isupper():
            sentences += [sentence[: close + 1], sentence[close + 1 :].strip()]
        else:
            sentences.append(sentence)
    return sentences


def _closing(sentence: str) -> int:
    """Where the parenthesis opening ``sentence`` closes (-1: it does not)."""
    depth, quoted = 0, False
    for index, char in enumerate(sentence):
        if char == '"':
            quoted = not quoted
        elif not quoted and char == "(":
            depth += 1
        elif not quoted and char == ")":
            depth -= 1
            if depth == 0:
                return index
    return -1


def _granted(sentence: str, previous: str) -> bool:
    """ "If this card has "X" as material, it gains this effect. ● When …:
    …": the effect granted is an effect of its own, with its own header."""
    return previous.endswith("gains this effect.") and ":" in split_top(sentence, ";")[0]


class YugiohReader(TextReader):
    """Reads Yu-Gi-Oh! card text, one effect a part."""

    game = "yugioh"

    def parts(self, text: str, types: Sequence[str]) -> Iterable[str]:
        parts: list[str] = []
        for line in text.split("\n"):
            for sentence in _sentences(line):
                if sentence.startswith("●") and parts and _granted(sentence, parts[-1]):
                    parts.append(sentence.removeprefix("●").strip())
                elif sentence.startswith("●") and len(parts) > 1 and parts[-1].startswith(_OPT):
                    # the options of an effect printed after its once-per-turn clause
                    parts[-2] = f"{parts[-2]}\n{sentence}"
                elif (
                    parts
                    and not sentence.startswith("(Quick Effect):")
                    and (sentence.startswith(_CONTINUES) or _joins(sentence, parts[-1]))
                ):
                    parts[-1] = (
                        f"{parts[-1]} {sentence}" if not sentence.startswith("●") else f"{parts[-1]}\n{sentence}"
                    )
                else:
                    parts.append(sentence)
        return parts

    def read_part(self, words: str, types: Sequence[str]) -> Sequence[ReadAbility | Skipped] | None:
        return read_effect(words, tuple(types))

    def read(self, text: str, types: Sequence[str] = ()) -> Reading:
        """The card read part by part, then each once-per-turn clause
        applied to the effects it names."""
        reading = super().read(text, types)
        parts = _once_per_turn(reading.parts, tuple(types))
        if not _is_monster(types) and not any(word in types for word in _LASTING):
            parts = _card_activation_first(parts, tuple(types))
        return attrs.evolve(reading, parts=parts)


def _card_activation_first(
    parts: Sequence[ReadAbility | Skipped], types: tuple[str, ...]
) -> tuple[ReadAbility | Skipped, ...]:
    """A Normal, Quick-Play or Counter Spell or Trap prints its activation
    first; an effect after it with a trigger condition ("If this card is in
    your GY and …:", "When you activate "X": You can …") is a Trigger
    Effect of the card, not its activation."""
    result = list(parts)
    first = next((index for index, part in enumerate(parts) if isinstance(part, ReadAbility)), None)
    for index, part in enumerate(parts):
        if not isinstance(part, ReadAbility) or index == first:
            continue
        data = dict(part.data)
        if data.get("kind") != "activated" or "when" not in data:
            continue
        condition, _, tail = part.words.partition(":")
        data["kind"] = "triggered"
        first_if, first_when = condition.lower().find("if "), condition.lower().find("when ")
        data["wording"] = "if" if first_if >= 0 and (first_when < 0 or first_if < first_when) else "when"
        if _event_of(data["when"]) in _TIMINGS:
            data["wording"] = "when"  # "During the End Phase, if this card is in the GY": a fixed timing
        if data.get("speed") == 3:
            data["speed"] = 2  # a Counter Trap's own activation is Spell Speed 3, its other effects 2
        if tail.strip().lower().startswith("you can "):
            data["optional"] = True
        result[index] = attrs.evolve(part, data=_ordered(data), name=_name(data))
    return tuple(result)


def _joins(sentence: str, previous: str) -> bool:
    """A sentence that goes on with the effect before it: one with no
    colon of its own after an effect with a colon or a semicolon, that
    opens no effect of its own."""
    del sentence, previous
    return False


READER = YugiohReader()


# -- the effect ----------------------------------------------------------------

_SPEEDS = (("counter", 3), ("quick_play", 2), ("trap", 2), ("spell", 1))
#: Spells and Traps whose card stays on the field: their effects are not the card's activation alone
_LASTING = ("continuous", "field", "equip")


def _type_speed(types: Sequence[str]) -> int:
    for word, speed in _SPEEDS:
        if word in types:
            return speed
    return 1


def _is_monster(types: Sequence[str]) -> bool:
    return "monster" in types or not any(word in types for word in ("spell", "trap"))


def read_effect(words: str, types: tuple[str, ...]) -> list[ReadAbility | Skipped] | None:
    """One effect read: a once-per-turn clause, a restriction or a material
    line (read as no ability), or an ability with its unread words."""
    sentences = _sentences(words)
    first, rest = sentences[0], sentences[1:]
    skipped = _read_sentence(words)
    if skipped is not None:
        return [skipped]
    head = split_top(first, ":")
    if len(head) >= 2 and not head[0].lower().startswith("you can "):
        return _with_condition(words, head[0], ":".join(head[1:]), rest, types)
    return _without_condition(words, first, rest, types)


def _read_sentence(words: str) -> Skipped | None:
    tree = _parse(words, "sentence")
    if tree is None:
        return None
    why = {
        "opt_clause": "a once-per-turn clause, applied to the effects it names",
        "restriction": "a restriction the scenario language does not express",
        "materials": "Summoning materials",
        "procedure": "a Summoning procedure: a rule of the card, no effect (it starts no Chain)",
        "piercing": "piercing battle damage: a battle rule the core does not model",
    }[tree.data]
    return Skipped(words, why)


def _parse(words: str, start: str) -> Any:
    import lark

    try:
        return _parser(start=start).parse(words)
    except lark.exceptions.UnexpectedInput:
        return None


def _with_condition(
    words: str, condition: str, tail: str, rest: Sequence[str], types: tuple[str, ...]
) -> list[ReadAbility | Skipped] | None:
    you_can = condition.lower().endswith(", you can")  # "If this card is Normal Summoned, you can: …"
    condition = condition.removesuffix(", you can").removesuffix(", you can")
    tree = _parse(condition, "condition")
    if tree is None:
        return None
    header = _header(tree, types)
    if header is None:
        return None
    data, unread = header
    if _own_activation(condition, types):
        # "When this card is activated:" of a Continuous Spell or Trap: what its activation does
        data = {"kind": "activated", "speed": _type_speed(types)}
    body = _read_body(tail, rest, data)
    if body is None:
        return None
    data.update(body[0])
    if you_can and data.get("kind") == "triggered":
        data["optional"] = True
    return _ability(words, data, unread + body[1])


def _own_activation(condition: str, types: tuple[str, ...]) -> bool:
    return not _is_monster(types) and condition.lower() in ("when this card is activated", "if this card is activated")


def _without_condition(
    words: str, first: str, rest: Sequence[str], types: tuple[str, ...]
) -> list[ReadAbility | Skipped] | None:
    """An effect with no activation condition: an Ignition effect ("You can
    …;"), a Spell or Trap Card's activation, "Each time …, …" (a Trigger
    Effect), "When …, …" (an effect that starts no Chain: ``consequence``),
    or a continuous effect."""
    monster = _is_monster(types)
    you_can = first.lower().startswith("you can ")
    # a Spell or Trap Card's activation prints its condition before a colon: a sentence "When …, …" is not one
    conditional = first.startswith(_CONDITIONAL) and len(split_top(first, ",")) > 1
    card_activation = not monster and not any(word in types for word in _LASTING) and not you_can and not conditional
    data: dict[str, Any] = {}
    unread: list[str] = []
    if you_can or card_activation or len(split_top(first, ";")) > 1:
        data["kind"] = "activated"
        if not monster:
            data["speed"] = _type_speed(types)
    else:
        data["kind"] = "continuous"
        first, unread = _conditional(first, data, types)
    body = _read_body(first, rest, data)
    data.update(body[0])
    return _ability(words, data, unread + body[1])


_CONDITIONAL = ("When ", "Each time ", "If ", "While ", "During ", "Once per turn, ", "At the ", "The first time ")
#: the words that open an action ("destroy that monster"): a sentence "When …, <action>" starts no Chain
#: (``consequence``); "If …, <a state>" ("neither can be destroyed", "its original DEF becomes …") is continuous
_IMPERATIVE = frozenset(
    "add banish change destroy discard draw equip gain inflict lose negate pay place put remove return reveal "
    "send set shuffle special summon take target tribute excavate look".split()
)


def _conditional(sentence: str, data: dict[str, Any], types: tuple[str, ...]) -> tuple[str, list[str]]:
    """A sentence with a condition and no colon, cut at its first comma:
    "Each time …, …" waits for an event (a Trigger Effect), "When …, …" is
    part of the event (``consequence``); "If …, …" and "While …, …" are
    continuous.  Returns the words after the condition, and the condition
    if it did not read."""
    if not sentence.startswith(_CONDITIONAL):
        return sentence, []
    pieces = split_top(sentence, ",")
    if len(pieces) < 2:
        return sentence, []
    condition, tail = pieces[0], ", ".join(pieces[1:])
    tree = _parse(condition, "condition")
    header = _header(tree, types) if tree is not None else None
    if header is None:
        return tail, [condition]
    read, unread = header
    when = read.get("when")
    if when is not None and " would be used as " in condition:
        return tail, [condition]  # "If this card would be used as Synchro Material, …": a rule of materials
    replaced = "instead of sending it to the" in tail or "is not destroyed" in tail
    if when is not None and (" would " in condition or replaced):
        # "If this card would be destroyed, you can … instead": a replacement, as the bundled files write it
        # (Yu-Gi-Oh!'s rule of one replacement per destruction reads that kind); "…, you can place it …,
        # instead of sending it to the GY" replaces the move to the GY; without "instead", an interrupt
        data["kind"] = "replacement" if "instead" in tail or replaced else "interrupt"
        data["when"] = when
        if "instead of sending it to the" in tail and " would " not in condition:
            data["when"] = {**when, "event": "moved", "to": "graveyard"}
        if tail.lower().startswith("you can "):
            data["optional"] = True
        return tail, unread  # no wording: "When"/"If" matters to a Trigger Effect (missing the timing) alone
    if when is not None:
        # "When this card leaves the field, destroy that monster" starts no Chain (Call of the Haunted, the
        # bundled files' `consequence`), so does "Each time …, place …"; older texts print an optional Trigger
        # Effect with a comma ("When this card is destroyed by battle, you can …"); "If …, <a state>" is continuous
        # "Each time you draw a card(s), gain 500 LP" (Solemn Wishes) is a Trigger Effect, but placing a counter
        # "each time a Spell Card is activated" (Dark Red Enchanter, Royal Magical Library) starts no Chain
        verb = tail.split(" ", 1)[0].lower()
        chain = tail.lower().startswith("you can ") or (sentence.startswith("Each time ") and verb != "place")
        if not chain and verb not in _IMPERATIVE:
            return tail, [condition]
        data["kind"] = "triggered" if chain else "consequence"
        data["when"] = when
        if tail.lower().startswith("you can "):
            data["optional"] = True
            data["wording"] = "if" if sentence.startswith("If ") else "when"
        if chain and not _is_monster(types):
            data["speed"] = _type_speed(types)
        return tail, unread
    if when is None and not unread:
        for key in ("condition", "once_per_turn"):
            if key in read:
                data[key] = read[key]
        return tail, []
    return tail, [condition]


def _ability(words: str, data: dict[str, Any], unread: list[str]) -> list[ReadAbility | Skipped]:
    """The ability read, then the restrictions its last clause puts on the
    player ("also you cannot Special Summon …"), read as no ability."""
    locks = data.pop("_locks", [])
    ability = ReadAbility(words, _ordered(data), _name(data), tuple(unread))
    return [ability, *(Skipped(lock, "a restriction the scenario language does not express") for lock in locks)]


_ORDER = (
    "kind",
    "when",
    "active_in",
    "optional",
    "wording",
    "speed",
    "once_per_turn",
    "tags",
    "trigger_condition",
    "condition",
)


def _ordered(data: dict[str, Any]) -> dict[str, Any]:
    keys = [key for key in _ORDER if key in data] + [key for key in data if key not in _ORDER]
    return {key: data[key] for key in keys}


def _name(data: dict[str, Any]) -> str:
    when = data.get("when")
    if isinstance(when, dict) and data["kind"] != "activated":
        if when["event"] == "moved":
            return {"graveyard": "sent_to_gy", "hand": "to_hand"}.get(when.get("to", ""), "left_field")
        return "summoned" if isinstance(when["event"], list) else str(when["event"])
    if data["kind"] == "activated" and data.get("speed", 1) != 1 or isinstance(when, dict):
        return "quick" if data.get("speed") == 2 and "when" not in data else "main"
    return {"activated": "effect", "continuous": "continuous", "consequence": "consequence"}.get(data["kind"], "effect")


def _once_per_turn(parts: Sequence[ReadAbility | Skipped], types: tuple[str, ...]) -> tuple[ReadAbility | Skipped, ...]:
    """Each "You can only use this effect of X once per turn" applied to the
    ability before it ("…, and its previous effect only once per turn" to
    the one before that too); "each effect" (and "1 X effect per turn") to
    every ability before it; "each of the following effects" to those
    after; "You can only activate 1 X per turn" to the card's activation
    alone (a Normal or Quick-Play Spell's or a Trap's first effect)."""
    result = list(parts)
    for index, part in enumerate(parts):
        if not isinstance(part, Skipped) or not part.why.startswith("a once-per-turn"):
            continue
        words = part.words
        chosen: Sequence[int]
        if "following" in words:
            chosen = range(index + 1, len(result))
        elif "each effect" in words or " effect per turn" in words or "each of" in words:
            chosen = range(index)
        elif " activate " in words and " effect" not in words:
            activation = _is_monster(types) or any(word in types for word in _LASTING)
            chosen = [] if activation else [next((i for i, p in enumerate(result) if isinstance(p, ReadAbility)), -1)]
        else:
            before = [i for i in range(index - 1, -1, -1) if isinstance(result[i], ReadAbility)]
            chosen = before[:2] if "previous effect" in words else before[:1]
        for i in chosen:
            ability = result[i] if i >= 0 else None
            if isinstance(ability, ReadAbility) and ability.data.get("kind") != "continuous":
                data = dict(ability.data)
                data["once_per_turn"] = True
                data["tags"] = [*data.get("tags", []), HARD_ONCE_PER_TURN]
                result[i] = attrs.evolve(ability, data=_ordered(data))
    return tuple(result)


# -- the header: what the activation condition says ----------------------------

#: words of a condition that add nothing to its header and trigger pattern
_FILLER = frozenset(
    "a an the is are was were this card cards card(s) monster monsters monster(s) on or and to from in of "
    "it its that face-up by your you control controls sends would be each".split()
)
#: the events of each kind of Summon the words name: a Tribute Summon is a Normal Summon (rulebook:
#: "Tribute Summon" is a Normal Summon that Tributes), so "Normal Summoned" waits for both; Fusion,
#: Synchro, Xyz, Link, Ritual and Pendulum Summons are Special Summons
_SUMMON_EVENTS = {
    "Normal": ("normal_summoned", "tribute_summoned"),
    "Tribute": ("tribute_summoned",),
    "Flip": ("flip_summoned",),
}
#: a bare "Summoned" (Torrential Tribute's "When a monster(s) is Summoned"): any Summon the plugin emits
_ANY_SUMMON = ("normal_summoned", "tribute_summoned", "flip_summoned", "special_summoned")


def _summoned_itself(data: dict[str, Any]) -> bool:
    """Whether the ability waits for this card's own Summon."""
    when = data.get("when")
    if not isinstance(when, dict) or when.get("card") != "self":
        return False
    names = when["event"] if isinstance(when["event"], list) else [when["event"]]
    return all(str(name).endswith("_summoned") for name in names)


def _event_of(pattern: dict[str, Any]) -> str | None:
    """A pattern's event name; its first one when it names several."""
    event = pattern.get("event")
    return event[0] if isinstance(event, list) else event


def _summon_events(text: str) -> str | list[str]:
    """The event(s) of "Normal or Special Summoned", "Summoned", "Synchro Summoned"…: one name,
    or a list of them (any of them)."""
    kinds = [word for word in text.replace("/Set", "").split() if word != "or" and not word.startswith("Summon")]
    if not kinds:
        return list(_ANY_SUMMON)
    names: list[str] = []
    for kind in kinds:
        for event in _SUMMON_EVENTS.get(kind, ("special_summoned",)):
            if event not in names:
                names.append(event)
    return names[0] if len(names) == 1 else names


_ZONES = {
    "deck": "deck",
    "extra_deck": "extra_deck",
    "main deck": "deck",
    "extra deck": "extra_deck",
    "gy": "graveyard",
    "graveyard": "graveyard",
    "hand": "hand",
    "field": "field",
    "face-up field": "field",
    "banishment": "banished",
    "pendulum zone": "field",
    "monster zone": "field",
    "main monster zone": "field",
    "spell & trap zone": "field",
}
_PHASES = {"Standby": "start_of_turn", "End": "end_of_turn", "Draw": "start_of_turn"}
_STEPS = {
    ("start", "the Damage Step"): "start_of_damage_step",
    ("before", "damage calculation"): "before_damage_calculation",
    ("after", "damage calculation"): "after_damage_calculation",
    ("end", "the Damage Step"): "end_of_damage_step",
}


#: words between parentheses in a condition that limit when it activates, and that the scenario language
#: does not model (the Damage Step is not a timing of its own here)
_TIMING_ONLY = ("except during the Damage Step",)
#: "except the turn this card was sent to the GY": not if it was sent there this turn
_SENT_THIS_TURN = {"not": {"happened": {"event": "moved", "card": "self", "to": "graveyard"}}}


def _items(tree: Any) -> list[tuple[str, str]]:
    """The condition's items, each (kind, words).  Words between
    parentheses name no event: "(except during the Damage Step)" is left
    out, other ones are kept as one unread item; "except the turn this
    card was sent to the GY" becomes one ``sent_this_turn`` item."""
    items: list[tuple[str, str]] = []
    inside: list[str] | None = None
    for child in tree.children:
        name, text = child.data, str(child.children[0]) if child.children else ""
        if name == "punct" and text == "(":
            inside = []
        elif name == "punct" and text == ")" and inside is not None:
            if " ".join(inside) not in _TIMING_ONLY and inside != ["s"]:  # "monster(s)"
                items.append(("paren", " ".join(inside)))
            inside = None
        elif inside is not None:
            inside.append(text)
        else:
            items.append((name, text))
    return _except_the_turn(items)


def _except_the_turn(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    texts = [text.lower() for _, text in items]
    for index in range(len(items) - 2):
        if texts[index : index + 3] == ["except", "the", "turn"]:
            end = next((i for i in range(index, len(items)) if texts[i] == ","), len(items))
            clause = texts[index:end]
            if "sent" in clause and ("gy" in clause or "there" in clause or "graveyard" in clause):
                return [*items[:index], ("sent_this_turn", " ".join(clause)), *items[end:]]
    return items


_EVENT_ITEMS = frozenset(
    "summoned summons set_ flipped destroyed destroys sent banished discarded tributed leaves returned added placed "
    "attack targeted activated damage draw gain_lp material phase damage_step battles negated resolves position".split()
)
_LEADS = frozenset("when if each_time during at_phase once_per_turn once_per_chain quick flip while_".split())


def _event_at(items: list[tuple[str, str]]) -> int | None:
    """Where the event of the condition is named: the first event word,
    but not "Summoned" describing a card ("a Normal Summoned monster"),
    and "inflicts battle damage" rather than the "battles" before it."""
    found = []
    for index, (name, _) in enumerate(items):
        if name not in _EVENT_ITEMS:
            continue
        following = items[index + 1][1].lower() if index + 1 < len(items) else ""
        if name == "summoned" and following.startswith(("monster", "card")):
            continue
        if index and items[index - 1][1].lower() in ("was", "were"):
            continue  # "a monster that was Special Summoned", "was sent to your GY this turn": a state, no event
        found.append(index)
    main = len(found) > 1 and items[found[0]][0] == "phase" and items[found[0]][1].split()[0] in ("Main", "Battle")
    if main and items[found[1]][0] in ("summoned", "summons"):
        found = found[1:]  # "During your Main Phase, if this card is Normal or Special Summoned": the Summon
    if len(found) > 1 and items[found[0]][0] == "battles" and any(items[i][0] == "damage" for i in found):
        return next(i for i in found if items[i][0] == "damage")
    return found[0] if found else None


def _header(tree: Any, types: tuple[str, ...]) -> tuple[dict[str, Any], list[str]] | None:
    """The ability's header from its activation condition, and the words of
    the condition it could not place."""
    items, state = _while(_items(tree))
    header = _header_of(items, types)
    if header is None or state is None:
        return header
    data, unread = header
    where = _WHILE_HERE.get(" ".join(text for _, text in state))
    if where is not None and "when" in data:
        # "… while this card is in your GY": where the ability works
        data["active_in"] = where
        return _ordered(data), unread
    read, condition = _state(state)
    if not read or condition is None or "when" not in data:
        return data, [" ".join(text for _, text in _items(tree))]
    # "When your opponent activates …, while you control …": the state as the event happens (a Trigger
    # Effect's trigger condition) or as the effect is activated (a Quick Effect's condition)
    data["trigger_condition" if data["kind"] == "triggered" else "condition"] = condition
    return _ordered(data), unread


#: "while …" naming where this card is: the zone the ability works in
_WHILE_HERE: dict[str, str | list[str]] = {
    **{f"{who} this {what}": "field" for who in ("you control", "you control face-up") for what in ("card", "monster")},
    **{f"this {what} is on the field": "field" for what in ("card", "monster")},
    **{f"this {what} is face-up on the field": "field" for what in ("card", "monster")},
    "this card is in your GY": "graveyard",
    "this card is in your Graveyard": "graveyard",
    "this card is in your hand": "hand",
    "this card is in the GY": "graveyard",
    "this card is in the Graveyard": "graveyard",
    "this card is in your hand or GY": ["hand", "graveyard"],
    "this card is banished": "banished",
}


def _while(items: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], list[tuple[str, str]] | None]:
    """ "If this card is Special Summoned while you control …": the condition
    cut at "while" after its event, the "(Quick Effect)" kept in the header."""
    events = [index for index, (name, _) in enumerate(items) if name in _EVENT_ITEMS]
    cut = next((index for index, (name, _) in enumerate(items) if name == "while_"), None)
    if cut is None or not events or events[0] > cut:
        return items, None
    head = [item for item in items[:cut] if item != ("punct", ",")] if items[cut - 1] == ("punct", ",") else items[:cut]
    state = [item for item in items[cut + 1 :] if item[0] != "quick"]
    return [*head, *(item for item in items[cut + 1 :] if item[0] == "quick")], state


def _header_of(items: list[tuple[str, str]], types: tuple[str, ...]) -> tuple[dict[str, Any], list[str]] | None:
    """The header from the condition's items (``_header``)."""
    leads = [name for name, _ in items if name in _LEADS]
    at = _event_at(items)
    pattern = _pattern(items, at) if at is not None else None
    if "flip" in leads:
        pattern = {"event": "flipped", "card": "self"}
    data: dict[str, Any] = {}
    monster = _is_monster(types)
    if pattern is None and not leads:
        return None
    if pattern is None and leads and leads[0] == "when":
        return None  # "When" names an event; one this grammar does not know leaves the header unread
    if "quick" in leads or pattern is None or _event_of(pattern) == "activated_phase":
        # a Quick Effect, even with an activation condition ("When your opponent activates … (Quick
        # Effect):"), is activated in response, not a Trigger Effect (the bundled files write it so)
        data["kind"] = "activated"
        # older texts print a Quick Effect as "during either player's turn:" (Risebell the Star Psycher)
        quick = "quick" in leads or " ".join(text for _, text in items).endswith("either player's turn")
        data["speed"] = 2 if quick and monster else (_type_speed(types) if not monster else 1)
        if pattern is not None and _event_of(pattern) != "activated_phase":
            data["when"] = pattern
            if _wording(items, at, pattern) == "if":
                data["wording"] = "if"  # "If a Spell/Trap(s) is sent to the GY by a card effect:" (a card's activation)
    else:
        self_card = pattern.get("card") == "self"
        lasting = any(word in types for word in _LASTING)
        data["kind"] = "activated" if not monster and not lasting and not self_card else "triggered"
        data["when"] = pattern
        if data["kind"] == "activated" and _wording(items, at, pattern) == "if":
            data["wording"] = "if"
        if data["kind"] == "triggered":
            data["wording"] = _wording(items, at, pattern)
        if not monster:
            data["speed"] = _type_speed(types)
    if pattern is not None and any(text == "would" for _, text in items) and data["kind"] == "triggered":
        # "If … would …:" acts before the event: an interrupt (its "instead" is in the body)
        data["kind"] = "interrupt"
    if "once_per_turn" in leads:
        data["once_per_turn"] = True
    if "once_per_chain" in leads:
        data["tags"] = ["once_per_chain"]
    state_read = False
    if pattern is None or _event_of(pattern) == "activated_phase":
        where = _where(items)
        if where:
            data["active_in"] = where
        state_read, condition = _state(items)
        if condition:
            data["condition"] = condition
    elif at is not None:
        state_read = _state_after(items, at, data)
    unread = [] if state_read or _placed(items, pattern) else [" ".join(text for _, text in items)]
    turn = _whose_phase(items, at, pattern)
    if turn is not None and not unread:
        # "During your End Phase": the End Phase of your turn only (the turn events come every turn)
        known = data.get("trigger_condition")
        data["trigger_condition"] = turn if known is None else {"all": [turn, known]}
    return data, unread


def _whose_phase(items: list[tuple[str, str]], at: int | None, pattern: dict[str, Any] | None) -> dict[str, Any] | None:
    """ "your End Phase" ``{turn: self}``, "your opponent's Standby Phase" ``{not: {turn: self}}``."""
    if at is None or at == 0 or pattern is None or _event_of(pattern) not in ("start_of_turn", "end_of_turn"):
        return None
    whose = items[at - 1][0]
    return {"turn": "self"} if whose == "you" else {"not": {"turn": "self"}} if whose == "opponent" else None


#: events at a fixed point of the turn: their effects are worded "when" whatever word introduces them
_TIMINGS = frozenset(
    "start_of_turn end_of_turn start_of_damage_step before_damage_calculation after_damage_calculation "
    "end_of_damage_step".split()
)


def _wording(items: list[tuple[str, str]], at: int | None, pattern: dict[str, Any]) -> str:
    """ "if" when the word that introduces the event is "If" ("During your
    Main Phase, if this card is Normal Summoned", "Once per turn, if …");
    "when" for "When"/"Each time" and for the fixed timings of the turn
    ("During the End Phase, if this card is in the GY", "After damage
    calculation, if …")."""
    if _event_of(pattern) in _TIMINGS or at is None:
        return "when"
    lead = next((name for name, _ in reversed(items[:at]) if name in ("when", "if", "each_time")), "when")
    return "if" if lead == "if" else "when"


def _state_after(items: list[tuple[str, str]], at: int, data: dict[str, Any]) -> bool:
    """ "During the End Phase, if this card was Special Summoned this turn:"
    — the event, then a condition on the state after ", if": read as the
    ability's ``condition``.  Whether the whole condition read."""
    cut = next((index for index in range(at + 1, len(items)) if items[index][0] == "if"), None)
    if cut is None or not _placed(items[:cut], data.get("when")):
        return False
    read, condition = _state(items[cut:])
    if read and condition:
        # part of the activation condition: not met as the event happens, the effect does not trigger
        data["trigger_condition"] = condition
    return read


_TURNS: dict[str, dict[str, Any] | None] = {
    "your opponent's turn": {"not": {"turn": "self"}},
    "your turn": {"turn": "self"},
    "either player's turn": None,
    "your Main Phase": None,
    "this card is in your GY": None,
    "this card is in your Graveyard": None,
    "this card is in your hand": None,
    "this card is in your hand or GY": None,
    "your opponent controls more monsters than you do": {
        "count": {"zone": "field", "owner": "opponent", "types": ["monster"]},
        "gt": {"count": {"zone": "field", "owner": "self", "types": ["monster"]}},
    },
    "you have no cards in your hand": {"count": {"zone": "hand", "owner": "self"}, "eq": 0},
    "you control no other monsters": {
        "count": {"zone": "field", "owner": "self", "types": ["monster"], "exclude": "self"},
        "eq": 0,
    },
}


def _state(items: list[tuple[str, str]]) -> tuple[bool, dict[str, Any] | None]:
    """A condition that names no event: when the effect may be activated
    ("During your opponent's turn", "If you control no monsters"), each of
    its "and" parts read; ``(False, None)`` when a part does not read."""
    if any(name == "paren" for name, _ in items):
        return False, None
    words = [text for name, text in items if name not in _LEADS and name != "sent_this_turn" and text != ","]
    parts: list[list[str]] = [[]]
    for word in words:
        if word == "and":
            parts.append([])
        else:
            parts[-1].append(word)
    conditions = []
    for part in parts:
        phrase = " ".join(part)
        if not part:
            continue
        earlier = _this_turn(phrase)
        if earlier is not None:
            conditions.append(earlier)
            continue
        if len(part) == 5 and part[0].startswith('"') and part[1:] == ["is", "on", "the", "field"]:
            conditions.append({"count": {"zone": "field", "name": part[0].strip('"')}, "gte": 1})
            continue
        if phrase in _TURNS:
            turn = _TURNS[phrase]
            if turn is not None:
                conditions.append(turn)
            continue
        if part[0] == "have":
            part = ["you", *part]  # "you control … and have no cards in your hand"
        control = _control(part) or _have(part)
        if control is None:
            return False, None
        conditions.append(control)
    if any(name == "sent_this_turn" for name, _ in items):
        conditions.append(_SENT_THIS_TURN)
    if not conditions:
        return True, None
    return True, conditions[0] if len(conditions) == 1 else {"all": conditions}


_THIS_TURN_EVENTS = {
    "Normal Summoned": "normal_summoned",
    "Special Summoned": "special_summoned",
    "Normal or Special Summoned": "special_summoned",
    "Tribute Summoned": "tribute_summoned",
    "destroyed": "destroyed",
    "banished": "banished",
}


def _this_turn(phrase: str) -> dict[str, Any] | None:
    """ "this card was Special Summoned this turn": an event of this turn."""
    if not (phrase.startswith("this card was ") and phrase.endswith(" this turn")):
        return None
    event = _THIS_TURN_EVENTS.get(phrase.removeprefix("this card was ").removesuffix(" this turn"))
    return {"happened": {"event": event, "card": "self"}} if event else None


def _control(words: list[str]) -> dict[str, Any] | None:
    """ "you control no monsters", "your opponent controls a "X" monster"."""
    if words[:2] == ["you", "control"]:
        owner, rest = "self", words[2:]
    elif words[:2] == ["your", "opponent"] and words[2:3] == ["controls"]:
        owner, rest = "opponent", words[3:]
    elif words[:2] == ["your opponent", "controls"]:
        owner, rest = "opponent", words[2:]
    else:
        return None
    if len(rest) == 1 and rest[0].startswith('"'):
        # "If you control "Dark Magician""
        return {"count": {"zone": "field", "owner": owner, "name": rest[0].strip('"')}, "gte": 1}
    query: dict[str, Any] = {"zone": "field", "owner": owner}
    count = _how_many(rest, query)
    if count is None:
        return None
    compare, rest = count
    rest = _level_and_exception(rest, query)
    if len(rest) == 1 and rest[0].startswith('"'):
        # "a face-up "Elemental HERO Avian""
        return {"count": {**query, "name": rest[0].strip('"')}, **compare}
    if len(rest) == 4 and rest[1] == "or" and rest[3].lower() in _CONTROL_NOUNS:
        # "a "Tri-Brigade" or "Springans" monster", "a LIGHT or DARK monster": one of the words, and the noun
        either = [_type_word(word) for word in (rest[0], rest[2])]
        noun = _CONTROL_NOUNS[rest[3].lower()].get("types", [])
        if None in either:
            return None
        query.update({"types": either, **({"all_types": noun} if noun else {})})
        return {"count": query, **compare}
    described = _described([("name" if word.startswith('"') else "word", word) for word in rest])
    nouns = [word for word in rest if word.lower() in _CONTROL_NOUNS]
    if len(nouns) != 1 or len(rest) != 1 + len((described or {}).get("all_types", [])):
        return None
    query.update(described or {})
    query.update(_CONTROL_NOUNS[nouns[0].lower()])
    return {"count": query, **compare}


def _type_word(word: str) -> str | None:
    """ "LIGHT", "Beast-Warrior", ""Mermail"": the word as a card type, as the queries write it."""
    if word.startswith('"'):
        return word.strip('"').lower()
    if word.removesuffix("-Type") in _ATTRIBUTES | _RACES | _KINDS:
        return word.removesuffix("-Type").lower().replace("-", "_")
    return None


#: "Level 4 or lower" / "or higher": the comparison the words after the number make
_OR_WORSE: dict[tuple[str, ...], str] = {("or", "lower"): "lte", ("or", "higher"): "gte"}


def _level_and_exception(words: list[str], query: dict[str, Any]) -> list[str]:
    """ "Level 4 or lower …" (a stat of the cards counted) and "…, except "X"" / "… other than "X""
    (a name left out) put into the query; the words left."""
    if words[:1] == ["Level"] and words[1:2] and words[1].isdigit():
        compare = _OR_WORSE.get(tuple(words[2:4]), "eq")
        query["stat"] = {"level": {compare: int(words[1])}}
        words = words[4:] if compare != "eq" else words[2:]
    if len(words) > 2 and words[-1].startswith('"') and (words[-2] == "except" or words[-3:-1] == ["other", "than"]):
        query["exclude"] = {"name": words[-1].strip('"')}
        words = words[:-2] if words[-2] == "except" else words[:-3]
    return words


#: the nouns of "you control a "X" monster", "2 or more Spells/Traps", "face-up cards"
_CONTROL_NOUNS: dict[str, dict[str, Any]] = {
    **{noun: {"types": types} for noun, types in {"monster": ["monster"], "monsters": ["monster"]}.items()},
    "card": {},
    "cards": {},
    "token": {"types": ["token"]},
    "tokens": {"types": ["token"]},
    **{
        noun: {"types": types}
        for noun, types in {"spell/trap": ["spell", "trap"], "spells/traps": ["spell", "trap"]}.items()
    },
}


def _how_many(words: list[str], query: dict[str, Any]) -> tuple[dict[str, int], list[str]] | None:
    """ "no", "a", "an", "another" (one other than this card), "2 or more",
    then "face-up": the comparison of the count, and the words after them."""
    if not words:
        return None
    if words[0] in ("no", "a", "an", "another"):
        compare, rest = ({"eq": 0} if words[0] == "no" else {"gte": 1}), words[1:]
        if words[0] == "another":
            query["exclude"] = "self"
    elif words[0].isdigit() and words[1:3] == ["or", "more"]:
        compare, rest = {"gte": int(words[0])}, words[3:]
    elif words[:2] == ["at", "least"] and words[2:3] and words[2].isdigit():
        compare, rest = {"gte": int(words[2])}, words[3:]
    else:
        return None
    if rest[:1] == ["other"]:
        query["exclude"] = "self"  # "2 or more other Cyberse monsters"
        rest = rest[1:]
    if rest[:1] == ["face-up"]:
        query["no_flag"] = FACE_DOWN
        rest = rest[1:]
    return compare, rest


def _where(items: list[tuple[str, str]]) -> str | None:
    """ "If this card is in your GY": the zone the ability works in."""
    names = [name for name, _ in items]
    if "this_card" in names:
        for name in ("gy", "hand", "field"):
            if name in names:
                return {"gy": "graveyard", "hand": "hand", "field": "field"}[name]
    return None


#: words that describe the card an event is about ("a "Mermail" monster", "a Spell/Trap Card")
_ATTRIBUTES = frozenset("DARK LIGHT EARTH WATER FIRE WIND DIVINE".split())
_RACES = frozenset(
    "Aqua Beast Beast-Warrior Cyberse Dinosaur Dragon Fairy Fiend Fish Illusion Insect Machine Plant Psychic "
    "Pyro Reptile Rock Spellcaster Thunder Warrior Wyrm Zombie".split()
)
_KINDS = frozenset(
    "Effect Normal Xyz Synchro Fusion Link Ritual Tuner Pendulum Union Gemini Spirit Toon "
    "Field Continuous Equip Quick-Play Counter".split()
)
_CARD_NOUNS = {
    "monster": ["monster"],
    "monsters": ["monster"],
    "monster(s)": ["monster"],
    "spell/trap": ["spell", "trap"],
    "spells/traps": ["spell", "trap"],
    "spell": ["spell"],
    "spells": ["spell"],
    "trap": ["trap"],
    "traps": ["trap"],
}
#: "in your GY" at the end of "you have … in your GY"
_HAVE_ZONES: dict[tuple[str, ...], str] = {
    ("in", "your", "GY"): "graveyard",
    ("in", "your", "Graveyard"): "graveyard",
    ("in", "your", "hand"): "hand",
}


def _have(words: list[str]) -> dict[str, Any] | None:
    """ "you have no Spells/Traps in your GY", "you have 3 or more "X"
    monsters in your GY": a count of your cards in a zone."""
    query: dict[str, Any] = {}
    words = _level_and_exception(words, query)  # "… in your GY other than "Laval Volcano Handmaiden""
    if words[:2] != ["you", "have"] or len(words) < 6 or tuple(words[-3:]) not in _HAVE_ZONES:
        return None
    rest = words[2:-3]
    if rest[0] == "no":
        compare, described = ("eq", 0), rest[1:]
    elif rest[0] in ("a", "an"):
        compare, described = ("gte", 1), rest[1:]
    elif rest[0].isdigit() and rest[1:3] == ["or", "more"]:
        compare, described = ("gte", int(rest[0])), rest[3:]
    else:
        return None
    query.update({"zone": _HAVE_ZONES[tuple(words[-3:])], "owner": "self"})
    found = _described([("name" if word.startswith('"') else "word", word) for word in described]) or {}
    nouns = [word for word in described if word.lower() in _CARD_NOUNS or word.lower() in ("card", "cards")]
    if len(nouns) != 1 or len(described) != 1 + len(found.get("all_types", [])):
        return None
    query.update(found)
    return {"count": query, compare[0]: compare[1]}


def _described(items: list[tuple[str, str]]) -> dict[str, Any] | None:
    """The card an event is about, from the words naming it after the last
    lead word: ``{types: [monster], all_types: [mermail]}``."""
    start = max((index for index, (name, _) in enumerate(items) if name in _LEADS), default=-1) + 1
    query: dict[str, Any] = {}
    all_types: list[str] = []
    words = [text for _, text in items[start:]]
    for index, (name, text) in enumerate(items[start:]):
        if text == "Level" and index + 1 < len(words) and words[index + 1].isdigit():
            # "a Level 4 or lower monster"
            compare = _OR_WORSE.get(tuple(words[index + 2 : index + 4]), "eq")
            query["stat"] = {"level": {compare: int(words[index + 1])}}
        elif name == "name":
            all_types.append(text.strip('"').lower())
        elif name == "word" and text.removesuffix("-Type") in _ATTRIBUTES | _RACES | _KINDS:
            all_types.append(text.removesuffix("-Type").lower().replace("-", "_"))
        elif name == "word" and text.lower() in _CARD_NOUNS:
            # "a Spell/Trap Card, or monster effect": any of the nouns
            known = query.setdefault("types", [])
            known += [word for word in _CARD_NOUNS[text.lower()] if word not in known]
    if all_types:
        query["all_types"] = all_types
    return query or None


def _placed(items: list[tuple[str, str]], pattern: dict[str, Any] | None) -> bool:
    """Whether every word of the condition went into the header: the lead
    words, the event, the card it is about (described, or whose), where it
    went, and how."""
    described = pattern is not None and isinstance(pattern.get("card"), dict)
    if pattern is not None and _event_of(pattern) == "activated" and any(name == "phase" for name, _ in items):
        return False  # "When your opponent activates a Trap Card during the Battle Phase": no phase is modelled
    leveled = described and "stat" in pattern["card"]  # type: ignore[index]
    for name, text in items:
        if leveled and (text in ("Level", "lower", "higher") or name == "number"):
            continue
        if name == "word" and text.lower() not in _FILLER:
            if described and (
                text.removesuffix("-Type") in _ATTRIBUTES | _RACES | _KINDS or text.lower() in _CARD_NOUNS
            ):
                continue
            if pattern is not None and _event_of(pattern) == "activated" and text.lower() in ("effect", "effects"):
                continue
            return False
        if name == "name" and described:
            continue
        if name == "paren":
            return False
        if name in ("name", "number"):
            return False
    return True


def _pattern(items: list[tuple[str, str]], at: int) -> dict[str, Any] | None:
    name, text = items[at]
    before = [item for item, _ in items[:at]]
    after = items[at + 1 :]
    subject = None
    for item in reversed(before):
        if item in _LEADS:
            break
        if item == "this_card":
            subject = item
        elif item in ("opponent", "you") and subject is None:
            subject = item
    pattern: dict[str, Any] = {"event": _event_name(name, text, items[:at], after)}
    if _event_of(pattern) in ("start_of_turn", "end_of_turn", "activated_phase"):
        return pattern
    card: Any = {"this_card": "self", "opponent": "opponent", "you": "own"}.get(subject or "")
    described = _described(items[:at]) if subject != "this_card" else None
    if described:
        if card in ("opponent", "own"):
            described["owner"] = "opponent" if card == "opponent" else "self"
        card = described
    if name == "activated" and card in ("opponent", "own"):
        card = _activated_card(after, card) or card
    if name == "destroys":
        card = "opponent" if card == "self" else None
        pattern["by"] = "battle"
    if card:
        pattern["card"] = card
    _where_and_how(pattern, name, before, after)
    if name == "leaves":
        pattern["from"] = "field"
    if name in ("returned", "added"):
        pattern["to"] = "extra_deck" if "Extra Deck" in text else "deck" if text.endswith("Deck") else "hand"
    if name == "placed":
        pattern["to"] = "field"  # "If a Field Spell is placed face-up in the Field Zone"
    if name == "damage":
        pattern.pop("card", None)
        takes = text.lower().startswith("take")
        yours = subject in ("this_card", "you", None)
        pattern.update(
            {
                "counter": "lp",
                "player": ("self" if yours else "opponent") if takes else ("opponent" if yours else "self"),
            }
        )
        if "battle" in text:
            pattern["by"] = "battle"
    if name in ("draw", "gain_lp"):
        pattern.pop("card", None)
        pattern["player"] = "opponent" if subject == "opponent" else "self"
        if name == "gain_lp":
            pattern["counter"] = "lp"
    return pattern


def _activated_card(after: list[tuple[str, str]], owner: str) -> dict[str, Any] | None:
    """ "your opponent activates a monster effect", "… a Spell/Trap Card": the kinds of card whose
    activation it waits for (none named: "a card or effect")."""
    types: list[str] = []
    for name, text in after:
        if name == "punct" and text == "(":
            break
        for word in _CARD_NOUNS.get(text.lower(), []) if name == "word" else []:
            if word not in types:
                types.append(word)
    if not types:
        return None
    return {"types": types, "owner": "opponent" if owner == "opponent" else "self"}


def _where_and_how(pattern: dict[str, Any], name: str, before: list[str], after: list[tuple[str, str]]) -> None:
    """The zones an event names ("sent from the field to the GY") and how
    it happened ("by battle", "by card effect", "to activate")."""
    words = [text.lower() for _, text in after]
    zones = [
        (index, item) for index, (item, _) in enumerate(after) if item in ("gy", "hand", "field", "deck", "extra_deck")
    ]
    if name in ("sent", "destroyed", "destroys", "material") and any(item == "gy" for _, item in zones):
        pattern["to"] = "graveyard"
    for index, item in zones:
        near = words[max(0, index - 3) : index]
        if "from" in near and "to" not in near[near.index("from") :]:
            pattern.setdefault("from", _ZONES[item])
            break
    if "field" in [item for item in before] and name in ("sent", "destroyed", "banished", "returned", "tributed"):
        pattern.setdefault("from", "field")
    names = [item for item, _ in after]
    if "by_opponent" in names:
        pattern["actor"] = "opponent"
    if "by_battle" in names and "by_effect" in names:
        pass
    elif "by_battle" in names and name in ("destroyed", "sent", "damage"):
        pattern["by"] = "battle"
    elif "by_effect" in names and name in ("destroyed", "sent", "banished", "returned", "leaves", "damage"):
        pattern["by"] = "effect"
    elif "by_cost" in names and name in ("sent", "banished", "discarded"):
        pattern["by"] = "cost"


def _event_name(name: str, text: str, before: list[tuple[str, str]], after: list[tuple[str, str]]) -> str | list[str]:
    if name in ("summoned", "summons"):
        return _summon_events(text)
    if name == "phase":
        if text.startswith("Battle") and any(lead == "at_phase" for lead, _ in before):
            opening = next(word for lead, word in before if lead == "at_phase").lower()
            # the core's turn events, as docs/events.md names them: the plugin has no phase events
            return "end_of_turn" if " end " in opening else "start_of_turn"
        return _PHASES.get(text.split()[0], "activated_phase")
    if name == "damage_step":
        words = " ".join(word.lower() for _, word in before[-3:])
        for (when, step), event in _STEPS.items():
            if step.lower() == text.lower() and when in words:
                return event
        return "start_of_damage_step" if "Damage Step" in text else "before_damage_calculation"
    simple = {
        "set_": "set",
        "flipped": "flipped",
        "destroyed": "destroyed",
        "destroys": "destroyed",
        "sent": "moved",
        "banished": "banished",
        "discarded": "discarded",
        "tributed": "tributed",
        "leaves": "moved",
        "returned": "moved",
        "added": "moved",
        "placed": "moved",
        "attack": "attack_declared",
        "targeted": "targeted",
        "activated": "activated",
        "damage": "lost",
        "draw": "drawn",
        "gain_lp": "gained",
        "material": "uncovered" if text == "detached" else ("moved" if text.startswith("sent") else "used_as_material"),
        "battles": "battled",
        "negated": "negated",
        "resolves": "resolved",
        "position": "position_changed",
    }
    return simple[name]


# -- costs and bodies ------------------------------------------------------------


def _read_body(tail: str, rest: Sequence[str], data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The cost (before the semicolon), the target it names, and the actions,
    with the words that did not read."""
    pieces = split_top(tail, ";")
    fields: dict[str, Any] = {}
    if tail.lower().startswith("you can "):
        fields["optional"] = True
    unread: list[str] = []
    when = data.get("when")
    context = _Context(
        event=isinstance(when, dict), event_is_self=isinstance(when, dict) and when.get("card") == "self"
    )
    if len(pieces) > 1:
        cost_words = "; ".join(pieces[:-1])
        tree = _parse(cost_words, "cost")
        if tree is None:
            unread.append(cost_words)
            context.targeted = "target" in cost_words.lower()
        else:
            optional, actions = _clauses(tree, context)
            if optional:
                fields["optional"] = True
            if context.target is not None:
                fields["target"] = context.target
            if actions:
                fields["cost"] = actions
    do: list[Any] = []
    for words in [pieces[-1], *rest]:
        tree = _parse(words, "body")
        if tree is None:
            unread.append(words)
            continue
        optional, actions = _clauses(tree, context)
        if optional and words is pieces[-1]:
            fields["optional"] = True
        do.extend(actions)
        if context.failed:
            unread.append(words)
            context.failed = False
    if context.instead or any(action == {"prevent": {}} for action in do):
        # "… instead" / "it is not destroyed": the event does not happen (a replacement's `prevent`, as the
        # bundled ruling-destruction-replacement-one-per-destruction.yaml writes it); in another kind, unread
        if data.get("kind") == "replacement":
            do = [{"prevent": {}}, *(action for action in do if action != {"prevent": {}})]
        else:
            unread.append(pieces[-1])
    if context.targets is not None:
        fields.pop("target", None)
        fields["targets"] = context.targets
        do = _both_targets(do)
    if do:
        fields["do"] = do
    if context.locks:
        fields["_locks"] = context.locks
    if context.self_zone is not None and "active_in" not in data:
        fields["active_in"] = context.self_zone
    elif any(action == {"discard": "self"} for action in [*fields.get("cost", []), *do]):
        fields["active_in"] = "hand"
    elif "active_in" not in data and _summoned_itself(data):
        # "If this card is Summoned: …" works on the field, where the Summon puts it, wherever it starts
        # (the differential of issue 38 item 6: a second Summon, from the banishment, was not seen)
        fields["active_in"] = "field"
    if data.get("kind") != "triggered" and "optional" in fields:
        # "You can" marks an Ignition or Quick Effect: it is used by a player
        del fields["optional"]
        if data.get("kind") == "continuous":
            data["kind"] = "activated"
    return fields, unread


class _Context:
    """What an effect's clauses refer to: its target, its trigger event."""

    def __init__(self, event: bool, event_is_self: bool = False) -> None:
        self.event = event
        #: the trigger event is about this card itself: "that monster" then names something else
        #: (Call of the Haunted's "When this card leaves the field, destroy that monster"), not the event's card
        self.event_is_self = event_is_self
        self.target: dict[str, Any] | None = None
        self.targeted = False
        self.failed = False
        #: where "this card" is, as its cost or its action says ("banish this card from your GY")
        self.self_zone: str | None = None
        #: restrictions on the player the effect ends with ("also you cannot Special Summon …")
        self.locks: list[str] = []
        #: "… instead": what a replacement does in place of the event
        self.instead = False
        #: "target 1 card you control and 1 card your opponent controls": two named targets
        self.targets: dict[str, Any] | None = None


def _clauses(tree: Any, context: _Context) -> tuple[bool, list[Any]]:
    optional = False
    actions: list[Any] = []
    connector = None
    children = list(tree.children)
    if children and getattr(children[0], "type", None) == "YOU_CAN":
        optional = True
        children = children[1:]
    clauses = children[0].children if children and hasattr(children[0], "children") else []
    if any(getattr(child, "type", None) == "INSTEAD" for child in children):
        context.instead = True
    pending: list[Any] = actions
    for child in clauses:
        if getattr(child, "type", None) == "CONNECT":
            connector = str(child).strip(" ,").lower()
            continue
        if getattr(child, "data", None) == "bare":
            _second_target(child, connector, context)
            continue
        built = _may(child, context) if getattr(child, "data", None) == "may_clause" else _clause(child, context)
        if built is None:
            context.failed = True
            continue
        if connector == "and if you do" and pending:
            nested: list[Any] = []
            pending.append({"if": {"did": "previous"}, "then": nested})
            pending = nested
        pending.extend(built)
    return optional, actions


def _second_target(tree: Any, connector: str | None, context: _Context) -> None:
    """ "target 1 card you control and 1 card your opponent controls": the
    card after "and" is a second target (``targets: {first, second}``)."""
    query = _what(tree.children[0], context, default_zone="field")
    if connector == "and" and context.target is not None and context.targets is None and isinstance(query, dict):
        context.targets = {"first": context.target, "second": query}
    else:
        context.failed = True


def _both_targets(actions: list[Any]) -> list[Any]:
    """ "destroy them" with two targets: the action on each, at once."""
    result = []
    for action in actions:
        (verb, arg), *more = action.items() if isinstance(action, dict) else [(None, None)]
        if verb in ("then", "may", "else") or more:
            action = {key: _both_targets(value) if isinstance(value, list) else value for key, value in action.items()}
        elif arg == "target":
            action = {"together": [{verb: "target.first"}, {verb: "target.second"}]}
        elif isinstance(arg, dict) and arg.get("card") == "target":
            action = {"together": [{verb: {**arg, "card": f"target.{name}"}} for name in ("first", "second")]}
        result.append(action)
    return result


def _may(tree: Any, context: _Context) -> list[Any] | None:
    """ ", then you can …": the controller chooses whether it happens."""
    built = _clause(tree.children[-1], context)
    return None if built is None else [{"may": built}]


def _clause(tree: Any, context: _Context) -> list[Any] | None:
    kind = tree.data
    if kind in ("target", "target2"):
        queries = [_what(child, context, default_zone="field") for child in tree.children if hasattr(child, "data")]
        if any(not isinstance(query, dict) for query in queries):
            # "Target the attacking monster": a target is chosen by a query; the event's card is no query
            return None
        if kind == "target":
            context.target = queries[0]
        else:
            context.target = queries[0]
        context.targeted = True
        return []
    builder = _ACTIONS.get(kind)
    return builder(tree, context) if builder is not None else None


def _number(token: Any) -> int:
    return int(str(token).replace(",", ""))


def _whats(tree: Any) -> list[Any]:
    return [child for child in tree.children if hasattr(child, "data") and child.data in ("ref", "query", "token")]


def _subtree(tree: Any, name: str) -> Any:
    return next((child for child in tree.children if hasattr(child, "data") and child.data == name), None)


def _tokens(tree: Any) -> list[str]:
    return [str(child) for child in tree.children if not hasattr(child, "data")]


def _card(tree: Any, context: _Context, zone: str | list[str] | None = None, owner: str | None = "self") -> Any:
    whats = _whats(tree)
    if not whats:
        return None
    card = _what(whats[0], context, default_zone=zone, default_owner=owner, source=_subtree(tree, "from_zone"))
    tail = _subtree(tree, "except_tail")
    if tail is not None and isinstance(card, dict):
        card["exclude"] = {"name": str(tail.children[-1]).strip('"')}
    return card


def _word(word: str, zone: Any = "field", owner: str | None = None) -> Any:
    def build(tree: Any, context: _Context) -> list[Any] | None:
        card = _card(tree, context, zone, owner)
        return None if card is None else [{word: card}]

    return build


def _move(to: str, zone: Any = None) -> Any:
    def build(tree: Any, context: _Context) -> list[Any] | None:
        card = _card(tree, context, zone, "self")
        return None if card is None else [{"move": {"card": card, "to": to}}]

    return build


def _count_or_one(tree: Any) -> int:
    """ "the top 3 cards" 3, "the top card" 1."""
    return next((_number(token) for token in tree.children if getattr(token, "type", None) == "NUMBER"), 1)


def _amount(tree: Any) -> int:
    return next(_number(token) for token in tree.children if getattr(token, "type", None) == "NUMBER")


def _stat_change(tree: Any, context: _Context) -> list[Any] | None:
    card = _card(tree, context, "field", None)
    if card is None:
        return None
    tokens = {getattr(token, "type", None): str(token) for token in tree.children if not hasattr(token, "data")}
    verb = (tokens.get("GAINS_LOSES") or "").lower()
    amount = _amount(tree) * (-1 if verb.startswith("lose") else 1)
    stats = ["atk", "def"] if tokens.get("STATNAME") == "ATK/DEF" else [str(tokens.get("STATNAME")).lower()]
    until = {"until": "end_of_turn"} if _subtree(tree, "until") is not None else {}
    return [{"change": {"card": card, "stat": stat, "by": amount, **until}} for stat in stats]


def _special_summon(tree: Any, context: _Context) -> list[Any] | None:
    """ "Special Summon this card (from your hand) in Defense Position": the
    Summon, then the card's position as a flag (as "change … to Defense
    Position" writes it), for a card the effect names ("this card", "that
    target"); a card chosen by a query keeps the Summon alone."""
    card = _card(tree, context, None, "self")
    if card is None:
        return None
    actions: list[Any] = [{"special_summon": card}]
    where = _subtree(tree, "position")
    words = str(where.children[0]).lower() if where is not None else ""
    if "defense" in words and isinstance(card, str):
        flags = [FACE_DOWN, DEFENSE] if "face-down" in words else [DEFENSE]
        actions += [{"flag": {"card": card, "set": flag}} for flag in flags]
    return actions


def _stat_equal(tree: Any, context: _Context) -> list[Any] | None:
    """ "this card gains ATK equal to that monster's ATK": the change by
    that card's current stat, read as the action happens."""
    card = _card(tree, context, "field", None)
    if card is None:
        return None
    stat = next(str(token) for token in tree.children if getattr(token, "type", None) == "STATNAME").lower()
    until = {"until": "end_of_turn"} if _subtree(tree, "until") is not None else {}
    return [{"change": {"card": card, "stat": stat, "by": _stat_of(tree, context), **until}}]


def _level_change(tree: Any, context: _Context) -> list[Any] | None:
    """ "increase its Level by 1", "reduce this card's Level by 2": a change of the stat ``level``."""
    tokens = {getattr(token, "type", None): str(token).lower() for token in tree.children if not hasattr(token, "data")}
    whose = tokens["POSS"]
    card: str | None
    if whose == "this card's":
        card = "self"
    elif context.targeted:
        card = "target"
    else:
        card = "event.card" if context.event and not context.event_is_self else None
    if card is None:
        return None
    amount = _amount(tree) * (1 if tokens["LEVEL_VERB"] == "increase" else -1)
    until = {"until": "end_of_turn"} if _subtree(tree, "until") is not None else {}
    return [{"change": {"card": card, "stat": "level", "by": amount, **until}}]


def _special_summon_both(tree: Any, context: _Context) -> list[Any] | None:
    """ "Special Summon both this card from your hand and 1 "X" from your
    Deck": the two Summons at once (``together``)."""
    connector = next(str(token) for token in tree.children if getattr(token, "type", None) == "CONNECT")
    whats = _whats(tree)
    if connector.strip(" ,").lower() != "and" or len(whats) != 2:
        return None
    # each card with the zone printed after it ("from your hand", read inside the description or after it)
    sources, current = [None, None], -1
    for child in tree.children:
        if getattr(child, "data", None) in ("ref", "query", "token"):
            current += 1
        elif getattr(child, "data", None) == "from_zone":
            sources[current] = child
    cards = [
        _what(what, context, default_owner="self", source=source) for what, source in zip(whats, sources, strict=True)
    ]
    tail = _subtree(tree, "except_tail")
    if tail is not None and isinstance(cards[1], dict):
        cards[1]["exclude"] = {"name": str(tail.children[-1]).strip('"')}
    if any(card is None for card in cards):
        return None
    return [{"together": [{"special_summon": card} for card in cards]}]


def _event_card(context: _Context) -> str:
    return "event.card"


_ACTIONS: dict[str, Any] = {
    "draw": lambda tree, context: [{"draw": _amount(tree)}],
    "opponent_draw": lambda tree, context: [{"draw": {"player": "opponent", "count": _amount(tree)}}],
    "destroy": _word("destroy"),
    "banish": _word("banish"),
    "send_gy": _word("send_to_graveyard", None, "self"),
    "discard": _word("discard", "hand", "self"),
    "tribute": _word("tribute", "field", "self"),
    "special_summon": lambda tree, context: _special_summon(tree, context),
    "add_hand": _move("hand", None),
    "return_hand": _move("hand", "field"),
    "return_extra": _move("extra_deck", "field"),
    "send_top_opponent": lambda tree, context: [
        {"send_to_graveyard": {"zone": "deck", "owner": "opponent", "top": _count_or_one(tree)}}
    ],
    "level_change": lambda tree, context: _level_change(tree, context),
    "send_top": lambda tree, context: [
        {"send_to_graveyard": {"zone": "deck", "owner": "self", "top": _count_or_one(tree)}}
    ],
    "shuffle_deck": _move("deck", "field"),
    "damage": lambda tree, context: [{"damage": _amount(tree)}],
    "gain_lp": lambda tree, context: [{"lp": _amount(tree)}],
    "lose_lp": lambda tree, context: [{"lp": -_amount(tree)}],
    "pay_lp": lambda tree, context: [{"lp": -_amount(tree)}],
    "opponent_gain_lp": lambda tree, context: [
        {"gain": {"player": "opponent", "counter": "lp", "amount": _amount(tree)}}
    ],
    "negate_activation": lambda tree, context: [{"negate_activation": "event.card"}],
    "negate_effect": lambda tree, context: [{"negate_effect": "event.card"}],
    "negate_destroy": lambda tree, context: [
        {"negate_activation": "event.card"},
        {"destroy": "event.card"},
    ],
    "destroy_it": lambda tree, context: [{"destroy": "target" if context.targeted else "event.card"}],
    "reveal": lambda tree, context: (
        None
        if (card := _card(tree, context, "hand", "self")) is None
        else [{"emit": {"event": "revealed", "card": card}}]
    ),
    "detach": lambda tree, context: [
        {"send_to_graveyard": {"zone": "sources", "under": "self", "pick": _amount(tree)}}
    ],
    "stat_change": _stat_change,
    "stat_equal": _stat_equal,
    "special_summon_both": _special_summon_both,
    "set_card": _word("set", None, "self"),
    "place_pendulum": _move("field", "hand"),
    "to_defense": lambda tree, context: (
        None if (card := _card(tree, context, "field", None)) is None else [{"flag": {"card": card, "set": DEFENSE}}]
    ),
    "set_face_down": lambda tree, context: (
        None
        if (card := _card(tree, context, "field", None)) is None
        else [{"flag": {"card": card, "set": FACE_DOWN}}, {"flag": {"card": card, "set": DEFENSE}}]
    ),
    "lock": lambda tree, context: context.locks.append(str(tree.children[0])) or [],
    "damage_equal": lambda tree, context: [
        {"lose": {"player": "opponent", "counter": "lp", "amount": _stat_of(tree, context)}}
    ],
    "gain_equal": lambda tree, context: [
        {"gain": {"player": "self", "counter": "lp", "amount": _stat_of(tree, context)}}
    ],
    "not_destroyed": lambda tree, context: [{"prevent": {}}],
}


def _stat_of(tree: Any, context: _Context) -> dict[str, Any]:
    """ "equal to that monster's ATK": ``{card: …, stat: atk}``, read as the action happens."""
    words = next(str(t) for t in tree.children if getattr(t, "type", None) == "STAT_OF").split()
    whose = " ".join(words[:-1]).lower()
    if whose == "this card's":
        card = "self"
    else:
        card = "target" if context.targeted else "event.card"
    return {"card": card, "stat": words[-1].lower()}


# -- card descriptions -------------------------------------------------------------

_NOUNS = {
    "monster": ["monster"],
    "card": [],
    "spell/trap": ["spell", "trap"],
    "spells/traps": ["spell", "trap"],
    "spell": ["spell"],
    "trap": ["trap"],
    "token": ["token"],
}
_REFS_SELF = (
    "this card",
    "this face-up card",
    "this banished card",
    "this set card",
    "this face-down card",
    "this summoned card",
    "this special summoned card",
    "this card you control",
)
_REFS_TARGET = ("that target", "those targets", "the target", "the targeted card", "that target face-up")


def _noun(word: str) -> list[str]:
    word = word.lower().replace(" cards", "").replace(" card", "")
    word = word[:-1] if word.endswith("s") and word not in ("spells/traps",) else word
    return _NOUNS.get(word, _NOUNS.get(word + "s", []))


def _what(
    tree: Any,
    context: _Context,
    default_zone: Any = None,
    default_owner: str | None = None,
    source: Any = None,
) -> Any:
    if tree.data == "token":
        return _token(tree)
    if tree.data == "ref":
        word = str(tree.children[0]).lower()
        if word in _REFS_SELF:
            if word == "this card you control" and context.self_zone is None:
                context.self_zone = "field"
            where = _subtree(tree, "where") or source
            if where is not None and context.self_zone is None:
                zone: dict[str, Any] = {}
                _zones_into(where, zone)
                if isinstance(zone.get("zone"), str):
                    context.self_zone = zone["zone"]
            return "self"
        if word in _REFS_TARGET or (
            context.targeted and word in ("it", "them", "that card", "that monster", "that monster(s)")
        ):
            return "target"
        return "event.card" if context.event and not context.event_is_self else None
    query: dict[str, Any] = {}
    all_types: list[str] = []
    for child in tree.children:
        if not hasattr(child, "data"):
            if getattr(child, "type", None) == "QUOTED" and tree.data == "named":
                query["name"] = str(child).strip('"')
            continue
        if not _describe(child, query, all_types):
            return None
    if (
        "types" not in query
        and len(all_types) == 1
        and any(getattr(child, "data", None) == "archetype" for child in tree.children)
    ):
        query["name"] = named = next(
            str(c.children[0]) for c in tree.children if getattr(c, "data", None) == "archetype"
        )
        query["name"] = named.strip('"')
        all_types = []
    if all_types:
        query["all_types"] = all_types
    if source is not None:
        _zones_into(source, query)
    if "zone" not in query and default_zone is not None:
        query["zone"] = default_zone
    if "owner" not in query and default_owner is not None and query.get("zone") != "field":
        query["owner"] = default_owner
    if "pick" not in query and not query.pop("_all", False):
        query["pick"] = 1
    query.pop("_all", None)
    return query


def _token(tree: Any) -> dict[str, Any]:
    """ "Special Summon 2 "Fluff Tokens" (Plant/WIND/…)": the Tokens wait in
    the zone ``tokens``, as the bundled files place them."""
    name = next(str(child) for child in tree.children if getattr(child, "type", None) == "QUOTED").strip('"')
    count = next((child for child in tree.children if getattr(child, "data", None) == "n"), None)
    pick = _number(count.children[0]) if count is not None else 1
    return {"zone": "tokens", "owner": "self", "name": name.removesuffix("s"), "pick": pick}


def _describe(child: Any, query: dict[str, Any], all_types: list[str]) -> bool:
    """One word of a card description put into the query; False if it
    cannot be.

    Why one function: one flat branch per kind of word the grammar gives
    (count, noun, attribute, Level, owner, zone…), each a line or two."""
    kind = child.data
    token = str(child.children[0]) if child.children else ""
    if kind == "n":
        query["pick"] = _number(token)
    elif kind == "upto":
        query["pick"], query["upto"] = _number(child.children[0]), True
    elif kind in ("all", "anynumber"):
        query["_all"] = True
    elif kind == "one":
        query["pick"] = 1
    elif kind in ("other", "other_q"):
        query.setdefault("pick", 1) if kind == "other" else None
        query["exclude"] = "self"
    elif kind == "noun":
        types = _noun(str(child.children[0]))
        if types and "types" in query:
            all_types.extend(types)  # "a LIGHT or DARK monster": one of the words, and a monster
        elif types:
            query["types"] = types
    elif kind in ("attr", "kind", "race"):
        all_types.append(token.lower().removesuffix("-type").replace(" ", "_").replace("-", "_"))
    elif kind == "archetypes":
        query["types"] = [str(name).strip('"').lower() for name in child.children]
    elif kind == "one_of_yours":
        query["pick"], query["owner"] = 1, "self"
        if "banished" in token:
            query["zone"] = "banished"
    elif kind == "races":
        query["types"] = [
            str(race).lower().removesuffix("-type").replace(" ", "_").replace("-", "_") for race in child.children
        ]
    elif kind == "archetype":
        all_types.append(token.strip('"').lower())
    elif kind == "level":
        parts = token.split()
        value = int(parts[1])
        compare = {"lower": "lte", "higher": "gte"}.get(parts[-1], "eq")
        query.setdefault("stat", {})["level"] = {compare: value}
    elif kind == "face_up":
        query["no_flag"] = "face_down"
    elif kind in ("face_down_q", "set_q"):
        query["flag"] = "face_down"
    elif kind == "owner":
        query["zone"] = "field"
        owner = {"your opponent controls": "opponent", "you control": "self", "they control": "opponent"}.get(
            token.lower().replace(" currently", "")
        )
        if owner:
            query["owner"] = owner
    elif kind == "owner_or_in":
        # "1 Synchro Monster you control or in your GY": the field and the zone, the same player's
        mine = token.lower().replace(" currently", "") == "you control"
        zones: dict[str, Any] = {}
        _zones_into(child, zones)
        if not mine or zones.get("owner", "self") != "self" or not isinstance(zones.get("zone"), str):
            return False
        query["zone"], query["owner"] = ["field", zones["zone"]], "self"
    elif kind == "banished_q":
        query["zone"] = "banished"
    elif kind == "stat":
        words = token.split()
        compare = {"less": "lte", "more": "gte"}.get(words[-2], "eq")
        query.setdefault("stat", {})[words[-1].lower()] = {compare: _number(words[1])}
    elif kind == "position_q":
        query["flag" if token.startswith("Defense") else "no_flag"] = DEFENSE
    elif kind in ("from_q", "in_q"):
        _zones_into(child, query)
    elif kind == "on_field":
        query["zone"] = "field"
    elif kind == "except_self":
        query["exclude"] = "self"
    elif kind == "except_":
        names = [str(token).strip('"') for token in child.children if getattr(token, "type", None) == "QUOTED"]
        query["exclude"] = {"name": names[0]} if len(names) == 1 else {"name": names[0]}
        if len(names) > 1:
            return False
    else:
        return False
    return True


def _zones_into(tree: Any, query: dict[str, Any]) -> None:
    zones: list[str] = []
    owner = None
    for node in tree.iter_subtrees_topdown():
        if node.data == "zone_name":
            zones.append(_ZONES[str(node.children[0]).lower()])
        elif node.data == "zone_owner":
            owner = {"your": "self", "your opponent's": "opponent", "their": "opponent"}.get(
                str(node.children[0]).lower()
            )
    if zones:
        query["zone"] = zones[0] if len(zones) == 1 else zones
    if owner:
        query["owner"] = owner
