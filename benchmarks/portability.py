"""Every bundled scenario file under every installed game: how many
compile, how many are refused (grouped by the concept the game lacks),
and how many resolve nothing where the file's own game resolves something.

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
    args = parser.parse_args()
    files = sorted({p for pattern in GLOBS for p in ROOT.glob(pattern)})
    games = tcgtrig.available_games()
    compiled = refused = silent = errors = 0
    concepts: collections.Counter[str] = collections.Counter()
    lines: list[str] = []
    for path in files:
        scenario = tcgtrig.load_scenario(path, check_game=False)
        own = own_game(scenario, path)
        results: dict[str, object] = {}
        for base in games:
            game = own if own and own.split("/")[0] == base else base  # the file's own variant
            try:
                scenario.compile(tcgtrig.load_ruleset(game))
            except tcgtrig.TcgTrigError as error:
                refused += 1
                concepts[concept(str(error))] += 1
                lines.append(f"refused  {path.relative_to(ROOT)} under {game}: {error}")
                continue
            compiled += 1
            try:
                results[game] = tcgtrig.resolve(scenario, game, choices=None)
            except tcgtrig.TcgTrigError as error:
                errors += 1
                lines.append(f"error    {path.relative_to(ROOT)} under {game}: {error}")
        own_result = results.get(own) if own else None
        if own_result is None or not own_result.trace.effects("resolved"):  # type: ignore[attr-defined]
            continue
        for game, result in results.items():
            if game != own and not result.trace.effects("resolved"):  # type: ignore[attr-defined]
                silent += 1
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
    if args.list:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
