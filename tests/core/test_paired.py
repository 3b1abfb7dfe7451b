"""Paired difference of two models when questions are a sample (scorio_core.ranking.paired)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.ranking.compare import ASSUMPTION, difference_posterior
from scorio_core.ranking.paired import SAMPLED_ASSUMPTION, UNPAIRED_ASSUMPTION, scoped_difference
from scorio_core.uncertainty.batch import posterior_summary_batch


def test_questions_fixed_is_the_independent_difference():
    d, text = scoped_difference(0.6213, 0.0117, 0.608, 0.0117, [0.5, -0.25], scope="questions-fixed")
    assert d == difference_posterior(0.6213, 0.0117, 0.608, 0.0117) and text == ASSUMPTION
    assert (round(d.sd, 5), round(d.rho, 4)) == (0.01655, 0.7892)  # paper App. D pair (as test_compare)


def test_sampled_pairs_over_the_common_questions_by_hand():
    # d = [0.2, 0, 0.1, 0.1] (a NaN: a question one model skipped): mean 0.1, sample sd sqrt(0.02 / 3) = 0.0816497,
    # SE = 0.0816497 / sqrt(4) = 0.0408248 > sqrt(0.01^2 + 0.01^2) = 0.0141421
    d, text = scoped_difference(0.5, 0.01, 0.4, 0.01, [0.2, np.nan, 0.0, 0.1, 0.1], scope="questions-sampled")
    assert d.sd == pytest.approx(math.sqrt(0.02 / 3) / 2, rel=1e-12)
    assert d.mean == pytest.approx(0.1) and d.z == pytest.approx(0.1 / d.sd)
    assert d.rho == pytest.approx(0.5 * (1 + math.erf(d.z / math.sqrt(2))), rel=1e-12)
    assert (d.lo, d.hi) == pytest.approx((0.1 - 1.959963984540054 * d.sd, 0.1 + 1.959963984540054 * d.sd))
    assert text == SAMPLED_ASSUMPTION.format(m=4) and "4 questions" in text


def test_sampled_is_never_narrower_than_questions_fixed():
    # identical per-question differences: sd(d) = 0, so the trial noise (questions fixed) is what is left
    d, _ = scoped_difference(0.5, 0.03, 0.4, 0.04, [0.1] * 10, scope="questions-sampled")
    assert d.sd == pytest.approx(0.05, rel=1e-12)


@pytest.mark.parametrize("diffs", [[], [0.3], [0.3, np.nan, np.nan]])
def test_fewer_than_two_common_questions_say_so(diffs):
    d, text = scoped_difference(0.5, 0.03, 0.4, 0.04, diffs, scope="questions-sampled")
    assert d.sd == pytest.approx(0.05) and text == UNPAIRED_ASSUMPTION and "cannot be estimated" in text


def test_interval_is_clipped_to_the_differences_the_rubric_allows():
    # two models on one question, N = 1 (Clopper-Pearson rows: mu 0.75 / 0.25, sigma sqrt(3/16) each):
    # +0.5 -/+ 1.96 * 0.6124 = [-0.700, +1.700], but scores in [0, 1] differ by at most 1
    sigma = math.sqrt(3 / 16)
    d, _ = scoped_difference(0.75, sigma, 0.25, sigma, [1.0], weights=[0, 1])
    free = difference_posterior(0.75, sigma, 0.25, sigma)
    assert free.hi == pytest.approx(0.5 + 1.959963984540054 * math.sqrt(3 / 8)) and free.hi > 1.0
    assert (d.lo, d.hi) == (free.lo, 1.0) and (d.mean, d.sd, d.rho) == (free.mean, free.sd, free.rho)
    # weights 0..5 (Format+Confidence) allow differences up to 5: nothing to clip
    wide, _ = scoped_difference(0.75, sigma, 0.25, sigma, [1.0], weights=[0, 1, 0, 2, 3, 4, 5])
    assert wide == free
    # a negative weight widens the span: w in [-1, 1] allows differences in [-2, 2]
    neg, _ = scoped_difference(-0.9, 0.6, 0.9, 0.6, [-1.8], weights=[-1, 0, 1])
    assert neg.lo == -2.0 and neg.hi == pytest.approx(-1.8 + 1.959963984540054 * 0.6 * math.sqrt(2))  # -0.137


def test_bad_input():
    with pytest.raises(ValueError, match="scope"):
        scoped_difference(0.5, 0.1, 0.4, 0.1, [0.1, 0.2], scope="pool")
    with pytest.raises(ValueError, match="1-D"):
        scoped_difference(0.5, 0.1, 0.4, 0.1, [[0.1, 0.2]], scope="questions-sampled")
    with pytest.raises(ValueError, match="infinity"):
        scoped_difference(0.5, 0.1, 0.4, 0.1, [0.1, np.inf], scope="questions-sampled")
    with pytest.raises(ValueError, match="sd must be >= 0"):
        difference_posterior(0.5, 0.1, 0.4, 0.1, sd=-1.0)


@settings(max_examples=50, deadline=None)
@given(diffs=st.lists(st.floats(-1, 1), min_size=2, max_size=30), sa=st.floats(0, 0.2), sb=st.floats(0, 0.2))
def test_property_sd_is_the_larger_of_the_two_forms(diffs, sa, sb):
    d, _ = scoped_difference(0.5, sa, 0.4, sb, diffs, scope="questions-sampled")
    paired = float(np.std(diffs, ddof=1)) / math.sqrt(len(diffs))
    assert d.sd == pytest.approx(max(math.hypot(sa, sb), paired), rel=1e-12, abs=1e-300)
    assert d.lo <= d.mean <= d.hi


def _simulate(rng, p_a, p_b, reps: int, m: int, n: int = 8):
    """``reps`` draws of ``m`` questions from the pool, ``n`` trials each: the paired posteriors of A - B (questions
    sampled, empirical-Bayes prior), the per-question differences and the questions-sampled sigmas of A and B."""
    idx = rng.integers(0, p_a.size, size=(reps, m))
    k_a, k_b = rng.binomial(n, p_a[idx]), rng.binomial(n, p_b[idx])
    counts = np.stack([np.stack([n - k, k], axis=-1) for k in (k_a, k_b)], axis=1).reshape(2 * reps, m, 2)
    w = np.array([0.0, 1.0])
    fixed = posterior_summary_batch(counts, w, prior="empirical-bayes", scope="questions-fixed")
    sampled = posterior_summary_batch(counts, w, prior="empirical-bayes", scope="questions-sampled")
    mu, sf, ss = (np.asarray(x).reshape(reps, 2) for x in (fixed.mu, fixed.sigma, sampled.sigma))
    diffs = (k_a - k_b) / n
    paired = [scoped_difference(mu[r, 0], sf[r, 0], mu[r, 1], sf[r, 1], diffs[r], scope="questions-sampled")[0]
              for r in range(reps)]
    return paired, diffs, mu, ss


def test_coverage_of_the_paired_interval_by_simulation():
    """Questions drawn from a pool where a hard question is hard for both models: the paired 95% interval covers the
    pool's mean difference at about 95%; combining each model's own sampled interval (unpaired) over-covers and is
    about twice as wide. 400 replications (binomial sd of a coverage of 0.95: 0.011). Measured with seeds 20261128, 1,
    2: paired 0.948 / 0.960 / 0.963 (mean width 0.059), unpaired 1.000 (width 0.126)."""
    rng = np.random.default_rng(20261128)
    pool = 100_000
    p_a = rng.beta(1.0, 1.0, pool)  # difficulty varies a lot across questions
    p_b = np.clip(p_a - 0.04 + rng.normal(0.0, 0.05, pool), 0.0, 1.0)  # B close to A on every question
    target = float(np.mean(p_a - p_b))  # the pool's mean difference (estimand of the sampled scope)
    reps = 400
    paired, _, mu, ss = _simulate(rng, p_a, p_b, reps, 200)
    covered = np.mean([d.lo <= target <= d.hi for d in paired])
    unpaired = [difference_posterior(mu[r, 0], ss[r, 0], mu[r, 1], ss[r, 1]) for r in range(reps)]
    covered_unpaired = np.mean([d.lo <= target <= d.hi for d in unpaired])
    width = np.mean([d.hi - d.lo for d in paired])
    width_unpaired = np.mean([d.hi - d.lo for d in unpaired])
    assert 0.92 <= covered <= 0.98, covered
    assert covered_unpaired > 0.99 and width_unpaired > 2 * width, (covered_unpaired, width, width_unpaired)


def test_cli_compare_pairs_under_the_sampled_scope(capsys):
    import json
    from pathlib import Path

    from scorio_core import io
    from scorio_core.leaderboard.table import leaderboard, outcomes_for
    from scorio_core.cli import main
    from scorio_core.ranking.compare import disagreement_table

    path = Path(__file__).resolve().parents[2] / "data" / "matharena_aime_2025_I_counts.csv"
    pair = ["o3-mini (high)", "o1 (medium)"]
    reports = {}
    for scope in ("questions-fixed", "questions-sampled"):
        assert main(["compare", str(path), "--models", *pair, "--scope", scope, "--output", "json"]) == 0
        reports[scope] = json.loads(capsys.readouterr().out)
    outcomes = outcomes_for(io.load([str(path)]))
    fixed = leaderboard(outcomes).set_index("model")  # default prior (empirical Bayes), questions fixed
    diffs = disagreement_table(outcomes, *pair)["diff"].to_numpy()
    a, b = fixed.loc[pair[0]], fixed.loc[pair[1]]
    expected, _ = scoped_difference(a["mu"], a["sigma"], b["mu"], b["sigma"], diffs, scope="questions-sampled")
    got = reports["questions-sampled"]["difference"]
    assert got["sd"] == pytest.approx(expected.sd, rel=1e-12) and got["rho"] == pytest.approx(expected.rho, rel=1e-12)
    assert got["scope"] == "questions-sampled" == reports["questions-sampled"]["settings"]["scope"]
    assert got["assumption"] == SAMPLED_ASSUMPTION.format(m=15)
    # the rows stay each model's own sampled-scope posterior; combining them unpaired would be much wider (0.129)
    own = reports["questions-sampled"]["a"]["sigma"], reports["questions-sampled"]["b"]["sigma"]
    assert math.hypot(*own) > 2 * got["sd"] and got["sd"] >= reports["questions-fixed"]["difference"]["sd"]
    assert reports["questions-fixed"]["difference"]["assumption"] == ASSUMPTION
    assert main(["compare", str(path), "--models", *pair, "--scope", "questions-sampled"]) == 0
    assert "paired over the 15 questions" in capsys.readouterr().out
    q = reports["questions-sampled"]["questions_needed"]
    assert reports["questions-fixed"]["questions_needed"] is None and q["m_observed"] == 15
    assert q["sd_unit"] == pytest.approx(expected.sd * math.sqrt(15), rel=1e-12) and "questions" in q["meaning"]


def test_questions_needed_edges():
    from scorio_core.ranking.paired import questions_meaning, questions_needed

    d, _ = scoped_difference(0.5, 0.01, 0.4, 0.01, [0.3], scope="questions-sampled")
    q = questions_needed(d, [0.3])
    assert (q.m_needed, q.m_power, q.m_observed) == (None, None, 1) and "cannot be estimated" in questions_meaning(q)
    d, _ = scoped_difference(0.4, 0.01, 0.4, 0.01, [0.1, -0.1], scope="questions-sampled")
    q = questions_needed(d, [0.1, -0.1])
    assert q.m_power is None and "estimated difference is 0" in questions_meaning(q)
    with pytest.raises(ValueError, match="power"):
        questions_needed(d, [0.1, -0.1], power=1.0)
    # hand: s = sd * sqrt(m) = sqrt(0.02 / 3) = 0.0816497; (Phi^-1(0.95) * s / 0.1)^2 = 1.80 -> 2;
    # ((1.6448536 + 0.8416212) * 0.0816497 / 0.1)^2 = 4.12 -> 5
    diffs = [0.2, 0.0, 0.1, np.nan, 0.1]
    q = questions_needed(scoped_difference(0.5, 0.01, 0.4, 0.01, diffs, scope="questions-sampled")[0], diffs)
    assert (q.m_needed, q.m_power, q.m_observed) == (2, 5, 4) and q.sd_unit == pytest.approx(math.sqrt(0.02 / 3))
    assert q.practical and "about 5 questions" in questions_meaning(q)


def test_questions_needed_says_when_no_practical_number_separates():
    """A near-zero difference asks for ~10^7 questions; above 100x the common questions the meaning says no practical
    number separates them. Hand: diffs (0.2, -0.2, 0.2, -0.2), s = sd * sqrt(4) with sd = sqrt(0.16/3)/2 = 0.11547,
    s = 0.23094; mean 0.0001: m_power = ((1.6448536 + 0.8416212) * 0.23094 / 0.0001)^2 = 3.30e7."""
    from scorio_core.ranking.paired import PRACTICAL_FACTOR, questions_meaning, questions_needed

    diffs = [0.2, -0.2, 0.2, -0.2]
    d, _ = scoped_difference(0.5001, 0.001, 0.5, 0.001, diffs, scope="questions-sampled")
    q = questions_needed(d, diffs)
    assert q.m_power == pytest.approx(((1.6448536 + 0.8416212) * 0.23094 / 0.0001) ** 2, rel=1e-4)
    assert PRACTICAL_FACTOR == 100 and not q.practical
    text = questions_meaning(q)
    assert text.startswith("no practical number of questions separates them") and "more than 100 times the 4" in text
    # the boundary: exactly 100 x m is still practical, one more question is not
    assert q._replace(m_power=400).practical and not q._replace(m_power=401).practical


def test_questions_needed_has_its_power_by_simulation():
    """From a large draw (2,000 questions) of the pool, m_power questions are asked for 80% power; fresh draws of that
    many questions then separate the models (P(A > B) >= 0.95, paired) in about 80% of 300 replications (binomial sd
    0.023). Measured: 0.77 at m_power = 188 (seed 7)."""
    from scorio_core.ranking.paired import questions_needed

    rng = np.random.default_rng(7)
    pool = 100_000
    p_a = rng.beta(1.0, 1.0, pool)
    p_b = np.clip(p_a - 0.04 + rng.normal(0.0, 0.05, pool), 0.0, 1.0)
    (big,), (big_diffs,), _, _ = _simulate(rng, p_a, p_b, 1, 2000)
    # the claim holds "if the difference is as estimated": give the large draw's posterior the pool's true difference
    # (its own estimate, 0.046 against 0.038 here, is 1.6 SE off and would be tested instead)
    truth = float(np.mean(p_a - p_b))
    m_power = questions_needed(big._replace(mean=truth), big_diffs).m_power
    assert 20 < m_power < 500
    separated = np.mean([d.rho >= 0.95 for d in _simulate(rng, p_a, p_b, 300, m_power)[0]])
    assert 0.72 <= separated <= 0.88, (m_power, separated)


_SCORES = st.lists(st.one_of(st.just(float("nan")), st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), st.floats(0, 1)),
                   min_size=12, max_size=12)


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(_SCORES, min_size=2, max_size=5), data=st.data())
def test_property_matrix_equals_scoped_difference_for_every_pair(rows, data):
    from scorio_core.ranking.paired import paired_pairwise_confidence, paired_sd_matrix

    scores = np.array(rows)
    n = len(rows)
    mu = np.array(data.draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
    sigma = np.array(data.draw(st.lists(st.floats(0, 0.2), min_size=n, max_size=n)))
    sd, rho = paired_sd_matrix(sigma, scores), paired_pairwise_confidence(mu, sigma, scores)
    for i in range(n):
        for j in range(n):
            if i == j:
                assert rho[i, j] == 0.5
                continue
            d, _ = scoped_difference(mu[i], sigma[i], mu[j], sigma[j], scores[i] - scores[j], scope="questions-sampled",
                                     scores=(scores[i], scores[j]))  # ragged pairs: the sd of the own-question means
            assert sd[i, j] == pytest.approx(d.sd, rel=1e-9, abs=1e-12)
            assert rho[i, j] == pytest.approx(d.rho, rel=1e-9, abs=1e-12)
    assert np.allclose(rho + rho.T, 1.0)


def test_paired_ranks_reduce_to_pairwise_ranks_without_question_spread():
    from scorio_core.ranking.paired import paired_pairwise_ranks
    from scorio_core.ranking.rank import pairwise_ranks

    rng = np.random.default_rng(3)
    mu, sigma = rng.uniform(0.3, 0.7, 40), rng.uniform(0.005, 0.03, 40)
    same = np.tile(rng.uniform(0, 1, 25), (40, 1))  # every model scores the same on each question: d = 0
    assert paired_pairwise_ranks(mu, sigma, same).tolist() == pairwise_ranks(mu, sigma).tolist()
    with pytest.raises(ValueError, match="shape"):
        paired_pairwise_ranks(mu, sigma, same[:3])


def test_leaderboard_pairs_ranks_only_for_bayes_under_the_sampled_scope():
    from pathlib import Path

    from scorio_core import io
    from scorio_core.leaderboard.table import leaderboard, outcomes_for, pairwise_for
    from scorio_core.ranking.rank import ranks_with_ties

    path = Path(__file__).resolve().parents[2] / "data" / "matharena_aime_2025_I_counts.csv"
    outcomes = outcomes_for(io.load([str(path)]))
    fixed = leaderboard(outcomes)
    sampled = leaderboard(outcomes, scope="questions-sampled")
    rho, paired = pairwise_for(outcomes, sampled, fixed, scope="questions-sampled")
    mu = sampled["mu"].to_numpy()
    # JSON consistency: rank_ci = 1 + the models B with P(B > A) >= 0.95 (and a higher mean), from the paired matrix
    expected = 1 + ((rho >= 0.95) & (mu[:, None] > mu[None, :] + 1e-12)).sum(axis=0)
    assert paired and sampled["rank_ci"].tolist() == expected.tolist()
    unpaired = ranks_with_ties(mu, sampled["sigma"].to_numpy(), rule="pairwise").tolist()
    assert sampled["rank_ci"].tolist() != unpaired  # the pairing matters on this data
    # as measured here (gemini-2.0-flash 10: one question whose trials disagree, so its prior is not identified)
    assert sampled["rank_ci"].tolist() == [1, 1, 1, 3, 5, 5, 5, 5, 5, 8, 10, 11, 11, 11, 11, 16]
    # other metrics and rules keep each model's own interval
    avg = leaderboard(outcomes, metric="avg", scope="questions-sampled")
    assert avg["rank_ci"].tolist() == ranks_with_ties(avg["mu"].to_numpy(), avg["sigma"].to_numpy(), rule="pairwise").tolist()
    paper = leaderboard(outcomes, scope="questions-sampled", tie_rule="paper")
    assert paper["rank_ci"].tolist() == ranks_with_ties(mu, paper["sigma"].to_numpy(), rule="paper").tolist()
    assert not pairwise_for(outcomes, avg, None, metric="avg", scope="questions-sampled")[1]


def test_cli_leaderboard_notes_whether_ranks_are_paired(capsys):
    import json
    from pathlib import Path

    from scorio_core.cli import main

    path = str(Path(__file__).resolve().parents[2] / "data" / "matharena_aime_2025_I_counts.csv")
    notes = {}
    for metric in ("bayes", "avg"):
        assert main(["leaderboard", path, "--scope", "questions-sampled", "--metric", metric, "--output", "json"]) == 0
        out = json.loads(capsys.readouterr().out)
        notes[metric] = [n for n in out["notes"] if n["code"] == "rank_pairing"]
    assert [n["paired"] for n in notes["bayes"]] == [True] and [n["paired"] for n in notes["avg"]] == [False]
    assert "conservative" in notes["avg"][0]["message"]
    assert main(["leaderboard", path, "--output", "json"]) == 0
    assert not [n for n in json.loads(capsys.readouterr().out)["notes"] if n["code"] == "rank_pairing"]


def test_pairing_is_capped_by_work():
    from scorio_core.ranking.paired import PAIRED_MAX_WORK, ranks_are_paired

    assert ranks_are_paired("bayes", "questions-sampled", "pairwise", 1000, 1000)
    assert not ranks_are_paired("bayes", "questions-sampled", "pairwise", 1000, 10_000)  # 10^10 > 10^9
    assert PAIRED_MAX_WORK == 10**9
    assert not ranks_are_paired("bayes", "questions-fixed", "pairwise", 10, 10)
    assert not ranks_are_paired("bayes", "questions-sampled", "paper", 10, 10)
    assert not ranks_are_paired("bayes", "questions-sampled", "pairwise", 1, 10)


def test_equal_models_are_called_different_at_the_nominal_rate_by_simulation():
    """Two models equal on the pool (B = A + symmetric per-question noise): the paired P(A > B) reaches 0.95 in about
    5% of 400 replications (one-sided; binomial sd 0.011). Measured: 0.065 (and P(B > A) >= 0.95 in 0.030)."""
    rng = np.random.default_rng(11)
    pool = 100_000
    p_a = 0.1 + 0.8 * rng.beta(2.0, 2.0, pool)
    noise = np.clip(rng.normal(0.0, 0.03, pool), -0.09, 0.09)
    noise -= noise.mean()  # the pool means are equal
    p_b = p_a + noise
    rho = np.array([d.rho for d in _simulate(rng, p_a, p_b, 400, 200)[0]])
    called = float(np.mean(rho >= 0.95))
    assert 0.02 <= called <= 0.085, called


def test_subnormal_sd_gives_the_same_probability_as_the_matrix():
    """Found by the property test above: sigma_B subnormal (2.2e-309) and no common question. difference_posterior
    squared the sigmas (underflow to sd 0, rho by the sign: 0.0) while the matrix used hypot (z = -1, rho = 0.1587)."""
    from scorio_core.ranking.paired import paired_pairwise_confidence

    tiny = 2.225073858507203e-309
    d, _ = scoped_difference(0.0, 0.0, tiny, tiny, [np.nan] * 3, scope="questions-sampled")
    rho = paired_pairwise_confidence([0.0, tiny], [0.0, tiny], np.full((2, 3), np.nan))
    assert d.z == -1.0 and d.rho == pytest.approx(0.15865525393145707, abs=1e-15) == rho[0, 1]


def test_the_matrix_keeps_a_tiny_difference_between_near_equal_scores():
    # hypothesis found it: scores 0.5 and 0.5, 0 and 1e-5 on the two common questions; with one centre for every
    # question the matrix's sums of 0.5^2 terms cancelled to sd 4.9999976e-6 against 5e-6 by hand
    # (sd([-1e-5, 0], ddof=1) / sqrt(2) = 7.0711e-6 / 1.4142 = 5e-6)
    from scorio_core.ranking.paired import paired_sd_matrix

    # (found on ragged rows, model 1 also answering question 8; ragged pairs now take the sd of the own-question
    # means, tests/core/test_paired_ragged.py, so the cancellation is checked where the paired form applies)
    scores = np.full((2, 12), np.nan)
    scores[0, [9, 11]] = [0.0, 0.5]
    scores[1, [9, 11]] = [1e-5, 0.5]
    assert paired_sd_matrix([0.0, 0.0], scores)[0, 1] == pytest.approx(5e-6, rel=1e-12)
