"""Typos that load but can never work: warnings for ``run`` and ``check``.

A scenario may name any event or zone — a game's words and a file's own
``emit`` can bring new ones — so a misspelt name is not an error to the
loader.  It is a mistake all the same when nothing could ever produce it:

- an ability waiting for an event that no action of the file, no word of
  the game and no rule emits (``when: {event: on_play}``);
- a zone that no card is in and no action moves a card to (``zone: hnad``);
- an ability that works only in zones (``active_in``) its card is not in
  and that no action moves any card to.

Each :class:`Finding` names the file, line and key, and suggests the
closest known name ("did you mean 'played'?").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..games.guard import NOT_THE_PLUGINS
from ..games.manager import Ruleset
from ..games.words import closest
from ..model.values import SOURCES, Ability, Card, Emit, Move, Pattern, walk
from ..scenario.reading import Bindings, Compiled, Scenario
from ..scenario.source import format_path

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

__all__ = ["Finding", "lint", "CORE_EVENTS", "game_events", "game_zones"]

#: The events the core emits by itself (an action's own name, when a word
#: gives none, and the turn's steps).
CORE_EVENTS = (
    "moved",
    "drawn",
    "gained",
    "lost",
    "stat_changed",
    "gained_effect",
    "flag_set",
    "flag_cleared",
    "covered",
    "uncovered",
    "activated",
    "start_of_turn",
    "end_of_turn",
    "targeted",
    "negated",
    "won_battle",
    "lost_battle",
    "lost_game",
)

#: Different mistakes reported for one file at most.
MAX_FINDINGS = 20
#: Arguments a game's word is tried with to see what it emits.
_PROBES: tuple[Any, ...] = (
    "x",
    {"card": "x"},
    1,
    {"count": 1},
    {"card": "x", "to": "x"},
    {"card": "x", "into": "x"},
    {"card": "x", "by": 1},
    {"card": "x", "amount": 1},
    {},
    None,
    [],
)


@frozen
class Finding:
    """One warning: where, and what is wrong."""

    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}"


def _names(values: Iterable[Any], word: str) -> Iterator[str]:
    """The strings found under ``word`` in raw core actions (dicts, lists)."""
    todo = list(values)
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key == word and isinstance(value, str):
                    yield value
                else:
                    todo.append(value)
        elif isinstance(item, (list, tuple)):
            todo.extend(item)


def _expansions(ruleset: Ruleset) -> list[Any]:
    """What each of the game's words expands to, for a few sample arguments
    (a word that refuses a sample is simply not read with it)."""
    out = []
    for expand in ruleset.aliases.values():
        for probe in _PROBES:
            try:
                out.append(expand(probe))
            except NOT_THE_PLUGINS:
                raise
            except BaseException:  # noqa: BLE001 - a word may refuse any sample, even by SystemExit; that is its right
                continue
    return out


@lru_cache(maxsize=8)
def _vocabulary(ruleset: Ruleset) -> tuple[frozenset[str], frozenset[str]]:
    """The events and zones of a game, read once from its words."""
    expansions = _expansions(ruleset)
    events = {*CORE_EVENTS, *ruleset.info.events, *_names(expansions, "as"), *_names(expansions, "event")}
    zones = {*ruleset.info.zones, *_names(expansions, "to"), *_names(expansions, "from")} - {"x"}
    return frozenset(events), frozenset(zones)


def game_events(ruleset: Ruleset) -> set[str]:
    """Every event name the core and the game's words and rules can emit."""
    return set(_vocabulary(ruleset)[0])


def game_zones(ruleset: Ruleset) -> set[str]:
    """Every zone the game's words and rules move cards to or from."""
    return set(_vocabulary(ruleset)[1])


def _file_events_and_zones(compiled: Compiled) -> tuple[set[str], set[str]]:
    """The events the file's own actions emit, and the zones its cards are
    in or its actions move cards to or take them from."""
    events: set[str] = set()
    zones: set[str] = {card.zone for card in compiled.state.cards.values()}
    roots: list[Any] = [compiled.start, *(card.abilities for card in compiled.state.cards.values())]
    for root in roots:
        for item in walk(root):
            if isinstance(item, Emit):
                events.add(item.event)
            elif isinstance(item, Move):
                zones.add(item.to)
                if item.from_:
                    zones.add(item.from_)
            as_ = getattr(item, "as_", None)
            if isinstance(as_, str):
                events.add(as_)
    return events, zones


def _suggest(name: str, known: Iterable[str], own: Iterable[str] = ()) -> str:
    """The closest known name as a hint, the game's and the file's own
    names (``own``) first (:func:`~tcgtrig.games.words.closest`)."""
    close = closest(name, known, own)
    return f" (did you mean {close!r}?)" if close else ""


def _read_in(
    scenario: Scenario, ruleset: Ruleset, compiled: Compiled | None, bindings: Bindings | None
) -> tuple[Ruleset, Compiled]:
    """The game whose names :func:`lint` checks the file against, and the
    file compiled for it: the game of its ``words`` when that is another."""
    written = _words_game(scenario, ruleset)
    if written is not None:
        ruleset, compiled = written, None
    if compiled is None:
        compiled = bindings(ruleset).compiled if bindings is not None else scenario.compile(ruleset)
    return ruleset, compiled


def lint(
    scenario: Scenario, ruleset: Ruleset, compiled: Compiled | None = None, *, bindings: Bindings | None = None
) -> list[Finding]:
    """The typos in ``scenario`` under ``ruleset``, in file order.  A file
    written in another installed game's words (``words:``) is checked
    against that game's names: they are the file's vocabulary, and read by
    role under ``ruleset`` they are not typos.  ``bindings``: the file's
    compiles for each game so far (a file linted under several games is
    compiled in its own words once)."""
    ruleset, compiled = _read_in(scenario, ruleset, compiled, bindings)
    file_events, file_zones = _file_events_and_zones(compiled)
    events = game_events(ruleset) | file_events
    own_events = (events - set(CORE_EVENTS)) | file_events  # the game's words and rules, and the file's own
    movable = game_zones(ruleset) | file_zones | {SOURCES}
    found: dict[str, list[tuple[Any, ...]]] = {}  # message → the paths it applies to, in file order

    def warn(path: tuple[Any, ...], message: str) -> None:
        found.setdefault(message, []).append(path)

    for index, raw_card in enumerate(scenario.data.get("cards") or []):
        card: Card = compiled.state.cards[raw_card["id"]]
        by_id = {ability.id: ability for ability in card.abilities}
        for number, raw_ability in enumerate(raw_card.get("abilities") or []):
            ability: Ability | None = by_id.get(raw_ability.get("id"))
            if ability is None:
                continue
            at = ("cards", index, "abilities", number)
            pattern = ability.when
            for name in pattern.names if isinstance(pattern, Pattern) else ():
                if name in events:
                    continue
                key = at + (("when", "event") if isinstance(raw_ability.get("when"), dict) else ("when",))
                warn(
                    key,
                    f"nothing emits the event {name!r}: no action of this file, no word or rule "
                    f"of {ruleset.name}{_suggest(name, events, own_events)}",
                )
            if isinstance(pattern, Pattern):
                for word, zone in (("from", pattern.from_), ("to", pattern.to)):
                    if zone and zone not in movable:
                        warn(
                            at + ("when", word), f"no card is in or moves to the zone {zone!r}{_suggest(zone, movable)}"
                        )
            if (
                "active_in" in raw_ability
                and card.zone not in ability.active_in
                and not set(ability.active_in) & movable
            ):
                first = ability.active_in[0] if ability.active_in else ""
                warn(
                    at + ("active_in",),
                    f"never works: its card is in {card.zone!r} and nothing moves a card "
                    f"to {', '.join(repr(z) for z in ability.active_in)}"
                    f"{_suggest(first, movable)}",
                )
    for path, zone in _query_zones(scenario.data):
        if zone not in movable:
            warn(path, f"no card is in or moves to the zone {zone!r}{_suggest(zone, movable)}")
    findings = []
    for message, paths in list(found.items())[:MAX_FINDINGS]:  # one finding per mistake, at its first place
        more = f" (and {len(paths) - 1:,} more place{'s' if len(paths) > 2 else ''} like it)" if len(paths) > 1 else ""
        findings.append(Finding(scenario.file, scenario.source.line(paths[0]), format_path(paths[0]), message + more))
    findings.sort(key=lambda f: f.line or 0)
    return findings


def printed_disagreements(scenario: Scenario) -> list[Finding]:
    """Where a card's printed ``text`` and the abilities written for it
    differ on what decides the order (``check --strict``), read by the game
    whose text it is (the file's ``words``, else its ``game``) when it is
    installed and reads printed text."""
    from ..games.manager import available_games, shared_ruleset, split_game
    from ..scenario.printed import disagreements

    data = scenario.data
    named = data.get("words") if isinstance(data.get("words"), str) else data.get("game")
    if not isinstance(named, str) or split_game(named)[0] not in available_games():
        return []
    ruleset = shared_ruleset(split_game(named)[0])
    if not ruleset.reads_text:
        return []
    return [
        Finding(scenario.file, scenario.source.line(path), format_path(path), message)
        for path, message in disagreements(data, ruleset)
    ]


def _words_game(scenario: Scenario, ruleset: Ruleset) -> Ruleset | None:
    """The game whose words the file is written in, when it is another
    installed game than ``ruleset``'s."""
    from ..games.manager import available_games, shared_ruleset, split_game

    words = scenario.data.get("words")
    if not isinstance(words, str):
        return None
    written = split_game(words)[0]
    if written == split_game(ruleset.name)[0] or written not in available_games():
        return None
    return shared_ruleset(written)


def _query_zones(data: Any) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Each zone a query of the file names (``zone: hand`` or a list), with
    its path: mappings that also say whose cards or which kinds, or pick."""
    todo: list[tuple[tuple[Any, ...], Any]] = [((), data)]
    while todo:
        path, value = todo.pop()
        if isinstance(value, dict):
            zone = value.get("zone")
            is_card = len(path) == 2 and path[0] == "cards"  # a card's own zone is where it is, not a query
            if not is_card and zone is not None:
                names = zone if isinstance(zone, list) else [zone]
                for offset, name in enumerate(names):
                    if isinstance(name, str):
                        yield (path + ("zone",) + ((offset,) if isinstance(zone, list) else ())), name
            todo.extend((path + (key,), item) for key, item in value.items())
        elif isinstance(value, list):
            todo.extend((path + (i,), item) for i, item in enumerate(value))
