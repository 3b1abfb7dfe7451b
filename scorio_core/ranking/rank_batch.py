"""Batch ranking kernels: competition ranks and Kendall's tau_b for many rankings at once.

Private-style kernels (no validation) behind :mod:`scorio_core.ranking.rank`,
:mod:`scorio_core.dynamics.trajectory` and :mod:`scorio_core.dynamics.convergence`; the public, validated
forms are :func:`scorio_core.ranking.rank.competition_ranks` and :func:`scorio_core.ranking.rank.kendall_tau_b`.
Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, Appendix I.1 (Eq. 26).
"""

from __future__ import annotations

import numpy as np

from scorio_core.eval.ranking import near_tie_snap

__all__ = ["batch_competition_ranks", "batch_group_ranks", "name_group_labels", "batch_tau_b", "batch_ranks_tau"]


def batch_competition_ranks(scores: np.ndarray, tol: float = 1e-12) -> np.ndarray:
    """Competition ranks along the last axis of ``scores`` (..., L) (kernel, no validation).

    Same rule as :func:`scorio_core.eval.competition_ranks_from_scores` applied to every
    slice: sort descending (stable), start a new rank where the gap to the previous score
    exceeds ``tol`` (ties chain), rank = 1 + number of models strictly ahead. Returns int16.
    """
    scores = np.asarray(scores, dtype=float)
    L = scores.shape[-1]
    flat = scores.reshape(-1, L)
    order = np.argsort(-flat, axis=1, kind="stable")
    ordered = np.take_along_axis(flat, order, axis=1)
    starts = np.empty(flat.shape, dtype=bool)
    starts[:, 0] = True
    np.greater(ordered[:, :-1] - ordered[:, 1:], tol, out=starts[:, 1:])
    positions = np.arange(1, L + 1, dtype=np.int16)
    ranks_sorted = np.maximum.accumulate(np.where(starts, positions, np.int16(0)), axis=1)
    ranks = np.empty(flat.shape, dtype=np.int16)
    np.put_along_axis(ranks, order, ranks_sorted, axis=1)
    return ranks.reshape(scores.shape)


def batch_group_ranks(scores: np.ndarray, labels, tol: float = 1e-12) -> np.ndarray:
    """Competition ranks within groups along the last axis of ``scores`` (..., L) (kernel, no validation).

    ``labels`` (L,) gives each model's group (integers >= 0); a model's rank is 1 + the number of models *of its
    group* strictly ahead (ties chain as in :func:`batch_competition_ranks`), so every group has its own rank 1.
    Vectorised: each group's scores are moved to its own band of the real line (``label * span``, ``span`` wider
    than the scores' whole range, so no band overlaps another and gaps inside a band are unchanged), the bands are
    ranked together, and the models of the bands above are subtracted. Returns int16.

    >>> batch_group_ranks(np.array([[0.9, 0.1, 0.5, 0.7]]), [0, 0, 1, 1]).tolist()
    [[1, 2, 2, 1]]
    """
    scores = np.asarray(scores, dtype=float)
    lab = np.asarray(labels, dtype=np.int64)
    finite = scores[np.isfinite(scores)]
    span = 1.0 + (float(finite.max() - finite.min()) if finite.size else 0.0)
    ranks = batch_competition_ranks(scores + lab * span, tol)
    above = np.bincount(lab, minlength=int(lab.max()) + 1 if lab.size else 0)[::-1].cumsum()[::-1]  # models in groups >= g
    ahead = np.append(above[1:], 0)[lab]  # models in the bands above each model's own
    return (ranks - ahead).astype(np.int16)


def name_group_labels(names, groups):
    """Group label (int64, 0 = the first list) of each of ``names`` from lists of names; None with one group.

    >>> name_group_labels(["a", "b", "c", "d"], [["c", "a"], ["b"]]).tolist()
    [0, 1, 0, 2]
    """
    if not groups or len(groups) < 2:
        return None
    where = {str(m): i for i, g in enumerate(groups) for m in g}
    own = iter(range(len(groups), len(groups) + len(names)))  # an answered model in no list: a group of its own
    labels = np.array([where[m] if m in where else next(own) for m in names], dtype=np.int64)
    if np.unique(labels).size < 2:
        return None
    return np.unique(labels, return_inverse=True)[1].reshape(-1).astype(np.int64)  # 0..G-1, first lists first


def batch_tau_b(ranks: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """Kendall's tau_b of every ranking in ``ranks`` (..., L) against ``gold`` (broadcastable).

    Kernel of :func:`kendall_tau_b` for many rankings at once (no validation): Eq. 26 of
    the paper, ``(n_c - n_d) / sqrt((n_0 - n_1)(n_0 - n_2))`` from the sign matrices
    ``sign(r_i - r_j)`` (small integers, chunked); NaN where a ranking is all ties
    (scipy's convention). Returns float64 of shape ``ranks.shape[:-1]``.
    """
    ranks = np.asarray(ranks)
    gold = np.asarray(gold)
    L = ranks.shape[-1]
    dtype = np.int8 if L <= 127 else np.int32
    gold_b = np.broadcast_to(gold, ranks.shape)
    r2 = ranks.reshape(-1, L).astype(dtype)
    g2 = gold_b.reshape(-1, L).astype(dtype)
    fixed = gold.ndim == 1
    out = np.empty(r2.shape[0])
    step = max(1, 4_000_000 // (L * L))
    if fixed:
        g_sign = np.sign(g2[0, :, None] - g2[0, None, :])
        den_g_all = np.count_nonzero(g_sign) // 2
    for start in range(0, r2.shape[0], step):
        r = r2[start : start + step]
        d = np.sign(r[:, :, None] - r[:, None, :])
        if fixed:
            gs, den_g = g_sign, den_g_all
        else:
            g = g2[start : start + step]
            gs = np.sign(g[:, :, None] - g[:, None, :])
            den_g = np.count_nonzero(gs.reshape(len(g), -1), axis=1) // 2
        num = np.multiply(d, gs).reshape(len(r), -1).sum(axis=1, dtype=np.int64) // 2
        den_r = np.count_nonzero(d.reshape(len(r), -1), axis=1) // 2
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + step] = num / np.sqrt(den_r.astype(float) * den_g)
    return out.reshape(ranks.shape[:-1])


def batch_ranks_tau(scores: np.ndarray, gold: np.ndarray | None = None, tol: float = 1e-12, chunk: int = 4096,
                    rtol: float = 0.0):
    """Competition ranks of the columns of ``scores`` (L, X) and their tau_b against ``gold``.

    Kernel for the bootstrap (no validation). ``rank_i = 1 + #{j : s_j - s_i > tol}`` for
    every column; equal to :func:`batch_competition_ranks` except for chains of values
    spaced just under ``tol`` (which that function merges), a difference far below the
    round-off of the scores it is used on. Kendall's tau_b (Eq. 26) is counted in the same
    pass: with models sorted by ``gold``, a pair is concordant when the better-in-gold model
    is strictly ahead, and ``n_0 - n_1 = sum_i (rank_i - 1)`` for competition ranks.

    Parameters
    ----------
    scores : ndarray of float, shape (L, X)
    gold : ndarray of int, shape (L,), optional
        Fixed gold-standard ranks; None skips tau.
    tol : float
    chunk : int
        Columns per inner block (keeps the (L, chunk) work arrays in cache).
    rtol : float, default 0.0
        When positive, each column's near ties are grouped first as the leaderboard groups them
        (:func:`scorio_core.eval.ranking.near_tie_snap`, block by block): the ranks are then those of
        :func:`scorio_core.eval.ranking.near_tie_ranks` (with ``tol`` 1e-12), so a fit's last digits
        split no tie.

    Returns
    -------
    ranks : ndarray of int16, shape (L, X)
    tau : ndarray of float64, shape (X,), or None
    """
    L, X = scores.shape
    ranks = np.empty((L, X), dtype=np.int16)
    if gold is None:
        order = np.arange(L)
        before = after = None
    else:
        gold = np.asarray(gold)
        order = np.argsort(gold, kind="stable")
        sorted_gold = gold[order]
        before = np.searchsorted(sorted_gold, sorted_gold, side="left")  # rows better in gold
        after = np.searchsorted(sorted_gold, sorted_gold, side="right")  # rows worse in gold
        concordance = np.empty(X, dtype=np.int64)
    ordered = scores[order]
    ahead = np.empty((L, min(chunk, X)), dtype=bool)
    for c0 in range(0, X, chunk):
        block = ordered[:, c0 : c0 + chunk]
        if rtol > 0:  # a group's scores set to its best: the exact comparisons below then rank as near_tie_ranks
            block = np.ascontiguousarray(near_tie_snap(block.T, rtol).T)
        width = block.shape[1]
        a = ahead[:, :width]
        r = np.ones((L, width), dtype=np.int16)
        nc = np.zeros(width, dtype=np.int64)
        for j in range(L):
            np.less(block, block[j] - tol, out=a)  # a[i]: model j strictly ahead of model i
            r += a
            if gold is not None:
                if after[j] < L:
                    nc += a[after[j] :].sum(axis=0)
                if before[j] > 0:
                    nc -= a[: before[j]].sum(axis=0)
        ranks[order, c0 : c0 + chunk] = r
        if gold is not None:
            concordance[c0 : c0 + chunk] = nc
    if gold is None:
        return ranks, None
    untied_r = (ranks - 1).sum(axis=0, dtype=np.int64)
    untied_g = int(np.sum(L - after))  # pairs not tied in gold: models strictly worse than each
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = concordance / np.sqrt(untied_r.astype(float) * untied_g)
    return ranks, tau
