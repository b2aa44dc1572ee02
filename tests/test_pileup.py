"""Effects that only pile up (issue 22, item 1): each activation triggers
several more, so the pending effects grow without end.  The loop guard
sees the same effects recurring while the pending pool only grows, and
ends the resolution within a few steps with a verdict naming them; a
resolution that would end by itself — a fan-out a counter bounds, a pool
that grows and then drains, a player ordering a single pool, chains — is
never cut off."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import ability, info_only_ruleset, pending, plain_ruleset, run
from tcgtrig.base import budget
from tcgtrig.model.pending import PendingPool

GAMES = ["digimon", "duelmasters", "yugioh"]
ZONE = {"digimon": "battle", "duelmasters": "battle", "yugioh": "field", "plain": "battle"}
PILED = "kept recurring while the pending effects only piled up"


def fan_out(
    cards: int, game: str = "digimon", do: str = "[{gain: {counter: n}}, {emit: {event: ping}}]", owners: str = "A"
) -> str:
    """``cards`` cards, each triggering on ``ping`` and pinging again: every
    activation triggers ``cards`` effects (the blow-up of issue 22)."""
    lines = ["cards:"]
    for number in range(cards):
        owner = owners[number % len(owners)]
        lines.append(
            f"  - {{id: c{number}, owner: {owner}, zone: {ZONE[game]}, "
            f"abilities: [{{id: go, when: {{event: ping}}, do: {do}}}]}}"
        )
    lines.append("start: [{emit: {event: ping}}]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("cards", [2, 50])
def test_a_fan_out_ends_at_once_with_a_verdict_naming_the_effects(game, cards):
    result = run(fan_out(cards, game), game)
    assert result.outcome != "complete"
    assert result.reason.startswith("endless loop: c")
    assert PILED in result.reason and "waiting" in result.reason
    assert "only n changed besides, and nothing that reads it can stop it" in result.reason
    assert len(result.keys("activated")) < 200  # not 250,000 steps (nor tens of GB) first
    assert result.trace[-1].kind == "ended"
    assert result.keys("lost")  # what piled up is lost when the resolution ends


def test_no_player_asked_means_no_player_can_stop_it():
    # A's and B's effects of one batch rank apart under Digimon: nobody orders anything
    result = run(fan_out(2, owners="AB"), "digimon")
    assert result.outcome == "draw"
    assert PILED in result.reason and "no player can stop ends the game in a draw" in result.reason
    assert not [step for step in result.trace if step.kind == "choice"]


def test_a_player_asked_to_order_could_stop_it():
    result = run(fan_out(2), "digimon")
    assert result.outcome == "loop" and "a player can stop this loop by choosing differently" in result.reason


def test_a_pile_up_with_no_counter_changing_is_caught_where_any_counter_may_matter():
    plain = plain_ruleset()
    assert plain.info.rule_counters is None
    result = run(fan_out(3, "plain", do="[{emit: {event: ping}}]"), plain)
    assert result.reason.startswith("endless loop: ") and PILED in result.reason
    assert "; nothing drains them" in result.reason
    assert len(result.keys("activated")) < 100


def test_where_any_counter_may_matter_a_pile_up_changing_one_is_left_to_the_step_limit():
    result = run(fan_out(3, "plain"), plain_ruleset(), max_steps=400)
    assert "step limit reached: no end after 400 steps" in result.reason


def test_a_counter_the_rules_read_keeps_it_from_the_verdict():
    reading_n = info_only_ruleset("reads_n", rule_counters=("n",))  # its rules may end the game on n
    result = run(fan_out(2, "plain"), reading_n, max_steps=400)
    assert "step limit reached: no end after 400 steps" in result.reason
    # memory the effects give and take back within the cycle is not growing: that pile-up is caught
    back = run(
        fan_out(2, do="[{gain: {counter: memory}}, {lose: {counter: memory}}, {emit: {event: ping}}]"), "digimon"
    )
    assert PILED in back.reason and "; nothing drains them" in back.reason


# -- near misses: resolutions that end by themselves --------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_fan_out_a_counter_bounds_runs_to_its_end(game):
    # every activation triggers two more until n reaches 60; then the pile drains
    bounded = fan_out(
        2, game, do="[{gain: {counter: n}}, {if: {player: self, counter: n, lt: 60}, then: [{emit: {event: ping}}]}]"
    )
    result = run(bounded, game, max_steps=5_000)
    assert result.outcome == "complete", result.reason
    assert result.state.counter("A", "n") == len(result.keys("resolved")) >= 60
    assert not result.keys("lost")


def test_a_fan_out_bounded_past_the_step_limit_gets_the_limits_verdict_at_once():
    far = fan_out(
        2,
        do="[{gain: {counter: n}}, {if: {player: self, counter: n, lt: 1000000}, then: [{emit: {event: ping}}]}]",
        owners="AB",
    )
    result = run(far, "digimon", max_steps=3_000)
    assert result.reason.startswith("step limit reached: c") and PILED in result.reason
    assert "only n changed besides, and what reads it cannot change for another" in result.reason
    assert "the limit of 3000 steps comes first" in result.reason
    assert len(result.keys("activated")) < 300


@pytest.mark.parametrize("game", GAMES)
def test_a_fan_out_bounded_past_the_step_limit_in_which_a_player_chose_runs_to_the_limit(game):
    # the answers may differ next time round: only running it shows where it goes
    far = fan_out(
        2,
        game,
        do="[{gain: {counter: n}}, {if: {player: self, counter: n, lt: 1000000}, then: [{emit: {event: ping}}]}]",
    )
    result = run(far, game, max_steps=600)
    assert "step limit reached: no end after 600 steps" in result.reason


@pytest.mark.parametrize("game", GAMES)
def test_a_pool_that_grows_and_then_drains_is_not_cut_off(game):
    # a binary tree of triggers eight levels deep: 255 effects, the pool grows, then drains
    lines = ["cards:"]
    for level in range(8):
        for side in "lr":
            then = f"[{{emit: {{event: e{level + 1}}}}}]" if level < 7 else "[{gain: {counter: leaves}}]"
            lines.append(
                f"  - {{id: {side}{level}, owner: A, zone: {ZONE[game]}, abilities: "
                f"[{{id: go, when: {{event: e{level}}}, do: {then}}}]}}"
            )
    lines.append("start: [{emit: {event: e0}}]")
    result = run("\n".join(lines) + "\n", game, max_steps=10_000)
    assert result.outcome == "complete", result.reason
    assert len(result.keys("resolved")) == 2 + 4 + 8 + 16 + 32 + 64 + 128 + 256
    assert result.state.counter("A", "leaves") == 256


@pytest.mark.parametrize("game", GAMES)
def test_a_fan_out_that_runs_out_of_cards_is_not_cut_off(game):
    # each activation trashes a card from the deck and pings only while one is left: the zones bound it
    deck = "\n".join(f"  - {{id: d{i}, owner: A, zone: deck}}" for i in range(12))
    do = (
        "[{move: {card: {zone: deck, owner: self, pick: 1}, to: trash}}, "
        "{if: {count: {zone: deck, owner: self}, gte: 1}, then: [{emit: {event: ping}}]}]"
    )
    result = run(fan_out(2, game, do=do).replace("start:", deck + "\nstart:"), game, max_steps=5_000)
    assert result.outcome == "complete", result.reason
    assert all(card.zone == "trash" for card in result.state.cards.values() if card.id.startswith("d"))


def test_duel_masters_single_pool_ordered_by_the_player_runs_to_its_end():
    # every pending effect waits in one pool and the player picks; scripted picks take the newest first
    bounded = fan_out(
        3,
        "duelmasters",
        do="[{gain: {counter: n}}, {if: {player: self, counter: n, lt: 30}, then: [{emit: {event: ping}}]}]",
    )
    result = run(bounded, "duelmasters", choices=["c2.go", "c1.go"] * 20, max_steps=5_000)
    assert result.outcome == "complete", result.reason
    assert not result.keys("lost")


def test_yugioh_chains_that_grow_and_resolve_are_not_cut_off():
    # each link's resolution triggers two effects for the next chain, until n reaches 40
    bounded = fan_out(
        2,
        "yugioh",
        do="[{gain: {counter: n}}, {if: {player: self, counter: n, lt: 40}, then: [{emit: {event: ping}}]}]",
    )
    result = run(bounded, "yugioh", max_steps=5_000)
    assert result.outcome == "complete", result.reason
    assert len(result.chains()) > 3 and max(map(len, result.chains())) > 8


# -- the memory bound where no step is counted ---------------------------------------------------------------


@pytest.fixture
def no_memory():
    """A memory bound every process is over: where it is read, the resolution ends."""
    before = budget.max_memory()
    budget.set_max_memory(1)
    yield
    budget.set_max_memory(before)


def test_a_huge_batch_of_triggers_reads_the_memory_as_it_comes_in(no_memory):
    lines = ["cards:"] + [
        f"  - {{id: w{i}, owner: A, zone: battle, abilities: [{{id: go, when: {{event: ping}}, "
        "do: [{gain: {counter: n}}]}]}"
        for i in range(3_000)
    ]
    result = run("\n".join(lines) + "\nstart: [{emit: {event: ping}}]\n", "digimon")
    assert result.reason.startswith("memory limit reached: ")
    assert not result.keys("activated")  # ended before the first of them, not after 2,048 steps


def test_a_long_chain_reads_the_memory_as_it_resolves(no_memory):
    # one chain of 100 links: no step is counted while it resolves
    lines = ["cards:"] + [
        f"  - {{id: m{i}, owner: A, zone: field, types: [monster], abilities: [{{id: go, "
        "when: {event: ping}, do: [{gain: {counter: n}}]}]}"
        for i in range(100)
    ]
    result = run("\n".join(lines) + "\nstart: [{emit: {event: ping}}]\n", "yugioh")
    assert result.reason.startswith("memory limit reached: ")
    assert 0 < len(result.keys("resolved")) < 100


def test_the_library_api_is_unchanged_for_a_pile_up():
    result = tcgtrig.resolve(
        tcgtrig.scenario_from_text("format: 1\ntitle: t\nplayers: [A, B]\nturn_player: A\n" + fan_out(2), "fan.yaml"),
        "digimon",
    )
    assert result.to_dict()["outcome"] == "loop"


# -- the pool's shape ------------------------------------------------------------------------------------------


def pool_of(*buckets: str) -> PendingPool:
    """A pool with one bucket per string, each letter an effect of that key, in order."""
    pool = PendingPool()
    number = 0
    for rank, keys in enumerate(buckets):
        for key in keys:
            number += 1
            effect = pending(ability(), id=number, key=key)
            effect._place((rank,), ())
            pool.add(effect)
    return pool


def test_a_pools_shape_leaves_out_how_many_of_each_kind_wait():
    small, big = pool_of("xy", "y", "xy"), pool_of("xyx", "y", "y", "y", "xxy")
    assert small.shape() == big.shape() and small.has_shape(big.shape())[0] and big.has_shape(small.shape())[0]
    assert small.shape_fingerprint() == big.shape_fingerprint()
    assert small.quick_fingerprint() != big.quick_fingerprint()
    assert len(big.shape()) == 3  # the run of "y" buckets counts once
    assert big.kinds() == {
        pending(ability(), key="x").signature_hash(): 4,
        pending(ability(), key="y").signature_hash(): 5,
    }


def test_a_pools_shape_keeps_the_order_kinds_first_come_in():
    assert pool_of("xy").shape() != pool_of("yx").shape()
    assert not pool_of("yx").has_shape(pool_of("xy").shape())[0]
    assert not pool_of("x", "y").has_shape(pool_of("y", "x").shape())[0]
    assert not pool_of("x", "y").has_shape(pool_of("x").shape())[0]
    assert not pool_of("x").has_shape(pool_of("x", "y").shape())[0]


def test_comparing_a_pools_shape_stops_at_the_first_difference():
    big = pool_of("y" + "x" * 10_000)
    same, looked = big.has_shape(pool_of("xy").shape())
    assert not same and looked == 1


def test_the_kinds_follow_every_change():
    pool = pool_of("xxy")
    pool.remove(1)
    pool.remove(3)
    assert list(pool.kinds().values()) == [1] and pool.shape_fingerprint() == pool_of("x").shape_fingerprint()
    copy = pool.copy()
    copy.remove(2)
    assert not copy.kinds() and copy.shape_fingerprint() == 0 and pool.kinds()
