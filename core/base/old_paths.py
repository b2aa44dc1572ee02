"""The import paths of the first releases, before the core had layers.

``tcgtrig.cli``, ``tcgtrig.machine`` and the other flat module names still
import, and give the very module that now lives in a layer's package:
``tcgtrig.machine is tcgtrig.runtime.machine``.  ``tcgtrig.model`` and
``tcgtrig.scenario`` are packages now; each re-exports what its old module
exported.  New code imports the new paths.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

#: Old dotted path → where the module lives now.
MOVED: dict[str, str] = {
    "tcgtrig.actions": "tcgtrig.runtime.actions",
    "tcgtrig.activation": "tcgtrig.runtime.activation",
    "tcgtrig.budget": "tcgtrig.base.budget",
    "tcgtrig.cli": "tcgtrig.tools.cli",
    "tcgtrig.collector": "tcgtrig.base.collector",
    "tcgtrig.compare": "tcgtrig.tools.compare",
    "tcgtrig.compare_html": "tcgtrig.tools.compare_html",
    "tcgtrig.errors": "tcgtrig.base.errors",
    "tcgtrig.evaluate": "tcgtrig.runtime.evaluate",
    "tcgtrig.explore": "tcgtrig.tools.explore",
    "tcgtrig.frames": "tcgtrig.runtime.frames",
    "tcgtrig.guard": "tcgtrig.games.guard",
    "tcgtrig.hookspecs": "tcgtrig.games.hookspecs",
    "tcgtrig.info": "tcgtrig.model.info",
    "tcgtrig.jsontext": "tcgtrig.base.jsontext",
    "tcgtrig.lint": "tcgtrig.tools.lint",
    "tcgtrig.loops": "tcgtrig.runtime.loops",
    "tcgtrig.machine": "tcgtrig.runtime.machine",
    "tcgtrig.manager": "tcgtrig.games.manager",
    "tcgtrig.meanings": "tcgtrig.games.meanings",
    "tcgtrig.pending": "tcgtrig.model.pending",
    "tcgtrig.performing": "tcgtrig.runtime.performing",
    "tcgtrig.pytest_plugin": "tcgtrig.tools.pytest_plugin",
    "tcgtrig.render": "tcgtrig.tools.render",
    "tcgtrig.safe_text": "tcgtrig.base.safe_text",
    "tcgtrig.serialization": "tcgtrig.scenario.serialization",
    "tcgtrig.source": "tcgtrig.scenario.source",
    "tcgtrig.state": "tcgtrig.model.state",
    "tcgtrig.trace": "tcgtrig.model.trace",
    "tcgtrig.triggers": "tcgtrig.runtime.triggers",
    "tcgtrig.unparse": "tcgtrig.scenario.unparse",
    "tcgtrig.words": "tcgtrig.games.words",
}


class OldPaths:
    """Finds an old flat path and hands over the module at its new home (a
    meta path finder that is its own loader)."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, cast("Loader", self))  # its own loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        # The import system has just labelled the module with the old path's
        # spec; give it back its own, so it still knows where it lives.
        module.__spec__ = importlib.machinery.PathFinder.find_spec(
            module.__name__, sys.modules[module.__name__.rpartition(".")[0]].__path__
        )


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(finder, OldPaths) for finder in sys.meta_path):
        sys.meta_path.append(OldPaths())


def names_of(package: str, home: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for a package that took the place of a first
    release's module (``tcgtrig.model``, ``tcgtrig.scenario``): it hands out
    the names of ``home``, the module the old one became, when first asked.

    The package's own submodules are left to the import system, so that
    ``from tcgtrig.scenario import source`` does not import ``home``."""
    folder = os.path.dirname(sys.modules[package].__file__ or "")
    submodules = {
        name.removesuffix(".py")
        for name in os.listdir(folder)
        if name.endswith(".py") or os.path.isfile(os.path.join(folder, name, "__init__.py"))
    }

    def __getattr__(name: str) -> Any:
        if not name.startswith("__") and name not in submodules:
            module = importlib.import_module(home)
            if name in module.__all__:
                return getattr(module, name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
