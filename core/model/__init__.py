"""The values a resolution is made of: cards, abilities, patterns, actions
and events (:mod:`~tcgtrig.model.values`), the game state, pending effects,
trace steps, and what crosses the hook contract (:mod:`~tcgtrig.model.info`).

All of them are plain attrs classes; none of them runs anything.  ``from
tcgtrig.model import Card`` (the path of the first releases) still works:
the package hands out :mod:`~tcgtrig.model.values`' names when they are
first asked for.
"""

from ..base.old_paths import names_of

__getattr__ = names_of(__name__, f"{__name__}.values")
