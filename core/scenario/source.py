"""Reading YAML and JSON safely, remembering where every key was written.

Scenario files are read with PyYAML's *safe* loader (no tags that build
objects; libyaml's C parser where it is installed), its plain scalars
resolved as YAML 1.2 does and merge keys applied (:func:`_loader`,
:meth:`_Builder.pairs`), and JSON files with
:mod:`json`; either way the result is plain data plus a map from key paths
to line numbers, so every later error can say
``file:line: cards[2].abilities[0].when: …``.  Line numbers are worked out
only when an error or a warning needs one (see "Text to data" below).

Whatever the bytes, reading ends with data or one :class:`ScenarioError`:
input is capped at :data:`MAX_BYTES`, must be UTF-8 text without control
characters, may nest at most :data:`MAX_DEPTH` levels, and YAML aliases
may not multiply a file beyond :data:`MAX_ALIAS_VALUES` extra values.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from attrs import field

from ..base.errors import ScenarioError
from .input_size import DEFAULT_MAX_BYTES, parse_max_bytes

if TYPE_CHECKING:
    from attrs import frozen  # what the type checkers' attrs support reads
else:
    from ..base.prebuilt import frozen  # attrs.frozen, the methods compiled ahead of time

if TYPE_CHECKING:
    import yaml

__all__ = [
    "Source",
    "load_source",
    "parse_source",
    "read_limited",
    "format_path",
    "parse_max_bytes",
    "MAX_BYTES",
    "MAX_DEPTH",
]

Path_ = tuple[Any, ...]


#: Bytes a scenario file may have now (the command line's ``--max-bytes`` sets it).
MAX_BYTES = DEFAULT_MAX_BYTES
#: Levels of nesting a file may have (the deepest bundled file has 12).
MAX_DEPTH = 100
#: Values YAML aliases (``*name``) may add to a file by repeating what they
#: name: a file is as large as it is written, not as its aliases make it.
MAX_ALIAS_VALUES = 100_000

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")
_MERGE_TAG = "tag:yaml.org,2002:merge"


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
    #: data put in place of what the file wrote (abilities read from a
    #: card's printed text): its path → the written path whose line it takes
    moved: dict[Path_, Path_] = field(factory=dict, eq=False, repr=False, init=False)

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
        if self.moved:
            path = self._written(path)
        while True:
            if path in lines:
                return lines[path]
            if not path:
                return None
            path = path[:-1]

    def _written(self, path: Path_) -> Path_:
        """The path the file wrote for ``path`` (see :attr:`moved`)."""
        for end in range(len(path), 0, -1):
            written = self.moved.get(path[:end])
            if written is not None:
                return written
        return path

    def error(self, path: Sequence[Any], message: str, options: Sequence[str] | None = None) -> ScenarioError:
        return ScenarioError(
            message, file=self.file, line=self.line(path), path=format_path(path) or None, options=options
        )


# ---------------------------------------------------------------------------
# Bytes to text
# ---------------------------------------------------------------------------


def read_limited(stream: IO[bytes], file: str, max_bytes: int | None = None) -> str:
    """Read at most ``max_bytes`` (default :data:`MAX_BYTES`) from a binary
    stream and decode them as scenario text."""
    limit = MAX_BYTES if max_bytes is None else max_bytes
    raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise ScenarioError(
            f"larger than the limit of {_size(limit)} (a scenario file is text of a few KB; "
            "--max-bytes or TCGTRIG_MAX_BYTES raises the limit)",
            file=file,
        )
    return decode(raw, file)


def decode(raw: bytes, file: str) -> str:
    """UTF-8 bytes to text, refusing what no scenario file holds."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ScenarioError(
            f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at byte {exc.start} cannot be read (save the file as UTF-8)",
            file=file,
            line=line,
        ) from None
    check_text(text, file)
    return text


def check_text(text: str, file: str) -> None:
    """Refuse control characters: a binary file (an archive, an image) or a
    pasted escape, never scenario text."""
    found = _CONTROL.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        column = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
        raise ScenarioError(
            f"a control character U+{ord(found.group()):04X} at column {column}: a scenario file "
            "is plain text (is this a binary file?)",
            file=file,
            line=line,
        )


def _size(count: int) -> str:
    return f"{count / 1024 / 1024:g} MB" if count >= 1024 * 1024 else f"{count:,} bytes"


# ---------------------------------------------------------------------------
# Text to data
# ---------------------------------------------------------------------------
#
# YAML is read twice over, in a sense.  The *quick* reader turns libyaml's
# events straight into plain data: no node tree, no line map.  It takes only
# what it is sure of — untagged, unanchored values, word or number keys met
# once, strings, numbers, booleans and nulls, nesting well within the limit —
# and hands anything else (a tag, an alias, a merge key, a duplicate key, a
# syntax error, …) to the *careful* reader: compose the node tree, measure it,
# build the data with every line.  So the careful reader alone decides every
# error, and it works out the line map of a file the quick reader took only
# when an error or a warning needs a line.


class _Unusual(Exception):
    """The quick reader met something it leaves to the careful one."""


def _careful_yaml(text: str, file: str) -> Source:
    """Data and line map through PyYAML's node tree; every error is raised here."""
    import yaml

    try:
        node = yaml.compose(text, Loader=_loader())
        if node is None:
            return Source(None, file, {})
        _measure(node, file)
        builder = _Builder(file)
        data = builder.build(node, ())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = " ".join(filter(None, [exc.context, exc.problem]))
        raise ScenarioError(f"not valid YAML: {problem}", file=file, line=mark.line + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(f"not valid YAML: {exc}", file=file) from None
    except ValueError:  # an integer too long to read
        raise ScenarioError("a number with thousands of digits: no card game counts that far", file=file) from None
    except RecursionError:  # pragma: no cover - the depth is measured first
        raise ScenarioError("nested too deeply", file=file) from None
    return Source(data, file, builder.lines)


#: How YAML 1.2's core schema reads a plain scalar (YAML 1.2.2, 10.3.2), and
#: the merge key ``<<`` besides: (tag, pattern, first characters).
_CORE_SCHEMA = (
    ("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", list("tTfF")),
    ("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", list("-+0123456789")),
    (
        "tag:yaml.org,2002:float",
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        list("-+.0123456789"),
    ),
    ("tag:yaml.org,2002:merge", r"^<<$", ["<"]),
)
_INT = re.compile(r"[-+]?(?:[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)")


@functools.cache
def _loader() -> Any:
    """libyaml's safe loader where it is installed, PyYAML's own otherwise,
    reading plain scalars as YAML 1.2 does (issue 37 item 33): PyYAML
    implements YAML 1.1, which reads ``010`` as 8, ``1:30`` as 90, ``yes``
    and ``off`` as booleans and ``2001-12-14`` as a date.  In YAML 1.2
    (its core schema) ``010`` is 10 and the others are the text written."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader: Any = type("Yaml12Loader", (base,), {"yaml_implicit_resolvers": {}})
    for tag, pattern, first in _CORE_SCHEMA:
        loader.add_implicit_resolver(tag, re.compile(pattern), first)
    return loader


@functools.cache
def _constructor_class() -> Any:
    """PyYAML's safe constructor with YAML 1.2's integers: ``010`` is ten
    (YAML 1.1: eight), ``0o17`` octal, ``0x1F`` hexadecimal; no ``0b``,
    ``1_000`` or ``1:30`` (read as text unless tagged ``!!int``, which
    refuses them)."""
    import yaml

    def construct_int(self: Any, node: Any) -> int:
        text = str(self.construct_scalar(node))
        if _INT.fullmatch(text) is None:
            raise yaml.constructor.ConstructorError(
                None, None, f"{text!r} is not a YAML 1.2 integer (12, -3, 0o17, 0x1F)", node.start_mark
            )
        digits = text.lstrip("+-")
        sign = -1 if text.startswith("-") else 1
        if digits.startswith(("0o", "0x")):
            return sign * int(digits[2:], 8 if digits[1] == "o" else 16)
        return sign * int(digits)

    constructor: Any = type("Yaml12Constructor", (yaml.constructor.SafeConstructor,), {})
    constructor.add_constructor("tag:yaml.org,2002:int", construct_int)
    return constructor


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
            raise ScenarioError(
                "an alias refers to the value that contains it", file=file, line=node.start_mark.line + 1
            )
        if depth > MAX_DEPTH:
            raise ScenarioError(f"nested more than {MAX_DEPTH} levels deep", file=file, line=node.start_mark.line + 1)
        if key in sizes:  # written once, named again by an alias
            expanded += sizes[key]
            if expanded - len(written) > MAX_ALIAS_VALUES:
                raise ScenarioError(
                    f"aliases repeat values more than {MAX_ALIAS_VALUES:,} times over (an alias "
                    "bomb?): write the values out",
                    file=file,
                    line=node.start_mark.line + 1,
                )
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
    import yaml

    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


class _Builder:
    """Plain data and line numbers from measured nodes (depth is bounded, so
    recursion here is bounded too)."""

    def __init__(self, file: str) -> None:
        import yaml

        self.yaml = yaml
        self.file = file
        self.lines: dict[Path_, int] = {}
        self.constructor = _constructor_class()()
        self.merged: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] = {}  # id of a mapping node → its entries

    def build(self, node: yaml.Node, path: Path_) -> Any:
        yaml = self.yaml
        self.lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag not in _PLAIN_TAGS:
            raise ScenarioError(
                f"not valid YAML here: the tag {node.tag!r} is not allowed (scenario files hold plain data only)",
                file=self.file,
                line=node.start_mark.line + 1,
                path=format_path(path) or None,
            )
        if isinstance(node, yaml.MappingNode):
            result: dict[str, Any] = {}
            for key, (key_node, value_node) in self.pairs(node, path).items():
                self.lines[path + (key,)] = key_node.start_mark.line + 1
                result[key] = self.build(value_node, path + (key,))
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        return self.constructor.construct_object(node, deep=True)

    def pairs(self, node: yaml.MappingNode, path: Path_) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        """The entries of a mapping: the ones a merge key (``<<: *base``,
        ``<<: [*a, *b]``) brings in, where the mapping does not write the key
        itself (the first mapping named wins), then its own (issue 37 item
        30).  A key written twice is refused, ``<<`` too.  Kept per node: a
        mapping merged again (an anchor named further down) is not walked
        again, so a chain of merges is read in the file's order, without
        recursion down the chain."""
        found = self.merged.get(id(node))
        if found is not None:
            return found
        merged: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        own: dict[str, tuple[yaml.Node, yaml.Node]] = {}
        merge_seen = False
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                if merge_seen:
                    raise self.duplicate("<<", key_node, path)
                merge_seen = True
                for source in self.merge_sources(key_node, value_node, path):
                    for key, pair in self.pairs(source, path).items():
                        merged.setdefault(key, pair)
                continue
            key = self.key(key_node, path)
            if key in own:
                raise self.duplicate(key, key_node, path)
            own[key] = (key_node, value_node)
        pairs = {key: pair for key, pair in merged.items() if key not in own} | own if merged else own
        self.merged[id(node)] = pairs
        return pairs

    def merge_sources(self, key: yaml.Node, node: yaml.Node, path: Path_) -> list[yaml.MappingNode]:
        """The mappings a merge key names: one, or a list of them."""
        yaml = self.yaml
        named = node.value if isinstance(node, yaml.SequenceNode) else [node]
        sources = [source for source in named if isinstance(source, yaml.MappingNode)]
        if len(sources) != len(named) or not sources:
            raise ScenarioError(
                "a merge key (<<) takes a mapping or a list of mappings (<<: *base, <<: [*a, *b])",
                file=self.file,
                line=key.start_mark.line + 1,
                path=format_path(path) or None,
            )
        return sources

    def duplicate(self, key: str, node: yaml.Node, path: Path_) -> ScenarioError:
        return ScenarioError(
            f"duplicate key {key!r}"
            + (" (a mapping has one merge key: <<: [*a, *b] merges several)" if key == "<<" else ""),
            file=self.file,
            line=node.start_mark.line + 1,
            path=format_path(path) or None,
        )

    def key(self, node: yaml.Node, path: Path_) -> str:
        yaml = self.yaml
        key = self.constructor.construct_object(node, deep=True) if isinstance(node, yaml.ScalarNode) else node
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            shown = "a mapping or a list" if isinstance(key, yaml.Node) else repr(key)
            raise ScenarioError(
                f"a key must be a word, got {shown}"
                + (" (true and false are booleans: quote it)" if isinstance(key, bool) else ""),
                file=self.file,
                line=node.start_mark.line + 1,
                path=format_path(path) or None,
            )
        return str(key)


#: The tags of plain scalars the quick reader builds itself.
_QUICK_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:float")
_STR_TAG = "tag:yaml.org,2002:str"
_NO_KEY = object()


def _quick_yaml(text: str) -> list[Any]:
    """The document of ``text`` as a one-item list, read from libyaml's
    events; :class:`_Unusual` for whatever the careful reader must see.

    Why one function: it is the loop every scenario file is read through,
    one event at a time; its state (the collection being filled, the key
    waiting for a value) lives in local variables, which a loop split into
    helpers would pass back and forth on every event."""
    import yaml
    from yaml.events import (
        DocumentEndEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
    )

    loader = _loader()(text)
    if loader.yaml_path_resolvers:  # pragma: no cover - nobody adds them
        raise _Unusual
    implicit = loader.yaml_implicit_resolvers
    if None in implicit:  # pragma: no cover - a resolver for any first character
        raise _Unusual
    constructor = _constructor_class()()
    plains: dict[str, Any] = {}  # plain scalars that may not be strings, by their text

    def plain(text: str) -> Any:
        """A plain scalar that may be a number, a boolean or a null."""
        if text in plains:
            return plains[text]
        tag = loader.resolve(yaml.ScalarNode, text, (True, False))
        if tag == _STR_TAG:
            value: Any = text
        elif tag in _QUICK_TAGS:
            try:
                value = constructor.construct_object(yaml.ScalarNode(tag, text), deep=True)
            except Exception:  # a number too long to read, …: let the careful reader say so
                raise _Unusual from None
        else:  # a timestamp, a merge key, …
            raise _Unusual
        if not isinstance(value, float):  # nan is not nan: never share one
            plains[text] = value
        return value

    try:
        get = loader.get_event
        get()  # the start of the stream
        if type(get()) is not DocumentStartEvent:
            raise _Unusual  # an empty file
        document: list[Any] = []
        outer: list[tuple[Any, bool]] = []  # the collections around the current one
        here: Any = document  # the current collection
        in_mapping = False
        key: Any = _NO_KEY  # in a mapping: the key waiting for its value
        while True:
            event = get()
            kind = type(event)
            if kind is ScalarEvent:
                if event.tag is not None or event.anchor is not None:
                    raise _Unusual
                value = event.value
                if event.implicit[0] and (not value or value[0] in implicit):
                    value = plain(value)
                if not in_mapping:
                    here.append(value)
                elif key is not _NO_KEY:
                    here[key] = value
                    key = _NO_KEY
                else:  # a key: a word or a number, met once
                    if type(value) is not str:
                        if type(value) is not int:
                            raise _Unusual
                        value = str(value)
                    if value in here:
                        raise _Unusual
                    key = value
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                if event.tag is not None or event.anchor is not None or len(outer) + 1 >= MAX_DEPTH:
                    raise _Unusual
                inner: Any = {} if kind is MappingStartEvent else []
                if not in_mapping:
                    here.append(inner)
                elif key is not _NO_KEY:
                    here[key] = inner
                    key = _NO_KEY
                else:  # a mapping or a list as a key
                    raise _Unusual
                outer.append((here, in_mapping))
                here, in_mapping = inner, kind is MappingStartEvent
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                here, in_mapping = outer.pop()
            elif kind is DocumentEndEvent:
                break
            else:  # an alias
                raise _Unusual
        if type(get()) is not StreamEndEvent:
            raise _Unusual  # a second document
        return document
    except yaml.YAMLError:  # the careful reader says what and where
        raise _Unusual from None
    finally:
        loader.dispose()


def _yaml(text: str, file: str) -> Source:
    check_text(text, file)
    try:
        document = _quick_yaml(text)
    except _Unusual:
        return _careful_yaml(text, file)
    return Source(document[0], file, _careful_lines(text, file))


def _careful_lines(text: str, file: str) -> Callable[[], dict[Path_, int]]:
    """The line map of text the quick reader took, worked out when first needed."""

    def lines() -> dict[Path_, int]:
        try:
            return _careful_yaml(text, file).lines
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
    """Refuse JSON nested more than :data:`MAX_DEPTH` levels deep (the
    document is depth 1), looking level by level at the collections only."""
    level = [data] if isinstance(data, (dict, list)) else []
    depth = 1
    while level:
        if depth >= MAX_DEPTH and any(level):  # a non-empty collection: its items are deeper still
            raise ScenarioError(f"nested more than {MAX_DEPTH} levels deep", file=file)
        level = [
            item
            for value in level
            for item in (value.values() if isinstance(value, dict) else value)
            if isinstance(item, (dict, list))
        ]
        depth += 1


#: a JSON escape that may stand for half a character (U+D800-U+DFFF)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_lone_surrogates(source: Source, text: str) -> None:
    """Refuse a string (or key) holding half of a character: JSON's
    ``"\\ud800"`` escape reads as a lone surrogate, which is no text and
    cannot be written out again.  Looked for only where the text has such
    an escape (a pair, ``"\\ud83d\\ude00"``, is one character)."""
    if _SURROGATE_ESCAPE.search(text) is None:
        return
    todo: list[tuple[Any, Path_]] = [(source.data, ())]
    while todo:
        value, path = todo.pop()
        found = None
        if isinstance(value, str):
            found = _SURROGATE.search(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, str) and (found := _SURROGATE.search(key)) is not None:
                    path = (*path, key)
                    break
                todo.append((item, (*path, key)))
        elif isinstance(value, list):
            todo.extend((item, (*path, number)) for number, item in enumerate(value))
        if found is not None:
            escape = re.search(rf"\\u{ord(found.group()):04x}", text, re.IGNORECASE)
            line = text.count("\n", 0, escape.start()) + 1 if escape is not None else None
            raise ScenarioError(
                f"half a character: the escape \\u{ord(found.group()):04x} (a lone surrogate) is "
                "not text; write the character itself or its pair of escapes",
                file=source.file,
                line=line,
                path=format_path(path) or None,
            )


def parse_source(text: str, file: str = "<scenario>", *, kind: str | None = None) -> Source:
    """Read scenario text.  ``kind`` is ``json`` or ``yaml`` (default: by name)."""
    kind = kind or ("json" if file.endswith(".json") else "yaml")
    if len(text) > MAX_BYTES:
        raise ScenarioError(
            f"larger than the limit of {_size(MAX_BYTES)} (--max-bytes or TCGTRIG_MAX_BYTES raises the limit)",
            file=file,
        )
    if kind == "json":
        check_text(text, file)
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicates)
        except json.JSONDecodeError as exc:
            raise ScenarioError(f"not valid JSON: {exc.msg} (column {exc.colno})", file=file, line=exc.lineno) from None
        except RecursionError:
            raise ScenarioError(f"nested more than {MAX_DEPTH} levels deep", file=file) from None
        except _DuplicateKey as exc:
            _careful_yaml(text, file)  # the YAML reader says where: "duplicate key" with its line
            raise ScenarioError(f"duplicate key {exc.args[0]!r}", file=file) from None
        except ValueError:  # an integer too long to read
            raise ScenarioError("a number with thousands of digits: no card game counts that far", file=file) from None
        _json_depth(data, file)
        source = Source(data, file, _careful_lines(text, file))  # JSON is YAML: the YAML reader finds lines
        _no_lone_surrogates(source, text)
        return source
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
