"""Drawing a trace as a readable tree.

The tree is built from plain nodes (label segments with a style each) and
drawn line by line without recursion, so a 100,000-deep cascade prints in
seconds: styled through rich on a terminal, plain text elsewhere.

Effects are nested under the effect during which they triggered, the way
the seed pages draw priority layers: an effect's children are what happened
while it resolved — its events, interrupts, rules processing — and then the
effects it triggered, in the order they were taken.  Nesting never reorders
time: read top to bottom, the tree is the trace's order (an effect taken up
only after others is drawn further out and says what it triggered during;
a chain game's next chain starts at the top).  Every effect shows its card,
its controller, the game's bookkeeping (Digimon: priority) and what became
of it.  Every name is shown escaped and shortened (:mod:`tcgtrig.base.safe_text`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from attrs import field

from ..base import budget
from ..base.safe_text import SHORTENED_NOTE, Shown
from ..model.trace import Step
from ..resolution import Resolution

if TYPE_CHECKING:
    from attrs import define  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import define  # attrs.define, the methods compiled ahead of time

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "Node",
    "build_tree",
    "tree_lines",
    "render_text",
    "print_tree",
    "write_tree",
    "describe_event",
    "step_line",
    "end_state_lines",
]

_OUTCOME_STYLE = {
    "resolved": ("✓", "green"),
    "applied": ("✓", "green"),
    "failed": ("✗", "red"),
    "declined": ("–", "yellow"),
    "lost": ("✗", "magenta"),
    "missed": ("✗", "magenta"),
}
#: Nesting levels drawn before deeper layers are drawn flat.
MAX_DEPTH = 24
#: Other waiting effects named beside an ordering choice (the rest are counted).
MAX_WAITING_SHOWN = 6
#: Steps the tree draws at most: a runaway resolution prints a bounded tree.
MAX_TREE_STEPS = 20_000
#: Steps drawn, and lines written, between two readings of the memory in use.
MEMORY_EVERY = 1_000
#: Effects the "Resolution order" line names at most (the first and the last).
MAX_ORDER_SHOWN = 40
#: Step keys the tree writes in its own way; the rest are the game's details.
SKIP_KEYS = {
    "kind",
    "effect",
    "player",
    "id",
    "cause",
    "event",
    "interrupting",
    "about",
    "reason",
    "chain",
    "chain_link",
    "rule",
    "ahead_of",
}


#: Makes the plain functions' values safe to print (its note on shortening is not read).
_SHOWN = Shown()


def describe_event(step: Step, names: Mapping[str, str], shown: Shown = _SHOWN) -> str:
    """One line for an ``event`` step: ``deleted Tapirmon (A) battle → trash``."""
    parts = [shown(step["event"])]
    card = step.get("card")
    if card:
        parts.append(f"{shown(names.get(card, card))} ({shown(step.get('player'))})")
    elif step.get("player"):
        parts.append(shown(step.get("player")))
    if step.get("from") or step.get("to"):
        parts.append(f"{shown(step.get('from', '?'))} → {shown(step.get('to', '?'))}")
    if step.get("counter"):
        parts.append(f"{shown(step.get('counter'))} {step.get('amount')}")
    elif step.get("stat"):
        amount = step.get("amount") or 0
        parts.append(f"{shown(step.get('stat'))} {amount:+d}")
    elif step.get("cards"):
        parts.append(", ".join(shown(names.get(c, c)) for c in step.get("cards")))
    elif step.get("amount") is not None:
        parts.append(f"×{step.get('amount')}" + (" (unnamed cards)" if step["event"] == "drawn" else ""))
    if step.get("flag") and step["event"] in ("flag_set", "flag_cleared"):  # a game's own name says it
        parts.append(f"[{shown(step.get('flag'))}]")
    if step.get("by") and step.get("by") != "effect":
        parts.append(f"by {shown(step.get('by'))}")
    return " ".join(parts)


def turn_text(step: Step, names: Mapping[str, str], shown: Shown = _SHOWN) -> str:
    """The turn passed: whose turn it is now, and what ended with the last one."""
    text = f"turn {step.get('turn')}: {shown(step.get('player'))}'s turn begins"
    cards = step.get("cards") or ()
    if cards:
        text += " — lasting changes ended on " + ", ".join(shown(names.get(c, c)) for c in cards)
    return text


def step_line(step: Step, names: Mapping[str, str], shown: Shown = _SHOWN) -> str:
    """One plain line for any step, e.g. for a live log while playing."""
    if step.kind == "event":
        return describe_event(step, names, shown)
    if step.kind == "choice":
        return f"{shown(step.get('player'))} chose {shown(step.get('label'))}"
    if step.kind == "rules":
        return "rules processing: " + ", ".join(shown(names.get(c, c)) for c in step.get("cards", ()))
    if step.kind == "ended":
        return f"ended: {shown(step.get('outcome'))} — {shown.sentence(step.get('reason'))}"
    if step.kind == "turn":
        return turn_text(step, names, shown)
    if step.kind == "start":
        return f"start: {shown(step.get('player'))} performs the start actions"
    if step.kind == "turn_end":
        return f"the turn ends: {shown.sentence(step.get('reason'))}"
    if step.kind == "turn_continues":
        return f"the turn goes on: {shown(step.get('player'))}'s turn does not end after all"
    extras = [f"{shown(k)} {shown(v)}" for k, v in step.data if k not in SKIP_KEYS]
    line = f"{step.kind} {shown(step.get('effect', ''))} ({shown(step.get('player'))})"
    if step.get("reason"):
        line += f": {shown.sentence(step.get('reason'))}"
    line += f" [{', '.join(extras)}]" if extras else ""
    return line + (f" — {shown.sentence(step.get('rule'))}" if step.get("rule") else "")


Segment = tuple[str, "str | None"]


@define(eq=False)
class Node:
    """One line of the tree: styled segments, and the lines under it."""

    label: list[Segment]
    children: list[Node] = field(factory=list)

    def plain(self) -> str:
        return "".join(text for text, _ in self.label)


class _Builder:
    """Reads the trace once, in order, and adds one line per step (or adds
    the step to the line just drawn: a group of triggered effects, an
    effect's outcome).

    Lines are nested by cause, but only where that keeps the time order:
    a line can go only under a line that is still *open* — the last line
    drawn or one of the lines above it.  Adding a line under an open line
    closes the lines below it for good.  A step whose cause's line is
    closed (its effect triggered something that is activated only after
    other effects were) goes under the nearest open line above that one,
    and says what it came from.  So the tree, read top to bottom, is the
    trace's order.
    """

    def __init__(self, result: Resolution, names: Mapping[str, str], places: list[Node] | None) -> None:
        self.names = names
        self.shown = Shown()
        info = result.engine.ruleset.info
        self.depth_word = info.term("depth")
        #: the game's words for its chain and the short form before a link's number (``CL2``, ``#2``)
        self.chain_word, self.link_word = info.term("chain"), info.term("chain_link_short")
        ruleset = result.engine.ruleset
        variant = f", variant {ruleset.variant}" if ruleset.name != ruleset.game else ""
        self.root = Node([(self.shown.sentence(result.title), "bold"), (f"  ({info.title}{variant})", "dim")])
        #: the open lines: the root, its last line, that line's last line, … down to the last line drawn
        self.path: list[Node] = [self.root]
        self.depth: dict[int, int] = {id(self.root): 0}
        self.up: dict[int, Node] = {}  # each line's parent
        self.anchor: dict[int, Node] = {}  # where a line's children go (beside it, past MAX_DEPTH)
        self.flat_note = False
        #: the line that shows each step, in trace order (when asked for: tests read it)
        self.places = places
        self.line: Node = self.root
        self.nodes: dict[Any, Node] = {}  # by effect instance id: the line its effect's steps go under
        self.about: dict[int, str] = {}  # an effect's line → how to name it elsewhere ("2. joe_kido.memory")
        self.link_lines: set[int] = set()  # the lines of chain links as they resolve
        self.group: tuple[Any, Node, list[Segment], list[tuple[str, int, str]], list[Segment]] | None = None
        self.rules: tuple[Any, Node] | None = None
        self.number = 0
        #: the ``KEY#n`` label the last ordering decision chose, and the instance it names
        self.chosen: str | None = None
        self.chosen_id: Any = None
        self.done: list[Node] = []  # the nodes of resolved effects
        self.last: tuple[str, Node] | None = None  # the effect activated (or resolving) last, and its node
        #: effects waiting in the pending set, by instance id, as "key (player, details)", and their causes
        self.waiting: dict[Any, str] = {}
        self.causes: dict[Any, Any] = {}
        #: chain games: each chain's links as they are built, and the chains already summed up
        self.links: dict[Any, list[str]] = {}
        self.summed: set[Any] = set()

    # -- where a line goes ---------------------------------------------------------

    def parent(self, cause: Any) -> Node:
        return self.nodes.get(cause, self.root)

    def is_open(self, node: Node) -> bool:
        depth = self.depth[id(node)]
        return depth < len(self.path) and self.path[depth] is node

    def open_above(self, node: Node) -> Node:
        """``node`` if it is open, else the nearest open line above it."""
        while not self.is_open(node):
            node = self.up[id(node)]
        return node

    def child(self, wanted: Node, label: list[Segment], came: str | None = "during") -> Node:
        """Draw a line under ``wanted``, or, if that line is closed, under
        the nearest open line above it, saying what it ``came`` from
        (``triggered during 1. gabumon.trash``; a decision says nothing:
        ``came`` None).  Below :data:`MAX_DEPTH` levels, deeper layers are
        drawn at that depth (a 100,000-deep cascade stays readable)."""
        target = self.anchor.get(id(wanted), wanted)
        parent = self.open_above(target)
        if parent is not target and came is not None and id(target) in self.about:
            label = [*label, (f"  ({came} {self.about[id(target)]})", "dim")]
        node = Node(label)
        parent.children.append(node)
        depth = self.depth[id(parent)] + 1
        del self.path[depth:]
        self.path.append(node)
        self.depth[id(node)] = depth
        self.up[id(node)] = parent
        if depth >= MAX_DEPTH:
            self.anchor[id(node)] = parent
            self.flat_note = True
        self.line = node
        return node

    # -- labels --------------------------------------------------------------------

    def card(self, card: Any) -> str:
        return self.shown(self.names.get(card, card))

    def extras(self, step: Step) -> list[str]:
        shown = self.shown
        extras = [f"{shown(k)} {shown.sentence(v)}" for k, v in step.data if k not in SKIP_KEYS]
        if self.depth_word != "depth":
            extras = [e.replace("priority", self.depth_word, 1) if e.startswith("priority") else e for e in extras]
        return extras

    def effect_label(self, step: Step, shown: str | None = None) -> list[Segment]:
        """The effect's key (or ``shown``: the label it was chosen by), its
        card's name, its player and the game's details."""
        key = step.get("effect", "?")
        card = key.rsplit(".", 1)[0]
        label: list[Segment] = [
            (shown or self.shown(key), "bold"),
            (f"  {self.card(card)} · {self.shown(step.get('player'))}", None),
        ]
        extras = self.extras(step)
        if extras:
            label.append((f"  {', '.join(extras)}", "dim"))
        return label

    def link(self, chain: Any, number: Any) -> str:
        """A chain link's place, in the game's words: ``Chain 2 · CL1``, ``stack 1 · #2``."""
        return f"{self.chain_word} {chain} · {self.link_word}{number}"

    def rule(self, step: Step) -> Segment:
        """The rule that placed an effect (its step's ``rule``), dim, after it."""
        return (f"  — {self.shown.sentence(step.get('rule'))}", "dim")

    # -- steps ---------------------------------------------------------------------

    def add(self, step: Step) -> None:
        kind = step.kind
        if kind != "triggered":
            self.group = None
        if kind != "event":
            self.rules = None
        handler = getattr(self, f"on_{kind}", None)
        if handler is not None:
            handler(step)
        elif kind in ("failed", "declined", "lost", "missed"):
            self.ended_effect(step)
        if self.places is not None:
            self.places.append(self.line)

    def on_start(self, step: Step) -> None:
        self.nodes[0] = self.child(
            self.root, [("start", "bold"), (f" · {self.shown(step.get('player'))} performs the start actions", None)]
        )

    def on_event(self, step: Step) -> None:
        in_rules = self.rules is not None and self.rules[0] == step.get("cause")
        if in_rules and step.get("by") != "rule":
            # the rest of an effect the rules acted in the middle of (GameInfo.rules_between_actions)
            in_rules, self.rules = False, None
        parent = self.rules[1] if in_rules else self.parent(step.get("cause"))  # type: ignore[index]
        self.child(parent, [(describe_event(step, self.names, self.shown), "cyan")])

    def on_triggered(self, step: Step) -> None:
        if not step.get("interrupting"):
            extras = self.extras(step)
            self.waiting[step.get("id")] = (
                f"{self.shown(step.get('effect'))} ({self.shown(step.get('player'))}"
                f"{', ' + ', '.join(extras) if extras else ''})"
            )
            self.causes[step.get("id")] = step.get("cause")
        self.triggered(step)

    def on_choice(self, step: Step) -> None:
        decision = step.get("decision")
        if decision == "order":
            self.order_choice(step)
            return
        # use / decline, a target, a response: where it was taken, who chose what
        effect = step.get("effect")
        if decision == "use":  # about a waiting effect: beside it, under what it triggered during
            chosen = self.chosen_id is not None and self.key_of(self.chosen_id) == self.shown(effect)
            instance = self.chosen_id if chosen else self.instance(str(effect))
            parent = self.parent(self.causes.get(instance)) if instance is not None else self.beside()
        elif decision == "respond" and self.last is not None:
            parent = self.up[id(self.last[1])]  # beside the chain's links
        elif self.last is not None and self.last[0] == effect:
            parent = self.last[1]  # a target or a 'may' of the effect resolving
        else:
            parent = self.beside()
        under_it = self.last is not None and self.last[0] == effect and parent is self.last[1]
        about = f" for {self.shown(effect)}" if effect and not under_it else ""
        self.child(
            parent,
            [
                (
                    f"? {self.shown(step.get('player'))} chose {self.shown(step.get('label'))} "
                    f"({self.shown(decision)}{about})",
                    "dim",
                )
            ],
            came=None,
        )

    def order_choice(self, step: Step) -> None:
        options = step.get("options")
        listed = isinstance(options, (list, tuple))
        among = ", ".join(self.shown(o) for o in options) if listed else f"{options} effects"
        chosen = step.get("label")
        if listed and f"{chosen}#1" in options:
            chosen = f"{chosen}#1"  # the plain key names the first of its instances
        self.chosen = chosen if isinstance(chosen, str) and "#" in chosen else None
        self.chosen_id = self.instance(str(chosen))
        label: list[Segment] = [
            (f"? {self.shown(step.get('player'))} chose {self.shown(chosen)} (order; among {among})", "dim")
        ]
        candidates = {str(o).split("#")[0] for o in options} if listed else set()
        others = self.numbered([text for text in self.waiting.values() if text.split(" ", 1)[0] not in candidates])
        if listed and others:
            shown = others[:MAX_WAITING_SHOWN]
            more = f" and {len(others) - len(shown)} more" if len(others) > len(shown) else ""
            label.append((f" · also waiting: {'; '.join(shown)}{more}", "dim"))
        if self.chosen_id is not None:  # under what the chosen effect triggered during
            self.child(self.parent(self.causes.get(self.chosen_id)), label, came=None)
        else:
            self.child(self.beside(), label, came=None)

    def on_activated(self, step: Step) -> None:
        self.number += 1
        shown_key = self.shown(self.chosen) if self.chosen else None
        label = [(f"{self.number}. ▶ ", None), *self.effect_label(step, shown_key)]
        self.chosen = self.chosen_id = None
        triggered = self.waiting.pop(step.get("id"), None) is not None
        chain, link = step.get("chain"), step.get("chain_link")
        if link:
            label.append((f"  {self.link(chain, link)}", "dim"))
            self.links.setdefault(chain, []).append(
                f"{self.shown(step.get('effect'))} ({self.shown(step.get('player'))})"
            )
        if step.get("rule"):
            label.append(self.rule(step))
        wanted = self.parent(step.get("cause"))
        if link and id(wanted) in self.link_lines:
            # a chain is built only after the last one resolved: a new chain starts at the top
            about = self.about[id(wanted)]
            if triggered:
                label.append((f"  (triggered during {about})", "dim"))
            wanted = self.root
        node = self.child(wanted, label, "triggered during" if triggered else None)
        self.nodes[step.get("id")] = node
        self.about[id(node)] = f"{self.number}. {self.shown(step.get('effect'))}"
        self.last = (step.get("effect"), node)

    def on_resolved(self, step: Step) -> None:
        self.resolved(step)

    def on_applied(self, step: Step) -> None:
        self.resolved(step)

    def resolved(self, step: Step) -> None:
        kind = step.kind
        self.waiting.pop(step.get("id"), None)
        node = self.nodes.get(step.get("id"))
        link = step.get("chain_link")
        chain = step.get("chain")
        short = self.link_word
        if link and chain not in self.summed:  # the chain as judges write it, before it resolves
            self.summed.add(chain)
            built = ", ".join(f"{short}{i} {text}" for i, text in enumerate(self.links.get(chain, []), 1))
            summary: list[Segment] = [
                (f"⛓ {self.chain_word} {chain}: {built} — resolves from {short}{link} down", "bold")
            ]
            if step.get("rule"):
                summary.append((f"  · {self.shown.sentence(step.get('rule'))}", "dim"))
            self.child(self.root, summary)
        mark, style = _OUTCOME_STYLE[kind]
        if node is None or link:
            where = self.root if link else self.parent(step.get("cause"))
            prefix = [(f"◀ resolve {self.chain_word} {chain} {short}{link}: ", None)] if link else []
            node = self.child(where, [*prefix, *self.effect_label(step)])
            if kind == "applied" and step.get("rule"):
                node.label.append(self.rule(step))
            self.nodes[step.get("id")] = node
            if link:
                self.link_lines.add(id(node))
                self.about[id(node)] = f"{self.chain_word} {chain} {short}{link} {self.shown(step.get('effect'))}"
                self.last = (step.get("effect"), node)
        elif self.path[-1] is not node:  # its cost was paid first, under it: it resolves now
            self.child(node, [(f"{mark} its cost paid, it resolves", style)])
        else:
            self.line = node
        node.label.append((f"  {mark} {kind}", style))
        if kind == "resolved":
            self.done.append(node)

    def on_delayed(self, step: Step) -> None:
        """What a ``delay`` put off begins: what it does comes under it."""
        node = self.child(
            self.root,
            [
                ("⏲ put off: ", "magenta"),
                *self.effect_label(step),
                (f" — {self.shown.sentence(step.get('reason'))}", "dim"),
            ],
        )
        self.nodes[step.get("id")] = node
        self.about[id(node)] = f"what {self.shown(step.get('effect'))} put off"

    def on_declared(self, step: Step) -> None:
        self.child(
            self.parent(step.get("cause")), [("☑ declared ", "green"), *self.effect_label(step)], "triggered during"
        )

    def ended_effect(self, step: Step) -> None:
        """A pending effect that failed, was declined, lost or missed the timing."""
        kind = step.kind
        self.waiting.pop(step.get("id"), None)
        mark, style = _OUTCOME_STYLE[kind]
        reason = f": {self.shown.sentence(step.get('reason'))}" if step.get("reason") else ""
        self.child(
            self.parent(step.get("cause")),
            [(f"{mark} {kind} ", style), *self.effect_label(step), (reason, style)],
            "triggered during",
        )

    def on_prevented(self, step: Step) -> None:
        card = step.get("card")
        what = f"{self.shown(step.get('event', ''))} {self.card(card or '')}"
        self.child(self.parent(step.get("id")), [("✋ prevents ", "yellow"), (what, None)])

    def on_negated(self, step: Step) -> None:
        link = f"{self.link_word}{step.get('chain_link')} {self.shown(step.get('effect', ''))}"
        what = f"the {step.get('what', 'activation')} of {link}"
        self.child(
            self.parent(step.get("cause")), [("⊘ negates ", "red"), (what, None), (" — it will not resolve", "dim")]
        )

    def on_rules(self, step: Step) -> None:
        cards = ", ".join(self.card(c) for c in step.get("cards", ()))
        node = self.child(self.parent(step.get("cause")), [("rules processing ", "blue"), (cards, None)])
        self.rules = (step.get("cause"), node)

    def on_turn(self, step: Step) -> None:
        self.child(self.parent(step.get("cause")), [("⟳ ", "magenta"), (turn_text(step, self.names, self.shown), None)])

    def on_turn_end(self, step: Step) -> None:
        self.child(self.parent(step.get("cause")), [("⟳ ", "magenta"), (step_line(step, self.names, self.shown), None)])

    on_turn_continues = on_turn_end

    def on_ended(self, step: Step) -> None:
        self.child(
            self.root,
            [
                (f"■ ended: {self.shown(step.get('outcome', ''))}", "bold red"),
                (f" — {self.shown.sentence(step.get('reason', ''))}", None),
            ],
        )

    def triggered(self, step: Step) -> None:
        cause = step.get("cause")
        interrupting = step.get("interrupting")
        marker = (cause, interrupting, tuple(self.extras(step)))
        key = self.shown(step.get("effect"))
        # the how-manieth instance of this key now waiting: the number ``--choice`` gives it
        number = sum(1 for text in self.waiting.values() if text.split(" ", 1)[0] == key) or 1
        if self.group is None or self.group[0] != marker:
            if interrupting:
                about = step.get("about")
                if about:  # (event, card or player) pairs: the names, as everywhere else
                    interrupting = ", ".join(f"{self.shown(event)} {self.card(what)}" for event, what in about)
                else:
                    interrupting = self.shown.sentence(interrupting)
                head: list[Segment] = [(f"⚡ about to happen: {interrupting} — interrupts triggered: ", "yellow")]
            else:
                extras = self.extras(step)
                detail = f" ({', '.join(extras)})" if extras else ""
                head = [(f"▲ triggered{detail}: ", "magenta")]
            node = self.child(self.parent(cause), list(head))
            self.group = (marker, node, head, [], node.label[len(head) :])  # the note on where it came from
        _, node, head, entries, note = self.group
        self.line = node
        entries.append((key, number, self.shown(step.get("player"))))
        keys = [entry[0] for entry in entries]
        shown = [f"{k}#{n} ({p})" if n > 1 or keys.count(k) > 1 else f"{k} ({p})" for k, n, p in entries]
        node.label = [*head, (", ".join(shown), None), *note]

    # -- what a choice is about -----------------------------------------------------

    def instance(self, label: str) -> Any:
        """The waiting instance an ordering label (``KEY`` or ``KEY#n``) names, or None."""
        key, _, number = label.partition("#")
        key = self.shown(key)
        wanted = int(number) if number.isdigit() else 1
        seen = 0
        for instance, text in self.waiting.items():
            if text.split(" ", 1)[0] == key:
                seen += 1
                if seen == wanted:
                    return instance
        return None

    def key_of(self, instance: Any) -> str | None:
        """The key (as shown) of a waiting instance."""
        text = self.waiting.get(instance)
        return text.split(" ", 1)[0] if text is not None else None

    def beside(self) -> Node:
        """Where a decision nothing else places goes: beside the last line."""
        return self.up.get(id(self.path[-1]), self.root)

    def numbered(self, texts: list[str]) -> list[str]:
        """``KEY (player…)`` entries with a key that repeats labelled ``KEY#n``,
        as :class:`~tcgtrig.choices.EffectLabels` (and ``--choice``) name them."""
        counts: dict[str, int] = {}
        for text in texts:
            key = text.split(" ", 1)[0]
            counts[key] = counts.get(key, 0) + 1
        seen: dict[str, int] = {}
        out = []
        for text in texts:
            key, rest = text.split(" ", 1)
            if counts[key] > 1:
                seen[key] = seen.get(key, 0) + 1
                text = f"{key}#{seen[key]} {rest}"
            out.append(text)
        return out


def build_tree(result: Resolution, places: list[Node] | None = None) -> Node:
    """The trace of ``result`` as a tree of :class:`Node`.

    ``places``, when given, receives the line that shows each step drawn,
    in trace order: read top to bottom, those lines never go back.
    """
    names = {card.id: card.name for card in result.state.cards.values()}
    builder = _Builder(result, names, places)
    trace = result.trace
    drawn, why = 0, None
    for step in itertools.islice(trace, MAX_TREE_STEPS):
        if not drawn % MEMORY_EVERY and drawn and (why := budget.exceeded()) is not None:
            break  # the bound holds while the tree is drawn too (issue 37 item 34)
        builder.add(step)
        drawn += 1
    if len(trace) > drawn:
        stops = f"stops here: {why}" if why is not None else f"stops at {MAX_TREE_STEPS:,}"
        left = f"… {len(trace) - drawn:,} more steps are not drawn"
        builder.root.children.append(Node([(f"{left} (the tree {stops}; --json gives every step)", "dim")]))
        if trace[-1].kind == "ended":
            builder.add(trace[-1])
    for node in builder.done:  # an effect that resolved with nothing under it changed nothing: say so
        if not node.children:
            node.label.append((" — it changed nothing", "dim"))
    notes = []
    if builder.flat_note:
        notes.append(
            Node(
                [
                    (
                        f"layers deeper than {MAX_DEPTH} are drawn at depth {MAX_DEPTH} "
                        "(the JSON trace keeps every cause)",
                        "dim",
                    )
                ]
            )
        )
    if builder.shown.shortened:
        notes.append(Node([(SHORTENED_NOTE, "dim")]))
    builder.root.children[:0] = notes
    return builder.root


def tree_lines(root: Node) -> Iterator[tuple[str, Node]]:
    """Each node with the guide drawn before it (iterative: no recursion)."""
    yield "", root
    todo: list[tuple[Node, str, bool]] = [
        (child, "", i == len(root.children) - 1) for i, child in reversed(list(enumerate(root.children)))
    ]
    while todo:
        node, prefix, last = todo.pop()
        yield prefix + ("└── " if last else "├── "), node
        inner = prefix + ("    " if last else "│   ")
        count = len(node.children)
        for i in range(count - 1, -1, -1):
            todo.append((node.children[i], inner, i == count - 1))


def end_state_lines(result: Resolution, shown: Shown | None = None) -> list[str]:
    """A few lines on the end: order, counters, cards that moved, marks left."""
    shown = shown or Shown()
    order = result.keys("resolved")
    if len(order) > MAX_ORDER_SHOWN:
        head, tail = order[: MAX_ORDER_SHOWN - 5], order[-5:]
        listed = (
            " → ".join(map(shown, head))
            + f" → … {len(order) - len(head) - len(tail):,} more … → "
            + " → ".join(map(shown, tail))
            + f" ({len(order):,} in all; --json lists every one)"
        )
    else:
        listed = " → ".join(map(shown, order)) if order else "(nothing resolved)"
    lines = ["Resolution order: " + listed]
    counters = result.engine.ruleset.describe_counters(result.state) if result.engine is not None else None
    if counters is None:
        counters = []
        for player in result.state.players:
            values = ", ".join(f"{shown(k)} {v}" for k, v in sorted(result.state.counters.get(player, {}).items()))
            counters.append(f"{shown(player)}: {values or 'none'}")
    else:
        counters = [shown.sentence(text) for text in counters]
    lines.append("Counters: " + " · ".join(counters))
    start = result.compiled.state
    moved = [
        f"{shown(c.id)} {shown(start.cards[c.id].zone)} → {shown(c.zone)}"
        for c in result.state.cards.values()
        if start.cards[c.id].zone != c.zone
    ]
    if moved:
        lines.append("Moved: " + ", ".join(moved))
    if result.state.marks:
        lines.append("Marks: " + ", ".join(map(shown, sorted(result.state.marks))))
    if result.outcome != "complete":
        lines.append(f"Outcome: {shown(result.outcome)} — {shown.sentence(result.reason)}")
    if result.unused_choices:
        lines.append("Unused scripted choices: " + ", ".join(map(shown, result.unused_choices)))
    return lines


def render_text(result: Resolution) -> str:
    """The tree and the end-state lines as plain text."""
    return _plain(result, build_tree(result))


def _plain(result: Resolution, root: Node) -> str:
    out = [guide + node.plain() for guide, node in tree_lines(root)]
    out.extend(end_state_lines(result))
    return "\n".join(out) + "\n"


def _write_plain(result: Resolution, root: Node, file: Any) -> None:
    """:func:`_plain`'s text written :data:`MEMORY_EVERY` lines at a time,
    never whole in memory.  Where the memory bound is reached, the rest of
    the tree is left out with a line saying so; the end state (a few
    lines) is written all the same."""
    lines = (guide + node.plain() for guide, node in tree_lines(root))
    while batch := list(itertools.islice(lines, MEMORY_EVERY)):
        file.write("\n".join(batch) + "\n")
        if (why := budget.exceeded()) is not None:
            file.write(f"… the rest of the tree is not written: {why}\n")
            break
    file.write("\n".join(end_state_lines(result)) + "\n")


#: Above this many lines a terminal gets plain text too (styling is slow).
STYLED_LINES = 20_000


def write_tree(result: Resolution, file: Any) -> None:
    """Write the tree and the end state as plain text to ``file``: what
    :func:`print_tree` writes off a terminal, without importing rich (the
    command line's ``run`` when its output is piped)."""
    _write_plain(result, build_tree(result), file)


def print_tree(result: Resolution, console: Console) -> None:
    """Print the tree and the end state: styled on a terminal, plain elsewhere.

    Every name in it is shown escaped (:mod:`tcgtrig.base.safe_text`) and very
    long ones shortened, so nothing in a scenario file acts on the terminal.
    The tree is drawn, and written, within the memory bound: where it is
    reached, it is cut with a line saying so (:mod:`tcgtrig.base.budget`)."""
    root = build_tree(result)
    if not console.is_terminal:
        _write_plain(result, root, console.file)
        return
    lines = list(tree_lines(root))
    if len(lines) > STYLED_LINES:
        _write_plain(result, root, console.file)
        return
    from rich.text import Text

    text = Text()
    for guide, node in lines:
        text.append(guide, style="dim")
        for segment, style in node.label:
            text.append(segment, style=style)
        text.append("\n")
    console.print(text, end="", soft_wrap=True)
    for line in end_state_lines(result):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
