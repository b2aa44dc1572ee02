"""What a game reads in a card's printed text, and the loop that reads it."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

__all__ = [
    "MAX_PART",
    "NUMBER_WORDS",
    "Header",
    "ReadAbility",
    "Reading",
    "Skipped",
    "TextReader",
    "Unreadable",
    "ability_ids",
    "in_key_order",
    "normalize",
    "number",
    "without_reminders",
]


class Unreadable(ValueError):
    """Words a grammar parses but the scenario language cannot say (a
    reader raises it while it builds an ability's data; its part is then
    reported unread, never guessed)."""


#: Numbers printed as English words ("draw two cards", "a card")
NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}


def number(word: object) -> int:
    """A printed number, in figures or English words ("3", "three", "a");
    :class:`Unreadable` for anything else."""
    text = str(word).lower()
    if text in NUMBER_WORDS:
        return NUMBER_WORDS[text]
    if text.isdigit():
        return int(text)
    raise Unreadable(text)


#: The longest part a reader parses, in characters: the longest line of the
#: card lists measured (Digimon, Yu-Gi-Oh!, Duel Masters, Lorcana) is 710;
#: a longer part is unread without being parsed, so a hostile text costs a
#: grammar no more than a card could.
MAX_PART = 2_000

#: Ability kinds that wait for an event (the others have no trigger header).
TRIGGERED_KINDS = ("triggered", "interrupt", "replacement", "consequence")


@frozen
class ReadAbility:
    """One ability read from printed text.

    :ivar words: the printed words it was read from.
    :ivar data: the ability in the scenario language, without ``id``
        (``when``, ``optional``, ``do``… exactly as a file would write them,
        in the game's own words).
    :ivar name: a name for its ``id`` from its printed header
        (``on_play``, ``when_attacking``); :func:`ability_ids` makes the
        names of one card unique.
    :ivar unread: words inside the ability the game could not read (its
        header read, so :class:`Header` can be measured; the ability cannot
        be used in a position while any remain).
    """

    words: str
    data: dict[str, Any]
    name: str = "effect"
    unread: tuple[str, ...] = ()


@frozen
class Skipped:
    """Printed words that are read and are not an ability: reminder text, a
    digivolution or evolution cost, a card's type line.

    :ivar words: the printed words.
    :ivar why: what they are, in a few words (``"reminder text"``).
    """

    words: str
    why: str


@frozen
class Reading:
    """What a game reads in a card's printed text.

    :ivar game: the game that read it.
    :ivar text: the text as given.
    :ivar parts: in printed order, each ability read (:class:`ReadAbility`)
        or words read as no ability (:class:`Skipped`).
    :ivar unread: the words the game could not read at all (not even an
        ability's header).
    """

    game: str
    text: str
    parts: tuple[ReadAbility | Skipped, ...]
    unread: tuple[str, ...] = ()

    @property
    def abilities(self) -> tuple[ReadAbility, ...]:
        """The abilities read, in printed order."""
        return tuple(part for part in self.parts if isinstance(part, ReadAbility))

    @property
    def whole(self) -> bool:
        """Whether every word was read."""
        return not self.all_unread()

    def all_unread(self) -> list[str]:
        """Every word not read, inside abilities or outside, in order."""
        inside = [words for ability in self.abilities for words in ability.unread]
        return [*inside, *self.unread]

    def scenario(self, first_id: str | None = None) -> list[dict[str, Any]]:
        """The abilities as scenario data, each with a unique ``id`` and its
        printed words as ``text``.  ``first_id`` names the first ability (an
        ability given in a file by its ``id`` and ``text``); the others are
        named from their headers."""
        abilities = self.abilities
        names = [ability.name for ability in abilities]
        if first_id is not None and names:
            names[0] = first_id
        return [
            in_key_order({"id": key, **ability.data, "text": ability.words})
            for key, ability in zip(ability_ids(names, keep_first=first_id is not None), abilities, strict=True)
        ]


#: the order an ability's keys are shown in: what decides the order first, then what it does
KEY_ORDER = (
    "id",
    "kind",
    "when",
    "optional",
    "once_per_turn",
    "per_turn",
    "wording",
    "speed",
    "tags",
    "active_in",
    "trigger_condition",
    "condition",
    "target",
    "targets",
    "cost",
    "do",
    "text",
)


def in_key_order(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its keys in :data:`KEY_ORDER` (others after, as given)."""
    known = {key: data[key] for key in KEY_ORDER if key in data}
    return {**known, **{key: value for key, value in data.items() if key not in known}}


def ability_ids(names: Sequence[str], *, keep_first: bool = False) -> list[str]:
    """Unique ability ids from suggested names: a name given twice becomes
    ``NAME``, ``NAME_2``, ``NAME_3``…  With ``keep_first``, the first name
    is kept as written even if it is not a plain word."""
    ids: list[str] = []
    seen: set[str] = set()
    for index, name in enumerate(names):
        base = name if keep_first and index == 0 else _id_word(name)
        key, count = base, 1
        while key in seen:
            count += 1
            key = f"{base}_{count}"
        seen.add(key)
        ids.append(key)
    return ids


def _id_word(name: str) -> str:
    word = re.sub(r"[^0-9a-z]+", "_", name.lower()).strip("_")
    return word or "effect"


@frozen
class Header:
    """What decides an ability's place in the order, as printed: the kind of
    ability, the event it waits for, whether it is optional, "When" or "If"
    (``wording``), whether it is once per turn, and its speed.

    Built from scenario data (:meth:`of`), so an ability written by hand and
    one read from text compare alike.
    """

    kind: str
    event: str | None
    optional: bool
    wording: str
    once_per_turn: bool
    speed: int

    @classmethod
    def of(cls, data: dict[str, Any]) -> Header:
        """The header of an ability given as scenario data."""
        kind = data.get("kind", "triggered")
        when = data.get("when")
        event = when.get("event") if isinstance(when, dict) else when
        if isinstance(event, list):  # several events, any of them: one header, in printed order
            event = " or ".join(event)
        return cls(
            kind=kind,
            event=event,  # an activated ability's activation condition too (a Quick Effect's "When …")
            optional=bool(data.get("optional", False)),
            wording=data.get("wording", "when"),
            once_per_turn=bool(data.get("once_per_turn", False)) or data.get("per_turn") == 1,
            speed=int(data.get("speed", 1)),
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "event": self.event,
            "optional": self.optional,
            "wording": self.wording,
            "once_per_turn": self.once_per_turn,
            "speed": self.speed,
        }

    def differences(self, other: Header) -> list[str]:
        """The fields where ``other`` differs, each as ``field: mine ≠ other's``."""
        mine, theirs = self.as_dict(), other.as_dict()
        return [f"{key}: {mine[key]!r} ≠ {theirs[key]!r}" for key in mine if mine[key] != theirs[key]]


_SPACES = re.compile(r"[ \t\u00a0\u3000]+")
#: words in parentheses, one level of parentheses inside allowed: reminder text
_REMINDER = re.compile(r" ?\([^()]*(?:\([^()]*\)[^()]*)*\)")


def without_reminders(words: str) -> tuple[str, list[Skipped]]:
    """The words with their reminder text (words in parentheses) taken out,
    and that reminder text, each a :class:`Skipped` part."""
    reminders = [Skipped(found.strip(), "reminder text") for found in _REMINDER.findall(words)]
    return _REMINDER.sub("", words).strip(), reminders


def normalize(text: str) -> str:
    """Printed text made uniform for a grammar: Unicode NFKC (full-width
    brackets and digits become plain ones), curly quotes straight, runs of
    spaces one space, each line stripped, blank lines dropped."""
    text = unicodedata.normalize("NFKC", text)
    text = text.replace("\u2018", "'").replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    lines = (_SPACES.sub(" ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


class TextReader:
    """The loop every game's reading shares: the text is normalized
    (:meth:`normalize`), cut into the parts its abilities are printed in
    (:meth:`parts`), and each part read by the game (:meth:`read_part`).

    A game subclasses it, names itself in :attr:`game`, and implements
    :meth:`read_part` (usually: parse with its :func:`grammar`, then build
    scenario data from the tree).  Its ``tcgtrig_read_text`` hook returns
    ``READER.read(text, types)``.
    """

    #: the game's name, as :class:`Reading` records it
    game = "?"

    def normalize(self, text: str) -> str:
        """The text made uniform (default: :func:`normalize`)."""
        return normalize(text)

    def parts(self, text: str, types: Sequence[str]) -> Iterable[str]:
        """The normalized text cut into the parts abilities are printed in
        (default: one part a line)."""
        return text.split("\n")

    def read_part(self, words: str, types: Sequence[str]) -> Sequence[ReadAbility | Skipped] | None:
        """Read one part: the abilities it holds and the words read as none,
        or ``None`` when not even a header reads (the part is unread)."""
        raise NotImplementedError

    def read(self, text: str, types: Sequence[str] = ()) -> Reading:
        """Read a card's printed text.  ``types`` are the card's types as a
        scenario file gives them (``trap``, ``quick_play``, ``creature``): in
        some games they decide what the words mean (a Trap's speed)."""
        parts: list[ReadAbility | Skipped] = []
        unread: list[str] = []
        for words in self.parts(self.normalize(text), tuple(types)):
            if len(words) > MAX_PART:  # no card prints one: not parsed (a grammar's work grows with it)
                unread.append(words)
                continue
            read = self.read_part(words, tuple(types))
            if read is None:
                unread.append(words)
            else:
                parts.extend(read)
        return Reading(game=self.game, text=text, parts=tuple(parts), unread=tuple(unread))
