"""scorio_core.rank's item response theory rankings against the reference's scorio.rank: same ranks, scores, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as ours
from tests.core.rank_reference_helpers import METHODS, assert_same, both, examples, irt_tensors
from tests.core.rank_reference_helpers import priors as _priors

ref = pytest.importorskip("scorio.rank")


def _both(name, R, method, kw_ours, kw_ref):
    return both(name, R, method, kw_ours, kw_ref, flag="return_item_params")


def _assert_same(got, want):
    assert_same(got, want, atol=1e-9, item_params=True)


JOINT = ("rasch", "rasch_2pl", "rasch_3pl")
MAP = ("rasch_map", "rasch_2pl_map", "rasch_3pl_map")
PRIORS = ("float", "GaussianPrior", "LaplacePrior", "CauchyPrior", "UniformPrior", "EmpiricalPrior", "CustomPrior")


def tensors():
    return irt_tensors(max_models=9, n_max=5)


@settings(max_examples=examples(20), deadline=None)
@given(tensors(), st.sampled_from(JOINT), st.sampled_from(METHODS))
def test_joint_equal_to_the_reference(R, name, method):
    got, want = _both(name, R, method, {}, {})
    _assert_same(got, want)
    if not isinstance(want[0], type):
        np.testing.assert_array_equal(getattr(ours, name)(R, method=method), want[0])


@settings(max_examples=examples(12), deadline=None)
@given(tensors(), st.sampled_from(MAP), st.sampled_from(METHODS), st.sampled_from(PRIORS))
def test_map_equal_to_the_reference(R, name, method, kind):
    p_ours, p_ref = _priors(kind, R.shape[0])
    got, want = _both(name, R, method, {"prior": p_ours}, {"prior": p_ref})
    _assert_same(got, want)


@settings(max_examples=examples(4), deadline=None)
@given(tensors(), st.sampled_from([("rasch_3pl", {"fix_guessing": 0.2}), ("rasch_3pl_map", {"fix_guessing": 0.0}),
                                   ("rasch_2pl_map", {"reg_discrimination": 0.0}),
                                   ("rasch_3pl_map", {"guessing_upper": 0.3, "reg_guessing": 1.0})]))
def test_item_options_equal_to_the_reference(R, case):
    name, kw = case
    _assert_same(*_both(name, R, "competition", kw, kw))


def test_two_model_rasch_map_hand_value():
    # one question, two models, N = 1, k = (1, 0), Gaussian prior var 1: by symmetry theta = (t, -t), b = 0 and
    # the stationarity condition is t + sigma(t) = 1
    from scipy.optimize import brentq
    from scipy.special import expit

    t = brentq(lambda x: x + expit(x) - 1.0, 0.0, 1.0)
    ranks, theta, params = ours.rasch_map(np.array([[1], [0]]), return_item_params=True)
    assert ranks.tolist() == [1, 2]
    np.testing.assert_allclose(theta, [t, -t], atol=1e-6)
    np.testing.assert_allclose(params["difficulty"], [0.0], atol=1e-12)


def test_rasch_hand_value_and_orbits():
    # Rasch JML: models with the same total share one ability; a 2 x 2 table k = [[1, 0], [0, 1]]-style symmetric
    # design (each model right on the question the other misses, plus a shared right and a shared wrong answer
    # split across trials) gives equal abilities.
    R = np.array([[[1, 0], [0, 1]], [[0, 1], [1, 0]], [[1, 1], [0, 0]]])  # totals 2, 2, 2 -> one ability
    ranks, theta = ours.rasch(R, return_scores=True)
    assert ranks.tolist() == [1, 1, 1]
    assert np.ptp(theta) == 0.0
    assert ours.rasch([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0]]).tolist() == [1, 2, 2]




@pytest.mark.parametrize("kwargs", [
    {"max_iter": 0}, {"max_iter": 2.0}, {"max_iter": True}, {"prior": -1.0}, {"prior": float("nan")},
    {"prior": "wide"}, {"prior": np.float32(1.0)}, {"reg_discrimination": 0.0}, {"reg_discrimination": -1.0},
    {"reg_guessing": 0.0}, {"guessing_upper": 1.0}, {"fix_guessing": 0.9}, {"fix_guessing": float("nan")},
    {"method": "best"},
])
def test_bad_arguments_raise_what_the_reference_raises(kwargs):
    R = np.array([[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 1]])
    for name in JOINT + MAP:
        if ("prior" in kwargs and name in JOINT) or ("reg_discrimination" in kwargs and name.startswith("rasch_m")) \
                or (any(k in kwargs for k in ("reg_guessing", "guessing_upper", "fix_guessing")) and "3pl" not in name) \
                or ("reg_discrimination" in kwargs and name == "rasch") \
                or ("method" in kwargs and "pl" in name):  # the 2PL/3PL fits are slow; the tie rule is shared
            continue
        with pytest.raises((TypeError, ValueError, RuntimeError, KeyError)) as want:
            getattr(ref, name)(R, **kwargs)
        with pytest.raises(want.type) as got:
            getattr(ours, name)(R, **kwargs)
        assert str(got.value) == str(want.value)


def test_no_finite_estimate_raises_what_the_reference_raises():
    for R in (np.array([[1, 1], [0, 0]]), np.array([[1, 0], [1, 1], [0, 1]]), np.array([[1, 0, 1], [0, 1, 0]]),
              np.array([[1, 1, 0], [1, 0, 0], [0, 1, 0]])):
        for name in JOINT + MAP:
            got, want = _both(name, R, "competition", {}, {})
            if isinstance(want[0], type):
                assert got == want


@pytest.mark.parametrize("name, kind, R", [
    ("rasch_2pl_map", "float", [[[1, 0, 1, 1], [0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 0, 1]],
                                [[1, 1, 1, 1], [0, 1, 1, 1], [0, 0, 0, 1], [0, 0, 0, 0]],
                                [[0, 0, 1, 0], [0, 0, 1, 1], [0, 1, 0, 0], [1, 0, 0, 0]],
                                [[0, 1, 1, 1], [0, 0, 1, 0], [1, 1, 1, 1], [0, 0, 0, 1]],
                                [[1, 0, 1, 1], [0, 1, 1, 0], [1, 0, 0, 0], [0, 0, 0, 0]],
                                [[0, 1, 0, 1], [1, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
                                [[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]],
                                [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]],
                                [[1, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 1, 0]]]),
    ("rasch_3pl_map", "GaussianPrior", [[[1, 0, 1, 0], [0, 0, 0, 0], [0, 1, 0, 1], [1, 0, 1, 0]],
                                        [[0, 0, 1, 1], [1, 1, 0, 1], [1, 0, 0, 1], [0, 1, 1, 1]],
                                        [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]]),
])
def test_cases_where_the_reference_depends_on_the_blas_thread_count(name, kind, R):
    """Found by the sweep: with OpenBLAS's default threads the reference's L-BFGS-B path drifts from its own
    one-thread path (a RuntimeError instead of the ValueError; 3PL scores 1e-8 apart); with one BLAS thread on
    both sides (tests/core/conftest.py) ours and the reference's are the same."""
    R = np.array(R)
    p_ours, p_ref = _priors(kind, R.shape[0])
    _assert_same(*_both(name, R, "competition", {"prior": p_ours}, {"prior": p_ref}))
