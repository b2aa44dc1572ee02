"""The values a resolution is made of: cards, abilities, patterns, actions
and events (:mod:`~tcgtrig.model.values`), the game state, pending effects,
trace steps, and what crosses the hook contract (:mod:`~tcgtrig.model.info`).

All of them are plain attrs classes; none of them runs anything.
"""
