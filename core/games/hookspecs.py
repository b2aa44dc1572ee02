# mypy: disable-error-code="empty-body"
# (a hook specification is a signature and a docstring: pluggy never calls its body)
"""The contract between the tcgtrig core and a game plugin.

A game is a module (or object) of ``@hookimpl`` functions registered under
the entry-point group ``tcgtrig.games``; the entry-point name is the game's
name.  The core owns every loop — events, trigger matching, the pending set,
interrupt windows, rules processing, choices, the trace — and asks the game
only for *policy* through the hooks below.  Hooks are grouped by the phase in
which the engine calls them.

Only :func:`tcgtrig_game_info` is required.  Every other hook has a core
default, stated in its docstring, used when no plugin returns a value.  A
plugin may implement any subset of a hook's arguments (pluggy passes only the
ones named); arguments never get defaults in an implementation.

Where each game's rules live
============================

**Digimon** (``tcgtrig.plugins.digimon``):

- priority layers, derived triggers above all older ones (CR 15-4-5-2/3),
  turn player first inside a layer (15-4-3-5), ``[Security]`` first
  (15-16-10-2): :func:`tcgtrig_pending_rank`;
- the wiki's priority number in traces: :func:`tcgtrig_pending_details`;
- which of those rules put an effect first, cited in its trace step:
  :func:`tcgtrig_order_rule`;
- pending effects lost when their card moves or the Digimon loses the
  effect (15-4-4-3/4), an inherited [On Deletion] waiting on the deleted
  top card (15-8-3-5), cards deleted together losing what they watched
  of each other (Q&A Q2046), gained effects following their pile (15-13-2):
  :func:`tcgtrig_check_pending`;
- a trigger condition re-checked while pending (15-4-4-5):
  ``GameInfo.recheck_trigger_condition``; a spent [X Per Turn] effect does
  not trigger (15-14-1-2): ``GameInfo.spent_abilities_trigger``; the rule
  cited after the core's reasons: ``GameInfo.citations``;
- one memory gauge shared by both players (1-4-2, 4-1-4):
  :func:`tcgtrig_linked_counters`, shown by
  :func:`tcgtrig_describe_counters`; memory on the opponent's side ends the
  turn after all processing (6-1-4-1): :func:`tcgtrig_turn_ends`;
- interrupts at most once per series (15-8-5-4):
  :func:`tcgtrig_activation_blocked`;
- a trigger condition met several times at once triggers once (15-5-2):
  ``GameInfo.trigger_multiplicity``;
- rules processing (0-DP deletion, eggs and stray options trashed, 17-1):
  :func:`tcgtrig_rules_processing`;
- digivolution cards go to the trash with their Digimon:
  :func:`tcgtrig_under_cards_zone`;
- an endless loop is a draw (18-3): :func:`tcgtrig_endless_loop`;
- ``delete``, ``play``, ``suspend``, ``digivolve``, the attack's timings
  (``full_attack``, ``block_timing``, ``end_attack``, …, CR 11, 12):
  :func:`tcgtrig_action_aliases`.

**Duel Masters** (``tcgtrig.plugins.duelmasters``):

- one waiting pool (待機状態) with the active player first and newly
  triggered active-player abilities ahead of the non-active player's (rules
  4–5, 511.1e); Shield Triggers and Strike Backs ahead of everything, the
  non-active player's Shield Triggers ahead of active-player ordinary
  abilities (rule 7): :func:`tcgtrig_pending_rank` (rank = class, player);
- the class and side in traces: :func:`tcgtrig_pending_details`; which
  rule put an ability first: :func:`tcgtrig_order_rule`;
- a waiting ability is independent of its source (110.5a): no
  :func:`tcgtrig_check_pending`;
- static abilities apply before triggers, then the state check destroys
  creatures with power 0 or less (rule 2): :func:`tcgtrig_rules_processing`;
- usage declarations (506.3b/c, 603.2e): :func:`tcgtrig_declared_use`;
- a leaving card looks back only at itself (603.5c):
  :func:`tcgtrig_look_back`; one trigger per event (603.2b):
  ``GameInfo.trigger_multiplicity``;
- substitution (置換効果): several apply at once after each player decided,
  the turn player first (609.9): :func:`tcgtrig_replacements_together`;
  never twice on one event, "do B, then A" interrupts included:
  :func:`tcgtrig_activation_blocked`;
- drawing n cards is drawing 1 card n times: ``GameInfo.draw_one_at_a_time``;
- ``destroy``, ``summon``, ``break_shield``, ``tap``, …:
  :func:`tcgtrig_action_aliases`.

**Yu-Gi-Oh!** (``tcgtrig.plugins.yugioh``):

- chain building and last-in-first-out resolution: ``GameInfo.resolution =
  "chain"``; triggers met while a chain is built or resolved wait for it;
- SEGOC groups (turn player's mandatory, opponent's mandatory, turn
  player's optional, opponent's optional): :func:`tcgtrig_pending_rank`,
  shown by :func:`tcgtrig_pending_details`, cited by
  :func:`tcgtrig_order_rule` (and the chain's last-in-first-out order by
  ``GameInfo.citations["chain"]``);
- variants (``GameInfo.variants``, :func:`tcgtrig_variant`): ``ocg`` offers
  optional hand and Deck triggers in the response window
  (:func:`tcgtrig_offered_in_window`), ``goat`` ranks the earliest trigger first
  within a SEGOC group;
- response windows and spell speeds (1 never responds, 2 responds to 1–2,
  3 to anything): the default :func:`tcgtrig_chain_responder` and
  :func:`tcgtrig_can_respond`;
- a Trigger Effect activates once each time its condition is met, once
  for one act however many cards it involves:
  ``GameInfo.trigger_multiplicity``;
- missing the timing (an optional "when" trigger whose event was not the
  last thing to happen): :func:`tcgtrig_check_pending` at the ``window``
  point returns ``Drop("missed")``;
- a Spell or Trap activated from the hand sits on the field while it is
  a chain link, and a resolved Normal Spell or Trap goes to the GY:
  :func:`tcgtrig_activation_zone`;
- once per turn (soft per card copy, hard per name):
  :func:`tcgtrig_once_per_turn_key`; once per chain, no second
  activation of a card already on the chain, and one replacement per
  destruction: :func:`tcgtrig_activation_blocked`;
- what a card puts off "after this Chain resolves" (Last Turn's Special
  Summon) happens once the whole Chain has resolved: the default
  :func:`tcgtrig_delayed_due`; an effect that does not start a Chain (Call
  of the Haunted's "when this card leaves the field, destroy that
  monster") is the core's ``consequence`` ability;
- ``destroy``, ``tribute``, ``special_summon``, …:
  :func:`tcgtrig_action_aliases`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import pluggy

if TYPE_CHECKING:
    from ..model.info import ActivationContext, BattleResult, Drop, GameEnd, GameInfo
    from ..model.pending import PendingEffect
    from ..model.state import GameState
    from ..model.values import Ability, Action, Card, Event
    from ..printed import Reading
    from ..runtime.evaluate import Evaluator

__all__ = ["PROJECT", "READS", "hookspec", "hookimpl", "reads"]

#: The pluggy project name; also the hook prefix and entry-point group root.
PROJECT = "tcgtrig"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

#: What an answer may be declared to read (:func:`reads`), besides what
#: the effect is.
READS: dict[str, str] = {
    "chain.own": "whether the effect's own key is on the chain (``effect.key in context.chain``)",
    "chain.top_speed": "the spell speed of the chain's top link (``chain[-1].ability.speed``)",
    "state.card": "the effect's own card in the game state (its zone, name, types, flags, …)",
    "card.id": (
        "which copy of a card the effect's card is (its id), beyond whether its key is on the chain"
        " (``chain.own``) and its per-turn key: copies are then not offered as one option"
    ),
    "state": "anything in the game state",
}

_Hook = TypeVar("_Hook", bound=Callable[..., Any])


def reads(*parts: str) -> Callable[[_Hook], _Hook]:
    """Declare what an implementation's answer depends on, so the core may
    keep it between chain windows.

    For :func:`tcgtrig_activation_blocked`, :func:`tcgtrig_can_respond`
    and :func:`tcgtrig_once_per_turn_key`.  An answer always may read what
    the effect is (its ability, controller, key, tags and incarnation);
    ``parts`` name what else it reads, from :data:`READS`:
    ``"chain.own"``, ``"chain.top_speed"``, ``"state.card"`` (the
    effect's own card), ``"card.id"`` (which copy its card is, beyond
    ``chain.own`` and the per-turn key) or ``"state"`` (anything in the
    game state).

    When every implementation of those three hooks declares its reads, a
    chain window asks again only about the abilities whose answer may have
    changed since the player's last window: those whose key joined the
    chain, whose card changed, or (after a per-turn use, a counter or a
    mark changed) whose own words read it.  Unless one declares
    ``"card.id"``, copies of a card (the same words on cards alike but for
    their ids) are asked about once and offered as one option standing for
    its copies.  A chain of N responses with copies then costs O(N log N),
    not O(N²).  An implementation that declares nothing may read anything
    (the whole chain, the window, the moment, which copy): every window
    then asks about every ability.

    Use it under ``@hookimpl``::

        @hookimpl
        @reads("chain.own", "state.card")
        def tcgtrig_activation_blocked(state, effect, context): ...
    """
    unknown = [part for part in parts if part not in READS]
    if unknown:
        raise ValueError(f"reads: unknown {unknown[0]!r} (legal: {', '.join(READS)})")

    def mark(function: _Hook) -> _Hook:
        function.tcgtrig_reads = frozenset(parts)  # type: ignore[attr-defined]
        return function

    return mark


# ---------------------------------------------------------------------------
# Setting up
# ---------------------------------------------------------------------------


@hookspec(historic=True)
def tcgtrig_addhooks(pluginmanager: pluggy.PluginManager) -> None:
    """Add game-specific hook specifications.

    Called once, as soon as a plugin implementing it is registered (historic
    hook).  Call ``pluginmanager.add_hookspecs(module)`` to add hooks named
    ``tcgtrig_<game>_*`` that other plugins (house rules, card packs) may
    implement.

    :param pluginmanager: the game's plugin manager.

    Use in game plugins: only games that want to be extended themselves.
    """


@hookspec(firstresult=True)
def tcgtrig_game_info() -> GameInfo:
    """Describe the game: name, title, version, resolution model.

    Stops at first non-None result.  **Required**: a ruleset without it is
    not a game.

    :return: a :class:`tcgtrig.GameInfo`.

    Use in game plugins: every game implements it exactly once.
    """


@hookspec(firstresult=True)
def tcgtrig_variant(variant: str) -> object | None:
    """Give the plugin that turns the game into one of its variants.

    Called once when a ruleset is loaded as ``GAME/VARIANT`` for a variant
    other than the default (``GameInfo.variants`` lists them).  The returned
    object's ``@hookimpl`` functions are registered after the game's own,
    so pluggy calls them first: for a ``firstresult`` hook, return a value
    where the variant differs and ``None`` to let the game's rule apply.

    Stops at first non-None result.  Default: none — a game that lists
    variants must implement it.

    :param variant: the variant's name, one of ``GameInfo.variants``.
    :return: a plugin object (a module, a class instance).

    Use in game plugins: Yu-Gi-Oh! (``ocg``: hand triggers outside SEGOC;
    ``goat``: the earliest trigger first).
    """


@hookspec
def tcgtrig_action_aliases() -> dict[str, Callable[[Any], Any]]:
    """Add the game's words for actions (``delete``, ``suspend``, ``summon``).

    Called once per scenario load.  Each alias maps a name to a function that
    receives the alias's argument as written in the scenario file and returns
    the core action(s) it stands for, *as scenario data* (a mapping such as
    ``{"move": {"card": arg, "to": "trash", "as": "deleted"}}``, or a list of
    them).  The core then reads that data like any action, so aliases cannot
    do anything a scenario could not say.  Raise ``ValueError`` with a
    message for a malformed argument; the core adds file, line and key.

    The results of all plugins are merged; a later plugin's alias wins.

    :return: ``{alias name: expand function}``.

    Use in game plugins: to let scenario files speak the game's words.
    """


@hookspec(firstresult=True)
def tcgtrig_read_text(text: str, types: Sequence[str]) -> Reading | None:
    """Read a card's printed text into abilities in the scenario language.

    Called when a scenario file gives a card's ``text:`` instead of its
    ``abilities:`` (or an ability by its ``id`` and ``text:`` alone), by
    ``tcgtrig read``, and by ``check --strict`` to compare a card's text with
    the abilities written for it.  The text is in the game's own printed
    templates ("[On Play]", "When you put this creature into the battle
    zone", "If this card is sent to the GY: You can…"); the abilities come
    out as the data a file would hold, in the game's words, and are
    compiled like any other.

    The core's :class:`tcgtrig.printed.TextReader` runs the loop every game
    shares (normalize, cut into parts, read each part); a game gives its
    templates as a lark grammar beside its plugin
    (:func:`tcgtrig.printed.grammar`) and builds the data from the tree.

    Stops at first non-None result.  Default: the game reads no printed
    text (a file that gives a card by its text is refused, naming the game).

    :param text: the printed text, as the card (or a card list) gives it.
    :param types: the card's types as a scenario file gives them
        (``trap``, ``quick_play``, ``creature``); empty when unknown.
    :return: a :class:`tcgtrig.printed.Reading`: each ability under the
        words it came from, and the words it could not read.

    Use in game plugins: every bundled game and both example games::

        READER = DigimonReader()

        @hookimpl
        def tcgtrig_read_text(text, types):
            return READER.read(text, types)
    """


# ---------------------------------------------------------------------------
# Triggering
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def tcgtrig_look_back(
    state: GameState, card: Card, ability: Ability, event: Event, self_card: str, arrived: bool
) -> bool | None:
    """Say whether a card that just moved sees an event of that moment.

    Called when a card moved at the same moment as ``event`` and one of its
    abilities matches the event only as the card was just before the move
    (it no longer works where the card is now: ``arrived`` is ``False``), or
    only as the card is now, in the zone it arrived in at that moment (it
    did not work where it was, so it was not watching from there when the
    event happened: ``arrived`` is ``True``).

    Stops at first non-None result.  Default: ``True`` — a moving card's
    abilities are checked both as it was just before the move and as it is
    after (the scenario contract), so two Digimon deleted together see each
    other's deletion.

    :param state: the game state (after the moment).
    :param card: the card as it was just before the move.
    :param ability: the ability that would trigger.
    :param event: the event of this moment it would trigger on.
    :param self_card: what ``self`` meant just before the move (``arrived``
        False) or means now (``arrived`` True).
    :param arrived: whether the ability works only where the card arrived.
    :return: ``False`` to ignore the event.

    Use in game plugins: Duel Masters (603.5c: a leaving card looks back
    only at events about itself; a card that arrived at that moment sees
    from there only events about itself: it was not there when the others
    happened, the Ghoul Generate ruling).
    """


@hookspec(firstresult=True)
def tcgtrig_trigger_each_event(state: GameState, ability: Ability, events: Sequence[Event]) -> bool | None:
    """Say whether an ability triggers once per matching event of one moment.

    Called when several events of one moment (one action, or a
    ``together``) match the same ability.  How many times is a rule every
    game states once for all its abilities,
    ``GameInfo.trigger_multiplicity``; this hook refines it for the
    abilities whose wording says otherwise.

    Stops at first non-None result.  Default: what the game states —
    ``per_event``: ``True`` (Magic CR 603.2c, Duel Masters 603.2b, Lorcana
    6.2.1); ``per_moment``, or nothing stated: ``False``, one trigger per
    trigger condition whatever number of events met it at once (Digimon
    15-5-2, Yu-Gi-Oh!; a draw of two cards is one event anyway).

    :param state: the game state.
    :param ability: the ability.
    :param events: the matching events, in order.
    :return: ``True`` for one trigger per event, ``False`` for one trigger,
        ``None`` for the game's rule.

    Use in game plugins: an ability whose wording counts otherwise than
    its game (none of the bundled games has one: a Yu-Gi-Oh! "each time"
    wording might, but no ruling was found).
    """


# ---------------------------------------------------------------------------
# Pending effects: ordering
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def tcgtrig_pending_rank(state: GameState, effect: PendingEffect) -> tuple:
    """Give a newly pending effect its place in the order.

    Called once for each effect as it becomes pending: triggered effects when
    the effect or action that triggered them has finished (and rules
    processing with it), interrupts and replacements when their window
    opens.  The effects that may activate next are those with the *lowest*
    rank; among them the deciding player (:func:`tcgtrig_who_orders`) picks
    one.  Ranks are compared as tuples and must stay comparable with every
    other rank the game returns (use numbers).

    ``effect.timing`` grows with every batch of triggers, so ``-timing``
    puts newer batches first (Digimon layers) and ``timing`` older first.
    ``effect.window`` is ``main`` or ``interrupt``; ``effect.ability.kind``
    tells a ``replacement`` from an ``interrupt``.

    Stops at first non-None result.  Default: ``(0 if the turn player
    controls it else 1, timing)`` — turn player first, oldest batch first.

    :param state: the game state.
    :param effect: the pending effect (its ``rank`` field is not yet set).
    :return: a tuple of numbers; lower goes first.

    Use in game plugins: every game with an opinion on ordering.
    """


@hookspec(firstresult=True)
def tcgtrig_pending_details(state: GameState, effect: PendingEffect) -> dict[str, Any]:
    """Add game-specific keys to an effect's trace steps.

    Called once per pending effect, right after its rank is set.  The keys
    are copied into its ``triggered``, ``activated``, ``resolved`` (and
    other outcome) steps, e.g. ``{"priority": 2}`` for Digimon or
    ``{"group": "TP mandatory"}`` for Yu-Gi-Oh!.

    Stops at first non-None result.  Default: no extra keys.

    :param state: the game state.
    :param effect: the pending effect, with ``rank`` set.
    :return: a mapping of words (lower-case letters, digits, ``_``; not a
        key the core writes, such as ``effect`` or ``reason``) to one-line
        text, whole numbers within ±10**9, finite decimals, booleans or
        ``None``.  The key the game names depth in ``GameInfo.terms``
        (Digimon: ``priority``) holds how deep the effect was derived, from
        0 or 1: at most ``effect.depth + 1``.

    Use in game plugins: to show the game's own bookkeeping in traces.
    """


@hookspec(firstresult=True)
def tcgtrig_who_orders(state: GameState, effects: Sequence[PendingEffect]) -> str:
    """Say which player picks the next effect among ``effects``.

    Called before each ordering decision with the lowest-rank bucket.

    Stops at first non-None result.  Default: the controller of the first
    effect (ranks normally separate players).

    :param state: the game state.
    :param effects: the candidates, in trigger order.
    :return: a player name.

    Use in game plugins: games where one player orders everyone's effects
    (KeyForge's active player).
    """


@hookspec(firstresult=True)
def tcgtrig_order_rule(state: GameState, first: PendingEffect, then: PendingEffect) -> str | None:
    """Say the rule that puts pending effect ``first`` ahead of ``then``.

    Called when the core takes ``first`` from the pending effects (or from
    an interrupt window's) to activate it while ``then`` — the effect that
    would go next — still waits; in a chain game, ``then`` may be an
    effect offered in the next response window
    (:func:`tcgtrig_offered_in_window`) when nothing else waits.  Never
    called when ``first`` waited alone.  Compare their ranks to tell which
    rule decided: where they are equal, a player chose, and the rule is
    the one that lets that player choose.  The answer is the ``rule`` of
    ``first``'s ``activated`` (or ``applied``) step (its ``ahead_of`` is
    ``then.id``), which the tree shows and ``compare`` quotes.

    Stops at first non-None result.  Default: where a player chose among
    equally ranked effects, ``chosen by PLAYER among equals``; for a game
    that ranks nothing itself (no :func:`tcgtrig_pending_rank`), the
    core's own order (the turn player's first, then the earlier trigger);
    otherwise nothing (the step has no ``rule``).

    :param state: the game state (``first`` has just left the pending
        effects).
    :param first: the effect taken, with ``rank`` set; ``first.window``
        says whether it is an interrupt window's.
    :param then: the effect that goes next unless something else comes
        first, with ``rank`` set.
    :return: one line citing the rule ("the turn player's effects first
        within a priority layer (CR 15-4-3-5)"), or ``None``.

    Use in game plugins: every game that ranks pending effects, so that a
    trace says why its order differs from another game's.
    """


@hookspec(firstresult=True)
def tcgtrig_check_pending(state: GameState, effect: PendingEffect, point: str, last_moment: int) -> Drop | None:
    """Say whether a pending effect leaves the pending set unattempted.

    Called at these ``point`` values:

    - ``admission``: as the effect becomes pending (after the action and
      rules processing that triggered it);
    - ``moved``: right after its card, or the card its ``self`` means (the
      top card of an inherited one), moved (changed zone or stack);
    - ``activation``: when it has been picked, before anything else;
    - ``window``: (chain games) when a new chain starts, for every pending
      effect.

    ``state.card(effect.card).incarnation != effect.incarnation`` tells that
    its card moved since it triggered.

    Stops at first non-None result.  Default: ``None`` (it stays).

    :param state: the game state.
    :param effect: the pending effect.
    :param point: one of the values above.
    :param last_moment: the moment of the last thing that happened, not
        counting what happened only ``by: rule`` (a spell the rules send to
        the graveyard after it resolved); ``effect.moment < last_moment``
        means something happened after the effect's trigger (Yu-Gi-Oh!'s
        missing the timing).  In chain games
        each chain link's resolution begins a moment of its own, so a link
        that resolves after the trigger counts even if it changes nothing.
    :return: a :class:`tcgtrig.Drop`, or ``None`` to keep it.

    Use in game plugins: Digimon (lost), Yu-Gi-Oh! (missed, lost); Duel
    Masters needs none (a waiting ability is independent of its source).
    """


@hookspec(firstresult=True)
def tcgtrig_declared_use(state: GameState, effect: PendingEffect) -> bool | None:
    """Say whether an optional effect's use is declared before it activates.

    Called for each optional triggered effect as it becomes pending.  Such
    an effect waits with its declaration due.  When the player who controls
    it is about to pick among their pending effects, they first declare,
    one by one in trigger order, which of their due effects they will use:
    so the turn player declares and processes theirs before the other
    player declares.  A declined effect ends ``declined``; a declared one
    keeps its place but is mandatory: it is not asked again when it
    activates.

    Stops at first non-None result.  Default: ``False`` — an optional
    effect is asked when it activates.

    :param state: the game state.
    :param effect: the pending effect, with ``rank`` set.
    :return: ``True`` if its use is declared now.

    Use in game plugins: Duel Masters usage declarations (506.3b/c, 603.2e:
    Shield Triggers, Ninja Strikes, Revolution Changes).
    """


@hookspec(firstresult=True)
def tcgtrig_replacements_together(state: GameState, effects: Sequence[PendingEffect]) -> bool | None:
    """Say whether replacements before one action apply all at once.

    Called when a window opens before an action and ``effects`` (its
    ``replacement`` effects) number more than one.  With ``True`` every
    replacement's controller decides first — in rank order, each one
    ``use``/``decline`` for optional ones, a replacement whose events are
    all taken by an earlier one fails — and then all of them apply: their
    ``prevent`` at once, and their other actions at the moment of the
    action they modify, together with what is left of it (one batch of
    events).

    Stops at first non-None result.  Default: ``False`` — each replacement
    is decided and applied before the next one is looked at.

    :param state: the game state.
    :param effects: the replacement effects of the window, lowest rank
        first.
    :return: ``True`` to decide all first and apply them together.

    Use in game plugins: Duel Masters (609.9/609.9a).
    """


# ---------------------------------------------------------------------------
# Activation
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def tcgtrig_activation_blocked(state: GameState, effect: PendingEffect, context: ActivationContext) -> str | None:
    """Forbid an activation the core would allow.

    Called when an effect is about to activate, after the core's own checks
    (the ability's ``condition`` and its once-per-turn).  A forbidden
    activation *fails*: it spends no once-per-turn.

    Stops at first non-None result.  Default: ``None`` (allowed).

    :param state: the game state.
    :param effect: the effect about to activate.
    :param context: where the activation happens
        (:class:`tcgtrig.ActivationContext`).
    :return: a reason (one line, citing the rule) or ``None``.

    Use in game plugins: Digimon's once-per-series rule for interrupts,
    Yu-Gi-Oh!'s once-per-chain and one replacement per destruction
    (``context.nested``), Duel Masters' "never twice on one event"; Magic's
    614.5 and Lorcana's 6.5.5 in the example games.  A game that limits no
    interrupt lets two that set each other off nest until the machine's
    frame limit ends the run as an endless loop.

    In a chain game it is asked about every ability of the responding
    player at every response window: say what the answer reads
    (:func:`reads`) so the core can keep it between windows.
    """


@hookspec(firstresult=True)
def tcgtrig_activation_zone(state: GameState, effect: PendingEffect, point: str) -> str | None:
    """Say where an activated ability's card is put as it is activated, or
    once its effect has resolved.

    Called for every ``activated`` ability at these points:
    ``"activation"``, after its ``activated`` step and before its cost;
    ``"resolved"``, once its actions are done (in a chain game, as its
    chain link resolves); and ``"negated"``, in a chain game, when a link
    whose activation was negated is reached as the chain resolves.  The card moves there ``by: rule``
    (the event ``moved``; what the rules do by themselves is not the last
    thing to happen).  Put there as it is activated, the effect stays the
    card's ("this card" is the card where it was put), and in a chain game
    the card sits there while it is a chain link.  Once resolved, only the
    card the effect was activated with moves: not one its actions already
    moved (a Spell that sends itself to the graveyard, or was destroyed
    while it waited).

    Stops at first non-None result.  Default: ``None`` (the card stays
    where it is).

    :param state: the game state.
    :param effect: the effect being activated, or resolved.
    :param point: ``"activation"``, ``"resolved"`` or ``"negated"``.
    :return: a zone name, or ``None``.

    Use in game plugins: Yu-Gi-Oh! places a Spell or Trap Card activated
    from the hand on the field (its Spell & Trap Zone), where it can be
    targeted while it is a Chain Link, and sends a Normal Spell or Trap to
    the GY once it has resolved, and any Spell or Trap whose activation was
    negated; a game whose spells are put on a stack as
    they are cast, and in the discard pile once resolved.
    """


@hookspec(firstresult=True)
def tcgtrig_once_per_turn_key(state: GameState, effect: PendingEffect) -> str | None:
    """Name what a once-per-turn ability spends.

    Called for abilities with ``once_per_turn`` when they are checked and
    when they activate.  Two abilities with the same key share one use.

    Stops at first non-None result.  Default: the effect key (per card,
    per ability); for a gained ability (``effect.granted``),
    ``KEY@CARD``: each card that gained it has its own uses.

    :param state: the game state.
    :param effect: the effect.
    :return: a string key.

    Use in game plugins: Yu-Gi-Oh!'s hard once per turn (per card name).

    In a chain game it is asked about every ability of the responding
    player at every response window: say what the answer reads
    (:func:`reads`) so the core can keep it between windows.
    """


# ---------------------------------------------------------------------------
# Between activations
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def tcgtrig_rules_processing(state: GameState, view: Evaluator, changed: Sequence[str]) -> Sequence[Action] | None:
    """Return what the game does by itself between activations.

    Called after every effect (and the start actions) has finished, before
    the effects it triggered become pending, and again after every batch it
    returns, until it returns nothing.  The actions are performed at the
    same time, ``by: rule``, and may be interrupted like any action; what
    they trigger is simultaneous with what the effect triggered.

    Stops at first non-None result.  Default: nothing.

    :param state: the game state; ``state.empty_draws`` names the players
        who had to draw from an empty deck since the previous call (the
        core empties it after each call).
    :param view: reads effective stats (``view.stat(card_id, "dp")``) and
        selectors; ``view.continuous`` lists the continuous abilities.
    :param changed: the cards whose state changed since the previous call
        (every card on the first call; the cards a returned batch acted on
        count as changed again).  A check that depends only on a card's own
        state may look at these alone — unless continuous abilities exist,
        which can change any card's stats: then look at every card.  This
        keeps rules processing from costing O(cards) per activation.
    :return: core actions (e.g. ``Move`` with ``by="rule"``; ``LoseGame``
        for a player who loses, which a replacement may replace), or
        ``None``/an empty list when there is nothing to do.

    Use in game plugins: Digimon rules processing, Duel Masters state
    checks and destroying static abilities, Magic's state-based actions
    (a player at 0 or less life, or who drew from an empty library, loses).
    """


@hookspec(firstresult=True)
def tcgtrig_under_cards_zone(state: GameState, card: Card, to: str) -> str | None:
    """Say where the cards stacked under a card go when it moves.

    Called when a card with cards under it moves to ``to`` (not when it is
    covered by another card).

    Stops at first non-None result.  Default: ``to`` (they go with it).

    :param state: the game state (before the move).
    :param card: the moving top card.
    :param to: where it goes.
    :return: a zone name.

    Use in game plugins: Digimon sends digivolution cards to the trash.
    """


@hookspec(firstresult=True)
def tcgtrig_linked_counters(state: GameState, player: str, counter: str, value: int) -> dict[str, int] | None:
    """Say which counters change when one player's counter is set.

    Called when ``gain``/``lose`` would set ``player``'s ``counter`` to
    ``value``, and for each counter a scenario gives at the start (where
    the values a file gives must agree with what this returns).

    Stops at first non-None result.  Default: ``None`` — only that counter,
    to ``value``.

    :param state: the game state, before the change.
    :param player: whose counter is set.
    :param counter: its name.
    :param value: the value it would take.
    :return: ``{player: value}`` for every player whose ``counter`` the
        change sets (include ``player`` itself: a cap changes its value).

    Use in game plugins: Digimon's memory gauge, one gauge shared by both
    players — gaining on one side is losing on the other, capped at 10
    (CR 1-4-2, 4-1-4).
    """


@hookspec(firstresult=True)
def tcgtrig_turn_ends(state: GameState) -> str | None:
    """Say whether the turn ends once all processing is done.

    Called when nothing is pending and the start actions are done, and
    again after the end-of-turn effects resolved (the turn ends only if it
    still says so).  When it gives a reason, the core ends the turn: the
    event ``end_of_turn`` (by rule), what it triggers, then ``pass_turn``.

    Stops at first non-None result.  Default: ``None`` (the turn goes on;
    the resolution ends).

    :param state: the game state.
    :return: why the turn ends (one line, citing the rule), or ``None``.

    Use in game plugins: Digimon — memory on the opponent's side ends the
    turn after all processing (CR 6-1-4-1, 6-6-4, Q&A Q1248).
    """


@hookspec(firstresult=True)
def tcgtrig_describe_counters(state: GameState) -> list[str] | None:
    """Say how the players' counters read, for the tree's summary line.

    Called once, after the resolution.

    Stops at first non-None result.  Default: ``None`` — each player's
    counters, ``A: memory 2 · B: memory 0``.

    :param state: the final game state.
    :return: the parts of the summary line.

    Use in game plugins: Digimon shows its memory gauge ("memory 2 on A's
    side").
    """


@hookspec(firstresult=True)
def tcgtrig_endless_loop(state: GameState, reason: str, stoppable: bool | None) -> GameEnd | None:
    """Decide how an endless loop ends.

    Called when the same position comes back (same cards, counters, pending
    effects and chooser state) or the step limit is reached.  What is still
    pending is then recorded as ``lost``.

    Stops at first non-None result.  Default: ``GameEnd("draw", reason)``
    when no player could stop the loop, ``GameEnd("loop", reason)`` when one
    could.

    :param state: the game state.
    :param reason: what the core detected.
    :param stoppable: ``True`` if a player was asked a decision during the
        repeating cycle (choosing differently could have broken it),
        ``False`` if every step was forced, ``None`` when the step limit was
        reached (not known).
    :return: a :class:`tcgtrig.GameEnd`.

    Use in game plugins: to cite the game's rule.
    """


# ---------------------------------------------------------------------------
# Chains (games whose GameInfo.resolution is "chain")
# ---------------------------------------------------------------------------


@hookspec(firstresult=True)
def tcgtrig_chain_responder(state: GameState, chain: Sequence[PendingEffect], passes: int) -> str | None:
    """Say who may respond next in a chain window.

    Called after every pending effect has gone on the chain, and after each
    response or pass; also in a window with no chain yet, after something
    that started none (``chain`` is then empty).  Two consecutive passes close the window and the chain
    resolves, last in first out.

    Stops at first non-None result.  Default: the opponent of the last
    link's controller, then alternating.

    :param state: the game state.
    :param chain: the links so far, bottom first.
    :param passes: consecutive passes so far in this window.
    :return: a player name, or ``None`` to close the window now.

    Use in game plugins: Yu-Gi-Oh! (priority after a chain link).
    """


@hookspec(firstresult=True)
def tcgtrig_delayed_due(state: GameState, chain: Sequence[PendingEffect]) -> bool | None:
    """Say whether the actions a ``delay`` put off happen now.

    Called as the game settles (its rules processing quiet, before what
    triggered becomes pending) while some ``delay`` waits.  When it says
    yes, every waiting ``delay``'s actions happen, in the order they were
    put off, each as part of the effect that put it off (a ``delayed``
    trace step first); what they trigger joins what triggered meanwhile.

    Stops at first non-None result.  Default: ``True`` once no chain link
    waits — in a chain game once the whole chain (stack) has resolved, in
    any other game as soon as the effect that put them off is over.

    :param state: the game state.
    :param chain: the links still waiting, bottom first (empty outside a
        chain game, and once the chain has resolved).
    :return: ``True`` (now), ``False`` (not yet), or ``None`` (the default).

    Use in game plugins: Yu-Gi-Oh! — Last Turn's Special Summon happens
    once the whole Chain has resolved (GOAT FAQ, Last Turn): the default.
    """


@hookspec(firstresult=True)
def tcgtrig_offered_in_window(state: GameState, effect: PendingEffect) -> bool | None:
    """Say whether a pending effect skips the chain's building order and is
    offered in the next response window instead.

    Called in chain games for each effect as it becomes pending.  Such an
    effect is offered, as its effect key, to its controller in the response
    window that follows (subject to :func:`tcgtrig_can_respond`), or in a
    window of its own when no chain was built; if it is not used there it
    ends ``declined``.

    Stops at first non-None result.  Default: ``False`` — it goes on the
    chain in rank order.

    :param state: the game state.
    :param effect: the pending effect, with ``rank`` set.
    :return: ``True`` to offer it in the response window.

    Use in game plugins: Yu-Gi-Oh! OCG (optional triggers in the hand or
    Deck are not part of SEGOC).
    """


@hookspec(firstresult=True)
def tcgtrig_can_respond(state: GameState, chain: Sequence[PendingEffect], effect: PendingEffect) -> bool | None:
    """Say whether an activated ability may respond to the chain.

    Called for every ``activated`` ability of the responding player that is
    active where its card is.

    Stops at first non-None result.  Default: ``effect.ability.speed >= 2``
    and not lower than the top link's speed.

    :param state: the game state.
    :param chain: the links so far, bottom first.
    :param effect: the candidate response.
    :return: ``True`` if it may respond.

    Use in game plugins: Yu-Gi-Oh! spell speeds and OCG/TCG variants.

    In a chain game it is asked about every ability of the responding
    player at every response window: say what the answer reads
    (:func:`reads`) so the core can keep it between windows.
    """


@hookspec(firstresult=True)
def tcgtrig_battle_result(
    state: GameState, card: str, against: str | None, stat: Callable[[str, str], int | None]
) -> BattleResult | None:
    """Say what a battle between two cards comes to.

    Called when a ``battle`` action is about to happen (before the
    interrupts and replacements it sets off), with the stats as they are
    then.

    Stops at first non-None result.  Default: the cards'
    ``GameInfo.battle_stat`` values are compared; the lower loses and is
    destroyed, both when they are equal; the higher wins; no damage.  With
    ``against`` ``None`` (a direct attack) nothing happens.

    A battle that marks damage rather than destroying says so in
    ``BattleResult.changes`` — ``(card, stat, amount[, event])``, applied
    at the battle's moment as ``change`` would, ``by: battle``, ``against``
    the other card — and the game's rules processing
    (:func:`tcgtrig_rules_processing`) then destroys what it must.

    :param state: the game state.
    :param card: the card that battles (the attacker).
    :param against: the card it battles, or ``None``.
    :param stat: ``stat(card id, name)``: a card's stat with lasting changes
        and continuous abilities applied (``None``: it has none).
    :return: a :class:`~tcgtrig.model.info.BattleResult`.

    Use in game plugins: Yu-Gi-Oh! (ATK against DEF in Defense Position,
    battle damage to LP), Digimon (a Security Digimon that loses is not
    deleted, CR 14-2-3); the example games mark damage (``changes``):
    Magic's combat (CR 510, then 704.5g), Lorcana's challenges (4.6.6,
    then 1.8.1.4).
    """
