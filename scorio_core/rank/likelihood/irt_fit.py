"""Shared machinery of the item response theory rankings (:mod:`scorio_core.rank.likelihood.irt`).

Argument checks with the reference's messages, the identifiability checks of the joint (fixed-effects)
fits (no infinite ability, no infinite difficulty, no separation: one sparse linear programme),
exact model orbits under simultaneous model/item relabelling, the starting point, and the
L-BFGS-B driver of the nonconvex 2PL/3PL fits with its audit from label-equivariant restarts.

Source: the reference package scorio 0.2.3 (``scorio.rank.irt``, ``scorio.rank._base``); same
checks, optimiser settings and decisions, vectorised (the reference builds the separation
programme cell by cell, densely).
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components
from scipy.optimize import linprog, minimize

from scorio_core.rank.likelihood.fitting import average_equal_rows
from scorio_core.rank.likelihood.priors import CauchyPrior, EmpiricalPrior, GaussianPrior, LaplacePrior, Prior, UniformPrior
from scorio_core.rank.ties import rank_scores, validate_input

__all__ = ["LOG_A_BOUND", "counts", "positive_int", "nonnegative_float", "ability_prior", "exchangeable",
           "prior_gradient", "require_finite_rows", "require_finite_items", "require_no_separation",
           "require_success", "start", "orbit_labels", "orbit_average", "Orbits", "fit_nonconvex", "check_stable"]

LOG_A_BOUND = 8.0  # |log a| search bound of the 2PL/3PL fits
_MAX_LOCATION = 50.0


def counts(R) -> tuple[np.ndarray, int]:
    """``(k, N)``: correct counts per (model, question), float (L, M), and the trials per cell."""
    R = validate_input(R)
    return R.sum(axis=2, dtype=float), int(R.shape[2])


def positive_int(name: str, value, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if int(value) < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {int(value)}")
    return int(value)


def nonnegative_float(name: str, value) -> float:
    out = float(value)
    if not np.isfinite(out) or out < 0.0:
        raise ValueError(f"{name} must be a finite scalar >= 0.0, got {value!r}")
    return out


def ability_prior(prior) -> Prior:
    """A Python int/float (bool included, as the reference) is a ``GaussianPrior(0, var)``; a Prior as is."""
    if isinstance(prior, (int, float)):
        var = float(prior)
        if not np.isfinite(var) or var <= 0.0:
            raise ValueError("prior variance must be a positive finite scalar.")
        return GaussianPrior(mean=0.0, var=var)
    if isinstance(prior, Prior):
        return prior
    raise TypeError(f"prior must be a Prior object or float, got {type(prior).__name__}")


def exchangeable(prior: Prior) -> bool:
    """Whether relabelling models leaves the prior unchanged (the built-in i.i.d. priors)."""
    return type(prior) in (GaussianPrior, LaplacePrior, CauchyPrior, UniformPrior)


def prior_gradient(prior: Prior, theta: np.ndarray) -> np.ndarray:
    """Gradient of ``prior.penalty`` at ``theta``: analytic for built-in priors, central differences otherwise."""
    kind = type(prior)
    if kind is GaussianPrior:
        return (theta - prior.mean) / prior.var
    if kind is LaplacePrior:
        return np.sign(theta - prior.loc) / prior.scale
    if kind is CauchyPrior:
        z = (theta - prior.loc) / prior.scale
        return 2.0 * z / (prior.scale * (1.0 + z**2))
    if kind is UniformPrior:
        return np.zeros_like(theta)
    if kind is EmpiricalPrior:
        return (theta - prior.prior_mean) / prior.var
    h = np.sqrt(np.finfo(float).eps) * np.maximum(1.0, np.abs(theta))
    steps = np.diag(h)
    up = [prior.penalty(theta + row) for row in steps]  # a user callable: one call per point
    down = [prior.penalty(theta - row) for row in steps]
    return (np.asarray(up, dtype=float) - np.asarray(down, dtype=float)) / (2.0 * h)


def require_finite_rows(k: np.ndarray, n: int, name: str) -> None:
    totals = k.sum(axis=1)
    if np.any((totals == 0.0) | (totals == float(k.shape[1] * n))):
        raise ValueError(f"{name} has no finite ability MLE for an all-correct or all-wrong model row; "
                         "use the corresponding MAP or MML estimator.")


def require_finite_items(k: np.ndarray, n: int, name: str) -> None:
    totals = k.sum(axis=0)
    if np.any((totals == 0.0) | (totals == float(k.shape[0] * n))):
        raise ValueError(f"{name} has no finite item-parameter estimate for an all-correct or all-wrong question; "
                         "remove that non-informative question or use rasch_mml, which handles boundary items "
                         "explicitly.")


def require_no_separation(k: np.ndarray, n: int, name: str) -> None:
    """ValueError when person/item effects ``theta_l - b_m`` can separate full from empty cells (LP, as the reference).

    Maximise ``sum_full (b_m - theta_l) + sum_empty (theta_l - b_m)`` ... with the signs of the reference:
    every cell is a row ``e_l - e_{L+m}``; full cells need ``d >= 0``, empty ``d <= 0``, the others ``d = 0``;
    ``sum b = 0``; box [-1, 1]. A positive optimum means separation (no finite joint estimate).
    When the cells with both outcomes connect every model and question, their equalities force all
    ``theta`` and ``b`` equal, hence 0: the optimum is 0 and the programme is skipped.
    """
    L, M = k.shape
    sign = np.where(k == n, -1.0, np.where(k == 0.0, 1.0, 0.0))  # inequality rows are sign * design
    ml, mm = np.nonzero(sign == 0.0)
    if ml.size >= L + M - 1:
        graph = sparse.coo_array((np.ones(ml.size), (ml, L + mm)), shape=(L + M, L + M))
        if connected_components(graph, directed=False, return_labels=False) == 1:
            return
    c = np.concatenate([sign.sum(axis=1), -sign.sum(axis=0)])
    ll, mm = np.nonzero(sign)
    el, em = np.nonzero(sign == 0.0)

    def rows(l_idx, m_idx, scale):
        r = np.arange(len(l_idx))
        data = np.concatenate([scale, -scale])
        return sparse.csr_array((data, (np.concatenate([r, r]), np.concatenate([l_idx, L + m_idx]))),
                                shape=(len(l_idx), L + M))

    a_ub = rows(ll, mm, sign[ll, mm]) if ll.size else None
    a_eq = sparse.vstack([rows(el, em, np.ones(el.size)),
                          sparse.csr_array(np.concatenate([np.zeros(L), np.ones(M)])[None, :])], format="csr")
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(ll.size) if ll.size else None, A_eq=a_eq, b_eq=np.zeros(a_eq.shape[0]),
                  bounds=(-1.0, 1.0), method="highs")
    if not res.success:
        raise RuntimeError(f"{name} separation diagnostic failed: {res.message}")
    if -float(res.fun) > 1e-8:
        raise ValueError(f"{name} has no finite joint location estimate because the binary response pattern is "
                         "completely or quasi-separated; use a MAP or MML estimator with proper regularization.")


def require_success(res, name: str) -> None:
    if not res.success or res.x is None or not np.isfinite(res.fun):
        raise RuntimeError(f"{name} optimization failed: {res.message}")


def start(k: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Starting abilities and difficulties: logits of the smoothed row and column accuracies."""
    p = np.clip((k + 0.5) / (n + 1.0), 1e-6, 1 - 1e-6)
    rows, cols = p.mean(axis=1), p.mean(axis=0)
    return np.log(rows / (1 - rows)), -np.log(cols / (1 - cols))


def _refine(k: np.ndarray, row_col: np.ndarray, col_col: np.ndarray):
    """Colour refinement of the weighted bipartite model/question graph until stable (an automorphism invariant)."""
    while True:
        n_rows, n_cols = row_col.max() + 1, col_col.max() + 1
        row_sig = np.column_stack([row_col, np.sort(k * n_cols + col_col[None, :], axis=1)])
        col_sig = np.column_stack([col_col, np.sort(k.T * n_rows + row_col[None, :], axis=1)])
        new_r = np.unique(row_sig, axis=0, return_inverse=True)[1].ravel()
        new_c = np.unique(col_sig, axis=0, return_inverse=True)[1].ravel()
        if new_r.max() + 1 == n_rows and new_c.max() + 1 == n_cols:
            return new_r, new_c
        row_col, col_col = new_r, new_c


def _column_multiset(block: np.ndarray) -> np.ndarray:
    """The columns of ``block`` in lexicographic order (equal for blocks equal up to a column permutation)."""
    return block[:, np.lexsort(block[::-1])]


def _extends(k: np.ndarray, src: list[int], dst: list[int], colour: np.ndarray) -> bool:
    """Whether the partial row map ``src -> dst`` extends to an automorphism of ``k`` (backtracking search)."""
    if not np.array_equal(_column_multiset(k[src]), _column_multiset(k[dst])):
        return False
    if len(src) == len(k):
        return True
    free_s = [i for i in range(len(k)) if i not in src]
    nxt = min(free_s, key=lambda i: (np.count_nonzero(colour == colour[i]), i))
    for cand in (j for j in range(len(k)) if j not in dst and colour[j] == colour[nxt]):
        if _extends(k, src + [nxt], dst + [cand], colour):
            return True
    return False


def orbit_labels(k: np.ndarray) -> np.ndarray:
    """One label per model (the orbit's smallest index): exact model orbits under simultaneous relabelling of
    models and questions of ``k``."""
    L = k.shape[0]
    colour, _ = _refine(k, np.zeros(L, dtype=np.int64), np.zeros(k.shape[1], dtype=np.int64))
    parent = np.arange(L)
    for c in np.unique(colour):
        members = np.flatnonzero(colour == c)
        for a in members[1:]:
            if parent[a] != a:
                continue
            for b in members:
                if b < a and parent[b] == b and _extends(k, [int(b)], [int(a)], colour):
                    parent[a] = b
                    break
    return parent


def orbit_average(scores: np.ndarray, k: np.ndarray, parent: np.ndarray | None = None) -> np.ndarray:
    """Scores averaged over exact model orbits under simultaneous relabelling of models and questions of ``k``
    (``parent``: the :func:`orbit_labels` of ``k`` when already known)."""
    parent = orbit_labels(k) if parent is None else parent
    return average_equal_rows(scores, parent[:, None]) if np.any(parent != np.arange(len(scores))) else scores


class Orbits:
    """The exact model orbits of ``k`` (:func:`orbit_labels`), found on first use and then kept.

    The 2PL/3PL driver averages over them up to three times per fit (audit and final scores); the
    colour refinement behind them costs about as much as a few dozen objective evaluations.
    """

    def __init__(self, k: np.ndarray):
        self.k, self._parent = k, None

    def average(self, scores: np.ndarray) -> np.ndarray:
        """:func:`orbit_average` of ``scores`` over the orbits of ``k``."""
        if self._parent is None:
            self._parent = orbit_labels(self.k)
        return orbit_average(scores, self.k, self._parent)


def _projected_gradient(res, sl: slice) -> float:
    g = np.asarray(res.jac, dtype=float).copy()
    x, gb = res.x[sl], g[sl]
    gb[(x <= -LOG_A_BOUND + 1e-8) & (gb > 0.0)] = 0.0
    gb[(x >= LOG_A_BOUND - 1e-8) & (gb < 0.0)] = 0.0
    g[sl] = gb
    return float(np.max(np.abs(g)))


def check_stable(theta, beta, log_a, name: str) -> None:
    loc = np.concatenate([theta, beta])
    if (not np.isfinite(loc).all() or np.max(np.abs(loc)) > _MAX_LOCATION
            or np.any(np.abs(log_a) >= LOG_A_BOUND - 1e-6)):
        raise ValueError(f"{name} did not have a stable interior joint estimate; ability/difficulty parameters "
                         "saturated or an item discrimination reached the numerical search boundary. Use Rasch MML "
                         "or an estimator with proper priors on every nonidentified parameter.")


def fit_nonconvex(fun, x0, bounds, max_iter, k, name, exch=True, orbits=None):
    """L-BFGS-B fit of a 2PL/3PL objective (value and gradient), audited as the reference does
    (``orbits``: an :class:`Orbits` of ``k`` to share with the caller; made here when None).

    A fit that looks weak (large discriminations or locations, broken label symmetry, or a nontrivial
    model automorphism) is refitted from starts moved along the leading principal direction(s) of the
    centred counts; equally good fits that rank differently raise ValueError, otherwise the smallest
    near-best solution is kept.
    """
    L, M = k.shape
    orbits = Orbits(k) if orbits is None else orbits
    sl = slice(L + M, L + 2 * M)
    opts = {"maxiter": max_iter, "ftol": 1e-14, "gtol": 1e-9, "maxls": 100, "maxcor": 30}

    def run(x_start):
        res = minimize(fun, x_start, jac=True, method="L-BFGS-B", bounds=bounds, options=opts)
        require_success(res, name)
        left = max_iter - int(res.nit)
        if _projected_gradient(res, sl) > 5e-4 and left > 0:
            res = minimize(fun, res.x, jac=True, method="L-BFGS-B", bounds=bounds, options={**opts, "maxiter": left})
            require_success(res, name)
        pg = _projected_gradient(res, sl)
        if not np.isfinite(pg) or pg > 5e-4:
            raise RuntimeError(f"{name} optimization stopped before reaching a stationary solution "
                               f"(projected gradient {pg:.3g}).")
        return res

    def parts(res):
        b = res.x[L:L + M]
        return res.x[:L], b - b.mean(), res.x[sl]

    base = run(x0)
    theta, beta, log_a = parts(base)
    check_stable(theta, beta, log_a, name)
    probe = np.arange(L, dtype=float)
    suspicious = (np.max(np.abs(log_a)) > 4.0 or np.max(np.abs(np.concatenate([theta, beta]))) > 10.0
                  or (exch and (np.max(np.abs(orbits.average(theta) - theta)) > 1e-4
                                or not np.array_equal(orbits.average(probe), probe))))
    if not suspicious:
        return base
    centred = k - k.mean(axis=0, keepdims=True)
    vals, vecs = np.linalg.eigh(centred @ centred.T)
    directions = []
    if vals[-1] > np.finfo(float).eps:
        space = vecs[:, vals >= vals[-1] - 1e-10 * max(1.0, vals[-1])]
        for col in (space @ space.T).T:
            norm = float(np.linalg.norm(col))
            if norm <= 1e-10:
                continue
            d = col / norm
            if not any(np.allclose(d, s * e, atol=1e-10, rtol=1e-10) for e in directions for s in (1, -1)):
                directions.append(d)
    fits = [base]
    for d in directions:
        for sign in (-1.0, 1.0):
            x_start = x0.copy()
            x_start[:L] += sign * d
            try:
                res = run(x_start)
                check_stable(*parts(res), name)
            except (RuntimeError, ValueError):
                continue
            fits.append(res)
    best = min(float(r.fun) for r in fits)
    near = [r for r in fits if float(r.fun) <= best + 1e-7 * max(1.0, abs(best))]
    rankings = {tuple(rank_scores(orbits.average(parts(r)[0]) if exch else parts(r)[0])["competition"])
                for r in near}
    if len(rankings) > 1:
        raise ValueError(f"{name} has multiple equally good nonconvex solutions that imply different rankings; the "
                         "ranking is not identified. Use a Rasch or MML estimator, or report a sensitivity analysis.")

    def key(res):
        t, b, a = parts(res)
        return float(np.linalg.norm(res.x)), tuple(np.round(np.concatenate([np.sort(t), np.sort(b), np.sort(a)]), 10))
    return min(near, key=key)
