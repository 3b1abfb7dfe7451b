"""The five base-signal schemas against the reference package's own categorical results.

The same records go through ``scorio.categorical`` (scorio 0.2.3: ``Thresholds.from_columns``,
the registered ``classify`` functions, ``evaluate_schema``) and through our engine, which
reads the reference column names through its aliases. Compared: every attempt's score
(our ``weights[codes]`` vs the reference classify score) and the per-model Bayes@N
``(mu, sigma)`` of ``evaluate_schema``. The reference is imported here only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import scorio.categorical as categorical  # reference package: a test requirement, never skipped
from scorio import eval as ref_eval
from scorio.categorical.schemas import _SCHEMA_REGISTRY
from scorio.categorical.thresholds import Thresholds, _classify_signal, _get_signal_value

from scorio_core.rubric import categorize, category_counts, get_schema

REFERENCE_SCHEMAS = [
    "Confident & Correct",
    "Token Surprise vs. Correctness",
    "Format Compliance & Correctness",
    "Difficulty-Adjusted Correctness",
    "IO Ratio Profile",
]


def _records(rng, n_models=3, n_problems=12, n_trials=6, rounded=True):
    n = n_models * n_problems * n_trials
    lp = -rng.gamma(2.0, 0.15, n)
    values = {
        "is_correct": rng.integers(0, 2, n).astype(float),
        "has_box": rng.integers(0, 2, n).astype(float),
        "completion_avg_logprob": lp,
        "logprob_min": -rng.gamma(3.0, 2.0, n),
        "prompt_perplexity": np.exp(rng.gamma(2.0, 1.0, n)),
        "prompt_sum_logprob": -rng.gamma(3.0, 100.0, n),
        "completion_sum_logprob": lp * rng.integers(100, 5000, n),
    }
    if rounded:  # ties, including values equal to the median
        values = {k: (np.round(v, 1) if k not in ("is_correct", "has_box") else v) for k, v in values.items()}
    columns = {
        "model": np.repeat([f"model-{i}" for i in range(n_models)], n_problems * n_trials).astype(object),
        "problem": np.tile(np.repeat(np.arange(n_problems), n_trials), n_models).astype(object),
        "trial": np.tile(np.arange(n_trials), n_models * n_problems).astype(float),
        **{k: np.asarray(v, dtype=float) for k, v in values.items()},
    }
    frame = pd.DataFrame({
        "model": columns["model"].astype(str), "task": "ref",
        "question_id": columns["problem"].astype(str), "trial": columns["trial"].astype(int),
        **values,
    })
    return columns, frame


def _reference_scores(columns, name):
    entry = _SCHEMA_REGISTRY[name]
    th = Thresholds.from_columns(columns)
    out = []
    for i in range(len(columns["model"])):
        lvl = {}
        for sig in entry["signals"]:
            v = _get_signal_value(columns, i, sig)
            if v is not None:
                lvl[sig] = _classify_signal(sig, v, th)
        out.append(entry["classify"](lvl, {}, th)[2])
    return np.array(out)


@pytest.mark.parametrize("rounded", [True, False], ids=["ties", "continuous"])
@pytest.mark.parametrize("name", REFERENCE_SCHEMAS)
def test_scores_match_reference_classify(name, rounded, rng):
    columns, frame = _records(rng, rounded=rounded)
    cat = categorize(frame, name)
    assert cat.coverage.n_unmatched == 0
    np.testing.assert_array_equal(cat.scores(), _reference_scores(columns, name))
    # thresholds: reference medians (np.median) vs our 50th percentile
    th = Thresholds.from_columns(columns)
    for ours, sig in (("c1_median", "C1"), ("lp_min_median", "T_lp_min"), ("p2_median", "P2"),
                      ("p3_median", "P3"), ("c3_median", "C3")):
        if ours in cat.thresholds:
            assert cat.thresholds[ours] == pytest.approx(th.medians[sig], rel=1e-15, abs=0)


@pytest.mark.parametrize("name", REFERENCE_SCHEMAS)
def test_bayes_matches_reference_evaluate_schema(name, rng):
    columns, frame = _records(rng)
    expected = categorical.evaluate_schema(columns, name)
    cat = categorize(frame, name)
    scores = cat.scores()
    for model in frame["model"].unique():
        rows = (frame["model"] == model).to_numpy()
        sub = frame[rows]
        m = sub["question_id"].astype(int).to_numpy()
        t = sub["trial"].to_numpy()
        # the reference's R: categories = sorted unique scores of this model (evaluate._scores_to_R)
        w = np.unique(scores[rows])
        R = np.zeros((m.max() + 1, t.max() + 1), dtype=int)
        R[m, t] = np.searchsorted(w, scores[rows])
        mu, sigma = ref_eval.bayes(R, w)
        assert (mu, sigma) == pytest.approx(expected[model], rel=1e-12)
    counts = category_counts(frame, cat)
    assert counts.counts.sum() == len(frame) and counts.unmatched.sum() == 0


def test_codes_equal_reference_R_when_weights_distinct(rng):
    """Categories are ordered by weight, so our codes are the reference's R indices."""
    columns, frame = _records(rng)
    for name in ("Confident & Correct", "Format Compliance & Correctness", "Difficulty-Adjusted Correctness"):
        scores = _reference_scores(columns, name)
        codes = categorize(frame, name).codes
        np.testing.assert_array_equal(codes, np.searchsorted(get_schema(name).weights, scores))


def test_missing_values_differ_by_design(rng):
    """The reference reads a missing signal as 'low'/'0'; we leave the attempt unmatched."""
    columns, frame = _records(rng)
    columns["has_box"][0] = np.nan
    frame.loc[0, "has_box"] = np.nan
    assert _reference_scores(columns, "Format Compliance & Correctness")[0] in (0.0, 0.6)
    cat = categorize(frame, "Format Compliance & Correctness")
    assert cat.codes[0] == -1 and cat.coverage.n_unmatched == 1
