"""Categories a fit never observed are held at the pseudo-count bound (issue 36: rubrics with rare categories).

The Dirichlet-multinomial log marginal likelihood is strictly decreasing in the pseudo-count of a
category with no trial (only the total ``A`` carries it), so the box maximum has it at the lower
bound whatever the others: the Newton iterations hold it there and move the others alone
(:func:`scorio_core.uncertainty.prior_newton.frozen_categories`). Checked here: the frozen step
is the step of the reduced system; rows without frozen categories are bit-identical; the fits
reach the maximum over the free coordinates (scipy's L-BFGS-B from our answer finds nothing
higher), and the survival-sum fits still equal the fits with special functions. Also: the count-state
iterations' skipping of zero counts' special functions gives the same bits.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize

from scorio_core.uncertainty import batch_prior
from scorio_core.uncertainty.batch_prior import _CountStates, _fit_states, fit_dirichlet_prior_batch
from scorio_core.uncertainty.prior_newton import newton_step
from scorio_core.uncertainty.priors import _LOG_ALPHA_BOUNDS, _neg_log_marginal

LO = _LOG_ALPHA_BOUNDS[0]


def _marginal(counts: np.ndarray):
    """One model's answered count rows as ``_neg_log_marginal``'s arguments (distinct rows, frequencies, totals)."""
    rows, freq = np.unique(counts[counts.sum(axis=1) > 0], axis=0, return_counts=True)
    return rows.astype(float), freq.astype(float), rows.sum(axis=1).astype(float)


@settings(max_examples=100, deadline=None)
@given(st.integers(3, 7), st.integers(0, 2**32 - 1), st.booleans())
def test_a_frozen_step_is_the_step_of_the_reduced_system(K, seed, closed_form):
    rng = np.random.default_rng(seed)
    n = 50
    alpha = np.exp(rng.normal(0, 1.5, (n, K)))
    g_a = rng.normal(0, 1, (n, K))
    h_diag = -np.abs(rng.normal(0, 1, (n, K))) / alpha
    h_common = np.abs(rng.normal(0, 0.3, n))
    damping = np.full(n, 1e-3)
    free = rng.random((n, K)) < 0.7
    free[:, 0] = True
    free[: n // 2] = True  # rows without frozen categories
    g_none, step_none, lam_none = newton_step(alpha, g_a, h_common, h_diag, damping, closed_form)
    g, step, lam = newton_step(alpha, g_a, h_common, h_diag, damping, closed_form, free=free)
    whole = free.all(axis=1)
    np.testing.assert_array_equal(step[whole], step_none[whole])  # the same bits where nothing is frozen
    np.testing.assert_array_equal(lam[whole], lam_none[whole])
    assert np.all(step[~free] == 0.0) and np.all(g[~free] == 0.0)
    eye = np.eye(K)
    for i in np.flatnonzero(~whole):
        keep = free[i]
        a, gi = alpha[i, keep], (g_a[i] * alpha[i])[keep]
        neg = -(a[:, None] * (h_common[i] + h_diag[i, keep][:, None] * eye[: keep.sum(), : keep.sum()]) * a[None, :]
                + gi[:, None] * eye[: keep.sum(), : keep.sum()])
        lam_reduced = np.linalg.eigvalsh(neg)[0]
        if abs(lam_reduced) < 1e-6 * np.abs(neg).max():
            continue  # the sign of the smallest eigenvalue is rounding: the shift may differ
        diag = np.abs(np.concatenate([np.diagonal(neg), [1.0]])).max()  # a frozen coordinate's unit diagonal
        shift = max(0.0, -lam_reduced) + 1e-3 * (1.0 + diag)
        want = np.linalg.solve(neg + shift * np.eye(keep.sum()), gi)
        np.testing.assert_allclose(step[i, keep], want, rtol=1e-8, atol=1e-12)


@st.composite
def sparse_counts(draw):
    L = draw(st.integers(1, 5))
    M = draw(st.integers(3, 25))
    K = draw(st.integers(3, 8))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(2, 10))
    probs = rng.dirichlet(np.full(K, rng.uniform(0.2, 3.0)), size=(L, M))
    unobserved = rng.random((L, K)) < 0.4  # categories some models never reach (rare rubric categories)
    unobserved[:, 0] = unobserved[:, -1] = False
    probs = np.where(unobserved[:, None, :], 0.0, probs)
    probs /= probs.sum(axis=2, keepdims=True)
    counts = np.stack([rng.multinomial(n, p) for p in probs.reshape(-1, K)]).reshape(L, M, K)
    return counts


@settings(max_examples=60, deadline=None)
@given(sparse_counts())
def test_unobserved_categories_stay_at_the_bound_and_the_rest_is_the_maximum(counts):
    fit = fit_dirichlet_prior_batch(counts)
    observed = counts.sum(axis=1) > 0
    for l in np.flatnonzero(fit.method == "marginal-likelihood"):
        alpha = fit.alpha[l]
        np.testing.assert_array_equal(alpha[~observed[l]], np.exp(LO))  # at the bound, exactly
        keep = observed[l]
        if (alpha[keep] <= np.exp(LO) * (1 + 1e-9)).any():
            continue  # an observed category on the bound: the U-shaped corner (the restart's case), not this test's
        args = _marginal(counts[l])
        ll = -_neg_log_marginal(np.log(alpha), *args)[0]

        def neg(eta_free, keep=keep, args=args):
            eta = np.full(counts.shape[2], LO)
            eta[keep] = eta_free
            value, grad = _neg_log_marginal(eta, *args)
            return value, grad[keep]

        res = optimize.minimize(neg, np.log(alpha[keep]), jac=True, method="L-BFGS-B",
                                bounds=[_LOG_ALPHA_BOUNDS] * int(keep.sum()))
        # nothing higher from our answer (relative 1e-9, as the fits' own tolerance; toward infinite strength, where
        # the likelihood is flat and the iterations stop on its exponential tail, 1e-7)
        tol = 1e-9 if alpha[keep].max() < 1e4 else 1e-7
        assert -res.fun <= ll + tol * (1.0 + abs(ll)), (l, -res.fun, ll, alpha)


@settings(max_examples=40, deadline=None)
@given(sparse_counts())
def test_survival_fits_equal_the_special_functions_with_frozen_categories(counts):
    got = fit_dirichlet_prior_batch(counts)
    want = _fit_states(_CountStates.of(counts), exact=True)
    np.testing.assert_array_equal(got.method, want.method)
    fitted = got.method == "marginal-likelihood"
    n = counts.sum(axis=2).max(axis=1)[fitted].astype(float)
    a_got, a_want = got.alpha[fitted], want.alpha[fitted]
    for avg in (0.0, 1.0):  # every category's Bayes@n for an observed mean of 0 and of 1, within 1e-9
        s_got = (a_got + (n * avg)[:, None]) / (a_got.sum(axis=1) + n)[:, None]
        s_want = (a_want + (n * avg)[:, None]) / (a_want.sum(axis=1) + n)[:, None]
        np.testing.assert_allclose(s_got, s_want, rtol=0, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(sparse_counts())
def test_skipping_zero_counts_gives_the_same_bits(counts):
    # the count-state iterations evaluate special functions only where a count is positive (batch_prior.
    # _positive_counts): a zero count's terms equal the model's own, so the likelihood and the fits are bit-identical
    st_ = _CountStates.of(counts)
    L, K = counts.shape[0], counts.shape[2]
    alpha = np.exp(np.random.default_rng(0).normal(0.0, 1.0, (L, K)))
    cols = batch_prior._positive_counts(st_.rows)
    np.testing.assert_array_equal(batch_prior._loglik(alpha, st_.model, st_.rows, st_.freq, L, None, cols),
                                  batch_prior._loglik(alpha, st_.model, st_.rows, st_.freq, L))
    eta0 = np.log(alpha)
    skipped = batch_prior._fit_exact(st_.model, st_.rows, st_.freq, eta0.copy())
    original = batch_prior._positive_counts
    batch_prior._positive_counts = lambda rows: None  # every special function evaluated
    try:
        full = batch_prior._fit_exact(st_.model, st_.rows, st_.freq, eta0.copy())
    finally:
        batch_prior._positive_counts = original
    np.testing.assert_array_equal(skipped, full)
