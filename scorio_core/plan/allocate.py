r"""Greedy allocation of the next batch of trials by expected reduction of the goal's error per unit cost.

The goal's error is approximated by a sum over the pairs that decide it (:func:`scorio_core.plan.goals.pair_error`,
OCBA: Chen, Lin, Yucesan & Chick 2000) or, for the ``width`` goal, by the total excess width. A trial in cell
``(l, m)`` lowers model ``l``'s variance by the preposterior reduction ``r_l v_lm t / (A_lm + t) / M_l^2``
(:func:`scorio_core.plan.posterior.preposterior_variance`); its gain is the resulting decrease of the error,
divided by the model's per-trial cost: a one-step look-ahead in the spirit of the knowledge gradient (Frazier,
Powell & Dayanik 2008). The batch is handed out in a fixed number of rounds; each round scores every cell at
once, gives one trial to each of the best cells, and updates the cells' strengths and variances.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from scorio_core.plan.goals import Goal, pair_error
from scorio_core.plan.posterior import CellPosterior, preposterior_variance

__all__ = ["Allocation", "allocate"]

#: Rounds the batch is split into (each round: one vectorised scoring of every cell).
ROUNDS = 20
#: A pair's approximate error below which its models are not sent new pool questions for it.
_IN_DOUBT = 1e-3
#: Pairs whose approximate error is below this are left out of the cell gains (their gain is smaller still).
_NEGLIGIBLE = 1e-12
#: Pair x cell evaluations per block of the cell gains (bounds memory at ~100 MB for any L and M).
_BLOCK_CELLS = 1 << 21


@dataclass(frozen=True, eq=False)
class Allocation:
    """Trials of the next batch.

    Attributes
    ----------
    trials, gain : ndarray, shape (L, M)
        Trials per cell and the sum of their round gains.
    pool_trials, pool_gain : ndarray, shape (L,)
        New questions from the pool per model (one trial each; questions-sampled only) and their gains.
    """

    trials: np.ndarray
    gain: np.ndarray
    pool_trials: np.ndarray
    pool_gain: np.ndarray


class _State:
    """Cell strengths/variances as the rounds add trials; model variances under a scope."""

    def __init__(self, post: CellPosterior, scope: str, cov: np.ndarray | None):
        self.A = post.strength.copy()
        self.v = post.var.copy()
        self.ans = post.answered.copy()
        # questions fixed: the target is the score on every question of the task; the unanswered ones add the
        # extrapolation variance s^2 U / (M M_a) (CellPosterior.task_sigma), which a trial there lowers
        self.s2 = post.spread if scope == "questions-fixed" else np.zeros_like(post.ratio)
        self.r = post.ratio
        self.q = post.var_questions if scope == "questions-sampled" else np.zeros_like(post.ratio)
        self.m0 = np.maximum(post.n_answered, 1.0)
        self.new = np.zeros_like(post.ratio)  # new pool questions per model
        self.cov = cov

    def trial_var(self) -> np.ndarray:
        m = np.maximum(self.ans.sum(axis=1), 1)
        return self.r * (self.v * self.ans).sum(axis=1) / m**2 + self.extrapolation(m)

    def extrapolation(self, m_a) -> np.ndarray:
        """``s^2 U / (M M_a)``: the variance of extrapolating to the unanswered questions (questions fixed)."""
        M = self.ans.shape[1]
        m_a = np.maximum(m_a, 1)
        s2 = self.s2.reshape((-1,) + (1,) * (np.ndim(m_a) - 1))  # (L,) or (L, 1) like m_a
        return s2 * (M - m_a) / (M * m_a)

    def shrink(self, new: np.ndarray | None = None) -> np.ndarray:
        new = self.new if new is None else new
        return self.m0 / (self.m0 + new)

    def model_var(self, new: np.ndarray | None = None) -> np.ndarray:
        return (self.trial_var() + self.q) * self.shrink(new)

    def cell_delta(self, t: np.ndarray, cols: np.ndarray | None = None) -> np.ndarray:
        """Reduction of each model's variance (L, M) when cell (l, m) alone gets ``t`` trials.

        ``cols``: only these questions (``t`` then has shape (L, len(cols))); the values are those of the full
        computation in those columns (every step is elementwise per cell, the row sums cover all questions).
        """
        m = np.maximum(self.ans.sum(axis=1), 1).astype(float)[:, None]
        s = (self.v * self.ans).sum(axis=1)[:, None]
        v, A, ans = (self.v, self.A, self.ans) if cols is None else (self.v[:, cols], self.A[:, cols], self.ans[:, cols])
        v_next = preposterior_variance(v, A, t)
        answered = (v - v_next) / m**2
        missing = s / m**2 - (s + v_next) / (m + 1.0) ** 2  # a question the model has not answered: M_l grows
        missing = self.r[:, None] * missing + (self.extrapolation(m) - self.extrapolation(m + 1.0))
        delta = self.shrink()[:, None] * np.where(ans, self.r[:, None] * answered, missing)
        return np.where(t > 0, delta, 0.0)

    def add(self, t: np.ndarray) -> None:
        hit = t > 0
        self.v = np.where(hit, preposterior_variance(self.v, self.A, t), self.v)
        self.A = self.A + t
        self.ans = self.ans | hit


def _pair_s2(state: _State, var: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    s2 = var[a] + var[b]
    if state.cov is not None:
        sh = state.shrink()
        s2 = s2 - 2.0 * state.cov[a, b] * np.sqrt(sh[a] * sh[b])
    return np.maximum(s2, 1e-30)


def _width_error(var: np.ndarray, z: float, width: float) -> np.ndarray:
    return np.maximum(2.0 * z * np.sqrt(np.maximum(var, 0.0)) - width, 0.0)


def _error(goal: Goal, state: _State, var: np.ndarray, mu, a, b, ties, z) -> float:
    if goal.name == "width":
        return float(_width_error(var, z, goal.width).sum())
    return float(pair_error(mu[a] - mu[b], _pair_s2(state, var, a, b), goal.tolerance, ties).sum())


def _cell_gains(goal: Goal, state: _State, mu, a, b, ties, z, t: np.ndarray, cols=None) -> np.ndarray:
    """Decrease of the approximate error (L, M) when cell (l, m) alone gets ``t`` trials (``cols``: those questions)."""
    var = state.model_var()
    delta = state.cell_delta(t) if cols is None else state.cell_delta(t, cols)
    if goal.name == "width":
        now = _width_error(var, z, goal.width)[:, None]
        return now - _width_error(var[:, None] - delta, z, goal.width)
    d = mu[a] - mu[b]
    s2 = _pair_s2(state, var, a, b)
    now = pair_error(d, s2, goal.tolerance, ties)
    # a pair's gain is at most its error now: pairs already decided beyond _NEGLIGIBLE cannot move the plan
    # (top-k of hundreds of models: most of the k (L - k) pairs), so only the rest are evaluated
    keep = np.flatnonzero(now > _NEGLIGIBLE)
    gains = np.zeros_like(delta)
    if keep.size == 0:
        return gains
    M = delta.shape[1]
    block = max(1, _BLOCK_CELLS // max(M, 1))  # (pairs, M) blocks of bounded memory
    for lo in range(0, keep.size, block):
        sel = keep[lo:lo + block]
        d_b, s2_b, now_b = d[sel, None], s2[sel, None], now[sel, None]
        for end in (a[sel], b[sel]):  # the pair's error when one endpoint's variance drops
            drop = now_b - pair_error(d_b, np.maximum(s2_b - delta[end], 1e-30), goal.tolerance, ties)
            order = np.argsort(end, kind="stable")  # sum the rows of each endpoint model: sorted segments
            ends, starts = np.unique(end[order], return_index=True)
            gains[ends] += np.add.reduceat(drop[order], starts, axis=0)
    return gains


def _best(ratio: np.ndarray, index: np.ndarray, n: int) -> np.ndarray:
    """The first ``n`` of ``np.lexsort((index, -ratio))`` without sorting every cell (``1 <= n <= ratio.size``)."""
    if n < ratio.size:
        cut = np.partition(ratio, ratio.size - n)[ratio.size - n]  # the n-th largest ratio
        keep = np.flatnonzero(ratio >= cut)  # every cell that can be among the first n (ties at the cut included)
        return keep[np.lexsort((index[keep], -ratio[keep]))[:n]]
    return np.lexsort((index, -ratio))[:n]


def allocate(goal: Goal, post: CellPosterior, mu: np.ndarray, a: np.ndarray, b: np.ndarray, ties: bool,
             batch: int, cost: np.ndarray, scope: str, cov: np.ndarray | None = None,
             capacity: np.ndarray | None = None) -> Allocation:
    """Hand out ``batch`` trials greedily by expected error reduction per unit cost.

    Parameters
    ----------
    goal : Goal
    post : CellPosterior
    mu : ndarray of float, shape (L,)
        Posterior means.
    a, b : ndarray of int, shape (P,)
        Pairs that decide the goal (ignored for ``width``).
    ties : bool
        Pairs may be resolved as tied.
    batch : int
        Trials to hand out (>= 1).
    cost : ndarray of float, shape (L,)
        Cost of one trial of each model (> 0).
    scope : {"questions-fixed", "questions-sampled"}
        ``questions-sampled`` also offers new questions from the pool, one trial each, the same number
        to every contending model (paired).
    cov : ndarray of float, shape (L, L), optional
        Posterior covariance of the scores (questions-sampled: the pairing term of ``s_ab^2``).
    capacity : ndarray of float, shape (L, M), optional
        At most this many more trials per cell (e.g. what a replay of recorded data still holds);
        None: no limit.

    Returns
    -------
    Allocation
        ``trials.sum() + pool_trials.sum() == batch`` unless no cell can lower the error (then fewer,
        possibly 0: every gain is 0).

    Notes
    -----
    ``ROUNDS`` rounds of ``max(1, batch // ROUNDS)`` trials; ties are broken by cell index, so the
    result is deterministic. A round goes to the pool when one new question for every contending model
    lowers the error more per unit cost than the best single cell.
    """
    L, M = post.answered.shape
    state = _State(post, scope, cov)
    z = float(ndtri(0.5 + 0.5 * goal.confidence))
    trials = np.zeros((L, M))
    gain = np.zeros((L, M))
    pool_trials = np.zeros(L)
    pool_gain = np.zeros(L)
    finite = np.isfinite(mu)
    mu = np.nan_to_num(mu)
    contenders = np.zeros(L, dtype=bool)
    if goal.name == "width":
        contenders[:] = finite & (_width_error(state.model_var(), z, goal.width) > 0)
    else:  # models in a pair that is still in doubt (approximate error >= _IN_DOUBT)
        err = pair_error(mu[a] - mu[b], _pair_s2(state, state.model_var(), a, b), goal.tolerance, ties)
        contenders[a[err >= _IN_DOUBT]] = True
        contenders[b[err >= _IN_DOUBT]] = True
    contenders &= finite
    n_cont = int(contenders.sum())
    pool_cost = float(cost[contenders].sum())
    chunk = max(1, batch // ROUNDS)
    flat_index = np.arange(L * M)
    room = np.full((L, M), np.inf) if capacity is None else np.asarray(capacity, dtype=float).copy()
    remaining = int(batch)
    while remaining > 0:
        step = min(chunk, remaining)
        ones = np.ones((L, M))
        g = _cell_gains(goal, state, mu, a, b, ties, z, ones)
        g = np.where(finite[:, None] & (room >= 1), g, 0.0)
        ratio = (g / cost[:, None]).ravel()
        best = float(ratio.max()) if ratio.size else 0.0
        if scope == "questions-sampled" and n_cont and remaining >= n_cont:
            n_new = max(1, step // n_cont)
            new = state.new + contenders * n_new
            now = _error(goal, state, state.model_var(), mu, a, b, ties, z)
            after = _error(goal, state, state.model_var(new), mu, a, b, ties, z)
            if (now - after) / (pool_cost * n_new) > max(best, 0.0):
                state.new = new
                pool_trials += contenders * n_new
                pool_gain += contenders * (now - after) / n_cont
                remaining -= n_cont * n_new
                continue
        positive = int((ratio > 0).sum())
        if positive == 0:
            break
        pick = _best(ratio, flat_index, min(step, positive))
        t = np.zeros(L * M)
        np.add.at(t, np.resize(pick, step), 1.0)  # fewer useful cells than trials: the best ones again, in turn
        t = np.minimum(t.reshape(L, M), np.floor(room))  # a cell never gets more than it can still take
        step = int(t.sum())
        cols = np.unique(np.nonzero(t)[1])  # the round's gains are needed only where it ran trials
        g_t = _cell_gains(goal, state, mu, a, b, ties, z, t[:, cols], cols)
        gain[:, cols] += np.where(t[:, cols] > 0, np.maximum(g_t, 0.0), 0.0)
        trials += t
        room -= t
        state.add(t)
        remaining -= step
    return Allocation(trials.astype(np.int64), gain, pool_trials.astype(np.int64), pool_gain)
