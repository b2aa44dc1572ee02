"""Reading YAML and JSON safely, remembering where every key was written.

Scenario files are read with PyYAML's *safe* loader (no tags that build
objects) and JSON files with :mod:`json`; either way the result is plain
data plus a map from key paths to line numbers, so every later error can
say ``file:line: cards[2].abilities[0].when: …``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from attrs import field, frozen

from .errors import ScenarioError

__all__ = ["Source", "load_source", "parse_source", "format_path"]

Path_ = tuple[Any, ...]


def format_path(path: Sequence[Any]) -> str:
    """``("cards", 2, "when")`` → ``cards[2].when``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


@frozen
class Source:
    """Plain data read from a file, with the line of every key and item."""

    data: Any
    file: str
    lines: dict[Path_, int] = field(factory=dict)

    def line(self, path: Sequence[Any]) -> int | None:
        """The line of ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        while True:
            if path in self.lines:
                return self.lines[path]
            if not path:
                return None
            path = path[:-1]

    def error(self, path: Sequence[Any], message: str, options: Sequence[str] | None = None) -> ScenarioError:
        return ScenarioError(message, file=self.file, line=self.line(path),
                             path=format_path(path) or None, options=options)


_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")
#: Values a file may expand to: aliases (``*name``) can multiply a small file.
MAX_VALUES = 200_000


class _Budget:
    def __init__(self) -> None:
        self.left = MAX_VALUES
        self.open: set[int] = set()  # nodes being read: an alias back to one is a circle


def _walk(loader: yaml.SafeLoader, node: yaml.Node, path: Path_, lines: dict[Path_, int], file: str,
          budget: _Budget) -> Any:
    budget.left -= 1
    if budget.left < 0:
        raise ScenarioError(f"too large: more than {MAX_VALUES} values (are aliases multiplying it?)",
                            file=file, line=node.start_mark.line + 1, path=format_path(path) or None)
    if id(node) in budget.open:
        raise ScenarioError("an alias refers to the value that contains it", file=file,
                            line=node.start_mark.line + 1, path=format_path(path) or None)
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in _PLAIN_TAGS:
        raise ScenarioError(f"not valid YAML here: the tag {node.tag!r} is not allowed (scenario files "
                            "hold plain data only)", file=file, line=node.start_mark.line + 1,
                            path=format_path(path) or None)
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, (str, int, bool)) or isinstance(key, bool):
                raise ScenarioError(
                    f"a key must be a word, got {key!r}"
                    + (" (YAML reads yes/no/on/off as booleans: quote it)" if isinstance(key, bool) else ""),
                    file=file, line=key_node.start_mark.line + 1, path=format_path(path) or None,
                )
            key = str(key)
            if key in result:
                raise ScenarioError(f"duplicate key {key!r}", file=file,
                                    line=key_node.start_mark.line + 1, path=format_path(path) or None)
            lines[path + (key,)] = key_node.start_mark.line + 1
            budget.open.add(id(node))
            result[key] = _walk(loader, value_node, path + (key,), lines, file, budget)
            budget.open.discard(id(node))
        return result
    if isinstance(node, yaml.SequenceNode):
        budget.open.add(id(node))
        items = [_walk(loader, item, path + (i,), lines, file, budget) for i, item in enumerate(node.value)]
        budget.open.discard(id(node))
        return items
    return loader.construct_object(node, deep=True)


def _yaml(text: str, file: str) -> Source:
    lines: dict[Path_, int] = {}
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        data = None if node is None else _walk(loader, node, (), lines, file, _Budget())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(filter(None, [exc.context, exc.problem]))
        raise ScenarioError(f"not valid YAML: {problem}", file=file,
                            line=mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"not valid YAML: {exc}", file=file) from None
    except RecursionError:
        raise ScenarioError("nested too deeply", file=file) from None
    finally:
        loader.dispose()
    return Source(data, file, lines)


def parse_source(text: str, file: str = "<scenario>", *, kind: str | None = None) -> Source:
    """Read scenario text.  ``kind`` is ``json`` or ``yaml`` (default: by name)."""
    kind = kind or ("json" if file.endswith(".json") else "yaml")
    if kind == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScenarioError(f"not valid JSON: {exc.msg} (column {exc.colno})", file=file,
                                line=exc.lineno) from None
        try:  # JSON is YAML: borrow the YAML reader for line numbers only
            lines = _yaml(text, file).lines
        except ScenarioError:
            lines = {}
        return Source(data, file, lines)
    return _yaml(text, file)


def load_source(path: str | Path) -> Source:
    """Read a scenario file from disk (``.json``, or YAML otherwise)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError("no such file", file=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"cannot read the file: {exc}", file=str(path)) from None
    return parse_source(text, str(path))
