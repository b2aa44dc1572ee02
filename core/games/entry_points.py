"""The entry points of one group, read from the installed packages'
metadata without :mod:`importlib.metadata` (issue 40 item 3).

:func:`importlib.metadata.entry_points` gives the right answer, but its
import (``email``, ``zipfile``, ``csv``, ``inspect``…) and its objects
cost about 15 ms: more than all the rest of ``tcgtrig games`` but click.
What it does for an ordinary installation is small, and :func:`find` does
exactly that: each folder on :data:`sys.path` in order, each of its
``NAME-VERSION.dist-info`` and ``NAME.egg-info`` folders (grouped by
normalized name in the order they are listed), the first one of each
normalized name only, and in it ``entry_points.txt`` read as
:mod:`importlib.metadata` reads it.  Nothing is cached across processes:
an install or an uninstall shows up at once, as with the standard library.

Where the installation is not ordinary — a path entry that is a zip file,
a folder of a legacy ``.egg``, an import hook that finds distributions of
its own (``find_distributions``), a metadata folder whose name does not
give its project's name, a header :func:`find` does not read plainly — it
asks :mod:`importlib.metadata` itself.  ``tests/core/test_entry_points.py``
holds the two to the same answer on the test installation and on
installations laid out for the purpose.

Bundled games are found here like any other: they are entry points of the
package ``tcgtrig`` (``pyproject.toml``).
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

__all__ = ["GameEntryPoint", "find"]

#: How importlib.metadata reads an entry point's value: ``module[:attr[.attr]] [extras]``
_VALUE = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")
#: The metadata folders importlib.metadata looks at
_INFO_SUFFIXES = (".dist-info", ".egg-info")
#: A header's name, as the email parser takes it (printable, no colon, no blank)
_HEADER_NAME = re.compile(r"[\041-\071\073-\176]+")


class Unusual(Exception):
    """An installation :func:`find` does not read itself (importlib.metadata does)."""


class GameEntryPoint:
    """One entry point: its ``name`` and ``value`` (``module[:attr]``) in
    ``group``, and the distribution that registers it (its ``Name`` and
    ``Version`` metadata, and the folder its metadata lies in)."""

    __slots__ = ("name", "value", "group", "distribution", "version", "location")

    def __init__(self, name: str, value: str, group: str, distribution: str, version: str, location: str) -> None:
        self.name = name
        self.value = value
        self.group = group
        self.distribution = distribution
        self.version = version
        self.location = location

    def _key(self) -> tuple[str, ...]:
        return (self.name, self.value, self.group, self.distribution, self.version, self.location)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameEntryPoint) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"GameEntryPoint({self.name!r}, {self.value!r}, from {self.distribution} {self.version})"

    def load(self) -> Any:
        """Import the module the value names and return it, or the
        attribute after the colon (as :meth:`importlib.metadata.EntryPoint.load`)."""
        match = _VALUE.match(self.value)
        if match is None:
            raise ValueError(f"{self.value!r} is not an entry point (module or module:attribute)")
        found: Any = importlib.import_module(match["module"])
        for attribute in filter(None, (match["attr"] or "").split(".")):
            found = getattr(found, attribute)
        return found


def find(group: str) -> tuple[GameEntryPoint, ...]:
    """Every entry point of ``group`` on :data:`sys.path`, in the order
    :func:`importlib.metadata.entry_points` gives them."""
    try:
        return tuple(_read(group, sys.path))
    except Unusual:
        return _from_importlib(group)


def _read(group: str, path: Iterable[str]) -> Iterator[GameEntryPoint]:
    if any(hasattr(finder, "find_distributions") for finder in sys.meta_path if not _is_path_finder(finder)):
        raise Unusual("an import hook finds distributions")
    seen: set[str] = set()
    for root in path:
        for folder, normalized in _metadata_folders(root):
            if normalized in seen:  # a project found earlier on the path hides this copy
                continue
            seen.add(normalized)
            yield from _entry_points(group, folder, os.path.normpath(root or "."))


def _is_path_finder(finder: object) -> bool:
    from importlib.machinery import PathFinder

    return finder is PathFinder


def _metadata_folders(root: str) -> Iterator[tuple[str, str]]:
    """The metadata folders in ``root`` with their projects' normalized
    names, grouped by name in the order the folder lists them."""
    try:
        children = os.listdir(root or ".")
    except NotADirectoryError:
        raise Unusual(f"{root}: a path entry that is a file (a zip)") from None
    except OSError:  # missing or unreadable: importlib.metadata finds nothing there either
        return
    if os.path.basename(root).lower().endswith(".egg"):
        raise Unusual(f"{root}: an egg")
    grouped: dict[str, list[str]] = {}
    for child in children:
        low = child.lower()
        if low.endswith(_INFO_SUFFIXES):
            if not child.endswith(_INFO_SUFFIXES):
                raise Unusual(f"{child}: its name does not give its project's")
            grouped.setdefault(_normalize(low.rpartition(".")[0].partition("-")[0]), []).append(child)
    for normalized, folders in grouped.items():
        for child in folders:
            yield os.path.join(root, child), normalized


def _normalize(name: str) -> str:
    """PEP 503's normalization, dashes as underscores (importlib.metadata's)."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def _entry_points(group: str, folder: str, location: str) -> Iterator[GameEntryPoint]:
    text = _read_text(os.path.join(folder, "entry_points.txt"))
    if not text or group not in text:
        return
    found = [(name, value) for section, name, value in _pairs(text) if section == group]
    if not found:
        return
    distribution, version = _name_and_version(folder)
    for name, value in found:
        yield GameEntryPoint(name, value, group, distribution, version, location)


def _read_text(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return None


def _pairs(text: str) -> Iterator[tuple[str, str, str]]:
    """``(section, name, value)`` for each line of an ``entry_points.txt``,
    read as importlib.metadata's ``Sectioned`` reads it."""
    section: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
            continue
        if section is None:
            continue
        name, equals, value = line.partition("=")
        if not equals:
            raise Unusual(f"{line!r}: a line without '='")
        yield section, name.strip(), value.strip()


def _name_and_version(folder: str) -> tuple[str, str]:
    """The ``Name`` and ``Version`` headers of a metadata folder's
    ``METADATA`` (or ``PKG-INFO``), read as :mod:`email` reads them (the
    first of each; the value without the blanks before it)."""
    text = _read_text(os.path.join(folder, "METADATA")) or _read_text(os.path.join(folder, "PKG-INFO"))
    if not text:
        raise Unusual(f"{folder}: no METADATA")
    headers: dict[str, str] = {}
    last = ""
    for line in text.splitlines():
        if not line:
            break
        if line[0] in " \t":
            if last in ("name", "version"):
                raise Unusual(f"{folder}: a header on several lines")
            continue
        key, colon, value = line.partition(":")
        if not colon or not _HEADER_NAME.fullmatch(key):
            raise Unusual(f"{folder}: a line {line!r} among the headers")
        last = key.lower()
        headers.setdefault(last, value.lstrip(" \t"))
    return headers.get("name", ""), headers.get("version", "")


def _from_importlib(group: str) -> tuple[GameEntryPoint, ...]:
    """The same list, from :mod:`importlib.metadata` (the unusual installations)."""
    import importlib.metadata

    found = []
    for ep in importlib.metadata.entry_points(group=group):
        dist = getattr(ep, "dist", None)
        name, version, location = "", "", ""
        if dist is not None:
            name, version = dist.metadata["Name"] or "", dist.version or ""
            location = os.path.normpath(str(dist.locate_file("")))
        found.append(GameEntryPoint(ep.name, ep.value, group, name, version, location))
    return tuple(found)
