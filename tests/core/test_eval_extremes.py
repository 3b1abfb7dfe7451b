"""Extreme inputs (issue 13, item 8): where the reference returns finite numbers, so do we (same values)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scorio import eval as ref

from scorio_core import eval as ours

R = np.array([[0, 1, 1, 0], [1, 1, 0, 1]])
R3 = np.array([[0, 1, 2, 2], [1, 2, 0, 1]])
G = np.random.default_rng(0).integers(0, 2, (3, 600))

CASES = {
    "bayes w 1e308": lambda m: m.bayes(R, w=[0.0, 1e308]),
    "bayes w +-1e308": lambda m: m.bayes(R3, w=[-1e308, 0.0, 1e308]),
    "bayes_ci w 1e308": lambda m: m.bayes_ci(R, w=[0.0, 1e308]),
    "avg w 1e308": lambda m: m.avg(R, w=[0.0, 1e308]),
    "avg_ci w 1e308": lambda m: m.avg_ci(R, w=[0.0, 1e308]),
    "avg w 1.7e308 three": lambda m: m.avg(R3, w=[0.0, 1.7e308, 1.7e308]),
    "pass_at_k_ci prior 1e308": lambda m: m.pass_at_k_ci(R, 2, alpha0=1e308, beta0=1e308),
    "pass_hat_k_ci alpha0 1e308": lambda m: m.pass_hat_k_ci(R, 2, alpha0=1e308, beta0=1.0),
    "g_pass_at_k_tau_ci prior 1e308": lambda m: m.g_pass_at_k_tau_ci(R, 2, 0.5, alpha0=1e308, beta0=1e308),
    "geom_at_k_ci k 517": lambda m: m.geom_at_k_ci(G, 517),
    "geom_at_k_ci k 517 all correct": lambda m: m.geom_at_k_ci(np.ones((3, 600), int), 517),
    "mg_pass_at_k_ci k 517": lambda m: m.mg_pass_at_k_ci(G, 517),
}


def _call(module, case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return case(module)
        except Exception as exc:  # noqa: BLE001 - the comparison is the test
            return exc


@pytest.mark.parametrize("name", list(CASES))
def test_finite_where_the_reference_is_finite(name):
    expected, got = _call(ref, CASES[name]), _call(ours, CASES[name])
    if isinstance(expected, Exception):
        assert isinstance(got, (ValueError, TypeError)), got
        return
    expected = np.atleast_1d(np.asarray(expected, float))
    if not np.all(np.isfinite(expected)):
        return
    assert not isinstance(got, Exception), f"{name}: reference finite {expected}, ours raised {got!r}"
    got = np.atleast_1d(np.asarray(got, float))
    assert np.all(np.isfinite(got)), f"{name}: reference {expected}, ours {got}"
    for e, g in zip(expected, got):
        assert math.isclose(g, e, rel_tol=1e-9, abs_tol=1e-300), (name, expected, got)
