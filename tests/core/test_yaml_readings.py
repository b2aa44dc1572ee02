"""Scenario files are read as YAML 1.2, merge keys included (issue 37,
items 30 and 33: found by an attacker, each reproduced).

Item 33: PyYAML implements YAML 1.1, which read ``010`` as 8 (octal) and
``1:30`` as 90 (base 60), silently; ``yes``, ``off`` as booleans and
``2001-12-14`` as a date.  YAML 1.2's core schema (YAML 1.2.2, section
10.3.2) reads ``010`` as 10 and the others as the text written; only
``true``/``false`` are booleans, only ``null``/``~``/nothing is null.

Item 30: a merge key (``<<: *base``) with a key the mapping writes itself
(``id:``) was refused as "duplicate key 'id'".  The merge key means: the
mapping's own keys, and the named mapping's keys it does not write
(YAML's merge key type, https://yaml.org/type/merge.html).
"""

from __future__ import annotations

import pytest
from helpers import run
from tcgtrig import ScenarioError, scenario_from_text
from tcgtrig.scenario.source import parse_source

HEAD = """\
format: 1
title: {title}
game: digimon
players: [A, B]
turn_player: A
"""


def test_a_number_with_a_leading_zero_is_decimal_and_a_time_is_text():
    # the attack: "lp: 010" started at 8, a card named 1:30 was named 90
    result = run(
        HEAD.format(title="YAML 1.2 numbers")
        + """\
counters: {A: {lp: 010}}
cards:
  - id: clock
    name: 1:30
    owner: A
    zone: battle
    abilities:
      - id: tick
        when: {event: tick}
        do: [{gain: {counter: ticks, amount: 0o17}}]
start: [{gain: {counter: lp, amount: 0x10}}, {emit: {event: tick}}]
"""
    )
    assert result.state.counters["A"]["lp"] == 10 + 16
    assert result.state.counters["A"]["ticks"] == 15
    assert result.state.cards["clock"].name == "1:30"
    assert result.keys("resolved") == ["clock.tick"]


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("010", 10),
        ("-010", -10),
        ("+3", 3),
        ("0o17", 15),
        ("0x1F", 31),
        ("1:30", "1:30"),
        ("1_000", "1_000"),
        ("0b101", "0b101"),
        ("yes", "yes"),
        ("No", "No"),
        ("off", "off"),
        ("on", "on"),
        ("y", "y"),
        ("2001-12-14", "2001-12-14"),
        ("=", "="),
        ("true", True),
        ("FALSE", False),
        ("~", None),
        ("null", None),
        ("1e3", 1000.0),
        ("1.5", 1.5),
        ("'010'", "010"),
    ],
)
def test_plain_scalars_are_read_as_yaml_1_2_core_schema_reads_them(written, read):
    for text in (f"a: {written}\n", f"a: &x {written}\nb: *x\n"):  # the quick reader, and the careful one
        value = parse_source(text, "x.yaml").data["a"]
        assert value == read and type(value) is type(read), text


def test_a_boolean_field_written_yes_is_refused_with_file_and_line():
    with pytest.raises(ScenarioError) as raised:
        scenario_from_text(
            HEAD.format(title="yes is text")
            + "cards:\n  - {id: a, owner: A, zone: battle, abilities: [{id: x, optional: yes, do: [{draw: 1}]}]}\n"
            "start: []\n",
            "yes.yaml",
            check_game=False,
        )
    assert str(raised.value).startswith("yes.yaml:7: cards[0].abilities[0].optional:"), str(raised.value)


MERGED = (
    HEAD.format(title="two cards from one base")
    + """\
cards:
  - &base
    id: first
    owner: A
    zone: battle
    abilities:
      - id: ping
        when: {event: bell}
        do: [{gain: {counter: pings, amount: 1}}]
  - <<: *base
    id: second
  - <<: *base
    id: third
    zone: hand
    abilities: []
start: [{emit: {event: bell}}]
"""
)


def test_a_merge_key_brings_in_the_keys_the_mapping_does_not_write():
    # the attack: "<<: *base" with its own "id:" was refused as "duplicate key 'id'"
    result = run(MERGED)
    assert result.state.cards["second"].zone == "battle" and result.state.cards["third"].zone == "hand"
    assert sorted(result.keys("resolved")) == ["first.ping", "second.ping"]  # third has none of its own
    assert result.state.counters["A"]["pings"] == 2


def test_merge_keys_follow_yaml_merge_rules():
    data = parse_source(
        "a: &a {x: 1, y: 1}\nb: &b {x: 2, z: 2}\nc: {<<: [*a, *b], w: 3}\nd: &d {<<: *a, x: 5}\ne: {<<: *d}\n",
        "m.yaml",
    ).data
    assert data["c"] == {"x": 1, "y": 1, "z": 2, "w": 3}  # the first mapping named wins
    assert data["d"] == {"x": 5, "y": 1} and data["e"] == {"x": 5, "y": 1}  # a merged mapping that merges


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("a: &a {x: 1}\nc:\n  <<: *a\n  x: 2\n  x: 3\n", "m.yaml:5: c: duplicate key 'x'"),
        ("a: &a {x: 1}\nc:\n  <<: *a\n  <<: *a\n", "m.yaml:4: c: duplicate key '<<' (a mapping has one merge key"),
        ("a: &a 1\nc:\n  <<: *a\n", "m.yaml:3: c: a merge key (<<) takes a mapping or a list of mappings"),
    ],
)
def test_a_key_written_twice_is_still_refused(text, error):
    with pytest.raises(ScenarioError) as raised:
        parse_source(text, "m.yaml")
    assert str(raised.value).startswith(error), str(raised.value)


def test_a_merged_key_has_the_line_it_is_written_on():
    source = parse_source(MERGED, "m.yaml")
    assert source.line(("cards", 1, "owner")) == 9 and source.line(("cards", 1, "id")) == 16
