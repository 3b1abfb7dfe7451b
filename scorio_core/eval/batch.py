"""Vectorized kernels for ranking, trajectories and bootstrap (many models/replicates at once).

These take sufficient statistics with leading batch axes and return arrays; they perform no
argument validation (callers pass clean arrays) and share the formulas of the public API,
so a batch result equals the corresponding public function on one slice.
"""

from __future__ import annotations

import numpy as np

from scorio_core.eval._scores import (
    auc_values,
    finite_state_scores,
    mg_values,
    pass_values,
    tau_threshold,
    threshold_values,
)
from scorio_core.eval.bayes import bayes_moments

__all__ = ["bayes_batch", "binary_question_scores", "credit_values", "BINARY_METRICS"]

#: Per-question binary metrics understood by :func:`binary_question_scores`.
BINARY_METRICS = ("avg", "pass@k", "pass^k", "g-pass@k_tau", "mg-pass@k", "maj@k", "auc@k")


def bayes_batch(counts: np.ndarray, w: np.ndarray, prior_counts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Bayes@N ``(mu, sigma)`` for counts of shape ``(..., M, C+1)``; results have shape ``(...)``.

    Same formula as :func:`scorio_core.eval.bayes` (Eq. 15, per-question ``T``).

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[[2, 3], [1, 4]]])           # one model, R of the reference docs
    >>> mu, sigma = bayes_batch(counts, np.array([0.0, 1.0]))
    >>> round(float(mu[0]), 6), round(float(sigma[0]), 6)
    (0.642857, 0.118451)
    """
    return bayes_moments(counts, w, prior_counts)


def credit_values(metric: str, k: int, tau: float | None = None) -> np.ndarray:
    """Credit vector (length ``k+1``) of a binary count-score metric; see ``_scores``."""
    if metric in ("avg", "pass@1"):
        return np.array([0.0, 1.0])
    if metric == "pass@k":
        return pass_values(k)
    if metric == "pass^k":
        return threshold_values(k, k)
    if metric == "g-pass@k_tau":
        if tau is None:
            raise ValueError("g-pass@k_tau needs tau in [0, 1].")
        return pass_values(k) if tau <= 0.0 else threshold_values(k, tau_threshold(tau, k))
    if metric == "mg-pass@k":
        return mg_values(k)
    if metric == "maj@k":
        return threshold_values(k, k // 2 + 1)
    if metric == "auc@k":
        return auc_values(k)
    raise ValueError(f"metric must be one of {', '.join(BINARY_METRICS)}; got {metric!r}.")


def binary_question_scores(metric: str, n_correct, n_trials, k: int = 1, tau: float | None = None) -> np.ndarray:
    """Per-question finite-sample estimator of a binary metric, broadcast over any shape.

    Parameters
    ----------
    metric : str
        One of :data:`BINARY_METRICS`.
    n_correct, n_trials : array-like of int
        Broadcastable arrays of successes and trials.
    k : int, default 1
        Draws (``avg`` ignores it).
    tau : float, optional
        Threshold of ``g-pass@k_tau``.

    Returns
    -------
    ndarray of float
        The estimator of each question; NaN where ``n_trials < k`` (undefined).

    Examples
    --------
    >>> binary_question_scores("pass@k", [3, 4], [5, 5], k=2).round(6).tolist()
    [0.9, 1.0]
    """
    c, n = np.broadcast_arrays(np.asarray(n_correct, dtype=np.int64), np.asarray(n_trials, dtype=np.int64))
    values = credit_values(metric, 1 if metric == "avg" else k, tau)
    kk = values.size - 1
    valid = n >= kk
    every = c.ndim > 0 and c.size > 0 and bool(valid.all())
    if not every:
        out = np.full(c.shape, np.nan)
        if not np.any(valid):
            return out
    base = int(n.max()) + 1
    nv, cv = (n, c) if every else (n[valid], c[valid])
    key = nv * base
    key += cv
    if base * base <= max(4 * key.size, 1 << 22) and int(cv.min()) >= 0 and int(cv.max()) < base:
        # small state space (n, c): a bincount finds the same sorted distinct states as np.unique, without a sort
        uniq = np.flatnonzero(np.bincount(key.ravel(), minlength=base * base))
        lut = np.empty(base * base)
        lut[uniq] = finite_state_scores(values, uniq // base, uniq % base)
        scores = lut[key]
    else:
        uniq, inverse = np.unique(key, return_inverse=True)
        scores = finite_state_scores(values, uniq // base, uniq % base)[inverse]
    if every:
        return scores.reshape(c.shape)
    out[valid] = scores
    return out
