"""A game's grammar for its printed text, loaded once."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import lark


def grammar(package: str, resource: str, **options: Any) -> lark.Lark:
    """The `lark` parser for the grammar file ``resource`` of ``package``
    (a ``.lark`` file beside the game's plugin), built once per process.

    ``options`` go to :class:`lark.Lark` (``start``, ``parser``,
    ``lexer``…); they must be hashable (several start rules: a tuple,
    ``start=("line", "effect")``, then ``parse(words, start="effect")``).  Lark is imported here, on first
    use: commands that read no card text do not pay for it.

    Example, in a plugin's reading module::

        PARSER = functools.partial(grammar, __package__, "digimon.lark", start="ability")
    """
    return _grammar(package, resource, tuple(sorted(options.items())))


@cache
def _grammar(package: str, resource: str, options: tuple[tuple[str, Any], ...]) -> lark.Lark:
    from importlib import resources  # here: 5 ms of every command's start (issue 40 item 3), needed by few

    import lark

    text = resources.files(package).joinpath(resource).read_text(encoding="utf-8")
    given = dict(options)
    if isinstance(given.get("start"), tuple):  # several start rules: lark takes a list (a tuple, to be hashable)
        given["start"] = list(given["start"])
    return lark.Lark(text, **given)
