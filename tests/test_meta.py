"""Meta-tests: the contract is documented and tested, the core knows no
game, the packaging matches the folders, the docs match the code."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
import tcgtrig
import tomllib
from tcgtrig.games import hookspecs
from tcgtrig.scenario.reading import CORE_ACTIONS

ROOT = Path(__file__).resolve().parent.parent
HOOKS = sorted(name for name in dir(hookspecs) if name.startswith("tcgtrig_"))

#: Words that would mean a game rule special-cased in the core.
GAME_WORDS = re.compile(
    r"digimon|yu-?gi-?oh|duel ?masters|duelmasters|pok[eé]mon|\bmemory\b|security|suspend|"
    r"battle|trash|shield|\bmana\b|graveyard|\blp\b|monster|creature|tamer|digivol|segoc",
    re.IGNORECASE,
)


@pytest.mark.parametrize("name", HOOKS)
def test_every_hook_is_documented(name):
    func = getattr(hookspecs, name)
    doc = inspect.getdoc(func) or ""
    params = list(inspect.signature(func).parameters)
    for param in params:
        assert f":param {param}:" in doc, f"{name}: :param {param}: is not documented"
    assert "Use in game plugins" in doc, f"{name}: says nobody who should implement it"
    opts = getattr(func, "tcgtrig_spec", {})
    if opts.get("firstresult"):
        assert "Stops at first non-None result" in doc, name
    if name not in ("tcgtrig_game_info", "tcgtrig_addhooks", "tcgtrig_action_aliases"):
        assert "Default:" in doc, f"{name}: the core default is not stated"


def test_every_hook_has_a_test():
    tests = (ROOT / "tests" / "core" / "test_hooks.py").read_text()
    missing = [name for name in HOOKS if f"def test_hook_{name}(" not in tests]
    assert not missing, f"hooks without test_hook_<name>: {missing}"


def _core_sources() -> list[Path]:
    sources = sorted((ROOT / "core").rglob("*.py"))
    assert ROOT / "core" / "runtime" / "machine.py" in sources  # every layer's package, not the top alone
    return sources


def test_the_core_imports_no_game():
    for path in _core_sources():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = ("." * node.level) + (node.module or "")
                assert "plugins" not in module, f"{path.name} imports {module}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert "plugins" not in alias.name, f"{path.name} imports {alias.name}"


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


#: Words the scenario contract itself names (``by: battle`` is a cause).
CONTRACT_WORDS = {"battle"}
#: The computer's memory (the bound every command works within), not a game's.
COMPUTER_MEMORY = re.compile(r"max[-_ ]memory|memory (limit|in use|the command)|out of memory", re.IGNORECASE)
#: The core's own battle words (issue 24: a battle is an idea the games share): the
#: ``battle`` action, its result, its events and its hook — not a game's zone.
CORE_BATTLE = re.compile(r"\b(BattleResult|Battle|won_battle|lost_battle|tcgtrig_battle_result)\b")


def test_the_core_special_cases_no_game_word():
    offenders = []
    for path in _core_sources():
        tree = ast.parse(path.read_text())
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                text = CORE_BATTLE.sub("", COMPUTER_MEMORY.sub("", node.value))
                if GAME_WORDS.search(text) and node.value not in CONTRACT_WORDS:
                    offenders.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert not offenders, "game words in the core's code:\n" + "\n".join(offenders)


def test_packages_list_matches_the_folders():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapping = config["package-dir"]
    found = set()
    for name, folder in mapping.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *relative.parts]))
    assert set(config["packages"]) == found


def test_no_top_level_core_or_plugins_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert all(p.startswith("tcgtrig") for p in config["packages"])
    assert importlib.util.find_spec("tcgtrig.plugins.digimon") is not None


def test_every_module_imports_cleanly():
    import tcgtrig.plugins

    names = [m.name for m in pkgutil.walk_packages(tcgtrig.__path__, "tcgtrig.")]
    names += [m.name for m in pkgutil.walk_packages(tcgtrig.plugins.__path__, "tcgtrig.plugins.")]
    assert "tcgtrig.plugins.digimon.hooks" in names
    for name in names:
        if name == "tcgtrig.__main__":
            continue
        importlib.import_module(name)


def test_registered_games_have_the_same_files():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    games = config["project"]["entry-points"]["tcgtrig.games"]
    for name, target in games.items():
        folder = ROOT / "plugins" / target.split(".")[2]
        assert {p.name for p in folder.glob("*.py")} >= {"__init__.py", "hooks.py", "policy.py"}, name
        hooks_module = importlib.import_module(target)
        public = [
            n for n, v in vars(hooks_module).items() if inspect.isfunction(v) and v.__module__ == hooks_module.__name__
        ]
        assert all(n.startswith("tcgtrig_") for n in public), f"{target} holds more than hook implementations"


def test_the_format_docs_name_every_action_and_game_word():
    docs = (ROOT / "docs" / "scenario-format.md").read_text()
    for word in CORE_ACTIONS:
        assert f"`{word}" in docs, f"core action {word!r} is not documented"
    for word in tcgtrig.load_ruleset("digimon").aliases:
        assert f"`{word}" in docs, f"Digimon word {word!r} is not documented"


def test_the_schema_ships_in_the_package():
    schema = tcgtrig.scenario.schema()
    assert schema["title"].startswith("tcgtrig scenario")
    assert set(schema["required"]) == {"format", "title", "players", "turn_player", "cards", "start"}


def test_readme_has_two_setup_commands_and_ci_runs_the_test_command():
    readme = (ROOT / "README.md").read_text()
    setup = readme.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", setup, re.DOTALL)
    assert len(commands) == 2, "the set-up section holds exactly two commands"
    test_command = commands[1].strip()
    ci = (ROOT / ".ci" / "run").read_text()
    assert test_command in ci


def test_readme_names_every_hook_with_its_arguments():
    readme = (ROOT / "README.md").read_text()
    for name in HOOKS:
        params = ", ".join(inspect.signature(getattr(hookspecs, name)).parameters)
        assert f"`{name}({params})`" in readme, f"README's hook table lacks {name}({params})"


def test_readme_scenario_examples_resolve_as_they_expect():
    readme = (ROOT / "README.md").read_text()
    examples = re.findall(r"```yaml\n(.*?)```", readme, re.S)
    assert len(examples) >= 2, "the README shows a Digimon and a Duel Masters example"
    games = []
    for number, text in enumerate(examples):
        scenario = tcgtrig.scenario_from_text(text, f"README example {number + 1}")
        for game in scenario.games():
            result = tcgtrig.resolve(scenario, game)
            assert result.compiled.expect is not None, f"README example {number + 1} expects nothing of {game}"
            assert tcgtrig.check_expectation(result, result.compiled.expect) == [], f"README example {number + 1}"
            games.append(game)
    assert {"digimon", "duelmasters"} <= set(games)


def test_the_schema_names_every_core_action_and_ability_key():
    from tcgtrig.scenario.reading import CORE_ACTIONS

    schema = tcgtrig.scenario.schema()
    description = schema["$defs"]["action"]["description"]
    assert [word for word in CORE_ACTIONS if word not in description] == []
    ability = schema["$defs"]["ability"]["properties"]
    assert {"per_turn", "trigger_condition", "cost", "once_per_turn"} <= set(ability)
    assert {"actor", "card"} <= set(schema["$defs"]["pattern"]["properties"])
    assert "lasting" in schema["$defs"]["card"]["properties"]


def test_every_scenario_example_in_the_docs_runs_as_it_says(tmp_path):
    from click.testing import CliRunner
    from tcgtrig.tools.cli import main

    for doc in sorted((ROOT / "docs").glob("*.md")):
        for number, block in enumerate(re.findall(r"```yaml\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)):
            if "format:" not in block:
                continue
            path = tmp_path / f"{doc.stem}-{number}.yaml"
            path.write_text(block, encoding="utf-8")
            result = CliRunner().invoke(main, ["check", str(path)])
            assert result.exit_code == 0, f"{doc.name} example {number}: {result.output}"


#: The most lines a function of the core has without saying why (issue 25).
LONGEST = 60


def test_no_long_function_without_a_reason():
    """A function of the core over :data:`LONGEST` lines (its docstring
    aside) says in its docstring why it is one function ("Why one
    function: ...")."""
    unexplained = []
    for path in _core_sources():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                first = node.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):  # its docstring
                    length -= (first.end_lineno or first.lineno) - first.lineno + 1
                if length > LONGEST and "Why one function:" not in (ast.get_docstring(node) or ""):
                    unexplained.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({length} lines)")
    assert not unexplained, "split these, or say why each is one function:\n" + "\n".join(unexplained)
