"""How far a compiled build of unchanged sources goes: the per-effect
figures of ``run.py`` for the pure-Python package and for a copy whose
resolution path is compiled by Cython, side by side.  Run by hand:

    python -m pip install cython setuptools
    python benchmarks/compiled.py        # about 3 minutes: 2 to build, 1 to measure

Issue 10 asks for each effect within 20x of a bare heap loop and, if a
compiled extension is the only way to a target, to say so with numbers
instead of adding one.  This script gives those numbers; nothing it builds
is part of the package.

The copy is laid out as an installed package would be (``tcgtrig`` from
``core/``, ``tcgtrig.plugins`` from ``plugins/``) in a temporary folder put
first on ``PYTHONPATH``, so the installed package is left alone.  Cython
compiles the modules an effect passes through (:data:`HOT`) as they are:
no type declarations, no code changes; annotations are not enforced as C
types.  Each game's ``hooks.py`` stays Python, because pluggy recognises
hook implementations only as plain functions.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: The core modules every resolved effect passes through.
HOT = [
    "actions",
    "activation",
    "choices",
    "collector",
    "engine",
    "evaluate",
    "frames",
    "loops",
    "machine",
    "manager",
    "model",
    "pending",
    "performing",
    "state",
    "trace",
    "triggers",
]

BUILD = """
from setuptools import setup
from Cython.Build import cythonize
import sys
setup(ext_modules=cythonize(sys.argv[1:], quiet=True, nthreads={threads},
      compiler_directives={{"language_level": 3, "binding": True, "annotation_typing": False}}),
      script_args=["build_ext", "--inplace"])
"""


def lay_out(site: Path) -> list[str]:
    """Copy the package into ``site`` as installed; return the files to compile."""
    shutil.copytree(ROOT / "core", site / "tcgtrig", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "plugins", site / "tcgtrig" / "plugins", ignore=shutil.ignore_patterns("__pycache__"))
    games = sorted(p.name for p in (site / "tcgtrig" / "plugins").iterdir() if (p / "policy.py").exists())
    return [f"tcgtrig/{name}.py" for name in HOT] + [f"tcgtrig/plugins/{game}/policy.py" for game in games]


def effects(pythonpath: Path | None, out: Path) -> dict[str, dict]:
    """Run ``run.py --only effects`` (with ``pythonpath`` first, if given)
    and return its figures by name."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(pythonpath), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    subprocess.run(
        [sys.executable, str(HERE / "run.py"), "--only", "effects", "--json", str(out)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    data = json.loads(out.read_text(encoding="utf-8"))
    print(f"  {data['machine']}")
    return {f["figure"]: f for f in data["figures"] if "ratio" in f}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", metavar="DIR", help="build in DIR and keep it (default: a temporary folder)")
    args = parser.parse_args()
    try:
        import Cython  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError:
        sys.exit("needs Cython and setuptools: python -m pip install cython setuptools")
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="tcgtrig-compiled-"))
    try:
        site = work / "site"
        if site.exists():
            shutil.rmtree(site)
        sources = lay_out(site)
        print(f"compiling {len(sources)} modules with Cython in {site} ...", flush=True)
        (site / "build_cy.py").write_text(BUILD.format(threads=os.cpu_count() or 1), encoding="utf-8")
        subprocess.run(
            [sys.executable, "build_cy.py", *sources],
            cwd=site,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        print("measuring the pure-Python package ...", flush=True)
        pure = effects(None, work / "pure.json")
        print("measuring the compiled copy ...", flush=True)
        compiled = effects(site, work / "compiled.json")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n  {'figure':<56} {'pure Python':>18} {'compiled':>18} {'change':>8}")
    for name, before in pure.items():
        after = compiled[name]
        change = after["value_raw"] / before["value_raw"] - 1
        print(
            f"  {name:<56} {before['value_raw']:>8.1f} µs = {before['ratio']:>3.0f}× "
            f"{after['value_raw']:>8.1f} µs = {after['ratio']:>3.0f}× {change:>+7.0%}"
        )


if __name__ == "__main__":
    main()
