r"""Empirical-Bayes Dirichlet priors of many models at once (the fit behind the batch summaries).

:func:`fit_dirichlet_prior_batch` fits every model's prior by maximum marginal likelihood with damped Newton
iterations on ``log alpha``, vectorized over models. Each model's questions are first compressed to their distinct
count rows ("states", at most N + 1 per model for binary outcomes with N trials), so an iteration costs O(L x
states), not O(L x M). Same maximum as :func:`scorio_core.uncertainty.fit_dirichlet_prior` (cross-checked in
``tests/core/test_uncertainty_batch.py``). Where the trials per question are few, the same iterations run on survival
counts without special functions (:mod:`scorio_core.uncertainty.survival_prior`); fits that reach the near-flat
likelihood toward infinite strength are redone here, so every fit stops where these iterations always stopped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import digamma, gammaln

from scorio_core.uncertainty import survival_prior
from scorio_core.uncertainty.prior_newton import frozen_categories, newton_step, newton_update
from scorio_core.uncertainty.priors import _LOG_ALPHA_BOUNDS, _too_few_repeats

__all__ = ["BatchPrior", "fit_dirichlet_prior_batch"]

_MAX_NEWTON = 100
#: Fits whose iterations reach a pseudo-count above exp(_LOG_RIDGE) are redone on the count states with the
#: special functions: toward infinite strength the likelihood is flat to rounding, and where its iterations stop
#: depends on how each term is rounded (the survival sums round differently).
_LOG_RIDGE = np.log(1e2)


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


def _loglik(alpha: np.ndarray, model: np.ndarray, rows: np.ndarray, freq: np.ndarray, n_models: int,
            totals: np.ndarray | None = None, cols: list | None = None) -> np.ndarray:
    """Dirichlet-multinomial log marginal likelihood per model (up to alpha-free terms).

    ``totals``: the trials of each model's questions (n_models,) when every state of a model has
    the same total (complete prefix counts), so the total's terms are evaluated once per model.
    Terms that depend on the model only are evaluated per model and gathered per state: the
    same floating-point values as evaluating them per state, at a fraction of the cost.
    ``cols``: :func:`_positive_counts` of ``rows`` (a zero count's term is exactly 0).
    """
    a_sum = alpha.sum(axis=1)
    if totals is None:
        a_sum_s = a_sum[model]
        per = gammaln(a_sum_s) - gammaln(a_sum_s + rows.sum(axis=1))
    else:
        per = (gammaln(a_sum) - gammaln(a_sum + totals))[model]
    ln_a = gammaln(alpha)
    if cols is None:
        terms = None  # sum over categories in order, as (gammaln(rows + a) - gammaln(a)).sum(axis=1)
        for j in range(alpha.shape[1]):
            term = gammaln(rows[:, j] + alpha[model, j]) - ln_a[model, j]
            terms = term if terms is None else terms + term
    else:  # the same sums: a zero count's term is gammaln(a) - gammaln(a) = 0, and adding 0 changes nothing
        terms = np.zeros(model.size)
        for j, nz in enumerate(cols):
            m = model[nz]
            terms[nz] += gammaln(rows[nz, j] + alpha[m, j]) - ln_a[m, j]
    per = per + terms
    return np.bincount(model, weights=freq * per, minlength=n_models)


def _model_totals(model: np.ndarray, rows: np.ndarray, n_models: int) -> np.ndarray | None:
    """Each model's per-question trials (n_models,) if all its states share one total and states are sorted by model."""
    if model.size == 0:
        return None
    totals = rows.sum(axis=1)
    same = (model[1:] != model[:-1]) | (totals[1:] == totals[:-1])
    if not (same.all() and np.all(model[1:] >= model[:-1])):
        return None
    out = np.zeros(n_models)
    out[model] = totals
    return out


def _positive_counts(rows: np.ndarray) -> list | None:
    """Per category, the states with a positive count (index arrays); None where most counts are positive.

    A zero count's special-function terms equal the model's own (``digamma(0 + a) = digamma(a)``, likewise
    ``gammaln`` and trigamma), so :func:`_newton` and :func:`_loglik` evaluate them only where the count is
    positive: the same values. Rubrics with many categories leave most counts of short prefixes at zero.
    """
    positive = rows > 0
    if positive.size == 0 or positive.mean() > 0.6:  # selecting would cost more than the evaluations it saves
        return None
    return [np.flatnonzero(positive[:, j]) for j in range(rows.shape[1])]


def _newton(model, rows, freq, eta0, n_models):
    """Damped Newton ascent on eta = log alpha, all models at once (only unconverged ones are recomputed)."""
    lo, hi = _LOG_ALPHA_BOUNDS
    eta = eta0.copy()
    K = eta.shape[1]
    free = frozen_categories(_observed(model, rows, freq, n_models), eta)  # unobserved categories stay at the bound
    per_model = _model_totals(model, rows, n_models)  # complete prefix counts: one total per model
    cols = _positive_counts(rows)
    ll = _loglik(np.exp(eta), model, rows, freq, n_models, per_model, cols)
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
            cols = _positive_counts(rows)
        remap[idx] = np.arange(idx.size)
        sm, sr, sf = remap[model], rows, freq
        n_sub = idx.size
        sub_totals = None if per_model is None else per_model[idx]
        alpha = np.exp(eta[idx])
        # terms of a model's alpha alone are evaluated once per model and gathered per state (the same values)
        a_sum = alpha.sum(axis=1)
        if sub_totals is None:
            totals = sr.sum(axis=1)
            a_sum_s = a_sum[sm]
            common_g = digamma(a_sum)[sm] - digamma(a_sum_s + totals)
            common_h = _trigamma(a_sum)[sm] - _trigamma(a_sum_s + totals)
        else:
            common_g = (digamma(a_sum) - digamma(a_sum + sub_totals))[sm]
            common_h = (_trigamma(a_sum) - _trigamma(a_sum + sub_totals))[sm]
        psi_a, tri_a = digamma(alpha), _trigamma(alpha)
        g_cols, h_cols = [], []
        for j in range(K):
            psi_s, tri_s = psi_a[sm, j], tri_a[sm, j]
            if cols is None:
                x = sr[:, j] + alpha[sm, j]
                d, t = digamma(x), _trigamma(x)
            else:  # a state without trials in category j has digamma(0 + a_j) = psi_s (and trigamma): the same values
                nz = cols[j]
                d, t = psi_s.copy(), tri_s.copy()
                x = sr[nz, j] + alpha[sm[nz], j]
                d[nz], t[nz] = digamma(x), _trigamma(x)
            g_cols.append(np.bincount(sm, weights=sf * (common_g + d - psi_s), minlength=n_sub))
            h_cols.append(np.bincount(sm, weights=sf * (t - tri_s), minlength=n_sub))
        g_a = np.stack(g_cols, axis=1)
        h_common = np.bincount(sm, weights=sf * common_h, minlength=n_sub)
        h_diag = np.stack(h_cols, axis=1)
        # for K > 3 the closed form only skips LAPACK's eigenvalues of positive definite rows (the same steps and
        # stops); for K = 2, 3 it would change the rounding of these exact fits, which start the dynamics' refits
        g, step, lam_min = newton_step(alpha, g_a, h_common, h_diag, damping[idx], closed_form=K > 3,
                                       free=None if free is None else free[idx])
        trial = np.clip(eta[idx] + step, lo, hi)
        ll_trial = _loglik(np.exp(trial), sm, sr, sf, n_sub, sub_totals, cols)
        _better, done = newton_update(eta, ll, damping, idx, trial, ll_trial, g, step, lam_min)
        active[idx[done]] = False
    return eta


def _observed(model, rows, freq, n_models) -> np.ndarray:
    """Whether each fit has a trial in each category (n_models, K)."""
    return np.stack([np.bincount(model, weights=freq * (rows[:, j] > 0), minlength=n_models) > 0
                     for j in range(rows.shape[1])], axis=1)


def _restart_at_lower_bound(eta, model, rows, freq):
    """Refit models that stopped on the lower pseudo-count bound from a weak start; keep the better fit.

    On strongly U-shaped data (questions all right or all wrong) the likelihood in ``log alpha``
    can have a local maximum on the box's corner and a higher one inside; an even start of total
    strength 0.01 finds the inner one (as the per-model L-BFGS-B fit does). Only a category the
    fit observed counts as stuck: an unobserved one belongs at the bound
    (:func:`~scorio_core.uncertainty.prior_newton.frozen_categories`).
    """
    lo, _hi = _LOG_ALPHA_BOUNDS
    observed = _observed(model, rows, freq, eta.shape[0])
    stuck = np.flatnonzero(((eta <= lo + 1e-9) & observed).any(axis=1))
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
    return _fit_states(_CountStates.of(c), init)


@dataclass(frozen=True, eq=False)
class _CountStates:
    """The answered rows of an (L, M, K) count tensor as distinct states per model.

    ``model`` (S,), ``rows`` (S, K) float and ``freq`` (S,) float: model ``model[s]`` answered
    ``freq[s]`` questions with counts ``rows[s]`` (sorted by model). Every per-question sum of the
    posterior is a sum over these states weighted by ``freq``: O(L x distinct rows), not O(L x M).
    """

    L: int
    K: int
    model: np.ndarray
    rows: np.ndarray
    freq: np.ndarray

    @classmethod
    def of(cls, c: np.ndarray) -> "_CountStates":
        model, rows, freq = _states(c)
        return cls(c.shape[0], c.shape[2], model, rows, freq)

    def total(self, x: np.ndarray) -> np.ndarray:
        """Per model, the sum over its answered questions of the per-state values ``x`` (S,) -> (L,)."""
        return np.bincount(self.model, weights=self.freq * x, minlength=self.L)

    @property
    def n(self) -> np.ndarray:
        """Trials of each state (S,)."""
        return self.rows.sum(axis=1)


def _fit_states(st: _CountStates, init: np.ndarray | None = None, exact: bool = False, fallback: bool = False):
    """:func:`fit_dirichlet_prior_batch` from the count states (a :class:`BatchPrior`).

    ``exact``: iterate with the special functions on the states only (no survival sums), so the fits round as they
    always did: fits that start others (the dynamics' data fits) keep their exact values. ``fallback``: every model
    at its not-identified fallback, no fit (:mod:`scorio_core.uncertainty.strata`).
    """
    L, K = st.L, st.K
    pooled_counts = np.stack([st.total(st.rows[:, j]) for j in range(K)], axis=1) if K else np.zeros((L, 0))
    has = np.bincount(st.model, weights=st.freq, minlength=L) > 0
    most, pairs, split = (st.total(x) for x in ((st.n >= 2) * 1.0, st.n * (st.n - 1) / 2,  # questions tried twice,
                                                 (np.count_nonzero(st.rows, axis=1) >= 2) * 1.0))  # pairs, disagreeing
    n_q = np.maximum(np.bincount(st.model, weights=st.freq, minlength=L), 1.0)
    shares = np.stack([st.total(st.rows[:, j] / st.n) for j in range(K)], axis=1) / n_q[:, None] if K else None

    def solve(fit: np.ndarray, eta0: np.ndarray) -> np.ndarray:
        idx = np.flatnonzero(fit)
        keep = fit[st.model]
        position = np.full(L, -1, dtype=np.int64)
        position[idx] = np.arange(idx.size)
        model, rows, freq = position[st.model[keep]], st.rows[keep], st.freq[keep]
        terms = None if exact else survival_prior.SurvivalTerms.from_states(model, rows, freq, idx.size)
        if terms is None:
            return _fit_exact(model, rows, freq, eta0)
        eta, peak = survival_prior.fit(terms, eta0, _LOG_RIDGE)  # few trials per question: survival sums, same iterations
        ridge = np.flatnonzero(peak > _LOG_RIDGE)
        if ridge.size:  # near-flat likelihood: redo with the special functions, whose rounding chose the stop
            sub = np.full(idx.size, -1, dtype=np.int64)
            sub[ridge] = np.arange(ridge.size)
            keep = sub[model] >= 0
            eta[ridge] = _fit_exact(sub[model[keep]], rows[keep], freq[keep], eta0[ridge])
        return eta

    return _fit_pooled(pooled_counts, has, np.zeros(L) if fallback else most, init, solve, shares, pairs, split)


def _fit_exact(model, rows, freq, eta0):
    """Newton iterations on the count states with special functions, then the lower-bound restart."""
    eta = _newton(model, rows, freq, eta0, eta0.shape[0])
    return _restart_at_lower_bound(eta, model, rows, freq)


def _fit_pooled(pooled_counts: np.ndarray, has: np.ndarray, most: np.ndarray, init: np.ndarray | None, solve,
                question_shares: np.ndarray | None = None, pairs: np.ndarray | None = None, split=None) -> BatchPrior:
    """The fallbacks and start of every fit from its pooled counts (L, K), then ``solve(fit mask, eta0) -> eta``:
    ``has``: the fit has an answered question; ``most``: how many of its questions have two or more trials (``pairs``:
    pairs of trials of one question; ``split``: questions whose trials disagree, :func:`priors._too_few_repeats`);
    ``question_shares`` (L, K): each category's share averaged over the questions (each weighted equally), the
    estimate where the strength is not identified (default: the pooled shares; equal with equal trials per question).
    """
    L, K = pooled_counts.shape
    method = np.full(L, "marginal-likelihood", dtype=object)
    mean = np.full((L, K), np.nan)
    alpha = np.full((L, K), np.inf)
    pooled = np.ones(L, dtype=bool)
    degenerate = has & (np.count_nonzero(pooled_counts, axis=1) <= 1)
    n1 = has & ~degenerate & _too_few_repeats(most, most if pairs is None else pairs, split)
    method[~has] = "none"
    method[degenerate] = "fallback-degenerate"
    method[n1] = "fallback-n1"
    mean[degenerate] = (pooled_counts[degenerate] + 0.5) / (pooled_counts[degenerate].sum(axis=1, keepdims=True) + 0.5 * K)
    mean[n1] = (pooled_counts[n1] / pooled_counts[n1].sum(axis=1, keepdims=True) if question_shares is None
                else question_shares[n1])
    fit = has & ~degenerate & ~n1
    if fit.any():
        idx = np.flatnonzero(fit)
        m0 = np.clip(pooled_counts[idx] / pooled_counts[idx].sum(axis=1, keepdims=True), 1e-3, None)
        eta0 = np.log(2.0 * m0 / m0.sum(axis=1, keepdims=True))
        if init is not None:
            start = np.asarray(init, dtype=np.float64)[idx]
            good = np.all(np.isfinite(start) & (start > 0), axis=1)
            eta0[good] = np.clip(np.log(start[good]), *_LOG_ALPHA_BOUNDS)
        eta = solve(fit, eta0)
        alpha[idx] = np.exp(eta)
        mean[idx] = alpha[idx] / alpha[idx].sum(axis=1, keepdims=True)
        pooled[idx] = False
    return BatchPrior(alpha, mean, pooled, method.astype(str))
