"""Sufficient statistics: the count-level entry points of the evaluation API.

Every metric in :mod:`scorio_core.eval` depends on the outcome matrix ``R`` only through
per-question counts: success counts for the Pass@k family, category counts for Bayes@N,
avg@N and Max@k. These classes hold those counts, so a caller who only has counts (for
example a table of ``n_trials, n_correct`` per question) can use every metric directly::

    >>> import numpy as np
    >>> from scorio_core import eval
    >>> counts = eval.BinaryCounts(n_correct=[3, 4], n_trials=[5, 5])
    >>> round(eval.pass_at_k(counts, 2), 6)   # same as the R example of the reference docs
    0.95

Rows may have different numbers of trials (a documented extension, see
:func:`scorio_core.eval.bayes`); with equal rows every result equals the R-matrix API.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorio_core.eval._validate import (
    as_outcome_matrix,
    as_prior_matrix,
    as_weights,
    check_binary,
    check_category_range,
    refuse_pooled_counts,
)

__all__ = ["BinaryCounts", "CategoryCounts", "binary_counts", "category_counts"]


def _int_vector(values: object, name: str) -> np.ndarray:
    array = np.asarray(values)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold integers; got dtype {array.dtype}.")
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array (one entry per question); got shape {array.shape}.")
    if array.dtype.kind == "f" and not np.all(np.isfinite(array) & (array == np.trunc(array))):
        raise ValueError(f"{name} must hold whole numbers; got a non-integral or non-finite value.")
    return array.astype(np.int64)


@dataclass(frozen=True, eq=False)
class BinaryCounts:
    """Per-question success counts: the sufficient statistic of binary metrics.

    Parameters
    ----------
    n_correct : array-like of int, shape (M,)
        Successes per question, ``0 <= n_correct <= n_trials``.
    n_trials : array-like of int, shape (M,)
        Trials per question, ``>= 1``; may differ between questions (ragged rows).

    Raises
    ------
    TypeError
        If the arrays hold non-integers.
    ValueError
        If shapes differ, a question has no trials, or ``n_correct`` is out of range.
    """

    n_correct: np.ndarray
    n_trials: np.ndarray

    def __post_init__(self) -> None:
        c = _int_vector(self.n_correct, "n_correct")
        n = _int_vector(self.n_trials, "n_trials")
        if c.shape != n.shape:
            raise ValueError(f"n_correct and n_trials must have the same length; got {c.size} and {n.size}.")
        if n.min() < 1:
            raise ValueError(f"n_trials must be >= 1 for every question; got {int(n.min())} at question {int(np.argmin(n))}.")
        bad = (c < 0) | (c > n)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"n_correct must satisfy 0 <= n_correct <= n_trials; question {i} has n_correct={int(c[i])}, n_trials={int(n[i])}.")
        c.setflags(write=False)
        n.setflags(write=False)
        object.__setattr__(self, "n_correct", c)
        object.__setattr__(self, "n_trials", n)

    @classmethod
    def from_matrix(cls, R: object) -> "BinaryCounts":
        """Count successes in a binary outcome matrix ``R`` of shape ``(M, N)``."""
        matrix = as_outcome_matrix(R)
        check_binary(matrix)
        m, n = matrix.shape
        return cls._trusted(matrix.sum(axis=1), np.full(m, n, dtype=np.int64))

    @classmethod
    def _trusted(cls, n_correct: np.ndarray, n_trials: np.ndarray) -> "BinaryCounts":
        obj = object.__new__(cls)
        object.__setattr__(obj, "n_correct", np.asarray(n_correct, dtype=np.int64))
        object.__setattr__(obj, "n_trials", np.asarray(n_trials, dtype=np.int64))
        return obj

    @property
    def n_questions(self) -> int:
        """Number of questions M."""
        return int(self.n_correct.size)

    @property
    def min_trials(self) -> int:
        """Smallest number of trials over questions (the finite-sample bound on k)."""
        return int(self.n_trials.min())

    def states(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Unique ``(n_trials, n_correct)`` pairs and how many questions share each.

        Returns
        -------
        n, c, freq : ndarray
            ``n[s], c[s]`` for each unique state ``s``; ``freq[s]`` questions share it.
            Linear-time histogram (no sort) whenever the state space is small.
        """
        n_max = int(self.n_trials.max())
        key = self.n_trials * (n_max + 1) + self.n_correct
        if (n_max + 1) ** 2 <= max(4 * key.size, 1 << 16):
            hist = np.bincount(key, minlength=(n_max + 1) ** 2)
            uniq = np.flatnonzero(hist)
            freq = hist[uniq]
        else:
            uniq, freq = np.unique(key, return_counts=True)
        return uniq // (n_max + 1), uniq % (n_max + 1), freq


@dataclass(frozen=True, eq=False)
class CategoryCounts:
    """Per-question category counts: the sufficient statistic of Bayes@N, avg@N and Max@k.

    Parameters
    ----------
    counts : array-like of int, shape (M, C+1)
        ``counts[a, j]`` trials of question ``a`` that fell in category ``j``; every row
        has at least one trial. Rows may have different totals (ragged rows).
    prior_counts : array-like of int, shape (M, C+1), optional
        Prior outcomes per question and category (the counts of ``R0``); zeros if omitted.

    Raises
    ------
    TypeError
        If the arrays hold non-integers.
    ValueError
        If shapes are wrong, counts are negative, or a question has no trials.
    """

    counts: np.ndarray
    prior_counts: np.ndarray | None = None

    def __post_init__(self) -> None:
        refuse_pooled_counts(self.counts, "counts")
        counts = np.asarray(self.counts)
        if counts.dtype.kind not in "biuf":
            raise TypeError(f"counts must hold integers; got dtype {counts.dtype}.")
        if counts.ndim != 2 or counts.shape[0] == 0 or counts.shape[1] == 0:
            raise ValueError(f"counts must have shape (M, C+1) with M, C+1 >= 1; got {counts.shape}.")
        counts = _as_count_matrix(counts, "counts")
        if counts.sum(axis=1).min() < 1:
            raise ValueError("every question needs at least one trial; a row of counts sums to 0.")
        prior = np.zeros_like(counts) if self.prior_counts is None else _as_count_matrix(np.asarray(self.prior_counts), "prior_counts")
        if prior.shape != counts.shape:
            raise ValueError(f"prior_counts must have the shape of counts {counts.shape}; got {prior.shape}.")
        counts.setflags(write=False)
        prior.setflags(write=False)
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "prior_counts", prior)
        object.__setattr__(self, "_has_prior", bool(prior.any()))

    @classmethod
    def from_matrix(cls, R: object, w: object = None, R0: object = None) -> tuple["CategoryCounts", np.ndarray]:
        """Tally ``R`` (and ``R0``) into counts; returns the counts and validated weights.

        The number of categories is ``len(w)`` (``w`` may be longer than ``max(R) + 1``).
        """
        matrix = as_outcome_matrix(R)
        weights = as_weights(w, matrix)
        n_cat = weights.size
        check_category_range(matrix, n_cat, "R")
        prior = as_prior_matrix(R0, matrix.shape[0])
        check_category_range(prior, n_cat, "R0")
        obj = object.__new__(cls)
        object.__setattr__(obj, "counts", _tally(matrix, n_cat))
        object.__setattr__(obj, "prior_counts", _tally(prior, n_cat))
        object.__setattr__(obj, "_has_prior", prior.shape[1] > 0)
        return obj, weights

    @property
    def n_questions(self) -> int:
        """Number of questions M."""
        return int(self.counts.shape[0])

    @property
    def has_prior(self) -> bool:
        """Whether any prior outcome was given (``R0`` / ``prior_counts`` not all zero)."""
        return self._has_prior

    @property
    def n_categories(self) -> int:
        """Number of categories C+1."""
        return int(self.counts.shape[1])

    @property
    def n_trials(self) -> np.ndarray:
        """Trials per question, shape (M,)."""
        return self.counts.sum(axis=1)


def _as_count_matrix(array: np.ndarray, name: str) -> np.ndarray:
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold integers; got dtype {array.dtype}.")
    if array.dtype.kind == "f" and not np.all(np.isfinite(array) & (array == np.trunc(array))):
        raise ValueError(f"{name} must hold whole numbers; got a non-integral or non-finite value.")
    out = array.astype(np.int64)
    if out.ndim != 2:
        raise ValueError(f"{name} must be 2-D (M, C+1); got shape {out.shape}.")
    if out.size and out.min() < 0:
        raise ValueError(f"{name} must be >= 0; got {int(out.min())}.")
    return out


def _tally(matrix: np.ndarray, n_categories: int) -> np.ndarray:
    """Row-wise category histogram with one bincount, shape (M, n_categories)."""
    m = matrix.shape[0]
    if matrix.shape[1] == 0:
        return np.zeros((m, n_categories), dtype=np.int64)
    offsets = n_categories * np.arange(m, dtype=np.int64)
    flat = (matrix + offsets[:, None]).ravel()
    return np.bincount(flat, minlength=m * n_categories).reshape(m, n_categories)


def binary_counts(R: object) -> BinaryCounts:
    """Return :class:`BinaryCounts` for an outcome matrix or pass counts through.

    Accepts a binary ``R`` of shape ``(M, N)`` (or ``(N,)``), a :class:`BinaryCounts`, or a
    :class:`CategoryCounts` with exactly two categories.
    """
    if isinstance(R, BinaryCounts):
        return R
    if isinstance(R, CategoryCounts):
        if R.n_categories != 2:
            raise ValueError(f"this metric needs binary outcomes (2 categories); got CategoryCounts with {R.n_categories}.")
        return BinaryCounts._trusted(R.counts[:, 1], R.n_trials)
    return BinaryCounts.from_matrix(R)


def category_counts(R: object, w: object = None, R0: object = None) -> tuple[CategoryCounts, np.ndarray]:
    """Return ``(CategoryCounts, weights)`` for an outcome matrix or pass counts through."""
    if isinstance(R, BinaryCounts):
        if R0 is not None:
            raise ValueError("R0 cannot be combined with BinaryCounts; give CategoryCounts(prior_counts=...).")
        counts = np.stack([R.n_trials - R.n_correct, R.n_correct], axis=1)
        weights = as_weights(w)
        if weights.size < 2:
            raise ValueError(f"w must have at least 2 entries for binary counts; got {weights.size}.")
        counts = np.pad(counts, ((0, 0), (0, weights.size - 2)))
        return CategoryCounts(counts), weights
    if isinstance(R, CategoryCounts):
        if R0 is not None:
            raise ValueError("R0 cannot be combined with CategoryCounts; pass prior_counts to CategoryCounts.")
        if w is None:
            if R.n_categories != 2:
                raise ValueError(f"w is required for {R.n_categories} categories; pass one weight per category.")
            return R, np.array([0.0, 1.0])
        weights = as_weights(w)
        if weights.size != R.n_categories:
            raise ValueError(f"w must have one weight per category ({R.n_categories}); got {weights.size}.")
        return R, weights
    return CategoryCounts.from_matrix(R, w, R0)
