"""What the CLI says where it matters (QA: engine parity and a CI maintainer on unseen dumps, 2026-12-02).

Count tables (``--engine duckdb``, or a count-table file) lose the trial order; the methods that replay trials one by
one (Bradley-Terry, Elo, ...) then rank an order made up of correct trials first, which can even make them unable to
rank the data ("the win graph is not strongly connected"). The note said their ranks depend on that order, not that
whether they rank at all does; and it was printed with N = 1, where there is no order to lose.
"""

from __future__ import annotations

import json

from scorio_core.cli import main
from scorio_core.report.notes import note_messages


def _methods(capsys, path) -> dict:
    assert main(["methods", str(path), "--methods", "avg,bradley_terry", "--output", "json"]) == 0
    (task,) = json.loads(capsys.readouterr().out)["tasks"]
    return task


def test_the_trial_order_note_says_what_it_changes_and_only_when_there_is_an_order(tmp_path, capsys):
    counts = tmp_path / "counts.csv"
    counts.write_text("model,question_id,n_trials,n_correct\n" + "".join(
        f"{m},q{q},4,{(q * (i + 1)) % 5}\n" for i, m in enumerate("abc") for q in range(8)))
    (note,) = [n for n in note_messages(_methods(capsys, counts)["notes"]) if n.startswith("Counts only")]
    assert "whether they can rank the data at all, depend on that order" in note and "Bradley-Terry" in note
    one = tmp_path / "one.csv"
    one.write_text("model,question_id,n_trials,n_correct\n" + "".join(
        f"{m},q{q},1,{(q + i) % 2}\n" for i, m in enumerate("abc") for q in range(8)))
    assert not [n for n in note_messages(_methods(capsys, one)["notes"]) if n.startswith("Counts only")]


def test_prior_not_fitted_names_the_cause_the_rows_share(tmp_path, capsys):
    # QA (CLI maintainer): on N = 2 data with two questions the note listed the whole rule, "N = 1" first
    path = tmp_path / "two.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{int((q + t + i) % 3 == 0)}\n" for i, m in enumerate("ab") for q in range(2) for t in range(2)))
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    (note,) = [n for n in json.loads(capsys.readouterr().out)["notes"] if n["code"] == "prior_not_fitted"]
    assert "(too few questions (2 questions; fewer than 10 questions tried twice or more)" in note["message"]
    assert "N = 1" not in note["message"]


def test_prior_not_fitted_on_every_row_says_all_models(tmp_path, capsys):
    # QA 2026-12-03 (an Open LLM Leaderboard-like upload, N = 1): "not identified for m0, m1, m2, m3 and 146 more"
    # read like a subset of the 150; more than five names that are every row read "all n models"
    path = tmp_path / "n1.csv"
    path.write_text("model,question_id,is_correct\n" + "".join(
        f"m{i},q{q},{int((q + i) % 3 == 0)}\n" for i in range(7) for q in range(12)))
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    (note,) = [n for n in json.loads(capsys.readouterr().out)["notes"] if n["code"] == "prior_not_fitted"]
    assert "is not identified for all 7 models (N = 1: one trial per question)" in note["message"]
    assert len(note["models"]) == 7


def test_one_attempt_without_an_outcome_is_one_attempt():
    import numpy as np
    import pandas as pd
    import pytest

    from scorio_core.errors import InputError
    from scorio_core.io._dataset import attempts_to_counts

    rows = pd.DataFrame({"model": ["a", "a"], "task": "t", "question_id": ["q1", "q2"], "is_correct": [1.0, np.nan]})
    with pytest.raises(InputError, match="^1 attempt has no binary outcome, so it cannot be counted; "):
        attempts_to_counts(rows)
    with pytest.raises(InputError, match="^2 attempts have no binary outcome, so they cannot"):
        attempts_to_counts(rows.assign(is_correct=np.nan))
