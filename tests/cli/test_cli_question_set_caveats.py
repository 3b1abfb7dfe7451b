"""The question-set caveats the leaderboard reports travel with ``tasks``, ``ranks`` and ``publish`` (QA: a CI job
posted a link, and a combined score, over two groups of models that share no question, with empty notes)."""

from __future__ import annotations

import json

from scorio_core.cli import main


def _disjoint(tmp_path, tasks=("t1",)):
    # alpha, beta answer q0-q4; gamma, delta answer q5-q9 (no shared question); N = 2
    rows = ["model,task,question_id,trial,is_correct"]
    for task in tasks:
        for i, model in enumerate(("alpha", "beta", "gamma", "delta")):
            for q in range(5):
                for t in range(2):
                    rows.append(f"{model},{task},q{q + 5 * (i >= 2)},{t},{int((q + t + i) % 3 == 0)}")
    path = tmp_path / "disjoint.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def _run(capsys, *argv) -> dict:
    assert main([*argv, "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_tasks_carries_each_tasks_question_set_notes(tmp_path, capsys):
    out = _run(capsys, "tasks", str(_disjoint(tmp_path, ("t1", "t2"))))
    codes = sorted((n["task"], n["code"]) for n in out["notes"])
    assert codes == [("t1", "disconnected_groups"), ("t1", "unequal_question_sets"),
                     ("t2", "disconnected_groups"), ("t2", "unequal_question_sets")]
    (groups,) = [n for n in out["notes"] if n["task"] == "t1" and n["code"] == "disconnected_groups"]
    assert sorted(map(sorted, groups["groups"])) == [["alpha", "beta"], ["delta", "gamma"]]
    board = _run(capsys, "leaderboard", str(_disjoint(tmp_path, ("t1", "t2"))), "--task", "t1")
    (said,) = [n for n in board["notes"] if n["code"] == "unequal_question_sets"]
    (same,) = [n for n in out["notes"] if n["task"] == "t1" and n["code"] == "unequal_question_sets"]
    assert same["finding"] == said["finding"]  # worded as the leaderboard words it


def test_ranks_names_disconnected_groups(tmp_path, capsys):
    out = _run(capsys, "ranks", str(_disjoint(tmp_path)), "--draws", "200")
    assert {"unequal_question_sets", "disconnected_groups"} <= {n["code"] for n in out["notes"]}


def test_publish_returns_the_links_caveats(tmp_path, capsys):
    out = _run(capsys, "publish", str(_disjoint(tmp_path)), "--workspace", str(tmp_path / "ws"))
    codes = [n["code"] for n in out["analysis_notes"]]
    assert codes[:2] == ["unequal_question_sets", "disconnected_groups"]
    assert all(n["task"] == "t1" for n in out["analysis_notes"])
    assert out["notes"] == []
    # lead QA: every caveat the link's leaderboard shows (30 of 300 models absent from the linked task were not said)
    board = _run(capsys, "leaderboard", str(_disjoint(tmp_path)), "--task", "t1")
    assert codes == [n["code"] for n in board["notes"]]
    assert [n.get("finding") for n in out["analysis_notes"]] == [n.get("finding") for n in board["notes"]]


def test_publish_names_the_models_absent_from_the_linked_task(tmp_path, capsys):
    path = tmp_path / "two_tasks.csv"
    path.write_text("model,task,question_id,trial,is_correct\n" + "".join(
        f"{m},{t},q{q},{r},{(q + r + len(m)) % 2}\n" for m in ("a", "b", "c") for t in ("t1", "t2") for q in range(4)
        for r in range(2) if not (m == "c" and t == "t1")))
    out = _run(capsys, "publish", str(path), "--workspace", str(tmp_path / "ws"), "--task", "t1")
    (absent,) = [n for n in out["analysis_notes"] if n["code"] == "absent_from_task"]
    assert absent["models"] == ["c"] and absent["task"] == "t1"


def test_no_caveat_when_every_model_answered_every_question(tmp_path, capsys):
    path = tmp_path / "full.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{(q + t) % 2}\n" for m in ("a", "b") for q in range(4) for t in range(2)))
    assert _run(capsys, "tasks", str(path))["notes"] == []
    caveats = _run(capsys, "publish", str(path), "--workspace", str(tmp_path / "ws"))["analysis_notes"]
    assert [n["code"] for n in caveats] == [n["code"] for n in _run(capsys, "leaderboard", str(path))["notes"]]
    assert not {"unequal_question_sets", "disconnected_groups"} & {n["code"] for n in caveats}


def test_ranks_suggests_what_works_when_no_question_is_common(tmp_path, capsys):
    """Statistical QA: the note suggested `leaderboard --question-set common` (an error there: none common) and
    `ranks --intersect-questions` said "the data has 0 tasks ()"."""
    path = _disjoint(tmp_path)
    out = _run(capsys, "ranks", str(path), "--draws", "200")
    (unequal,) = [n for n in out["notes"] if n["code"] == "unequal_question_sets"]
    assert unequal["message"].endswith("No question was answered by every model.")
    assert main(["ranks", str(path), "--intersect-questions"]) == 2
    err = capsys.readouterr().err
    assert "no attempt is left after the data-quality choices: intersect_questions: kept 0 of" in err
    assert "0 tasks" not in err
