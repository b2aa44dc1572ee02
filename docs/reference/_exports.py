"""A Sphinx extension of the reference: every name ``tcgtrig`` exports is
documented on some page.

Once every page is read, each name in ``tcgtrig.__all__`` must be the last
part of a documented object (``tcgtrig.GameInfo``, or the object at its
home, ``tcgtrig.games.hookspecs.reads``); a name left out is a warning,
which ``-W`` makes an error."""

from __future__ import annotations

from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

LOG = logging.getLogger(__name__)


def undocumented(documented: set[str]) -> list[str]:
    """The names of ``tcgtrig.__all__`` no page documents."""
    import tcgtrig

    last = {name.rsplit(".", 1)[-1] for name in documented}
    return [name for name in tcgtrig.__all__ if name not in last]


def _check(app: Sphinx, env: BuildEnvironment) -> None:
    documented = set(env.get_domain("py").objects)  # type: ignore[attr-defined]
    for name in undocumented(documented):
        LOG.warning("tcgtrig.%s is exported but documented on no page of the reference (add it to api.rst)", name)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("env-check-consistency", _check)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
