"""Numerical precision of the Beta-posterior kernels against 60-digit arithmetic (mpmath).

Where our sigma and the reference's differ by more than 1e-12 (tiny variances with means
near 1), these tests show ours is the accurate one: exact to ~1e-13 relative, while the
reference's raw-moment variance ``E[g^2] - E[g]^2`` keeps about 6-7 digits.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

from scorio_core import eval as ev

mp.mp.dps = 60


def _exact_threshold_moments(c: int, n: int, k: int, t: int, a0: float = 1.0, b0: float = 1.0):
    """Exact mean/sd of P(Binom(k, p) >= t) under p ~ Beta(a0 + c, b0 + n - c)."""
    a, b = mp.mpf(a0 + c), mp.mpf(b0 + n - c)

    def beta_binomial(j: int, d: int):
        return mp.binomial(d, j) * mp.beta(a + j, b + d - j) / mp.beta(a, b)

    g = [1 if j >= t else 0 for j in range(k + 1)]
    mean = sum(g[j] * beta_binomial(j, k) for j in range(k + 1))
    second = 0
    for total in range(2 * k + 1):
        coeff = sum(
            mp.binomial(k, j) * mp.binomial(k, total - j) / mp.binomial(2 * k, total) * g[j] * g[total - j]
            for j in range(max(0, total - k), min(k, total) + 1)
        )
        second += coeff * beta_binomial(total, 2 * k)
    return mean, mp.sqrt(second - mean**2)


@pytest.mark.parametrize(("m", "n", "k"), [(1, 40, 40), (1, 80, 61), (3, 60, 20), (2, 30, 7)])
def test_maj_at_k_ci_sigma_exact_for_all_correct_rows(m, n, k):
    R = np.ones((m, n), dtype=int)
    mean, sd = _exact_threshold_moments(n, n, k, k // 2 + 1)
    mu, sigma, _, _ = ev.maj_at_k_ci(R, k)
    assert math.isclose(mu, float(mean), rel_tol=1e-13)
    assert math.isclose(sigma, float(sd / mp.sqrt(m)), rel_tol=1e-11)


@pytest.mark.parametrize(("c", "n", "k", "tau"), [(20, 20, 12, 0.6), (7, 10, 5, 0.4), (0, 12, 12, 0.25)])
def test_g_pass_at_k_tau_ci_exact(c, n, k, tau):
    R = np.array([[1] * c + [0] * (n - c)])
    threshold = max(1, math.ceil(round(tau * k, 12)))
    mean, sd = _exact_threshold_moments(c, n, k, threshold)
    mu, sigma, _, _ = ev.g_pass_at_k_tau_ci(R, k, tau)
    assert math.isclose(mu, float(mean), rel_tol=1e-12, abs_tol=1e-300)
    assert math.isclose(sigma, float(sd), rel_tol=1e-10, abs_tol=1e-300)


def test_pass_at_k_ci_tiny_variance_exact():
    # all 100 trials correct, k = 100: Var[(1-p)^100] under Beta(101, 1) is ~1e-60
    R = np.ones((1, 100), dtype=int)
    a, b = mp.mpf(101), mp.mpf(1)
    m1 = mp.beta(b + 100, a) / mp.beta(b, a)
    m2 = mp.beta(b + 200, a) / mp.beta(b, a)
    mu, sigma, _, _ = ev.pass_at_k_ci(R, 100)
    assert mu == 1.0 - float(m1)  # 1 - 5.5e-60 rounds to 1.0 in float64
    assert math.isclose(sigma, float(mp.sqrt(m2 - m1**2)), rel_tol=1e-10)
