"""A ``category`` column of words beside a score (LiveBench's ``model_judgment/ground_truth_judgment.jsonl``:
``category`` = math, coding ... beside the 0/1 ``score``) is a topic kept as text, not rubric category codes; codes,
a category the user mapped, and words without any outcome column are read as before."""

from __future__ import annotations

import json

import pytest

from scorio_core import io
from scorio_core.errors import InputError


def judgments(scores, category="math") -> bytes:
    """LiveBench judgment lines (its gen_ground_truth_judgment writes question_id, task, model, score, turn, tstamp,
    category)."""
    return "".join(json.dumps({"question_id": f"q{i % 3}", "task": "AMPS_Hard", "model": f"m{i // 3}", "score": s,
                               "turn": 1, "tstamp": 1726000000.0 + i, "category": category}) + "\n"
                   for i, s in enumerate(scores)).encode()


def test_livebench_judgments_load_with_the_category_as_a_topic():
    ds = io.load([("ground_truth_judgment.jsonl", judgments([1, 0, 1, 0, 0, 1]))])
    assert ds.ready, ds.report.blocking
    a = ds.attempts.sort_values(["model", "question_id"])
    assert a["is_correct"].tolist() == [1.0, 0.0, 1.0, 0.0, 0.0, 1.0]  # the score, in file order by hand
    assert set(a["category_label"]) == {"math"} and "category" not in a.columns
    assert any("column 'category' holds words ('math'), not category codes" in n for n in ds.report.notes)
    # a partial score stays a partial score (the threshold is the user's choice), the category still a topic
    partial = io.load([("j.jsonl", judgments([1, 0.5, 1]))])
    assert not partial.ready and "category_label" in partial.attempts.columns


def test_codes_a_mapped_category_and_words_alone_read_as_before():
    lines = "".join(json.dumps({"question_id": f"q{i}", "model": "m", "category": str(c)}) + "\n"
                    for i, c in enumerate([0, 2, 1])).encode()
    codes = io.load([("c.jsonl", lines)])  # codes written as text are codes
    assert codes.attempts["category"].tolist() == [0, 2, 1]
    with pytest.raises(InputError, match="must be a whole-number category code; got 'math'"):
        io.load([("j.jsonl", judgments([1, 0]))], mapping={"category": "category"})
    words = "".join(json.dumps({"question_id": f"q{i}", "model": "m", "category": w}) + "\n"
                    for i, w in enumerate(["correct", "wrong"])).encode()
    with pytest.raises(InputError, match="category"):  # words and no outcome column: the words would be the outcome
        io.load([("w.jsonl", words)])


def test_words_without_an_outcome_say_both_readings_and_that_answers_need_grading(tmp_path):
    """Found 2026-12-05: a table of answers with a subject column (MMLU-Pro's results: question_id, answer, pred,
    category = the subject; now read by their own reader) was refused with "field 'category' must be a whole-number
    category code; got 'business'", as if the subject were an outcome code, with no word on the missing outcome."""
    path = tmp_path / "answers.csv"
    path.write_text("question_id,model,category,answer,pred\n70,m,business,A,A\n71,m,business,B,C\n72,m,law,D,D\n")
    with pytest.raises(InputError) as err:
        io.load([str(path)])
    said = str(err.value)
    assert "column 'category' holds words ('business', 'law'), not category codes, and no outcome column is found" in said
    assert "--map is_correct=category --recode LABEL=VALUE" in said
    assert "model's answers ('pred') and reference answers ('answer') but no outcome: scorio does not grade" in said
    # outcome labels in such a column: the remedy it names reads them
    labels = tmp_path / "labels.csv"
    labels.write_text("question_id,model,category\nq1,m,correct\nq2,m,wrong\nq3,m,correct\n")
    ds = io.load([str(labels)], mapping={"is_correct": "category"}, recode={"correct": 1.0, "wrong": 0.0})
    assert ds.attempts.sort_values("question_id")["is_correct"].tolist() == [1.0, 0.0, 1.0]


def test_a_table_of_answers_without_grading_is_told_so(tmp_path):
    path = tmp_path / "preds.csv"
    path.write_text("question_id,model,prediction,gold\nq1,m,A,A\nq2,m,B,C\n")
    with pytest.raises(InputError, match="no column found for required field 'is_correct'") as err:
        io.load([str(path)])
    assert "df['is_correct'] = (df['prediction'] == df['gold']).astype(int)" in str(err.value)
