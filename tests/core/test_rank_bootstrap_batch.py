"""Batched Bradley-Terry and Rao-Kupper ranks of question resamples (scorio_core.rank.likelihood.paired_batch) against the
one-at-a-time, reference-exact fits, resample by resample."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import rankdata

import scorio_core.rank as rank
from scorio_core.rank.bootstrap import bootstrap_ranks
from scorio_core.rank.likelihood.paired_batch import bradley_terry_resamples, method_resamples, rao_kupper_resamples

METHODS = [("bradley_terry", None), ("bradley_terry_map", 1.0), ("rao_kupper", None), ("rao_kupper_map", 1.0),
           ("bradley_terry_davidson", None), ("bradley_terry_davidson_map", 1.0), ("plackett_luce_map", 1.0)]


def _tensor(L, M, N, seed, sd=1.0):
    rng = np.random.default_rng(seed)
    ability, difficulty = rng.normal(0.0, sd, L), rng.normal(size=M)
    p = 1.0 / (1.0 + np.exp(-(ability[:, None] - difficulty[None, :])))
    return (rng.random((L, M, N)) < p[..., None]).astype(int)


def _one_at_a_time(name, Rb):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return getattr(rank, name)(Rb, return_scores=True)
        except ValueError:
            return None


def _agree(name, R, idx, prior_var, exact):
    scores, failed = method_resamples(name, R, idx)
    for b in range(len(idx)):
        ref = _one_at_a_time(name, R[:, idx[b]])
        assert failed[b] == (ref is None), f"resample {b}: failure differs"
        if ref is None:
            assert np.isnan(scores[b]).all()
            continue
        ours = rankdata(-scores[b], method="min")
        if exact:
            assert np.array_equal(ours, ref[0]), f"resample {b}: {ours.tolist()} vs {ref[0].tolist()}"
            continue
        # where they differ, the batched fit ties models the reference separates by less than its tolerance
        log_ref = np.log(ref[1])
        gap = scores[b][:, None] - scores[b][None, :]
        assert (log_ref[:, None] > log_ref[None, :])[gap > 1e-6].all(), f"resample {b}: a strict order reversed"
        assert (np.abs(log_ref[:, None] - log_ref[None, :]) < 1e-3)[gap == 0].all(), f"resample {b}"


@pytest.mark.parametrize("name, prior_var", METHODS)
@pytest.mark.parametrize("L, M, N, sd, seed", [(8, 15, 4, 1.0, 0), (16, 15, 4, 1.0, 1), (12, 60, 2, 0.3, 2),
                                               (20, 30, 8, 1.0, 3), (10, 40, 3, 0.05, 5)])
def test_same_ranks_as_the_reference_exact_fits(name, prior_var, L, M, N, sd, seed):
    R = _tensor(L, M, N, seed, sd)
    idx = np.random.default_rng(seed).integers(0, M, (40, M))
    # Davidson: every pair is compared on the same events, so models with equal totals have equal strengths at the
    # optimum (the net wins are its sufficient statistics): a tie here, an order ~1e-7 apart by L-BFGS-B
    _agree(name, R, idx, prior_var, exact="davidson" not in name)


@pytest.mark.parametrize("name, prior_var", METHODS)
@pytest.mark.parametrize("seed", [4, 11])
def test_tiny_resamples_differ_only_by_ties_within_the_reference_tolerance(name, prior_var, seed):
    # 6 models x 12 questions x 1 trial: symmetric records give equal strengths at the optimum, which the
    # reference's L-BFGS-B separates by ~1e-5 in either order; some resamples have no finite MLE
    R = _tensor(6, 12, 1, seed, 0.2)
    idx = np.random.default_rng(seed).integers(0, 12, (60, 12))
    _agree(name, R, idx, prior_var, exact=False)


def test_hand_cases():
    # two models, wins 2:1 (the reference's doctest: strengths sqrt(2), 1/sqrt(2)): log-strengths +-log(2)/2
    R = np.array([[1, 1, 1, 0], [0, 0, 1, 1]])[:, None, :]
    scores, failed = bradley_terry_resamples(R, [[0]])
    assert not failed[0] and np.allclose(scores[0], [np.log(2) / 2, -np.log(2) / 2], atol=1e-12)
    # MAP, prior variance 1: the stationary point of 2 log p + log(1 - p) - 2 t^2 / 2, p = 1 / (1 + e^(-2t))
    scores, _ = bradley_terry_resamples(R, [[0]], prior_var=1.0)
    t = scores[0, 0]
    p = 1.0 / (1.0 + np.exp(-2 * t))
    assert abs(2 * (1 - p) - p - t) < 1e-12 and 0 < t < np.log(2) / 2
    # no decisive outcome: one tie; a model that never wins: no finite MLE (failed), the MAP exists
    same = np.ones((3, 2, 2), dtype=int)
    assert bradley_terry_resamples(same, [[0, 1]])[0].tolist() == [[0.0, 0.0, 0.0]]
    never = np.array([[[1, 1]], [[1, 0]], [[0, 0]]])
    s, f = bradley_terry_resamples(never, [[0]])
    assert f.tolist() == [True] and np.isnan(s).all()
    s, f = bradley_terry_resamples(never, [[0]], prior_var=1.0)
    assert f.tolist() == [False] and s[0, 0] > s[0, 1] > s[0, 2]
    # identical models share one value to the bit
    twin = np.array([[[1, 0, 1]], [[1, 0, 1]], [[0, 0, 1]], [[1, 1, 1]]])
    s, _ = bradley_terry_resamples(twin, [[0]], prior_var=1.0)
    assert s[0, 0] == s[0, 1]
    with pytest.raises(ValueError, match="prior_var"):
        bradley_terry_resamples(twin, [[0]], prior_var=0.0)
    with pytest.raises(ValueError, match="tie_strength"):
        rao_kupper_resamples(twin, [[0]], tie_strength=1.0)
    with pytest.raises(ValueError, match="method must be one of"):
        method_resamples("elo", twin, [[0]])
    with pytest.raises(ValueError, match="L >= 2"):
        bradley_terry_resamples(twin[:1], [[0]])


def test_rao_kupper_hand_case():
    # two models, 6 trials of one question: A wins 3, B wins 1, 2 ties. With s = theta_A - theta_B the
    # log-likelihood is -(3 + 2) log(1 + k e^-s) - (1 + 2) log(1 + k e^s) + const, k = 1.1: its stationary point
    # solves 5 k e^-s / (1 + k e^-s) = 3 k e^s / (1 + k e^s); the centred scores are +-s/2
    R = np.array([[1, 1, 1, 0, 1, 0], [0, 0, 0, 1, 1, 0]])[:, None, :]
    scores, failed = rao_kupper_resamples(R, [[0]])
    s, k = scores[0, 0] - scores[0, 1], 1.1
    assert not failed[0] and scores[0, 0] == -scores[0, 1]
    assert abs(5 * k * np.exp(-s) / (1 + k * np.exp(-s)) - 3 * k * np.exp(s) / (1 + k * np.exp(s))) < 1e-10
    ref = rank.rao_kupper(R, return_scores=True)[1]  # the reference-exact fit: strengths exp(+-s/2), to its tolerance
    assert abs(np.log(ref[0] / ref[1]) - s) < 1e-4


def test_bootstrap_ranks_use_the_batch_and_count_its_failures():
    # bootstrap_ranks' Bradley-Terry ranks are the one-at-a-time fits' on every resample (seed 0 indices)
    R = _tensor(16, 15, 4, 7)
    exact = [m for m, _ in METHODS if "davidson" not in m]  # Davidson: ties of equal totals (see above)
    boot = bootstrap_ranks(R, exact + ["avg"], n_boot=50, seed=0)
    idx = np.random.default_rng(0).integers(0, 15, (50, 15))
    for k, name in enumerate(exact):
        for b in range(50):
            ref = _one_at_a_time(name, R[:, idx[b]])
            assert np.isnan(boot.ranks[b, k]).all() if ref is None else np.array_equal(boot.ranks[b, k], ref[0])
    # a model whose only win is on question 0: the resamples without it have no finite MLE (counted), the MAP does
    win = {0: "D", 1: "A", 2: "B", 3: "C", 4: "AB", 5: "BC", 6: "AC"}  # q07-q11: A, B, C solve, D fails
    R = np.array([[[int(m in win.get(q, "ABC"))] for q in range(12)] for m in "ABCD"])
    boot = bootstrap_ranks(R, ["bradley_terry", "bradley_terry_map", "rao_kupper"], n_boot=200, seed=0)
    idx = np.random.default_rng(0).integers(0, 12, (200, 12))
    without_q0 = int((~(idx == 0).any(axis=1)).sum())
    assert boot.failed == {"bradley_terry": without_q0}  # Rao-Kupper's ties connect its graph: it always exists
    assert np.isnan(boot.ranks[:, 0]).all(axis=1).sum() == without_q0


@settings(max_examples=30, deadline=None)
@given(data=st.data(), L=st.integers(2, 6), M=st.integers(1, 10), N=st.integers(1, 3))
def test_property_strict_orders_and_failures_agree_with_the_one_at_a_time_fits(data, L, M, N):
    R = np.array(data.draw(st.lists(st.integers(0, 1), min_size=L * M * N, max_size=L * M * N))).reshape(L, M, N)
    idx = np.array(data.draw(st.lists(st.lists(st.integers(0, M - 1), min_size=M, max_size=M), min_size=1,
                                      max_size=4)))
    for name, prior_var in METHODS:
        _agree(name, R, idx, prior_var, exact=False)
    # relabelling the models relabels the scores
    perm = np.array(data.draw(st.permutations(range(L))))
    a, fa = rao_kupper_resamples(R, idx, prior_var=1.0)
    b, fb = rao_kupper_resamples(R[perm], idx, prior_var=1.0)
    assert np.array_equal(fa, fb) and np.allclose(a[:, perm], b, atol=1e-8, equal_nan=True)


def test_blocks_of_resamples_give_the_same_result(monkeypatch):
    from scorio_core.rank.likelihood import paired_batch

    rng = np.random.default_rng(1)
    R, idx = (rng.random((30, 20, 3)) < 0.5).astype(int), rng.integers(0, 20, (50, 20))
    for prior_var in (None, 1.0):
        whole = bradley_terry_resamples(R, idx, prior_var=prior_var)
        monkeypatch.setattr(paired_batch, "_CHUNK_ENTRIES", 30 * 30 * 7)  # blocks of 7 resamples
        blocks = bradley_terry_resamples(R, idx, prior_var=prior_var)
        monkeypatch.undo()
        assert np.array_equal(whole[0], blocks[0], equal_nan=True) and np.array_equal(whole[1], blocks[1])


def test_davidson_hand_case():
    # two models, 6 trials of one question: A wins 3, B wins 1, 2 ties. Davidson's model is saturated for one
    # pair, so its MLE reproduces the frequencies: P(A) = 1/2, P(B) = 1/6, so pi_A / pi_B = 3 (theta gap log 3)
    R = np.array([[1, 1, 1, 0, 1, 0], [0, 0, 0, 1, 1, 0]])[:, None, :]
    scores, failed = method_resamples("bradley_terry_davidson", R, [[0]])
    assert not failed[0] and abs((scores[0, 0] - scores[0, 1]) - np.log(3.0)) < 1e-10
    ref = rank.bradley_terry_davidson(R, return_scores=True)[1]
    assert abs(np.log(ref[0] / ref[1]) - np.log(3.0)) < 1e-4
    # no ties at all: the tie parameter stays at the reference's clip (-10) and the strengths are fitted given it
    R = np.array([[1, 1, 0], [0, 0, 1]])[:, None, :]
    scores, failed = method_resamples("bradley_terry_davidson", R, [[0]])
    assert not failed[0] and scores[0, 0] > scores[0, 1]
