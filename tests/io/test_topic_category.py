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
