"""Code the engine writes as it runs — the record makers
(``tcgtrig.model.records.maker``) and the hook callers
(``Ruleset._bind``) — is registered with linecache as attrs registers its
methods (issue 39 item 2): a traceback through it shows the generated
lines, under a file name that says what made them."""

from __future__ import annotations

import linecache
import traceback

import attrs
import pytest
import tcgtrig
from helpers import TWO_EFFECTS_ON_PING, PlainGame, run
from tcgtrig import PluginError, hookimpl
from tcgtrig.base.generated import compile_generated
from tcgtrig.model.records import maker

TWO_EFFECTS = TWO_EFFECTS_ON_PING


def shown(error: BaseException) -> str:
    return "".join(traceback.format_exception(error))


def test_a_traceback_through_a_maker_shows_its_generated_line():
    def broken() -> list[int]:
        raise RuntimeError("the factory broke")

    @attrs.frozen(weakref_slot=False)
    class Boxed:
        items: list[int] = attrs.Factory(broken)

    make = maker(Boxed)
    with pytest.raises(RuntimeError) as raised:
        make()
    text = shown(raised.value)
    assert f'File "<tcgtrig generated maker of {Boxed.__qualname__}>", line' in text
    # the generated line itself, as linecache now holds it (before: no line at all)
    assert "self.items = _make_items() if items is _unset else items" in text


def test_a_traceback_through_a_hook_caller_shows_its_generated_line():
    class Exploding(PlainGame):
        @hookimpl
        def tcgtrig_pending_rank(self, effect):
            raise ZeroDivisionError("oops")

    ruleset = tcgtrig.load_ruleset("plain", plugins=(Exploding(),), autoload=False)
    with pytest.raises(PluginError) as raised:
        run(TWO_EFFECTS, ruleset)
    text = shown(raised.value)
    assert 'File "<tcgtrig generated caller of tcgtrig_pending_rank' in text
    assert "return function(" in text and "ZeroDivisionError: oops" in text


def test_two_sources_of_one_name_keep_their_own_lines():
    first = compile_generated("x = 1\n", "twice")
    second = compile_generated("y = 2\n", "twice")
    again = compile_generated("x = 1\n", "twice")
    assert first.co_filename == again.co_filename == "<tcgtrig generated twice>"
    assert second.co_filename != first.co_filename
    assert linecache.getline(first.co_filename, 1) == "x = 1\n"
    assert linecache.getline(second.co_filename, 1) == "y = 2\n"
    linecache.checkcache()  # what tracebacks call: an entry with no file stays
    assert linecache.getline(second.co_filename, 1) == "y = 2\n"
