"""One position under several rulesets: each game's resolution, and where
the games part ways (``tcgtrig compare``).

The JSON object is the contract's: ``{"games": {GAME: <JSON trace>},
"differences": [...]}``; a game that cannot resolve the file has
``{"error": MESSAGE}`` in place of its trace.  Each difference is one
object with ``what`` and, per game, what that game gives:

- ``order``: the resolution orders differ; ``first`` is the 1-based place
  of the first effect where they part, ``games`` each game's order;
- ``outcome``: how the resolution ended (complete, draw, …);
- ``lost``, ``missed``, ``failed``, ``declined``: which effects ended so;
- ``counter``: one player's counter (``player``, ``counter``);
- ``zone`` / ``flags``: one card's zone or flags at the end (``card``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..base.errors import PluginError, TcgTrigError
from ..games.manager import Ruleset, available_games, load_ruleset
from ..resolution import Resolution, resolve, summary
from ..scenario.reading import Scenario

__all__ = ["compare_games", "differences", "comparison_json", "describe_difference", "no_differences"]

ENDINGS = ("lost", "missed", "failed", "declined", "negated")


def compare_games(scenario: Scenario, games: Sequence[str] | None = None) -> dict[str, Resolution | str]:
    """Resolve ``scenario`` under each of ``games`` (default: every installed
    game's default variant); a game that cannot resolve it gives its error,
    a game whose plugin is broken too (one broken plugin breaks no other game).

    :raises TcgTrigError: an unknown game, or no game could resolve the file.
    """
    names = list(games) if games else available_games()
    rulesets: dict[str, Ruleset | str] = {}
    for name in names:
        try:
            rulesets[name] = load_ruleset(name)
        except PluginError as exc:  # a broken game is its own column's error; the others still resolve
            rulesets[name] = str(exc)
        # an unknown name fails here, listing the games
    results: dict[str, Resolution | str] = {}
    for name, ruleset in rulesets.items():
        if isinstance(ruleset, str):
            results[name] = ruleset
            continue
        try:
            results[ruleset.name] = resolve(scenario, ruleset)
        except TcgTrigError as exc:
            results[ruleset.name] = str(exc)
    if results and all(isinstance(r, str) for r in results.values()):
        raise TcgTrigError(
            "no installed game could resolve this file: " + "; ".join(f"{n}: {r}" for n, r in results.items())
        )
    return results


def differences(results: dict[str, Resolution | str]) -> list[dict[str, Any]]:
    """Where the games that resolved the file part ways, the order first."""
    done = {name: r for name, r in results.items() if not isinstance(r, str)}
    if len(done) < 2:
        return []
    out: list[dict[str, Any]] = []
    orders = {name: r.keys("resolved") for name, r in done.items()}
    if len({tuple(o) for o in orders.values()}) > 1:
        first = next(
            i
            for i in range(max(len(o) for o in orders.values()) + 1)
            if len({tuple(o[i : i + 1]) for o in orders.values()}) > 1
        )
        out.append({"what": "order", "first": first + 1, "games": orders})
    _add(out, {"what": "outcome"}, {name: r.outcome for name, r in done.items()})
    for kind in ENDINGS:
        _add(out, {"what": kind}, {name: sorted(r.keys(kind)) for name, r in done.items()})
    ends = {name: summary(r.state, r.engine.view) for name, r in done.items()}
    any_end = next(iter(ends.values()))
    players = sorted({p for e in ends.values() for p in e["counters"]})
    for player in players:
        counters = sorted({c for e in ends.values() for c in e["counters"].get(player, {})})
        for counter in counters:
            _add(
                out,
                {"what": "counter", "player": player, "counter": counter},
                {name: e["counters"].get(player, {}).get(counter, 0) for name, e in ends.items()},
            )
    for card in any_end["zones"]:
        _add(out, {"what": "zone", "card": card}, {name: e["zones"].get(card) for name, e in ends.items()})
    for card in any_end["flags"]:
        _add(out, {"what": "flags", "card": card}, {name: e["flags"].get(card, []) for name, e in ends.items()})
    _add(out, {"what": "marks"}, {name: e.get("marks", []) for name, e in ends.items()})
    return out


def comparison_json(results: dict[str, Resolution | str], *, lazy: bool = False) -> dict[str, Any]:
    """The contract's object: each game's JSON trace, then the differences
    (``lazy``: each trace's steps made as they are written, see
    :meth:`Resolution.to_dict`)."""
    return {
        "games": {name: {"error": r} if isinstance(r, str) else r.to_dict(lazy=lazy) for name, r in results.items()},
        "differences": differences(results),
    }


def describe_difference(difference: dict[str, Any], shown: Callable[[Any], str] = str) -> str:
    """One line for one difference, game by game; ``shown`` writes each
    name or value (the command line escapes and shortens them)."""
    what = difference["what"]
    games = difference["games"]
    if what == "order":
        first = difference["first"]
        return f"order, from effect {first}: " + " | ".join(
            f"{shown(g)}: {' → '.join(map(shown, o[first - 1 : first + 2])) or '(nothing)'}" for g, o in games.items()
        )
    label = {
        "counter": f"{shown(difference.get('player'))}'s {shown(difference.get('counter'))}",
        "zone": f"zone of {shown(difference.get('card'))}",
        "flags": f"flags of {shown(difference.get('card'))}",
    }.get(what, what)
    return f"{label}: " + " | ".join(f"{shown(g)}: {_value(v, shown)}" for g, v in games.items())


def _value(value: Any, shown: Callable[[Any], str]) -> str:
    """A game's value as Python writes it (``['a.b']``), each name ``shown``."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(f"'{shown(v)}'" if isinstance(v, str) else shown(v) for v in value) + "]"
    return shown(value) if isinstance(value, str) else repr(value)


def no_differences(results: dict[str, Resolution | str]) -> str | None:
    """What to say when the games show no difference: that they agree, or
    that only some could resolve the file; None when they differ."""
    if differences(results):
        return None
    resolved = [name for name, r in results.items() if not isinstance(r, str)]
    if len(resolved) < len(results):
        return f"Only {', '.join(resolved)} could resolve the file: nothing to compare with the others."
    if len(resolved) == 1:
        return f"Only {resolved[0]} was compared: nothing to compare it with."
    return "The games agree."


def _add(out: list[dict[str, Any]], what: dict[str, Any], games: dict[str, Any]) -> None:
    if len({repr(v) for v in games.values()}) > 1:
        out.append({**what, "games": games})
