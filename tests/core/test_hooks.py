"""One test per hook: a tiny plugin implements it on top of the core
defaults, and the test shows the resolution change (datasette style: the
meta-test checks that every hook has its ``test_hook_<name>``)."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import PlainGame, run
from tcgtrig import ActivationContext, CardIds, Drop, GameEnd, GameInfo, Move, hookimpl

TWO_EFFECTS = """
    cards:
      - id: a
        owner: A
        zone: battle
        abilities:
          - {id: first, when: ping, do: [{gain: {counter: n}}]}
          - {id: second, when: ping, do: [{gain: {counter: n}}]}
      - id: b
        owner: B
        zone: battle
        abilities:
          - {id: other, when: ping, do: [{gain: {counter: n}}]}
    start: [{emit: {event: ping}}]
    """


def game(*plugins: object) -> tcgtrig.Ruleset:
    return tcgtrig.load_ruleset("plain", plugins=(PlainGame(), *plugins), autoload=False)


def test_hook_tcgtrig_game_info():
    ruleset = game()
    assert (ruleset.name, ruleset.info.title, ruleset.info.resolution) == (
        "plain",
        "Plain (core defaults)",
        "immediate",
    )


def test_hook_tcgtrig_addhooks():
    seen = []

    class Adds:
        @hookimpl
        def tcgtrig_addhooks(self, pluginmanager):
            seen.append(pluginmanager.project_name)

    game(Adds())
    assert seen == ["tcgtrig"]


def test_hook_tcgtrig_action_aliases():
    class Words:
        @hookimpl
        def tcgtrig_action_aliases(self):
            return {"bump": lambda n: {"gain": {"counter": "bumps", "amount": n}}}

    result = run("cards: []\nstart: [{bump: 3}]\n", game(Words()))
    assert result.state.counter("A", "bumps") == 3


TOGETHER = """
    cards:
      - id: x
        owner: A
        zone: field
        abilities:
          - {id: own_exit, when: {event: moved, card: self}, do: []}
          - {id: any_exit, when: {event: moved}, do: [{gain: {counter: n, amount: {count: event.card}}}]}
      - {id: y, owner: B, zone: field}
      - {id: z, owner: B, zone: field}
    start:
      - move: {card: [x, y, z], to: gone}
    """


def test_hook_tcgtrig_look_back():
    class OnlyItself:
        @hookimpl
        def tcgtrig_look_back(self, card, event):
            return event.card == card.id

    assert run(TOGETHER, game()).keys("resolved") == ["x.own_exit", "x.any_exit"]
    narrowed = run(TOGETHER, game(OnlyItself()))
    assert narrowed.keys("resolved") == ["x.own_exit", "x.any_exit"]
    assert narrowed.state.counter("A", "n") == 1  # any_exit saw only x itself leave


ARRIVING = """
    cards:
      - id: x
        owner: A
        zone: field
        abilities:
          - {id: seen, active_in: gone, when: {event: moved, card: y}, do: [{gain: {counter: n}}]}
      - {id: y, owner: B, zone: field}
    start:
      - move: {card: [x, y], to: gone}
    """


def test_hook_tcgtrig_look_back_asks_about_a_card_that_arrived():
    asked = []

    class NotFromWhereItArrived:
        @hookimpl
        def tcgtrig_look_back(self, card, event, arrived):
            asked.append((card.id, card.zone, event.card, arrived))
            return event.card == card.id

    assert run(ARRIVING, game()).keys("resolved") == ["x.seen"]  # the default: it sees y leave from 'gone'
    assert run(ARRIVING, game(NotFromWhereItArrived())).keys("resolved") == []
    assert asked == [("x", "field", "y", True)]  # the card as it was, and that it arrived


def test_hook_tcgtrig_trigger_each_event():
    class EachEvent:
        @hookimpl
        def tcgtrig_trigger_each_event(self, ability):
            return ability.id == "any_exit"

    once = run(TOGETHER, game())
    assert once.keys("resolved").count("x.any_exit") == 1 and once.state.counter("A", "n") == 3
    each = run(TOGETHER, game(EachEvent()))
    assert each.keys("resolved").count("x.any_exit") == 3 and each.state.counter("A", "n") == 3


def test_hook_tcgtrig_pending_rank():
    class OpponentFirst:
        @hookimpl
        def tcgtrig_pending_rank(self, state, effect):
            return (0 if effect.controller != state.turn_player else 1, effect.id)

    assert run(TWO_EFFECTS, game()).keys("resolved") == ["a.first", "a.second", "b.other"]
    assert run(TWO_EFFECTS, game(OpponentFirst())).keys("resolved") == ["b.other", "a.first", "a.second"]


def test_hook_tcgtrig_pending_details():
    class Numbered:
        @hookimpl
        def tcgtrig_pending_details(self, effect):
            return {"depth_seen": effect.depth}

    result = run(TWO_EFFECTS, game(Numbered()))
    assert {s.get("depth_seen") for s in result.trace if s.kind in ("triggered", "resolved")} == {1}


class TurnPlayerOrdersAll:
    """Every effect of one rank, and the turn player orders them all."""

    @hookimpl
    def tcgtrig_pending_rank(self, effect):
        return (0,)

    @hookimpl
    def tcgtrig_who_orders(self, state, effects):
        return state.turn_player


def test_hook_tcgtrig_who_orders():
    result = run(TWO_EFFECTS, game(TurnPlayerOrdersAll()), choices=["b.other"])
    choice = next(s for s in result.trace if s.kind == "choice")
    assert choice["player"] == "A" and result.keys("resolved")[0] == "b.other"


def test_hook_tcgtrig_order_rule():
    class SaysWhy:
        @hookimpl
        def tcgtrig_order_rule(self, first, then):
            return f"house rule: {first.key} before {then.key}" if first.rank != then.rank else None

    result = run(TWO_EFFECTS, game(SaysWhy()))
    rules = [(s["effect"], s.get("rule")) for s in result.trace if s.kind == "activated"]
    # equal ranks: the game says nothing, the core names who chose; the last effect waited alone
    assert rules == [
        ("a.first", "chosen by A among equals"),
        ("a.second", "house rule: a.second before b.other"),
        ("b.other", None),
    ]

    result = run(TWO_EFFECTS, game(TurnPlayerOrdersAll()), choices=["b.other"])
    assert next(s for s in result.trace if s.kind == "activated")["rule"] == "chosen by A among equals"

    class Mumbles:
        @hookimpl
        def tcgtrig_order_rule(self):
            return 42

    with pytest.raises(tcgtrig.PluginError, match="tcgtrig_order_rule.*returned 42; expected the rule"):
        run(TWO_EFFECTS, game(Mumbles()))


def test_hook_tcgtrig_check_pending():
    class OpponentsAreLost:
        @hookimpl
        def tcgtrig_check_pending(self, state, effect, point):
            if point == "activation" and effect.controller != state.turn_player:
                return Drop("lost", "house rule")
            return None

    result = run(TWO_EFFECTS, game(OpponentsAreLost()))
    assert result.keys("lost") == ["b.other"]
    assert result.keys("resolved") == ["a.first", "a.second"]


def test_hook_tcgtrig_activation_blocked():
    class NoSecond:
        @hookimpl
        def tcgtrig_activation_blocked(self, effect, context: ActivationContext):
            return "blocked by test" if effect.key == "a.second" and context.window == "main" else None

    result = run(TWO_EFFECTS, game(NoSecond()))
    assert result.keys("failed") == ["a.second"]
    assert next(s for s in result.trace if s.kind == "failed")["reason"] == "blocked by test"


def test_hook_tcgtrig_once_per_turn_key():
    text = """
        cards:
          - id: a
            owner: A
            zone: battle
            abilities:
              - {id: x, once_per_turn: true, when: ping, do: []}
              - {id: y, once_per_turn: true, when: ping, do: []}
        start: [{emit: {event: ping}}]
        """

    class SharedName:
        @hookimpl
        def tcgtrig_once_per_turn_key(self, effect):
            return "same name"

    assert run(text, game()).keys("failed") == []
    shared = run(text, game(SharedName()))
    assert shared.keys("resolved") == ["a.x"] and shared.keys("failed") == ["a.y"]
    assert shared.state.used == {"same name": 1}


def test_hook_tcgtrig_rules_processing():
    class ZeroLifeLeaves:
        @hookimpl
        def tcgtrig_rules_processing(self, state, view):
            hp = {c.id: view.stat(c.id, "hp") for c in state.in_zone("field")}
            doomed = [card for card, value in hp.items() if value is not None and value <= 0]
            return [Move(card=CardIds(tuple(doomed)), to="gone", by="rule")] if doomed else None

    result = run(
        """
        cards:
          - {id: x, owner: B, zone: field, stats: {hp: 1000}}
          - id: w
            owner: A
            zone: field
            abilities: [{id: saw, when: {event: moved, by: rule}, do: []}]
        start: [{change: {card: x, stat: hp, by: -1000}}]
        """,
        game(ZeroLifeLeaves()),
    )
    assert (result.state.cards["x"].zone, result.state.cards["w"].zone) == ("gone", "field")
    assert result.keys("resolved") == ["w.saw"]
    assert any(s.kind == "rules" and s["cards"] == ("x",) for s in result.trace)


def test_rules_processing_between_the_actions_of_a_resolution():
    """``GameInfo.rules_between_actions``: the rules act before each action
    but the first (Duel Masters, Q&A 46075), not only once all are done."""

    class ZeroLifeLeaves:
        @hookimpl
        def tcgtrig_rules_processing(self, state, view):
            hp = {c.id: view.stat(c.id, "hp") for c in state.in_zone("field")}
            doomed = [card for card, value in hp.items() if value is not None and value <= 0]
            return [Move(card=CardIds(tuple(doomed)), to="gone", by="rule")] if doomed else None

    class Between:
        @hookimpl
        def tcgtrig_game_info(self):
            return GameInfo(name="between", title="Between", version="0", rules_between_actions=True)

    text = """
        cards:
          - {id: x, owner: B, zone: field, stats: {hp: 1000}}
        start:
          - {change: {card: x, stat: hp, by: -1000}}
          - {change: {card: x, stat: hp, by: 1000}}
        """
    assert run(text, game(ZeroLifeLeaves())).state.cards["x"].zone == "field"  # 1000 again when the rules look
    between = tcgtrig.load_ruleset("between", plugins=(Between(), ZeroLifeLeaves()), autoload=False)
    assert run(text, between).state.cards["x"].zone == "gone"  # gone before the +1000


def test_hook_tcgtrig_under_cards_zone():
    class SourcesToTrash:
        @hookimpl
        def tcgtrig_under_cards_zone(self, card, to):
            return "trash"

    text = """
        cards:
          - {id: top, owner: A, zone: field}
          - {id: src, owner: A, zone: sources, under: top}
        start: [{move: {card: top, to: hand}}]
        """
    assert run(text, game()).state.cards["src"].zone == "hand"
    assert run(text, game(SourcesToTrash())).state.cards["src"].zone == "trash"


class Battling:
    """A game whose battles compare ``power`` (``GameInfo.battle_stat``)."""

    @hookimpl
    def tcgtrig_game_info(self) -> GameInfo:
        return GameInfo(
            name="plain",
            title="Battling",
            version="0",
            battle_stat="power",
            zone_roles={"field": "field", "bin": "discard"},
            event_roles={"broken": "destroyed"},
        )


BATTLE = """
    counters: {A: {hp: 10}, B: {hp: 10}}
    cards:
      - id: big
        owner: A
        zone: field
        stats: {power: 5}
        abilities: [{id: won, when: {event: won_battle, card: self}, do: [{gain: {counter: hp, amount: 1}}]}]
      - {id: small, owner: B, zone: field, stats: {power: 3}}
    start: [{battle: {card: big, against: small}}]
    """


def test_the_default_battle_destroys_the_lower_stat_into_the_discard_zone():
    result = run(BATTLE, tcgtrig.load_ruleset("plain", plugins=(Battling(),), autoload=False))
    assert (result.state.cards["big"].zone, result.state.cards["small"].zone) == ("field", "bin")
    moved = [s for s in result.trace if s.kind == "event" and s["card"] == "small" and s.get("to")]
    assert [(s["event"], s["by"]) for s in moved] == [("broken", "battle")]
    assert result.keys("resolved") == ["big.won"] and result.state.counter("A", "hp") == 11


def test_hook_tcgtrig_battle_result():
    class Sudden:
        """The stronger card is destroyed and its controller loses the difference."""

        @hookimpl
        def tcgtrig_battle_result(self, state, card, against, stat):
            strong, weak = sorted((card, against), key=lambda c: -(stat(c, "power") or 0))
            return tcgtrig.BattleResult(
                destroyed=(strong,),
                winner=weak,
                counter="hp",
                damage=((state.controller(strong), stat(strong, "power") - stat(weak, "power")),),
            )

    result = run(BATTLE, tcgtrig.load_ruleset("plain", plugins=(Battling(), Sudden()), autoload=False))
    assert (result.state.cards["big"].zone, result.state.cards["small"].zone) == ("bin", "field")
    assert result.state.counter("A", "hp") == 8 and result.keys("resolved") == []


class Marking:
    """Each card marks damage equal to its power on the other (Magic's combat damage); the hits are
    seen as ``hit`` events, the damage by ``wounded`` (the default event name)."""

    @hookimpl
    def tcgtrig_battle_result(self, card, against, stat):
        return tcgtrig.BattleResult(
            changes=((against, "damage", stat(card, "power"), "hit"), (card, "damage", stat(against, "power")))
        )


def test_a_battle_marks_stat_changes_at_its_moment_and_destroys_nothing_itself():
    # issue 36: a game whose rules processing destroys by damage marks it in the battle (BattleResult.changes)
    watched = BATTLE.replace(
        "start:",
        "  - {id: eye, owner: A, zone: field, abilities: [{id: hit, when: {event: hit}, do: [{gain: {counter: hp}}]},"
        " {id: changed, when: {event: stat_changed, stat: damage}, do: [{gain: {counter: seen}}]}]}\n    start:",
    )
    result = run(watched, tcgtrig.load_ruleset("plain", plugins=(Battling(), Marking()), autoload=False))
    assert (result.state.cards["big"].zone, result.state.cards["small"].zone) == ("field", "field")
    assert (result.stat("big", "damage"), result.stat("small", "damage")) == (3, 5)
    events = [
        (s["event"], s["card"], s["amount"], s["by"], s["against"])
        for s in result.trace
        if s.kind == "event" and s.get("stat")
    ]
    assert events == [("hit", "small", 5, "battle", "big"), ("stat_changed", "big", 3, "battle", "small")]
    # one moment, and the named event's base is stat_changed: "when a card's damage changes" sees both,
    # and triggers once (the game states no trigger multiplicity: one trigger for the moment)
    assert sorted(result.keys("resolved")) == ["eye.changed", "eye.hit"]


@pytest.mark.parametrize(
    "changes",
    [(("elsewhere", "damage", 1),), (("big", "", 1),), (("big", "damage", 1.5),), (("big", "damage", 10**10),)],
)
def test_a_battle_change_to_another_card_or_not_a_whole_number_is_the_plugins_fault(changes):
    class Wrong:
        @hookimpl
        def tcgtrig_battle_result(self):
            return tcgtrig.BattleResult(changes=changes)

    with pytest.raises(tcgtrig.PluginError, match=r"changes as \(card, stat, whole number\[, event\]\)"):
        run(BATTLE, tcgtrig.load_ruleset("plain", plugins=(Battling(), Wrong()), autoload=False))


def test_a_battle_result_naming_another_card_is_the_plugins_fault():
    class Wrong:
        @hookimpl
        def tcgtrig_battle_result(self):
            return tcgtrig.BattleResult(destroyed=("elsewhere",))

    with pytest.raises(tcgtrig.PluginError, match="tcgtrig_battle_result"):
        run(BATTLE, tcgtrig.load_ruleset("plain", plugins=(Battling(), Wrong()), autoload=False))


def test_hook_tcgtrig_endless_loop():
    class Verdict:
        @hookimpl
        def tcgtrig_endless_loop(self, reason):
            return GameEnd("tie", f"house rule: {reason}")

    result = run(
        """
        cards:
          - id: flip
            owner: A
            zone: field
            abilities:
              - {id: up, when: flag_set, do: [{flag: {card: flip, clear: lit}}]}
              - {id: down, when: flag_cleared, do: [{flag: {card: flip, set: lit}}]}
        start: [{flag: {card: flip, set: lit}}]
        """,
        game(Verdict()),
    )
    assert result.outcome == "tie" and result.reason.startswith("house rule: endless loop")


class Gauge:
    """One shared ``score`` gauge, like Digimon's memory: what one side
    gains the other loses."""

    @hookimpl
    def tcgtrig_linked_counters(self, state, player, counter, value):
        if counter != "score":
            return None
        return {player: value, state.opponent(player): -value}


def test_hook_tcgtrig_linked_counters():
    result = run(
        """
        counters: {A: {score: 2}}
        cards:
          - id: b_card
            owner: B
            zone: hand
            abilities: [{id: go, kind: activated, do: [{gain: {counter: score, amount: 3}}]}]
        start: [{activate: b_card.go}]
        """,
        game(Gauge()),
    )
    assert result.state.counter("A", "score") == -1 and result.state.counter("B", "score") == 1


def test_linked_counters_a_file_gives_must_agree():
    with pytest.raises(tcgtrig.TcgTrigError, match="B's score is -2"):
        run(
            """
            counters: {A: {score: 2}, B: {score: 2}}
            cards: []
            start: []
            """,
            game(Gauge()),
        )


class EndsWhenNegative:
    @hookimpl
    def tcgtrig_turn_ends(self, state):
        if state.counter(state.turn_player, "score") < 0:
            return "score below 0"
        return None


TURN_END = """
    cards:
      - id: mon
        owner: A
        zone: battle
        abilities:
          - {id: end, when: {event: end_of_turn, player: self}, do: [{gain: {counter: score, amount: BACK}}]}
          - {id: start, when: {event: start_of_turn, player: opponent}, do: [{gain: {counter: seen}}]}
    start: [{lose: {counter: score, amount: 1}}]
    """


def test_hook_tcgtrig_turn_ends():
    result = run(TURN_END.replace("BACK", "0"), game(EndsWhenNegative()))
    assert [s.kind for s in result.trace if s.kind.startswith("turn")] == ["turn_end", "turn"]
    assert result.keys("resolved") == ["mon.end", "mon.start"]
    assert result.state.turn_player == "B" and result.state.turn == 2


def test_a_turn_that_the_end_of_turn_effects_save_goes_on():
    result = run(TURN_END.replace("BACK", "2"), game(EndsWhenNegative()))
    assert [s.kind for s in result.trace if s.kind.startswith("turn")] == ["turn_end", "turn_continues"]
    assert result.state.turn_player == "A" and result.keys("resolved") == ["mon.end"]


def test_hook_tcgtrig_describe_counters():
    class Describe:
        @hookimpl
        def tcgtrig_describe_counters(self, state):
            return [f"score {state.counter('A', 'score')} for A"]

    result = run("cards: []\nstart: [{gain: {counter: score, amount: 4}}]\n", game(Describe()))
    from tcgtrig.tools.render import render_text

    assert "Counters: score 4 for A" in render_text(result)


class Chain(PlainGame):
    @hookimpl
    def tcgtrig_game_info(self):
        return tcgtrig.GameInfo(name="plain", title="chain", version="0", resolution="chain")


CHAIN = """
    cards:
      - {id: s, owner: A, zone: hand, abilities: [{id: go, kind: activated, do: []}]}
      - {id: q, owner: B, zone: field, abilities: [{id: quick, kind: activated, speed: 2, do: []}]}
      - {id: c, owner: B, zone: field, abilities: [{id: counter, kind: activated, speed: 3, do: []}]}
    start: [{activate: s.go}]
    """


def test_hook_tcgtrig_chain_responder():
    class NobodyResponds:
        @hookimpl
        def tcgtrig_chain_responder(self, chain, passes):
            return None

    assert tcgtrig.resolve(
        tcgtrig.scenario_from_text(
            "format: 1\ntitle: t\nplayers: [A, B]\nturn_player: A\n" + CHAIN.replace("\n    ", "\n")
        ),
        tcgtrig.load_ruleset("plain", plugins=(Chain(), NobodyResponds()), autoload=False),
    ).keys("activated") == ["s.go"]


HELD = """
    cards:
      - id: a
        owner: A
        zone: battle
        abilities:
          - {id: release, when: {event: gained, counter: hold}, do: [{lose: {counter: hold}}]}
    start: [{delay: [{gain: {counter: late}}]}, {gain: {counter: hold}}]
    """


def test_hook_tcgtrig_delayed_due():
    class WhileHeld:
        @hookimpl
        def tcgtrig_delayed_due(self, state, chain):
            return state.counter(state.turn_player, "hold") <= 0

    def order(result: tcgtrig.Resolution) -> list[str]:
        return [s.kind for s in result.trace if s.kind in ("delayed", "resolved")]

    # the default: what the start actions put off happens as soon as they are over
    assert order(run(HELD, game())) == ["delayed", "resolved"]
    # the game holds it back until the counter is down again
    held = run(HELD, game(WhileHeld()))
    assert order(held) == ["resolved", "delayed"]
    assert held.state.counter("A", "late") == 1


def test_hook_tcgtrig_can_respond():
    class OnlyCounters:
        @hookimpl
        def tcgtrig_can_respond(self, effect):
            return effect.ability.speed == 3

    default = run(CHAIN, tcgtrig.load_ruleset("plain", plugins=(Chain(),), autoload=False), choices=["q.quick"])
    assert default.keys("activated")[:2] == ["s.go", "q.quick"]
    counters = run(
        CHAIN, tcgtrig.load_ruleset("plain", plugins=(Chain(), OnlyCounters()), autoload=False), choices=["c.counter"]
    )
    respond = next(s for s in counters.trace if s.kind == "choice")
    assert respond["options"] == ("c.counter", "pass")


def test_hook_tcgtrig_activation_zone():
    class OnTheTable:
        @hookimpl
        def tcgtrig_activation_zone(self, state, effect, point):
            zone = state.cards[effect.card].zone
            if point == "activation":
                return "table" if zone == "hand" else None
            return "pile" if zone == "table" else None

    text = """
        cards:
          - {id: s, owner: A, zone: hand, abilities: [{id: go, kind: activated, do: [{gain: {counter: n}}]}]}
          - id: t
            owner: A
            zone: hand
            abilities: [{id: go, kind: activated, do: [{move: {card: self, to: deck}}]}]
          - {id: q, owner: B, zone: field, abilities: [{id: quick, kind: activated, speed: 2, do: []}]}
        start: [{activate: s.go}, {activate: t.go}]
        """
    chain = tcgtrig.load_ruleset("plain", plugins=(Chain(),), autoload=False)
    table = tcgtrig.load_ruleset("plain", plugins=(Chain(), OnTheTable()), autoload=False)
    plain = run(text, chain, choices=["q.quick"])
    assert (plain.state.cards["s"].zone, plain.state.cards["t"].zone) == ("hand", "deck")
    placed = run(text, table, choices=["q.quick"])
    assert placed.state.counters["A"]["n"] == 1
    # put on the table as it is activated; once resolved, in the pile, unless its actions moved it
    assert (placed.state.cards["s"].zone, placed.state.cards["t"].zone) == ("pile", "deck")
    moves = [(s["card"], s["from"], s["to"], s["by"]) for s in placed.trace if s.kind == "event" and s.get("to")]
    assert moves == [  # one chain: s, then t; t resolves first
        ("s", "hand", "table", "rule"),
        ("t", "hand", "table", "rule"),
        ("t", "table", "deck", "effect"),
        ("s", "table", "pile", "rule"),
    ]


OPTIONAL_PAIR = """
    cards:
      - id: a
        owner: A
        zone: field
        abilities:
          - {id: later, when: ping, optional: true, do: [{gain: {counter: n}}]}
      - id: b
        owner: B
        zone: field
        abilities:
          - {id: first, when: ping, do: [{gain: {counter: n}}]}
          - {id: declared, when: ping, optional: true, do: [{gain: {counter: n}}]}
    start: [{emit: {event: ping}}]
    """


def test_hook_tcgtrig_declared_use():
    class Declares:
        @hookimpl
        def tcgtrig_declared_use(self, effect):
            return effect.key == "b.declared"

    asked = []

    class Recorder(tcgtrig.DefaultChooser):
        def choose(self, decision, engine):
            asked.append((decision.kind, decision.effect))
            return super().choose(decision, engine)

    plain = run(OPTIONAL_PAIR, game(), chooser=Recorder())
    # asked as it activates: after B ordered its two effects
    assert asked == [("use", "a.later"), ("order", None), ("use", "b.declared")]
    asked.clear()
    declared = run(OPTIONAL_PAIR, game(Declares()), chooser=Recorder())
    # B declares before processing any of its effects, and is not asked again
    assert asked == [("use", "a.later"), ("use", "b.declared"), ("order", None)]
    assert declared.keys("declared") == ["b.declared"]
    assert declared.keys("resolved") == plain.keys("resolved") == ["a.later", "b.first", "b.declared"]
    refused = run(OPTIONAL_PAIR, game(Declares()), choices=["use", "decline"])
    assert refused.keys("declined") == ["b.declared"] and refused.keys("resolved") == ["a.later", "b.first"]


BOTH_SAVED = """
    cards:
      - id: x
        owner: A
        zone: field
        abilities:
          - {id: save, kind: replacement, when: {event: gone, card: own}, optional: true,
             do: [{prevent: {}}, {move: {card: event.card, to: home, as: saved}}]}
      - id: y
        owner: B
        zone: field
        abilities:
          - {id: save, kind: replacement, when: {event: gone, card: own}, optional: true,
             do: [{prevent: {}}, {move: {card: event.card, to: home, as: saved}}]}
      - id: watcher
        owner: A
        zone: side
        abilities:
          - {id: count, when: saved, do: [{gain: {counter: seen, amount: {count: event.card}}}]}
          - {id: same_moment, when: saved, trigger_condition: {card: y, in: gone}, do: []}
    start:
      - move: {card: [x, y], to: gone, as: gone}
    """


def test_hook_tcgtrig_replacements_together():
    class Together:
        @hookimpl
        def tcgtrig_replacements_together(self, effects):
            return len(effects) > 1

    def moments(result):
        return [s.get("cause") for s in result.trace if s.kind == "event" and s.get("event") == "saved"]

    apart = run(BOTH_SAVED, game())
    together = run(BOTH_SAVED, game(Together()))
    for result in (apart, together):
        assert result.state.cards["x"].zone == result.state.cards["y"].zone == "home"
    # one at a time: two moments, so the watcher triggers once for each
    assert apart.keys("resolved") == ["watcher.count", "watcher.count"]
    assert len(set(moments(apart))) == 2
    # together: both decisions come first, then one moment with both events
    kinds = [s.kind for s in together.trace if s.kind in ("choice", "applied", "prevented")]
    assert kinds == ["choice", "choice", "applied", "applied", "prevented", "prevented"]
    assert together.keys("resolved") == ["watcher.count"] and together.state.counter("A", "seen") == 2
    # B declines: only A's applies, and B's card is gone
    declined = run(BOTH_SAVED, game(Together()), choices=["use", "decline"])
    assert declined.state.cards["y"].zone == "gone" and declined.keys("declined") == ["y.save"]
    # x is saved at the very moment y goes: the saving sees y gone
    assert declined.keys("resolved") == ["watcher.count", "watcher.same_moment"]
    assert "watcher.same_moment" not in run(BOTH_SAVED, game(), choices=["use", "decline"]).keys("resolved")


class Variants:
    """A toy game with two variants: ``plain`` (default) and ``plain/reversed``."""

    @hookimpl
    def tcgtrig_game_info(self):
        return GameInfo(
            name="plain",
            title="Plain with variants",
            version="0",
            variants={"normal": "turn player first", "reversed": "opponent first"},
        )

    @hookimpl
    def tcgtrig_variant(self, variant):
        class Reversed:
            @hookimpl
            def tcgtrig_pending_rank(self, state, effect):
                return (0 if effect.controller != state.turn_player else 1, effect.id)

        return Reversed() if variant == "reversed" else None


def test_hook_tcgtrig_variant():
    normal = tcgtrig.load_ruleset("plain", plugins=(Variants(),), autoload=False)
    reversed_ = tcgtrig.load_ruleset("plain/reversed", plugins=(Variants(),), autoload=False)
    explicit = tcgtrig.load_ruleset("plain/normal", plugins=(Variants(),), autoload=False)
    assert (normal.name, normal.variant, explicit.name, reversed_.name, reversed_.variant) == (
        "plain",
        "normal",
        "plain",
        "plain/reversed",
        "reversed",
    )
    assert run(TWO_EFFECTS, normal).keys("resolved") == ["a.first", "a.second", "b.other"]
    assert run(TWO_EFFECTS, reversed_).keys("resolved") == ["b.other", "a.first", "a.second"]
    with pytest.raises(
        tcgtrig.UnknownGameError,
        match=r"unknown variant 'plain/nope' \(legal: plain/normal, "
        r"plain/reversed\)",
    ):
        tcgtrig.load_ruleset("plain/nope", plugins=(Variants(),), autoload=False)


def test_variant_keys_in_expect_and_choices():
    text = (
        TWO_EFFECTS
        + """
    choices: {plain: [a.second], plain/reversed: []}
    expect:
      plain: {resolved: [a.second, a.first, b.other]}
      plain/reversed: {resolved: [b.other, a.first, a.second]}
    """
    )
    for name in ("plain", "plain/normal", "plain/reversed"):
        result = run(text, tcgtrig.load_ruleset(name, plugins=(Variants(),), autoload=False))
        assert tcgtrig.check_expectation(result, result.compiled.expect) == [], name


class ChainToy:
    @hookimpl
    def tcgtrig_game_info(self):
        return GameInfo(name="plain", title="Chain toy", version="0", resolution="chain")

    @hookimpl
    def tcgtrig_can_respond(self, chain, effect):
        return effect.kind == "triggered" or effect.ability.speed >= 2


HIDDEN = """
    cards:
      - id: a
        owner: A
        zone: field
        abilities: [{id: seen, when: ping, do: [{gain: {counter: n}}]}]
      - id: h
        owner: B
        zone: hand
        abilities: [{id: sneaky, when: ping, optional: true, do: [{gain: {counter: n}}]}]
    start: [{emit: {event: ping}}]
    """


def test_hook_tcgtrig_offered_in_window():
    class HandLater:
        @hookimpl
        def tcgtrig_offered_in_window(self, state, effect):
            return state.cards[effect.card].zone == "hand"

    def ruleset(*plugins):
        return tcgtrig.load_ruleset("plain", plugins=(ChainToy(), *plugins), autoload=False)

    by_rank = run(HIDDEN, ruleset())
    assert by_rank.chains() == [["a.seen", "h.sneaky"]]
    offered = run(HIDDEN, ruleset(HandLater()), choices=["h.sneaky"])
    # not placed by rank: B adds it in the response window after a's link
    assert offered.chains() == [["a.seen", "h.sneaky"]]
    respond = [s for s in offered.trace if s.kind == "choice"]
    assert [(s.get("decision"), s.get("player"), s.get("label")) for s in respond] == [("respond", "B", "h.sneaky")]
    passed = run(HIDDEN, ruleset(HandLater()))  # the default chooser passes
    assert passed.chains() == [["a.seen"]] and passed.keys("declined") == ["h.sneaky"]


class Printed:
    """A game whose cards print "When ping: gain N." (one ability a line)."""

    @hookimpl
    def tcgtrig_read_text(self, text, types):
        from tcgtrig.printed import ReadAbility, TextReader

        class Reader(TextReader):
            game = "plain"

            def read_part(self, words, types):
                head, _, amount = words.partition(": gain ")
                if head != "When ping" or not amount.rstrip(".").isdigit():
                    return None
                data = {"when": "ping", "do": [{"gain": {"counter": "n", "amount": int(amount.rstrip("."))}}]}
                return [ReadAbility(words=words, data=data, name="on ping")]

        return Reader().read(text, types)


def test_hook_tcgtrig_read_text():
    ruleset = game(Printed())
    reading = ruleset.read_text("When ping: gain 2.\nWhen pong: gain 1.")
    assert [part.words for part in reading.abilities] == ["When ping: gain 2."]
    assert (reading.unread, reading.whole) == (("When pong: gain 1.",), False)
    assert reading.scenario() == [
        {"id": "on_ping", "when": "ping", "do": [{"gain": {"counter": "n", "amount": 2}}], "text": "When ping: gain 2."}
    ]
    assert game().read_text("When ping: gain 2.") is None  # a game that reads no text says so


def test_a_card_given_as_printed_resolves_as_read():
    text = """
    cards:
      - {id: a, owner: A, zone: battle, text: "When ping: gain 2.\\nWhen ping: gain 3."}
      - id: b
        owner: A
        zone: battle
        abilities:
          - {id: mine, text: "When ping: gain 5."}
          - {id: written, when: ping, do: [{gain: {counter: n, amount: 7}}]}
    start: [{emit: {event: ping}}]
    choices: [b.mine, a.on_ping_2]
    """
    result = run(text, game(Printed()))
    assert result.keys("resolved") == ["b.mine", "a.on_ping_2", "a.on_ping", "b.written"]
    assert result.state.counter("A", "n") == 17
    with pytest.raises(
        tcgtrig.ScenarioError,
        match=r"test\.yaml:7: cards\[0\]\.text: card 'a': Plain \(core defaults\) cannot read 'When pong: gain 1.'",
    ):
        run(text.replace("When ping: gain 3.", "When pong: gain 1."), game(Printed()))
    with pytest.raises(
        tcgtrig.ScenarioError, match=r"Plain \(core defaults\) reads no printed text: give the card's abilities"
    ):
        run(text, game())
