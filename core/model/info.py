"""Values that cross the hook contract: what a game is, and its verdicts."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast, overload

from attrs import field

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

__all__ = [
    "GameInfo",
    "Drop",
    "GameEnd",
    "BattleResult",
    "ActivationContext",
    "ChainKeys",
    "RESOLUTION_MODELS",
    "STOPPED",
    "ZONE_ROLES",
    "EVENT_ROLES",
    "FLAG_ROLES",
    "STAT_ROLES",
    "COUNTER_ROLES",
    "TYPE_ROLES",
    "CHAIN_TRIGGERS",
    "TRIGGER_MULTIPLICITIES",
    "TERMS",
]

#: The outcome of a resolution the memory bound stopped
#: (:meth:`~tcgtrig.runtime.machine.Machine.stop`): the tool's limit, not a game's
#: verdict, so no game scores it.
STOPPED = "stopped"

#: ``immediate``: an activated effect resolves at once (Digimon, Duel Masters).
#: ``chain``: activated effects form a chain that resolves last in, first out
#: once both players pass (Yu-Gi-Oh!).
RESOLUTION_MODELS = ("immediate", "chain")
#: When what triggers while a chain resolves goes on (``GameInfo.chain_triggers``).
CHAIN_TRIGGERS = ("after_chain", "on_top")
#: How many times a condition met by several events of one moment triggers
#: (``GameInfo.trigger_multiplicity``): once per event, or once for the moment.
TRIGGER_MULTIPLICITIES = ("per_event", "per_moment")

#: What a zone is, whatever a game calls it (``GameInfo.zone_roles``).
ZONE_ROLES = ("deck", "hand", "field", "discard", "exile", "life", "resource")
#: What an event is, whatever a game calls it (``GameInfo.event_roles``).
EVENT_ROLES = (
    "destroyed",
    "discarded",
    "returned_to_hand",
    "put_into_play",
    "exiled",
    "resourced",
    "tapped",
    "untapped",
    "life_lost",
)
#: What a flag is, whatever a game calls it (``GameInfo.flag_roles``).
FLAG_ROLES = ("tapped",)
#: What a stat is, whatever a game calls it (``GameInfo.stat_roles``):
#: ``strength`` is what a card battles with (Digimon's DP, Duel Masters'
#: power, Yu-Gi-Oh!'s ATK, Magic's power); ``toughness`` what damage it
#: withstands, in a game that counts damage against a second stat (Magic's
#: toughness) — a game without one reads its strength as both;
#: ``defense`` a second stat a card battles with in another position;
#: ``damage`` the damage marked on it; ``level`` its level or rank.
STAT_ROLES = ("strength", "toughness", "defense", "damage", "level")
#: What a counter is, whatever a game calls it (``GameInfo.counter_roles``):
#: ``life`` what a player loses to lose the game (LP, life), ``score`` what
#: a player gains to win it (lore).
COUNTER_ROLES = ("life", "score")
#: What a card type is, whatever a game calls it (``GameInfo.type_roles``):
#: ``unit`` a card that stays on the field and battles (a Digimon, a
#: monster, a character); ``spell`` one used once and gone.
TYPE_ROLES = ("unit", "spell")
#: The core's own words for the notions a game may name (``GameInfo.terms``),
#: shown wherever the game names none: how deep an effect was derived (the
#: detail key of its number), and a chain game's chain, one of its links
#: and the short form before a link's number (``CL2``).
TERMS = {"depth": "depth", "chain": "chain", "chain_link": "chain link", "chain_link_short": "CL"}


def _items(value: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """A mapping (or pairs) as its ``(name, word)`` pairs, in order."""
    return tuple(dict(value).items())


def _some_stat_tests(value: Iterable[Sequence[Any]] | None) -> tuple[tuple[str, str, int], ...] | None:
    """``GameInfo.rule_stats``: ``(stat, op, number)`` triples, or ``None``."""
    if value is None:
        return None
    return tuple((str(stat), str(op), int(number)) for stat, op, number in value)


def _some_strs(value: Iterable[str] | None) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


def _damage(value: Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    return tuple(cast("tuple[str, int]", tuple(p)) for p in value)


#: the event of a stat a battle changes, unless the game names another
STAT_CHANGED = "stat_changed"


def _changes(value: Iterable[Sequence[Any]]) -> tuple[tuple[str, str, int, str], ...]:
    """``(card, stat, amount)`` or ``(card, stat, amount, event)``, each as
    four: the event's name ``stat_changed`` unless given."""
    return tuple(cast("tuple[str, str, int, str]", tuple(c) if len(c) != 3 else (*c, STAT_CHANGED)) for c in value)


if TYPE_CHECKING:
    # the converter ``tuple``, spelled out for mypy's attrs plugin
    def _strs(value: Iterable[str]) -> tuple[str, ...]: ...
else:

    def _strs(value):  # not tuple itself: attrs reads each converter's signature, and tuple's takes tokenize (6 ms)
        return tuple(value)


@frozen(kw_only=True)
class GameInfo:
    """What a ruleset is.  Returned by ``tcgtrig_game_info``.

    :param name: the ruleset name users type (``digimon``); must equal the
        entry-point name it is registered under.
    :param title: a human title (``Digimon Card Game``).
    :param version: the ruleset's own version.
    :param summary: one line on what it implements.
    :param rules: the rules document it follows (``Comprehensive Rules 4.2``).
    :param resolution: one of :data:`~tcgtrig.model.info.RESOLUTION_MODELS`.
    :param chain_triggers: in a chain game, when what triggers while a
        chain resolves goes on: ``after_chain`` (Yu-Gi-Oh!'s SEGOC: once the
        whole chain has resolved; the default) or ``on_top`` (Magic: The
        Gathering, CR 603.3 and 117.5: after each link resolves, state
        checks, then the new triggers go on top of what is left of the
        chain and players may respond again before the next link).
    :param terms: the game's words for the core's notions (:data:`~tcgtrig.model.info.TERMS`),
        for display: ``depth`` (``{"depth": "priority"}``: the detail key of
        an effect's depth), and in a chain game ``chain``, ``chain_link``
        and ``chain_link_short`` (Yu-Gi-Oh!'s ``Chain``, ``Chain Link``,
        ``CL``; Magic's ``stack``, ``stack object``, ``#``).
    :param draw_one_at_a_time: ``draw: {count: n}`` is n draws of one card,
        each its own event (Duel Masters); by default one event for the
        whole draw.
    :param spent_abilities_trigger: an ability whose uses this turn are
        all spent (``once_per_turn``, ``per_turn``) still triggers, and then
        fails when it would activate; ``False``: it does not trigger at all
        (Digimon CR 15-14-1-2).
    :param recheck_trigger_condition: a pending effect's
        ``trigger_condition`` is checked again while it waits (before each
        pick and as it would activate) and the effect is ``lost`` once it
        stops holding (Digimon CR 15-4-4-5); by default it is checked only
        as the trigger event happens.
    :param condition_on_resolution: a triggered effect's
        ``trigger_condition`` is checked again as it resolves; one that no
        longer holds resolves and does nothing (its ``resolved`` step says
        why): Magic's intervening "if" (CR 603.4), Lorcana's secondary
        condition (7.4.4.2).  By default it is checked only as the trigger
        event happens (and while it waits where the game says so:
        ``recheck_trigger_condition``).
    :param trigger_condition_looks_back: an ability that triggers as its
        card leaves (its match looked back: the card no longer is where the
        ability works) reads its ``trigger_condition`` as things were just
        before it left — the object as it last existed (Magic CR 603.10a:
        undying's "if it had no +1/+1 counters on it").  By default it is
        read as things are after the event.
    :param citations: the game's rule for each reason the core gives, cited
        after it in traces: ``per_turn`` (uses spent), ``condition`` (not
        met on activation), ``cost`` (cannot be paid), ``trigger_condition``
        (stopped holding while pending), ``chain`` (a chain resolves last
        in, first out: the ``rule`` of a link's ``resolved`` step), e.g.
        ``{"per_turn": "CR 15-14-1"}``.
    :param variants: the game's rule variants, name → one line on what it
        changes, the default first (Yu-Gi-Oh! ``tcg``, ``ocg``, ``goat``);
        ``GAME/VARIANT`` selects one wherever a game is named, and
        ``tcgtrig_variant`` gives the plugin that makes it.
    :param events: event names the game's rules and hooks emit by
        themselves (its words' events are read from the words); the
        typo check knows them, and ``docs/events.md`` lists them.
    :param zones: zones the game's rules move cards to or from by
        themselves (its words' zones are read from the words).
    :param rule_counters: the counters the game's own rules read (Digimon's
        memory, which ends the turn), or ``None``: any counter may matter.
        A loop whose effects keep recurring while only counters nothing
        reads change is ended as endless at once; with ``None``, only the
        step limit ends it.
    :param rule_stats: how the game's own rules compare cards' stats, as
        ``(stat, op, number)`` (Duel Masters: a creature with ``power``
        ``lte`` 0 is destroyed), or ``None``: any stat may matter.  A loop
        whose effects keep recurring while only stat changes nothing reads
        that way grow is ended as endless at once; with ``None``, only the
        step limit ends it (battles read every stat: a loop whose words
        hold one is left to the step limit too).
    :param stats: the card stats the game's rules read (Digimon's ``dp``
        and ``level``): the conformance kit gives its cards such stats, so
        that the game's rules processing is exercised.
    :param zone_roles: what each of the game's zones is, in the core's
        words (:data:`~tcgtrig.model.info.ZONE_ROLES`): Digimon's ``trash`` is ``discard``.  A
        word of another game is read through them: its ``trash`` means
        the zone whose role is ``discard`` wherever the file is resolved.
    :param event_roles: the same for the game's events
        (:data:`~tcgtrig.model.info.EVENT_ROLES`): Digimon's ``deleted`` is ``destroyed``.
    :param flag_roles: the same for its flags (:data:`~tcgtrig.model.info.FLAG_ROLES`):
        Digimon's ``suspended`` is ``tapped``.
    :param stat_roles: the same for its stats (:data:`~tcgtrig.model.info.STAT_ROLES`):
        Digimon's ``dp`` is ``strength``; a card's ``dp: 4000`` written in
        Digimon's words is Magic's ``power: 4000, toughness: 4000``.
    :param counter_roles: the same for its counters (:data:`~tcgtrig.model.info.COUNTER_ROLES`):
        Yu-Gi-Oh!'s ``lp`` is ``life``.
    :param type_roles: the same for its card types (:data:`~tcgtrig.model.info.TYPE_ROLES`):
        Yu-Gi-Oh!'s ``monster`` is ``unit``.
    :param turn_marks: marks (the ``mark`` action) that last no longer than
        a turn: the core clears them as the turn passes (Digimon's
        ``attack_in_progress``: an attack left open does not outlive its
        turn).  By default a mark lasts until an action clears it.
    :param tokens_arrive: what becomes of a token (a card whose ``types``
        include ``token``) that leaves a zone of the role ``field``: it
        ceases to exist either way (it ends in the zone ``nowhere``).
        ``True``: it counts as put where it was going, so "is put into the
        trash" sees it go there (Digimon CR 4-21-5, Magic 111.7/704.5d);
        ``False`` (the default): it never gets there, and its event says
        ``to: nowhere`` (Yu-Gi-Oh!: a destroyed Token is not sent to the GY,
        so Fatal Abacus does not see it).
    :param tokens_never_added_to: zones a token leaving the field never
        counts as reaching, even where ``tokens_arrive`` is ``True``: its
        event says ``to: nowhere`` for them, so "when a card is added to
        your hand" does not see it (Digimon CR 15-1-10, Q&A Q1266: a token
        "returned to the hand" is removed from the game and never added to
        the hand; 15-1-9 keeps "placed in the trash" for the other zones).
        The game's own zone names.
    :param revealed_on_activation: a flag an activated ability's card loses
        as it is activated, by rule (event ``flag_cleared``, before its
        cost): Yu-Gi-Oh!'s ``face_down`` (a Set Spell or Trap Card is
        turned face-up as it is activated).  ``""``: none.
    :param rules_between_actions: rules processing (``tcgtrig_rules_processing``)
        also runs between the actions of one resolution — after each action
        that another follows — not only once a resolution is over; what it
        triggers still waits for the resolution to end.  Duel Masters: state-based
        processing (a creature with power 0 or less is destroyed) takes
        precedence over resolving a spell or ability, so a creature brought
        to 0 power is destroyed before a later part of the same resolution
        could raise it again (Q&A 46075).  By default (Digimon 17-1-2-2,
        Magic 704.3) only between resolutions.
    :param would_effects: the game has "when … would" effects
        (``kind: interrupt``) that wait for an action about to happen and
        resolve before it; ``False``: such an ability never triggers there
        (Magic: "would" is only ever a replacement, CR 614.1; triggered
        abilities trigger on what happened, 603.2), and a note says so.
        Replacements (``kind: replacement``) are not concerned.
    :param max_players: how many players a position may name (2 by
        default); the players take turns in the order the file lists them,
        and "an opponent" is any other player.
    :param trigger_multiplicity: how many times an ability triggers when
        several events of one moment meet its condition (three creatures
        destroyed at once, "whenever a creature is destroyed"):
        ``per_event``, once for each (Magic CR 603.2c, Duel Masters 603.2b,
        Lorcana 6.2.1), or ``per_moment``, once (Digimon CR 15-5-2,
        Yu-Gi-Oh!'s one act).  Every game should state it, and cite its rule
        in ``citations["trigger_multiplicity"]``; empty (not stated) is read
        as ``per_moment``, and ``tcgtrig games`` and the conformance kit
        say it is missing.  ``tcgtrig_trigger_each_event`` refines it per
        ability.
    :param battle_stat: the stat a battle compares (Digimon's ``dp``, Duel
        Masters' ``power``, Yu-Gi-Oh!'s ``atk``; Magic's ``power`` and
        Lorcana's ``strength``, which their battles deal as damage): by
        default the lower loses and is destroyed, both when equal
        (``tcgtrig_battle_result`` may say otherwise).  Empty: the game has
        no battles.
    """

    name: str
    title: str
    version: str
    summary: str = ""
    rules: str = ""
    resolution: str = "immediate"
    chain_triggers: str = field(default="after_chain")
    terms: tuple[tuple[str, str], ...] = field(default=(), converter=_items)
    draw_one_at_a_time: bool = False
    spent_abilities_trigger: bool = True
    recheck_trigger_condition: bool = False
    condition_on_resolution: bool = False
    trigger_condition_looks_back: bool = False
    citations: tuple[tuple[str, str], ...] = field(default=(), converter=_items)
    variants: tuple[tuple[str, str], ...] = field(default=(), converter=_items)
    events: tuple[str, ...] = field(default=(), converter=_strs)
    zones: tuple[str, ...] = field(default=(), converter=_strs)
    rule_counters: tuple[str, ...] | None = field(default=None, converter=_some_strs)
    rule_stats: tuple[tuple[str, str, int], ...] | None = field(default=None, converter=_some_stat_tests)
    turn_marks: tuple[str, ...] = field(default=(), converter=_strs)
    stats: tuple[str, ...] = field(default=(), converter=_strs)
    zone_roles: tuple[tuple[str, str], ...] = field(default=(), converter=_items)
    event_roles: tuple[tuple[str, str], ...] = field(default=(), converter=_items)
    flag_roles: tuple[tuple[str, str], ...] = field(default=(), converter=_items)
    stat_roles: tuple[tuple[str, str], ...] = field(default=(), converter=_items)
    counter_roles: tuple[tuple[str, str], ...] = field(default=(), converter=_items)
    type_roles: tuple[tuple[str, str], ...] = field(default=(), converter=_items)
    tokens_arrive: bool = False
    tokens_never_added_to: tuple[str, ...] = field(default=(), converter=_strs)
    revealed_on_activation: str = ""
    rules_between_actions: bool = False
    trigger_multiplicity: str = ""
    battle_stat: str = ""
    max_players: int = 2
    would_effects: bool = True

    @property
    def default_variant(self) -> str | None:
        return self.variants[0][0] if self.variants else None

    def term(self, word: str) -> str:
        """The game's word for a core notion (:data:`TERMS`), else the core's."""
        return dict(self.terms).get(word, TERMS.get(word, word))

    @property
    def unstated(self) -> tuple[str, ...]:
        """The rules every game should state that this one leaves to the
        core's default, or states without citing (``trigger_multiplicity``,
        ``citations['trigger_multiplicity']``): what the conformance kit
        and ``tcgtrig games`` point out."""
        if not self.trigger_multiplicity:
            return ("trigger_multiplicity",)
        if not self.citation("trigger_multiplicity"):
            return ("citations['trigger_multiplicity']",)
        return ()

    @property
    def each_event(self) -> bool:
        """Whether an ability triggers once per event of a moment
        (:attr:`trigger_multiplicity` ``per_event``)."""
        return self.trigger_multiplicity == "per_event"

    def citation(self, rule: str) -> str:
        for name, citation in self.citations:
            if name == rule:
                return citation
        return ""


@frozen
class Drop:
    """A pending effect leaves the pending set without an activation attempt.

    :param kind: ``lost`` (its card left, it became a new card, its trigger no
        longer holds), ``missed`` (missed the timing) or ``void`` (it never
        triggered after all: no trace step, as if it had not matched).
    :param reason: one line for the trace, citing the rule where possible.
    """

    kind: str
    reason: str = ""


@frozen(kw_only=True)
class BattleResult:
    """What a battle between two cards comes to (``tcgtrig_battle_result``).

    :param destroyed: the cards the battle destroys (they go to the zone of
        the role ``discard`` as the game's ``destroyed`` event, ``by:
        battle``).
    :param winner: the card that won, if one did (it gets the event
        ``won_battle``: "when this Digimon wins a battle", "when this card
        destroys a monster by battle").
    :param losers: the cards that lost, destroyed or not (each gets the
        event ``lost_battle``); by default the destroyed ones.
    :param damage: ``(player, amount)`` pairs: battle damage, taken from
        ``counter`` (Yu-Gi-Oh!'s LP), ``by: battle``.
    :param counter: the counter battle damage lowers.
    :param changes: ``(card, stat, amount)`` — or ``(card, stat, amount,
        event)`` — stat changes the battle makes to its two cards, as
        ``change`` does, at the battle's moment: the event ``stat_changed``
        (or the name given, whose base is ``stat_changed``), ``by: battle``,
        ``against`` the other card.  The damage a battle *marks* (Magic's
        combat damage, Lorcana's damage counters): the game's rules
        processing then destroys what it must, instead of the battle.
    """

    destroyed: tuple[str, ...] = field(default=(), converter=_strs)
    winner: str | None = None
    losers: tuple[str, ...] | None = field(default=None, converter=_some_strs)
    damage: tuple[tuple[str, int], ...] = field(default=(), converter=_damage)
    counter: str = ""
    changes: tuple[tuple[str, str, int, str], ...] = field(default=(), converter=_changes)


@frozen
class GameEnd:
    """The resolution ends early, e.g. an endless loop ends in a draw.

    :param outcome: ``draw`` (or a game's own word).
    :param reason: one line for the user, citing the rule.
    """

    outcome: str
    reason: str


@frozen(kw_only=True)
class ActivationContext:
    """Where an activation is attempted, for ``tcgtrig_activation_blocked``.

    :param window: ``main`` (the pending set), ``interrupt`` (inside an
        interrupt window, before an action), ``inline`` (``activate:`` from
        another effect) or ``chain`` (a response in a chain window).
    :param series: effect keys already activated in the current series of
        interrupts (everything since the outermost interrupted action began).
    :param interrupting: the names of the events about to happen, inside an
        interrupt window.
    :param chain: effect keys on the chain, bottom first (chain games): a
        read-only sequence in which ``key in chain`` is O(1).
    :param nested: inside an interrupt window, whether the action about to
        happen is itself carried out by an interrupt or a replacement of
        the series (a replacement's "instead", an interrupt's own action):
        Yu-Gi-Oh!'s card destroyed by another card's redirect cannot
        redirect that destruction in its turn.
    """

    window: str = "main"
    series: frozenset[str] = frozenset()
    interrupting: tuple[str, ...] = ()
    chain: Sequence[str] = ()
    nested: bool = False


class ChainKeys(Sequence[str]):
    """The effect keys on a chain, bottom first, kept as links are added and
    resolved: O(1) to grow, shrink and test membership, so checking a
    10,000-link chain at each activation stays linear overall."""

    __slots__ = ("_keys", "_count", "pops")

    def __init__(self, keys: Sequence[str] = ()) -> None:
        self._keys: list[str] = []
        self._count: dict[str, int] = {}
        #: how many links were taken off: while it stays, the keys below a length seen before are the same
        self.pops = 0
        for key in keys:
            self.push(key)

    def push(self, key: str) -> None:
        self._keys.append(key)
        self._count[key] = self._count.get(key, 0) + 1

    def pop(self) -> str:
        self.pops += 1
        key = self._keys.pop()
        left = self._count[key] - 1
        if left:
            self._count[key] = left
        else:
            del self._count[key]
        return key

    def __contains__(self, key: object) -> bool:
        return key in self._count

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        return self._keys[index]

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __repr__(self) -> str:
        return f"ChainKeys({self._keys!r})"

    def __deepcopy__(self, memo: dict[int, Any]) -> ChainKeys:
        return ChainKeys(self._keys)
