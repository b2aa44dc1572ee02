"""The value classes' methods compiled ahead of time (issue 40 item 3):
:mod:`tcgtrig.base._prebuilt` holds, as it stands, the text attrs writes
for each class, every class uses it, and a class whose text is not what
attrs writes now is built the plain way."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import attrs
import pytest
from tcgtrig.base import prebuilt

KEPT_FILE = Path(prebuilt.TARGET)


def test_the_kept_text_is_what_attrs_writes_now():
    """Regenerate with ``python -m tcgtrig.base.prebuilt --regenerate``."""
    assert prebuilt.prebuilt_code() == KEPT_FILE.read_text(encoding="utf-8"), (
        "out of date: python -m tcgtrig.base.prebuilt --regenerate"
    )


def test_every_class_uses_its_kept_methods():
    """Every class decorated with ``prebuilt.frozen`` or ``prebuilt.define``
    has kept methods, and uses them: those attrs writes for it (a class with
    ``eq=False`` has no ``__eq__`` or ``__hash__`` from attrs)."""
    from tcgtrig.base import _prebuilt

    for name in prebuilt.MODULES:
        importlib.import_module(name)
    assert len(prebuilt._OPTIONS) >= 80 and set(prebuilt._OPTIONS) <= set(_prebuilt.KEPT)
    for key in prebuilt._OPTIONS:
        module, _, name = key.rpartition(".")
        cls = vars(importlib.import_module(module))[name]
        methods = _prebuilt.KEPT[key][3]
        assert "__repr__" in methods and "__init__" not in methods, key
        for method in methods:
            assert getattr(cls, method).__code__.co_filename == str(KEPT_FILE), (key, method)


#: What a user (or a tool: inspect, Sphinx, cattrs) sees of each class, printed by a child process
SEEN = """
import inspect, json, attrs, importlib, re
from tcgtrig.base import prebuilt
seen = {}
for module in %r:
    for name, cls in sorted(vars(importlib.import_module(module)).items()):
        if isinstance(cls, type) and f"{module}.{name}" in prebuilt._OPTIONS:
            shown = [str(inspect.signature(cls)), repr(cls.__init__.__kwdefaults__)]
            seen[name] = [re.sub(" at 0x[0-9a-f]+", "", text) for text in shown]  # a function's address
            seen[name] += [[getattr(getattr(cls, m), k, None) for k in ("__qualname__", "__doc__", "__module__")] for m in %r]
            seen[name].append(sorted(map(str, cls.__init__.__annotations__.items())))
            seen[name].append([f.name for f in attrs.fields(cls)])
            seen[name].append(sorted(k for k in vars(cls) if k != "__attrs_props__"))  # which methods attrs added
print(json.dumps(seen))
"""


def test_the_classes_look_as_attrs_builds_them():
    code = SEEN % (prebuilt.MODULES, prebuilt.METHODS)
    seen = {}
    for kept in ("1", "0"):
        env = {**os.environ, prebuilt.VARIABLE: kept}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
        seen[kept] = json.loads(done.stdout)
    assert seen["1"] == seen["0"]


def test_they_behave_as_attrs_builds_them():
    from tcgtrig.model.values import Card, Event

    card = Card(id="a", name="A", owner="p", zone="hand", stats={"hp": 3}, flags=["f"], abilities=())
    same = attrs.evolve(card)
    assert card == same and not card != same and hash(card) == hash(same)
    assert card != attrs.evolve(card, zone="trash") and card.stats == (("hp", 3),)
    assert card == attrs.evolve(card, abilities=("ignored by eq",))  # eq=False on the field, as attrs reads it
    assert repr(card).startswith("Card(id='a', name='A', owner='p', zone='hand', under=None, stats=(('hp', 3),)")
    assert card.__eq__(object()) is NotImplemented
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        card.zone = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        Card("a", "A", "p", "hand")  # type: ignore[misc]  # keywords only
    assert Event(name="e", cards=["x"]).cards == ("x",)


def test_a_class_edited_since_is_built_the_plain_way():
    """A kept entry whose class has changed (a field more) is not used:
    attrs writes the methods, and the class is the one attrs builds."""

    def edited() -> type:
        class GameEnd:
            outcome: str = attrs.field()
            reason: str = attrs.field()
            extra: int = attrs.field(default=0)

        GameEnd.__module__, GameEnd.__qualname__ = "tcgtrig.model.info", "GameEnd"
        return GameEnd

    built, plain = prebuilt.frozen(edited()), attrs.frozen(edited())
    assert built.__repr__.__code__.co_filename != str(KEPT_FILE)
    assert built("win", "because", extra=2).extra == 2
    assert sorted(vars(built)) == sorted(vars(plain))
