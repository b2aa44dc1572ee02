"""The core's layers, read from its imports.

``core/`` is one package per layer (see CONTRIBUTING.md): ``base`` →
``model`` and ``printed`` (card text read) → ``games`` → ``language`` (each action's home) → ``runtime`` |
``scenario`` → the front door (the top of the package) → ``tools``.  A module imports only its own layer and
the ones below; the runtime and the scenario files do not import each
other.  An import inside a function (a lazy one) may go up only when it is
listed, with its reason, in :data:`LAZY_UPWARD`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "core"

RANK = {"base": 0, "model": 1, "printed": 1, "games": 2, "language": 3, "runtime": 4, "scenario": 4, "": 5, "tools": 6}

#: Lazy imports that go up a layer, and why each one is there.
LAZY_UPWARD = {
    # InteractiveChooser explores whether a decision can matter (skip_irrelevant) and where options lead (outcomes)
    ("tcgtrig.choices", "tcgtrig.tools.explore"),
    # the conformance kit lints each random position it builds
    ("tcgtrig.conformance", "tcgtrig.tools.lint"),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(CORE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["tcgtrig", *parts])


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANK else ""


SOURCES = {module_name(path): path for path in sorted(CORE.rglob("*.py"))}


def imports(module: str, tree: ast.Module) -> Iterator[tuple[str, int, bool]]:
    """(module imported, line, whether at module level) for each of tcgtrig's
    modules imported at run time (``if TYPE_CHECKING:`` blocks are skipped)."""
    package = module if SOURCES[module].name == "__init__.py" else module.rpartition(".")[0]
    stack: list[tuple[ast.AST, bool]] = [(tree, True)]
    while stack:
        node, top = stack.pop()
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            stack.extend((child, top) for child in node.orelse)
            continue
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            if base.startswith("tcgtrig"):
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    yield (submodule if submodule in SOURCES else base), node.lineno, top
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("tcgtrig"):
                    yield alias.name, node.lineno, top
        inner = top and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))


GRAPH = {module: list(imports(module, ast.parse(path.read_text(encoding="utf-8")))) for module, path in SOURCES.items()}


def test_the_graph_sees_every_layer():
    assert {layer(module) for module in GRAPH} == set(RANK)
    assert ("tcgtrig.model.decision", 0, True) not in GRAPH["tcgtrig.runtime.machine"]
    assert any(target == "tcgtrig.model.decision" for target, _, _ in GRAPH["tcgtrig.runtime.machine"])


def goes_up(source: str, target: str) -> bool:
    a, b = layer(source), layer(target)
    if target == "tcgtrig" or a == b or source == "tcgtrig.__main__":  # ``python -m tcgtrig`` is the entry
        return False
    return RANK[b] > RANK[a] or {a, b} == {"runtime", "scenario"}


def test_no_module_imports_a_layer_above_its_own():
    upward = [
        f"{source}:{line} imports {target}{'' if top else ' (lazily; add it to LAZY_UPWARD with its reason)'}"
        for source, found in GRAPH.items()
        for target, line, top in found
        if goes_up(source, target) and (top or (source, target) not in LAZY_UPWARD)
    ]
    assert not upward, "\n".join(upward)


def test_every_listed_lazy_import_is_still_there():
    found = {(source, target) for source, targets in GRAPH.items() for target, _, top in targets if not top}
    assert LAZY_UPWARD <= found


def test_no_circle_at_module_level():
    edges = {
        source: {target for target, _, top in found if top and target in GRAPH and target != source}
        for source, found in GRAPH.items()
    }
    # a package's __init__ is imported before its modules: importing it is not an edge back
    for source in edges:
        edges[source] -= {source.rsplit(".", 1)[0]}
    done: set[str] = set()
    for start in sorted(edges):
        if start in done:
            continue
        path, on_path, work = [start], {start}, [iter(sorted(edges[start]))]
        while work:
            target = next(work[-1], None)
            if target is None:
                finished = path.pop()
                on_path.discard(finished)
                done.add(finished)
                work.pop()
                continue
            assert target not in on_path, "a circle of imports: " + " → ".join([*path, target])
            if target not in done:
                path.append(target)
                on_path.add(target)
                work.append(iter(sorted(edges[target])))
