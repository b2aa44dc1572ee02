"""Drawing a trace as a readable tree.

Effects are nested under the effect during which they triggered, the way
the seed pages draw priority layers: an effect's children are what happened
while it resolved — its events, interrupts, rules processing — and then the
effects it triggered, in the order they were taken.  Every effect shows its
card, its controller, the game's bookkeeping (Digimon: priority) and what
became of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from io import StringIO
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.tree import Tree

from .resolution import Resolution
from .trace import Step

__all__ = ["render_tree", "render_text", "describe_event", "step_line", "end_state_lines"]

_OUTCOME_STYLE = {
    "resolved": ("✓", "green"),
    "applied": ("✓", "green"),
    "failed": ("✗", "red"),
    "declined": ("–", "yellow"),
    "lost": ("✗", "magenta"),
    "missed": ("✗", "magenta"),
}
_SKIP_KEYS = {"kind", "effect", "player", "id", "cause", "event", "interrupting", "reason", "link"}


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
    elif step.get("amount") is not None:
        parts.append(f"×{step.get('amount')}")
    if step.get("flag") and step["event"] in ("flag_set", "flag_cleared"):  # a game's own name says it
        parts.append(f"[{step.get('flag')}]")
    if step.get("by") and step.get("by") != "effect":
        parts.append(f"by {step.get('by')}")
    return " ".join(str(p) for p in parts)


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
    extras = [f"{k} {v}" for k, v in step.data if k not in _SKIP_KEYS]
    line = f"{step.kind} {step.get('effect', '')} ({step.get('player')})"
    if step.get("reason"):
        line += f": {step.get('reason')}"
    return line + (f" [{', '.join(extras)}]" if extras else "")


class _Builder:
    def __init__(self, result: Resolution, names: Mapping[str, str]) -> None:
        self.result = result
        self.names = names
        info = result.engine.ruleset.info
        self.depth_word = info.term("depth")
        self.root = Tree(f"[bold]{escape(result.title)}[/]  [dim]({escape(info.title)})[/]")
        self.nodes: dict[Any, Tree] = {}
        self.group: tuple[Any, Tree, str, list[str]] | None = None
        self.rules: tuple[Any, Tree] | None = None
        self.number = 0

    def parent(self, cause: Any) -> Tree:
        return self.nodes.get(cause, self.root)

    def effect_text(self, step: Step) -> str:
        key = step.get("effect", "?")
        card = key.rsplit(".", 1)[0]
        extras = [f"{k} {v}" for k, v in step.data if k not in _SKIP_KEYS]
        if self.depth_word != "depth":
            extras = [e.replace("priority", self.depth_word, 1) if e.startswith("priority") else e for e in extras]
        text = f"[bold]{escape(key)}[/]  {escape(self.names.get(card, card))} · {escape(str(step.get('player')))}"
        if extras:
            text += f"  [dim]{escape(', '.join(extras))}[/]"
        return text

    def add(self, step: Step) -> None:
        kind = step.kind
        if kind != "triggered":
            self.group = None
        if kind != "event":
            self.rules = None
        if kind == "start":
            player = escape(str(step.get("player")))
            self.nodes[0] = self.root.add(f"[bold]start[/] · {player} performs the start actions")
        elif kind == "event":
            in_rules = self.rules is not None and self.rules[0] == step.get("cause")
            parent = self.rules[1] if in_rules else self.parent(step.get("cause"))
            parent.add(f"[cyan]{escape(describe_event(step, self.names))}[/]")
        elif kind == "triggered":
            self.triggered(step)
        elif kind == "activated":
            self.number += 1
            where = self.parent(step.get("cause"))
            link = f"  [dim]chain link {step.get('link')}[/]" if step.get("link") else ""
            label = f"{self.number}. ▶ {self.effect_text(step)}{link}"
            self.nodes[step.get("id")] = where.add(label)
        elif kind in ("resolved", "applied"):
            node = self.nodes.get(step.get("id"))
            if node is None or step.get("link"):
                where = self.root if step.get("link") else self.parent(step.get("cause"))
                prefix = f"resolve link {step.get('link')}: " if step.get("link") else ""
                node = where.add(f"{prefix}{self.effect_text(step)}")
                self.nodes[step.get("id")] = node
            mark, style = _OUTCOME_STYLE[kind]
            node.label = f"{node.label}  [{style}]{mark} {kind}[/]"
        elif kind in ("failed", "declined", "lost", "missed"):
            mark, style = _OUTCOME_STYLE[kind]
            reason = f": {escape(step.get('reason'))}" if step.get("reason") else ""
            self.parent(step.get("cause")).add(
                f"[{style}]{mark} {kind}[/] {self.effect_text(step)}[{style}]{reason}[/]")
        elif kind == "prevented":
            card = step.get("card")
            self.parent(step.get("id")).add(
                f"[yellow]✋ prevents[/] {escape(step.get('event', ''))} {escape(self.names.get(card, card or ''))}")
        elif kind == "rules":
            cards = ", ".join(self.names.get(c, c) for c in step.get("cards", ()))
            node = self.parent(step.get("cause")).add(f"[blue]rules processing[/] {escape(cards)}")
            self.rules = (step.get("cause"), node)
        elif kind == "ended":
            self.root.add(f"[bold red]■ ended: {escape(step.get('outcome', ''))}[/] — {escape(step.get('reason', ''))}")

    def triggered(self, step: Step) -> None:
        cause = step.get("cause")
        interrupting = step.get("interrupting")
        marker = (cause, interrupting, step.get("priority"))
        name = f"{escape(step.get('effect'))} ({escape(str(step.get('player')))})"
        if self.group is None or self.group[0] != marker:
            if interrupting:
                head = f"[yellow]⚡ would {escape(interrupting)} — interrupts triggered:[/]"
            else:
                extra = [f"{k} {v}" for k, v in step.data if k not in _SKIP_KEYS]
                extra_text = f" ({', '.join(extra).replace('priority', self.depth_word)})" if extra else ""
                head = f"[magenta]▲ triggered{escape(extra_text)}:[/]"
            self.group = (marker, self.parent(cause).add(head), head, [])
        _, node, head, names = self.group
        names.append(name)
        node.label = f"{head} {', '.join(names)}"


def render_tree(result: Resolution) -> Tree:
    """The trace of ``result`` as a :class:`rich.tree.Tree`."""
    names = {card.id: card.name for card in result.state.cards.values()}
    builder = _Builder(result, names)
    for step in result.trace:
        builder.add(step)
    return builder.root


def end_state_lines(result: Resolution) -> list[str]:
    """A few lines on the end: order, counters, cards that moved."""
    order = result.keys("resolved")
    lines = ["Resolution order: " + (" → ".join(order) if order else "(nothing resolved)")]
    counters = []
    for player in result.state.players:
        values = ", ".join(f"{k} {v}" for k, v in sorted(result.state.counters.get(player, {}).items()))
        counters.append(f"{player}: {values or '—'}")
    lines.append("Counters: " + " · ".join(counters))
    start = result.compiled.state
    moved = [f"{c.id} {start.cards[c.id].zone} → {c.zone}" for c in result.state.cards.values()
             if start.cards[c.id].zone != c.zone]
    if moved:
        lines.append("Moved: " + ", ".join(moved))
    if result.outcome != "complete":
        lines.append(f"Outcome: {result.outcome} — {result.reason}")
    if result.unused_choices:
        lines.append("Unused scripted choices: " + ", ".join(result.unused_choices))
    return lines


def render_text(result: Resolution, *, width: int = 110, color: bool = False) -> str:
    """The tree and the end-state lines as plain text (for tests and files)."""
    buffer = StringIO()
    console = Console(file=buffer, width=width, color_system="standard" if color else None,
                      force_terminal=color, highlight=False, emoji=False)
    console.print(render_tree(result))
    for line in end_state_lines(result):
        console.print(escape(line))
    return buffer.getvalue()
