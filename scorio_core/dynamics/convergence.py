"""Bootstrap convergence@n: how many trials a stable ranking needs.

Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265: section 2.7 (column-wise and
row-wise bootstrap, Figure 2), section 3.1 (mean Kendall's tau vs n, Figure 3), section 3.3
and Appendix I.1 (convergence@n, Figure 1 PMFs), Appendix J (Figure 9 worst case, Figure 11 CDFs).

Replicates are processed in chunks, vectorized over replicates, models, questions and
trials (kernel: :class:`scorio_core.dynamics.trajectory_kernel.TrajectoryKernel`). Random draws come in
fixed blocks of 16 replicates, each block with its own ``SeedSequence(seed,
spawn_key=(block,))`` stream, so results do not depend on the chunk size and any replicate
can be regenerated with :func:`bootstrap_indices` (:mod:`scorio_core.dynamics.bootstrap`).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from scorio_core.dynamics.bootstrap import (
    BLOCK,
    BOOTSTRAP_METHODS,
    bootstrap_indices,
    check_method,
    ordered_map,
    replicate_indices,
    root_seed,
)
from scorio_core.eval._validate import check_int
from scorio_core.dynamics.priors import PRIOR_ASSUMPTIONS, check_dynamics_prior, refit_scores, trajectory_prior_alpha
from scorio_core.dynamics.task_priors import check_task_strata
from scorio_core.dynamics.ragged import (
    RAGGED_ASSUMPTION,
    RaggedKernel,
    check_ragged_metric,
    ragged_gold_ranks,
    ragged_lengths,
)
from scorio_core.dynamics.trajectory_kernel import (
    TrajectoryKernel,
    check_gold,
    check_metric,
    check_outcomes,
    check_prior,
    check_weights,
    data_gold_ranks,
    first_convergence,
    replicate_tau,
)

__all__ = [
    "PRIOR_ASSUMPTIONS",
    "BOOTSTRAP_METHODS",
    "NO_CONVERGENCE",
    "Cancelled",
    "ConvergenceResult",
    "bootstrap_indices",
    "bootstrap_convergence",
]

#: Value of ``ConvergenceResult.convergence`` for a replicate that never converges.
NO_CONVERGENCE = -1
_BUDGET_BYTES = 64 * 2**20


class Cancelled(RuntimeError):
    """Raised by :func:`bootstrap_convergence` when the progress callback returns False."""


@dataclass(frozen=True, eq=False)
class ConvergenceResult:
    """Distribution of convergence@n over bootstrap replicates (one method, one metric).

    Attributes
    ----------
    method : str
        "column" or "row".
    metric : str
    k : int
    tau : float or None
    replicates : int
    seed : int
        Root seed (the entropy drawn when ``seed=None`` was passed): reruns reproduce it.
    n : ndarray of int64, shape (N,)
        Trial counts 1..N (N = N_max).
    gold : str
        "data", "replicate" or "given".
    gold_ranks : ndarray of int64, shape (L,), or None
        The fixed gold-standard ranking (None for "replicate").
    convergence : ndarray of int32, shape (replicates,)
        convergence@n of each replicate, :data:`NO_CONVERGENCE` (-1) for none.
    pmf : ndarray of float64, shape (N - 1,)
        ``pmf[s - 1] = P(convergence@n = s)``, s = 1..N-1, over all replicates (sums to
        ``1 - no_convergence``).
    cdf : ndarray of float64, shape (N - 1,)
        ``P(convergence@n <= s)`` (Figure 11); ends at ``1 - no_convergence``.
    mean : float
        Mean convergence@n over replicates that converge (NaN if none does).
    mean_censored : float
        Mean with no-convergence counted as N (a lower bound on the true mean).
    no_convergence : float
        Fraction of replicates with no convergence.
    kendall_tau_mean : ndarray of float64, shape (N,)
        Mean Kendall's tau_b against the gold standard after n trials (Figure 3); NaN for
        ``n < k``. Replicates whose ranking is all ties (tau_b undefined) are left out of
        the mean at that n.
    kendall_tau_undefined : ndarray of float64, shape (N,)
        Fraction of replicates left out of ``kendall_tau_mean`` at each n.
    worst_replicate : int
        Index of the worst-case replicate (Figure 9): no convergence if any, else the
        latest convergence; the first such replicate.
    worst_convergence : int
        Its convergence@n (-1 for none).
    worst_ranks : ndarray of float64, shape (L, N)
        Its rank trajectory (NaN for ``n < k``).
    assumptions : tuple of str
        What the numbers assume (e.g. exchangeable trials, independent questions).
    prior : str
        Prior of Bayes@N and of the "data" gold standard.
    """

    method: str
    metric: str
    k: int
    tau: float | None
    replicates: int
    seed: int
    n: np.ndarray
    gold: str
    gold_ranks: np.ndarray | None
    convergence: np.ndarray
    pmf: np.ndarray
    cdf: np.ndarray
    mean: float
    mean_censored: float
    no_convergence: float
    kendall_tau_mean: np.ndarray
    kendall_tau_undefined: np.ndarray
    worst_replicate: int
    worst_convergence: int
    worst_ranks: np.ndarray
    assumptions: tuple[str, ...]
    prior: str = "uniform"


def _chunk_size(kernel: TrajectoryKernel, method: str, refit_categories: int = 0) -> int:
    L, M, N = kernel.L, kernel.M, kernel.N
    per = N * L * (8 * 4 + 2 * 2)  # per-trial sums, cumulative sums, scores, ranks
    if method == "row":
        per += L * M * N * (2 + 4 + 8)  # indices, flat positions, gathered values
    if not kernel.linear:
        per += L * M * N * (1 + 2 + 8)  # gathered codes, counts, values
    if refit_categories:
        per += L * M * N * (1 + 3 * 4 * refit_categories)  # gathered codes, one-hot and prefix counts, fit rows
    return max(BLOCK, (_BUDGET_BYTES // per) // BLOCK * BLOCK)


def bootstrap_convergence(
    R,
    metric: str = "bayes",
    *,
    w=None,
    k: int = 1,
    tau: float | None = None,
    prior_counts=None,
    method: str = "column",
    replicates: int = 2000,
    seed: int | None = 0,
    gold="data",
    progress: Callable[[float], object] | None = None,
    chunk_size: int | None = None,
    prior: str = "uniform",
    workers: int = 1,
    strata=None,
) -> ConvergenceResult:
    r"""Distribution of convergence@n and mean Kendall's tau_b vs n over bootstrap replicates.

    Parameters
    ----------
    R : array-like of int, shape (L, M, N)
        Complete outcome tensor in trial order (``Outcomes.complete_block().R``); binary
        for the Pass@k family. For count-only data build it with
        :func:`scorio_core.dynamics.trajectory.outcomes_from_counts` and use ``method="row"``.
        Ragged data (-1 after a cell's last trial, each cell with its own N): ``method="row"``
        only, each cell resampled from its own trials (:mod:`scorio_core.dynamics.ragged`).
    metric, w, k, tau, prior_counts
        As :func:`scorio_core.dynamics.trajectory.rank_trajectory`.
    method : {"column", "row"}, default "column"
        Column-wise: resample trial indices with replacement, the same indices for every
        model and question. Row-wise: resample trials independently within each
        (model, question) cell (paper section 2.7, Figure 2b/c).
    replicates : int, default 2000
        Bootstrap replicates B (the paper used 10^4 for tau and 10^5 for convergence@n).
    seed : int or None, default 0
        Root seed; None draws fresh entropy, returned in the result.
    gold : {"data", "replicate"} or array-like of shape (L,), default "data"
        Gold standard (see Notes).
    progress : callable, optional
        Called as ``progress(fraction_done)`` after every chunk; if it returns ``False``
        the run stops with :class:`Cancelled` (it may also raise its own exception).
    chunk_size : int, optional
        Replicates per chunk (rounded up to a multiple of 16); default from a ~64 MiB
        working-memory budget. Results do not depend on it (means up to float summation order).
    prior : {"uniform", "jeffreys", "empirical-bayes"}, default "uniform"
        Prior of Bayes@N and of the "data" gold standard, as
        :func:`~scorio_core.dynamics.trajectory.rank_trajectory`. "empirical-bayes" is refitted
        to each model's first n trials of every replicate (exactly what the leaderboard would
        show after those n trials; equal to ``rank_trajectory(indices=...)``): one prior fit
        per (replicate, model, n), ~0.04 s per replicate for 16 x 30 x 80 on one core.
    workers : int, default 1
        Threads computing chunks at once (numpy releases the GIL in its array work: 1.4-1.6x
        with 2 on 2 cores under the empirical-Bayes prior). Chunks are combined in replicate
        order, so the result is the same, bit for bit, for any number of workers; working
        memory is one chunk per worker.
    strata : array-like of int, shape (M,), optional
        Task code of each question where tasks are pooled: the empirical-Bayes prior is
        refitted per (replicate, n, model, task), as ``rank_trajectory(strata=...)``.

    Returns
    -------
    ConvergenceResult

    Raises
    ------
    TypeError, ValueError
        As :func:`~scorio_core.dynamics.trajectory.rank_trajectory`; also a bad ``method``,
        ``replicates < 1``, ``N < 2`` or fewer than 2 models.
    Cancelled
        When ``progress`` returns ``False``.

    Notes
    -----
    **convergence@n** (Appendix I.1): for each replicate, the smallest ``s <= N_max - 1``
    such that the ranking after the first ``s`` resampled trials equals the gold standard
    and stays equal after every later trial; otherwise "no convergence".

    **Gold standard.** Default ``"data"``: the avg@N_max ranking (= Bayes@N_max with the
    uniform prior, section 2.6) of the *original* data, for every metric and every
    replicate; with another ``prior``, the Bayes@N_max ranking under that prior. Section
    3.3 says the gold standard is "the ranking from all 80 trials
    (without bootstrapping)"; sections 2.7 and 3 use Bayes@N_max/avg@N_max as the
    reference for every method; and Figure 3 reports Bayes@N reaching only tau ~ 0.95 at
    N = 80 on AIME'25, which is impossible if each replicate were compared with its own
    N = 80 ranking (tau would be 1). Consequently a replicate whose full-length ranking
    differs from the data's never converges, and a Pass@k ranking converges only if it
    agrees with the avg@N_max order (Appendix J: no CDF at all for Pass@4/8).
    ``"replicate"`` compares each replicate with its own n = N ranking under the same
    metric (convergence = its last ranking change, the Figure 9 caption's reading).

    Ranks are competition ranks (ties within 1e-12 share a rank); the Pass@k family is
    undefined for ``n < k`` and never matches there.

    References
    ----------
    Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, sections 2.7, 3.1, 3.3,
    Appendix I.1, Appendix J.

    Examples
    --------
    >>> R = [[[1, 1, 1, 0]] * 3, [[0, 0, 1, 0]] * 3]       # 2 models, 3 questions
    >>> res = bootstrap_convergence(R, replicates=64, seed=0)
    >>> res.pmf.shape, round(res.no_convergence + float(res.pmf.sum()), 6)
    ((3,), 1.0)
    """
    w_chk = check_weights(w, metric if isinstance(metric, str) else "bayes")
    R_a = check_outcomes(R, w_chk.size, binary=isinstance(metric, str) and metric not in ("bayes", "avg"), ragged=True)
    L, M, N = R_a.shape
    lengths = ragged_lengths(R_a)
    if L < 2:
        raise ValueError(f"ranking needs at least 2 models; got L={L}.")
    if N < 2:
        raise ValueError(f"convergence@n needs at least 2 trials per question (s <= N - 1); got N={N}.")
    metric, k, tau = check_metric(metric, k, tau, N)
    counts0 = check_prior(prior_counts, metric, (L, M, w_chk.size))
    mode, given = check_gold(gold, L)
    method = check_method(method)
    if lengths is not None:
        check_ragged_metric(metric, k, lengths)
        if method != "row":
            raise ValueError(
                "ragged data (different N per question) is resampled row-wise only (method='row'): column-wise "
                "resampling shares trial indices across questions, which have different numbers of trials here."
            )
    replicates = check_int(replicates, "replicates", 1)
    workers = check_int(workers, "workers", 1)
    root = root_seed(seed)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable or None; got {type(progress).__name__}.")
    prior_key = check_dynamics_prior(prior, prior_counts)
    refit = metric == "bayes" and prior_key == "empirical-bayes"
    tasks = check_task_strata(strata, M) if prior_key == "empirical-bayes" else None
    alpha = trajectory_prior_alpha(R_a, w_chk.size, prior_key, strata=tasks) if metric == "bayes" else None
    if lengths is not None:  # ragged: the kernel refits the empirical-Bayes prior itself
        kernel = RaggedKernel(R_a, lengths, metric, w_chk, k, tau, counts0,
                              "refit" if refit else (1.0 if alpha is None else alpha), start=alpha if refit else None,
                              strata=tasks)
        refit = False
    elif refit:  # replicate scores: avg@n, then shrunk with the prior refitted to that replicate's first n trials
        kernel = TrajectoryKernel(R_a, "avg", w_chk, k, tau, None)
        codes = np.ascontiguousarray(R_a.transpose(2, 0, 1)).astype(np.uint8)  # (N, L, M)
    else:
        kernel = TrajectoryKernel(R_a, metric, w_chk, k, tau, counts0, 1.0 if alpha is None else alpha, tasks)
    if chunk_size is None:
        chunk = _chunk_size(kernel, method, w_chk.size if refit or getattr(kernel, "refit", False) else 0)
        if lengths is not None:  # float gathers and running sums per cell
            chunk = max(BLOCK, chunk // 2 // BLOCK * BLOCK)
    else:
        chunk = -(-check_int(chunk_size, "chunk_size", 1) // BLOCK) * BLOCK
    if mode == "data":
        gold_alpha = alpha if alpha is not None or prior_key == "uniform" else trajectory_prior_alpha(
            R_a, w_chk.size, prior_key, last_only=True, strata=tasks)
        gold_ranks = (data_gold_ranks(R_a, w_chk, gold_alpha, tasks) if lengths is None
                      else ragged_gold_ranks(R_a, lengths, w_chk, gold_alpha, tasks))
    else:
        gold_ranks = given

    def run_chunk(start: int):
        """One chunk's convergence@n, tau_b sums and counts, and its latest-converging replicate."""
        stop = min(start + chunk, replicates)
        idx = replicate_indices((L, M, N), method, root, start, stop, lengths)
        scores = None if refit and tasks is not None else kernel.scores(idx, method)  # (L, B, N)
        if refit:
            scores = refit_scores(scores, codes, idx, method, w_chk, alpha, tasks)
        if mode == "replicate":
            ranks, _ = kernel.ranks(scores)  # (L, B, N) int16, 0 = undefined
            gold_b = ranks[:, :, -1]
            tau_b = replicate_tau(ranks, gold_b, kernel.first)
        else:
            ranks, tau_b = kernel.ranks(scores, gold_ranks)
            gold_b = gold_ranks
        conv = first_convergence(ranks, gold_b)
        defined = np.isfinite(tau_b)
        key = np.where(conv < 0, N, conv)
        j = int(np.argmax(key))
        return (stop, conv, np.where(defined, tau_b, 0.0).sum(axis=0), defined.sum(axis=0),
                (int(key[j]), start + j, ranks[:, j].copy()))

    conv_all = np.empty(replicates, dtype=np.int32)
    tau_sum = np.zeros(N)
    tau_count = np.zeros(N, dtype=np.int64)
    worst = (-1, -1, None)  # (key, replicate, ranks)
    starts = range(0, replicates, chunk)
    pool = ThreadPoolExecutor(min(workers, len(starts))) if workers > 1 and len(starts) > 1 else None
    try:
        # in replicate order whatever the workers: the same sums, bit for bit; at most ~2 chunks per worker ahead
        results = map(run_chunk, starts) if pool is None else ordered_map(pool, run_chunk, starts, 2 * workers)
        for start, (stop, conv, tau_part, count_part, candidate) in zip(starts, results):
            conv_all[start:stop] = conv
            tau_sum += tau_part
            tau_count += count_part
            if candidate[0] > worst[0]:
                worst = candidate
            if progress is not None and progress(stop / replicates) is False:
                raise Cancelled(f"convergence bootstrap cancelled after {stop} of {replicates} replicates.")
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    converged = conv_all[conv_all > 0]
    hist = np.bincount(converged, minlength=N)[1:N] / replicates
    worst_ranks = worst[2].astype(float)
    worst_ranks[worst_ranks == 0] = np.nan
    with np.errstate(invalid="ignore", divide="ignore"):
        tau_mean = np.where(tau_count > 0, tau_sum / np.maximum(tau_count, 1), np.nan)
    undefined = 1.0 - tau_count / replicates
    undefined[: kernel.first] = np.nan
    assumptions = ["questions and trials are independent (bootstrap of section 2.7 / 3)", PRIOR_ASSUMPTIONS[prior_key]]
    if lengths is not None:
        assumptions.append(RAGGED_ASSUMPTION)
    assumptions.append(
        "column-wise: trial indices resampled with replacement, shared by every model and question"
        if method == "column"
        else "row-wise: trials resampled independently within each (model, question); assumes exchangeable trials"
    )
    return ConvergenceResult(
        method=method,
        metric=metric,
        k=k,
        tau=tau,
        replicates=replicates,
        seed=root,
        n=np.arange(1, N + 1),
        gold=mode,
        gold_ranks=None if gold_ranks is None else np.asarray(gold_ranks),
        convergence=conv_all,
        pmf=hist,
        cdf=np.cumsum(hist),
        mean=float(converged.mean()) if converged.size else float("nan"),
        mean_censored=float(np.where(conv_all > 0, conv_all, N).mean()),
        no_convergence=float(np.mean(conv_all < 0)),
        kendall_tau_mean=tau_mean,
        kendall_tau_undefined=undefined,
        worst_replicate=worst[1],
        worst_convergence=worst[0] if worst[0] < N else NO_CONVERGENCE,
        worst_ranks=worst_ranks,
        assumptions=tuple(assumptions),
        prior=prior_key,
    )
