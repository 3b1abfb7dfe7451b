"""Vectorized rank-trajectory kernel shared by trajectories and the convergence bootstrap.

Turns resampled trial indices of many replicates into metric scores for every prefix
length n at once (cumulative sums of per-trial values; an ``(n, c) -> value`` lookup table
for the Pass@k family), then into competition ranks, convergence@n and Kendall's tau_b,
with no Python loop over replicates, questions or trials. Also the argument validation
shared by :mod:`scorio_core.dynamics.trajectory` and :mod:`scorio_core.dynamics.convergence`. Internal: the
kernel assumes validated input; call the public functions of those modules instead.
Hariri et al., "Don't Pass@k", ICLR 2026, arXiv:2510.04265, sections 2.7, 3.3, Appendix I.1.
"""

from __future__ import annotations


import numpy as np

from scorio_core.eval._validate import check_int, check_tau, nonnegative_array, real_vector
from scorio_core.eval.batch import _binary_question_scores
from scorio_core.eval.ranking import NEAR_TIE_RTOL, near_tie_ranks
from scorio_core.ranking.rank_batch import batch_competition_ranks, batch_ranks_tau, batch_tau_b

__all__ = [
    "TRAJECTORY_METRICS",
    "GOLD_CHOICES",
    "TrajectoryKernel",
    "check_outcomes",
    "check_metric",
    "check_weights",
    "check_prior",
    "check_gold",
    "data_gold_ranks",
    "first_convergence",
    "replicate_tau",
]

#: Metrics with rank trajectories; "bayes" and "avg" use category weights, the rest binary R.
TRAJECTORY_METRICS = ("bayes", "avg", "pass@k", "pass^k", "g-pass@k_tau", "mg-pass@k", "maj@k", "auc@k")
#: Gold-standard choices of :func:`rank_trajectory` and the bootstrap (or pass ranks).
GOLD_CHOICES = ("data", "replicate")
_LINEAR = ("bayes", "avg")
_TOL = 1e-12  # exact ties (and given gold ranks); scores tie under the leaderboard's near-tie rule (NEAR_TIE_RTOL)



# --------------------------------------------------------------------------- validation
def check_outcomes(R: object, n_categories: int, binary: bool, ragged: bool = False) -> np.ndarray:
    """Validate an outcome tensor (L, M, N) of category codes; return int16.

    ``ragged`` allows -1 after a cell's last trial (each cell with its own N; see
    :mod:`scorio_core.dynamics.ragged`); otherwise the block must be complete. An ``Outcomes`` or
    ``TaskOutcomes`` object is refused with what to pass instead (duck-typed: this module imports numpy only).
    """
    if hasattr(R, "rubric") or hasattr(R, "complete_block"):
        raise TypeError(f"R must be an (L, M, N) array of category codes; got {type(R).__name__}: pass "
                        "outcomes.complete_block(ragged=True).R (of a TaskOutcomes' .rubric, or .binary for the Pass@k "
                        "family; with the block's .weights as w); count data has no R: "
                        "scorio_core.dynamics.trajectory.outcomes_from_counts(block.counts, ragged=True).")
    array = np.asarray(R)
    if array.dtype.kind not in "biu":
        raise TypeError(f"R must hold integer category codes; got dtype {array.dtype}.")
    if array.ndim != 3 or min(array.shape) == 0:
        raise ValueError(
            f"R must have shape (L models, M questions, N trials) with no empty axis; got shape {array.shape}."
        )
    if ragged and array.size and array.min() >= -1:
        pass
    elif array.size and array.min() < 0:
        raise ValueError(
            "R must be a complete block (every model answered every question N times); "
            "got missing trials (code -1). Use Outcomes.complete_block() first."
        )
    top = 1 if binary else n_categories - 1
    if array.max() > top:
        if binary:
            what = "binary correctness (0 or 1) for the Pass@k family"
        else:
            what = f"category codes in [0, {top}] (len(w) = {n_categories})"
        raise ValueError(f"R entries must be {what}; got {int(array.max())}.")
    return array.astype(np.int16)


def check_metric(metric: object, k: object, tau: object, n_trials: int) -> tuple[str, int, float | None]:
    """Validate metric name, ``1 <= k <= N`` and ``tau`` (G-Pass@k_tau only)."""
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a string, one of {', '.join(TRAJECTORY_METRICS)}; got {metric!r}.")
    if metric not in TRAJECTORY_METRICS:
        raise ValueError(f"metric must be one of {', '.join(TRAJECTORY_METRICS)}; got {metric!r}.")
    k = check_int(k, "k")
    if metric in _LINEAR:
        k = 1
    elif not 1 <= k <= n_trials:
        raise ValueError(f"k must satisfy 1 <= k <= N (N={n_trials}); got k={k}.")
    if metric == "g-pass@k_tau":
        if tau is None:
            raise ValueError("tau is required for g-pass@k_tau; got tau=None.")
        tau = check_tau(tau)
    else:
        tau = None
    return metric, k, tau


def check_weights(w: object, metric: str) -> np.ndarray:
    """Category weights (default binary ``[0, 1]``); the Pass@k family is binary only."""
    if w is None:
        return np.array([0.0, 1.0])
    w_a = real_vector(w, "w")
    if metric not in _LINEAR and not np.array_equal(w_a, [0.0, 1.0]):
        raise ValueError(
            f"w applies to 'bayes' and 'avg' only; metric {metric!r} uses binary correctness "
            f"(w=[0, 1]); got w={w_a.tolist()}."
        )
    return w_a


def check_prior(prior_counts: object, metric: str, shape: tuple[int, int, int]) -> np.ndarray | None:
    """Prior counts of shape (M, C+1) or (L, M, C+1), 'bayes' only; returned as (L, M, C+1)."""
    if prior_counts is None:
        return None
    if metric != "bayes":
        raise ValueError(f"prior_counts applies to metric 'bayes' only; got metric {metric!r}.")
    L, M, K = shape
    return np.broadcast_to(nonnegative_array(prior_counts, "prior_counts", ((M, K), (L, M, K))), shape)


def check_gold(gold: object, L: int) -> tuple[str, np.ndarray | None]:
    """``"data"``, ``"replicate"`` or explicit ranks (L,) (lower = better)."""
    if isinstance(gold, str):
        if gold not in GOLD_CHOICES:
            raise ValueError(f"gold must be one of {', '.join(GOLD_CHOICES)} or an array of L ranks; got {gold!r}.")
        return gold, None
    ranks = real_vector(gold, "gold")
    if ranks.size != L:
        raise ValueError(f"gold must hold one rank per model (L={L}); got {ranks.size}.")
    # any rank convention (dense, competition, fractional) -> competition ranks, as trajectories use
    return "given", batch_competition_ranks(-ranks, tol=_TOL).astype(np.int64)


# --------------------------------------------------------------------------- kernel
class TrajectoryKernel:
    """Scores after every prefix of resampled trials, for many replicates at once.

    Built once per (R, metric) from validated input. :meth:`scores` maps trial indices of B
    replicates (column-wise ``(B, N)`` or row-wise ``(B, L, M, N)``) to scores of shape
    ``(L, B, N)`` (NaN for ``n < k``) with cumulative sums over trials: Bayes@N/avg@N sum
    the per-trial ``w_j - w_0`` (Eq. 15 with per-question ``T_a = T0_a + n``; questions are
    grouped by their prior size ``T0_a``). ``alpha`` is the Dirichlet pseudo-count of every
    category (1 = the paper's uniform prior, 1/2 Jeffreys), or an array (L, N, C+1) of
    per-model pseudo-counts for each prefix length n (an empirical-Bayes prior fitted to the
    first n trials; 0 = the pooled fallback, whose estimate is the observed mean), or
    (L, N, T, C+1) per task with ``strata`` (M,) the questions' task codes
    (:mod:`scorio_core.dynamics.task_priors`). The Pass@k family looks up the per-question
    estimator in an ``(n, c) -> value`` table built with
    :func:`scorio_core.eval.batch.binary_question_scores`.
    """

    def __init__(self, R: np.ndarray, metric: str, w: np.ndarray, k: int, tau: float | None, prior: np.ndarray | None,
                 alpha: float | np.ndarray = 1.0, strata: np.ndarray | None = None):
        self.metric, self.k, self.tau = metric, k, tau
        self.L, self.M, self.N = L, M, N = R.shape
        self.first = k - 1  # index of the first defined prefix (n = k)
        self.linear = metric in _LINEAR
        self.t_n = self.P_n = None
        if self.linear:
            self.w0 = float(w[0])
            wc = w - w[0]
            tasks = None
            if metric == "bayes" and np.ndim(alpha) >= 3:  # per-(model, prefix[, task]) pseudo-counts (L, N[, T], C+1)
                t0, p_la = 0.0, 0.0
                a4 = alpha[:, :, None, :] if np.ndim(alpha) == 3 else alpha
                tasks = None if a4.shape[2] == 1 else strata
                m_g = np.array([float(M)]) if tasks is None else np.bincount(tasks, minlength=a4.shape[2]).astype(float)
                self.t_n = np.ascontiguousarray(a4.sum(axis=3).transpose(1, 0, 2))  # (N, L, G)
                self.P_n = np.ascontiguousarray((m_g * (a4 @ wc)).transpose(1, 0, 2))  # (N, L, G): m_g alpha . (w - w0)
            elif metric == "bayes":
                a = float(alpha)
                t0 = a * w.size + (0.0 if prior is None else prior.sum(axis=2))
                p_la = (np.full(w.size, a) if prior is None else a + prior) @ wc
            else:
                t0, p_la = 0.0, 0.0
            t0 = np.broadcast_to(t0, (L, M))
            p_la = np.broadcast_to(p_la, (L, M))
            self.t, group = np.unique(t0, return_inverse=True)
            group = group.reshape(L, M)
            G = self.t.size
            self.onehot = None if G == 1 else (group[..., None] == np.arange(G)).astype(float)  # (L, M, G)
            if tasks is not None:  # questions grouped by task, each task with its own prior
                self.onehot = np.broadcast_to((tasks[:, None] == np.arange(self.t_n.shape[2])).astype(float), (L, M, self.t_n.shape[2]))
            self.P = np.zeros((L, G))
            np.add.at(self.P, (np.repeat(np.arange(L), M), group.ravel()), p_la.ravel())
            self.values = np.ascontiguousarray(wc[R].transpose(2, 0, 1))  # (N, L, M): w_j - w_0 per trial
            self.per_trial = self._group_sum(self.values[None])[0]  # (N, L, G)
            self.wc = wc
            small = w.size <= 256 and self.onehot is None
            self.codes = np.ascontiguousarray(R.transpose(2, 0, 1)).astype(np.uint8) if small else None
        else:
            self.cells = np.ascontiguousarray(R.transpose(2, 0, 1)).astype(np.uint8)  # (N, L, M)
            n = np.arange(k, N + 1)[:, None]
            c = np.arange(N + 1)[None, :]
            lut = _binary_question_scores(metric, np.minimum(c, n), n, k, tau)
            lut[c > n] = np.nan  # impossible states
            self.lut = lut.ravel()  # rows n = k..N, columns c = 0..N
            self.count_dtype = np.uint16 if (N + 1) * (N - k + 1) <= 65535 else np.int64
            self.offsets = (np.arange(N - k + 1) * (N + 1)).astype(self.count_dtype)[:, None, None]

    def _group_sum(self, values: np.ndarray) -> np.ndarray:
        """(B, N, L, M) per-trial values -> (B, N, L, G) sums over each question group."""
        if self.onehot is None:
            return values.sum(axis=3, keepdims=True)
        return np.einsum("bnlm,lmg->bnlg", values, self.onehot)

    def _flat(self, idx: np.ndarray) -> np.ndarray:
        """Flat positions in an (N, L, M) array of row-wise indices (B, N, L, M)."""
        LM = self.L * self.M
        dtype = np.int32 if self.N * LM < 2**31 else np.int64
        flat = idx.astype(dtype)
        flat *= LM
        flat += np.arange(LM, dtype=dtype).reshape(self.L, self.M)
        return flat

    def scores(self, idx: np.ndarray, method: str) -> np.ndarray:
        """Scores (L, B, N) for trial indices ``idx``: (B, N) column-wise or (B, N, L, M) row-wise.

        Row-wise indices are laid out trial-major: ``idx[b, t, l, m]`` is the source trial of
        the t-th resampled trial of model l on question m in replicate b.
        """
        L, M, N = self.L, self.M, self.N
        B = idx.shape[0]
        if self.linear:
            if method == "column":
                per_trial = self.per_trial[idx]  # (B, N, L, G)
            elif self.codes is not None:  # gather 1-byte codes, then sum w_j - w_0 by category
                codes = self.codes.ravel()[self._flat(idx)]  # (B, N, L, M)
                per_trial = np.zeros(codes.shape[:3] + (1,))
                for j in np.flatnonzero(self.wc):
                    hits = codes if self.wc.size == 2 else codes == j
                    per_trial[..., 0] += self.wc[j] * hits.sum(axis=3, dtype=np.float64)
            else:
                per_trial = self._group_sum(self.values.ravel()[self._flat(idx)])
            cum = np.cumsum(per_trial, axis=1, out=per_trial if method == "row" else None)
            n = np.arange(1, N + 1, dtype=float)[None, :, None, None]
            if self.t_n is not None and self.t_n.shape[2] > 1:  # a prior per task, changing with the prefix length
                cum += self.P_n[None]
                cum /= self.t_n[None] + n
                cum = cum.sum(axis=3) / M
            elif self.t_n is not None:  # prior pseudo-counts that change with the prefix length
                cum = cum[..., 0]
                cum += self.P_n[None, ..., 0]
                cum /= M * (self.t_n[None, ..., 0] + n[..., 0])
            elif self.t.size == 1:
                cum = cum[..., 0]
                cum += self.P[None, None, :, 0]
                cum *= 1.0 / (M * (self.t[0] + n[..., 0]))
            else:
                cum = ((self.P[None, None] + cum) / (self.t + n)).sum(axis=3) / M
            cum += self.w0
            return cum.transpose(2, 0, 1)
        if method == "column":
            gathered = self.cells[idx]  # (B, N, L, M)
        else:
            gathered = self.cells.ravel()[self._flat(idx)]
        c = np.cumsum(gathered, axis=1, dtype=self.count_dtype)[:, self.first :]
        c += self.offsets
        values = self.lut[c]  # (B, N', L, M)
        out = np.full((L, B, N), np.nan)
        out[:, :, self.first :] = (values.sum(axis=3) / M).transpose(2, 0, 1)
        return out

    def ranks(self, scores: np.ndarray, gold: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """Competition ranks (L, B, N) int16 (0 where n < k) and tau_b (B, N) against a fixed gold.

        Scores within the leaderboard's near-tie tolerance share a rank (:func:`~scorio_core.eval.ranking.near_tie_ranks`),
        as in the gold standard: an empirical-Bayes fit's last digits split no tie.
        """
        L, B, N = scores.shape
        ranks = np.zeros((L, B, N), dtype=np.int16)
        defined = np.ascontiguousarray(scores[:, :, self.first :]).reshape(L, -1)
        r, tau = batch_ranks_tau(defined, gold, tol=_TOL, rtol=NEAR_TIE_RTOL)
        ranks[:, :, self.first :] = r.reshape(L, B, N - self.first)
        if tau is None:
            return ranks, None
        tau_full = np.full((B, N), np.nan)
        tau_full[:, self.first :] = tau.reshape(B, N - self.first)
        return ranks, tau_full


def data_gold_ranks(R: np.ndarray, w: np.ndarray, alpha: float | np.ndarray | None = None,
                    strata: np.ndarray | None = None) -> np.ndarray:
    """Gold standard of section 2.7: ranking by Bayes@N_max on all trials.

    ``alpha`` None: the uniform prior, whose ranking is avg@N_max's (section 2.6); otherwise
    Bayes@N_max under those pseudo-counts (a scalar, (L, N, C+1) or, per task with the
    questions' task codes ``strata``, (L, N, T, C+1); n = N is used). Competition ranks under the
    leaderboard's tie rule (:func:`~scorio_core.eval.ranking.near_tie_ranks`, relative 1e-6): two models
    with the same record tie here as on the leaderboard, whatever the optimiser's last digits.
    """
    kernel = (TrajectoryKernel(R, "avg", w, 1, None, None) if alpha is None
              else TrajectoryKernel(R, "bayes", w, 1, None, None, alpha, strata))
    identity = np.arange(R.shape[2])[None]
    scores = kernel.scores(identity, "column")[:, 0, -1]
    return near_tie_ranks(scores).astype(np.int64)


def first_convergence(ranks: np.ndarray, gold: np.ndarray) -> np.ndarray:
    """convergence@n (int64, -1 = none) of ranks (L, B, N) against gold (L,) or (L, B)."""
    gold = np.asarray(gold)
    match = np.all(ranks == (gold[:, :, None] if gold.ndim == 2 else gold[:, None, None]), axis=0)  # (B, N)
    stable = np.logical_and.accumulate(match[:, ::-1], axis=1)[:, ::-1]
    first = np.argmax(stable, axis=1)
    ok = stable[np.arange(stable.shape[0]), first] & (first <= ranks.shape[2] - 2)
    return np.where(ok, first + 1, -1)


def replicate_tau(ranks: np.ndarray, gold: np.ndarray, first: int) -> np.ndarray:
    """Kendall's tau_b (B, N) of ranks (L, B, N) against a per-replicate gold (L, B)."""
    L, B, N = ranks.shape
    tau = np.full((B, N), np.nan)
    r = ranks[:, :, first:].transpose(1, 2, 0)  # (B, N', L)
    tau[:, first:] = batch_tau_b(r, gold.T[:, None, :])
    return tau
