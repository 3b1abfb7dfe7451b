"""Priors and interval scopes (issue 13): generalised Bayes@N, empirical Bayes, fallbacks."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core import eval as ev
from scorio_core.uncertainty import bayes_dirichlet, fit_dirichlet_prior, interval_label, posterior_summary
from tests.paths import MATHARENA


@st.composite
def count_matrices(draw):
    m = draw(st.integers(1, 12))
    n_cat = draw(st.integers(2, 4))
    n = draw(st.integers(1, 9))
    rows = [draw(st.lists(st.integers(0, n), min_size=n_cat, max_size=n_cat)) for _ in range(m)]
    counts = np.array(rows)
    counts[counts.sum(axis=1) == 0, 0] = 1
    w = np.array(draw(st.lists(st.floats(-3, 3, allow_nan=False), min_size=n_cat, max_size=n_cat)))
    return counts, w


@settings(max_examples=60, deadline=None)
@given(count_matrices(), st.integers(0, 3))
def test_uniform_is_the_special_case_alpha_one(data, r0):
    """bayes_dirichlet(alpha = 1 + R0) equals the reference-exact Bayes@N (paper Eq. 15)."""
    counts, w = data
    prior_counts = np.full_like(counts, r0)
    mu, sigma = bayes_dirichlet(counts, w, 1.0 + prior_counts)
    ref_mu, ref_sigma = ev.bayes(ev.CategoryCounts(counts, prior_counts), w)
    assert float(mu) == pytest.approx(ref_mu, abs=1e-12)
    assert float(sigma) == pytest.approx(ref_sigma, rel=1e-9, abs=1e-15)


@settings(max_examples=40, deadline=None)
@given(count_matrices())
def test_uniform_posterior_summary_equals_bayes_ci(data):
    counts, w = data
    s = posterior_summary(counts, w, prior="uniform")
    ref = ev.bayes_ci(ev.CategoryCounts(counts), w, bounds=(float(w.min()), float(w.max())))
    assert (s.mu, s.sigma, s.lo, s.hi) == pytest.approx(ref, abs=1e-9)
    assert s.prior == "uniform" and "paper" in s.label


def test_jeffreys_by_hand():
    # one question, 2 of 3 correct: Beta(2.5, 1.5): mean 0.625, var = 0.625 * 0.375 / 5
    s = posterior_summary(np.array([[1, 2]]), np.array([0.0, 1.0]), prior="jeffreys", shape="normal")
    assert s.mu == pytest.approx(0.625)
    assert s.sigma == pytest.approx(math.sqrt(0.625 * 0.375 / 5))
    assert s.lo == pytest.approx(0.625 - 1.959963984540054 * s.sigma)


def test_fit_recovers_a_known_beta_prior():
    rng = np.random.default_rng(3)
    p = rng.beta(2.0, 6.0, 4000)
    k = rng.binomial(10, p)
    fitted = fit_dirichlet_prior(np.stack([10 - k, k], axis=1))
    assert fitted.method == "marginal-likelihood" and not fitted.pooled
    beta0, alpha0 = fitted.alpha
    assert alpha0 == pytest.approx(2.0, rel=0.15) and beta0 == pytest.approx(6.0, rel=0.15)
    assert fitted.mean[1] == pytest.approx(0.25, abs=0.01)


def test_fallback_one_trial_is_pooled_and_exact_binomial():
    counts = np.array([[1, 0]] * 27 + [[0, 1]] * 3)
    s = posterior_summary(counts, [0, 1])
    assert s.fitted.method == "fallback-n1" and s.fitted.pooled and s.note
    # Clopper-Pearson for 3 of 30 (scipy.stats.binomtest exact interval)
    from scipy.stats import binomtest

    ci = binomtest(3, 30).proportion_ci(0.95, method="exact")
    assert (s.lo, s.hi) == pytest.approx((ci.low, ci.high), abs=1e-9)
    assert s.mu == pytest.approx(0.1)


def test_fallback_all_wrong_keeps_an_informative_upper_bound():
    counts = np.array([[4, 0]] * 15)
    s = posterior_summary(counts, [0, 1])
    assert s.fitted.method == "fallback-degenerate"
    assert s.lo == 0.0 and s.hi == pytest.approx(1 - 0.025 ** (1 / 60), rel=1e-9)  # exact bound, 0 of 60
    assert 0.0 < s.mu < s.hi


@settings(max_examples=40, deadline=None)
@given(count_matrices(), st.sampled_from(["uniform", "jeffreys", "empirical-bayes"]))
def test_sampled_scope_is_never_narrower(data, prior):
    counts, w = data
    fixed = posterior_summary(counts, w, prior=prior, scope="questions-fixed")
    sampled = posterior_summary(counts, w, prior=prior, scope="questions-sampled")
    assert sampled.mu == pytest.approx(fixed.mu)
    assert sampled.sigma >= fixed.sigma - 1e-15
    assert "questions sampled" in sampled.label and "questions fixed" in fixed.label
    assert min(w) - 1e-12 <= sampled.lo <= sampled.mu + 1e-12 and sampled.mu - 1e-12 <= sampled.hi <= max(w) + 1e-12


def test_matharena_observed_accuracy_inside_every_default_interval():
    """Issue 13: under the uniform prior 7 of 16 models' avg@N lie outside their own interval."""
    raw = pd.read_csv(MATHARENA)
    outside_uniform = 0
    for _, sub in raw.groupby("model"):
        c, n = sub["n_correct"].to_numpy(), sub["n_trials"].to_numpy()
        counts = np.stack([n - c, c], axis=1)
        avg = c.sum() / n.sum()
        eb = posterior_summary(counts, [0, 1])
        assert eb.lo <= avg <= eb.hi
        uni = posterior_summary(counts, [0, 1], prior="uniform")
        outside_uniform += not (uni.lo <= avg <= uni.hi)
    assert outside_uniform == 7


def test_labels_and_errors():
    assert interval_label("uniform", "questions-fixed") == (
        "95% credible interval; covers trials (questions fixed); uniform prior, Dirichlet(1) per question (paper)"
    )
    with pytest.raises(ValueError, match="prior must be one of"):
        posterior_summary([[1, 1]], [0, 1], prior="flat")
    with pytest.raises(ValueError, match="scope must be one of"):
        posterior_summary([[1, 1]], [0, 1], scope="both")
    with pytest.raises(ValueError, match="alpha"):
        bayes_dirichlet([[1, 1]], [0, 1], [0.0, 1.0])


@pytest.mark.parametrize("scope", ["questions-fixed", "questions-sampled"])
def test_interval_contains_the_mean_at_the_end_of_the_scale(scope):
    # found by hypothesis in a fresh clone: a moment-matched Beta with mean 1 - 5e-8 rounded both quantiles onto 1.0
    counts, w = np.array([[0, 1, 1, 0]]), np.array([0.0, 1.0, 1.0, 0.0])
    s = posterior_summary(counts, w, prior="empirical-bayes", scope=scope)
    assert s.lo <= s.mu <= s.hi and s.mu > 0.9999


def test_leaderboard_label_says_when_the_empirical_bayes_prior_was_not_fitted(tmp_path):
    """N = 1 (strength not identified) and all-one-category models get the exact binomial bound, and say so."""
    from scipy.stats import beta

    from scorio_core import io
    from scorio_core.leaderboard.table import leaderboard, outcomes_for

    rows = ["model,question_id,trial,correct"]
    rows += [f"one,q{q},0,{int(q < 7)}" for q in range(10)]  # N = 1: 7 of 10
    rows += [f"many,q{q},{t},{int((q + t) % 3 == 0)}" for q in range(10) for t in range(3)]  # N = 3, spread
    rows += [f"none,q{q},{t},0" for q in range(10) for t in range(3)]  # every trial wrong
    path = tmp_path / "mixed.csv"
    path.write_text("\n".join(rows) + "\n")
    board = leaderboard(outcomes_for(io.load([str(path)]))).set_index("model")
    one = board.loc["one"]
    assert one["interval"].startswith("95% exact binomial (Clopper-Pearson) interval on the pooled answers; covers "
                                      "trials (questions fixed); empirical-Bayes prior not fitted: too few repeated trials (N = 1")
    assert "(N = 1: one trial per question)" in one["interval"]  # its own cause, not the whole rule
    # hand value: Clopper-Pearson for 7 of 10 at 95%
    assert one["lo"] == pytest.approx(beta.ppf(0.025, 7, 4), abs=1e-9)
    assert one["hi"] == pytest.approx(beta.ppf(0.975, 8, 3), abs=1e-9)
    assert "every trial is in one category" in board.loc["none", "interval"]
    assert board.loc["many", "interval"] == interval_label("empirical-bayes", "questions-fixed")


def test_posterior_summary_label_says_when_the_prior_fell_back():
    """The per-model summary (Compare, exports) says what the leaderboard row says for an unfitted prior."""
    one = posterior_summary(np.array([[1, 0]] * 4 + [[0, 1]] * 6), [0, 1])  # N = 1 on 10 questions: 6 of 10
    assert one.fitted.method == "fallback-n1"
    assert one.label.startswith("95% exact binomial (Clopper-Pearson) interval on the pooled answers; covers trials")
    repeated = posterior_summary(np.array([[2, 1]] * 4 + [[0, 3]] * 6), [0, 1])  # N = 3: the prior is fitted
    assert repeated.fitted.method == "marginal-likelihood"
    assert repeated.label == interval_label("empirical-bayes", "questions-fixed")
