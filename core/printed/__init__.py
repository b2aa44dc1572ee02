"""Printed card text, read into abilities.

Each game reads its own card text (:func:`~tcgtrig.games.hookspecs.tcgtrig_read_text`): its templates
are its policy.  The core holds what every game's reading shares:

- :class:`Reading`, what a game reads in a text: its abilities in the
  scenario language, each under the printed words it came from
  (:class:`ReadAbility`), the words that are read but are not abilities
  (reminder text, a digivolution cost: :class:`Skipped`), and the words it
  could not read;
- :class:`TextReader`, the loop every game runs: the text normalized and cut
  into the parts an ability is printed in, each part read by the game's
  grammar;
- :func:`grammar`, a game's `lark <https://lark-parser.readthedocs.io>`_
  grammar loaded once from the file beside its plugin;
- :class:`Unreadable` and :func:`number` (printed numbers, in figures or
  English words), for the readers' own code;
- :class:`Header`, what decides the order in an ability (its trigger event,
  optional or mandatory, "When" or "If", once per turn, speed): what the
  card-pool benchmark measures and ``check --strict`` compares.

An ability read from text is scenario data, so it is compiled, checked and
resolved exactly as one written by hand.
"""

from __future__ import annotations

from .grammar import grammar
from .reading import (
    NUMBER_WORDS,
    Header,
    ReadAbility,
    Reading,
    Skipped,
    TextReader,
    Unreadable,
    ability_ids,
    normalize,
    number,
    without_reminders,
)

__all__ = [
    "NUMBER_WORDS",
    "Header",
    "ReadAbility",
    "Reading",
    "Skipped",
    "TextReader",
    "Unreadable",
    "ability_ids",
    "grammar",
    "normalize",
    "number",
    "without_reminders",
]
