"""What a sweep over real-world shapes found (250 models at N = 1, models missing tasks, disjoint question sets,
partial credit, one model): numbers that contradict ``applicable: false``, advice that leads to a second error, notes
some commands dropped.

``compare`` on two models that share no question: the trials block says "not applicable" and holds no number a
script could read as a separation (``n_power_range`` [1, 2] and ``rho_observed`` 0.9999995 were kept beside
``applicable: false``).
"""

from __future__ import annotations

import json

import pytest

from scorio_core.cli import main


def test_no_shared_question_leaves_no_separation_numbers(tmp_path, capsys):
    path = tmp_path / "apart.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{int((q + t) % 3 != 0) if m == 'a' else int((q + t) % 4 == 0)}\n"
        for m, qs in (("a", range(0, 8)), ("b", range(8, 16))) for q in qs for t in range(3)))
    assert main(["compare", str(path), "--models", "a", "b", "--curve", "--output", "json"]) == 0
    trials = json.loads(capsys.readouterr().out)["trials_needed"]
    assert trials["applicable"] is False
    assert trials["n_needed"] is None and trials["n_power"] is None and trials["n_power_range"] == [None, None]
    assert trials["z_observed"] is None and trials["rho_observed"] is None and "curve" not in trials
    assert trials["meaning"].startswith("not applicable")


def test_question_set_advice_leaves_out_common_when_no_question_is_common(tmp_path, capsys):
    """QA sweep: the note advised "common" where no question was common, and ``--question-set common`` then failed."""
    path = tmp_path / "apart.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},0,{q % 2}\n" for m, qs in (("a", range(0, 5)), ("b", range(3, 8)), ("c", range(5, 9)))
        for q in qs))
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    (said,) = [n for n in json.loads(capsys.readouterr().out)["notes"] if n["code"] == "unequal_question_sets"]
    assert said["n_common"] == 0 and said["message"].endswith(
        "Choose the question set: own or missing-incorrect (common has no question here).")


def test_plan_with_one_model_points_to_the_width_goal(tmp_path, capsys):
    """QA sweep: one model's ``plan`` said only "needs at least 2 models", and ``--goal width`` without ``--width``
    ended in "got None."."""
    path = tmp_path / "one.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"solo,q{q},{t},{int((q + t) % 3 == 0)}\n" for q in range(20) for t in range(3)))
    assert main(["plan", str(path), "--output", "json"]) == 2
    assert "--goal width --width W" in capsys.readouterr().err
    assert main(["plan", str(path), "--goal", "width", "--output", "json"]) == 2
    err = capsys.readouterr().err
    assert "none was given" in err and "None" not in err


def test_convergence_on_one_trial_says_so_before_the_question_sets(tmp_path, capsys):
    """QA sweep: N = 1 with no question common to all models first advised a subset of models, which then failed
    on N = 1; the N = 1 limit comes first now (a subset cannot lift it)."""
    path = tmp_path / "once.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},0,{q % 2}\n" for m, qs in (("a", range(0, 5)), ("b", range(3, 8)), ("c", range(5, 9)))
        for q in qs))
    assert main(["convergence", str(path), "--output", "json"]) == 2
    err = capsys.readouterr().err
    assert "N = 1 trial per question" in err and "no question was answered" not in err


@pytest.mark.parametrize("command", [["ranks"], ["plan"], ["questions"], ["sensitivity", "--schemas", "Binary Correctness"],
                                     ["methods", "--methods", "bayes,avg"]])
def test_the_partial_credit_note_reaches_every_command(command, tmp_path, capsys):
    """QA sweep: 30% of the attempts carried 0.5 in ``score`` beside a 0/1 ``is_correct``; leaderboard, tasks, compare,
    trajectory, convergence, quality and the exports said so, ranks, plan, questions and sensitivity did not."""
    path = tmp_path / "partial.csv"
    path.write_text("model,question_id,trial,is_correct,score\n" + "".join(
        f"{m},q{q},{t},{int((q + t + i) % 3 == 0)},{[0, 0.5, 1][(q + t + i) % 3]}\n"
        for i, m in enumerate(("a", "b", "c")) for q in range(12) for t in range(3)))
    assert main([command[0], str(path), *command[1:], "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    notes = doc["status"]["notes"] if command[0] == "plan" else doc["notes"]
    assert any(n["code"] == "load" and "partial score strictly between 0 and 1" in n["message"] for n in notes), notes


def test_quality_names_models_without_rows_on_a_task(tmp_path, capsys):
    """QA sweep: every model missed 1-3 whole tasks and ``quality`` said nothing of it (missing cells counted only
    within the (task, model) pairs present)."""
    path = tmp_path / "tasks.csv"
    path.write_text("model,task,question_id,trial,is_correct\n" + "".join(
        f"{m},{t},q{q},0,{(q + i) % 2}\n" for i, m in enumerate("abc") for t in ("t1", "t2", "t3")
        if (m, t) not in {("a", "t2"), ("c", "t3"), ("c", "t1")} for q in range(4)))
    assert main(["quality", str(path), "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    report = doc.get("report", doc)
    assert report["n_absent"] == 3
    assert sorted((a["model"], a["task"]) for a in report["absent"]) == [("a", "t2"), ("c", "t1"), ("c", "t3")]
    assert main(["quality", str(path)]) == 0
    assert "models without rows on a task: 3 (model, task) pairs" in capsys.readouterr().out


def test_questions_with_one_model_falls_back_to_rasch_as_the_page(tmp_path, capsys):
    """QA sweep: ``questions`` on one model exited 2 where the Questions page falls back to Rasch (and ``--rasch``
    works); an explicit ``--model-2pl`` still refuses."""
    path = tmp_path / "one.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"solo,q{q},{t},{int((q + t) % 3 == 0)}\n" for q in range(12) for t in range(3)))
    assert main(["questions", str(path), "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (task,) = doc["tasks"]
    assert task["model"] == "rasch" and task["note"].startswith("Rasch fit: a 2PL fit needs at least 2")
    assert main(["questions", str(path), "--model-2pl", "--output", "json"]) == 2


@pytest.mark.parametrize("command", [["trajectory"], ["convergence", "--replicates", "20"]])
def test_several_tasks_offer_pooling_where_the_command_pools(command, tmp_path, capsys):
    """QA sweep: trajectory and convergence pool ``--task 'all tasks'`` but, given no task on several, said only
    "choose one with --task" (compare, ranks and sensitivity offered the pooled view)."""
    path = tmp_path / "two_tasks.csv"
    path.write_text("model,task,question_id,trial,is_correct\n" + "".join(
        f"{m},{t},q{q},{k},{int((q + k + i) % (2 + i) == 0)}\n"
        for i, m in enumerate(("a", "b", "c")) for t in ("math", "code") for q in range(12) for k in range(3)))
    assert main([command[0], str(path), *command[1:], "--output", "json"]) == 2
    assert "choose one with --task, or --task 'all tasks' to pool them." in capsys.readouterr().err
    assert main([command[0], str(path), *command[1:], "--task", "all tasks", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["task"] == "all tasks"
