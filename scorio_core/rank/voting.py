"""Voting ranking methods of ``scorio.rank``: questions as voters over the models' correct counts.

Each question ranks the models by ``k_lm`` (correct trials of model l on question m). Source: the
reference package scorio 0.2.3 (``scorio.rank.borda``, ``win_rate``, ``nanson``, ``baldwin``,
``majority_judgment``); same scores and ranks, vectorised: no L x L matrix (a model's wins on a
question are the models with fewer correct trials there, read off the question's ranks); the
elimination rules loop over rounds only, each round the Borda points of the models left read off a per-question
histogram of the counts (no sort; scipy's ``rankdata`` for the tie rules other than average/min/max); majority
judgment compares the models' majority-value sequences (medians in removal order) lexicographically.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["baldwin", "borda", "majority_judgment", "nanson", "win_rate"]


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


def _borda_points(k: np.ndarray, rank_ties: str) -> np.ndarray:
    """``(A - rankdata(-k, method=rank_ties, axis=0)).sum(axis=1)`` for integer counts ``k`` (A x M), the same values.

    For ``average``, ``min`` and ``max`` a model's points on a question are the models left below it plus its share
    of its tie group (``below + (equal - 1) / 2``, ``below + equal - 1``, ``below``), read off the question's
    histogram of counts: O(A M + N M) per round instead of a sort per question. The points are multiples of 1/2,
    so their sums are exact either way. Other tie rules (``dense``, ``ordinal``, unknown names: scipy's error) go
    through ``rankdata``.
    """
    A, M = k.shape
    if rank_ties not in ("average", "min", "max") or k.size == 0:
        return (A - rankdata(-k, method=rank_ties, axis=0)).sum(axis=1)
    levels = int(k.max()) + 1
    cell = k + levels * np.arange(M)  # (count, question) as one index
    equal = np.bincount(cell.ravel(), minlength=levels * M).reshape(M, levels)
    below = np.cumsum(equal, axis=1) - equal
    eq, lo = equal.ravel()[cell].astype(float), below.ravel()[cell].astype(float)
    points = {"average": lo + (eq - 1.0) / 2.0, "min": lo + eq - 1.0, "max": lo}[rank_ties]
    return points.sum(axis=1)


def _eliminate(R, rank_ties: str, nanson_rule: bool) -> np.ndarray:
    """Survival-round scores of Borda elimination: Nanson drops all at or below the mean, Baldwin the minimum."""
    k = validate_input(R).sum(axis=2)
    L = k.shape[0]
    alive = np.ones(L, dtype=bool)
    survival = np.zeros(L)
    round_idx = 0.0
    while alive.sum() > 1:  # one elimination round per pass
        idx = np.flatnonzero(alive)
        scores = _borda_points(k[idx], rank_ties)
        drop = scores <= float(scores.mean()) if nanson_rule else scores == float(np.min(scores))
        if drop.all():
            break
        survival[idx[drop]] = round_idx
        alive[idx[drop]] = False
        round_idx += 1.0
    survival[alive] = round_idx
    return survival


def nanson(R, rank_ties: str = "average", method: str = "competition", return_scores: bool = False):
    """Rank models by Nanson's rule: each round, drop every model whose Borda score (among those left) is <= the mean.

    Parameters
    ----------
    R, method, return_scores
        As :func:`borda`.
    rank_ties : str, default "average"
        ``scipy.stats.rankdata`` method of the per-question Borda ranks.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        Scores: the round a model was dropped in (0, 1, ...); the survivors take the last round + 1.
        If every model left ties at the mean, they all survive.

    Raises
    ------
    ValueError
        Bad ``R``; unknown ``rank_ties`` (scipy's message).

    Examples
    --------
    >>> nanson([[1, 1, 1], [1, 1, 0], [0, 0, 0]], return_scores=True)[1].tolist()
    [2.0, 1.0, 0.0]
    """
    return rank_with(_eliminate(R, rank_ties, True), method, return_scores)


def baldwin(R, rank_ties: str = "average", method: str = "competition", return_scores: bool = False):
    """Rank models by Baldwin's rule: each round, drop the model(s) with the minimum Borda score among those left.

    Parameters
    ----------
    R, method, return_scores, rank_ties
        As :func:`nanson`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        Survival-round scores as :func:`nanson`.

    Raises
    ------
    ValueError
        Bad ``R``; unknown ``rank_ties``.

    Examples
    --------
    >>> baldwin([[1, 1, 1], [1, 1, 0], [0, 0, 0]], return_scores=True)[1].tolist()
    [2.0, 1.0, 0.0]
    """
    return rank_with(_eliminate(R, rank_ties, False), method, return_scores)


def _removal_order(M: int) -> np.ndarray:
    """Sorted positions in the order iterated lower-median removal takes them: centre, then outwards.

    The lower median of the t grades left is position (t - 1) // 2; for odd M the next removal is left of the
    centre, for even M right of it, alternating outwards.
    """
    d = np.arange(M) - (M - 1) // 2
    key = np.where(d < 0, 2 * -d - (M % 2), 2 * d - (1 - M % 2))
    key[d == 0] = 0
    return np.argsort(key, kind="stable")


def majority_judgment(R, method: str = "competition", return_scores: bool = False):
    """Rank models by Majority Judgment on the grades ``k_lm`` (lower median, then iterated median removal).

    Model i beats j at the first removal step where their medians differ, the higher median winning:
    the lexicographic order of each model's sequence of medians.

    Parameters
    ----------
    R, method, return_scores
        As :func:`borda`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        Level scores: L for the best class of equal sequences, L - 1 for the next, ...

    Raises
    ------
    ValueError
        Bad ``R``.

    Examples
    --------
    >>> majority_judgment([[1, 1, 0], [1, 0, 0], [0, 0, 1]], return_scores=True)[1].tolist()
    [3.0, 2.0, 2.0]
    """
    k = validate_input(R).sum(axis=2)
    L, M = k.shape
    medians = np.sort(k, axis=1)[:, _removal_order(M)]
    _, group = np.unique(medians, axis=0, return_inverse=True)  # groups in ascending lexicographic order
    group = np.asarray(group).reshape(-1)
    return rank_with(L - (group.max() - group).astype(float), method, return_scores)
