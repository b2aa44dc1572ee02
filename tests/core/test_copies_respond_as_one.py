"""Copies of a card's words respond as one option (issue 40 item 1): in a
chain window the same ability on cards alike but for their ids is asked
about once and offered once, standing for its copies (the trace's
``copies``); any copy's key stays legal; a chain of N such responses asks
O(N) questions, not O(N²)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tcgtrig
from helpers import random_chain, scenario
from tcgtrig import hookimpl, reads
from tcgtrig.runtime.activation import Activating

ROOT = Path(__file__).resolve().parents[2]
CROWS = ROOT / "benchmarks" / "positions" / "responses-50.yaml"

#: B holds three D.D. Crows and A one; A's Graveyard holds a card to target
HAND = """\
game: yugioh
cards:
  - {id: jar, name: Jar of Greed, owner: A, zone: field, types: [trap],
     abilities: [{id: draw, kind: activated, speed: 2, do: [{lp: 1}]}]}
  - {id: pot, name: Pot of Greed, owner: A, zone: graveyard, types: [spell]}
  - {id: crow_a, name: D.D. Crow, owner: A, zone: hand, types: [monster], abilities: [CROW]}
  - {id: crow_1, name: D.D. Crow, owner: B, zone: hand, types: [monster], abilities: [CROW]}
  - {id: crow_2, name: D.D. Crow, owner: B, zone: hand, types: [monster], abilities: [CROW]}
  - {id: crow_3, name: D.D. Crow, owner: B, zone: hand, types: [monster], abilities: [CROW]}
start: [{activate: jar.draw}]
""".replace(
    "CROW",
    "{id: banish, kind: activated, speed: 2, active_in: hand, cost: [{discard: self}],"
    " target: {zone: graveyard, owner: opponent, pick: 1}, do: [{banish: target}]}",
)


def choices(result: tcgtrig.Resolution) -> list[tuple[Any, ...]]:
    return [
        (step.get("player"), step.get("label"), step.get("options"), step.get("copies"))
        for step in result.trace
        if step.kind == "choice"
    ]


def test_three_crows_in_a_hand_are_one_option_and_any_copy_may_be_chosen():
    result = tcgtrig.resolve(scenario(HAND), "yugioh", choices=["crow_2.banish"])
    assert choices(result)[0] == ("B", "crow_2.banish", ("crow_1.banish", "pass"), {"crow_1.banish": 3})
    # the copy named is the one activated (A then passes, by default)
    assert result.chains() == [["jar.draw", "crow_2.banish"]]
    zones = {card.id: card.zone for card in result.state.cards.values()}
    assert zones["crow_2"] == "graveyard" and zones["pot"] == "banished"
    assert zones["crow_1"] == zones["crow_3"] == "hand"


def test_copies_with_another_state_are_options_of_their_own():
    text = HAND.replace(
        "{id: crow_3, name: D.D. Crow, owner: B, zone: hand, types: [monster]",
        "{id: crow_3, name: D.D. Crow, owner: B, zone: hand, types: [monster], flags: [revealed]",
    )
    result = tcgtrig.resolve(scenario(text), "yugioh", choices=["crow_3.banish"])
    options = ("crow_1.banish", "crow_3.banish", "pass")
    assert choices(result)[0] == ("B", "crow_3.banish", options, {"crow_1.banish": 2})


def test_words_that_tell_copies_apart_are_never_one_option():
    # "if this card was revealed this turn" reads the turn's history of each copy
    text = HAND.replace(
        "active_in: hand, cost:", "active_in: hand, condition: {not: {happened: {event: moved, card: self}}}, cost:"
    )
    result = tcgtrig.resolve(scenario(text), "yugioh", choices=["crow_2.banish"])
    assert choices(result)[0] == (
        "B",
        "crow_2.banish",
        ("crow_1.banish", "crow_2.banish", "crow_3.banish", "pass"),
        None,
    )


class TellsCopiesApart:
    """A house rule whose answer reads which copy a card is."""

    @hookimpl
    @reads("chain.own", "state.card", "card.id")
    def tcgtrig_activation_blocked(self, state, effect, context):
        return "the first copy may not respond" if effect.card == "crow_1" else None


def test_a_game_whose_hooks_read_which_copy_offers_every_copy():
    ruleset = tcgtrig.load_ruleset("yugioh", plugins=[TellsCopiesApart()])
    assert not ruleset.copies_alike and ruleset.window_reads is not None
    result = tcgtrig.resolve(scenario(HAND), ruleset, choices=["crow_3.banish"])
    assert choices(result)[0] == ("B", "crow_3.banish", ("crow_2.banish", "crow_3.banish", "pass"), None)


def _same_but_the_options(one: tcgtrig.Resolution, other: tcgtrig.Resolution) -> None:
    def plain(result: tcgtrig.Resolution) -> list[dict[str, Any]]:
        steps = [dict(step) for step in result.to_dict()["steps"]]
        for step in steps:
            step.pop("options", None)
            step.pop("copies", None)
        return steps

    assert plain(one) == plain(other)


def test_grouping_copies_changes_no_instance_number_and_no_outcome():
    bound = tcgtrig.scenario.reading.bind(tcgtrig.load_scenario(CROWS, check_game=False), "yugioh")
    grouped = tcgtrig.resolve(bound)
    apart = tcgtrig.load_ruleset("yugioh")
    apart.copies_alike = False
    every = tcgtrig.resolve(tcgtrig.load_scenario(CROWS, check_game=False), apart)
    assert len(grouped.chains()[0]) == 51 and grouped.chains() == every.chains()
    _same_but_the_options(grouped, every)
    respond = [step for step in grouped.trace if step.kind == "choice" and step.get("decision") == "respond"]
    assert [len(step["options"]) for step in respond[:3]] == [2, 2, 2]  # a Crow standing for its copies, pass
    assert [step["copies"] for step in respond[:3]] == [
        {"crow_0.banish": 25},
        {"crow_1.banish": 25},
        {"crow_2.banish": 24},
    ]


def asked(monkeypatch: pytest.MonkeyPatch, links: int) -> int:
    """How many times a chain of ``links`` alternating Crows asks whether an ability may activate."""
    count = [0]
    real = Activating.activation_failure

    def counting(self: Any, *args: Any) -> Any:
        count[0] += 1
        return real(self, *args)

    text = "\n".join(line for line in HAND.splitlines() if "crow_" not in line)
    cards = [
        f"  - {{id: crow_{i}, name: D.D. Crow, owner: {'B' if i % 2 == 0 else 'A'}, zone: hand, types: [monster],"
        " abilities: [{id: banish, kind: activated, speed: 2, active_in: hand, cost: [{discard: self}],"
        " target: {zone: graveyard, owner: opponent, pick: 1}, do: [{banish: target}]}]}"
        for i in range(links)
    ]
    text = text.replace("start:", "\n".join(cards) + "\nstart:")
    picks = []
    for i in range(links):
        picks += [f"crow_{i}.banish", f"crow_{i - 1}"] if i >= 2 else [f"crow_{i}.banish"]
    monkeypatch.setattr(Activating, "activation_failure", counting)
    result = tcgtrig.resolve(scenario(text), "yugioh", choices=picks)
    monkeypatch.undo()
    assert len(result.chains()[0]) == links + 1
    return count[0]


def test_a_chain_of_n_copies_asks_linearly_many_questions(monkeypatch):
    small, large = asked(monkeypatch, 40), asked(monkeypatch, 160)
    assert large <= 4.4 * small, (small, large)


def _replayed_apart(position: tcgtrig.Scenario, seed: int) -> tuple[tcgtrig.Resolution, tcgtrig.Resolution]:
    """``position`` played with copies grouped by a seeded random player,
    then with every copy apart, given the same answers."""
    from tcgtrig.choices import RandomChooser

    engine = tcgtrig.Engine.for_scenario(position, tcgtrig.load_ruleset("yugioh"), max_steps=20_000)
    chooser, answers = RandomChooser(seed), []
    while (decision := engine.advance()) is not None:
        answers.append(chooser.choose(decision, engine))
        engine.answer(answers[-1])
    apart = tcgtrig.load_ruleset("yugioh")
    apart.copies_alike = False
    return engine.result(), tcgtrig.resolve(position, apart, choices=answers, max_steps=20_000)


def with_copies(seed: int) -> dict[str, Any]:
    """A random chain position (``helpers.random_chain``) where some cards
    have one to three copies: the same name, owner, zone and words."""
    import copy
    import random

    data = random_chain(seed)
    rng = random.Random(seed)
    copies = []
    for card in data["cards"]:
        if card["id"] != "starter" and rng.random() < 0.5:
            for n in range(rng.randint(1, 3)):
                copies.append(
                    {**copy.deepcopy(card), "id": f"{card['id']}_copy{n}", "name": card.get("name", card["id"])}
                )
            card.setdefault("name", card["id"])
    data["cards"] += copies
    return data


def test_the_random_positions_do_offer_copies_as_one():
    shown = 0
    for seed in range(40):
        position = tcgtrig.scenario_from_data(with_copies(seed), "<random chain>", check_game=False)
        grouped, _ = _replayed_apart(position, seed)
        shown += any(step.get("copies") for step in grouped.trace if step.kind == "choice")
    assert shown >= 20


@pytest.mark.parametrize("seed", range(40))
def test_random_chains_with_copies_resolve_alike_grouped_or_apart(seed):
    """The same answers given with copies grouped and apart give the same
    trace but for the options listed: the same instance numbers, order and
    outcome."""
    position = tcgtrig.scenario_from_data(with_copies(seed), "<random chain>", check_game=False)
    grouped, apart = _replayed_apart(position, seed)
    _same_but_the_options(grouped, apart)
    assert grouped.to_dict()["zones"] == apart.to_dict()["zones"]
