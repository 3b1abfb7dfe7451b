"""Competition ranks from scores (the reference package's Julia ``competition_ranks_from_scores``)."""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["competition_ranks_from_scores"]


def competition_ranks_from_scores(scores_in_id_order, tol=1e-12) -> np.ndarray:
    """Competition ranks ("1224" ranking): higher score, better (lower) rank.

    Parameters
    ----------
    scores_in_id_order : array-like of float, shape (L,)
        One score per model, in model-id order.
    tol : float, default 1e-12
        Scores within ``tol`` of the previous score (in descending order) share its rank;
        ties chain, as in the reference implementation.

    Returns
    -------
    ndarray of int64, shape (L,)
        Rank of each model: ``1 + `` the number of models ranked strictly ahead.

    Raises
    ------
    TypeError
        Non-numeric scores or tolerance.
    ValueError
        Scores not 1-D, NaN scores, or negative ``tol``.

    Examples
    --------
    >>> competition_ranks_from_scores([0.95, 0.87, 0.87, 0.72, 0.65]).tolist()
    [1, 2, 2, 4, 5]
    """
    scores = np.asarray(scores_in_id_order)
    if scores.dtype.kind not in "biuf":
        raise TypeError(f"scores_in_id_order must hold real numbers; got dtype {scores.dtype}.")
    if scores.ndim != 1:
        raise ValueError(f"scores_in_id_order must be 1-D (one score per model); got shape {scores.shape}.")
    if isinstance(tol, (bool, np.bool_)) or not isinstance(tol, numbers.Real):
        raise TypeError(f"tol must be a real number; got {tol!r}.")
    if not tol >= 0:
        raise ValueError(f"tol must be >= 0; got {tol}.")
    scores = scores.astype(float)
    if np.any(np.isnan(scores)):
        raise ValueError("scores_in_id_order must not contain NaN; drop or impute the model first.")
    if scores.size == 0:
        return np.empty(0, dtype=np.int64)
    order = np.argsort(-scores, kind="stable")
    ordered = scores[order]
    # a new rank starts wherever the gap to the previous (descending) score exceeds tol
    starts = np.concatenate(([True], np.abs(np.diff(ordered)) > tol))
    positions = np.arange(1, scores.size + 1)
    ranks_sorted = np.maximum.accumulate(np.where(starts, positions, 0))
    ranks = np.empty(scores.size, dtype=np.int64)
    ranks[order] = ranks_sorted
    return ranks
