"""The quick JSON writer gives exactly the bytes of json.dumps(indent=2)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tcgtrig.jsontext import dumps

PLAIN = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
VALUES = st.recursive(PLAIN, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=4) | st.integers() | st.none() | st.booleans(), inner, max_size=4), max_leaves=30)
STEPS = st.lists(st.dictionaries(st.text(max_size=5), PLAIN | st.lists(PLAIN, max_size=2), max_size=5), max_size=8)


@given(VALUES)
def test_any_value_is_written_as_json_writes_it(value):
    assert dumps(value) == json.dumps(value, indent=2, ensure_ascii=False)


@given(STEPS)
def test_runs_of_flat_mappings_are_written_as_json_writes_them(steps):
    value = {"format": 1, "steps": steps, "zones": {"a": "hand"}}
    assert dumps(value) == json.dumps(value, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("value", [
    [{"a": "},\n      {"}, {"b": 1}],  # what separates two mappings, inside a string
    [{"a": float("nan"), "b": float("inf")}, {"c": -0.0}],
    {"tuple": (1, (2, 3)), 1: "one", None: "none"},
    [{"a": 1}, {}, {"b": [1]}, {"c": 2}],
    [{"a": object()}],  # not JSON at all: json's own error
])
def test_edge_cases(value):
    try:
        expected = json.dumps(value, indent=2, ensure_ascii=False)
    except TypeError:
        with pytest.raises(TypeError):
            dumps(value)
        return
    assert dumps(value) == expected
