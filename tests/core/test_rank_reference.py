"""scorio_core.rank against the reference package's scorio.rank (issue 38): same ranks, scores and errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as ours
from tests.core.rank_reference_helpers import METHODS, examples, level_tensor, sizes

ref = pytest.importorskip("scorio.rank")
ref_utils = pytest.importorskip("scorio.utils")

FUNCTIONS = ("avg", "inverse_difficulty", "borda", "win_rate")
#: Every likelihood method checks its tensor as the reference does (the one place this is tested for them).
LIKELIHOOD = (
    "bradley_terry", "bradley_terry_davidson", "rao_kupper", "bradley_terry_map", "bradley_terry_davidson_map",
    "rao_kupper_map", "plackett_luce", "bradley_terry_luce", "davidson_luce", "plackett_luce_map",
    "bradley_terry_luce_map", "davidson_luce_map", "rasch", "rasch_2pl", "rasch_3pl", "rasch_map", "rasch_2pl_map",
    "rasch_3pl_map", "rasch_mml", "rasch_mml_credible", "thompson", "bayesian_mcmc",
)


@st.composite
def tensors(draw):
    return level_tensor(draw, *sizes(draw, max_questions=12))


@settings(max_examples=examples(60), deadline=None)
@given(tensors(), st.sampled_from(FUNCTIONS), st.sampled_from(METHODS))
def test_equal_to_the_reference(R, name, method):
    want_ranks, want_scores = getattr(ref, name)(R, method=method, return_scores=True)
    got_ranks, got_scores = getattr(ours, name)(R, method=method, return_scores=True)
    np.testing.assert_array_equal(got_ranks, want_ranks)
    np.testing.assert_allclose(got_scores, want_scores, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(getattr(ours, name)(R, method=method), want_ranks)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.sampled_from([0.0, 1e-13, 2e-13, 0.5, 0.5 + 5e-13, 1.0, -1.0]), min_size=1, max_size=12))
def test_rank_scores_near_ties_like_the_reference(scores):
    want = ref_utils.rank_scores(scores)
    got = ours.rank_scores(scores)
    for method in METHODS:
        np.testing.assert_array_equal(got[method], want[method])


def test_two_dimensional_input_is_one_trial():
    R = np.array([[1, 0, 1], [0, 0, 1], [1, 1, 1]])
    for name in FUNCTIONS:
        np.testing.assert_array_equal(getattr(ours, name)(R), getattr(ours, name)(R[:, :, None]))


def test_hand_values():
    R = np.array([[1, 1, 0], [1, 0, 0], [0, 0, 1]])  # k per question: (1,1,0), (1,0,0), (0,0,1)
    # Borda: per-question average ranks of -k: q1 (1.5, 1.5, 3), q2 (1, 2.5, 2.5), q3 (2.5, 2.5, 1); points L - r
    assert ours.borda(R, return_scores=True)[1].tolist() == [1.5 + 2 + 0.5, 1.5 + 0.5 + 0.5, 0 + 0.5 + 2]
    # win rate: model 0 beats 2 on q1, 1 and 2 on q2, loses to 2 on q3: 3 wins, 1 loss; model 1: 1 win (q1 over 2),
    # 2 losses (q2 to 0, q3 to 2); model 2: 2 wins (q3), 3 losses (q1 to both, q2 to 0)
    assert ours.win_rate(R, return_scores=True)[1].tolist() == pytest.approx([0.75, 1 / 3, 0.4], abs=1e-15)
    assert ours.avg(R, return_scores=True)[1].tolist() == pytest.approx([2 / 3, 1 / 3, 1 / 3])


@pytest.mark.parametrize("bad", [
    np.zeros((3,)), np.zeros((1, 3, 2)), np.zeros((2, 0, 1)), np.full((2, 2), 0.5), np.full((2, 2), np.nan),
    np.array([["a", "b"], ["c", "d"]]), np.full((2, 2), 2), np.zeros((2, 2), dtype=complex),
])
def test_bad_input_raises_what_the_reference_raises(bad):
    for name in FUNCTIONS + LIKELIHOOD:
        with pytest.raises(ValueError) as want:
            getattr(ref, name)(bad)
        with pytest.raises(ValueError) as got:
            getattr(ours, name)(bad)
        assert str(got.value) == str(want.value)


def test_bad_clip_range_and_method():
    R = np.array([[1, 0], [0, 1]])
    for clip in ((0.5,), (0.0, 0.5), (0.6, 0.5), (0.1, float("inf"))):
        with pytest.raises(ValueError) as want:
            ref.inverse_difficulty(R, clip_range=clip)
        with pytest.raises(ValueError) as got:
            ours.inverse_difficulty(R, clip_range=clip)
        assert str(got.value) == str(want.value)
    with pytest.raises(KeyError):
        ref.avg(R, method="nope")
    with pytest.raises(KeyError):
        ours.avg(R, method="nope")
