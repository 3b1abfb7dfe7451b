"""Exact grouping of equal rows, shared by the fitting code (numpy only).

Three places need the groups of identical rows of a table: the empirical-Bayes prefix refits (identical fits
solved once, :mod:`scorio_core.uncertainty.prefix_prior`), the IRT fit (models or questions with identical counts
made exactly equal, :mod:`scorio_core.items.irt`) and the reference's ranking methods (models with identical
sufficient statistics get the mean score, :mod:`scorio_core.rank.likelihood.fitting`). They all use
:func:`equal_rows`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["equal_rows", "group_mean", "close_groups"]

#: Seed of the fixed projection that keys the rows (any seed gives the same groups; fixed for reproducibility).
_SEED = 0x5C0210


def equal_rows(*blocks) -> tuple[np.ndarray, np.ndarray]:
    """Groups of equal rows, exactly: rows ``i`` and ``j`` share a group iff every block's rows ``i`` and ``j`` are equal.

    Parameters
    ----------
    *blocks : array_like, each of shape (n, ...)
        One or more arrays with the same number of rows ``n`` (any numeric or bool dtype; trailing axes are
        flattened). A row of the table is the concatenation of the blocks' rows.

    Returns
    -------
    first : ndarray of int64, shape (u,)
        One representative row per group (its first occurrence), ``u`` groups.
    inverse : ndarray of int64, shape (n,)
        The group of every row, an index into ``first``: ``first[inverse]`` is each row's representative and
        ``values[first][inverse]`` spreads per-group results back to the rows.

    Raises
    ------
    ValueError
        If the blocks do not have the same number of rows, or no block is given.

    Notes
    -----
    Rows are keyed by a fixed random projection, a row-wise ``sum`` of the row times positive weights (the same
    summation order for every row, so equal rows get equal keys; a BLAS product may sum rows at different
    positions in different orders). Every row is then checked element by element against its group's
    representative; if a projection collision joined different rows (possible in principle, never seen), or a
    value does not equal itself (NaN), the rows are grouped by their bytes instead, which is exact (``-0.0`` and
    ``0.0`` are then different rows, NaNs with the same bits equal). Cost: O(n d) plus a sort of n keys.
    """
    if not blocks:
        raise ValueError("equal_rows needs at least one block of rows")
    arrays = [np.asarray(b) for b in blocks]
    n = len(arrays[0])
    if any(len(b) != n for b in arrays):
        raise ValueError(f"equal_rows: blocks have different numbers of rows ({[len(b) for b in arrays]})")
    flat = [b.reshape(n, int(np.prod(b.shape[1:]))) for b in arrays]
    if n < 2:
        return np.arange(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    rng = np.random.default_rng(_SEED)
    key = np.zeros(n)
    for b in flat:
        if b.shape[1]:
            key = key + (b * rng.uniform(1.0, 2.0, b.shape[1])).sum(axis=1)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    if first.size == n:
        return first.astype(np.int64), inverse.astype(np.int64)
    rep = first[inverse]
    if all(np.array_equal(b, b[rep]) for b in flat):
        return first.astype(np.int64), inverse.astype(np.int64)
    raw = np.concatenate([np.ascontiguousarray(b).view(np.uint8).reshape(n, -1) for b in flat], axis=1)
    keys = np.ascontiguousarray(raw).view(np.dtype((np.void, raw.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return first.astype(np.int64), inverse.ravel().astype(np.int64)


def group_mean(values, inverse: np.ndarray) -> np.ndarray:
    """``values`` replaced by their mean over each group of :func:`equal_rows`.

    Parameters
    ----------
    values : array_like of float, shape (n,)
    inverse : ndarray of int, shape (n,)
        The group of every row (:func:`equal_rows`' second result).

    Returns
    -------
    ndarray of float, shape (n,)
        Each group's members summed in row order, divided by the group's size.
    """
    values = np.asarray(values, dtype=float)
    return np.bincount(inverse, weights=values)[inverse] / np.bincount(inverse)[inverse]


def close_groups(values, atol: float) -> np.ndarray:
    """Groups of values no further than ``atol`` from a neighbour in sorted order, row by row (chains join).

    For estimates that are equal in exact arithmetic but come out of an iterative solver a few ulps apart (models
    at symmetric places of a posterior without identical data): :func:`group_mean` over these groups makes them
    exactly equal, so they rank as ties, whatever the order of the floating-point sums that produced them.

    Parameters
    ----------
    values : array_like of float, shape (n,) or (B, n)
        One row of values, or B independent rows (a value is grouped only with values of its own row).
    atol : float
        Largest gap between neighbours (sorted) inside a group; a chain of small gaps joins one group. NaN is a
        group of its own.

    Returns
    -------
    inverse : ndarray of int64, shape (n,) or (B * n,)
        The group of every value (row-major over the rows), an index usable by :func:`group_mean`.

    Examples
    --------
    >>> close_groups([1.0, 3.0, 1.0 + 1e-15, 2.0], atol=1e-12).tolist()
    [0, 2, 0, 1]
    """
    v = np.asarray(values, dtype=float)
    rows = np.atleast_2d(v)
    B, n = rows.shape
    order = np.argsort(rows, axis=1, kind="stable")
    ordered = np.take_along_axis(rows, order, axis=1)
    starts = np.ones((B, n), dtype=bool)
    starts[:, 1:] = ~(np.diff(ordered, axis=1) <= atol)  # NaN gaps start a group
    inverse = np.empty(B * n, dtype=np.int64)
    inverse[(order + np.arange(B)[:, None] * n).ravel()] = np.cumsum(starts.ravel()) - 1
    return inverse
