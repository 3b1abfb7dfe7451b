"""Vectorized kernels for ranking, trajectories and bootstrap (many models/replicates at once).

These take sufficient statistics with leading batch axes and return arrays and share the formulas of
the public API, so a batch result equals the corresponding public function on one slice. The public
kernels check their arguments once, vectorised (a few O(size) passes, ValueError/TypeError naming the
argument); the package's own loops, whose data is validated upstream, call the unchecked
``_bayes_batch`` and ``_binary_question_scores``.
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
from scorio_core.eval._validate import _integer, as_weights, check_tau
from scorio_core.eval.bayes import bayes_moments

__all__ = ["bayes_batch", "binary_question_scores", "credit_values", "BINARY_METRICS"]

#: Per-question binary metrics understood by :func:`binary_question_scores`.
BINARY_METRICS = ("avg", "pass@k", "pass^k", "g-pass@k_tau", "mg-pass@k", "maj@k", "auc@k")


def _real_array(values: object, name: str, whole: bool = False) -> np.ndarray:
    """``values`` as an array of finite real (``whole``: integer-valued) numbers; no copy of an integer array."""
    try:
        array = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a rectangular array of numbers; got a ragged or malformed sequence.") from exc
    kind = array.dtype.kind
    if kind not in "biuf":
        raise TypeError(f"{name} must hold {'integers' if whole else 'real numbers'}; got dtype {array.dtype}.")
    if kind == "f" and not np.all(np.isfinite(array) & (array == np.trunc(array)) if whole else np.isfinite(array)):
        raise ValueError(f"{name} must hold finite {'whole numbers' if whole else 'values'}; got NaN, infinity"
                         f"{' or a fraction' if whole else ''}.")
    return array


def bayes_batch(counts, w=None, prior_counts=None) -> tuple[np.ndarray, np.ndarray]:
    """Bayes@N ``(mu, sigma)`` for counts of shape ``(..., M, C+1)``; results have shape ``(...)``.

    Same formula as :func:`scorio_core.eval.bayes` (Eq. 15, per-question ``T``).

    Parameters
    ----------
    counts : array-like of float, shape (..., M, C+1)
        Category counts per question, ``>= 0`` (expected counts may be fractional); leading axes are batch axes.
    w : array-like of float, shape (C+1,), optional
        Category weights; default ``[0, 1]`` (binary), which needs ``C+1 = 2``.
    prior_counts : array-like of float, broadcastable to ``counts``, optional
        Prior counts (the tallies of ``R0``); pseudo-counts ``alpha`` enter as ``alpha - 1``, so each must be > -1.

    Raises
    ------
    TypeError
        Non-numeric ``counts``, ``w`` or ``prior_counts``.
    ValueError
        ``counts`` of fewer than 2 axes, negative or not finite; ``w`` None with ``C+1 != 2`` or of another length
        than ``C+1``; ``prior_counts`` <= -1, not finite, or not broadcastable to ``counts``.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[[2, 3], [1, 4]]])           # one model, R of the reference docs
    >>> mu, sigma = bayes_batch(counts, np.array([0.0, 1.0]))
    >>> round(float(mu[0]), 6), round(float(sigma[0]), 6)
    (0.642857, 0.118451)
    >>> bayes_batch(counts)[0].round(6).tolist()        # w=None: binary [0, 1]
    [0.642857]
    """
    counts = _real_array(counts, "counts")
    if counts.ndim < 2 or 0 in counts.shape[-2:]:
        raise ValueError(f"counts must have shape (..., M, C+1) with M, C+1 >= 1; got shape {counts.shape}.")
    if counts.size and counts.min() < 0:
        raise ValueError(f"counts must be >= 0; got {counts.min()}.")
    width = counts.shape[-1]
    if w is None:
        if width != 2:
            raise ValueError(f"w is required when counts have C+1 = {width} categories (w=None means binary [0, 1], "
                             "C+1 = 2); pass one weight per category, e.g. w=[0, 0.5, 1].")
        w = np.array([0.0, 1.0])
    else:
        w = as_weights(w)
        if w.size != width:
            raise ValueError(f"w must have length C+1 = {width} (the last axis of counts); got length {w.size}.")
    if prior_counts is not None:
        prior_counts = _real_array(prior_counts, "prior_counts")
        try:
            fits = np.broadcast_shapes(prior_counts.shape, counts.shape) == counts.shape
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"prior_counts must broadcast to the shape of counts {counts.shape}; got {prior_counts.shape}.")
        if prior_counts.size and prior_counts.min() <= -1:
            raise ValueError(f"prior_counts must be > -1 (counts + prior_counts + 1 > 0); got {prior_counts.min()}.")
    return bayes_moments(counts, w, prior_counts)


def _bayes_batch(counts: np.ndarray, w: np.ndarray, prior_counts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`bayes_batch` without the argument checks, for callers that pass validated arrays."""
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
        Broadcastable arrays of successes and trials, ``0 <= n_correct <= n_trials``.
    k : int, default 1
        Draws, ``k >= 1`` (``avg`` ignores it).
    tau : float, optional
        Threshold of ``g-pass@k_tau``, in [0, 1].

    Returns
    -------
    ndarray of float
        The estimator of each question; NaN where ``n_trials < k`` (undefined).

    Raises
    ------
    TypeError
        ``k`` not an integer, or counts that are not integers.
    ValueError
        Unknown ``metric``, ``k < 1``, ``tau`` missing or outside [0, 1] for ``g-pass@k_tau``, ``n_trials < 0``,
        ``n_correct`` outside ``[0, n_trials]`` or shapes that do not broadcast.

    Examples
    --------
    >>> binary_question_scores("pass@k", [3, 4], [5, 5], k=2).round(6).tolist()
    [0.9, 1.0]
    """
    k = _integer(k, "k")
    if k < 1:
        raise ValueError(f"k must be an integer >= 1; got k={k}.")
    credit_values(metric, 1, None if tau is None else check_tau(tau))  # unknown metric, g-pass@k_tau without tau
    c = _real_array(n_correct, "n_correct", whole=True)
    n = _real_array(n_trials, "n_trials", whole=True)
    try:
        c, n = np.broadcast_arrays(c, n)
    except ValueError:
        raise ValueError(f"n_correct and n_trials must broadcast together; got shapes {c.shape} and {n.shape}.") from None
    if n.size:
        if n.min() < 0:
            raise ValueError(f"n_trials must be >= 0; got {n.min()}.")
        if c.min() < 0 or np.any(c > n):
            bad = np.flatnonzero(((c < 0) | (c > n)).ravel())[0]
            raise ValueError(f"n_correct must lie in [0, n_trials]; got n_correct={c.flat[bad]} with n_trials={n.flat[bad]}.")
    return _binary_question_scores(metric, c, n, k, tau)


def _binary_question_scores(metric: str, n_correct, n_trials, k: int = 1, tau: float | None = None) -> np.ndarray:
    """:func:`binary_question_scores` without the argument checks, for callers that pass validated counts."""
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
