"""Compiling a scenario for a game: its cards, abilities, patterns,
conditions, numbers and actions read into the model (:class:`Compiled`).

Each action's arguments are read in the action's home
(:mod:`tcgtrig.language`), given the compiler as its reader.  Every error
names the file, the line, the key path, what was expected and the legal
options.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from attrs import field

from ..base.errors import PluginError, ScenarioError, TcgTrigError
from ..games.guard import NOT_THE_PLUGINS
from ..games.manager import Ruleset
from ..games.words import closest
from ..language import BY_WORD, CONTROL_BY_WORD, CORE_ACTIONS
from ..model.state import GameState
from ..model.values import (
    ABILITY_KINDS,
    COMPARISONS,
    DURATIONS,
    Ability,
    Action,
    AllOf,
    AnyOf,
    AtTrigger,
    Card,
    CardIds,
    Change,
    Compare,
    Condition,
    Count,
    CounterIs,
    CountIs,
    Did,
    DidCount,
    Event,
    Happened,
    HappenedCount,
    HasFlag,
    InZone,
    Marked,
    Mod,
    Not,
    Pattern,
    Query,
    Ref,
    Selector,
    StatIs,
    StatOf,
    TargetRef,
    TurnOf,
    Value,
)
from .printed import with_printed_abilities
from .source import format_path
from .validating import Path_, article, check_schema, describe

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

if TYPE_CHECKING:
    from .reading import Scenario


_MODIFIERS = ("label", "by", "as")
#: What can cause an event (``by``).
CAUSES = ("effect", "battle", "rule", "cost")
_PATTERN_CARDS = ("self", "source", "own", "own_other", "opponent", "other", "any")
_PLAYER_WORDS = ("self", "opponent")
_QUERY_KEYS = (
    "zone",
    "owner",
    "types",
    "type",
    "all_types",
    "has",
    "name",
    "flag",
    "no_flag",
    "stat",
    "under",
    "exclude",
    "pick",
    "upto",
    "chooser",
    "highest",
    "lowest",
    "top",
    "cards_under",
)
#: what ``negate`` negates
_PATTERN_KEYS = ("event", "card", "player", "actor", "from", "to", "by", "counter", "flag", "stat")
_HISTORY_KEYS = ("event", "base", "card", "player", "actor", "from", "to", "by", "counter", "flag", "stat", "amount")
_EXPECT_LISTS = (
    "resolved",
    "activated",
    "triggered",
    "declared",
    "failed",
    "declined",
    "missed",
    "lost",
    "prevented",
    "used",
    "negated",
)
_MAX_ALIAS_DEPTH = 16


# ---------------------------------------------------------------------------
# Scenario: read and checked, not yet compiled for a game
# ---------------------------------------------------------------------------


class UnknownAction(ScenarioError):
    """An action word the game reading the file does not know (inside
    another game's word: that word is not portable here)."""


@frozen(kw_only=True)
class Expectation:
    """What a scenario expects under one game (all keys optional)."""

    lists: tuple[tuple[str, tuple[str, ...]], ...] = ()
    counters: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    zones: tuple[tuple[str, str], ...] = ()
    flags: tuple[tuple[str, tuple[str, ...]], ...] = ()
    stats: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    outcome: str | None = None
    chains: tuple[tuple[str, ...], ...] | None = None
    keys: tuple[str, ...] = ()

    def list(self, name: str) -> tuple[str, ...] | None:
        return dict(self.lists).get(name)


@frozen(kw_only=True)
class Compiled:
    """A scenario made ready for one game: a fresh state and the start."""

    game: str
    state: GameState = field(eq=False)
    start: tuple[Action, ...]
    choices: tuple[str, ...]
    expect: Expectation | None
    #: what this game lacks of the file's words and how the file was read
    #: here, one line per concept (a file in another game's words)
    notes: tuple[str, ...] = ()
    #: the file's data as this game reads it (another game's words translated)
    data: dict[str, Any] = field(factory=dict, eq=False, repr=False)


# ---------------------------------------------------------------------------
# Compiling for a game
# ---------------------------------------------------------------------------


@contextmanager
def collector_paused() -> Iterator[None]:
    """Reading and compiling build many small objects that all stay alive:
    the cyclic garbage collector, which would walk the whole file again
    each time a few hundred of them pile up (a fifth of the time at 20,000
    cards), waits until the end.  Left as it was found: off stays off."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Compiler:
    def __init__(self, scenario: Scenario, ruleset: Ruleset) -> None:
        self.scenario = scenario
        self.source = scenario.source
        self.data = scenario.data
        self.ruleset = ruleset
        self.game = ruleset.name
        #: what this game lacks of the file's words, one line per concept (``Compiled.notes``)
        self.notes: dict[str, str] = {}
        #: the game whose words the file is written in, when it is another game (``words:``)
        self.written: Ruleset | None = None
        #: the actions left out as having no meaning here (another game's words)
        self.left_out_paths: list[Path_] = []
        self.data = with_printed_abilities(self.data, self.source, ruleset)
        if isinstance(self.data.get("words"), str):
            self.data = self.in_own_words(self.data)
        self.aliases: dict[str, Callable[[Any], Any]] = dict(ruleset.aliases)
        self.players = scenario.players
        self.card_ids = [c["id"] for c in self.data["cards"]]  # in file order, for messages
        self.known_cards = frozenset(self.card_ids)  # for lookups: a file may hold 100,000 cards
        self.effect_keys = [f"{c['id']}.{a['id']}" for c in self.data["cards"] for a in c.get("abilities") or []]
        self.printed_keys = set(self.effect_keys)
        self.grants: set[str] = set()
        self.effect_keys += [k for k in _granted_keys(self.data) if k not in self.printed_keys]
        self.writer = "start"
        self.context = "start"  # where actions are being read: "start" or an ability kind
        self.reads_history = False  # some word reads the turn's history: the state keeps it
        self.target_names: frozenset[str] = frozenset()  # the targets the ability being read names

    def error(self, path: Path_, message: str, options: Sequence[str] | None = None) -> ScenarioError:
        return self.source.error(path, message, options)

    def in_own_words(self, data: dict[str, Any]) -> dict[str, Any]:
        """A file written in another game's words (``words: GAME``): its
        cards, start actions, history and counters with every zone, event,
        flag, stat, counter and card type read by its role in this game, and
        its action words read as that game's (the expectations stay as
        written: each game's are in its own words)."""
        from ..games.manager import available_games, shared_ruleset, split_game
        from ..games.meanings import Translation

        written = split_game(data["words"])[0]
        if written == split_game(self.game)[0]:
            return data
        if written not in available_games():
            raise self.source.error(
                ("words",),
                f"the file is written in the words of {written!r}, which is not installed",
                available_games(),
            )
        self.written = shared_ruleset(written)
        words = frozenset(self.written.aliases) - frozenset(CORE_ACTIONS) - frozenset(CONTROL_BY_WORD)
        read = Translation(self.written.info, self.ruleset.info, words, notes=self.notes)
        return {
            **data,
            **{key: read(data[key]) for key in ("cards", "start", "history") if key in data},
            **({"counters": read({"counters": data["counters"]})["counters"]} if data.get("counters") else {}),
        }

    # -- top level ------------------------------------------------------------

    def compile(self) -> Compiled:
        limit = self.ruleset.info.max_players
        if len(self.players) > limit:
            raise self.error(
                ("players",),
                f"{self.ruleset.info.title} is played by at most {limit} players; the file names {len(self.players)}",
            )
        with collector_paused():
            cards = [self.card(c, ("cards", i)) for i, c in enumerate(self.data["cards"])]
            counters = self.data.get("counters") or {}
            state = GameState.build(
                self.players, self.scenario.turn_player, cards, counters, used=self.data.get("used") or ()
            )
            self.link_counters(state, counters)
            self.note_what_never_triggers(cards)
            self.context = "start"
            self.writer = "start"
            start = self.actions(self.data["start"], ("start",))
            if not start and self.data["start"] and self.notes:
                raise self.error(
                    ("start",),
                    f"the start has no meaning in {self.ruleset.info.title}: " + "; ".join(self.notes.values()),
                )
            history = self.history(self.data.get("history") or [])
            if self.reads_history or history:
                state.keep_history = True
                state.record(history)
            return Compiled(
                game=self.game,
                state=state,
                start=start,
                choices=self.choices(),
                expect=self.expectation(),
                notes=tuple(self.notes.values()),
                data=self.data,
            )

    def note_what_never_triggers(self, cards: list[Card]) -> None:
        """A "when … would" effect in a game that has none never triggers
        (``GameInfo.would_effects``): a note names them."""
        if self.ruleset.info.would_effects:
            return
        keys = [f"{card.id}.{a.id}" for card in cards for a in card.abilities if a.kind == "interrupt"]
        if keys:
            self.notes.setdefault(
                "would effects",
                f"{self.ruleset.info.title} has no 'when … would' effects: {', '.join(keys)} never "
                f"trigger{'s' if len(keys) == 1 else ''}",
            )

    def history(self, raw: list[Any]) -> list[Event]:
        """What already happened this turn (a position in progress), as events."""
        events = []
        for index, item in enumerate(raw):
            at: Path_ = ("history", index)
            if not isinstance(item, dict) or "event" not in item:
                raise self.error(
                    at,
                    f"expected an event such as {{event: used, card: ID}}, got {describe(item)}",
                    list(_HISTORY_KEYS),
                )
            self.only(item, at, _HISTORY_KEYS)
            card = item.get("card")
            if card is not None and card not in self.known_cards:
                raise self.error(at + ("card",), f"unknown card {card!r}", self.card_ids)
            for key in ("player", "actor"):
                if item.get(key) is not None and item[key] not in self.players:
                    raise self.error(at + (key,), f"unknown player {item[key]!r}", list(self.players))
            owner = self.data["cards"][self.card_ids.index(card)]["owner"] if card is not None else None
            events.append(
                Event(
                    name=self.text(item["event"], at + ("event",)),
                    base=item.get("base"),
                    card=card,
                    player=item.get("player", owner),
                    from_=item.get("from"),
                    to=item.get("to"),
                    by=item.get("by", "effect"),
                    actor=item.get("actor", item.get("player", owner)),
                    counter=item.get("counter"),
                    flag=item.get("flag"),
                    stat=item.get("stat"),
                    amount=item.get("amount"),
                )
            )
        return events

    def choices(self) -> tuple[str, ...]:
        raw = self.data.get("choices")
        path: Path_ = ("choices",)
        if raw is None:
            return ()
        if isinstance(raw, dict):
            key = self.ruleset_key(raw, path)
            if key is None:
                return ()
            raw = raw[key]
            path = path + (key,)
        labels = []
        for index, label in enumerate(raw):
            if isinstance(label, bool):
                raise self.error(
                    path + (index,),
                    f"{label!r} is a boolean: YAML reads true and false as booleans; write 'use' or 'decline'",
                )
            labels.append(str(label))
        return tuple(labels)

    def ruleset_key(self, mapping: dict[str, Any], path: Path_) -> str | None:
        """The key of ``mapping`` that names this ruleset (``yugioh`` or
        ``yugioh/tcg`` for the default variant); two such keys are an error."""
        keys = [key for key in self.ruleset.keys if key in mapping]
        if len(keys) > 1:
            raise self.error(path + (keys[1],), f"{keys[0]!r} and {keys[1]!r} name the same ruleset: keep one")
        return keys[0] if keys else None

    def expectation(self) -> Expectation | None:
        raw_all = self.data.get("expect") or {}
        key = self.ruleset_key(raw_all, ("expect",))
        if key is None:
            return None
        raw = raw_all[key]
        base: Path_ = ("expect", key)
        lists = []
        for name in _EXPECT_LISTS:
            if name in raw:
                for index, key in enumerate(raw[name]):
                    if name == "used":
                        continue  # once-per-turn keys are a game's business
                    if key.split("#")[0] not in self.effect_keys:
                        raise self.error(base + (name, index), f"unknown effect key {key!r}", self.effect_keys)
                lists.append((name, tuple(raw[name])))
        for number, chain in enumerate(raw.get("chains") or []):
            for index, effect in enumerate(chain):
                if effect.split("#")[0] not in self.effect_keys:
                    raise self.error(
                        base + ("chains", number, index), f"unknown effect key {effect!r}", self.effect_keys
                    )
        for name in ("zones", "flags", "stats"):
            for card_id in raw.get(name) or {}:
                if card_id not in self.known_cards:
                    raise self.error(base + (name, card_id), f"unknown card {card_id!r}", self.card_ids)
        for player in raw.get("counters") or {}:
            if player not in self.players:
                raise self.error(base + ("counters", player), f"unknown player {player!r}", self.players)
        return Expectation(
            lists=tuple(lists),
            counters=tuple((p, tuple(sorted(v.items()))) for p, v in (raw.get("counters") or {}).items()),
            zones=tuple((raw.get("zones") or {}).items()),
            flags=tuple((c, tuple(sorted(f))) for c, f in (raw.get("flags") or {}).items()),
            stats=tuple((c, tuple(sorted(v.items()))) for c, v in (raw.get("stats") or {}).items()),
            outcome=raw.get("outcome"),
            chains=tuple(tuple(chain) for chain in raw["chains"]) if "chains" in raw else None,
            keys=tuple(raw),
        )

    # -- cards and abilities -----------------------------------------------------

    def card(self, raw: dict[str, Any], path: Path_) -> Card:
        self.writer = raw["id"]  # grants written on this card are keyed by it
        abilities = tuple(
            self.ability(a, raw, path + ("abilities", i)) for i, a in enumerate(raw.get("abilities") or [])
        )
        mods = tuple(self.lasting(item, path + ("lasting", i)) for i, item in enumerate(raw.get("lasting") or []))
        flags = set(raw.get("flags") or ()) | {mod.flag for mod in mods if mod.flag}
        return Card(
            id=raw["id"],
            name=raw.get("name", raw["id"]),
            owner=raw["owner"],
            zone=raw["zone"],
            under=raw.get("under"),
            stats=raw.get("stats") or {},
            flags=flags,
            types=raw.get("types") or (),
            abilities=abilities,
            mods=mods,
        )

    def link_counters(self, state: GameState, counters: dict[str, dict[str, int]]) -> None:
        """Counters the game links (Digimon's memory gauge): set the ones the
        file leaves out; values it gives must agree."""
        for player, values in counters.items():
            for name, value in values.items():
                for other, linked in self.ruleset.linked_counters(state, player, name, value).items():
                    given = counters.get(other, {}).get(name)
                    if given is not None and given != linked:
                        raise self.error(
                            ("counters", other, name),
                            (
                                f"{player}'s {name} {value} means {other}'s {name} is {linked} in "
                                f"{self.ruleset.info.title}, not {given}"
                            ),
                            [str(linked)],
                        )
                    state.set_counter(other, name, linked)

    def lasting(self, raw: Any, at: Path_) -> Mod:
        """A change already in effect at the start: ``{stat, by, until}`` (no
        ``until``: while the card stays where it is) or ``{flag, until}``,
        with ``player``: who made it (default: the turn player)."""
        if not isinstance(raw, dict):
            raise self.error(
                at, f"expected {{stat: NAME, by: N, until: …}} or {{flag: NAME, until: …}}, got {describe(raw)}"
            )
        self.only(raw, at, ("stat", "by", "flag", "until", "player"))
        if "flag" in raw:
            self.need(raw, at, "until")
        # a stat change without ``until`` stays until the card moves (a counter: Magic CR 122.2)
        until = self.text(raw["until"], at + ("until",), choices=DURATIONS) if "until" in raw else None
        player = raw.get("player", self.scenario.turn_player)
        if player not in self.players:
            raise self.error(at + ("player",), f"unknown player {player!r}", list(self.players))
        if "flag" in raw:
            if "stat" in raw or "by" in raw:
                raise self.error(at, "a lasting entry is a stat change or a flag, not both")
            return Mod(flag=self.text(raw["flag"], at + ("flag",)), until=until, player=player)
        self.need(raw, at, "stat", "by")
        by = raw["by"]
        if isinstance(by, bool) or not isinstance(by, int):
            raise self.error(at + ("by",), f"expected an integer, got {describe(by)}")
        return Mod(stat=self.text(raw["stat"], at + ("stat",)), by=by, until=until, player=player)

    def ability(self, raw: dict[str, Any], card: dict[str, Any], path: Path_) -> Ability:
        kind = raw.get("kind", "triggered")
        when = raw.get("when")
        if kind in ("triggered", "interrupt", "replacement", "consequence") and when is None:
            raise self.error(path, f"{article(kind)} ability needs 'when': the event it waits for")
        if kind not in ABILITY_KINDS:  # pragma: no cover - the schema checks it
            raise self.error(path + ("kind",), f"unknown kind {kind!r}", ABILITY_KINDS)
        pattern = self.pattern(when, path + ("when",)) if when is not None else None
        if "trigger_condition" in raw and kind not in ("triggered", "interrupt", "replacement", "consequence"):
            raise self.error(
                path + ("trigger_condition",),
                f"{article(kind)} ability does not trigger: a "
                "trigger_condition belongs to a triggered, interrupt, replacement or consequence ability "
                "(use 'condition')",
            )
        if kind == "consequence":
            self.plain_consequence(raw, path)
        targets = self.targets(raw, kind, path)
        outer_targets, self.target_names = self.target_names, frozenset(name for name, _ in targets)
        try:
            return self._ability(raw, card, path, kind, pattern, targets)
        finally:
            self.target_names = outer_targets

    def _ability(
        self,
        raw: dict[str, Any],
        card: dict[str, Any],
        path: Path_,
        kind: str,
        pattern: Pattern | None,
        targets: tuple[tuple[str, Query], ...],
    ) -> Ability:
        self.context = "cost"
        cost = self.actions(raw.get("cost") or [], path + ("cost",))
        if cost and kind == "continuous":
            raise self.error(path + ("cost",), "a continuous ability applies while it holds: it has no cost")
        self.context = kind
        do = self.actions(raw.get("do") or [], path + ("do",))
        if kind == "continuous":
            for index, action in enumerate(do):
                if not isinstance(action, Change):
                    raise self.error(path + ("do", index), "a continuous ability may only 'change' stats")
                if action.until is not None:
                    raise self.error(
                        path + ("do", index), "a continuous change lasts while its condition holds: it takes no 'until'"
                    )
        if raw.get("once_per_turn") and raw.get("per_turn", 1) != 1:
            raise self.error(path + ("per_turn",), "'once_per_turn: true' is 'per_turn: 1': write one of them")
        active_in = self.words(raw.get("active_in", card["zone"]), path + ("active_in",))
        return Ability(
            id=raw["id"],
            kind=kind,
            when=pattern,
            optional=raw.get("optional", False),
            once_per_turn=raw.get("once_per_turn", False),
            per_turn=raw.get("per_turn", 0),
            wording=raw.get("wording", "when"),
            speed=raw.get("speed", 1),
            tags=raw.get("tags") or (),
            active_in=active_in,
            condition=self.condition(raw["condition"], path + ("condition",)) if "condition" in raw else None,
            trigger_condition=(
                self.condition(raw["trigger_condition"], path + ("trigger_condition",))
                if "trigger_condition" in raw
                else None
            ),
            cost=cost,
            do=do,
            text=raw.get("text"),
            targets=targets,
        )

    def plain_consequence(self, raw: dict[str, Any], path: Path_) -> None:
        """A consequence happens at once as part of its event: nothing about
        it is chosen, paid, limited or checked as an activation."""
        for key in ("optional", "once_per_turn", "per_turn", "cost", "condition", "speed"):
            if raw.get(key) not in (None, False):
                raise self.error(
                    path + (key,),
                    f"a consequence ability is not activated: it takes no {key!r} "
                    "(it happens at once as part of its event; 'trigger_condition' says when it does)",
                )

    def targets(self, raw: dict[str, Any], kind: str, path: Path_) -> tuple[tuple[str, Query], ...]:
        """An ability's ``target: QUERY`` or ``targets: {NAME: QUERY, …}``:
        chosen as it activates."""
        if "target" in raw and "targets" in raw:
            raise self.error(path + ("targets",), "write 'target' (one) or 'targets' (named), not both")
        if "target" in raw:
            named = {"target": raw["target"]}
            at: Path_ = path + ("target",)
        elif "targets" in raw:
            named, at = raw["targets"], path + ("targets",)
            if not isinstance(named, dict) or not named:
                raise self.error(
                    at, f"expected named queries such as {{first: {{zone: …, pick: 1}}}}, got {describe(named)}"
                )
        else:
            return ()
        if kind not in ("triggered", "activated"):
            raise self.error(
                at, f"{article(kind)} ability does not activate: only a triggered or activated one targets"
            )
        out = []
        for name, query in named.items():
            where = at if "target" in raw else at + (name,)
            found = self.selector(query, where)
            if not isinstance(found, Query):
                raise self.error(
                    where,
                    "a target is a query of what may be targeted, such as {zone: field, owner: opponent, pick: 1}",
                )
            out.append((str(name) if "targets" in raw else "target", found))
        return tuple(out)

    def pattern(self, raw: Any, path: Path_) -> Pattern:
        if isinstance(raw, str):
            return Pattern(event=raw)
        card = raw.get("card")
        card_is: Query | None = None
        if isinstance(card, dict):  # "when a Digimon with [Renamon] in its name attacks"
            found = self.selector(card, path + ("card",))
            if not isinstance(found, Query) or found.pick is not None:
                raise self.error(path + ("card",), "a pattern's card query describes the event's card: no 'pick'")
            card_is, card = found, None
        if card is not None and card not in _PATTERN_CARDS and card not in self.known_cards:
            raise self.error(path + ("card",), f"unknown card {card!r}", list(_PATTERN_CARDS) + self.card_ids)
        player = raw.get("player")
        if player is not None and player not in ("self", "opponent", "any"):
            raise self.error(path + ("player",), f"unknown player word {player!r}", ["self", "opponent", "any"])
        actor = raw.get("actor")
        if actor is not None and actor not in ("self", "opponent", "any"):
            raise self.error(path + ("actor",), f"unknown player word {actor!r}", ["self", "opponent", "any"])
        against = raw.get("against")
        if against is not None and against not in ("self", "source") and against not in self.known_cards:
            raise self.error(path + ("against",), f"unknown card {against!r}", ["self", "source", *self.card_ids])
        event, *others = self.words(raw["event"], path + ("event",))
        return Pattern(
            event=event,
            events=tuple(others),
            card=card,
            player=player,
            from_=raw.get("from"),
            to=raw.get("to"),
            by=raw.get("by"),
            counter=raw.get("counter"),
            flag=raw.get("flag"),
            stat=raw.get("stat"),
            actor=actor,
            card_is=card_is,
            against=against,
        )

    def history_pattern(self, raw: Any, at: Path_) -> Pattern:
        """A pattern the turn's history is searched with (``happened``)."""
        if isinstance(raw, dict):
            self.only(raw, at, _PATTERN_KEYS)
            self.need(raw, at, "event")
        elif not isinstance(raw, str):
            raise self.error(
                at,
                f"expected an event pattern such as {{event: used, player: self}}, got {describe(raw)}",
                list(_PATTERN_KEYS),
            )
        self.reads_history = True
        return self.pattern(raw, at)

    # -- actions ----------------------------------------------------------------

    def actions(self, raw: Any, path: Path_, depth: int = 0) -> tuple[Action, ...]:
        if not isinstance(raw, list):
            raise self.error(path, f"expected a list of actions, got {describe(raw)}")
        out: list[Action] = []
        for index, item in enumerate(raw):
            out.extend(self.action(item, path + (index,), depth))
        return tuple(out)

    def legal_actions(self) -> list[str]:
        return list(CORE_ACTIONS) + sorted(self.aliases)

    def action(self, raw: Any, path: Path_, depth: int = 0) -> list[Action]:
        if not isinstance(raw, dict) or not raw:
            raise self.error(
                path, f"expected an action (a mapping such as {{move: …}}), got {describe(raw)}", self.legal_actions()
            )
        keys = [k for k in raw if k not in _MODIFIERS and k not in ("then", "else")]
        if "if" in raw:
            keys = ["if"]
        elif "may" in raw:
            keys = ["may"]
        if len(keys) != 1:
            raise self.error(
                path,
                f"expected exactly one action word, got {', '.join(map(repr, keys)) or 'none'}",
                self.legal_actions(),
            )
        word = keys[0]
        extra = set(raw) - {word, *_MODIFIERS} - ({"then", "else"} if word in ("if", "may") else set())
        if extra:
            raise self.error(path + (sorted(extra)[0],), f"unexpected key {sorted(extra)[0]!r} next to {word!r}")
        arg = raw[word]
        label = self.text(raw["label"], path + ("label",)) if "label" in raw else None
        by = self.text(raw["by"], path + ("by",), choices=CAUSES) if "by" in raw else None
        as_ = self.text(raw["as"], path + ("as",)) if "as" in raw else None
        written = self.written
        if written is not None and word in written.aliases and word not in CORE_ACTIONS:
            # a file in another game's words: its words mean what that game says
            portable = self.portable_word(word, arg, raw, path, depth)
            if portable is not None:
                return portable
            if word in self.aliases:  # not portable: this game's own word of that name, on the file's data
                return self.alias(word, self.in_this_game(arg), raw, path, depth)
            return self.left_out(word, path)
        if word in self.aliases and word not in CORE_ACTIONS:
            return self.alias(word, arg, raw, path, depth)
        control = CONTROL_BY_WORD.get(word)
        if control is not None:
            return control.read(self, word, arg, raw, path, depth, label=label, by=by, as_=as_)
        if word not in CORE_ACTIONS:
            from ..games.meanings import meaning_elsewhere

            portable = self.portable_word(word, arg, raw, path, depth) if isinstance(word, str) else None
            if portable is not None:
                return portable
            elsewhere = meaning_elsewhere(word, self.game) if isinstance(word, str) else None
            if elsewhere is not None:
                if self.written_for_another_game():
                    return self.left_out(word, path)
                raise self.unknown_action(path, f"unknown action {word!r} for game {self.game!r}: {elsewhere}")
            close = closest(word, self.legal_actions(), self.aliases) if isinstance(word, str) else None
            hint = f": did you mean {close!r}?" if close else ""  # the game's own words first (issue 37 item 18)
            raise self.unknown_action(path, f"unknown action {word!r} for game {self.game!r}{hint}")
        return [self.primitive(word, arg, path + (word,), label=label, by=by, as_=as_)]

    def unknown_action(self, path: Path_, message: str) -> UnknownAction:
        error = self.error(path, message, self.legal_actions())
        return UnknownAction(error.message, file=error.file, line=error.line, path=error.path, options=error.options)

    def written_for_another_game(self) -> bool:
        """Whether the file says it is written for (or in the words of)
        another game than this one."""
        from ..games.manager import split_game

        own = split_game(self.game)[0]
        named = [split_game(n)[0] for n in (self.data.get("words"), self.data.get("game")) if isinstance(n, str)]
        return bool(named) and own not in named

    def left_out(self, word: str, path: Path_, owner: str | None = None) -> list[Action]:
        """Another game's word (``owner``'s) that means nothing here, in a
        file written for that game: the action is left out, and a note says
        so (a start left with no action at all is refused: :meth:`compile`)."""
        from ..games.manager import available_games, shared_ruleset

        if owner is None and self.written is not None and word in self.written.aliases:
            owner = self.written.info.title
        if owner is None:
            owner = next(
                (shared_ruleset(g).info.title for g in available_games() if word in shared_ruleset(g).aliases),
                "another game",
            )
        line = self.source.line(path)
        self.notes.setdefault(
            f"word {word}",
            f"{word!r} ({owner}'s word) has no meaning in {self.ruleset.info.title}: the action is left out "
            f"({'line ' + str(line) + ', ' if line else ''}{format_path(path)})",
        )
        self.left_out_paths.append(path)
        return []

    def in_this_game(self, data: Any) -> Any:
        """Data written in the file's words, read in this game (an argument
        kept as written for its word's expansion)."""
        from ..games.meanings import Translation

        if self.written is None:
            return data
        return Translation(self.written.info, self.ruleset.info, notes=self.notes)(data)

    def portable_word(self, word: str, arg: Any, raw: dict[str, Any], path: Path_, depth: int) -> list[Action] | None:
        """Another installed game's word, read in this game: expanded as that
        game says, its zones, events and flags read by their roles (the
        file's own game first, else the first game by name that has the
        word).  ``None`` where no game has it, or its expansion uses words
        of its own game (not portable: the caller names the word)."""
        from ..games.manager import available_games, shared_ruleset, split_game
        from ..games.meanings import Translation

        own = split_game(self.game)[0]
        preferred = [
            split_game(named)[0] for named in (self.data.get("words"), self.data.get("game")) if isinstance(named, str)
        ]
        for other in [*preferred, *available_games()]:
            if other == own or other not in available_games():
                continue
            try:
                source = shared_ruleset(other)
            except TcgTrigError:
                continue
            if word not in source.aliases:
                continue
            try:
                expanded = source.aliases[word](arg)
            except Exception as exc:  # noqa: BLE001 - its argument, as its own game reads it
                raise self.error(
                    path + (word,), f"bad argument for {word!r} ({source.info.title}'s word): {exc}"
                ) from None
            items = expanded if isinstance(expanded, list) else [expanded]
            words = frozenset(source.aliases) - frozenset(CORE_ACTIONS) - frozenset(CONTROL_BY_WORD)
            items = Translation(source.info, self.ruleset.info, words, notes=self.notes)(items)
            if not items:  # all of it moves to a place or sets a state this game has not: the notes say which
                return self.left_out(word, path, source.info.title)
            try:
                return self.expansion(items, raw, path, depth)
            except UnknownAction:
                return None  # it expands into more of its own game's words: not portable
        return None

    def expansion(self, items: list[Any], raw: dict[str, Any], path: Path_, depth: int) -> list[Action]:
        """A word's expansion read as actions, the modifiers written beside
        the word (``by``, ``label``) on a single action."""
        modifiers = {k: raw[k] for k in _MODIFIERS if k in raw}
        if modifiers and len(items) == 1 and isinstance(items[0], dict):
            items = [_with_modifiers(items[0], modifiers)]
        out: list[Action] = []
        for item in items:
            out.extend(self.action(item, path, depth + 1))
        return out

    def alias(self, word: str, arg: Any, raw: dict[str, Any], path: Path_, depth: int) -> list[Action]:
        if depth >= _MAX_ALIAS_DEPTH:
            raise self.error(path, f"alias {word!r} expands into itself too deeply")
        try:
            expanded = self.aliases[word](arg)
        except (ValueError, TypeError, KeyError) as exc:
            raise self.error(path + (word,), f"bad argument for {word!r}: {exc}") from None
        except NOT_THE_PLUGINS:
            raise
        except BaseException as exc:  # noqa: BLE001 - the word itself is broken, not the file (SystemExit too)
            raise PluginError(
                self.ruleset._culprit("tcgtrig_action_aliases"),
                f"the word {word!r} raised {type(exc).__name__}: {exc}",
                hook="tcgtrig_action_aliases",
            ) from exc
        try:
            return self.expansion(expanded if isinstance(expanded, list) else [expanded], raw, path, depth)
        except ScenarioError as exc:  # point at the word the user wrote
            error = self.error(path + (word,), exc.message, exc.options)
            raise type(exc)(
                error.message, file=error.file, line=error.line, path=error.path, options=exc.options
            ) from None

    def primitive(self, word: str, arg: Any, at: Path_, *, label: Any, by: Any, as_: Any) -> Action:
        args = dict(arg) if isinstance(arg, dict) else None
        if word == "draw" and args is None:
            args = {} if arg is None else {"count": arg}
        elif word == "lose_game" and args is None and isinstance(arg, str):
            args = {"player": arg}
        if args is None:
            raise self.error(at, f"expected the arguments of {word!r} as a mapping, got {describe(arg)}")
        # modifiers may stand inside the arguments too ("by" inside change is its amount)
        label = self.text(args["label"], at + ("label",)) if "label" in args else label
        as_ = self.text(args["as"], at + ("as",)) if "as" in args else as_
        if word != "change" and "by" in args:
            by = self.text(args["by"], at + ("by",), choices=CAUSES)
        return BY_WORD[word].read(self, word, args, at, label=label, by=by, as_=as_)

    describe = staticmethod(describe)

    def gained_ability(self, raw: Any, at: Path_) -> Ability:
        """The ability a ``grant`` gives: a triggered, interrupt or
        replacement ability with an id of its own on the card that grants it."""
        check_schema(self.source, raw, at, "ability")
        if f"{self.writer}.{raw['id']}" in self.grants:
            raise self.error(
                at + ("id",),
                f"{self.writer} already grants an ability with id {raw['id']!r}: give each its own id",
            )
        if raw.get("kind") in ("continuous", "activated", "consequence"):
            raise self.error(
                at + ("kind",),
                "a gained ability here is triggered, an interrupt or a replacement",
                ["triggered", "interrupt", "replacement"],
            )
        self.grants.add(f"{self.writer}.{raw['id']}")
        if f"{self.writer}.{raw['id']}" in self.printed_keys:
            raise self.error(
                at + ("id",),
                f"{self.writer}.{raw['id']} is already an ability "
                f"printed on {self.writer}: give the gained one another id",
            )
        outer = self.context
        ability = self.ability(raw, {"zone": "battle"}, at)
        self.context = outer
        return ability

    def text(self, raw: Any, at: Path_, *, choices: Sequence[str] | None = None) -> str:
        """A word: a non-empty string (one of ``choices`` when given)."""
        if not isinstance(raw, str) or not raw:
            raise self.error(at, f"expected a word, got {describe(raw)}", choices)
        if choices is not None and raw not in choices:
            raise self.error(at, f"unknown value {raw!r}", choices)
        return raw

    def line(self, raw: Any, at: Path_) -> str:
        """One line of text (a reason citing a rule)."""
        if not isinstance(raw, str) or not raw.strip() or "\n" in raw.strip():
            raise self.error(at, f"expected one line of text (the rule it cites), got {describe(raw)}")
        return raw.strip()

    def words(self, raw: Any, at: Path_) -> tuple[str, ...]:
        """One word or a list of words."""
        if isinstance(raw, str):
            return (self.text(raw, at),)
        if not isinstance(raw, list) or not raw:
            raise self.error(at, f"expected a word or a list of words, got {describe(raw)}")
        return tuple(self.text(item, at + (i,)) for i, item in enumerate(raw))

    def flag_value(self, raw: Any, at: Path_) -> bool:
        if not isinstance(raw, bool):
            raise self.error(at, f"expected true or false, got {describe(raw)}")
        return raw

    def one_card(self, raw: Any, at: Path_) -> Selector:
        """A selector that must name a single card."""
        selector = self.selector(raw, at)
        if isinstance(selector, CardIds) and len(selector.ids) != 1:
            raise self.error(at, "expected one card, got a list")
        return selector

    def only(self, args: dict[str, Any], at: Path_, allowed: Sequence[str]) -> None:
        for key in args:
            if key not in allowed:
                raise self.error(at + (key,), f"unknown key {key!r}", allowed)

    def need(self, args: dict[str, Any], at: Path_, *keys: str) -> None:
        for key in keys:
            if key not in args:
                raise self.error(at, f"missing required key {key!r}")

    def player(self, raw: Any, at: Path_) -> str:
        legal = list(_PLAYER_WORDS) + ["turn_player"] + list(self.players)
        if raw not in legal:
            raise self.error(at, f"unknown player {raw!r}", legal)
        return str(raw)

    def amount(self, raw: Any, at: Path_, *, signed: bool = False) -> Value:
        if isinstance(raw, bool) or not isinstance(raw, (int, dict)):
            raise self.error(
                at,
                "expected an integer, {count: …}, {card: …, stat: …}, {did: …} or {happened: …}, got "
                f"{describe(raw)}",
            )
        if isinstance(raw, int):
            if raw < 0 and not signed:
                raise self.error(at, f"expected an integer of at least 0, got {raw}")
            return raw
        return self.value(raw, at)

    def value(self, raw: Any, at: Path_) -> Value:
        """A number: ``5``, ``{count: QUERY}`` or ``{card: SEL, stat: NAME}``;
        ``fixed: true`` reads it as it was when the effect triggered."""
        if isinstance(raw, bool) or not isinstance(raw, (int, dict)):
            raise self.error(
                at,
                "expected an integer, {count: …}, {card: …, stat: …}, {did: …} or {happened: …}, got "
                f"{describe(raw)}",
            )
        if isinstance(raw, int):
            return raw
        fixed = self.flag_value(raw["fixed"], at + ("fixed",)) if "fixed" in raw else False
        if "count" in raw:
            self.only(raw, at, ("count", "fixed"))
            return Count(self.selector(raw["count"], at + ("count",)), fixed=fixed)
        if "did" in raw:
            self.only(raw, at, ("did",))
            return DidCount(self.text(raw["did"], at + ("did",)))
        if "happened" in raw:
            self.only(raw, at, ("happened",))
            return HappenedCount(self.history_pattern(raw["happened"], at + ("happened",)))
        if "card" in raw or "stat" in raw:
            self.only(raw, at, ("card", "stat", "fixed"))
            self.need(raw, at, "card")
            self.need(raw, at, "stat")
            return StatOf(
                self.selector(raw["card"], at + ("card",)), self.text(raw["stat"], at + ("stat",)), fixed=fixed
            )
        raise self.error(
            at,
            "expected {count: QUERY}, {card: SEL, stat: NAME}, {did: LABEL} or {happened: PATTERN}",
            ["count", "card", "stat", "fixed", "did", "happened"],
        )

    # -- selectors and conditions --------------------------------------------------

    def selector(self, raw: Any, at: Path_) -> Selector:
        """Cards: a word (``self``, ``event.card``, ``target``), a card id, a
        list of ids or a query."""
        if isinstance(raw, str):
            return self.named_cards(raw, at)
        if isinstance(raw, list):
            for index, item in enumerate(raw):
                if item not in self.known_cards:
                    raise self.error(at + (index,), f"unknown card {item!r}", self.card_ids)
            return CardIds(tuple(raw))
        if not isinstance(raw, dict):
            raise self.error(
                at, f"expected a card: self, source, event.card, a card id, a list or a query, got {describe(raw)}"
            )
        return self.query(raw, at)

    def named_cards(self, raw: str, at: Path_) -> Selector:
        """A card named by a word or by its id."""
        if raw in ("self", "source"):
            return Ref(raw)
        if raw in ("event.card", "event"):
            return Ref("event")
        if raw == "event.against":
            return Ref("against")
        if (raw == "target" or raw.startswith("target.")) and (self.target_names or raw not in self.known_cards):
            name = raw.partition(".")[2] or "target"
            if name not in self.target_names:
                raise self.error(
                    at,
                    f"{raw!r}: the ability has no such target (its 'target' or 'targets')",
                    [f"target.{n}" if n != "target" else "target" for n in sorted(self.target_names)],
                )
            return TargetRef(name)
        if raw in self.known_cards:
            return CardIds((raw,))
        raise self.error(at, f"unknown card {raw!r}", ["self", "source", "event.card"] + self.card_ids)

    def query(self, raw: dict[str, Any], at: Path_) -> Query:
        """The cards that fit a query: where, whose, what, and how many."""
        self.only(raw, at, _QUERY_KEYS)
        zone = self.words(raw["zone"], at + ("zone",)) if "zone" in raw else ()
        type_key = "types" if "types" in raw else "type"
        types = self.words(raw[type_key], at + (type_key,)) if type_key in raw else ()
        all_types = self.words(raw["all_types"], at + ("all_types",)) if "all_types" in raw else ()
        for key in ("name", "flag", "no_flag", "has", "highest", "lowest"):
            if key in raw:
                self.text(raw[key], at + (key,))
        if "upto" in raw:
            self.flag_value(raw["upto"], at + ("upto",))
        stats = self.query_stats(raw, at)
        under_counts = []
        if "cards_under" in raw:
            test = raw["cards_under"]
            if not isinstance(test, dict) or len(test) != 1 or next(iter(test)) not in COMPARISONS:
                raise self.error(at + ("cards_under",), "expected one comparison such as {lte: 2}", COMPARISONS)
            ((op, value),) = test.items()
            under_counts.append((op, self.value(value, at + ("cards_under", op))))
        owner = raw.get("owner")
        if owner is not None and owner not in ("self", "opponent", "any") + self.players:
            raise self.error(at + ("owner",), f"unknown player {owner!r}", ["self", "opponent", "any", *self.players])
        pick, chooser = self.query_pick(raw, at)
        return Query(
            zone=zone,
            owner=owner,
            types=types,
            all_types=all_types,
            has=raw.get("has"),
            name=raw.get("name"),
            flag=raw.get("flag"),
            no_flag=raw.get("no_flag"),
            stat=tuple(stats),
            under=self.selector(raw["under"], at + ("under",)) if "under" in raw else None,
            exclude=self.selector(raw["exclude"], at + ("exclude",)) if "exclude" in raw else None,
            pick=pick,
            upto=bool(raw.get("upto", False)),
            chooser=chooser,
            highest=raw.get("highest"),
            lowest=raw.get("lowest"),
            top=raw.get("top"),
            cards_under=tuple(under_counts),
        )

    def query_stats(self, raw: dict[str, Any], at: Path_) -> list[tuple[str, str, Value]]:
        """A query's ``stat`` tests: one comparison per stat."""
        if not isinstance(raw.get("stat") or {}, dict):
            raise self.error(
                at + ("stat",), f"expected stat tests such as {{dp: {{lte: 5000}}}}, got {describe(raw['stat'])}"
            )
        stats = []
        for stat, test in (raw.get("stat") or {}).items():
            if not isinstance(test, dict) or len(test) != 1:
                raise self.error(at + ("stat", stat), "expected one comparison such as {lte: 5000}", COMPARISONS)
            ((op, value),) = test.items()
            if op not in COMPARISONS:
                raise self.error(at + ("stat", stat, op), "expected a comparison with a number", COMPARISONS)
            stats.append((stat, op, self.value(value, at + ("stat", stat, op))))
        return stats

    def query_pick(self, raw: dict[str, Any], at: Path_) -> tuple[Any, str | None]:
        """How many of a query's cards are picked (a number, or one read
        when the cards are chosen), and who picks them."""
        pick = raw.get("pick")
        if isinstance(pick, dict):  # a number read when the cards are chosen
            pick = self.value(pick, at + ("pick",))
        for key in ("pick", "top"):
            number = raw.get(key)
            if isinstance(number, dict) and key == "pick":
                continue
            if number is not None and (isinstance(number, bool) or not isinstance(number, int) or number < 1):
                raise self.error(at + (key,), f"expected an integer of at least 1, got {describe(number)}")
        chooser = raw.get("chooser")
        if chooser is not None:
            if chooser not in _PLAYER_WORDS:
                raise self.error(at + ("chooser",), f"unknown chooser {chooser!r}", _PLAYER_WORDS)
            if pick is None:
                raise self.error(at + ("chooser",), "'chooser' says who picks: it needs 'pick'")
        return pick, chooser

    def compare(self, raw: dict[str, Any], at: Path_) -> Compare:
        ops = [k for k in raw if k in COMPARISONS]
        if len(ops) != 1:
            raise self.error(at, "expected exactly one comparison", COMPARISONS)
        return Compare(ops[0], self.value(raw[ops[0]], at + (ops[0],)))

    def condition(self, raw: Any, at: Path_) -> Condition:
        forms = "card+in|flag|no_flag|stat, player+counter, count, all, any, not, did, turn, at_trigger, mark, happened"
        if not isinstance(raw, dict) or not raw:
            raise self.error(at, f"expected a condition ({forms}), got {describe(raw)}")
        if "all" in raw or "any" in raw:
            word = "all" if "all" in raw else "any"
            self.only(raw, at, (word,))
            items = raw[word]
            if not isinstance(items, list):
                raise self.error(at + (word,), "expected a list of conditions")
            parts = tuple(self.condition(c, at + (word, i)) for i, c in enumerate(items))
            return AllOf(parts) if word == "all" else AnyOf(parts)
        if "not" in raw:
            self.only(raw, at, ("not",))
            return Not(self.condition(raw["not"], at + ("not",)))
        if "did" in raw:
            self.only(raw, at, ("did",))
            return Did(self.text(raw["did"], at + ("did",)))
        if "happened" in raw:
            self.only(raw, at, ("happened",) + COMPARISONS)
            compare = self.compare(raw, at) if any(k in raw for k in COMPARISONS) else Compare("gte", 1)
            return Happened(self.history_pattern(raw["happened"], at + ("happened",)), compare)
        if "at_trigger" in raw:
            self.only(raw, at, ("at_trigger",))
            return AtTrigger(self.condition(raw["at_trigger"], at + ("at_trigger",)))
        if "mark" in raw:
            self.only(raw, at, ("mark",))
            return Marked(self.text(raw["mark"], at + ("mark",)))
        if "turn" in raw:
            self.only(raw, at, ("turn",))
            return TurnOf(self.player(raw["turn"], at + ("turn",)))
        if "count" in raw:
            self.only(raw, at, ("count",) + COMPARISONS)
            return CountIs(self.selector(raw["count"], at + ("count",)), self.compare(raw, at))
        if "counter" in raw:
            self.only(raw, at, ("player", "counter") + COMPARISONS)
            return CounterIs(
                self.player(raw.get("player", "self"), at + ("player",)),
                self.text(raw["counter"], at + ("counter",)),
                self.compare(raw, at),
            )
        if "card" in raw:
            card = self.selector(raw["card"], at + ("card",))
            if "in" in raw:
                self.only(raw, at, ("card", "in"))
                return InZone(card, self.words(raw["in"], at + ("in",)))
            if "flag" in raw or "no_flag" in raw:
                self.only(raw, at, ("card", "flag", "no_flag"))
                word = "flag" if "flag" in raw else "no_flag"
                return HasFlag(card, self.text(raw[word], at + (word,)), negate=word == "no_flag")
            if "stat" in raw:
                self.only(raw, at, ("card", "stat") + COMPARISONS)
                return StatIs(card, self.text(raw["stat"], at + ("stat",)), self.compare(raw, at))
        raise self.error(at, f"not a condition I know ({forms})")


def _granted_keys(data: dict[str, Any]) -> list[str]:
    """The effect keys of abilities that ``grant`` actions give: ``<card>.<id>``
    for a grant written on a card's ability, ``start.<id>`` in the start."""
    keys: dict[str, None] = {}  # in the order written
    places = [(c.get("id"), c.get("abilities")) for c in data.get("cards") or [] if isinstance(c, dict)]
    places.append(("start", data.get("start")))
    for writer, root in places:
        todo = [root]
        while todo:  # a walk, not a recursion: actions can nest deeply
            item = todo.pop()
            if isinstance(item, dict):
                grant = item.get("grant")
                if isinstance(grant, dict) and isinstance(grant.get("ability"), dict):
                    ability_id = grant["ability"].get("id")
                    if isinstance(ability_id, str):
                        keys.setdefault(f"{writer}.{ability_id}")
                item = item.values()
            elif not isinstance(item, list):
                continue
            todo += [value for value in item if isinstance(value, (dict, list))]
    return list(keys)


def _with_modifiers(item: dict[str, Any], modifiers: dict[str, Any]) -> dict[str, Any]:
    """Put an alias's ``label``/``by``/``as`` onto the action it expands to."""
    return {**item, **{k: v for k, v in modifiers.items() if k not in item}}
