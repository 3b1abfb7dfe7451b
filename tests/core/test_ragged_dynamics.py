"""Rank trajectories and convergence@n on ragged data (issue 16): each question keeps its own N.

Values are checked by hand and against independent computations (Bayes@N of the prefix
counts, the per-question estimators, replicate-by-replicate trajectories).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.dynamics.convergence import bootstrap_convergence, bootstrap_indices
from scorio_core.dynamics.priors import prefix_counts
from scorio_core.dynamics.ragged import RaggedKernel, ragged_lengths
from scorio_core.dynamics.trajectory import outcomes_from_counts, rank_trajectory
from scorio_core.dynamics.trajectory_kernel import TrajectoryKernel
from scorio_core.eval.batch import bayes_batch, binary_question_scores
from scorio_core.uncertainty.batch import posterior_summary_batch

W = np.array([0.0, 1.0])


def _ragged(seed: int, L: int = 4, M: int = 6, N: int = 7, low: int = 2) -> np.ndarray:
    rng = np.random.default_rng(seed)
    R = (rng.random((L, M, N)) < rng.random((L, M, 1))).astype(np.int64)
    lengths = rng.integers(low, N + 1, size=(L, M))
    R[np.arange(N)[None, None] >= lengths[..., None]] = -1
    return R


def test_hand_computed_bayes_trajectory():
    # model A: trials 1, 0 (N = 2); model B: 1, 1, 0 (N = 3); one question, uniform prior
    R = np.array([[[1, 0, -1]], [[1, 1, 0]]])
    t = rank_trajectory(R)
    # A: n=1 (1+1)/(1+2) = 2/3; n=2 (1+1)/(2+2) = 1/2; n=3 keeps its 2 trials: 1/2
    # B: 2/3, (2+1)/(2+2) = 3/4, (2+1)/(3+2) = 3/5
    np.testing.assert_allclose(t.scores, [[2 / 3, 1 / 2, 1 / 2], [2 / 3, 3 / 4, 3 / 5]])
    assert t.ranks.tolist() == [[1.0, 2.0, 2.0], [1.0, 1.0, 1.0]]
    assert t.gold_ranks.tolist() == [2, 1] and t.convergence == 2
    # avg@N: A 1, 1/2, 1/2; B 1, 1, 2/3
    np.testing.assert_allclose(rank_trajectory(R, "avg").scores, [[1, 0.5, 0.5], [1, 1, 2 / 3]])


@pytest.mark.parametrize("seed", range(4))
def test_every_prior_equals_bayes_at_n_of_the_prefix_counts(seed):
    R = _ragged(seed)
    L, M, N = R.shape
    cum = prefix_counts(R, 2)  # (L, N, M, 2), padding counts nothing
    assert (cum.sum(axis=3)[:, -1] == (R >= 0).sum(axis=2)).all()
    mu, sigma = bayes_batch(cum, W)
    t = rank_trajectory(R)
    np.testing.assert_allclose(t.scores, mu, atol=1e-12)
    np.testing.assert_allclose(t.sigma, sigma, atol=1e-12)
    for prior in ("jeffreys", "empirical-bayes"):
        ref = posterior_summary_batch(cum.reshape(L * N, M, 2), W, prior=prior)
        t = rank_trajectory(R, prior=prior)
        np.testing.assert_allclose(t.scores, ref.mu.reshape(L, N), atol=1e-12)
        np.testing.assert_allclose(t.sigma, ref.sigma.reshape(L, N), atol=1e-12)


@pytest.mark.parametrize("metric,k,tau", [("pass@k", 2, None), ("pass^k", 2, None), ("g-pass@k_tau", 2, 0.5),
                                          ("avg", 1, None)])
def test_pass_family_uses_each_question_s_own_prefix(metric, k, tau):
    R = _ragged(7)
    cum = prefix_counts(R, 2)
    n = cum.sum(axis=3)  # (L, N, M) = min(n, N_lq)
    name = "avg" if metric == "avg" else metric
    ref = binary_question_scores(name, cum[..., 1], np.maximum(n, k), k, tau).mean(axis=2)
    ref[:, : k - 1] = np.nan
    t = rank_trajectory(R, metric, k=k, tau=tau)
    np.testing.assert_allclose(t.scores, ref, atol=1e-12)


@pytest.mark.parametrize("metric,kw", [("bayes", {}), ("bayes", {"prior": "empirical-bayes"}), ("bayes", {"prior": "jeffreys"}),
                                       ("avg", {}), ("pass@k", {"k": 2}), ("mg-pass@k", {"k": 2})])
def test_bootstrap_equals_trajectories_replicate_by_replicate(metric, kw):
    R = _ragged(3)
    L, M, N = R.shape
    res = bootstrap_convergence(R, metric, method="row", replicates=48, seed=5, **kw)
    idx = bootstrap_indices((L, M, N), "row", replicates=48, seed=5, lengths=ragged_lengths(R))
    inside = np.arange(N) < ragged_lengths(R)[..., None]
    assert (np.where(inside, idx, 0) < ragged_lengths(R)[..., None]).all()  # each cell from its own trials
    assert (np.where(inside, 0, idx - np.arange(N)) == 0).all()  # padding stays in place
    conv = [rank_trajectory(R, metric, indices=idx[b], **kw).convergence for b in range(48)]
    assert res.convergence.tolist() == [-1 if c is None else c for c in conv]
    assert any("own number of trials" in a for a in res.assumptions)


def test_column_wise_and_large_k_are_refused_with_what_to_do():
    R = _ragged(1)
    with pytest.raises(ValueError, match="row-wise only"):
        bootstrap_convergence(R, method="column", replicates=16)
    with pytest.raises(ValueError, match="Choose k <= 2"):
        rank_trajectory(R, "pass@k", k=3)
    bad = R.copy()
    bad[0, 0, :] = -1
    with pytest.raises(ValueError, match="without any trial"):
        rank_trajectory(bad)
    gap = np.array([[[1, -1, 0]], [[1, 1, 0]]])
    with pytest.raises(ValueError, match="between trials"):
        rank_trajectory(gap)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["bayes", "avg", "pass@k"]))
def test_ragged_kernel_on_complete_data_equals_the_complete_kernel(seed, metric):
    rng = np.random.default_rng(seed)
    L, M, N = 3, 4, 5
    R = (rng.random((L, M, N)) < 0.5).astype(np.int16)
    k = 2 if metric == "pass@k" else 1
    idx = rng.integers(0, N, size=(6, N, L, M))
    full = TrajectoryKernel(R, metric, W, k, None, None).scores(idx, "row")
    ragged = RaggedKernel(R, np.full((L, M), N), metric, W, k, None).scores(idx, "row")
    np.testing.assert_allclose(ragged, full, atol=1e-12, equal_nan=True)


def test_ragged_count_table_runs_row_wise_from_outcomes():
    counts = np.array([[[1, 2], [0, 4]], [[3, 1], [1, 1]]])  # N = 3, 4 / 4, 2
    R = outcomes_from_counts(counts, ragged=True)
    assert R.tolist() == [[[0, 1, 1, -1], [1, 1, 1, 1]], [[0, 0, 0, 1], [0, 1, -1, -1]]]
    res = bootstrap_convergence(R, method="row", replicates=32, seed=0)
    assert res.pmf.shape == (3,) and 0 <= res.no_convergence <= 1
    with pytest.raises(ValueError, match="same number of trials"):
        outcomes_from_counts(counts)
