"""Public card lists, read into plain cards for the reading benchmark.

The repository ships no card database: the user gives the list's file or
folder (see ``benchmarks/README.md``).  Each loader yields
:class:`PrintedCard`: an id, a name, the card's types as a scenario file
gives them, and its printed text as the game's reader takes it.

Which cards "have a triggered effect" is decided here, from the printed
words alone (:data:`TRIGGER_MARKERS`), never by the reader being measured:
a card the reader fails on still counts against it.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from attrs import frozen


@frozen
class PrintedCard:
    id: str
    name: str
    types: tuple[str, ...]
    text: str


# -- Digimon: aegis-digimon-tcg, packages/shared/src/cards/data/cards.json ----


def digimon(path: Path) -> Iterator[PrintedCard]:
    """Each card's main text, its security text, and its inherited effect
    under the official card list's heading ``Inherited Effect:``."""
    for card in json.loads(path.read_text(encoding="utf-8")):
        lines = [card.get("effectText") or ""]
        security = card.get("securityEffectText") or ""
        if security and security.strip() not in lines[0]:
            lines.append(security)
        inherited = (card.get("inheritedEffectText") or "").strip()
        if inherited:
            lines.append(f"Inherited Effect: {inherited}")
        text = "\n".join(line for line in lines if line.strip())
        if text:
            kinds = [kind.lower().replace("digiegg", "digiegg") for kind in card.get("kinds") or []]
            yield PrintedCard(card["cardId"], card.get("nameEn", card["cardId"]), tuple(kinds), text)


# -- Yu-Gi-Oh!: yaml-yugi data/cards/*.yaml, a JSON list of them, or BabelCDB cards.cdb --


def _ygo_types(card_type: str, prop: str | None, type_line: str | None) -> tuple[str, ...]:
    kind = card_type.lower()
    if kind == "monster":
        extra = [word.strip().lower().replace("-", "_") for word in (type_line or "").split("/")[1:]]
        return ("monster", *extra)
    words = (prop or "normal").lower().replace("-", "_")
    return (kind, words) if words != "normal" else (kind,)


def yugioh(path: Path) -> Iterator[PrintedCard]:
    """yaml-yugi (a folder of YAML files, or a JSON list of their fields),
    or BabelCDB's ``cards.cdb``."""
    if path.suffix == ".cdb":
        yield from _babel(path)
        return
    if path.is_dir():
        import yaml

        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        records: list[dict[str, Any]] = []
        for file in sorted(path.glob("*.yaml")):
            data = yaml.load(file.read_text(encoding="utf-8"), Loader=loader)
            records.append(
                {
                    "password": data.get("password") or data.get("konami_id"),
                    "name": (data.get("name") or {}).get("en"),
                    "text": (data.get("text") or {}).get("en"),
                    "card_type": data.get("card_type"),
                    "property": data.get("property"),
                    "monster_type_line": data.get("monster_type_line"),
                }
            )
    else:
        records = json.loads(path.read_text(encoding="utf-8"))
    for record in records:
        if record.get("text") and record.get("card_type"):
            types = _ygo_types(record["card_type"], record.get("property"), record.get("monster_type_line"))
            key = str(record.get("password") or record.get("konami_id") or record["name"])
            yield PrintedCard(key, record["name"] or key, types, record["text"])


#: BabelCDB's type bits (EDOPro's card database), as scenario types
_BABEL_TYPES = {
    0x1: "monster",
    0x2: "spell",
    0x4: "trap",
    0x20: "effect",
    0x10000: "quick_play",
    0x20000: "continuous",
    0x40000: "equip",
    0x80000: "field",
    0x100000: "counter",
    0x80: "ritual",
}


def _babel(path: Path) -> Iterator[PrintedCard]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT datas.id, texts.name, texts.desc, datas.type FROM datas JOIN texts USING (id)")
        for key, name, desc, bits in rows:
            types = tuple(word for bit, word in _BABEL_TYPES.items() if bits & bit)
            if desc:
                yield PrintedCard(str(key), name, types, desc)


# -- Duel Masters: Latepate64/duel-masters-json DuelMastersCards.json (English) --
# -- and super-pylori/duel-masters-cardlist src/assets/data.json (Japanese) ----


def _mojibake(text: str) -> str:
    """duel-masters-json holds some UTF-8 read as cp1252 ("Evolutionâ€"Put"):
    undone where it was."""
    if "â" not in text:
        return text
    try:
        return text.encode("cp1252").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text.replace('â€"', "—").replace("â€”", "—")


def duelmasters(path: Path) -> Iterator[PrintedCard]:
    """The English list (``{"cards": [{name, text, type, supertypes}]}``)
    or the Japanese one (``{"data": [{cardname, ability, type}]}``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, dict) and "data" in data:
        yield from _duelmasters_ja(data["data"])
        return
    for card in data["cards"] if isinstance(data, dict) else data:
        if card.get("text"):
            kind = (card.get("type") or "").lower()
            evolution = "evolution" in kind or "Evolution" in (card.get("supertypes") or [])
            types = ("creature", "evolution") if evolution else (kind.split()[-1] if kind else "",)
            name = _mojibake(card["name"])
            yield PrintedCard(name, name, tuple(t for t in types if t), _mojibake(card["text"]))


def _dm_types_ja(kind: str) -> tuple[str, ...]:
    """The Japanese list's card type (クリーチャー, 呪文, 進化クリーチャー(…), クロスギア…) as scenario types."""
    if "呪文" in kind:
        return ("spell",)
    if "クリーチャー" in kind:
        return ("creature", "evolution") if kind.startswith("進化") else ("creature",)
    return (kind,) if kind else ()


def _duelmasters_ja(cards: list[dict[str, Any]]) -> Iterator[PrintedCard]:
    for card in cards:
        text = (card.get("ability") or "").replace("\\n", "\n")
        if text.strip():
            types = _dm_types_ja(card.get("type") or "")
            key = f"{card.get('packid', '')} {card.get('packnum', '')}".strip() or card["cardname"]
            yield PrintedCard(key, card["cardname"], tuple(t for t in types if t), text)


# -- Magic: Forge's forge-gui/res/cardsfolder (Oracle: lines) ----------------


def magic(path: Path) -> Iterator[PrintedCard]:
    """Forge card scripts (``Name:``, ``Types:``, ``Oracle:`` lines), a folder
    of them searched recursively: Forge's cardsfolder, or files written in
    its format.  The card's own name in its text (and a legend's short name,
    before the comma) becomes ``CARDNAME``, Forge's word for it: the reader
    is not given the name."""
    files = sorted(path.rglob("*.txt")) if path.is_dir() else [path]
    for file in files:
        fields = dict(line.split(":", 1) for line in file.read_text(encoding="utf-8").splitlines() if ":" in line[:20])
        oracle = fields.get("Oracle", "").strip().replace("\\n", "\n")
        if oracle:
            name = fields.get("Name", file.stem).strip()
            for self_name in (name, name.split(",")[0]):
                oracle = re.sub(rf"\b{re.escape(self_name)}\b", "CARDNAME", oracle)
            types = tuple(word.lower() for word in fields.get("Types", "").split() if word[:1].isupper())
            yield PrintedCard(file.stem, name, types, oracle)


# -- Lorcana: LorcanaJSON's allCards.json -----------------------------------


def lorcana(path: Path) -> Iterator[PrintedCard]:
    """LorcanaJSON's ``allCards.json`` (``{"cards": [...]}`` with ``fullText``
    or ``abilities``), or a list of the same fields: TheCardGoat/tcg-engines'
    Lorcana cards (``src/cards/NNN/*/*.ts``: name, version, cardType, each
    ability's title and description a line) extracted into that shape.  The
    card's type comes from ``type`` or ``cardType``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for card in data.get("cards", data) if isinstance(data, dict) else data:
        text = card.get("fullText") or "\n".join(card.get("abilities") or [])
        if text:
            name = " - ".join(part for part in (card.get("name"), card.get("version")) if part)
            kind = str(card.get("type") or card.get("cardType") or "").lower()
            yield PrintedCard(str(card.get("id", name)), name, (kind,), text)


LOADERS = {"digimon": digimon, "yugioh": yugioh, "duelmasters": duelmasters, "magic": magic, "lorcana": lorcana}

#: Printed words that mark a triggered effect, per game (the benchmark's
#: denominator: cards holding one of them).  Matched case-sensitively.
TRIGGER_MARKERS: dict[str, re.Pattern[str]] = {
    "digimon": re.compile(
        r"\[(On Play|When Digivolving|When Attacking|On Deletion|End of Attack|Security|"
        r"Start of (Your|Opponent's|All) Turns?|End of (Your|Opponent's|All) Turns?|Start of Your Main Phase)\]"
        r"|\bWhen(ever)?\b"
    ),
    "yugioh": re.compile(r"(^|[.:;)] ?)(When|If)\b[^:]*:|During (the|each|your|your opponent's) [^:]*Phase[^:]*:"),
    # a trigger's words inside reminder text (Blocker's "(Whenever an opponent's creature attacks, …)",
    # W・ブレイカー's 「(シールドを攻撃したとき、…)」) are no triggered effect: a match must not be
    # followed by a closing parenthesis before an opening one.  The first sets print 「出たとき、」 and
    # S(シールド)・トリガー; the English list writes "Shield trigger".  「マナゾーンに置く時、このカードはタップして
    # 置く」 is the multicolored cards' rule, printed without parentheses.
    "duelmasters": re.compile(
        r"(\b(When|Whenever|At the (start|end) of)\b"
        r"|(?<!マナゾーンに置く)(時|とき)[、,]|ターンの(終わり|はじめ)に)(?![^()（）]*[)）])"
        r"|Shield [Tt]rigger|S(\(シールド\))?・トリガー"
    ),
    "magic": re.compile(r"\b(When|Whenever|At the beginning of)\b"),
    "lorcana": re.compile(r"\b(When|Whenever|At the (start|end) of)\b"),
}


def has_trigger(game: str, text: str) -> bool:
    """Whether the printed text holds a triggered effect, by its words."""
    return TRIGGER_MARKERS[game].search(text) is not None


def load(game: str, path: str | Path) -> list[PrintedCard]:
    """Every card of ``game`` in the list at ``path``, in the list's order."""
    return list(LOADERS[game](Path(path)))
