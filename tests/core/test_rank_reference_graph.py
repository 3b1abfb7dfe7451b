"""scorio_core.rank's graph and game methods (pagerank, spectral, alpharank, nash) against the reference (issue 38)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as ours
from scorio_core.rank.graph import pairwise_counts
from tests.core.rank_reference_helpers import METHODS, examples, level_tensor, sizes

ref = pytest.importorskip("scorio.rank")

CASES = [
    ("pagerank", {}), ("pagerank", {"damping": 0.5, "tol": 1e-10}), ("spectral", {}), ("alpharank", {}),
    ("alpharank", {"alpha": 5.0, "population_size": 10}), ("nash", {}), ("nash", {"score_type": "equilibrium"}),
    ("nash", {"score_type": "advantage_vs_equilibrium"}),
]


@st.composite
def tensors(draw):
    return level_tensor(draw, *sizes(draw))


@settings(max_examples=examples(120), deadline=None)
@given(tensors(), st.sampled_from(CASES), st.sampled_from(METHODS))
def test_equal_to_the_reference(R, case, method):
    name, opts = case
    want_ranks, want_scores = getattr(ref, name)(R, method=method, return_scores=True, **opts)
    got_ranks, got_scores = getattr(ours, name)(R, method=method, return_scores=True, **opts)
    np.testing.assert_array_equal(got_ranks, want_ranks)
    np.testing.assert_allclose(got_scores, want_scores, rtol=1e-6, atol=1e-15)


def test_nash_return_conventions_and_signatures():
    R = np.array([[1, 1, 0], [1, 0, 0], [0, 1, 1]])
    for kwargs in ({}, {"return_scores": True}, {"return_equilibrium": True},
                   {"return_scores": True, "return_equilibrium": True}):
        want, got = ref.nash(R, **kwargs), ours.nash(R, **kwargs)
        assert type(got) is type(want)
        for a, b in zip(np.atleast_1d(got) if not isinstance(got, tuple) else got,
                        np.atleast_1d(want) if not isinstance(want, tuple) else want):
            np.testing.assert_allclose(a, b, rtol=1e-12)
    for name, _ in CASES:
        assert str(inspect.signature(getattr(ours, name))).split(" ->")[0].count("=") == \
            str(inspect.signature(getattr(ref, name))).split(" ->")[0].count("=")
        assert list(inspect.signature(getattr(ours, name)).parameters) == \
            list(inspect.signature(getattr(ref, name)).parameters)


def test_pairwise_counts_by_hand():
    R = np.array([[[1, 0], [1, 1]], [[0, 0], [1, 0]]])  # model 0 right 3 of 4, model 1 right 1 of 4
    wins, ties = pairwise_counts(R)
    assert wins.tolist() == [[0, 2], [0, 0]] and ties.tolist() == [[0, 2], [2, 0]]
    # P = (W + T / 2) / 4: 0.75 for model 0; pagerank ranks it first, nash's mixture is all on it
    assert ours.nash(R, score_type="equilibrium", return_scores=True)[1].tolist() == [1.0, 0.0]
    assert ours.pagerank(R).tolist() == [1.0, 2.0]


@pytest.mark.parametrize("name, kwargs, error", [
    ("pagerank", {"damping": 1.0}, ValueError), ("pagerank", {"max_iter": 0}, ValueError),
    ("pagerank", {"max_iter": 2.5}, TypeError), ("pagerank", {"tol": -1}, ValueError),
    ("pagerank", {"teleport": [1.0]}, ValueError), ("pagerank", {"teleport": [-1.0, 1.0, 1.0]}, ValueError),
    ("pagerank", {"teleport": [0.0, 0.0, 0.0]}, ValueError), ("pagerank", {"teleport": [np.nan, 1, 1]}, ValueError),
    ("spectral", {"max_iter": True}, TypeError), ("spectral", {"tol": float("inf")}, ValueError),
    ("alpharank", {"alpha": -1.0}, ValueError), ("alpharank", {"population_size": 1}, ValueError),
    ("nash", {"solver": "x"}, ValueError), ("nash", {"score_type": "x"}, ValueError),
    ("nash", {"temperature": 0.0}, ValueError), ("nash", {"n_iter": 0}, ValueError),
])
def test_bad_options_raise_what_the_reference_raises(name, kwargs, error):
    R = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    with pytest.raises(error) as want:
        getattr(ref, name)(R, **kwargs)
    with pytest.raises(error) as got:
        getattr(ours, name)(R, **kwargs)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("bad", [np.zeros((1, 3, 2)), np.full((2, 2), 0.5), np.full((2, 2), 2)])
def test_bad_input_raises_what_the_reference_raises(bad):
    for name, _ in CASES:
        with pytest.raises(ValueError) as want:
            getattr(ref, name)(bad)
        with pytest.raises(ValueError) as got:
            getattr(ours, name)(bad)
        assert str(got.value) == str(want.value)


@given(st.integers(1, 6), st.integers(0, 7), st.integers(1, 5), st.integers(0, 2**31 - 1))
@settings(max_examples=60, deadline=None)
def test_question_wins_are_each_questions_pairwise_wins(L, M, N, seed):
    from scorio_core.rank.graph import question_wins

    R = (np.random.default_rng(seed).random((L, M, N)) < 0.5).astype(int)
    W = question_wins(R)
    assert W.shape == (M, L, L)
    for q in range(M):
        assert np.array_equal(W[q], pairwise_counts(R[:, [q]])[0])
    assert np.array_equal(W.sum(axis=0), pairwise_counts(R)[0] if M else np.zeros((L, L)))
