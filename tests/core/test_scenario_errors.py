"""Bad scenario files give one clear error: file, line, key path, what was
expected and, for unknown ids and labels, the legal ones."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import tcgtrig
from tcgtrig import ScenarioError


def error_of(text: str, file: str = "bad.yaml", game: str | None = "digimon") -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        scenario = tcgtrig.scenario_from_text(textwrap.dedent(text), file)
        if game:
            scenario.compile(tcgtrig.load_ruleset(game))
    return info.value


GOOD_TOP = """\
format: 1
title: t
players: [A, B]
turn_player: A
"""


def test_yaml_syntax_error_names_file_and_line():
    err = error_of(GOOD_TOP + "cards: [\nstart: []\n")
    assert err.file == "bad.yaml"
    assert err.line is not None and err.line >= 5
    assert "not valid YAML" in str(err)


def test_missing_required_key():
    err = error_of("format: 1\ntitle: t\nplayers: [A, B]\nturn_player: A\ncards: []\n")
    assert "missing required key 'start'" in str(err)
    assert str(err).startswith("bad.yaml:1:")


def test_unknown_top_level_key_lists_the_legal_keys():
    err = error_of(GOOD_TOP + "cards: []\nstart: []\nstrat: []\n")
    assert err.line == 7
    assert err.path == "strat"
    assert "unknown key 'strat'" in err.message
    assert "start" in err.options and "choices" in err.options


def test_wrong_type_says_what_was_expected():
    err = error_of(
        GOOD_TOP
        + """\
        cards:
          - id: a
            owner: A
            zone: battle
            stats: {dp: lots}
        start: []
        """.replace("        ", "")
    )
    assert err.path == "cards[0].stats.dp"
    assert err.line == 9
    assert "expected an integer" in err.message


def test_unknown_ability_kind_lists_the_kinds():
    err = error_of(
        GOOD_TOP
        + textwrap.dedent("""\
        cards:
          - id: a
            owner: A
            zone: battle
            abilities:
              - {id: x, kind: trigered, when: ping}
        start: []
        """)
    )
    assert err.path == "cards[0].abilities[0].kind"
    assert "triggered" in err.options


def test_unknown_owner_lists_the_players():
    err = error_of(GOOD_TOP + "cards:\n  - {id: a, owner: C, zone: battle}\nstart: []\n")
    assert err.path == "cards[0].owner"
    assert err.options == ("A", "B")


def test_duplicate_card_id():
    err = error_of(
        GOOD_TOP + "cards:\n  - {id: a, owner: A, zone: battle}\n  - {id: a, owner: B, zone: battle}\nstart: []\n"
    )
    assert "duplicate card id 'a'" in str(err)
    assert err.line == 7


def test_duplicate_ability_id_on_one_card_names_the_second():
    err = error_of(
        GOOD_TOP
        + "cards:\n  - id: a\n    owner: A\n    zone: battle\n    abilities:\n"
        + "      - {id: go, when: ping, do: []}\n      - {id: go, when: ping, do: []}\nstart: []\n"
    )
    assert "duplicate ability id 'go' on card 'a'" in str(err)
    assert err.path == "cards[0].abilities[1].id" and err.line == 11


def test_an_unknown_key_in_a_pattern_written_as_a_mapping_names_the_pattern_s_keys():
    # ``when`` is one of two shapes (an event's name, or a pattern): the error is the pattern's, the shape meant
    err = error_of(
        GOOD_TOP
        + "cards:\n  - id: a\n    owner: A\n    zone: battle\n    abilities:\n"
        + "      - {id: go, when: {event: ping, bogus: 1}, do: []}\nstart: []\n"
    )
    assert "unknown key 'bogus'" in err.message and "does not fit" not in err.message
    assert err.path == "cards[0].abilities[0].when.bogus" and err.line == 10
    assert {"event", "card", "counter"} <= set(err.options)


def test_duplicate_yaml_key():
    err = error_of(GOOD_TOP + "cards: []\nstart: []\nstart: []\n")
    assert "duplicate key 'start'" in str(err)
    assert err.line == 7


def test_unknown_card_in_a_selector_lists_the_cards():
    err = error_of(
        GOOD_TOP
        + textwrap.dedent("""\
        cards:
          - {id: gabumon, owner: A, zone: battle}
        start:
          - delete: gabumom
        """)
    )
    assert err.path == "start[0].delete"
    assert err.line == 8
    assert "unknown card 'gabumom'" in err.message
    assert "gabumon" in err.options


def test_unknown_action_lists_core_actions_and_game_words():
    err = error_of(GOOD_TOP + "cards: []\nstart:\n  - obliterate: x\n")
    assert "unknown action 'obliterate' for game 'digimon'" in str(err)
    assert "move" in err.options and "delete" in err.options


def test_game_word_in_a_game_that_states_no_zone_roles(plain):
    scenario = tcgtrig.scenario_from_text(
        GOOD_TOP + "cards: [{id: x, owner: A, zone: battle}]\nstart:\n  - delete: x\n"
    )
    compiled = scenario.compile(plain)
    # a game that states no zone roles reads another game's zones as written, and says so
    assert compiled.notes == (
        "Plain (core defaults) states no zone roles: Digimon Card Game's zone names are read as they are",
    )
    (move,) = compiled.start
    assert move.to == "trash"


def test_unknown_effect_key_in_activate():
    err = error_of(
        GOOD_TOP
        + textwrap.dedent("""\
        cards:
          - id: jack_raid
            owner: A
            zone: hand
            abilities: [{id: main, kind: activated, do: []}]
        start:
          - activate: jack_raid.mian
        """)
    )
    assert "unknown effect key 'jack_raid.mian'" in err.message
    assert err.options == ("jack_raid.main",)


def test_boolean_choice_is_explained():
    # true (YAML 1.1 read yes so too; YAML 1.2, since issue 37 item 33, reads it as text)
    err = error_of(GOOD_TOP + "cards: []\nstart: []\nchoices: [true]\n")
    assert "boolean" in str(err) and "use" in str(err)


def test_unknown_player_word_in_an_action():
    err = error_of(GOOD_TOP + "cards: []\nstart:\n  - gain: {player: them, counter: memory}\n")
    assert err.path == "start[0].gain.player"
    assert "opponent" in err.options


def test_bad_alias_argument_names_the_key():
    err = error_of(GOOD_TOP + "cards: []\nstart:\n  - memory: lots\n")
    assert err.path == "start[0].memory"
    assert "number of memory" in err.message


def test_under_must_name_a_card():
    err = error_of(GOOD_TOP + "cards:\n  - {id: a, owner: A, zone: sources, under: nobody}\nstart: []\n")
    assert err.path == "cards[0].under"
    assert "unknown card 'nobody'" in err.message


def test_triggered_ability_needs_when():
    err = error_of(
        GOOD_TOP + "cards:\n  - id: a\n    owner: A\n    zone: battle\n    abilities: [{id: x, do: []}]\nstart: []\n"
    )
    assert "needs 'when'" in err.message
    assert err.path == "cards[0].abilities[0]"


def test_unknown_expectation_key_and_card():
    err = error_of(
        GOOD_TOP + "cards: [{id: a, owner: A, zone: battle}]\nstart: []\nexpect:\n  digimon:\n    zones: {b: trash}\n"
    )
    assert err.path == "expect.digimon.zones.b"
    assert err.options == ("a",)


def test_json_files_get_line_numbers_too():
    text = '{\n "format": 1,\n "title": "t",\n "players": ["A", "B"],\n "turn_player": "C",\n "cards": [],\n "start": []\n}\n'
    with pytest.raises(ScenarioError) as info:
        tcgtrig.scenario_from_text(text, "bad.json")
    assert info.value.line == 5
    assert info.value.options == ("A", "B")


def test_missing_file():
    with pytest.raises(ScenarioError) as info:
        tcgtrig.load_scenario("does/not/exist.yaml")
    assert "no such file" in str(info.value)


def test_nothing_is_evaluated_as_code(tmp_path):
    evil = GOOD_TOP + "cards: []\nstart: []\nnotes: !!python/object/apply:os.system ['echo hacked']\n"
    with pytest.raises(ScenarioError) as info:
        tcgtrig.scenario_from_text(evil, "evil.yaml")
    assert "not valid YAML" in str(info.value)


def _one_card(start: str) -> str:
    return GOOD_TOP + "cards:\n  - {id: x, owner: A, zone: battle}\nstart:\n" + start


@pytest.mark.parametrize(
    ("start", "path", "message"),
    [
        (
            "  - together:\n      - delete: x\n      - if: {turn: self}\n        then: []\n",
            "start[0].together[1]",
            "'together' holds actions that happen at once",
        ),
        ("  - flag: {card: x, set: [suspended]}\n", "start[0].flag.set", "expected a word, got a list"),
        ("  - move: {card: x, to: [trash]}\n", "start[0].move.to", "expected a word, got a list"),
        ("  - gain: {counter: memory, by: battl}\n", "start[0].gain.by", "unknown value 'battl'"),
        ("  - delete: x\n    label: [1]\n", "start[0].label", "expected a word, got a list"),
        ("  - move: {card: {zone: 5}, to: trash}\n", "start[0].move.card.zone", "expected a word"),
        ("  - move: {card: x, to: sources, under: [x, x]}\n", "start[0].move.under", "expected one card"),
        ("  - prevent: {}\n", "start[0].prevent", "only in an interrupt or replacement"),
        ("  - change: {card: x, stat: dp, by: 1, until: {}}\n", "start[0].change.until", "expected a word"),
    ],
)
def test_action_arguments_are_checked_where_they_are_written(start, path, message):
    err = error_of(_one_card(start))
    assert err.path == path
    assert message in err.message


def test_a_cause_lists_the_legal_causes():
    err = error_of(_one_card("  - delete: x\n    by: fight\n"))
    assert err.options == ("effect", "battle", "rule", "cost")


def test_a_continuous_change_takes_no_until():
    err = error_of(
        GOOD_TOP + "cards:\n  - id: x\n    owner: A\n    zone: battle\n    abilities:\n"
        "      - {id: aura, kind: continuous, do: [{change: {card: self, stat: dp, by: 1000, until: end_of_turn}}]}\n"
        "start: []\n"
    )
    assert "takes no 'until'" in err.message
    assert err.path == "cards[0].abilities[0].do[0]"


def test_active_in_must_name_a_zone():
    err = error_of(
        GOOD_TOP + "cards:\n  - id: x\n    owner: A\n    zone: battle\n    abilities:\n"
        "      - {id: a, when: ping, active_in: [], do: []}\nstart: []\n"
    )
    assert err.path == "cards[0].abilities[0].active_in"


def test_players_cannot_take_the_relative_words():
    err = error_of("format: 1\ntitle: t\nplayers: [self, B]\nturn_player: B\ncards: []\nstart: []\n")
    assert err.path == "players[0]"
    assert "cannot be called 'self'" in err.message


def test_a_misspelt_pattern_key_is_named():
    err = error_of(
        GOOD_TOP + "cards:\n  - id: x\n    owner: A\n    zone: battle\n    abilities:\n"
        "      - {id: a, when: {event: deleted, crad: self}, do: []}\nstart: []\n"
    )
    assert err.path == "cards[0].abilities[0].when.crad"
    assert "unknown key 'crad'" in err.message and "card" in err.options


def test_game_words_take_a_card_or_a_card_key():
    for text in ("  - suspend: {card: x}\n", "  - suspend: x\n"):
        result = tcgtrig.resolve(tcgtrig.scenario_from_text(_one_card(text)), "digimon")
        assert result.state.cards["x"].flags == {"suspended"}
    err = error_of(_one_card("  - delete: {card: x, to: hand}\n"))
    assert "unknown key 'to' (legal: card, by, label)" in err.message


def test_load_scenario_reports_an_unknown_card_at_load_time(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text(
        "format: 1\ntitle: t\ngame: digimon\nplayers: [A, B]\nturn_player: A\n"
        "cards:\n  - {id: gabumon, owner: A, zone: battle}\nstart:\n  - delete: gabumom\n",
        encoding="utf-8",
    )
    with pytest.raises(tcgtrig.ScenarioError) as caught:
        tcgtrig.load_scenario(path)
    assert (
        str(caught.value)
        == f"{path}:9: start[0].delete: unknown card 'gabumom' (legal: self, source, event.card, gabumon)"
    )
    scenario = tcgtrig.load_scenario(path, check_game=False)  # the structure alone is sound
    with pytest.raises(tcgtrig.ScenarioError):
        scenario.compile(tcgtrig.load_ruleset("digimon"))


def test_the_load_time_compile_is_reused_once_and_then_compiled_afresh():
    scenario = tcgtrig.load_scenario(Path(__file__).parents[1] / "scenarios" / "digimon" / "triggered-01.yaml")
    digimon = tcgtrig.load_ruleset("digimon")
    first, second = scenario.compile(digimon), scenario.compile(digimon)
    assert first.state is not second.state  # no two callers share one mutable position
    assert first.start == second.start


def test_the_compiled_schema_agrees_with_jsonschema_on_every_file_we_have():
    """The fast validator decides what is valid; jsonschema only explains.
    They must agree on every bundled file and every hostile file that parses.
    Where they read "integer" apart (``2.0``: one for the compiled check,
    not for jsonschema as tcgtrig builds it), the file's numbers are not
    plain, and a file passes on the compiled check only when they are."""
    from tcgtrig.scenario.source import load_source
    from tcgtrig.scenario.validating import fast_validator, numbers_plain, validator

    root = Path(__file__).resolve().parents[1]
    files = [
        *root.glob("scenarios/**/*.yaml"),
        *(root.parent / "examples").glob("*.yaml"),
        *(root / "hostile").glob("*.*"),
    ]
    valid = invalid = 0
    for path in sorted(files):
        try:
            data = load_source(path).data
        except tcgtrig.TcgTrigError:
            continue
        slow = not any(True for _ in validator(None).iter_errors(data))
        try:
            fast_validator(None)(data)
            fast = True
        except Exception:  # noqa: BLE001 - fastjsonschema's own error type
            fast = False
        assert fast == slow or (fast and not numbers_plain(data)), path.name
        valid += slow
        invalid += not slow
    assert valid > 100 and invalid > 5


_SAME_LINE = GOOD_TOP + "counters: {A: {memory: x, aa: y, bb: z, cc: w}}\ncards: []\nstart: []\n"


def test_of_several_errors_on_one_line_the_first_in_the_file_is_reported():
    err = error_of(_SAME_LINE, game=None)
    assert err.path == "counters.A.memory"
    assert "and 3 more problems" in err.message


@pytest.mark.slow
def test_the_error_reported_does_not_depend_on_the_hash_seed(tmp_path):
    # jsonschema finds the unknown counters of one mapping in the order of a set
    import os
    import subprocess
    import sys

    path = tmp_path / "same-line.yaml"
    path.write_text(_SAME_LINE, encoding="utf-8")
    lines = set()
    for seed in ("1", "2", "3", "4", "5", "6"):
        done = subprocess.run(
            [sys.executable, "-m", "tcgtrig", "check", str(path)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            timeout=120,
        )
        lines.add(done.stdout.splitlines()[0])
    assert len(lines) == 1
    assert "counters.A.memory" in lines.pop()


# issue 22, item 14: a decimal where a whole number belongs is bad input.  Both
# schema checks read "integer" as JSON Schema 2019+ does (2.0 is one): the
# reader refuses it all the same, in every place the format wants a number.
_WHOLE = """\
format: {format}
title: t
game: digimon
players: [A, B]
turn_player: A
counters: {{A: {{memory: {memory}}}}}
cards:
  - id: agumon
    owner: A
    zone: battle
    stats: {{dp: {dp}}}
    lasting: [{{stat: dp, by: {lasting}, until: end_of_turn}}]
    abilities:
      - {{id: draw, per_turn: {per_turn}, speed: {speed}, when: {{event: attacking, card: self}}, do: [{{draw: 1}}]}}
start:
  - draw: {draw}
  - gain: {{counter: memory, amount: {amount}}}
  - change: {{card: agumon, stat: dp, by: {by}}}
  - move: {{card: {{zone: battle, pick: {pick}, stat: {{dp: {{lte: {lte}}}}}}}, to: trash}}
  - grant: {{card: agumon, ability: {{id: gift, per_turn: {granted}, when: attacking, do: [{{draw: 1}}]}}}}
choices: [{label}]
expect:
  digimon:
    counters: {{A: {{memory: {expect_counter}}}}}
    stats: {{agumon: {{dp: {expect_stat}}}}}
"""
_WHOLE_VALUES = {
    "format": 1,
    "memory": 3,
    "dp": 2000,
    "lasting": 1000,
    "per_turn": 1,
    "speed": 1,
    "draw": 1,
    "amount": 1,
    "by": 1000,
    "pick": 1,
    "lte": 5000,
    "granted": 1,
    "label": 1,
    "expect_counter": 3,
    "expect_stat": 2000,
}
_WHOLE_PATHS = {
    "format": "format",
    "memory": "counters.A.memory",
    "dp": "cards[0].stats.dp",
    "lasting": "cards[0].lasting[0].by",
    "per_turn": "cards[0].abilities[0].per_turn",
    "speed": "cards[0].abilities[0].speed",
    "draw": "start[0].draw.count",
    "amount": "start[1].gain.amount",
    "by": "start[2].change.by",
    "pick": "start[3].move.card.pick",
    "lte": "start[3].move.card.stat.dp.lte",
    "granted": "start[4].grant.ability.per_turn",
    "label": "choices[0]",
    "expect_counter": "expect.digimon.counters.A.memory",
    "expect_stat": "expect.digimon.stats.agumon.dp",
}


def test_the_whole_number_template_is_a_good_file():
    tcgtrig.scenario_from_text(_WHOLE.format(**_WHOLE_VALUES)).compile(tcgtrig.load_ruleset("digimon"))


@pytest.mark.parametrize(
    ("decimal", "shown"), [("2.0", "2.0"), ("2.5", "2.5"), ("-1.0", "-1.0"), (".inf", "inf"), (".nan", "nan")]
)
@pytest.mark.parametrize("place", list(_WHOLE_PATHS))
def test_a_decimal_where_a_whole_number_belongs_is_bad_input(place, decimal, shown):
    err = error_of(_WHOLE.format(**{**_WHOLE_VALUES, place: decimal}))
    assert err.path == _WHOLE_PATHS[place], str(err)
    wanted = "a string or integer or boolean" if place == "label" else "an integer"  # a label may be a word
    assert f"expected {wanted}" in err.message, str(err)
    assert f"got {shown}" in err.message, str(err)
