"""A model that a data-quality choice leaves without a row is named, never dropped from a leaderboard silently."""

from __future__ import annotations

import json

from scorio_core.cli import main

# c's two attempts have no outcome: --missing-outcomes drop removes c entirely
DUMP = "model,question_id,trial,correct\na,q1,0,1\na,q2,0,0\nb,q1,0,0\nb,q2,0,1\nc,q1,0,\nc,q2,0,\n"


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out


def _ranked_and_note(capsys, path, code: str, *argv):
    """The models ``leaderboard --output json`` ranks and its one note of ``code``."""
    status, out = _run(capsys, "leaderboard", path, *argv, "--output", "json")
    report = json.loads(out)
    assert status == 0
    (note,) = [n for n in report["notes"] if n["code"] == code]
    return {r["model"] for r in report["rows"]}, note


def test_leaderboard_json_and_text_name_the_emptied_model(tmp_path, capsys):
    path = tmp_path / "runs.csv"
    path.write_text(DUMP)
    ranked, note = _ranked_and_note(capsys, path, "emptied_by_choice", "--missing-outcomes", "drop")
    assert ranked == {"a", "b"}
    assert note["models"] == {"c": "missing_outcomes=drop"} and note["task"] == "runs"
    assert note["finding"] == ("1 model is not ranked: a data-quality choice removed every row it had on this task: "
                               "c (missing_outcomes=drop).")
    code, out = _run(capsys, "leaderboard", path, "--missing-outcomes", "drop")
    assert "note: runs: 1 model is not ranked: a data-quality choice removed every row" in out
    # counted as incorrect instead, c is ranked (last): the note says which choice filled which model's attempts
    code, out = _run(capsys, "leaderboard", path, "--missing-outcomes", "incorrect", "--output", "json")
    report = json.loads(out)
    assert {r["model"] for r in report["rows"]} == {"a", "b", "c"}
    assert not [n for n in report["notes"] if n["code"] == "emptied_by_choice"]
    line = "missing_outcomes=incorrect: 2 attempts without an outcome counted as incorrect (c on runs: 2)."
    assert report["notes"][0] == {"code": "data_choices", "choices": [line], "finding": f"Data-quality choices applied "
                                  f"before scoring: {line}", "message": f"Data-quality choices applied before scoring: {line}"}
    code, out = _run(capsys, "leaderboard", path, "--missing-outcomes", "incorrect")
    assert out.count("note: Data-quality choices applied before scoring: missing_outcomes=incorrect") == 1
    code, md = _run(capsys, "export", path, "--missing-outcomes", "incorrect", "--format", "md")
    assert "counted as incorrect (c on runs: 2)" in md


def test_exports_carry_the_finding(tmp_path, capsys):
    path = tmp_path / "runs.csv"
    path.write_text(DUMP)
    code, md = _run(capsys, "export", path, "--missing-outcomes", "drop", "--format", "md")
    assert code == 0 and "1 model is not ranked: a data-quality choice removed every row it had on this task" in md
    code, html = _run(capsys, "export", path, "--missing-outcomes", "drop", "--format", "html")
    assert code == 0 and "1 model is not ranked" in html


# a and b ran math; a and c ran code: on each task one of the dataset's three models has no row
TASKS = ("model,task,question_id,trial,correct\n" + "".join(
    f"{m},{t},q{q},{i},{int((q + i + len(m)) % 3 == 0)}\n" for m, tasks in (("a", ("math", "code")), ("b", ("math",)),
                                                                         ("c", ("code",)))
    for t in tasks for q in range(4) for i in range(2)))


def test_a_model_without_the_task_is_named_not_silently_missing(tmp_path, capsys):
    path = tmp_path / "tasks.csv"
    path.write_text(TASKS)
    ranked, note = _ranked_and_note(capsys, path, "absent_from_task", "--task", "math")
    assert ranked == {"a", "b"}
    assert note["models"] == ["c"] and note["task"] == "math"
    assert note["finding"] == "1 of the dataset's 3 models has no row on this task and is not ranked here: c."
    code, out = _run(capsys, "leaderboard", path, "--task", "code")
    assert "note: code: 1 of the dataset's 3 models has no row on this task and is not ranked here: b. The Tasks " in out
    code, md = _run(capsys, "export", path, "--task", "math", "--format", "md")
    assert code == 0 and "1 of the dataset's 3 models has no row on this task and is not ranked here: c." in md
    # a dataset whose every model ran the task: no such note
    every = tmp_path / "every.csv"
    every.write_text(TASKS.replace("c,code,", "b,code,"))  # b ran code in c's place: both tasks have a and b
    code, out = _run(capsys, "leaderboard", every, "--task", "code", "--output", "json")
    assert code == 0 and not [n for n in json.loads(out)["notes"] if n["code"] == "absent_from_task"]
