"""Bootstrap convergence@n (paper sections 2.7, 3.3, Appendix I.1, Appendix J)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core import eval as ev
from scorio_core.dynamics.convergence import (
    NO_CONVERGENCE,
    Cancelled,
    bootstrap_convergence,
    bootstrap_indices,
)
from scorio_core.ranking.rank import kendall_tau_b
from scorio_core.dynamics.trajectory import outcomes_from_counts, rank_trajectory

# sibling helper module; works with any pytest import mode
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_trajectory_reference import resample, slow_convergence, slow_ranks  # noqa: E402



def _random_binary(seed, L=4, M=5, N=8):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.1, 0.9, size=(L, M, 1))
    return (rng.random((L, M, N)) < p).astype(np.int8)


def _slow_bootstrap(R, metric, k, tau, method, replicates, seed, gold_mode="data", w=None):
    """Loop over replicates with the same indices: eval's public functions + scipy tau_b."""
    idx_all = bootstrap_indices(np.shape(R), method, replicates, seed)
    data_gold = ev.competition_ranks_from_scores([ev.avg(r, w)[0] for r in np.asarray(R)])
    conv, taus = [], []
    for b in range(replicates):
        ranks = slow_ranks(resample(R, idx_all[b]), metric, w=w, k=k, tau=tau)
        gold = data_gold if gold_mode == "data" else ranks[:, -1]
        s = slow_convergence(ranks, gold)
        conv.append(NO_CONVERGENCE if s is None else s)
        row = []
        for j in range(ranks.shape[1]):
            if np.isnan(ranks[:, j]).any():
                row.append(np.nan)
            else:
                row.append(kendall_tau_b(ranks[:, j], gold))
        taus.append(row)
    return np.array(conv), np.array(taus)


# ----------------------------------------------------------------------------- vs slow loop
@pytest.mark.parametrize("method", ["column", "row"])
@pytest.mark.parametrize(
    "metric,k,tau",
    [("bayes", 1, None), ("pass@k", 2, None), ("pass^k", 2, None), ("g-pass@k_tau", 3, 0.5), ("mg-pass@k", 3, None)],
)
def test_vectorized_bootstrap_equals_slow_loop(metric, k, tau, method):
    R = _random_binary(7)
    res = bootstrap_convergence(R, metric, k=k, tau=tau, method=method, replicates=12, seed=11, chunk_size=16)
    conv, taus = _slow_bootstrap(R, metric, k, tau, method, 12, 11)
    np.testing.assert_array_equal(res.convergence, conv)
    with np.errstate(invalid="ignore"):
        expected_mean = np.array([np.nanmean(c) if np.isfinite(c).any() else np.nan for c in taus.T])
    np.testing.assert_allclose(res.kendall_tau_mean, expected_mean, atol=1e-12, equal_nan=True)
    # worst case replicate: no convergence first, else latest, first index among equals
    key = np.where(conv < 0, R.shape[2], conv)
    assert res.worst_replicate == int(np.argmax(key))
    worst_idx = bootstrap_indices(R.shape, method, 1, 11, start=res.worst_replicate)[0]
    np.testing.assert_array_equal(res.worst_ranks, slow_ranks(resample(R, worst_idx), metric, k=k, tau=tau))


def test_categorical_bootstrap_equals_slow_loop():
    rng = np.random.default_rng(4)
    R = rng.integers(0, 3, size=(3, 4, 6))
    w = np.array([0.0, 0.25, 1.0])
    res = bootstrap_convergence(R, "bayes", w=w, method="row", replicates=8, seed=2)
    conv, _ = _slow_bootstrap(R, "bayes", 1, None, "row", 8, 2, w=w)
    np.testing.assert_array_equal(res.convergence, conv)


def test_replicate_gold_equals_slow_loop():
    R = _random_binary(8)
    res = bootstrap_convergence(R, "pass@k", k=2, replicates=10, seed=3, gold="replicate")
    conv, taus = _slow_bootstrap(R, "pass@k", 2, None, "column", 10, 3, gold_mode="replicate")
    np.testing.assert_array_equal(res.convergence, conv)
    np.testing.assert_allclose(res.kendall_tau_mean[1:], np.nanmean(taus[:, 1:], axis=0), atol=1e-12)
    assert res.gold == "replicate" and res.gold_ranks is None


# ----------------------------------------------------------------------------- hand cases
def test_identical_trials_converge_at_one():
    # every trial identical: every replicate ranks like the data from n = 1
    R = np.broadcast_to(np.array([1, 1, 0])[:, None, None], (3, 2, 5))
    res = bootstrap_convergence(R, replicates=32)
    assert (res.convergence == 1).all()
    assert res.pmf[0] == 1.0 and res.no_convergence == 0.0 and res.mean == 1.0
    np.testing.assert_allclose(res.kendall_tau_mean, 1.0)


def test_exact_tie_never_converges_against_a_strict_gold():
    # both models identical data but the gold standard says model 0 is better
    R = np.array([[[1, 0, 1, 0]], [[1, 0, 1, 0]]])
    res = bootstrap_convergence(R, replicates=16, gold=[1, 2])
    assert (res.convergence == NO_CONVERGENCE).all()
    assert res.no_convergence == 1.0 and np.isnan(res.mean) and res.mean_censored == 4.0
    assert res.worst_convergence == NO_CONVERGENCE and res.worst_replicate == 0
    np.testing.assert_array_equal(res.cdf, np.zeros(3))


def test_pass_at_k_converges_only_to_the_avg_gold_standard():
    # hand: avg order A > B (0.5 vs 0.375) but pass@2 order B > A (0.5 vs (1/2 + 5/6) / 2)
    A = np.array([[1, 1, 1, 1], [0, 0, 0, 0]])
    B = np.array([[1, 0, 0, 0], [1, 1, 0, 0]])
    R = np.stack([A, B])
    own = rank_trajectory(R, "pass@k", k=2)
    assert own.gold_ranks.tolist() == [1, 2] and own.ranks[:, -1].tolist() == [2, 1]
    assert own.convergence is None  # the data's own Pass@2 order never matches avg@N
    res = bootstrap_convergence(R, "pass@k", k=2, gold="data", replicates=32, seed=0)
    idx = bootstrap_indices(R.shape, "column", 32, 0)
    for b in range(32):
        final = rank_trajectory(R, "pass@k", k=2, indices=idx[b]).ranks[:, -1]
        if final.tolist() != [1, 2]:
            assert res.convergence[b] == NO_CONVERGENCE


# ----------------------------------------------------------------------------- bookkeeping
def test_pmf_cdf_mean_consistency_and_shapes():
    R = _random_binary(9, L=5, M=6, N=10)
    res = bootstrap_convergence(R, replicates=200, seed=5)
    assert res.pmf.shape == res.cdf.shape == (9,)
    assert res.n.tolist() == list(range(1, 11))
    assert res.pmf.sum() + res.no_convergence == pytest.approx(1.0)
    np.testing.assert_allclose(res.cdf, np.cumsum(res.pmf))
    conv = res.convergence[res.convergence > 0]
    assert res.mean == pytest.approx(conv.mean())
    assert res.mean_censored == pytest.approx(np.where(res.convergence > 0, res.convergence, 10).mean())
    assert res.kendall_tau_mean.shape == (10,) and res.kendall_tau_undefined.shape == (10,)
    assert res.worst_ranks.shape == (5, 10)
    assert any("independent" in a for a in res.assumptions)


def test_seed_reproducible_and_chunk_size_invariant():
    R = _random_binary(10, L=6, M=5, N=9)
    a = bootstrap_convergence(R, "pass@k", k=2, replicates=100, seed=42, chunk_size=16)
    b = bootstrap_convergence(R, "pass@k", k=2, replicates=100, seed=42, chunk_size=64)
    c = bootstrap_convergence(R, "pass@k", k=2, replicates=100, seed=43)
    np.testing.assert_array_equal(a.convergence, b.convergence)
    np.testing.assert_allclose(a.kendall_tau_mean, b.kendall_tau_mean, rtol=0, atol=1e-12)
    assert a.worst_replicate == b.worst_replicate
    assert not np.array_equal(a.kendall_tau_mean, c.kendall_tau_mean)
    fresh = bootstrap_convergence(R, replicates=20, seed=None)
    again = bootstrap_convergence(R, replicates=20, seed=fresh.seed)
    np.testing.assert_array_equal(fresh.convergence, again.convergence)


def test_column_bootstrap_is_model_order_invariant():
    R = _random_binary(11, L=5)
    perm = [3, 0, 4, 1, 2]
    a = bootstrap_convergence(R, replicates=64, seed=1)
    b = bootstrap_convergence(R[perm], replicates=64, seed=1)
    np.testing.assert_array_equal(a.convergence, b.convergence)
    np.testing.assert_allclose(a.kendall_tau_mean, b.kendall_tau_mean)
    np.testing.assert_array_equal(b.worst_ranks, a.worst_ranks[perm])


def test_progress_and_cancel():
    R = _random_binary(12)
    seen = []
    bootstrap_convergence(R, replicates=64, chunk_size=16, progress=seen.append)
    assert seen == [0.25, 0.5, 0.75, 1.0]
    with pytest.raises(Cancelled, match="after 16 of 64"):
        bootstrap_convergence(R, replicates=64, chunk_size=16, progress=lambda f: False)

    class Stop(Exception):
        pass

    def stop(fraction):
        raise Stop

    with pytest.raises(Stop):
        bootstrap_convergence(R, replicates=64, chunk_size=16, progress=stop)


@pytest.mark.parametrize("prior", ["uniform", "empirical-bayes"])
@pytest.mark.parametrize("gold", ["data", "replicate"])
def test_workers_give_the_same_result_bit_for_bit(prior, gold):
    # chunks computed by 1, 2 or 3 threads, combined in replicate order: every array identical
    R = _random_binary(21, L=5, M=6, N=8)
    one = bootstrap_convergence(R, replicates=80, chunk_size=16, seed=4, prior=prior, gold=gold)
    for workers in (2, 3):
        other = bootstrap_convergence(R, replicates=80, chunk_size=16, seed=4, prior=prior, gold=gold, workers=workers)
        for field in ("convergence", "pmf", "cdf", "kendall_tau_mean", "kendall_tau_undefined", "worst_ranks"):
            np.testing.assert_array_equal(getattr(other, field), getattr(one, field), err_msg=field)
        assert (other.worst_replicate, other.worst_convergence) == (one.worst_replicate, one.worst_convergence)


def test_workers_report_progress_in_order_and_cancel():
    R = _random_binary(12)
    seen = []
    bootstrap_convergence(R, replicates=64, chunk_size=16, progress=seen.append, workers=2)
    assert seen == [0.25, 0.5, 0.75, 1.0]
    with pytest.raises(Cancelled, match="after 16 of 64"):
        bootstrap_convergence(R, replicates=64, chunk_size=16, progress=lambda f: False, workers=2)
    with pytest.raises(ValueError, match="workers must be >= 1"):
        bootstrap_convergence(R, replicates=64, workers=0)


def test_bootstrap_indices_layout_and_range():
    col = bootstrap_indices((3, 4, 5), "column", replicates=20, seed=0)
    row = bootstrap_indices((3, 4, 5), "row", replicates=20, seed=0)
    assert col.shape == (20, 5) and row.shape == (20, 3, 4, 5)
    assert col.min() >= 0 and col.max() <= 4 and row.min() >= 0 and row.max() <= 4
    np.testing.assert_array_equal(bootstrap_indices((3, 4, 5), "row", 3, 0, start=17), row[17:])


def test_count_data_row_bootstrap():
    counts = np.array([[[2, 6], [1, 7]], [[6, 2], [5, 3]], [[4, 4], [4, 4]]])
    R = outcomes_from_counts(counts)
    res = bootstrap_convergence(R, method="row", replicates=64, seed=0)
    assert res.method == "row"
    assert any("exchangeable" in a for a in res.assumptions)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), L=st.integers(2, 4), N=st.integers(2, 6), method=st.sampled_from(["column", "row"]))
def test_property_bootstrap_matches_slow_loop(seed, L, N, method):
    R = _random_binary(seed, L=L, M=3, N=N)
    res = bootstrap_convergence(R, method=method, replicates=4, seed=seed)
    conv, _ = _slow_bootstrap(R, "bayes", 1, None, method, 4, seed)
    np.testing.assert_array_equal(res.convergence, conv)
    assert ((res.convergence == -1) | ((res.convergence >= 1) & (res.convergence <= N - 1))).all()


# ----------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        ({"method": "columns"}, ValueError, "method must be one of column, row"),
        ({"method": None}, TypeError, "method must be a string"),
        ({"replicates": 0}, ValueError, "replicates must be >= 1"),
        ({"replicates": 2.5}, TypeError, "replicates must be an integer"),
        ({"seed": -1}, TypeError, "seed must be a non-negative integer"),
        ({"progress": 3}, TypeError, "progress must be callable"),
        ({"chunk_size": 0}, ValueError, "chunk_size must be >= 1"),
    ],
)
def test_validation_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        bootstrap_convergence([[[1, 0]], [[0, 1]]], **kwargs)


def test_needs_two_models_and_two_trials():
    with pytest.raises(ValueError, match="at least 2 models"):
        bootstrap_convergence([[[1, 0]]])
    with pytest.raises(ValueError, match="at least 2 trials"):
        bootstrap_convergence([[[1]], [[0]]])
