"""The public names and the docs agree (issue 39 items 2 and 6).

``tcgtrig/__init__.py`` lists each public name once, in ``_HOMES`` (name →
the module it is defined in); ``__all__`` is its keys, and the
``if TYPE_CHECKING:`` block type checkers and IDEs read is generated from it
(``python tests/test_exports.py --write``): :func:`test_the_type_checking_block_is_generated_from_the_table`
holds the two together.

How a name the docs use counts.  The docs are README.md, CONTRIBUTING.md,
every ``*.md`` and ``*.rst`` under ``docs/`` at any depth (the plugin
authors' reference included) and the example games' READMEs; a name is used where they write
``tcgtrig.NAME`` (in text or code) or ``from tcgtrig import NAME`` (in a code
block).  A top-level name (``tcgtrig.resolve``) must be in ``tcgtrig.__all__``
or be a public submodule (``tcgtrig.conformance``).  A dotted path
(``tcgtrig.games.words.move_word``, ``tcgtrig.choices.UndoAnswer``) must
import, and each step after a module must be in that module's own
``__all__`` (or be a public submodule of it): a submodule's ``__all__`` is
its public face, and ``tcgtrig.games.words`` itself is public because
``games/words.py`` is a module whose name does not start with ``_``.  The
hooks of the contract are public where they are specified
(``tcgtrig.games.hookspecs.tcgtrig_pending_rank``).  An
attribute of a public class or object (``tcgtrig.Resolution.keys``,
``tcgtrig.GameInfo.zone_roles``) is public with it.  And back: every name in
``tcgtrig.__all__`` is used somewhere in the docs, as ``tcgtrig.NAME``, in a
``from tcgtrig import`` or as a whole word in code (`` `NAME` `` or
``NAME(``).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import tcgtrig

ROOT = Path(__file__).resolve().parents[1]
INIT = ROOT / "core" / "__init__.py"
BEGIN = "    # BEGIN generated from _HOMES"
END = "    # END generated"


def docs() -> list[Path]:
    """Every documentation file a reader (or a plugin author) meets."""
    found = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    found += sorted(path for path in (ROOT / "docs").rglob("*") if path.suffix in (".md", ".rst"))
    found += sorted((ROOT / "examples" / "games").glob("*/README*"))
    return found


# ``tcgtrig.a.b`` (not a file name: ``tcgtrig.yaml``, nor the package's folders in a path)
_DOTTED = re.compile(r"(?<![\w/.-])tcgtrig((?:\.[A-Za-z_]\w*)+)")
_FROM = re.compile(r"from\s+tcgtrig\s+import\s+(\([^)]*\)|[^\n`…]+)")
_NOT_NAMES = {"yaml", "yml", "json", "md", "py", "toml", "lark", "html", "txt", "egg"}


def used_paths() -> dict[str, str]:
    """Each dotted path under ``tcgtrig`` the docs use → the first file:line using it."""
    used: dict[str, str] = {}
    for path in docs():
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        for match in _DOTTED.finditer(text):
            parts = match.group(1)[1:].split(".")
            if parts[0] in _NOT_NAMES or parts[-1] in _NOT_NAMES:
                continue
            line = text.count("\n", 0, match.start()) + 1
            used.setdefault(".".join(parts), f"{where}:{line}")
        for match in _FROM.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            for name in re.findall(r"[A-Za-z_]\w*", match.group(1).split("#")[0]):
                if name != "as":
                    used.setdefault(name, f"{where}:{line}")
    return used


def _public_step(owner: object, name: str) -> tuple[bool, object]:
    """Whether ``owner.name`` is public by the rules above, and what it is."""
    if isinstance(owner, ModuleType):
        public = name in getattr(owner, "__all__", ()) or name in ("__all__", "__version__")
        if public or (owner.__name__ == "tcgtrig.games.hookspecs" and name.startswith("tcgtrig_")):
            return True, getattr(owner, name)
        if hasattr(owner, "__path__") and not name.startswith("_"):  # a package: its public submodules
            if importlib.util.find_spec(f"{owner.__name__}.{name}") is not None:
                return True, importlib.import_module(f"{owner.__name__}.{name}")
        return False, None
    return (not name.startswith("_") and hasattr(owner, name)), getattr(owner, name, None)


def test_every_name_the_docs_use_is_public():
    wrong = []
    for path, where in sorted(used_paths().items()):
        owner: object = tcgtrig
        for step in path.split("."):
            public, owner = _public_step(owner, step)
            if not public:
                wrong.append(f"{where}: tcgtrig.{path} ({step!r} is not public there)")
                break
    assert not wrong, "\n".join(wrong)


def test_every_exported_name_is_documented():
    text = "\n".join(path.read_text(encoding="utf-8") for path in docs())
    used = used_paths()
    undocumented = [
        name
        for name in tcgtrig.__all__
        if name != "__version__"
        and name not in used
        and not re.search(rf"`{re.escape(name)}\b|\b{re.escape(name)}\(", text)
    ]
    assert not undocumented, f"in tcgtrig.__all__ but in no doc: {undocumented}"


def test_the_docs_promises_are_exported():
    """The names the issue found promised by the docs but missing."""
    for name in ("UndoAnswer", "check_ruleset", "explore", "card_argument", "move_word", "flag_word"):
        assert name in tcgtrig.__all__
    from tcgtrig.choices import UndoAnswer
    from tcgtrig.conformance import check_ruleset
    from tcgtrig.games.words import card_argument
    from tcgtrig.tools.explore import explore

    assert (tcgtrig.UndoAnswer, tcgtrig.check_ruleset, tcgtrig.explore, tcgtrig.card_argument) == (
        UndoAnswer,
        check_ruleset,
        explore,
        card_argument,
    )


def test_every_exported_name_imports_from_its_home():
    homes = tcgtrig._HOMES
    assert tcgtrig.__all__ == ["__version__", *homes]
    for name, module in homes.items():
        assert getattr(importlib.import_module(f"tcgtrig.{module}"), name) is getattr(tcgtrig, name), name


def _sort_key(name: str) -> tuple[int, str]:
    """isort's order (ruff's ``I``): constants, then classes, then the rest."""
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return kind, name.lower()


def type_checking_block(homes: dict[str, str]) -> str:
    """The imports of ``if TYPE_CHECKING:`` for ``homes``, one a line as
    ruff sorts them; ``X as X``: re-exported under mypy's ``no_implicit_reexport``."""
    by_module: dict[str, list[str]] = {}
    for name, module in homes.items():
        by_module.setdefault(module, []).append(name)
    return "\n".join(
        f"    from .{module} import {name} as {name}"
        for module in sorted(by_module)
        for name in sorted(by_module[module], key=_sort_key)
    )


def _split(text: str) -> tuple[str, str, str]:
    start = text.index(BEGIN)
    start = text.index("\n", start) + 1
    end = text.index(END, start)
    return text[:start], text[start:end], text[end:]


def _homes_in_source(text: str) -> dict[str, str]:
    tree = ast.parse(text)
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "_HOMES":
            return ast.literal_eval(node.value)
    raise AssertionError("no _HOMES in core/__init__.py")


def test_the_type_checking_block_is_generated_from_the_table():
    text = INIT.read_text(encoding="utf-8")
    _, block, _ = _split(text)
    assert block.rstrip("\n") == type_checking_block(_homes_in_source(text)), (
        "core/__init__.py: the TYPE_CHECKING block is not _HOMES's: run python tests/test_exports.py --write"
    )


def write() -> None:
    """Regenerate the ``TYPE_CHECKING`` block of ``core/__init__.py``."""
    text = INIT.read_text(encoding="utf-8")
    head, _, tail = _split(text)
    INIT.write_text(head + type_checking_block(_homes_in_source(text)) + "\n" + tail, encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_exports.py --write")
    write()
