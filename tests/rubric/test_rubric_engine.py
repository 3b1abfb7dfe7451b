"""categorize / bind / category_counts: alignment, dtypes, caching, prior mapping."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core.errors import InputError
from scorio_core.rubric import (
    BoundRubric,
    Categorization,
    SignalTable,
    bind,
    categorize,
    category_counts,
    get_schema,
    list_schemas,
)
from tests.rubric.builders import random_attempts


def test_categorization_fields(rng):
    frame = random_attempts(rng)
    cat = categorize(frame, "Format Aware")
    assert isinstance(cat, Categorization)
    assert cat.codes.dtype == np.int16 and cat.codes.shape == (len(frame),)
    assert cat.labels == get_schema("Format Aware").labels
    assert cat.weights.dtype == np.float64 and cat.weights.tolist() == [0, 0, 1, 2, 3]
    assert cat.thresholds == {"tau_invalid_C": 0.5}
    assert cat.coverage.counts.sum() + cat.coverage.n_unmatched == len(frame)
    scores = cat.scores()
    matched = cat.codes >= 0
    np.testing.assert_array_equal(scores[matched], cat.weights[cat.codes[matched]])
    assert np.isnan(scores[~matched]).all()


def test_codes_align_with_rows_of_a_sliced_frame(rng):
    frame = random_attempts(rng)
    part = frame.iloc[::3]  # non-default index, as when a caller selects one task
    cat = categorize(part, "Binary correctness")
    expected = np.where(part["is_correct"].to_numpy() >= 0.5, 1, 0)
    np.testing.assert_array_equal(cat.codes, expected)
    shuffled = frame.sample(frac=1.0, random_state=3)
    cat2 = categorize(shuffled, "Format Aware")
    np.testing.assert_array_equal(cat2.codes, categorize(frame, "Format Aware").codes[shuffled.index.to_numpy()])


def test_row_order_does_not_change_thresholds(rng):
    frame = random_attempts(rng)
    shuffled = frame.sample(frac=1.0, random_state=5)
    for name in list_schemas():
        np.testing.assert_equal(categorize(frame, name).thresholds, categorize(shuffled, name).thresholds)


def test_signal_table_is_reusable_across_schemas(rng):
    frame = random_attempts(rng)
    table = SignalTable(frame)
    for name in list_schemas():
        if get_schema(name).source.startswith("scorio"):
            continue
        np.testing.assert_array_equal(categorize(table, name).codes, categorize(frame, name).codes)
    with pytest.raises(InputError, match="build a new SignalTable"):
        categorize(table, "Efficiency-Adjusted", max_tokens=100)


def test_bound_rubric_repeated_calls_are_consistent(rng):
    frame = random_attempts(rng, missing=0.05)
    bound = bind(frame, "Format+Confidence")
    assert isinstance(bound, BoundRubric)
    first = bound.categorize()
    for delta in (-5, 5, 0):
        bound.codes(percentile_shift={"tau_high": delta})
    again = bound.categorize()
    np.testing.assert_array_equal(first.codes, again.codes)
    frozen = bound.codes({"tau_high": 0.0})
    # tau_high = 0 -> no completion_bpt <= 0 -> nobody high-confidence: categories 3, 5, 7 empty
    assert not np.isin(frozen, [3, 5, 7]).any()


def test_prior_attempts_mapped_through_the_same_thresholds(rng):
    main = random_attempts(rng, n_models=2)
    prior = random_attempts(np.random.default_rng(9), n_models=1)
    prior["completion_bpt"] *= 2.0
    cat = categorize(main, "Conf-Calibrated")
    mapped = categorize(prior, "Conf-Calibrated", cat.thresholds)
    assert mapped.thresholds == cat.thresholds
    assert categorize(prior, "Conf-Calibrated").thresholds != cat.thresholds


def test_category_counts_per_model():
    frame = pd.DataFrame({"model": ["b", "a", "b", "a", "b"], "is_correct": [1.0, 0.0, np.nan, 1.0, 1.0]})
    cat = categorize(frame, "Binary correctness")
    counts = category_counts(frame, cat)
    assert counts.groups == ("b", "a")  # order of first appearance
    assert counts.counts.tolist() == [[0, 2], [1, 1]]
    assert counts.unmatched.tolist() == [1, 0]
    table = counts.to_frame()
    assert table.loc["b", "correct"] == 2 and list(table.columns) == ["wrong", "correct"]
    with pytest.raises(InputError, match="'task' column"):
        category_counts(frame, cat, by="task")
    with pytest.raises(InputError, match="rows"):
        category_counts(frame.iloc[:2], cat)


def test_bad_arguments():
    frame = pd.DataFrame({"is_correct": [1.0]})
    with pytest.raises(InputError, match="DataFrame"):
        categorize([[1.0]], "Binary correctness")
    with pytest.raises(InputError, match="unknown schema"):
        categorize(frame, "no such schema")
    with pytest.raises(InputError, match="must be a Schema"):
        BoundRubric(frame, "Binary correctness")


def test_empty_table():
    frame = pd.DataFrame({"model": pd.Series([], dtype=str), "is_correct": pd.Series([], dtype=float)})
    cat = categorize(frame, "Format Aware")
    assert cat.codes.shape == (0,) and cat.coverage.n_unmatched == 0
    assert category_counts(frame, cat).counts.shape == (0, 5)


def test_nullable_and_boolean_dtypes():
    frame = pd.DataFrame({
        "is_correct": pd.array([1, 0, None], dtype="Int64"),
        "has_box": pd.array([True, False, True], dtype="boolean"),
    })
    cat = categorize(frame, "Format Compliance & Correctness")
    assert cat.codes.tolist() == [3, 0, -1]


def test_object_columns_of_numbers_are_numeric():
    frame = pd.DataFrame({"is_correct": pd.Series([1, 0.0, None], dtype=object),
                          "note": pd.Series(["a", None, "b"], dtype=object)})
    cat = categorize(frame, "Binary correctness")
    assert cat.codes.tolist() == [1, 0, -1]
    from scorio_core.rubric import list_signals

    assert {s.name: s.kind for s in list_signals(frame)} == {"is_correct": "number", "note": "text"}
