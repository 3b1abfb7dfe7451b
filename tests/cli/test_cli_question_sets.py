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
    assert any("questions not answered by every model were left out" in n["message"] for n in out["notes"])
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


def test_sampled_pairing_note_names_pairs_that_share_too_few_questions(capsys, disjoint_file):
    """a and c share no question: their paired difference falls back to the trials' variance, and the note says so."""
    assert main(["leaderboard", disjoint_file, "--scope", "questions-sampled", "--output", "json"]) == 0
    (note,) = [n for n in json.loads(capsys.readouterr().out)["notes"] if n["code"] == "rank_pairing"]
    assert note["paired"] and "1 of the 3 pairs of models shares fewer than 2 questions" in note["message"]


def test_few_common_note_counts_pairs_by_hand():
    import numpy as np

    from scorio_core.ranking.disagreement import few_common_note

    counts = np.zeros((4, 5, 2), dtype=int)
    counts[0, [0, 1]] = counts[1, [1, 2]] = counts[2, [0, 1, 2]] = counts[3, [3, 4]] = 1
    # shared: (0,1) 1, (0,2) 2, (0,3) 0, (1,2) 2, (1,3) 0, (2,3) 0 -> 4 of 6 pairs share < 2
    assert few_common_note(counts).startswith("4 of the 6 pairs of models share fewer than 2 questions")
    assert few_common_note(counts[[0, 2]]) is None
    assert few_common_note(counts[[0, 3]]).startswith("The two models share fewer than 2 questions")
    assert "too few questions were answered by every model" in few_common_note(counts)  # none shared by all four
    both = np.zeros((3, 5, 2), dtype=int)
    both[:, [0, 1]] = 1
    both[2, 2:] = 1  # every model answered q0 and q1; models 0 and 1 share only those
    assert few_common_note(both) is None


def test_compare_note_on_models_without_shared_questions_does_not_suggest_intersecting():
    import pandas as pd

    from scorio_core.ranking.disagreement import question_set_note

    apart = question_set_note(pd.DataFrame({"n_a": [4, 4, 0, 0], "n_b": [0, 0, 4, 4]}), "A", "B")
    assert "0 were answered by both" in apart and "--intersect-questions" not in apart
    assert "They share too few questions to be compared on the same ones" in apart
    shared = question_set_note(pd.DataFrame({"n_a": [4, 4, 4, 0], "n_b": [4, 4, 0, 4]}), "A", "B")
    assert shared.endswith("keep only the questions every model answered (Data page; CLI: --intersect-questions).")
