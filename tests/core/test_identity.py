"""tcgtrig.base.identity.by_identity: an answer kept per object and
arguments, for a bounded number of objects."""

from __future__ import annotations

import tcgtrig.base.identity as identity


def test_an_answer_is_kept_per_object_and_arguments_and_forgotten_past_the_limit(monkeypatch):
    calls: list[tuple[int, bool]] = []

    @identity.by_identity
    def read(obj: list[int], flag: bool) -> int:
        calls.append((len(obj), flag))
        return len(obj) + flag

    one, two = [1], [1, 2]
    assert (read(one, False), read(one, False), read(one, True), read(two, False)) == (1, 1, 2, 2)
    assert calls == [(1, False), (1, True), (2, False)]  # the second call was kept
    one.append(3)
    assert read(one, False) == 1  # kept by identity: what the object holds is not looked at again
    monkeypatch.setattr(identity, "LIMIT", 3)
    assert read([5], False) == 1  # the fourth answer: the three kept are forgotten first
    asked = len(calls)
    assert read(two, False) == 2 and len(calls) == asked + 1  # asked again
