"""Fitting machinery of the Luce-family models (:mod:`scorio_core.rank.likelihood.luce`).

Every (question, trial) event with at least one right and one wrong model splits the models into a
winner set W (right) and a loser set (wrong). The objectives below are evaluated for a whole batch of
parameter rows at once (the finite-difference points of one L-BFGS-B iteration, see
:func:`scorio_core.rank.likelihood.fitting.lbfgs`) and are term-for-term those of the reference
package (scorio 0.2.3, ``scorio.rank.listwise``), summed in the same order, so the optimiser follows
the same path and stops at the same point: events are grouped by winner-set size so that each
winner/loser subset sum is one contiguous numpy reduction, and the per-event terms are then added
left to right by a sequential ``cumsum``.
"""

from __future__ import annotations

import numpy as np

from scorio_core.rank.likelihood.fitting import sequential_total, strongly_connected

__all__ = ["events", "mm_plackett_luce", "pl_map_nll", "btl_nll", "davidson_luce_nll", "choice_graph_connected"]


def events(R: np.ndarray) -> np.ndarray:
    """Winner indicators (E, L) of the informative events, in (question, trial) order."""
    L = R.shape[0]
    flat = R.reshape(L, -1).T.astype(bool)
    size = flat.sum(axis=1)
    return flat[(size > 0) & (size < L)]


def choice_graph_connected(win: np.ndarray, co_winners: bool) -> bool:
    """Strong connectivity of the choice graph: winner -> loser (and winner -> co-winner) of some event."""
    w = win.astype(np.int64)
    adj = (w.T @ (1 - w)) > 0
    if co_winners:
        adj |= (w.T @ w) > 0
        np.fill_diagonal(adj, False)
    return strongly_connected(adj)


def mm_plackett_luce(wins: np.ndarray, max_iter: int, tol: float) -> np.ndarray:
    """Hunter's (2004) MM iteration for Bradley-Terry strengths (sum 1), as the reference iterates it.

    Raises ValueError for a win graph that is not strongly connected and RuntimeError without
    convergence (max change of ``pi`` below ``tol``) within ``max_iter`` sweeps.
    """
    L = len(wins)
    W = wins.sum(axis=1)
    total = W.sum()
    if total == 0:
        return np.ones(L) / L
    if not strongly_connected(wins > 0):
        raise ValueError("Plackett-Luce has no finite maximum-likelihood estimate because the directed win graph is "
                         "not strongly connected; use plackett_luce_map for a regularized estimate.")
    pi = np.maximum(W / total, 1e-10)
    n_cmp = wins + wins.T
    for _ in range(max_iter):  # the iteration itself is sequential; each sweep is one vectorised update
        old = pi
        denom = np.cumsum(n_cmp / (old[:, None] + old[None, :]), axis=1)[:, -1]
        pi = np.where(denom > 0, W / np.where(denom > 0, denom, 1.0), old)
        s = pi.sum()
        if s > 0:
            pi = pi / s
        pi = np.maximum(pi, 1e-10)
        if np.max(np.abs(pi - old)) < tol:
            return pi
    raise RuntimeError("plackett_luce MM optimization did not converge within max_iter")


def _centred(X: np.ndarray, n: int) -> np.ndarray:
    return X[:, :n] - X[:, :n].mean(axis=1, keepdims=True)


def pl_map_nll(wins: np.ndarray):
    """Rows -> (negative log-likelihood, centred log-strengths) of the pairwise-reduced Plackett-Luce model."""
    L = len(wins)
    i, j = np.nonzero(wins > 0)  # row-major: the reference's double loop order

    def nll(X):
        lp = _centred(X, L)
        terms = wins[i, j] * (lp[:, i] - np.logaddexp(lp[:, i], lp[:, j]))
        if terms.shape[1] == 0:
            return np.zeros(len(X)), lp
        return -sequential_total(terms), lp
    return nll


def _groups(win: np.ndarray):
    """For each winner-set size t: event positions, winner indices (E_t, t), loser indices (E_t, L - t)."""
    size = win.sum(axis=1)
    order = np.argsort(~win, axis=1, kind="stable")  # winners first, each part in model order
    for t in np.unique(size):
        pos = np.flatnonzero(size == t)
        yield pos, order[pos, :t], order[pos, t:]


def _pairwise_sum(X: np.ndarray) -> np.ndarray:
    """Sums over axis 1 of ``X`` (E, n, B) in numpy's pairwise order for a contiguous length-n vector
    (sequential below 8 terms, 8 accumulators up to 128, halves beyond): bit-for-bit ``np.sum`` of each
    ``X[e, :, b]``, with the gathered rows kept contiguous in B."""
    n = X.shape[1]
    if n < 8:
        res = X[:, 0].copy()
        for i in range(1, n):  # over set positions (< 8); every event and row at once
            res += X[:, i]
        return res
    if n <= 128:
        r = X[:, :8].copy()
        m = n - n % 8
        for i in range(8, m, 8):
            r += X[:, i:i + 8]
        res = ((r[:, 0] + r[:, 1]) + (r[:, 2] + r[:, 3])) + ((r[:, 4] + r[:, 5]) + (r[:, 6] + r[:, 7]))
        for i in range(m, n):
            res += X[:, i]
        return res
    half = n // 2
    half -= half % 8
    return _pairwise_sum(X[:, :half]) + _pairwise_sum(X[:, half:])


def _blocks(groups: list, B: int, cells: int) -> list:
    """The event groups of :func:`_groups` cut into blocks of at most about ``cells`` gathered values for a
    batch of ``B`` rows (cache blocking: each event's terms do not depend on the cut)."""
    out = []
    for pos, w, lo in groups:
        step = max(1, cells // (B * max(w.shape[1], lo.shape[1])))
        out += [(pos[k:k + step], w[k:k + step], lo[k:k + step]) for k in range(0, len(pos), step)]
    return out


def btl_nll(win: np.ndarray):
    """Rows -> (negative composite log-likelihood, centred log-strengths) of Bradley-Terry-Luce rank breaking:
    each winner i of an event is a Luce choice from ``{i} | losers``.

    Events are processed in cache-sized blocks (:func:`_blocks`, set up once per batch size): each block's
    gathered (events, set members, rows) values go into one work buffer, kept across evaluations, and
    are transformed in place."""
    E, L = win.shape
    groups = list(_groups(win))
    setups = {}

    def nll(X):
        B = len(X)
        if B not in setups:
            blocks = _blocks(groups, B, 1 << 17)  # about 1 MB of float64 per block
            size = max(len(pos) * max(w.shape[1], lo.shape[1]) for pos, w, lo in blocks)
            setups[B] = blocks, np.empty(size * B)
        blocks, work = setups[B]
        lp = _centred(X, L)
        lpT = np.ascontiguousarray(lp.T)  # (L, B): gathers copy whole rows
        terms = np.empty((2 * E, B))
        for pos, w, lo in blocks:
            vl = np.take(lpT, lo, axis=0, out=work[:lo.size * B].reshape(lo.shape + (B,)), mode="clip")
            top = vl.max(axis=1)
            np.subtract(vl, top[:, None, :], out=vl)
            lse = top + np.log(_pairwise_sum(np.exp(vl, out=vl)))
            vw = np.take(lpT, w, axis=0, out=work[:w.size * B].reshape(w.shape + (B,)), mode="clip")
            terms[2 * pos] = -_pairwise_sum(vw)
            terms[2 * pos + 1] = _pairwise_sum(np.logaddexp(vw, lse[:, None, :], out=vw))
        return np.cumsum(terms, axis=0)[-1], lp
    return nll


def _log_esp(log_x: np.ndarray, D: int) -> np.ndarray:
    """log e_t of x^{1/t} for t = 1..D, rows of ``log_x`` (B, L) -> (B, D), by the reference's recursion
    ``e_j <- e_j + x_i e_{j-1}`` in log space (one sweep over the L items, all rows and orders at once)."""
    B, L = log_x.shape
    t = np.arange(1, D + 1, dtype=float)
    lx = log_x[:, None, :] / t[None, :, None]  # (B, D, L): x_i^{1/t}
    log_e = np.full((B, D, D + 1), -np.inf)
    log_e[:, :, 0] = 0.0
    for i in range(L):  # recursion over items: each step updates every (row, order, degree) at once
        upper = min(D, i + 1)
        log_e[:, :, 1:upper + 1] = np.logaddexp(log_e[:, :, 1:upper + 1], log_e[:, :, :upper] + lx[:, :, i:i + 1])
    return log_e[:, np.arange(D), np.arange(1, D + 1)]


def davidson_luce_nll(win: np.ndarray, D: int):
    """Rows (log-strengths L, log tie parameters D - 1) -> (negative log-likelihood, centred log-strengths)
    of the Davidson-Luce model (Firth, Kosmidis & Turner, 2019) with tie orders up to ``D``."""
    E, L = win.shape
    size = win.sum(axis=1)
    groups = list(_groups(win))

    def nll(X):
        lp = _centred(X, L)
        B = len(X)
        log_delta = np.concatenate([np.zeros((B, 1)), X[:, L:L + D - 1]], axis=1)  # delta_1 = 1
        terms = log_delta + _log_esp(lp, D)  # (B, D)
        top = terms.max(axis=1)
        log_z = top + np.log(np.ascontiguousarray(np.exp(terms - top[:, None])).sum(axis=1))
        lpT = np.ascontiguousarray(lp.T)
        num = np.empty((E, B))
        for pos, w, _ in groups:
            num[pos] = _pairwise_sum(lpT[w]) / w.shape[1]  # np.mean: the sum, then one division
        num = log_delta.T[size - 1] + num
        return -np.cumsum(num - log_z[None, :], axis=0)[-1], lp
    return nll
