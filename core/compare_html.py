"""One self-contained HTML page for ``tcgtrig compare --html``.

The games are columns.  Each resolved effect is a box coloured by its card;
the game's own structure is drawn as nested boxes: chains and their links
for a chain game, derivation depth (Digimon's priority layers) otherwise,
with the game's class of each effect (the Duel Masters waiting pool's
classes) written on it.  Then what was lost, missed, failed or declined and
why, the end, and where the games part ways.  Inline CSS only: no script,
no network, readable in any browser.
"""

from __future__ import annotations

import hashlib
from html import escape
from typing import Any

from .compare import describe_difference, differences
from .render import SKIP_KEYS
from .resolution import Resolution

__all__ = ["comparison_html"]

ENDINGS = ("lost", "missed", "failed", "declined")

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
"""


def comparison_html(title: str, results: dict[str, Resolution | str]) -> str:
    """The page for ``results`` (game name → its resolution, or its error)."""
    columns = "".join(_column(name, result) for name, result in results.items())
    found = differences(results)
    parts = "".join(f"<li>{escape(describe_difference(d))}</li>" for d in found) or "<li>The games agree.</li>"
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{escape(title)} — tcgtrig compare</title><style>{STYLE}</style></head>\n<body>"
        f"<h1>{escape(title)}</h1>\n"
        f"<div class=\"games\" style=\"--n: {max(len(results), 1)}\">{columns}</div>\n"
        f"<section class=\"differences\"><h2>Where the games part ways</h2><ul>{parts}</ul></section>\n"
        "</body></html>\n"
    )


def _column(name: str, result: Resolution | str) -> str:
    if isinstance(result, str):
        return (f"<section class=\"game\" data-game=\"{escape(name)}\"><h2>{escape(name)}</h2>"
                f"<p class=\"error\">cannot resolve: {escape(result)}</p></section>")
    info = result.engine.ruleset.info
    names = {card.id: card.name for card in result.state.cards.values()}
    body = _structure(result, names)
    ended = "".join(
        f"<li>{escape(step.kind)} {escape(str(step.get('effect')))}"
        f"{': ' + escape(str(step.get('reason'))) if step.get('reason') else ''}</li>"
        for step in result.trace if step.kind in ENDINGS)
    counters = result.engine.ruleset.describe_counters(result.state) or [
        f"{p}: " + (", ".join(f"{k} {v}" for k, v in sorted(result.state.counters.get(p, {}).items())) or "—")
        for p in result.state.players]
    start = result.compiled.state
    moved = [f"{names.get(c.id, c.id)} {start.cards[c.id].zone} → {c.zone}" for c in result.state.cards.values()
             if start.cards[c.id].zone != c.zone]
    end = f"<b>{escape(result.outcome)}</b> · {escape(' · '.join(counters))}"
    if moved:
        end += "<br>moved: " + escape(", ".join(moved))
    return (f"<section class=\"game\" data-game=\"{escape(name)}\"><h2>{escape(info.title)} "
            f"<small>{escape(name)}</small></h2>{body}"
            f"{'<ul class=ended>' + ended + '</ul>' if ended else ''}<div class=\"end\">{end}</div></section>")


def _structure(result: Resolution, names: dict[str, str]) -> str:
    """The resolved effects as nested boxes, in resolution order."""
    resolved = [step for step in result.trace if step.kind == "resolved"]
    if not resolved:
        return "<p>(nothing resolved)</p>"
    if any(step.get("chain") for step in resolved):
        out, current = [], None
        for number, step in enumerate(resolved, 1):
            chain = step.get("chain")
            if chain != current:
                if current is not None:
                    out.append("</div>")
                if chain is not None:
                    out.append(f"<div class=\"box\"><div class=\"label\">chain {chain} — resolves last in, "
                               "first out</div>")
                current = chain
            link = f"CL{step.get('chain_link')}" if step.get("chain_link") else ""
            out.append(_effect(number, step, names, link))
        if current is not None:
            out.append("</div>")
        return "".join(out)
    term = result.engine.ruleset.info.term("depth")  # the game's name for how deep an effect was derived
    if term == "depth" or not any(step.get(term) is not None for step in resolved):
        inner = "".join(_effect(n, step, names, _tag(step)) for n, step in enumerate(resolved, 1))
        return f"<div class=\"box\"><div class=\"label\">in the order they resolved</div>{inner}</div>"
    out, depth = [], 0
    for number, step in enumerate(resolved, 1):
        want = max(int(step.get(term) or 1), 1)
        while depth < want:
            depth += 1
            out.append(f"<div class=\"box\"><div class=\"label\">{_depth_label(result, depth)}</div>")
        while depth > want:
            out.append("</div>")
            depth -= 1
        out.append(_effect(number, step, names, _tag(step)))
    out.append("</div>" * depth)
    return "".join(out)


def _depth_label(result: Resolution, depth: int) -> str:
    return escape(f"{result.engine.ruleset.info.term('depth')} {depth}")


def _tag(step: Any) -> str:
    """The game's own words about an effect (its details in the trace)."""
    return " · ".join(f"{k} {v}" for k, v in step.data if k not in SKIP_KEYS and v is not None)


def _effect(number: int, step: Any, names: dict[str, str], tag: str) -> str:
    key = str(step.get("effect"))
    card = key.split(".")[0]
    hue = int(hashlib.sha256(card.encode()).hexdigest()[:4], 16) % 360
    label = f" <span class=\"tag\">{escape(tag)}</span>" if tag else ""
    return (f"<div class=\"effect\" style=\"--c: hsl({hue}, 65%, 45%)\" data-effect=\"{escape(key)}\">"
            f"<span class=\"n\">{number}.</span>{escape(key)}{label}<br><small>{escape(names.get(card, card))} · "
            f"{escape(str(step.get('player')))}</small></div>")
