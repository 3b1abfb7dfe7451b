"""Under *all tasks* the dynamics fit the empirical-Bayes prior per (model, task), as the leaderboard does.

The last point of a rank trajectory must be the leaderboard's Bayes@N (posterior mean and sd) with tasks pooled;
each task's part must be the one-task fit of that task alone (the combination mu = sum_t m_t mu_t / M); a model
with a task that cannot identify its prior takes the observed mean over all its questions; the bootstrap's refits
equal the trajectory refitted on each replicate.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.dynamics.bootstrap import replicate_indices
from scorio_core.dynamics.convergence import bootstrap_convergence
from scorio_core.dynamics.priors import refit_scores, trajectory_prior_alpha
from scorio_core.dynamics.task_priors import check_task_strata, combine_task_fits
from scorio_core.dynamics.trajectory import rank_trajectory
from scorio_core.uncertainty.batch import posterior_summary_batch

TOL = 1e-9


def _two_tasks(K: int = 2, seed: int = 0, L: int = 5, m: tuple[int, int] = (12, 18), N: int = 6):
    """Codes (L, M, N): task 0 easy (rates ~Beta(7, 3)), task 1 hard (~Beta(2, 5)); task codes (M,)."""
    rng = np.random.default_rng(seed)
    M = sum(m)
    rate = np.concatenate([rng.beta(7, 3, (L, m[0])), rng.beta(2, 5, (L, m[1]))], axis=1)
    correct = rng.random((L, M, N)) < rate[..., None]
    R = np.where(correct, K - 1, rng.integers(0, K - 1, (L, M, N))) if K > 2 else correct.astype(int)
    return R, np.repeat([0, 1], m)


def _counts(R: np.ndarray, K: int) -> np.ndarray:
    return (R[..., None] == np.arange(K)).sum(axis=2)


@pytest.mark.parametrize("K", [2, 3])
def test_last_point_is_the_leaderboard_with_tasks_pooled(K):
    R, strata = _two_tasks(K, seed=K)
    w = np.linspace(0.0, 1.0, K)
    t = rank_trajectory(R, w=w, prior="empirical-bayes", strata=strata)
    board = posterior_summary_batch(_counts(R, K), w, prior="empirical-bayes", strata=strata)
    assert set(board.method) == {"marginal-likelihood"}
    np.testing.assert_allclose(t.scores[:, -1], board.mu, rtol=0, atol=TOL)
    np.testing.assert_allclose(t.sigma[:, -1], board.sigma, rtol=0, atol=TOL)
    one_prior = rank_trajectory(R, w=w, prior="empirical-bayes")  # one prior per model: differs (tasks differ)
    assert np.max(np.abs(one_prior.scores[:, -1] - board.mu)) > 1e-4


def test_each_task_part_is_that_task_fitted_alone():
    """Hand combination: Bayes@N = (m_0 mu_0 + m_1 mu_1) / M, mu_t the one-task leaderboard value of task t."""
    R, strata = _two_tasks(seed=7)
    w = np.array([0.0, 1.0])
    t = rank_trajectory(R, prior="empirical-bayes", strata=strata)
    for n in (3, R.shape[2]):
        parts = [posterior_summary_batch(_counts(R[:, strata == s, :n], 2), w, prior="empirical-bayes").mu
                 for s in (0, 1)]
        want = (12 * parts[0] + 18 * parts[1]) / 30
        np.testing.assert_allclose(t.scores[:, n - 1], want, rtol=0, atol=TOL)


def test_a_task_not_identified_gives_the_observed_mean_over_all_questions():
    """Task 0 has 8 questions: at n = 2 its 8 trial pairs (< 20) leave the prior not identified; at n = 4 (48) not."""
    R, strata = _two_tasks(seed=3, m=(8, 30), N=4)
    R[1, strata == 0] = 1  # model 1 all correct on task 0 (its task prior is the all-in-one-category fallback)
    R[2] = 1  # model 2 all correct everywhere: the smoothed pooled mean
    t = rank_trajectory(R, prior="empirical-bayes", strata=strata)
    M = R.shape[1]
    avg2 = R[:, :, :2].mean(axis=(1, 2))
    np.testing.assert_allclose(t.scores[[0, 1, 3, 4], 1], avg2[[0, 1, 3, 4]], rtol=0, atol=1e-12)
    np.testing.assert_allclose(t.scores[1, -1], R[1].mean(), rtol=0, atol=1e-12)  # task 0 degenerate -> model fallback
    for n in (1, 2, 4):
        np.testing.assert_allclose(t.scores[2, n - 1], (M * n + 0.5) / (M * n + 1.0), rtol=0, atol=1e-12)
    board = posterior_summary_batch(_counts(R, 2), np.array([0.0, 1.0]), prior="empirical-bayes", strata=strata)
    np.testing.assert_allclose(t.scores[:, -1], board.mu, rtol=0, atol=TOL)
    assert board.method[1] == "fallback-task-degenerate" and board.method[2] == "fallback-degenerate"


def test_one_task_or_no_strata_is_the_one_prior_result_bit_for_bit():
    R, _ = _two_tasks(seed=5)
    plain = rank_trajectory(R, prior="empirical-bayes")
    same = rank_trajectory(R, prior="empirical-bayes", strata=np.full(R.shape[1], 7))
    assert np.array_equal(plain.scores, same.scores) and np.array_equal(plain.ranks, same.ranks, equal_nan=True)
    assert check_task_strata(np.full(4, 3), 4) is None
    np.testing.assert_array_equal(check_task_strata(np.array([5, 9, 5, 2]), 4), [1, 2, 1, 0])
    with pytest.raises(ValueError, match="one integer task code per question"):
        check_task_strata(np.array([0.5, 1.0]), 2)
    with pytest.raises(ValueError, match="one integer task code per question"):
        check_task_strata(np.array([0, 1, 1]), 2)


def test_uniform_prior_ignores_strata():
    R, strata = _two_tasks(seed=6)
    a = rank_trajectory(R, prior="uniform", strata=strata)
    b = rank_trajectory(R, prior="uniform")
    assert np.array_equal(a.scores, b.scores)


@pytest.mark.parametrize("method", ["column", "row"])
def test_bootstrap_refits_equal_the_trajectory_on_each_replicate(method):
    R, strata = _two_tasks(seed=11, L=4, m=(10, 14), N=5)
    L, M, N = R.shape
    w = np.array([0.0, 1.0])
    start = trajectory_prior_alpha(R, 2, "empirical-bayes", strata=strata)
    assert start.shape == (L, N, 2, 2)
    idx = replicate_indices((L, M, N), method, 9, 0, 3)
    codes = np.ascontiguousarray(R.transpose(2, 0, 1)).astype(np.uint8)
    got = refit_scores(None, codes, idx, method, w, start, strata)  # (L, B, N)
    for b in range(3):
        one = idx[b] if method == "column" else idx[b].transpose(1, 2, 0)
        traj = rank_trajectory(R, prior="empirical-bayes", indices=one, strata=strata)
        np.testing.assert_allclose(got[:, b], traj.scores, rtol=0, atol=TOL)
    res = bootstrap_convergence(R, replicates=3, seed=9, prior="empirical-bayes", strata=strata, method=method)
    for b in range(3):
        one = idx[b] if method == "column" else idx[b].transpose(1, 2, 0)
        traj = rank_trajectory(R, prior="empirical-bayes", indices=one, strata=strata)
        assert (traj.convergence or -1) == res.convergence[b]


def test_ragged_last_point_is_the_leaderboard():
    R, strata = _two_tasks(seed=12, N=6)
    R[0, :5, 4:] = -1  # model 0 tried 5 questions of task 0 four times only
    R[3, 20:, 3:] = -1
    t = rank_trajectory(R, prior="empirical-bayes", strata=strata)
    board = posterior_summary_batch(_counts(R, 2), np.array([0.0, 1.0]), prior="empirical-bayes", strata=strata)
    np.testing.assert_allclose(t.scores[:, -1], board.mu, rtol=0, atol=TOL)
    res = bootstrap_convergence(R, replicates=4, seed=1, prior="empirical-bayes", strata=strata, method="row")
    assert res.convergence.shape == (4,)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.integers(1, 4))
def test_combined_fallbacks_are_exact_means(seed, T, K_minus_1):
    """combine_task_fits: a fit with any task pooled has one pseudo-count per category in every task."""
    rng = np.random.default_rng(seed)
    F, K, M = 6, K_minus_1 + 1, 20
    alpha = rng.uniform(0.1, 5.0, (F, T, K))
    pooled = rng.random((F, T)) < 0.3
    totals = rng.integers(0, 5, (F, K)) * (rng.random((F, K)) < 0.7)
    out = combine_task_fits(alpha, pooled, totals, M)
    for f in range(F):
        if not pooled[f].any():
            np.testing.assert_array_equal(out[f], alpha[f])
        else:
            want = 0.5 / M if np.count_nonzero(totals[f]) <= 1 else 0.0
            assert np.all(out[f] == want)


def test_complete_block_keeps_task_codes_and_names_tasks_left_out(tmp_path):
    from scorio_core import io
    from scorio_core.leaderboard.task_outcomes import ALL_TASKS, outcomes_for

    rows = ["model,task,question,trial,correct"]
    for m in ("a", "b", "c"):
        for t, nq in (("A", 4), ("B", 3), ("C", 2)):
            if t != "A" and m == "c":
                continue  # c never tried B or C: the block keeps task A only
            rows += [f"{m},{t},q{q},{r},{(q + r + len(m)) % 2}" for q in range(nq) for r in range(2)]
    path = tmp_path / "three.csv"
    path.write_text("\n".join(rows))
    pooled = outcomes_for(io.load([path]), ALL_TASKS).binary
    block = pooled.complete_block()
    assert block.strata is None and len(block.questions) == 4
    assert "5 of 9 questions not answered by every model were left out (every question of tasks B and C)" in block.notes
    both = pooled.select_models(["a", "b"]).complete_block()
    assert both.strata.tolist() == [0] * 4 + [1] * 3 + [2] * 2 and not both.notes
