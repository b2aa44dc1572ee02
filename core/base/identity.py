"""Answers kept per object, by its identity.

A compiled position's abilities are shared by every engine made from it,
and what their words read does not change: :func:`by_identity` keeps a
function's answer for each object it was asked about (and the object
with it, so that its id is not reused by another), for as many objects
as :data:`LIMIT`; past that, it forgets them all and starts again.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

__all__ = ["LIMIT", "by_identity"]

#: how many answers a function keeps before it forgets them all
LIMIT = 1 << 16

_F = TypeVar("_F", bound=Callable[..., Any])


def by_identity(function: _F) -> _F:
    """``function(obj, *args, **kwargs)``, its answer kept by ``obj``'s
    identity and the other arguments (which must be hashable)."""
    kept: dict[tuple[Hashable, ...], tuple[object, Any]] = {}

    @functools.wraps(function)
    def keeping(obj: object, *args: Hashable, **kwargs: Hashable) -> Any:
        key = (id(obj), *args, *sorted(kwargs.items()))
        known = kept.get(key)
        if known is not None and known[0] is obj:
            return known[1]
        if len(kept) >= LIMIT:
            kept.clear()
        answer = function(obj, *args, **kwargs)
        kept[key] = (obj, answer)
        return answer

    return cast("_F", keeping)
