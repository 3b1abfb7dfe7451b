"""One task the ranking methods cannot rank leaves the other tasks ranked (helper QA, 2026-12-02: `methods` and
`leaderboard --method borda` exited 2 with nothing for the task that ranks fine with --task)."""

from __future__ import annotations

import json

import pytest

from scorio_core.cli import main


@pytest.fixture
def two_tasks(tmp_path):
    rows = ["model,task,question_id,trial,is_correct"]
    for m, skill in (("a", 0), ("b", 1), ("c", 2)):  # task t: every model on every question
        rows += [f"{m},t,q{q},{n},{int((q + n) % 3 < skill)}" for q in range(6) for n in range(2)]
    rows += [f"a,u,p{q},0,1" for q in range(3)] + [f"b,u,p{q},0,0" for q in range(3, 6)]  # u: disjoint halves
    path = tmp_path / "two.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def _json(capsys, *argv):
    assert main([*argv, "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_methods_ranks_the_rankable_task_and_names_the_other(two_tasks, capsys):
    out = _json(capsys, "methods", two_tasks, "--methods", "bayes,avg,borda")
    assert [t["task"] for t in out["tasks"]] == ["t"]
    (left,) = out["skipped_tasks"]
    assert left["task"] == "u" and left["reason"].startswith("no question was answered by every model")
    assert main(["methods", two_tasks, "--task", "u", "--output", "json"]) == 2  # alone: still an error
    capsys.readouterr()


def test_leaderboard_method_ranks_the_rankable_task_and_notes_the_other(two_tasks, capsys):
    out = _json(capsys, "leaderboard", two_tasks, "--method", "borda")
    assert {r["task"] for r in out["rows"]} == {"t"} and len(out["rows"]) == 3
    (note,) = [n for n in out["notes"] if isinstance(n, dict) and n["code"] == "task_left_out"]
    assert note["task"] == "u" and note["message"].startswith("u: left out: no question was answered")
    assert main(["leaderboard", two_tasks, "--method", "borda", "--task", "u", "--output", "json"]) == 2
    capsys.readouterr()
