"""A model left without an answered question (every question it answered excluded as flagged) is named as not
ranked, does not empty the common question set of the others, and its null ranks print as nulls, not 2.0000."""

from __future__ import annotations

import csv
import io
import json

from scorio_core.cli import main


def _dump(tmp_path):
    # a-d answered q0-q5 (their own rates) and q6, q7, which every model always solves; e answered only q6, q7
    rows = ["model,question_id,trial,is_correct"]
    for m, solved in (("a", 5), ("b", 3), ("c", 1), ("d", 4)):
        rows += [f"{m},q{q},{t},{int(q + t < solved + 1)}" for q in range(6) for t in range(4)]
    rows += [f"{m},q{q},{t},1" for m in "abcde" for q in (6, 7) for t in range(4)]
    path = tmp_path / "sat.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def _run(capsys, *argv):
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_a_model_left_without_questions_is_named_and_does_not_block_common(tmp_path, capsys):
    path = _dump(tmp_path)
    code, out = _run(capsys, "leaderboard", path, "--exclude-flagged", "saturated", "--output", "json")
    report = json.loads(out)
    assert code == 0
    codes = [n["code"] for n in report["notes"]]
    assert "not_scored" in codes and "k_above_trials" not in codes  # e has no trial at all, not "fewer than k"
    assert "unequal_question_sets" not in codes  # a-d answered all six questions left; e answered none
    (note,) = [n for n in report["notes"] if n["code"] == "not_scored"]
    assert note["models"] == ["e"] and note["message"] == "sat: 1 model has no answered question here and is not ranked: e."
    e = next(r for r in report["rows"] if r["model"] == "e")
    assert e["mu"] is None and e["rank"] is None and e["n_questions"] == 0
    # the questions every model answered: e no longer empties that set (it was "no question was answered by every model")
    code, out = _run(capsys, "leaderboard", path, "--exclude-flagged", "saturated", "--question-set", "common",
                     "--output", "json")
    assert code == 0 and {r["model"] for r in json.loads(out)["rows"] if r["rank"] is not None} == set("abcd")
    # text and CSV: ranks stay integers beside the unranked row
    code, out = _run(capsys, "leaderboard", path, "--exclude-flagged", "saturated")
    first = out.splitlines()[1].split()
    assert first[0] == "a" and first[13:15] == ["1", "1"]  # rank, rank_ci (not 1.0000)
    assert "note: sat: 1 model has no answered question here and is not ranked: e." in out
    code, out = _run(capsys, "leaderboard", path, "--exclude-flagged", "saturated", "--output", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["rank"] for r in rows] == ["1", "2", "3", "4", ""]


def test_missing_incorrect_scores_the_model_and_says_how(tmp_path, capsys):
    # the explicit choice counts e's six unanswered questions as wrong: e is ranked, so it is not "not ranked"
    code, out = _run(capsys, "leaderboard", _dump(tmp_path), "--exclude-flagged", "saturated", "--question-set",
                     "missing-incorrect", "--output", "json")
    report = json.loads(out)
    assert code == 0 and next(r for r in report["rows"] if r["model"] == "e")["rank"] == 5
    codes = {n["code"]: n for n in report["notes"]}
    assert "not_scored" not in codes
    assert codes["unequal_question_sets"]["message"].startswith(
        "sat: 1 of 5 models answered fewer than all 6 questions (0 answered by every model); a missing question counts "
        "as answered wrongly.")
