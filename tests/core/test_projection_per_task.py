"""Compare's trials-needed projection under *all tasks* holds each task's empirical-Bayes prior fixed on its questions
(scorio_core.ranking.projection_prior), as the leaderboard fits a prior per (model, task): at the observed N its z is
the leaderboard's |mu_a - mu_b| / sqrt(sigma_a^2 + sigma_b^2)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.ranking.projection_hyper import hyper_of, hyper_var
from scorio_core.ranking.projection_prior import task_projection_alpha
from scorio_core.ranking.separation import trials_needed
from scorio_core.uncertainty import fit_dirichlet_prior
from scorio_core.uncertainty.batch import posterior_summary_batch

W = np.array([0.0, 1.0])
STRATA = np.repeat([0, 1], [12, 18])


def _counts(seed: int, N: int = 6) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rate = np.concatenate([rng.beta(7, 3, (2, 12)), rng.beta(2, 5, (2, 18))], axis=1)
    c1 = rng.binomial(N, rate)
    return np.stack([N - c1, c1], axis=-1)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_observed_z_is_the_leaderboards_with_tasks_pooled(seed):
    counts = _counts(seed)
    board = posterior_summary_batch(counts, W, prior="empirical-bayes", strata=STRATA)
    assert set(board.method) == {"marginal-likelihood"}
    (aa, sa, na), (ab, sb, nb) = (task_projection_alpha(counts[i], STRATA, "empirical-bayes") for i in (0, 1))
    assert na == nb == "" and aa.shape == (30, 2) and np.array_equal(sa, STRATA)
    for t in (0, 1):  # each task's rows hold that task's own fit
        np.testing.assert_allclose(aa[STRATA == t][0], fit_dirichlet_prior(counts[0][STRATA == t]).alpha, rtol=1e-12)
    got = trials_needed(counts[0], counts[1], W, alpha_a=aa, alpha_b=ab, empirical_a=True, empirical_b=True,
                        strata_a=sa, strata_b=sb)
    want = abs(board.mu[0] - board.mu[1]) / np.hypot(board.sigma[0], board.sigma[1])
    # the projection fits with L-BFGS-B, the leaderboard with batched Newton: the same optimum to ~1e-6
    assert got.z_observed == pytest.approx(want, rel=1e-4)


def test_one_task_hyper_variance_is_the_one_prior_formula():
    """Hand formula of posterior_summary: c^2 v spread, c = mean A / (n + A), v = sum (A + n) / (n (A + 1)) / M^2."""
    alpha = np.array([1.5, 3.0])
    n_q = np.array([[4.0, 4.0, 2.0, 8.0]])
    A, mean = alpha.sum(), alpha / alpha.sum()
    spread = mean @ W**2 - (mean @ W) ** 2
    c = np.mean(A / (n_q + A))
    v = np.sum((A + n_q) / (n_q * (A + 1.0))) / 16
    assert hyper_var(n_q, hyper_of(alpha, None, W, 4))[0] == pytest.approx(c * c * v * spread, rel=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_per_task_hyper_variance_combines_with_weights_m_t_over_m_squared(seed):
    rng = np.random.default_rng(seed)
    m = rng.integers(1, 6, 3)
    strata = np.repeat(np.arange(3), m)
    alphas = rng.uniform(0.2, 5.0, (3, 2))
    n_q = rng.integers(1, 9, strata.size).astype(float)
    got = hyper_var(n_q, hyper_of(alphas[strata], strata, W, strata.size))
    want = sum((m[t] / m.sum()) ** 2 * hyper_var(n_q[strata == t], hyper_of(alphas[t], None, W, m[t])) for t in range(3))
    assert got == pytest.approx(want, rel=1e-10)


def test_a_task_not_identified_projects_the_whole_model_under_the_uniform_prior():
    counts = _counts(4)
    counts[0, STRATA == 0] = [0, 6]  # every trial of task 0 correct: its prior is not identified
    alpha, codes, note = task_projection_alpha(counts[0], STRATA, "empirical-bayes")
    assert codes is None and np.array_equal(alpha, [1.0, 1.0])
    assert note.startswith("the empirical-Bayes prior is not identified for a task of this model (every trial in one")
    alpha, codes, note = task_projection_alpha(counts[1], None, "uniform")
    assert codes is None and note == "" and np.array_equal(alpha, [1.0, 1.0])


def test_a_model_with_one_answered_task_gets_its_one_prior():
    counts = _counts(5)[0]
    counts[STRATA == 1] = 0  # never tried task 1
    alpha, codes, note = task_projection_alpha(counts, STRATA, "empirical-bayes")
    assert codes is None and note == "" and alpha.shape == (2,)


def test_bad_per_question_alpha_is_named():
    counts = _counts(6)
    with pytest.raises(ValueError, match="alpha_a must hold 2 finite pseudo-counts > 0 .or one row per question"):
        trials_needed(counts[0], counts[1], W, alpha_a=np.ones((30, 2)), strata_a=None)
