"""One position under several rulesets: each game's resolution, and where
the games part ways by their *rules* (``tcgtrig compare``).

Each game is a :class:`Column`: its resolution (or why it cannot resolve
the file), the notes that say how the file was read there (what the game
lacks of the file's words, its typo warnings, whose scripted choices were
set aside) and, where the file's script was written for another game and
the answers change the result, the distinct outcomes the explorer finds.

The games are compared by the core's roles (:mod:`tcgtrig.games.meanings`):
Digimon's ``trash`` and Magic's ``graveyard`` are both the zone of the role
``discard``, so a card that ends there in both is no difference; the names
go in the *vocabulary* instead.  What is left is rules: the order effects
resolved in (each game's rule for its first effect where they part), the
chain or stack each built, which effects were activated, lost, missed,
failed, declined or negated, the outcome, and the end state by role
(zones, flags, stats, counters, the events each card went through).  A
game's own bookkeeping (marks) is compared only when asked (``everything``).

The JSON object is the contract's: ``{"games": {GAME: <JSON trace>},
"differences": [...]}``, each game's trace with its ``notes`` (and
``outcomes`` where the answers matter); a game that cannot resolve the file
has ``{"error": MESSAGE}`` in place of its trace.  It adds ``vocabulary``:
``[{"kind": "zone", "role": "discard", "games": {GAME: NAME}}]``.  Each
difference has ``what`` and, per game, what that game gives:

- ``order``: the resolution orders differ; ``first`` is the 1-based place
  of the first effect where they part, ``games`` each game's order, and
  ``why`` per game the rule that put its effect there (when it says);
- ``chains``: the chains (or stack) each chain game built, link 1 first;
- ``outcome``: how the resolution ended (complete, draw, …);
- ``activated``, ``lost``, ``missed``, ``failed``, ``declined``,
  ``negated``: which effects ended so;
- ``counter``: one player's counter, by role (``player``, ``counter``);
- ``zone`` / ``flags`` / ``stat`` / ``events``: one card's zone, flags, a
  stat or the events it went through, by role (``card``; ``stat``);
- ``marks``: the game's own bookkeeping, only with ``everything``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from attrs import evolve, frozen

from ..base.errors import ChoiceError, PluginError, TcgTrigError
from ..games.manager import Ruleset, available_games, shared_ruleset, split_game
from ..games.meanings import ROLE_KINDS
from ..resolution import Resolution, resolve, summary
from ..scenario.reading import Bindings, Bound, Scenario

if TYPE_CHECKING:
    from ..model.info import GameInfo

__all__ = [
    "Column",
    "Comparison",
    "compare",
    "compare_games",
    "differences",
    "vocabulary",
    "comparison_json",
    "describe_difference",
    "describe_why",
    "describe_vocabulary",
    "no_differences",
    "EXPLORE_BUDGET",
]

ENDINGS = ("lost", "missed", "failed", "declined", "negated")
#: Positions the explorer may reach for one game whose answers were not
#: scripted (the file's script is another game's): enough for a few
#: decisions, small enough for a command that answers at once.
EXPLORE_BUDGET = 400
#: Distinct outcomes a column shows at most.
MAX_OUTCOMES = 6
#: What a game's default answers are, for the note that says they were used.
DEFAULT_ANSWERS = "the earliest triggered effect first, use, the first matching card, pass"


@frozen(kw_only=True)
class Column:
    """One game's side of a comparison.

    :param game: the ruleset's name (``yugioh/goat``).
    :param result: its resolution, or ``None`` when it cannot resolve the file.
    :param error: why it cannot (one line).
    :param notes: how the file was read there, one line per concept: what
        the game lacks of the file's words, its typo warnings, whose
        scripted choices were set aside, that nothing resolved.
    :param outcomes: where the file's script is another game's and the
        answers change the result: each distinct outcome's resolution (the
        first is the default answers'), as the explorer found them.
    :param explored: the explorer's verdict for ``outcomes`` (complete, or
        what stopped it).
    :param because: the file's own reason for this game's answer
        (``expect: {GAME: {because: …}}``).
    """

    game: str
    result: Resolution | None = None
    error: str | None = None
    notes: tuple[str, ...] = ()
    outcomes: tuple[Resolution, ...] = ()
    explored: str = ""
    because: str | None = None


@frozen
class Comparison:
    """The columns of a comparison, in the order the games were named."""

    title: str
    columns: tuple[Column, ...]

    @property
    def results(self) -> dict[str, Resolution | str]:
        """Game → its resolution, or its error (what :func:`compare_games` gives)."""
        return {c.game: c.result if c.result is not None else c.error or "" for c in self.columns}


def compare_games(scenario: Scenario, games: Sequence[str] | None = None) -> dict[str, Resolution | str]:
    """Resolve ``scenario`` under each of ``games`` (default: every installed
    game's default variant): game → its resolution, or why it cannot
    resolve the file (:func:`compare` says more).

    :raises TcgTrigError: an unknown game, or no game could resolve the file.
    """
    return compare(scenario, games, explore_budget=0).results


def compare(
    scenario: Scenario, games: Sequence[str] | None = None, *, explore_budget: int = EXPLORE_BUDGET
) -> Comparison:
    """Resolve ``scenario`` under each of ``games`` (default: every installed
    game's default variant), a :class:`Column` each.  A game that cannot
    resolve it gives its error, a game whose plugin is broken too (one
    broken plugin breaks no other game).  The file's flat ``choices`` are
    the answers of the game it is written for (its ``game:``, else every
    game they fit); the others take their default answers, and where those
    change the result the explorer (``explore_budget`` positions; 0: not
    at all) lists the distinct outcomes.

    :raises TcgTrigError: an unknown game, or no game could resolve the file.
    """
    names = list(games) if games else available_games()
    rulesets: dict[str, Ruleset | str] = {}
    for name in names:
        try:
            ruleset = shared_ruleset(name)  # one per game, also reading the file's words or printed text
        except PluginError as exc:  # a broken game is its own column's error; the others still resolve
            rulesets[name] = str(exc)
            continue
        # an unknown name fails above, listing the games
        rulesets[ruleset.name] = ruleset
    bindings = Bindings(scenario)  # each game's compile, also linting the file in its own words
    columns = [
        _column(bindings, name, ruleset, explore_budget)
        if isinstance(ruleset, Ruleset)
        else Column(game=name, error=ruleset)
        for name, ruleset in rulesets.items()
    ]
    if columns and all(c.result is None for c in columns):
        raise TcgTrigError(
            "no installed game could resolve this file: " + "; ".join(f"{c.game}: {c.error}" for c in columns)
        )
    return Comparison(scenario.title, tuple(_silent_columns_said(columns)))


def _column(bindings: Bindings, name: str, ruleset: Ruleset, explore_budget: int) -> Column:
    """One game's column: resolved with the file's script where it is this
    game's, else with the default answers (and their outcomes explored)."""
    scenario = bindings.scenario
    because = _because(scenario, ruleset)
    try:
        bound = bindings(ruleset)  # compiled once: each try below starts from a copy of its state
    except TcgTrigError as exc:
        return Column(game=name, error=str(exc), because=because)
    compiled = bound.compiled
    notes = [*compiled.notes, *_lint_lines(bindings, ruleset, compiled)]
    script = compiled.choices
    owner = _script_owner(scenario)
    scripted = bool(script) and (owner is None or owner == ruleset.game)
    try:
        if scripted:
            try:
                result = resolve(bound)
            except ChoiceError as exc:
                if owner is not None:
                    raise  # the file's own script does not fit its own game: bad input, as run says
                notes.append(
                    f"the file's choices do not fit {ruleset.name} (choice #{exc.index} {exc.label!r} is not legal "
                    f"for {exc.decision}): {_defaults_used()}"
                )
                result = resolve(bound, choices=[])
                scripted = False
        else:
            if script:
                notes.append(f"the file's choices are {_title(owner)}'s: {_defaults_used()}")
            result = resolve(bound, choices=[])
    except ChoiceError:
        raise  # the file's own script refused by its own game: bad input (run says the same)
    except TcgTrigError as exc:
        return Column(game=name, error=str(exc), notes=tuple(notes), because=because)
    outcomes: tuple[Resolution, ...] = ()
    explored = ""
    if script and not scripted and explore_budget > 0:
        outcomes, explored = _outcomes(bound, result, explore_budget)
    return Column(game=name, result=result, notes=tuple(notes), outcomes=outcomes, explored=explored, because=because)


def _title(game: str | None) -> str:
    """A game's title, or its name where it cannot be loaded."""
    try:
        return shared_ruleset(game).info.title if game in available_games() else str(game)
    except TcgTrigError:
        return str(game)


def _defaults_used() -> str:
    return f"resolved with its default answers ({DEFAULT_ANSWERS})"


def _script_owner(scenario: Scenario) -> str | None:
    """The game a flat ``choices`` list is written for: the file's ``game:``
    (or ``words:``); ``None`` when it names none (then every game the
    labels fit takes them)."""
    for key in ("game", "words"):
        named = scenario.data.get(key)
        if isinstance(named, str):
            return split_game(named)[0]
    return None


def _because(scenario: Scenario, ruleset: Ruleset) -> str | None:
    expect = scenario.data.get("expect")
    if not isinstance(expect, dict):
        return None
    key = ruleset.key_in(expect)
    entry = expect.get(key) if key is not None else None
    because = entry.get("because") if isinstance(entry, dict) else None
    return because if isinstance(because, str) else None


def _lint_lines(bindings: Bindings, ruleset: Ruleset, compiled: Any) -> list[str]:
    """The game's typo warnings for the file, as one line each (the file's
    name left out: every note is about this file)."""
    from .lint import lint

    try:
        findings = lint(bindings.scenario, ruleset, compiled, bindings=bindings)
    except TcgTrigError:
        return []
    return [f"line {f.line}, {f.path}: {f.message}" if f.line else f"{f.path}: {f.message}" for f in findings]


def _outcomes(bound: Bound, first: Resolution, budget: int) -> tuple[tuple[Resolution, ...], str]:
    """The distinct outcomes the answers can reach (the default answers'
    first), each resolved again from the script that reaches it; none when
    the answers cannot change the result."""
    from .explore import explore

    found = explore(bound, max_states=budget, max_outcomes=MAX_OUTCOMES, jobs=1)
    if len(found.outcomes) < 2:
        return (), ""
    seen = {_end_key(first)}
    out = [first]
    for outcome in found.outcomes:
        try:
            result = resolve(bound, choices=outcome.choices)
        except TcgTrigError:
            continue
        key = _end_key(result)
        if key not in seen:
            seen.add(key)
            out.append(result)
    verdict = "every answer tried" if found.complete else f"within {budget:,} positions: {found.reason}"
    return (tuple(out), verdict) if len(out) > 1 else ((), "")


def _end_key(result: Resolution) -> str:
    import json

    return json.dumps(
        [result.outcome, result.keys("resolved"), summary(result.state, result.engine.view)], sort_keys=True
    )


def _silent_columns_said(columns: list[Column]) -> list[Column]:
    """A game that resolved nothing while another resolved something says so."""
    if not any(c.result is not None and c.result.keys("resolved") for c in columns):
        return columns
    out = []
    for column in columns:
        if column.result is not None and not column.result.keys("resolved"):
            ended = [k for kind in ENDINGS for k in column.result.keys(kind)]
            why = (
                f"nothing resolved here ({', '.join(ended)} ended otherwise)"
                if ended
                else "nothing resolved here: no effect triggered"
            )
            column = evolve(column, notes=(*column.notes, why))
        out.append(column)
    return out


# -- roles ---------------------------------------------------------------------


def _roles(info: GameInfo) -> dict[str, dict[str, str]]:
    """kind → the game's name → its role."""
    return {kind: dict(getattr(info, f"{kind}_roles")) for kind in ROLE_KINDS}


class _ByRole:
    """One game's names read by role, recording which names each role had.

    A name the game gives no role keeps it from the other games compared
    (a zone of the role ``resource`` another game's file named ``mana``
    stays ``mana`` in a game without one: it is still that place).  Roles
    that some game compared lacks altogether (``lacking``: Yu-Gi-Oh! has no
    tapped state) are left out of flags and events: a game without the
    idea does not differ in it by a rule."""

    def __init__(
        self,
        game: str,
        info: GameInfo,
        words: dict[tuple[str, str], dict[str, str]],
        elsewhere: dict[str, dict[str, str]],
        lacking: dict[str, set[str]],
    ) -> None:
        self.game, self.roles, self.words = game, _roles(info), words
        self.elsewhere, self.lacking = elsewhere, lacking

    def __call__(self, kind: str, name: str | None) -> str | None:
        if name is None:
            return None
        role = self.roles[kind].get(name)
        if role is None:
            return self.elsewhere[kind].get(name, name)
        self.words.setdefault((kind, role), {})[self.game] = name
        return role

    def all(self, kind: str, names: Iterable[str]) -> list[str]:
        """The names, by role, without the roles some game compared lacks."""
        read = (str(self(kind, n)) for n in names)
        return sorted(n for n in read if n not in self.lacking[kind])


def _results_of(results: Comparison | dict[str, Resolution | str]) -> dict[str, Resolution | str]:
    return results.results if isinstance(results, Comparison) else results


def differences(results: Comparison | dict[str, Resolution | str], *, everything: bool = False) -> list[dict[str, Any]]:
    """Where the games that resolved the file part ways, by role, the order
    first (``everything``: the games' own bookkeeping, marks, too)."""
    return _compared(_results_of(results), everything)[0]


def vocabulary(results: Comparison | dict[str, Resolution | str]) -> list[dict[str, Any]]:
    """The roles the games name differently, among those the comparison
    read: ``{"kind", "role", "games": {GAME: NAME}}`` (a difference of names
    only, which is no difference)."""
    return _compared(_results_of(results), True)[1]


def _compared(
    results: dict[str, Resolution | str], everything: bool
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The differences by rule, then the vocabulary (the roles named differently)."""
    done = {name: r for name, r in results.items() if not isinstance(r, str)}
    if len(done) < 2:
        return [], []
    words: dict[tuple[str, str], dict[str, str]] = {}
    read = _readers(done, words)
    out = [*_rule_differences(done), *_end_differences(done, read, everything)]
    order = {kind: number for number, kind in enumerate(ROLE_KINDS)}
    said = [
        {"kind": kind, "role": role, "games": names}
        for (kind, role), names in sorted(words.items(), key=lambda item: (order[item[0][0]], item[0][1]))
        if len(set(names.values())) > 1
    ]
    return out, said


def _readers(done: dict[str, Resolution], words: dict[tuple[str, str], dict[str, str]]) -> dict[str, _ByRole]:
    """Each game's reader of names by role, sharing what they know: the
    roles of names some game lacks, and which roles not every game has."""
    roles = {name: _roles(r.engine.ruleset.info) for name, r in done.items()}
    elsewhere: dict[str, dict[str, str]] = {kind: {} for kind in ROLE_KINDS}
    lacking: dict[str, set[str]] = {kind: set() for kind in ROLE_KINDS}
    for kind in ROLE_KINDS:
        for game_roles in roles.values():
            for name, role in game_roles[kind].items():
                elsewhere[kind].setdefault(name, role)
        every = [set(game_roles[kind].values()) for game_roles in roles.values()]
        lacking[kind] = set().union(*every) - every[0].intersection(*every[1:])
    return {name: _ByRole(name, r.engine.ruleset.info, words, elsewhere, lacking) for name, r in done.items()}


def _rule_differences(done: dict[str, Resolution]) -> list[dict[str, Any]]:
    """The order (with each game's rule for where they part), the chains,
    the outcome, and which effects ended how."""
    out: list[dict[str, Any]] = []
    orders = {name: r.keys("resolved") for name, r in done.items()}
    if len({tuple(o) for o in orders.values()}) > 1:
        first = next(
            i
            for i in range(max(len(o) for o in orders.values()) + 1)
            if len({tuple(o[i : i + 1]) for o in orders.values()}) > 1
        )
        difference: dict[str, Any] = {"what": "order", "first": first + 1, "games": orders}
        why = {name: _why_placed(done[name], orders[name], first) for name in done}
        if any(why.values()):
            difference["why"] = {name: text for name, text in why.items() if text}
        out.append(difference)
    chains = {name: r.chains() for name, r in done.items() if r.engine.ruleset.chain}
    if len(chains) >= 2:  # each game's word for its chain: Yu-Gi-Oh!'s Chain, Magic's stack
        terms = {name: done[name].engine.ruleset.info.term("chain") for name in chains}
        _add(out, {"what": "chains", "terms": terms}, chains)
    _add(out, {"what": "outcome"}, {name: r.outcome for name, r in done.items()})
    activated = {name: sorted(r.keys("activated")) for name, r in done.items()}
    if any(activated[name] != sorted(r.keys("resolved")) for name, r in done.items()):
        _add(out, {"what": "activated"}, activated)
    for kind in ENDINGS:
        _add(out, {"what": kind}, {name: sorted(r.keys(kind)) for name, r in done.items()})
    return out


def _end_differences(done: dict[str, Resolution], read: dict[str, _ByRole], everything: bool) -> list[dict[str, Any]]:
    """The end state by role: counters, each card's zone, flags, stats and
    the events it went through (``everything``: marks too)."""
    out: list[dict[str, Any]] = []
    ends = {name: summary(r.state, r.engine.view) for name, r in done.items()}
    for player in sorted({p for e in ends.values() for p in e["counters"]}):
        by_role = {
            name: {str(read[name]("counter", c)): v for c, v in e["counters"].get(player, {}).items()}
            for name, e in ends.items()
        }
        for counter in sorted({c for values in by_role.values() for c in values}):
            values = {name: by_role[name].get(counter, 0) for name in ends}
            _add(out, {"what": "counter", "player": player, "counter": counter}, values)
    events = {name: _events_by_role(r, read[name]) for name, r in done.items()}
    for card in next(iter(ends.values()))["zones"]:
        _add(out, {"what": "zone", "card": card}, {n: read[n]("zone", e["zones"].get(card)) for n, e in ends.items()})
        _add(
            out,
            {"what": "flags", "card": card},
            {n: read[n].all("flag", e["flags"].get(card, [])) for n, e in ends.items()},
        )
        stats = {n: {str(read[n]("stat", s)): v for s, v in e["stats"].get(card, {}).items()} for n, e in ends.items()}
        for stat in sorted({s for values in stats.values() for s in values}):
            having = {name: values[stat] for name, values in stats.items() if stat in values}
            if len(having) >= 2:  # a stat one game alone counts is no rule to compare
                _add(out, {"what": "stat", "card": card, "stat": stat}, having)
        _add(out, {"what": "events", "card": card}, {name: e.get(card, []) for name, e in events.items()})
    if everything:
        _add(out, {"what": "marks"}, {name: e.get("marks", []) for name, e in ends.items()})
    return out


def _events_by_role(result: Resolution, read: _ByRole) -> dict[str, list[str]]:
    """Card → the events with a role it went through, in order (what the
    game calls them read by role)."""
    out: dict[str, list[str]] = {}
    roles = read.roles["event"]
    for step in result.trace:
        if step.kind == "event" and step.get("card") is not None and step.get("event") in roles:
            role = str(read("event", step["event"]))
            if role not in read.lacking["event"]:
                out.setdefault(step["card"], []).append(role)
    return out


def _why_placed(result: Resolution, order: list[str], index: int) -> str:
    """The rules the game states for the effect at ``index`` of its order
    (:meth:`Resolution.placements`): what put others ahead of it, what put
    it ahead of others, and its chain's order; empty when it never
    competed."""
    if index >= len(order):
        return ""
    placement = result.placements()[index]
    chain = result.engine.ruleset.info.term("chain")
    parts = [f"put on the {chain} after another: {rule}" for rule in placement.behind]
    if placement.activated:
        parts.append(placement.activated)
    if placement.resolved:
        parts.append(placement.resolved)
    return f"{placement.key}: " + "; ".join(dict.fromkeys(parts)) if parts else ""


def comparison_json(
    results: Comparison | dict[str, Resolution | str], *, lazy: bool = False, everything: bool = False
) -> dict[str, Any]:
    """The contract's object: each game's JSON trace (with its notes, and
    the distinct outcomes where the answers matter), then the differences
    and the vocabulary (``lazy``: each trace's steps made as they are
    written, see :meth:`Resolution.to_dict`)."""
    columns = (
        results.columns
        if isinstance(results, Comparison)
        else tuple(
            Column(game=n, error=r) if isinstance(r, str) else Column(game=n, result=r) for n, r in results.items()
        )
    )
    plain = _results_of(results)
    games: dict[str, Any] = {}
    for column in columns:
        if column.result is None:
            games[column.game] = {"error": column.error, **({"notes": list(column.notes)} if column.notes else {})}
            continue
        trace = column.result.to_dict(lazy=lazy)
        if column.notes:
            trace["notes"] = list(column.notes)
        if column.because:
            trace["because"] = column.because
        if column.outcomes:
            trace["outcomes"] = [
                {"choices": _script_of(r), "resolved": r.keys("resolved"), "outcome": r.outcome}
                for r in column.outcomes
            ]
            trace["explored"] = column.explored
        games[column.game] = trace
    found, said = _compared(plain, everything)
    return {"games": games, "differences": found, "vocabulary": said}


def _script_of(result: Resolution) -> list[str]:
    """The answers a resolution took, in order (a script that replays it)."""
    return [str(step.get("label")) for step in result.trace if step.kind == "choice" and step.get("label") is not None]


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
    if what == "chains":
        terms = difference.get("terms", {})
        return "what each chain game built: " + " | ".join(
            f"{shown(g)}: {shown(terms.get(g, 'chain'))} {_value(v, shown)}" for g, v in games.items()
        )
    label = {
        "counter": f"{shown(difference.get('player'))}'s {shown(difference.get('counter'))}",
        "zone": f"zone of {shown(difference.get('card'))}",
        "flags": f"flags of {shown(difference.get('card'))}",
        "stat": f"{shown(difference.get('stat'))} of {shown(difference.get('card'))}",
        "events": f"what happened to {shown(difference.get('card'))}",
    }.get(what, what)
    return f"{label}: " + " | ".join(f"{shown(g)}: {_value(v, shown)}" for g, v in games.items())


def describe_why(difference: dict[str, Any], shown: Callable[[Any], str] = str) -> list[str]:
    """For an order difference, one line per game that states its rule: why
    its effect is where the orders part."""
    sentence = getattr(shown, "sentence", shown)  # a rule is a sentence, not a name to shorten
    return [f"{shown(game)}: {sentence(text)}" for game, text in difference.get("why", {}).items()]


def describe_vocabulary(entry: dict[str, Any], shown: Callable[[Any], str] = str) -> str:
    """One line for one role the games name differently: ``discard (zone):
    trash | graveyard``, each name once, in the order the games came."""
    names: list[str] = []
    for name in entry["games"].values():
        if name not in names:
            names.append(name)
    return f"{shown(entry['role'])} ({entry['kind']}): " + " | ".join(shown(n) for n in names)


#: Items of a list a difference line writes at most (``compare --json`` has them all).
LISTED = 12


def _value(value: Any, shown: Callable[[Any], str]) -> str:
    """A game's value in words: a list as its items, comma-separated (the
    first :data:`LISTED`, then how many more; ``none`` if empty), a list
    inside it in brackets, each name ``shown``."""
    if isinstance(value, (list, tuple)):
        if not value:
            return "none"
        items = [_item(v, shown) for v in value[:LISTED]]
        if len(value) > LISTED:
            items.append(f"… and {len(value) - LISTED:,} more")
        return ", ".join(items)
    return shown(value) if isinstance(value, str) else str(value)


def _item(value: Any, shown: Callable[[Any], str]) -> str:
    if isinstance(value, (list, tuple)):
        return "(" + (_value(value, shown) if value else "") + ")"
    return shown(value) if isinstance(value, str) else str(value)


def no_differences(results: Comparison | dict[str, Resolution | str], *, everything: bool = False) -> str | None:
    """What to say when the games show no difference: that they agree (and
    which could not resolve the file), or that only one could; None when
    they differ."""
    plain = _results_of(results)
    if differences(plain, everything=everything):
        return None
    resolved = [name for name, r in plain.items() if not isinstance(r, str)]
    refused = [name for name, r in plain.items() if isinstance(r, str)]
    if len(resolved) == 1:
        if refused:
            return f"Only {resolved[0]} could resolve the file: nothing to compare with the others."
        return f"Only {resolved[0]} was compared: nothing to compare it with."
    if refused:
        return f"The games that resolved the file agree ({', '.join(resolved)}); {', '.join(refused)} could not."
    return "The games agree."


def _add(out: list[dict[str, Any]], what: dict[str, Any], games: dict[str, Any]) -> None:
    if len({repr(v) for v in games.values()}) > 1:
        out.append({**what, "games": games})
