"""Count scores: binary metrics as Bernstein coefficient vectors.

Every binary metric of the Pass@k family is a *count score*: a vector ``v`` of length
``k+1`` where ``v[j]`` is the credit for ``j`` successes among ``k`` draws.

* Finite-sample (unbiased) estimator for a question with ``c`` of ``n`` trials correct:
  ``sum_j v[j] * Hypergeom(j; n, c, k)`` (draws without replacement, Chen et al. 2021).
* Latent target under an i.i.d. success probability ``p``: the Bernstein polynomial
  ``g(p) = sum_j v[j] * Binom(j; k, p)``; its Beta-posterior moments live in ``_beta``.

=====================  ================================================
metric                 credit vector ``v[j]``
=====================  ================================================
Pass@k                 ``1[j >= 1]``
Pass^k (unanimous)     ``1[j == k]``
G-Pass@k_tau           ``1[j >= ceil(tau k)]`` (``tau = 0`` is Pass@k)
maj@k                  ``1[j >= floor(k/2) + 1]``
mG-Pass@k              ``(2/k) max(j - ceil(k/2), 0)``
AUC@k                  trapezoid average of Pass@1..Pass@k
threshold spectrum     ``sum_{r <= j} weights[r]``
=====================  ================================================
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.special import gammaln

__all__ = [
    "tau_threshold",
    "pass_values",
    "threshold_values",
    "mg_values",
    "auc_values",
    "spectrum_values",
    "hypergeom_pmf",
    "finite_state_scores",
    "log_comb",
    "log_comb_int",
    "log_factorial",
]

_MAX_ENTRIES = 4_000_000


def tau_threshold(tau: float, k: int) -> int:
    """Smallest success count ``ceil(tau * k)`` (at least 1), robust to float round-off.

    ``tau * k`` is computed in floating point; ``0.3 * 10`` is ``3.0000000000000004``,
    so a plain ``ceil`` would require 4 successes. As in the reference package, the
    threshold is ``floor(tau k)`` plus one only if ``tau > floor(tau k) / k``.

    >>> tau_threshold(0.3, 10), tau_threshold(0.5, 3), tau_threshold(0.0, 4)
    (3, 2, 1)
    """
    threshold = math.floor(tau * k)
    if tau > threshold / k:
        threshold += 1
    return max(1, threshold)


def pass_values(k: int) -> np.ndarray:
    """Credit vector of Pass@k: 0 for no success, 1 otherwise."""
    v = np.ones(k + 1)
    v[0] = 0.0
    return v


def threshold_values(k: int, threshold: int) -> np.ndarray:
    """Credit vector of "at least ``threshold`` of ``k``" (G-Pass@k_tau, maj@k, Pass^k)."""
    v = np.zeros(k + 1)
    v[threshold:] = 1.0
    return v


def mg_values(k: int) -> np.ndarray:
    """Credit vector of mG-Pass@k: ``(2/k) * max(j - ceil(k/2), 0)`` (Liu et al. 2024)."""
    majority = (k + 1) // 2
    return (2.0 / k) * np.maximum(np.arange(k + 1, dtype=float) - majority, 0.0)


def auc_coefficients(k: int) -> np.ndarray:
    """Trapezoid weights ``c_1..c_k`` of AUC@k (``c_1 = c_k = 1/(2(k-1))``); ``[1]`` for k=1."""
    if k == 1:
        return np.ones(1)
    coeff = np.full(k, 1.0 / (k - 1))
    coeff[[0, -1]] = 0.5 / (k - 1)
    return coeff


@functools.lru_cache(maxsize=64)
def auc_values(k: int) -> np.ndarray:
    """Credit vector of AUC@k: ``v[j] = sum_b c_b * Pass@b`` of a bank with ``j`` of ``k`` correct.

    Cached per ``k`` (read-only array): it depends on ``k`` only.
    """
    coeff = auc_coefficients(k)
    j = np.arange(k + 1, dtype=np.int64)[:, None]
    b = np.arange(1, k + 1, dtype=np.int64)[None, :]
    # Pass@b of a bank with j of k correct: 1 - C(k-j, b) / C(k, b).
    log_fail = log_comb_int(k - j, b) - log_comb_int(np.int64(k), b)
    values = -np.expm1(log_fail) @ coeff
    values.setflags(write=False)
    return values


def spectrum_values(weights: np.ndarray) -> np.ndarray:
    """Credit vector of the threshold spectrum ``S_{w,k}``: ``[0, cumsum(weights)]``."""
    return np.concatenate(([0.0], np.cumsum(weights, dtype=float)))


def log_comb(a: np.ndarray | float, b: np.ndarray | float) -> np.ndarray:
    """``log C(a, b)`` for arrays, ``-inf`` where ``b < 0`` or ``b > a``."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    valid = (b >= 0) & (b <= a)
    with np.errstate(invalid="ignore"):
        out = gammaln(a + 1.0) - gammaln(b + 1.0) - gammaln(a - b + 1.0)
    return np.where(valid, out, -np.inf)


_LOG_FACTORIAL = np.zeros(1)


def log_factorial(n_max: int) -> np.ndarray:
    """Table ``log(i!)`` for ``i = 0..n_max`` (cached and grown on demand)."""
    global _LOG_FACTORIAL
    if _LOG_FACTORIAL.size <= n_max:
        size = max(n_max + 1, 2 * _LOG_FACTORIAL.size, 1024)
        _LOG_FACTORIAL = gammaln(np.arange(size, dtype=float) + 1.0)
    return _LOG_FACTORIAL


def log_comb_int(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``log C(a, b)`` for integer arrays via a log-factorial table; ``-inf`` outside ``0 <= b <= a``."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    table = log_factorial(int(max(a.max(initial=0), 0)))
    valid = (b >= 0) & (b <= a)
    ai = np.where(valid, a, 0)
    bi = np.where(valid, b, 0)
    return np.where(valid, table[ai] - table[bi] - table[ai - bi], -np.inf)


def hypergeom_pmf(n: np.ndarray, c: np.ndarray, k: int) -> np.ndarray:
    """Hypergeometric pmf ``P(X = j)``, ``j = 0..k``, for draws of ``k`` from ``n`` with ``c`` successes.

    Parameters
    ----------
    n, c : ndarray of int, shape (S,)
        Trials and successes per state; requires ``k <= n``.
    k : int
        Draws.

    Returns
    -------
    ndarray, shape (S, k+1)
        ``C(c, j) C(n - c, k - j) / C(n, k)`` from a log-factorial table; 0 where impossible.
    """
    n = np.asarray(n, dtype=np.int64)[:, None]
    c = np.asarray(c, dtype=np.int64)[:, None]
    lf = log_factorial(int(n.max(initial=0)))
    j = np.arange(k + 1, dtype=np.int64)[None, :]
    fail = n - c
    valid = (j <= c) & (k - j <= fail)
    jj = np.where(valid, j, 0)
    log_p = (
        lf[c] - lf[jj] - lf[np.where(valid, c - j, 0)]
        + lf[fail] - lf[np.where(valid, k - j, 0)] - lf[np.where(valid, fail - k + j, 0)]
        - (lf[n] - lf[k] - lf[n - k])
    )
    # exp only where the state is possible: elsewhere log_p mixes substituted table entries and may overflow
    return np.exp(log_p, out=np.zeros(log_p.shape), where=valid)


def finite_state_scores(values: np.ndarray, n: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Finite-sample estimator ``sum_j v[j] Hypergeom(j; n, c, k)`` for each state.

    Pass@k uses the closed form ``1 - C(n-c, k) / C(n, k)``; other credit vectors are
    integrated against the pmf. Work is chunked to bound memory.
    """
    k = values.size - 1
    n = np.asarray(n, dtype=np.int64)
    c = np.asarray(c, dtype=np.int64)
    out = np.empty(n.size)
    if np.all(values == values[0]):
        out.fill(values[0])
        return out
    chunk = max(1, _MAX_ENTRIES // (k + 1))
    is_pass = values[0] == 0.0 and np.all(values[1:] == 1.0)
    for start in range(0, n.size, chunk):
        stop = min(start + chunk, n.size)
        nn, cc = n[start:stop], c[start:stop]
        if is_pass:
            # 1 - C(n - c, k) / C(n, k), exact 1 when fewer than k failures.
            log_fail = log_comb_int(nn - cc, np.int64(k)) - log_comb_int(nn, np.int64(k))
            out[start:stop] = -np.expm1(log_fail)
        else:
            # normalised by its row sum: the log-factorial pmf sums to 1 only to ~1e-13 when n is large,
            # which pushed exact-1 scores to 1 + 6e-14; the reference (scipy's hypergeom) gives 1.0
            pmf = hypergeom_pmf(nn, cc, k)
            out[start:stop] = (pmf @ values) / pmf.sum(axis=1)
    # a convex combination of the credits stays within their range (and -0.0 from -expm1(0) becomes 0.0)
    np.clip(out, values.min(), values.max(), out=out)
    return out + 0.0
