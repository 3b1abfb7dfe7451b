"""Shared helpers for the workspace tests: fixture files as (name, bytes) pairs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scorio_core.store import Workspace

REPO = Path(__file__).resolve().parents[2]
FORMATS = REPO / "tests" / "fixtures" / "formats"
DATA = REPO / "data"


def files_of(*paths: Path) -> list[tuple[str, bytes]]:
    """(name, bytes) pairs, as the app's uploads give them."""
    return [(p.name, p.read_bytes()) for p in paths]


def assert_same_dataset(a, b) -> None:
    """Everything a Dataset carries: table (dtypes, categories), report, sources, row_source."""
    assert a.layout == b.layout
    pd.testing.assert_frame_equal(a.table, b.table, check_exact=True, check_categorical=True)
    for col in a.table.columns:
        if isinstance(a.table[col].dtype, pd.CategoricalDtype):
            assert list(a.table[col].cat.categories) == list(b.table[col].cat.categories)
    assert a.report == b.report
    assert a.sources == b.sources
    if a.row_source is None:
        assert b.row_source is None
    else:
        assert b.row_source.dtype == a.row_source.dtype
        np.testing.assert_array_equal(a.row_source, b.row_source)


@pytest.fixture
def ws(tmp_path) -> Workspace:
    return Workspace(tmp_path / "ws", listing="shared")


@pytest.fixture
def counts_files() -> list[tuple[str, bytes]]:
    return files_of(DATA / "matharena_aime_2025_I_counts.csv")


@pytest.fixture
def verifier_files() -> list[tuple[str, bytes]]:
    return files_of(FORMATS / "scorio_verifier_fixture" / "aime25_q06_compass.json")
