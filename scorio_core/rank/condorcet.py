"""Condorcet (pairwise-majority) voting rules of ``scorio.rank``: copeland, minimax, schulze, ranked_pairs.

Each question is a voter that prefers model i to model j when ``k_im > k_jm`` (``k_lm``: correct trials of
model l on question m). Source: the reference package scorio 0.2.3 (``scorio.rank.copeland``, ``minimax``,
``schulze``, ``ranked_pairs``); same scores, ranks and errors. The L x L pairwise counts come from broadcast grade
comparisons over blocks of questions (no loop over models or questions); Schulze's strongest paths are a
Floyd-Warshall whose k-loop is vectorised over all (i, j); Ranked Pairs keeps the locked graph's transitive
closure, so each cycle test is one lookup.
"""

from __future__ import annotations

import numpy as np

from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["copeland", "level_scores", "minimax", "pairwise_wins", "preference_counts", "ranked_pairs", "schulze"]

_BLOCK = 4_000_000  # L * L * questions compared at once


def pairwise_wins(k: np.ndarray) -> np.ndarray:
    """``W[i, j]`` = number of questions m with ``k[i, m] > k[j, m]`` (float, zero diagonal).

    Broadcast comparisons of small-integer grades over blocks of questions (L * L * block <= 4e6 booleans):
    no BLAS call, so no thread contention on a busy machine, and a few milliseconds at 50 x 500.
    """
    k = np.asarray(k)
    L, M = k.shape
    if k.size and k.max() < 2**15 and k.min() >= 0:
        k = k.astype(np.int16)
    W = np.zeros((L, L), dtype=np.int64)
    step = max(1, _BLOCK // (L * L))
    for start in range(0, M, step):  # blocks of questions, each block vectorised
        block = k[:, start:start + step]
        W += (block[:, None, :] > block[None, :, :]).sum(axis=2, dtype=np.int64)
    return W.astype(float)


def preference_counts(k: np.ndarray, tie_policy: str) -> np.ndarray:
    """``P[i, j]``: questions preferring i to j; with ``tie_policy="half"`` a tied question counts 1/2 to each.

    Raises
    ------
    ValueError
        ``tie_policy`` is not ``"ignore"`` or ``"half"`` (the reference's message).
    """
    if tie_policy not in {"ignore", "half"}:
        raise ValueError("tie_policy must be one of {'ignore','half'}")
    W = pairwise_wins(k)
    if tie_policy == "ignore":
        return W
    P = W + 0.5 * (k.shape[1] - W - W.T)
    np.fill_diagonal(P, 0.0)
    return P


def level_scores(adj: np.ndarray) -> np.ndarray:
    """Topological level scores of a dominance relation ``adj[i, j]`` (i above j): L for the sources, then L - 1, ...

    Nodes left on a cycle all take the current level (the reference's fallback).
    """
    adj = np.asarray(adj, dtype=bool)
    L = adj.shape[0]
    scores = np.zeros(L)
    remaining = np.ones(L, dtype=bool)
    current = float(L)
    while remaining.any():  # one pass per level
        sources = remaining & ~adj[remaining].any(axis=0)
        if not sources.any():
            scores[remaining] = current
            break
        scores[sources] = current
        current -= 1.0
        remaining &= ~sources
    return scores


def _counts(R) -> np.ndarray:
    return validate_input(R).sum(axis=2)


def copeland(R, method: str = "competition", return_scores: bool = False):
    """Rank models by Copeland score: ``s_i = sum_{j != i} sign(W_ij - W_ji)``, W the question-level wins.

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
    >>> copeland([[1, 1, 0], [1, 0, 0], [0, 0, 1]], return_scores=True)[1].tolist()
    [2.0, -1.0, -1.0]
    """
    W = pairwise_wins(_counts(R))
    return rank_with(np.sign(W - W.T).sum(axis=1), method, return_scores)


def minimax(R, variant: str = "margin", tie_policy: str = "half", method: str = "competition",
            return_scores: bool = False):
    """Rank models by Minimax (Simpson-Kramer): minus the strength of a model's worst pairwise defeat.

    Parameters
    ----------
    R, method, return_scores
        As :func:`copeland`.
    variant : {"margin", "winning_votes"}, default "margin"
        Defeat of i by j measured by ``P_ji - P_ij`` or by ``P_ji``.
    tie_policy : {"half", "ignore"}, default "half"
        A tied question counts 1/2 to each side, or nothing.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        Scores ``-max_{j beats i} defeat(j, i)`` (``-0.0`` if undefeated).

    Raises
    ------
    ValueError
        Bad ``R``, ``tie_policy`` or ``variant`` (checked in that order, the reference's messages).
    """
    P = preference_counts(_counts(R), tie_policy)
    margin = P - P.T
    variant = str(variant)
    if variant not in {"margin", "winning_votes"}:
        raise ValueError("variant must be one of {'margin','winning_votes'}")
    defeat = np.where(margin > 0, margin if variant == "margin" else P, 0.0)  # defeat[j, i]: j beats i
    return rank_with(-defeat.max(axis=0), method, return_scores)


def schulze(R, tie_policy: str = "half", method: str = "competition", return_scores: bool = False):
    """Rank models by the Schulze beatpath method: level scores of ``p_ij > p_ji``, p the strongest-path strengths.

    ``p_ij`` starts at ``P_ij`` where ``P_ij > P_ji`` (else 0) and is closed by
    ``p_jk <- max(p_jk, min(p_ji, p_ik))`` over intermediates i.

    Parameters
    ----------
    R, method, return_scores, tie_policy
        As :func:`minimax`.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        Scores: L for models no one beats, L - 1 for the next level, ...

    Raises
    ------
    ValueError
        Bad ``R`` or ``tie_policy``.

    Examples
    --------
    A Condorcet cycle 0 > 1 > 2 > 0 with strengths 3, 2, 1 (see the tests): 0 wins, then 1, then 2.
    """
    P = preference_counts(_counts(R), tie_policy)
    p = np.where(P > P.T, P, 0.0)
    np.fill_diagonal(p, 0.0)
    for i in range(p.shape[0]):  # Floyd-Warshall over intermediates, each step over all (j, k) at once
        np.maximum(p, np.minimum.outer(p[:, i], p[i, :]), out=p)
        np.fill_diagonal(p, 0.0)
    return rank_with(level_scores(p > p.T), method, return_scores)


def victory_order(P: np.ndarray, strength: str = "margin") -> tuple[np.ndarray, np.ndarray]:
    """Ranked pairs' victories ``(winners, losers)`` in locking order: strength (margin or winning votes), then
    winning votes, then winner and loser index; ties of the pairwise preferences ``P`` (L, L) are no victory.

    Raises
    ------
    ValueError
        ``strength`` not "margin" or "winning_votes".
    """
    margin = P - P.T
    strength = str(strength)
    if strength not in {"margin", "winning_votes"}:
        raise ValueError("strength must be one of {'margin','winning_votes'}")
    i, j = np.triu_indices(P.shape[0], 1)
    decided = margin[i, j] != 0
    i, j = i[decided], j[decided]
    first = margin[i, j] > 0
    winner, loser = np.where(first, i, j), np.where(first, j, i)
    votes = P[winner, loser]
    primary = np.abs(margin[winner, loser]) if strength == "margin" else votes
    order = np.lexsort((loser, winner, -votes, -primary))
    return winner[order], loser[order]


def ranked_pairs(R, strength: str = "margin", tie_policy: str = "half", method: str = "competition",
                 return_scores: bool = False):
    """Rank models by Ranked Pairs (Tideman): lock victories strongest first unless they close a cycle.

    Victories are ordered by strength (margin ``|P_ij - P_ji|`` or winning votes ``P_ij``), then winning
    votes, then winner and loser index (the reference's deterministic tie-break).

    Parameters
    ----------
    R, method, return_scores, tie_policy
        As :func:`minimax`.
    strength : {"margin", "winning_votes"}, default "margin"

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)
        Topological level scores of the locked graph.

    Raises
    ------
    ValueError
        Bad ``R``, ``tie_policy`` or ``strength`` (in that order).
    """
    P = preference_counts(_counts(R), tie_policy)
    L = P.shape[0]
    winners, losers = victory_order(P, strength)
    reach = np.eye(L, dtype=bool)  # reach[a, b]: a path a -> b in the locked graph (reflexive)
    locked = np.zeros((L, L), dtype=bool)
    for w, lo in zip(winners, losers):  # one step per victory: a lookup and a rank-1 update
        if reach[lo, w]:
            continue
        locked[w, lo] = True
        if reach[w, lo]:  # already implied by locked victories: reachability unchanged (most pairs of a near order)
            continue
        rows = np.flatnonzero(reach[:, w])  # whatever reaches w now reaches everything lo reaches
        reach[rows] |= reach[lo]
    return rank_with(level_scores(locked), method, return_scores)
