"""Biased-coin LLM mimics (paper section 2.7) and the simulated demo dataset."""

from __future__ import annotations

import csv
import gzip

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.eval.batch import bayes_batch
from scorio_core.ranking.rank import ranks_with_ties
from scorio_core.dynamics.simulate.__main__ import main
from scorio_core.dynamics.simulate import (
    DEMO_MEANS,
    PAPER_MEANS,
    question_probabilities,
    simulate,
    simulate_attempts,
    simulate_outcomes,
)


def _bayes_mu_sigma(R):
    counts = np.stack([(R == 0).sum(axis=2), (R == 1).sum(axis=2)], axis=2)
    return bayes_batch(counts, np.array([0.0, 1.0]))


def test_paper_means_and_true_ranks():
    assert len(PAPER_MEANS) == 11 and PAPER_MEANS[3] == PAPER_MEANS[4] == 0.3642  # paper section 2.7
    sim = simulate(seed=0)
    # paper Table 1 gold standard row (LLM_11..LLM_1: 1 2 3 5 4 6 7 7 8 9 10) in competition form
    assert sim.true_ranks[::-1].tolist() == [1, 2, 3, 5, 4, 6, 7, 7, 9, 10, 11]
    assert sim.R.shape == (11, 30, 80) and sim.R.dtype == np.int8
    assert len(DEMO_MEANS) == 20


@settings(max_examples=30, deadline=None)
@given(
    means=st.lists(st.sampled_from([0.05, 0.2, 0.3642, 0.5, 0.8, 0.95]), min_size=1, max_size=6),
    seed=st.integers(0, 1000),
    corr=st.sampled_from([0.0, 0.5, 0.9]),
    kappa=st.sampled_from([0.5, 4.0, 50.0]),
)
def test_probabilities_have_exact_means_and_exact_ties(means, seed, corr, kappa):
    p = question_probabilities(means, n_questions=12, concentration=kappa, correlation=corr, seed=seed)
    assert p.shape == (len(means), 12)
    assert ((p > 0) & (p < 1)).all()
    np.testing.assert_allclose(p.mean(axis=1), means, rtol=0, atol=1e-12)
    for i in range(len(means)):
        for j in range(i):
            if means[i] == means[j]:
                np.testing.assert_array_equal(np.sort(p[i]), np.sort(p[j]))


def test_correlation_shares_question_difficulty():
    means = [0.3, 0.5, 0.7, 0.4]
    indep = question_probabilities(means, 200, correlation=0.0, seed=1)
    shared = question_probabilities(means, 200, correlation=0.8, seed=1)
    c0 = np.corrcoef(indep)[np.triu_indices(4, 1)].mean()
    c8 = np.corrcoef(shared)[np.triu_indices(4, 1)].mean()
    assert abs(c0) < 0.15 and c8 > 0.5


def test_simulate_is_reproducible_and_keeps_probabilities_when_trials_change():
    a, b = simulate(seed=5), simulate(seed=5)
    np.testing.assert_array_equal(a.R, b.R)
    longer = simulate(n_trials=200, seed=5)
    np.testing.assert_array_equal(a.probabilities, longer.probabilities)
    assert not np.array_equal(a.R, simulate(seed=6).R)


def test_outcomes_follow_the_probabilities():
    p = np.array([[0.1, 0.9], [0.5, 0.5]])
    R = simulate_outcomes(p, n_trials=20_000, seed=0)
    np.testing.assert_allclose(R.mean(axis=2), p, atol=0.015)
    assert simulate_outcomes([1.0, 0.0], 3).tolist() == [[1, 1, 1], [0, 0, 0]]


def test_tied_models_tie_under_the_ci_rule():
    # LLM_4 and LLM_5 share pi_bar = 0.3642: Bayes@80 with the 95% CI rule ties them
    sim = simulate(seed=0)
    mu, sigma = _bayes_mu_sigma(sim.R)
    ranks = ranks_with_ties(mu, sigma, 0.95, "paper")
    assert ranks[3] == ranks[4]
    # and over many simulations, the tied pair is almost always tied (z < 1.645 ~ 90% for a true tie)
    tied = 0
    for seed in range(40):
        mu, sigma = _bayes_mu_sigma(simulate(seed=seed).R)
        tied += ranks_with_ties(mu, sigma, 0.95, "paper")[3] == ranks_with_ties(mu, sigma, 0.95, "paper")[4]
    assert tied >= 32


def test_simulate_attempts_columns_and_signals():
    cols = simulate_attempts(n_models=4, n_questions=6, n_trials=50, seed=3)
    names = list(cols)
    assert names[:5] == ["model", "task", "question_id", "trial", "is_correct"]
    n = 4 * 6 * 50
    assert all(len(v) == n for v in cols.values())
    correct = cols["is_correct"] == 1
    assert cols["has_box"][correct].mean() > cols["has_box"][~correct].mean()
    assert cols["completion_bpt"][correct].mean() < cols["completion_bpt"][~correct].mean()
    assert cols["compass_context_A"][correct].mean() > 0.6 > cols["compass_context_A"][~correct].mean()
    total = cols["compass_context_A"] + cols["compass_context_B"] + cols["compass_context_C"]
    np.testing.assert_allclose(total, 1.0, atol=2e-4)
    truncated = cols["finish_reason"] == "length"
    assert (cols["token_ratio"][truncated] == 1.0).all() and (cols["token_ratio"] <= 1.0).all()
    assert set(np.unique(cols["model"]).tolist()) == {"mimic-01", "mimic-02", "mimic-03", "mimic-04"}


def test_main_writes_a_gzip_csv(tmp_path, capsys):
    out = tmp_path / "sim.csv.gz"
    assert main(["--out", str(out), "--models", "3", "--questions", "2", "--trials", "4"]) == 0
    with gzip.open(out, "rt", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0][:5] == ["model", "task", "question_id", "trial", "is_correct"]
    assert len(rows) == 1 + 3 * 2 * 4
    assert "wrote 24 attempts" in capsys.readouterr().out
    assert main(["--out", str(tmp_path / "x.csv"), "--models", "0"]) == 2


@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: question_probabilities([0.0, 0.5]), ValueError, "strictly between 0 and 1"),
        (lambda: question_probabilities(["a"]), TypeError, "means must hold real numbers"),
        (lambda: question_probabilities([0.5], n_questions=0), ValueError, "n_questions must be >= 1"),
        (lambda: question_probabilities([0.5], concentration=0.0), ValueError, "concentration must be > 0"),
        (lambda: question_probabilities([0.5], correlation=1.0), ValueError, "correlation"),
        (lambda: simulate_outcomes([[1.5]]), ValueError, r"\[0, 1\]"),
        (lambda: simulate_outcomes([[0.5]], n_trials=2.0), TypeError, "n_trials must be an integer"),
        (lambda: simulate(seed=-1), ValueError, "seed must be >= 0"),
    ],
)
def test_validation_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
