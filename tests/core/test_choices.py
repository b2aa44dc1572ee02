"""Who decides: the default, scripted, random and interactive choosers, and
the labels of ordering decisions.

Most tests resolve a small position under the ``plain`` ruleset (core
defaults only) and assert the order of resolution or the end state; the
label bookkeeping of :class:`EffectLabels` is tested directly.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import tcgtrig
from helpers import run, scenario
from tcgtrig import (
    ChoiceError,
    Decision,
    DefaultChooser,
    InteractiveChooser,
    RandomChooser,
    ScriptedChooser,
)
from tcgtrig.choices import EffectLabels, UndoAnswer

# Three of A's effects trigger together on one event: an ordering decision
# among three, then among two, then one (answered without asking).
THREE = """
    cards:
      - id: a
        owner: A
        zone: battle
        abilities: [{id: go, when: {event: ping}, do: [{gain: {counter: a}}]}]
      - id: b
        owner: A
        zone: battle
        abilities: [{id: go, when: {event: ping}, do: [{gain: {counter: b}}]}]
      - id: c
        owner: A
        zone: battle
        abilities: [{id: go, when: {event: ping}, do: [{gain: {counter: c}}]}]
    start: [{emit: {event: ping}}]
    """

# Five effects: 5! orders, so a few random seeds surely differ.
FIVE = (
    """
    cards:
"""
    + "".join(
        f"""
      - id: e{i}
        owner: A
        zone: battle
        abilities: [{{id: go, when: {{event: ping}}, do: [{{gain: {{counter: n}}}}]}}]
"""
        for i in range(5)
    )
    + """
    start: [{emit: {event: ping}}]
    """
)

OPTIONAL = """
    cards:
      - id: may
        owner: A
        zone: battle
        abilities:
          - {id: go, optional: true, when: {event: ping}, do: [{gain: {counter: n}}]}
    start: [{emit: {event: ping}}]
    """

TARGETS = """
    cards:
      - {id: x, owner: B, zone: battle}
      - {id: y, owner: B, zone: battle}
      - {id: z, owner: B, zone: battle}
    start:
      - move: {card: {zone: battle, owner: opponent, pick: 1}, to: trash}
    """


def zones(result: tcgtrig.Resolution, *ids: str) -> dict[str, str]:
    return {i: result.state.cards[i].zone for i in ids}


def choice_steps(result: tcgtrig.Resolution) -> list[tcgtrig.Step]:
    return [s for s in result.trace if s.kind == "choice"]


# -- DefaultChooser --------------------------------------------------------------


def test_default_takes_the_earliest_triggered_effect(plain):
    result = run(THREE, plain, chooser=DefaultChooser())
    assert result.keys("triggered") == ["a.go", "b.go", "c.go"]
    assert result.keys("resolved") == ["a.go", "b.go", "c.go"]
    # the engine asked twice (3 pending, then 2) and recorded the answers
    assert [s["label"] for s in choice_steps(result)] == ["a.go", "b.go"]
    assert choice_steps(result)[0]["options"] == ("a.go", "b.go", "c.go")


def test_default_uses_an_optional_effect(plain):
    result = run(OPTIONAL, plain, chooser=DefaultChooser())
    assert result.keys("resolved") == ["may.go"]
    assert result.keys("declined") == []
    assert result.state.counter("A", "n") == 1
    [choice] = choice_steps(result)
    assert (choice["decision"], choice["label"], choice["options"]) == ("use", "use", ("use", "decline"))


def test_default_picks_the_first_matching_card_in_file_order(plain):
    result = run(TARGETS, plain, chooser=DefaultChooser())
    assert zones(result, "x", "y", "z") == {"x": "trash", "y": "battle", "z": "battle"}


def test_default_does_the_optional_part_of_an_effect(plain):
    text = """
        cards:
          - id: m
            owner: A
            zone: battle
            abilities:
              - id: go
                when: {event: ping}
                do: [{may: [{gain: {counter: yes_}}], else: [{gain: {counter: no_}}]}]
        start: [{emit: {event: ping}}]
        """
    used = run(text, plain)
    assert (used.state.counter("A", "yes_"), used.state.counter("A", "no_")) == (1, 0)
    declined = run(text, plain, choices=["decline"])
    assert (declined.state.counter("A", "yes_"), declined.state.counter("A", "no_")) == (0, 1)


def test_default_chooser_returns_the_decisions_default():
    decision = Decision(kind="target", player="A", prompt="pick", options=("p", "q", "r"), default="q")
    assert DefaultChooser().choose(decision) == "q"


# -- ScriptedChooser -------------------------------------------------------------


def test_script_is_consumed_in_order(plain):
    result = run(THREE, plain, choices=["c.go", "b.go"])
    assert result.keys("resolved") == ["c.go", "b.go", "a.go"]
    assert result.unused_choices == ()
    # the second decision offered only what was still pending
    assert [s["options"] for s in choice_steps(result)] == [("a.go", "b.go", "c.go"), ("a.go", "b.go")]


def test_script_replaces_the_files_choices(plain):
    text = THREE + "choices: [b.go, c.go]\n"
    assert run(text, plain).keys("resolved") == ["b.go", "c.go", "a.go"]
    assert run(text, plain, choices=["c.go"]).keys("resolved") == ["c.go", "a.go", "b.go"]


def test_illegal_label_names_decision_label_index_and_legal_labels(plain):
    with pytest.raises(ChoiceError) as info:
        run(THREE, plain, choices=["b.go", "nope.go"])
    err = info.value
    assert err.label == "nope.go"
    assert err.index == 2
    assert err.legal == ("a.go", "c.go")  # b.go already resolved
    assert "order by A" in err.decision and "which pending effect" in err.decision
    text = str(err)
    assert text.startswith("choice #2 'nope.go' is not legal for decision: order by A")
    assert text.endswith("(legal: a.go, c.go)")


def test_a_label_legal_elsewhere_is_illegal_for_this_decision(plain):
    # "use" answers optional effects, not which effect goes next
    with pytest.raises(ChoiceError) as info:
        run(THREE, plain, choices=["use"])
    assert info.value.index == 1
    assert info.value.legal == ("a.go", "b.go", "c.go")


def test_illegal_answer_for_an_optional_effect_lists_use_and_decline(plain):
    with pytest.raises(ChoiceError) as info:
        run(OPTIONAL, plain, choices=["yes"])
    assert info.value.legal == ("use", "decline")
    assert "use by A: use may.go?" in info.value.decision


def test_exhausted_script_falls_back_to_the_default(plain):
    result = run(THREE, plain, choices=["c.go"])
    # c.go as scripted, then the default: earliest triggered of what is left
    assert result.keys("resolved") == ["c.go", "a.go", "b.go"]
    assert result.unused_choices == ()


def test_leftover_labels_are_reported_as_unused(plain):
    result = run(THREE, plain, choices=["b.go", "c.go", "a.go", "extra"])
    assert result.keys("resolved") == ["b.go", "c.go", "a.go"]
    # the last decision had one legal option and consumed nothing
    assert result.unused_choices == ("a.go", "extra")
    assert result.to_dict()["unused_choices"] == ["a.go", "extra"]


def test_scripted_chooser_tracks_its_cursor_and_uses_its_fallback():
    asked: list[str] = []

    class Recorder:
        def choose(self, decision, engine=None):
            asked.append(decision.prompt)
            return decision.options[-1]

    chooser = ScriptedChooser(["q", 3], fallback=Recorder())
    assert chooser.labels == ["q", "3"]  # labels are strings
    d1 = Decision(kind="target", player="A", prompt="first", options=("p", "q"), default="p")
    d2 = Decision(kind="target", player="A", prompt="second", options=("3", "4"), default="3")
    d3 = Decision(kind="target", player="A", prompt="third", options=("r", "s"), default="r")
    assert chooser.choose(d1) == "q"
    assert chooser.remaining == ["3"]
    assert chooser.choose(d2) == "3"
    assert chooser.remaining == []
    assert chooser.choose(d3) == "s"  # from the fallback, not the default
    assert asked == ["third"]


def test_scripted_chooser_does_not_advance_on_an_illegal_label():
    chooser = ScriptedChooser(["bad"])
    decision = Decision(kind="use", player="B", prompt="use k?", options=("use", "decline"), default="use")
    with pytest.raises(ChoiceError) as info:
        chooser.choose(decision)
    assert (info.value.label, info.value.index, info.value.legal) == ("bad", 1, ("use", "decline"))
    assert "use by B: use k?" in str(info.value)
    assert chooser.remaining == ["bad"]


def test_single_legal_option_consumes_no_script_entry(plain):
    # only one effect is pending: the ordering decision answers itself, so
    # the first scripted label goes to the optional-effect question
    result = run(OPTIONAL, plain, choices=["decline"])
    assert result.keys("declined") == ["may.go"]
    assert result.state.counter("A", "n") == 0
    assert [s["decision"] for s in choice_steps(result)] == ["use"]


def test_pick_with_a_single_candidate_consumes_no_script_entry(plain):
    result = run(
        """
        cards:
          - {id: x, owner: B, zone: battle}
          - id: w
            owner: A
            zone: battle
            abilities:
              - {id: go, optional: true, when: {event: moved, card: x}, do: [{gain: {counter: n}}]}
        start:
          - move: {card: {zone: battle, owner: opponent, pick: 1}, to: trash}
        """,
        plain,
        choices=["decline"],
    )
    assert result.state.cards["x"].zone == "trash"
    assert result.keys("declined") == ["w.go"]
    assert result.unused_choices == ()


def test_scripted_target_picks(plain):
    result = run(TARGETS, plain, choices=["z"])
    assert zones(result, "x", "y", "z") == {"x": "battle", "y": "battle", "z": "trash"}
    with pytest.raises(ChoiceError) as info:
        run(TARGETS, plain, choices=["w"])
    assert info.value.legal == ("x", "y", "z")


def test_choices_mapping_picks_the_list_for_the_game_being_run(plain):
    text = (
        THREE
        + """
    choices:
      plain: [c.go, b.go]
      digimon: [b.go]
    """
    )
    assert run(text, plain).keys("resolved") == ["c.go", "b.go", "a.go"]


def test_choices_mapping_for_another_game_is_ignored(plain):
    text = (
        THREE
        + """
    choices:
      digimon: [c.go]
    """
    )
    assert run(text, plain).keys("resolved") == ["a.go", "b.go", "c.go"]
    assert run(text, plain).unused_choices == ()


def test_choices_mapping_under_digimon(digimon):
    text = (
        THREE
        + """
    choices:
      plain: [c.go]
      digimon: [b.go, c.go]
    """
    )
    assert scenario(text).compile(digimon).choices == ("b.go", "c.go")
    assert run(text, digimon).keys("resolved") == ["b.go", "c.go", "a.go"]


def test_boolean_choice_is_reported_as_a_scenario_error(plain):
    # YAML reads `true` as a boolean (`yes` too in YAML 1.1: since issue 37 item 33, YAML 1.2, it is text)
    with pytest.raises(tcgtrig.ScenarioError) as info:
        run(OPTIONAL + "choices: [true]\n", plain)
    assert info.value.path == "choices[0]"
    assert "write 'use' or 'decline'" in str(info.value)


# -- duplicate keys: KEY#n -------------------------------------------------------

TWICE = """
    cards:
      - id: w
        owner: A
        zone: battle
        abilities:
          - id: note
            when: {event: ping}
            do: [{gain: {counter: seen}}, {flag: {card: w, set: done}}]
      - id: v
        owner: A
        zone: battle
        abilities: [{id: go, when: {event: pong}, do: [{gain: {counter: v}}]}]
    start:
      - emit: {event: ping}
      - emit: {event: pong}
      - emit: {event: ping}
    """


def _resolved_ids(result: tcgtrig.Resolution) -> list[tuple[str, int]]:
    return [(s["effect"], s["id"]) for s in result.trace if s.kind == "resolved"]


def test_duplicate_keys_are_numbered_in_trigger_order(plain):
    result = run(TWICE, plain, choices=["w.note#2"])
    first = choice_steps(result)[0]
    assert first["options"] == ("w.note#1", "v.go", "w.note#2")
    # the second instance (the later trigger, larger id) went first
    resolved = _resolved_ids(result)
    assert resolved[0][0] == "w.note"
    assert resolved[0][1] == max(i for k, i in resolved if k == "w.note")


def test_plain_key_means_the_first_instance(plain):
    by_key = _resolved_ids(run(TWICE, plain, choices=["w.note"]))
    by_number = _resolved_ids(run(TWICE, plain, choices=["w.note#1"]))
    assert by_key == by_number
    assert by_key[0][1] == min(i for k, i in by_key if k == "w.note")


def test_out_of_range_number_is_illegal(plain):
    with pytest.raises(ChoiceError) as info:
        run(TWICE, plain, choices=["w.note#3"])
    assert info.value.legal == ("w.note#1", "v.go", "w.note#2")


def _labels(*keys: str) -> EffectLabels:
    return EffectLabels({i: SimpleNamespace(id=i, key=k) for i, k in enumerate(keys, 1)})


def test_effect_labels_number_duplicates_only():
    labels = _labels("a.x", "b.y", "a.x", "c.z", "a.x")
    assert list(labels) == ["a.x#1", "b.y", "a.x#2", "c.z", "a.x#3"]
    assert len(labels) == 5
    assert labels[0] == "a.x#1"
    assert labels[1] == "b.y"
    assert labels[-1] == "a.x#3"


def test_effect_labels_first_label_without_duplicates():
    labels = _labels("b.y", "a.x", "a.x")
    assert labels[0] == "b.y"  # the lazy path for the default
    assert list(labels) == ["b.y", "a.x#1", "a.x#2"]


def test_effect_labels_membership_and_resolution():
    labels = _labels("a.x", "b.y", "a.x")
    assert "a.x" in labels and "a.x#1" in labels and "a.x#2" in labels and "b.y" in labels
    assert "a.x#3" not in labels
    assert "a.x#0" not in labels
    assert "a.x#two" not in labels
    assert "c.z" not in labels
    assert 1 not in labels
    assert labels.resolve("a.x").id == 1
    assert labels.resolve("a.x#1").id == 1
    assert labels.resolve("a.x#2").id == 3
    assert labels.resolve("b.y").id == 2
    assert labels.resolve("a.x#3") is None


def test_effect_labels_len_is_the_number_of_pending_effects():
    assert len(_labels("a.x")) == 1
    assert list(_labels("a.x")) == ["a.x"]
    assert len(_labels(*["k.k"] * 1000)) == 1000
    assert _labels(*["k.k"] * 1000)[0] == "k.k#1"


# -- RandomChooser ---------------------------------------------------------------


def test_random_same_seed_same_resolution(plain):
    one = run(FIVE, plain, chooser=RandomChooser(7))
    two = run(FIVE, plain, chooser=RandomChooser(7))
    assert one.keys("resolved") == two.keys("resolved")
    assert one.to_dict() == two.to_dict()
    assert sorted(one.keys("resolved")) == [f"e{i}.go" for i in range(5)]


def test_random_different_seeds_can_give_different_orders(plain):
    orders = {tuple(run(FIVE, plain, chooser=RandomChooser(seed)).keys("resolved")) for seed in range(8)}
    assert len(orders) > 1
    for order in orders:
        assert sorted(order) == [f"e{i}.go" for i in range(5)]


def test_random_chooser_ignores_the_files_script(plain):
    result = run(THREE + "choices: [nope]\n", plain, chooser=RandomChooser(1))
    assert sorted(result.keys("resolved")) == ["a.go", "b.go", "c.go"]


def test_random_chooser_picks_only_legal_options_reproducibly():
    decision = Decision(kind="target", player="A", prompt="pick", options=("p", "q", "r", "s"), default="p")
    a, b = RandomChooser(3), RandomChooser(3)
    seq_a = [a.choose(decision) for _ in range(30)]
    seq_b = [b.choose(decision) for _ in range(30)]
    assert seq_a == seq_b
    assert seq_a != [RandomChooser(4).choose(decision) for _ in range(30)]
    assert set(seq_a) <= {"p", "q", "r", "s"}
    assert len(set(seq_a)) > 1


def test_random_chooser_can_decline(plain):
    outcomes = {tuple(run(OPTIONAL, plain, chooser=RandomChooser(s)).keys("declined")) for s in range(12)}
    assert outcomes == {(), ("may.go",)}


# -- InteractiveChooser ----------------------------------------------------------


def _interactive(answers: list[str]) -> tuple[InteractiveChooser, list[str]]:
    said: list[str] = []
    feed = iter(answers)
    return InteractiveChooser(ask=lambda prompt: next(feed), say=said.append), said


def test_interactive_accepts_numbers_labels_and_empty_for_default(plain):
    chooser, said = _interactive(["3", "b.go"])
    assert run(THREE, plain, chooser=chooser).keys("resolved") == ["c.go", "b.go", "a.go"]
    assert any("A decides (order)" in line for line in said)
    assert "  1. a.go  (default)" in said
    chooser, _ = _interactive(["", ""])
    assert run(THREE, plain, chooser=chooser).keys("resolved") == ["a.go", "b.go", "c.go"]


def test_interactive_asks_again_after_an_illegal_answer(plain):
    chooser, said = _interactive(["nope", "9", "0", "2", "1"])
    assert run(THREE, plain, chooser=chooser).keys("resolved") == ["b.go", "a.go", "c.go"]
    refusals = [line for line in said if "not a legal choice" in line]
    legal = "(legal: a.go, b.go, c.go)"
    assert refusals == [f"  not a legal choice: {answer!r} {legal}" for answer in ("nope", "9", "0")]


def test_interactive_undo_hands_back_the_answers_kept(plain):
    said: list[str] = []
    feed = iter(["undo", "2", "undo", "3", ""])
    chooser = InteractiveChooser(ask=lambda prompt: next(feed), say=said.append, undo=True)
    with pytest.raises(UndoAnswer) as info:
        run(THREE, plain, chooser=chooser)
    assert "  nothing to undo: you have not answered a decision yet" in said
    assert (info.value.undone, info.value.answers, chooser.answers) == ("b.go", (), [])
    engine = tcgtrig.Engine(plain, *_compiled(THREE, plain))  # the position again, from the answers kept
    engine.run(chooser)
    assert [s["effect"] for s in engine.trace if s.kind == "resolved"] == ["c.go", "a.go", "b.go"]
    assert chooser.answers == ["c.go", "a.go"]


def test_interactive_undo_is_a_word_only_when_asked_for(plain):
    chooser, said = _interactive(["undo", "outcomes", "1", "1"])
    assert run(THREE, plain, chooser=chooser).keys("resolved") == ["a.go", "b.go", "c.go"]
    assert "  not a legal choice: 'undo' (legal: a.go, b.go, c.go)" in said
    assert "  not a legal choice: 'outcomes' (legal: a.go, b.go, c.go)" in said


# -- the engine checks answers too -----------------------------------------------


def test_engine_refuses_an_illegal_answer(plain):
    engine = tcgtrig.Engine(plain, *_compiled(THREE, plain))
    decision = engine.advance()
    assert decision is not None and decision.kind == "order"
    with pytest.raises(ChoiceError) as info:
        engine.answer("z.go")
    assert info.value.legal == ("a.go", "b.go", "c.go")
    engine.answer("b.go")
    engine.run(DefaultChooser())
    assert [s["effect"] for s in engine.trace if s.kind == "resolved"] == ["b.go", "a.go", "c.go"]


def _compiled(text: str, ruleset: tcgtrig.Ruleset) -> tuple:
    compiled = scenario(text).compile(ruleset)
    return compiled.state.copy(), compiled.start
