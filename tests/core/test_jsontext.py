"""The quick JSON writer gives exactly the bytes of json.dumps(indent=2),
with the characters a terminal acts on written as \\uXXXX escapes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tcgtrig.base.jsontext import CHUNK, Items, dump, dumps, escape_unsafe

PLAIN = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
VALUES = st.recursive(
    PLAIN,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=4) | st.integers() | st.none() | st.booleans(), inner, max_size=4)
    ),
    max_leaves=30,
)
STEPS = st.lists(st.dictionaries(st.text(max_size=5), PLAIN | st.lists(PLAIN, max_size=2), max_size=5), max_size=8)


def as_json_writes_it(value: object) -> str:
    return escape_unsafe(json.dumps(value, indent=2, ensure_ascii=False))


@given(VALUES)
def test_any_value_is_written_as_json_writes_it(value):
    assert dumps(value) == as_json_writes_it(value)


@given(STEPS)
def test_runs_of_flat_mappings_are_written_as_json_writes_them(steps):
    value = {"format": 1, "steps": steps, "zones": {"a": "hand"}}
    assert dumps(value) == as_json_writes_it(value)


UNSAFE = "\x1b]0;PWNED\x07 \x1b[2J \x7f \x85 \u202e \u2066 \u2028 \u061c"
CONTROLS = "\x1b\x07\x7f\x85\u202e\u2066\u2028\u061c"


@given(st.text(alphabet=st.sampled_from(list(UNSAFE) + ["a", "日", "é", "\n", '"'])))
def test_terminal_controls_are_escaped_and_the_value_is_the_same(text):
    written = dumps({"name": text, "steps": [{"card": text}]})
    assert json.loads(written) == {"name": text, "steps": [{"card": text}]}
    assert not any(c in written for c in CONTROLS), written


def test_other_characters_stay_readable():
    assert dumps(["日本語 é ∞", UNSAFE]) == (
        '[\n  "日本語 é ∞",\n  "\\u001b]0;PWNED\\u0007 \\u001b[2J \\u007f \\u0085 \\u202e \\u2066 \\u2028 \\u061c"\n]'
    )


@pytest.mark.parametrize(
    "value",
    [
        [{"a": "},\n      {"}, {"b": 1}],  # what separates two mappings, inside a string
        [{"a": float("nan"), "b": float("inf")}, {"c": -0.0}],
        {"tuple": (1, (2, 3)), 1: "one", None: "none"},
        [{"a": 1}, {}, {"b": [1]}, {"c": 2}],
        [{"a": object()}],  # not JSON at all: json's own error
    ],
)
def test_edge_cases(value):
    try:
        expected = as_json_writes_it(value)
    except TypeError:
        with pytest.raises(TypeError):
            dumps(value)
        return
    assert dumps(value) == expected


# -- streaming (issue 22): the same text, written in chunks -------------------------------------------------


def streamed(value, chunks=None):
    parts: list[str] = []
    dump(value, parts.append)
    if chunks is not None:
        chunks.extend(parts)
    return "".join(parts)


class Word(str):
    """A str subclass: JSON text for json, not for the direct writer."""


@given(VALUES)
def test_any_value_is_streamed_as_json_writes_it(value):
    assert streamed(value) == as_json_writes_it(value)


@given(STEPS)
def test_steps_are_streamed_as_json_writes_them(steps):
    value = {"format": 1, "steps": steps, "zones": {"a": "hand"}}
    assert streamed(value) == as_json_writes_it(value)


@pytest.mark.parametrize(
    "value",
    [
        [{"a": "},\n      {"}, {"b": 1}],
        [{"a": float("nan"), "b": float("inf")}, {"c": -0.0}],
        {"tuple": (1, (2, 3)), 1: "one", None: "none"},
        [{"a": 1}, {}, {"b": [1]}, {"c": 2}],
        {"steps": [{"a": 1}] * 600 + [{"b": Word("x")}] + [{"a": [Word("y"), 2]}] * 3, Word("k"): {"n": [Word("z")]}},
        [Word("top")],
        Word("alone"),
    ],
)
def test_streamed_edge_cases(value):
    assert streamed(value) == as_json_writes_it(value)


def test_a_value_not_json_at_all_is_jsons_error():
    with pytest.raises(TypeError):
        streamed([{"a": object()}])


def test_a_long_list_goes_out_in_chunks_and_items_are_made_as_written():
    made = []

    def steps():
        for number in range(20_000):
            made.append(number)
            yield {"kind": "event", "id": number, "effect": "card.ability"}

    chunks: list[str] = []
    text = streamed({"format": 1, "steps": Items(steps), "after": [1]}, chunks)
    assert text == json.dumps({"format": 1, "steps": list(steps()), "after": [1]}, indent=2, ensure_ascii=False)
    assert len(chunks) > 10 and max(map(len, chunks)) < 4 * CHUNK
    assert dumps({"steps": Items(lambda: iter([{"a": 1}]))}) == json.dumps({"steps": [{"a": 1}]}, indent=2)
    assert dumps({"steps": Items(lambda: iter([]))}) == '{\n  "steps": []\n}'
