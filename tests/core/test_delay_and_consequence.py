"""Issue 37 items 10 and 11, in core words: ``delay`` puts actions off until
the chain (or, without one, the effect) is over; a ``consequence`` ability
happens at once as part of its event, activated by no one and on no chain.
The Yu-Gi-Oh! rulings they express are tests/scenarios/yugioh/ruling-last-turn-*
and ruling-call-of-the-haunted-*."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import PlainGame, run
from tcgtrig import hookimpl


class Chain(PlainGame):
    @hookimpl
    def tcgtrig_game_info(self):
        return tcgtrig.GameInfo(name="plain", title="chain", version="0", resolution="chain")


def plain() -> tcgtrig.Ruleset:
    return tcgtrig.load_ruleset("plain", plugins=(PlainGame(),), autoload=False)


def chain() -> tcgtrig.Ruleset:
    return tcgtrig.load_ruleset("plain", plugins=(Chain(),), autoload=False)


def events(result: tcgtrig.Resolution) -> list[tuple[str, str | None]]:
    return [(s.get("event"), s.get("card")) for s in result.trace if s.kind == "event"]


DELAYED_LINK = """
    cards:
      - id: first
        owner: A
        zone: field
        abilities:
          - {id: go, kind: activated, speed: 2, do: [{gain: {counter: n}}]}
      - id: second
        owner: B
        zone: field
        abilities:
          - id: go
            kind: activated
            speed: 2
            do: [{gain: {counter: m}}, {delay: [{move: {card: x, to: gy}}]}, {gain: {counter: m}}]
      - {id: x, owner: B, zone: field}
      - id: watcher
        owner: A
        zone: field
        abilities:
          - {id: sees, when: {event: moved, card: x}, do: [{gain: {counter: seen}}]}
    start: [{activate: first.go}]
    choices: [second.go]
    """


def test_a_delay_waits_for_the_whole_chain():
    result = run(DELAYED_LINK, chain())
    kinds = [(s.kind, s.get("effect")) for s in result.trace if s.kind in ("resolved", "delayed", "triggered")]
    assert kinds == [
        ("resolved", "second.go"),
        ("resolved", "first.go"),
        ("delayed", "second.go"),
        ("triggered", "watcher.sees"),
        ("resolved", "watcher.sees"),
    ]
    delayed = next(s for s in result.trace if s.kind == "delayed")
    assert delayed["reason"] == "put off until the chain has resolved"
    moved = next(s for s in result.trace if s.kind == "event" and s.get("card") == "x")
    assert moved["cause"] == delayed["id"]  # part of the effect that put it off
    assert result.state.cards["x"].zone == "gy" and result.state.counter("B", "m") == 2


def test_without_a_chain_a_delay_waits_for_the_effect():
    text = """
        cards:
          - id: c
            owner: A
            zone: field
            abilities:
              - {id: ping, when: ping, do: [{delay: [{gain: {counter: late}}]}, {gain: {counter: now}}]}
              - {id: now, when: {event: gained, counter: now}, do: [{gain: {counter: after}}]}
        start: [{emit: {event: ping}}]
        """
    result = run(text, plain())
    steps = [(s.kind, s.get("counter") or s.get("effect")) for s in result.trace if s.kind in ("event", "delayed")]
    assert steps.index(("delayed", "c.ping")) < steps.index(("event", "late")) < steps.index(("event", "after"))


CONSEQUENCE = """
    cards:
      - id: haunt
        owner: B
        zone: field
        abilities:
          - id: leaves
            kind: consequence
            when: {event: moved, card: self, from: field}
            do: [{move: {card: ghost, to: gy}}]
      - id: ghost
        owner: B
        zone: field
        abilities:
          - {id: gone, when: {event: moved, card: self, to: gy}, active_in: [field, gy], do: [{gain: {counter: n}}]}
      - id: spell
        owner: A
        zone: field
        abilities:
          - id: go
            kind: activated
            do: [{move: {card: haunt, to: gy}}, {gain: {counter: after}}]
    start: [{activate: spell.go}]
    """


@pytest.mark.parametrize("ruleset", [plain, chain])
def test_a_consequence_happens_at_once_as_part_of_its_event(ruleset):
    result = run(CONSEQUENCE, ruleset())
    assert events(result)[:3] == [("moved", "haunt"), ("moved", "ghost"), ("gained", None)]
    applied = next(s for s in result.trace if s.kind == "applied")
    assert (applied["effect"], applied["event"]) == ("haunt.leaves", "moved")
    assert "haunt.leaves" not in result.keys("activated") and result.keys("resolved") == ["spell.go", "ghost.gone"]
    ghost_moved = next(s for s in result.trace if s.kind == "event" and s.get("card") == "ghost")
    assert ghost_moved["cause"] == applied["id"]
    if ruleset is chain:
        assert result.chains() == [["spell.go"], ["ghost.gone"]]


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ("optional: true", "a consequence ability is not activated: it takes no 'optional'"),
        ("cost: [{gain: {counter: n}}]", "it takes no 'cost'"),
        ("target: {zone: field, pick: 1}", "only a triggered or activated one targets"),
    ],
)
def test_a_consequence_is_not_activated(words, message):
    text = CONSEQUENCE.replace("kind: consequence", f"kind: consequence\n            {words}")
    with pytest.raises(tcgtrig.ScenarioError, match=message):
        run(text, plain())


def test_a_delay_takes_a_list_of_actions():
    with pytest.raises(tcgtrig.ScenarioError, match="expected a list of actions"):
        run("cards: []\nstart: [{delay: {gain: {counter: n}}}]\n", plain())
