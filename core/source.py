"""Reading YAML and JSON safely, remembering where every key was written.

Scenario files are read with PyYAML's *safe* loader (no tags that build
objects; libyaml's C parser where it is installed) and JSON files with
:mod:`json`; either way the result is plain data plus a map from key paths
to line numbers, so every later error can say
``file:line: cards[2].abilities[0].when: …``.  JSON line numbers are worked
out only when an error needs one.

Whatever the bytes, reading ends with data or one :class:`ScenarioError`:
input is capped at :data:`MAX_BYTES`, must be UTF-8 text without control
characters, may nest at most :data:`MAX_DEPTH` levels, and YAML aliases
may not multiply a file beyond :data:`MAX_ALIAS_VALUES` extra values.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import yaml
from attrs import field, frozen

from .errors import ScenarioError

__all__ = ["Source", "load_source", "parse_source", "read_limited", "format_path", "MAX_BYTES", "MAX_DEPTH"]

Path_ = tuple[Any, ...]

#: Bytes a scenario file may have; ``--max-bytes`` (or the environment
#: variable ``TCGTRIG_MAX_BYTES``) raises it.  A 100,000-card file is about
#: 15 MB of JSON.
def _limit_from_environment(default: int = 100 * 1024 * 1024) -> int:
    value = os.environ.get("TCGTRIG_MAX_BYTES", "").strip().replace("_", "")
    return int(value) if value.isdigit() and int(value) > 0 else default


DEFAULT_MAX_BYTES = _limit_from_environment()
MAX_BYTES = DEFAULT_MAX_BYTES
#: Levels of nesting a file may have (the deepest bundled file has 12).
MAX_DEPTH = 100
#: Values YAML aliases (``*name``) may add to a file by repeating what they
#: name: a file is as large as it is written, not as its aliases make it.
MAX_ALIAS_VALUES = 100_000

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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
    """Plain data read from a file, with the line of every key and item.

    ``lines`` is the map from key paths to lines, or a function that works
    it out when it is first needed.
    """

    data: Any
    file: str
    _lines: dict[Path_, int] | Callable[[], dict[Path_, int]] = field(factory=dict, alias="lines")
    _cache: dict[str, dict[Path_, int]] = field(factory=dict, eq=False, repr=False, init=False)

    @property
    def lines(self) -> dict[Path_, int]:
        if callable(self._lines):
            if "lines" not in self._cache:
                self._cache["lines"] = self._lines()
            return self._cache["lines"]
        return self._lines

    def line(self, path: Sequence[Any]) -> int | None:
        """The line of ``path``, or of its nearest ancestor that has one."""
        lines = self.lines
        path = tuple(path)
        while True:
            if path in lines:
                return lines[path]
            if not path:
                return None
            path = path[:-1]

    def error(self, path: Sequence[Any], message: str, options: Sequence[str] | None = None) -> ScenarioError:
        return ScenarioError(message, file=self.file, line=self.line(path),
                             path=format_path(path) or None, options=options)


# ---------------------------------------------------------------------------
# Bytes to text
# ---------------------------------------------------------------------------


def read_limited(stream: IO[bytes], file: str, max_bytes: int | None = None) -> str:
    """Read at most ``max_bytes`` (default :data:`MAX_BYTES`) from a binary
    stream and decode them as scenario text."""
    limit = MAX_BYTES if max_bytes is None else max_bytes
    raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise ScenarioError(f"larger than the limit of {_size(limit)} (a scenario file is text of a few KB; "
                            "--max-bytes or TCGTRIG_MAX_BYTES raises the limit)", file=file)
    return decode(raw, file)


def decode(raw: bytes, file: str) -> str:
    """UTF-8 bytes to text, refusing what no scenario file holds."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ScenarioError(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at byte {exc.start} cannot be read "
                            "(save the file as UTF-8)", file=file, line=line) from None
    check_text(text, file)
    return text


def check_text(text: str, file: str) -> None:
    """Refuse control characters: a binary file (an archive, an image) or a
    pasted escape, never scenario text."""
    found = _CONTROL.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        column = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
        raise ScenarioError(f"a control character U+{ord(found.group()):04X} at column {column}: a scenario file "
                            "is plain text (is this a binary file?)", file=file, line=line)


def _size(count: int) -> str:
    return f"{count / 1024 / 1024:g} MB" if count >= 1024 * 1024 else f"{count:,} bytes"


# ---------------------------------------------------------------------------
# Text to data
# ---------------------------------------------------------------------------


def _measure(root: yaml.Node, file: str) -> None:
    """Without recursion: refuse nesting deeper than :data:`MAX_DEPTH`, an
    alias inside what it names, and aliases that multiply the file."""
    written: set[int] = set()  # distinct nodes
    expanded = 0  # values once every alias is repeated out
    open_nodes: set[int] = set()  # the nodes being walked: an alias back to one is a circle
    sizes: dict[int, int] = {}  # expanded size of each finished node
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        children = _children(node)
        if done:
            open_nodes.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in children)
            continue
        if key in open_nodes:
            raise ScenarioError("an alias refers to the value that contains it", file=file,
                                line=node.start_mark.line + 1)
        if depth > MAX_DEPTH:
            raise ScenarioError(f"nested more than {MAX_DEPTH} levels deep", file=file,
                                line=node.start_mark.line + 1)
        if key in sizes:  # written once, named again by an alias
            expanded += sizes[key]
            if expanded - len(written) > MAX_ALIAS_VALUES:
                raise ScenarioError(f"aliases repeat values more than {MAX_ALIAS_VALUES:,} times over (an alias "
                                    "bomb?): write the values out", file=file, line=node.start_mark.line + 1)
            continue
        written.add(key)
        expanded += 1
        if children:
            open_nodes.add(key)
            stack.append((node, depth, True))
            stack.extend((child, depth + 1, False) for child in reversed(children))
        else:
            sizes[key] = 1


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


class _Builder:
    """Plain data and line numbers from measured nodes (depth is bounded, so
    recursion here is bounded too)."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.lines: dict[Path_, int] = {}
        self.constructor = yaml.constructor.SafeConstructor()

    def build(self, node: yaml.Node, path: Path_) -> Any:
        self.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in _PLAIN_TAGS:
            raise ScenarioError(f"not valid YAML here: the tag {node.tag!r} is not allowed (scenario files "
                                "hold plain data only)", file=self.file, line=node.start_mark.line + 1,
                                path=format_path(path) or None)
        if isinstance(node, yaml.MappingNode):
            self.constructor.flatten_mapping(node)
            result: dict[str, Any] = {}
            for key_node, value_node in node.value:
                key = self.key(key_node, path)
                if key in result:
                    raise ScenarioError(f"duplicate key {key!r}", file=self.file,
                                        line=key_node.start_mark.line + 1, path=format_path(path) or None)
                self.lines[path + (key,)] = key_node.start_mark.line + 1
                result[key] = self.build(value_node, path + (key,))
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        return self.constructor.construct_object(node, deep=True)

    def key(self, node: yaml.Node, path: Path_) -> str:
        key = self.constructor.construct_object(node, deep=True) if isinstance(node, yaml.ScalarNode) else node
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            shown = "a mapping or a list" if isinstance(key, yaml.Node) else repr(key)
            raise ScenarioError(
                f"a key must be a word, got {shown}"
                + (" (YAML reads yes/no/on/off as booleans: quote it)" if isinstance(key, bool) else ""),
                file=self.file, line=node.start_mark.line + 1, path=format_path(path) or None,
            )
        return str(key)


def _yaml(text: str, file: str) -> Source:
    check_text(text, file)
    try:
        node = yaml.compose(text, Loader=_Loader)
        if node is None:
            return Source(None, file, {})
        _measure(node, file)
        builder = _Builder(file)
        data = builder.build(node, ())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(filter(None, [exc.context, exc.problem]))
        raise ScenarioError(f"not valid YAML: {problem}", file=file,
                            line=mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"not valid YAML: {exc}", file=file) from None
    except ValueError:  # an integer too long to read
        raise ScenarioError("a number with thousands of digits: no card game counts that far", file=file) from None
    except RecursionError:  # pragma: no cover - the depth is measured first
        raise ScenarioError("nested too deeply", file=file) from None
    return Source(data, file, builder.lines)


def _json_lines(text: str, file: str) -> Callable[[], dict[Path_, int]]:
    def lines() -> dict[Path_, int]:
        try:  # JSON is YAML: borrow the YAML reader for line numbers
            return _yaml(text, file).lines
        except ScenarioError:
            return {}
    return lines


class _DuplicateKey(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        raise _DuplicateKey(next(key for key, _ in pairs if key in seen or seen.add(key)))  # type: ignore[func-returns-value]
    return result


def _json_depth(data: Any, file: str) -> None:
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ScenarioError(f"nested more than {MAX_DEPTH} levels deep", file=file)
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)


def parse_source(text: str, file: str = "<scenario>", *, kind: str | None = None) -> Source:
    """Read scenario text.  ``kind`` is ``json`` or ``yaml`` (default: by name)."""
    kind = kind or ("json" if file.endswith(".json") else "yaml")
    if len(text) > MAX_BYTES:
        raise ScenarioError(f"larger than the limit of {_size(MAX_BYTES)} (--max-bytes or TCGTRIG_MAX_BYTES "
                            "raises the limit)", file=file)
    if kind == "json":
        check_text(text, file)
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicates)
        except json.JSONDecodeError as exc:
            raise ScenarioError(f"not valid JSON: {exc.msg} (column {exc.colno})", file=file,
                                line=exc.lineno) from None
        except RecursionError:
            raise ScenarioError(f"nested more than {MAX_DEPTH} levels deep", file=file) from None
        except _DuplicateKey as exc:
            _yaml(text, file)  # the YAML reader says where: "duplicate key" with its line
            raise ScenarioError(f"duplicate key {exc.args[0]!r}", file=file) from None
        except ValueError:  # an integer too long to read
            raise ScenarioError("a number with thousands of digits: no card game counts that far",
                                file=file) from None
        _json_depth(data, file)
        return Source(data, file, _json_lines(text, file))
    return _yaml(text, file)


def load_source(path: str | Path, *, max_bytes: int | None = None) -> Source:
    """Read a scenario file from disk (``.json``, or YAML otherwise)."""
    path = Path(path)
    try:
        with path.open("rb") as stream:
            text = read_limited(stream, str(path), max_bytes)
    except FileNotFoundError:
        raise ScenarioError("no such file", file=str(path)) from None
    except IsADirectoryError:
        raise ScenarioError("a directory, not a scenario file", file=str(path)) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read the file: {exc.strerror or exc}", file=str(path)) from None
    return parse_source(text, str(path))
