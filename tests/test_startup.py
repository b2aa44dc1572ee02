"""Start-up: a command imports only what it uses (issue 10).

``tcgtrig`` exposes its public names lazily (PEP 562), so a plugin's
``from tcgtrig import hookimpl, GameInfo`` and ``tcgtrig games`` never
build the engine; the command line imports each command's modules when
that command runs.  Each check runs in a fresh interpreter: the modules a
test process has already imported say nothing.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tcgtrig

ROOT = Path(__file__).resolve().parent.parent
T1 = ROOT / "tests" / "scenarios" / "digimon" / "triggered-01.yaml"

#: Modules no command needs unless it uses them: the explanation of an
#: invalid file, the comparison page, state (de)serialization, worker processes.
RARELY_NEEDED = (
    "jsonschema",
    "tcgtrig.tools.compare_html",
    "tcgtrig.scenario.serialization",
    "cattrs",
    "multiprocessing",
)
ENGINE = (
    "tcgtrig.engine",
    "tcgtrig.runtime.frames",
    "tcgtrig.scenario.reading",
    "tcgtrig.resolution",
    "tcgtrig.tools.render",
)


def imported_after(code: str) -> set[str]:
    """The modules ``code`` imported in a fresh interpreter (not those the
    interpreter had imported before it ran: a ``.pth`` file of the
    installation may import some at start-up)."""
    probe = (
        f"import sys as _sys\n_before = set(_sys.modules)\n{code}\n"
        "import json, sys\nprint(json.dumps(sorted(set(sys.modules) - _before)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def command(*args: str) -> str:
    """Run the command line in-process (as the console script does), keeping going after its exit."""
    return (
        f"import sys\nsys.argv = ['tcgtrig', *{list(args)!r}]\nfrom tcgtrig.tools.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )


def test_importing_the_package_imports_nothing_heavy():
    modules = imported_after("import tcgtrig")
    assert not {m for m in modules if m.startswith("tcgtrig.")}
    assert not {"yaml", "attrs", "pluggy", *RARELY_NEEDED} & modules


def test_what_a_plugin_imports_does_not_build_the_engine():
    modules = imported_after("from tcgtrig import hookimpl, GameInfo, Drop, GameEnd, ActivationContext")
    assert not {*ENGINE, *RARELY_NEEDED, "yaml", "rich"} & modules


def test_the_command_line_imports_its_commands_when_they_run():
    assert not {*ENGINE, *RARELY_NEEDED, "yaml", "rich"} & imported_after("import tcgtrig.tools.cli")


def test_games_does_not_build_the_engine():
    modules = imported_after(command("games"))
    assert "tcgtrig.plugins.digimon.hooks" in modules  # it did list the games
    assert not {*ENGINE, *RARELY_NEEDED, "yaml"} & modules


#: What a command piped to a file or another program does without (issue 40
#: item 3): rich lays out and styles text for a terminal only, the games'
#: entry points are read without importlib.metadata (tcgtrig.games.entry_points),
#: and importlib.resources (with tempfile, 5 ms) only reads a grammar or the schema.
PIPED_WITHOUT = ("rich", "importlib.metadata", "email", "zipfile", "importlib.resources", "tempfile")


def test_games_piped_imports_neither_rich_nor_importlib_metadata():
    """Issue 40 item 3: rich (its table) and importlib.metadata were 35 ms of
    ``tcgtrig games``; the scenario reader (with json) 2 ms more (the size
    limit its options show lives in ``scenario.input_size``)."""
    modules = imported_after(command("games"))
    assert "tcgtrig.plugins.yugioh.hooks" in modules
    assert not {m for m in modules if m.split(".")[0] in PIPED_WITHOUT or m in PIPED_WITHOUT}
    assert "tcgtrig.scenario.source" not in modules


def test_run_piped_imports_neither_rich_nor_importlib_metadata():
    """Issue 40 item 3: the tree off a terminal is plain text, written without rich."""
    modules = imported_after(command("run", str(T1)))
    assert "tcgtrig.tools.render" in modules  # it did draw the tree
    assert not {m for m in modules if m.split(".")[0] in PIPED_WITHOUT or m in PIPED_WITHOUT}


def test_on_a_terminal_rich_styles_the_output():
    """Where rich is told the output is a terminal (``FORCE_COLOR``), it is used as before."""
    env = {**os.environ, "FORCE_COLOR": "1"}
    for args in (["games"], ["run", str(T1)]):
        probe = f"{command(*args)}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, env=env)
        assert "rich.console" in json.loads(done.stdout.splitlines()[-1]), args
        assert "\x1b[" in done.stdout, args  # styled


def test_no_converter_is_a_builtin():
    """Issue 40 item 3: attrs reads the signature of each field's converter
    as it builds a class, and a builtin's (``tuple``'s) is parsed from its
    text with tokenize, whose first use took 6 ms of every command's start.
    Every converter in the core's and the bundled games' classes is a Python function."""
    import importlib
    import inspect
    import pkgutil

    import attrs

    found = []
    for package in (tcgtrig, importlib.import_module("tcgtrig.plugins")):
        for module_info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if module_info.name.endswith("__main__"):
                continue  # the command line itself
            module = importlib.import_module(module_info.name)
            for value in vars(module).values():
                if isinstance(value, type) and attrs.has(value) and value.__module__ == module.__name__:
                    found += [
                        f"{value.__qualname__}.{field.name}"
                        for field in attrs.fields(value)
                        if field.converter is not None
                        and (isinstance(field.converter, type) or inspect.isbuiltin(field.converter))
                    ]
    assert found == []


def test_listing_the_games_compiles_no_hook_caller():
    """Issue 40 item 3: a ruleset compiled a caller for each hook its game
    implements as it was built (26 for ``tcgtrig games``, 2 ms); each is now
    compiled when first called, and takes its stand-in's place."""
    probe = command("games") + (
        "\nimport tcgtrig\nfrom tcgtrig.games import ruleset as module\nprint('compiled', len(module._CALLER_MAKERS))"
        "\nruleset = tcgtrig.load_ruleset('digimon')\nprint(ruleset._rank.__name__)"
        f"\ntcgtrig.resolve(tcgtrig.load_scenario({str(T1)!r}), ruleset)\nprint(ruleset._rank.__name__)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    # the caller takes its stand-in's place: the hot path calls it directly
    assert done.stdout.splitlines()[-3:] == ["compiled 0", "stand_in", "call_tcgtrig_pending_rank"]


def test_a_command_freezes_what_is_alive_at_its_exit_and_restores_the_collector():
    """Issue 40 item 3: the interpreter's last collection walked every
    object the start-up made (15-20 ms); a command registers gc.freeze at
    exit and holds the collector back while it runs, restoring it after."""
    probe = (
        "import atexit, gc\nregistered = []\natexit.register = registered.append\n"
        "before = gc.get_threshold()\n"
        + command("games")
        + "\nassert registered == [gc.freeze], registered\nassert gc.get_threshold() == before"
        + "\nprint('ok')"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.splitlines()[-1] == "ok", done.stderr


def test_games_and_run_import_neither_the_explorer_nor_the_json_writer():
    """The explorer's limits the options show live in ``tools.limits``; only
    ``--json`` writes JSON (issue 26)."""
    for args in (["games"], ["run", str(T1)]):
        modules = imported_after(command(*args))
        assert "tcgtrig.tools.limits" in modules
        assert "tcgtrig.tools.explore" not in modules, args
    assert "tcgtrig.base.jsontext" not in imported_after(command("games"))


def test_run_checks_the_schema_with_the_generated_code():
    """The compiled check ships with the package: a run does not compile it (issue 26)."""
    counting = (
        "import fastjsonschema\ncompiled = []\noriginal = fastjsonschema.compile\n"
        "fastjsonschema.compile = lambda *args, **kwargs: compiled.append(1) or original(*args, **kwargs)\n"
    )
    modules = imported_after(counting + command("run", str(T1)) + "\nassert not compiled, 'compiled at run time'")
    assert {"tcgtrig.engine", "tcgtrig.scenario._fast_schema"} <= modules


def test_run_imports_neither_the_explorer_nor_jsonschema():
    modules = imported_after(command("run", str(T1)))
    assert "tcgtrig.engine" in modules  # it did resolve
    assert not set(RARELY_NEEDED) & modules


def test_run_json_does_not_import_rich():
    modules = imported_after(command("run", "--json", str(T1)))
    assert "tcgtrig.engine" in modules
    assert not {"rich", "tcgtrig.tools.render", *RARELY_NEEDED} & modules


def test_every_public_name_resolves_and_is_listed():
    for name in tcgtrig.__all__:
        assert getattr(tcgtrig, name) is not None, name
    assert set(tcgtrig.__all__) <= set(dir(tcgtrig))
    assert tcgtrig.conformance.check_ruleset  # a submodule, as before the names were lazy
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        tcgtrig.no_such_name  # noqa: B018


def test_star_import_gives_every_public_name():
    names: dict[str, object] = {}
    exec("from tcgtrig import *", names)  # noqa: S102 - the point of the test
    assert set(tcgtrig.__all__) <= set(names)


def test_the_type_checking_imports_match_the_lazy_names():
    """What type checkers read (the ``if TYPE_CHECKING:`` imports) is what
    ``__getattr__`` hands out at run time, and both are ``__all__``."""
    tree = ast.parse((ROOT / "core" / "__init__.py").read_text(encoding="utf-8"))
    guarded = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    static = {
        alias.name: node.module for node in guarded.body if isinstance(node, ast.ImportFrom) for alias in node.names
    }
    lazy = dict(tcgtrig._HOMES)
    assert static == lazy
    assert set(lazy) | {"__version__"} == set(tcgtrig.__all__)
