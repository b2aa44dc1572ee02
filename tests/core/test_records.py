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


def test_a_moved_card_is_the_card_the_class_makes_with_those_fields():
    from tcgtrig.model.values import Card, moved

    card = Card(id="c", name="C", owner="A", zone="hand", stats={"dp": 3000}, flags=["x"], types=["monster"])
    arrived = moved(card, "field", None, frozenset({"face_down"}))
    assert type(arrived) is Card
    assert arrived == attrs.evolve(card, zone="field", flags=frozenset({"face_down"}), mods=(), incarnation=1)
    assert arrived.stats == (("dp", 3000),) and arrived.abilities is card.abilities


def test_a_changed_record_is_what_evolve_makes_with_its_caches_afresh():
    from tcgtrig.model.pending import change_pending
    from tcgtrig.runtime.evaluate import change_scope

    effect = make_pending(id=3, key="c.a", card="c", ability=ability(), controller="A", self_card="c")
    assert effect.trace_head() == ("effect", "c.a", "player", "A", "id", 3)  # cached on the record
    changed = change_pending(effect, id=4, timing=2)
    assert type(changed) is PendingEffect
    assert changed == attrs.evolve(effect, id=4, timing=2) and (changed.id, changed.timing) == (4, 2)
    assert changed.trace_head() == ("effect", "c.a", "player", "A", "id", 4)  # not the cache of the record it copies
    assert changed.ability is effect.ability and effect.id == 3
    scope = make_scope(key="c.a", controller="B", card="c", self_card="c")
    assert change_scope(scope, controller="A") == Scope(key="c.a", controller="A", card="c", self_card="c")
    with pytest.raises(TypeError, match="colour"):
        change_pending(effect, colour="red")


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


def test_a_pool_knows_each_bucket_s_keys_in_order_through_adds_removals_and_compaction():
    """An ordering decision's labels are read from the pool
    (``PendingPool.keys_of``): they must be the bucket's keys, in its
    order, or ``None`` when a key is there twice."""
    from tcgtrig.model.pending import PendingPool

    pool = PendingPool()
    shared = ability()
    made = 0
    for rounds in range(60):  # enough removals from the front to compact the bucket more than once
        for _ in range(3):
            made += 1
            effect = make_pending(
                id=made, key=f"c{made % 7}.a", card="c", ability=shared, controller="A", self_card="c"
            )
            effect._place((0,), ())
            pool.add(effect)
        bucket = pool.next_bucket()
        keys = [effect.key for effect in bucket.values()]
        expected = keys if len(set(keys)) == len(keys) else None
        assert pool.keys_of(bucket) == expected, rounds
        clone = pool.copy()
        assert clone.keys_of(clone.next_bucket()) == expected
        assert pool.keys_of(clone.next_bucket()) is None  # not one of its buckets: work the keys out
        for effect_id in list(bucket)[:2]:
            pool.remove(effect_id)
    while len(bucket := pool.next_bucket()) > 1 and pool.keys_of(bucket) is None:
        pool.remove(next(iter(bucket)))  # the bucket is live: asked for again after each change
    keys = [effect.key for effect in bucket.values()]
    assert len(bucket) > 1 and pool.keys_of(bucket) == keys
    from tcgtrig.model.decision import EffectLabels

    assert list(EffectLabels(bucket, {}, pool.keys_of)) == list(EffectLabels(bucket, {})) == keys


def test_a_class_whose_instances_a_twin_cannot_become_gets_itself_as_its_maker():
    @attrs.frozen(weakref_slot=False)
    class Odd:
        x: int

    Odd.__slots__ = ("y",)  # type: ignore[misc]  # what the class says its slots are is no longer its layout
    assert maker(Odd) is Odd


def test_a_maker_takes_the_fields_in_order_when_those_without_a_default_come_first():
    # the hot paths' calls: Scope's fields in order, without their names
    assert make_scope("c.a", "B", "c", "d", (), 4) == make_scope(
        key="c.a", controller="B", card="c", self_card="d", self_incarnation=4
    )

    @attrs.frozen(kw_only=True, weakref_slot=False)
    class Mixed:  # a field without a default after one with: its maker takes keywords only
        a: int = 0
        b: int

    made = maker(Mixed)
    assert made(b=2) == Mixed(b=2)
    with pytest.raises(TypeError, match="positional"):
        made(0, 2)


def test_an_effect_found_as_it_matched_is_filled_in_as_it_is_admitted():
    effect = make_pending(id=0, key="c.a", card="c", ability=ability(), controller="A", self_card="c")
    first, second = Event(name="gained", player="A"), Event(name="gained", player="B")
    effect._also(first)
    effect._also(second)
    effect._link_to(2)
    effect._admit(7, 3, (0, 3))
    assert (effect.id, effect.timing, effect.rank, effect.link, effect.events) == (7, 3, (0, 3), 2, (first, second))
    assert effect.trace_head() == ("effect", "c.a", "player", "A", "id", 7)
    # the flat signature hash agrees with the signature for one event, and equal signatures hash alike
    one = make_pending(
        id=1, key="c.a", card="c", ability=effect.ability, controller="A", self_card="c", events=(first,)
    )
    twin = make_pending(
        id=2, key="c.a", card="c", ability=effect.ability, controller="B", self_card="c", events=(first,)
    )
    again = make_pending(
        id=9, key="c.a", card="c", ability=effect.ability, controller="A", self_card="c", events=(first,)
    )
    assert one.signature() == again.signature() and one.signature_hash() == again.signature_hash()
    assert one.signature() != twin.signature() and one.signature_hash() != twin.signature_hash()


# -- issue 39 item 2: makers typed so that mypy checks where records are made --------

#: each maker, its class, and the Protocol that gives mypy its signature
TYPED_MAKERS = [
    ("tcgtrig.model.pending", "make_pending", "PendingEffect", "MakePending"),
    ("tcgtrig.model.values", "make_event", "Event", "MakeEvent"),
    ("tcgtrig.runtime.evaluate", "make_scope", "Scope", "MakeScope"),
    ("tcgtrig.language.base", "make_op", "Op", "MakeOp"),
    ("tcgtrig.model.decision", "make_decision", "Decision", "MakeDecision"),
    ("tcgtrig.runtime.frames", "make_run", "EffectRun", "MakeRun"),
    ("tcgtrig.model.values", "make_card", "Card", "MakeCard"),
]


#: each changer, its class, and its Protocol
TYPED_CHANGERS = [
    ("tcgtrig.model.pending", "change_pending", "PendingEffect", "ChangePending"),
    ("tcgtrig.runtime.evaluate", "change_scope", "Scope", "ChangeScope"),
]


@pytest.mark.parametrize(("module", "name", "cls", "shape"), TYPED_CHANGERS)
def test_a_changer_s_typed_signature_is_a_record_and_its_class_s_fields_by_name(module, name, cls, shape):
    import importlib
    import inspect
    import typing

    found = importlib.import_module(module)
    record, protocol = getattr(found, cls), getattr(found, shape)
    assert found.__annotations__[name] == shape  # change_x: ChangeX = changer(X)
    signature = inspect.signature(protocol.__call__)
    first, *params = list(signature.parameters.values())[1:]  # after self
    assert (first.name, first.annotation, first.kind) == ("record", cls, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    hints = typing.get_type_hints(protocol.__call__, vars(found))
    types = typing.get_type_hints(record, vars(found))
    fields = [field for field in attrs.fields(record) if field.init]
    assert [(p.name, hints[p.name], p.default is p.empty, p.kind) for p in params] == [
        (f.alias, types[f.name], False, inspect.Parameter.KEYWORD_ONLY) for f in fields
    ]


@pytest.mark.parametrize(("module", "name", "cls", "shape"), TYPED_MAKERS)
def test_a_maker_s_typed_signature_is_its_class_s_fields(module, name, cls, shape):
    """The Protocol a maker is declared with (what mypy checks its calls
    against) lists the class's fields in order, with the types the class
    gives them, a default where the class has one, and takes them by place
    where the maker does (its fields without a default first)."""
    import importlib
    import inspect

    found = importlib.import_module(module)
    record, protocol = getattr(found, cls), getattr(found, shape)
    assert found.__annotations__[name] == shape  # make_x: MakeX = maker(X)
    import typing

    signature = inspect.signature(protocol.__call__)
    params = list(signature.parameters.values())[1:]  # after self
    # types compared resolved: another test (cattrs) may have resolved the class's string annotations
    hints = typing.get_type_hints(protocol.__call__, vars(found))
    types = typing.get_type_hints(record, vars(found))
    fields = [field for field in attrs.fields(record) if field.init]
    by_place = [f.alias for f in fields] == [f.alias for f in fields if f.default is attrs.NOTHING] + [
        f.alias for f in fields if f.default is not attrs.NOTHING
    ]
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD if by_place else inspect.Parameter.KEYWORD_ONLY
    assert [(p.name, hints[p.name], p.default is p.empty, p.kind) for p in params] == [
        (f.alias, types[f.name], f.default is attrs.NOTHING, kind) for f in fields
    ]
    assert signature.return_annotation == cls


BAD_CALLS = """\
from core.model.pending import make_pending
from core.runtime.evaluate import make_scope
from core.model.values import make_event
from core.language.base import make_planning

make_pending(1, "c.a", "c", None, "A", "c", [])
make_scope("c.a")
make_event(name="gained", amount="2")
make_planning((None, 0, {}, make_scope("c.a", "A"), "effect"))
"""


def test_mypy_catches_a_record_made_with_wrong_arguments(tmp_path):
    """Before issue 39 the makers were ``Callable[..., T]``: mypy let any
    arguments through.  The project's own mypy settings, on a file making
    records wrongly, find each mistake (the cache is the checkout's, shared
    with ``mypy``: about a second once warm).  mypy comes with the lint
    extra, which CI installs; with the test extra alone this is skipped."""
    from pathlib import Path

    api = pytest.importorskip("mypy.api", reason="mypy is in the lint extra (python -m pip install -e '.[lint]')")

    root = Path(__file__).resolve().parents[2]
    bad = tmp_path / "bad_records.py"
    bad.write_text(BAD_CALLS, encoding="utf-8")
    out, _, status = api.run(
        [str(bad), "--config-file", str(root / "pyproject.toml"), "--cache-dir", str(root / ".mypy_cache")]
    )
    # by the file's name: mypy's cache may still give the folder of an earlier run's file
    mine = sorted(line.split(": error: ")[1] for line in out.splitlines() if "bad_records.py:" in line)
    assert status == 1
    assert mine == [
        'Argument "amount" to "__call__" of "MakeEvent" has incompatible type "str"; expected "int | None"  [arg-type]',
        'Argument 1 has incompatible type "tuple[None, int, dict[str, list[str]], Scope, str]"; expected '
        '"tuple[Machine, int, dict[str, list[str]], Scope, str, str | None, dict[str, int] | None]"  [arg-type]',
        'Argument 4 to "__call__" of "MakePending" has incompatible type "None"; expected "Ability"  [arg-type]',
        'Argument 7 to "__call__" of "MakePending" has incompatible type "list[Never]"; expected "tuple[Event, ...]"  '
        "[arg-type]",
        'Missing positional argument "controller" in call to "__call__" of "MakeScope"  [call-arg]',
    ], out


def test_a_live_object_is_made_on_its_own_class_with_its_defaults():
    """A mutable slotted class (a live object of the runtime) is made on
    itself, each field set as attrs' ``__init__`` sets it: a new ``did``
    for each run."""
    from tcgtrig.runtime.frames import EffectRun, make_run

    scope = make_scope(key="c.a", controller="A")
    made, again, plain = make_run(scope, 3, 1, 2), make_run(scope, 3, 1, 2), EffectRun(scope, 3, 1, 2)
    assert type(made) is EffectRun
    assert [getattr(made, f.name) for f in attrs.fields(EffectRun)] == [
        getattr(plain, f.name) for f in attrs.fields(EffectRun)
    ]
    assert made.did == {} and made.did is not again.did
    made.by = "cost"  # mutable, as the class is
    assert made.by == "cost"
