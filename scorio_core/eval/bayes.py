r"""Bayes@N and avg@N with closed-form posterior uncertainty.

Hariri, Samandar, Hinczewski & Chaudhary (2026), "Don't Pass@k: A Bayesian Framework for
Large Language Model Evaluation", ICLR 2026, arXiv:2510.04265: section 2.4, Algorithm 1,
Appendix A (Eq. 15) and Appendix B (Eqs. 18-20).
"""

from __future__ import annotations

import math

import numpy as np

from scorio_core.eval._counts import CategoryCounts, category_counts
from scorio_core.eval._interval import ci_tuple
from scorio_core.eval._validate import check_bounds, check_confidence

__all__ = ["bayes", "bayes_ci", "avg", "avg_ci", "bayes_moments", "scaled_weights"]


def scaled_weights(w: np.ndarray) -> tuple[float, float, np.ndarray]:
    """Return ``(offset, scale, (w - offset) / scale)`` with ``offset = w[0]``.

    Working with weights shifted by ``w_0`` (as Eq. 15 does) and scaled to unit range keeps
    the arithmetic exact for extreme weights; ``scale = 0`` means all weights are equal.
    """
    offset = float(w[0])
    with np.errstate(over="ignore", invalid="ignore"):
        centered = w - offset
    if np.all(np.isfinite(centered)):
        scale = float(np.max(np.abs(centered)))
        if scale == 0.0:
            return offset, 0.0, np.zeros_like(w)
        return offset, scale, centered / scale
    scale = float(np.max(np.abs(w)))
    return 0.0, scale, w / scale


def _row_sums(counts: np.ndarray, w_norm: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(counts @ w, counts @ w**2, counts.sum(-1))`` with one matrix product.

    The counts go to float64 once (exact below 2**53) and meet ``[w, w**2, 1]`` in a single
    BLAS call instead of three integer reductions.
    """
    basis = np.stack([w_norm, w_norm * w_norm, np.ones_like(w_norm)], axis=1)
    sums = counts.astype(np.float64, copy=False) @ basis
    return sums[..., 0], sums[..., 1], sums[..., 2]


def _row_moments(
    counts: np.ndarray, w_norm: np.ndarray, prior_counts: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-question posterior mean, variance/(T+1) (normalized weight units) and T.

    With ``nu = counts + prior + 1`` and ``T = sum(nu)``:
    ``m1 = ((counts + prior) @ w + sum(w)) / T``, ``m2`` likewise with ``w**2``,
    ``var = (m2 - m1**2) / (T + 1)`` (Dirichlet posterior of ``w . pi``).
    """
    if prior_counts is not None:
        counts = counts + prior_counts
    return _moments_from_sums(*_row_sums(counts, w_norm), w_norm)


def _moments_from_sums(
    s1: np.ndarray, s2: np.ndarray, n: np.ndarray, w_norm: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_row_moments` from the row sums of :func:`_row_sums`."""
    total = n + float(w_norm.size)
    m1 = (s1 + w_norm.sum()) / total
    var = (s2 + (w_norm * w_norm).sum()) / total - m1 * m1
    if np.any(var < -_ROUNDOFF):
        raise FloatingPointError("Bayes@N posterior variance is materially negative")
    return m1, np.maximum(var, 0.0) / (total + 1.0), total


def bayes_moments(counts: np.ndarray, w: np.ndarray, prior_counts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    r"""Bayes@N posterior mean and standard deviation from category counts (vectorized).

    Parameters
    ----------
    counts : ndarray of int, shape (..., M, C+1)
        Category counts per question; leading axes are batch axes (models, replicates).
    w : ndarray of float, shape (C+1,)
        Category weights.
    prior_counts : ndarray of int, shape broadcastable to ``counts``, optional
        Prior outcome counts (the tallies of ``R0``).

    Returns
    -------
    mu, sigma : ndarray, shape (...)

    Notes
    -----
    With ``nu = counts + prior_counts + 1`` and per-question ``T = sum_j nu_j``
    (``= 1 + C + D + N``, the same for all questions unless rows are ragged)::

        mu      = w_0 + (1/M) sum_a sum_j (nu_aj / T_a) (w_j - w_0)
        sigma^2 = (1/M^2) sum_a [sum_j (nu_aj/T_a)(w_j - w_0)^2 - (sum_j (nu_aj/T_a)(w_j - w_0))^2] / (T_a + 1)

    This is Eq. 15 of the paper with ``T`` per question; identical when all rows have ``N`` trials.
    """
    counts = np.asarray(counts)
    n_questions = counts.shape[-2]
    offset, scale, w_norm = scaled_weights(np.asarray(w, dtype=float))
    batch_shape = counts.shape[:-2]
    if scale == 0.0:
        return np.full(batch_shape, offset), np.zeros(batch_shape)
    m1, var, _ = _row_moments(counts, w_norm, prior_counts)
    mu = offset + scale * m1.mean(axis=-1)
    sigma = scale * np.sqrt(var.sum(axis=-1)) / n_questions
    return mu, sigma


_ROUNDOFF = 64.0 * np.finfo(float).eps


def bayes(R, w=None, R0=None) -> tuple[float, float]:
    r"""Performance evaluation using the Bayes@N framework.

    Parameters
    ----------
    R : array-like of int, shape (M, N) or (N,), or CategoryCounts / BinaryCounts
        Outcomes with entries in ``{0, ..., C}``; row ``a`` holds the N trials of question
        ``a``. A 1-D array is one question. Bool and integral-float arrays are accepted.
        Count objects give the same result from sufficient statistics (ragged rows allowed).
    w : array-like of float, shape (C+1,), optional
        Weight of each category; ``None`` requires binary ``R`` and means ``[0, 1]``.
        May be longer than ``max(R) + 1`` (unused categories still count in ``T``).
    R0 : array-like of int, shape (M, D) or (M*D,), optional
        Prior outcomes per question (Dirichlet(+1) prior plus these counts).

    Returns
    -------
    mu : float
        Posterior mean of the weighted metric (same units as ``w``).
    sigma : float
        Posterior standard deviation (uncertainty over questions and trials).

    Raises
    ------
    TypeError
        Non-numeric ``R``, ``w`` or ``R0``.
    ValueError
        Empty or non-integral ``R``, categories outside ``0..len(w)-1``, ``w`` missing for
        non-binary ``R``, or ``R0`` with a different number of rows.

    Notes
    -----
    Algorithm 1 / Eq. 15 of the paper, with ``T = 1 + C + D + N``::

        n_ak  = #{i : R_ai = k},  n0_ak = 1 + #{i : R0_ai = k},  nu_ak = n_ak + n0_ak
        mu    = w_0 + 1/(M T) sum_a sum_j nu_aj (w_j - w_0)
        sigma = sqrt( 1/(M^2 (T+1)) sum_a [ sum_j nu_aj/T (w_j - w_0)^2 - (sum_j nu_aj/T (w_j - w_0))^2 ] )

    Ragged rows (extension): with :class:`CategoryCounts` rows of different totals, ``T``
    is taken per question (``T_a = 1 + C + D_a + N_a``); equal rows give the formula above.

    References
    ----------
    Hariri et al., ICLR 2026, arXiv:2510.04265, section 2.4, Algorithm 1, Appendix A.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 2, 2, 1],
    ...               [1, 1, 0, 2, 2]])
    >>> w = np.array([0.0, 0.5, 1.0])
    >>> R0 = np.array([[0, 2],
    ...                [1, 2]])
    >>> mu, sigma = bayes(R, w, R0)        # D=2, T=10
    >>> round(mu, 6), round(sigma, 6)
    (0.575, 0.084275)
    >>> mu2, sigma2 = bayes(R, w)          # D=0, T=8
    >>> round(mu2, 6), round(sigma2, 6)
    (0.5625, 0.091998)
    """
    counts, weights = category_counts(R, w, R0)
    mu, sigma = bayes_moments(counts.counts, weights, counts.prior_counts if counts.has_prior else None)
    return float(mu), float(sigma)


def bayes_ci(R, w=None, R0=None, confidence=0.95, bounds=None) -> tuple[float, float, float, float]:
    r"""Bayes@N posterior mean, uncertainty and central credible interval.

    Parameters
    ----------
    R, w, R0
        As in :func:`bayes`.
    confidence : float, default 0.95
        Credibility level of the interval, ``0 < confidence < 1``.
    bounds : tuple of float (lo, hi), optional
        Clip both ends of the interval into ``[lo, hi]`` (e.g. ``(0, 1)``).

    Returns
    -------
    mu, sigma, lo, hi : float
        ``lo, hi = mu -/+ z sigma`` with ``z = Phi^{-1}((1 + confidence) / 2)`` (1.96 at 0.95),
        a normal approximation to the posterior of the metric (paper section 2.5).

    Raises
    ------
    TypeError, ValueError
        As in :func:`bayes`; also ``confidence`` outside (0, 1) or ``bounds[0] > bounds[1]``.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1],
    ...               [1, 1, 0, 1, 1]])
    >>> mu, sigma, lo, hi = bayes_ci(R, bounds=(0.0, 1.0))
    >>> round(mu, 6), round(sigma, 6), round(lo, 4), round(hi, 4)
    (0.642857, 0.118451, 0.4107, 0.875)
    """
    confidence = check_confidence(confidence)
    bounds = check_bounds(bounds)
    mu, sigma = bayes(R, w, R0)
    return ci_tuple(mu, sigma, confidence, bounds)


def _avg_from_counts(counts: CategoryCounts, w: np.ndarray) -> tuple[float, float]:
    if counts.has_prior:
        raise ValueError("avg@N uses the uniform prior (D=0); prior_counts must be empty. Use bayes() for priors.")
    c = counts.counts
    offset, scale, w_norm = scaled_weights(w)
    if scale == 0.0:
        return offset, 0.0
    m = c.shape[0]
    observed, squares, n_trials = _row_sums(c, w_norm)
    if n_trials.min() == n_trials.max():
        a = offset + scale * (float(np.sum(observed)) / (m * n_trials[0]))  # scale last: finite for w near 1e308
    else:
        a = offset + scale * float(np.mean(observed / n_trials))
    # Eq. 20 per question: sigma_avg,a = (T_a / N_a) sigma_Bayes,a with T_a = 1 + C + N_a.
    _, var, total = _moments_from_sums(observed, squares, n_trials, w_norm)
    sigma = scale * math.sqrt(float(np.sum((total / n_trials) ** 2 * var))) / m
    return float(a), float(sigma)


def avg(R, w=None) -> tuple[float, float]:
    r"""avg@N (weighted average over questions and trials) with Bayesian uncertainty.

    Parameters
    ----------
    R : array-like of int, shape (M, N) or (N,), or CategoryCounts / BinaryCounts
        Outcomes with entries in ``{0, ..., C}``.
    w : array-like of float, shape (C+1,), optional
        Category weights; ``None`` requires binary ``R`` (``w = [0, 1]``).

    Returns
    -------
    a : float
        The (weighted) average ``1/(M N) sum_a sum_i w_{R_ai}`` (Eq. 18).
    sigma_a : float
        Bayesian uncertainty on the avg@N scale, ``(T / N) sigma_Bayes`` with
        ``T = 1 + C + N`` (Eq. 20); no CLT or bootstrap involved.

    Raises
    ------
    TypeError, ValueError
        As in :func:`bayes`.

    Notes
    -----
    Under the uniform prior, ``mu = A + N/(1+C+N) a`` (Eq. 19), so avg@N and Bayes@N give
    the same ranking (Appendix B). Ragged rows: ``a`` is the mean over questions of each
    question's average, and Eq. 20 is applied per question.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1],
    ...               [1, 1, 0, 1, 1]])
    >>> a, sigma = avg(R)
    >>> round(a, 6), round(sigma, 6)
    (0.7, 0.165831)
    >>> R = np.array([[0, 1, 2, 2, 1],
    ...               [1, 1, 0, 2, 2]])
    >>> a, sigma = avg(R, np.array([0.0, 0.5, 1.0]))
    >>> round(a, 6), round(sigma, 6)
    (0.6, 0.147196)
    """
    counts, weights = category_counts(R, w)
    return _avg_from_counts(counts, weights)


def avg_ci(R, w=None, confidence=0.95, bounds=None) -> tuple[float, float, float, float]:
    r"""avg@N with Bayesian sigma and a normal-approximation credible interval.

    Parameters
    ----------
    R, w
        As in :func:`avg`.
    confidence : float, default 0.95
        Credibility level, ``0 < confidence < 1``.
    bounds : tuple of float (lo, hi), optional
        Clip both interval ends into ``[lo, hi]``.

    Returns
    -------
    a, sigma_a, lo, hi : float
        ``lo, hi = a -/+ z sigma_a``, ``z = Phi^{-1}((1 + confidence)/2)``.

    Examples
    --------
    >>> import numpy as np
    >>> R = np.array([[0, 1, 1, 0, 1],
    ...               [1, 1, 0, 1, 1]])
    >>> a, sigma, lo, hi = avg_ci(R, bounds=(0.0, 1.0))
    >>> round(a, 4), round(sigma, 4), round(lo, 4), round(hi, 4)
    (0.7, 0.1658, 0.375, 1.0)
    >>> R = np.array([[0, 1, 2, 2, 1],
    ...               [1, 1, 0, 2, 2]])
    >>> a, sigma, lo, hi = avg_ci(R, np.array([0.0, 0.5, 1.0]), confidence=0.95)
    >>> round(a, 4), round(sigma, 4), round(lo, 4), round(hi, 4)
    (0.6, 0.1472, 0.3115, 0.8885)
    """
    confidence = check_confidence(confidence)
    bounds = check_bounds(bounds)
    a, sigma = avg(R, w)
    return ci_tuple(a, sigma, confidence, bounds)
