"""Spectral and Hodge ranking methods of ``scorio.rank``: rank_centrality, hodge_rank, serial_rank.

Each builds L x L matrices from the pairwise counts ``W_ij`` (trials where i is right and j wrong) and
``T_ij`` (equal outcomes) of :func:`~scorio_core.rank.graph.pairwise_counts` (bit-packed popcounts, no loop
over model pairs) and ranks by the stationary distribution of a random walk (Negahban, Oh and Shah 2017),
the least-squares potential of an edge flow (Jiang, Lim, Yao and Ye 2011), or a Fiedler vector
(Fogel, d'Aspremont and Vojnovic 2016). Source: the reference package scorio 0.2.3
(``scorio.rank.rank_centrality``, ``hodge_rank``, ``serial_rank``); same matrices, iterations, scores, ranks
and errors.
"""

from __future__ import annotations

import numpy as np

from scorio_core.rank.graph import pairwise_counts, strongly_connected
from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["hodge_rank", "rank_centrality", "serial_rank"]


def rank_centrality(R, method: str = "competition", return_scores: bool = False, tie_handling: str = "half",
                    smoothing: float = 0.0, teleport: float = 0.0, max_iter: int = 10_000, tol: float = 1e-12):
    """Rank models by Rank Centrality: the stationary distribution of a walk towards the models that win.

    ``w = W + T / 2`` (``tie_handling="half"``) or ``W`` (``"ignore"``), plus ``smoothing``; on every pair with
    ``w_ij + w_ji > 0``, ``P_ij = w_ji / (w_ij + w_ji) / d_max`` (``d_max`` the largest degree), ``P_ii = 1 - sum``,
    mixed with the uniform walk by ``teleport``; power iteration ``pi <- P^T pi`` (normalised) from uniform until
    the L1 change is below ``tol``.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False
        Also return the stationary distribution.
    tie_handling : {"half", "ignore"}, default "half"
    smoothing : float, default 0.0
        Non-negative pseudocount added to every directed win count.
    teleport : float, default 0.0
        In [0, 1).
    max_iter : int, default 10000
    tol : float, default 1e-12

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)

    Raises
    ------
    ValueError
        ``R``, ``tie_handling``, ``smoothing``, ``teleport``, ``max_iter`` < 1 or ``tol`` invalid (in that order,
        the reference's messages); with ``tie_handling="ignore"`` and no smoothing or teleport, a transition
        support that is not strongly connected.
    TypeError
        ``max_iter`` not an integer.
    """
    R = validate_input(R)
    L = R.shape[0]
    tie_handling = str(tie_handling)
    if tie_handling not in {"ignore", "half"}:
        raise ValueError('tie_handling must be "ignore" or "half"')
    smoothing = float(smoothing)
    if not np.isfinite(smoothing) or smoothing < 0:
        raise ValueError("smoothing must be >= 0")
    teleport = float(teleport)
    if not np.isfinite(teleport) or not (0.0 <= teleport < 1.0):
        raise ValueError("teleport must be in [0, 1)")
    if not isinstance(max_iter, (int, np.integer)):  # the reference accepts True here
        raise TypeError(f"max_iter must be an integer, got {type(max_iter).__name__}")
    max_iter = int(max_iter)
    if max_iter < 1:
        raise ValueError(f"max_iter must be >= 1, got {max_iter}")
    tol = float(tol)
    if not np.isfinite(tol) or tol <= 0.0:
        raise ValueError(f"tol must be a positive finite scalar, got {tol}")
    wins, ties = pairwise_counts(R)
    if tie_handling == "half":
        wins = wins + 0.5 * ties
    wins = wins + smoothing
    total = wins + wins.T
    adj = (total > 0) & ~np.eye(L, dtype=bool)
    d_max = int(adj.sum(axis=1).max())
    p_ji = np.zeros((L, L))
    p_ji[adj] = wins.T[adj] / total[adj]
    if teleport == 0.0 and smoothing == 0.0 and tie_handling == "ignore" and not strongly_connected(p_ji > 0.0):
        raise ValueError("Rank Centrality requires strongly connected positive transition support when "
                         "tie_handling='ignore'; use teleport>0, smoothing>0, or tie_handling='half'.")
    if d_max == 0:
        return rank_with(np.ones(L) / L, method, return_scores)
    P = np.zeros((L, L))
    P[adj] = p_ji[adj] / float(d_max)
    np.fill_diagonal(P, 1.0 - P.sum(axis=1))
    if teleport > 0.0:
        P = (1.0 - teleport) * P + teleport * (np.ones((L, L)) / L)
    PT = P.T
    pi = np.ones(L) / L
    for _ in range(max_iter):
        new = PT @ pi
        s = new.sum()
        if s <= 0:
            pi = np.ones(L) / L
            break
        new = new / s
        done = np.abs(new - pi).sum() < tol
        pi = new
        if done:
            break
    return rank_with(pi, method, return_scores)


def hodge_rank(R, pairwise_stat: str = "binary", weight_method: str = "total", epsilon: float = 0.5,
               method: str = "competition", return_scores: bool = False, return_diagnostics: bool = False):
    """Rank models by l2 HodgeRank: the potential ``s`` whose gradient best fits the pairwise edge flow.

    ``s = -pinv(Delta_0) div(Y)``: the minimum-norm least-squares solution of ``sum_{i<j} w_ij (s_j - s_i - Y_ij)^2``
    with the weighted graph Laplacian ``Delta_0`` and ``div(Y)_i = sum_j w_ij Y_ij``.

    Parameters
    ----------
    R, method
        As :func:`rank_centrality`.
    pairwise_stat : {"binary", "log_odds"}, default "binary"
        ``Y_ij = (W_ji - W_ij) / n_ij`` or ``log((n_ij - W_ij + eps) / (n_ij - W_ji + eps))``, ``n_ij = W_ij + W_ji + T_ij``.
    weight_method : {"total", "decisive", "uniform"}, default "total"
        ``w_ij = n_ij``, ``W_ij + W_ji`` or ``[n_ij > 0]``.
    epsilon : float, default 0.5
        Positive smoothing count of ``"log_odds"`` (validated only there).
    return_scores : bool, default False
        Also return the potentials (higher is better).
    return_diagnostics : bool, default False
        Return ``(ranks, scores, {"residual_l2", "relative_residual_l2"})``: the weighted residual norm
        ``||Y - grad s||_{2,w}`` over the edges and its ratio to ``||Y||_{2,w}``.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores), or (ranks, scores, diagnostics)

    Raises
    ------
    ValueError
        ``R``, ``pairwise_stat``, ``epsilon`` (log-odds) or ``weight_method`` invalid (in that order).
    """
    R = validate_input(R)
    L = R.shape[0]
    wins, ties = pairwise_counts(R)
    total = wins + wins.T + ties
    pairwise_stat = str(pairwise_stat)
    Y = np.zeros((L, L))
    has = total > 0
    if pairwise_stat == "binary":
        Y[has] = (wins.T[has] - wins[has]) / total[has]
    elif pairwise_stat == "log_odds":
        epsilon = float(epsilon)
        if not np.isfinite(epsilon) or epsilon <= 0:
            raise ValueError("epsilon must be > 0 for log-odds smoothing")
        Y[has] = np.log((total - wins + epsilon)[has] / (total - wins.T + epsilon)[has])
    else:
        raise ValueError('pairwise_stat must be one of: "binary", "log_odds"')
    np.fill_diagonal(Y, 0.0)
    weight_method = str(weight_method)
    if weight_method == "total":
        w = total.copy()
    elif weight_method == "decisive":
        w = wins + wins.T
    elif weight_method == "uniform":
        w = has.astype(float)
    else:
        raise ValueError('weight_method must be one of: "total", "decisive", "uniform"')
    np.fill_diagonal(w, 0.0)
    if not np.any(w > 0):
        scores, diagnostics = np.ones(L) / L, {"residual_l2": 0.0, "relative_residual_l2": 0.0}
        if not return_scores:  # the reference returns the ranks alone here, even with return_diagnostics
            return rank_with(scores, method, False)
        return rank_with(scores, method, True) + ((diagnostics,) if return_diagnostics else ())
    lap = -w
    np.fill_diagonal(lap, 0.0)
    np.fill_diagonal(lap, -lap.sum(axis=1))
    scores = -np.linalg.pinv(lap) @ (w * Y).sum(axis=1)
    if not return_diagnostics:
        return rank_with(scores, method, return_scores)
    resid = Y - (scores[None, :] - scores[:, None])
    edges = np.triu(w > 0, 1)
    residual = float(np.sqrt(np.sum(w[edges] * resid[edges] ** 2)))
    denom = float(np.sqrt(np.sum(w[edges] * Y[edges] ** 2)))
    diagnostics = {"residual_l2": residual, "relative_residual_l2": residual / denom if denom > 0 else 0.0}
    return rank_with(scores, method, True) + (diagnostics,)


def _upsets(scores: np.ndarray, C: np.ndarray) -> tuple[int, float, float]:
    """Orientation key (disagreements, their weight, -agreement) of ``scores`` with the comparisons above the diagonal."""
    iu = np.triu_indices(scores.size, 1)
    c = C[iu]
    pred = np.sign((scores[:, None] - scores[None, :])[iu])
    nz = c != 0
    if not np.any(nz):
        return (0, 0.0, 0.0)
    c, pred = c[nz], pred[nz]
    bad = (pred == 0) | (pred * c < 0)
    return (int(np.sum(bad)), float(np.sum(np.abs(c[bad]))), -float(np.sum(pred * c)))


def serial_rank(R, comparison: str = "prob_diff", method: str = "competition", return_scores: bool = False):
    """Rank models by SerialRank: the Fiedler vector of the similarity ``S = (L 11^T + C C^T) / 2``.

    ``C_ij = (W_ij - W_ji) / n_ij`` (``"prob_diff"``) or ``sign(W_ij - W_ji)`` (``"sign"``); the eigenvector of the
    second-smallest eigenvalue of ``diag(S 1) - S``, oriented to disagree least with ``C``. A repeated Fiedler
    eigenvalue (relative gap <= 1e-10) or a constant vector falls back to the models' mean accuracy.

    Parameters
    ----------
    R, method, return_scores
        As :func:`rank_centrality`.
    comparison : {"prob_diff", "fractional", "sign", "majority"}, default "prob_diff"
        ``"fractional"`` and ``"majority"`` are aliases of ``"prob_diff"`` and ``"sign"``.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)

    Raises
    ------
    ValueError
        ``R`` or ``comparison`` invalid (in that order).
    """
    R = validate_input(R)
    L = R.shape[0]
    wins, ties = pairwise_counts(R)
    comparison = str(comparison)
    if comparison in {"prob_diff", "fractional"}:
        total = wins + wins.T + ties
        C = np.zeros((L, L))
        has = total > 0
        C[has] = (wins[has] - wins.T[has]) / total[has]
    elif comparison in {"sign", "majority"}:
        C = np.sign(wins - wins.T)
    else:
        raise ValueError('comparison must be "prob_diff" or "sign"')
    np.fill_diagonal(C, 0.0)
    S = 0.5 * (L * np.ones((L, L)) + C @ C.T)
    lap = np.diag(S.sum(axis=1)) - S
    eig, vec = np.linalg.eigh(lap)
    v = vec[:, 1]
    unique = L == 2 or bool(np.isfinite(eig[2] - eig[1]) and eig[2] - eig[1] > 1e-10 * max(1.0, np.max(np.abs(eig))))
    if not unique or not np.all(np.isfinite(v)) or np.allclose(v, v[0]):
        return rank_with(R.mean(axis=(1, 2)), method, return_scores)
    scores = v if _upsets(v, C) <= _upsets(-v, C) else -v
    if np.std(scores) < 1e-12:
        scores = R.mean(axis=(1, 2))
    return rank_with(scores, method, return_scores)
