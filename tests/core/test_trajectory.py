"""Rank trajectories (paper section 3.3, Appendix I.1, Figure 9)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorio_core import eval as ev
from scorio_core.dynamics.trajectory import convergence_at_n, outcomes_from_counts, rank_trajectory

# sibling helper module; works with any pytest import mode
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_trajectory_reference import resample, slow_convergence, slow_ranks, slow_scores  # noqa: E402


METRICS_K = [
    ("bayes", 1, None),
    ("avg", 1, None),
    ("pass@k", 2, None),
    ("pass^k", 3, None),
    ("g-pass@k_tau", 4, 0.5),
    ("mg-pass@k", 4, None),
    ("maj@k", 3, None),
    ("auc@k", 3, None),
]


def _random_binary(seed, L=4, M=5, N=9):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.1, 0.9, size=(L, M, 1))
    return (rng.random((L, M, N)) < p).astype(np.int8)


# ----------------------------------------------------------------------------- hand cases
def test_hand_trajectory_and_convergence():
    # hand: model 0 correct on trials 1, 3, 4; model 1 on trial 2 -> tied after 2 trials
    t = rank_trajectory([[[1, 0, 1, 1]], [[0, 1, 0, 0]]])
    assert t.ranks.tolist() == [[1, 1, 1, 1], [2, 1, 2, 2]]
    assert t.gold_ranks.tolist() == [1, 2]
    assert t.convergence == 3
    assert t.n.tolist() == [1, 2, 3, 4]


def test_hand_no_convergence_when_only_the_last_trial_matches():
    # hand: cumulative correct 1:0, 1:1, 1:2, 2:2 ... last trial decides -> s* would be N = 4 > N-1
    t = rank_trajectory([[[1, 0, 0, 1]], [[0, 1, 1, 0]]], gold=[2, 1])
    # after 4 trials: 2 vs 2 -> tie, gold [2, 1] never matched at n = 4
    assert t.convergence is None
    t2 = rank_trajectory([[[1, 0, 0, 1]], [[0, 1, 1, 1]]])  # model 1 leads from trial 3 on
    assert t2.ranks[:, 2:].tolist() == [[2, 2], [1, 1]]
    assert t2.convergence == 3


def test_ties_are_competition_ranks():
    R = [[[1, 1]], [[1, 1]], [[0, 1]], [[0, 0]]]
    t = rank_trajectory(R)
    assert t.ranks[:, 1].tolist() == [1, 1, 3, 4]  # hand: 1224 ranking after 2 trials
    assert t.ranks[:, 0].tolist() == [1, 1, 3, 3]


def test_given_gold_in_any_rank_convention_and_replicate_gold():
    R = [[[1, 1, 1]], [[1, 0, 1]], [[1, 0, 1]], [[0, 0, 0]]]
    dense = rank_trajectory(R, gold=[1, 2, 2, 3])  # dense ranks, like the paper's Table 1 gold row
    assert dense.gold_ranks.tolist() == [1, 2, 2, 4] and dense.convergence == 2
    own = rank_trajectory(R, "pass@k", k=2, gold="replicate")
    np.testing.assert_array_equal(own.gold_ranks, own.ranks[:, -1])


def test_pass_at_k_is_nan_before_k():
    t = rank_trajectory(_random_binary(0), "pass@k", k=3)
    assert np.isnan(t.ranks[:, :2]).all() and np.isnan(t.scores[:, :2]).all()
    assert np.isnan(t.kendall_tau[:2]).all()
    assert np.isfinite(t.ranks[:, 2:]).all()


def test_convergence_at_n_public():
    assert convergence_at_n([[2, 1, 1, 1], [1, 2, 2, 2]], [1, 2]) == 2
    assert convergence_at_n([[1, 1, 1, 2], [2, 2, 2, 1]], [1, 2]) is None
    assert convergence_at_n([[np.nan, 1, 1], [np.nan, 2, 2]], [1, 2]) == 2
    # hand: the ranking at N matches, the one at N-1 does not -> s* = N is excluded
    assert convergence_at_n([[2, 2, 1], [1, 1, 2]], [1, 2]) is None


# ----------------------------------------------------------------------------- vs slow loop
@pytest.mark.parametrize("metric,k,tau", METRICS_K)
def test_observed_trajectory_equals_slow_loop(metric, k, tau):
    R = _random_binary(1)
    t = rank_trajectory(R, metric, k=k, tau=tau)
    expected = slow_ranks(R, metric, k=k, tau=tau)
    np.testing.assert_array_equal(t.ranks, expected)
    gold = ev.competition_ranks_from_scores([ev.avg(R[l])[0] for l in range(R.shape[0])])
    np.testing.assert_array_equal(t.gold_ranks, gold)
    assert t.convergence == slow_convergence(expected, gold)


@pytest.mark.parametrize("method", ["column", "row"])
@pytest.mark.parametrize("metric,k,tau", METRICS_K[:5])
def test_replicate_trajectory_equals_slow_loop(metric, k, tau, method):
    R = _random_binary(2, N=7)
    rng = np.random.default_rng(5)
    idx = rng.integers(0, 7, size=7 if method == "column" else R.shape)
    t = rank_trajectory(R, metric, k=k, tau=tau, indices=idx)
    np.testing.assert_array_equal(t.ranks, slow_ranks(resample(R, idx), metric, k=k, tau=tau))
    # the "data" gold standard stays the original data's avg@N ranking
    np.testing.assert_array_equal(t.gold_ranks, rank_trajectory(R).gold_ranks)


def test_categorical_weights_and_prior_equal_slow_loop():
    rng = np.random.default_rng(3)
    R = rng.integers(0, 3, size=(4, 5, 6))
    w = np.array([0.0, 0.3, 1.0])
    R0 = [rng.integers(0, 3, size=(5, 1 + (l % 2))) for l in range(4)]  # unequal prior sizes
    prior = np.stack([np.stack([np.bincount(row, minlength=3) for row in r0]) for r0 in R0])
    t = rank_trajectory(R, "bayes", w=w, prior_counts=prior)
    np.testing.assert_allclose(t.scores, slow_scores(R, "bayes", w=w, R0=R0), rtol=0, atol=1e-12)
    np.testing.assert_array_equal(t.ranks, slow_ranks(R, "bayes", w=w, R0=R0))
    # sigma is Bayes@N's posterior sd after n trials
    sig = [ev.bayes(R[1, :, :3], w, R0[1])[1]]
    assert t.sigma[1, 2] == pytest.approx(sig[0], abs=1e-12)


def test_avg_and_bayes_rank_identically_with_uniform_prior():
    R = _random_binary(4, L=6, M=7, N=12)
    np.testing.assert_array_equal(rank_trajectory(R, "bayes").ranks, rank_trajectory(R, "avg").ranks)


# ----------------------------------------------------------------------------- invariances
@settings(max_examples=40, deadline=None)
@given(
    R=arrays(np.int8, st.tuples(st.integers(2, 5), st.integers(1, 4), st.integers(2, 6)), elements=st.integers(0, 1)),
    data=st.data(),
)
def test_model_and_question_order_invariance(R, data):
    L, M, N = R.shape
    perm_l = data.draw(st.permutations(range(L)))
    perm_m = data.draw(st.permutations(range(M)))
    k = data.draw(st.integers(1, N))
    metric = data.draw(st.sampled_from(["bayes", "pass@k", "pass^k", "mg-pass@k"]))
    base = rank_trajectory(R, metric, k=k)
    moved = rank_trajectory(R[perm_l][:, perm_m], metric, k=k)
    np.testing.assert_array_equal(moved.ranks, base.ranks[perm_l])
    assert moved.convergence == base.convergence
    np.testing.assert_allclose(moved.kendall_tau, base.kendall_tau, equal_nan=True)


@settings(max_examples=40, deadline=None)
@given(R=arrays(np.int8, st.tuples(st.integers(2, 5), st.integers(1, 4), st.integers(1, 6)), elements=st.integers(0, 1)))
def test_property_matches_slow_loop_and_tau_at_gold(R):
    t = rank_trajectory(R)
    expected = slow_ranks(R)
    np.testing.assert_array_equal(t.ranks, expected)
    assert t.convergence == slow_convergence(expected, t.gold_ranks)
    # the ranking after all N trials is the gold standard: tau_b = 1 unless all models tie
    if len(set(t.gold_ranks.tolist())) > 1:
        assert t.kendall_tau[-1] == pytest.approx(1.0)


# ----------------------------------------------------------------------------- count data
def test_outcomes_from_counts_round_trip():
    counts = np.array([[[1, 2, 0], [0, 0, 3]], [[3, 0, 0], [1, 1, 1]]])
    R = outcomes_from_counts(counts)
    assert R.shape == (2, 2, 3)
    back = np.stack([[np.bincount(R[l, m], minlength=3) for m in range(2)] for l in range(2)])
    np.testing.assert_array_equal(back, counts)


def test_outcomes_from_counts_rejects_ragged():
    with pytest.raises(ValueError, match="same number of trials"):
        outcomes_from_counts([[[1, 2]], [[1, 1]]])


# ----------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        ({"R": [[[-1, 1]]]}, ValueError, "between trials"),  # ragged data pads after the last trial only
        ({"R": [[[1, -2]]]}, ValueError, "complete block"),
        ({"R": [[1, 0]]}, ValueError, r"shape \(L models"),
        ({"R": [[[0.5, 1]]]}, TypeError, "integer category codes"),
        ({"R": [[[2, 1]]]}, ValueError, "category codes"),
        ({"R": [[[2, 1]]], "metric": "pass@k"}, ValueError, "binary correctness"),
        ({"metric": "pass@9"}, ValueError, "metric must be one of"),
        ({"metric": 3}, TypeError, "metric must be a string"),
        ({"metric": "pass@k", "k": 5}, ValueError, r"1 <= k <= N \(N=2\); got k=5"),
        ({"metric": "pass@k", "k": 1.0}, TypeError, "k must be an integer"),
        ({"metric": "g-pass@k_tau", "k": 1}, ValueError, "tau is required"),
        ({"metric": "g-pass@k_tau", "k": 1, "tau": 1.5}, ValueError, "0 <= tau <= 1"),
        ({"metric": "pass@k", "w": [0, 2]}, ValueError, "w applies to 'bayes' and 'avg' only"),
        ({"metric": "avg", "prior_counts": [[1, 1]]}, ValueError, "'bayes' only"),
        ({"prior_counts": [[1, 1, 1]]}, ValueError, "prior_counts must have shape"),
        ({"gold": "truth"}, ValueError, "gold must be one of"),
        ({"gold": [1, 2, 3]}, ValueError, "one rank per model"),
        ({"indices": [0, 1, 2]}, ValueError, "indices must have shape"),
        ({"indices": [0, 2]}, ValueError, r"indices must lie in \[0, 1\]"),
        ({"indices": [0.0, 1.0]}, TypeError, "integer trial indices"),
    ],
)
def test_validation_errors(kwargs, exc, match):
    args = {"R": [[[1, 0]], [[0, 1]]]}
    args.update(kwargs)
    R = args.pop("R")
    with pytest.raises(exc, match=match):
        rank_trajectory(R, **args)
