"""Slow reference for rank trajectories: a plain loop over the public evaluation API.

Imported by the trajectory and convergence tests (``from test_trajectory_reference import
slow_ranks``); the tests here check the reference itself on hand-computed cases.
"""

from __future__ import annotations

import numpy as np

from scorio_core import eval as ev

EVAL = {
    "pass@k": lambda R, k, tau: ev.pass_at_k(R, k),
    "pass^k": lambda R, k, tau: ev.pass_hat_k(R, k),
    "g-pass@k_tau": lambda R, k, tau: ev.g_pass_at_k_tau(R, k, tau),
    "mg-pass@k": lambda R, k, tau: ev.mg_pass_at_k(R, k),
    "maj@k": lambda R, k, tau: ev.maj_at_k(R, k),
    "auc@k": lambda R, k, tau: ev.auc_at_k(R, k),
}


def resample(R, idx):
    """R (L, M, N) resampled by column indices (N,) or row indices (L, M, N)."""
    R = np.asarray(R)
    idx = np.asarray(idx)
    if idx.ndim == 1:
        return R[:, :, idx]
    return np.take_along_axis(R, idx, axis=2)


def slow_scores(R, metric="bayes", w=None, k=1, tau=None, R0=None):
    """Scores (L, N) after n = 1..N trials via eval.bayes / eval.avg / eval.pass_at_k ... (NaN for n < k).

    ``R0`` is a list of per-model prior matrices (M, D) for Bayes@N.
    """
    R = np.asarray(R)
    L, M, N = R.shape
    out = np.full((L, N), np.nan)
    for l in range(L):
        for n in range(1, N + 1):
            block = R[l, :, :n]
            if metric == "bayes":
                out[l, n - 1] = ev.bayes(block, w, None if R0 is None else R0[l])[0]
            elif metric == "avg":
                out[l, n - 1] = ev.avg(block, w)[0]
            elif n >= k:
                out[l, n - 1] = EVAL[metric](block, k, tau)
    return out


def slow_ranks(R, metric="bayes", w=None, k=1, tau=None, R0=None):
    """Competition ranks (L, N) of :func:`slow_scores` (NaN for n < k)."""
    scores = slow_scores(R, metric, w, k, tau, R0)
    ranks = np.full(scores.shape, np.nan)
    for j in range(scores.shape[1]):
        if np.all(np.isfinite(scores[:, j])):
            ranks[:, j] = ev.competition_ranks_from_scores(scores[:, j])
    return ranks


def slow_convergence(ranks, gold):
    """convergence@n by the definition of Appendix I.1, literally (None = no convergence)."""
    L, N = ranks.shape
    for s in range(1, N):  # s <= N_max - 1
        if all(np.array_equal(ranks[:, t - 1], gold) for t in range(s, N + 1)):
            return s
    return None


def test_reference_hand_case():
    # hand: model 0 correct on trials 1, 3, 4; model 1 on trial 2 -> tie after 2 trials
    R = [[[1, 0, 1, 1]], [[0, 1, 0, 0]]]
    ranks = slow_ranks(R)
    assert ranks.tolist() == [[1, 1, 1, 1], [2, 1, 2, 2]]
    assert slow_convergence(ranks, np.array([1, 2])) == 3


def test_reference_pass_at_k_undefined_before_k():
    R = [[[1, 0, 1]], [[0, 0, 1]]]
    ranks = slow_ranks(R, "pass@k", k=2)
    assert np.isnan(ranks[:, 0]).all()
    # hand: pass@2 after 2 trials = 1 - C(1,2)/C(2,2) = 1 for model 0, 0 for model 1
    assert ranks[:, 1].tolist() == [1, 2]
