"""A :class:`Reading` shown to a user: scenario YAML with each part under
the printed words it came from (``tcgtrig read``), or plain data (``--json``)."""

from __future__ import annotations

from typing import Any

import yaml

from .reading import ReadAbility, Reading, ability_ids, in_key_order


def reading_to_data(reading: Reading) -> dict[str, Any]:
    """The reading as plain data: each part (an ability with its ``id``, or
    words read as no ability and why), the words not read, and whether the
    text read whole."""
    ids = iter(ability_ids([part.name for part in reading.abilities]))
    parts: list[dict[str, Any]] = []
    for part in reading.parts:
        if isinstance(part, ReadAbility):
            entry: dict[str, Any] = {"words": part.words, "ability": in_key_order({"id": next(ids), **part.data})}
            if part.unread:
                entry["unread"] = list(part.unread)
            parts.append(entry)
        else:
            parts.append({"words": part.words, "skipped": part.why})
    return {
        "game": reading.game,
        "text": reading.text,
        "whole": reading.whole,
        "parts": parts,
        "unread": list(reading.unread),
    }


def reading_to_yaml(reading: Reading) -> str:
    """The abilities read, as YAML to paste under a card's ``abilities:``,
    each under a comment quoting its printed words; words read as no
    ability and words not read are comments too."""
    out: list[str] = []
    for part in reading_to_data(reading)["parts"]:
        out.append(_comment(part["words"]))
        if "skipped" in part:
            out.append(f"#   (read as no ability: {part['skipped']})")
            continue
        dumped = yaml.safe_dump(
            [part["ability"]], sort_keys=False, default_flow_style=None, allow_unicode=True, width=100
        )
        out.append(dumped.rstrip("\n"))
        for words in part.get("unread", ()):
            out.append(_comment(words, "#   NOT READ: "))
    for words in reading.unread:
        out.append(_comment(words, "# NOT READ: "))
    return "\n".join(out) + "\n"


def _comment(words: str, lead: str = "# ") -> str:
    return "\n".join(
        lead + line if number == 0 else "#   " + line for number, line in enumerate(words.splitlines() or [""])
    )
