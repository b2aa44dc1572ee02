"""Drawing a trace as a readable tree.

The tree is built from plain nodes (label segments with a style each) and
drawn line by line without recursion, so a 100,000-deep cascade prints in
seconds: styled through rich on a terminal, plain text elsewhere.

Effects are nested under the effect during which they triggered, the way
the seed pages draw priority layers: an effect's children are what happened
while it resolved — its events, interrupts, rules processing — and then the
effects it triggered, in the order they were taken.  Every effect shows its
card, its controller, the game's bookkeeping (Digimon: priority) and what
became of it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from attrs import define, field
from rich.console import Console
from rich.text import Text

from .resolution import Resolution
from .trace import Step

__all__ = ["Node", "build_tree", "tree_lines", "render_text", "print_tree", "describe_event", "step_line",
           "end_state_lines"]

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
#: Effects the "Resolution order" line names at most (the first and the last).
MAX_ORDER_SHOWN = 40
#: Step keys the tree writes in its own way; the rest are the game's details.
SKIP_KEYS = {"kind", "effect", "player", "id", "cause", "event", "interrupting", "about", "reason", "chain",
             "chain_link"}


def describe_event(step: Step, names: Mapping[str, str]) -> str:
    """One line for an ``event`` step: ``deleted Tapirmon (A) battle → trash``."""
    parts = [step["event"]]
    card = step.get("card")
    if card:
        parts.append(f"{names.get(card, card)} ({step.get('player')})")
    elif step.get("player"):
        parts.append(str(step.get("player")))
    if step.get("from") or step.get("to"):
        parts.append(f"{step.get('from', '?')} → {step.get('to', '?')}")
    if step.get("counter"):
        parts.append(f"{step.get('counter')} {step.get('amount')}")
    elif step.get("stat"):
        amount = step.get("amount") or 0
        parts.append(f"{step.get('stat')} {amount:+d}")
    elif step.get("cards"):
        parts.append(", ".join(names.get(c, c) for c in step.get("cards")))
    elif step.get("amount") is not None:
        parts.append(f"×{step.get('amount')}" + (" (unnamed cards)" if step["event"] == "drawn" else ""))
    if step.get("flag") and step["event"] in ("flag_set", "flag_cleared"):  # a game's own name says it
        parts.append(f"[{step.get('flag')}]")
    if step.get("by") and step.get("by") != "effect":
        parts.append(f"by {step.get('by')}")
    return " ".join(str(p) for p in parts)


def turn_text(step: Step, names: Mapping[str, str]) -> str:
    """The turn passed: whose turn it is now, and what ended with the last one."""
    text = f"turn {step.get('turn')}: {step.get('player')}'s turn begins"
    cards = step.get("cards") or ()
    if cards:
        text += " — lasting changes ended on " + ", ".join(names.get(c, c) for c in cards)
    return text


def step_line(step: Step, names: Mapping[str, str]) -> str:
    """One plain line for any step, e.g. for a live log while playing."""
    if step.kind == "event":
        return describe_event(step, names)
    if step.kind == "choice":
        return f"{step.get('player')} chose {step.get('label')}"
    if step.kind == "rules":
        return "rules processing: " + ", ".join(names.get(c, c) for c in step.get("cards", ()))
    if step.kind == "ended":
        return f"ended: {step.get('outcome')} — {step.get('reason')}"
    if step.kind == "turn":
        return turn_text(step, names)
    if step.kind == "start":
        return f"start: {step.get('player')} performs the start actions"
    if step.kind == "turn_end":
        return f"the turn ends: {step.get('reason')}"
    if step.kind == "turn_continues":
        return f"the turn goes on: {step.get('player')}'s turn does not end after all"
    extras = [f"{k} {v}" for k, v in step.data if k not in SKIP_KEYS]
    line = f"{step.kind} {step.get('effect', '')} ({step.get('player')})"
    if step.get("reason"):
        line += f": {step.get('reason')}"
    return line + (f" [{', '.join(extras)}]" if extras else "")


Segment = tuple[str, "str | None"]


@define(eq=False)
class Node:
    """One line of the tree: styled segments, and the lines under it."""

    label: list[Segment]
    children: list[Node] = field(factory=list)

    def plain(self) -> str:
        return "".join(text for text, _ in self.label)


class _Builder:
    def __init__(self, result: Resolution, names: Mapping[str, str]) -> None:
        self.names = names
        info = result.engine.ruleset.info
        self.depth_word = info.term("depth")
        ruleset = result.engine.ruleset
        variant = f", variant {ruleset.variant}" if ruleset.name != ruleset.game else ""
        self.root = Node([(result.title, "bold"), (f"  ({info.title}{variant})", "dim")])
        self.nodes: dict[Any, Node] = {}
        self.group: tuple[Any, Node, list[Segment], list[str]] | None = None
        self.rules: tuple[Any, Node] | None = None
        self.number = 0
        self.depth: dict[int, int] = {}
        self.anchor: dict[int, Node] = {}
        self.flat_note = False
        self.choosing: list[Segment] | None = None
        #: the ``KEY#n`` label the last ordering decision chose, for the activation it starts
        self.chosen: str | None = None
        self.done: list[Node] = []  # the nodes of resolved effects
        self.last: tuple[str, Node] | None = None  # the effect activated last, and its node
        #: effects waiting in the pending set, by instance id, as "key (player, details)"
        self.waiting: dict[Any, str] = {}
        #: chain games: each chain's links as they are built, and the chains already summed up
        self.links: dict[Any, list[str]] = {}
        self.summed: set[Any] = set()

    def parent(self, cause: Any) -> Node:
        return self.nodes.get(cause, self.root)

    def child(self, parent: Node, label: list[Segment]) -> Node:
        """Add a node; below :data:`MAX_DEPTH` levels, deeper layers are drawn
        at that depth (a 100,000-deep cascade stays readable)."""
        target = self.anchor.get(id(parent), parent)
        node = Node(label)
        target.children.append(node)
        depth = self.depth.get(id(target), 0) + 1
        self.depth[id(node)] = depth
        self.anchor[id(node)] = target if depth >= MAX_DEPTH else node
        if depth >= MAX_DEPTH and not self.flat_note:
            self.flat_note = True
            self.root.children.append(Node([(f"layers deeper than {MAX_DEPTH} are drawn at depth {MAX_DEPTH} "
                                             "(the JSON trace keeps every cause)", "dim")]))
        return node

    def extras(self, step: Step) -> list[str]:
        extras = [f"{k} {v}" for k, v in step.data if k not in SKIP_KEYS]
        if self.depth_word != "depth":
            extras = [e.replace("priority", self.depth_word, 1) if e.startswith("priority") else e for e in extras]
        return extras

    def effect_label(self, step: Step, shown: str | None = None) -> list[Segment]:
        """The effect's key (or ``shown``: the label it was chosen by), its
        card's name, its player and the game's details."""
        key = step.get("effect", "?")
        card = key.rsplit(".", 1)[0]
        label: list[Segment] = [(shown or key, "bold"),
                                (f"  {self.names.get(card, card)} · {step.get('player')}", None)]
        extras = self.extras(step)
        if extras:
            label.append((f"  {', '.join(extras)}", "dim"))
        return label

    def add(self, step: Step) -> None:
        kind = step.kind
        if kind == "triggered" and not step.get("interrupting"):
            extras = self.extras(step)
            self.waiting[step.get("id")] = (f"{step.get('effect')} ({step.get('player')}"
                                            f"{', ' + ', '.join(extras) if extras else ''})")
        elif kind in ("activated", "declined", "failed", "lost", "missed", "resolved", "applied"):
            self.waiting.pop(step.get("id"), None)
        if kind != "triggered":
            self.group = None
        if kind != "event":
            self.rules = None
        if kind == "start":
            self.nodes[0] = self.child(self.root, [("start", "bold"),
                                                   (f" · {step.get('player')} performs the start actions", None)])
        elif kind == "event":
            in_rules = self.rules is not None and self.rules[0] == step.get("cause")
            parent = self.rules[1] if in_rules else self.parent(step.get("cause"))  # type: ignore[index]
            self.child(parent, [(describe_event(step, self.names), "cyan")])
        elif kind == "triggered":
            self.triggered(step)
        elif kind == "choice":
            if step.get("decision") == "order":
                options = step.get("options")
                among = ", ".join(options) if isinstance(options, (list, tuple)) else f"{options} effects"
                chosen = step.get("label")
                if isinstance(options, (list, tuple)) and f"{chosen}#1" in options:
                    chosen = f"{chosen}#1"  # the plain key names the first of its instances
                self.chosen = chosen if isinstance(chosen, str) and "#" in chosen else None
                self.choosing = [(f"? {step.get('player')} chose {chosen} (order; among {among})", "dim")]
                candidates = {o.split("#")[0] for o in options} if isinstance(options, (list, tuple)) else set()
                others = self.numbered([text for text in self.waiting.values()
                                        if text.split(" ", 1)[0] not in candidates])
                if isinstance(options, (list, tuple)) and others:
                    shown = others[:MAX_WAITING_SHOWN]
                    more = f" and {len(others) - len(shown)} more" if len(others) > len(shown) else ""
                    self.choosing.append((f" · also waiting: {'; '.join(shown)}{more}", "dim"))
            else:  # use / decline, a target, a response: where it was taken, who chose what
                effect = step.get("effect")
                parent = self.last[1] if self.last and self.last[0] == effect else self.nodes.get(0, self.root)
                about = f" for {effect}" if effect and parent is not (self.last or (None, None))[1] else ""
                self.child(parent, [(f"? {step.get('player')} chose {step.get('label')} "
                                     f"({step.get('decision')}{about})", "dim")])
        elif kind == "activated":
            self.number += 1
            label = [(f"{self.number}. ▶ ", None), *self.effect_label(step, self.chosen)]
            self.chosen = None
            if step.get("chain_link"):
                label.append((f"  chain {step.get('chain')} · CL{step.get('chain_link')}", "dim"))
            if step.get("chain_link"):
                self.links.setdefault(step.get("chain"), []).append(f"{step.get('effect')} ({step.get('player')})")
            parent = self.parent(step.get("cause"))
            if self.choosing is not None:
                self.child(parent, self.choosing)
                self.choosing = None
            self.nodes[step.get("id")] = self.child(parent, label)
            self.last = (step.get("effect"), self.nodes[step.get("id")])
        elif kind in ("resolved", "applied"):
            node = self.nodes.get(step.get("id"))
            link = step.get("chain_link")
            chain = step.get("chain")
            if link and chain not in self.summed:  # the chain as judges write it, before it resolves
                self.summed.add(chain)
                built = ", ".join(f"CL{i} {text}" for i, text in enumerate(self.links.get(chain, []), 1))
                self.root.children.append(Node([(f"⛓ chain {chain}: {built} — resolves from CL{link} down",
                                                 "bold")]))
            if node is None or link:
                where = self.root if link else self.parent(step.get("cause"))
                prefix = [(f"◀ resolve chain {step.get('chain')} CL{link}: ", None)] if link else []
                node = self.child(where, [*prefix, *self.effect_label(step)])
                self.nodes[step.get("id")] = node
            mark, style = _OUTCOME_STYLE[kind]
            node.label.append((f"  {mark} {kind}", style))
            if kind == "resolved":
                self.done.append(node)
        elif kind == "declared":
            self.child(self.parent(step.get("cause")), [("☑ declared ", "green"), *self.effect_label(step)])
        elif kind in ("failed", "declined", "lost", "missed"):
            mark, style = _OUTCOME_STYLE[kind]
            reason = f": {step.get('reason')}" if step.get("reason") else ""
            if self.choosing is not None:
                self.child(self.parent(step.get("cause")), self.choosing)
                self.choosing = None
            self.child(self.parent(step.get("cause")),
                       [(f"{mark} {kind} ", style), *self.effect_label(step), (reason, style)])
        elif kind == "prevented":
            card = step.get("card")
            what = f"{step.get('event', '')} {self.names.get(card, card or '')}"
            self.child(self.parent(step.get("id")), [("✋ prevents ", "yellow"), (what, None)])
        elif kind == "rules":
            cards = ", ".join(self.names.get(c, c) for c in step.get("cards", ()))
            node = self.child(self.parent(step.get("cause")), [("rules processing ", "blue"), (cards, None)])
            self.rules = (step.get("cause"), node)
        elif kind == "turn":
            self.child(self.parent(step.get("cause")), [("⟳ ", "magenta"), (turn_text(step, self.names), None)])
        elif kind in ("turn_end", "turn_continues"):
            self.child(self.parent(step.get("cause")), [("⟳ ", "magenta"), (step_line(step, self.names), None)])
        elif kind == "ended":
            self.root.children.append(Node([(f"■ ended: {step.get('outcome', '')}", "bold red"),
                                            (f" — {step.get('reason', '')}", None)]))

    def triggered(self, step: Step) -> None:
        cause = step.get("cause")
        interrupting = step.get("interrupting")
        marker = (cause, interrupting, tuple(self.extras(step)))
        key = step.get("effect")
        # the how-manieth instance of this key now waiting: the number ``--choice`` gives it
        number = sum(1 for text in self.waiting.values() if text.split(" ", 1)[0] == key) or 1
        if self.group is None or self.group[0] != marker:
            if interrupting:
                about = step.get("about")
                if about:  # (event, card or player) pairs: the names, as everywhere else
                    interrupting = ", ".join(f"{event} {self.names.get(what, what)}" for event, what in about)
                head: list[Segment] = [(f"⚡ about to happen: {interrupting} — interrupts triggered: ", "yellow")]
            else:
                extras = self.extras(step)
                detail = f" ({', '.join(extras)})" if extras else ""
                head = [(f"▲ triggered{detail}: ", "magenta")]
            node = self.child(self.parent(cause), list(head))
            self.group = (marker, node, head, [])
        _, node, head, entries = self.group
        entries.append((key, number, step.get("player")))
        keys = [entry[0] for entry in entries]
        shown = [f"{k}#{n} ({p})" if n > 1 or keys.count(k) > 1 else f"{k} ({p})" for k, n, p in entries]
        node.label = [*head, (", ".join(shown), None)]

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


def build_tree(result: Resolution) -> Node:
    """The trace of ``result`` as a tree of :class:`Node`."""
    names = {card.id: card.name for card in result.state.cards.values()}
    builder = _Builder(result, names)
    trace = result.trace
    for step in itertools.islice(trace, MAX_TREE_STEPS):
        builder.add(step)
    if len(trace) > MAX_TREE_STEPS:
        left = len(trace) - MAX_TREE_STEPS
        builder.root.children.append(Node([(f"… {left:,} more steps are not drawn (the tree stops at "
                                            f"{MAX_TREE_STEPS:,}; --json gives every step)", "dim")]))
        if trace[-1].kind == "ended":
            builder.add(trace[-1])
    for node in builder.done:  # an effect that resolved with nothing under it changed nothing: say so
        if not node.children:
            node.label.append((" — it changed nothing", "dim"))
    return builder.root


def tree_lines(root: Node) -> Iterator[tuple[str, Node]]:
    """Each node with the guide drawn before it (iterative: no recursion)."""
    yield "", root
    todo: list[tuple[Node, str, bool]] = [(child, "", i == len(root.children) - 1)
                                          for i, child in reversed(list(enumerate(root.children)))]
    while todo:
        node, prefix, last = todo.pop()
        yield prefix + ("└── " if last else "├── "), node
        inner = prefix + ("    " if last else "│   ")
        count = len(node.children)
        for i in range(count - 1, -1, -1):
            todo.append((node.children[i], inner, i == count - 1))


def end_state_lines(result: Resolution) -> list[str]:
    """A few lines on the end: order, counters, cards that moved, marks left."""
    order = result.keys("resolved")
    if len(order) > MAX_ORDER_SHOWN:
        head, tail = order[:MAX_ORDER_SHOWN - 5], order[-5:]
        shown = (" → ".join(head) + f" → … {len(order) - len(head) - len(tail):,} more … → " + " → ".join(tail)
                 + f" ({len(order):,} in all; --json lists every one)")
    else:
        shown = " → ".join(order) if order else "(nothing resolved)"
    lines = ["Resolution order: " + shown]
    counters = result.engine.ruleset.describe_counters(result.state) if result.engine is not None else None
    if counters is None:
        counters = []
        for player in result.state.players:
            values = ", ".join(f"{k} {v}" for k, v in sorted(result.state.counters.get(player, {}).items()))
            counters.append(f"{player}: {values or 'none'}")
    lines.append("Counters: " + " · ".join(counters))
    start = result.compiled.state
    moved = [f"{c.id} {start.cards[c.id].zone} → {c.zone}" for c in result.state.cards.values()
             if start.cards[c.id].zone != c.zone]
    if moved:
        lines.append("Moved: " + ", ".join(moved))
    if result.state.marks:
        lines.append("Marks: " + ", ".join(sorted(result.state.marks)))
    if result.outcome != "complete":
        lines.append(f"Outcome: {result.outcome} — {result.reason}")
    if result.unused_choices:
        lines.append("Unused scripted choices: " + ", ".join(result.unused_choices))
    return lines


def render_text(result: Resolution) -> str:
    """The tree and the end-state lines as plain text."""
    out = [guide + node.plain() for guide, node in tree_lines(build_tree(result))]
    out.extend(end_state_lines(result))
    return "\n".join(out) + "\n"


#: Above this many lines a terminal gets plain text too (styling is slow).
STYLED_LINES = 20_000


def print_tree(result: Resolution, console: Console) -> None:
    """Print the tree and the end state: styled on a terminal, plain elsewhere."""
    root = build_tree(result)
    if not console.is_terminal:
        console.file.write(render_text(result))
        return
    lines = list(tree_lines(root))
    if len(lines) > STYLED_LINES:
        console.file.write("\n".join(guide + node.plain() for guide, node in lines) + "\n")
    else:
        text = Text()
        for guide, node in lines:
            text.append(guide, style="dim")
            for segment, style in node.label:
                text.append(segment, style=style)
            text.append("\n")
        console.print(text, end="", soft_wrap=True)
    for line in end_state_lines(result):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
