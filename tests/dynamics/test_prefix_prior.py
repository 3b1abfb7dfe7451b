"""Empirical-Bayes prefix fits from survival counts equal the fits on the count states (issue 36 speed).

:func:`fit_prefix_priors` and the survival-sum Newton iterations behind
:func:`fit_dirichlet_prior_batch` must give the values of the iterations on the distinct count
rows with special functions (``_fit_states(..., exact=True)``, the pre-survival code path): the
same Bayes@n to 1e-9, the same fallbacks, and a log marginal likelihood at least as high.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import digamma, gammaln, polygamma

from scorio_core.dynamics.priors import prefix_states, pseudo_counts
from scorio_core.uncertainty.batch_prior import _CountStates, _fit_states, _loglik, fit_dirichlet_prior_batch
from scorio_core.uncertainty.prefix_prior import distinct_fits, fit_prefix_priors
from scorio_core.uncertainty.prior_newton import _positive_definite, newton_step
from scorio_core.uncertainty.survival_prior import SurvivalTerms

TOL = 1e-9


def _loglik_counts(counts: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """Dirichlet-multinomial log marginal likelihood (alpha-dependent part) per fit: counts (F, M, K), alpha (F, K)."""
    c = counts.astype(float)
    a = alpha[:, None, :]
    A = a.sum(axis=2)
    t = c.sum(axis=2)
    per = (gammaln(c + a) - gammaln(a)).sum(axis=2) - (gammaln(t + A) - gammaln(A))
    return np.where(t > 0, per, 0.0).sum(axis=1)


def _assert_same_fits(got, want, counts: np.ndarray) -> None:
    """Same methods; pseudo-counts giving Bayes@n within 1e-9; log-likelihood at least as high (relative 1e-9)."""
    np.testing.assert_array_equal(got.method, want.method)
    np.testing.assert_array_equal(got.pooled, want.pooled)
    M = counts.shape[1]
    a_got, a_want = pseudo_counts(got, M), pseudo_counts(want, M)
    n = counts.sum(axis=2).max(axis=1).astype(float)  # trials per question (complete prefixes)
    for w in np.eye(counts.shape[2]):  # Bayes@n of each category's indicator, for an observed mean of 0 and of 1
        for avg in (0.0, 1.0):
            s_got = (a_got @ w + n * avg) / (a_got.sum(axis=1) + n)
            s_want = (a_want @ w + n * avg) / (a_want.sum(axis=1) + n)
            np.testing.assert_allclose(s_got, s_want, rtol=0, atol=TOL)
    fitted = ~want.pooled
    if fitted.any():
        ll_got = _loglik_counts(counts[fitted], got.alpha[fitted])
        ll_want = _loglik_counts(counts[fitted], want.alpha[fitted])
        assert np.all(ll_got >= ll_want - TOL * np.abs(ll_want)), (ll_got, ll_want)


@st.composite
def prefix_codes(draw):
    B = draw(st.integers(1, 3))
    N = draw(st.integers(1, 6))
    L = draw(st.integers(1, 4))
    M = draw(st.integers(1, 6))
    K = draw(st.integers(2, 6))  # K > 3: prior_newton's rank-one definiteness test
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    probs = rng.dirichlet(np.full(K, rng.uniform(0.2, 3.0)), size=(L, M))  # per-question category probabilities
    u = rng.random((B, N, L, M, 1))
    codes = (u > np.cumsum(probs, axis=2)[None, None]).sum(axis=4).astype(np.uint8)
    kind = draw(st.sampled_from(["plain", "all-correct", "all-wrong", "u-shaped"]))
    if kind == "all-correct":
        codes[:, :, 0] = K - 1
    elif kind == "all-wrong":
        codes[:, :, 0] = 0
    elif kind == "u-shaped":  # questions all right or all wrong: the likelihood's corner and inner maxima
        codes[:, :, 0] = np.where(rng.random(M) < 0.5, 0, K - 1).astype(np.uint8)
    init = None
    if draw(st.booleans()):
        init = np.exp(rng.normal(0.0, 2.0, (B * N * L, K)))
        init[rng.random(B * N * L) < 0.2] = np.nan  # rows that start from the default
    return codes, K, init


@settings(max_examples=60, deadline=None)
@given(prefix_codes())
def test_prefix_fit_equals_the_fit_on_count_states(case):
    codes, K, init = case
    B, N, L, M = codes.shape
    got = fit_prefix_priors(codes, K, init)
    want = _fit_states(prefix_states(codes, K), init, exact=True)
    counts = np.cumsum(codes[..., None] == np.arange(K), axis=1).reshape(B * N * L, M, K)
    _assert_same_fits(got, want, counts)


@st.composite
def count_tensors(draw):
    L = draw(st.integers(1, 6))
    M = draw(st.integers(1, 8))
    K = draw(st.integers(2, 6))  # K > 3: prior_newton's rank-one definiteness test
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = rng.integers(1, draw(st.integers(1, 12)) + 1, (L, M))
    if draw(st.booleans()):
        n[:] = n.max()  # complete block
    probs = rng.dirichlet(np.full(K, rng.uniform(0.2, 3.0)), size=(L, M))
    counts = np.stack([rng.multinomial(n[i, j], probs[i, j]) for i in range(L) for j in range(M)]).reshape(L, M, K)
    if draw(st.booleans()):
        counts[rng.random((L, M)) < 0.3] = 0  # unanswered cells (ragged totals)
    return counts


@settings(max_examples=60, deadline=None)
@given(count_tensors())
def test_batch_fit_by_survival_sums_equals_the_fit_with_special_functions(counts):
    st_ = _CountStates.of(counts)
    got = fit_dirichlet_prior_batch(counts)
    want = _fit_states(st_, exact=True)
    np.testing.assert_array_equal(got.method, want.method)
    answered = counts.sum(axis=(1, 2)) > 0
    a_got = pseudo_counts(got, counts.shape[1])[answered]
    a_want = pseudo_counts(want, counts.shape[1])[answered]
    c = counts[answered].astype(float)
    # every question's posterior mean of every category (Bayes@N per question) within 1e-9
    with np.errstate(invalid="ignore"):  # unanswered questions of the N = 1 fallback (no pseudo-counts): 0 / 0 in both
        post_got = (a_got[:, None, :] + c) / (a_got.sum(axis=1)[:, None, None] + c.sum(axis=2, keepdims=True))
        post_want = (a_want[:, None, :] + c) / (a_want.sum(axis=1)[:, None, None] + c.sum(axis=2, keepdims=True))
    np.testing.assert_allclose(post_got, post_want, rtol=0, atol=TOL)
    fitted = ~want.pooled[answered]
    if fitted.any():
        idx = np.flatnonzero(answered)[fitted]
        ll_got, ll_want = _loglik_counts(counts[idx], got.alpha[idx]), _loglik_counts(counts[idx], want.alpha[idx])
        assert np.all(ll_got >= ll_want - TOL * np.abs(ll_want))


@settings(max_examples=40, deadline=None)
@given(count_tensors(), st.integers(0, 2**32 - 1))
def test_survival_sums_equal_the_special_functions(counts, seed):
    st_ = _CountStates.of(counts)
    if st_.model.size == 0:
        return
    L, K = counts.shape[0], counts.shape[2]
    alpha = np.exp(np.random.default_rng(seed).uniform(np.log(1e-3), np.log(1e4), (L, K)))
    terms = SurvivalTerms.from_states(st_.model, st_.rows, st_.freq, L, force=True)
    ll, g_a, h_common, h_diag = terms.evaluate(alpha, np.arange(L))
    want = _loglik(alpha, st_.model, st_.rows, st_.freq, L)
    np.testing.assert_allclose(ll, want, rtol=1e-10, atol=1e-8)
    A = alpha.sum(axis=1)[st_.model]
    g_common = st_.total(digamma(A) - digamma(A + st_.n))
    h_want = st_.total(polygamma(1, A) - polygamma(1, A + st_.n))
    np.testing.assert_allclose(h_common, h_want, rtol=1e-8, atol=1e-8)
    for j in range(K):
        a_j = alpha[st_.model, j]
        g_want = g_common + st_.total(digamma(st_.rows[:, j] + a_j) - digamma(a_j))
        np.testing.assert_allclose(g_a[:, j], g_want, rtol=1e-8, atol=1e-6)
        hd_want = st_.total(polygamma(1, st_.rows[:, j] + a_j) - polygamma(1, a_j))
        np.testing.assert_allclose(h_diag[:, j], hd_want, rtol=1e-8, atol=1e-6)


@settings(max_examples=40, deadline=None)
@given(prefix_codes())
def test_identical_fits_are_solved_once_with_the_same_result(case):
    # replicates that repeat (the same trials drawn) give identical fits: solved once, the result equal to solving
    # every copy (distinct_fits switched off)
    import scorio_core.uncertainty.prefix_prior as pp

    codes, K, init = case
    B, N, L, _M = codes.shape
    codes = np.concatenate([codes, codes[::-1], codes])  # repeated replicates: many identical fits
    if init is not None:
        per_b = init.reshape(B, N * L, K)
        init = np.concatenate([per_b, per_b[::-1], per_b]).reshape(-1, K)
    got = fit_prefix_priors(codes, K, init)
    original = pp.distinct_fits
    pp.distinct_fits = lambda S, idx, eta0: (np.arange(idx.size), np.arange(idx.size))
    try:
        want = fit_prefix_priors(codes, K, init)
    finally:
        pp.distinct_fits = original
    np.testing.assert_array_equal(got.method, want.method)
    # equal to the damped Newton's tolerance, not bit for bit: a fit on the likelihood's ridge (large alpha, flat
    # likelihood) solved among other fits can stop one damped step apart (7.2e-9 relative seen, a fresh clone's
    # `make test` 2026-11-30 on alpha ~ 83-150), far below what moves a posterior mean
    np.testing.assert_allclose(got.alpha, want.alpha, rtol=1e-8, atol=0)


def test_distinct_fits_groups_exactly():
    rng = np.random.default_rng(7)
    S = rng.integers(0, 3, (2, 40, 5)).astype(np.int32)
    S[:, 20:] = S[:, :20]  # fits 20-39 repeat 0-19
    eta0 = np.zeros((40, 2))
    eta0[39] = 1.0  # ... except the last, whose start differs
    idx = np.arange(40)
    first, inverse = distinct_fits(S, idx, eta0)
    rep = first[inverse]
    assert first.size == len({(tuple(S[:, i].ravel()), tuple(eta0[i])) for i in range(40)}) == 21
    assert np.array_equal(S[:, idx[rep]], S[:, idx]) and np.array_equal(eta0[rep], eta0)
    first, inverse = distinct_fits(S, idx[:1], eta0[:1])
    assert first.tolist() == [0] and inverse.tolist() == [0]


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 7), st.integers(0, 2**32 - 1))
def test_definiteness_test_agrees_with_the_eigenvalues(K, seed):
    # the negated eta-Hessian diag(delta) - c a a^T: positive definite exactly where LAPACK's smallest eigenvalue is
    # clearly positive (away from rounding), and never claimed where it is clearly negative
    rng = np.random.default_rng(seed)
    n = 400
    alpha = np.exp(rng.normal(0, 2, (n, K)))
    g = rng.normal(0, 1, (n, K)) * rng.choice([1e-3, 1.0, 10.0], (n, 1))
    h_diag = -np.abs(rng.normal(0, 1, (n, K))) / alpha * rng.choice([0.1, 1.0], (n, 1))
    h_common = rng.normal(0, 1, n) * rng.choice([0.01, 0.1, 1.0], n)
    eye = np.eye(K)
    neg = -(alpha[:, :, None] * (h_common[:, None, None] + h_diag[:, :, None] * eye) * alpha[:, None, :]
            + g[:, :, None] * eye)
    lam = np.linalg.eigvalsh(neg)[:, 0]
    scale = np.abs(neg).max(axis=(1, 2))
    pd = _positive_definite(alpha, g, h_common, h_diag)
    delta = -(alpha**2 * h_diag + g)
    clear = np.abs(lam) > 1e-8 * scale
    assert np.all(~pd[clear & (lam < 0)])  # never positive definite where an eigenvalue is negative
    # positive definite with a positive diagonal part: the test says so
    assert np.all(pd[clear & (lam > 0) & (delta > 0).all(axis=1)])
    assert 0 < pd.sum() < n  # both outcomes occur
    # newton_step's steps and signs with the test equal LAPACK's eigenvalues where the matrix is clearly definite
    damping = np.full(n, 1e-3)
    g_a = g / alpha
    _, step_fast, lam_fast = newton_step(alpha, g_a, h_common, h_diag, damping, closed_form=True)
    _, step_ref, lam_ref = newton_step(alpha, g_a, h_common, h_diag, damping)
    np.testing.assert_array_equal((lam_fast > 0)[clear], (lam_ref > 0)[clear])
    both = clear & (lam_ref > 0)
    if K > 3:
        np.testing.assert_array_equal(step_fast[both], step_ref[both])  # the same LAPACK solve: the same bits
