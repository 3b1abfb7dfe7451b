"""Tie conventions of ``scorio_core.rank`` (``rank_scores``): scipy's rankdata on the grouped scores, by one sort."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as ours


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from([0.0, -0.0, 1e-13, 0.5, 0.5 + 5e-13, np.inf, -np.inf, np.nan]),
                          st.floats(-1e3, 1e3)), min_size=0, max_size=15))
def test_rank_scores_are_scipy_rankdata_of_the_grouped_scores(scores):
    """The tie conventions computed from the runs of the sorted scores equal scipy's rankdata on the grouped scores
    (the reference's construction), NaN and infinities included."""
    from scipy.stats import rankdata

    from scorio_core.rank.ties import _grouped

    s = np.asarray(scores, dtype=float)
    got = ours.rank_scores(s)
    order = np.argsort(-s)
    grouped = _grouped(s[order], 1e-12)
    for name, how in {"competition": "min", "competition_max": "max", "dense": "dense", "avg": "average"}.items():
        want = np.empty(s.size)
        want[order] = rankdata(-grouped, method=how)
        np.testing.assert_array_equal(got[name], want)


def test_rank_scores_hand_values():
    got = ours.rank_scores([3.0, np.inf, 3.0 + 1e-13, -np.inf, 1.0, 1.0])
    assert got["competition"].tolist() == [2, 1, 2, 6, 4, 4]
    assert got["competition_max"].tolist() == [3, 1, 3, 6, 5, 5]
    assert got["dense"].tolist() == [2, 1, 2, 4, 3, 3]
    assert got["avg"].tolist() == [2.5, 1, 2.5, 6, 4.5, 4.5]
    assert np.isnan(ours.rank_scores([1.0, np.nan])["dense"]).all()
    assert ours.rank_scores([])["avg"].shape == (0,)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 7), st.integers(1, 9), st.integers(1, 6), st.sampled_from(["average", "min", "max"]),
       st.randoms(use_true_random=False))
def test_borda_points_equal_scipy_rankdata(A, M, top, rank_ties, rnd):
    """The elimination rules' per-round Borda points from the count histogram equal scipy's rankdata sums exactly."""
    from scipy.stats import rankdata

    from scorio_core.rank.voting import _borda_points

    k = np.random.default_rng(rnd.randint(0, 2**32 - 1)).integers(0, top + 1, size=(A, M))
    want = (A - rankdata(-k, method=rank_ties, axis=0)).sum(axis=1)
    np.testing.assert_array_equal(_borda_points(k, rank_ties), want)


def test_borda_points_hand_values():
    from scorio_core.rank.voting import _borda_points

    k = np.array([[2, 0], [1, 0], [1, 1]])  # q1: 2 > 1 = 1; q2: 1 > 0 = 0
    assert _borda_points(k, "average").tolist() == [2.0 + 0.5, 0.5 + 0.5, 0.5 + 2.0]
    assert _borda_points(k, "min").tolist() == [2.0 + 1.0, 1.0 + 1.0, 1.0 + 2.0]
    assert _borda_points(k, "max").tolist() == [2.0 + 0.0, 0.0 + 0.0, 0.0 + 2.0]
