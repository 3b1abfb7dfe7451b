"""Bootstrap replicates of trial indices, reproducible one by one (paper section 2.7).

Random draws come in fixed blocks of :data:`BLOCK` replicates, each block with its own
``SeedSequence(seed, spawn_key=(block,))`` stream, so a replicate does not depend on how many
are drawn at once and any one (e.g. the worst case of :func:`~scorio_core.dynamics.convergence.bootstrap_convergence`)
can be rebuilt with :func:`bootstrap_indices`. Hariri et al., "Don't Pass@k", ICLR 2026,
arXiv:2510.04265, section 2.7 (column-wise and row-wise bootstrap, Figure 2).
"""

from __future__ import annotations

import numbers
from collections import deque

import numpy as np

from scorio_core.dynamics.ragged import ragged_block_indices
from scorio_core.eval._validate import check_int

__all__ = ["BLOCK", "BOOTSTRAP_METHODS", "bootstrap_indices", "check_method", "ordered_map", "replicate_indices",
           "root_seed"]

#: Resampling schemes (paper section 2.7): trial indices shared by all cells, or per cell.
BOOTSTRAP_METHODS = ("column", "row")
#: Replicates per random stream.
BLOCK = 16


def check_method(method: object) -> str:
    """``method`` if it is one of :data:`BOOTSTRAP_METHODS`; TypeError/ValueError otherwise."""
    if not isinstance(method, str):
        raise TypeError(f"method must be a string, one of {', '.join(BOOTSTRAP_METHODS)}; got {method!r}.")
    if method not in BOOTSTRAP_METHODS:
        raise ValueError(f"method must be one of {', '.join(BOOTSTRAP_METHODS)}; got {method!r}.")
    return method


def root_seed(seed: object) -> int:
    """The root seed of the replicate streams: ``seed`` (a non-negative integer) or fresh entropy for None."""
    if seed is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral) or int(seed) < 0:
        raise TypeError(f"seed must be a non-negative integer or None; got {seed!r}.")
    return int(seed)


def _block_indices(shape: tuple[int, int, int], method: str, seed: int, block: int,
                   lengths: np.ndarray | None = None) -> np.ndarray:
    L, M, N = shape
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(block,)))
    if lengths is not None:  # ragged: row-wise, each cell from its own N
        return ragged_block_indices(lengths, N, rng, BLOCK)
    size = (BLOCK, N) if method == "column" else (BLOCK, N, L, M)  # row-wise: trial-major layout
    return rng.integers(0, N, size=size, dtype=np.int16 if N <= 32767 else np.int32)


def replicate_indices(shape: tuple[int, int, int], method: str, seed: int, start: int, stop: int,
             lengths: np.ndarray | None = None) -> np.ndarray:
    """Validated-argument core of :func:`bootstrap_indices`: replicates ``start .. stop - 1``, trial-major."""
    blocks = [_block_indices(shape, method, seed, b, lengths)
              for b in range(start // BLOCK, (stop - 1) // BLOCK + 1)]
    idx = np.concatenate(blocks, axis=0)
    offset = (start // BLOCK) * BLOCK
    return idx[start - offset : stop - offset]


def bootstrap_indices(shape, method: str = "column", replicates: int = 1, seed: int = 0, start: int = 0,
                      lengths=None) -> np.ndarray:
    r"""Resampled trial indices of bootstrap replicates ``start .. start + replicates - 1``.

    The same draws :func:`bootstrap_convergence` uses for the same ``shape``, ``method``
    and ``seed``, so any replicate (e.g. the worst case) can be rebuilt and passed to
    :func:`scorio_core.dynamics.trajectory.rank_trajectory` as ``indices``.

    Parameters
    ----------
    shape : tuple of int
        ``(L, M, N)`` of the outcome tensor.
    method : {"column", "row"}, default "column"
        Column-wise: N trial indices drawn with replacement, shared by every model and
        question. Row-wise: independent draws for every (model, question) cell.
    replicates : int, default 1
    seed : int, default 0
    start : int, default 0
        Index of the first replicate.
    lengths : array-like of int, shape (L, M), optional
        Trials per cell of ragged data (:mod:`scorio_core.dynamics.ragged`); row-wise only:
        each cell draws from its own ``0..N_lm - 1`` and positions beyond ``N_lm`` point at
        themselves (padding).

    Returns
    -------
    ndarray of intp
        Shape (replicates, N) for "column", (replicates, L, M, N) for "row"; values in
        ``0..N-1``.

    Raises
    ------
    TypeError
        Non-integer arguments.
    ValueError
        Bad ``shape``, ``method``, ``replicates < 1`` or ``start < 0``.

    Examples
    --------
    >>> bootstrap_indices((2, 3, 5), "column", replicates=2, seed=1).shape
    (2, 5)
    >>> bool((bootstrap_indices((2, 3, 5), seed=1, start=1)[0]
    ...       == bootstrap_indices((2, 3, 5), replicates=2, seed=1)[1]).all())
    True
    """
    try:
        L, M, N = (int(v) for v in shape)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"shape must be a tuple (L, M, N) of integers; got {shape!r}.") from exc
    if min(L, M, N) < 1:
        raise ValueError(f"shape must have L, M, N >= 1; got {shape!r}.")
    method = check_method(method)
    replicates = check_int(replicates, "replicates", 1)
    start = check_int(start, "start", 0)
    if lengths is not None:
        lengths = np.asarray(lengths)
        if method != "row" or lengths.shape != (L, M) or lengths.min() < 1 or lengths.max() > N:
            raise ValueError(f"lengths of ragged data need method='row' and shape (L, M)=({L}, {M}) in 1..{N}.")
        lengths = lengths.astype(np.int64)
    idx = replicate_indices((L, M, N), method, root_seed(seed), start, start + replicates, lengths).astype(np.intp)
    return idx if method == "column" else idx.transpose(0, 2, 3, 1)


def ordered_map(pool, fn, items, ahead: int):
    """``fn`` over ``items`` in a thread ``pool``, yielded in order, at most ``ahead`` submitted and not yet yielded.

    Parameters
    ----------
    pool : concurrent.futures.Executor
    fn : callable
        Called as ``fn(item)`` in the pool's threads.
    items : iterable
    ahead : int
        Results computed ahead of the consumer (bounds the memory of finished, unconsumed results).

    Yields
    ------
    object
        ``fn(item)`` for each item, in the order of ``items``; an exception of ``fn`` is raised here.
    """
    pending = deque()
    items = iter(items)
    for item in items:
        pending.append(pool.submit(fn, item))
        if len(pending) >= ahead:
            break
    while pending:
        result = pending.popleft().result()
        for item in items:
            pending.append(pool.submit(fn, item))
            break
        yield result
