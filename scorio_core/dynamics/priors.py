"""Priors of Bayes@N on rank trajectories and bootstrap convergence@n (issue 13).

The uniform prior is the paper's (ranks equal avg@N's); Jeffreys is Dirichlet(1/2); the
empirical-Bayes prior is fitted by maximum marginal likelihood to each model's first n trials,
for every n (and on every bootstrap replicate), with the leaderboard's fallbacks. Hariri et al.,
"Don't Pass@k", ICLR 2026, arXiv:2510.04265, Eq. 15 and section 2.7.
"""

from __future__ import annotations

import numpy as np

from scorio_core.dynamics.task_priors import combine_task_fits, task_prior_alpha
from scorio_core.uncertainty.batch_prior import _CountStates, _fit_states
from scorio_core.uncertainty.prefix_prior import fit_prefix_priors
from scorio_core.uncertainty.priors import check_prior as check_prior_key

__all__ = [
    "TRAJECTORY_PRIOR_NOTES",
    "PRIOR_ASSUMPTIONS",
    "check_dynamics_prior",
    "prefix_counts",
    "prefix_states",
    "trajectory_prior_alpha",
    "pseudo_counts",
    "refit_scores",
]

#: What Bayes@N and the "data" gold standard of a trajectory assume under each prior.
TRAJECTORY_PRIOR_NOTES = {
    "uniform": "Bayes@N uses the paper's uniform prior (Dirichlet(1) per question; ranks as avg@N for equal N); "
               "gold standard: the avg@N ranking (= Bayes@N, uniform prior) on all N trials (paper section 2.7)",
    "jeffreys": "Bayes@N uses the Jeffreys prior (Dirichlet(1/2) per question; ranks as avg@N for equal N); "
                "gold standard: the Bayes@N (= avg@N) ranking on all N trials",
    "empirical-bayes": "Bayes@N uses an empirical-Bayes prior refitted to each model's first n trials (per task "
                       "where tasks are pooled; as the leaderboard would after n trials; where the first n trials cannot identify it (n = 1, n = 2 on "
                       "fewer than 20 questions, and the like) or a model's trials are all 0 or all 1, it falls back to "
                       "the observed mean); "
                       "gold standard: the Bayes@N ranking under the prior fitted to all N trials",
}


#: What Bayes@N and the gold standard assume under each prior (shown with every result).
PRIOR_ASSUMPTIONS = {
    "uniform": "Bayes@N uses the paper's uniform prior (Dirichlet(1) per question, plus R0 if given); under it "
               "Bayes@N ranks as avg@N for equal N, and the gold standard is the avg@N_max ranking of the data",
    "jeffreys": "Bayes@N uses the Jeffreys prior (Dirichlet(1/2) per question); it ranks as avg@N for equal N, and "
                "the gold standard is the Bayes@N_max (= avg@N_max) ranking of the data",
    "empirical-bayes": "Bayes@N uses an empirical-Bayes prior fitted to each model's first n trials of the data "
                       "(per task where tasks are pooled; refitted for every n and every bootstrap replicate); the "
                       "gold standard is the "
                       "Bayes@N_max ranking under the prior fitted to all N trials",
}

#: Most bytes of the dense survival counts of one chunk of replicate refits (beyond: the count states).
_SURVIVAL_BYTES = 256 * 2**20


def check_dynamics_prior(prior: object, prior_counts: object) -> str:
    key = check_prior_key(prior)
    if prior_counts is not None and key != "uniform":
        raise ValueError(
            f"prior counts (R0) combine with the uniform prior only on trajectories and convergence@n; got prior {key!r}. "
            "Use prior='uniform' with R0, or drop R0 (the empirical-Bayes prior learns from the data)."
        )
    return key


def prefix_counts(R: np.ndarray, n_categories: int) -> np.ndarray:
    """Category counts among the first n trials, (L, N, M, C+1) int32, from codes (L, M, N)."""
    onehot = (R[..., None] == np.arange(n_categories)).astype(np.int32)  # (L, M, N, K)
    return np.cumsum(onehot, axis=2).transpose(0, 2, 1, 3)


def trajectory_prior_alpha(R, n_categories: int, prior: str = "uniform", *, last_only: bool = False, init=None,
                           strata: np.ndarray | None = None):
    r"""Dirichlet pseudo-counts of Bayes@N after each number of trials, for a prior.

    Parameters
    ----------
    R : ndarray of int, shape (L, M, N)
        Complete outcome tensor (validated category codes) in trial order.
    n_categories : int
        C + 1.
    prior : {"uniform", "jeffreys", "empirical-bayes"}
    last_only : bool, default False
        Fit only on all N trials and repeat that fit for every n (enough for a Bayes@N_max
        gold standard).
    init : ndarray of float, shape (L, N, C+1), optional
        Starting pseudo-counts of the fits (a bootstrap replicate starts from the data's
        fit, as :func:`~scorio_core.dynamics.convergence.bootstrap_convergence` does); shape
        (L, N, T, C+1) with ``strata``.
    strata : ndarray of int64, shape (M,), optional
        Task code ``0..T-1`` of each question where T >= 2 tasks are pooled
        (:func:`~scorio_core.dynamics.task_priors.check_task_strata`): the empirical-Bayes prior
        is fitted per (model, n, task), as the leaderboard fits it per (model, task)
        (:func:`~scorio_core.dynamics.task_priors.task_prior_alpha`).

    Returns
    -------
    None, float or ndarray of float64, shape (L, N, C+1) or, with ``strata``, (L, N, T, C+1)
        None for "uniform" (the paper's Dirichlet(1); its ranking is avg@N's), 0.5 for
        "jeffreys", and for "empirical-bayes" the pseudo-counts fitted by maximum marginal
        likelihood of the Dirichlet-multinomial to each model's counts among its first n
        trials (:func:`scorio_core.uncertainty.fit_dirichlet_prior_batch`), for n = 1..N;
        where the data cannot identify the prior, the leaderboard's fallbacks
        (:func:`pseudo_counts`): n = 1 gives the observed mean, all-0/all-1 models the
        smoothed pooled mean.

    Raises
    ------
    ValueError
        Unknown ``prior``.

    Notes
    -----
    With pseudo-counts ``alpha`` (total ``A``) and ``n`` trials per question, Bayes@N after
    n trials is ``w_0 + (1/M) sum_a (alpha . (w - w_0) + sum_j c_aj (w_j - w_0)) / (A + n)``
    (Eq. 15 with real-valued pseudo-counts). Hariri et al., ICLR 2026, arXiv:2510.04265,
    Eq. 15 and section 2.7.
    """
    key = check_prior_key(prior)
    if key == "uniform":
        return None
    if key == "jeffreys":
        return 0.5
    L, M, N = R.shape
    if last_only:
        counts = (R[..., None] == np.arange(n_categories)).sum(axis=2, dtype=np.int32)  # (L, M, K)
    else:
        counts = prefix_counts(R, n_categories).reshape(L * N, M, n_categories)
    if strata is not None:
        F = L if last_only else L * N
        start = None if init is None or last_only else np.asarray(init, dtype=float).reshape(F, -1, n_categories)
        alpha = task_prior_alpha(np.asarray(counts).reshape(F, M, n_categories), strata, start, exact=start is None)
        T = alpha.shape[1]
        if last_only:
            return np.broadcast_to(alpha[:, None], (L, N, T, n_categories))
        return alpha.reshape(L, N, T, n_categories)
    start = None if init is None or last_only else np.asarray(init, dtype=float).reshape(L * N, n_categories)
    # the data's fits start the replicates' fits: iterated exactly as ever (the survival sums round differently, and
    # a replicate whose likelihood is flat toward infinite strength stops where the start's last bits take it)
    fitted = _fit_states(_CountStates.of(np.asarray(counts)), start, exact=start is None)
    alpha = pseudo_counts(fitted, M)
    if last_only:
        return np.broadcast_to(alpha[:, None, :], (L, N, n_categories))
    return alpha.reshape(L, N, n_categories)


def pseudo_counts(fitted, n_questions: int) -> np.ndarray:
    """Per-question pseudo-counts (rows, C+1) of fitted priors, for Bayes@N on a complete block.

    Fitted priors keep their ``alpha``. The N = 1 fallback, whose estimate is the observed
    mean, gets 0. The all-in-one-category fallback, whose estimate is the smoothed pooled mean
    ``(c_j + 1/2) / (T + (C+1)/2)`` over the model's T trials (as the leaderboard shows), gets
    ``1 / (2M)`` per category and question, which reproduces that estimate exactly.
    """
    alpha = np.where(fitted.pooled[:, None], 0.0, fitted.alpha)
    degenerate = fitted.method == "fallback-degenerate"
    return np.where(degenerate[:, None], 0.5 / n_questions, alpha)


def refit_scores(avg: np.ndarray | None, codes: np.ndarray, idx: np.ndarray, method: str, w: np.ndarray,
                 start: np.ndarray, strata: np.ndarray | None = None) -> np.ndarray:
    """Bayes@N (L, B, N) under the empirical-Bayes prior refitted to each replicate's first n trials.

    ``avg`` holds avg@n of the replicates (L, B, N); with pseudo-counts ``alpha`` (total A)
    fitted to the counts of the first n resampled trials, Bayes@n = w_0 + (alpha . (w - w_0)
    + n (avg@n - w_0)) / (A + n) (Eq. 15; every question has n trials). Fallbacks
    get :func:`pseudo_counts`, as the trajectory does. With ``strata`` (the questions' task
    codes, M,) the prior is refitted per task (``start`` (L, N, T, C+1); ``avg`` unused):
    :func:`_refit_task_scores`.
    """
    N, L, M = codes.shape
    K = w.size
    B = idx.shape[0]
    gathered = codes[idx] if method == "column" else codes.ravel()[flat_positions(idx, L, M)]  # (B, N, L, M)
    if strata is not None:
        return _refit_task_scores(gathered, w, start, strata)
    init = np.broadcast_to(start.transpose(1, 0, 2)[None], (B, N, L, K)).reshape(B * N * L, K)  # the data's fit per n
    fitted = _fit_prefixes(gathered, K, init)
    alpha = pseudo_counts(fitted, M).reshape(B, N, L, K).transpose(2, 0, 1, 3)  # (L, B, N, K)
    w0 = float(w[0])
    n = np.arange(1, N + 1, dtype=float)
    return w0 + (alpha @ (w - w0) + n * (avg - w0)) / (alpha.sum(axis=3) + n)


def _fit_prefixes(gathered: np.ndarray, K: int, init: np.ndarray):
    """The prior fits of every (replicate, n, model) of trial-major codes (B, N, L, M), by the cheaper route."""
    B, N, L, _ = gathered.shape
    if K * B * N * L * (N + 1) * 8 <= _SURVIVAL_BYTES:  # survival counts (B N L fits x N trials): same fits, faster
        return fit_prefix_priors(gathered, K, init)
    return _fit_states(prefix_states(gathered, K), init)  # many trials: the count states take less memory


def _refit_task_scores(gathered: np.ndarray, w: np.ndarray, start: np.ndarray, strata: np.ndarray) -> np.ndarray:
    """Bayes@N (L, B, N) with the prior refitted per (replicate, n, model, task) (:mod:`.task_priors`).

    ``gathered`` (B, N, L, M) resampled codes, ``start`` (L, N, T, C+1) the data's per-task fits.
    """
    B, N, L, M = gathered.shape
    K, T, F = w.size, start.shape[2], B * N * L
    alpha = np.empty((F, T, K))
    pooled = np.empty((F, T), dtype=bool)
    for t in range(T):  # one batched fit per task, over every (replicate, n, model)
        init = np.broadcast_to(start[:, :, t].transpose(1, 0, 2)[None], (B, N, L, K)).reshape(F, K)
        fitted = _fit_prefixes(np.ascontiguousarray(gathered[..., strata == t]), K, init)
        alpha[:, t], pooled[:, t] = fitted.alpha, fitted.pooled
    totals = np.stack([np.cumsum((gathered == j).sum(axis=3), axis=1) for j in range(K)], axis=-1).reshape(F, K)
    alpha = combine_task_fits(alpha, pooled, totals, M).reshape(B, N, L, T, K)
    wc = w - w[0]
    onehot = (strata[:, None] == np.arange(T)).astype(float)  # (M, T)
    sums = np.cumsum(wc[gathered] @ onehot, axis=1)  # (B, N, L, T): sum of w_j - w_0 over each task's first n trials
    n = np.arange(1, N + 1, dtype=float)[None, :, None, None]
    score = ((onehot.sum(axis=0) * (alpha @ wc) + sums) / (alpha.sum(axis=4) + n)).sum(axis=3) / M + w[0]
    return score.transpose(2, 0, 1)


def prefix_states(codes: np.ndarray, n_categories: int) -> _CountStates:
    """Count states of every (replicate, prefix n, model) fit from trial-major codes, for the batch prior fit.

    Parameters
    ----------
    codes : ndarray of uint8, shape (B, N, L, M)
        Category codes of B replicates (complete: every code below ``n_categories``), trials in order.
    n_categories : int
        C + 1.

    Returns
    -------
    _CountStates
        Fit ``(b * N + n - 1) * L + l`` holds model l's counts among the first n trials of
        replicate b, exactly as ``_CountStates.of(counts)`` on the prefix-count tensor
        (B * N * L, M, C+1) (same states, order and frequencies), so the fit is the same.
        Binary codes skip that tensor: after n trials a question's row is ``(n - c, c)``, so one
        bincount over ``(fit, n - c)`` gives the distinct rows in :func:`fit_dirichlet_prior_batch`'s
        order (by fit, then by row), with no sort. Other category counts go through the tensor.
    """
    B, N, L, M = codes.shape
    K = int(n_categories)
    if K != 2:
        prefix = np.cumsum(codes[..., None] == np.arange(K, dtype=np.uint8), axis=1, dtype=np.int32)
        return _CountStates.of(prefix.reshape(B * N * L, M, K))
    wrong = np.cumsum(codes == 0, axis=1, dtype=np.int32)  # (B, N, L, M): n - c after n trials
    fits = B * N * L
    key = wrong.astype(np.int64)
    key += (np.arange(fits, dtype=np.int64) * (N + 1)).reshape(B, N, L, 1)
    freq = np.bincount(key.ravel(), minlength=fits * (N + 1))
    found = np.flatnonzero(freq)
    fit, r0 = np.divmod(found, N + 1)
    n = (fit // L) % N + 1
    rows = np.stack([r0, n - r0], axis=1).astype(np.float64)
    return _CountStates(fits, K, fit, rows, freq[found].astype(np.float64))


def flat_positions(idx: np.ndarray, L: int, M: int) -> np.ndarray:
    """Flat positions in an (N, L, M) array of row-wise indices (B, N, L, M)."""
    LM = L * M
    flat = idx.astype(np.int64) * LM
    flat += np.arange(LM, dtype=np.int64).reshape(L, M)
    return flat
