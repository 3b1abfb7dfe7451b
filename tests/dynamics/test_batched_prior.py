"""Empirical-Bayes prior refits of the dynamics in one batched pass equal one fit at a time (issue 36).

The batched fit (every (replicate, prefix n, model) at once) must give the values of fitting
each model's counts alone, to 1e-9, with the per-model L-BFGS-B fit's fallbacks. (Its maximum is
not compared here: on tiny corner cases, e.g. one model with counts [[0, 1, 0], [3, 0, 0]], the
Newton fit stops at a lower likelihood than L-BFGS-B; a known limitation of the batch fit, which
the dynamics have used since issue 13.)
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.dynamics.bootstrap import replicate_indices
from scorio_core.dynamics.convergence import bootstrap_convergence
from scorio_core.dynamics.priors import prefix_states, pseudo_counts, refit_scores, trajectory_prior_alpha
from scorio_core.dynamics.trajectory import rank_trajectory
from scorio_core.uncertainty import fit_dirichlet_prior
from scorio_core.uncertainty.batch_prior import _CountStates, fit_dirichlet_prior_batch

TOL = 1e-9


def _one_at_a_time(counts: np.ndarray, init: np.ndarray | None = None) -> np.ndarray:
    """Pseudo-counts (L, K) fitting each model's (M, K) counts alone (a Python loop over models)."""
    L, M, K = counts.shape
    out = np.empty((L, K))
    for l in range(L):
        start = None if init is None else init[l : l + 1]
        out[l] = pseudo_counts(fit_dirichlet_prior_batch(counts[l : l + 1], init=start), M)[0]
    return out


@st.composite
def count_tensors(draw):
    L = draw(st.integers(1, 6))
    M = draw(st.integers(1, 8))
    K = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = rng.integers(1, draw(st.integers(1, 10)) + 1, (L, M))
    if draw(st.booleans()):
        n[:] = n.max()  # complete block
    probs = rng.dirichlet(np.full(K, rng.uniform(0.2, 3.0)), size=(L, M))
    counts = np.stack([rng.multinomial(n[i, j], probs[i, j]) for i in range(L) for j in range(M)]).reshape(L, M, K)
    kind = draw(st.sampled_from(["plain", "missing", "all-correct", "all-wrong", "n1"]))
    if kind == "missing":
        counts[rng.random((L, M)) < 0.3] = 0  # unanswered cells
    elif kind == "all-correct":
        counts[0] = 0
        counts[0, :, -1] = n[0]
    elif kind == "all-wrong":
        counts[0] = 0
        counts[0, :, 0] = n[0]
    elif kind == "n1":
        counts[0] = 0
        counts[0, np.arange(M), rng.integers(0, K, M)] = 1
    return counts


@settings(max_examples=60, deadline=None)
@given(count_tensors())
def test_batched_fit_equals_one_fit_at_a_time(counts):
    answered = counts.sum(axis=(1, 2)) > 0
    batch = fit_dirichlet_prior_batch(counts)
    alpha = pseudo_counts(batch, counts.shape[1])
    single = _one_at_a_time(counts)
    got, want = alpha[answered], single[answered]
    assert np.all(np.abs(got - want) <= TOL * np.maximum(1.0, np.abs(want))), (got, want)  # alpha up to 1e6: relative
    for l in np.flatnonzero(answered):
        ref = fit_dirichlet_prior(counts[l])  # the per-model L-BFGS-B fit: same fallbacks
        assert batch.method[l] == ref.method and bool(batch.pooled[l]) == ref.pooled


@pytest.mark.parametrize("K", [2, 3])
@pytest.mark.parametrize("method", ["column", "row"])
def test_prefix_states_equal_the_states_of_the_prefix_count_tensor(K, method):
    rng = np.random.default_rng(K)
    L, M, N, B = 3, 5, 7, 4
    codes = rng.integers(0, K, (N, L, M)).astype(np.uint8)
    codes[:, 0, :] = K - 1  # an all-correct model
    idx = replicate_indices((L, M, N), method, 3, 0, B)
    gathered = codes[idx] if method == "column" else np.take_along_axis(codes[None], idx.astype(np.intp), axis=1)
    prefix = np.cumsum(gathered[..., None] == np.arange(K), axis=1).reshape(B * N * L, M, K)
    got, want = prefix_states(gathered, K), _CountStates.of(prefix)
    assert (got.L, got.K) == (want.L, want.K)
    for field in ("model", "rows", "freq"):
        np.testing.assert_array_equal(getattr(got, field), getattr(want, field))


def _data(K, seed=0, L=4, M=6, N=9):
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.full(K, 1.0), size=(L, M))
    u = rng.random((L, M, N, 1))
    R = (u > np.cumsum(probs, axis=2)[:, :, None, :]).sum(axis=3).astype(np.int64)
    R[0] = K - 1  # all correct: degenerate fallback
    return R


@pytest.mark.parametrize("K", [2, 3])
@pytest.mark.parametrize("method", ["column", "row"])
def test_refit_scores_equal_a_loop_over_replicates_prefixes_and_models(K, method):
    R = _data(K, seed=K)
    L, M, N = R.shape
    w = np.linspace(0.0, 1.0, K)
    start = trajectory_prior_alpha(R, K, "empirical-bayes")
    codes = np.ascontiguousarray(R.transpose(2, 0, 1)).astype(np.uint8)
    B = 5
    idx = replicate_indices((L, M, N), method, 7, 0, B)
    avg = np.random.default_rng(1).random((L, B, N))
    got = refit_scores(avg, codes, idx, method, w, start)
    want = np.empty_like(got)
    for b in range(B):
        for n in range(1, N + 1):
            if method == "column":
                Rb = R[:, :, idx[b, :n]]
            else:
                Rb = np.take_along_axis(R, idx[b, :n].transpose(1, 2, 0).astype(np.intp), axis=2)
            counts = (Rb[..., None] == np.arange(K)).sum(axis=2)  # (L, M, K)
            alpha = _one_at_a_time(counts, start[:, n - 1])
            want[:, b, n - 1] = w[0] + (alpha @ (w - w[0]) + n * (avg[:, b, n - 1] - w[0])) / (alpha.sum(1) + n)
    np.testing.assert_allclose(got, want, rtol=0, atol=TOL)


@pytest.mark.parametrize("K", [2, 3])
def test_trajectory_and_convergence_equal_a_slow_reference(K):
    R = _data(K, seed=10 + K)
    L, M, N = R.shape
    w = np.linspace(0.0, 1.0, K)
    order = np.random.default_rng(2).integers(0, N, N)
    traj = rank_trajectory(R, w=w, prior="empirical-bayes", indices=order)
    start = trajectory_prior_alpha(R, K, "empirical-bayes")
    scores = np.empty((L, N))
    for n in range(1, N + 1):
        Rb = R[:, :, order[:n]]
        counts = (Rb[..., None] == np.arange(K)).sum(axis=2)
        alpha = _one_at_a_time(counts, start[:, n - 1])
        per_q = (alpha[:, None, :] + counts) @ w / (alpha.sum(1)[:, None] + n)  # Bayes@n per question
        scores[:, n - 1] = per_q.mean(axis=1)
    np.testing.assert_allclose(traj.scores, scores, rtol=0, atol=TOL)
    # convergence: every replicate's convergence@n equals rank_trajectory on that replicate (itself checked above)
    res = bootstrap_convergence(R, w=w, replicates=6, seed=4, prior="empirical-bayes")
    for b in range(6):
        one = rank_trajectory(R, w=w, prior="empirical-bayes", indices=replicate_indices((L, M, N), "column", 4, b, b + 1)[0])
        assert (one.convergence or -1) == res.convergence[b]
