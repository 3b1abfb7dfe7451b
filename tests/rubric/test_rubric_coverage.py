"""Coverage report: unmatched attempts, impossible and empty categories, unknown names."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core.errors import InputError
from scorio_core.rubric import Category, Example, Schema, Threshold, Variable, categorize, validate

FRAME = pd.DataFrame({
    "model": ["a", "a", "b", "b", "b"],
    "task": "t",
    "question_id": ["q1", "q2", "q1", "q2", "q3"],
    "trial": [0, 0, 0, 0, 1],
    "is_correct": [1.0, 0.0, np.nan, 1.0, 0.0],
    "score": [0.9, 0.2, 0.5, np.nan, 0.1],
})
VARS = [Variable("correct", "is_correct >= 0.5"), Variable("wrong", "is_correct < 0.5")]


def kinds(report):
    return [i.kind for i in report.issues]


def test_unmatched_with_counts_examples_and_reasons():
    cat = categorize(FRAME, "Binary correctness")
    assert cat.codes.tolist() == [1, 0, -1, 1, 0]
    issue = cat.coverage.unmatched()
    assert issue.count == 1 and cat.coverage.n_unmatched == 1
    assert issue.examples == (Example(2, "b", "q1", 0),)
    assert "1 of 5 attempts match no category; among them is_correct is missing on 1" in issue.message
    assert not cat.coverage.ok
    with pytest.raises(InputError, match=r"row 2 \(model=b, question_id=q1, trial=0\)"):
        cat.require_complete()


def test_unknown_names_are_errors_with_suggestions():
    schema = Schema("typo", [Category("hit", "is_corect >= 0.5 and scroe > 0.1", 1)])
    report = validate(FRAME, schema)  # never raises for schema problems
    messages = [i.message for i in report.errors]
    assert any("unknown name 'is_corect'" in m and "Did you mean 'is_correct'" in m for m in messages)
    assert any("unknown name 'scroe'" in m and "Did you mean 'score'" in m for m in messages)
    assert report.n_unmatched == 5 and not report.ok
    with pytest.raises(InputError, match="unknown name 'is_corect'"):
        categorize(FRAME, schema)


def test_unknown_signal_in_threshold_of():
    schema = Schema("s", [Category("hit", "score > t", 1)], thresholds=[Threshold("t", percentile=5, of="scor")])
    with pytest.raises(InputError, match="unknown name 'scor' in 'of' of threshold 't'.*Did you mean 'score'"):
        categorize(FRAME, schema)


def test_absent_known_signal_is_missing_not_an_error():
    cat = categorize(FRAME, "Format Aware")
    issue = next(i for i in cat.coverage.issues if i.kind == "absent_signal" and "has_box" in i.names)
    assert "used by variable 'boxed', variable 'unboxed'" in issue.message
    assert cat.coverage.n_unmatched == 5  # box unknown: no category 1-4 can be proven
    assert "absent from the data: repeated_pattern, compass_context_C, has_box" in cat.coverage.unmatched().message


def test_statically_impossible_category():
    schema = Schema("s", [Category("both", "correct and wrong", 0),
                          Category("never", "score > 0.5 and score <= 0.5", 0),
                          Category("false", "false", 0),
                          Category("any", "correct or wrong", 1)], VARS)
    report = validate(FRAME, schema)
    never = [i for i in report.issues if i.kind == "never_matches"]
    assert [i.category for i in never] == [0, 1, 2]
    assert "'is_correct >= 0.5' and 'is_correct < 0.5' cannot both hold" in never[0].message
    assert "constant false" in never[2].message


def test_empty_and_shadowed_categories():
    schema = Schema("s", [Category("correct", "correct", 1),
                          Category("correct high score", "correct and score > 0.5", 2),  # shadowed
                          Category("huge score", "score > 5", 3),  # true for nobody
                          Category("wrong", "wrong", 0)], VARS)
    report = validate(FRAME, schema)
    empty = {i.category: i.message for i in report.issues if i.kind == "empty_category"}
    assert "taken by earlier categories ('correct')" in empty[1]
    assert "true for no attempt" in empty[2]
    assert report.counts.tolist() == [2, 0, 0, 2]


def test_missing_values_reported_with_examples():
    report = validate(FRAME, Schema("s", [Category("hi", "score > 0.4", 1), Category("lo", "score <= 0.4", 0)]))
    issue = next(i for i in report.issues if i.kind == "missing_values")
    assert issue.count == 1 and issue.examples == (Example(3, "b", "q2", 0),)
    assert report.unmatched().count == 1


def test_type_errors_reported_by_validate():
    report = validate(FRAME, Schema("s", [Category("x", "score", 1)]))
    assert kinds(report) == ["type_error"]
    assert "position 1" in report.errors[0].message


def test_shadowing_names_and_report_serialization():
    schema = Schema("s", [Category("a", "score", 1)], [Variable("score", "is_correct > 0.5")])
    report = validate(FRAME, schema)
    assert "name_shadows_column" in kinds(report)
    d = report.to_dict()
    assert d["n_attempts"] == 5 and d["counts"] == [2] and isinstance(d["issues"][0]["examples"], list)
    assert "attempts" in report.summary()


def test_cycles_are_rejected():
    with pytest.raises(InputError, match="cycle: a -> b -> a"):
        Schema("s", [Category("x", "a", 1)], [Variable("a", "b"), Variable("b", "a")])
    with pytest.raises(InputError, match="cycle"):
        Schema("s", [Category("x", "v", 1)], [Variable("v", "x > t")],
               [Threshold("t", percentile=5, of="x", where="v")])


def test_schema_structure_errors():
    ok = Category("a", "true", 1)
    with pytest.raises(InputError, match="at least one category"):
        Schema("s", [])
    with pytest.raises(InputError, match="duplicate category label 'a'"):
        Schema("s", [ok, ok])
    with pytest.raises(InputError, match="duplicate variable/threshold name 'v'"):
        Schema("s", [ok], [Variable("v", "true")], [Threshold("v", value=1)])
    with pytest.raises(InputError, match="weight of category 'w' must be a number"):
        Category("w", "true", "1")
    with pytest.raises(InputError, match="must be finite"):
        Category("w", "true", float("nan"))
    with pytest.raises(InputError, match="variable name must be a name"):
        Variable("not", "true")
    with pytest.raises(InputError, match="variable name must be a name"):
        Variable("2x", "true")
    with pytest.raises(InputError, match="at most 256 categories"):
        Schema("s", [Category(f"c{i}", "true", 0) for i in range(257)])
    with pytest.raises(InputError, match="must be a list"):
        Schema("s", "abc")
    with pytest.raises(InputError, match="one value per category"):
        Schema("s", [ok]).with_weights([1, 2])
    assert Schema("s", [ok]).with_weights([5]).weights.tolist() == [5.0]
