"""Kemeny-Young rank aggregation of ``scorio.rank``, exact, by ``scipy.optimize.milp``.

Source: the reference package scorio 0.2.3 (``scorio.rank.kemeny_young``): the same linear-ordering ILP
(variables ``y_ij``, ``y_ij + y_ji = 1``, 3-cycle cuts), built here with array operations in the reference's
variable and row order, so ``tie_aware=False`` returns the solver's same optimal order. With ``tie_aware=True``
the result is the relation forced in every optimal order, which is unique; it is computed faster by:

- splitting the models into the strongly connected components of the weak-majority graph
  (``i -> j`` when ``P_ij >= P_ji``): these components are totally ordered, every model of an earlier one
  strictly beats every model of a later one, and moving a later-component model below an earlier one
  gains every inverted pair, so each optimal order stacks the components; only the models within a
  component need an ILP, solved on that component alone (the objective splits);
- within a component, reading every optimal order a sub-ILP returns: each pair it orders differently
  from the first optimum is reversible without solving its own sub-ILP.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize
from scipy.optimize import Bounds, LinearConstraint
from scipy.sparse import coo_matrix

from scorio_core.rank.condorcet import level_scores, preference_counts
from scorio_core.rank.ties import rank_with, validate_input

__all__ = ["kemeny_young"]


def _ordering_problem(P: np.ndarray):
    """Objective, integrality and constraints of the linear-ordering ILP (the reference's layout)."""
    L = P.shape[0]
    off = ~np.eye(L, dtype=bool)
    index = np.full((L, L), -1)
    index[off] = np.arange(L * (L - 1))  # var(i, j) = i (L - 1) + (j - 1 if j > i else j)
    n_vars = L * (L - 1)
    i, j = np.triu_indices(L, 1)
    n_eq = i.size
    eq_cols = np.stack([index[i, j], index[j, i]], axis=1).ravel()
    A_eq = coo_matrix((np.ones(2 * n_eq), (np.repeat(np.arange(n_eq), 2), eq_cols)), shape=(n_eq, n_vars)).tocsr()
    constraints = [LinearConstraint(A_eq, np.ones(n_eq), np.ones(n_eq))]
    a = np.arange(L)
    ti, tj, tk = np.nonzero((a[:, None, None] < a[None, :, None]) & (a[None, :, None] < a[None, None, :]))
    n_tri = 2 * ti.size
    tri_cols = np.stack([index[ti, tj], index[tj, tk], index[tk, ti],  # i -> j -> k -> i
                         index[ti, tk], index[tk, tj], index[tj, ti]], axis=1).ravel()  # i -> k -> j -> i
    A_tri = coo_matrix((np.ones(3 * n_tri), (np.repeat(np.arange(n_tri), 3), tri_cols)), shape=(n_tri, n_vars)).tocsr()
    constraints.append(LinearConstraint(A_tri, np.full(n_tri, -np.inf), np.full(n_tri, 2.0)))
    return -P[off], np.ones(n_vars, dtype=int), constraints, off, index


def _solve(c, integrality, constraints, options, lb=None, ub=None):
    n = c.size
    bounds = Bounds(lb=np.zeros(n) if lb is None else lb, ub=np.ones(n) if ub is None else ub)
    return optimize.milp(c, integrality=integrality, bounds=bounds, constraints=constraints, options=options)


def _failed(res) -> bool:
    return not res.success or res.x is None or not np.isfinite(res.fun)


def _forced_within(P: np.ndarray, options) -> np.ndarray:
    """``forced[i, j]``: i above j in every optimal order of the ILP on ``P`` (one component)."""
    L = P.shape[0]
    c, integrality, constraints, off, index = _ordering_problem(P)
    res = _solve(c, integrality, constraints, options)
    if _failed(res):
        raise RuntimeError(f"Kemeny-Young MILP did not prove an optimal solution: {getattr(res, 'message', '')}")
    above = np.zeros((L, L), dtype=bool)
    above[off] = res.x >= 0.5
    opt = float(res.fun)
    tol = 1e-9 * max(1.0, abs(opt))
    reversible = np.zeros((L, L), dtype=bool)
    forced = np.zeros((L, L), dtype=bool)
    for i, j in zip(*np.triu_indices(L, 1)):  # one sub-ILP per pair not yet shown reversible
        if reversible[i, j]:
            continue
        win, lose = (i, j) if above[i, j] else (j, i)
        lb = np.zeros(c.size)
        lb[index[lose, win]] = 1.0
        sub = _solve(c, integrality, constraints, options, lb=lb)
        if sub.status == 2:  # proven infeasible
            forced[win, lose] = True
            continue
        if _failed(sub):
            raise RuntimeError("Tie-aware Kemeny-Young MILP did not prove an optimal subproblem solution: "
                               f"{getattr(sub, 'message', '')}")
        if float(sub.fun) <= opt + tol:
            other = np.zeros((L, L), dtype=bool)
            other[off] = sub.x >= 0.5
            flipped = other != above  # every pair this optimum orders the other way is reversible
            reversible |= flipped | flipped.T
        else:
            forced[win, lose] = True
    return forced


def kemeny_young(R, tie_policy: str = "half", method: str = "competition", return_scores: bool = False,
                 time_limit: float | None = None, tie_aware: bool = True):
    """Rank models by Kemeny-Young: the total order maximising ``sum_{i above j} P_ij``, solved exactly as an ILP.

    Parameters
    ----------
    R : array_like, shape (L, M, N) or (L, M)
        Binary outcomes.
    tie_policy : {"half", "ignore"}, default "half"
        A tied question counts 1/2 to each side of ``P``, or nothing.
    method : {"competition", "competition_max", "dense", "avg"}, default "competition"
    return_scores : bool, default False
    time_limit : float, optional
        Positive time limit (seconds) of each MILP.
    tie_aware : bool, default True
        Keep only the pairwise orders forced in every optimal order (level scores of that relation);
        ``False``: the solver's one optimal order, scored by the number of models below each.

    Returns
    -------
    ndarray, shape (L,), or (ranks, scores)

    Raises
    ------
    ValueError
        Bad ``R``, ``time_limit`` (not positive finite) or ``tie_policy`` (in that order).
    RuntimeError
        A MILP not solved to proven optimality (e.g. within ``time_limit``).

    Examples
    --------
    >>> kemeny_young([[1, 1, 1], [1, 1, 0], [0, 0, 0]]).tolist()
    [1.0, 2.0, 3.0]
    """
    R = validate_input(R)
    if time_limit is not None:
        time_limit = float(time_limit)
        if not np.isfinite(time_limit) or time_limit <= 0.0:
            raise ValueError("time_limit must be a positive finite scalar.")
    P = preference_counts(R.sum(axis=2), tie_policy)
    L = P.shape[0]
    options = None if time_limit is None else {"time_limit": time_limit}
    if not tie_aware:
        c, integrality, constraints, off, _ = _ordering_problem(P)
        res = _solve(c, integrality, constraints, options)
        if _failed(res):
            raise RuntimeError(f"Kemeny-Young MILP did not prove an optimal solution: {getattr(res, 'message', '')}")
        y = np.zeros((L, L))
        y[off] = res.x
        return rank_with(y.sum(axis=1), method, return_scores)
    reach = P >= P.T  # weak majority (reflexive); its transitive closure by repeated squaring
    while True:
        nxt = (reach[:, :, None] & reach[None, :, :]).any(axis=1)
        if (nxt == reach).all():
            break
        reach = nxt
    forced = reach & ~reach.T  # across components: every optimal order agrees
    same = reach & reach.T
    labels = np.argmax(same, axis=1)  # a component's label: its first model
    for label in np.unique(labels):  # one ILP per component of three or more models
        members = np.flatnonzero(labels == label)
        if members.size >= 3:
            forced[np.ix_(members, members)] = _forced_within(P[np.ix_(members, members)], options)
    return rank_with(level_scores(forced), method, return_scores)
