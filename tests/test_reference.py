"""The plugin authors' reference (issue 39 item 5): ``docs/reference/``,
generated from the docstrings by Sphinx, builds with warnings and
unresolved references as errors (a broken docstring fails here), and
covers what a plugin author needs — every hook with an example, every
field of ``GameInfo`` and ``BattleResult``, the roles, and every helper
the bundled and example games import from ``tcgtrig`` — and its examples
run."""

from __future__ import annotations

import ast
import doctest
import importlib.util
import inspect
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import attrs
import pytest
import tcgtrig
from tcgtrig.games import hookspecs
from tcgtrig.model import info

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"
PAGES = {path.name: path.read_text(encoding="utf-8") for path in sorted(REFERENCE.glob("*.rst"))}
EVERYTHING = "\n".join(PAGES.values())
HOOKS = sorted(name for name in dir(hookspecs) if name.startswith("tcgtrig_"))


def test_the_reference_builds_with_warnings_as_errors(tmp_path):
    if importlib.util.find_spec("sphinx") is None:
        if os.environ.get("TCGTRIG_REQUIRE_DOCS"):
            pytest.fail('sphinx is not installed: python -m pip install -e ".[docs]"')
        pytest.skip('the reference needs sphinx: python -m pip install -e ".[docs]"')
    command = [sys.executable, "-m", "sphinx", "-W", "-n", "--keep-going", "-q", "-E", "-b", "html"]
    built = subprocess.run([*command, str(REFERENCE), str(tmp_path / "html")], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-4000:]
    hooks_page = (tmp_path / "html" / "hooks.html").read_text(encoding="utf-8")
    assert all(f'id="tcgtrig.games.hookspecs.{name}"' in hooks_page for name in HOOKS)


def _sections(page: str, directive: str) -> dict[str, str]:
    """Each object a page documents with ``directive``, and its text up to the next one."""
    parts = re.split(rf"^\.\. {directive}:: (\S+)$", PAGES[page], flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_every_hook_is_on_the_hooks_page_with_an_example():
    sections = _sections("hooks.rst", "autofunction")
    for name in HOOKS:
        text = sections.get(f"tcgtrig.games.hookspecs.{name}")
        assert text is not None, f"hooks.rst does not document {name}"
        assert "Example" in text and f"def {name}(" in text, f"hooks.rst: {name} has no example implementation"


@pytest.mark.parametrize("cls", [tcgtrig.GameInfo, tcgtrig.BattleResult, tcgtrig.Drop, tcgtrig.GameEnd])
def test_every_field_is_documented(cls):
    doc = inspect.getdoc(cls) or ""
    missing = [field.name for field in attrs.fields(cls) if f":param {field.name}:" not in doc]
    assert missing == [], f"{cls.__name__}'s docstring lacks :param: for {missing}"
    assert f".. autoclass:: tcgtrig.{cls.__name__}" in PAGES["game.rst"]


def test_every_role_list_is_on_the_page():
    roles = [name for name in info.__all__ if name.endswith("_ROLES")]
    assert len(roles) == 6
    for name in roles:
        assert f".. autodata:: tcgtrig.model.info.{name}" in PAGES["game.rst"], name


def _imports_from_tcgtrig() -> set[tuple[str, str]]:
    """(module, name) for every ``from tcgtrig… import name`` of the games' code (not their own modules)."""
    found = set()
    sources = [*(ROOT / "plugins").rglob("*.py"), *(ROOT / "examples" / "games").rglob("*.py")]
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("tcgtrig"):
                if not node.module.startswith("tcgtrig.plugins"):
                    found |= {(node.module, alias.name) for alias in node.names}
    return found


def test_every_helper_the_games_import_is_documented():
    imported = _imports_from_tcgtrig()
    assert ("tcgtrig.games.words", "card_argument") in imported
    missing = []
    for module, name in sorted(imported):
        documented = module == "tcgtrig" and name in tcgtrig.__all__ and f"tcgtrig.{name}" in EVERYTHING
        if not documented and not re.search(rf"{re.escape(module)}\.{name}\b", EVERYTHING):
            missing.append(f"{module}.{name}")
    assert missing == [], f"imported by a game but not in the reference: {missing}"


def test_the_names_the_docs_promise_are_documented():
    for name in ("tcgtrig.games.words", "tcgtrig.conformance.check_ruleset", "tcgtrig.tools.explore.explore"):
        assert re.search(rf"^\.\. auto\w+:: {re.escape(name)}$", EVERYTHING, re.M), name
    assert ".. autoexception:: tcgtrig.choices.UndoAnswer" in EVERYTHING


@pytest.mark.parametrize("page", [name for name, text in PAGES.items() if ">>> " in text])
def test_the_pages_interactive_examples_run(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(PAGES[page], {}, page, str(REFERENCE / page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=lambda text: pytest.fail(f"docs/reference/{page}:\n{text}"))
    assert runner.tries > 0


def _literal_blocks(text: str) -> list[str]:
    """The indented literal blocks after a paragraph ending in ``::``."""
    blocks = []
    for match in re.finditer(r"::\n\n((?:(?:    .*)?\n)+)", text):
        blocks.append(textwrap.dedent(match.group(1)))
    return blocks


@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_pages_code_examples_are_python(page):
    blocks = [block for block in _literal_blocks(PAGES[page]) if not block.lstrip().startswith(">>>")]
    for block in blocks:
        compile(block, f"docs/reference/{page}", "exec")
