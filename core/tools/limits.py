"""The explorer's default limits, in a module of their own: the command
line shows them in its options' help without importing the explorer
(:mod:`tcgtrig.tools.explore`, which re-exports them)."""

from __future__ import annotations

#: Positions reached (the work budget, ``--max-states``) before the explorer stops.
DEFAULT_MAX_STATES = 100_000
#: Distinct outcomes kept before the explorer stops (``--max-outcomes``).
DEFAULT_MAX_OUTCOMES = 1_000
#: Answers on one decision path before the explorer stops (``--max-depth``).
DEFAULT_MAX_DEPTH = 1_000
#: The work budget of one question in ``play`` (``--skip-irrelevant``, ``outcomes``).
DEFAULT_QUESTION_BUDGET = 20_000
