"""IRT abilities of models that share no question are said to be ordered by the priors, not the data."""

from __future__ import annotations

import json

from scorio_core.cli import main


def _dump(tmp_path):
    # a, b answered q0-q3; c, d answered q4-q7: no question links the two pairs
    rows = ["model,question_id,trial,is_correct"]
    for m, qs, solved in (("a", range(4), {0, 1, 2}), ("b", range(4), {0}), ("c", range(4, 8), {4, 5}),
                          ("d", range(4, 8), {4})):
        rows += [f"{m},q{q},{t},{int(q in solved)}" for q in qs for t in range(2)]
    path = tmp_path / "split.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_irt_ability_and_questions_say_the_groups_are_unlinked(tmp_path, capsys):
    path = _dump(tmp_path)
    assert main(["leaderboard", path, "--method", "irt_ability", "--output", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    (note,) = [n for n in report["notes"] if n["code"] == "unlinked_groups"]
    assert note["groups"] == {"a": 1, "b": 1, "c": 2, "d": 2}  # 1-based as the leaderboard's group key
    rows = {r["model"]: r for r in report["rows"]}
    assert {m: r["group"] for m, r in rows.items()} == note["groups"]  # each row carries its group: ranks count in it
    assert [rows[m]["rank"] for m in "abcd"] == [1, 2, 1, 2]
    assert "2 groups that share no question" in note["message"] and "(a, b; c, d)" in note["message"]
    assert main(["questions", path, "--output", "json"]) == 0
    (task,) = json.loads(capsys.readouterr().out)["tasks"]
    assert task["unlinked"].startswith("The models fall into 2 groups")
    assert main(["questions", path]) == 0
    assert "note: split: The models fall into 2 groups" in capsys.readouterr().out


def test_the_text_table_shows_the_group_only_when_models_are_unlinked(tmp_path, capsys):
    assert main(["leaderboard", _dump(tmp_path), "--method", "irt_ability"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split()
    assert header[-1] == "group"
    linked = tmp_path / "linked.csv"
    linked.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{int(q < k)}\n" for m, k in (("a", 3), ("b", 1), ("c", 2)) for q in range(4) for t in range(2)))
    assert main(["leaderboard", str(linked), "--method", "irt_ability"]) == 0
    assert "group" not in capsys.readouterr().out.splitlines()[0].split()
    assert main(["leaderboard", str(linked), "--method", "irt_ability", "--output", "json"]) == 0
    assert {r["group"] for r in json.loads(capsys.readouterr().out)["rows"]} == {1}  # JSON keys are stable
