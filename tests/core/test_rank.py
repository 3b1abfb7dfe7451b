"""Ranking with uncertainty (paper sections 2.5, 2.7.1, Table 1, Appendix I.1)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorio_core import eval as ev
from scorio_core.eval.batch import bayes_batch
from scorio_core.ranking.rank import (
    DEFAULT_TIE_RULE,
    competition_ranks,
    kendall_tau_b,
    pairwise_confidence,
    posterior_rank_distribution,
    ranks_with_ties,
)
from scorio_core.ranking.rank_batch import batch_competition_ranks, batch_ranks_tau, batch_tau_b

mu_sigma = st.integers(1, 8).flatmap(
    lambda L: st.tuples(
        arrays(np.float64, L, elements=st.floats(0, 1, allow_nan=False)),
        arrays(np.float64, L, elements=st.floats(0, 0.2, allow_nan=False)),
    )
)


# ----------------------------------------------------------------------------- competition ranks
def test_competition_ranks_is_evals():
    assert competition_ranks is ev.competition_ranks_from_scores
    assert competition_ranks([0.95, 0.87, 0.87, 0.72]).tolist() == [1, 2, 2, 4]  # reference docs "1224"


@settings(max_examples=80, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 7)), elements=st.sampled_from([0.0, 0.25, 0.5, 0.5 + 1e-13, 1.0])))
def test_batch_competition_ranks_equal_eval_rowwise(scores):
    batch = batch_competition_ranks(scores)
    for row, ranks in zip(scores, batch):
        np.testing.assert_array_equal(ranks, ev.competition_ranks_from_scores(row))
    fast, _ = batch_ranks_tau(scores.T.copy(), None)
    np.testing.assert_array_equal(fast.T, batch)


@settings(max_examples=80, deadline=None)
@given(
    arrays(np.int64, st.tuples(st.integers(1, 6), st.integers(2, 7)), elements=st.integers(0, 4)),
    st.data(),
)
def test_batch_tau_b_equals_scipy(scores, data):
    L = scores.shape[1]
    gold = np.array(data.draw(st.lists(st.integers(1, L), min_size=L, max_size=L)))
    ranks = batch_competition_ranks(-scores.astype(float))
    expected = [scipy.stats.kendalltau(r, gold, variant="b").statistic for r in ranks]
    np.testing.assert_allclose(batch_tau_b(ranks, gold), expected, atol=1e-12, equal_nan=True)
    _, fast = batch_ranks_tau(-scores.T.astype(float), gold)
    np.testing.assert_allclose(fast, expected, atol=1e-12, equal_nan=True)
    per_row_gold = np.broadcast_to(gold, ranks.shape)
    np.testing.assert_allclose(batch_tau_b(ranks, per_row_gold), expected, atol=1e-12, equal_nan=True)


# ----------------------------------------------------------------------------- ranks_with_ties
# Means of the paper's LLM_11..LLM_1 (Table 1 column order) and sigmas chosen by hand so that
# the consecutive z-scores fall below/above 1.645 exactly where Table 1 "Bayes@80 (w/ CI)" ties:
# 1 2 2 3 3 4 5 5 5 6 7.
TABLE1_MU = np.array([0.7327, 0.6213, 0.608, 0.5418, 0.5276, 0.4466, 0.3642, 0.3642, 0.3604, 0.2545, 0.2332])
TABLE1_SIGMA = np.full(11, 0.0082)  # z(0.6213, 0.608) = 1.147; z(0.2545, 0.2332) = 1.837


def test_paper_rule_reproduces_table1_pattern():
    ranks = ranks_with_ties(TABLE1_MU, TABLE1_SIGMA, 0.95, rule="paper")
    assert ranks.tolist() == [1, 2, 2, 3, 3, 4, 5, 5, 5, 6, 7]  # paper Table 1, Bayes@80 (w/ CI)
    # without CI: competition ranks of mu (the tie at 0.3642 shares rank 7)
    assert ranks_with_ties(TABLE1_MU, TABLE1_SIGMA, rule="none").tolist() == [1, 2, 3, 4, 5, 6, 7, 7, 9, 10, 11]


def test_paper_rule_is_order_invariant_and_one_sided():
    perm = np.random.default_rng(0).permutation(11)
    ranks = ranks_with_ties(TABLE1_MU[perm], TABLE1_SIGMA[perm], rule="paper")
    np.testing.assert_array_equal(ranks, ranks_with_ties(TABLE1_MU, TABLE1_SIGMA, rule="paper")[perm])
    # hand: z = 0.017 / sqrt(2 * 0.0082^2) = 1.466 < 1.645 (95%) but > 1.282 (90%)
    assert ranks_with_ties([0.5, 0.483], [0.0082, 0.0082], 0.95, rule="paper").tolist() == [1, 1]
    assert ranks_with_ties([0.5, 0.483], [0.0082, 0.0082], 0.90, rule="paper").tolist() == [1, 2]


def test_paper_rule_chains_and_zero_sigma():
    # hand: consecutive z = 0.01 / 0.01414 = 0.71 < 1.645: A~B and B~C chain into one group
    assert ranks_with_ties([0.30, 0.29, 0.28, 0.10], [0.01] * 4, rule="paper").tolist() == [1, 1, 1, 2]
    assert ranks_with_ties([0.3, 0.2, 0.2], [0.0, 0.0, 0.0], rule="paper").tolist() == [1, 2, 2]


def test_default_rule_is_the_leaderboards():
    # the leaderboard's rank_ci uses DEFAULT_TIE_RULE ("pairwise"); recomputing it from mu/sigma
    # with the default must agree. Hand: P(0.62 > 0.61) = Phi(0.71) = 0.76 < 0.95 ties 2 and 3; the paper's
    # dense chain ranks 0.45 third, pairwise counts the three models above it with P ~ 1: fourth
    mu, sigma = [0.70, 0.62, 0.61, 0.45], [0.01] * 4
    assert DEFAULT_TIE_RULE == "pairwise"
    assert ranks_with_ties(mu, sigma).tolist() == [1, 2, 2, 4]
    assert ranks_with_ties(mu, sigma, rule="paper").tolist() == [1, 2, 2, 3]


def test_upper_bound_rule():
    mu = [0.70, 0.62, 0.61, 0.45]
    sigma = [0.01, 0.01, 0.01, 0.01]
    # hand: 95% intervals [.680,.720] [.600,.640] [.590,.630] [.430,.470]; count intervals wholly above
    assert ranks_with_ties(mu, sigma, rule="upper-bound").tolist() == [1, 2, 2, 4]
    assert ranks_with_ties(mu, [0.0] * 4, rule="upper-bound").tolist() == [1, 2, 3, 4]


@settings(max_examples=80, deadline=None)
@given(mu_sigma, st.sampled_from(["paper", "upper-bound", "none"]), st.floats(0.5, 0.999))
@example((np.array([0.125, 0.0, 0.0]), np.array([0.0, 0.0, 0.125])), "paper", 0.875)  # equal means, unequal sigma
def test_tie_rules_properties(ms, rule, confidence):
    mu, sigma = ms
    ranks = ranks_with_ties(mu, sigma, confidence, rule)
    none = ranks_with_ties(mu, sigma, confidence, "none")
    assert ranks.min() == 1 and ranks.max() <= none.max()
    if rule == "upper-bound":
        # definition: 1 + number of models whose interval lies wholly above (not monotone in
        # mu: a wide interval can out-rank a narrow one with a higher mean)
        z = scipy.stats.norm.ppf(0.5 + confidence / 2)
        above = (mu[None, :] - z * sigma[None, :] > mu[:, None] + z * sigma[:, None]) & (mu[None, :] > mu[:, None] + 1e-12)
        np.testing.assert_array_equal(ranks, 1 + above.sum(axis=1))
    else:
        # ties only merge: a better mean never gets a worse rank
        for i in range(mu.size):
            for j in range(mu.size):
                if mu[i] > mu[j] + 1e-12:
                    assert ranks[i] <= ranks[j]
    perm = np.arange(mu.size)[::-1]
    np.testing.assert_array_equal(ranks_with_ties(mu[perm], sigma[perm], confidence, rule), ranks[perm])


@pytest.mark.parametrize(
    "args,kwargs,exc,match",
    [
        (([0.1, 0.2], [0.1]), {}, ValueError, "one entry per model"),
        (([0.1, np.nan], [0.1, 0.1]), {}, ValueError, "finite"),
        (([0.1, 0.2], [0.1, -0.1]), {}, ValueError, "sigma must be >= 0"),
        ((["a", "b"], [0.1, 0.1]), {}, TypeError, "mu must hold real numbers"),
        (([0.1, 0.2], [0.1, 0.1]), {"confidence": 1.0}, ValueError, "0 < confidence < 1"),
        (([0.1, 0.2], [0.1, 0.1]), {"rule": "overlap"}, ValueError, "rule must be one of pairwise, paper, upper-bound, none"),
        (([0.1, 0.2], [0.1, 0.1]), {"rule": None}, TypeError, "rule must be a string"),
        (([0.1, 0.2], [0.1, 0.1]), {"tol": -1.0}, ValueError, "tol must be >= 0"),
    ],
)
def test_ranks_with_ties_errors(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        ranks_with_ties(*args, **kwargs)


# ----------------------------------------------------------------------------- pairwise rho
def test_pairwise_confidence_paper_values():
    # section 2.5: z = 1.645 -> rho = 0.95
    rho = pairwise_confidence([1.645, 0.0], [np.sqrt(0.5), np.sqrt(0.5)])
    assert rho[0, 1] == pytest.approx(0.95, abs=1e-4)
    assert rho[1, 0] == pytest.approx(0.05, abs=1e-4)
    assert pairwise_confidence([0.3, 0.2, 0.3], [0, 0, 0]).tolist() == [[0.5, 1.0, 0.5], [0.0, 0.5, 0.0], [0.5, 1.0, 0.5]]


@settings(max_examples=80, deadline=None)
@given(mu_sigma)
def test_pairwise_confidence_antisymmetry(ms):
    mu, sigma = ms
    rho = pairwise_confidence(mu, sigma)
    np.testing.assert_allclose(rho + rho.T, 1.0, atol=1e-12)
    np.testing.assert_array_equal(np.diag(rho), 0.5)
    assert ((rho >= 0) & (rho <= 1)).all()


# ----------------------------------------------------------------------------- posterior ranks
def test_posterior_rank_distribution_rows_and_columns_sum_to_one():
    rng = np.random.default_rng(1)
    counts = rng.integers(0, 10, size=(5, 8, 3))
    P = posterior_rank_distribution(counts, w=[0, 0.5, 1], draws=3000, seed=2)
    assert P.shape == (5, 5)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_allclose(P.sum(axis=0), 1.0)
    np.testing.assert_array_equal(P, posterior_rank_distribution(counts, w=[0, 0.5, 1], draws=3000, seed=2))


def test_posterior_rank_distribution_concentrates_with_huge_counts():
    p = np.array([[0.7, 0.5, 0.9], [0.6, 0.6, 0.6], [0.2, 0.3, 0.4]])
    big = 10**7
    counts = np.stack([np.round((1 - p) * big), np.round(p * big)], axis=2).astype(np.int64)
    P = posterior_rank_distribution(counts, draws=500, seed=0)
    np.testing.assert_array_equal(P, np.eye(3))  # model means 0.7, 0.6, 0.3 -> ranks 1, 2, 3


def test_posterior_rank_distribution_agrees_with_normal_rho_for_two_models():
    counts = np.array([[[12, 18]] * 20, [[15, 15]] * 20])
    P = posterior_rank_distribution(counts, draws=40_000, seed=3)
    mu, sigma = bayes_batch(counts, np.array([0.0, 1.0]))
    rho = pairwise_confidence(mu, sigma)[0, 1]
    assert P[0, 0] == pytest.approx(rho, abs=0.01)  # section 2.5 normal approximation, large M


def test_posterior_rank_distribution_missing_cells_are_excluded():
    # model 1 did not answer question 1: its mean uses question 0 only (like the leaderboard)
    counts = np.array([[[0, 50], [50, 0]], [[10, 40], [0, 0]]])
    P = posterior_rank_distribution(counts, draws=2000, seed=0)
    # hand: model 0 ~ (0.98 + 0.02) / 2 = 0.5; model 1 ~ 41/52 = 0.79 -> model 1 first
    assert P[1, 0] > 0.99


@pytest.mark.parametrize(
    "kwargs,exc,match",
    [
        ({"counts": [[1, 2]]}, ValueError, r"shape \(L, M, C\+1\)"),
        ({"counts": [[[1, -2]]]}, ValueError, "non-negative whole numbers"),
        ({"counts": [[["a", "b"]]]}, TypeError, "non-negative integer counts"),
        ({"counts": [[[1, 2, 3]]]}, ValueError, "w is required"),
        ({"counts": [[[1, 2]]], "w": [0, 1, 2]}, ValueError, "one weight per category"),
        ({"counts": [[[1, 2]], [[0, 0]]]}, ValueError, "model 1 has none"),
        ({"counts": [[[1, 2]]], "draws": 0}, ValueError, "draws must be >= 1"),
        ({"counts": [[[1, 2]]], "draws": 1.5}, TypeError, "draws must be an integer"),
        ({"counts": [[[1, 2]]], "prior_counts": [[1, 2, 3]]}, ValueError, "prior_counts must have shape"),
    ],
)
def test_posterior_rank_distribution_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        posterior_rank_distribution(**kwargs)


# ----------------------------------------------------------------------------- Kendall tau_b
@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.integers(2, 12), elements=st.floats(-5, 5, allow_nan=False)))
def test_tau_b_of_a_ranking_with_itself_is_one(x):
    if np.unique(x).size > 1:
        assert kendall_tau_b(x, x) == pytest.approx(1.0)
        assert kendall_tau_b(x, -x) == pytest.approx(-1.0)
    else:
        assert np.isnan(kendall_tau_b(x, x))


def test_tau_b_paper_example_and_errors():
    # hand: one discordant pair of 10 -> (9 - 1) / 10
    assert kendall_tau_b([1, 2, 3, 4, 5], [1, 3, 2, 4, 5]) == pytest.approx(0.8)
    with pytest.raises(ValueError, match="same models"):
        kendall_tau_b([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="at least 2"):
        kendall_tau_b([1], [1])


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(["int64", "int8", "uint8", "bool", "float64"]),
       shape=st.lists(st.integers(0, 4), max_size=2))
def test_average_equal_rows_averages_exactly_the_models_with_equal_rows(seed, dtype, shape):
    from scorio_core.rank.likelihood.fitting import average_equal_rows

    rng = np.random.default_rng(seed)
    L = int(rng.integers(1, 9))
    stats = rng.integers(0, 2, (L, *shape)).astype(dtype)
    if L > 2:
        stats[2] = stats[0]  # an exact duplicate
    scores = rng.normal(size=L)
    got = average_equal_rows(scores, stats)
    groups: dict = {}
    for i in range(L):  # oracle: group by the row's values as a tuple
        groups.setdefault(tuple(stats[i].ravel().tolist()), []).append(i)
    for members in groups.values():
        # the mean as documented: the members summed in row order (np.mean sums pairwise, which differs in the
        # last bits: 5e-14 relative on a mean near 0 of 8 draws, hypothesis seed 84178, shape [0])
        mean = float(np.cumsum(scores[members])[-1]) / len(members)
        np.testing.assert_allclose(got[members], mean, rtol=1e-14, atol=1e-16)
