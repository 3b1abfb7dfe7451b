"""Graph and game ranking methods of ``scorio.rank``: pagerank, spectral, alpharank, nash.

Each builds an L x L operator from the pairwise counts ``W_ij`` (trials where i is right and j wrong,
over every question and trial) and ties ``T_ij``, and ranks by a stationary distribution, a Perron
vector or an equilibrium score. Source: the reference package scorio 0.2.3 (``scorio.rank.graph``);
same iterations, scores, ranks and errors. The counts are popcounts of the bit-packed outcomes,
broadcast over model pairs (no loop over models); the iterations are matrix-vector products.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse.csgraph import connected_components

from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["alpharank", "nash", "pagerank", "pairwise_counts", "spectral", "strongly_connected", "win_probabilities"]


def pairwise_counts(R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(W, T)``: ``W[i, j]`` trials where i is right and j wrong; ``T[i, j]`` trials with equal outcomes."""
    L = R.shape[0]
    bits = np.packbits(R.reshape(L, -1).astype(bool), axis=1)  # 8 outcomes a byte; padding bits are 0
    wins = np.zeros((L, L), dtype=np.int64)
    step = max(1, 4_000_000 // (L * L))
    for start in range(0, bits.shape[1], step):  # blocks of bytes: popcount of "i right, j wrong", no BLAS
        b = bits[:, start:start + step]
        wins += np.bitwise_count(b[:, None, :] & ~b[None, :, :]).sum(axis=2, dtype=np.int64)
    wins = wins.astype(float)
    ties = R[0].size - wins - wins.T
    np.fill_diagonal(wins, 0.0)
    np.fill_diagonal(ties, 0.0)
    return wins, ties


def question_wins(R: np.ndarray) -> np.ndarray:
    """``W_q`` of every question, shape (M, L, L): trials of question q where i is right and j wrong.

    Parameters
    ----------
    R : ndarray, shape (L, M, N)
        Binary outcomes.

    Returns
    -------
    ndarray of float64, shape (M, L, L)
        Integer-valued counts with a zero diagonal; ``question_wins(R)[q]`` equals
        ``pairwise_counts(R[:, [q]])[0]`` and their sum over q equals ``pairwise_counts(R)[0]``.
    """
    X = R.astype(np.float64)
    right = X.sum(axis=2).T  # (M, L)
    both = np.einsum("iqn,jqn->qij", X, X)
    return right[:, :, None] - both


def strongly_connected(adjacency: np.ndarray) -> bool:
    """Whether the directed graph (boolean adjacency, L x L) is strongly connected (``scipy.sparse.csgraph``)."""
    return connected_components(np.asarray(adjacency, dtype=bool), directed=True, connection="strong")[0] == 1


def win_probabilities(R: np.ndarray) -> np.ndarray:
    """``P[i, j] = (W_ij + T_ij / 2) / (W_ij + W_ji + T_ij)``, 0.5 on the diagonal."""
    wins, ties = pairwise_counts(R)
    P = (wins + 0.5 * ties) / (wins + wins.T + ties + np.eye(R.shape[0]))  # every off-diagonal total is M * N
    np.fill_diagonal(P, 0.5)
    return P


def _positive_int(name: str, value, min_value: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if int(value) < min_value:
        raise ValueError(f"{name} must be >= {min_value}, got {int(value)}")
    return int(value)


def _positive_float(name: str, value) -> float:
    out = float(value)
    if not np.isfinite(out) or out <= 0.0:
        raise ValueError(f"{name} must be a positive finite scalar, got {value}")
    return out


def pagerank(R, damping: float = 0.85, max_iter: int = 100, tol: float = 1e-6, method: str = "competition",
             return_scores: bool = False, teleport=None):
    """Rank models by damped PageRank on the head-to-head win-probability chain.

    ``Q = A / (L - 1)`` with ``A_ij = P_ij`` off the diagonal and ``A_ii = sum_{k != i} P_ik`` (column sums L - 1);
    ``r <- d Q r + (1 - d) e`` from uniform r until the L1 change is below ``tol`` or ``max_iter`` steps.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    damping : float, default 0.85
        In (0, 1).
    max_iter : int, default 100
    tol : float, default 1e-6
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False
    teleport : array_like, shape (L,), optional
        Non-negative teleport weights (normalised); uniform by default.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)

    Raises
    ------
    ValueError
        ``damping``, ``max_iter`` < 1, ``tol``, ``R`` or ``teleport`` invalid (in that order, the reference's messages).
    TypeError
        ``max_iter`` not an integer.
    """
    damping = float(damping)
    if not np.isfinite(damping) or not (0.0 < damping < 1.0):
        raise ValueError("damping must be in (0, 1)")
    max_iter = _positive_int("max_iter", max_iter)
    tol = _positive_float("tol", tol)
    R = validate_input(R)
    L = R.shape[0]
    if teleport is None:
        e = np.ones(L) / L
    else:
        e = np.asarray(teleport, dtype=float)
        if e.ndim != 1 or e.shape[0] != L:
            raise ValueError(f"teleport must have shape (L={L},), got {e.shape}")
        if not np.all(np.isfinite(e)):
            raise ValueError("teleport must contain finite values")
        if np.any(e < 0):
            raise ValueError("teleport must be nonnegative")
        if float(e.sum()) <= 0:
            raise ValueError("teleport must sum to a positive value")
        e = e / float(e.sum())
    A = win_probabilities(R)
    np.fill_diagonal(A, 0.0)
    np.fill_diagonal(A, A.sum(axis=1))
    Q = A / float(L - 1)
    r = np.ones(L) / L
    for _ in range(max_iter):
        r_new = damping * (Q @ r) + (1 - damping) * e
        done = np.abs(r_new - r).sum() < tol
        r = r_new
        if done:
            break
    return rank_with(r, method, return_scores)


def spectral(R, max_iter: int = 10_000, tol: float = 1e-12, method: str = "competition", return_scores: bool = False):
    """Rank models by Keener's Perron vector of ``A_ij = (W_ij + T_ij / 2 + 1) / (W_ij + W_ji + T_ij + 2)``.

    Power iteration on ``A + I`` (same eigenvectors), normalised to sum 1, until the L1 change is below ``tol``.

    Parameters
    ----------
    R, method, return_scores
        As :func:`pagerank`.
    max_iter : int, default 10000
    tol : float, default 1e-12

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)

    Raises
    ------
    ValueError, TypeError
        Bad ``max_iter``, ``tol`` or ``R`` (in that order).
    """
    max_iter = _positive_int("max_iter", max_iter)
    tol = _positive_float("tol", tol)
    R = validate_input(R)
    L = R.shape[0]
    wins, ties = pairwise_counts(R)
    A = (wins + 0.5 * ties + 1.0) / (wins + wins.T + ties + 2.0)
    np.fill_diagonal(A, 1.0)  # A + I
    v = np.ones(L) / L
    for _ in range(max_iter):
        v_new = A @ v
        s = float(v_new.sum())
        if s <= 0 or not np.all(np.isfinite(v_new)):
            return rank_with(np.ones(L) / L, method, return_scores)
        v_new = v_new / s
        if np.abs(v_new - v).sum() < tol:
            return rank_with(v_new, method, return_scores)
        v = v_new
    return rank_with(v, method, return_scores)


def _fixation(payoff: np.ndarray, alpha: float, m: int) -> np.ndarray:
    """Fermi fixation probability ``(1 - e^-u) / (1 - e^-mu)``, ``u = alpha m / (m - 1) (payoff - 1/2)``."""
    u = alpha * (m / float(m - 1)) * (payoff - 0.5)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        num, den = -np.expm1(-u), -np.expm1(-float(m) * u)
        rho = np.clip(num / den, 0.0, 1.0)
    rho = np.where(den == 0.0, 1.0 / m, rho)
    rho = np.where(u > 50, 1.0, np.where(u < -50, 0.0, rho))
    return np.where(np.abs(u) < 1e-14, 1.0 / m, rho)


def alpharank(R, alpha: float = 1.0, population_size: int = 50, max_iter: int = 100_000, tol: float = 1e-12,
              method: str = "competition", return_scores: bool = False):
    """Rank models by single-population alpha-Rank: the stationary distribution of the Fermi fixation chain.

    ``C[s, r] = rho(P_rs) / (L - 1)`` for a mutant r in a resident population s, ``C[s, s] = 1 - sum``;
    the stationary row vector by power iteration (L1 change below ``tol``).

    Parameters
    ----------
    R, method, return_scores
        As :func:`pagerank`.
    alpha : float, default 1.0
        Selection intensity, >= 0.
    population_size : int, default 50
        >= 2.
    max_iter : int, default 100000
    tol : float, default 1e-12

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)

    Raises
    ------
    ValueError, TypeError
        Bad ``max_iter``, ``tol``, ``population_size``, ``alpha`` or ``R`` (in that order).
    """
    max_iter = _positive_int("max_iter", max_iter)
    tol = _positive_float("tol", tol)
    m = _positive_int("population_size", population_size, min_value=2)
    alpha = float(alpha)
    if not np.isfinite(alpha) or alpha < 0.0:
        raise ValueError("alpha must be >= 0")
    R = validate_input(R)
    L = R.shape[0]
    C = _fixation(win_probabilities(R).T, alpha, m) / float(L - 1)
    np.fill_diagonal(C, 0.0)
    np.fill_diagonal(C, 1.0 - C.sum(axis=1))
    pi = np.ones(L) / L
    new, diff = np.empty(L), np.empty(L)
    for _ in range(max_iter):  # the reference's iterates, bit for bit, with fewer temporaries per step
        np.matmul(pi, C, out=new)
        s = new.sum()
        if not 0.0 < s < np.inf:  # s is NaN or inf exactly when an entry is not finite (entries are >= 0)
            pi = np.ones(L) / L
            break
        new /= s
        np.subtract(new, pi, out=diff)
        np.abs(diff, out=diff)
        pi, new = new, pi
        if diff.sum() < tol:
            break
    pi = np.clip(pi, 0.0, None)
    total = float(pi.sum())
    return rank_with(pi / total if total > 0 else np.ones(L) / L, method, return_scores)


def nash(R, n_iter: int = 100, temperature: float = 0.1, solver: str = "lp", score_type: str = "vs_equilibrium",
         return_equilibrium: bool = False, method: str = "competition", return_scores: bool = False):
    """Rank models against the Nash equilibrium of the zero-sum game ``A = 2 P - 1``.

    With tie-split win rates ``A_ij`` is the difference of the models' accuracies, so the label-invariant
    maximin mixture is uniform over the most accurate models (uniform over all if ``A`` is 0); the
    reference also solves the maximin LP, which is always feasible and bounded here, and discards it.

    Parameters
    ----------
    R, method, return_scores
        As :func:`pagerank`.
    n_iter : int, default 100
        Unused (validated as a positive integer).
    temperature : float, default 0.1
        Unused (validated as positive finite).
    solver : {"lp"}, default "lp"
    score_type : {"vs_equilibrium", "equilibrium", "advantage_vs_equilibrium"}, default "vs_equilibrium"
        ``P @ x``, ``x``, or ``A @ x``.
    return_equilibrium : bool, default False
        Also return the mixture ``x`` (last).

    Returns
    -------
    ndarray, shape (L,), or a tuple (ranks[, scores][, equilibrium])

    Raises
    ------
    ValueError, TypeError
        Bad ``n_iter``, ``temperature``, ``R``, ``solver`` or ``score_type`` (in that order).
    """
    _positive_int("n_iter", n_iter)
    temperature = float(temperature)
    if not np.isfinite(temperature) or temperature <= 0.0:
        raise ValueError("temperature must be a positive finite scalar")
    R = validate_input(R)
    L = R.shape[0]
    if str(solver) != "lp":
        raise ValueError('solver must be "lp"')
    score_type = str(score_type)
    if score_type not in {"vs_equilibrium", "equilibrium", "advantage_vs_equilibrium"}:
        raise ValueError('score_type must be one of "vs_equilibrium", "equilibrium", "advantage_vs_equilibrium"')
    P = win_probabilities(R)
    A = 2.0 * P - 1.0
    np.fill_diagonal(A, 0.0)
    if np.allclose(A, 0.0, atol=1e-14):
        x = np.ones(L) / L
    else:
        totals = R.sum(axis=(1, 2))
        best = totals == totals.max()
        x = best.astype(float) / np.count_nonzero(best)
    scores = {"equilibrium": x, "advantage_vs_equilibrium": A @ x, "vs_equilibrium": P @ x}[score_type]
    ranking = rank_with(scores, method, False)
    out = (ranking,) + ((scores,) if return_scores else ()) + ((x,) if return_equilibrium else ())
    return out if len(out) > 1 else ranking
