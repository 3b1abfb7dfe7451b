"""Priors in the rubric perturbation analysis, and posterior category shares (issue 13)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core import rubric
from scorio_core.rubric import BoundRubric
from scorio_core.sensitivity import kernel, perturb_rubric, schema_ranks
from scorio_core.sensitivity._common import _table
from scorio_core.uncertainty import PRIOR_LABELS, PRIORS
from scorio_core.uncertainty.batch import posterior_shares, posterior_summary_batch

from tests.core.test_sensitivity import _attempts


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6), st.integers(2, 4), st.integers(0, 5), st.sampled_from(PRIORS),
       st.integers(0, 2**31 - 1))
def test_shares_times_weights_is_bayes_at_n(L, M, K, n_max, prior, seed):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, n_max + 1, (L, M, K))
    P = posterior_shares(counts, prior)
    w = rng.normal(size=K)
    mu = posterior_summary_batch(counts, w, prior=prior).mu
    np.testing.assert_allclose(P @ w, mu, atol=1e-12)
    has = counts.sum(axis=(1, 2)) > 0
    np.testing.assert_allclose(P[has].sum(axis=1), 1.0)
    assert np.all(np.isnan(P[~has]))


def test_shares_by_hand():
    # one model, two questions: (2, 1) and (0, 3) of 3 trials; uniform: ((3/5 + 1/5) / 2, (2/5 + 4/5) / 2)
    np.testing.assert_allclose(posterior_shares([[[2, 1], [0, 3]]], "uniform"), [[0.4, 0.6]])  # hand
    # Jeffreys: ((2.5/4 + 0.5/4) / 2, (1.5/4 + 3.5/4) / 2)
    np.testing.assert_allclose(posterior_shares([[[2, 1], [0, 3]]], "jeffreys"), [[0.375, 0.625]])  # hand


@pytest.fixture(scope="module")
def attempts():
    return _attempts()


@pytest.mark.parametrize("prior", PRIORS)
def test_weight_perturbations_equal_the_posterior_under_each_prior(attempts, prior):
    n, r, seed = 40, 0.3, 2
    res = perturb_rubric(attempts, "Format Aware", n=n, weight_range=r, seed=seed, prior=prior)
    schema = rubric.resolve_schema("Format Aware")
    table = _table(attempts, None)
    counts = kernel.category_counts(BoundRubric(table, schema).codes(), kernel.cells(table.frame), len(schema.categories))
    base = posterior_summary_batch(counts, schema.weights, prior=prior).mu
    np.testing.assert_allclose(res.base_mu, base, atol=1e-12)
    factors = np.random.default_rng(seed).uniform(1 - r, 1 + r, size=(n, len(schema.categories)))
    mu = np.stack([posterior_summary_batch(counts, schema.weights * f, prior=prior).mu for f in factors])
    np.testing.assert_array_equal(res.ranks, kernel.ranks(mu))
    assert any(PRIOR_LABELS[prior] in a for a in res.assumptions)
    if prior == "uniform":
        np.testing.assert_allclose(res.base_mu, schema_ranks(attempts, ["Format Aware"], prior="uniform").mu[0])


def test_threshold_perturbations_refit_the_prior(attempts):
    schema = rubric.Schema(
        "edge", [rubric.Category("fast", "token_ratio <= p50", 1.0), rubric.Category("slow", "token_ratio > p50", 0.0)],
        thresholds=[rubric.Threshold("p50", percentile=50, of="token_ratio")],
    )
    eb = perturb_rubric(attempts, schema, n=20, threshold_shift=10, seed=3, prior="empirical-bayes")
    un = perturb_rubric(attempts, schema, n=20, threshold_shift=10, seed=3, prior="uniform")
    np.testing.assert_array_equal(eb.samples, un.samples)  # same perturbed rubrics
    assert eb.ranks.shape == un.ranks.shape == (20, len(eb.models))
    with pytest.raises(ValueError, match="prior must be one of"):
        perturb_rubric(attempts, schema, n=2, prior="flat")


def _single_trial_frame():
    import pandas as pd

    # N = 1: a answers 2 of 5 questions, b 3 of 5; c has 4 trials on each of 10 questions (identified)
    rows = [("a", q, 0, float(q < 2)) for q in range(5)] + [("b", q, 0, float(q < 3)) for q in range(5)]
    rows += [("c", q, t, float((q + t) % 3 == 0)) for q in range(10) for t in range(4)]
    return pd.DataFrame(rows, columns=["model", "question_id", "trial", "is_correct"])


def test_schema_ranks_names_models_whose_prior_fell_back():
    res = schema_ranks(_single_trial_frame(), ["Binary correctness"], prior="empirical-bayes")
    np.testing.assert_allclose(res.mu[0, :2], [2 / 5, 3 / 5])  # pooled observed rates, by hand
    (note,) = [n for n in res.notes if "not identified" in n]
    assert note.startswith("the empirical-Bayes prior is not identified for a and b (N = 1")
    assert "observed mean over" in note and "CI ties use the pooled binomial sd" in note and " c " not in note
    assert not [n for n in schema_ranks(_single_trial_frame(), ["Binary correctness"], prior="uniform").notes
                if "not identified" in n]
    plain = schema_ranks(_single_trial_frame(), ["Binary correctness"], prior="empirical-bayes", tie_rule="none")
    assert not [n for n in plain.notes if "CI ties" in n]


def test_perturbation_names_models_whose_prior_fell_back():
    res = perturb_rubric(_single_trial_frame(), "Binary correctness", n=20, prior="empirical-bayes")
    np.testing.assert_allclose(res.base_mu[:2], [2 / 5, 3 / 5])
    assert [n for n in res.notes if n.startswith("the empirical-Bayes prior is not identified for a and b (")]
    assert not [n for n in perturb_rubric(_single_trial_frame(), "Binary correctness", n=20).notes
                if "not identified" in n]
