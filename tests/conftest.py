"""Fixtures for the whole suite; helpers live in helpers.py (on the path).

Hypothesis profiles: ``ci`` (the default: bounded, so the suite stays fast)
and ``long`` (a search worth leaving running), chosen with
``--hypothesis-profile=long`` — hypothesis's own option when its pytest
plugin is loaded, this file's when it is not (``-p no:hypothesispytest``).
A test's own ``@settings`` still wins over the profile.
"""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import plain_ruleset
from hypothesis import settings
from hypothesis.errors import InvalidArgument

settings.register_profile("ci", max_examples=200, deadline=None, print_blob=True)
settings.register_profile("long", max_examples=10_000, deadline=None, print_blob=True)
settings.load_profile("ci")


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    if not pluginmanager.has_plugin("hypothesispytest"):
        parser.addoption("--hypothesis-profile", dest="hypothesis_profile", default=None, metavar="NAME",
                         help="Load this hypothesis settings profile: ci (default) or long.")


def pytest_configure(config: pytest.Config) -> None:
    # with hypothesis's plugin loaded, the plugin reads the option itself
    if not config.pluginmanager.has_plugin("hypothesispytest"):
        profile = config.getoption("hypothesis_profile", None)
        if profile:
            try:
                settings.load_profile(profile)
            except InvalidArgument as error:
                raise pytest.UsageError(f"--hypothesis-profile: {error}") from None


@pytest.fixture
def plain() -> tcgtrig.Ruleset:
    """A ruleset with the core defaults only (no game policy)."""
    return plain_ruleset()


@pytest.fixture(scope="session")
def digimon() -> tcgtrig.Ruleset:
    return tcgtrig.load_ruleset("digimon")
