"""Sphinx settings for the plugin authors' reference (issue 39 item 5).

Built from the docstrings: ``python -m sphinx -W --keep-going -b html
docs/reference build/reference`` (``.ci/run`` and ``tests/test_reference.py``
do).  Nothing here is read by the package itself."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the page helpers beside this file (_exports.py)

project = "tcgtrig"
author = "the tcgtrig authors"
copyright = "the tcgtrig authors, MIT licence"
extensions = ["sphinx.ext.autodoc", "_exports"]
root_doc = "index"
exclude_patterns: list[str] = []
html_theme = "alabaster"
html_static_path: list[str] = []
# A signature shows the names a hook receives; their types are read in the docstrings (:param:).
autodoc_typehints = "none"
autodoc_member_order = "bysource"
autodoc_default_options = {"undoc-members": False}
# Every reference must resolve: a misspelt :func: or :class: is a warning, and the build treats warnings as errors.
nitpicky = True
# What a docstring may name without the reference documenting it: the core's inner layers (a plugin
# never imports them; CONTRIBUTING.md describes them), names lark gives, and attributes a page shows in words.
nitpick_ignore_regex = [
    (r"py:.*", r"tcgtrig\.(runtime|base|scenario|language|tools\.(?!explore\.explore$)[a-z_]+)(\..*)?"),
    (r"py:.*", r"tcgtrig\.games\.(manager|ruleset|guard|meanings)(\..*)?"),
    (r"py:class", r"lark\..*"),
    (r"py:(attr|data)", r"pm|answers|ProgressShown"),
]
