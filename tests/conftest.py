"""Fixtures for the whole suite; helpers live in helpers.py (on the path).

Hypothesis profiles: ``ci`` (the default: bounded, so the suite stays fast)
and ``long`` (a search worth leaving running), chosen with
``--hypothesis-profile=long`` — hypothesis's own option when its pytest
plugin is loaded, this file's when it is not (``-p no:hypothesispytest``).
A test's own ``@settings`` still wins over the profile.

Two tiers: tests marked ``slow`` (stress tests, child processes, the
browser) run only when ``TCGTRIG_SLOW=1`` — CI sets it — or when ``-m``
selects them; the default run leaves them out and says how many.
"""

from __future__ import annotations

import os

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
        parser.addoption(
            "--hypothesis-profile",
            dest="hypothesis_profile",
            default=None,
            metavar="NAME",
            help="Load this hypothesis settings profile: ci (default) or long.",
        )


#: the environment variable that runs the slow tier too
SLOW = "TCGTRIG_SLOW"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"slow: a stress, child-process or browser test: run with {SLOW}=1 (CI sets it) or when -m selects it",
    )
    # with hypothesis's plugin loaded, the plugin reads the option itself
    if not config.pluginmanager.has_plugin("hypothesispytest"):
        profile = config.getoption("hypothesis_profile", None)
        if profile:
            try:
                settings.load_profile(profile)
            except InvalidArgument as error:
                raise pytest.UsageError(f"--hypothesis-profile: {error}") from None


def pytest_report_header(config: pytest.Config) -> str:
    return f"slow tier: {'on' if _slow_tier(config) else f'off ({SLOW}=1 runs it)'}"


def _slow_tier(config: pytest.Config) -> bool:
    return os.environ.get(SLOW) == "1" or bool(config.option.markexpr)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _slow_tier(config):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
        config.hook.pytest_deselected(items=slow)


@pytest.fixture
def plain() -> tcgtrig.Ruleset:
    """A ruleset with the core defaults only (no game policy)."""
    return plain_ruleset()


@pytest.fixture(scope="session")
def digimon() -> tcgtrig.Ruleset:
    return tcgtrig.load_ruleset("digimon")
