"""scorio_core.rank's Bayesian rankings against the reference's scorio.rank: same draws, ranks, scores, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as ours
from tests.core.rank_reference_helpers import METHODS, assert_raises_like_reference, examples, level_tensor, sizes

ref = pytest.importorskip("scorio.rank")



@st.composite
def tensors(draw):
    R = level_tensor(draw, *sizes(draw))
    if draw(st.booleans()):
        R[1] = R[0]  # an exact duplicate model
    return R


@settings(max_examples=examples(25), deadline=None)
@given(tensors(), st.sampled_from(METHODS), st.integers(0, 10**6), st.sampled_from([(1.0, 1.0), (0.5, 2.0)]))
def test_thompson_equal_to_the_reference(R, method, seed, ab):
    kw = {"n_samples": 500, "prior_alpha": ab[0], "prior_beta": ab[1], "seed": seed, "method": method}
    got = ours.thompson(R, return_scores=True, **kw)
    want = ref.thompson(R, return_scores=True, **kw)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-12, atol=1e-12)  # the same Beta draws


@settings(max_examples=examples(15), deadline=None)
@given(tensors(), st.sampled_from(METHODS), st.integers(0, 10**6), st.sampled_from([1.0, 0.3]))
def test_bayesian_mcmc_equal_to_the_reference(R, method, seed, var):
    kw = {"n_samples": 400, "burnin": 600, "prior_var": var, "seed": seed, "method": method}
    got = ours.bayesian_mcmc(R, return_scores=True, **kw)
    want = ref.bayesian_mcmc(R, return_scores=True, **kw)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-9, atol=1e-12)  # the same chain


@pytest.mark.parametrize("name", ["thompson", "bayesian_mcmc"])
def test_defaults_on_separated_data(name):
    rng = np.random.default_rng(5)
    R = (rng.random((6, 20, 3)) < np.linspace(0.05, 0.95, 6)[:, None, None]).astype(int)
    got, want = getattr(ours, name)(R, return_scores=True), getattr(ref, name)(R, return_scores=True)
    assert got[0].tolist() == want[0].tolist() == [6, 5, 4, 3, 2, 1]
    np.testing.assert_allclose(got[1], want[1], rtol=1e-9)


def test_hand_values():
    # identical posteriors: exact expected ranks (L + 1) / 2, no sampling; no decisive outcome: MCMC scores 0
    R = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    np.testing.assert_array_equal(ours.thompson(R, return_scores=True)[1], [-2.0, -2.0, -2.0])
    np.testing.assert_array_equal(ours.bayesian_mcmc(np.ones((3, 2, 2), int), return_scores=True)[1], np.zeros(3))
    # two models, one always right, one always wrong: the right one is first in every Beta draw -> scores -1, -2
    ranks, scores = ours.thompson([[1, 1, 1, 1] * 50, [0, 0, 0, 0] * 50], n_samples=200, return_scores=True)
    assert ranks.tolist() == [1, 2] and scores.tolist() == [-1.0, -2.0]


@pytest.mark.parametrize("kwargs", [
    {"n_samples": 0}, {"n_samples": 2.0}, {"n_samples": True}, {"prior_alpha": 0.0}, {"prior_beta": float("nan")},
    {"burnin": -1}, {"burnin": 1.5}, {"prior_var": -1.0}, {"prior_var": float("inf")}, {"method": "best"},
])
def test_bad_arguments_raise_what_the_reference_raises(kwargs):
    R = np.array([[1, 0, 1], [0, 1, 1]])
    for name in ("thompson", "bayesian_mcmc"):
        if ("prior_alpha" in kwargs or "prior_beta" in kwargs) and name != "thompson":
            continue
        if ("burnin" in kwargs or "prior_var" in kwargs) and name != "bayesian_mcmc":
            continue
        assert_raises_like_reference(name, R, **kwargs)
