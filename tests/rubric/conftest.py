"""Fixtures for rubric tests."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture
def rng():
    """A seeded generator: every random table in these tests is reproducible."""
    return np.random.default_rng(20260522)
