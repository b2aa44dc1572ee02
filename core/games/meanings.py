"""What each game's words mean in core words: ``tcgtrig words``, and a
word of another game read in this one (:func:`translate`).

A game's word is a function that expands its argument into core actions
(``tcgtrig_action_aliases``).  Its meaning is that expansion, written with
a sample argument (``X`` for a card): Duel Masters' ``destroy: X`` means
``move: {card: X, to: graveyard, as: destroyed}``.  Words that no sample
fits (they need a richer argument) are listed without a meaning.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

__all__ = ["word_meanings", "meaning_elsewhere", "flow", "Translation", "ROLE_KINDS"]

#: Sample arguments a word is tried with, in order: ``X`` stands for a card.
_SAMPLES: tuple[Any, ...] = ("X", 1, {}, {"card": "X", "amount": 1}, None)


def flow(value: Any) -> str:
    """Scenario data written on one line, as in a YAML flow mapping."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(item) for item in value) + "]"
    if isinstance(value, str):
        return value if value and value.replace("_", "").replace(".", "").isalnum() else json.dumps(value)
    return json.dumps(value)


@lru_cache(maxsize=32)
def word_meanings(game: str) -> tuple[tuple[str, str, str], ...]:
    """``(word, sample argument, meaning)`` for each of ``game``'s words,
    sorted; the meaning is ``""`` where no sample argument fits."""
    from .manager import shared_ruleset

    out = []
    for word, expand in sorted(shared_ruleset(game).aliases.items()):
        for sample in _SAMPLES:
            try:
                expansion = expand(sample)
            except Exception:  # noqa: BLE001 - a word may refuse a sample: try the next
                continue
            out.append((word, flow(sample), flow(expansion)))
            break
        else:
            out.append((word, "", ""))
    return tuple(out)


def meaning_elsewhere(word: str, game: str) -> str | None:
    """Where ``word`` is another installed game's word, one line saying
    whose and what it means in core words (for the error ``game`` gives a
    file that uses it); else ``None``."""
    from .manager import available_games, shared_ruleset, split_game

    own = split_game(game)[0]
    found = []
    for other in available_games():
        if other == own:
            continue
        try:
            meanings = {w: (sample, meaning) for w, sample, meaning in word_meanings(other)}
        except Exception:  # noqa: BLE001 - a broken game says nothing here; its own command names it
            continue
        if word in meanings:
            sample, meaning = meanings[word]
            title = shared_ruleset(other).info.title
            found.append(f"{title}'s word ({word}: {sample} means {meaning})" if meaning else f"{title}'s word")
    if not found:
        return None
    return (
        "it is " + "; ".join(found) + f", not one of {own}'s: write its meaning in core words, "
        f"with {own}'s zones and events, or use one of {own}'s words"
    )


#: the key a name stands under → what kind of name it is
_KINDS = {
    "to": "zone",
    "from": "zone",
    "zone": "zone",
    "in": "zone",
    "active_in": "zone",
    "as": "event",
    "event": "event",
    "happened": "event",
    "set": "flag",
    "clear": "flag",
    "flag": "flag",
    "no_flag": "flag",
    "has": "flag",
    "hold": "flag",
    "flags": "flag",
    "stat": "stat",
    "highest": "stat",
    "lowest": "stat",
    "counter": "counter",
    "types": "type",
    "type": "type",
    "all_types": "type",
}
#: keys whose mapping's keys are names: a card's ``stats: {power: 4000}``,
#: a query's ``stat: {dp: {lte: 5000}}``, the start's ``counters: {A: {lp: 8000}}``
_KEYED = {"stats": "stat", "stat": "stat"}
#: a stat role a game may count with a second stat, and the role a game
#: without it reads in its place (one battle stat is strength and toughness)
_STANDS_FOR = {"toughness": "strength"}
#: what a left-out name takes with it: the action that sets the state
_DROP = object()


class _Many(list):
    """One action read as several, in order (a list it stands in takes them all)."""


#: keys whose flag sets a state (left out with it) rather than asks about one
_SETS_STATE = ("set", "clear", "flags")
#: what may stand beside an action word
_MODIFIERS = ("label", "by", "as", "then", "else")
#: the kinds of names that have roles, each a ``GameInfo.<kind>_roles``
ROLE_KINDS = ("zone", "event", "flag", "stat", "counter", "type")


class Translation:
    """One game's words read in another (``source``, ``target``: their
    :class:`~tcgtrig.model.info.GameInfo`): each zone, event, flag, stat,
    counter and card type with a role becomes the target's name for that
    role, and a card's battle stat fills both stats of a target that counts
    damage against a second one.  What the target lacks degrades, concept
    by concept, each written once in :attr:`notes`:

    - a zone of a role the target lacks stays a zone of its own, by its
      name (the target's rules do not read it);
    - a flag of a role the target lacks is no state there: what sets or
      clears it is left out, and no card starts with it (a game with no
      tapped state attacks without tapping);
    - events, stats, counters and types without a counterpart keep their
      names: the file's own triggers and conditions still see them.

    ``words``: the source game's own action words, whose arguments are left
    as written here (they are read once, with the word's expansion).
    """

    def __init__(
        self, source: Any, target: Any, words: frozenset[str] = frozenset(), notes: dict[str, str] | None = None
    ) -> None:
        self.source, self.target, self.words = source, target, words
        #: kind → the source's name → its role
        self.roles = {kind: dict(getattr(source, f"{kind}_roles")) for kind in ROLE_KINDS}
        #: kind → the source's name → the target's name for its role (absent: the target has none)
        self.names: dict[str, dict[str, str]] = {}
        for kind in ROLE_KINDS:
            theirs: dict[str, str] = {}
            for name, role in reversed(getattr(target, f"{kind}_roles")):
                theirs[role] = name  # the first name of a role is its name
            self.names[kind] = {name: theirs[role] for name, role in self.roles[kind].items() if role in theirs}
        mine = set(self.roles["stat"].values())
        #: a card's stats: (target stat, the source role that fills it) for the roles the source lacks
        self.fills = tuple(
            (name, _STANDS_FOR[role])
            for name, role in target.stat_roles
            if role in _STANDS_FOR and role not in mine and _STANDS_FOR[role] in mine
        )
        #: what the target lacks, one line per concept, in the order met
        self.notes: dict[str, str] = {} if notes is None else notes

    def name(self, kind: str, value: str) -> Any:
        """``value``, a name of ``kind``, read in the target (or
        :data:`_DROP`: a state the target has not)."""
        role = self.roles[kind].get(value)
        if role is None:
            return value  # no role: the same name in every game
        mapped = self.names[kind].get(value)
        if mapped is not None:
            return mapped
        if kind == "zone" and not self.target.zone_roles:  # every game has zones: this one names none
            self.notes.setdefault(
                "zone roles",
                f"{self.target.title} states no zone roles: {self.source.title}'s zone names are read as they are",
            )
            return value
        if kind == "flag":
            self.notes.setdefault(
                f"flag {role}",
                f"{self.target.title} has no {role} state: {self.source.title}'s {value!r} is left out "
                "(what sets or clears it does nothing there, and no card has it)",
            )
            return _DROP
        if kind == "zone":
            self.notes.setdefault(
                f"zone {role}",
                f"{self.target.title} has no zone in the role {role!r}: {self.source.title}'s {value!r} stays "
                "a zone of its own there, which its rules do not read, and what moves a card to or from it "
                "is left out",
            )
            return _DROP
        return value

    def __call__(self, data: Any) -> Any:
        """``data`` (scenario data: cards, actions, patterns) read in the target."""
        out = self._walk(data, None)
        return [] if out is _DROP else list(out) if isinstance(out, _Many) else out

    def _walk(self, value: Any, key: str | None) -> Any:
        if isinstance(value, dict):
            return self._mapping(value, key)
        if isinstance(value, list):
            out: list[Any] = []
            for item in (self._walk(v, key) for v in value):
                if isinstance(item, _Many):
                    out.extend(item)
                elif item is not _DROP:
                    out.append(item)
            return out
        if isinstance(value, str) and key in _KINDS:
            name = self.name(_KINDS[key], value)
            if name is _DROP and key not in _SETS_STATE:
                return value  # a card's own zone, or a query or condition on a place or state no card has here
            return name
        return value

    def _mapping(self, value: dict[str, Any], key: str | None) -> Any:
        if key in _KEYED:
            return self._keyed(value, key == "stats")
        if key == "counters":  # the start's counters: player → {counter: value}
            return {
                player: {self.name("counter", c) if isinstance(c, str) else c: n for c, n in counters.items()}
                if isinstance(counters, dict)
                else counters
                for player, counters in value.items()
            }
        word = next((k for k in value if k not in _MODIFIERS), None)
        if word in self.words:  # the source's own word: its argument is read with its expansion
            return {k: v if k == word else self._walk(v, k) for k, v in value.items()}
        flag = value.get("flag")
        if isinstance(flag, dict) and any(
            isinstance(flag.get(word), str) and self.name("flag", flag[word]) is _DROP for word in ("set", "clear")
        ):
            return _DROP  # it sets or clears a state the target has not
        change = value.get("change")
        if isinstance(change, dict) and isinstance(change.get("stat"), str):
            both = self._both(change["stat"])
            if both:  # one battle stat changed: both of a pair change with it, one after the other
                rest = {k: self._walk(v, k) for k, v in value.items() if k != "change"}
                return _Many([{"change": {**self._walk(change, "change"), "stat": stat}, **rest} for stat in both])
        move = value.get("move")
        if isinstance(move, dict) and any(
            isinstance(move.get(word), str) and self.name("zone", move[word]) is _DROP for word in ("to", "from")
        ):
            return _DROP  # it moves a card to or from a place the target has not
        out = {k: self._walk(v, k) for k, v in value.items()}
        if isinstance(value.get("together"), list) and value["together"] and not out["together"]:
            return _DROP  # every part of it was left out
        return out

    def _both(self, stat: str) -> tuple[str, ...]:
        """The target's stats a change of the source's ``stat`` changes,
        where they are more than one: a game that battles with one stat
        read in one that counts damage against a second (``self.fills``)."""
        role = self.roles["stat"].get(stat)
        mapped = self.names["stat"].get(stat)
        filled = tuple(name for name, fills in self.fills if fills == role)
        return (mapped, *filled) if mapped is not None and filled else ()

    def _keyed(self, value: dict[str, Any], card_stats: bool) -> dict[str, Any]:
        """A mapping keyed by stat names, each read in the target; a card's
        stats also fill the target's stats of a role the source counts with
        its battle stat."""
        out: dict[str, Any] = {}
        for name, item in value.items():
            out.setdefault(self.name("stat", name) if isinstance(name, str) else name, self._walk(item, None))
        if card_stats:
            for target_name, role in self.fills:
                source_name = next((n for n in value if self.roles["stat"].get(n) == role), None)
                if target_name in out or source_name is None:
                    continue
                out[target_name] = value[source_name]
                self.notes.setdefault(
                    f"stat {role} pair",
                    f"{self.source.title} has one stat of the role {role!r}: its {source_name!r} is read as "
                    f"{self.target.title}'s {self.names['stat'].get(source_name, source_name)!r} and {target_name!r}",
                )
        return out
