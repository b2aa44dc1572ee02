"""The value objects of tcgtrig: cards, abilities, patterns, actions, events.

Everything here is a frozen attrs class: a value that never changes once
built.  Game state changes by replacing a card with an evolved copy
(:func:`attrs.evolve`); see :mod:`tcgtrig.model.state` for the live container.

Actions, selectors and conditions are *data*: they are built from scenario
files by :mod:`tcgtrig.scenario.reading` (nothing is evaluated as code) or directly
in Python, and both paths produce the same objects.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, Union, get_args

from attrs import field
from attrs import fields as attrs_fields
from attrs import has as attrs_has

from .records import maker

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

__all__ = [
    "make_event",
    "make_card",
    "moved",
    "SOURCES",
    "NOWHERE",
    "TOKEN",
    "UNAFFECTED",
    "UNAFFECTED_BY_OPPONENT",
    "DECK",
    "HAND",
    "COMPARISONS",
    "Card",
    "Mod",
    "Pattern",
    "Ability",
    "Ref",
    "CardIds",
    "Query",
    "TargetRef",
    "Negate",
    "Battle",
    "Win",
    "LoseGame",
    "Selector",
    "Count",
    "StatOf",
    "DidCount",
    "HappenedCount",
    "Happened",
    "Amount",
    "Value",
    "Compare",
    "InZone",
    "HasFlag",
    "StatIs",
    "CounterIs",
    "CountIs",
    "AllOf",
    "AnyOf",
    "Not",
    "Did",
    "TurnOf",
    "AtTrigger",
    "Marked",
    "Condition",
    "Move",
    "Stack",
    "Draw",
    "Gain",
    "Flag",
    "Change",
    "Emit",
    "Activate",
    "Prevent",
    "If",
    "Together",
    "May",
    "Delay",
    "ResolvePending",
    "PassTurn",
    "Grant",
    "Mark",
    "DURATIONS",
    "Action",
    "Event",
    "ABILITY_KINDS",
]

#: Zones the scenario contract itself names: stacked cards (``under``) are
#: in ``sources``; ``draw`` takes the top of the ``deck`` into the ``hand``.
SOURCES = "sources"
#: where a token is once it has left the field: it has ceased to exist
NOWHERE = "nowhere"
#: the type word that makes a card a token
TOKEN = "token"
#: type or flag words of a card that effects do not affect (all effects, or
#: its opponent's): Digimon CR 15-15-5 "isn't affected by effects"
UNAFFECTED = "unaffected"
UNAFFECTED_BY_OPPONENT = "unaffected_by_opponent"
_UNAFFECTED_WORDS = frozenset({UNAFFECTED, UNAFFECTED_BY_OPPONENT})
DECK = "deck"
HAND = "hand"

#: Comparison keys accepted in conditions.
COMPARISONS = ("gte", "lte", "eq", "gt", "lt", "ne")

#: How long a change or a flag lasts (``until``): to the end of this turn,
#: of its maker's turn, of the maker's opponent's turn (the one in progress
#: if it is theirs).
DURATIONS = ("end_of_turn", "end_of_your_turn", "end_of_opponents_turn")

#: Ability kinds of the scenario contract.
ABILITY_KINDS = ("triggered", "interrupt", "replacement", "continuous", "activated", "consequence")


_T = TypeVar("_T")


def _tuple(value: Iterable[_T] | None) -> tuple[_T, ...]:
    return tuple(value) if value is not None else ()


def _pairs(value: dict[str, int] | Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """Normalise a mapping (or pairs) into sorted ``(name, number)`` pairs."""
    items = value.items() if isinstance(value, dict) else value
    return tuple(sorted((str(k), v) for k, v in items))


if TYPE_CHECKING:
    # What each field's converter accepts, spelled out for mypy's attrs
    # plugin (it cannot use a generic converter such as ``tuple``); at run
    # time they are functions that call ``tuple`` or ``frozenset``.
    def _strs(value: Iterable[str]) -> tuple[str, ...]: ...
    def _str_set(value: Iterable[str]) -> frozenset[str]: ...
    def _conditions(value: Iterable[Condition]) -> tuple[Condition, ...]: ...
    def _actions(value: Iterable[Action]) -> tuple[Action, ...]: ...
    # the same, ``None`` read as nothing
    def _some_strs(value: Iterable[str] | None) -> tuple[str, ...]: ...
    def _some_actions(value: Iterable[Action] | None) -> tuple[Action, ...]: ...
    def _stat_tests(value: Iterable[tuple[str, str, Value]] | None) -> tuple[tuple[str, str, Value], ...]: ...
    def _count_tests(value: Iterable[tuple[str, Value]] | None) -> tuple[tuple[str, Value], ...]: ...
    def _targets(value: Iterable[tuple[str, Query]] | None) -> tuple[tuple[str, Query], ...]: ...
    def _abilities(value: Iterable[Ability] | None) -> tuple[Ability, ...]: ...
    def _mods(value: Iterable[Mod] | None) -> tuple[Mod, ...]: ...
else:

    def _strs(value):  # not tuple itself: attrs reads each converter's signature, and tuple's takes tokenize (6 ms)
        return tuple(value)

    def _str_set(value):
        return frozenset(value)

    _conditions = _actions = _strs
    _some_strs = _some_actions = _stat_tests = _count_tests = _targets = _abilities = _mods = _tuple


# --------------------------------------------------------------------------
# Patterns (what an ability waits for)
# --------------------------------------------------------------------------


@frozen(kw_only=True)
class Pattern:
    """A trigger pattern: which events an ability reacts to.

    All keys but ``event`` are optional; an omitted key matches anything.
    ``card`` is ``self``, ``source``, ``own``, ``own_other``, ``opponent``,
    ``other``, ``any`` or a card id; ``player`` is ``self``, ``opponent`` or
    ``any`` (relative to the ability's controller); ``actor`` the same
    words for whose effect did it; ``card_is`` a query the event's card must
    fit (written ``card: {types: [digimon], name: Renamon}``); ``against``
    ``self``, ``source`` or a card id: the card a battle's event names as the
    other side ("when this Digimon deletes an opponent's Digimon in battle":
    ``{event: deleted, by: battle, against: self}``); ``events`` more event
    names it waits for, any of them (written ``event: [normal_summoned,
    special_summoned]``: "when a monster is Summoned").
    """

    event: str
    card: str | None = None
    player: str | None = None
    from_: str | None = None
    to: str | None = None
    by: str | None = None
    counter: str | None = None
    flag: str | None = None
    stat: str | None = None
    actor: str | None = None
    card_is: Query | None = None
    against: str | None = None
    events: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """Every event name the pattern waits for: ``event``, then ``events``."""
        return (self.event, *self.events) if self.events else (self.event,)


# --------------------------------------------------------------------------
# Selectors and amounts
# --------------------------------------------------------------------------


@frozen
class Ref:
    """A card the effect refers to by role: ``self``, ``source``, ``event``
    or ``against``.

    ``event`` means the card(s) of the event that triggered the effect (for an
    interrupt: the card the action was about to happen to); ``against`` the
    card(s) those cards battled (a battle's events).
    """

    role: str


@frozen
class CardIds:
    """Cards named by id in the scenario."""

    ids: tuple[str, ...] = field(converter=_strs)


@frozen(kw_only=True)
class Query:
    """Cards that match filters; ``pick`` makes the acting player choose.

    Without ``pick`` every match is selected (all at the same time).
    ``pick`` is a number, or one read from the position when the cards are
    chosen (``{count: …}``: "for each of this Digimon's digivolution
    cards"); 0 or less picks nothing.
    With ``upto`` the player may pick fewer (the label ``none`` stops).
    ``chooser`` is who picks: ``self`` (the acting player, the default) or
    ``opponent`` ("your opponent chooses one of their creatures").
    ``highest``/``lowest`` name a stat: only the matches with the highest
    (lowest) value of it are kept, every one of them when tied (Hammer
    Shot's "the monster with the highest ATK"; ``pick`` chooses among the
    tied); a match without that stat is left out.  ``top: N`` keeps the
    first N matches in zone order (the top of a deck or security stack:
    the first listed).  ``cards_under`` compares how many cards are stacked
    under each candidate ("with as many or fewer digivolution cards as this
    Digimon": ``{lte: {count: {zone: sources, under: self}}}``).
    ``types`` keeps cards with any of the words; ``all_types`` cards with
    every one ("a red Tamer": ``all_types: [red, tamer]``); ``has`` cards
    that carry the word as a type or as a flag (a printed keyword, or one
    gained for a while: ``has: blocker``).
    """

    zone: tuple[str, ...] = field(default=(), converter=_some_strs)
    owner: str | None = None
    types: tuple[str, ...] = field(default=(), converter=_some_strs)
    all_types: tuple[str, ...] = field(default=(), converter=_some_strs)
    has: str | None = None
    name: str | None = None
    flag: str | None = None
    no_flag: str | None = None
    stat: tuple[tuple[str, str, Value], ...] = field(default=(), converter=_stat_tests)
    under: Selector | None = None
    exclude: Selector | None = None
    pick: int | Count | StatOf | DidCount | HappenedCount | None = None
    upto: bool = False
    chooser: str | None = None
    highest: str | None = None
    lowest: str | None = None
    top: int | None = None
    cards_under: tuple[tuple[str, Value], ...] = field(default=(), converter=_count_tests)


@frozen
class TargetRef:
    """The cards an effect targeted as it was activated (the ability's
    ``target``/``targets``): ``target``, or ``target.NAME`` for one of
    several.  Read when the effect resolves, a target counts only if it is
    still the same object (it has not moved) and still fits its query: a
    target that left or changed is not affected."""

    name: str = "target"


Selector = Union[Ref, CardIds, Query, TargetRef]


@frozen
class Count:
    """A number computed when the action happens: how many cards a selector
    finds — or, ``fixed``, when the effect triggered (CR-style "values
    referenced when it triggers")."""

    of: Selector
    fixed: bool = False


@frozen
class StatOf:
    """A number read from a card: ``stat`` of the first card ``card``
    selects ("this Digimon's DP").  Read when it is used, or — ``fixed`` —
    as it was when the effect triggered.  No such card: no number (a
    comparison with it fails; an amount counts it as 0)."""

    card: Selector
    stat: str
    fixed: bool = False


@frozen
class DidCount:
    """How many things an earlier action of the same effect affected (its
    events): ``previous`` or a ``label`` — "draw as many cards as you
    discarded".  Replacements included: what was done instead counts, what
    was prevented does not."""

    label: str


@frozen
class HappenedCount:
    """How many events of this turn so far fit ``pattern`` (read with the
    asking effect's ``self`` and controller): "for each card sent to your
    GY this turn"."""

    pattern: Pattern


Amount = Union[int, Count, StatOf, DidCount, HappenedCount]
Value = Union[int, Count, StatOf, DidCount, HappenedCount]


# --------------------------------------------------------------------------
# Conditions
# --------------------------------------------------------------------------


@frozen
class Compare:
    """``op`` is one of :data:`~tcgtrig.model.values.COMPARISONS`; compares a number with ``value``."""

    op: str
    value: Value

    def test(self, number: int, value: int | None = None) -> bool:
        """``number`` against the value (``value``: the value already read,
        for a value that is not a plain number)."""
        # a value that is not a plain number comes read (``value``)
        v: int = self.value if value is None else value  # type: ignore[assignment]
        return _COMPARE[self.op](number, v)


#: each of :data:`COMPARISONS` as its operator
_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "gte": operator.ge,
    "lte": operator.le,
    "eq": operator.eq,
    "gt": operator.gt,
    "lt": operator.lt,
    "ne": operator.ne,
}


@frozen
class InZone:
    card: Selector
    zone: tuple[str, ...] = field(converter=_some_strs)


@frozen
class HasFlag:
    card: Selector
    flag: str
    negate: bool = False


@frozen
class StatIs:
    card: Selector
    stat: str
    compare: Compare


@frozen
class CounterIs:
    player: str
    counter: str
    compare: Compare


@frozen
class CountIs:
    of: Selector
    compare: Compare


@frozen
class AllOf:
    conditions: tuple[Condition, ...] = field(converter=_conditions)


@frozen
class AnyOf:
    conditions: tuple[Condition, ...] = field(converter=_conditions)


@frozen
class Not:
    condition: Condition


@frozen
class Did:
    """True if an earlier action of the same effect affected anything.

    ``label`` is ``previous`` (the action just before) or the ``label`` of an
    earlier action in the same effect.
    """

    label: str


@frozen
class TurnOf:
    """True during the turn of ``player`` (``self`` or ``opponent``)."""

    player: str


@frozen
class AtTrigger:
    """``condition`` as it was when the effect triggered — for an effect
    that triggered as its card left an area, as it was just before it left
    (Digimon CR 15-8-3-9-4: "[On Deletion] if this Digimon has digivolution
    cards" looks at the Digimon upon deletion).  Read now when the effect
    did not trigger (an activated one)."""

    condition: Condition


@frozen
class Marked:
    """True while the game carries the mark ``name`` (see :class:`Mark`)."""

    name: str


@frozen
class Happened:
    """True when the number of events of this turn that fit ``pattern``
    passes ``compare`` (``gte: 1`` by default): "if you used an Option card
    this turn", "if a monster was sent to the GY this turn".  The turn's
    history starts empty each turn; a position in progress lists what
    already happened with the top-level ``history``."""

    pattern: Pattern
    compare: Compare


Condition = Union[
    Happened,
    InZone,
    HasFlag,
    StatIs,
    CounterIs,
    CountIs,
    AllOf,
    AnyOf,
    Not,
    Did,
    TurnOf,
    AtTrigger,
    Marked,
]


# --------------------------------------------------------------------------
# Actions
# --------------------------------------------------------------------------


@frozen(kw_only=True)
class Move:
    """Move cards to a zone; emits ``moved`` (or the ``as_`` name).

    Cards stacked under a moving card go with it (the game may send them
    elsewhere); with ``alone`` only the card moves and the card directly
    under it takes its place.  ``under`` names the new parent when ``to`` is
    ``sources``.  With ``from_`` only cards in that zone move ("discard" is
    a move from the hand).  ``flags`` are the flags each card has once
    there, set as it arrives, with no event of their own (a card put
    face-down, or tapped).
    """

    card: Selector
    to: str
    from_: str | None = None
    as_: str | None = None
    under: Selector | None = None
    alone: bool = False
    by: str | None = None
    label: str | None = None
    flags: tuple[str, ...] = ()


@frozen(kw_only=True)
class Stack:
    """Put ``card`` on top of ``onto``: it takes ``onto``'s place and ``onto``
    (with everything under it) goes under it.  Digivolution, evolution.
    Emits ``stacked`` (or the ``as_`` name) for the new top card."""

    card: Selector
    onto: Selector
    as_: str | None = None
    by: str | None = None
    label: str | None = None


@frozen(kw_only=True)
class Draw:
    player: str = "self"
    count: Amount = 1
    as_: str | None = None
    by: str | None = None
    label: str | None = None


@frozen(kw_only=True)
class Gain:
    """``gain`` (or, with ``sign=-1``, ``lose``) an amount of a counter."""

    player: str = "self"
    counter: str
    amount: Amount = 1
    sign: int = 1
    as_: str | None = None
    by: str | None = None
    label: str | None = None


@frozen(kw_only=True)
class LoseGame:
    """``lose_game``: a player loses the game — a rule's (Magic CR 704.5a:
    0 or less life) or an effect's.  An action like any other: its event
    (``lost_game``) may be replaced or prevented before it happens (Lich's
    Mirror, CR 614); once it happens the resolution ends, the other player
    winning (all players losing at once: a draw)."""

    player: str = "self"
    reason: str | None = None
    as_: str | None = None
    by: str | None = None
    label: str | None = None


@frozen(kw_only=True)
class Flag:
    card: Selector
    set_: str | None = None
    clear: str | None = None
    until: str | None = None
    as_: str | None = None
    by: str | None = None
    label: str | None = None


@frozen(kw_only=True)
class Change:
    card: Selector
    stat: str
    by_amount: Amount
    until: str | None = None
    as_: str | None = None
    by: str | None = None
    label: str | None = None


@frozen(kw_only=True)
class Emit:
    """Declare that something happened (an attack, a block, a use).

    ``reason`` (one line, citing the rule) is written in the event's trace
    step: why a rule event happened, or what the rules refused instead.
    """

    event: str
    card: Selector | None = None
    player: str | None = None
    by: str | None = None
    reason: str | None = None
    label: str | None = None


@frozen(kw_only=True)
class Activate:
    """Apply another ability's actions now (an effect that uses another)."""

    key: str
    label: str | None = None


@frozen(kw_only=True)
class Prevent:
    """In an interrupt or replacement: the action about to happen does not
    happen to the subject (``card``; default: the subject it matched)."""

    card: Selector | None = None
    label: str | None = None


@frozen(kw_only=True)
class If:
    condition: Condition
    then: tuple[Action, ...] = field(default=(), converter=_actions)
    else_: tuple[Action, ...] = field(default=(), converter=_actions)
    label: str | None = None


@frozen(kw_only=True)
class Together:
    """The listed actions happen at the same time: one batch of events."""

    actions: tuple[Action, ...] = field(converter=_actions)
    label: str | None = None


@frozen(kw_only=True)
class May:
    """The controller chooses ``use`` (do ``then``) or ``decline`` (do ``else_``)."""

    then: tuple[Action, ...] = field(default=(), converter=_actions)
    else_: tuple[Action, ...] = field(default=(), converter=_actions)
    label: str | None = None


@frozen(kw_only=True)
class Delay:
    """``actions`` are put off until the current resolution sequence is
    over — in a chain game, once the whole chain (stack) has resolved; the
    game says when (``tcgtrig_delayed_due``).  Then they happen as part of
    the effect that put them off, before what triggered meanwhile becomes
    pending (Yu-Gi-Oh!'s Last Turn: "after Ceasefire resolves, the turn
    player Special Summons")."""

    actions: tuple[Action, ...] = field(default=(), converter=_actions)
    label: str | None = None


@frozen(kw_only=True)
class Grant:
    """``card`` gains ``ability`` (until ``until``, or while it stays where
    it is).  ``key`` is its effect key: ``<card the grant is written on>.<ability id>``
    (``start.<id>`` in the start actions)."""

    card: Selector
    ability: Ability
    key: str
    until: str | None = None
    as_: str | None = None
    by: str | None = None
    label: str | None = None


@frozen(kw_only=True)
class PassTurn:
    """The turn ends: changes and flags that last until then end, per-turn
    uses reset, the other player's turn starts (event ``start_of_turn``).
    ``end_turn`` in a scenario is ``emit end_of_turn``, ``resolve_pending``,
    then this.  With ``check`` (a turn the game ended, ``tcgtrig_turn_ends``)
    the turn passes only if the game still says it ends."""

    label: str | None = None
    check: bool = False


@frozen(kw_only=True)
class ResolvePending:
    """A step boundary in the scenario's start: everything pending resolves
    before the next start action (an attack's triggers before its block and
    its break)."""

    label: str | None = None


@frozen(kw_only=True)
class Mark:
    """Set or clear a mark on the game itself, on no card: a note of the
    rules that outlives any card moving (Digimon's words mark an attack that
    an effect ended, whatever becomes of the attacker).  Bookkeeping, not
    something that happens in the game: it emits no event, so it triggers
    nothing and is not part of a ``together``."""

    set_: str | None = None
    clear: str | None = None
    label: str | None = None


@frozen(kw_only=True)
class Negate:
    """Negate the activation (``what: activation``) or the effect (``what:
    effect``) of the chain link of each card ``card`` finds — the newest
    link of that card not negated yet (Yu-Gi-Oh!'s Counter Traps: "negate
    the activation, and if you do, destroy it").  A negated link is not
    resolved when its turn comes: nothing it says happens.  ``did`` counts
    the links negated.  Outside a chain nothing is negated."""

    card: Selector
    what: str = "activation"
    label: str | None = None


@frozen(kw_only=True)
class Battle:
    """``card`` battles ``against`` (the first card each finds; none: a
    direct attack): the game says what it comes to
    (``tcgtrig_battle_result``: by default the lower ``battle_stat``
    loses and is destroyed, both when equal).  At one moment, open to
    interrupts and replacements: the losers are destroyed (``by:
    battle``), the winner gets ``won_battle`` and each loser
    ``lost_battle``, and battle damage lowers the players' counter.
    ``hold``: a flag set on the cards the battle destroys instead of
    moving them now — the game destroys them at a later step (Yu-Gi-Oh!:
    destroyed by battle at damage calculation, sent to the GY at the end
    of the Damage Step)."""

    card: Selector
    against: Selector | None = None
    hold: str | None = None
    label: str | None = None


@frozen(kw_only=True)
class Win:
    """A player wins the game (an effect's "you win the Duel", a rule's
    victory condition): the resolution ends there, its outcome ``P wins``
    and ``reason`` in the trace; what is pending is lost."""

    player: str = "self"
    reason: str | None = None
    label: str | None = None


Action = Union[
    Move,
    Stack,
    Draw,
    Gain,
    Flag,
    Change,
    Emit,
    Activate,
    Prevent,
    If,
    Together,
    May,
    ResolvePending,
    PassTurn,
    Grant,
    Mark,
    Negate,
    Battle,
    Win,
    Delay,
    LoseGame,
]
#: The core actions, for ``isinstance`` checks of what a plugin returns.
ACTION_TYPES: tuple[type, ...] = get_args(Action)


# --------------------------------------------------------------------------
# Abilities and cards
# --------------------------------------------------------------------------


@frozen(kw_only=True)
class Ability:
    """One ability printed on (or granted to) a card."""

    id: str
    kind: str = "triggered"
    when: Pattern | None = None
    optional: bool = False
    once_per_turn: bool = False
    per_turn: int = 0
    wording: str = "when"
    speed: int = 1
    tags: tuple[str, ...] = field(default=(), converter=_some_strs)
    active_in: tuple[str, ...] = field(default=(), converter=_some_strs)
    condition: Condition | None = None
    trigger_condition: Condition | None = None
    cost: tuple[Action, ...] = field(default=(), converter=_some_actions)
    do: tuple[Action, ...] = field(default=(), converter=_some_actions)
    text: str | None = None
    #: what it targets as it activates, by name (``target`` for the one
    #: ``target:`` query): chosen after its cost, kept while it waits
    targets: tuple[tuple[str, Query], ...] = field(default=(), converter=_targets)
    #: how many times a turn it may activate (0: no limit): ``per_turn: 2``
    #: is [Twice Per Turn]; ``once_per_turn`` spells 1.  Worked out as it is
    #: made (read for every effect), never given
    uses_per_turn: int = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "uses_per_turn", self.per_turn or (1 if self.once_per_turn else 0))


@frozen(kw_only=True)
class Mod:
    """A lasting change to a stat (``change``), a flag set for a while
    (``flag`` with ``until``: ``stat`` is empty, ``flag`` names it), or a
    gained ability (``grant``: ``ability``, with its effect ``key``).
    Like every change on a card it stays with the pile when the card is
    covered (digivolution) or its top card is removed, and ends when the
    card moves.

    ``until`` is one of :data:`~tcgtrig.model.values.DURATIONS` (``None``: while the card stays
    where it is); ``player`` is who made the change, for "your" and
    "opponent's" turn.
    """

    stat: str = ""
    by: int = 0
    until: str | None = None
    effect: str | None = None
    player: str | None = None
    flag: str | None = None
    ability: Ability | None = None
    key: str | None = None

    def ends_with_turn_of(self, ending: str) -> bool:
        """Whether the end of ``ending``'s turn ends it."""
        if self.until == "end_of_turn":
            return True
        if self.until == "end_of_your_turn":
            return self.player is None or self.player == ending
        if self.until == "end_of_opponents_turn":
            return self.player is None or self.player != ending
        return False


@frozen(kw_only=True, weakref_slot=False)  # made by make_card (records.maker) as it moves
class Card:
    """A card and where it is now.

    ``incarnation`` counts the card's moves: a card that changed zones is a
    new object for the rules that care (pending effects, "this card").
    """

    id: str
    name: str
    owner: str
    zone: str
    under: str | None = None
    stats: tuple[tuple[str, int], ...] = field(default=(), converter=_pairs)
    flags: frozenset[str] = field(default=frozenset(), converter=_str_set)
    types: tuple[str, ...] = field(default=(), converter=_some_strs)
    abilities: tuple[Ability, ...] = field(default=(), converter=_abilities, eq=False, repr=False)
    mods: tuple[Mod, ...] = field(default=(), converter=_mods)
    incarnation: int = 0

    def base_stat(self, name: str) -> int | None:
        for key, value in self.stats:
            if key == name:
                return value
        return None

    def ability(self, ability_id: str) -> Ability | None:
        for ability in self.abilities:
            if ability.id == ability_id:
                return ability
        return None

    def carries_unaffected(self) -> bool:
        """Whether the card carries either "isn't affected" word (a quick
        look before :meth:`unaffected_by`: most cards carry neither)."""
        return not _UNAFFECTED_WORDS.isdisjoint(self.flags) or not _UNAFFECTED_WORDS.isdisjoint(self.types)

    def unaffected_by(self, player: str | None, controller: str) -> bool:
        """Whether effects of ``player`` do not affect this card (its words
        :data:`UNAFFECTED`, or :data:`UNAFFECTED_BY_OPPONENT` and ``player``
        is not its ``controller``)."""
        if UNAFFECTED in self.flags or UNAFFECTED in self.types:
            return True
        return (
            player is not None
            and player != controller
            and (UNAFFECTED_BY_OPPONENT in self.flags or UNAFFECTED_BY_OPPONENT in self.types)
        )

    def dynamic(self) -> CardDynamic:
        """The part of the card that changes during play (for fingerprints)."""
        return (self.id, self.zone, self.under, self.stats, tuple(sorted(self.flags)), self.mods)


#: what :meth:`Card.dynamic` gives: id, zone, under, stats, flags (sorted), mods
CardDynamic = tuple[str, str, str | None, tuple[tuple[str, int], ...], tuple[str, ...], tuple[Mod, ...]]

#: each class's attrs field names (empty for values that are not model objects)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = tuple(a.name for a in attrs_fields(cls)) if attrs_has(cls) else ()
        _FIELD_NAMES[cls] = names
    return names


def walk(root: Any) -> Iterator[Any]:
    """Every value inside ``root`` — model objects, their fields, the items
    of their tuples — ``root`` first.  A walk, not a recursion: words can
    nest deeply."""
    todo: list[Any] = [root]
    pop, extend = todo.pop, todo.extend
    while todo:
        item = pop()
        yield item
        if isinstance(item, (tuple, list)):
            extend(item)
        else:
            names = _field_names(type(item))
            if names:
                extend([getattr(item, name) for name in names])


def walk_objects(root: Any) -> Iterator[Any]:
    """The model objects inside ``root``, ``root`` first if it is one: as
    :func:`walk`, leaving out plain values (strings, numbers, …)."""
    todo: list[Any] = [root]
    pop, extend = todo.pop, todo.extend
    while todo:
        item = pop()
        if isinstance(item, (tuple, list)):
            extend(item)
        else:
            names = _field_names(type(item))
            if names:
                yield item
                extend([getattr(item, name) for name in names])


def _share_on_copy(*classes: type) -> None:
    """Frozen values are shared, never duplicated, by copy and deepcopy."""
    for cls in classes:
        cls.__copy__ = lambda self: self  # type: ignore[attr-defined]
        cls.__deepcopy__ = lambda self, memo: self  # type: ignore[attr-defined]


# --------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------


@frozen(kw_only=True, weakref_slot=False)  # made by make_event (records.maker)
class Event:
    """Something that happened (or, for interrupts, is about to happen).

    ``name`` is the event's name (``deleted``); ``base`` the core name it
    renames (``moved``), so patterns may use either.  ``player`` is whose
    card or counter it concerns; ``actor`` the player whose effect (or
    start action) did it — ``None`` for what the rules do (``by: rule``);
    ``reason`` the rule an ``emit`` cites for it (trace only); ``against``,
    on a battle's events, the card the event's card battled (the selector
    ``event.against``: <Retaliation>'s "the Digimon it battled").
    """

    name: str
    base: str | None = None
    card: str | None = None
    player: str | None = None
    from_: str | None = None
    to: str | None = None
    by: str | None = None
    counter: str | None = None
    amount: int | None = None
    flag: str | None = None
    stat: str | None = None
    cards: tuple[str, ...] = field(default=(), converter=_some_strs)
    actor: str | None = None
    reason: str | None = None
    #: a battle's events: the card the event's card battled
    against: str | None = None

    def names(self) -> tuple[str, ...]:
        return (self.name,) if self.base is None or self.base == self.name else (self.name, self.base)


_share_on_copy(
    Pattern,
    Ref,
    CardIds,
    Query,
    Count,
    StatOf,
    Compare,
    InZone,
    HasFlag,
    StatIs,
    CounterIs,
    CountIs,
    DidCount,
    HappenedCount,
    Happened,
    AllOf,
    AnyOf,
    Not,
    Did,
    TurnOf,
    AtTrigger,
    Move,
    Stack,
    Draw,
    Gain,
    Flag,
    Change,
    Emit,
    Activate,
    Prevent,
    If,
    Together,
    May,
    ResolvePending,
    PassTurn,
    Grant,
    Ability,
    Mod,
    Card,
    Event,
    TargetRef,
    Negate,
    Battle,
    Win,
    LoseGame,
)


class MakeEvent(Protocol):
    """The signature of :data:`make_event`: :class:`Event`'s fields in order, each
    by place or by name (checked against the class: ``tests/core/test_records.py``)."""

    def __call__(
        self,
        name: str,
        base: str | None = ...,
        card: str | None = ...,
        player: str | None = ...,
        from_: str | None = ...,
        to: str | None = ...,
        by: str | None = ...,
        counter: str | None = ...,
        amount: int | None = ...,
        flag: str | None = ...,
        stat: str | None = ...,
        cards: tuple[str, ...] = ...,
        actor: str | None = ...,
        reason: str | None = ...,
        against: str | None = ...,
    ) -> Event: ...


#: :class:`Event`'s keywords, at slot speed (:func:`~tcgtrig.model.records.maker`):
#: ``cards`` must be a tuple
make_event: MakeEvent = maker(Event)


class MakeCard(Protocol):
    """The signature of :data:`make_card`: :class:`Card`'s fields in order, each
    by place or by name (checked against the class: ``tests/core/test_records.py``)."""

    def __call__(
        self,
        id: str,
        name: str,
        owner: str,
        zone: str,
        under: str | None = ...,
        stats: tuple[tuple[str, int], ...] = ...,
        flags: frozenset[str] = ...,
        types: tuple[str, ...] = ...,
        abilities: tuple[Ability, ...] = ...,
        mods: tuple[Mod, ...] = ...,
        incarnation: int = ...,
    ) -> Card: ...


#: :class:`Card`'s fields, at slot speed (:func:`~tcgtrig.model.records.maker`):
#: every value already of its field's type (no converter runs)
make_card: MakeCard = maker(Card)


def moved(card: Card, zone: str, under: str | None, flags: frozenset[str]) -> Card:
    """``card`` as it arrives in ``zone`` (``under`` a card there, or not):
    a new object (its incarnation counts the move), with ``flags`` and none
    of its lasting changes."""
    return make_card(
        card.id,
        card.name,
        card.owner,
        zone,
        under,
        card.stats,
        flags,
        card.types,
        card.abilities,
        (),
        card.incarnation + 1,
    )
