"""Validating a scenario file: the JSON Schema shipped in the package
(:func:`schema`), checked fast and explained when it fails, then the
numbers, games, players and cards the schema cannot check.  Every error
names the file, the line, the key path, what was expected and, for unknown
ids, the legal ones.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import fastjsonschema

from ..model.values import (
    SOURCES,
)
from .source import Source

if TYPE_CHECKING:
    import jsonschema

Path_ = tuple[Any, ...]

#: Words a player may not be called: they mean players relative to an effect.
RESERVED_PLAYERS = ("self", "opponent", "any", "turn_player")
#: The largest number a file may hold, either way (life points, memory, a
#: counter, an amount): anything beyond is a typo or an attack.
MAX_NUMBER = 1_000_000_000
#: The most cards one ``draw`` may draw (each may be its own event).
#: Words that mean something where a card is named (selectors, patterns,
#: the answers to a decision): no card may be called so.
RESERVED_CARD_IDS = frozenset(
    {
        "self",
        "source",
        "event",
        "event.card",
        "event.against",
        "own",
        "own_other",
        "opponent",
        "other",
        "any",
        "all",
        "none",
        "turn_player",
        "use",
        "decline",
        "pass",
    }
)


@lru_cache(maxsize=1)
def schema(kind: str = "scenario") -> dict[str, Any]:
    """The JSON Schema of scenario files (format 1) — or, with ``kind="trace"``,
    of the JSON trace — as shipped."""
    text = resources.files("tcgtrig.scenario").joinpath(f"schema/{kind}.schema.json").read_text("utf-8")
    return json.loads(text)


@cache
def fast_validator(part: str | None) -> Callable[[Any], Any]:
    """The schema compiled to Python (fastjsonschema): ten times faster on a
    large file.  The schema uses only keywords that mean the same in the
    draft fastjsonschema compiles, and a test checks both agree.  It only
    tells valid from invalid (jsonschema explains), so it is compiled
    without detailed messages: three times quicker to build."""
    whole = {key: value for key, value in schema().items() if key != "$id"}  # every reference is local
    if part is not None:
        whole = {"$defs": whole["$defs"], "$ref": f"#/$defs/{part}"}
    return fastjsonschema.compile(_without_const(whole), handlers={}, detailed_exceptions=False)


def _without_const(node: Any) -> Any:
    """A schema with ``const: X`` spelled ``enum: [X]``, the same test
    (fastjsonschema 2.22 cannot compile ``const`` without detailed messages)."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "const":
            key, value = "enum", [value]
        elif key in ("properties", "patternProperties", "$defs", "dependentSchemas"):  # name → schema
            value = {name: _without_const(part) for name, part in value.items()}
        elif key in ("allOf", "anyOf", "oneOf", "prefixItems"):  # schemas
            value = [_without_const(part) for part in value]
        elif key in ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"):
            value = _without_const(value)
        out[key] = value
    return out


@cache
def validator(part: str | None) -> jsonschema.Draft202012Validator:
    """A validator for the whole file, or for one of its definitions (built
    once: building one resolves every reference of the schema).  Only an
    invalid file needs one, so jsonschema is imported only then.

    An "integer" is a whole number written as one: JSON Schema 2019+ counts
    ``2.0`` as an integer, a card game does not (a stat of ``500.0`` is a
    typo, and would reach the rules as a float)."""
    import jsonschema

    whole = schema()
    if part is not None:
        whole = {"$defs": whole["$defs"], "$ref": f"#/$defs/{part}"}
    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine("integer", lambda _checker, value: _is_integer(value))
    return jsonschema.validators.extend(base, type_checker=checker)(whole)


def _is_integer(value: Any) -> bool:
    """Whether ``value`` is an integer as a scenario means it: not a boolean, not a float."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_schema(
    source: Source, data: Any = None, at: Path_ = (), part: str | None = None, *, plain_numbers: bool | None = None
) -> None:
    """Check the file against the schema — or, with ``part``, the value
    ``data`` found at ``at`` against that definition (an ability a word
    carries inside an action, which the schema leaves open).

    The compiled check reads "integer" as JSON Schema does (``2.0`` is one);
    jsonschema, as a scenario does (:func:`validator`).  So a file passes
    on the compiled check alone only when its numbers are plain
    (:func:`numbers_plain`, or ``plain_numbers`` when the caller knows):
    one with a decimal anywhere goes to jsonschema, which refuses a decimal
    where the schema wants an integer.  (A decimal where the schema leaves
    the value open, in an action, is for the reader of that action.)"""
    if part is None:
        data = source.data
    if plain_numbers is None:
        plain_numbers = numbers_plain(data)
    try:
        fast_validator(part)(data)
        if plain_numbers:
            return  # valid: the common case, checked by compiled code
    except fastjsonschema.JsonSchemaException:
        pass  # jsonschema finds and explains every problem
    checker = validator(part)
    errors = sorted(
        checker.iter_errors(data),
        key=lambda e: (
            source.line(at + tuple(e.absolute_path)) or 0,
            len(e.absolute_path),
            _document_order(data, e.absolute_path),
        ),
    )
    if not errors:
        return
    error = _most_telling(errors[0])
    path = at + tuple(error.absolute_path)
    message, options = _explain(error)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {})) if isinstance(error.schema, dict) else set()
        path = path + (sorted(set(error.instance) - allowed)[0],)
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    raise source.error(path, message, options)


def _document_order(data: Any, path: Sequence[Any]) -> tuple[int, ...]:
    """Where ``path`` lies in ``data``, as the place of each key or item
    among its siblings: file order, for errors on one line (jsonschema
    finds some in the order of a set, which changes from run to run)."""
    order: list[int] = []
    for step in path:
        if isinstance(data, dict):
            order.append(next((i for i, key in enumerate(data) if key == step), len(data)))
            data = data.get(step)
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            order.append(step)
            data = data[step]
        else:
            break
    return tuple(order)


def _most_telling(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """Inside a "one of these shapes" error, the error of the shape the value
    was meant to have (an unknown key in a pattern, not "does not fit")."""
    from jsonschema.exceptions import best_match

    error = best_match([error])
    rank: dict[object, int] = {"additionalProperties": 0, "required": 1, "enum": 2}
    while error.validator in ("oneOf", "anyOf") and error.context:
        meant = [e for e in error.context if not (e.validator == "type" and not e.relative_path)]
        if not meant:
            break
        error = min(meant, key=lambda e: (rank.get(e.validator, 3), -len(e.relative_path)))
    return error


def _explain(error: jsonschema.ValidationError) -> tuple[str, list[str] | None]:
    """A readable message for a schema error, and the legal options if any."""
    kind = error.validator
    # what failed and what it was checked against (set, in a validation's error)
    instance: Any = error.instance
    value: Any = error.validator_value
    schema_part = error.schema if isinstance(error.schema, dict) else {}
    if kind == "required":
        missing = [m for m in value if m not in (instance or {})]
        return f"missing required key {missing[0]!r}", None
    if kind == "additionalProperties":
        allowed = sorted(schema_part.get("properties", {}))
        extra = sorted(set(instance) - set(allowed))
        return f"unknown key {extra[0]!r}", allowed
    if kind == "enum":
        return f"{error.instance!r} is not allowed", [str(v) for v in value]
    if kind == "const":
        return f"expected {error.validator_value!r}, got {error.instance!r}", None
    if kind == "type":
        wanted = value
        wanted = " or ".join(wanted) if isinstance(wanted, list) else wanted
        return f"expected {article(wanted)}, got {describe(error.instance)}", None
    if kind == "pattern":
        return f"{error.instance!r} must match {error.validator_value} (lower-case letters, digits, _)", None
    if kind == "oneOf":
        return f"{describe(error.instance)} does not fit: {schema_part.get('description', 'see the format')}", None
    if kind in ("minItems", "maxItems"):
        return f"expected {error.validator_value} item(s) {'at least' if kind == 'minItems' else 'at most'}", None
    if kind == "uniqueItems":
        return "items must all be different", None
    if kind == "minProperties":
        return "must not be empty", None
    return error.message, None


def article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def describe(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"{value!r} (a boolean: YAML reads yes/no/on/off as booleans; quote it)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def check_numbers(source: Source) -> None:
    """No number of a card game is beyond :data:`MAX_NUMBER` either way."""
    todo: list[tuple[Path_, Any]] = [((), source.data)]
    while todo:
        path, value = todo.pop()
        if isinstance(value, dict):
            todo.extend((path + (key,), item) for key, item in value.items())
        elif isinstance(value, list):
            todo.extend((path + (index,), item) for index, item in enumerate(value))
        elif isinstance(value, int) and not isinstance(value, bool) and not -MAX_NUMBER <= value <= MAX_NUMBER:
            shown = f"{value:,}" if isinstance(value, int) and abs(value) < 10**30 else "a number that large"
            raise source.error(path, f"{shown} is beyond ±{MAX_NUMBER:,}: no card game counts that far")


def numbers_plain(data: Any) -> bool:
    """Whether every number in ``data`` is an integer within
    ±:data:`MAX_NUMBER` (booleans are, and so never need telling apart
    here): the common case, found in one walk without keeping paths."""
    todo: list[Any] = [[data]]  # the collections still to look into
    while todo:
        value = todo.pop()
        for item in value.values() if isinstance(value, dict) else value:
            if isinstance(item, (dict, list)):
                todo.append(item)
            elif isinstance(item, float) or isinstance(item, int) and not -MAX_NUMBER <= item <= MAX_NUMBER:
                return False
    return True


def check_games(source: Source) -> None:
    """A game the file names that is not installed but is close to one that
    is, is a typo: say so now.  (Another game may simply not be installed
    here: its expectations are skipped, and running the file under it says
    it is unknown.)"""
    data = source.data
    named: list[tuple[tuple[str, ...], str]] = [(("game",), data["game"])] if isinstance(data.get("game"), str) else []
    named += [(("expect", name), name) for name in data.get("expect") or {}]
    installed = sorted(installed_games())
    for path, name in named:
        base = name.split("/", 1)[0]
        if base in installed:
            continue
        close = difflib.get_close_matches(base, installed, n=1, cutoff=0.7)
        if close:
            raise source.error(path, f"unknown game {name!r}: did you mean {close[0]!r}?", installed)


def check_cards(source: Source, players: tuple[str, ...]) -> None:
    cards = source.data["cards"]
    seen: dict[str, int] = {}
    for number, card in enumerate(cards):
        path: Path_ = ("cards", number)
        if card["id"] in RESERVED_CARD_IDS:
            raise source.error(
                path + ("id",),
                f"a card cannot be called {card['id']!r}: the word already means something where a card is named",
                ["any other id"],
            )
        if card["id"] in seen:
            raise source.error(path + ("id",), f"duplicate card id {card['id']!r} (also cards[{seen[card['id']]}])")
        seen[card["id"]] = number
        if card["owner"] not in players:
            raise source.error(path + ("owner",), f"unknown player {card['owner']!r}", players)
        ability_ids: set[str] = set()
        for index, ability in enumerate(card.get("abilities") or []):
            if ability["id"] in ability_ids:
                raise source.error(
                    path + ("abilities", index, "id"), f"duplicate ability id {ability['id']!r} on card {card['id']!r}"
                )
            ability_ids.add(ability["id"])
    ids = list(seen)
    settled: set[str] = set()  # cards whose pile is known to end on a card under nothing
    for number, card in enumerate(cards):
        path = ("cards", number)
        under = card.get("under")
        if under is not None:
            if card["zone"] != SOURCES:
                raise source.error(path + ("under",), "'under' goes with zone: sources")
            if under not in seen:
                raise source.error(path + ("under",), f"unknown card {under!r}", ids)
            # no circles: follow the pile down until a card already known to be sound (linear overall)
            chain: dict[str, int] = {card["id"]: 0}
            parent = under
            while parent is not None and parent not in settled:
                if parent in chain:
                    names = list(chain)
                    circle = " → ".join([*names[chain[parent] :], parent])
                    raise source.error(path + ("under",), f"cards are stacked under each other in a circle: {circle}")
                chain[parent] = len(chain)
                parent = cards[seen[parent]].get("under")
            settled.update(chain)
        elif card["zone"] == SOURCES:
            raise source.error(path + ("zone",), "a card in sources needs 'under': the card it is stacked under")


@lru_cache(maxsize=1)
def installed_games() -> frozenset[str]:
    from ..games.manager import available_games

    return frozenset(available_games())
