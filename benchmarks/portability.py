"""Every bundled scenario file under every installed game, as ``tcgtrig
compare`` resolves it (the file's script under its own game, the default
answers elsewhere): how many compile, how many are refused (grouped by the
concept the game lacks), how many fail while resolving, and how many
resolve nothing where the file's own game resolves something.

Run by hand (``python benchmarks/portability.py [--json] [--list]``); issue
36 reports its figures before and after.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path

import tcgtrig
from tcgtrig.tools.compare import compare

ROOT = Path(__file__).resolve().parents[1]
GLOBS = (
    "tests/scenarios/**/*.yaml",
    "tests/plugins/*/positions/*.yaml",
    "examples/*.yaml",
    "examples/compare/*.yaml",
    "examples/games/*/scenarios/*.yaml",
)
#: a refusal's concept: the role, word or limit its message names
_CONCEPTS = (
    (re.compile(r"no (zone|event|flag|stat|counter) in the role '(\w+)'"), lambda m: f"{m[1]} role '{m[2]}'"),
    (re.compile(r"has no (\w+) state"), lambda m: f"flag role '{m[1]}'"),
    (re.compile(r"played by at most (\d+) players"), lambda m: f"at most {m[1]} players"),
    (re.compile(r"unknown action '(\w+)'"), lambda m: f"action '{m[1]}'"),
    (re.compile(r"'(\w+)' \([^)]*'s word\) has no meaning"), lambda m: f"word '{m[1]}'"),
    (re.compile(r"has no (\w+)"), lambda m: f"no {m[1]}"),
)


def concept(message: str) -> str:
    for pattern, name in _CONCEPTS:
        found = pattern.search(message)
        if found:
            return name(found)
    return message.split(": ", 2)[-1][:80]


def own_game(scenario: tcgtrig.Scenario, path: Path) -> str | None:
    for key in ("game", "words"):
        value = scenario.data.get(key)
        if isinstance(value, str):
            return value
    parts = path.relative_to(ROOT).parts
    for part in parts:
        if part in tcgtrig.available_games():
            return part
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument("--list", action="store_true", help="every refusal and silent pair, one a line")
    parser.add_argument("--files", help="a file listing the scenario files to measure (paths from the root)")
    args = parser.parse_args()
    files = sorted({p for pattern in GLOBS for p in ROOT.glob(pattern)})
    if args.files:
        wanted = set(Path(args.files).read_text(encoding="utf-8").split())
        files = [p for p in files if str(p.relative_to(ROOT)) in wanted]
    games = tcgtrig.available_games()
    compiled = refused = silent = errors = unexplained = 0
    concepts: collections.Counter[str] = collections.Counter()
    lines: list[str] = []
    for path in files:
        scenario = tcgtrig.load_scenario(path, check_game=False)
        own = own_game(scenario, path)
        names = [own if own and own.split("/")[0] == base else base for base in games]  # the file's own variant
        try:
            columns = compare(scenario, names, explore_budget=0).columns
        except tcgtrig.TcgTrigError as error:  # no game could resolve it, or bad input
            columns = ()
            lines.append(f"none     {path.relative_to(ROOT)}: {error}")
        results: dict[str, object] = {}
        said = {column.game: [n for n in column.notes if not n.startswith("nothing resolved")] for column in columns}
        for column in columns:
            if column.result is not None:
                compiled += 1
                results[column.game] = column.result
                continue
            try:
                scenario.compile(tcgtrig.load_ruleset(column.game))
            except tcgtrig.TcgTrigError:
                refused += 1
                concepts[concept(str(column.error))] += 1
                lines.append(f"refused  {path.relative_to(ROOT)} under {column.game}: {column.error}")
            else:
                compiled += 1
                errors += 1
                lines.append(f"error    {path.relative_to(ROOT)} under {column.game}: {column.error}")
        own_result = results.get(own) if own else None
        if own_result is None or not own_result.trace.effects("resolved"):  # type: ignore[attr-defined]
            continue
        for game, result in results.items():
            if game != own and not result.trace.effects("resolved"):  # type: ignore[attr-defined]
                silent += 1
                ended = any(result.trace.effects(kind) for kind in ("lost", "missed", "failed", "declined"))  # type: ignore[attr-defined]
                if not said.get(game) and not ended:
                    unexplained += 1
                lines.append(f"silent   {path.relative_to(ROOT)} under {game}")
    pairs = len(files) * len(games)
    figures = {
        "files": len(files),
        "games": games,
        "pairs": pairs,
        "compiled": compiled,
        "refused": refused,
        "refused_by_concept": dict(concepts.most_common()),
        "resolve_errors": errors,
        "silent_where_own_game_resolves": silent,
        "silent_with_no_note_and_nothing_ended": unexplained,
    }
    if args.json:
        json.dump(figures, sys.stdout, indent=2)
        print()
    else:
        print(f"{len(files)} files × {len(games)} games ({', '.join(games)}) = {pairs} pairs")
        print(f"  compiled: {compiled}    refused: {refused}    errors while resolving: {errors}")
        for name, count in concepts.most_common():
            print(f"    refused for {name}: {count}")
        print(f"  resolve nothing where the file's own game resolves something: {silent}")
        print(f"    of which no note says why and no effect ended otherwise (lost, missed, …): {unexplained}")
    if args.list:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
