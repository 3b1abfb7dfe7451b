r"""Dirichlet-multinomial marginal likelihood from survival counts: no special functions per question.

For integer counts ``gammaln(c + a) - gammaln(a) = sum_{i<c} log(a + i)`` (digamma and trigamma
differences: sums of ``1/(a + i)`` and ``1/(a + i)^2``), so a model's log marginal likelihood is
``sum_j sum_i S_j(i) log(alpha_j + i) - sum_i S(i) log(A + i)``, with ``S_j(i)`` its questions with
more than i trials in category j, ``S(i)`` those with more than i trials and ``A = sum_j alpha_j``.
Fits of similar length share a padded dense block, so one evaluation of the likelihood, gradient
and Hessian costs a few vectorized logs, reciprocals and row dot products per (fit, i): several
times cheaper than the special functions per distinct count row of
:mod:`scorio_core.uncertainty.batch_prior` when questions have few trials (the dynamics' prefixes).
:func:`newton` is ``batch_prior._newton`` (same steps and rules, shared through
:mod:`scorio_core.uncertainty.prior_newton`), evaluating the derivatives with the likelihood at each
trial point.
"""

from __future__ import annotations

import numpy as np

from scorio_core.uncertainty.prior_newton import frozen_categories, newton_step, newton_update
from scorio_core.uncertainty.priors import _LOG_ALPHA_BOUNDS

_MAX_NEWTON = 100
#: Padded block widths: lengths up to 8 share one block, then widths grow by 25% (<= ~20% padding).
_MIN_WIDTH, _GROWTH = 8, 1.25
#: Survival cells per (state x category) of the states evaluation at which both cost about the same.
_CELLS_PER_STATE = 8.0
#: Cells per piece of a block evaluated at once (~256 kB per temporary: in cache).
_CACHE_CELLS = 32768


class SurvivalTerms:
    """Survival counts of F fits in padded dense blocks of similar length.

    Block ``b`` holds fits ``fits[b]`` (sorted), ``S[b]`` (K, G, T) with ``S_j(i)`` and ``W[b]``
    (G, T) with ``S(i)``, for ``i < T``.
    """

    def __init__(self, n_fits: int, K: int, fits: list, S: list, W: list):
        self.n_fits, self.K, self.fits, self.S, self.W = n_fits, K, fits, S, W

    @classmethod
    def from_states(cls, model, rows, freq, n_fits: int, force: bool = False) -> "SurvivalTerms | None":
        """Terms of the count states (sorted by fit); None where the states evaluation is cheaper (unless ``force``)."""
        K = rows.shape[1]
        tot = rows.sum(axis=1)
        length = np.zeros(n_fits, dtype=np.int64)
        if model.size:
            starts = np.flatnonzero(np.concatenate([[True], model[1:] != model[:-1]]))
            length[model[starts]] = np.maximum.reduceat(tot, starts).astype(np.int64)
        blocks = _blocks(length)
        cells = sum(members.size * T for members, T in blocks) * (K + 1)
        if not force and cells > _CELLS_PER_STATE * model.size * K:
            return None
        position = np.empty(n_fits, dtype=np.int64)
        block_of = np.empty(n_fits, dtype=np.int64)
        for b, (members, _T) in enumerate(blocks):
            block_of[members] = b
            position[members] = np.arange(members.size)
        state_block = block_of[model]
        fits, S, W = [], [], []
        for b, (members, T) in enumerate(blocks):  # a bounded number of blocks
            G = members.size
            keep = state_block == b
            base = position[model[keep]] * (T + 1)
            f = freq[keep]

            def survival(c):
                hist = np.bincount(base + c.astype(np.int64), weights=f, minlength=G * (T + 1)).reshape(G, T + 1)
                return np.cumsum(hist[:, :0:-1], axis=1)[:, ::-1]  # S(i) = #questions with more than i: i < T

            fits.append(members)
            S.append(np.stack([survival(rows[keep, j]) for j in range(K)]))
            W.append(np.ascontiguousarray(survival(tot[keep])))
        return cls(n_fits, K, fits, S, W)

    @classmethod
    def from_survival(cls, S: np.ndarray, n: np.ndarray, M: float, chosen: np.ndarray) -> "SurvivalTerms":
        """Terms of fits ``chosen`` (renumbered 0..) of complete counts: ``S`` (K, F, T) survival counts, ``n`` (F,) trials.

        Every fit has M questions of n trials each, so ``S(i) = M`` for ``i < n``.
        """
        fits, blocks_S, W = [], [], []
        length = n[chosen]
        for members, T in _blocks(length):
            fits.append(members)
            blocks_S.append(S[:, chosen[members], :T].astype(np.float64))
            W.append(np.where(np.arange(T) < length[members, None], M, 0.0))
        return cls(chosen.size, S.shape[0], fits, blocks_S, W)

    def subset(self, chosen: np.ndarray) -> "SurvivalTerms":
        """The terms of fits ``chosen`` (sorted), renumbered 0..len(chosen) - 1."""
        remap = np.full(self.n_fits, -1, dtype=np.int64)
        remap[chosen] = np.arange(chosen.size)
        fits, S, W = [], [], []
        for f, s, w in zip(self.fits, self.S, self.W):
            keep = remap[f] >= 0
            if keep.any():
                fits.append(remap[f[keep]])
                S.append(s[:, keep] if not keep.all() else s)
                W.append(w[keep] if not keep.all() else w)
        return SurvivalTerms(chosen.size, self.K, fits, S, W)

    def compact(self, active: np.ndarray) -> "SurvivalTerms":
        """The terms of the active fits only (same numbering)."""
        fits, S, W = [], [], []
        for f, s, w in zip(self.fits, self.S, self.W):
            keep = active[f]
            if keep.all():
                fits.append(f), S.append(s), W.append(w)
            elif keep.any():
                fits.append(f[keep]), S.append(s[:, keep]), W.append(w[keep])
        T = max((w.shape[1] for w in W), default=0)
        if len(W) > 1 and sum(f.size for f in fits) * T <= _CACHE_CELLS:  # few fits left: one padded block
            S = [np.concatenate([np.pad(s, ((0, 0), (0, 0), (0, T - s.shape[2]))) for s in S], axis=1)]
            W = [np.concatenate([np.pad(w, ((0, 0), (0, T - w.shape[1]))) for w in W])]
            fits = [np.concatenate(fits)]
        return SurvivalTerms(self.n_fits, self.K, fits, S, W)

    def observed(self) -> np.ndarray:
        """Whether each fit has a trial in each category: ``S_j(0) > 0`` (n_fits, K)."""
        out = np.zeros((self.n_fits, self.K), dtype=bool)
        for f, s in zip(self.fits, self.S):
            if s.shape[2]:
                out[f] = (s[:, :, 0] > 0).T
        return out

    def evaluate(self, alpha: np.ndarray, remap: np.ndarray, need: np.ndarray | None = None):
        """Log-likelihood (n,), alpha-gradient (n, K) and Hessian parts (common (n,), diagonal (n, K)).

        ``alpha`` (n, K) holds the pseudo-counts of the fits in every block; fit ``f`` is row
        ``remap[f]``. The Hessian in alpha is ``common + diag(diagonal)``. ``need`` (n,) bool:
        the rows whose derivatives are wanted (default all; the others' are left at 0).
        """
        n, K = alpha.shape
        ll, g_a, h_common, h_diag = np.zeros(n), np.zeros((n, K)), np.zeros(n), np.zeros((n, K))
        for f, s, w in zip(self.fits, self.S, self.W):
            steps = np.arange(w.shape[1], dtype=np.float64)
            rows = max(1, _CACHE_CELLS // w.shape[1])
            for lo in range(0, f.size, rows):  # row pieces that stay in cache (the work is memory-bound)
                hi = lo + rows
                pos = remap[f[lo:hi]]
                a = alpha[pos]
                some = None if need is None else need[pos]
                if some is None or some.mean() > 0.4:  # likelihood and derivatives in one pass
                    ll_b, gc, hc = _sums(a.sum(axis=1), steps, w[lo:hi])
                    ll_b = -ll_b
                    for j in range(K):
                        lj, gj, hj = _sums(a[:, j], steps, s[j, lo:hi])
                        ll_b += lj
                        g_a[pos, j] = gj - gc
                        h_diag[pos, j] = -hj
                    ll[pos] = ll_b
                    h_common[pos] = hc
                    continue
                ll_b = -_log_sums(a.sum(axis=1), steps, w[lo:hi])  # the likelihood, then the few derivatives wanted
                for j in range(K):
                    ll_b += _log_sums(a[:, j], steps, s[j, lo:hi])
                ll[pos] = ll_b
                if some.any():
                    sel = np.flatnonzero(some)
                    a, pos = a[sel], pos[sel]
                    gc, hc = _inverse_sums(a.sum(axis=1), steps, w[lo:hi][sel])
                    for j in range(K):
                        gj, hj = _inverse_sums(a[:, j], steps, s[j, lo:hi][sel])
                        g_a[pos, j] = gj - gc
                        h_diag[pos, j] = -hj
                    h_common[pos] = hc
        return ll, g_a, h_common, h_diag


def _blocks(length: np.ndarray) -> list:
    """Fits grouped by length into padded blocks: ``[(members, width), ...]`` (widths grow by 25%)."""
    edges = [_MIN_WIDTH]
    while edges[-1] < length.max(initial=0):
        edges.append(max(edges[-1] + 1, int(np.ceil(edges[-1] * _GROWTH))))
    block = np.searchsorted(np.asarray(edges), length)
    width = np.zeros(len(edges), dtype=np.int64)
    np.maximum.at(width, block, length)
    order = np.argsort(block, kind="stable")
    bounds = np.searchsorted(block[order], np.arange(len(edges) + 1))
    return [(order[bounds[b]:bounds[b + 1]], int(width[b])) for b in np.flatnonzero(width)]


def _sums(a: np.ndarray, steps: np.ndarray, weight: np.ndarray):
    """Row sums of weight * log(a + i), weight / (a + i) and weight / (a + i)^2 over i (one pass)."""
    x = a[:, None] + steps
    lg = np.einsum("ij,ij->i", weight, np.log(x))
    np.reciprocal(x, out=x)
    g = np.einsum("ij,ij->i", weight, x)
    x *= x
    return lg, g, np.einsum("ij,ij->i", weight, x)


def _log_sums(a: np.ndarray, steps: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Row sums of weight * log(a + i) over i."""
    return np.einsum("ij,ij->i", weight, np.log(a[:, None] + steps))


def _inverse_sums(a: np.ndarray, steps: np.ndarray, weight: np.ndarray):
    """Row sums of weight / (a + i) and weight / (a + i)^2 over i."""
    x = a[:, None] + steps
    np.reciprocal(x, out=x)
    g = np.einsum("ij,ij->i", weight, x)
    x *= x
    return g, np.einsum("ij,ij->i", weight, x)


def _loglik(terms: SurvivalTerms, eta: np.ndarray) -> np.ndarray:
    """Log marginal likelihood (up to alpha-free terms) of every fit at ``eta`` (F, K)."""
    return terms.evaluate(np.exp(eta), np.arange(terms.n_fits))[0]


def newton(terms: SurvivalTerms, eta0: np.ndarray, ridge: float = np.inf) -> tuple[np.ndarray, np.ndarray]:
    """Damped Newton ascent on eta = log alpha, all fits at once (as ``batch_prior._newton``).

    Parameters
    ----------
    terms : SurvivalTerms
        The fits' survival counts.
    eta0 : ndarray, shape (F, K)
        Start.
    ridge : float, default inf
        A fit stops as soon as a log pseudo-count it evaluates exceeds this (the caller redoes it).

    Returns
    -------
    eta : ndarray, shape (F, K)
        The maxima.
    peak : ndarray, shape (F,)
        The largest log pseudo-count each fit evaluated.
    """
    lo, hi = _LOG_ALPHA_BOUNDS
    eta = eta0.copy()
    free = frozen_categories(terms.observed(), eta)  # unobserved categories stay at the bound
    peak = eta.max(axis=1)
    active = peak <= ridge
    F, K = eta.shape
    alpha = np.exp(eta)
    if not active.all():
        terms = terms.compact(active)
    ll, g_a, h_common, h_diag = terms.evaluate(alpha, np.arange(F))
    damping = np.full(F, 1e-3)
    remap = np.empty(F, dtype=np.int64)
    for _iteration in range(_MAX_NEWTON):
        idx = np.flatnonzero(active)
        if idx.size == 0:
            break
        if idx.size < F:
            terms = terms.compact(active)  # drop converged fits' terms for good
        remap[idx] = np.arange(idx.size)
        g, step, lam_min = newton_step(alpha[idx], g_a[idx], h_common[idx], h_diag[idx], damping[idx], True,
                                       None if free is None else free[idx])
        trial = np.clip(eta[idx] + step, lo, hi)
        peak[idx] = np.maximum(peak[idx], trial.max(axis=1))
        a_trial = np.exp(trial)
        # fits that stop after this step whatever its outcome (newton_update's decrement test) need no derivatives there
        last = (lam_min > 0) & (0.5 * np.einsum("ij,ij->i", g, step) < 1e-9 * (1.0 + np.abs(ll[idx])))
        ll_t, ga_t, hc_t, hd_t = terms.evaluate(a_trial, remap, ~last)
        better, done = newton_update(eta, ll, damping, idx, trial, ll_t, g, step, lam_min)
        done |= peak[idx] > ridge
        moved = idx[better]  # derivatives at the accepted points: those of the next iteration
        alpha[moved], g_a[moved], h_common[moved], h_diag[moved] = a_trial[better], ga_t[better], hc_t[better], hd_t[better]
        active[idx[done]] = False
    return eta, peak


def fit(terms: SurvivalTerms, eta0: np.ndarray, ridge: float = np.inf) -> tuple[np.ndarray, np.ndarray]:
    """:func:`newton`, then fits stuck on the lower bound from a weak start (``batch_prior._restart_at_lower_bound``).

    Parameters
    ----------
    terms, eta0, ridge
        As :func:`newton`.

    Returns
    -------
    eta, peak : ndarray
        As :func:`newton` (peak over both runs; fits above ``ridge`` are unfinished).
    """
    eta, peak = newton(terms, eta0, ridge)
    lo, _hi = _LOG_ALPHA_BOUNDS
    stuck = np.flatnonzero(((eta <= lo + 1e-9) & terms.observed()).any(axis=1))  # an unobserved category belongs there
    if stuck.size == 0:
        return eta, peak
    sub = terms.subset(stuck)
    start = np.full((stuck.size, eta.shape[1]), np.log(0.01 / eta.shape[1]))  # weak and even: away from the corner
    other, other_peak = newton(sub, start, ridge)
    better = _loglik(sub, other) > _loglik(sub, eta[stuck]) + 1e-12
    eta[stuck[better]] = other[better]
    peak[stuck] = np.maximum(peak[stuck], other_peak)
    return eta, peak
