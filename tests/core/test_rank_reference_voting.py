"""scorio_core.rank's Condorcet, elimination, Kemeny and majority-judgment rules against the reference (issue 38)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as ours
from scorio_core.rank.voting import _removal_order
from tests.core.rank_reference_helpers import METHODS, examples, level_tensor, sizes

ref = pytest.importorskip("scorio.rank")

FUNCTIONS = ("copeland", "schulze", "ranked_pairs", "kemeny_young", "nanson", "baldwin", "majority_judgment", "minimax")
OPTIONS = {  # extra keyword settings each rule is also checked under
    "copeland": [{}],
    "schulze": [{}, {"tie_policy": "ignore"}],
    "ranked_pairs": [{}, {"tie_policy": "ignore"}, {"strength": "winning_votes"}],
    "kemeny_young": [{}, {"tie_policy": "ignore"}, {"tie_aware": False}],
    "nanson": [{}, {"rank_ties": "min"}, {"rank_ties": "dense"}],
    "baldwin": [{}, {"rank_ties": "max"}, {"rank_ties": "ordinal"}],
    "majority_judgment": [{}],
    "minimax": [{}, {"tie_policy": "ignore"}, {"variant": "winning_votes"}],
}
CASES = [(name, opts) for name in FUNCTIONS for opts in OPTIONS[name]]


@st.composite
def tensors(draw, max_models=9):
    # Kemeny-Young (max_models=7): the reference solves one MILP per model pair, kept small in the full sweep too
    return level_tensor(draw, *sizes(draw, max_models, small=max_models != 9))


def _check(name, opts, R, method):
    want_ranks, want_scores = getattr(ref, name)(R, method=method, return_scores=True, **opts)
    got_ranks, got_scores = getattr(ours, name)(R, method=method, return_scores=True, **opts)
    np.testing.assert_array_equal(got_ranks, want_ranks)
    np.testing.assert_allclose(got_scores, want_scores, rtol=0, atol=1e-9)
    np.testing.assert_array_equal(getattr(ours, name)(R, method=method, **opts), want_ranks)


@settings(max_examples=examples(150), deadline=None)
@given(tensors(), st.sampled_from([c for c in CASES if c[0] != "kemeny_young"]), st.sampled_from(METHODS))
def test_equal_to_the_reference(R, case, method):
    _check(*case, R, method)


@settings(max_examples=examples(40), deadline=None)
@given(tensors(max_models=7), st.sampled_from(OPTIONS["kemeny_young"]), st.sampled_from(METHODS))
def test_kemeny_young_equal_to_the_reference(R, opts, method):
    _check("kemeny_young", opts, R, method)


@settings(max_examples=examples(15), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(METHODS))
def test_kemeny_young_near_ties(seed, method):
    """Models of equal skill: one large weak-majority component, many optimal orders."""
    R = (np.random.default_rng(seed).random((7, 9, 1)) < 0.5).astype(int)
    _check("kemeny_young", {}, R, method)


def test_same_signatures_as_the_reference():
    for name in FUNCTIONS:
        want = inspect.signature(getattr(ref, name))
        got = inspect.signature(getattr(ours, name))
        assert list(got.parameters) == list(want.parameters)
        assert [p.default for p in got.parameters.values()] == [p.default for p in want.parameters.values()]


@pytest.mark.parametrize("M", range(1, 12))
def test_removal_order_is_iterated_lower_median(M):
    left, order = list(range(M)), []
    while left:
        order.append(left.pop((len(left) - 1) // 2))
    assert _removal_order(M).tolist() == order


def _cycle():
    """Six voters (questions, N = 2): 0 > 1 > 2 (x3), 1 > 2 > 0 (x2), 2 > 0 > 1 (x1)."""
    prefs = [(0, 1, 2)] * 3 + [(1, 2, 0)] * 2 + [(2, 0, 1)] * 1  # voter rankings, best first
    k = np.zeros((3, len(prefs)), dtype=int)
    for m, ranking in enumerate(prefs):
        k[list(ranking), m] = [2, 1, 0]
    return (np.arange(2)[None, None, :] < k[:, :, None]).astype(int)  # k correct trials out of N = 2


def test_hand_majorities():
    R = _cycle()
    # P: 0 over 1 on 3 + 1 voters, 1 over 2 on 3 + 2, 0 over 2 on 3 and 2 over 0 on 2 + 1 (a 3-3 tie)
    P = ours.condorcet.preference_counts(R.sum(axis=2), "ignore")
    assert P.tolist() == [[0, 4, 3], [2, 0, 5], [3, 1, 0]]
    # Copeland: 0 beats 1, 1 beats 2, 0-2 tied: (1, 0, -1)
    assert ours.copeland(R, return_scores=True)[1].tolist() == [1.0, 0.0, -1.0]
    # Minimax (margin): 0 undefeated, 1 lost to 0 by 2, 2 lost to 1 by 4
    assert ours.minimax(R, return_scores=True)[1].tolist() == [0.0, -2.0, -4.0]
    # Schulze: d(0,1) = 4, d(1,2) = 5, so p(0,2) = 4 > p(2,0) = 0: order 0, 1, 2
    assert ours.schulze(R, return_scores=True)[1].tolist() == [3.0, 2.0, 1.0]
    # Ranked pairs: lock 1 > 2 (margin 4), then 0 > 1 (margin 2): order 0, 1, 2
    assert ours.ranked_pairs(R, return_scores=True)[1].tolist() == [3.0, 2.0, 1.0]
    # Kemeny: 0 1 2 agrees with 4 + 3 + 5 = 12 preferences; the best of the six orders, unique
    assert ours.kemeny_young(R, return_scores=True)[1].tolist() == [3.0, 2.0, 1.0]


def test_hand_condorcet_cycle():
    # three blocs: 0>1>2 (x3), 1>2>0 (x2), 2>0>1 (x2): P01 = 5, P12 = 5, P20 = 4, margins 3, 3, 1: a cycle
    prefs = [(0, 1, 2)] * 3 + [(1, 2, 0)] * 2 + [(2, 0, 1)] * 2
    k = np.zeros((3, len(prefs)), dtype=int)
    for m, ranking in enumerate(prefs):
        k[list(ranking), m] = [2, 1, 0]
    R = (np.arange(2)[None, None, :] < k[:, :, None]).astype(int)
    assert ours.copeland(R, return_scores=True)[1].tolist() == [0.0, 0.0, 0.0]  # a pure cycle
    # Schulze: p(0,2) = min(5, 5) = 5 > p(2,0) = 4; p(0,1) = 5 > p(1,0) = 4; p(1,2) = 5 > p(2,1) = 4
    assert ours.schulze(R).tolist() == [1.0, 2.0, 3.0]
    # Ranked pairs: margins 3 (0>1), 3 (1>2), 1 (2>0, would close the cycle): 0, 1, 2
    assert ours.ranked_pairs(R).tolist() == [1.0, 2.0, 3.0]
    # Minimax: 0 lost to 2 by 1, 1 to 0 by 3, 2 to 1 by 3
    assert ours.minimax(R, return_scores=True)[1].tolist() == [-1.0, -3.0, -3.0]


def test_hand_elimination_and_majority_judgment():
    R = np.array([[1, 1, 0], [1, 0, 0], [0, 0, 1]])  # Borda (1st round) 4, 2.5, 2.5: mean 3
    assert ours.nanson(R, return_scores=True)[1].tolist() == [1.0, 0.0, 0.0]
    assert ours.baldwin(R, return_scores=True)[1].tolist() == [1.0, 0.0, 0.0]
    # grades sorted (0,1,1), (0,0,1), (0,0,1): medians 1 > 0, then the two others equal
    assert ours.majority_judgment(R, return_scores=True)[1].tolist() == [3.0, 2.0, 2.0]


@pytest.mark.parametrize("bad", [
    np.zeros((3,)), np.zeros((1, 3, 2)), np.zeros((2, 0, 1)), np.full((2, 2), 0.5), np.full((2, 2), np.nan),
    np.array([["a", "b"], ["c", "d"]]), np.full((2, 2), 2), np.zeros((2, 2), dtype=complex),
])
def test_bad_input_raises_what_the_reference_raises(bad):
    for name in FUNCTIONS:
        with pytest.raises(ValueError) as want:
            getattr(ref, name)(bad)
        with pytest.raises(ValueError) as got:
            getattr(ours, name)(bad)
        assert str(got.value) == str(want.value)


@pytest.mark.parametrize("name, kwargs", [
    ("schulze", {"tie_policy": "both"}), ("minimax", {"tie_policy": "x"}), ("minimax", {"variant": "x"}),
    ("minimax", {"variant": "x", "tie_policy": "y"}), ("ranked_pairs", {"strength": "x"}),
    ("ranked_pairs", {"tie_policy": "x"}), ("kemeny_young", {"tie_policy": "x"}), ("kemeny_young", {"time_limit": 0}),
    ("kemeny_young", {"time_limit": float("nan")}), ("kemeny_young", {"time_limit": -1, "tie_policy": "x"}),
    ("nanson", {"rank_ties": "x"}), ("baldwin", {"rank_ties": "x"}),
])
def test_bad_options_raise_what_the_reference_raises(name, kwargs):
    R = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    with pytest.raises(ValueError) as want:
        getattr(ref, name)(R, **kwargs)
    with pytest.raises(ValueError) as got:
        getattr(ours, name)(R, **kwargs)
    assert str(got.value) == str(want.value)


def test_unknown_method_is_a_key_error():
    R = np.array([[1, 0], [0, 1]])
    for name in FUNCTIONS:
        with pytest.raises(KeyError):
            getattr(ours, name)(R, method="nope")


def test_pairwise_counts_in_blocks_of_questions(monkeypatch):
    from scorio_core.rank import condorcet
    k = (np.random.default_rng(3).random((6, 40, 9)) < 0.5).sum(axis=2)
    want = (k[:, None, :] > k[None, :, :]).sum(axis=2)
    monkeypatch.setattr(condorcet, "_BLOCK", 100)  # blocks of 2 questions
    np.testing.assert_array_equal(condorcet.pairwise_wins(k), want)
