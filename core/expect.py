"""Checking a resolution against a scenario's ``expect`` block.

Orders are compared exactly for ``resolved``, ``activated`` and
``triggered`` (the point of the project); ``failed``, ``declined``,
``missed``, ``lost`` and ``prevented`` are compared as multisets, in any
order.  ``counters``, ``zones``, ``flags`` and ``stats`` check only the
entries they list; ``used`` is the set of once-per-turn keys spent.
``refused: TEXT`` says the file cannot be played under that game: it holds
when compiling the file for the game fails with an error containing TEXT.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from attrs import frozen

from .base.errors import ScenarioError
from .games.manager import Ruleset, load_ruleset
from .resolution import Resolution, resolve
from .scenario.reading import Bindings, Expectation, Scenario, bind

__all__ = ["Mismatch", "check_expectation", "check_scenario", "expected_refusal", "ORDERED"]

#: Expectation lists whose order matters.
ORDERED = ("resolved", "activated", "triggered")
#: What may stand beside ``refused``: a refused file resolves nothing to check.
BESIDE_REFUSED = ("refused", "because")


@frozen
class Mismatch:
    """One expected value that did not come out."""

    key: str
    expected: Any
    actual: Any


def check_scenario(
    scenario: Scenario, game: str | Ruleset, bindings: Bindings | None = None
) -> tuple[Resolution | None, list[Mismatch]]:
    """Resolve ``scenario`` under ``game`` and compare the result with the
    file's expectations for that game — what ``tcgtrig check`` and the
    pytest plugin do for each game a file expects.  Where the file expects
    to be refused under ``game`` (``refused: TEXT``), the resolution is
    ``None`` when it was, and the one mismatch is ``refused`` when the error
    does not contain TEXT or the file resolved after all.

    ``game``: a name, or its ruleset (loaded once by the caller); the
    ruleset is loaded at most once here, and the file compiled once (by
    ``bindings``, the file's compiles so far, when given).

    :raises TcgTrigError: the file cannot be resolved under ``game``, and
        its expectation does not say it is refused.
    """
    ruleset = game if isinstance(game, Ruleset) else load_ruleset(game)
    refused = expected_refusal(scenario, ruleset)
    try:
        result = resolve(bindings(ruleset) if bindings is not None else bind(scenario, ruleset))
    except ScenarioError as error:
        if refused is None:
            raise
        return None, [] if refused in str(error) else [Mismatch("refused", refused, str(error))]
    if refused is not None:
        return result, [Mismatch("refused", refused, f"not refused: it resolved (outcome: {result.outcome})")]
    return result, check_expectation(result, result.compiled.expect)  # type: ignore[arg-type]


def expected_refusal(scenario: Scenario, game: str | Ruleset) -> str | None:
    """The ``refused`` text of the file's expectation for ``game``, if any.

    :raises ScenarioError: other keys stand beside it (a refused file has
        nothing else to check).
    """
    expected = scenario.data.get("expect") or {}
    key = (game if isinstance(game, Ruleset) else load_ruleset(game)).key_in(expected)
    raw = expected.get(key) if key is not None else None
    if not isinstance(raw, dict) or "refused" not in raw:
        return None
    others = [name for name in raw if name not in BESIDE_REFUSED]
    if others:
        raise scenario.source.error(
            ("expect", key, "refused"),
            f"a file expected to be refused has nothing else to check: {', '.join(map(repr, others))} beside it",
            BESIDE_REFUSED,
        )
    return str(raw["refused"])


def check_expectation(result: Resolution, expect: Expectation) -> list[Mismatch]:
    """Every difference between ``expect`` and ``result`` (empty if none)."""
    out: list[Mismatch] = []
    for name, wanted in expect.lists:
        if name == "used":
            actual = sorted(result.state.used)  # each key once, however often used
            if sorted(wanted) != actual:
                out.append(Mismatch("used", sorted(wanted), actual))
            continue
        got = result.keys(name)
        if name in ORDERED:
            if list(wanted) != got:
                out.append(Mismatch(name, list(wanted), got))
        elif Counter(wanted) != Counter(got):
            out.append(Mismatch(name, sorted(wanted), sorted(got)))
    state = result.state
    for player, values in expect.counters:
        for counter, number in values:
            got_number = state.counter(player, counter)
            if got_number != number:
                out.append(Mismatch(f"counters.{player}.{counter}", number, got_number))
    for card_id, zone in expect.zones:
        got_zone = state.cards[card_id].zone
        if got_zone != zone:
            out.append(Mismatch(f"zones.{card_id}", zone, got_zone))
    for card_id, flags in expect.flags:
        got = sorted(state.cards[card_id].flags)
        if list(flags) != got:
            out.append(Mismatch(f"flags.{card_id}", list(flags), got))
    for card_id, values in expect.stats:
        for stat, number in values:
            got_stat = result.stat(card_id, stat)
            if got_stat != number:
                out.append(Mismatch(f"stats.{card_id}.{stat}", number, got_stat))
    if expect.chains is not None:
        got_chains = result.chains()
        if [list(chain) for chain in expect.chains] != got_chains:
            out.append(Mismatch("chains", [" → ".join(c) for c in expect.chains], [" → ".join(c) for c in got_chains]))
    if expect.outcome is not None and expect.outcome != result.outcome:
        out.append(Mismatch("outcome", expect.outcome, result.outcome))
    return out
