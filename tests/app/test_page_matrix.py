"""No traceback on any page, on any data (issue 40): every page x dataset x settings cell renders or says why not.

``make test`` runs a sample: every page and the presentation view on every generated edge case and two
bundled datasets with the default settings, plus one non-default settings combination per edge case
on the pages it changes. ``SCORIO_FULL=1`` runs every dataset (bundled ones too) x every settings
combination of :data:`tests.app.page_matrix.SETTINGS` (also ``benchmarks/bench_page_matrix.py``).
"""

from __future__ import annotations

import os

import pytest

from tests.app.page_matrix import BUNDLED, EDGE_CASES, PAGES, SETTINGS, apply_settings, open_app, page_failures, \
    presentation_failures

FULL = os.environ.get("SCORIO_FULL") == "1"
SAMPLE_EDGE = list(EDGE_CASES)


def _check(dataset: str, settings: dict, pages=PAGES, present: bool = True) -> None:
    at = open_app(dataset)
    assert not at.exception, [e.value for e in at.exception]
    apply_settings(at, settings)
    failures = [f"settings: {e.value}" for e in at.exception] + page_failures(at, pages)
    if present:
        failures += presentation_failures(at)
    assert not failures, failures


@pytest.mark.parametrize("dataset", SAMPLE_EDGE + ["paper-simulation", "tau-bench-airline"])
def test_every_page_renders_on(dataset):
    _check(dataset, {})


@pytest.mark.parametrize("dataset", ["missing-tasks", "n1", "ragged-counts", "unicode-names", "disjoint-questions"])
def test_non_default_settings_render_on(dataset):
    _check(dataset, SETTINGS[1], pages=PAGES[:3], present=False)


@pytest.mark.slow
@pytest.mark.skipif(not FULL, reason="the full matrix runs with SCORIO_FULL=1 (or benchmarks/bench_page_matrix.py)")
@pytest.mark.parametrize("settings", range(len(SETTINGS)))
@pytest.mark.parametrize("dataset", list(EDGE_CASES) + list(BUNDLED))
def test_full_matrix(dataset, settings):
    _check(dataset, SETTINGS[settings])
