"""Voting ranking methods of ``scorio.rank``: questions as voters over the models' correct counts.

Each question ranks the models by ``k_lm`` (correct trials of model l on question m). Source: the
reference package scorio 0.2.3 (``scorio.rank.borda``, ``scorio.rank.win_rate``); same scores and
ranks, vectorised: no L x L matrix (a model's wins on a question are the models with fewer correct
trials there, read off the question's ranks).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["borda", "win_rate"]


def borda(R, method: str = "competition", return_scores: bool = False):
    """Rank models by Borda count: ``score_l = sum_m (L - r_lm)``, ``r_lm`` the average rank of ``-k_lm`` on question m.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)

    Raises
    ------
    ValueError
        Bad ``R``.

    Examples
    --------
    >>> borda([[1, 1, 0], [1, 0, 0], [0, 0, 1]], return_scores=True)[1].tolist()
    [4.0, 2.5, 2.5]
    """
    R = validate_input(R)
    k = R.sum(axis=2)
    L = k.shape[0]
    return rank_with((L - rankdata(-k, method="average", axis=0)).sum(axis=1), method, return_scores)


def win_rate(R, method: str = "competition", return_scores: bool = False):
    """Rank models by question-level win rate: wins / (wins + losses) over every pair and question; 0.5 with none.

    A win of l over j on question m is ``k_lm > k_jm``; ties count for neither.

    Parameters
    ----------
    R, method, return_scores
        As :func:`borda`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)

    Raises
    ------
    ValueError
        Bad ``R``.

    Examples
    --------
    >>> win_rate([[1, 1, 0], [1, 0, 0], [0, 0, 1]], return_scores=True)[1].round(4).tolist()
    [0.75, 0.3333, 0.4]
    """
    R = validate_input(R)
    k = R.sum(axis=2)
    L = k.shape[0]
    below = rankdata(k, method="min", axis=0) - 1  # models with fewer correct trials on each question
    above = L - rankdata(k, method="max", axis=0)  # models with more
    wins, losses = below.sum(axis=1), above.sum(axis=1)
    total = wins + losses
    scores = np.full(L, 0.5)
    seen = total > 0
    scores[seen] = wins[seen] / total[seen]
    return rank_with(scores, method, return_scores)
