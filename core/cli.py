"""The ``tcgtrig`` command.

Exit status: 0 success, 1 an expectation did not hold (``check``), 2 bad
input (a scenario file, an unknown game, an illegal scripted choice, a
broken plugin) — reported as one clear message, never a traceback.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import __version__
from .choices import InteractiveChooser, RandomChooser, ScriptedChooser
from .errors import TcgTrigError
from .expect import check_expectation
from .manager import available_games, list_games, load_ruleset
from .render import end_state_lines, render_tree
from .resolution import Resolution, pick_game, resolve
from .scenario import load_scenario, schema

__all__ = ["main"]


def _console(err: bool = False) -> Console:
    return Console(stderr=err, highlight=False, soft_wrap=False)


def _bad_input(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn tcgtrig errors into one line on stderr and exit status 2."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except TcgTrigError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)

    return wrapper


def _dump(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tcgtrig")
def main() -> None:
    """Decide in which order triggered effects resolve, game by game."""


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@_bad_input
def games(as_json: bool) -> None:
    """List the installed rulesets, their versions and where they come from."""
    listings = list_games()
    if as_json:
        _dump([{k: getattr(g, k) for k in ("name", "title", "version", "module", "distribution",
                                           "distribution_version", "error")} for g in listings])
        return
    if not listings:
        click.echo("no game is installed (is tcgtrig installed? try: pip install -e .)")
        return
    table = Table("game", "title", "version", "from", box=None, pad_edge=False)
    for g in listings:
        origin = f"{g.distribution} {g.distribution_version} · {g.module}"
        if g.error:
            table.add_row(g.name, f"[red]broken: {escape(g.error)}[/]", "", escape(origin))
        else:
            table.add_row(g.name, escape(g.title), g.version, escape(origin))
    _console().print(table)


def _chooser_options(func: Callable[..., Any]) -> Callable[..., Any]:
    func = click.option("--choice", "choices", multiple=True, metavar="LABEL",
                        help="A scripted choice (repeatable); replaces the file's choices.")(func)
    func = click.option("--random", "seed", type=int, default=None, metavar="SEED",
                        help="Let a seeded random chooser decide instead of the script.")(func)
    func = click.option("--max-steps", type=click.IntRange(min=1), default=None,
                        help="Activations before the resolution counts as an endless loop.")(func)
    return func


def _resolve(file: str, game: str | None, choices: tuple[str, ...], seed: int | None,
             max_steps: int | None, chooser: Any = None) -> Resolution:
    scenario = load_scenario(file)
    kwargs: dict[str, Any] = {}
    if max_steps is not None:
        kwargs["max_steps"] = max_steps
    if seed is not None:
        chooser = RandomChooser(seed)
    return resolve(scenario, pick_game(scenario, game), chooser=chooser,
                   choices=choices or None, **kwargs)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--game", "-g", help="The ruleset (default: the file's game).")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON trace.")
@_chooser_options
@_bad_input
def run(file: str, game: str | None, as_json: bool, choices: tuple[str, ...], seed: int | None,
        max_steps: int | None) -> None:
    """Resolve a scenario and print the resolution as a tree (or JSON)."""
    result = _resolve(file, game, choices, seed, max_steps)
    if as_json:
        _dump(result.to_json())
        return
    console = _console()
    console.print(render_tree(result))
    for line in end_state_lines(result):
        console.print(escape(line))


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--game", "-g", help="Check only this game's expectations.")
@_bad_input
def check(files: tuple[str, ...], game: str | None) -> None:
    """Verify each file's expect block for every game it names."""
    console = _console()
    failures = 0
    passes = 0
    installed = set(available_games())
    for file in files:
        scenario = load_scenario(file)
        expected = scenario.data.get("expect") or {}
        names = [game] if game else list(expected)
        if game and game not in expected:
            console.print(f"[yellow]SKIP[/] {escape(file)} {escape(f'[{game}]')}: no expectations for this game")
            continue
        if not names:
            console.print(f"[yellow]SKIP[/] {escape(file)}: no expect block")
            continue
        for name in names:
            if name not in installed:
                failures += 1
                console.print(f"[red]FAIL[/] {escape(file)} {escape(f'[{name}]')}: game {name!r} is not installed "
                              f"(installed: {', '.join(sorted(installed)) or 'none'})")
                continue
            result = resolve(scenario, name)
            mismatches = check_expectation(result, result.compiled.expect)  # type: ignore[arg-type]
            if not mismatches:
                passes += 1
                note = f" [dim](unused choices: {', '.join(result.unused_choices)})[/]" if result.unused_choices else ""
                console.print(f"[green]PASS[/] {escape(file)} {escape(f'[{name}]')}{note}")
                continue
            failures += 1
            console.print(f"[red]FAIL[/] {escape(file)} {escape(f'[{name}]')}")
            table = Table("key", "expected", "actual", show_lines=True)
            for m in mismatches:
                table.add_row(m.key, escape(_show(m.expected)), escape(_show(m.actual)))
            console.print(table)
    console.print(f"{passes} passed, {failures} failed")
    if failures:
        sys.exit(1)


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "\n".join(f"{i}. {v}" for i, v in enumerate(value, 1)) or "(none)"
    return str(value)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON: one entry per game.")
@_bad_input
def compare(file: str, as_json: bool) -> None:
    """Resolve one position under every installed ruleset, side by side."""
    scenario = load_scenario(file)
    results: dict[str, Resolution | str] = {}
    for name in available_games():
        try:
            results[name] = resolve(scenario, load_ruleset(name))
        except TcgTrigError as exc:
            results[name] = f"cannot resolve here: {exc}"
    if as_json:
        _dump({name: r if isinstance(r, str) else {
            "resolved": r.keys("resolved"), "outcome": r.outcome, "counters": r.to_json()["counters"]}
            for name, r in results.items()})
        return
    table = Table("#", *results, title=escape(scenario.title), show_lines=False)
    columns = {n: (r.keys("resolved") if not isinstance(r, str) else [r]) for n, r in results.items()}
    rows = max((len(c) for c in columns.values()), default=0)
    for i in range(rows):
        table.add_row(str(i + 1), *(escape(c[i]) if i < len(c) else "" for c in columns.values()))
    table.add_row("end", *(
        escape(r) if isinstance(r, str) else escape(f"{r.outcome}; " + "; ".join(
            f"{p}: " + ", ".join(f"{k} {v}" for k, v in sorted(r.state.counters.get(p, {}).items()))
            for p in r.state.players))
        for r in results.values()))
    _console().print(table)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--game", "-g", help="The ruleset (default: the file's game).")
@_bad_input
def play(file: str, game: str | None) -> None:
    """Resolve a scenario, asking you at the terminal for every decision."""
    chooser = InteractiveChooser(ask=lambda prompt: click.prompt(prompt, default="", show_default=False),
                                 say=click.echo)
    result = _resolve(file, game, (), None, None, chooser=chooser)
    console = _console()
    console.print(render_tree(result))
    for line in end_state_lines(result):
        console.print(escape(line))


@main.command(name="schema")
def schema_command() -> None:
    """Print the JSON Schema of scenario files."""
    _dump(schema())


if __name__ == "__main__":  # pragma: no cover
    main()
