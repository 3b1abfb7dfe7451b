"""Kendall's tau_b between two rankings (paper Appendix I.1, Eq. 26). numpy/scipy only.

Hariri, Samandar, Hinczewski & Chaudhary (2026), "Don't Pass@k", ICLR 2026, arXiv:2510.04265. Re-exported by
:mod:`scorio_core.ranking.rank`.
"""

from __future__ import annotations

import math

import numpy as np

from scorio_core.eval._validate import real_vector

__all__ = ["kendall_tau_b", "snap_tau", "tau_b_matrix"]

#: Largest number of ranked items :func:`tau_b_matrix` compares through its pair-sign product (O(K^2 L^2 / 2));
#: above it, one ``scipy.stats.kendalltau`` (O(L log L)) per pair of rankings.
TAU_MATRIX_MAX_ITEMS = 1500
#: Pairs of items per block of the pair-sign product (K x block float32 values at a time).
_PAIR_BLOCK = 1 << 18


def kendall_tau_b(a, b) -> float:
    r"""Kendall's tau_b rank correlation between two rankings of the same models.

    Parameters
    ----------
    a, b : array-like of float, shape (L,)
        Ranks (or scores) of the same L models in the same order; ties allowed.

    Returns
    -------
    float
        tau_b in [-1, 1]; NaN when either ranking is constant (all tied).

    Raises
    ------
    TypeError
        Non-numeric input.
    ValueError
        Different lengths, fewer than 2 models, NaN/infinite values.

    Notes
    -----
    ``tau_b = (n_c - n_d) / sqrt((n_0 - n_1)(n_0 - n_2))`` (Eq. 26), computed by
    ``scipy.stats.kendalltau`` with ``variant="b"``, as in the paper.

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, Appendix I.1.

    Examples
    --------
    >>> round(kendall_tau_b([1, 2, 3, 4, 5], [1, 3, 2, 4, 5]), 6)   # (9 - 1) / 10
    0.8
    >>> kendall_tau_b([1, 2, 2, 4], [1, 2, 2, 4])
    1.0
    """
    a_v = real_vector(a, "a", min_size=2)
    b_v = real_vector(b, "b", min_size=2)
    if a_v.shape != b_v.shape:
        raise ValueError(f"a and b must rank the same models; got lengths {a_v.size} and {b_v.size}.")
    from scipy.stats import kendalltau  # imported here: scipy.stats costs 0.3 s of CLI start-up

    return snap_tau(kendalltau(a_v, b_v, variant="b").statistic)


def snap_tau(value) -> float:
    """A Kendall tau as a float rounded to 12 decimals and clipped to [-1, 1] (NaN stays NaN).

    scipy's tau_b of two identical rankings can come out as 0.9999999999999999 (floating point); a script
    comparing with 1.0 would read that as disagreement.

    Parameters
    ----------
    value : float
        A tau from ``scipy.stats.kendalltau`` or a kernel.

    Returns
    -------
    float

    Examples
    --------
    >>> snap_tau(0.9999999999999999), snap_tau(-1.0000000000000002), snap_tau(0.8000000000000002)
    (1.0, -1.0, 0.8)
    """
    value = float(value)
    return value if math.isnan(value) else min(1.0, max(-1.0, round(value, 12)))


def tau_b_matrix(ranks) -> np.ndarray:
    """Kendall's tau_b between every two of K rankings, as ``snap_tau(scipy.stats.kendalltau(a, b, variant="b"))``.

    Parameters
    ----------
    ranks : array-like of float, shape (K, L)
        K rankings (or scores) of the same L items; ties allowed.

    Returns
    -------
    ndarray of float, shape (K, K)
        ``tau[a, b]`` (symmetric, 1 on the diagonal); NaN where either ranking is constant (no untied pair), as
        scipy. Values rounded as :func:`snap_tau`.

    Notes
    -----
    Vectorised over pairs of rankings: with ``s_a`` the signs of ``r_a[i] - r_a[j]`` over the L(L-1)/2 item pairs,
    ``tau_b = s_a . s_b / sqrt(|s_a|_0 |s_b|_0)`` (concordant minus discordant pairs over the geometric mean of
    the pairs each ranking does not tie: Kendall 1945, Eq. for tau_b). Exact in float32 blocks (sums below 2^24).
    Above :data:`TAU_MATRIX_MAX_ITEMS` items, scipy's O(L log L) routine per pair of rankings.

    Examples
    --------
    >>> tau_b_matrix([[1, 2, 3, 4], [1, 3, 2, 4], [4, 3, 2, 1], [1, 1, 1, 1]]).round(4).tolist()
    [[1.0, 0.6667, -1.0, nan], [0.6667, 1.0, -0.6667, nan], [-1.0, -0.6667, 1.0, nan], [nan, nan, nan, 1.0]]
    """
    r = np.asarray(ranks, dtype=float)
    K, L = r.shape
    tau = np.eye(K)
    if K < 2:
        return tau
    if L > TAU_MATRIX_MAX_ITEMS:
        from scipy.stats import kendalltau

        for a in range(K):  # K(K-1)/2 pairs of rankings, each O(L log L)
            for b in range(a + 1, K):
                tau[a, b] = tau[b, a] = (np.nan if np.all(r[a] == r[a][0]) or np.all(r[b] == r[b][0]) else
                                         snap_tau(kendalltau(r[a], r[b], variant="b").statistic))
        return tau
    i, j = np.triu_indices(L, 1)
    dot, untied = np.zeros((K, K)), np.zeros(K)
    for lo in range(0, i.size, _PAIR_BLOCK):  # blocks of item pairs: bounded memory
        s = np.sign(r[:, i[lo:lo + _PAIR_BLOCK]] - r[:, j[lo:lo + _PAIR_BLOCK]]).astype(np.float32)
        dot += (s @ s.T).astype(float)
        untied += np.abs(s).sum(axis=1, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = dot / np.sqrt(np.outer(untied, untied))
    value = np.where(np.isnan(value), np.nan, np.clip(np.round(value, 12), -1.0, 1.0))
    off = ~np.eye(K, dtype=bool)
    tau[off] = value[off]
    return tau
