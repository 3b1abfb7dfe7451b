"""bayesian_mcmc on every bootstrap resample at once: the lock-step chains equal one call per resample, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from scorio_core.rank.bootstrap import bootstrap_ranks
from scorio_core.rank.likelihood.bayesian import bayesian_mcmc, bayesian_mcmc_resamples


@pytest.mark.parametrize("seed", range(8))
def test_lock_step_chains_equal_one_call_each(seed):
    rng = np.random.default_rng(seed)
    L, M, N = int(rng.integers(2, 8)), int(rng.integers(1, 12)), int(rng.integers(1, 4))
    R = (rng.random((L, M, N)) < rng.random((L, 1, 1))).astype(int)
    if L > 2:
        R[1] = R[2]  # identical records: averaged as one call averages them
    idx = rng.integers(0, M, (4, M))
    got = bayesian_mcmc_resamples(R, idx, n_samples=300, burnin=250, seed=7)
    want = np.array([bayesian_mcmc(R[:, b], n_samples=300, burnin=250, seed=7, return_scores=True)[1] for b in idx])
    assert np.array_equal(got, want)


def test_a_resample_without_decisive_outcomes_scores_zero():
    R = np.zeros((3, 4, 2), dtype=int)
    R[0, 0] = 1  # only question 0 separates the models
    idx = np.array([[1, 2, 3, 1], [0, 1, 2, 3]])
    got = bayesian_mcmc_resamples(R, idx, n_samples=200, burnin=100)
    assert np.array_equal(got[0], np.zeros(3)) and got[1, 0] > got[1, 1] == got[1, 2]


def test_bootstrap_ranks_the_same_as_the_per_resample_loop():
    rng = np.random.default_rng(3)
    R = (rng.random((6, 15, 2)) < rng.random((6, 1, 1))).astype(int)
    batched = bootstrap_ranks(R, ["bayesian_mcmc"], n_boot=6, seed=1)
    looped = bootstrap_ranks(R, ["bayesian_mcmc"], n_boot=6, seed=1, options={"bayesian_mcmc": {"seed": 42}})
    assert np.array_equal(batched.ranks, looped.ranks, equal_nan=True)
