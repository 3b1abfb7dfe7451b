"""Model names that differ only in case or spaces stay different models, and the quality report and the leaderboard
say so (QA: an export showed two rows 'n1-0' at ranks 1 and 5 without a word)."""

from __future__ import annotations

import json

from scorio_core import io
from scorio_core.cli import main
from scorio_core.io.quality.names import near_duplicate_models


def test_near_duplicates_by_hand():
    assert near_duplicate_models(["a", "b", "c"]) == []
    assert near_duplicate_models([]) == [] and near_duplicate_models(["a"]) == []
    (note,) = near_duplicate_models(["gpt-4o", "GPT-4o", "gpt-4o ", "claude", " Claude", "x  y", "x y", "z"])
    assert "'gpt-4o', 'GPT-4o', 'gpt-4o '" in note and "'claude', ' Claude'" in note and "'x  y', 'x y'" in note
    assert "'z'" not in note and "str.strip()" in note
    many = near_duplicate_models([f"m{i}{s}" for i in range(8) for s in ("", " ")])
    assert "and 3 more groups" in many[0]


def test_quality_report_and_leaderboard_say_it(tmp_path, capsys):
    path = tmp_path / "names.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(
        f"{m},q{q},{t},{(q + t + len(m)) % 2}\n" for m in ("n1-0", "N1-0", '"n1-0 "') for q in range(4)
        for t in range(2)))
    report = io.load([str(path)]).report
    assert len(report.models) == 3  # kept apart, as in the data
    assert any("differ only in letter case or spaces" in n for n in report.notes)
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    (similar,) = [n for n in notes if n["code"] == "similar_model_names"]
    assert "'n1-0 '" in similar["message"]


def test_task_names_differing_in_case_are_two_tasks_and_said(tmp_path):
    path = tmp_path / "tasks.csv"  # one harness writes GSM8K, another gsm8k: each task has half the models
    path.write_text("model,task,question_id,n_trials,n_correct\n" + "".join(
        f"m{m},{'GSM8K' if m < 2 else 'gsm8k'},q{q},4,{(q + m) % 5}\n" for m in range(4) for q in range(6)))
    report = io.load([str(path)]).report
    assert set(report.tasks) == {"GSM8K", "gsm8k"}  # kept apart, as in the data
    (note,) = [n for n in report.notes if n.startswith("Task names")]
    assert "kept as different tasks: 'GSM8K', 'gsm8k'" in note and "df['task'] = df['task'].str.strip()" in note
    assert not [n for n in report.notes if n.startswith("Model names")]


def test_every_engine_says_it(tmp_path, capsys):
    """The notes come from the report every engine computes (before 2026-12-03 only the pandas loader named models)."""
    path = tmp_path / "case.csv"
    path.write_text("model,task,question_id,n_trials,n_correct\n" + "".join(
        f"{m},{t},q{q},4,{q}\n" for m, t in (("a", "GSM8K"), ("b", "gsm8k"), ("B ", "gsm8k")) for q in range(3)))
    for engine in ("pandas", "duckdb"):
        assert main(["quality", str(path), "--engine", engine, "--output", "json"]) == 0
        notes = json.loads(capsys.readouterr().out)["report"]["notes"]
        assert [n[:40] for n in notes] == ["Model names that differ only in letter c", "Task names that differ only in letter ca"]
