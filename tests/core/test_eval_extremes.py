"""Extreme inputs (issue 13, item 8): where the reference returns finite numbers, so do we (same values).

Exception rule: where the reference raises, we raise the *same* exception type (e.g. its
``OverflowError`` when a power of a finite number overflows, its ``FloatingPointError``
for non-finite posterior moments). Only where the reference's exception is an accidental
crash (``CRASHES``: ``IndexError``, ``ZeroDivisionError``, ...) do we raise a deliberate
``ValueError`` / ``TypeError`` instead.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scorio import eval as ref

from scorio_core import eval as ours

R = np.array([[0, 1, 1, 0], [1, 1, 0, 1]])
R3 = np.array([[0, 1, 2, 2], [1, 2, 0, 1]])
G = np.random.default_rng(0).integers(0, 2, (3, 600))
# Banks of the differing cases found by random search (geom/auc/spectrum CIs at extremes).
H = np.random.default_rng(1).integers(0, 2, (12, 14))
Z = np.zeros((12, 494), int)
Q = (np.random.default_rng(2).random((4, 10)) < 0.35).astype(int)
A = np.ones((15, 18), int)
W8 = np.random.default_rng(4).random(8)
W8 /= 2.0 * W8.sum()
CRASHES = (IndexError, ZeroDivisionError, KeyError, AttributeError, UnboundLocalError)

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
    # k = 1: Pass@1 is Pass^1; the reference shares the moments (covariance = variance), and
    # a 1e5 prior needs the ratio recurrence, not betaln (which was 1e-7 off in sigma).
    "geom_at_k_ci k 1 prior 1e5 negative powers": lambda m: m.geom_at_k_ci(H, 1, -10.0, -0.5, alpha0=1e5, beta0=1e5),
    "geom_ds_at_k_ci k 1 prior 1e5 negative powers": lambda m: m.geom_ds_at_k_ci(H, 1, -10.0, -0.5, alpha0=1e5, beta0=1e5),
    # x ** p of a tiny finite mean overflows: the reference's float power raises OverflowError.
    "geom_at_k_ci k 517 negative power": lambda m: m.geom_at_k_ci(G, 517, 0.5, -1.0),
    "geom_ds_at_k_ci k 517 negative power": lambda m: m.geom_ds_at_k_ci(G, 517, 0.5, -10.0),
    "geom_at_k_ci all wrong prior 1e5 power -10": lambda m: m.geom_at_k_ci(Z, 409, 2.0, -10.0, alpha0=1e5, beta0=1e5),
    "geom_ds_at_k_ci all wrong prior 1e5 power -10": lambda m: m.geom_ds_at_k_ci(Z, 409, 2.0, -10.0, alpha0=1e5, beta0=1e5),
    "geom_at_k_ci beta0 1e5 power -10": lambda m: m.geom_at_k_ci(Q, 4, 0.25, -10.0, alpha0=0.5, beta0=1e5),
    "geom_ds_at_k_ci beta0 1e5 power -10": lambda m: m.geom_ds_at_k_ci(Q, 4, 0.25, -10.0, alpha0=0.5, beta0=1e5),
    # Large priors: Beta-binomial weights by the reference's log-ratio recurrence.
    "auc_at_k_ci beta0 1000": lambda m: m.auc_at_k_ci(H, 8, alpha0=0.5, beta0=1000.0),
    "auc_at_k_ci prior 1e5": lambda m: m.auc_at_k_ci(H, 5, alpha0=1e5, beta0=1e5),
    "threshold_spectrum_at_k_ci prior 1e5": lambda m: m.threshold_spectrum_at_k_ci(H, 8, W8, alpha0=1e5, beta0=1e5),
    "threshold_spectrum_at_k_ci beta0 1000": lambda m: m.threshold_spectrum_at_k_ci(H, 8, W8, alpha0=0.5, beta0=1000.0),
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
        assert type(got) is type(expected) or (isinstance(expected, CRASHES) and isinstance(got, (ValueError, TypeError))), (
            f"{name}: reference raised {expected!r}, we gave {got!r}"
        )
        return
    expected = np.atleast_1d(np.asarray(expected, float))
    if not np.all(np.isfinite(expected)):
        return
    assert not isinstance(got, Exception), f"{name}: reference finite {expected}, ours raised {got!r}"
    got = np.atleast_1d(np.asarray(got, float))
    assert np.all(np.isfinite(got)), f"{name}: reference {expected}, ours {got}"
    for e, g in zip(expected, got):
        assert math.isclose(g, e, rel_tol=1e-9, abs_tol=1e-300), (name, expected, got)


PRIORS = st.sampled_from([0.5, 1.0, 1000.0, 1e5])
POWERS = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 2.0, -0.5, -1.0, -3.0, -10.0]), st.floats(-12.0, 12.0))


@st.composite
def _extreme_case(draw):
    m, n = draw(st.integers(1, 8)), draw(st.integers(1, 60))
    p = draw(st.sampled_from([0.0, 0.02, 0.5, 0.98, 1.0]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    R = (rng.random((m, n)) < p).astype(int)
    k = draw(st.integers(1, n))
    weights = rng.random(k)
    weights *= draw(st.sampled_from([0.5, 1.0])) / weights.sum()
    return R, k, weights, draw(PRIORS), draw(PRIORS), draw(POWERS), draw(POWERS)


def _four(R, k, weights, a0, b0, pp, up):
    return {
        "geom_at_k_ci": lambda m: m.geom_at_k_ci(R, k, pp, up, alpha0=a0, beta0=b0),
        "geom_ds_at_k_ci": lambda m: m.geom_ds_at_k_ci(R, k, pp, up, alpha0=a0, beta0=b0),
        "auc_at_k_ci": lambda m: m.auc_at_k_ci(R, k, alpha0=a0, beta0=b0),
        "threshold_spectrum_at_k_ci": lambda m: m.threshold_spectrum_at_k_ci(R, k, weights, alpha0=a0, beta0=b0),
    }


@settings(max_examples=40, deadline=None)
@given(_extreme_case())
def test_four_ci_functions_match_the_reference_at_extremes(case):
    """Geom / dataset Geom (closed-form endpoint moments): all four outputs to rel 1e-9.

    AUC and the spectrum use general credit vectors, where the reference takes the variance
    as ``E[g^2] - E[g]^2`` (a cancellation when sigma is tiny) and we integrate the centered
    product (exact to ~1e-13, see test_eval_precision); there the variances must agree to
    the reference's round-off, ``(2k+1) * 16 eps``, and the interval ends accordingly.
    """
    k = case[1]
    for name, call in _four(*case).items():
        expected, got = _call(ref, call), _call(ours, call)
        if isinstance(expected, Exception):
            assert type(got) is type(expected), (name, expected, got)
            continue
        assert not isinstance(got, Exception), (name, expected, got)
        if name.startswith("geom"):
            for e, g in zip(expected, got):
                assert (math.isnan(e) and math.isnan(g)) or math.isclose(g, e, rel_tol=1e-9, abs_tol=1e-12), (name, expected, got)
            continue
        assert math.isclose(got[0], expected[0], rel_tol=1e-9, abs_tol=1e-12), (name, expected, got)
        var_slack = 16 * (2 * k + 1) * np.finfo(float).eps + 1e-9 * expected[1] ** 2
        assert abs(got[1] ** 2 - expected[1] ** 2) <= var_slack, (name, expected, got)
        end_slack = 2.0 * abs(got[1] - expected[1]) + 1e-12
        assert abs(got[2] - expected[2]) <= end_slack and abs(got[3] - expected[3]) <= end_slack, (name, expected, got)
