"""Pointwise ranking methods of ``scorio.rank``: one score per model from its own outcomes.

Source: the reference package scorio 0.2.3 (``scorio.rank.avg``, ``scorio.rank.inverse_difficulty``);
same scores, ranks and errors.
"""

from __future__ import annotations

import numpy as np

from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["avg", "inverse_difficulty"]


def avg(R, method: str = "competition", return_scores: bool = False):
    """Rank models by mean accuracy over all questions and trials.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes (:func:`scorio_core.rank.ties.validate_input`).
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
        Tie convention (:func:`scorio_core.rank.ties.rank_scores`).
    return_scores : bool, default False
        Also return the scores.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        ``scores[l] = mean_{m, n} R[l, m, n]`` (avg@N).

    Raises
    ------
    ValueError
        Bad ``R`` (as the reference).
    KeyError
        Unknown ``method``.

    Examples
    --------
    >>> avg([[[1, 1], [0, 1]], [[0, 0], [1, 0]]], return_scores=True)[1].tolist()
    [0.75, 0.25]
    """
    R = validate_input(R)
    return rank_with(R.mean(axis=(1, 2)), method, return_scores)


def inverse_difficulty(R, method: str = "competition", return_scores: bool = False, clip_range: tuple = (0.01, 0.99)):
    """Rank models by inverse-difficulty-weighted per-question accuracy.

    ``w_m`` is proportional to ``1 / clip(p_bar_m, a, b)`` (``p_bar_m``: the solve rate of question m over
    every model and trial), normalised to sum to 1; ``score_l = sum_m w_m p_hat_lm``.

    Parameters
    ----------
    R, method, return_scores
        As :func:`avg`.
    clip_range : (float, float), default (0.01, 0.99)
        ``0 < a < b <= 1``.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)

    Raises
    ------
    ValueError
        Bad ``R``; ``clip_range`` not a pair, not finite or not ``0 < a < b <= 1`` (the reference's messages).

    Examples
    --------
    >>> inverse_difficulty([[[1, 1], [0, 0], [0, 0]], [[0, 0], [1, 1], [0, 0]]]).tolist()
    [1.0, 1.0]
    """
    R = validate_input(R)
    if len(clip_range) != 2:
        raise ValueError("clip_range must be a length-2 tuple (low, high).")
    low, high = float(clip_range[0]), float(clip_range[1])
    if not np.isfinite(low) or not np.isfinite(high):
        raise ValueError("clip_range values must be finite.")
    if not (0.0 < low < high <= 1.0):
        raise ValueError("clip_range must satisfy 0 < low < high <= 1.")
    L, M, N = R.shape
    k = R.sum(axis=2)  # one pass over the trials: per-question rates and per-model accuracies both come from it
    weights = 1.0 / np.clip(k.sum(axis=0) / (L * N), low, high)
    total = float(np.sum(weights))
    if not np.isfinite(total) or total <= 0.0:
        raise ValueError("inverse-difficulty weights are not finite; choose a stricter clip_range.")
    return rank_with((k / N) @ (weights / total), method, return_scores)
