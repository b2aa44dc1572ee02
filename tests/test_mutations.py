"""Every bundled scenario file, broken at random: the library either resolves
it or raises a ``TcgTrigError`` — never another exception, never a hang.

A mutation works on the loaded data: delete a key or an item, replace a value
with one of another type (None, a bool, a huge int, a string, a list, a
mapping), rename a key with a typo, duplicate an item, swap two cards' ids,
insert an unknown key, or put another word of the same file in a value's
place (which keeps most files loadable and reaches the engine).  The result
is dumped back to YAML text and read with ``scenario_from_text``, then
resolved under the file's game with a small ``max_steps``.  What the command
line would do next is done too: the message must be one line, a resolution
must draw as a tree and dump as JSON.  Examples that meet a known bug (each
pinned by a strict xfail in tests/test_hostile_input.py) are set aside, so
the search goes on for new ones.

The number of examples comes from the hypothesis profile (tests/conftest.py):
``ci`` by default, ``--hypothesis-profile=long`` for a long search.
"""

from __future__ import annotations

import copy
import functools
import json
import signal
import string
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import tcgtrig
import yaml
from hypothesis import event, given, note, reject
from hypothesis import strategies as st
from tcgtrig.resolution import pick_game
from tcgtrig.tools.render import render_text

ROOT = Path(__file__).parents[1]
FILES = sorted((ROOT / "tests" / "scenarios").rglob("*.yaml")) + sorted((ROOT / "examples").glob("*.yaml"))
MAX_STEPS = 2_000
#: Seconds one example may take before it counts as a hang.
WATCHDOG = 30

Path_ = tuple[Any, ...]


@functools.cache
def original(path: Path) -> tuple[dict[str, Any], str]:
    """The file's data and the game it resolves under."""
    scenario = tcgtrig.load_scenario(path)
    return scenario.data, pick_game(scenario, None)


def nodes(value: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    """Every value of the tree with its path, the root first."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from nodes(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from nodes(item, path + (index,))


def at(root: Any, path: Path_) -> Any:
    for part in path:
        root = root[part]
    return root


def words(data: Any) -> list[Any]:
    """The file's own scalars: card ids, zones, effect keys, numbers."""
    found = {repr(v): v for _, v in nodes(data) if isinstance(v, (str, int)) and not isinstance(v, bool)}
    found.update({repr(k): k for p, _ in nodes(data) for k in p[-1:] if isinstance(k, str)})
    return sorted(found.values(), key=repr)


TEXT = st.text(max_size=12)
HUGE = st.sampled_from([10**30, -(10**30), 2**63, 10**12, 0, -1])
SCALARS = st.one_of(st.none(), st.booleans(), HUGE, st.integers(-5, 5), TEXT)
OTHER_VALUES = st.one_of(
    SCALARS,
    st.lists(SCALARS, max_size=3),
    st.dictionaries(st.text(string.ascii_lowercase + "_", min_size=1, max_size=8), SCALARS, max_size=3),
)
UNKNOWN_KEYS = st.one_of(
    st.sampled_from(["colour", "extra", "strat", "cardz", "whn", "do_", "game", "x"]), TEXT.filter(bool)
)


def typo(word: str, draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["drop", "double", "swap", "upper", "plural"]), label="typo")
    i = draw(st.integers(0, max(len(word) - 1, 0)), label="at")
    if kind == "drop" and len(word) > 1:
        return word[:i] + word[i + 1 :]
    if kind == "double":
        return word[:i] + word[i : i + 1] * 2 + word[i + 1 :]
    if kind == "swap" and len(word) > 1:
        i = min(i, len(word) - 2)
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind == "upper":
        return word.upper() if word.upper() != word else word + "_"
    return word + "s"


MUTATIONS = ("delete", "retype", "typo", "duplicate", "swap_ids", "unknown_key", "reuse_word")


def pick(draw: st.DrawFn, found: list[tuple[Path_, Any]], label: str) -> tuple[Path_, Any]:
    """One of ``found`` (drawn by its index: the example stays short)."""
    return found[draw(st.integers(0, len(found) - 1), label=label)]


def mutate(data: dict[str, Any], kind: str, draw: st.DrawFn) -> str | None:
    """Apply one mutation of ``kind`` in place; say what it did (None: the
    file has nothing it applies to)."""
    everything = list(nodes(data))
    inner = [(p, v) for p, v in everything if p]
    if kind == "delete":
        path, _ = pick(draw, inner, "node")
        del at(data, path[:-1])[path[-1]]
        return f"delete {path}"
    if kind == "retype":
        path, _ = pick(draw, inner, "node")
        value = draw(OTHER_VALUES, label="value")
        at(data, path[:-1])[path[-1]] = value
        return f"retype {path} = {value!r}"
    if kind == "typo":
        path, _ = pick(draw, [(p, v) for p, v in inner if isinstance(p[-1], str)], "key")
        parent = at(data, path[:-1])
        new = typo(path[-1], draw)
        # keep the order of the keys: the renamed key stays where it was
        items = [(new if k == path[-1] else k, v) for k, v in parent.items()]
        parent.clear()
        parent.update(items)
        return f"rename {path} -> {new!r}"
    if kind == "duplicate":
        lists = [(p, v) for p, v in everything if isinstance(v, list) and v]
        if not lists:
            return None
        path, items = pick(draw, lists, "list")
        index = draw(st.integers(0, len(items) - 1), label="item")
        items.insert(draw(st.integers(0, len(items)), label="where"), copy.deepcopy(items[index]))
        return f"duplicate {path}[{index}]"
    if kind == "swap_ids":
        listed = data.get("cards")
        cards = [c for c in listed if isinstance(c, dict) and "id" in c] if isinstance(listed, list) else []
        if len(cards) < 2:
            return None
        one, two = draw(st.lists(st.integers(0, len(cards) - 1), min_size=2, max_size=2, unique=True), label="cards")
        cards[one]["id"], cards[two]["id"] = cards[two]["id"], cards[one]["id"]
        return f"swap the ids of cards {one} and {two}"
    if kind == "unknown_key":
        path, mapping = pick(draw, [(p, v) for p, v in everything if isinstance(v, dict)], "mapping")
        key = draw(UNKNOWN_KEYS, label="key")
        mapping[key] = draw(OTHER_VALUES, label="value")
        return f"insert {key!r} at {path}"
    if kind == "reuse_word":
        scalars = [(p, v) for p, v in inner if not isinstance(v, (dict, list))]
        path, _ = pick(draw, scalars, "scalar")
        choices = words(data)
        word = choices[draw(st.integers(0, len(choices) - 1), label="word")]
        at(data, path[:-1])[path[-1]] = word
        return f"reuse {path} = {word!r}"
    raise AssertionError(kind)


#: Known crashes, each pinned by a strict xfail in tests/test_hostile_input.py
#: (the corpus file named): an example that meets one is set aside, so that
#: the search goes on for new ones.  Remove an entry once its bug is fixed.
#: (exception type, the function it is raised in) -> the corpus file.
KNOWN_CRASHES: dict[tuple[type[BaseException], str], str] = {}


def known_crash(error: BaseException) -> str | None:
    frames = traceback.extract_tb(error.__traceback__)
    return KNOWN_CRASHES.get((type(error), frames[-1].name)) if frames else None


def echoes_a_line_break(message: str, data: Any) -> bool:
    """Whether a string of ``data`` (a key or a value) that holds a line break
    is written raw into ``message``."""
    texts = {
        text
        for path, value in nodes(data)
        for text in (*path[-1:], value)
        if isinstance(text, str) and ("\n" in text or "\r" in text)
    }
    return any(text in message for text in texts)


class Hang(Exception):
    """An example ran longer than :data:`WATCHDOG` seconds."""


@contextmanager
def watchdog(seconds: int) -> Iterator[None]:
    if not hasattr(signal, "setitimer"):  # pragma: no cover - not on POSIX
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise Hang(f"no result after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def resolve_text(text: str, file: str, game: str) -> tuple[str, Any]:
    """What the command line does with the text: ``("ok", result)`` or
    ``("error", the TcgTrigError)``; any other exception propagates."""
    try:
        scenario = tcgtrig.scenario_from_text(text, file)
        result = tcgtrig.resolve(scenario, game, max_steps=MAX_STEPS)
        rendered = render_text(result)  # `tcgtrig run`
        dumped = json.dumps(result.to_dict(), ensure_ascii=False)  # `tcgtrig run --json`
    except tcgtrig.TcgTrigError as error:
        return "error", error
    assert rendered.strip() and json.loads(dumped)["outcome"] == result.outcome
    return "ok", result


@pytest.mark.slow
@given(st.data())
def test_mutated_scenarios_resolve_or_raise_tcgtrig_errors(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(FILES), label="file")
    source, game = original(path)
    mutated = copy.deepcopy(source)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        kind = data.draw(st.sampled_from(MUTATIONS), label="kind")
        done = mutate(mutated, kind, data.draw)
        event(f"mutation: {kind}" if done else f"mutation: {kind} (nothing to apply it to)")
        note(f"{path.name}: {done}")
    text = yaml.safe_dump(mutated, sort_keys=False, allow_unicode=True)
    with watchdog(WATCHDOG):
        try:
            status, value = resolve_text(text, path.name, game)
        except Exception as crash:
            pinned = known_crash(crash)
            if pinned is None:
                raise
            event(f"known bug: {pinned}")
            reject()
    event(f"{status}: {type(value).__name__}")
    if status == "error":
        message = str(value)
        assert message.strip(), "an empty message"
        if "\n" in message or "\r" in message:
            # the library keeps the file's text as it is; the command line
            # shows it escaped (newline-*.yaml in tests/test_hostile_input.py)
            assert echoes_a_line_break(message, mutated), f"a line break of the message's own: {message!r}"
            event("error: a line break of the file, in the message")
    elif value.outcome != "complete":  # ended early: the game (or the tool's bound) said how, and why
        assert value.trace[-1].kind == "ended" and value.reason, (value.outcome, value.reason)


# -- the mutations do what they say ----------------------------------------------

T1 = ROOT / "tests" / "scenarios" / "digimon" / "triggered-01.yaml"


def _fixed(*values: Any) -> st.DrawFn:
    """A ``draw`` that answers with ``values`` in turn, whatever is asked."""
    answers = iter(values)

    def draw(strategy: st.SearchStrategy[Any], label: Any = None) -> Any:
        return next(answers)

    return draw


def node(path: Path_, kind: str) -> int:
    """The index :func:`pick` draws to reach the node at ``path`` in T1."""
    data = original(T1)[0]
    everything = list(nodes(data))
    found = {
        "inner": [p for p, _ in everything if p],
        "key": [p for p, _ in everything if p and isinstance(p[-1], str)],
        "mapping": [p for p, v in everything if isinstance(v, dict)],
        "list": [p for p, v in everything if isinstance(v, list) and v],
        "scalar": [p for p, v in everything if p and not isinstance(v, (dict, list))],
    }[kind]
    return found.index(path)


def _mutated(kind: str, *answers: Any) -> tuple[str, Any]:
    data = copy.deepcopy(original(T1)[0])
    mutate(data, kind, _fixed(*answers))
    return resolve_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), T1.name, "digimon")


def test_every_file_resolves_before_it_is_mutated():
    assert len(FILES) > 100
    for path in FILES:
        data, game = original(path)
        status, value = resolve_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), path.name, game)
        assert status == "ok", (path, value)


def test_delete_a_required_key():
    status, error = _mutated("delete", node(("start",), "inner"))
    assert status == "error" and "missing required key 'start'" in str(error)


def test_retype_a_value():
    status, error = _mutated("retype", node(("players",), "inner"), 10**30)
    assert status == "error" and f"players: expected an array, got {10**30}" in str(error)


def test_rename_a_key_with_a_typo():
    status, error = _mutated("typo", node(("turn_player",), "key"), "drop", 0)
    assert status == "error" and "missing required key 'turn_player' (and 1 more problem)" in str(error)


def test_insert_an_unknown_key():
    status, error = _mutated("unknown_key", node(("cards", 0), "mapping"), "colour", "red")
    assert status == "error" and "cards[0].colour: unknown key 'colour'" in str(error)


def test_duplicate_a_card():
    status, error = _mutated("duplicate", node(("cards",), "list"), 0, 0)
    assert status == "error" and "duplicate card id 'metalgarurumon'" in str(error)


def test_swap_card_ids():
    # zudomon (A's, stacked under metalgarurumon) and venommyotismon (B's)
    status, result = _mutated("swap_ids", [2, 7])
    assert status == "ok" and result.outcome == "complete"
    assert result.keys("resolved")[-2:] == ["venommyotismon.memory", "zudomon.memory"]
    status, error = _mutated("swap_ids", [0, 1])  # garurumon is now under itself
    assert status == "error" and "in a circle: metalgarurumon → metalgarurumon" in str(error)


def test_a_word_from_the_file_in_another_place():
    status, error = _mutated("reuse_word", node(("turn_player",), "scalar"), words(original(T1)[0]).index("gabumon"))
    assert status == "error" and "turn_player: unknown player 'gabumon'" in str(error)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timer here")
def test_the_watchdog_turns_a_hang_into_a_failure():
    with pytest.raises(Hang), watchdog(1):
        while True:
            pass
