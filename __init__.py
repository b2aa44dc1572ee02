"""Not the package: the root of a clone of the tcgtrig repository.

The package ``tcgtrig`` is the folder ``core/`` (installed with ``python -m
pip install -e .``).  This file exists for one case (issue 37 item 19): Python
run from the folder that holds the clone, itself named ``tcgtrig``, finds the
clone first.  Without this file, ``import tcgtrig`` would quietly give an
empty namespace package and ``tcgtrig.resolve`` an unhelpful AttributeError;
with it, the import fails saying what happened.  Imported under any other
name (pytest takes the repository's root for a package) it does nothing.
"""

if __name__ == "tcgtrig":
    import os as _os

    raise ImportError(
        f"'import tcgtrig' found the folder {_os.path.dirname(_os.path.abspath(__file__))}, a clone of the "
        "tcgtrig repository, not the package (Python looks in the current folder first): run Python from "
        "another folder, for example from inside the clone, after 'python -m pip install -e .' there",
        name="tcgtrig",
        path=__file__,
    )
