"""Unequal question sets (issue 13): noticed in JSON, and each choice gives the expected ranking."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from scorio_core.cli import main

# Two identical models on 10 questions (4 trials each); "skipper" did not answer the hardest
# question (q0: 0 of 4 for "full"). Hand calculation, avg@N:
#   own:     full = 20/40 = 0.5, skipper = 20/36 = 0.5556  -> skipper ranks first
#   common:  both 20/36 on q1..q9                            -> tie
#   missing-incorrect: skipper gets 0 of 4 on q0 = full      -> tie
CORRECT = [0, 1, 2, 3, 4, 2, 2, 2, 2, 2]


@pytest.fixture()
def counts_file(tmp_path):
    rows = [("full", f"q{i}", 4, c) for i, c in enumerate(CORRECT)]
    rows += [("skipper", f"q{i}", 4, c) for i, c in enumerate(CORRECT) if i != 0]
    path = tmp_path / "skip.csv"
    pd.DataFrame(rows, columns=["model", "question_id", "n_trials", "n_correct"]).to_csv(path, index=False)
    return str(path)


def run(capsys, path, *extra):
    assert main(["leaderboard", path, "--output", "json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_notice_lists_models_and_counts(capsys, counts_file):
    out = run(capsys, counts_file)
    notice = next(n for n in out["notes"] if n["code"] == "unequal_question_sets")
    assert notice["models"] == {"full": 10, "skipper": 9}
    assert notice["n_questions"] == 10 and notice["n_common"] == 9 and notice["question_set"] == "own"
    assert out["settings"]["question_set"] == "own"


@pytest.mark.parametrize("prior", ["uniform", "empirical-bayes"])
def test_each_choice_gives_the_expected_ranking(capsys, counts_file, prior):
    own = {r["model"]: r for r in run(capsys, counts_file, "--prior", prior)["rows"]}
    assert own["skipper"]["avg"] == pytest.approx(20 / 36) and own["full"]["avg"] == pytest.approx(0.5)
    assert own["skipper"]["rank"] == 1 and own["full"]["rank"] == 2
    common = {r["model"]: r for r in run(capsys, counts_file, "--prior", prior, "--question-set", "common")["rows"]}
    assert common["skipper"]["mu"] == pytest.approx(common["full"]["mu"], abs=1e-12)
    assert common["full"]["avg"] == pytest.approx(20 / 36) and common["full"]["n_questions"] == 9
    assert common["skipper"]["rank"] == common["full"]["rank"] == 1
    filled = {r["model"]: r for r in run(capsys, counts_file, "--prior", prior, "--question-set", "missing-incorrect")["rows"]}
    assert filled["skipper"]["avg"] == pytest.approx(0.5) and filled["skipper"]["n_questions"] == 10
    assert filled["skipper"]["mu"] == pytest.approx(filled["full"]["mu"], abs=1e-12)


def test_no_notice_when_sets_are_equal(capsys, tmp_path):
    path = tmp_path / "eq.csv"
    pd.DataFrame({"model": ["a", "a", "b", "b"], "question_id": ["q0", "q1"] * 2, "n_trials": 4,
                  "n_correct": [1, 2, 3, 4]}).to_csv(path, index=False)
    out = run(capsys, str(path))
    assert not [n for n in out["notes"] if n["code"] == "unequal_question_sets"]


@pytest.fixture()
def disjoint_file(tmp_path):
    """a answered q0-q3, b q2-q5, c q4-q7 (2 trials each): no question shared by all three.

    On the questions a and b share (q2, q3): a solves 1 of 4 trials (q2 trial 0), b solves 4 of 4."""
    rows = []
    for model, first in (("a", 0), ("b", 2), ("c", 4)):
        for q in range(first, first + 4):
            for t in range(2):
                correct = int(model == "b" or (model == "a" and q == 2 and t == 0) or (model == "c" and t == 1))
                rows.append((model, f"q{q}", t, correct))
    path = tmp_path / "disjoint.csv"
    pd.DataFrame(rows, columns=["model", "question_id", "trial", "correct"]).to_csv(path, index=False)
    return str(path)


def test_models_subset_ranks_on_the_questions_they_share(capsys, disjoint_file):
    assert main(["trajectory", disjoint_file, "--output", "json"]) == 2
    assert re.search(r"no question was answered by all 3 selected models .*--models A B", capsys.readouterr().err)
    assert main(["trajectory", disjoint_file, "--models", "b", "a", "--prior", "uniform", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["models"] == ["b", "a"]  # the order given
    # after 1 trial: b 2/2, a 1/2 on q2, q3; after 2: b 4/4, a 1/4 (uniform prior: ranks as avg@n)
    assert out["ranks"] == [[1, 1], [2, 2]] and out["gold_ranks"] == [1, 2]
    assert any("questions not answered by every model were left out" in n for n in out["notes"])
    assert main(["convergence", disjoint_file, "--models", "a", "b", "--replicates", "20", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["models"] == ["a", "b"]


@pytest.mark.parametrize("argv, message", [
    (["--models", "a", "zz"], "no model named 'zz'"),
    (["--models", "a", "a"], "at least 2 models"),
    (["--models", "a", "b", "--engine", "duckdb"], "does not apply --models"),
])
def test_models_subset_errors(capsys, disjoint_file, argv, message):
    assert main(["trajectory", disjoint_file, *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["md", "latex", "html"])
def test_every_export_says_the_models_answered_different_questions(capsys, counts_file, fmt):
    # a report or a paper's table must not rank "skipper" first without saying it skipped the hardest question
    assert main(["export", counts_file, "--format", fmt]) == 0
    text = re.sub(r"\s+", " ", capsys.readouterr().out)
    assert "1 of 2 models answered fewer than all 10 questions (9 answered by every model); each model is scored on " \
           "its own questions, so a model that skipped hard questions can rank higher." in text.replace("\\", "")
    assert "Choose the question set" not in text  # advice to the analyst stays in the app and the CLI's notes
    assert main(["export", counts_file, "--format", fmt, "--question-set", "common"]) == 0
    assert "only the 9 questions every model answered are used" in re.sub(r"\s+", " ", capsys.readouterr().out)
    if fmt == "html":
        assert main(["export", counts_file, "--format", "html"]) == 0
        assert "Question set" in capsys.readouterr().out
