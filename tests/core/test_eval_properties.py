"""Property tests (hypothesis) for the evaluation API: invariances, bounds, brute force."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorio_core import eval as ev

settings.register_profile("scorio", max_examples=60, deadline=None)
settings.load_profile("scorio")


@st.composite
def binary_matrix(draw, max_m=6, max_n=7):
    m = draw(st.integers(1, max_m))
    n = draw(st.integers(1, max_n))
    return draw(arrays(np.int64, (m, n), elements=st.integers(0, 1)))


@st.composite
def categorical_case(draw, max_m=5, max_n=6, max_c=4):
    c = draw(st.integers(1, max_c))
    m = draw(st.integers(1, max_m))
    n = draw(st.integers(1, max_n))
    R = draw(arrays(np.int64, (m, n), elements=st.integers(0, c)))
    w = draw(arrays(np.float64, (c + 1,), elements=st.floats(-3, 3, allow_nan=False)))
    return R, w


BINARY_POINT = {
    "pass_at_k": lambda R, k: ev.pass_at_k(R, k),
    "pass_hat_k": lambda R, k: ev.pass_hat_k(R, k),
    "maj_at_k": lambda R, k: ev.maj_at_k(R, k),
    "mg_pass_at_k": lambda R, k: ev.mg_pass_at_k(R, k),
    "auc_at_k": lambda R, k: ev.auc_at_k(R, k),
    "g_pass_at_k_tau(0.5)": lambda R, k: ev.g_pass_at_k_tau(R, k, 0.5),
    "geom_at_k": lambda R, k: ev.geom_at_k(R, k),
}


def _subset_mean(row, k, credit):
    """Brute force: average credit over all k-subsets of a row's trials."""
    return np.mean([credit(sum(s)) for s in itertools.combinations(row, k)])


BRUTE = {
    "pass_at_k": lambda row, k: _subset_mean(row, k, lambda j: j >= 1),
    "pass_hat_k": lambda row, k: _subset_mean(row, k, lambda j: j == k),
    "maj_at_k": lambda row, k: _subset_mean(row, k, lambda j: j >= k // 2 + 1),
    "mg_pass_at_k": lambda row, k: _subset_mean(row, k, lambda j: (2 / k) * max(j - math.ceil(k / 2), 0)),
    "g_pass_at_k_tau(0.5)": lambda row, k: _subset_mean(row, k, lambda j: j >= max(1, math.ceil(0.5 * k))),
    "auc_at_k": lambda row, k: (
        _subset_mean(row, 1, lambda j: j >= 1)
        if k == 1
        else sum(
            (0.5 if b in (1, k) else 1.0) / (k - 1) * _subset_mean(row, b, lambda j: j >= 1) for b in range(1, k + 1)
        )
    ),
}


@pytest.mark.parametrize("name", list(BRUTE))
@given(R=binary_matrix(), data=st.data())
def test_binary_metrics_equal_subset_enumeration(name, R, data):
    k = data.draw(st.integers(1, R.shape[1]))
    expected = np.mean([BRUTE[name](row, k) for row in R])
    assert BINARY_POINT[name](R, k) == pytest.approx(expected, abs=1e-12)


@given(case=categorical_case(), data=st.data())
def test_max_at_k_equals_subset_enumeration(case, data):
    R, w = case
    k = data.draw(st.integers(1, R.shape[1]))
    expected = np.mean([np.mean([max(w[list(s)]) for s in itertools.combinations(row, k)]) for row in R])
    assert ev.max_at_k(R, k, w) == pytest.approx(expected, abs=1e-12)


def _bayes_eq15(R, w, R0=None):
    """Algorithm 1 of the paper, written with explicit loops (slow, obviously right)."""
    M, N = R.shape
    C = len(w) - 1
    D = 0 if R0 is None else R0.shape[1]
    T = 1 + C + D + N
    mu_sum, var_sum = 0.0, 0.0
    for a in range(M):
        nu = [1 + sum(R[a] == j) + (0 if R0 is None else sum(R0[a] == j)) for j in range(C + 1)]
        first = sum(nu[j] / T * (w[j] - w[0]) for j in range(C + 1))
        second = sum(nu[j] / T * (w[j] - w[0]) ** 2 for j in range(C + 1))
        mu_sum += first
        var_sum += second - first**2
    return w[0] + mu_sum / M, math.sqrt(max(var_sum, 0.0) / (M * M * (T + 1)))


@given(case=categorical_case(), d=st.integers(0, 3), data=st.data())
def test_bayes_equals_algorithm_1(case, d, data):
    R, w = case
    R0 = data.draw(arrays(np.int64, (R.shape[0], d), elements=st.integers(0, len(w) - 1))) if d else None
    mu, sigma = ev.bayes(R, w, R0)
    mu_ref, sigma_ref = _bayes_eq15(R, w, R0)
    assert mu == pytest.approx(mu_ref, abs=1e-12)
    assert sigma == pytest.approx(sigma_ref, abs=1e-12)


@given(R=binary_matrix(max_m=8, max_n=10), data=st.data())
def test_question_and_trial_order_invariance(R, data):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31)))
    shuffled = R[rng.permutation(R.shape[0])][:, rng.permutation(R.shape[1])]
    k = data.draw(st.integers(1, R.shape[1]))
    for fn in (ev.pass_at_k, ev.pass_hat_k, ev.mg_pass_at_k, ev.maj_at_k, ev.auc_at_k):
        assert fn(shuffled, k) == pytest.approx(fn(R, k), abs=1e-14)
    assert ev.bayes_ci(shuffled) == pytest.approx(ev.bayes_ci(R), abs=1e-14)
    assert ev.pass_at_k_ci(shuffled, k) == pytest.approx(ev.pass_at_k_ci(R, k), abs=1e-14)
    # row-wise trial shuffles (each question independently) too
    rowwise = np.array([row[rng.permutation(row.size)] for row in R])
    assert ev.mg_pass_at_k_ci(rowwise, k) == pytest.approx(ev.mg_pass_at_k_ci(R, k), abs=1e-14)


@given(R=binary_matrix(max_m=8, max_n=10))
def test_pass_at_1_is_avg_and_monotone_in_k(R):
    a = ev.avg(R)[0]
    for fn in (ev.pass_at_k, ev.pass_hat_k, ev.maj_at_k, ev.auc_at_k):
        assert fn(R, 1) == pytest.approx(a, abs=1e-14)
    n = R.shape[1]
    passes = [ev.pass_at_k(R, k) for k in range(1, n + 1)]
    hats = [ev.pass_hat_k(R, k) for k in range(1, n + 1)]
    assert all(x <= y + 1e-14 for x, y in zip(passes, passes[1:]))
    assert all(x >= y - 1e-14 for x, y in zip(hats, hats[1:]))
    assert all(0.0 <= h <= p <= 1.0 for h, p in zip(hats, passes))


@given(R=binary_matrix(max_m=8, max_n=10), data=st.data())
def test_g_pass_is_monotone_in_tau(R, data):
    k = data.draw(st.integers(1, R.shape[1]))
    taus = np.linspace(0, 1, 11)
    values = [ev.g_pass_at_k_tau(R, k, float(t)) for t in taus]
    assert all(x >= y - 1e-14 for x, y in zip(values, values[1:]))
    assert values[0] == pytest.approx(ev.pass_at_k(R, k))
    assert values[-1] == pytest.approx(ev.pass_hat_k(R, k))


CI_FUNCS = {
    "bayes_ci": lambda R, k: ev.bayes_ci(R, bounds=None),
    "avg_ci": lambda R, k: ev.avg_ci(R),
    "pass_at_k_ci": lambda R, k: ev.pass_at_k_ci(R, k, bounds=None),
    "pass_hat_k_ci": lambda R, k: ev.pass_hat_k_ci(R, k, bounds=None),
    "mg_pass_at_k_ci": lambda R, k: ev.mg_pass_at_k_ci(R, k, bounds=None),
    "auc_at_k_ci": lambda R, k: ev.auc_at_k_ci(R, k, bounds=None),
    "max_at_k_ci": lambda R, k: ev.max_at_k_ci(R, k, bounds=(-10.0, 10.0)),
    "geom_at_k_ci": lambda R, k: ev.geom_at_k_ci(R, k, bounds=None),
}


@pytest.mark.parametrize("name", list(CI_FUNCS))
@given(R=binary_matrix(max_m=8, max_n=10), data=st.data())
def test_interval_contains_mean_and_width_grows_with_confidence(name, R, data):
    k = data.draw(st.integers(1, R.shape[1]))
    mu, sigma, lo, hi = CI_FUNCS[name](R, k)
    assert sigma >= 0.0
    assert lo <= mu <= hi
    assert hi - lo == pytest.approx(2 * 1.959963984540054 * sigma, rel=1e-9, abs=1e-15)
    assert 0.0 <= mu <= 1.0 + 1e-12


@given(R=binary_matrix(max_m=8, max_n=10))
def test_posterior_means_lie_in_unit_interval_with_bounds(R):
    for k in (1, R.shape[1]):
        for fn in (ev.pass_at_k_ci, ev.pass_hat_k_ci, ev.maj_at_k_ci, ev.g_pass_at_k_ci):
            mu, sigma, lo, hi = fn(R, k)
            assert 0.0 <= lo <= mu <= hi <= 1.0


@given(case=categorical_case(max_m=6, max_n=6))
def test_counts_api_equals_matrix_api(case):
    R, w = case
    counts, weights = ev.CategoryCounts.from_matrix(R, w)
    assert ev.bayes(counts, weights) == ev.bayes(R, w)
    assert ev.avg(counts, weights) == ev.avg(R, w)
    assert ev.max_at_k_ci(counts, 2, weights) == ev.max_at_k_ci(R, 2, w)


@given(R=binary_matrix(max_m=6, max_n=8), data=st.data())
def test_binary_counts_api_equals_matrix_api(R, data):
    k = data.draw(st.integers(1, R.shape[1]))
    counts = ev.BinaryCounts(R.sum(axis=1), np.full(R.shape[0], R.shape[1]))
    for fn in (ev.pass_at_k, ev.pass_hat_k, ev.mg_pass_at_k, ev.geom_at_k):
        assert fn(counts, k) == fn(R, k)
    assert ev.g_pass_at_k_tau_ci(counts, k, 0.5) == ev.g_pass_at_k_tau_ci(R, k, 0.5)
    assert ev.bayes(counts) == ev.bayes(R)


@st.composite
def ragged_counts(draw):
    m = draw(st.integers(1, 6))
    n = draw(arrays(np.int64, (m,), elements=st.integers(1, 9)))
    c = np.array([draw(st.integers(0, int(x))) for x in n])
    return c, n


@given(rc=ragged_counts())
def test_ragged_rows_average_per_question_results(rc):
    # extension: each question keeps its own N (Bayes@N: T_a = 1 + C + N_a)
    c, n = rc
    counts = ev.BinaryCounts(c, n)
    singles = [ev.bayes(np.array([[1] * int(ci) + [0] * int(ni - ci)])) for ci, ni in zip(c, n)]
    mu, sigma = ev.bayes(counts)
    m = len(c)
    assert mu == pytest.approx(np.mean([s[0] for s in singles]), abs=1e-14)
    assert sigma == pytest.approx(math.sqrt(sum(s[1] ** 2 for s in singles)) / m, rel=1e-12)
    k = int(n.min())
    singles_pass = [ev.pass_at_k(np.array([[1] * int(ci) + [0] * int(ni - ci)]), k) for ci, ni in zip(c, n)]
    assert ev.pass_at_k(counts, k) == pytest.approx(np.mean(singles_pass), abs=1e-14)
    a = ev.avg(counts)[0]
    assert a == pytest.approx(np.mean(c / n), abs=1e-14)


def test_bayes_sigma_matches_dirichlet_monte_carlo():
    # Eq. 15 is exact: compare with 400k posterior draws (4 standard errors)
    rng = np.random.default_rng(7)
    R = np.array([[0, 1, 2, 2, 1, 0], [1, 1, 0, 2, 2, 2], [2, 2, 2, 1, 0, 2]])
    w = np.array([-0.5, 0.25, 1.0])
    mu, sigma = ev.bayes(R, w)
    counts = np.stack([np.bincount(r, minlength=3) for r in R]) + 1
    draws = np.stack([rng.dirichlet(c, size=400_000) @ w for c in counts]).mean(axis=0)
    assert abs(draws.mean() - mu) < 4 * sigma / math.sqrt(draws.size)
    assert draws.std() == pytest.approx(sigma, rel=0.01)


def test_max_at_k_ci_matches_dirichlet_monte_carlo():
    # the closed-form Max@k posterior (grouped Dirichlet) against sampling pi, then E[max of k draws | pi]
    rng = np.random.default_rng(11)
    R = np.array([[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]])
    w = np.array([0.0, 0.5, 1.0])
    k = 3
    mu, sigma, _, _ = ev.max_at_k_ci(R, k, w)
    counts = np.stack([np.bincount(r, minlength=3) for r in R]) + 1
    per_question = []
    for c in counts:
        pi = rng.dirichlet(c, size=300_000)
        cdf = np.cumsum(pi, axis=1)  # P(reward <= w_l)
        per_question.append(w[-1] - (cdf[:, :-1] ** k) @ np.diff(w))
    g = np.mean(per_question, axis=0)
    assert abs(g.mean() - mu) < 4 * sigma / math.sqrt(g.size)
    assert g.std() == pytest.approx(sigma, rel=0.01)


def test_pass_at_k_ci_matches_beta_monte_carlo():
    rng = np.random.default_rng(3)
    R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1], [0, 0, 0, 1, 0]])
    k = 3
    mu, sigma, _, _ = ev.pass_at_k_ci(R, k)
    c, n = R.sum(axis=1), R.shape[1]
    p = rng.beta(1 + c, 1 + n - c, size=(500_000, 3))
    g = (1 - (1 - p) ** k).mean(axis=1)
    assert abs(g.mean() - mu) < 4 * sigma / math.sqrt(g.size)
    assert g.std() == pytest.approx(sigma, rel=0.01)
