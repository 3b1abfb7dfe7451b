"""Drill-down from a question to its attempts (issue 16)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.leaderboard.table import ALL_TASKS, Categorization
from scorio_core.leaderboard.drilldown import question_attempts
from scorio_core.errors import InputError

CSV = (
    "model,task,question_id,trial,is_correct,answer,tokens\n"
    "b,t,q1,1,0,<b>42</b>,10\n"
    "a,t,q1,0,1,=HYPERLINK(\"x\"),12\n"
    "a,t,q1,1,0,7,\n"
    "b,t,q1,0,1,6,9\n"
    "a,t,q2,0,1,1,3\n"
    "a,u,q1,0,0,5,4\n"
)


@pytest.fixture
def data():
    return io.load([("d.csv", CSV.encode())])


def test_attempts_in_model_and_trial_order_with_fields_as_loaded(data):
    out = question_attempts(data, "t", "q1", ["b", "a"])
    assert out["model"].tolist() == ["b", "b", "a", "a"] and out["trial"].tolist() == [0, 1, 0, 1]
    assert out["answer"].tolist() == ["6", "<b>42</b>", '=HYPERLINK("x")', "7"]  # text kept as text, not rendered
    assert np.isnan(out["tokens"].iloc[3])  # missing stays missing
    assert list(out.columns[:3]) == ["model", "trial", "is_correct"] and "task" not in out.columns


def test_rubric_category_and_weight(data):
    rows = len(data.attempts)
    codes = np.full(rows, -1, dtype=np.int16)
    mask = ((data.attempts["task"] == "t") & (data.attempts["question_id"] == "q1")).to_numpy()
    codes[mask] = np.where(data.attempts.loc[mask, "is_correct"].to_numpy() == 1, 1, 0)
    codes[np.flatnonzero(mask)[0]] = -1
    cat = Categorization(codes, np.array([0.0, 1.0]), ("wrong", "right"))
    out = question_attempts(data, "t", "q1", categorization=cat)
    assert "(no category)" in set(out["category"]) and set(out["category"]) <= {"wrong", "right", "(no category)"}
    assert out.loc[out["category"] == "right", "weight"].eq(1.0).all()
    assert out.loc[out["category"] == "(no category)", "weight"].isna().all()


def test_pooled_tasks_and_errors(data):
    assert question_attempts(data, ALL_TASKS, "u/q1")["model"].tolist() == ["a"]
    with pytest.raises(InputError, match="'task/question'"):
        question_attempts(data, ALL_TASKS, "q1")
    with pytest.raises(InputError, match="no attempts by any model"):
        question_attempts(data, "t", "q9")
    with pytest.raises(InputError, match=r"model 'nobody' is not in the data; models here: a"):  # not "no attempts"
        question_attempts(data, ALL_TASKS, "u/q1", models=["a", "nobody"])
    counts = io.load([("c.csv", b"model,question_id,n_trials,n_correct\na,q1,4,2\n")])
    with pytest.raises(InputError, match="counts only"):
        question_attempts(counts, counts.counts["task"].iloc[0], "q1")


def test_cli_attempts_json(tmp_path, capsys):
    import json

    from scorio_core.cli import main

    path = tmp_path / "d.csv"
    path.write_text(CSV)
    assert main(["attempts", str(path), "--task", "t", "--question", "q1", "--models", "a", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["models"] == ["a"] and [r["trial"] for r in out["rows"]] == [0, 1]
    assert out["rows"][1]["tokens"] is None and out["rows"][0]["answer"] == '=HYPERLINK("x")'
    assert main(["attempts", str(path), "--task", "t", "--question", "nope"]) == 2
    assert "no attempts" in capsys.readouterr().err
    # a requested model of the data without an attempt on this question is named, not dropped silently (helper QA)
    with_b = tmp_path / "e.csv"
    with_b.write_text("model,task,question_id,trial,is_correct\na,t,q1,0,1\nb,t,q2,0,0\n")
    assert main(["attempts", str(with_b), "--question", "q1", "--models", "a", "b", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["models"] == ["a"] and out["notes"] == [{"code": "no_attempt", "models": ["b"], "message": "b has no "
                                                        "attempt on question 'q1' (answered other questions of task 't')."}]


def test_pooled_question_names_split_at_the_longest_task_name():
    """Task names hold '/' (mmlu/algebra): 'mmlu/algebra/q0' is question q0 of task mmlu/algebra, whichever other task
    (mmlu) starts it; question ids with '/' keep theirs (before: split at the first '/', so no attempts were found)."""
    from scorio_core.leaderboard.task_outcomes import split_pooled_question

    csv = ("model,task,question_id,trial,is_correct\n"
           "a,mmlu/algebra,q0,0,1\na,mmlu/algebra,q0,1,0\na,mmlu,algebra/q1,0,0\na,gsm8k,x/y,0,1\n")
    data = io.load([("slash.csv", csv.encode())])
    assert question_attempts(data, ALL_TASKS, "mmlu/algebra/q0")["is_correct"].tolist() == [1.0, 0.0]
    assert question_attempts(data, ALL_TASKS, "gsm8k/x/y")["is_correct"].tolist() == [1.0]
    assert question_attempts(data, ALL_TASKS, "mmlu/algebra/q1")["is_correct"].tolist() == [0.0]  # mmlu's own
    assert split_pooled_question(["mmlu", "mmlu/algebra"], "mmlu/algebra/q0") == ("mmlu/algebra", "q0")
    assert split_pooled_question(["mmlu"], "mmlu/algebra/q0") == ("mmlu", "algebra/q0")
    with pytest.raises(InputError, match="starts with no task of the data"):
        split_pooled_question(["mmlu"], "gsm8k/q1")


def test_a_pooled_name_that_two_tasks_hold_is_refused_not_guessed():
    # helper QA: task 'math/algebra' question 'q00' beside task 'math' question 'algebra/q00': the drill-down showed
    # the first silently (compare refused the same data); both splits name a question, so it asks for the task
    text = ("model,task,question_id,trial,is_correct\na,math/algebra,q00,0,1\nb,math/algebra,q00,0,0\n"
            "a,math,algebra/q00,0,0\nb,math,algebra/q00,0,1\na,math,q1,0,1\nb,math,q1,0,0\n")
    ds = io.load([("amb.csv", text.encode())])
    with pytest.raises(InputError, match="'math/algebra/q00' names two questions: question 'q00' of task "
                                         "'math/algebra' and question 'algebra/q00' of task 'math'"):
        question_attempts(ds, ALL_TASKS, "math/algebra/q00")
    assert question_attempts(ds, ALL_TASKS, "math/q1")["is_correct"].tolist() == [1.0, 0.0]
    assert question_attempts(ds, "math", "algebra/q00")["is_correct"].tolist() == [0.0, 1.0]
