"""A game's rules, bound: :class:`Ruleset`.

A :class:`Ruleset` wraps one game's plugin manager (:mod:`.manager` finds
the game and makes the manager): it binds the hooks once, fills in the core
defaults, checks what plugins return and names the plugin in every error.
"""

from __future__ import annotations

import keyword
import math
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

from ..base.errors import PluginError, TcgTrigError
from ..base.generated import compile_generated
from ..model.info import (
    CHAIN_TRIGGERS,
    RESOLUTION_MODELS,
    TRIGGER_MULTIPLICITIES,
    ActivationContext,
    BattleResult,
    Drop,
    GameEnd,
    GameInfo,
)
from ..model.pending import PendingEffect
from ..model.state import GameState
from ..model.values import ACTION_TYPES
from .guard import NOT_THE_PLUGINS

if TYPE_CHECKING:
    from ..printed import Reading

__all__ = ["Ruleset", "CORE_STEP_KEYS", "MAX_TEXT", "MAX_NUMBER"]

#: types a hook's answer is quickly accepted in (anything else is checked in full)
_INTS = frozenset({int})

#: What a hook caller lets through as it is: tcgtrig's own errors (they
#: already say whose), the user's Ctrl-C and running out of memory
_PASS = (TcgTrigError, *NOT_THE_PLUGINS)

#: The longest text a plugin may give for one line (a title, a reason, a detail).
MAX_TEXT = 1000
#: The largest number a plugin may put in a trace, either way (as a scenario's numbers).
MAX_NUMBER = 1_000_000_000
#: How a game, a variant or a term is spelled (as in a scenario's ``game``).
_WORD = re.compile(r"[a-z0-9_]+")
#: The keys the core writes in a trace step: a game's detail may not replace one (the trace
#: schema's step properties; a test checks they agree).
CORE_STEP_KEYS = frozenset(
    {
        "about",
        "actor",
        "ahead_of",
        "amount",
        "by",
        "card",
        "cards",
        "cause",
        "chain",
        "chain_link",
        "copies",
        "counter",
        "decision",
        "effect",
        "event",
        "flag",
        "from",
        "id",
        "interrupting",
        "kind",
        "label",
        "options",
        "outcome",
        "player",
        "reason",
        "rule",
        "stat",
        "to",
        "turn",
        "what",
        "negated_by",
        "against",
    }
)


#: per hook and the arguments its implementation takes, what makes its caller
#: (:func:`_caller_maker`): compiled once per process, not once per ruleset
_CALLER_MAKERS: dict[tuple[str, tuple[str, ...], tuple[str, ...]], Callable[..., Callable[..., Any]]] = {}


def _caller_maker(name: str, spec: tuple[str, ...], wanted: tuple[str, ...]) -> Callable[..., Callable[..., Any]]:
    """What makes a caller for hook ``name``, given the implementation, the
    errors let through, the failure maker and the hook's name: a function
    taking the spec's arguments and passing on the ones the implementation
    declares (no tuple packed, picked from or unpacked on each call)."""
    known = _CALLER_MAKERS.get((name, spec, wanted))
    if known is None:
        source = (
            "def make(function, passed, failure, name):\n"
            f"    def call_{name}({', '.join(spec)}):\n"
            "        try:\n"
            f"            return function({', '.join(wanted)})\n"
            "        except passed:\n"
            "            raise\n"
            "        except BaseException as exc:\n"
            "            raise failure(name, exc) from exc\n"
            f"    return call_{name}\n"
        )
        scope: dict[str, Any] = {}
        # registered with linecache: a traceback through the caller shows its lines
        exec(compile_generated(source, f"caller of {name}"), scope)  # noqa: S102 - the hook's own argument names
        known = _CALLER_MAKERS[name, spec, wanted] = scope["make"]
    return known


def _is_line(value: object, *, empty: bool = True) -> bool:
    """Whether ``value`` is text for one line of output: a string with no
    line break or control character, at most :data:`MAX_TEXT` long."""
    return isinstance(value, str) and value.isprintable() and len(value) <= MAX_TEXT and (empty or bool(value))


def _is_text(value: object, *, empty: bool = True) -> bool:
    """Whether ``value`` is text a plugin may build from the scenario's own
    words (a card's name, a counter, a zone, an effect key): any string, of
    any length and any characters, as the file may hold them; what is
    printed is escaped and shortened where it is printed."""
    return isinstance(value, str) and (empty or bool(value))


def _is_change(change: object, cards: tuple[str, str | None]) -> bool:
    """Whether a battle's stat change is ``(one of its cards, a stat, a
    whole number within the bound, an event name)``."""
    if not isinstance(change, tuple) or len(change) != 4:
        return False
    card, stat, amount, event = change
    return (
        card in cards
        and card is not None
        and _is_text(stat, empty=False)
        and type(amount) is int
        and -MAX_NUMBER <= amount <= MAX_NUMBER
        and _is_line(event, empty=False)
    )


def _info_problem(info: GameInfo) -> str | None:
    """What is wrong with a game's info, if anything: it is shown on every
    listing and tree, and its words are typed on the command line."""
    if not isinstance(info.name, str) or not _WORD.fullmatch(info.name):
        return f"name {info.name!r}: expected lower-case letters, digits and _"
    for field in ("title", "version", "summary", "rules"):
        if not _is_line(getattr(info, field), empty=field not in ("title", "version")):
            return f"{field} {getattr(info, field)!r}: expected one line of text"
    if info.resolution not in RESOLUTION_MODELS:
        return f"unknown resolution model {info.resolution!r} (legal: {', '.join(RESOLUTION_MODELS)})"
    if info.chain_triggers not in CHAIN_TRIGGERS:
        return f"unknown chain_triggers {info.chain_triggers!r} (legal: {', '.join(CHAIN_TRIGGERS)})"
    if info.trigger_multiplicity not in ("", *TRIGGER_MULTIPLICITIES):
        return (
            f"unknown trigger_multiplicity {info.trigger_multiplicity!r} (legal: {', '.join(TRIGGER_MULTIPLICITIES)})"
        )
    for field in (
        "draw_one_at_a_time",
        "spent_abilities_trigger",
        "recheck_trigger_condition",
        "condition_on_resolution",
        "trigger_condition_looks_back",
        "would_effects",
        "tokens_arrive",
        "rules_between_actions",
    ):
        if not isinstance(getattr(info, field), bool):
            return f"{field} {getattr(info, field)!r}: expected True or False"
    if not isinstance(info.revealed_on_activation, str) or not (
        info.revealed_on_activation == "" or _WORD.fullmatch(info.revealed_on_activation)
    ):
        return f"revealed_on_activation {info.revealed_on_activation!r}: expected a flag (a word) or ''"
    for field in ("terms", "citations", "variants"):
        for key, text in getattr(info, field):
            if not isinstance(key, str) or not _WORD.fullmatch(key) or not _is_line(text, empty=field == "citations"):
                return f"{field} {key!r}: {text!r}: expected a word (lower-case letters, digits, _) and a line"
    depth = info.term("depth")
    if not _WORD.fullmatch(depth) or depth in CORE_STEP_KEYS:
        return (
            f"terms 'depth': {depth!r}: expected a word (the detail key of an effect's depth) the trace does "
            "not use itself"
        )
    for field in (
        "events",
        "zones",
        "tokens_never_added_to",
        *(("rule_counters",) if info.rule_counters is not None else ()),
    ):
        for word in getattr(info, field):
            if not _is_line(word, empty=False):
                return f"{field}: {word!r}: expected a word"
    return None


def _detail_problem(key: object, value: object) -> bool:
    """Whether one of a game's trace details is unfit for the trace."""
    if not isinstance(key, str) or not _WORD.fullmatch(key) or key in CORE_STEP_KEYS:
        return True
    if value is None or isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not -MAX_NUMBER <= value <= MAX_NUMBER
    if isinstance(value, float):
        return not math.isfinite(value)
    return not _is_line(value)


def _check_info(name: str, info: GameInfo) -> None:
    problem = _info_problem(info)
    if problem is not None:
        raise PluginError(name, f"tcgtrig_game_info returned a GameInfo with {problem}", hook="tcgtrig_game_info")


class Ruleset:
    """One game's policy, as the engine sees it.

    Build it with :func:`load_ruleset`.  Every method calls one hook, applies
    the core default when no plugin answers, and turns a plugin's exception
    or bad return value into a :class:`PluginError` naming the plugin.

    Each hook is resolved once, when the ruleset is built: a hook no plugin
    implements costs nothing, and one with a single implementation is
    called directly.  Register every plugin before building the ruleset
    (:func:`load_ruleset` ``plugins=``); one registered on :attr:`pm`
    afterwards is not asked.
    """

    def __init__(self, pm: pluggy.PluginManager, name: str | None = None, variant: str | None = None) -> None:
        self.pm = pm
        hook = pm.hook
        info = self._call("tcgtrig_game_info", hook.tcgtrig_game_info)
        if info is None:
            raise PluginError(name or "?", "implements no tcgtrig_game_info: it is not a game")
        if not isinstance(info, GameInfo):
            raise PluginError(name or "?", f"tcgtrig_game_info returned {info!r}, not a GameInfo")
        _check_info(name or "?", info)
        self.info = info
        #: the detail key that holds the game's number for an effect's depth, if it names one
        depth = info.term("depth")
        self._depth_key = depth if depth != "depth" else None
        #: whether the game builds chains (read on every activation)
        self.chain = info.resolution == "chain"
        #: the zones a draw takes from and puts into: those of the roles ``deck`` and ``hand``
        roles = {role: zone for zone, role in reversed(info.zone_roles)}
        self.deck_zone, self.hand_zone = roles.get("deck", "deck"), roles.get("hand", "hand")
        #: the zones a token ceases to exist on leaving: those of the role ``field``
        self.field_zones = frozenset(zone for zone, role in info.zone_roles if role == "field")
        #: where a battle's loser goes, and its event: the zone of the role ``discard``, the event of ``destroyed``
        self.discard_zone = roles.get("discard", "discard")
        self.destroyed_event = next((name for name, role in info.event_roles if role == "destroyed"), "destroyed")
        #: a chain game whose new triggers go on top after each link (``GameInfo.chain_triggers``)
        self.triggers_on_top = self.chain and info.chain_triggers == "on_top"
        #: the game's name; ``name`` adds the variant unless it is the default
        self.game = info.name
        self.variant = variant or info.default_variant
        self.name = info.name if variant in (None, info.default_variant) else f"{info.name}/{variant}"
        self._bind_hooks()
        self.has_look_back = self._look_back is not None
        self.chain_order = self._chain_order(info)  # chain games: the rule of a link's resolved step
        self._note_every_effect_hooks()
        self.window_reads = self._window_reads()
        #: whether copies of a card answer alike in a chain window (the
        #: hooks declare their reads, and none reads the card's identity,
        #: ``"card.id"``): alike copies are asked about once and offered as
        #: one option (:mod:`tcgtrig.runtime.responders`)
        self.copies_alike = self.window_reads is not None and "card.id" not in self.window_reads
        #: trace details already found sound (a game gives a few answers, over and over)
        self._sound_details: set[tuple[tuple[str, Any], ...]] = set()
        self.aliases = self._collect_aliases()

    # -- plumbing -----------------------------------------------------------

    def _bind_hooks(self) -> None:
        """Resolve each hook once: no implementation (the core default, no
        call at all), one (called directly), or several (through pluggy)."""
        bind = self._bind
        self._look_back = bind("tcgtrig_look_back")
        self._each_event = bind("tcgtrig_trigger_each_event")
        self._rank = bind("tcgtrig_pending_rank")
        self._details = bind("tcgtrig_pending_details")
        self._who = bind("tcgtrig_who_orders")
        self._order_rule = bind("tcgtrig_order_rule")
        self._check = bind("tcgtrig_check_pending")
        self._blocked = bind("tcgtrig_activation_blocked")
        self._opt_key = bind("tcgtrig_once_per_turn_key")
        self._rules = bind("tcgtrig_rules_processing")
        self._under = bind("tcgtrig_under_cards_zone")
        self._battle = bind("tcgtrig_battle_result")
        self._loop = bind("tcgtrig_endless_loop")
        self._linked = bind("tcgtrig_linked_counters")
        self._turn_ends = bind("tcgtrig_turn_ends")
        self._describe_counters = bind("tcgtrig_describe_counters")
        self._responder, self._delayed_due = bind("tcgtrig_chain_responder"), bind("tcgtrig_delayed_due")
        self._can_respond = bind("tcgtrig_can_respond")
        self._offered = bind("tcgtrig_offered_in_window")
        self._declared = bind("tcgtrig_declared_use")
        self._together = bind("tcgtrig_replacements_together")
        self._read_text = bind("tcgtrig_read_text")

    def _note_every_effect_hooks(self) -> None:
        """Whether the game implements each hook the engine calls for every
        effect: where it leaves one to the core, the hot paths (admission,
        activation, ``gain``) skip the call, whose default they know."""
        self.checks_pending = self._check is not None
        self.ranks_pending = self._rank is not None or self._details is not None
        self.orders_pending = self._who is not None
        self.processes_rules = self._rules is not None
        #: whether rules processing also runs between the actions of a resolution (GameInfo)
        self.rules_between_actions = self.processes_rules and self.info.rules_between_actions
        self.links_counters = self._linked is not None
        #: whether a plugin may forbid activations (``tcgtrig_activation_blocked``)
        self.may_block = self._blocked is not None
        #: whether a plugin puts an activated ability's card somewhere as it activates (``tcgtrig_activation_zone``)
        self._activation_zone = self._bind("tcgtrig_activation_zone")
        self.places_activated = self._activation_zone is not None

    def _window_reads(self) -> frozenset[str] | None:
        """What the answers about a chain response read besides the state
        and the effect (:func:`~tcgtrig.games.hookspecs.reads`): ``None``
        when an implementation does not say, so that any may have changed.
        The core's own rule for responses reads the top link's speed."""
        found = {"chain.top_speed"}
        for name in ("tcgtrig_activation_blocked", "tcgtrig_can_respond", "tcgtrig_once_per_turn_key"):
            for impl in getattr(self.pm.hook, name).get_hookimpls():
                declared = getattr(impl.function, "tcgtrig_reads", None)
                if not isinstance(declared, frozenset):
                    return None
                found |= declared
        return frozenset(found)

    def _bind(self, name: str) -> Callable[..., Any] | None:
        """How to call the ``firstresult`` hook ``name``, with its arguments
        in the order of its spec: ``None`` when no plugin implements it (the
        core default applies, at no cost); else a function that calls the one
        plain implementation directly (pluggy would only add its dispatch),
        or pluggy's hook caller when there are several.  Whatever a plugin
        raises comes out of it as a :class:`PluginError` naming the plugin."""
        hook = getattr(self.pm.hook, name)
        impls = hook.get_hookimpls()
        if not impls:
            return None
        spec = tuple(hook.spec.argnames) if hook.spec is not None else tuple(impls[0].argnames)
        single = len(impls) == 1 and not impls[0].hookwrapper and not getattr(impls[0], "wrapper", False)
        function = impls[0].function
        wanted = tuple(impls[0].argnames)

        if not single:
            return self._via_pluggy(name, hook, spec)
        if not all(arg.isidentifier() and not keyword.iskeyword(arg) for arg in spec) or not set(wanted) <= set(spec):
            raise PluginError(
                self._culprit(name), f"{name} takes arguments the hook does not give: {wanted}", hook=name
            )
        known = _CALLER_MAKERS.get((name, spec, wanted))
        if known is not None:
            return known(function, _PASS, self._failure, name)
        return self._compiled_when_called(name, spec, wanted, function)

    def _compiled_when_called(
        self, name: str, spec: tuple[str, ...], wanted: tuple[str, ...], function: Callable[..., Any]
    ) -> Callable[..., Any]:
        """A stand-in for the caller of hook ``name`` that compiles it when
        first called, puts it in its own place on the ruleset and calls it:
        a command that lists the games, or resolves a small file, compiles
        only the callers it calls (issue 40 item 3: 26 compiles, 2 ms of
        ``tcgtrig games``).  The hot paths then call the caller itself."""

        mark = object()  # how the stand-in is found; it does not name itself (a cycle, garbage once replaced)

        def stand_in(*args: Any, **kwargs: Any) -> Any:
            call = _caller_maker(name, spec, wanted)(function, _PASS, self._failure, name)
            for attribute, value in list(vars(self).items()):
                if getattr(value, "stands_in", None) is mark:
                    setattr(self, attribute, call)
            return call(*args, **kwargs)

        stand_in.stands_in = mark  # type: ignore[attr-defined]
        return stand_in

    def _via_pluggy(self, name: str, hook: Callable[..., Any], spec: tuple[str, ...]) -> Callable[..., Any]:
        """A positional caller of ``hook`` through pluggy (several
        implementations answer), its arguments named by ``spec``."""

        def through_pluggy(*args: Any) -> Any:
            kwargs = dict(zip(spec, args, strict=True))
            self._last_call = (name, kwargs)  # to find who returned a bad value (_culprit)
            try:
                return hook(**kwargs)
            except _PASS:
                raise
            except BaseException as exc:  # noqa: BLE001 - SystemExit from a plugin is its failure too
                raise self._failure(name, exc) from exc

        return through_pluggy

    def _failure(self, name: str, exc: BaseException) -> PluginError:
        """What a plugin's exception in hook ``name`` becomes: an error naming the plugin."""
        return PluginError(self._culprit(name, exc), f"raised {type(exc).__name__}: {exc}", hook=name)

    def _call(self, name: str, caller: Callable[..., Any] | None, **kwargs: Any) -> Any:
        """Call a hook that is asked once (game info, aliases, variants)
        through pluggy, by keyword."""
        if caller is None:
            return None
        return self._via_pluggy(name, caller, tuple(kwargs))(*kwargs.values())

    def _culprit(self, hook: str, exc: BaseException | None = None) -> str:
        """The plugin to blame for a hook: the one whose code raised ``exc``,
        else the one implementing the hook (or all of them, if several)."""
        impls = getattr(self.pm.hook, hook).get_hookimpls()
        if exc is not None:
            codes = set()
            tb = exc.__traceback__
            while tb is not None:
                codes.add(tb.tb_frame.f_code)
                tb = tb.tb_next
            for impl in impls:
                if getattr(impl.function, "__code__", None) in codes:
                    return impl.plugin_name
        names = [impl.plugin_name for impl in impls]
        if len(names) == 1:
            return names[0]
        last = getattr(self, "_last_call", None)
        if exc is None and last is not None and last[0] == hook:  # ask each, in pluggy's order, who answers
            for impl in reversed(impls):
                try:
                    if impl.function(*[last[1][arg] for arg in impl.argnames]) is not None:
                        return impl.plugin_name
                except Exception:  # noqa: BLE001 - the one that raises is to blame as well
                    return impl.plugin_name
        return " or ".join(names) if names else (getattr(self, "name", None) or "?")

    def _bad(self, hook: str, value: object, wanted: str) -> PluginError:
        shown = repr(value)
        shown = shown if len(shown) <= 200 else shown[:200] + "…"
        return PluginError(self._culprit(hook), f"returned {shown}; expected {wanted}", hook=hook)

    def _verdict(self, hook: str, value: Any) -> bool | None:
        """A yes/no hook's answer: ``True``, ``False`` or ``None`` only."""
        if value is not None and not isinstance(value, bool):
            raise self._bad(hook, value, "True, False or None")
        return value

    def _collect_aliases(self) -> dict[str, Callable[[Any], Any]]:
        merged: dict[str, Callable[[Any], Any]] = {}
        results = self._call("tcgtrig_action_aliases", self.pm.hook.tcgtrig_action_aliases)
        for result in reversed(results or []):  # pluggy calls LIFO; later registration wins
            if not isinstance(result, dict) or not all(
                _is_line(word, empty=False) and callable(expand) for word, expand in result.items()
            ):
                raise self._bad("tcgtrig_action_aliases", result, "a dict of words to alias functions")
            merged.update(result)
        return merged

    # -- hooks ----------------------------------------------------------------

    @property
    def keys(self) -> tuple[str, ...]:
        """The names a scenario file may use for this ruleset in ``expect``
        and ``choices``: ``yugioh/ocg``; ``yugioh`` or ``yugioh/tcg`` for the
        default variant."""
        if self.variant is not None and self.name == self.game:
            return (self.name, f"{self.game}/{self.variant}")
        return (self.name,)

    def key_in(self, mapping: Any) -> str | None:
        """The first of :attr:`keys` that ``mapping`` has."""
        return next((key for key in self.keys if key in mapping), None)

    def linked_counters(self, state: GameState, player: str, counter: str, value: int) -> dict[str, int]:
        if self._linked is None:
            return {player: value}
        result = self._linked(state, player, counter, value)
        if result is None:
            return {player: value}
        if type(result) is dict and set(map(type, result.values())) <= _INTS and result.keys() <= set(state.players):
            return result  # the usual answer, checked at C speed
        if not isinstance(result, dict) or any(
            p not in state.players or isinstance(v, bool) or not isinstance(v, int) for p, v in result.items()
        ):
            raise self._bad("tcgtrig_linked_counters", result, f"a dict of {list(state.players)} to numbers")
        return result

    def turn_ends(self, state: GameState) -> str | None:
        if self._turn_ends is None:
            return None
        reason = self._turn_ends(state)
        if reason is not None and not _is_text(reason):
            raise self._bad("tcgtrig_turn_ends", reason, "a reason (text) or None")
        return reason

    def describe_counters(self, state: GameState) -> list[str] | None:
        parts = self._describe_counters(state) if self._describe_counters is not None else None
        if parts is not None and (not isinstance(parts, list) or not all(_is_text(p) for p in parts)):
            raise self._bad("tcgtrig_describe_counters", parts, "a list of texts")
        return parts

    def look_back(
        self, state: GameState, card: Any, ability: Any, event: Any, self_card: str, arrived: bool = False
    ) -> bool:
        if self._look_back is None:
            return True
        verdict = self._verdict("tcgtrig_look_back", self._look_back(state, card, ability, event, self_card, arrived))
        return True if verdict is None else verdict

    def trigger_each_event(self, state: GameState, ability: Any, events: Sequence[Any]) -> bool:
        """Whether ``ability`` triggers once per event of ``events`` (one
        moment): the hook's answer for this ability, else what the game
        states (``GameInfo.trigger_multiplicity``)."""
        if self._each_event is None:
            return self.info.each_event
        verdict = self._verdict("tcgtrig_trigger_each_event", self._each_event(state, ability, events))
        return self.info.each_event if verdict is None else bool(verdict)

    def rank(self, state: GameState, effect: PendingEffect) -> tuple:
        rank = self._rank(state, effect) if self._rank is not None else None
        if rank is None:
            return (state.seat(effect.controller), effect.timing)
        if type(rank) is tuple and set(map(type, rank)) <= _INTS:
            return rank  # the usual answer, checked at C speed
        if not isinstance(rank, tuple) or not all(
            isinstance(part, (int, float)) and not isinstance(part, bool) and part == part for part in rank
        ):
            raise self._bad("tcgtrig_pending_rank", rank, "a tuple of numbers (ranks are compared)")
        return rank

    def details(self, state: GameState, effect: PendingEffect) -> tuple[tuple[str, Any], ...]:
        details = self._details(state, effect) if self._details is not None else None
        if not details:
            return ()
        if type(details) is not dict:
            raise self._bad_details(details)
        rest = details
        key = self._depth_key
        if key is not None and key in details:  # the game's depth: checked for this effect
            depth = details[key]
            if depth is not None and (type(depth) is not int or not 0 <= depth <= effect.depth + 1):
                raise self._bad(
                    "tcgtrig_pending_details",
                    details,
                    f"{key!r} (the game's word for depth) to be how deep the effect was derived: a "
                    f"whole number from 0 to {effect.depth + 1}",
                )
            rest = details.copy()
            del rest[key]
        shape = tuple(rest.items())
        try:
            known = shape in self._sound_details  # the usual answer: seen before, found at C speed
        except TypeError:  # a value that is no plain value
            known = False
        if not known:
            if any(_detail_problem(name, value) for name, value in shape):
                raise self._bad_details(details)
            # games repeat a few answers; others are checked each time (and any with a float: 1e10 == 10**10,
            # but only the float is sound)
            if len(self._sound_details) < 4096 and not any(type(value) is float for _, value in shape):
                self._sound_details.add(shape)
        return tuple(details.items())

    def _bad_details(self, details: object) -> PluginError:
        return self._bad(
            "tcgtrig_pending_details",
            details,
            "a dict of words to plain values (they go in the "
            "JSON trace, after the core's keys): one-line text, whole numbers within "
            f"±{MAX_NUMBER:,}, finite decimals, true/false or null",
        )

    def who_orders(self, state: GameState, bucket: dict[int, PendingEffect]) -> str:
        first = next(iter(bucket.values()))
        if self._who is None:
            return first.controller  # O(1): no list built for wide buckets
        effects = tuple(bucket.values())
        player = self._who(state, effects)
        if player is None:
            return first.controller
        if player not in state.players:
            raise self._bad("tcgtrig_who_orders", player, f"one of {list(state.players)}")
        return player

    def order_rule(
        self, state: GameState, first: PendingEffect, then: PendingEffect, chooser: str | None
    ) -> str | None:
        """Why ``first`` goes ahead of ``then``, which still waits (see
        ``tcgtrig_order_rule``): the game's rule, else the core's words —
        ``chooser`` chose among equals (``None``: no one chose), or the
        core's own order placed it."""
        if self._order_rule is not None:
            rule = self._order_rule(state, first, then)
            if rule is not None:
                if not isinstance(rule, str) or not rule:  # _is_text(rule, empty=False), without the call
                    raise self._bad("tcgtrig_order_rule", rule, "the rule, cited (text), or None")
                return rule
        if chooser is not None:
            return f"chosen by {chooser} among equals"
        if self._rank is None and first.rank != then.rank:  # the core's own order: (seat, timing)
            if first.rank[:1] != then.rank[:1]:
                return "the turn player's first, then the others in turn order (the core's default order)"
            return "the earlier trigger first (the core's default order)"
        return None

    @staticmethod
    def _chain_order(info: GameInfo) -> str:
        """The rule a chain link resolves by: last in, first out, in the
        game's words, with its citation (``GameInfo.citations["chain"]``)."""
        rule = f"the {info.term('chain')} resolves last in, first out"
        citation = info.citation("chain")
        return f"{rule} ({citation})" if citation else rule

    def check_pending(self, state: GameState, effect: PendingEffect, point: str, last_moment: int = 0) -> Drop | None:
        if self._check is None:
            return None
        drop = self._check(state, effect, point, last_moment)
        if drop is not None and not (
            isinstance(drop, Drop) and drop.kind in ("lost", "missed", "void") and _is_text(drop.reason)
        ):
            raise self._bad("tcgtrig_check_pending", drop, "None or a Drop('lost'|'missed'|'void', reason: text)")
        return drop

    def blocked(self, state: GameState, effect: PendingEffect, context: ActivationContext) -> str | None:
        if self._blocked is None:
            return None
        reason = self._blocked(state, effect, context)
        if reason is not None and not _is_text(reason):
            raise self._bad("tcgtrig_activation_blocked", reason, "a reason (text) or None")
        return reason

    def once_per_turn_key(self, state: GameState, effect: PendingEffect) -> str:
        key = self._opt_key(state, effect) if self._opt_key is not None else None
        if key is not None:
            if not _is_text(key, empty=False):
                raise self._bad("tcgtrig_once_per_turn_key", key, "a key (text) or None")
            return key
        # a gained ability is counted for each card that gained it (one per copy)
        return f"{effect.key}@{effect.card}" if effect.granted else effect.key

    def offered_in_window(self, state: GameState, effect: PendingEffect) -> bool:
        if self._offered is None:
            return False
        return bool(self._verdict("tcgtrig_offered_in_window", self._offered(state, effect)))

    def declared_use(self, state: GameState, effect: PendingEffect) -> bool:
        if self._declared is None:
            return False
        return bool(self._verdict("tcgtrig_declared_use", self._declared(state, effect)))

    def replacements_together(self, state: GameState, effects: Sequence[PendingEffect]) -> bool:
        verdict = self._together(state, tuple(effects)) if self._together is not None else None
        return bool(self._verdict("tcgtrig_replacements_together", verdict))

    def rules_processing(self, state: GameState, view: Any, changed: Sequence[str]) -> Sequence[Any]:
        if self._rules is None:
            return ()
        actions = self._rules(state, view, changed)
        state.forget_empty_draws()  # read by the rules just processed (GameState.empty_draws)
        if not actions and isinstance(actions, (list, tuple)):
            return ()
        if actions is not None and (
            not isinstance(actions, (list, tuple)) or not all(isinstance(action, ACTION_TYPES) for action in actions)
        ):
            raise self._bad("tcgtrig_rules_processing", actions, "a list of core actions (Move, Flag, …)")
        return tuple(actions or ())

    def activation_zone(self, state: GameState, effect: PendingEffect, point: str) -> str | None:
        """Where an activated ability's card is put as it is activated, or
        once it has resolved (``tcgtrig_activation_zone``); ``None``: it stays."""
        if self._activation_zone is None:
            return None
        zone = self._activation_zone(state, effect, point)
        if zone is not None and not _is_text(zone, empty=False):
            raise self._bad("tcgtrig_activation_zone", zone, "a zone name or None")
        return zone

    def under_cards_zone(self, state: GameState, card: Any, to: str) -> str:
        zone = self._under(state, card, to) if self._under is not None else None
        if zone is not None and not _is_text(zone, empty=False):
            raise self._bad("tcgtrig_under_cards_zone", zone, "a zone name or None")
        return to if zone is None else zone

    def battle(
        self, state: GameState, card: str, against: str | None, stat: Callable[[str, str], int | None]
    ) -> BattleResult:
        """What a battle between ``card`` and ``against`` comes to (see
        ``tcgtrig_battle_result``)."""
        result = self._battle(state, card, against, stat) if self._battle is not None else None
        if result is None:
            if against is None or not self.info.battle_stat:
                return BattleResult()
            mine, theirs = stat(card, self.info.battle_stat) or 0, stat(against, self.info.battle_stat) or 0
            if mine == theirs:
                return BattleResult(destroyed=(card, against))
            winner, loser = (card, against) if mine > theirs else (against, card)
            return BattleResult(destroyed=(loser,), winner=winner)
        if (
            not isinstance(result, BattleResult)
            or not all(c in (card, against) for c in result.destroyed)
            or (result.damage and not _is_text(result.counter, empty=False))
            or not all(_is_change(change, (card, against)) for change in result.changes)
        ):
            raise self._bad(
                "tcgtrig_battle_result",
                result,
                "a BattleResult naming only the two cards (and a counter for any damage; changes as "
                "(card, stat, whole number[, event]))",
            )
        return result

    def endless_loop(self, state: GameState, reason: str, stoppable: bool | None = None) -> GameEnd:
        end = self._loop(state, reason, stoppable) if self._loop is not None else None
        if end is None:
            if stoppable:
                return GameEnd("loop", f"{reason}; a player could stop it by choosing differently")
            return GameEnd("draw", reason)
        if not isinstance(end, GameEnd) or not _is_text(end.outcome, empty=False) or not _is_text(end.reason):
            raise self._bad("tcgtrig_endless_loop", end, "a GameEnd(outcome: a word, reason: text)")
        return end

    def chain_responder(self, state: GameState, chain: Sequence[PendingEffect], passes: int) -> str | None:
        player = self._responder(state, chain, passes) if self._responder is not None else None
        if player is None and self._responder is None:
            # the opponent of the last link's player first; with no chain yet, the turn player
            first = state.opponent(chain[-1].controller) if chain else state.turn_player
            return first if passes % 2 == 0 else state.opponent(first)
        if player is not None and player not in state.players:
            raise self._bad("tcgtrig_chain_responder", player, f"one of {list(state.players)} or None")
        return player

    def delayed_due(self, state: GameState, chain: Sequence[PendingEffect]) -> bool:
        """Whether the actions a ``delay`` put off happen now (default: once
        no chain link waits)."""
        verdict = self._delayed_due(state, chain) if self._delayed_due is not None else None
        if self._verdict("tcgtrig_delayed_due", verdict) is None:
            return not chain
        return bool(verdict)

    @property
    def reads_text(self) -> bool:
        """Whether the game reads printed card text (``tcgtrig_read_text``)."""
        return self._read_text is not None

    def read_text(self, text: str, types: Sequence[str] = ()) -> Reading | None:
        """What the game reads in a card's printed text; ``None`` when it
        reads no printed text."""
        from ..printed import Reading

        if self._read_text is None:
            return None
        reading = self._read_text(text, tuple(types))
        if reading is not None and not isinstance(reading, Reading):
            raise self._bad("tcgtrig_read_text", reading, "a tcgtrig.printed.Reading or None")
        return reading

    @property
    def responds_by_speed(self) -> bool:
        """Whether :meth:`can_respond` is the core's rule alone (no plugin
        answers ``tcgtrig_can_respond``): an ability responds when its speed
        is 2 or more and not lower than the top link's."""
        return self._can_respond is None

    def can_respond(self, state: GameState, chain: Sequence[PendingEffect], effect: PendingEffect) -> bool:
        verdict = self._can_respond(state, chain, effect) if self._can_respond is not None else None
        if self._verdict("tcgtrig_can_respond", verdict) is None:
            top = chain[-1].ability.speed if chain else 1
            return effect.ability.speed >= max(2, top)
        return bool(verdict)
