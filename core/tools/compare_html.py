"""One self-contained HTML page for ``tcgtrig compare --html``.

First the position, as a player would share it: the file's source and
notes, whose turn it is, and each player's cards zone by zone with their
texts.  Then the games, as columns.  Each resolved effect is a box coloured by its card;
the game's own structure is drawn as nested boxes, in the game's words: chains and their links
for a chain game (Yu-Gi-Oh!'s Chain and CL1, Magic's stack and #1), derivation depth
(Digimon's priority layers) otherwise, with the rule that placed each effect,
with the game's class of each effect (the Duel Masters waiting pool's
classes) written on it, and what each did (the events it caused).  Then
what was lost, missed, failed or declined and
why, every decision (who chose what, out of which options), the end, and
where the games part ways.  Inline CSS only: no script,
no network, readable in any browser.

Names are shown as the terminal shows them (:mod:`tcgtrig.base.safe_text`):
control and bidi characters escaped, very long names shortened; a column
draws at most :data:`MAX_PAGE_EFFECTS` effects, so a runaway loop makes a
page of a bounded size (``compare --json`` has everything).
"""

from __future__ import annotations

import hashlib
import html
import itertools
from typing import Any

from ..base import budget
from ..base.safe_text import NAME_LIMIT, SHORTENED_NOTE, Shown
from ..resolution import Resolution
from .compare import (
    Column,
    Comparison,
    describe_difference,
    describe_vocabulary,
    describe_why,
    differences,
    no_differences,
    vocabulary,
)
from .render import SKIP_KEYS

__all__ = ["comparison_html", "MAX_PAGE_EFFECTS"]

ENDINGS = ("lost", "missed", "failed", "declined", "negated")
#: Effects a column draws at most (resolved, and lost, missed, … each).
MAX_PAGE_EFFECTS = 2_000

STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 24px; color: #1d1d1f; background: #fff; }
h1 { font-size: 22px; margin: 0 0 16px; }
.games { display: grid; grid-template-columns: repeat(var(--n), minmax(0, 1fr)); gap: 16px; }
.game { border: 1px solid #c8c8d0; border-radius: 8px; padding: 12px; background: #fafafc; }
.game h2 { font-size: 17px; margin: 0 0 8px; }
.game h2 small { color: #666; font-weight: normal; }
.box { border: 1px dashed #9a9aa8; border-radius: 6px; padding: 6px 6px 2px 6px; margin: 4px 0; }
.box > .label { font-size: 12px; color: #555; margin-bottom: 2px; }
.effect { border-left: 6px solid var(--c); background: #fff; border-radius: 4px; padding: 4px 8px;
          margin: 0 0 4px; box-shadow: 0 1px 1px rgba(0,0,0,.08); }
.effect .n { color: #666; margin-right: 4px; }
.effect .tag { font-size: 12px; color: #555; margin-left: 6px; }
.ended { margin: 8px 0 0; padding-left: 18px; font-size: 13px; }
.end { margin-top: 8px; font-size: 13px; color: #333; }
.error { color: #a00; }
.differences { margin-top: 20px; }
.differences li { margin-bottom: 4px; }
.note { color: #666; font-size: 13px; }
.position { margin: 0 0 20px; }
.position .about { white-space: pre-line; font-size: 14px; color: #333; }
.board { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 12px; }
.player { border: 1px solid #c8c8d0; border-radius: 8px; padding: 8px 12px; }
.player h3 { font-size: 15px; margin: 0 0 4px; }
.zone { font-size: 13px; color: #555; margin: 6px 0 2px; }
.card { font-size: 14px; margin: 0 0 4px; }
.card .text { display: block; font-size: 13px; color: #333; padding-left: 12px; }
.decisions { margin: 8px 0 0; padding-left: 18px; font-size: 13px; }
.effect .did { color: #444; }
.notes { margin: 0 0 8px; padding-left: 18px; font-size: 13px; color: #6a4a00; }
.because { white-space: pre-line; font-size: 13px; color: #333; margin: 0 0 8px; }
.outcomes { margin: 8px 0 0; padding-left: 18px; font-size: 13px; }
.vocabulary li { color: #555; }
.effect .why { color: #666; font-style: italic; }
"""


class _Page:
    """Writes values into the page: escaped for HTML and for the eye."""

    def __init__(self) -> None:
        self.shown = Shown()

    def __call__(self, value: Any, limit: int = NAME_LIMIT) -> str:
        return html.escape(self.shown(value, limit))

    def sentence(self, value: Any) -> str:
        return html.escape(self.shown.sentence(value))

    def paragraphs(self, value: Any) -> str:
        """A file's own text (``source``, ``notes``, ``because``), its line
        breaks kept as line breaks (the page shows them: ``white-space:
        pre-line``), not written as ``\\n`` (issue 37 item 15)."""
        return html.escape(self.shown.sentence(str(value).strip(), lines=True))


def _negated_by(step: Any, text: Any) -> str:
    """For a negated chain link: what was negated, and by which effect."""
    if step.kind != "negated":
        return ""
    return f": its {text(step.get('what', 'activation'))} negated by {text(step.get('negated_by'))}"


def comparison_html(
    title: str,
    results: Comparison | dict[str, Resolution | str],
    scenario: Any = None,
    *,
    everything: bool = False,
) -> str:
    """The page for ``results`` (a :class:`~tcgtrig.tools.compare.Comparison`,
    or game name → its resolution, or its error); with the ``scenario``, the
    position first: its source and notes, whose turn it is, and each
    player's cards zone by zone with their texts.  ``everything``: the
    games' own bookkeeping (marks) is compared too."""
    text = _Page()
    position = _position(scenario, text) if scenario is not None else ""
    if isinstance(results, Comparison):
        cells = results.columns
    else:
        cells = tuple(
            Column(game=n, error=r) if isinstance(r, str) else Column(game=n, result=r) for n, r in results.items()
        )
    columns = "".join(_drawn(cell, text) for cell in cells)
    found = differences(results, everything=everything)
    parts = "".join(
        f"<li>{html.escape(describe_difference(d, text.shown))}"
        + (
            '<ul class="why">'
            + "".join(f"<li>why, {html.escape(w)}</li>" for w in describe_why(d, text.shown))
            + "</ul>"
            if d.get("why")
            else ""
        )
        + "</li>"
        for d in found
    )
    if not found:
        parts = f"<li>{html.escape(no_differences(results, everything=everything) or '')}</li>"
    words = vocabulary(results)
    if words:
        parts += (
            '<li class="vocabulary">The same things, named by each game (no difference of rules):<ul>'
            + "".join(f"<li>{html.escape(describe_vocabulary(w, text.shown))}</li>" for w in words)
            + "</ul></li>"
        )
    note = f'<p class="note">{html.escape(SHORTENED_NOTE)}</p>\n' if text.shown.shortened else ""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{text.sentence(title)} — tcgtrig compare</title><style>{STYLE}</style></head>\n<body>"
        f"<h1>{text.sentence(title)}</h1>\n{position}"
        f'<div class="games" style="--n: {max(len(cells), 1)}">{columns}</div>\n'
        f'<section class="differences"><h2>Where the games part ways</h2><ul>{parts}</ul></section>\n'
        f"{note}</body></html>\n"
    )


def _drawn(cell: Column, text: _Page) -> str:
    """A game's column, unless the memory bound (``--max-memory``) is
    reached: then a note says it is not drawn, and the page stays within
    the bound to its last byte (issue 37 item 34)."""
    why = budget.exceeded()
    if why is None:
        return _column(cell, text)
    name = text(cell.game)
    return (
        f'<section class="game" data-game="{name}"><h2>{name}</h2>'
        f'<p class="note">not drawn: {text.sentence(why)} (compare --json gives every step)</p></section>'
    )


def _column(cell: Column, text: _Page) -> str:
    name, result = cell.game, cell.result
    notes = "".join(f"<li>{text.sentence(note)}</li>" for note in cell.notes)
    notes = f'<ul class="notes">{notes}</ul>' if notes else ""
    because = (
        f'<p class="because"><b>Why, as the file says:</b> {text.paragraphs(cell.because)}</p>' if cell.because else ""
    )
    if result is None:
        return (
            f'<section class="game" data-game="{text(name)}"><h2>{text(name)}</h2>'
            f'<p class="error">cannot resolve: {text.sentence(cell.error or "")}</p>{notes}{because}</section>'
        )
    outcomes = ""
    if cell.outcomes:
        items = "".join(
            f"<li>{' → '.join(text(k) for k in r.keys('resolved')) or '(nothing resolved)'}"
            f"{' (the default answers)' if n == 1 else ''}</li>"
            for n, r in enumerate(cell.outcomes, 1)
        )
        outcomes = (
            f'<div class="note">The answers change the result: {len(cell.outcomes)} distinct outcomes '
            f'({text.sentence(cell.explored)})</div><ol class="outcomes">{items}</ol>'
        )
    info = result.engine.ruleset.info
    names = {card.id: card.name for card in result.state.cards.values()}
    body = _structure(result, names, text)
    endings = (step for step in result.trace if step.kind in ENDINGS)
    ended = "".join(
        f"<li>{text(step.kind)} {text(step.get('effect'))}"
        f"{': ' + text.sentence(step.get('reason')) if step.get('reason') else ''}"
        f"{_negated_by(step, text)}</li>"
        for step in itertools.islice(endings, MAX_PAGE_EFFECTS)
    )
    more = sum(1 for _ in endings)
    if more:
        ended += f"<li>… and {more:,} more (compare --json lists every one)</li>"
    counters = [
        text.sentence(line)
        for line in result.engine.ruleset.describe_counters(result.state)
        or [
            f"{p}: " + (", ".join(f"{k} {v}" for k, v in sorted(result.state.counters.get(p, {}).items())) or "—")
            for p in result.state.players
        ]
    ]
    start = result.compiled.state
    moved = [
        f"{text(names.get(c.id, c.id))} {text(start.cards[c.id].zone)} → {text(c.zone)}"
        for c in result.state.cards.values()
        if start.cards[c.id].zone != c.zone
    ]
    end = f"<b>{text(result.outcome)}</b> · {' · '.join(counters)}"
    decisions = _decisions(result, text)
    if moved:
        end += "<br>moved: " + ", ".join(moved)
    return (
        f'<section class="game" data-game="{text(name)}"><h2>{text(info.title)} '
        f"<small>{text(name)}</small></h2>{notes}{because}{body}"
        f"{'<ul class=ended>' + ended + '</ul>' if ended else ''}"
        f'{decisions}<div class="end">{end}</div>{outcomes}</section>'
    )


def _structure(result: Resolution, names: dict[str, str], text: _Page) -> str:
    """The resolved effects as nested boxes, in resolution order (the first
    :data:`MAX_PAGE_EFFECTS` of them, as many as the memory bound leaves
    room for)."""
    # the trace streamed, never listed whole: a runaway loop's trace has millions of steps
    every = (step for step in result.trace if step.kind == "resolved")
    resolved = list(itertools.islice(every, MAX_PAGE_EFFECTS))
    if not resolved:
        return "<p>(nothing resolved)</p>"
    rest = sum(1 for _ in every)
    ids = {step.get("id") for step in resolved}
    deeds = _deeds(result, ids, names)
    more = f'<p class="note">… and {rest:,} more effects resolved (compare --json lists every one)</p>' if rest else ""
    why = {
        step.get("id"): step.get("rule")
        for step in result.trace
        if step.kind == "activated" and step.get("rule") and step.get("id") in ids
    }
    words = result.engine.ruleset.info.term  # the game's words: Yu-Gi-Oh!'s Chain and CL1, Magic's stack and #1
    chained = any(step.get("chain") for step in resolved)

    def tag(step: Any) -> str:
        if not chained:
            return _tag(step)
        return f"{words('chain_link_short')}{step.get('chain_link')}" if step.get("chain_link") else ""

    boxes: list[str] = []
    cut = None  # why the rest is not drawn (the memory bound), once it is reached
    for number, step in enumerate(resolved, 1):
        if cut := _cut_here(number):
            break
        boxes.append(_effect(number, step, names, tag(step), text, deeds, why))
    drawn = resolved[: len(boxes)]
    if chained:
        return _in_chains(drawn, boxes, words, text) + _cut_note(cut, text, more)
    term = words("depth")  # the game's name for how deep an effect was derived
    if term == "depth" or not any(step.get(term) is not None for step in drawn):
        inner = "".join(boxes)
        return f'<div class="box"><div class="label">in the order they resolved</div>{inner}</div>' + _cut_note(
            cut, text, more
        )
    return _in_depths(result, drawn, boxes, term) + _cut_note(cut, text, more)


def _in_chains(resolved: list[Any], boxes: list[str], words: Any, text: _Page) -> str:
    """Each effect's box inside its chain's box, with the chain's order."""
    out: list[str] = []
    current = None
    for step, box in zip(resolved, boxes, strict=True):
        chain = step.get("chain")
        if chain != current:
            if current is not None:
                out.append("</div>")
            if chain is not None:
                order = step.get("rule") or "resolves last in, first out"
                out.append(
                    f'<div class="box"><div class="label">{text(words("chain"))} {text(chain)} — '
                    f"{text.sentence(order)}</div>"
                )
            current = chain
        out.append(box)
    if current is not None:
        out.append("</div>")
    return "".join(out)


def _in_depths(result: Resolution, resolved: list[Any], boxes: list[str], term: str) -> str:
    """Each effect's box inside boxes as deep as it was derived (``term``:
    the game's name for it, Digimon's priority layers)."""
    out, depth = [], 0
    for step, box in zip(resolved, boxes, strict=True):
        want = max(int(step.get(term) or 1), 1)
        while depth < want:
            depth += 1
            out.append(f'<div class="box"><div class="label">{_depth_label(result, depth)}</div>')
        while depth > want:
            out.append("</div>")
            depth -= 1
        out.append(box)
    out.append("</div>" * depth)
    return "".join(out)


#: Effects drawn between two readings of the memory in use.
MEMORY_EVERY = 250


def _cut_here(number: int) -> str | None:
    """Why the effects from the ``number``-th on are not drawn: the memory
    bound is reached (read every :data:`MEMORY_EVERY` effects)."""
    return budget.exceeded() if number > 1 and number % MEMORY_EVERY == 1 else None


def _cut_note(cut: str | None, text: _Page, more: str) -> str:
    """What follows the drawn effects: that the rest is cut for memory, or
    how many more there are."""
    if cut is None:
        return more
    return f'<p class="note">… the rest is not drawn: {text.sentence(cut)} (compare --json lists every one)</p>'


def _depth_label(result: Resolution, depth: int) -> str:
    return html.escape(f"{result.engine.ruleset.info.term('depth')} {depth}")


def _tag(step: Any) -> str:
    """The game's own words about an effect (its details in the trace)."""
    return " · ".join(f"{k} {v}" for k, v in step.data if k not in SKIP_KEYS and v is not None)


def _effect(
    number: int,
    step: Any,
    names: dict[str, str],
    tag: str,
    text: _Page,
    deeds: dict[Any, list[str]],
    why: dict[Any, str],
) -> str:
    """One resolved effect's box: its key, the game's words about it, its
    card and controller, the rule that put it ahead of another waiting
    effect (``why``, by instance id) and what it did (``deeds``)."""
    key = str(step.get("effect"))
    card = key.split(".")[0]
    hue = int(hashlib.sha256(card.encode()).hexdigest()[:4], 16) % 360
    label = f' <span class="tag">{text.sentence(tag)}</span>' if tag else ""
    done = deeds.get(step.get("id"), [])
    did = (
        f'<br><small class="did">did: {text.sentence("; ".join(done))}</small>'
        if done
        else '<br><small class="did">did: nothing that changed the game</small>'
    )
    rule = why.get(step.get("id"))
    placed = f'<br><small class="why">why: {text.sentence(rule)}</small>' if rule else ""
    return (
        f'<div class="effect" style="--c: hsl({hue}, 65%, 45%)" data-effect="{text(key)}">'
        f'<span class="n">{number}.</span>{text(key)}{label}<br><small>{text(names.get(card, card))} · '
        f"{text(step.get('player'))}</small>{placed}{did}</div>"
    )


#: What an effect did, listed at most this many events, then "… N more".
MAX_DEEDS = 12


def _deeds(result: Resolution, ids: set[Any], names: dict[str, str]) -> dict[Any, list[str]]:
    """For each resolved effect instance in ``ids``: the events it caused,
    one short line each (a move, a counter, a flag), at most
    :data:`MAX_DEEDS` and then how many more."""
    out: dict[Any, list[str]] = {}
    counts: dict[Any, int] = {}
    for step in result.trace:
        cause = step.get("cause")
        if step.kind != "event" or cause not in ids:
            continue
        counts[cause] = counts.get(cause, 0) + 1
        if counts[cause] > MAX_DEEDS:
            continue
        card = step.get("card")
        what = f"{step.get('event')} {names.get(card, card)}" if card else str(step.get("event"))
        if step.get("to"):
            what += f" ({step.get('from') or '?'} → {step.get('to')})"
        elif step.get("counter"):
            what += f" {step.get('player')} {step.get('counter')} {step.get('amount')}"
        out.setdefault(cause, []).append(what)
    for cause, count in counts.items():
        if count > MAX_DEEDS:
            out[cause].append(f"… and {count - MAX_DEEDS:,} more")
    return out


def _position(scenario: Any, text: _Page) -> str:
    """The file's source and notes, whose turn it is, and the starting
    board: each player's cards, zone by zone, with their abilities' texts
    (the file's ``text``, else the ability as the file writes it)."""
    from ..games.meanings import flow

    data = scenario.data
    about = "".join(
        f'<p class="about"><b>{label}</b> {text.paragraphs(data[key])}</p>'
        for key, label in (("source", "Source:"), ("notes", "Notes:"), ("description", "About:"))
        if isinstance(data.get(key), str)
    )
    players = []
    for player in data["players"]:
        zones: dict[str, list[str]] = {}
        for card in itertools.islice((c for c in data["cards"] if c.get("owner") == player), MAX_PAGE_EFFECTS):
            stats = ", ".join(f"{k} {v}" for k, v in (card.get("stats") or {}).items())
            texts = "".join(
                f'<span class="text">{text.sentence(_ability_text(a, flow))}</span>'
                for a in card.get("abilities") or []
            )
            zones.setdefault(str(card.get("zone")), []).append(
                f'<div class="card" data-card="{text(card["id"])}"><b>{text(card.get("name", card["id"]))}</b>'
                f"{' · ' + text(stats) if stats else ''}{texts}</div>"
            )
        counted = sum(1 for c in data["cards"] if c.get("owner") == player)
        more = (
            f'<p class="note">… and {counted - MAX_PAGE_EFFECTS:,} more cards</p>' if counted > MAX_PAGE_EFFECTS else ""
        )
        counters = ", ".join(f"{k} {v}" for k, v in ((data.get("counters") or {}).get(player) or {}).items())
        body = "".join(f'<div class="zone">{text(zone)}</div>{"".join(cards)}' for zone, cards in zones.items())
        turn = " — whose turn it is" if player == data.get("turn_player") else ""
        players.append(
            f'<div class="player" data-player="{text(player)}"><h3>{text(player)}{turn}</h3>'
            f"{'<p class=note>' + text(counters) + '</p>' if counters else ''}{body or '<p>no cards</p>'}"
            f"{more}</div>"
        )
    return (
        f'<section class="position"><h2>The position</h2>{about}'
        f"<p>Turn player: <b>{text(data.get('turn_player'))}</b></p>"
        f'<div class="board">{"".join(players)}</div></section>\n'
    )


def _ability_text(ability: Any, flow: Any) -> str:
    """An ability's printed ``text``, else the ability as the file writes it."""
    if isinstance(ability, dict) and isinstance(ability.get("text"), str):
        return ability["text"]
    return flow({k: v for k, v in ability.items() if k != "id"}) if isinstance(ability, dict) else flow(ability)


def _decisions(result: Resolution, text: _Page) -> str:
    """Every decision taken: who chose what, out of which options (the
    first :data:`MAX_PAGE_EFFECTS`, then how many more)."""
    every = (step for step in result.trace if step.kind == "choice")  # streamed, as in _structure
    items = []
    for step in itertools.islice(every, MAX_PAGE_EFFECTS):
        shown = _options(step.get("options"))
        about = f" for {text(step.get('effect'))}" if step.get("effect") else ""
        items.append(
            f"<li>{text(step.get('player'))} chose <b>{text(step.get('label'))}</b> "
            f"({text(step.get('decision'))}{about}; options: {text.sentence(shown)})</li>"
        )
    if not items:
        return ""
    rest = sum(1 for _ in every)
    if rest:
        items.append(f"<li>… and {rest:,} more decisions (compare --json lists every one)</li>")
    return f'<div class="note">Decisions</div><ul class="decisions">{"".join(items)}</ul>'


def _options(options: Any) -> str:
    """A decision's options as the trace keeps them: their labels, the
    first 20 shown; or, for a decision of many options, only how many
    there were (the trace's ``options`` is then a number)."""
    if isinstance(options, int):
        return f"{options:,}, counted but not listed by the trace"
    labels = [str(o) for o in options or ()]
    return ", ".join(labels[:20]) + (f", … {len(labels) - 20:,} more" if len(labels) > 20 else "")
