"""The bundled games.

Each game is a package ``tcgtrig.plugins.<game>`` with the same files:

- ``__init__.py`` — what the game is, in a docstring;
- ``hooks.py`` — only ``@hookimpl`` functions: the entry-point target;
- ``policy.py`` — the game's ordering rules as plain functions.

They are registered through the ``tcgtrig.games`` entry points exactly as a
third-party game would be; nothing in the core names them.
"""
