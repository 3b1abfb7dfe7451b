r"""Priors and posterior summaries for many models at once (leaderboards of 10^5 models).

:func:`fit_dirichlet_prior_batch` fits the empirical-Bayes Dirichlet prior of every model by
damped Newton iterations on ``log alpha``, vectorized over models (each model's questions are
compressed to their distinct count rows first); :func:`posterior_summary_batch` is
:func:`scorio_core.uncertainty.posterior_summary` for an ``(L, M, C+1)`` count tensor, with
the same formulas, fallbacks and intervals, and no Python loop over models or questions.
Cross-checked against the per-model functions in ``tests/core/test_uncertainty_batch.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import digamma, gammaln, ndtri

from scorio_core.eval.bayes import scaled_weights
from scorio_core.uncertainty.posterior import _beta_ppf, check_scope
from scorio_core.uncertainty.priors import _LOG_ALPHA_BOUNDS, check_prior

__all__ = ["BatchPrior", "BatchSummary", "fit_dirichlet_prior_batch", "posterior_shares", "posterior_summary_batch"]

_MAX_NEWTON = 100


@dataclass(frozen=True, eq=False)
class BatchPrior:
    """Fitted Dirichlet priors of L models.

    Attributes
    ----------
    alpha : ndarray, shape (L, C+1)
        Pseudo-counts (``inf`` where pooled).
    mean : ndarray, shape (L, C+1)
        Prior (pool) means.
    pooled : ndarray of bool, shape (L,)
    method : ndarray of str, shape (L,)
        As :attr:`scorio_core.uncertainty.FittedPrior.method`.
    """

    alpha: np.ndarray
    mean: np.ndarray
    pooled: np.ndarray
    method: np.ndarray


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


def _states(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct answered count rows per model: ``(model index, rows, frequency)``, sorted by model."""
    L, M, K = counts.shape
    if L * M and K:
        base = counts.reshape(L * M, K).max(axis=0).astype(np.int64) + 1
        n_codes = int(np.prod(base))
        if L * float(np.prod(base.astype(float))) <= max(4.0 * L * M, 2.0**22):
            # small key space: a bincount over (model, row) mixed-radix codes gives the sorted distinct keys and
            # their frequencies of the np.unique below, without sorting L*M keys. Counts are non-negative, so a
            # row's code is 0 exactly when the row is unanswered: those codes are dropped.
            radix = np.cumprod(np.concatenate([[1], base[:0:-1]]))[::-1]  # radix[j] = prod(base[j+1:])
            counts = counts if counts.dtype == np.int64 else counts.astype(np.int64)
            key = counts[..., K - 1].copy()
            for j in range(K - 1):
                key += counts[..., j] * np.int64(radix[j])
            key += (np.arange(L, dtype=np.int64) * n_codes)[:, None]
            freq = np.bincount(key.ravel(), minlength=L * n_codes)
            del key
            freq[::n_codes] = 0
            found = np.flatnonzero(freq)
            code = found % n_codes
            rows = np.empty((found.size, K))
            for j in range(K):
                rows[:, j] = code // radix[j] % base[j]
            return found // n_codes, rows, freq[found].astype(np.float64)
    totals = counts.sum(axis=2)
    model = np.repeat(np.arange(L), M)[totals.ravel() > 0]
    rows = counts.reshape(L * M, K)[totals.ravel() > 0]
    if rows.size == 0:
        return model, rows.astype(np.float64), np.zeros(0)
    base = rows.max(axis=0).astype(np.int64) + 1  # mixed-radix code of (model, row): one 1-D sort
    span = np.prod(base.astype(float)) * L
    if span < 2.0**62:
        radix = np.cumprod(np.concatenate([[1], base[:0:-1]]))[::-1]  # radix[j] = prod(base[j+1:])
        key = model.astype(np.int64) * int(np.prod(base)) + rows.astype(np.int64) @ radix
        uniq, first, freq = np.unique(key, return_index=True, return_counts=True)
        return model[first], rows[first].astype(np.float64), freq.astype(np.float64)
    table = np.concatenate([model[:, None], rows], axis=1)
    uniq, freq = np.unique(table, axis=0, return_counts=True)
    return uniq[:, 0], uniq[:, 1:].astype(np.float64), freq.astype(np.float64)


def _trigamma(x: np.ndarray) -> np.ndarray:
    """psi_1(x) for x > 0 to ~1e-10 relative: six recurrence steps, then the asymptotic series.

    2-3x faster than ``scipy.special.polygamma(1, x)`` (which goes through ``zeta``); used
    only in the Newton Hessian, so it changes the path to the maximum, never the maximum.
    """
    z = np.array(x, dtype=np.float64)
    acc = 1.0 / (z * z)
    for _ in range(5):
        z += 1.0
        acc += 1.0 / (z * z)
    z += 1.0
    iz = 1.0 / z
    iz2 = iz * iz
    return acc + iz * (1.0 + iz * (0.5 + iz * (1.0 / 6 + iz2 * (-1.0 / 30 + iz2 * (1.0 / 42 - iz2 / 30)))))


def _loglik(alpha: np.ndarray, model: np.ndarray, rows: np.ndarray, freq: np.ndarray, n_models: int) -> np.ndarray:
    """Dirichlet-multinomial log marginal likelihood per model (up to alpha-free terms)."""
    a = alpha[model]
    a_sum = a.sum(axis=1)
    per = gammaln(a_sum) - gammaln(a_sum + rows.sum(axis=1)) + (gammaln(rows + a) - gammaln(a)).sum(axis=1)
    return np.bincount(model, weights=freq * per, minlength=n_models)


def _newton(model, rows, freq, eta0, n_models):
    """Damped Newton ascent on eta = log alpha, all models at once (only unconverged ones are recomputed)."""
    lo, hi = _LOG_ALPHA_BOUNDS
    eta = eta0.copy()
    K = eta.shape[1]
    eye = np.eye(K)
    ll = _loglik(np.exp(eta), model, rows, freq, n_models)
    damping = np.full(n_models, 1e-3)
    active = np.ones(n_models, dtype=bool)
    remap = np.empty(n_models, dtype=np.int64)
    for _iteration in range(_MAX_NEWTON):
        idx = np.flatnonzero(active)
        if idx.size == 0:
            break
        smask = active[model]
        if not smask.all():  # drop converged models' rows for good: later iterations touch only the rest
            model, rows, freq = model[smask], rows[smask], freq[smask]
        remap[idx] = np.arange(idx.size)
        sm, sr, sf = remap[model], rows, freq
        n_sub = idx.size
        alpha = np.exp(eta[idx])
        a = alpha[sm]
        a_sum = a.sum(axis=1)
        totals = sr.sum(axis=1)
        common_g = digamma(a_sum) - digamma(a_sum + totals)
        common_h = _trigamma(a_sum) - _trigamma(a_sum + totals)
        g_a = np.stack([np.bincount(sm, weights=sf * (common_g + digamma(sr[:, j] + a[:, j]) - digamma(a[:, j])),
                                    minlength=n_sub) for j in range(K)], axis=1)
        h_common = np.bincount(sm, weights=sf * common_h, minlength=n_sub)
        h_diag = np.stack([np.bincount(sm, weights=sf * (_trigamma(sr[:, j] + a[:, j]) - _trigamma(a[:, j])),
                                       minlength=n_sub) for j in range(K)], axis=1)
        H_a = h_common[:, None, None] + h_diag[:, :, None] * eye
        g = g_a * alpha  # gradient of the log-likelihood in eta
        neg = -(alpha[:, :, None] * H_a * alpha[:, None, :] + g[:, :, None] * eye)  # Hessian of -ll in eta
        lam_min = np.linalg.eigvalsh(neg)[:, 0]  # shift to positive definite, plus Levenberg damping
        shift = np.maximum(0.0, -lam_min) + damping[idx] * (1.0 + np.abs(np.diagonal(neg, axis1=1, axis2=2)).max(axis=1))
        step = np.linalg.solve(neg + shift[:, None, None] * eye, g[:, :, None])[:, :, 0]
        trial = np.clip(eta[idx] + step, lo, hi)
        ll_trial = _loglik(np.exp(trial), sm, sr, sf, n_sub)
        better = ll_trial >= ll[idx] - 1e-12 * np.abs(ll[idx])
        gain = ll_trial - ll[idx]
        moved = np.abs(trial - eta[idx]).max(axis=1)
        eta[idx] = np.where(better[:, None], trial, eta[idx])
        ll[idx] = np.where(better, ll_trial, ll[idx])
        damping[idx] = np.where(better, np.maximum(damping[idx] / 10.0, 1e-12), damping[idx] * 10.0)
        # converged: a tiny accepted step or gain (flat likelihood, e.g. toward the strength bound),
        # a vanishing projected gradient, or no acceptable step at any damping
        at_bound = ((eta[idx] <= lo + 1e-9) & (g < 0)) | ((eta[idx] >= hi - 1e-9) & (g > 0))
        g_proj = np.where(at_bound, 0.0, g)
        done = (better & ((moved < 1e-10) | (np.abs(gain) < 1e-11 * (1.0 + np.abs(ll[idx])))))
        done |= (np.abs(g_proj).max(axis=1) < 1e-9) | (damping[idx] > 1e12)
        active[idx[done]] = False
    return eta


def _restart_at_lower_bound(eta, model, rows, freq):
    """Refit models that stopped on the lower pseudo-count bound from a weak start; keep the better fit.

    On strongly U-shaped data (questions all right or all wrong) the likelihood in ``log alpha``
    can have a local maximum on the box's corner and a higher one inside; an even start of total
    strength 0.01 finds the inner one (as the per-model L-BFGS-B fit does).
    """
    lo, _hi = _LOG_ALPHA_BOUNDS
    stuck = np.flatnonzero((eta <= lo + 1e-9).any(axis=1))
    if stuck.size == 0:
        return eta
    remap = np.full(eta.shape[0], -1, dtype=np.int64)
    remap[stuck] = np.arange(stuck.size)
    keep = remap[model] >= 0
    sm, sr, sf = remap[model[keep]], rows[keep], freq[keep]
    start = np.full((stuck.size, eta.shape[1]), np.log(0.01 / eta.shape[1]))  # weak and even: away from the corner
    other = _newton(sm, sr, sf, start, stuck.size)
    better = _loglik(np.exp(other), sm, sr, sf, stuck.size) > _loglik(np.exp(eta[stuck]), sm, sr, sf, stuck.size) + 1e-12
    out = eta.copy()
    out[stuck[better]] = other[better]
    return out


def fit_dirichlet_prior_batch(counts: object, init: np.ndarray | None = None) -> BatchPrior:
    """Empirical-Bayes Dirichlet priors of every model, as :func:`~scorio_core.uncertainty.fit_dirichlet_prior`.

    Parameters
    ----------
    counts : array-like of int, shape (L, M, C+1)
        Category counts; rows summing to 0 are questions a model did not answer.
    init : ndarray of float, shape (L, C+1), optional
        Starting pseudo-counts of the Newton iterations (e.g. the fit to similar data); rows
        that are not finite and positive start from the default (pool mean, strength 2).
        Changes the path, not the maximum.

    Returns
    -------
    BatchPrior
        Models without answered questions get NaN means and method ``"none"``.

    Raises
    ------
    ValueError
        If ``counts`` is not a non-negative integer array of shape (L, M, C+1) with C+1 >= 2.
    """
    c = np.asarray(counts)
    if c.ndim != 3 or c.shape[2] < 2 or c.dtype.kind not in "iu":
        raise ValueError(f"counts must be an (L, M, C+1) integer array with C+1 >= 2; got shape {c.shape} dtype {c.dtype}.")
    if c.size and c.dtype.kind == "i" and c.min() < 0:
        raise ValueError("counts must be non-negative.")
    L, M, K = c.shape
    totals = _sum_last(c)
    pooled_counts = c.sum(axis=1).astype(np.float64)
    answered = totals > 0
    has = answered.any(axis=1)
    method = np.full(L, "marginal-likelihood", dtype=object)
    mean = np.full((L, K), np.nan)
    alpha = np.full((L, K), np.inf)
    pooled = np.ones(L, dtype=bool)
    degenerate = has & (np.count_nonzero(pooled_counts, axis=1) <= 1)
    n1 = has & ~degenerate & (totals.max(axis=1, initial=0) <= 1)  # totals >= 0: as the max over answered rows
    method[~has] = "none"
    method[degenerate] = "fallback-degenerate"
    method[n1] = "fallback-n1"
    mean[degenerate] = (pooled_counts[degenerate] + 0.5) / (pooled_counts[degenerate].sum(axis=1, keepdims=True) + 0.5 * K)
    mean[n1] = pooled_counts[n1] / pooled_counts[n1].sum(axis=1, keepdims=True)
    fit = has & ~degenerate & ~n1
    if fit.any():
        idx = np.flatnonzero(fit)
        model, rows, freq = _states(c if idx.size == L else c[idx])  # no copy of the tensor when every model is fitted
        m0 = np.clip(pooled_counts[idx] / pooled_counts[idx].sum(axis=1, keepdims=True), 1e-3, None)
        eta0 = np.log(2.0 * m0 / m0.sum(axis=1, keepdims=True))
        if init is not None:
            start = np.asarray(init, dtype=np.float64)[idx]
            good = np.all(np.isfinite(start) & (start > 0), axis=1)
            eta0[good] = np.clip(np.log(start[good]), *_LOG_ALPHA_BOUNDS)
        eta = _newton(model, rows, freq, eta0, idx.size)
        eta = _restart_at_lower_bound(eta, model, rows, freq)
        alpha[idx] = np.exp(eta)
        mean[idx] = alpha[idx] / alpha[idx].sum(axis=1, keepdims=True)
        pooled[idx] = False
    return BatchPrior(alpha, mean, pooled, method.astype(str))


@dataclass(frozen=True, eq=False)
class _Counts:
    """Float counts (L, M, K), trials per row, answered rows and answered questions per model."""

    cf: np.ndarray
    n: np.ndarray
    answered: np.ndarray
    m_l: np.ndarray
    has: np.ndarray

    @property
    def m_safe(self) -> np.ndarray:
        return np.where(self.has, self.m_l, 1.0)


def _summarise(c: np.ndarray) -> _Counts:
    cf = c.astype(np.float64)
    n = _sum_last(cf)  # integer-valued: exact in any order
    answered = n > 0
    m_l = answered.sum(axis=1).astype(np.float64)
    return _Counts(cf, n, answered, m_l, m_l > 0)


def _prior_pseudo_counts(c: np.ndarray, prior: str, has: np.ndarray):
    """``(alpha (L, K), pooled (L,), fitted BatchPrior or None)`` of a prior; pooled rows get 1 (their mean is the pool's)."""
    L, _, K = c.shape
    if prior in ("uniform", "jeffreys"):
        return np.full((L, K), 1.0 if prior == "uniform" else 0.5), np.zeros(L, dtype=bool), None
    fitted = fit_dirichlet_prior_batch(c)
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


def _normal_interval(mu, sigma, confidence, lo_w, hi_w):
    """``mu -/+ z sigma`` clipped to the score range (as ``eval._interval.credible_interval``)."""
    z = float(ndtri(0.5 + 0.5 * confidence))
    return np.clip(mu - z * sigma, lo_w, hi_w), np.clip(mu + z * sigma, lo_w, hi_w)


def posterior_summary_batch(
    counts: object,
    w: object,
    *,
    prior: str = "empirical-bayes",
    scope: str = "questions-fixed",
    confidence: float = 0.95,
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

    Returns
    -------
    BatchSummary
        Arrays of shape (L,); NaN for models without answered questions.

    Raises
    ------
    ValueError
        Unknown prior/scope, bad shapes or confidence.
    """
    from scorio_core.eval._validate import check_confidence

    check_prior(prior)
    check_scope(scope)
    confidence = check_confidence(confidence)
    c = np.asarray(counts)
    weights = np.asarray(w, dtype=float)
    if c.ndim != 3 or c.shape[2] != weights.size:
        raise ValueError(f"counts must have shape (L, M, {weights.size}); got {c.shape}.")
    L, M, K = c.shape
    cs = _summarise(c)
    cf, n, answered, m_l, has, m_safe = cs.cf, cs.n, cs.answered, cs.m_l, cs.has, cs.m_safe
    lo_w, hi_w = float(weights.min()), float(weights.max())
    offset, scale, w_norm = scaled_weights(weights)
    method = np.full(L, "fixed" if prior != "empirical-bayes" else "marginal-likelihood", dtype=object)

    unanswered = ~answered

    def dirichlet_moments(alpha):  # alpha (L, K) -> mu, var of the normalised score
        # the same operations as np.maximum(m2 - m1 * m1, 0) / (total + 1) etc., in place: (L, M) temporaries are
        # the cost at 10^7 cells
        nu = cf + alpha[:, None, :]
        total = _sum_last(nu) if K == 2 else nu.sum(axis=2)  # K == 2: one addition either way
        m1 = nu @ w_norm
        m1 /= total
        var = nu @ (w_norm * w_norm)
        del nu
        var /= total
        var -= m1 * m1
        np.maximum(var, 0.0, out=var)
        total += 1.0
        var /= total
        del total
        np.copyto(m1, 0.0, where=unanswered)
        np.copyto(var, 0.0, where=unanswered)
        return m1.sum(axis=1) / m_safe, var.sum(axis=1) / m_safe**2

    alpha_fit, pooled, fitted = _prior_pseudo_counts(c, prior, has)
    mu_n, var_n = dirichlet_moments(alpha_fit)
    if fitted is not None:
        method = fitted.method.astype(object)
        spread = np.maximum(fitted.mean @ (w_norm * w_norm) - (fitted.mean @ w_norm) ** 2, 0.0)
        strength = alpha_fit.sum(axis=1)
        s_col = strength[:, None]
        n_safe = np.where(answered, n, 1.0)
        buf = n_safe + s_col  # c_term: strength / (n + strength) over answered rows (in place, as above)
        np.divide(s_col, buf, out=buf)
        np.copyto(buf, 0.0, where=unanswered)
        c_term = buf.sum(axis=1) / m_safe
        np.add(s_col, n_safe, out=buf)  # v_term: (strength + n) / (n (strength + 1))
        den = n_safe * (s_col + 1.0)
        buf /= den
        np.copyto(buf, 0.0, where=unanswered)
        v_term = buf.sum(axis=1) / m_safe**2
        var_n = var_n + c_term**2 * v_term * spread
        np.divide(1.0, n_safe, out=buf)
        np.copyto(buf, 0.0, where=unanswered)
        inv_n = buf.sum(axis=1)
        del buf, den
        mu_n = np.where(pooled, fitted.mean @ w_norm, mu_n)
        var_n = np.where(pooled, spread * inv_n / m_safe**2, var_n)
    mu = offset + scale * mu_n
    sigma = scale * np.sqrt(var_n)
    if scope == "questions-sampled":
        per_q = np.where(answered, (cf @ weights) / np.where(answered, n, 1.0), 0.0)
        mean_q = per_q.sum(axis=1) / m_safe
        ss = np.where(answered, (per_q - mean_q[:, None]) ** 2, 0.0).sum(axis=1)
        sd = np.sqrt(ss / np.maximum(m_l - 1.0, 1.0)) / np.sqrt(m_safe)
        sigma = np.where(m_l > 1, np.maximum(sigma, sd), sigma)
    width = hi_w - lo_w
    if prior == "uniform" or width <= 0 or not np.isfinite(width):
        lo, hi = _normal_interval(mu, sigma, confidence, lo_w, hi_w)
    else:
        x = np.clip((mu - lo_w) / width, 0.0, 1.0)
        b_lo, b_hi, ok = _beta_interval(x, (sigma / width) ** 2, confidence)
        n_lo, n_hi = _normal_interval(mu, sigma, confidence, lo_w, hi_w)
        lo = np.where(ok, lo_w + width * b_lo, n_lo)
        hi = np.where(ok, lo_w + width * b_hi, n_hi)
        if pooled.any():
            tail = 0.5 - 0.5 * confidence
            x_obs = ((cf @ weights).sum(axis=1) / np.where(has, n.sum(axis=1), 1.0) - lo_w) / width
            n_eff = m_safe**2 / np.where(answered, 1.0 / np.where(answered, n, 1.0), 0.0).sum(axis=1).clip(min=1e-300)
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



def posterior_shares(counts: object, prior: str = "empirical-bayes") -> np.ndarray:
    r"""Posterior mean share of every category per model: Bayes@N is ``shares @ w`` for any weights.

    Parameters
    ----------
    counts : array-like of int, shape (L, M, C+1)
        Category counts; rows summing to 0 are unanswered (left out of that model).
    prior : {"empirical-bayes", "uniform", "jeffreys"}, default "empirical-bayes"

    Returns
    -------
    ndarray of float64, shape (L, C+1)
        ``P[l, j] = (1/M_l) sum_a (c_aj + alpha_j) / (n_a + A)`` over model l's answered
        questions (the pooled fallbacks' prior mean for unidentified empirical-Bayes priors,
        as :func:`posterior_summary_batch`); rows sum to 1; NaN rows for models without
        answered questions. The prior is fitted to the counts, not the weights, so
        ``P @ w`` equals ``posterior_summary_batch(counts, w, prior=prior).mu`` for every ``w``
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
    cs = _summarise(c)
    alpha, pooled, fitted = _prior_pseudo_counts(c, prior, cs.has)
    nu = cs.cf + alpha[:, None, :]
    share = nu / nu.sum(axis=2, keepdims=True)
    P = np.where(cs.answered[..., None], share, 0.0).sum(axis=1) / cs.m_safe[:, None]
    if pooled.any():
        P = np.where(pooled[:, None], fitted.mean, P)
    return np.where(cs.has[:, None], P, np.nan)
