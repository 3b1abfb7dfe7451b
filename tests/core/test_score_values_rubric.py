"""The data-built rubric of a graded score's values (partial credit: each attempt earns its score)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.errors import InputError
from scorio_core.leaderboard.graded import (
    MAX_SCORE_VALUES,
    SCORE_VALUES_SCHEMA,
    is_score_values,
    score_value_schema,
)
from scorio_core.rubric import categorize


def test_one_category_per_value_weighted_by_it():
    attempts = pd.DataFrame({"is_correct": [0.0, np.nan, 1.0, np.nan], "score": [0.0, 0.25, 1.0, 0.75]})
    schema = score_value_schema(attempts)
    assert schema.name == SCORE_VALUES_SCHEMA
    assert schema.labels == ("score 0", "score 0.25", "score 0.75", "score 1")
    assert schema.weights.tolist() == [0.0, 0.25, 0.75, 1.0]
    assert categorize(attempts, schema).codes.tolist() == [0, 1, 3, 2]


def test_values_alike_to_six_digits_are_written_in_full_and_placed_exactly():
    third = 1 / 3
    attempts = pd.DataFrame({"score": [third, third + 1e-9, 0.0]})
    schema = score_value_schema(attempts)
    assert len(set(schema.labels)) == 3 and schema.labels[1] == f"score {third!r}"
    assert categorize(attempts, schema).codes.tolist() == [1, 2, 0]


def test_attempts_without_a_score_are_placed_by_is_correct_only_when_no_row_disagrees():
    mixed = pd.DataFrame({"is_correct": [1.0, 0.0, np.nan, 1.0], "score": [np.nan, np.nan, 0.5, 1.0]})
    schema = score_value_schema(mixed)
    assert categorize(mixed, schema).codes.tolist() == [2, 0, 1, 2]
    assert "placed by is_correct" in schema.description
    disagree = mixed.assign(score=[np.nan, np.nan, 0.5, 0.0])  # is_correct 1 but score 0 on the last row
    schema = score_value_schema(disagree)
    assert categorize(disagree, schema).codes.tolist() == [-1, -1, 1, 0]  # unmatched: the gate names them
    assert "is_correct" not in " ".join(c.condition for c in schema.categories)


def test_refusals_name_the_field_and_the_way_out():
    with pytest.raises(InputError, match="no score column"):
        score_value_schema(pd.DataFrame({"is_correct": [1.0]}))
    with pytest.raises(InputError, match="score column is empty"):
        score_value_schema(pd.DataFrame({"score": [np.nan]}))
    many = pd.DataFrame({"score": np.linspace(0, 1, MAX_SCORE_VALUES + 1)})
    with pytest.raises(InputError, match=f"takes {MAX_SCORE_VALUES + 1} distinct values .*bin it"):
        score_value_schema(many)
    score_value_schema(many.iloc[:MAX_SCORE_VALUES])  # at the cap: built


@pytest.mark.parametrize("spec, expected", [("score-values", True), (" Score_Values ", True), ("Score values", False),
                                            (None, False), ("Binary correctness", False)])
def test_is_score_values(spec, expected):
    assert is_score_values(spec) is expected


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.1, 0.2, 0.5, 2 / 3, 0.9, 1.0, 3.0, -1.0]), min_size=1, max_size=40))
def test_the_rubric_weighted_mean_is_the_mean_score(scores):
    attempts = pd.DataFrame({"score": scores})
    schema = score_value_schema(attempts)
    codes = categorize(attempts, schema).codes
    assert (codes >= 0).all()
    assert schema.weights[codes].mean() == pytest.approx(float(np.mean(scores)), abs=1e-12)
    assert list(schema.weights) == sorted(set(scores))


def test_rounded_values_cover_every_score_with_its_nearest_multiple():
    scores = np.array([0.0, 0.04, 0.05, 0.149, 0.15, 0.5, 0.86, 0.95, 1.0])
    attempts = pd.DataFrame({"model": ["a"] * 5 + ["b"] * 4, "score": scores})
    schema = score_value_schema(attempts, step=0.1)
    assert schema.name == "Score values rounded to 0.1 (partial credit: weight = rounded score)"
    codes = categorize(attempts, schema).codes
    assert (codes >= 0).all()
    # hand: nearest multiple of 0.1, ties upward (0.05 -> 0.1, 0.15 -> 0.2, 0.95 -> 1)
    assert schema.weights[codes].tolist() == [0.0, 0.0, 0.1, 0.1, 0.2, 0.5, 0.9, 1.0, 1.0]
    # measured, not assumed: a's mean moves by (0 + 0.04 - 0.05 + ... ) / 5, b's by (0 + 0.04 + 0.05 + 0) / 4
    shift_a = abs(np.mean([0, -0.04, 0.05, -0.049, 0.05]))
    shift_b = abs(np.mean([0.0, 0.04, 0.05, 0.0]))
    assert f"by at most {max(shift_a, shift_b):.4f} (b)" in schema.description


def test_rounding_is_refused_outside_its_range_and_a_continuous_score_points_to_it():
    attempts = pd.DataFrame({"score": np.linspace(0, 1, 40)})
    with pytest.raises(InputError, match=r"score-values:0\.1"):
        score_value_schema(attempts)
    assert len(score_value_schema(attempts, step=0.1).labels) == 11
    for bad in (0.0, 1.5, -0.1):
        with pytest.raises(InputError, match=r"in \(0, 1\]"):
            score_value_schema(attempts, step=bad)
    with pytest.raises(InputError, match="40 distinct values once rounded to 0.025"):
        score_value_schema(attempts, step=0.025)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=60), st.sampled_from([0.1, 0.2, 0.25, 0.5, 1.0]))
def test_rounded_categories_partition_the_scores(scores, step):
    attempts = pd.DataFrame({"score": scores})
    schema = score_value_schema(attempts, step=step)
    codes = categorize(attempts, schema).codes
    assert (codes >= 0).all()
    assert np.abs(schema.weights[codes] - np.asarray(scores)).max() <= step / 2 + 1e-9


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), min_size=2, max_size=40))
def test_the_threshold_rubric_is_what_binarizing_the_score_gives(scores):
    from scorio_core import io
    from scorio_core.leaderboard.graded import threshold_schema

    frame = pd.DataFrame({"model": "m", "question_id": [f"q{i}" for i in range(len(scores))], "trial": 0,
                          "score": scores})
    dataset = io.load([("graded.csv", frame.to_csv(index=False).encode())])
    binarized = io.apply_choices(dataset, binarize_threshold=0.5) if dataset.report.n_non_binary else dataset
    schema = threshold_schema(dataset.attempts, 0.5)
    codes = categorize(dataset.attempts, schema).codes
    assert schema.weights[codes].tolist() == binarized.attempts["is_correct"].tolist()
