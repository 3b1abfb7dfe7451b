"""Trials needed with power (issue 13): n_power separates fresh runs with the stated probability."""

from __future__ import annotations

import numpy as np
import pytest

from scorio_core.eval.batch import bayes_batch
from scorio_core.ranking.separation import trials_needed

W = np.array([0.0, 1.0])


def _separation_rate(p_a, p_b, n, reps, rng, z_threshold=1.6448536269514722):
    """Fraction of fresh runs with N = n trials per question whose Bayes@N z reaches the threshold."""
    k_a = rng.binomial(n, p_a, size=(reps, p_a.size))
    k_b = rng.binomial(n, p_b, size=(reps, p_b.size))
    mu_a, s_a = bayes_batch(np.stack([n - k_a, k_a], axis=-1), W)
    mu_b, s_b = bayes_batch(np.stack([n - k_b, k_b], axis=-1), W)
    z = (mu_a - mu_b) / np.sqrt(s_a**2 + s_b**2)
    return float(np.mean(z >= z_threshold))


def test_power_is_measured_by_simulation():
    rng = np.random.default_rng(11)
    m = 40
    p_b = rng.beta(3, 3, m)
    p_a = np.clip(p_b + 0.04, 0, 1)
    big = 4000  # observed run with many trials: posterior-mean rates close to the truth
    k_a, k_b = rng.binomial(big, p_a), rng.binomial(big, p_b)
    res = trials_needed(np.stack([big - k_a, k_a], 1), np.stack([big - k_b, k_b], 1))
    assert res.n_needed < res.n_power
    power = _separation_rate(p_a, p_b, res.n_power, 2000, rng)
    plug_in = _separation_rate(p_a, p_b, res.n_needed, 2000, rng)
    assert 0.76 <= power <= 0.86  # target 0.8
    assert 0.44 <= plug_in <= 0.60  # the plug-in N has about 50% power


def test_range_brackets_the_point_and_errors():
    a = [[20, 60]] * 30
    b = [[24, 56]] * 30
    res = trials_needed(a, b, power=0.9, range_level=0.5)
    lo, hi = res.n_power_range
    assert lo <= res.n_power <= hi and res.power == 0.9
    same = trials_needed(a, a)
    assert same.n_power is None and same.n_power_range == (None, None)
    with pytest.raises(ValueError, match="power"):
        trials_needed(a, b, power=1.0)
    with pytest.raises(ValueError, match="range_level"):
        trials_needed(a, b, range_level=0.0)


def test_tiny_observed_gap_has_open_upper_end():
    # z_observed ~ 0.3: the 80% interval of the difference includes 0, so no finite upper N
    a = [[40, 40]] * 10
    b = [[41, 39]] * 10
    res = trials_needed(a, b)
    assert res.n_power_range[1] is None and res.n_power is not None
