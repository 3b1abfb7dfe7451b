"""Trials needed to separate two models (paper Appendix D)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import erf, ndtri

from scorio_core.eval.batch import bayes_batch
from scorio_core.ranking.rank import pairwise_confidence
from scorio_core.ranking.separation import ASSUMPTION, trials_needed
from scorio_core.dynamics.simulate import PAPER_MEANS, question_probabilities


def _counts(p, n):
    return np.stack([np.round((1 - p) * n), np.round(p * n)], axis=1).astype(np.int64)


def test_observed_z_matches_the_leaderboard_rho():
    a, b = _counts(np.full(30, 0.75), 80), _counts(np.full(30, 0.70), 80)
    res = trials_needed(a, b)
    mu, sigma = bayes_batch(np.stack([a, b]), np.array([0.0, 1.0]))
    assert res.rho_observed == pytest.approx(pairwise_confidence(mu, sigma)[0, 1])
    assert res.z_threshold == pytest.approx(1.6448536)  # one-sided 95%, paper 2.7.1
    assert res.assumption == ASSUMPTION and res.n_observed == (80, 80)


def test_z_curve_is_eq15_on_expected_counts_and_n_needed_is_the_first_crossing():
    a, b = _counts(np.full(30, 0.75), 80), _counts(np.full(30, 0.70), 80)
    res = trials_needed(a, b, confidence=0.975)
    rates = [(c + 1.0) / (c + 1.0).sum(axis=1, keepdims=True) for c in (a, b)]
    for N in (1, 7, 40):
        mu, sigma = bayes_batch(np.stack([N * rates[0], N * rates[1]]), np.array([0.0, 1.0]))
        assert res.z[N - 1] == pytest.approx(abs(mu[0] - mu[1]) / np.hypot(*sigma), rel=1e-12)
    first = int(np.argmax(res.z >= ndtri(0.975))) + 1
    assert res.n_needed == first
    assert np.all(np.diff(res.z) > 0)  # equal prior sizes: z grows with N
    np.testing.assert_allclose(res.rho, 0.5 * (1 + erf(res.z / np.sqrt(2))))  # section 2.5


def test_paper_appendix_d_ballpark():
    # paper Appendix D: LLM_10 vs LLM_9 (0.6213 vs 0.608) need N ~ 199 (95%) and ~285 (97.5%).
    # With rates known almost exactly (huge counts) and the simulator's Beta spread, the
    # estimate lands in the same range (it depends on how spread the per-question rates are).
    p = question_probabilities(PAPER_MEANS, seed=0)
    a, b = _counts(p[9], 10**7), _counts(p[8], 10**7)
    n95 = trials_needed(a, b, confidence=0.95).n_needed
    n975 = trials_needed(a, b, confidence=0.975).n_needed
    assert 120 < n95 < 320 and 180 < n975 < 450 and n975 > n95


def test_identical_models_are_never_separated():
    a = _counts(np.linspace(0.1, 0.9, 30), 80)
    res = trials_needed(a, a, n_limit=10_000)
    assert res.n_needed is None and res.z_observed == 0.0
    assert (res.z == 0).all()


def test_missing_questions_and_categorical_weights():
    a = np.array([[5, 3, 2], [0, 0, 0], [1, 1, 8]])  # question 1 not answered by model a
    b = np.array([[6, 2, 2], [3, 3, 4], [2, 2, 6]])
    res = trials_needed(a, b, w=[0.0, 0.5, 1.0], n_max=50)
    assert res.n.shape == (50,) and np.isfinite(res.z).all()


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        ({"counts_a": [1, 2]}, ValueError, r"shape \(M, C\+1\)"),
        ({"counts_a": [[0, 0]]}, ValueError, "no answered question"),
        ({"counts_a": [[1, 2, 3]]}, ValueError, "same number of categories"),
        ({"w": [0, 1, 2]}, ValueError, "one weight per category"),
        ({"confidence": 0.0}, ValueError, "0 < confidence < 1"),
        ({"n_max": 0}, ValueError, "n_max must be >= 1"),
        ({"n_limit": 2.0}, TypeError, "n_limit must be an integer"),
        ({"prior_counts_a": [[1, 1], [1, 1]]}, ValueError, "prior_counts_a must have shape"),
    ],
)
def test_errors(kwargs, exc, match):
    args = {"counts_a": [[3, 5]], "counts_b": [[4, 4]]}
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        trials_needed(**args)


def test_empirical_bayes_projection_keeps_the_hyperparameter_uncertainty():
    # questions that differ no more than chance: the fitted strength runs to ~1e5-1e6 pseudo-counts. Held fixed
    # without its hyperparameter uncertainty it claimed z ~ 1000 at the observed N (found in the browser audit).
    import numpy as np

    from scorio_core.uncertainty import posterior_summary, projection_alpha

    w = np.array([0.0, 1.0])
    rng = np.random.default_rng(2)
    a1, b1 = rng.binomial(4, 0.5, size=12), rng.binomial(4, 0.8, size=12)  # >= MIN_REPEATED_QUESTIONS questions
    ca, cb = np.stack([4 - a1, a1], 1), np.stack([4 - b1, b1], 1)
    (aa, na), (ab, nb) = projection_alpha(ca, "empirical-bayes"), projection_alpha(cb, "empirical-bayes")
    assert aa.sum() > 1e4 and not na and not nb
    needed = trials_needed(ca, cb, alpha_a=aa, alpha_b=ab, empirical_a=True, empirical_b=True)
    pa, pb = posterior_summary(ca, w, prior="empirical-bayes"), posterior_summary(cb, w, prior="empirical-bayes")
    z_leaderboard = abs(pa.mu - pb.mu) / np.hypot(pa.sigma, pb.sigma)
    assert needed.z_observed == pytest.approx(float(z_leaderboard), rel=1e-9)  # the same uncertainty as the leaderboard
    assert needed.z_observed < 10 < trials_needed(ca, cb, alpha_a=aa, alpha_b=ab).z_observed
    assert np.all(np.diff(needed.z) > 0)  # still grows with N
