"""The records the engine makes on every effect, made at slot speed
(:func:`tcgtrig.model.records.maker`), are ordinary instances of their
frozen classes."""

from __future__ import annotations

import copy

import attrs
import pytest
from helpers import ability
from tcgtrig.model.pending import PendingEffect, make_pending
from tcgtrig.model.records import maker
from tcgtrig.model.values import Event, make_event
from tcgtrig.runtime.evaluate import Scope, make_scope


def test_a_made_event_is_an_event_equal_to_one_the_class_makes():
    made = make_event(name="gained", player="A", counter="memory", amount=2, by="effect", actor="A")
    plain = Event(name="gained", player="A", counter="memory", amount=2, by="effect", actor="A")
    assert type(made) is Event
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert attrs.evolve(made, amount=3) == attrs.evolve(plain, amount=3)
    assert copy.deepcopy(made) == plain
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.amount = 5  # type: ignore[misc]


def test_a_made_pending_effect_has_the_class_defaults_and_its_caches_unset():
    made = make_pending(id=3, key="c.a", card="c", ability=ability(), controller="A", self_card="c")
    plain = PendingEffect(id=3, key="c.a", card="c", ability=made.ability, controller="A", self_card="c")
    assert made == plain
    assert (made.window, made.rank, made.events, made.declaration) == ("main", (), (), "")
    assert made.trace_head() == ("effect", "c.a", "player", "A", "id", 3)
    assert made.signature() == plain.signature()


def test_a_made_scope_reads_like_a_scope():
    made = make_scope(key="c.a", controller="B", card="c", self_card="c")
    assert made == Scope(key="c.a", controller="B", card="c", self_card="c")
    assert (made.events, made.fixed, made.targets, made.self_incarnation) == ((), (), (), None)


def test_a_maker_asks_for_what_the_class_requires():
    with pytest.raises(TypeError, match="name"):
        make_event(player="A")


def test_a_class_a_maker_cannot_serve_is_refused_by_name():
    @attrs.frozen
    class Weak:  # weakref_slot defaults to True: the twin's layout could not match
        x: int

    with pytest.raises(TypeError, match="Weak: a maker needs a slotted class with weakref_slot=False"):
        maker(Weak)

    @attrs.frozen(weakref_slot=False)
    class Listy:
        items: list[int] = attrs.Factory(list)

    make = maker(Listy)
    first, second = make(), make()
    assert first == Listy() and first.items is not second.items  # a factory runs for each record
