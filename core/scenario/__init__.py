"""Scenario files: reading YAML and JSON safely, validating against the
schema (``schema/*.json``), compiling a file for a game, writing the model
back as scenario data, and game states to JSON and back.

``from tcgtrig.scenario import load_scenario`` (the path of the first
releases) still works: the package hands out
:mod:`~tcgtrig.scenario.reading`'s names when they are first asked for.
"""

from ..base.old_paths import names_of

__getattr__ = names_of(__name__, f"{__name__}.reading")
