"""scorio_core.rank's paired-comparison models against the reference's scorio.rank: same ranks, scores, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as ours
from tests.core.rank_reference_helpers import assert_same as _assert_same
from tests.core.rank_reference_helpers import both as _both
from tests.core.rank_reference_helpers import METHODS, assert_raises_like_reference, examples, level_tensor, sizes
from tests.core.rank_reference_helpers import priors as _priors

ref = pytest.importorskip("scorio.rank")


ML = ("bradley_terry", "bradley_terry_davidson", "rao_kupper")
MAP = ("bradley_terry_map", "bradley_terry_davidson_map", "rao_kupper_map")
PRIORS = ("float", "GaussianPrior", "LaplacePrior", "CauchyPrior", "UniformPrior", "EmpiricalPrior", "CustomPrior")


@st.composite
def tensors(draw):
    return level_tensor(draw, *sizes(draw))


@settings(max_examples=examples(40), deadline=None)
@given(tensors(), st.sampled_from(ML), st.sampled_from(METHODS), st.sampled_from([1.0, 1.1, 2.5]))
def test_ml_equal_to_the_reference(R, name, method, kappa):
    kw = {"tie_strength": kappa} if name == "rao_kupper" else {}
    got, want = _both(name, R, method, kw, kw)
    _assert_same(got, want)
    if not isinstance(want[0], type):
        np.testing.assert_array_equal(getattr(ours, name)(R, method=method, **kw), want[0])


@settings(max_examples=examples(40), deadline=None)
@given(tensors(), st.sampled_from(MAP), st.sampled_from(METHODS), st.sampled_from(PRIORS))
def test_map_equal_to_the_reference(R, name, method, kind):
    p_ours, p_ref = _priors(kind, R.shape[0])
    got, want = _both(name, R, method, {"prior": p_ours}, {"prior": p_ref})
    _assert_same(got, want)


def test_two_model_bradley_terry_is_closed_form():
    # model 0 beats model 1 on 6 events, loses on 2, ties on 2: pi0 / pi1 = 6 / 2, centred: sqrt(3), 1/sqrt(3)
    R = np.array([[1] * 6 + [0] * 2 + [1, 0], [0] * 6 + [1] * 2 + [1, 0]])
    ranks, pi = ours.bradley_terry(R, return_scores=True)
    assert ranks.tolist() == [1, 2]
    np.testing.assert_allclose(pi, [3**0.5, 3**-0.5], rtol=1e-4)  # the reference's L-BFGS-B stopping accuracy


def test_two_model_davidson_and_rao_kupper_hand_values():
    R = np.array([[1] * 6 + [0] * 2 + [1, 0], [0] * 6 + [1] * 2 + [1, 0]])  # W01 = 6, W10 = 2, T = 2
    # Davidson MLE: pi0 / pi1 = W01 / W10 (the tie term is symmetric), nu = 2 T / sqrt(W01 W10) = 4 / sqrt(12)
    np.testing.assert_allclose(ours.bradley_terry_davidson(R, return_scores=True)[1], [3**0.5, 3**-0.5], rtol=1e-4)
    # Rao-Kupper (kappa fixed) with x = pi0 / pi1: score equation W01 k/(x+k) - W10 k x/(k x+1) + T (1 - x/(x+k) - k x/(k x+1)) = 0
    k = 1.5
    from scipy.optimize import brentq

    def score(lx):  # d loglik / d log x, for the two-model likelihood
        x = np.exp(lx)
        return 6 * k / (x + k) - 2 * k * x / (k * x + 1) + 2 * (1 - x / (x + k) - k * x / (k * x + 1))

    x = np.exp(brentq(score, -10, 10))
    np.testing.assert_allclose(ours.rao_kupper(R, tie_strength=k, return_scores=True)[1], [x**0.5, x**-0.5], rtol=1e-4)


def test_map_hand_values():
    # all-win two-model data: the Gaussian MAP stays finite and ranks the winner first; no decisive data -> all 1
    assert ours.bradley_terry_map(np.array([[1, 1], [0, 0]])).tolist() == [1, 2]
    np.testing.assert_array_equal(ours.rao_kupper_map(np.ones((3, 4, 2), int), return_scores=True)[1], np.ones(3))




@pytest.mark.parametrize("kwargs", [
    {"max_iter": 0}, {"max_iter": 2.0}, {"max_iter": True}, {"prior": -1.0}, {"prior": float("nan")},
    {"prior": True}, {"prior": "wide"}, {"tie_strength": 0.5}, {"tie_strength": float("inf")}, {"tie_strength": True},
])
def test_bad_arguments_raise_what_the_reference_raises(kwargs):
    R = np.array([[1, 0, 1], [0, 1, 1]])
    for name in ML + MAP:
        if ("prior" in kwargs and name in ML) or ("tie_strength" in kwargs and not name.startswith("rao")):
            continue
        assert_raises_like_reference(name, R, **kwargs)


def test_separated_data_and_kappa_one():
    R = np.array([[1, 1], [0, 0]])  # model 1 never wins or ties: no finite ML estimate
    for name in ML:
        assert_raises_like_reference(name, R)
    with pytest.raises(ValueError, match="tie_strength=1.0 implies no ties"):
        ours.rao_kupper(np.array([[1, 1], [1, 0]]), tie_strength=1.0)


def test_bad_priors_like_the_reference():
    for cls, args in (("GaussianPrior", (0.0, 0.0)), ("LaplacePrior", (0.0, -1.0)), ("CauchyPrior", ("a", 1.0)),
                      ("GaussianPrior", (np.inf, 1.0)), ("EmpiricalPrior", (np.zeros((2, 2, 2, 2)),))):
        with pytest.raises((TypeError, ValueError)) as want:
            getattr(ref, cls)(*args)
        with pytest.raises(want.type) as got:
            getattr(ours, cls)(*args)
        assert str(got.value) == str(want.value)
    with pytest.raises(ValueError, match="callable"):
        ours.CustomPrior("theta ** 2")  # text is never evaluated
    with pytest.raises(ValueError, match="must match number of models"):
        ours.bradley_terry_map(np.array([[1, 0], [0, 1], [1, 1]]), prior=ours.EmpiricalPrior([[1, 0], [0, 1]]))


def test_penalty_rows_match_penalty_bit_for_bit():
    thetas = np.random.default_rng(3).normal(size=(6, 9)) * 3
    for prior in (ours.GaussianPrior(0.2, 0.7), ours.LaplacePrior(-0.1, 2.0), ours.CauchyPrior(0.3, 0.5),
                  ours.UniformPrior(), ours.EmpiricalPrior(np.eye(9, 4, dtype=int))):
        assert prior.penalty_rows(thetas).tolist() == [prior.penalty(t) for t in thetas]
