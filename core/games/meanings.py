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

__all__ = ["word_meanings", "meaning_elsewhere", "flow"]

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
    from .manager import load_ruleset

    out = []
    for word, expand in sorted(load_ruleset(game).aliases.items()):
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
    from .manager import available_games, load_ruleset, split_game

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
            title = load_ruleset(other).info.title
            found.append(f"{title}'s word ({word}: {sample} means {meaning})" if meaning else f"{title}'s word")
    if not found:
        return None
    return (
        "it is " + "; ".join(found) + f", not one of {own}'s: write its meaning in core words, "
        f"with {own}'s zones and events, or use one of {own}'s words"
    )


class NoMeaning(Exception):
    """A word of another game names something the game reading it has no
    counterpart for (a zone, event or flag whose role it lacks)."""


def _role_map(source: tuple[tuple[str, str], ...], target: tuple[tuple[str, str], ...]) -> dict[str, str | None]:
    """Source name → the target's name for the same role (``None``: the
    target has none)."""
    by_role: dict[str, str] = {}
    for name, role in target:
        by_role.setdefault(role, name)
    return {name: by_role.get(role) for name, role in source}


def translate(data: Any, source: Any, target: Any) -> Any:
    """Core actions one game's word expanded to (``data``), read in another
    game (``source``/``target``: their ``GameInfo``): each zone, event and
    flag with a role becomes the target's name for that role.

    :raises NoMeaning: the target has no zone or flag of that role, saying
        which (an event of a role it lacks keeps its name).
    """
    maps = {
        "zone": _role_map(source.zone_roles, target.zone_roles),
        "event": _role_map(source.event_roles, target.event_roles),
        "flag": _role_map(source.flag_roles, target.flag_roles),
    }
    kinds = {
        "to": "zone",
        "from": "zone",
        "zone": "zone",
        "in": "zone",
        "as": "event",
        "event": "event",
        "happened": "event",
        "set": "flag",
        "clear": "flag",
        "flag": "flag",
        "no_flag": "flag",
        "has": "flag",
        "hold": "flag",
    }
    roles = {"zone": dict(source.zone_roles), "event": dict(source.event_roles), "flag": dict(source.flag_roles)}

    def name(kind: str, value: str) -> str:
        mapping = maps[kind]
        if value not in mapping:
            return value  # no role: the same name in every game
        mapped = mapping[value]
        if mapped is None and kind == "event":
            return value  # an event is a name: the file's triggers in the same words still see it
        if mapped is None:
            raise NoMeaning(
                f"{target.title} has no {kind} in the role {roles[kind][value]!r} ({source.title}'s {value!r})"
            )
        return mapped

    def walk(value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        if isinstance(value, str) and key in kinds:
            return name(kinds[key], value)
        return value

    return walk(data)
