"""Rank trajectories: the ranking induced by the first n trials, n = 1..N.

Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265: section 2.7 (gold standard
Bayes@N_max), section 3.3 and Appendix I.1 (convergence@n), Appendix J, Figure 9 (rank
trajectories). numpy/scipy only.

The vectorized kernel (:class:`scorio_core.dynamics.trajectory_kernel.TrajectoryKernel`) is shared
with the bootstrap in :mod:`scorio_core.dynamics.convergence`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorio_core.eval.batch import _bayes_batch
from scorio_core.dynamics.priors import (
    TRAJECTORY_PRIOR_NOTES,
    check_dynamics_prior,
    prefix_counts,
    pseudo_counts,
    trajectory_prior_alpha,
)
from scorio_core.uncertainty.batch import posterior_summary_batch
from scorio_core.eval._validate import real_vector
from scorio_core.dynamics.task_priors import check_task_strata
from scorio_core.dynamics.ragged import (
    RaggedKernel,
    check_ragged_metric,
    ragged_gold_ranks,
    ragged_lengths,
    ragged_row_indices,
)
from scorio_core.dynamics.trajectory_kernel import (
    GOLD_CHOICES,
    TRAJECTORY_METRICS,
    TrajectoryKernel,
    check_gold,
    check_metric,
    check_outcomes,
    check_prior,
    check_weights,
    data_gold_ranks,
    first_convergence,
)

__all__ = [
    "CONVERGENCE_UNDEFINED",
    "TRAJECTORY_PRIOR_NOTES",
    "TRAJECTORY_METRICS",
    "trajectory_prior_alpha",
    "pseudo_counts",
    "GOLD_CHOICES",
    "Trajectory",
    "rank_trajectory",
    "convergence_at_n",
    "outcomes_from_counts",
]

#: Why convergence@n has no value with one trial per question (it is the smallest n <= N - 1; Appendix I.1).
CONVERGENCE_UNDEFINED = ("convergence@n is undefined with N = 1 trial per question: it is the smallest n <= N - 1 after "
                         "which the ranking equals the gold standard for good, so it needs at least 2 trials; more "
                         "trials per question would define it")


@dataclass(frozen=True, eq=False)
class Trajectory:
    """Ranks of L models after each number of trials n = 1..N.

    Attributes
    ----------
    metric : str
    k : int
        Draws of the Pass@k family (1 for "bayes"/"avg").
    tau : float or None
        Threshold of G-Pass@k_tau.
    n : ndarray of int64, shape (N,)
        Trial counts 1..N.
    ranks : ndarray of float64, shape (L, N)
        Competition rank of model i after ``n[j]`` trials (ties within 1e-12 share the
        better rank); NaN where the metric is undefined (``n < k``).
    scores : ndarray of float64, shape (L, N)
        The metric value behind each rank (NaN where undefined).
    sigma : ndarray of float64, shape (L, N), or None
        Bayes@N posterior standard deviation (metric "bayes" only): ``scores +/- z sigma``
        is the credible band.
    gold_ranks : ndarray of int64, shape (L,)
        The gold-standard ranking the trajectory is compared with.
    kendall_tau : ndarray of float64, shape (N,)
        Kendall's tau_b of the ranking after n trials against ``gold_ranks`` (NaN where
        undefined).
    convergence : int or None
        convergence@n of this trajectory (Appendix I.1), None for no convergence.
    prior : str
        Prior of Bayes@N and of the "data" gold standard (:data:`scorio_core.uncertainty.PRIORS`).
    """

    metric: str
    k: int
    tau: float | None
    n: np.ndarray
    ranks: np.ndarray
    scores: np.ndarray
    sigma: np.ndarray | None
    gold_ranks: np.ndarray
    kendall_tau: np.ndarray
    convergence: int | None
    prior: str = "uniform"


# --------------------------------------------------------------------------- public API
def rank_trajectory(
    R,
    metric: str = "bayes",
    *,
    w=None,
    k: int = 1,
    tau: float | None = None,
    prior_counts=None,
    gold="data",
    indices=None,
    prior: str = "uniform",
    strata=None,
) -> Trajectory:
    r"""Ranking of L models induced by the first n trials, for every n = 1..N.

    Parameters
    ----------
    R : array-like of int, shape (L, M, N)
        Category codes of L models on M questions and N trials in trial order (a complete
        block, e.g. ``Outcomes.complete_block().R``). Binary (0/1) for the Pass@k family.
        Ragged data: -1 after a cell's last trial, each cell with its own N >= 1
        (:mod:`scorio_core.dynamics.ragged`: after n trials a question contributes its first
        min(n, N) trials; row-wise ``indices`` only; the Pass@k family needs k <= the
        smallest N; the "data" gold standard is Bayes@N_max under the prior).
    metric : {"bayes", "avg", "pass@k", "pass^k", "g-pass@k_tau", "mg-pass@k", "maj@k", "auc@k"}
        Ranking metric. "bayes" is Bayes@N (ranks equal avg@N for the uniform prior,
        section 2.6); the others use the unbiased finite-sample estimators of
        :mod:`scorio_core.eval` averaged over questions.
    w : array-like of float, shape (C+1,), optional
        Category weights for "bayes"/"avg"; default ``[0, 1]``.
    k : int, default 1
        Draws of the Pass@k family, ``1 <= k <= N``.
    tau : float, optional
        Threshold of "g-pass@k_tau", in [0, 1].
    prior_counts : array-like, shape (M, C+1) or (L, M, C+1), optional
        Prior outcome counts for "bayes" (tallies of ``R0``).
    gold : {"data", "replicate"} or array-like of shape (L,), default "data"
        Gold-standard ranking for ``convergence`` and ``kendall_tau``. "data": avg@N_max
        (= Bayes@N_max, uniform prior) on all N trials of ``R`` in their original order
        (section 2.7). "replicate": the trajectory's own ranking at n = N (same metric),
        i.e. convergence = the last change of the ranking, as Figure 9 reads. An array
        gives ranks directly (lower = better, any convention: dense, competition or
        fractional; converted to competition ranks), e.g. a simulation's true ranking.
    indices : array-like of int, optional
        Resampled trial indices of one bootstrap replicate: shape (N,) column-wise (the
        same trials for every model and question) or (L, M, N) row-wise. The trajectory
        is then computed on the replicate, the "data" gold standard still on ``R``.
    prior : {"uniform", "jeffreys", "empirical-bayes"}, default "uniform"
        Prior of Bayes@N after n trials and of the "data" gold standard (see
        :func:`trajectory_prior_alpha`): "uniform" is the paper's Dirichlet(1) per question
        (ranks equal avg@N's), "jeffreys" Dirichlet(1/2), "empirical-bayes" the Dirichlet
        fitted to each model's first n trials (refitted for every n, on the replicate when
        ``indices`` is given), as the leaderboard would fit it after n trials.
    strata : array-like of int, shape (M,), optional
        Task code of each question where several tasks are pooled (``Outcomes.strata()`` on
        the block's questions): under "empirical-bayes" the prior is fitted per (model, n,
        task) and combined over the questions, as the leaderboard fits it per (model, task)
        (:mod:`scorio_core.dynamics.task_priors`). No effect under the other priors.

    Returns
    -------
    Trajectory
        ``ranks[i, j]`` is the rank of model i after ``n[j]`` trials; NaN for ``n < k``.

    Raises
    ------
    TypeError
        Non-integer ``R``/``k``/``indices``, non-string ``metric``.
    ValueError
        Bad shapes, missing trials (-1), codes outside the weights, non-binary R for the
        Pass@k family, ``k`` outside 1..N, ``tau`` outside [0, 1] or missing, indices
        outside 0..N-1, ``prior_counts`` with a non-Bayes metric or a prior other than
        "uniform", unknown ``prior``.

    Notes
    -----
    Ranks are competition ranks of the metric value (ties within 1e-12 share the better
    rank), as in the paper's Figure 9; the Pass@k family is undefined for ``n < k`` and
    its ranks are NaN there (never matched to the gold standard).

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, sections 2.7 and 3.3,
    Appendix I.1, Appendix J (Figure 9).

    Examples
    --------
    >>> R = [[[1, 0, 1, 1]], [[0, 1, 0, 0]]]           # 2 models, 1 question, 4 trials
    >>> t = rank_trajectory(R)
    >>> t.ranks.tolist()                                 # tie after 2 trials
    [[1.0, 1.0, 1.0, 1.0], [2.0, 1.0, 2.0, 2.0]]
    >>> t.convergence
    3
    """
    w_chk = check_weights(w, metric if isinstance(metric, str) else "bayes")
    R_a = check_outcomes(R, w_chk.size, binary=isinstance(metric, str) and metric not in ("bayes", "avg"), ragged=True)
    L, M, N = R_a.shape
    lengths = ragged_lengths(R_a)
    metric, k, tau = check_metric(metric, k, tau, N)
    if lengths is not None:
        check_ragged_metric(metric, k, lengths)
    counts0 = check_prior(prior_counts, metric, (L, M, w_chk.size))
    prior_key = check_dynamics_prior(prior, prior_counts)
    mode, given = check_gold(gold, L)
    if indices is None:
        idx, method = np.arange(N)[None], "column"
    else:
        idx_a = np.asarray(indices)
        if idx_a.dtype.kind not in "iu":
            raise TypeError(f"indices must hold integer trial indices; got dtype {idx_a.dtype}.")
        if idx_a.shape == (N,):
            method = "column"
        elif idx_a.shape == (L, M, N):
            method = "row"
        else:
            raise ValueError(
                f"indices must have shape (N,)=({N},) (column-wise) or (L, M, N)=({L}, {M}, {N}) "
                f"(row-wise); got {idx_a.shape}."
            )
        if idx_a.min() < 0 or idx_a.max() >= N:
            lo, hi = int(idx_a.min()), int(idx_a.max())
            raise ValueError(f"indices must lie in [0, {N - 1}]; got values in [{lo}, {hi}].")
        if lengths is not None and method == "column":
            raise ValueError(
                "ragged data (different N per question) is resampled row-wise only: pass indices of shape "
                f"(L, M, N)=({L}, {M}, {N}), each cell's from 0..N-1 of that cell."
            )
        if lengths is not None:
            idx_a = ragged_row_indices(idx_a, lengths)
        idx = idx_a.astype(np.intp)[None] if method == "column" else idx_a.astype(np.intp).transpose(2, 0, 1)[None]
    if method == "column":
        resampled = R_a[:, :, idx[0]]
    else:
        resampled = np.take_along_axis(R_a, idx[0].transpose(1, 2, 0), axis=2)
    tasks = check_task_strata(strata, M) if prior_key == "empirical-bayes" else None
    alpha = gold_alpha = None
    if metric == "bayes":
        alpha = trajectory_prior_alpha(R_a, w_chk.size, prior_key, strata=tasks)
        gold_alpha = alpha
        if indices is not None and prior_key == "empirical-bayes":  # refit on the replicate, from the data's fit
            alpha = trajectory_prior_alpha(resampled, w_chk.size, prior_key, init=alpha, strata=tasks)
    elif mode == "data":
        gold_alpha = trajectory_prior_alpha(R_a, w_chk.size, prior_key, last_only=True, strata=tasks)
    if lengths is None:
        kernel = TrajectoryKernel(R_a, metric, w_chk, k, tau, counts0, 1.0 if alpha is None else alpha, tasks)
    else:
        kernel = RaggedKernel(R_a, lengths, metric, w_chk, k, tau, counts0, 1.0 if alpha is None else alpha,
                              strata=tasks)
    scores = kernel.scores(idx, method)  # (L, 1, N)
    if mode == "data" and lengths is not None:
        gold_ranks = ragged_gold_ranks(R_a, lengths, w_chk, gold_alpha, tasks)
    elif mode == "data":
        gold_ranks = data_gold_ranks(R_a, w_chk, gold_alpha, tasks)
    elif mode == "replicate":
        gold_ranks = kernel.ranks(scores)[0][:, 0, -1].astype(np.int64)
    else:
        gold_ranks = given
    ranks, tau_b = kernel.ranks(scores, gold_ranks)
    conv = int(first_convergence(ranks, gold_ranks)[0])
    sigma = None
    if metric == "bayes":
        cum = prefix_counts(resampled, w_chk.size)  # (L, N, M, K)
        if prior_key == "uniform":
            _, sigma = _bayes_batch(cum, w_chk, None if counts0 is None else counts0[:, None])
        else:
            sigma = posterior_summary_batch(cum.reshape(L * N, M, -1), w_chk, prior=prior_key,
                                            strata=tasks).sigma.reshape(L, N)
    float_ranks = ranks[:, 0].astype(float)
    float_ranks[float_ranks == 0] = np.nan
    return Trajectory(
        metric=metric,
        k=k,
        tau=tau,
        n=np.arange(1, N + 1),
        ranks=float_ranks,
        scores=scores[:, 0].copy(),
        sigma=sigma,
        gold_ranks=np.asarray(gold_ranks).astype(np.int64),
        kendall_tau=tau_b[0],
        convergence=None if conv < 0 else conv,
        prior=prior_key,
    )


def convergence_at_n(ranks, gold) -> int | None:
    r"""convergence@n of one rank trajectory against a gold-standard ranking.

    Parameters
    ----------
    ranks : array-like of float, shape (L, N)
        Rank of each model after n = 1..N trials (NaN where undefined).
    gold : array-like of float, shape (L,)
        Gold-standard ranks.

    Returns
    -------
    int or None
        The smallest ``s <= N - 1`` such that the ranking after ``s`` trials equals
        ``gold`` (every model's rank, ties included) and stays equal for every later
        ``s' = s+1..N``; None ("no convergence") if there is none.

    Raises
    ------
    TypeError
        Non-numeric input.
    ValueError
        ``ranks`` not 2-D, ``gold`` not of length L.

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, Appendix I.1.

    Examples
    --------
    >>> convergence_at_n([[2, 1, 1, 1], [1, 2, 2, 2]], [1, 2])
    2
    >>> convergence_at_n([[1, 1, 1, 2], [2, 2, 2, 1]], [1, 2]) is None
    True
    """
    r = np.asarray(ranks)
    if r.dtype.kind not in "biuf":
        raise TypeError(f"ranks must hold numbers; got dtype {r.dtype}.")
    if r.ndim != 2 or min(r.shape) == 0:
        raise ValueError(f"ranks must have shape (L, N) with L, N >= 1; got {r.shape}.")
    g = real_vector(gold, "gold")
    if g.size != r.shape[0]:
        raise ValueError(f"gold must hold one rank per model (L={r.shape[0]}); got {g.size}.")
    value = int(first_convergence(np.nan_to_num(r.astype(float), nan=0.0)[:, None, :], g)[0])
    return None if value < 0 else value


def outcomes_from_counts(counts, ragged: bool = False) -> np.ndarray:
    r"""An outcome tensor with the given category counts, trials in an arbitrary order.

    For count-only data (no trial order). Only order-free views are honest on the result:
    row-wise bootstrap (which assumes exchangeable trials) and the n = N ranking; never
    the observed-order trajectory.

    Parameters
    ----------
    counts : array-like of int, shape (L, M, C+1)
        Category counts; every (model, question) cell needs a total N >= 1.
    ragged : bool, default False
        Allow different totals: cells with fewer than N_max trials are padded with -1
        (the ragged tensor of :mod:`scorio_core.dynamics.ragged`).

    Returns
    -------
    ndarray of int16, shape (L, M, N_max)
        Category codes in ascending order within each cell (-1 after a cell's last trial).

    Raises
    ------
    TypeError
        Non-integer counts.
    ValueError
        Bad shape, negative counts, or cells with different totals (use
        ``Outcomes.complete_block()`` first).

    Examples
    --------
    >>> outcomes_from_counts([[[1, 2]], [[3, 0]]]).tolist()
    [[[0, 1, 1]], [[0, 0, 0]]]
    """
    c = np.asarray(counts)
    if c.dtype.kind not in "biu":
        raise TypeError(f"counts must hold integers; got dtype {c.dtype}.")
    if c.ndim != 3 or min(c.shape) == 0:
        raise ValueError(f"counts must have shape (L, M, C+1); got {c.shape}.")
    if c.min() < 0:
        raise ValueError(f"counts must be >= 0; got {int(c.min())}.")
    totals = c.sum(axis=2)
    if totals.min() < 1 or (totals.min() != totals.max() and not ragged):
        raise ValueError(
            "every (model, question) cell must have the same number of trials N >= 1; "
            f"got totals from {int(totals.min())} to {int(totals.max())}."
        )
    N = int(totals.max())
    edges = np.cumsum(c, axis=2)  # (L, M, K)
    t = np.arange(N)
    codes = (t[None, None, :, None] >= edges[:, :, None, :]).sum(axis=3).astype(np.int16)
    codes[codes >= c.shape[2]] = -1  # beyond the cell's total: padding
    return codes
