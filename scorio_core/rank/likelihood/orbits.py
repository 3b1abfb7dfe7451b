"""Orbits of models under relabelling of events: exact symmetries of an exchangeable-event model.

Two models are in the same orbit when some simultaneous permutation of model rows and observation
columns leaves the data matrix unchanged and maps one model onto the other. Any model whose
likelihood treats the events as exchangeable (Bradley-Terry-Luce's composite likelihood) gives both
the same strength at its optimum, so the optimiser's scores are averaged over each orbit, as the
reference package does (scorio 0.2.3, ``scorio.rank._base.average_event_exchangeable_scores``).

Method (our own): the data are the multiset of distinct columns with their multiplicities. Colour
refinement (1-dimensional Weisfeiler-Leman on the model/column incidence, class sums and
``np.unique`` per round) gives cells that contain the orbits; a pair of models in one cell is then
decided exactly by individualisation-refinement search (McKay & Piperno, 2014, "Practical graph
isomorphism, II"), which refines both labelled copies jointly so their colours are comparable.
"""

from __future__ import annotations

import numpy as np

__all__ = ["event_orbits", "average_over_orbits"]


def _class_sums(values: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Sums of the columns of ``values`` (n, m) by class, (n, k): ``values @ onehot(classes)`` for labels
    ``classes`` (m,) that take every value 0..k-1, without forming the (m, k) indicator matrix."""
    order = np.argsort(classes, kind="stable")
    starts = np.concatenate([[0], np.cumsum(np.bincount(classes))[:-1]])
    return np.add.reduceat(values[:, order], starts, axis=1)


def _refine(data: np.ndarray, mult: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """Coarsest equitable refinement of the model colours ``colours`` (one row of ``data`` a model)."""
    _, colours = np.unique(colours, return_inverse=True)
    colours = colours.ravel()
    n_colours = int(colours.max()) + 1
    data_t = np.ascontiguousarray(data.T)
    weighted = data * mult[None, :]
    while True:
        col_sig = np.column_stack([mult, _class_sums(data_t, colours)])
        _, col_colour = np.unique(col_sig, axis=0, return_inverse=True)
        model_sig = np.column_stack([colours, _class_sums(weighted, col_colour.ravel())])
        _, new = np.unique(model_sig, axis=0, return_inverse=True)
        new = new.ravel()
        if new.max() + 1 == n_colours:
            return new
        colours, n_colours = new, int(new.max()) + 1


def _isomorphic(data: np.ndarray, mult: np.ndarray, colours: np.ndarray, n: int) -> bool:
    """Whether the two copies (models ``:n`` and ``n:`` of the block-diagonal ``data``) are isomorphic
    under a colour-preserving map, by refinement and backtracking over the first non-singleton cell."""
    colours = _refine(data, mult, colours)
    first, second = colours[:n], colours[n:]
    k = int(colours.max()) + 1
    if not np.array_equal(np.bincount(first, minlength=k), np.bincount(second, minlength=k)):
        return False
    sizes = np.bincount(first, minlength=k)
    if sizes.max() == 1:  # discrete: the colour map is the only candidate; check it preserves the columns
        target = np.empty(n, dtype=int)
        target[second] = np.arange(n)
        mapping = target[first]  # model i of copy 1 -> model mapping[i] of copy 2 (the same colour)
        half = data.shape[1] // 2
        a = data[:n, :half]
        b = data[n:, half:][mapping]
        cols_a, count_a = np.unique(np.column_stack([a.T, mult[:half]]), axis=0, return_counts=True)
        cols_b, count_b = np.unique(np.column_stack([b.T, mult[half:]]), axis=0, return_counts=True)
        return cols_a.shape == cols_b.shape and bool(np.array_equal(cols_a, cols_b) and np.array_equal(count_a, count_b))
    cell = int(np.flatnonzero(sizes > 1)[0])
    source = int(np.flatnonzero(first == cell)[0])
    for target in np.flatnonzero(second == cell):
        trial = colours.copy()
        trial[source] = k
        trial[n + target] = k
        if _isomorphic(data, mult, trial, n):
            return True
    return False


def event_orbits(observations: np.ndarray) -> np.ndarray:
    """Orbit labels, shape (L,), of the models (rows of ``observations``, any trailing shape).

    Two models share a label when a permutation of the observation columns together with a
    permutation of the models maps the data onto itself and one model onto the other.
    """
    L = observations.shape[0]
    data = np.asarray(observations).reshape(L, -1)
    cols, mult = np.unique(data.T, axis=0, return_counts=True)
    data = np.ascontiguousarray(cols.T).astype(np.int64)
    mult = mult.astype(np.int64)
    cells = _refine(data, mult, np.zeros(L, dtype=np.int64))
    if np.bincount(cells).max() == 1:
        return np.arange(L)
    _, first, same = np.unique(data, axis=0, return_index=True, return_inverse=True)
    labels = first[same.ravel()]  # identical rows: the transposition of the two models is an automorphism
    zeros = np.zeros_like(data)
    pair = np.block([[data, zeros], [zeros, data]])
    pair_mult = np.concatenate([mult, mult])
    for i in range(L):  # the combinatorial search: only models that colour refinement cannot tell apart
        if labels[i] != i:
            continue
        for j in np.flatnonzero((cells == cells[i]) & (np.arange(L) > i) & (labels == np.arange(L))):
            colours = np.concatenate([cells, cells])
            colours[i] = colours[L + j] = cells.max() + 1
            if _isomorphic(pair, pair_mult, colours, L):
                labels[labels == j] = i
    return labels


def average_over_orbits(scores: np.ndarray, observations: np.ndarray) -> np.ndarray:
    """``scores`` with each orbit's members replaced by the orbit's mean score."""
    groups = event_orbits(observations)
    _, groups = np.unique(groups, return_inverse=True)
    return np.bincount(groups, weights=scores)[groups] / np.bincount(groups)[groups]
