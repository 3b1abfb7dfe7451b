r"""Posterior summaries for many models at once (leaderboards of 10^5 models).

The empirical-Bayes priors come from :func:`fit_dirichlet_prior_batch`
(:mod:`scorio_core.uncertainty.batch_prior`, re-exported here); :func:`posterior_summary_batch` is
:func:`scorio_core.uncertainty.posterior_summary` for an ``(L, M, C+1)`` count tensor, with
the same formulas, fallbacks and intervals, and no Python loop over models or questions.
Cross-checked against the per-model functions in ``tests/core/test_uncertainty_batch.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from scorio_core.eval.bayes import scaled_weights
from scorio_core.uncertainty.batch_prior import BatchPrior, _CountStates, _fit_states, fit_dirichlet_prior_batch
from scorio_core.uncertainty.posterior import _beta_ppf, check_scope
from scorio_core.uncertainty.priors import check_prior

__all__ = ["BatchPrior", "BatchSummary", "clipped_normal_interval", "fit_dirichlet_prior_batch", "posterior_shares",
           "posterior_summary_batch"]


@dataclass(frozen=True, eq=False)
class BatchSummary:
    """Posterior summaries of L models (NaN for a model without answered questions)."""

    mu: np.ndarray
    sigma: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    method: np.ndarray


def _sum_last(x: np.ndarray) -> np.ndarray:
    """``x.sum(axis=-1)`` by adding the slices (a reduction over a length-2..4 axis is ~5x slower).

    Bit-identical for integers, and for floats when the last axis has length 2; callers use it
    for floats only on integer-valued counts (exact sums in any order).
    """
    K = x.shape[-1]
    if K == 0 or K > 8:
        return x.sum(axis=-1)
    out = x[..., 0].copy() if K == 1 else x[..., 0] + x[..., 1]
    for j in range(2, K):
        out += x[..., j]
    return out


def _whole_counts(c: np.ndarray) -> np.ndarray:
    """``c`` as non-negative integers (whole-valued floats are converted); ValueError otherwise."""
    if c.dtype.kind not in "iu":
        if c.size and not np.array_equal(c, np.round(c)):
            raise ValueError("counts must be whole numbers.")
        c = c.astype(np.int64)
    if c.size and c.min() < 0:
        raise ValueError("counts must be non-negative.")
    return c


def _prior_pseudo_counts(st: _CountStates, prior: str, has: np.ndarray, fitted: BatchPrior | None = None):
    """``(alpha (L, K), pooled (L,), fitted BatchPrior or None)`` of a prior; pooled rows get 1 (their mean is the pool's).

    ``fitted``: the empirical-Bayes fit of these states when the caller already has it.
    """
    L, K = st.L, st.K
    if prior in ("uniform", "jeffreys"):
        return np.full((L, K), 1.0 if prior == "uniform" else 0.5), np.zeros(L, dtype=bool), None
    fitted = _fit_states(st) if fitted is None else fitted
    pooled = fitted.pooled & has
    return np.where(pooled[:, None] | ~has[:, None], 1.0, fitted.alpha), pooled, fitted


def _beta_interval(x, s2, confidence):
    """Central interval of Beta distributions matched to mean ``x`` and variance ``s2`` on [0, 1] (NaN if invalid)."""
    k = x * (1.0 - x) / np.where(s2 > 0, s2, np.nan) - 1.0
    ok = (x > 0) & (x < 1) & (s2 > 0) & (k > 0)
    a = np.where(ok, x * k, 1.0)
    b = np.where(ok, (1.0 - x) * k, 1.0)
    tail = 0.5 - 0.5 * confidence
    return np.where(ok, _beta_ppf(tail, a, b), np.nan), np.where(ok, _beta_ppf(1.0 - tail, a, b), np.nan), ok


def clipped_normal_interval(mu, sigma, confidence, lo_w, hi_w):
    """The normal interval ``mu -/+ z sigma`` clipped to the score range (as ``eval._interval.credible_interval``).

    Parameters
    ----------
    mu, sigma : float or ndarray of float
        Posterior means and standard deviations (broadcast together).
    confidence : float
        Central credibility in (0, 1): ``z = Phi^-1((1 + confidence) / 2)``.
    lo_w, hi_w : float or ndarray of float
        The smallest and largest score possible (the rubric's weights ``min(w)``, ``max(w)``).

    Returns
    -------
    lo, hi : ndarray of float
        NaN where ``mu`` or ``sigma`` is NaN.

    Notes
    -----
    The normal approximation of Hariri et al., "Don't Pass@k", ICLR 2026, section 2.5; clipped because the
    score cannot leave the rubric's range while the normal's tails do (small N, means near a bound).

    Examples
    --------
    >>> lo, hi = clipped_normal_interval(0.98, 0.03, 0.95, 0.0, 1.0)
    >>> round(float(lo), 4), float(hi)
    (0.9212, 1.0)
    """
    z = float(ndtri(0.5 + 0.5 * confidence))
    return np.clip(mu - z * sigma, lo_w, hi_w), np.clip(mu + z * sigma, lo_w, hi_w)


def posterior_summary_batch(
    counts: object,
    w: object,
    *,
    prior: str = "empirical-bayes",
    scope: str = "questions-fixed",
    confidence: float = 0.95,
    clusters: object | None = None,
    strata: object | None = None,
) -> BatchSummary:
    """:func:`~scorio_core.uncertainty.posterior_summary` for every model of an (L, M, C+1) tensor.

    Parameters
    ----------
    counts : array-like of int, shape (L, M, C+1)
        Category counts; rows summing to 0 are unanswered (left out of that model).
    w : array-like of float, shape (C+1,)
    prior, scope, confidence
        As :func:`~scorio_core.uncertainty.posterior_summary` (default interval shapes:
        normal for ``uniform``, moment-matched Beta otherwise, exact binomial for pooled
        fallbacks). Prior counts (R0) are not supported here: use the per-model function.
    clusters : array-like of int, shape (M,), optional
        Cluster code of each question (:func:`scorio_core.uncertainty.clustered.cluster_codes`): under
        ``questions-sampled`` the question-sampling standard error is cluster-robust
        (:func:`~scorio_core.uncertainty.clustered.clustered_se`) instead of assuming independent questions.
    strata : array-like of int, shape (M,) or (L, M), optional
        Stratum code of each question (e.g. its task when tasks are pooled; per row where the rows' questions differ,
        as stacked bootstrap resamples): the empirical-Bayes prior is fitted
        per (model, stratum) and the strata's posteriors are combined over the model's questions
        (:mod:`scorio_core.uncertainty.strata`). No effect under the uniform or Jeffreys prior.

    Returns
    -------
    BatchSummary
        Arrays of shape (L,); NaN for models without answered questions.

    Raises
    ------
    ValueError
        Unknown prior/scope, bad shapes or confidence, negative or fractional counts.

    Notes
    -----
    Every per-question sum runs over each model's distinct answered count rows weighted by
    their frequency (at most N + 1 states per model for binary outcomes with N trials), so
    the cost after one pass to find the states is O(L x states), not O(L x M).
    """
    from scorio_core.eval._validate import check_confidence

    check_prior(prior)
    check_scope(scope)
    confidence = check_confidence(confidence)
    c = np.asarray(counts)
    weights = np.asarray(w, dtype=float)
    if c.ndim != 3 or c.shape[2] != weights.size:
        raise ValueError(f"counts must have shape (L, M, {weights.size}); got {c.shape}.")
    # every per-question sum runs over each model's distinct answered count rows (states), weighted by
    # how many questions have them: the same sums as over the (L, M) rows, O(L x states) instead of O(L x M)
    sampled_se = None
    if clusters is not None and scope == "questions-sampled":
        from scorio_core.uncertainty.clustered import clustered_se

        n = c.sum(axis=2)
        with np.errstate(invalid="ignore", divide="ignore"):
            scores = np.where(n > 0, (c @ weights) / np.where(n > 0, n, 1), np.nan)
        sampled_se = clustered_se(scores, clusters)
    c = _whole_counts(c)
    by_stratum = None
    if strata is not None and prior == "empirical-bayes":
        from scorio_core.uncertainty.strata import strata_states

        by_stratum = strata_states(c, strata)
    return summary_from_states(_CountStates.of(c), weights, prior, scope, confidence, sampled_se=sampled_se,
                               strata=by_stratum)


def _moments(st: _CountStates, w_norm: np.ndarray, prior: str, fitted: BatchPrior | None = None):
    """``(mean, variance, pooled, method)`` per model (L,) of the mean normalised score over its questions.

    Dirichlet posterior moments of each state's score (Eq. 15) summed per model; under the empirical-Bayes prior
    plus the prior mean's estimation variance, and for not-identified fits (``pooled``) the fallback's mean with the
    binomial variance of the pooled answers.
    """
    L = st.L
    model, rows, n = st.model, st.rows, st.n
    m_l = np.bincount(model, weights=st.freq, minlength=L)
    has = m_l > 0
    m_safe = np.where(has, m_l, 1.0)
    method = np.full(L, "fixed" if prior != "empirical-bayes" else "marginal-likelihood", dtype=object)
    alpha_fit, pooled, fitted = _prior_pseudo_counts(st, prior, has, fitted)
    nu = rows + alpha_fit[model]
    total = nu.sum(axis=1)
    m1 = (nu @ w_norm) / total
    var = np.maximum((nu @ (w_norm * w_norm)) / total - m1 * m1, 0.0) / (total + 1.0)
    mu_n, var_n = st.total(m1) / m_safe, st.total(var) / m_safe**2
    if fitted is not None:
        method = fitted.method.astype(object)
        spread = np.maximum(fitted.mean @ (w_norm * w_norm) - (fitted.mean @ w_norm) ** 2, 0.0)
        strength = alpha_fit.sum(axis=1)[model]
        c_term = st.total(strength / (n + strength)) / m_safe
        v_term = st.total((strength + n) / (n * (strength + 1.0))) / m_safe**2
        var_n = var_n + c_term**2 * v_term * spread
        mu_n = np.where(pooled, fitted.mean @ w_norm, mu_n)
        # pooled (strength not identified): the binomial bound p(1-p)/(M N_min), which holds for any per-question rates
        # with mean p (sum p_a(1-p_a)/N_a <= M p(1-p)/N_min); sum(1/N_a) p(1-p)/M^2 does not when trial counts differ
        var_n = np.where(pooled, spread / (m_safe * _fewest(st, n)), var_n)
    return mu_n, var_n, pooled, method


def _fewest(st: _CountStates, n: np.ndarray) -> np.ndarray:
    """Per model, the fewest trials of an answered question (L,); 1 for a model with none (its rows are NaN)."""
    fewest = np.full(st.L, np.inf)
    np.minimum.at(fewest, st.model, n)
    return np.where(np.isfinite(fewest), fewest, 1.0)


def summary_from_states(st: _CountStates, weights: np.ndarray, prior: str, scope: str, confidence: float,
                        fitted: BatchPrior | None = None, sampled_se: np.ndarray | None = None,
                        strata: _CountStates | None = None) -> BatchSummary:
    """:func:`posterior_summary_batch` from count states (validated arguments).

    Callers that already hold each model's distinct count rows and their frequencies (e.g. the
    prefix-count histograms of :mod:`scorio_core.dynamics.prefix`) skip the (L, M, C+1) tensor;
    ``fitted`` is their empirical-Bayes fit (``_fit_states(st)``) when they already made it.
    ``sampled_se`` (shape (L,)) replaces the questions-sampled standard error over independent
    questions, e.g. by the cluster-robust one of :func:`scorio_core.uncertainty.clustered.clustered_se`
    (NaN: cannot be estimated, the questions-fixed sd is kept); the interval is never narrower than
    with questions fixed. ``strata``: the same answers as (model, stratum) states
    (:func:`scorio_core.uncertainty.strata.strata_states`): the empirical-Bayes prior is fitted per stratum.
    """
    L = st.L
    model, rows, n = st.model, st.rows, st.n
    m_l = np.bincount(model, weights=st.freq, minlength=L)
    has = m_l > 0
    m_safe = np.where(has, m_l, 1.0)
    lo_w, hi_w = float(weights.min()), float(weights.max())
    offset, scale, w_norm = scaled_weights(weights)
    if strata is not None and prior == "empirical-bayes":
        from scorio_core.uncertainty.strata import stratified_moments

        mu_n, var_n, pooled, method = stratified_moments(st, strata, w_norm, _moments)
    else:
        mu_n, var_n, pooled, method = _moments(st, w_norm, prior, fitted)
    mu = offset + scale * mu_n
    sigma = scale * np.sqrt(var_n)
    per_q = (rows @ weights) / n  # each state's observed mean score
    if scope == "questions-sampled":
        mean_q = st.total(per_q) / m_safe
        ss = st.total((per_q - mean_q[model]) ** 2)
        sd = np.sqrt(ss / np.maximum(m_l - 1.0, 1.0)) / np.sqrt(m_safe)
        if sampled_se is not None:
            sd = np.where(np.isfinite(sampled_se), np.asarray(sampled_se, dtype=float), 0.0)
        sigma = np.where(m_l > 1, np.maximum(sigma, sd), sigma)
    width = hi_w - lo_w
    if prior == "uniform" or width <= 0 or not np.isfinite(width):
        lo, hi = clipped_normal_interval(mu, sigma, confidence, lo_w, hi_w)
    else:
        x = np.clip((mu - lo_w) / width, 0.0, 1.0)
        b_lo, b_hi, ok = _beta_interval(x, (sigma / width) ** 2, confidence)
        n_lo, n_hi = clipped_normal_interval(mu, sigma, confidence, lo_w, hi_w)
        lo = np.where(ok, lo_w + width * b_lo, n_lo)
        hi = np.where(ok, lo_w + width * b_hi, n_hi)
        if pooled.any():
            tail = 0.5 - 0.5 * confidence
            x_obs = (st.total((rows @ weights) / n) / m_safe - lo_w) / width  # observed mean over the questions
            n_eff = m_safe * _fewest(st, n)  # as the pooled sd: M N_min trials (conservative for unequal N_a)
            if scope == "questions-sampled":
                inner = (x_obs > 0) & (x_obs < 1) & (sigma > 0)
                n_eff = np.where(inner, np.minimum(n_eff, x_obs * (1 - x_obs) / np.where(inner, (sigma / width) ** 2, 1.0)), n_eff)
            k = np.clip(x_obs, 0.0, 1.0) * n_eff
            cp_lo = np.where(k <= 0, 0.0, _beta_ppf(tail, np.where(k > 0, k, 1.0), n_eff - k + 1.0))
            cp_hi = np.where(k >= n_eff, 1.0, _beta_ppf(1.0 - tail, k + 1.0, np.where(k < n_eff, n_eff - k, 1.0)))
            lo = np.where(pooled, lo_w + width * cp_lo, lo)
            hi = np.where(pooled, lo_w + width * cp_hi, hi)
    nan = np.where(has, 1.0, np.nan)
    return BatchSummary(mu * nan, sigma * nan, lo * nan, hi * nan, np.where(has, method, "none").astype(str))



def posterior_shares(counts: object, prior: str = "empirical-bayes", strata: object | None = None) -> np.ndarray:
    r"""Posterior mean share of every category per model: Bayes@N is ``shares @ w`` for any weights.

    Parameters
    ----------
    counts : array-like of int, shape (L, M, C+1)
        Category counts; rows summing to 0 are unanswered (left out of that model).
    prior : {"empirical-bayes", "uniform", "jeffreys"}, default "empirical-bayes"
    strata : array-like of int, shape (M,) or (L, M), optional
        Stratum (task) code of each question: the empirical-Bayes prior is fitted per (model, stratum), as
        :func:`posterior_summary_batch` with ``strata``.

    Returns
    -------
    ndarray of float64, shape (L, C+1)
        ``P[l, j] = (1/M_l) sum_a (c_aj + alpha_j) / (n_a + A)`` over model l's answered
        questions (the pooled fallbacks' prior mean for unidentified empirical-Bayes priors,
        as :func:`posterior_summary_batch`); rows sum to 1; NaN rows for models without
        answered questions. The prior is fitted to the counts, not the weights, so
        ``P @ w`` equals ``posterior_summary_batch(counts, w, prior=prior, strata=strata).mu`` for every ``w``
        (Eq. 15 with real-valued pseudo-counts; Hariri et al., ICLR 2026, arXiv:2510.04265).

    Raises
    ------
    ValueError
        Unknown prior or bad shape.
    """
    check_prior(prior)
    c = np.asarray(counts)
    if c.ndim != 3 or c.shape[2] < 2:
        raise ValueError(f"counts must have shape (L, M, C+1) with C+1 >= 2; got {c.shape}.")
    c = _whole_counts(c)
    st = _CountStates.of(c)
    if strata is not None and prior == "empirical-bayes":
        from scorio_core.uncertainty.strata import strata_states, stratified_shares

        return stratified_shares(st, strata_states(c, strata), _shares)
    return _shares(st, prior)[0]


def _shares(st: _CountStates, prior: str, fitted: BatchPrior | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(shares (L, K), pooled (L,))`` of :func:`posterior_shares` from count states."""
    L, K = st.L, st.K
    m_l = np.bincount(st.model, weights=st.freq, minlength=L)
    has = m_l > 0
    alpha, pooled, fitted = _prior_pseudo_counts(st, prior, has, fitted)
    nu = st.rows + alpha[st.model]
    share = nu / nu.sum(axis=1, keepdims=True)
    P = np.stack([st.total(share[:, j]) for j in range(K)], axis=1) / np.where(has, m_l, 1.0)[:, None]
    if pooled.any():
        P = np.where(pooled[:, None], fitted.mean, P)
    return np.where(has[:, None], P, np.nan), pooled
