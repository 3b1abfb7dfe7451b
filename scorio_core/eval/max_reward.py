r"""Max@k: expected best reward among k draws, with a Dirichlet-posterior summary.

Bagirov et al. (2025), arXiv:2510.23393, Appendix C.1 (finite-sample estimator); the
posterior summary is the reference package's extension (``scorio`` 0.2.3), computed here in
closed form for all questions at once instead of a Python loop over rows.
"""

from __future__ import annotations

import math

import numpy as np

from scorio_core.eval._beta import _variance_from_logs, log_power_moment
from scorio_core.eval._counts import CategoryCounts, category_counts
from scorio_core.eval._interval import ci_tuple
from scorio_core.eval._scores import log_comb_int
from scorio_core.eval._validate import check_bounds, check_confidence, finite_k, latent_k
from scorio_core.eval.bayes import _avg_from_counts, bayes_ci, scaled_weights

__all__ = ["max_at_k", "max_at_k_ci"]


def _group_by_level(counts: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sum category counts that share a reward level; levels ascending. Shapes (M, L), (L,)."""
    levels, inverse = np.unique(w, return_inverse=True)
    grouped = np.zeros((counts.shape[0], levels.size), dtype=counts.dtype)
    np.add.at(grouped.T, inverse, counts.T)
    return grouped, levels


def max_at_k(R, k, w=None) -> float:
    r"""Max@k: expected best reward among k draws without replacement.

    Parameters
    ----------
    R : array-like of int, shape (M, N), or CategoryCounts / BinaryCounts
        Categorical outcomes in ``{0, ..., C}``.
    k : int
        Draws, ``1 <= k <= N``.
    w : array-like of float, shape (C+1,), optional
        Reward per category; ``None`` requires binary ``R`` (then Max@k = Pass@k).

    Returns
    -------
    float
        ``(1/M) sum_a C(N, k)^{-1} sum_{i=k}^{N} C(i-1, k-1) g_{a(i)}`` with sorted rewards
        ``g_{a(1)} <= ... <= g_{a(N)}``, evaluated as
        ``r_1 + sum_l (r_{l+1} - r_l) P(some draw above r_l)``.

    Raises
    ------
    TypeError, ValueError
        As in :func:`scorio_core.eval.bayes`; ``k`` outside ``1..N``.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> round(max_at_k(R, 2), 6)
    0.95
    >>> R = np.array([[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]])
    >>> round(max_at_k(R, 2, w=np.array([0.0, 0.5, 1.0])), 6)
    0.85
    """
    counts, weights = category_counts(R, w)
    n_trials = counts.n_trials
    k = finite_k(k, int(n_trials.min()))
    if k == 1:
        return _avg_from_counts(counts, weights)[0]
    grouped, levels = _group_by_level(counts.counts, weights)
    if levels.size == 1:
        return float(levels[0])
    at_or_below = np.cumsum(grouped, axis=1)[:, :-1]
    # P(at least one of k draws above level l) = 1 - C(#at-or-below, k) / C(N, k)
    any_above = -np.expm1(log_comb_int(at_or_below, k) - log_comb_int(n_trials[:, None], k))
    offset, scale, norm_levels = scaled_weights(levels)
    scores = norm_levels[0] + any_above @ np.diff(norm_levels)
    return float(offset + scale * np.mean(scores))


def _max_posterior(counts: CategoryCounts, weights: np.ndarray, k: int) -> tuple[float, float]:
    posterior = counts.counts + counts.prior_counts + 1
    grouped, levels = _group_by_level(posterior, weights)
    m = grouped.shape[0]
    if levels.size == 1:
        return float(levels[0]), 0.0
    rows, inverse, freq = np.unique(grouped, axis=0, return_inverse=True, return_counts=True)
    rows = rows.astype(float)
    total = rows.sum(axis=1, keepdims=True)
    cum = np.cumsum(rows, axis=1)[:, :-1]  # A_l ~ Beta(cum_l, T - cum_l), l = 1..L-1
    rest = total - cum
    log_k = log_power_moment(cum, rest, k)
    log_2k = log_power_moment(cum, rest, 2 * k)
    offset, scale, norm_levels = scaled_weights(levels)
    gaps = np.diff(norm_levels)
    exceed = -np.expm1(log_k)
    n_levels = cum.shape[1]
    cov = np.empty((rows.shape[0], n_levels, n_levels))
    cov[:, np.arange(n_levels), np.arange(n_levels)] = _variance_from_logs(log_2k, log_k)
    for i in range(n_levels - 1):  # loop over reward levels (C+1 at most), not questions
        a = cum[:, i : i + 1]
        b = cum[:, i + 1 :] - a
        # E[A_i^k A_j^k] = E[A_j^{2k}] E[U^k], U = A_i / A_j ~ Beta(a, b) independent of A_j
        log_cross = log_2k[:, i + 1 :] + log_power_moment(np.broadcast_to(a, b.shape), b, k)
        value = _variance_from_logs(log_cross, 0.5 * (log_k[:, i : i + 1] + log_k[:, i + 1 :]))
        cov[:, i, i + 1 :] = value
        cov[:, i + 1 :, i] = value
    norm_var = np.einsum("l,ulm,m->u", gaps, cov, gaps)
    if np.any(norm_var < -64.0 * np.finfo(float).eps):
        raise FloatingPointError("Max@k posterior variance is materially negative")
    norm_var = np.maximum(norm_var, 0.0)
    norm_mean = np.clip(norm_levels[0] + exceed @ gaps, norm_levels[0], norm_levels[-1])
    freq = freq.astype(float)
    mu = offset + scale * float(np.dot(freq, norm_mean)) / m
    sigma = scale * math.sqrt(float(np.dot(freq, norm_var))) / m
    return float(mu), float(sigma)


def max_at_k_ci(R, k, w=None, R0=None, confidence=0.95, bounds=None) -> tuple[float, float, float, float]:
    r"""Posterior mean, sigma and credible interval of the latent Max@k target.

    Parameters
    ----------
    R : array-like of int, shape (M, N), or CategoryCounts / BinaryCounts
        Categorical outcomes.
    k : int
        Draws, any ``k >= 1`` (the posterior target does not need ``k <= N``).
    w : array-like of float, shape (C+1,), optional
        Reward per category; ``None`` requires binary ``R``.
    R0 : array-like of int, shape (M, D), optional
        Prior outcomes (Dirichlet(+1) prior plus their counts), as in :func:`bayes`.
    confidence : float, default 0.95
        Credibility level.
    bounds : tuple (lo, hi), optional
        Clipping bounds; default ``(min(w), max(w))`` for ``k > 1``. ``k = 1`` is exactly
        :func:`bayes_ci` (no default clipping).

    Returns
    -------
    mu, sigma, lo, hi : float

    Notes
    -----
    With reward levels ``r_1 < ... < r_L`` and ``A_l`` the posterior probability of a reward
    at most ``r_l``, the per-question target is ``g = r_L - sum_l (r_{l+1} - r_l) A_l^k``.
    Under the grouped Dirichlet posterior, ``A_l ~ Beta(cum_l, T - cum_l)`` and
    ``E[A_i^k A_j^k] = E[A_j^{2k}] E[U^k]`` with ``U ~ Beta(cum_i, cum_j - cum_i)``, which
    gives the covariance of the ``A_l^k`` in closed form.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1], [1, 1, 0, 1, 1]])
    >>> mu, sigma, lo, hi = max_at_k_ci(R, 2)
    >>> round(mu, 6), round(sigma, 6), round(lo, 4), round(hi, 4)
    (0.839286, 0.097263, 0.6487, 1.0)
    >>> R = np.array([[0, 1, 2, 2, 1], [1, 1, 0, 2, 2]])
    >>> mu, sigma, lo, hi = max_at_k_ci(R, 2, w=np.array([0.0, 0.5, 1.0]))
    >>> round(mu, 6), round(sigma, 6), round(lo, 4), round(hi, 4)
    (0.75, 0.08812, 0.5773, 0.9227)
    """
    k = latent_k(k)
    if k == 1:
        return bayes_ci(R, w=w, R0=R0, confidence=confidence, bounds=bounds)
    counts, weights = category_counts(R, w, R0)
    confidence = check_confidence(confidence)
    bounds = check_bounds(bounds)
    mu, sigma = _max_posterior(counts, weights, k)
    if bounds is None:
        bounds = (float(np.min(weights)), float(np.max(weights)))
    return ci_tuple(mu, sigma, confidence, bounds)
