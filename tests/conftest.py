"""Fixtures for the whole suite; helpers live in helpers.py (on the path)."""

from __future__ import annotations

import pytest
import tcgtrig
from helpers import plain_ruleset


@pytest.fixture
def plain() -> tcgtrig.Ruleset:
    """A ruleset with the core defaults only (no game policy)."""
    return plain_ruleset()


@pytest.fixture(scope="session")
def digimon() -> tcgtrig.Ruleset:
    return tcgtrig.load_ruleset("digimon")
