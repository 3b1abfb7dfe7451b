"""Priors on rank trajectories and bootstrap convergence@n (issue 13: priors on every view)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.dynamics.convergence import PRIOR_ASSUMPTIONS, bootstrap_convergence, bootstrap_indices
from scorio_core.dynamics.trajectory import TRAJECTORY_PRIOR_NOTES, rank_trajectory, trajectory_prior_alpha
from scorio_core.uncertainty import PRIORS, bayes_dirichlet
from scorio_core.uncertainty.batch import posterior_summary_batch


def _binary(L=5, M=24, N=12, seed=0, a=0.5, b=0.5):
    rng = np.random.default_rng(seed)
    p = rng.beta(a, b, (L, M))
    return (rng.random((L, M, N)) < p[..., None]).astype(np.int64)


def _prefix_counts(R, K=2):
    L, M, N = R.shape
    onehot = (R[..., None] == np.arange(K)).astype(np.int64)
    return np.cumsum(onehot, axis=2).transpose(0, 2, 1, 3).reshape(L * N, M, K)


def test_every_prior_has_notes():
    assert set(TRAJECTORY_PRIOR_NOTES) == set(PRIORS) == set(PRIOR_ASSUMPTIONS)


def test_jeffreys_by_hand():
    # one model, one question, trials 1 0 1 1; Dirichlet(1/2): (c + 1/2) / (n + 1)
    t = rank_trajectory([[[1, 0, 1, 1]], [[0, 0, 0, 1]]], prior="jeffreys")
    np.testing.assert_allclose(t.scores[0], [1.5 / 2, 1.5 / 3, 2.5 / 4, 3.5 / 5])  # hand
    np.testing.assert_allclose(t.scores[1], [0.5 / 2, 0.5 / 3, 0.5 / 4, 1.5 / 5])  # hand
    assert t.prior == "jeffreys"


def test_jeffreys_equals_bayes_dirichlet_per_prefix():
    R = np.random.default_rng(3).integers(0, 3, (3, 7, 5))
    w = np.array([0.0, 0.5, 1.0])
    t = rank_trajectory(R, w=w, prior="jeffreys")
    counts = _prefix_counts(R, 3).reshape(3, 5, 7, 3)
    for l in range(3):
        for n in range(5):
            mu, sigma = bayes_dirichlet(counts[l, n], w, np.full(3, 0.5))
            assert t.scores[l, n] == pytest.approx(mu, abs=1e-12)
            assert t.sigma[l, n] == pytest.approx(sigma, abs=1e-12)


def test_empirical_bayes_equals_the_leaderboard_fit_after_every_n():
    R = _binary()
    L, M, N = R.shape
    t = rank_trajectory(R, prior="empirical-bayes")
    s = posterior_summary_batch(_prefix_counts(R), [0.0, 1.0], prior="empirical-bayes")
    np.testing.assert_allclose(t.scores, s.mu.reshape(L, N), atol=1e-12)
    np.testing.assert_allclose(t.sigma, s.sigma.reshape(L, N), atol=1e-12)
    # N = 1 cannot identify the prior: the pooled fallback, whose estimate is the observed mean
    np.testing.assert_allclose(t.scores[:, 0], R[:, :, 0].mean(axis=1), atol=1e-12)
    alpha = trajectory_prior_alpha(R, 2, "empirical-bayes")
    assert alpha.shape == (L, N, 2) and np.all(alpha[:, 0] == 0.0) and np.all(alpha[:, 1:] > 0)


def test_fallbacks_match_the_leaderboard():
    # all-0 and all-1 models (smoothed pooled mean), and a mixed one; every prefix as the leaderboard shows it
    R = np.zeros((3, 4, 5), dtype=np.int64)
    R[1] = 1
    R[2, :2, ::2] = 1
    t = rank_trajectory(R, prior="empirical-bayes")
    s = posterior_summary_batch(_prefix_counts(R), [0.0, 1.0], prior="empirical-bayes")
    np.testing.assert_allclose(t.scores, s.mu.reshape(3, 5), atol=1e-12)
    np.testing.assert_allclose(t.scores[0], [0.5 / (4 * n + 1) for n in range(1, 6)])  # hand: (0 + 1/2) / (T + 1)
    res = bootstrap_convergence(R, replicates=16, seed=0, prior="empirical-bayes")
    idx = bootstrap_indices(R.shape, "column", replicates=16, seed=0)
    assert res.convergence.tolist() == [rank_trajectory(R, indices=i, prior="empirical-bayes").convergence or -1 for i in idx]


def test_uniform_is_unchanged_and_gold_is_avg():
    R = _binary(seed=1)
    a, b = rank_trajectory(R), rank_trajectory(R, prior="uniform")
    np.testing.assert_array_equal(a.scores, b.scores)
    avg_rank = np.argsort(np.argsort(-R.mean(axis=(1, 2)))) + 1
    np.testing.assert_array_equal(a.gold_ranks, avg_rank)


def test_empirical_bayes_gold_can_differ_from_avg():
    # model 0: 0.5 on every question (tight pool, little shrinkage); model 1: a few questions always right,
    # the rest always wrong, with a slightly higher avg but a degenerate-ish spread; a third model anchors
    R = np.zeros((2, 10, 2), dtype=np.int64)
    R[0, :, 0] = 1  # every question 1 of 2
    R[1, :6, :] = 1  # 6 questions 2 of 2, 4 questions 0 of 2 -> avg 0.6
    R[0, :2, 1] = 1  # model 0: avg 0.6 as well
    t_u = rank_trajectory(R, prior="uniform")
    t_e = rank_trajectory(R, prior="empirical-bayes")
    assert t_u.gold_ranks.tolist() == [1, 1]  # avg ties
    s = posterior_summary_batch((R[..., None] == np.arange(2)).sum(axis=2), [0.0, 1.0])
    expected = [1, 2] if s.mu[0] > s.mu[1] + 1e-12 else [2, 1] if s.mu[1] > s.mu[0] + 1e-12 else [1, 1]
    assert t_e.gold_ranks.tolist() == expected


def test_prior_counts_only_with_uniform():
    R = _binary(L=2, M=3, N=4)
    R0 = np.ones((3, 2), dtype=np.int64)
    rank_trajectory(R, prior_counts=R0, prior="uniform")
    with pytest.raises(ValueError, match="R0"):
        rank_trajectory(R, prior_counts=R0, prior="empirical-bayes")
    with pytest.raises(ValueError, match="R0"):
        bootstrap_convergence(R, prior_counts=R0, prior="jeffreys", replicates=16)
    with pytest.raises(ValueError, match="prior must be one of"):
        rank_trajectory(R, prior="flat")


def test_bootstrap_replicates_equal_trajectories_for_fixed_priors():
    R = _binary(L=4, M=10, N=6, seed=2)
    for method in ("column", "row"):
        res = bootstrap_convergence(R, method=method, replicates=32, seed=5, prior="jeffreys")
        idx = bootstrap_indices(R.shape, method, replicates=32, seed=5)
        conv = [rank_trajectory(R, indices=idx[b], prior="jeffreys").convergence for b in range(32)]
        assert res.convergence.tolist() == [-1 if c is None else c for c in conv]
        assert res.prior == "jeffreys" and PRIOR_ASSUMPTIONS["jeffreys"] in res.assumptions


@pytest.mark.parametrize("method", ["column", "row"])
def test_bootstrap_empirical_bayes_refits_every_replicate(method):
    # each replicate's convergence@n equals the trajectory with the prior refitted on that replicate
    R = _binary(L=4, M=20, N=8, seed=4, a=2.0, b=2.0)
    res = bootstrap_convergence(R, method=method, replicates=40, seed=1, prior="empirical-bayes", chunk_size=16)
    idx = bootstrap_indices(R.shape, method, replicates=40, seed=1)
    refit = [rank_trajectory(R, indices=idx[b], prior="empirical-bayes").convergence for b in range(40)]
    assert res.convergence.tolist() == [-1 if c is None else c for c in refit]
    np.testing.assert_array_equal(res.gold_ranks, rank_trajectory(R, prior="empirical-bayes").gold_ranks)
    worst = rank_trajectory(R, indices=idx[res.worst_replicate], prior="empirical-bayes")
    np.testing.assert_array_equal(res.worst_ranks, worst.ranks)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**31 - 1))
def test_empirical_bayes_scores_are_bounded_and_order_free(L, M, N, seed):
    R = np.random.default_rng(seed).integers(0, 2, (L, M, N))
    t = rank_trajectory(R, prior="empirical-bayes")
    assert np.all((t.scores >= 0) & (t.scores <= 1)) and np.all(t.sigma >= 0)
    perm = np.random.default_rng(seed + 1).permutation(M)
    np.testing.assert_allclose(rank_trajectory(R[:, perm], prior="empirical-bayes").scores, t.scores, atol=1e-9)
