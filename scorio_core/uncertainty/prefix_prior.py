"""Empirical-Bayes priors of every prefix of complete trial codes, straight from survival counts.

The dynamics refit the prior to each (replicate, prefix n, model)'s first n trials. Every
question then has n trials, so each fit's marginal likelihood needs only its survival counts
``S_j(i)`` (questions with more than i trials in category j), which one bincount per category
gives for all fits at once, without the distinct count rows of
:func:`~scorio_core.uncertainty.fit_dirichlet_prior_batch` (same fallbacks, start and Newton
iterations: see :mod:`scorio_core.uncertainty.survival_prior`).
"""

from __future__ import annotations

import numpy as np

from scorio_core.arrays import equal_rows
from scorio_core.uncertainty import survival_prior
from scorio_core.uncertainty.batch_prior import _LOG_RIDGE, BatchPrior, _CountStates, _fit_exact, _fit_pooled

__all__ = ["fit_prefix_priors", "distinct_fits"]


def fit_prefix_priors(codes: np.ndarray, n_categories: int, init: np.ndarray | None = None) -> BatchPrior:
    """Empirical-Bayes Dirichlet priors of every prefix of every replicate and model.

    Parameters
    ----------
    codes : ndarray of int, shape (B, N, L, M)
        Category codes of B replicates, trials in order (complete: every code in
        ``0..n_categories - 1``).
    n_categories : int
        C + 1 (at least 2).
    init : ndarray of float, shape (B * N * L, C+1), optional
        Starting pseudo-counts per fit, as in :func:`~scorio_core.uncertainty.fit_dirichlet_prior_batch`.

    Returns
    -------
    BatchPrior
        Fit ``(b * N + n - 1) * L + l``: model l's prior fitted to its counts among the first n
        trials of replicate b, equal to ``fit_dirichlet_prior_batch`` on the prefix-count tensor
        (B * N * L, M, C+1) (the same iterations, to rounding).
    """
    B, N, L, M = codes.shape
    K = int(n_categories)
    F = B * N * L
    n = np.broadcast_to(np.arange(1, N + 1)[None, :, None], (B, N, L)).reshape(F)
    offset = (np.arange(F, dtype=np.int64) * (N + 1)).reshape(B, N, L, 1)
    S = np.empty((K, F, N), dtype=np.int32)
    pooled_counts = np.empty((F, K))
    cums = []
    for j in range(K):  # the histogram of each fit's counts in category j, then its survival counts
        cums.append(np.cumsum(codes == j, axis=1, dtype=np.int32))  # (B, N, L, M): counts after n trials
        key = cums[-1] + offset
        hist = np.bincount(key.ravel(), minlength=F * (N + 1)).reshape(F, N + 1)
        del key
        pooled_counts[:, j] = hist @ np.arange(N + 1)
        np.cumsum(hist[:, :N], axis=1, out=S[j])  # questions with at most i, then S_j(i) = M - that: more than i
        np.subtract(M, S[j], out=S[j])

    def solve(fit: np.ndarray, eta0: np.ndarray) -> np.ndarray:
        idx = np.flatnonzero(fit)
        first, inverse = distinct_fits(S, idx, eta0)  # identical fits (same counts, same start): each solved once
        return solve_distinct(idx[first], eta0[first])[inverse]

    def solve_distinct(idx: np.ndarray, eta0: np.ndarray) -> np.ndarray:
        terms = survival_prior.SurvivalTerms.from_survival(S, n, float(M), idx)
        eta, peak = survival_prior.fit(terms, eta0, _LOG_RIDGE)
        ridge = np.flatnonzero(peak > _LOG_RIDGE)
        if ridge.size:  # near-flat likelihood: redo on the count states (as batch_prior._fit_states does)
            b, t, l = np.unravel_index(idx[ridge], (B, N, L))
            counts = np.stack([c[b, t, l] for c in cums], axis=2)  # (ridge fits, M, K)
            st = _CountStates.of(counts)
            eta[ridge] = _fit_exact(st.model, st.rows, st.freq, eta0[ridge])
        return eta

    repeated = np.where(n >= 2, M, 0).astype(float)  # every question has n trials: all M are repeated once n >= 2
    seen = sum((c > 0).astype(np.int8) for c in cums)  # categories each question's first n trials fell in
    split = (seen >= 2).sum(axis=3, dtype=np.int64).reshape(F).astype(float)  # questions whose trials disagree
    del seen
    return _fit_pooled(pooled_counts, np.full(F, M > 0), repeated, init, solve, pairs=M * n * (n - 1) / 2.0,
                       split=split)


def distinct_fits(S: np.ndarray, idx: np.ndarray, eta0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct fits among ``idx``: equal survival counts and equal start give the same fit.

    With few trials or few questions most (replicate, prefix, model) fits repeat (at n = 2 with 15 questions a
    model has at most 136 distinct histograms of counts, against one fit per replicate), so each is solved once
    and the result shared: the same values as solving every copy (the Newton iterations are per fit).

    Parameters
    ----------
    S : ndarray of int32, shape (K, F, T)
        Survival counts of all fits.
    idx : ndarray of int, shape (n,)
        The fits to solve.
    eta0 : ndarray of float, shape (n, K)
        Their starts.

    Returns
    -------
    first : ndarray of int, shape (u,)
        Positions in ``idx`` of one representative per distinct fit.
    inverse : ndarray of int, shape (n,)
        The representative of each fit (``first[...]`` index): ``result[inverse]`` spreads the u results.

    Notes
    -----
    The grouping is :func:`scorio_core.arrays.equal_rows` over the starts and counts: exact.
    """
    return equal_rows(eta0, *(S[j, idx] for j in range(S.shape[0])))
