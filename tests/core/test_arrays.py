"""Exact grouping of equal rows (scorio_core.arrays), shared by the prefix refits, the IRT fit and scorio.rank."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.arrays.rows import _SEED, equal_rows, group_mean


def _oracle(*blocks) -> np.ndarray:
    """Pairwise 'same group' matrix from the rows' values as tuples."""
    n = len(blocks[0])
    keys = [tuple(v for b in blocks for v in np.asarray(b)[i].ravel().astype(float).tolist()) for i in range(n)]
    same = np.zeros((n, n), dtype=bool)
    for i in range(n):
        for j in range(n):
            same[i, j] = keys[i] == keys[j]
    return same


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 40), d=st.integers(0, 5),
       dtype=st.sampled_from(["int32", "int8", "bool", "float64"]), two=st.booleans())
def test_groups_are_exactly_the_equal_rows(seed, n, d, dtype, two):
    rng = np.random.default_rng(seed)
    blocks = [rng.integers(0, 3, (n, d)).astype(dtype)]
    if two:
        blocks.append(rng.integers(0, 2, (n, 2)).astype(float))
    first, inverse = equal_rows(*blocks)
    assert inverse.shape == (n,) and first.size == len(set(inverse.tolist()))
    assert np.array_equal(inverse[first], np.arange(first.size))  # a representative belongs to its own group
    assert np.all(first[inverse] <= np.arange(n))  # ... and is its first occurrence
    same = inverse[:, None] == inverse[None, :]
    assert np.array_equal(same, _oracle(*blocks))


def test_a_projection_collision_falls_back_to_exact_bytes():
    w = np.random.default_rng(_SEED).uniform(1.0, 2.0, 2)
    collide = np.array([[w[1], 0.0], [0.0, w[0]], [w[1], 0.0]])  # rows 0 and 1 differ, with the same key
    assert (collide[0] * w).sum() == (collide[1] * w).sum()
    _, inverse = equal_rows(collide)
    assert inverse[0] == inverse[2] != inverse[1]


def test_nan_rows_group_by_their_bits_and_group_mean():
    rows = np.array([[np.nan, 1.0], [np.nan, 1.0], [0.0, 1.0]])
    first, inverse = equal_rows(rows)
    assert inverse[0] == inverse[1] != inverse[2]
    assert sorted(first.tolist()) == [0, 2]  # the first occurrence of each group
    np.testing.assert_array_equal(group_mean([1.0, 3.0, 5.0], inverse), [2.0, 2.0, 5.0])


def test_trailing_axes_flatten_and_sizes_must_match():
    R = np.zeros((3, 2, 2), dtype=np.int8)
    R[1, 1, 1] = 1
    assert equal_rows(R)[1].tolist() in ([0, 1, 0], [1, 0, 1])
    assert equal_rows(np.zeros((1, 4)))[1].tolist() == [0]
    with pytest.raises(ValueError, match="different numbers of rows"):
        equal_rows(np.zeros((3, 1)), np.zeros((2, 1)))
