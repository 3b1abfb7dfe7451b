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
