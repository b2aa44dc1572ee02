"""Public exceptions.

Every error a user can cause derives from :class:`TcgTrigError` and carries
structured attributes; ``str()`` is written from them.  The command line turns
any ``TcgTrigError`` into a message and exit status 2, never a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = [
    "TcgTrigError",
    "ScenarioError",
    "UnknownGameError",
    "PluginError",
    "ChoiceError",
]


def _legal(options: Iterable[str], limit: int = 40) -> str:
    opts = list(options)
    shown = ", ".join(opts[:limit])
    if len(opts) > limit:
        shown += f", … ({len(opts) - limit} more)"
    return shown or "(none)"


class TcgTrigError(Exception):
    """Base class of every error tcgtrig reports to a user."""


class ScenarioError(TcgTrigError):
    """A scenario file (or scenario data) is not valid.

    :param message: what was expected and what was found.
    :param file: the file name, when the data came from a file.
    :param line: the 1-based line of the offending key, when known.
    :param path: the key path, e.g. ``cards[2].abilities[0].when``.
    :param options: the legal values, for unknown ids and labels.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        path: str | None = None,
        options: Sequence[str] | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.path = path
        self.options = tuple(options) if options is not None else None
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.file or "<scenario>"
        if self.line is not None:
            where += f":{self.line}"
        text = f"{where}: "
        if self.path:
            text += f"{self.path}: "
        text += self.message
        if self.options is not None:
            text += f" (legal: {_legal(self.options)})"
        return text


class UnknownGameError(TcgTrigError):
    """No installed ruleset has the requested name."""

    def __init__(self, name: str | None, available: Sequence[str], what: str = "game") -> None:
        self.name = name
        self.available = tuple(available)
        self.what = what
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.name is None:
            return (
                "no game given: the file has no 'game' key, names no installed game in 'expect', "
                f"and no --game was passed (installed: {_legal(self.available)})"
            )
        if not self.available:
            return f"unknown game {self.name!r}: no game is installed (is tcgtrig installed? try: pip install -e .)"
        if self.what != "game":
            return f"unknown {self.what} {self.name!r} (legal: {_legal(self.available)})"
        return f"unknown game {self.name!r} (installed: {_legal(self.available)})"


class PluginError(TcgTrigError):
    """A game plugin failed to load, broke the hook contract, or raised.

    :param plugin: the game (entry-point) name.
    :param detail: what went wrong.
    :param hook: the hook being called, when the failure happened in one.
    """

    def __init__(self, plugin: str, detail: str, *, hook: str | None = None, activations: int | None = None) -> None:
        self.plugin = plugin
        self.detail = detail
        self.hook = hook
        #: effects activated before the failure, when it happened while
        #: resolving: the position after that many can be saved
        #: (``run --stop-after N --save``), and it is sound
        self.activations = activations
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"game plugin {self.plugin!r}"
        if self.hook:
            where += f" in hook {self.hook}"
        text = f"{where}: {self.detail}"
        if self.activations is not None:
            text += (
                f" (after {self.activations} activation{'s' if self.activations != 1 else ''}: "
                f"--stop-after {self.activations} --save STATE.json saves the position before it)"
            )
        return text


class ChoiceError(TcgTrigError):
    """A scripted choice is not one of the legal options of a decision.

    :param decision: a one-line description of the decision.
    :param label: the scripted label that was refused.
    :param legal: the labels that would have been accepted.
    :param index: the 1-based position of the label in the script.
    """

    def __init__(
        self,
        decision: str,
        label: str,
        legal: Sequence[str],
        *,
        index: int | None = None,
        file: str | None = None,
        line: int | None = None,
        path: str | None = None,
    ) -> None:
        self.decision = decision
        self.label = label
        self.legal = tuple(legal)
        self.index = index
        self.file = file
        self.line = line
        self.path = path
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line is not None else "") + ": "
        if self.path:
            where += f"{self.path}: "
        which = f"choice #{self.index} " if self.index is not None else "choice "
        return f"{where}{which}{self.label!r} is not legal for decision: {self.decision} (legal: {_legal(self.legal)})"
