"""Competition ranks from scores (the reference package's Julia ``competition_ranks_from_scores``), and the near-tie
rule of what the app and the CLI show (:func:`near_tie_ranks`; lightweight: the leaderboard's start-up imports it)."""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["competition_ranks_from_scores", "near_tie_ranks", "near_tie_snap", "NEAR_TIE_RTOL"]

#: Relative gap below which two scores are one tie in what the app and the CLI show (:func:`near_tie_ranks`).
NEAR_TIE_RTOL = 1e-6


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


def near_tie_ranks(scores, rtol: float = NEAR_TIE_RTOL) -> np.ndarray:
    """Competition ranks (higher is better, NaN last) with scores closer than ``rtol`` of the scale tied.

    An iterative fit's last digits are noise: Bradley-Terry gave two models with the same record (2 of 4 on one
    question) 1.2599210439 and 1.2599210431, ranks 1 and 2, and "1 of 3 models rank differently than under Bayes@N"
    (helper QA, 2026-12-01). The reference-exact functions (:func:`rank_scores`, absolute ``tol`` 1e-12) keep their
    ranks; what the app and the CLI show (method agreement, a method's leaderboard, its bootstrap intervals) use this.

    Parameters
    ----------
    scores : array_like of float, shape (..., L)
        One row of L scores per ranking (e.g. per bootstrap replicate).
    rtol : float, default :data:`NEAR_TIE_RTOL`
        Scores sorted from best, a score within ``rtol`` (relative to the larger of the two, plus 1e-12, the
        reference's absolute tolerance) of the one before joins its tie group (a chain of such neighbours is one group).

    Returns
    -------
    ndarray of float, shape (..., L)
        1 = best; NaN scores rank after every finite one (tied with each other).

    Examples
    --------
    >>> near_tie_ranks([1.2599210431, 0.5, 1.2599210439]).tolist()
    [1.0, 3.0, 1.0]
    >>> near_tie_ranks([4.86e8, 2.06e-9, 0.999]).tolist()
    [1.0, 3.0, 2.0]
    >>> near_tie_ranks([[3.0, 2.0, float("nan")], [1.0, 1.0, 2.0]]).tolist()
    [[1.0, 2.0, 3.0], [2.0, 2.0, 1.0]]
    """
    order, _, leader = _near_tie_groups(scores, rtol)
    ranks = np.empty(order.shape)
    np.put_along_axis(ranks, order, leader + 1.0, axis=-1)
    return ranks


def near_tie_snap(scores, rtol: float = NEAR_TIE_RTOL) -> np.ndarray:
    """Scores with every near-tie group (the groups of :func:`near_tie_ranks`) set to its best score.

    Any exact-comparison ranking of the result (competition ranks with the reference's 1e-12 tolerance,
    Kendall's tau_b counts) ranks as :func:`near_tie_ranks` does: a group's scores become equal, and the best
    score of the next group is more than 1e-12 below the last score of the one before. Used by the rank
    trajectories' batch kernels so that their ranks after n trials use the leaderboard's tie rule.

    Parameters
    ----------
    scores : array_like of float, shape (..., L)
        One row of L scores per ranking.
    rtol : float, default :data:`NEAR_TIE_RTOL`
        As in :func:`near_tie_ranks`.

    Returns
    -------
    ndarray of float, shape (..., L)
        NaN where ``scores`` is NaN.

    Examples
    --------
    >>> near_tie_snap([0.9083332941607232, 0.5, 0.9083333328649]).tolist()
    [0.9083333328649, 0.5, 0.9083333328649]
    """
    s = np.asarray(scores, dtype=float)
    order, desc, leader = _near_tie_groups(s, rtol)
    out = np.empty_like(desc)
    np.put_along_axis(out, order, np.take_along_axis(desc, leader, axis=-1), axis=-1)
    out[np.isnan(s)] = np.nan
    return out


def _near_tie_groups(scores, rtol: float):
    """(order best first, scores in that order with NaN as -inf, each one's group-leader position) along the last axis."""
    s = np.asarray(scores, dtype=float)
    s = np.where(np.isnan(s), -np.inf, s)
    order = np.argsort(-s, axis=-1, kind="stable")
    desc = np.take_along_axis(s, order, axis=-1)
    with np.errstate(invalid="ignore"):  # -inf - -inf: equal (NaN scores tie with each other)
        gap = desc[..., :-1] - desc[..., 1:]
        # relative to the pair itself: a diverging fit's 5e8 beside 1e-9 and 0.999 keeps all three apart
        scale = rtol * np.maximum(np.abs(desc[..., :-1]), np.abs(desc[..., 1:])) + 1e-12
        finite = np.isfinite(desc[..., :-1]) & np.isfinite(desc[..., 1:])
        same = (finite & (gap <= scale)) | (desc[..., :-1] == desc[..., 1:])  # equal infinities tie too
    positions = np.broadcast_to(np.arange(s.shape[-1]), s.shape)
    start = np.concatenate([np.zeros(s.shape[:-1] + (1,), bool), same], axis=-1)
    leader = np.maximum.accumulate(np.where(start, 0, positions), axis=-1)  # each run's first position
    return order, desc, leader
