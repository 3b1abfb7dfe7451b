"""QA (leaderboard maintainer): graded scores ranked with partial credit by a rubric on the score, and publish
reads folders as every command does."""

from __future__ import annotations

import json

import pytest

from scorio_core.cli import main
from scorio_core.report.notes import note_messages

RUBRIC = {"format": "scorio-rubric", "version": 1, "name": "Half credit", "categories": [
    {"label": "wrong", "condition": "score < 0.25", "weight": 0},
    {"label": "partial", "condition": "score >= 0.25 and score < 0.75", "weight": 0.5},
    {"label": "right", "condition": "score >= 0.75", "weight": 1}]}
SCORES = {"a": [1.0, 0.5, 0.5, 1.0, 0.0, 0.5], "b": [0.0, 0.5, 0.0, 0.0, 1.0, 0.0]}  # per model: q0 t0, q0 t1, q1 ...


@pytest.fixture
def graded(tmp_path):
    lines = ["model,task,question_id,trial,score"]
    for model, scores in SCORES.items():
        lines += [f"{model},g,q{i // 2},{i % 2},{s}" for i, s in enumerate(scores)]
    (tmp_path / "scores.csv").write_text("\n".join(lines) + "\n")
    (tmp_path / "rubric.json").write_text(json.dumps(RUBRIC))
    return tmp_path


def _run(capsys, *args):
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_rubric_on_the_score_ranks_graded_scores(graded, capsys):
    status, out, _ = _run(capsys, "leaderboard", str(graded / "scores.csv"), "--schema", str(graded / "rubric.json"),
                          "--output", "json")
    assert status == 0  # was exit 2: "non-binary outcome ... choose a threshold"
    doc = json.loads(out)
    avg = {r["model"]: r["avg"] for r in doc["rows"]}
    assert avg == pytest.approx({"a": 3.5 / 6, "b": 1.5 / 6})  # hand: the rubric's weights are the scores here
    assert all(r["pass_at_k"] is None for r in doc["rows"])  # never Pass@k on the 0/1 attempts alone
    note = next(n for n in doc["notes"] if n["code"] == "graded_by_rubric")
    assert note["message"].startswith("4 attempts have a graded score") and "nothing is binarized" in note["message"]
    status, _, err = _run(capsys, "leaderboard", str(graded / "scores.csv"), "--schema", str(graded / "rubric.json"),
                          "--metric", "pass@k")
    assert status == 2 and "Pass@k needs binary correctness" in err


def test_graded_scores_without_a_fitting_rubric_say_what_to_do(graded, capsys):
    status, _, err = _run(capsys, "leaderboard", str(graded / "scores.csv"))
    assert status == 2 and "--binarize-threshold 0.5" in err and "a rubric whose categories read the score" in err
    narrow = {**RUBRIC, "categories": RUBRIC["categories"][::2]}  # no category for 0.5
    (graded / "narrow.json").write_text(json.dumps(narrow))
    status, _, err = _run(capsys, "leaderboard", str(graded / "scores.csv"), "--schema", str(graded / "narrow.json"))
    assert status == 2 and "places 4 of the 4 attempts with a graded score in no category" in err
    assert "model 'a', task 'g', question 'q0', score 0.5" in err
    status, _, err = _run(capsys, "leaderboard", str(graded / "scores.csv"), "--schema", "Format Aware")
    assert status == 2 and "does not read the score" in err
    status, out, _ = _run(capsys, "leaderboard", str(graded / "scores.csv"), "--binarize-threshold", "0.5",
                          "--output", "json")
    assert status == 0 and {r["model"]: r["avg"] for r in json.loads(out)["rows"]} == pytest.approx({"a": 2 / 6, "b": 1 / 6})


def test_publish_accepts_a_folder(graded, capsys):
    (graded / "sub").mkdir()
    (graded / "sub" / "more.csv").write_text("model,task,question_id,trial,is_correct\nc,g,q0,0,1\nc,g,q1,0,0\n")
    folder = ["publish", str(graded / "sub"), "--workspace", str(graded / "ws"), "--name", "x", "--output", "json"]
    status, out, err = _run(capsys, *folder)
    assert status == 0, err  # was: "is a folder; give the files"
    files = ["publish", str(graded / "sub" / "more.csv"), "--workspace", str(graded / "ws"), "--output", "json"]
    status, again, _ = _run(capsys, *files)
    assert status == 0 and json.loads(again)["dataset_id"] == json.loads(out)["dataset_id"]  # the same files
    (graded / "sub2").mkdir()
    (graded / "sub2" / "more.csv").write_text("model,task,question_id,trial,is_correct\nd,g,q0,0,1\n")
    status, _, err = _run(capsys, "publish", str(graded / "sub"), str(graded / "sub2"), "--workspace", str(graded / "ws"))
    assert status == 2 and "two files are named 'more.csv'" in err


def test_publish_scores_graded_scores_with_the_rubric(graded, capsys):
    status, out, err = _run(capsys, "publish", str(graded / "scores.csv"), "--schema", str(graded / "rubric.json"),
                            "--workspace", str(graded / "ws"), "--output", "json")
    assert status == 0, err
    assert any("rubric 'Half credit' scores them" in n for n in note_messages(json.loads(out)["notes"]))


def test_score_values_gives_each_attempt_its_score(graded, capsys):
    args = ("leaderboard", str(graded / "scores.csv"), "--output", "json")
    status, out, _ = _run(capsys, *args, "--schema", "score-values")
    assert status == 0
    doc = json.loads(out)
    avg = {r["model"]: r["avg"] for r in doc["rows"]}
    assert avg == pytest.approx({m: sum(s) / len(s) for m, s in SCORES.items()})  # hand: the mean score
    assert doc["settings"]["schema"] == "Score values (partial credit: weight = score)"
    assert all(r["pass_at_k"] is None for r in doc["rows"])
    assert any(n["code"] == "graded_by_rubric" for n in doc["notes"])
    # the same categories and weights as the hand-written Half credit rubric: the same Bayes@N, to the last digit
    _, half, _ = _run(capsys, *args, "--schema", str(graded / "rubric.json"))
    pick = ("model", "mu", "sigma", "lo", "hi", "rank")
    assert [{k: r[k] for k in pick} for r in doc["rows"]] == [{k: r[k] for k in pick} for r in json.loads(half)["rows"]]
    status, out, _ = _run(capsys, "rubric", str(graded / "scores.csv"), "--schema", "Score_Values", "--output", "json")
    assert status == 0 and "score 0.5" in out
    # the rubric scores the graded attempts: said as such, not "choose a threshold" (a Binary rubric still says it)
    assert [n["code"] for n in json.loads(out)["notes"]] == ["graded_by_rubric"]
    _, out, _ = _run(capsys, "rubric", str(graded / "scores.csv"), "--schema", "Binary correctness", "--output", "json")
    assert [n["code"] for n in json.loads(out)["notes"]][:1] == ["blocking"]
    # built from the rows' scores: never the SQL engines' category counts (auto keeps pandas, as for a large file)
    status, _, err = _run(capsys, *args, "--schema", "score-values", "--engine", "duckdb")
    assert status == 2 and "needs attempt rows: use --engine pandas" in err


def test_score_values_refuses_a_continuous_score_and_a_count_table(tmp_path, capsys):
    lines = ["model,question_id,trial,score"] + [f"m,q{i},0,{i / 20}" for i in range(20)]
    (tmp_path / "f1.csv").write_text("\n".join(lines) + "\n")
    status, _, err = _run(capsys, "leaderboard", str(tmp_path / "f1.csv"), "--schema", "score-values")
    assert status == 2 and "the score takes 20 distinct values (0 to 0.95)" in err and "--binarize-threshold" in err
    (tmp_path / "counts.csv").write_text("model,question_id,n_trials,n_correct\nm,q0,4,2\nm,q1,4,3\n")
    status, _, err = _run(capsys, "leaderboard", str(tmp_path / "counts.csv"), "--schema", "score-values")
    assert status == 2 and "a count table" in err
    status, _, err = _run(capsys, "leaderboard", str(tmp_path / "f1.csv"))
    assert status == 2 and "--schema score-values" in err  # the refusal names the route


def test_a_manifest_of_partial_credit_restores_it(graded, capsys):
    scores, manifest = str(graded / "scores.csv"), str(graded / "m.json")
    status, _, _ = _run(capsys, "export", scores, "--schema", "score-values", "--format", "manifest", "--out", manifest)
    assert status == 0
    status, out, err = _run(capsys, "export", scores, "--manifest", manifest, "--format", "csv")
    assert status == 0, err  # was exit 2: the manifest's rubric did not lift the graded block
    assert "Score values (partial credit: weight = score)" in out and "nothing is binarized" in err


def test_score_values_rounded_from_the_command_line(tmp_path, capsys):
    lines = ["model,question_id,trial,score"] + [f"m{m},q{i},0,{(i + m) / 20}" for m in range(2) for i in range(20)]
    (tmp_path / "f1.csv").write_text("\n".join(lines) + "\n")
    status, out, err = _run(capsys, "leaderboard", str(tmp_path / "f1.csv"), "--schema", "score-values:0.25",
                            "--output", "json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["settings"]["schema"] == "Score values rounded to 0.25 (partial credit: weight = rounded score)"
    status, _, err = _run(capsys, "leaderboard", str(tmp_path / "f1.csv"), "--schema", "score-values:x")
    assert status == 2 and "must be a number in (0, 1]" in err


def test_all_tasks_pooled_under_a_rubric(tmp_path, capsys):
    # `--task 'all tasks' --schema` categorized no attempt (every row "unmatched": the scope matched no task name)
    lines = ["model,task,question_id,trial,score"]
    lines += [f"{m},{t},q{i},0,{s}" for m, t, i, s in
              [("a", "x", 0, 1.0), ("a", "x", 1, 0.5), ("a", "y", 0, 0.0), ("b", "x", 0, 0.5), ("b", "x", 1, 0.5),
               ("b", "y", 0, 1.0)]]
    (tmp_path / "two.csv").write_text("\n".join(lines) + "\n")
    status, out, err = _run(capsys, "leaderboard", str(tmp_path / "two.csv"), "--task", "all tasks",
                            "--schema", "score-values", "--output", "json")
    assert status == 0, err
    avg = {r["model"]: r["avg"] for r in json.loads(out)["rows"]}
    assert avg == pytest.approx({"a": 1.5 / 3, "b": 2.0 / 3})  # hand: every question weighs the same, pooled


def test_questions_fit_graded_scores_as_fractional_successes(graded, capsys):
    status, out, err = _run(capsys, "questions", str(graded / "scores.csv"), "--schema", "score-values", "--rasch",
                            "--output", "json")
    assert status == 0, err  # was exit 2 (non-binary outcome): the Questions page fits them under the rubric
    doc = json.loads(out)
    assert doc["outcome"] == "rubric weights"
    assert any(n["code"] == "rubric_weights" for n in doc["notes"])
    rate = {q["question_id"]: q["success_rate"] for q in doc["questions"]}
    # hand: the mean score over every model's attempts at the question (a score of 0.5 is half a success)
    hand = {f"q{i}": sum(SCORES[m][2 * i + t] for m in SCORES for t in (0, 1)) / 4 for i in range(3)}
    assert rate == pytest.approx(hand)


def test_sensitivity_compares_partial_credit_with_its_threshold_reading(graded, capsys):
    path = str(graded / "scores.csv")
    status, _, err = _run(capsys, "sensitivity", path)  # the default schemata read 0/1 correctness only
    assert status == 2 and "non-binary outcome" in err and "--schemas score-values,score-threshold:0.5" in err
    status, out, _ = _run(capsys, "sensitivity", path, "--schemas", "score-values,score-threshold:0.5,Binary correctness",
                          "--prior", "uniform", "--output", "json")
    assert status == 0
    doc = json.loads(out)
    assert doc["schemas"] == ["Score values (partial credit: weight = score)", "Score > 0.5 (binarized)"]
    # hand, uniform Dirichlet prior: a question's posterior mean weight is (sum of its weights + sum of the category
    # weights) / (N + K); score values: K = 3 (0, 0.5, 1), so (scores + 1.5) / 5; threshold: (correct + 1) / 4
    mu = dict(zip(doc["models"], doc["mu"]))
    assert mu["a"] == pytest.approx([(3.0 + 3.0 + 2.0) / 15, (2 + 2 + 1) / 12], abs=1e-9)
    assert mu["b"] == pytest.approx([(2.0 + 1.5 + 2.5) / 15, (1 + 1 + 2) / 12], abs=1e-9)
    assert doc["unmatched"] == [0, 0]
    skipped = doc["skipped"][0]  # correctness alone would rank the models on no attempt: skipped, and why
    assert skipped["schema"] == "Binary correctness" and skipped["missing"] == ["0/1 outcomes of the graded attempts"]
    assert "4 attempts have a graded score and no 0/1 outcome" in skipped["reason"]
    assert [n["code"] for n in doc["notes"]].count("graded_by_rubric") == 1


@pytest.mark.parametrize("spec, message", [
    ("score-threshold:1.5", "must be a number in [0, 1)"), ("score-threshold:x", "must be a number in [0, 1)"),
    ("score-threshold,score-threshold:0.5", "two rubrics are named 'Score > 0.5 (binarized)'")])
def test_sensitivity_refuses_a_bad_threshold_reading(graded, capsys, spec, message):
    status, _, err = _run(capsys, "sensitivity", str(graded / "scores.csv"), "--schemas", spec)
    assert status == 2 and message in err


def test_sensitivity_threshold_reading_needs_a_score(tmp_path, capsys):
    (tmp_path / "binary.csv").write_text("model,question_id,is_correct\na,q0,1\nb,q0,0\n")
    status, _, err = _run(capsys, "sensitivity", str(tmp_path / "binary.csv"), "--schemas", "score-threshold")
    assert status == 2 and "no score column to threshold" in err


MIXED = ("model,task,question_id,is_correct,score\n"  # math: 0/1 outcomes; essay: graded by the score alone
         "a,math,m1,1,\na,math,m2,0,\na,essay,e1,,1\na,essay,e2,,0.5\na,essay,e3,,0\n"
         "b,math,m1,0,\nb,math,m2,0,\nb,essay,e1,,0.5\nb,essay,e2,,0\nb,essay,e3,,1\n")


def test_a_task_graded_beside_an_empty_outcome_column_gets_partial_credit(tmp_path, capsys):
    """QA: the essay task's 0 and 1 scores (is_correct empty) blocked partial credit as "no outcome"."""
    path = tmp_path / "mixed.csv"
    path.write_text(MIXED)
    status, out, _ = _run(capsys, "leaderboard", str(path), "--task", "all tasks", "--schema", "score-values",
                          "--output", "json")
    assert status == 0
    avg = {r["model"]: r["avg"] for r in json.loads(out)["rows"]}
    # hand: math by is_correct, essay by its score; avg@N is the mean over the 5 questions of each model
    assert avg == pytest.approx({"a": (1 + 0 + 1 + 0.5 + 0) / 5, "b": (0 + 0 + 0.5 + 0 + 1) / 5}, abs=1e-12)
    for engine in ("pandas", "duckdb"):  # without a choice: one message on every engine, the graded block first
        status, _, err = _run(capsys, "leaderboard", str(path), "--engine", engine)
        assert status == 2 and "6 attempts have a non-binary outcome" in err and "no outcome" not in err
