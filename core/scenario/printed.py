"""Cards given as printed: a card's ``text:`` instead of its ``abilities:``,
or an ability by its ``id`` and ``text:`` alone, read by the game whose card
it is (``tcgtrig_read_text``) into abilities as the file is compiled.

The abilities read are scenario data, put in place of the text as the file
is compiled, so the compiler (and ``compare``, under every game) sees a
file written by hand.  Words the game cannot read are bad input, naming the
card, the line and the words.  Where a card gives both its text and its
abilities, :func:`disagreements` says where they differ on what decides
the order (``check --strict``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .source import Path_, Source

if TYPE_CHECKING:  # tcgtrig.printed is imported only for a file that gives printed text
    from ..games.ruleset import Ruleset
    from ..printed import Header, Reading

#: the keys of an ability given by its id and printed text alone
_PRINTED_ONLY = frozenset({"id", "text"})
#: the longest stretch of unread words an error quotes
_QUOTE = 80
#: the longest text whose reading is kept for the next compile (4,096 of them at most)
_KEPT = 4_000


def given_as_printed(card: dict[str, Any]) -> bool:
    """Whether the card (or one of its abilities) is given by its printed
    text alone, so the text must be read."""
    if "text" in card and "abilities" not in card:
        return True
    return any(_printed_ability(ability) for ability in card.get("abilities") or ())


def _printed_ability(ability: Any) -> bool:
    return isinstance(ability, dict) and "text" in ability and set(ability) <= _PRINTED_ONLY


def with_printed_abilities(data: dict[str, Any], source: Source, compiling: Ruleset) -> dict[str, Any]:
    """``data`` with the abilities read from printed text in place of the
    text (``data`` itself when no card is given as printed).  Each ability
    read takes the line of the text it was read from.  The text is read by
    the game whose card it is (:func:`reading_game`)."""
    cards = data["cards"]
    todo = [index for index, card in enumerate(cards) if given_as_printed(card)]
    if not todo:
        return data
    ruleset = reading_game(data, source, compiling, ("cards", todo[0], "text"))
    cards = list(cards)
    for index in todo:
        cards[index] = _read_card(source, ruleset, cards[index], ("cards", index))
    return {**data, "cards": cards}


def _read_card(source: Source, ruleset: Ruleset, card: dict[str, Any], at: Path_) -> dict[str, Any]:
    types = tuple(card.get("types") or ())
    if "abilities" not in card:
        abilities = _read(source, ruleset, card["text"], types, at + ("text",), card["id"]).scenario()
        for number in range(len(abilities)):
            source.moved[at + ("abilities", number)] = at + ("text",)
        return {**card, "abilities": abilities}
    abilities = []
    for number, ability in enumerate(card["abilities"]):
        where = at + ("abilities", number)
        read = [ability]
        if _printed_ability(ability):
            read = _read(source, ruleset, ability["text"], types, where + ("text",), card["id"]).scenario(
                first_id=ability["id"]
            )
            if not read:
                raise source.error(where + ("text",), f"card {card['id']!r}: the text holds no ability")
        for item in read:
            source.moved[at + ("abilities", len(abilities))] = where if item is ability else where + ("text",)
            abilities.append(item)
    ids = [ability["id"] for ability in abilities]
    twice = next((key for key in ids if ids.count(key) > 1), None)
    if twice is not None:
        raise source.error(
            at + ("abilities", ids.index(twice)),
            f"card {card['id']!r}: two abilities are called {twice!r} (one read from printed text): rename one",
        )
    return {**card, "abilities": abilities}


def reading_game(data: dict[str, Any], source: Source, compiling: Ruleset, at: Path_) -> Ruleset:
    """The game whose printed text the file gives: its ``words``, else its
    ``game``, else the game it is compiled for."""
    from ..games.manager import available_games, split_game

    named = data.get("words") if isinstance(data.get("words"), str) else data.get("game")
    game = split_game(named)[0] if isinstance(named, str) else compiling.game
    if game == compiling.game:
        ruleset = compiling
    elif game not in available_games():
        key = "words" if named == data.get("words") else "game"
        message = f"the file's cards are printed text of {game!r}, which is not installed"
        raise source.error((key,), message, available_games())
    else:
        from ..games.manager import shared_ruleset

        ruleset = shared_ruleset(game)
    if not ruleset.reads_text:
        raise source.error(at, f"{ruleset.info.title} reads no printed text: give the card's abilities")
    return ruleset


def _read(source: Source, ruleset: Ruleset, text: Any, types: tuple[str, ...], at: Path_, card: str) -> Reading:
    if not isinstance(text, str):  # pragma: no cover - the schema checks it
        raise source.error(at, "expected the printed text as a string")
    reading = read_text(ruleset, text, types)
    unread = reading.all_unread()
    if unread:
        quoted = "; ".join(repr(_quote(words)) for words in unread[:3])
        more = f" (and {len(unread) - 3} more)" if len(unread) > 3 else ""
        raise source.error(at, f"card {card!r}: {ruleset.info.title} cannot read {quoted}{more}")
    return reading


def read_text(ruleset: Ruleset, text: str, types: Sequence[str] = ()) -> Reading:
    """What ``ruleset``'s game reads in ``text``, read once per process
    for each text of a card's length (a file is compiled once per game;
    ``compare`` reads five); a longer one is read each time, not kept."""
    if len(text) > _KEPT:
        reading = ruleset.read_text(text, tuple(types))
        assert reading is not None  # callers ask only a game that reads text (Ruleset.reads_text)
        return reading
    return _read_once(ruleset, text, tuple(types))


@lru_cache(maxsize=4096)
def _read_once(ruleset: Ruleset, text: str, types: tuple[str, ...]) -> Reading:
    reading = ruleset.read_text(text, types)
    assert reading is not None  # callers ask only a game that reads text (Ruleset.reads_text)
    return reading


def _quote(words: str) -> str:
    return words if len(words) <= _QUOTE else words[: _QUOTE - 1] + "…"


def disagreements(data: dict[str, Any], ruleset: Ruleset) -> list[tuple[Path_, str]]:
    """Where a card's printed text and the abilities written for it differ
    on what decides the order (kind, trigger event, optional or mandatory,
    "When" or "If", once per turn, speed): ``(path, message)`` pairs.

    An ability's own ``text`` is compared with it; a card's ``text`` with
    its triggered abilities in order.  Text the game cannot read whole
    enough to give a header is not compared."""
    found: list[tuple[Path_, str]] = []
    for index, card in enumerate(data.get("cards") or []):
        types = tuple(card.get("types") or ())
        at: Path_ = ("cards", index)
        abilities = card.get("abilities") or []
        if isinstance(card.get("text"), str) and abilities:
            found += _card_disagreements(ruleset, card, types, at)
        for number, ability in enumerate(abilities):
            if isinstance(ability.get("text"), str) and not set(ability) <= _PRINTED_ONLY:
                found += _ability_disagreement(ruleset, ability, types, at + ("abilities", number))
    return found


def _headers(reading: Reading) -> list[Header]:
    from ..printed import Header
    from ..printed.reading import TRIGGERED_KINDS

    return [Header.of(part.data) for part in reading.abilities if part.data.get("kind", "triggered") in TRIGGERED_KINDS]


def _card_disagreements(
    ruleset: Ruleset, card: dict[str, Any], types: tuple[str, ...], at: Path_
) -> list[tuple[Path_, str]]:
    from ..printed import Header
    from ..printed.reading import TRIGGERED_KINDS

    reading = read_text(ruleset, card["text"], types)
    if reading.unread:
        return []
    printed = _headers(reading)
    written = [Header.of(a) for a in card["abilities"] if a.get("kind", "triggered") in TRIGGERED_KINDS]
    if len(printed) != len(written):
        return [
            (
                at + ("text",),
                f"the printed text holds {len(printed)} triggered abilities; the card gives {len(written)}",
            )
        ]
    return [
        (at + ("abilities", number), f"the printed text reads {'; '.join(diff)}")
        for number, (mine, theirs) in enumerate(zip(written, printed, strict=True))
        if (diff := theirs.differences(mine))
    ]


def _ability_disagreement(
    ruleset: Ruleset, ability: dict[str, Any], types: tuple[str, ...], at: Path_
) -> list[tuple[Path_, str]]:
    from ..printed import Header

    reading = read_text(ruleset, ability["text"], types)
    if reading.unread or len(reading.abilities) != 1:
        return []  # not read, or an ability written as one of several printed together
    printed = Header.of(reading.abilities[0].data)
    diff = printed.differences(Header.of(ability))
    return [(at, f"its printed text reads {'; '.join(diff)} (printed ≠ written)")] if diff else []
