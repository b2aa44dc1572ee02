"""Python run from the folder that holds a clone named ``tcgtrig`` (issue 37
item 19, new user): ``import tcgtrig`` found the clone, an empty namespace
package, and the README's example failed with ``AttributeError: module
'tcgtrig' has no attribute 'load_scenario'``.  The clone's root now holds an
``__init__.py`` that says what happened."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def beside_a_clone(tmp_path: Path) -> Path:
    """A folder holding the repository as ``tcgtrig/`` (a clone, as git names it)."""
    os.symlink(ROOT, tmp_path / "tcgtrig", target_is_directory=True)
    return tmp_path


def test_importing_the_clone_folder_says_what_happened(beside_a_clone):
    spec = importlib.machinery.PathFinder.find_spec("tcgtrig", [str(beside_a_clone)])
    assert spec is not None and spec.origin is not None, "found as an empty namespace package"
    assert Path(spec.origin).name == "__init__.py"
    module = importlib.util.module_from_spec(spec)
    with pytest.raises(ImportError) as raised:
        spec.loader.exec_module(module)
    message = str(raised.value)
    assert (
        f"'import tcgtrig' found the folder {beside_a_clone / 'tcgtrig'}, a clone of the tcgtrig repository" in message
    )
    assert "run Python from another folder" in message and "pip install -e ." in message
    assert "tcgtrig" not in sys.modules or sys.modules["tcgtrig"].__file__.endswith(os.path.join("core", "__init__.py"))


def test_the_root_file_does_nothing_under_another_name():
    """pytest takes the repository's root for a package and imports it as ``__init__``."""
    spec = importlib.util.spec_from_file_location("__init__", ROOT / "__init__.py")
    assert spec is not None and spec.loader is not None
    spec.loader.exec_module(importlib.util.module_from_spec(spec))


@pytest.mark.slow  # a child process
def test_the_readme_example_run_beside_a_clone_fails_with_the_reason(beside_a_clone):
    ran = subprocess.run(
        [sys.executable, "-c", "import tcgtrig\ntcgtrig.load_scenario('x.yaml')"],
        cwd=beside_a_clone,
        capture_output=True,
        text=True,
        timeout=60,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert ran.returncode == 1
    assert ran.stderr.splitlines()[-1].startswith("ImportError: 'import tcgtrig' found the folder")
    assert "AttributeError" not in ran.stderr
