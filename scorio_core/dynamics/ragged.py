"""Rank trajectories and convergence@n on ragged data: each (model, question) cell keeps its own N.

A ragged outcome tensor ``R`` (L, M, N_max) holds the trials of every cell in order, padded with
-1 after the cell's last trial (``Outcomes.R`` and :func:`~scorio_core.dynamics.trajectory.outcomes_from_counts`
on counts with different totals). After n trials, question q of model l contributes its first
``n_lq = min(n, N_lq)`` trials: a question with fewer trials stops growing, as it would if the
eval had run every question n times where it could. Nothing is filled or dropped.

Bootstrap replicates resample **row-wise** only (trials within each cell, each with its own N,
assuming exchangeable trials); column-wise resampling (the same trial indices for every cell) has
no meaning when cells have different N. The Pass@k family needs ``k <= min N_lq`` so every
question is defined for n >= k. Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265,
Eq. 15, sections 2.7 and 3.3, Appendix I.1.
"""

from __future__ import annotations

import numpy as np

from scorio_core.dynamics.priors import pseudo_counts
from scorio_core.dynamics.task_priors import task_prior_alpha
from scorio_core.eval.batch import _binary_question_scores
from scorio_core.uncertainty.batch import fit_dirichlet_prior_batch

__all__ = [
    "RAGGED_ASSUMPTION",
    "PAD",
    "ragged_lengths",
    "check_ragged_metric",
    "RaggedKernel",
    "ragged_block_indices",
    "ragged_row_indices",
    "ragged_gold_ranks",
]

#: What the ragged views assume (shown with every ragged result).
RAGGED_ASSUMPTION = (
    "ragged data: each (model, question) keeps its own number of trials N; after n trials a question contributes "
    "its first min(n, N) trials; bootstrap replicates resample trials row-wise within each question with that "
    "question's own N, which assumes exchangeable trials"
)
#: Code of a padded (absent) trial inside the kernel; matches no category.
PAD = 255


def ragged_lengths(R: np.ndarray) -> np.ndarray | None:
    """Trials per cell (L, M) int64 of a validated tensor with trailing -1 padding, or None when complete.

    Raises
    ------
    ValueError
        A cell with no trial (a question a model did not answer: drop it with
        ``Outcomes.complete_block()``), or -1 in the middle of a cell's trials.
    """
    valid = R >= 0
    if valid.all():
        return None
    lengths = valid.sum(axis=2)
    if lengths.min() < 1:
        raise ValueError(
            "R has a (model, question) cell without any trial; trajectories need every model to answer every "
            "question at least once (Outcomes.complete_block() keeps the questions every model answered)."
        )
    if not np.array_equal(valid, np.arange(R.shape[2])[None, None, :] < lengths[..., None]):
        raise ValueError("R pads missing trials with -1 after each cell's last trial; got -1 between trials.")
    return lengths.astype(np.int64)


def check_ragged_metric(metric: str, k: int, lengths: np.ndarray) -> None:
    """The Pass@k family on ragged data needs every question to have at least k trials."""
    if metric not in ("bayes", "avg") and k > int(lengths.min()):
        raise ValueError(
            f"{metric} with k={k} needs at least k trials on every question; the fewest here is "
            f"N={int(lengths.min())}. Choose k <= {int(lengths.min())}."
        )


def ragged_block_indices(lengths: np.ndarray, n_max: int, rng: np.random.Generator, size: int) -> np.ndarray:
    """Row-wise bootstrap indices (size, N_max, L, M), trial-major, each cell drawn from its own N.

    Positions beyond a cell's N point at themselves (padding), so the cell keeps exactly N
    resampled trials.
    """
    L, M = lengths.shape
    dtype = np.int16 if n_max <= 32767 else np.int32
    draws = rng.integers(0, lengths[None, None].astype(dtype), size=(size, n_max, L, M), dtype=dtype)
    t = np.arange(n_max, dtype=dtype)[None, :, None, None]
    return np.where(t < lengths[None, None], draws, t)


class RaggedKernel:
    """Scores after every prefix length n = 1..N_max for ragged data (a sibling of ``TrajectoryKernel``).

    ``scores(idx, method)`` takes the identity order (``idx`` (1, N_max), method "column") or
    row-wise indices (B, N_max, L, M) and returns (L, B, N_max): for "bayes"/"avg"
    ``w_0 + mean_q (P_lq + S_lq(n)) / (A_lq + min(n, N_lq))`` with ``S`` the running sum of
    ``w_j - w_0`` (Eq. 15 with real-valued pseudo-counts, total A and ``P = alpha . (w - w_0)``;
    avg@N has A = P = 0); for the Pass@k family the per-question estimator at
    ``(min(n, N_lq), c)``. ``alpha`` is a scalar (1 uniform, 1/2 Jeffreys), per-prefix
    pseudo-counts (L, N_max, C+1), or ``"refit"``: the empirical-Bayes prior fitted to each
    replicate's first n trials (init ``start`` (L, N_max, C+1)).
    """

    def __init__(self, R: np.ndarray, lengths: np.ndarray, metric: str, w: np.ndarray, k: int, tau: float | None,
                 prior: np.ndarray | None = None, alpha: float | np.ndarray | str = 1.0, start: np.ndarray | None = None,
                 strata: np.ndarray | None = None):
        self.metric, self.k, self.tau = metric, k, tau
        self.L, self.M, self.N = L, M, N = R.shape
        self.first = k - 1
        self.linear = metric in ("bayes", "avg")
        self.lengths = lengths
        self.codes = np.ascontiguousarray(np.where(R >= 0, R, PAD).transpose(2, 0, 1)).astype(np.uint8)  # (N, L, M)
        n = np.arange(1, N + 1)[:, None, None]
        self.n_eff = np.minimum(n, lengths[None]).astype(float)  # (N, L, M)
        self.K = w.size
        self.w0 = float(w[0])
        self.wc = w - w[0]
        self.refit = isinstance(alpha, str)
        self.start = start
        self.strata = strata  # task code per question where the prior is per (model, task): alpha (L, N, T, C+1)
        if self.linear:
            self.value = np.zeros(256)
            self.value[: w.size] = self.wc
            if metric == "avg":
                self.P, self.A = 0.0, 0.0
            elif self.refit:
                self.P = self.A = None
            elif np.ndim(alpha) == 4:  # per task (L, N, T, C+1) -> per question (N, L, M)
                per_q = alpha[:, :, strata, :]
                self.P = np.ascontiguousarray((per_q @ self.wc).transpose(1, 0, 2))
                self.A = np.ascontiguousarray(per_q.sum(axis=3).transpose(1, 0, 2))
            elif np.ndim(alpha) == 3:  # (L, N, C+1) -> (N, L, 1)
                self.P = np.ascontiguousarray((alpha @ self.wc).T)[:, :, None]
                self.A = np.ascontiguousarray(alpha.sum(axis=2).T)[:, :, None]
            else:
                a = float(alpha)
                self.P = (np.full(w.size, a) if prior is None else a + prior) @ self.wc  # scalar or (L, M)
                self.A = a * w.size + (0.0 if prior is None else prior.sum(axis=2))
        else:
            rows = np.arange(k, N + 1)[:, None]
            c = np.arange(N + 1)[None, :]
            lut = np.full((N + 1, N + 1), np.nan)
            values = _binary_question_scores(metric, np.minimum(c, rows), rows, k, tau)
            lut[k:] = np.where(c > rows, np.nan, values)  # c > n: impossible states
            self.lut = lut.ravel()
            self.row_offset = (self.n_eff.astype(np.int64) * (N + 1))  # (N, L, M)

    def _gather(self, idx: np.ndarray, method: str) -> np.ndarray:
        if method == "column":
            return self.codes[idx]  # (B, N, L, M)
        LM = self.L * self.M
        flat = idx.astype(np.int64) * LM + np.arange(LM, dtype=np.int64).reshape(self.L, self.M)
        return self.codes.ravel()[flat]

    def scores(self, idx: np.ndarray, method: str) -> np.ndarray:
        """Scores (L, B, N_max) for the identity order (column, (1, N)) or row-wise indices (B, N, L, M)."""
        g = self._gather(idx, method)
        if self.linear:
            cum = np.cumsum(self.value[g], axis=1)  # (B, N, L, M)
            if self.refit:
                P, A = self._refit(g)
            else:
                P, A = self.P, self.A
            cum += P
            cum /= A + self.n_eff[None]
            out = cum.mean(axis=3) + self.w0  # (B, N, L)
            return out.transpose(2, 0, 1)
        c = np.cumsum(g == 1, axis=1, dtype=np.int64)
        c += self.row_offset[None]
        out = self.lut[c].mean(axis=3)  # (B, N, L)
        out[:, : self.first] = np.nan
        return out.transpose(2, 0, 1)

    def _refit(self, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per-replicate empirical-Bayes pseudo-counts -> (P, A) of shape (B, N, L, 1), or (B, N, L, M) per task."""
        B, N, L, M = g.shape
        K = self.K
        prefix = np.cumsum(g[..., None] == np.arange(K, dtype=np.uint8), axis=1, dtype=np.int32)  # (B, N, L, M, K)
        if self.strata is not None:  # per (replicate, n, model, task), combined as the leaderboard's
            init = None if self.start is None else np.broadcast_to(
                self.start.transpose(1, 0, 2, 3)[None], (B, N) + self.start.shape[:1] + self.start.shape[2:])
            alpha = task_prior_alpha(prefix.reshape(B * N * L, M, K), self.strata,
                                     None if init is None else init.reshape(B * N * L, -1, K))
            per_q = alpha.reshape(B, N, L, -1, K)[:, :, :, self.strata, :]  # (B, N, L, M, K)
            return per_q @ self.wc, per_q.sum(axis=4)
        init = None
        if self.start is not None:
            init = np.broadcast_to(self.start.transpose(1, 0, 2)[None], (B, N, L, K)).reshape(B * N * L, K)
        fitted = fit_dirichlet_prior_batch(prefix.reshape(B * N * L, M, K), init=init)
        alpha = pseudo_counts(fitted, M).reshape(B, N, L, K)
        return (alpha @ self.wc)[..., None], alpha.sum(axis=3)[..., None]

    def ranks(self, scores: np.ndarray, gold: np.ndarray | None = None):
        """As :meth:`TrajectoryKernel.ranks`."""
        from scorio_core.dynamics.trajectory_kernel import TrajectoryKernel

        return TrajectoryKernel.ranks(self, scores, gold)


def ragged_row_indices(idx: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Row-wise indices (L, M, N_max) of one replicate, checked against each cell's N; padding kept in place.

    Raises
    ------
    ValueError
        An index of a cell's trial t < N_lq outside ``0..N_lq - 1``.
    """
    t = np.arange(idx.shape[2])[None, None, :]
    inside = t < lengths[..., None]
    if np.any(inside & (idx >= lengths[..., None])):
        raise ValueError("row-wise indices of ragged data must lie in 0..N-1 of each (model, question) cell.")
    return np.where(inside, idx, t)


def ragged_gold_ranks(R: np.ndarray, lengths: np.ndarray, w: np.ndarray, alpha: float | np.ndarray | None,
                      strata: np.ndarray | None = None) -> np.ndarray:
    """Gold standard on ragged data: competition ranks of Bayes@N on all trials of every cell.

    ``alpha`` None is the paper's uniform prior (Dirichlet(1)); with different N per question
    Bayes@N no longer ranks exactly as avg@N, so the uniform-prior Bayes@N_max is the gold
    standard (section 2.7 defines it as Bayes@N_max).
    """
    from scorio_core.eval.ranking import near_tie_ranks

    kernel = RaggedKernel(R, lengths, "bayes", w, 1, None, None, 1.0 if alpha is None else alpha, strata=strata)
    scores = kernel.scores(np.arange(R.shape[2])[None], "column")[:, 0, -1]
    return near_tie_ranks(scores).astype(np.int64)  # the leaderboard's tie rule, as data_gold_ranks
