"""Pass@k intervals under the empirical-Bayes prior: coverage measured by simulation (issue 13).

The paper's uniform Beta(1, 1) prior covers the questions-fixed Pass@4 of a hard benchmark in
0% of replications; the fitted prior with its hyperparameter uncertainty is measured here on a
sample of cells (full table: benchmarks/bench_calibration.py, docs/metrics.md).
"""

from __future__ import annotations

import numpy as np
import pytest

from scorio_core import eval as ev
from scorio_core.leaderboard.metrics import beta_prior, get_metric


def _coverage(a, b, m, n, prior, reps=150, seed=3):
    rng = np.random.default_rng([seed, m, n])
    p = rng.beta(a, b, m)
    target = float(np.mean(1.0 - (1.0 - p) ** 4))
    spec = get_metric("pass@k")
    hits = 0
    for _ in range(reps):
        v = spec.compute(ev.BinaryCounts(rng.binomial(n, p), np.full(m, n)), w=np.array([0.0, 1.0]), k=4, prior=prior)
        hits += v.lo <= target <= v.hi
    return hits / reps


@pytest.mark.parametrize(("a", "b", "m", "n"), [(0.5, 4.5, 30, 4), (0.5, 0.5, 300, 16), (4.0, 1.0, 300, 4)])
def test_empirical_bayes_pass_at_k_covers(a, b, m, n):
    assert _coverage(a, b, m, n, "empirical-bayes") >= 0.88


def test_uniform_pass_at_k_misses_on_a_hard_benchmark():
    assert _coverage(0.5, 4.5, 300, 4, "uniform", reps=60) < 0.05


def test_fixed_priors_are_the_reference_betas():
    counts = ev.BinaryCounts([1, 2], [4, 4])
    assert beta_prior(counts, "uniform") == (1.0, 1.0, "")
    assert beta_prior(counts, "jeffreys") == (0.5, 0.5, "")
    spec = get_metric("pass@k")
    v = spec.compute(counts, w=np.array([0.0, 1.0]), k=2, prior="uniform")
    assert (v.mu, v.sigma, v.lo, v.hi) == pytest.approx(ev.pass_at_k_ci(counts, 2), abs=1e-15)
    j = spec.compute(counts, w=np.array([0.0, 1.0]), k=2, prior="jeffreys")
    assert (j.mu, j.sigma, j.lo, j.hi) == pytest.approx(ev.pass_at_k_ci(counts, 2, alpha0=0.5, beta0=0.5), abs=1e-15)
