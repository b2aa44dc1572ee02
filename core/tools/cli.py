"""The ``tcgtrig`` command.

Exit status: 0 success, 1 an expectation did not hold (``check``), 2 bad
input (a scenario file, an unknown game, an illegal scripted choice, a
broken plugin) — reported as one clear message, never a traceback — 3
ended early (a loop, the step limit, a budget or the memory bound), 130
stopped by Ctrl-C (one line, ``<command> stopped (Ctrl-C)``).

Each command imports what it uses when it runs: ``tcgtrig games`` does not
build the engine, ``tcgtrig run`` does not import the explorer, the HTML
page or jsonschema (which only explains an invalid file).
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import functools
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

import click

from .. import __version__
from ..base import collector
from ..base.errors import TcgTrigError
from ..base.safe_text import SafeStream, Shown, escape_controls
from ..scenario import input_size
from .limits import DEFAULT_MAX_DEPTH, DEFAULT_MAX_OUTCOMES, DEFAULT_MAX_STATES, DEFAULT_QUESTION_BUDGET

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from ..engine import Engine
    from ..expect import Mismatch
    from ..games.manager import Ruleset
    from ..resolution import Resolution
    from ..scenario.reading import Bindings, Bound, Scenario
    from .lint import Finding

__all__ = ["main"]


#: Exit status of ``run`` and ``resume`` when the resolution ended early,
#: and of ``explore`` when a budget stopped the search.
ENDED_EARLY = 3
#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130
#: the exit status when the reader of standard output went away (``| head``):
#: 128 + SIGPIPE, as a shell reports a tool the signal ended
READER_GONE = 141


#: Columns ``compare`` wraps its table and lines to off a terminal (COLUMNS overrides it).
PIPED_COMPARE_WIDTH = 100


#: Columns a table is laid out in off a terminal (``games``, ``words``): wide
#: enough that no row wraps, so that each stays one line to search.
PIPED_TABLE_WIDTH = 100_000


def _console(err: bool = False, piped_width: int = 1000) -> Console:
    """A rich console on standard output (or error).  It writes to the
    stream itself, not through :class:`~tcgtrig.base.safe_text.SafeStream` (its
    styles are escape sequences): what is printed through it is made safe
    where it is written (:func:`_markup`, :mod:`tcgtrig.tools.render`).

    Off a terminal, lines are written without the spaces rich pads a
    table's rows with to its width (issue 37 item 16: ``tcgtrig games >
    FILE`` wrote every row 1,000 columns wide)."""
    from rich.console import Console

    stream = sys.stderr if err else sys.stdout
    if isinstance(stream, SafeStream):
        stream = stream.stream
    # piped output is not wrapped at 80 columns, so it can be searched line by line
    width = None if stream.isatty() else piped_width

    class _Console(Console):
        def on_broken_pipe(self) -> None:  # rich exits 1: be the tool every other command is
            self.quiet = True
            _reader_gone()

    file = stream if width is None else cast("TextIO", _Unpadded(stream))
    return _Console(file=file, highlight=False, emoji=False, width=width)


class _Unpadded:
    """A text stream that drops the spaces at the end of each line (rich
    writes whole lines); everything else is the wrapped stream's."""

    _PADDING = re.compile(r" +(?=\n)")

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(self._PADDING.sub("", text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _plain(stream: Any) -> bool:
    """Whether rich would write plain text to ``stream`` (its
    ``Console.is_terminal`` false: no styles, nothing laid out to a
    terminal's width), decided without importing rich: the stream is not a
    terminal, and none of what rich also heeds says otherwise
    (``FORCE_COLOR``, ``TTY_COMPATIBLE=1``, a notebook).  Where it is not
    sure, rich decides (issue 40 item 3: rich is 20 ms of a command's
    start; piped output does not need it)."""
    if "FORCE_COLOR" in os.environ or os.environ.get("TTY_COMPATIBLE") == "1" or hasattr(builtins, "get_ipython"):
        return False
    if isinstance(stream, SafeStream):
        stream = stream.stream
    try:
        return not stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or closed: rich says
        return False


#: A table's cell: its text and its style on a terminal ("" for none).
Cell = tuple[str, str]

#: Characters rich lays out one column wide (a subset of ``rich.cells``'
#: own list): a table of only these is laid out here when piped.
_ONE_COLUMN = frozenset(map(chr, [*range(0x20, 0x7F), *range(0xA0, 0xAD), *range(0xAE, 0x300)]))


def _print_table(headers: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
    """A table on standard output, its columns two spaces apart and no
    line padded at its end: as rich prints it off a terminal
    (:data:`PIPED_TABLE_WIDTH` columns), without importing rich when every
    character is one column wide (``tests/test_cli_output.py`` holds the
    two to the same bytes); styled by rich on a terminal."""
    texts = [list(headers), *([text for text, _ in row] for row in rows)]
    widths = [max(len(row[column]) for row in texts) for column in range(len(headers))]
    if (
        _plain(sys.stdout)
        and sum(widths) + 2 * (len(widths) - 1) <= PIPED_TABLE_WIDTH
        and all(_ONE_COLUMN.issuperset(text) for row in texts for text in row)
    ):
        stream = sys.stdout.stream if isinstance(sys.stdout, SafeStream) else sys.stdout
        for line in texts:
            padded = (text.ljust(width) for text, width in zip(line, widths, strict=True))
            stream.write("  ".join(padded).rstrip(" ") + "\n")
        return
    from rich.table import Table

    table = Table(*map(_markup, headers), box=None, pad_edge=False)
    for cells in rows:
        table.add_row(*(f"[{style}]{_markup(text)}[/]" if style else _markup(text) for text, style in cells))
    _console(piped_width=PIPED_TABLE_WIDTH).print(table)


def _safe_streams() -> None:
    """Standard output and error show control and bidi characters escaped:
    nothing a command echoes from a scenario file acts on the terminal."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if not isinstance(stream, SafeStream):
            setattr(sys, name, SafeStream(stream))


def _markup(value: Any, lines: bool = False) -> str:
    """A value for rich markup: control and bidi characters shown escaped
    (with ``lines``, line breaks kept: a table cell of several lines), and
    ``[`` escaped so that it is not read as a style."""
    from rich.markup import escape

    return escape(escape_controls(str(value), lines))


def _tolerant_streams() -> None:
    """Never fail on a terminal that cannot show a character: print '?'."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):  # pragma: no cover - a closed or odd stream
                pass


def one_line(text: str) -> str:
    """A message as one line: a line break, a control or a bidi character
    from the input (a key, a player's name) is shown escaped."""
    return escape_controls(text)


def _bad_input(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn tcgtrig errors into one line on stderr and exit status 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except TcgTrigError as exc:
            click.echo(f"error: {one_line(str(exc))}", err=True)
            sys.exit(2)
        except MemoryError:
            # the bound is checked as the work goes; one allocation too big for what is left ends here
            from ..base import budget

            resident, _ = budget.usage()
            click.echo(
                f"error: out of memory ({budget.describe_size(resident)} in use): the work was stopped; "
                "--max-memory sets the bound tcgtrig stops at with a verdict",
                err=True,
            )
            sys.exit(ENDED_EARLY)

    return wrapper


def _complete_games(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion for ``--game``: the installed games and their variants."""
    from ..games.manager import list_games

    names: list[str] = []
    for listing in list_games():
        names.append(listing.name)
        names.extend(f"{listing.name}/{variant}" for variant, _ in listing.variants)
    return [name for name in names if name.startswith(incomplete)]


def _dump(data: Any) -> None:
    """JSON on standard output, streamed in chunks (a list in it may be a
    :class:`~tcgtrig.base.jsontext.Items`, made as it is written): a long trace
    is never held whole as text.  Its text escapes every character a
    terminal acts on (:mod:`tcgtrig.base.jsontext`), so it skips
    :class:`SafeStream`'s check: a trace can be hundreds of MB."""
    from ..base import jsontext
    from ..games.guard import unrouted

    stream = unrouted(sys.stdout)  # the output itself, even while plugins' printing goes elsewhere
    stream = stream.stream if isinstance(stream, SafeStream) else stream
    jsontext.dump(data, functools.partial(click.echo, nl=False, file=stream))
    click.echo("", file=stream)


def _plugins_print_aside(as_json: bool) -> contextlib.AbstractContextManager[None]:
    """With ``--json``, what plugin code prints while the command runs goes
    to standard error: standard output is the JSON alone (issue 37 item
    31: a hook that printed corrupted ``run --json``)."""
    if not as_json:
        return contextlib.nullcontext()
    from ..games.guard import prints_to_stderr

    return prints_to_stderr()


def _show_one_line(error: click.UsageError, file: Any = None) -> None:
    message = error.format_message().strip().rstrip(".")
    if message[1:2].islower():  # the style of the tool's other errors (a name in capitals stays)
        message = message[:1].lower() + message[1:]
    hint = f" (see: {error.ctx.command_path} --help)" if error.ctx is not None else ""
    click.echo(f"error: {message}{hint}", err=True)


class _Tool(click.Group):
    """The command group: a usage error (an unknown option or command, a
    bad value) is one line on stderr, like every other error, and exit 2.
    A command runs with the collector held back, and what is alive at the
    process's exit is frozen rather than collected once more
    (:mod:`tcgtrig.base.collector`)."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        collector.frozen_at_exit()
        with collector.held_back():
            return super().main(*args, **kwargs)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as error:
            error.show = functools.partial(_show_one_line, error)  # type: ignore[method-assign]
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            done = super().invoke(ctx)
            sys.stdout.flush()  # a reader gone is found here, not in the interpreter's last flush
            return done
        except click.UsageError as error:
            error.show = functools.partial(_show_one_line, error)  # type: ignore[method-assign]
            raise
        except KeyboardInterrupt:
            _stopped_by_ctrl_c(ctx.invoked_subcommand or "tcgtrig")
        except OSError as error:
            if error.errno != errno.EPIPE:
                raise
            _reader_gone()
        finally:
            _for_output()  # nothing stays kept for an output once the command is done (a test runs many)


def _reader_gone() -> None:
    """Standard output's reader went away (``tcgtrig run --json F | head``):
    stop quietly, exit status 141, as a command the pipe's signal ended.
    What is still buffered for standard output goes nowhere, so that
    flushing it at exit raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - standard output is not a file
        pass
    sys.exit(READER_GONE)


def _stopped_by_ctrl_c(command: str) -> None:
    """Ctrl-C: one line and exit status 130, for every command (workers of
    ``explore`` were ended where they were started)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not interrupt the exit
    _Progress.clear_shown()
    newline = "\n" if sys.stderr.isatty() else ""  # the terminal shows ^C where the cursor was
    click.echo(f"{newline}{command} stopped (Ctrl-C)", err=True)
    sys.exit(INTERRUPTED)


class _Progress:
    """How far a search has got, on standard error: on a terminal one line
    redrawn every ``every`` positions (and erased at the end); elsewhere a
    line every ``coarse`` positions, or nothing (``coarse=None``).  The count
    shown never goes back."""

    shown: _Progress | None = None  # the one whose line is on the terminal

    def __init__(self, what: str, *, coarse: int | None = None, every: int = 1_000) -> None:
        self.what = what
        self.terminal = sys.stderr.isatty()
        self.step = every if self.terminal else coarse
        self.next = self.step

    def __call__(self, reached: int) -> None:
        if self.step is None or self.next is None or reached < self.next:
            return
        self.next = (reached // self.step + 1) * self.step
        if self.terminal:
            _terminal_control("\r")
            click.echo(f"{self.what}… {reached:,} positions", err=True, nl=False)
            _Progress.shown = self
        else:
            click.echo(f"{self.what}… {reached:,} positions", err=True)

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        if _Progress.shown is self:
            _Progress.clear_shown()

    @staticmethod
    def clear_shown() -> None:
        """Erase the line a progress report left on the terminal."""
        if _Progress.shown is not None:
            _terminal_control("\r\033[K")
            _Progress.shown = None


def _terminal_control(codes: str) -> None:
    """Write the tool's own terminal control codes (a carriage return, an
    erase) to standard error as they are: the safe stream around it shows
    every control character escaped, which is right for text a file put
    there, not for these."""
    stream = sys.stderr
    raw = stream.stream if isinstance(stream, SafeStream) else stream
    raw.write(codes)
    raw.flush()


@click.group(cls=_Tool, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="tcgtrig")
def main() -> None:
    """Decide in which order triggered effects resolve, game by game."""
    _tolerant_streams()
    _safe_streams()


#: what the core assumes for a rule a game does not state (``tcgtrig games``)
_ASSUMED = {"trigger_multiplicity": "one trigger per moment assumed"}


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@_bad_input
def games(as_json: bool) -> None:
    """List the installed rulesets, their versions and where they come from."""
    from ..games.manager import list_games

    listings = list_games()
    if as_json:
        _dump(
            [
                {
                    k: getattr(g, k)
                    for k in ("name", "title", "version", "module", "distribution", "distribution_version", "error")
                }
                | {"variants": [{"name": n, "summary": s} for n, s in g.variants]}
                | ({"printed": g.printed} if g.printed else {})
                | (
                    {}
                    if g.error
                    else {"trigger_multiplicity": g.trigger_multiplicity or None, "unstated": [*g.unstated]}
                )
                for g in listings
            ]
        )
        return
    if not listings:
        click.echo("no game is installed (is tcgtrig installed? try: pip install -e .)")
        return
    shown = escape_controls  # what a plugin says is shown escaped
    rows: list[list[Cell]] = []
    for g in listings:
        origin = shown(f"{g.distribution} {g.distribution_version} · {g.module}")
        if g.error:
            rows.append([(shown(g.name), ""), (f"broken: {shown(one_line(g.error))}", "red"), ("", ""), (origin, "")])
        else:
            rows.append([(shown(g.name), ""), (shown(g.title), ""), (shown(g.version), ""), (origin, "")])
            for number, (variant, summary) in enumerate(g.variants):
                default = " (default)" if number == 0 else ""
                named = shown(f"  {g.name}/{variant}")
                rows.append([(named, ""), (shown(f"{summary}{default}"), ""), ("", ""), ("", "")])
            for rule in g.unstated:  # a rule every game should state (GameInfo.unstated)
                said = f"states no {shown(rule)} (GameInfo): {_ASSUMED.get(rule, 'cite it')}"
                rows.append([("", ""), (said, "yellow"), ("", ""), ("", "")])
        if g.printed:  # a plugin's printing is kept off the output: shown here, one line
            said = f"printed while loading: {shown(one_line(_shortened(g.printed)))}"
            rows.append([("", ""), (said, "dim"), ("", ""), ("", "")])
    _print_table(("game", "title", "version", "from"), rows)


@main.command()
@click.option("--game", "-g", "game", default=None, help="Only this game's words.", shell_complete=_complete_games)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@_bad_input
def words(game: str | None, as_json: bool) -> None:
    """List each game's words beside what they mean in core words."""
    from ..games.manager import available_games, shared_ruleset
    from ..games.meanings import word_meanings

    names = [game] if game else available_games()
    for name in names:
        shared_ruleset(name)  # an unknown game is bad input, naming the installed ones
    listing = {name: word_meanings(name) for name in names}
    if as_json:
        _dump(
            {
                name: [{"word": w, "sample": sample, "meaning": meaning} for w, sample, meaning in rows]
                for name, rows in listing.items()
            }
        )
        return
    table: list[list[Cell]] = []
    for name, rows in listing.items():
        for word, sample, meaning in rows:
            shown = f"{word}: {sample}  →  {meaning}" if meaning else "(takes a richer argument: see the game's docs)"
            table.append([(escape_controls(str(text)), "") for text in (name, word, shown)])
    _print_table(("game", "word", "means, in core words"), table)


def _shortened(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _chooser_options(func: Callable[..., Any]) -> Callable[..., Any]:
    func = click.option(
        "--choice",
        "choices",
        multiple=True,
        metavar="LABEL",
        help="A scripted choice (repeatable); replaces the file's choices.",
    )(func)
    func = click.option(
        "--random",
        "seed",
        type=int,
        default=None,
        metavar="SEED",
        help="A seeded random player decides (after any --choice; the file's choices are ignored).",
    )(func)
    func = click.option(
        "--max-steps",
        type=click.IntRange(min=1),
        default=None,
        help="Activations before the resolution counts as an endless loop.",
    )(func)
    return func


def _set_input_limit(ctx: click.Context, param: click.Parameter, value: int | None) -> None:
    if value is None:  # the default, or TCGTRIG_MAX_BYTES: a bad setting is said, not silently ignored
        try:
            value = input_size.parse_max_bytes(os.environ.get("TCGTRIG_MAX_BYTES", ""))
        except ValueError as exc:
            raise click.UsageError(f"TCGTRIG_MAX_BYTES: {exc}") from None
    from ..scenario import source

    source.MAX_BYTES = value if value is not None else input_size.DEFAULT_MAX_BYTES


#: ``ctx.meta`` key: ``--max-memory`` was given (``resume`` then lets it decide over the saved bound).
MEMORY_GIVEN = "tcgtrig.max_memory_given"


def _set_memory_limit(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    from ..base import budget

    if value is None:  # the default, or TCGTRIG_MAX_MEMORY: a bad setting is said, not silently ignored
        setting = os.environ.get("TCGTRIG_MAX_MEMORY", "").strip()
        try:
            if setting:
                budget.parse_size(setting)
        except ValueError as exc:
            raise click.UsageError(f"TCGTRIG_MAX_MEMORY: {exc}") from None
    else:
        try:
            budget.set_max_memory(budget.parse_size(value))
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
        ctx.meta[MEMORY_GIVEN] = True
    budget.keep_for_output()  # the bound holds while the output is written too (issue 37 item 34)


def _input_limit(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--max-bytes`` (the input's size) and ``--max-memory`` (the memory
    the command may use: :mod:`tcgtrig.base.budget`)."""
    func = click.option(
        "--max-memory",
        default=None,
        expose_value=False,
        is_eager=True,
        callback=_set_memory_limit,
        metavar="SIZE",
        help="Stop with a verdict (exit 3) at this memory in use "
        "(default 2G, or 80% of ulimit -v; also TCGTRIG_MAX_MEMORY; 'none': no bound).",
    )(func)
    return click.option(
        "--max-bytes",
        type=click.IntRange(min=1),
        default=None,
        expose_value=False,
        is_eager=True,
        callback=_set_input_limit,
        metavar="N",
        help=f"Refuse input larger than N bytes (default {input_size.DEFAULT_MAX_BYTES:,}; also TCGTRIG_MAX_BYTES).",
    )(func)


def _refuse_overwriting_input(output: str | None, file: str, option: str) -> None:
    """Refuse an output file that is the input file (the same path once
    resolved, or the same file by another name): writing it would destroy
    the scenario.  Called before any work."""
    if output is None or file == "-":
        return
    try:
        same = os.path.samefile(output, file)
    except OSError:  # one of them does not exist (yet): compare where the paths lead
        same = os.path.realpath(output) == os.path.realpath(file)
    if same:
        raise TcgTrigError(
            f"{option} {output}: that is the input file {file}: writing it would overwrite the "
            "scenario (name another file)"
        )


#: The name standard input goes by in messages, when a command reads ``-``.
STDIN_NAME = "<stdin>"


def _read(file: str) -> Scenario:
    """A scenario file, or standard input for ``-`` (every command that
    reads a scenario takes it: issue 37 item 34), read and checked once; it
    is compiled where it is bound to a game (:func:`_bound`, or per game)."""
    from ..scenario.reading import load_scenario, scenario_from_text

    if file == "-":
        return scenario_from_text(_read_stdin(), STDIN_NAME, check_game=False)
    return load_scenario(file, check_game=False)


def _bound(file: str, game: str | None) -> Bound:
    """A scenario file read once, bound to its game once: ``--game``, else
    the file's own (:func:`tcgtrig.scenario.reading.bind`: compiled once,
    for that game alone: a file may be resolved under a game whose words it
    uses but its own game lacks, issue 37 item 26).  A command loads each
    game's ruleset once (:func:`tcgtrig.games.manager.shared_ruleset`): the
    one the file is resolved under also reads its printed text and, for
    another game, its words."""
    from ..games.manager import pick_game, shared_ruleset
    from ..scenario.reading import bind

    scenario = _read(file)
    return bind(scenario, shared_ruleset(pick_game(scenario, game)))


def _read_stdin() -> str:
    """Standard input as scenario text, within the input limit; read once
    (``check - -``: the second ``-`` would find it empty)."""
    from ..scenario.source import read_limited

    meta = click.get_current_context().meta
    if meta.get(STDIN_READ):
        raise TcgTrigError(f"{STDIN_NAME}: standard input is read once: name '-' only once")
    meta[STDIN_READ] = True
    return read_limited(sys.stdin.buffer, STDIN_NAME)


#: ``ctx.meta`` key: the command read standard input as its file.
STDIN_READ = "tcgtrig.stdin_read"


def _resolve(
    file: str, game: str | None, choices: tuple[str, ...], seed: int | None, max_steps: int | None, chooser: Any = None
) -> tuple[Scenario, Resolution]:
    from ..choices import RandomChooser, ScriptedChooser
    from ..resolution import resolve

    bound = _bound(file, game)
    kwargs: dict[str, Any] = {}
    if max_steps is not None:
        kwargs["max_steps"] = max_steps
    if seed is not None:
        chooser = ScriptedChooser(list(choices), fallback=RandomChooser(seed))
    return bound.scenario, resolve(bound, chooser=chooser, choices=choices or None, **kwargs)


def _typos(scenario: Scenario, result: Resolution, strict: bool, bindings: Bindings | None = None) -> list[Finding]:
    """The typo warnings of a resolved file; with ``strict`` they are bad
    input, and so is a card's printed text that disagrees with the
    abilities written for it on what decides the order.  ``bindings``: the
    file's compiles so far (see :func:`tcgtrig.tools.lint.lint`)."""
    from .lint import lint, printed_disagreements

    findings = lint(scenario, result.engine.ruleset, result.compiled, bindings=bindings)
    if strict:
        findings += printed_disagreements(scenario)
    if strict and findings:
        more = f" (and {len(findings) - 1} more)" if len(findings) > 1 else ""
        raise TcgTrigError(f"{findings[0]}{more} (--strict: warnings are errors)")
    return findings


def _strict_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--strict",
        is_flag=True,
        help="Treat warnings (a name nothing emits or uses, a typo) as errors, and report where a card's printed "
        "text and its abilities disagree on what decides the order.",
    )(func)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--game", "-g", help="The ruleset (default: the file's game).", shell_complete=_complete_games)
@click.option("--json", "as_json", is_flag=True, help="Print the JSON trace.")
@click.option(
    "--stop-after",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Stop after N activations (with --save).",
)
@click.option(
    "--save",
    "save_to",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="STATE.json",
    help="Write the position reached and the options (with --stop-after); finish it with tcgtrig resume.",
)
@_chooser_options
@_strict_option
@_input_limit
@_bad_input
def run(
    file: str,
    game: str | None,
    as_json: bool,
    stop_after: int | None,
    save_to: str | None,
    choices: tuple[str, ...],
    seed: int | None,
    max_steps: int | None,
    strict: bool,
) -> None:
    """Resolve a scenario and print the resolution as a tree (or JSON).

    FILE may be ``-``: the scenario is read from standard input.  Exit
    status: 0 resolved to its end, 2 bad input, 3 ended early (an endless
    loop or the step limit; the outcome says how the game scores it).
    """
    if (stop_after is None) != (save_to is None):
        raise TcgTrigError("--stop-after and --save go together: stop after N activations, save to a file")
    _refuse_overwriting_input(save_to, file, "--save")
    if save_to is not None:
        _run_and_save(file, game, choices, seed, max_steps, stop_after or 0, save_to)
        return
    with _plugins_print_aside(as_json):
        scenario, result = _resolve(file, game, choices, seed, max_steps)
        for note in result.compiled.notes:  # how another game's words were read here
            click.echo(f"note: {note}", err=True)
        for finding in _typos(scenario, result, strict):
            click.echo(f"warning: {finding}", err=True)
        if result.unused_choices:
            click.echo(f"warning: scripted choices left unused: {', '.join(result.unused_choices)}", err=True)
        _show_resolution(result, as_json)
    _exit_for(result)


def _show_resolution(result: Resolution, as_json: bool) -> None:
    """The JSON trace, or the tree (rich is imported only for a tree on a terminal)."""
    _for_output()
    if as_json:
        _dump(result.to_dict(lazy=True))
        return
    from .render import print_tree, write_tree

    if _plain(sys.stdout):  # as the tree is printed off a terminal, without rich
        write_tree(result, _Unpadded(sys.stdout.stream if isinstance(sys.stdout, SafeStream) else sys.stdout))
    else:
        print_tree(result, _console())


def _for_output() -> None:
    """The work is done: the output may use what was kept for it (see
    :func:`tcgtrig.base.budget.keep_for_output`)."""
    from ..base import budget

    budget.for_output()


def _exit_for(result: Resolution) -> None:
    """Exit status 3 when the resolution did not run to its end (an endless
    loop, the step limit): scripts can tell it from success."""
    if result.outcome != "complete":
        sys.exit(ENDED_EARLY)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--game", "-g", help="Check only this game's expectations.", shell_complete=_complete_games)
@_strict_option
@_input_limit
@_bad_input
def check(files: tuple[str, ...], game: str | None, strict: bool) -> None:
    """Verify each file's expect block for every game it names.

    A directory is searched for scenario files (``*.yaml``, ``*.yml``,
    ``*.json``) at any depth; ``-`` is standard input.  Expectations for
    games that are not installed are skipped (and said so).  A name nothing emits or uses (a typo) is a
    warning; with ``--strict``, an error.  Exit status: 0 nothing failed,
    1 an expectation did not hold, 2 a file could not be read.
    """
    from ..games.manager import available_games, shared_ruleset

    _for_output()  # each file's verdict is written as it is found: nothing is kept for the end
    files = _scenario_files(files)
    tally = _Tally(_console(), strict, set(available_games()))
    chosen = shared_ruleset(game) if game is not None else None  # an unknown game or variant is bad input
    for file in files:
        _check_file(file, chosen, game, tally)
    tally.console.print(tally.summary())
    if tally.errors:
        sys.exit(2)
    if tally.failures:
        sys.exit(1)


class _Tally:
    """What ``check`` found so far, each verdict printed as it is counted."""

    def __init__(self, console: Console, strict: bool, installed: set[str]) -> None:
        self.console = console
        self.strict = strict
        self.installed = installed
        self.passes = self.failures = self.skips = self.errors = 0
        self.warned: set[tuple[str, str]] = set()  # a typo is said once for a file, not once per game

    def error(self, where: str, exc: TcgTrigError) -> None:
        """``ERROR``: a file (or a game's resolution of it) could not be read."""
        self.errors += 1
        self.console.print(f"[red]ERROR[/] {where}{_markup(one_line(str(exc)))}")

    def skip(self, what: str) -> None:
        """``SKIP``: ``what`` (markup) says what and why."""
        self.skips += 1
        self.console.print(f"[yellow]SKIP[/] {what}")

    def warn(self, finding: Finding) -> None:
        self.console.print(f"[yellow]WARN[/] {_markup(str(finding))}")

    def summary(self) -> str:
        """The last line: how many passed, failed, were skipped, errors."""
        line = f"{self.passes} passed, {self.failures} failed"
        if self.skips:
            line += f", {self.skips} skipped"
        if self.errors:
            line += f", {self.errors} error{'s' if self.errors != 1 else ''}"
        return line


def _check_file(file: str, chosen: Ruleset | None, game: str | None, tally: _Tally) -> None:
    """``check`` one file: each game's expectations in it (only ``chosen``'s
    with ``--game``), or why there is nothing to check."""
    from ..scenario.reading import Bindings

    try:
        scenario = _read(file)  # compiled per game below
    except TcgTrigError as exc:
        tally.error("", exc)
        return
    file = STDIN_NAME if file == "-" else file  # as messages name it
    expected = scenario.data.get("expect") or {}
    key = chosen.key_in(expected) if chosen is not None else None
    if chosen is not None and key is None:
        tally.skip(f"{_markup(file)} {_markup(f'[{game}]')}: no expectations for this game")
        return
    names = [key] if key else list(expected)
    bindings = Bindings(scenario)  # compiled once per game, also to lint it in its own words
    if not names:
        _check_without_expectations(file, bindings, tally)
    for name in names:
        _check_game(file, bindings, name, tally)


def _check_without_expectations(file: str, bindings: Bindings, tally: _Tally) -> None:
    """A file without an ``expect`` block is skipped, its typos warned of all
    the same when its game is installed (with ``--strict``: an error)."""
    from ..games.manager import shared_ruleset, split_game
    from .lint import lint

    scenario = bindings.scenario
    findings: list[Finding] = []
    if scenario.game and split_game(scenario.game)[0] in tally.installed:
        try:
            bound = bindings(shared_ruleset(scenario.game))
            findings = lint(scenario, bound.ruleset, bound.compiled, bindings=bindings)
        except TcgTrigError as exc:
            tally.error("", exc)
            return
    tally.skip(f"{_markup(file)}: no expect block")
    for finding in findings:
        tally.warn(finding)
    if tally.strict and findings:
        tally.errors += 1


def _check_game(file: str, bindings: Bindings, name: str, tally: _Tally) -> None:
    """``check`` one file's expectations for one game: PASS, FAIL (with a
    table of what differs), SKIP (the game is not installed) or ERROR."""
    from ..expect import check_scenario
    from ..games.manager import shared_ruleset, split_game

    scenario = bindings.scenario
    label = f"{_markup(file)} {_markup(f'[{name}]')}"
    if split_game(name)[0] not in tally.installed:
        tally.skip(
            f"{label}: game {_markup(repr(name))} is not installed "
            f"(installed: {_markup(', '.join(sorted(tally.installed)) or 'none')})"
        )
        return
    try:
        result, mismatches = check_scenario(scenario, shared_ruleset(name), bindings)
        found = [] if result is None else _typos(scenario, result, tally.strict, bindings)
        typos = [f for f in found if (f.file, f.path) not in tally.warned]
    except TcgTrigError as exc:
        tally.error(f"{label}: ", exc)
        return
    for finding in typos:
        tally.warned.add((finding.file, finding.path))
        tally.warn(finding)
    if not mismatches:
        tally.passes += 1
        if result is None:  # refused, as the file expects
            note = f" [dim](refused: {_markup(str(scenario.data['expect'][name]['refused']))})[/]"
        else:
            unused = ", ".join(result.unused_choices)
            note = f" [dim](unused choices: {_markup(unused)})[/]" if unused else ""
        tally.console.print(f"[green]PASS[/] {label}{note}")
        return
    tally.failures += 1
    tally.console.print(f"[red]FAIL[/] {label}")
    tally.console.print(_mismatch_table(mismatches))


def _mismatch_table(mismatches: list[Mismatch]) -> Table:
    """What ``check`` expected beside what happened, key by key."""
    from rich.table import Table

    table = Table("key", "expected", "actual", show_lines=True)
    for m in mismatches:
        table.add_row(_markup(m.key), _markup(_show(m.expected), lines=True), _markup(_show(m.actual), lines=True))
    return table


def _run_and_save(
    file: str,
    game: str | None,
    choices: tuple[str, ...],
    seed: int | None,
    max_steps: int | None,
    stop_after: int,
    save_to: str,
) -> None:
    """``run --stop-after N --save FILE``: the options go into the save."""
    from ..base import jsontext
    from ..choices import RandomChooser, ScriptedChooser
    from ..engine import DEFAULT_MAX_STEPS, Engine
    from ..saving import run_until, save_position

    bound = _bound(file, game)
    scenario = bound.scenario
    engine = Engine.for_scenario(bound, max_steps=max_steps or DEFAULT_MAX_STEPS)
    if seed is not None:  # as run does: after any --choice, the random player; the file's choices are ignored
        chooser = ScriptedChooser(list(choices), fallback=RandomChooser(seed))
    else:
        chooser = ScriptedChooser(list(choices) if choices else list(engine.compiled.choices))
    run_until(engine, chooser, stop_after)
    data = save_position(scenario, engine, chooser)
    _write_atomically(save_to, jsontext.dumps(data), "the saved position")
    done = "finished" if engine.finished else f"stopped after {stop_after} activation{'s' if stop_after != 1 else ''}"
    click.echo(
        f"{done}, {len(data['pending'])} effect{'s' if len(data['pending']) != 1 else ''} pending; "
        f"saved to {save_to} (finish it with: tcgtrig resume {save_to})"
    )


@main.command()
@click.argument("saved", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the JSON trace.")
@_input_limit
@_bad_input
def resume(saved: str, as_json: bool) -> None:
    """Finish a position saved by run --stop-after N --save FILE: the same
    resolution an uninterrupted run with the same options gives (the game,
    --choice, --random, --max-steps are the save's; the memory bound is the
    tighter of the saved one and the one in force, unless --max-memory is
    given here).  SAVED may be ``-``: standard input."""
    from ..saving import finish_position, read_position
    from ..scenario.source import parse_source, read_limited

    if saved == "-":
        saved, text = STDIN_NAME, _read_stdin()
    else:
        try:
            with open(saved, "rb") as stream:
                text = read_limited(stream, saved)
        except OSError as exc:
            raise TcgTrigError(f"{saved}: cannot read: {exc.strerror}") from None
    position = read_position(parse_source(text, saved, kind="json").data, saved)
    if not click.get_current_context().meta.get(MEMORY_GIVEN):
        _tighten_memory_bound(position.max_memory)
    with _plugins_print_aside(as_json):
        result = finish_position(position)
        _show_resolution(result, as_json)
    _exit_for(result)


@main.command()
@click.argument("source", metavar="TEXT|FILE")
@click.option("--game", "-g", help="The game whose card text it is.", shell_complete=_complete_games)
@click.option(
    "--type",
    "-t",
    "types",
    multiple=True,
    metavar="TYPE",
    help="The card's type as a scenario file gives it (the game's own words); repeatable.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of YAML.")
@_input_limit
@_bad_input
def read(source: str, game: str | None, types: tuple[str, ...], as_json: bool) -> None:
    """Print what a game reads in a card's printed text: the abilities, as
    scenario YAML to paste under the card's ``abilities:``, each under the
    words it came from.

    TEXT|FILE is the text itself, a file holding it, or ``-`` (standard
    input).  Exit status: 0 every word read, 1 some words not read (shown
    as ``NOT READ``), 2 bad input.
    """
    from ..games.manager import available_games, shared_ruleset
    from ..printed.show import reading_to_data, reading_to_yaml

    text = _printed_text(source)
    if game is None:
        readers = [name for name in available_games() if shared_ruleset(name).reads_text]
        raise TcgTrigError(f"say whose card text it is: --game GAME (legal: {', '.join(readers)})")
    ruleset = shared_ruleset(game)
    if not ruleset.reads_text:
        raise TcgTrigError(f"{ruleset.info.title} reads no printed text")
    with _plugins_print_aside(as_json):
        reading = ruleset.read_text(text, types)
    assert reading is not None  # reads_text
    _for_output()
    if as_json:
        _dump(reading_to_data(reading))
    else:
        click.echo(reading_to_yaml(reading), nl=False)
    if not reading.whole:
        sys.exit(1)


def _printed_text(source: str) -> str:
    """The text of ``tcgtrig read``'s argument: standard input for ``-``, a
    file's contents, or the argument itself."""
    from ..scenario.source import read_limited

    if source == "-":
        return _read_stdin()
    where = Path(source)
    if "\n" not in source and len(source) < 4096 and where.is_file():
        try:
            with where.open("rb") as stream:
                return read_limited(stream, source)
        except OSError as exc:
            raise TcgTrigError(f"{source}: cannot read: {exc.strerror}") from None
    return source


def _tighten_memory_bound(saved: int | None) -> None:
    """The tighter of the memory bound in force and ``saved`` (a save can
    lower the bound, never lift it: it may come from anywhere)."""
    from ..base import budget

    current = budget.max_memory()
    if saved is not None and (current is None or saved < current):
        budget.set_max_memory(saved)
        budget.keep_for_output()


def _scenario_files(paths: tuple[str, ...]) -> tuple[str, ...]:
    """The files named, with each directory replaced by the scenario files
    under it, in sorted order."""
    out: list[str] = []
    for path in paths:
        where = Path(path)
        if where.is_dir():
            found = sorted(p for p in where.rglob("*") if p.suffix in (".yaml", ".yml", ".json") and p.is_file())
            if not found:
                raise TcgTrigError(f"{path}: no scenario files (*.yaml, *.yml, *.json) in this directory")
            out.extend(str(p) for p in found)
        else:
            out.append(path)
    return tuple(out)


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "\n".join(f"{i}. {v}" for i, v in enumerate(value, 1)) or "(none)"
    return str(value)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--games",
    "games",
    default=None,
    metavar="A,B,…",
    help="The rulesets to compare, variants included (GAME/VARIANT); default: every installed game.",
)
@click.option(
    "--json", "as_json", is_flag=True, help='Print JSON: {"games": {GAME: <JSON trace>}, "differences": [...]}.'
)
@click.option(
    "--html",
    "html_out",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Also write one self-contained HTML page with the games as columns.",
)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help="Also compare each game's own bookkeeping (marks), which is no rule of the game.",
)
@_input_limit
@_bad_input
def compare(file: str, games: str | None, as_json: bool, html_out: str | None, everything: bool) -> None:
    """Resolve one position under every installed ruleset, side by side,
    then say where the games part ways by their rules (names that differ
    only as words are listed as the games' vocabulary).  FILE may be ``-``:
    standard input."""
    from ..base import budget
    from .compare import compare as compare_all
    from .compare import comparison_json

    _refuse_overwriting_input(html_out, file, "--html")
    budget.keep_for_output(COMPARE_OUTPUT_SHARE)  # several resolutions, then a table and a page
    scenario = _read(file)  # compiled per game below
    names = [name.strip() for name in games.split(",") if name.strip()] if games else None
    with _plugins_print_aside(as_json):
        comparison = compare_all(scenario, names)
        _for_output()
        if html_out is not None:
            from .compare_html import comparison_html

            page = comparison_html(scenario.title, comparison, scenario, everything=everything)
            _write_atomically(html_out, page, "the page")
            del page  # written: its memory is the table's
        if as_json:
            _dump(comparison_json(comparison, lazy=True, everything=everything))
            return
    _print_comparison(scenario.title, comparison, everything)


#: The share of the memory bound's room ``compare`` keeps for its output
#: (:func:`tcgtrig.base.budget.keep_for_output`; a command with one
#: resolution keeps a quarter).
COMPARE_OUTPUT_SHARE = 0.5
#: Rows of the ``compare`` table at most (the JSON lists every effect).
MAX_COMPARE_ROWS = 1_000


def _print_comparison(title: str, comparison: Any, everything: bool = False) -> None:
    """The games as columns, then how each read the file, where they part
    ways, and the words they name alike things by: names escaped and
    shortened, and wrapped to :data:`PIPED_COMPARE_WIDTH` columns off a
    terminal (or to ``COLUMNS``)."""
    shown = Shown()
    results = comparison.results
    # each game's order (or, in its first row, why it cannot resolve the file)
    columns = {n: (r.keys("resolved") if not isinstance(r, str) else [r]) for n, r in results.items()}
    width = os.environ.get("COLUMNS", "")
    console = _console(piped_width=int(width) if width.isdigit() else PIPED_COMPARE_WIDTH)
    console.print(_comparison_table(title, results, columns, shown))
    rows = max((len(c) for c in columns.values()), default=0)
    _print_lines(console, _column_lines(comparison, shown))
    _print_where_games_part(console, comparison, rows > MAX_COMPARE_ROWS, shown, everything)


def _column_lines(comparison: Any, shown: Shown) -> list[str]:
    """How each game read the file: its notes (what it lacks of the file's
    words, its warnings, whose choices were set aside), the distinct
    outcomes where the answers matter, and the file's own reason."""
    lines: list[str] = []
    for column in comparison.columns:
        said = [f"  {shown.sentence(note)}" for note in column.notes]
        result = column.result
        if result is not None and result.outcome != "complete":  # stopped, or the game ended: say why
            said.append(f"  outcome: {shown(result.outcome)} — {shown.sentence(result.reason)}")
        if column.outcomes:
            said.append(
                f"  the answers change the result: {len(column.outcomes)} distinct outcomes "
                f"({shown.sentence(column.explored)}):"
            )
            for number, result in enumerate(column.outcomes, 1):
                order = " → ".join(shown(k) for k in result.keys("resolved")) or "(nothing resolved)"
                said.append(f"    {number}. {order}{' (the default answers)' if number == 1 else ''}")
        if column.because:
            said.append(f"  the file says why: {shown.sentence(' '.join(column.because.split()))}")
        if said:
            lines += [f"{shown(column.game)}:", *said]
    return ["How each game read the file:", *lines] if lines else []


def _print_lines(console: Console, lines: list[str]) -> None:
    """Lines wrapped to the console, an indented line's rest indented more."""
    import textwrap

    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        wrapped = (
            textwrap.fill(
                line,
                width=console.width,
                subsequent_indent=" " * (indent + 4) if indent else "",
                break_on_hyphens=False,
            )
            if line
            else ""
        )
        console.print(wrapped, markup=False, highlight=False, soft_wrap=True)


def _comparison_table(title: str, results: dict[str, Any], columns: dict[str, list[str]], shown: Shown) -> Table:
    """``compare``'s table: a column a game, a row an effect resolved (at
    most :data:`MAX_COMPARE_ROWS`), then how each game ended."""
    from rich.table import Table

    table = Table("#", title=_markup(shown.sentence(title)))
    for name in results:
        table.add_column(_markup(shown(name)), overflow="fold")  # a long word is folded, not cut
    rows = max((len(c) for c in columns.values()), default=0)
    for i in range(min(rows, MAX_COMPARE_ROWS)):
        table.add_row(
            str(i + 1),
            *(
                ""
                if i >= len(c)
                else _markup(
                    f"cannot resolve: {escape_controls(c[i])}"  # a message: in full
                    if isinstance(results[n], str)
                    else shown(c[i])
                )
                for n, c in columns.items()
            ),
        )
    if rows > MAX_COMPARE_ROWS:
        table.add_row(
            "…", *(f"{len(c) - MAX_COMPARE_ROWS:,} more" if len(c) > MAX_COMPARE_ROWS else "" for c in columns.values())
        )
    table.add_row("end", *("" if isinstance(r, str) else _markup(_game_end(r, shown)) for r in results.values()))
    return table


def _game_end(result: Resolution, shown: Shown) -> str:
    """How one game ended, for ``compare``'s last row: the outcome, then
    each player's counters."""
    counters = (
        f"{shown(p)}: " + ", ".join(f"{shown(k)} {v}" for k, v in sorted(result.state.counters.get(p, {}).items()))
        for p in result.state.players
    )
    return f"{shown(result.outcome)}; " + "; ".join(counters)


def _print_where_games_part(console: Console, comparison: Any, cut: bool, shown: Shown, everything: bool) -> None:
    """Below ``compare``'s table: the differences by rule (or that there
    are none), a line each, wrapped to the console; the vocabulary (names
    that differ only as words); then what the table left out (``cut``:
    rows past :data:`MAX_COMPARE_ROWS`; names shortened)."""
    from ..base.safe_text import SHORTENED_NOTE
    from .compare import (
        describe_difference,
        describe_vocabulary,
        describe_why,
        differences,
        no_differences,
        vocabulary,
    )

    found = differences(comparison, everything=everything)
    lines = []
    for difference in found:
        lines.append(f"  {describe_difference(difference, shown)}")
        lines += [f"    why, {line}" for line in describe_why(difference, shown)]
    words = vocabulary(comparison)
    if words:
        lines.append("The same things, named by each game (no difference of rules):")
        lines += [f"  {describe_vocabulary(entry, shown)}" for entry in words]
    if cut:
        lines.append(f"The table shows the first {MAX_COMPARE_ROWS:,} effects (compare --json lists every one).")
    if shown.shortened:
        lines.append(SHORTENED_NOTE[:1].upper() + SHORTENED_NOTE[1:] + ".")
    said = ["Where the games part ways:"] if found else [no_differences(comparison, everything=everything) or ""]
    _print_lines(console, said + lines)


def _write_atomically(path: str, text: str, what: str) -> None:
    """Write ``text`` to ``path``.  A file (or a new one) is written all at
    once: to a temporary file beside it, then renamed over it (a symbolic
    link: over the file it leads to).  If anything fails, ``path`` is as it
    was and the temporary file is removed.

    A FIFO or a character device (``/dev/null``, ``/dev/stdout``, a
    terminal) is written directly: renaming over it would put a file in its
    place (run as root, ``--save /dev/null`` replaced ``/dev/null``, issue 37
    item 25).  Anything else that is not a file (a directory, a socket, a
    block device) is refused, and nothing is ever renamed over it."""
    kind = _not_a_file(path, what)
    if kind in ("a FIFO", "a character device"):
        _write_directly(path, text, what)
        return
    if kind is not None:
        raise TcgTrigError(f"{path}: cannot write {what}: {kind}, not a file (name a file)")
    _write_by_renaming(path, text, what)


def _not_a_file(path: str, what: str) -> str | None:
    """What ``path`` leads to when that is not a file (``None``: a file, or nothing yet)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a directory" if path.endswith(("/", os.sep)) else None
    except OSError as exc:
        raise TcgTrigError(f"{path}: cannot write {what}: {exc.strerror}") from None
    kinds = (
        (stat.S_ISREG, None),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "a special file")


def _write_directly(path: str, text: str, what: str) -> None:
    """Write ``text`` into a FIFO or a device, a slice at a time (a reader
    may be slow; the text is not copied whole)."""
    import re

    if (half := re.search("[\ud800-\udfff]", text)) is not None:  # never write part of it
        raise TcgTrigError(f"{path}: cannot write {what}: half a character ({half.group()!r})")
    try:
        with open(path, "w", encoding="utf-8") as out:
            for start in range(0, len(text), _SLICE):
                out.write(text[start : start + _SLICE])
    except OSError as exc:
        raise TcgTrigError(f"{path}: cannot write {what}: {exc.strerror}") from None


#: Characters written at a time into a FIFO or a device.
_SLICE = 1 << 20


def _write_by_renaming(path: str, text: str, what: str) -> None:
    """:func:`_write_atomically` for a file: a temporary file renamed over it."""
    import tempfile

    target = os.path.realpath(path)
    try:
        descriptor, temporary = tempfile.mkstemp(
            prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=os.path.dirname(target)
        )
    except OSError as exc:
        raise TcgTrigError(f"{path}: cannot write {what}: {exc.strerror}") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(text)
        try:
            mode = os.stat(target).st_mode & 0o777  # the file's own permissions, when it is replaced
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask  # as open() would have made it
        os.chmod(temporary, mode)
        if (kind := _not_a_file(target, what)) is not None:  # it became one meanwhile: never rename over it
            raise TcgTrigError(f"{path}: cannot write {what}: {kind}, not a file (name a file)")
        os.replace(temporary, target)
    except BaseException as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise TcgTrigError(f"{path}: cannot write {what}: {exc.strerror}") from None
        if isinstance(exc, UnicodeEncodeError):  # text that is not text (half a character from a plugin)
            raise TcgTrigError(
                f"{path}: cannot write {what}: {exc.reason} ({exc.object[exc.start : exc.end]!r})"
            ) from None
        raise


def _max_states_option(default: int, what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--max-states``: the work budget of a search (:mod:`tcgtrig.tools.explore`)."""
    return click.option(
        "--max-states",
        type=click.IntRange(min=1),
        default=default,
        show_default=True,
        metavar="N",
        help=f"The work budget {what}: positions reached — the start, and one for every option tried.",
    )


def _max_depth_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--max-depth``: the answers on one decision path of a search."""
    return click.option(
        "--max-depth",
        type=click.IntRange(min=1),
        default=DEFAULT_MAX_DEPTH,
        show_default=True,
        metavar="N",
        help="Stop exploring before a decision path would take more answers (a resolution that may never end).",
    )(func)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--game", "-g", help="The ruleset (default: the file's game).", shell_complete=_complete_games)
@_max_states_option(DEFAULT_MAX_STATES, "of the whole search")
@click.option(
    "--max-outcomes",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_OUTCOMES,
    show_default=True,
    metavar="N",
    help="The distinct outcomes kept: the search stops when it finds one more.",
)
@_max_depth_option
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: every core).  A search of more than 2,000 positions whose branches "
    "rarely meet is explored option by option, the first decision's options going to the workers, "
    "which share the budget: the answer is the same on any number of cores.",
)
@click.option(
    "--every-order",
    is_flag=True,
    help="Try every order of effects that commute with everything else too (by default one order stands for "
    "all of them: the outcomes are the same, their path counts are then at least the numbers shown).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help='Print JSON: {"outcomes": [{"choices", "counters", "zones", "flags", "paths"}], "states": N, '
    '"reached": N, "complete": …, "stopped": …, "decisions": […]}.',
)
@_input_limit
@_bad_input
def explore(
    file: str,
    game: str | None,
    max_states: int,
    max_outcomes: int,
    max_depth: int,
    jobs: int | None,
    every_order: bool,
    as_json: bool,
) -> None:
    """Try every legal decision; list each distinct outcome with a choices
    script that reaches it and how many decision paths lead there.  FILE
    may be ``-``: standard input.

    Exit status 3 when a budget (--max-states, --max-outcomes, --max-depth,
    the memory bound) stopped the search: the outcomes listed are those
    found so far, and standard error says what was cut.
    """
    from .explore import explore as explore_positions

    with _plugins_print_aside(as_json):  # (workers are forked where they can be: they keep this thread's route)
        bound = _bound(file, game)
        with _Progress("exploring") as progress:
            found = explore_positions(
                bound,
                max_states=max_states,
                max_outcomes=max_outcomes,
                max_depth=max_depth,
                jobs=jobs,
                progress=progress,
                reduce=not every_order,
            )
    _for_output()
    if not found.complete:
        click.echo(
            f"warning: stopped early: {_why_stopped(found)}; {found.states:,} positions asked, "
            f"{found.reached:,} reached; the {len(found.outcomes):,} outcomes listed are those found so far",
            err=True,
        )
    if as_json:
        _dump(found.to_json())
    else:
        _show_outcomes(found)
    if not found.complete:
        sys.exit(ENDED_EARLY)


def _why_stopped(found: Any) -> str:
    """What stopped a search, and the option that raises that budget."""
    hint = {
        "work": " (--max-states raises it)",
        "outcomes": " (--max-outcomes raises it)",
        "depth": " (--max-depth raises it)",
    }
    return f"{found.reason}{hint.get(found.stopped_by, '')}"


def _show_outcomes(found: Any) -> None:
    matters = sum(1 for d in found.decisions if d["matters"])
    click.echo(
        f"{len(found.outcomes)} distinct outcome{'s' if len(found.outcomes) != 1 else ''} from "
        f"{found.states} position{'s' if found.states != 1 else ''} asked; the answer changes the "
        f"outcome at {matters} of them"
    )
    first = found.outcomes[0].end if found.outcomes else None
    if found.reduced:
        click.echo(
            f"one order stood for all at {found.reduced:,} position{'s' if found.reduced != 1 else ''}: "
            "effects that commute with everything else (--every-order tries them all)"
        )
    for number, outcome in enumerate(found.outcomes, 1):
        counted = f"{'at least ' if outcome.at_least else ''}{outcome.paths} path{'s' if outcome.paths != 1 else ''}"
        click.echo(f"\n{number}. {outcome.outcome} — {counted}")
        click.echo(f"   choices{_script(outcome.choices)}")
        if first is not None and number > 1:
            for line in _end_differences(first, outcome.end):
                click.echo(f"   {line}")
        elif number == 1:
            click.echo(
                "   counters: "
                + "; ".join(
                    f"{p}: " + (", ".join(f"{k} {v}" for k, v in values.items()) or "—")
                    for p, values in outcome.end["counters"].items()
                )
            )


#: Answers of a script shown in full; a longer one shows its first and last ones (``--json`` has it all).
SCRIPT_SHOWN = 40


def _script(choices: list[str]) -> str:
    """``: [a, b]``, or for a long script ``(2,076 answers): [a, …, z]``."""
    if len(choices) <= SCRIPT_SHOWN:
        return f": [{', '.join(choices)}]"
    head, tail = choices[: SCRIPT_SHOWN - 10], choices[-5:]
    return (
        f" ({len(choices):,} answers; --json lists them all): [{', '.join(head)}, … "
        f"{len(choices) - len(head) - len(tail):,} more …, {', '.join(tail)}]"
    )


def _end_differences(first: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """How an end state differs from the first outcome's, a line each in
    words (a counter, a card's zone, flags or stat; the game's marks), never
    a Python repr: ``counter A memory: 0 (outcome 1: 1)``."""
    shown = Shown()
    lines = []
    for part, label in (("counters", "counter"), ("zones", "zone"), ("flags", "flags"), ("stats", "stat")):
        was, now = first.get(part) or {}, other.get(part) or {}
        for key in {**was, **now}:  # a player or a card
            if part in ("counters", "stats"):  # → name → value
                before, after = was.get(key) or {}, now.get(key) or {}
                changed = [(f"{shown(key)} {shown(n)}", before.get(n), after.get(n)) for n in {**before, **after}]
            else:  # → its zone, or its flags
                changed = [(shown(key), was.get(key), now.get(key))]
            lines += [
                f"{label} {what}: {_end_value(new, shown)} (outcome 1: {_end_value(old, shown)})"
                for what, old, new in changed
                if old != new
            ]
    if (first.get("marks") or []) != (other.get("marks") or []):
        lines.append(
            f"marks: {_end_value(other.get('marks'), shown)} (outcome 1: {_end_value(first.get('marks'), shown)})"
        )
    return lines


def _end_value(value: Any, shown: Shown) -> str:
    """One value of an end state in words: a list as its items, nothing as ``none``."""
    if isinstance(value, (list, tuple)):
        return ", ".join(shown(item) for item in value) or "none"
    return "none" if value is None else shown(value)


def _read_answer(prompt: str) -> str:
    """One line from the person; the end of input stops the session."""
    click.echo(f"{prompt}: ", nl=False)
    stream = _answers()
    line = stream.readline() if stream is not None else ""
    if stream is None or not stream.isatty():
        click.echo()  # a terminal shows the typed answer and its newline; a pipe does not
    if stream is None:
        raise TcgTrigError(
            "play stopped: no answer: the scenario was read from standard input and there is no "
            "terminal to answer at (name the file, and answer on standard input)"
        )
    if not line:
        raise TcgTrigError("play stopped: no answer (end of input)")
    return line.strip()


#: The terminal ``play -`` reads its answers from.
TERMINAL = "/dev/tty"


def _answers() -> Any:
    """Where ``play`` reads its answers: standard input, or the terminal
    (``/dev/tty``) when standard input was the scenario (``play -``);
    ``None``: it was, and there is no terminal."""
    context = click.get_current_context(silent=True)
    if context is None or not context.meta.get(STDIN_READ):
        return sys.stdin
    if "tcgtrig.terminal" not in context.meta:
        try:
            terminal: Any = context.with_resource(open(TERMINAL, encoding="utf-8", errors="replace"))
        except OSError:
            terminal = None
        context.meta["tcgtrig.terminal"] = terminal
    return context.meta["tcgtrig.terminal"]


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--game", "-g", help="The ruleset (default: the file's game).", shell_complete=_complete_games)
@click.option(
    "--skip-irrelevant", is_flag=True, help="Do not ask when exploring shows that no answer can change the outcome."
)
@_max_states_option(DEFAULT_QUESTION_BUDGET, "of each question explored (--skip-irrelevant, outcomes)")
@_max_depth_option
@_input_limit
@_bad_input
def play(file: str, game: str | None, skip_irrelevant: bool, max_states: int, max_depth: int) -> None:
    """Resolve a scenario, asking you at the terminal for every decision.

    Answer with a number or a label (Enter: the default); ``undo`` takes
    back your last answer (the position is rebuilt by replaying the ones
    before), ``outcomes`` shows where each option leads.  At
    the end, the ``choices:`` block that replays the session.  Exploring
    (--skip-irrelevant, outcomes) works within --max-states positions and
    --max-depth answers a question and shows its progress on standard
    error; past the budget, the question is asked.  Exit status: as
    ``run`` (3 when the resolution ended early: an endless loop, a limit).
    FILE may be ``-``: the scenario is read from standard input, the
    answers from the terminal.
    """
    from ..choices import InteractiveChooser, UndoAnswer
    from ..engine import Engine
    from .render import print_tree

    bound = _bound(file, game)
    chooser = InteractiveChooser(
        _read_answer_now,
        _say,
        skip_irrelevant=skip_irrelevant,
        undo=True,
        outcomes=True,
        max_states=max_states,
        max_depth=max_depth,
        progress=_question_progress,
        why_stopped=_why_stopped,
    )
    engine = Engine.for_scenario(bound)
    shown = 0  # trace steps shown so far
    while True:
        decision = engine.advance()
        shown = _show_steps(engine, shown)
        if decision is None:
            break
        try:
            engine.answer(chooser.choose(decision, engine))
        except UndoAnswer as undo:  # the position of the answer taken back, by replaying the ones before
            engine = _replayed(Engine.for_scenario(bound), undo.answers)
            shown = len(engine.trace)
    engine.title = bound.scenario.title
    result = engine.result()
    _for_output()
    print_tree(result, _console())
    click.echo("\nTo replay this session, put in the file:")
    click.echo(f"choices: [{', '.join(chooser.answers)}]")
    _exit_for(result)  # as run: 3 when the resolution ended early


def _read_answer_now(prompt: str) -> str:
    """:func:`_read_answer`, looked up when asked (a test replaces it)."""
    return _read_answer(prompt)


def _say(line: str) -> None:
    """One line of ``play``, below any progress line it replaces."""
    _Progress.clear_shown()
    click.echo(line)


def _show_steps(engine: Engine, shown: int) -> int:
    """``play``: the trace steps after the first ``shown``, one line each
    (the answers aside); returns how many steps are shown now."""
    from .render import step_line

    names = {c.id: c.name for c in engine.state.cards.values()}
    for step in engine.trace[shown:]:
        if step.kind != "choice":
            click.echo(f"  · {step_line(step, names)}")
    return len(engine.trace)


def _replayed(engine: Engine, answers: tuple[str, ...]) -> Engine:
    """``engine`` (at the start) after answering its decisions with
    ``answers`` in order: the engine is deterministic, so this is the
    position those answers reached before."""
    for label in answers:
        if engine.advance() is None:  # pragma: no cover - a deterministic engine asks again
            raise TcgTrigError(f"play: cannot replay the answers given ({', '.join(answers)}): the resolution ended")
        engine.answer(label)
    return engine


#: Positions explored between two progress lines when standard error is not a terminal (``play``).
QUESTION_PROGRESS_EVERY = 5_000


def _question_progress(what: str) -> _Progress:
    """``play``'s progress while it explores for a question."""
    return _Progress(what, coarse=QUESTION_PROGRESS_EVERY)


@main.command(name="schema")
@click.option("--trace", is_flag=True, help="The JSON Schema of the JSON trace instead.")
def schema_command(trace: bool) -> None:
    """Print the JSON Schema of scenario files (or of the JSON trace)."""
    from ..scenario.reading import schema

    _dump(schema("trace" if trace else "scenario"))


if __name__ == "__main__":  # pragma: no cover
    main()
