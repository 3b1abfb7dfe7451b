"""Rank intervals for every method (issue 38): a percentile bootstrap over questions, the same resamples for all."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorio_core.rank as rank
from scorio_core.rank.bootstrap import bootstrap_ranks

FAST = ["avg", "inverse_difficulty", "borda", "copeland", "win_rate", "schulze", "minimax", "pagerank", "nash"]


def test_a_model_that_wins_every_question_has_interval_one_to_one():
    # a solves all 4 questions; b and c solve the same 2 of them: tied on every resample
    R = np.array([[1, 1, 1, 1], [1, 1, 0, 0], [1, 1, 0, 0]])[:, :, None]
    boot = bootstrap_ranks(R, ["avg", "borda"], models=["a", "b", "c"], n_boot=50, seed=3)
    assert boot.ranks.shape == (50, 2, 3) and boot.failed == {}
    assert boot.lo[:, 0].tolist() == [1, 1] and boot.hi[:, 0].tolist() == [1, 1]
    # b and c share a rank on every resample (competition ranks: ties share the best rank): 2, or 1 with a when
    # the resample drew only questions 0 and 1
    np.testing.assert_array_equal(boot.ranks[:, :, 1], boot.ranks[:, :, 2])
    idx = np.random.default_rng(3).integers(0, 4, size=(50, 4))
    only_easy = (idx < 2).all(axis=1)
    assert only_easy.any() and np.all(boot.ranks[:, :, 1] == np.where(only_easy, 1.0, 2.0)[:, None])
    rows = boot.rows(observed=[[1, 2, 2], [1, 2, 2]])
    assert rows[0] == {"model": "a", "method": "avg", "rank": 1, "rank_lo": 1, "rank_hi": 1, "rank_median": 1}
    assert [r["method"] for r in rows[:2]] == ["avg", "borda"] and len(rows) == 6


def test_the_interval_is_the_percentile_of_the_bootstrap_ranks_by_hand():
    # b beats a on question 0 only; a beats b on questions 1, 2: on each resample b wins iff it draws q0 twice+
    R = np.array([[0, 1, 1], [1, 0, 0]])[:, :, None]
    boot = bootstrap_ranks(R, ["avg"], n_boot=400, seed=0, confidence=0.9)
    idx = np.random.default_rng(0).integers(0, 3, size=(400, 3))
    a_sums = (idx != 0).sum(axis=1)
    expected_a = np.where(a_sums >= 2, 1.0, 2.0)  # a has 3 - (#q0) successes, b has #q0: ties at 1.5 impossible
    np.testing.assert_array_equal(boot.ranks[:, 0, 0], expected_a)
    assert boot.lo[0, 0] == np.quantile(expected_a, 0.05, method="inverted_cdf")
    assert boot.hi[0, 0] == np.quantile(expected_a, 0.95, method="inverted_cdf") == 2.0


def test_vectorised_avg_matches_the_method_on_each_resample():
    rng = np.random.default_rng(5)
    R = (rng.random((6, 12, 3)) < rng.random((6, 1, 1))).astype(int)
    boot = bootstrap_ranks(R, ["avg"], n_boot=30, seed=9)
    idx = np.random.default_rng(9).integers(0, 12, size=(30, 12))
    for b in range(30):
        np.testing.assert_array_equal(boot.ranks[b, 0], rank.avg(R[:, idx[b]]))


@st.composite
def tensors(draw):
    L, M, N = draw(st.integers(2, 6)), draw(st.integers(1, 8)), draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    p = rng.choice([0.0, 0.3, 0.7, 1.0], size=(L, 1, 1))
    return (rng.random((L, M, N)) < p).astype(int)


@settings(max_examples=15, deadline=None)
@given(tensors(), st.lists(st.sampled_from(FAST), min_size=1, max_size=4), st.integers(0, 1000))
def test_a_methods_ranks_do_not_depend_on_the_other_methods(R, others, seed):
    alone = bootstrap_ranks(R, ["borda"], n_boot=8, seed=seed)
    together = bootstrap_ranks(R, others + ["borda"], n_boot=8, seed=seed)
    k = together.methods.index("borda")
    np.testing.assert_array_equal(alone.ranks[:, 0], together.ranks[:, k])
    L = R.shape[0]
    ok = ~np.isnan(together.lo)
    assert np.all(together.lo[ok] <= together.median[ok]) and np.all(together.median[ok] <= together.hi[ok])
    assert np.all(together.lo[ok] >= 1) and np.all(together.hi[ok] <= L)
    assert np.all(together.lo[ok] == np.round(together.lo[ok]))  # attainable integer ranks


def test_extra_scores_see_the_same_resample_and_failures_are_counted():
    R = np.array([[1, 1, 0, 1], [0, 1, 0, 0], [1, 0, 1, 0]])[:, :, None]
    seen = []

    def extra_fn(q):
        seen.append(q.copy())
        if 0 not in q:  # this caller's method has no score without question 0
            return {"mine": None}
        return {"mine": R[:, q, 0].sum(axis=1).astype(float)}

    boot = bootstrap_ranks(R, ["mine", "avg"], extra_fn=extra_fn, n_boot=40, seed=2)
    idx = np.random.default_rng(2).integers(0, 4, size=(40, 4))
    np.testing.assert_array_equal(np.array(seen), idx)
    misses = int(sum(0 not in row for row in idx))
    assert misses > 0 and boot.failed == {"mine": misses}
    assert np.isnan(boot.ranks[:, 0]).sum() == 3 * misses
    ok = ~np.isnan(boot.ranks[:, 0, 0])
    np.testing.assert_array_equal(boot.ranks[ok, 0], boot.ranks[ok, 1])  # the same scores as avg (N = 1)


def test_a_method_that_raises_on_some_resamples(monkeypatch):
    calls = []

    def flaky(R, method="competition", return_scores=False):
        calls.append(1)
        if len(calls) % 3 == 0:
            raise RuntimeError("did not converge")
        return rank.avg(R, method=method, return_scores=return_scores)

    monkeypatch.setattr(rank, "borda", flaky)
    R = np.array([[1, 1, 0], [0, 1, 0]])[:, :, None]
    boot = bootstrap_ranks(R, ["borda", "avg"], n_boot=9, seed=0)
    assert boot.failed == {"borda": 3} and np.isnan(boot.ranks[:, 0, 0]).sum() == 3
    assert not np.isnan(boot.lo).any()


def test_a_method_that_never_ranks_has_no_interval():
    R = np.array([[[1]], [[0]]])  # separated: Bradley-Terry ML has no estimate on any resample
    boot = bootstrap_ranks(R, ["bradley_terry", "avg"], n_boot=5)
    assert boot.failed == {"bradley_terry": 5} and np.isnan(boot.lo[0]).all() and boot.lo[1].tolist() == [1, 2]
    assert boot.rows()[0] == {"model": "0", "method": "bradley_terry", "rank_lo": None, "rank_hi": None,
                              "rank_median": None}


def test_the_seed_reproduces_the_ranks():
    rng = np.random.default_rng(1)
    R = (rng.random((5, 9, 2)) < 0.5).astype(int)
    a = bootstrap_ranks(R, ["avg", "copeland"], n_boot=20, seed=7)
    b = bootstrap_ranks(R, ["avg", "copeland"], n_boot=20, seed=7)
    c = bootstrap_ranks(R, ["avg", "copeland"], n_boot=20, seed=8)
    np.testing.assert_array_equal(a.ranks, b.ranks)
    assert not np.array_equal(a.ranks, c.ranks) and (a.n_boot, a.seed, a.confidence) == (20, 7, 0.95)


@pytest.mark.parametrize("kwargs, match", [
    ({"n_boot": 0}, "n_boot"), ({"n_boot": 2.5}, "n_boot"), ({"confidence": 1.0}, "confidence"),
    ({"confidence": 0}, "confidence"), ({"methods": ["nope"]}, "methods: unknown ranking method 'nope'"),
    ({"methods": []}, "methods"), ({"models": ["a"]}, "models"),
    ({"methods": ["x"], "extra_fn": lambda q: {"y": np.zeros(2)}}, "unknown ranking method 'x'"),
    ({"methods": ["x"], "extra_fn": lambda q: {"x": np.zeros(3)}}, r"shape \(3,\)"),
    ({"methods": ["x"], "batch_fn": lambda idx: {"x": np.zeros((idx.shape[0], 3))}}, r"batch_fn scores of 'x'"),
    ({"methods": ["x"], "batch_fn": lambda idx: {"y": np.zeros((idx.shape[0], 2))}}, "unknown ranking method 'x'"),
])
def test_errors_name_the_argument(kwargs, match):
    args = {"methods": ["avg"], **kwargs}
    with pytest.raises(ValueError, match=match):
        bootstrap_ranks(np.array([[1, 0], [0, 1]]), args.pop("methods"), **args)


def test_batch_scores_equal_the_same_scores_one_resample_at_a_time():
    """``batch_fn`` sees the whole index matrix once; its ranks equal ``extra_fn``'s on each resample, and an all-NaN
    row is a failure on that resample."""
    rng = np.random.default_rng(5)
    R = (rng.random((5, 9, 3)) < rng.random((5, 1, 1))).astype(int)

    def one(q):
        return R[:, q].sum(axis=(1, 2)) + 0.1 * np.arange(5)

    calls = []

    def batch(idx):
        calls.append(idx.copy())
        scores = np.stack([one(q) for q in idx])
        scores[3] = np.nan  # no score on resample 3
        return {"mine": scores}

    got = bootstrap_ranks(R, ["mine", "avg"], batch_fn=batch, n_boot=25, seed=7)
    want = bootstrap_ranks(R, ["mine", "avg"], extra_fn=lambda q: {"mine": one(q)}, n_boot=25, seed=7)
    assert len(calls) == 1 and calls[0].shape == (25, 9)
    np.testing.assert_array_equal(calls[0], np.random.default_rng(7).integers(0, 9, size=(25, 9)))
    keep = np.arange(25) != 3
    np.testing.assert_array_equal(got.ranks[keep], want.ranks[keep])
    assert np.isnan(got.ranks[3, 0]).all() and got.failed == {"mine": 1}


def test_quick_to_resample_by_method_and_size():
    from scorio_core.rank.bootstrap import RESAMPLE_WHEN_SMALL, SLOW_TO_RESAMPLE, quick_to_resample

    assert set(RESAMPLE_WHEN_SMALL) <= SLOW_TO_RESAMPLE
    assert quick_to_resample("borda", 500, 10_000) and quick_to_resample("bayes", 300, 50)  # fast methods: always
    # paired-comparison fits: by the number of models only (they work on the L x L win counts)
    assert quick_to_resample("bradley_terry_davidson", 30, 100_000)
    assert not quick_to_resample("bradley_terry_davidson_map", 101, 10)
    # Bradley-Terry, Davidson, Rao-Kupper and their MAP: one batched solve up to 100 models while the per-question
    # win counts fit in memory (beyond it, the 30-model rule of the one-at-a-time fits): M x L^2 <= 2.5e7, so at most
    # 2,500 questions at 100 models and 6,103 at 64
    assert quick_to_resample("bradley_terry_davidson", 64, 6_000) and not quick_to_resample("bradley_terry_davidson", 64, 7_000)
    assert quick_to_resample("bradley_terry", 30, 100_000) and quick_to_resample("bradley_terry_map", 100, 2_500)
    assert quick_to_resample("rao_kupper", 64, 6_000) and quick_to_resample("rao_kupper_map", 100, 2_500)
    assert not quick_to_resample("bradley_terry", 101, 10) and not quick_to_resample("rao_kupper_map", 100, 2_501)
    # with keyword options every resample gets its own fit (bootstrap_ranks skips the batched solve): 30 models
    assert not quick_to_resample("bradley_terry_map", 64, 100, with_options=True)
    assert quick_to_resample("bradley_terry_map", 30, 100, with_options=True)
    assert quick_to_resample("borda", 500, 10_000, with_options=True)
    # Rasch: by models and model x question cells (L + M parameters)
    assert quick_to_resample("rasch", 16, 15) and quick_to_resample("rasch_map", 25, 100)
    assert not quick_to_resample("rasch_map", 25, 101) and not quick_to_resample("rasch", 31, 10)
    # Plackett-Luce (MAP): pooled comparison counts, by models only; its MLE is not (no finite estimate on many resamples)
    assert quick_to_resample("plackett_luce_map", 20, 100_000) and not quick_to_resample("plackett_luce_map", 21, 100_000)
    # ... and it shares Bradley-Terry MAP's batched solve (the same posterior) up to 100 models where it fits in memory
    assert quick_to_resample("plackett_luce_map", 100, 2_500) and not quick_to_resample("plackett_luce_map", 101, 10)
    # samplers, Luce families, rating replays, 3PL: never in an interactive view
    for method in ("bayesian_mcmc", "plackett_luce", "elo", "rasch_3pl", "kemeny_young"):
        assert not quick_to_resample(method, 2, 1)
