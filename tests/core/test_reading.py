"""Reading files fast without changing what is read or what is said.

YAML: the quick reader (libyaml's events straight to data) takes what it
is sure of and hands anything unusual to the careful reader (node tree,
measured, with every line), which alone raises errors and works out the
line map when an error or a warning needs it.  These tests hold the two to
the same data and lines on every file we have and on the corner cases.
JSON: the depth limit, checked level by level, is exactly the old one.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from tcgtrig import ScenarioError, scenario_from_text
from tcgtrig.scenario.source import MAX_DEPTH, _careful_yaml, _quick_yaml, _Unusual, parse_source

TESTS = Path(__file__).resolve().parents[1]
FILES = sorted(
    [
        *TESTS.glob("scenarios/**/*.yaml"),
        *TESTS.glob("scenarios/**/*.json"),
        *TESTS.glob("hostile/*.*"),
        *(TESTS.parent / "examples").glob("*.yaml"),
    ]
)

#: Text the quick reader takes: it must read it as the careful reader does.
QUICK = {
    "numbers": "a: 1\nb: 0x1f\nc: 1_000\nd: -5\ne: +3\nf: 0o17\ng: 1:30\nh: 0b101\ni: 1.5\nj: 1e3\n",
    "special floats": "a: .inf\nb: -.inf\nc: .nan\n",
    "booleans": "a: yes\nb: No\nc: true\nd: off\ne: On\nf: FALSE\n",
    "nulls": "a: ~\nb: null\nc:\nd: Null\n",
    "quoted": "a: '1'\nb: \"yes\"\nc: |\n  text\nd: >\n  folded\n  text\n",
    "number keys": "1: a\n-2: b\n",
    "flow": "- 1\n- [a, {b: c}]\n- {}\n- []\n",
    "scalar document": "hello\n",
    "null document": "null\n",
    "markers": "%YAML 1.1\n---\na: 1\n...\n",
    "deep": "[" * (MAX_DEPTH - 1) + "1" + "]" * (MAX_DEPTH - 1),
    # YAML 1.2 (issue 37 item 33): text, where YAML 1.1 made a date, a value key and a boolean key
    "timestamp": "a: 2001-12-14\n",
    "value key": "a: =\n",
    "yes key": "yes: a\n",
}
#: Text the quick reader hands to the careful reader.
CAREFUL = {
    "empty": "",
    "tag": "a: !!str 1\n",
    "tagged mapping": "a: !!map {b: 1}\n",
    "python tag": "a: !!python/name:os.system\n",
    "non-specific tag": "a: ! 12\n",
    "anchor and alias": "a: &x 1\nb: *x\n",
    "merge key": "base: &b {x: 1}\nc:\n  <<: *b\n  y: 2\n",
    "duplicate key": "a: 1\na: 2\n",
    "duplicate number key": "1: a\n'1': b\n",
    "boolean key": "true: a\n",
    "float key": "2.5: a\n",
    "null key": ": 1\n",
    "list key": "? [a]\n: 1\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "syntax error": "a: [1, 2\n",
    "undefined alias": "a: *nowhere\n",
    "number too long": "a: " + "1" * 5000 + "\n",
    "at the depth limit": "[" * MAX_DEPTH + "]" * MAX_DEPTH,
    "past the depth limit": "[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH,
}


def leaves(value: Any) -> list[Any]:
    """Every key and scalar, in order: equal data with equal types."""
    if isinstance(value, dict):
        return [part for key, item in value.items() for part in (key, *leaves(item))]
    if isinstance(value, list):
        return [part for item in value for part in leaves(item)]
    return [value]


def same(a: Any, b: Any) -> bool:
    pairs = list(zip(leaves(a), leaves(b), strict=True))
    return repr(a) == repr(b) and all(
        type(x) is type(y) and (x == y or (isinstance(x, float) and math.isnan(x))) for x, y in pairs
    )


def read(text: str, file: str = "<test>") -> tuple[Any, dict[Any, int] | ScenarioError]:
    """What parse_source gives: the data and the lines, or the error."""
    try:
        source = parse_source(text, file)
    except ScenarioError as error:
        return None, error
    return source.data, source.lines


def careful(text: str, file: str = "<test>") -> tuple[Any, dict[Any, int] | ScenarioError]:
    try:
        source = _careful_yaml(text, file)
    except ScenarioError as error:
        return None, error
    return source.data, source.lines


@pytest.mark.parametrize("name", QUICK)
def test_the_quick_reader_reads_as_the_careful_one(name):
    text = QUICK[name]
    quick = _quick_yaml(text)[0]  # taken, not handed over
    data, lines = careful(text)
    assert not isinstance(lines, ScenarioError)
    assert same(quick, data)
    assert read(text)[1] == lines  # worked out when asked for


@pytest.mark.parametrize("name", CAREFUL)
def test_the_unusual_is_left_to_the_careful_reader(name):
    text = CAREFUL[name]
    with pytest.raises(_Unusual):
        _quick_yaml(text)
    (data, found), (expected_data, expected) = read(text), careful(text)
    if isinstance(expected, ScenarioError):
        assert isinstance(found, ScenarioError) and str(found) == str(expected)
    else:
        assert same(data, expected_data) and found == expected


def test_every_file_we_have_reads_the_same_either_way():
    taken = 0
    for path in FILES:
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (UnicodeDecodeError, ValueError):
            continue  # not text: refused before either reader
        try:
            quick = _quick_yaml(text)[0]
        except _Unusual:
            continue
        taken += 1
        data, lines = careful(text, str(path))
        assert not isinstance(lines, ScenarioError), path.name
        assert same(quick, data), path.name
    assert taken > 100


def test_a_quickly_read_file_still_says_where_an_error_is():
    text = "format: 1\ntitle: t\nplayers: [A, B]\nturn_player: A\ncards:\n  - {id: a, owner: A, zone: battle,\n     colour: red}\nstart: []\n"
    _quick_yaml(text)  # taken by the quick reader: no line map yet
    with pytest.raises(ScenarioError) as raised:
        scenario_from_text(text, "x.yaml", check_game=False)
    assert str(raised.value).startswith("x.yaml:7: cards[0].colour: unknown key 'colour'")


def _old_json_depth(data: Any) -> bool:
    """The depth check as it was: every value walked with its depth."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(value, dict):
            stack.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            stack.extend((item, depth + 1) for item in value)
    return True


@pytest.mark.parametrize(
    "text",
    [
        "1",
        "[]",
        "{}",
        "[" * MAX_DEPTH + "]" * MAX_DEPTH,  # an empty list at the limit
        "[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH,  # a number past it
        "[" * (MAX_DEPTH - 1) + "1" + "]" * (MAX_DEPTH - 1),  # a number at it
        "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
        '{"a": ' * (MAX_DEPTH - 1) + "{}" + "}" * (MAX_DEPTH - 1),
        '{"a": ' * (MAX_DEPTH - 1) + '{"b": 1}' + "}" * (MAX_DEPTH - 1),
        "[" + "[]," * 5 + "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2) + "]",
    ],
)
def test_the_json_depth_limit_is_where_it_was(text):
    import json

    expected = _old_json_depth(json.loads(text))
    try:
        parse_source(text, "x.json")
        ok = True
    except ScenarioError as error:
        assert str(error) == f"x.json: nested more than {MAX_DEPTH} levels deep"
        ok = False
    assert ok == expected


def test_the_compiled_ability_schema_agrees_with_jsonschema():
    """The part ``grant`` checks an ability against, on every ability we have."""
    from tcgtrig.scenario.source import load_source
    from tcgtrig.scenario.validating import fast_validator, numbers_plain, validator

    checked = 0
    for path in FILES:
        try:
            data = load_source(path).data
        except ScenarioError:
            continue
        cards = data.get("cards") if isinstance(data, dict) else None
        for card in cards if isinstance(cards, list) else []:
            for ability in (card.get("abilities") or []) if isinstance(card, dict) else []:
                for candidate in (ability, {**ability, "kind": "nonsense"} if isinstance(ability, dict) else 1):
                    slow = not any(True for _ in validator("ability").iter_errors(candidate))
                    try:
                        fast_validator("ability")(candidate)
                        fast = True
                    except Exception:  # noqa: BLE001 - fastjsonschema's own error type
                        fast = False
                    # "integer": 2.0 is one to the compiled check only (see test_scenario_errors)
                    assert fast == slow or (fast and not numbers_plain(candidate)), path.name
                    checked += 1
    assert checked > 200


def test_compiling_leaves_the_garbage_collector_as_it_found_it():
    import gc

    import tcgtrig

    good = TESTS / "scenarios" / "digimon" / "triggered-01.yaml"
    bad = "format: 1\ntitle: t\ngame: digimon\nplayers: [A, B]\nturn_player: A\ncards: []\nstart: [{move: {card: nope, to: x}}]\n"
    digimon = tcgtrig.load_ruleset("digimon")
    assert gc.isenabled()
    tcgtrig.load_scenario(good).compile(digimon)
    with pytest.raises(ScenarioError, match="unknown card 'nope'"):
        scenario_from_text(bad)  # compiled for its game at load time, and refused
    assert gc.isenabled()
    gc.disable()
    try:
        tcgtrig.load_scenario(good).compile(digimon)
        assert not gc.isenabled()
    finally:
        gc.enable()
