"""MathArena outputs: ``outputs/<competition>/<provider>/<model>/<problem_idx>.json`` (``src/matharena/runs.py``'s
``Runs.to_dict``), each element of ``correct`` one run.

Found before (2026-12-05): an outputs folder was refused ("1.json: expected a JSON array of records")."""

from __future__ import annotations

import json

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

#: Each solver's runs (N = 4) on problems 1-3, by hand.
RUNS = {"openai/o4-mini-high": {1: [True, True, False, True], 2: [False] * 4, 3: [True] * 4},
        "google/gemini-2.5-pro": {1: [True] * 4, 2: [True, False, False, False], 3: [True, True, "TODO Grading", None]}}


def problem(idx, correct):
    n = len(correct)
    graded = [c for c in correct if isinstance(c, bool)]
    return {"idx": idx, "problem": "Find the sum of all integer bases $b>9$ ...", "gold_answer": "70",
            "source": "AIME 2025 I", "types": ["Number Theory"], "N": n,
            "cost": {"cost": 0.4, "input_tokens": 400, "output_tokens": 4000, "time": 40.0},
            "pass_at_1": sum(graded) / n, "answers": ["70"] * n, "correct": correct, "warnings": [0] * n,
            "manual_overwrite": [False] * n, "llm_annotation": [None] * n,
            "messages": [[{"role": "user", "content": "..."}, {"role": "assistant", "content": "..."}]] * n,
            "judgment": [None] * n, "history": [None] * n,
            "detailed_costs": [{"cost": 0.1, "input_tokens": 100, "output_tokens": 1000, "time": 10.0}] * n}


def write_outputs(base, runs=RUNS, comp="aime/aime_2025"):
    for solver, problems in runs.items():
        folder = base / "outputs" / comp / solver
        folder.mkdir(parents=True)
        for idx, correct in problems.items():
            (folder / f"{idx}.json").write_text(json.dumps(problem(idx, correct), indent=4))
    return base / "outputs"


def test_an_outputs_folder_is_one_attempt_per_run(tmp_path):
    ds = io.load([str(write_outputs(tmp_path))])
    assert {s.format for s in ds.sources} == {"matharena"} and len(ds.sources) == 2
    t = ds.attempts.astype({"model": str, "task": str, "question_id": str}).sort_values(["model", "question_id", "trial"])
    assert set(t["task"]) == {"aime_2025"}
    for solver, problems in RUNS.items():
        got = t[t.model == solver]
        assert got["question_id"].tolist() == [str(q) for q in problems for _ in range(4)]
        assert got["trial"].tolist() == [0, 1, 2, 3] * 3
        want = [float(c) if isinstance(c, bool) else float("nan") for q in problems.values() for c in q]
        assert [str(x) for x in got["is_correct"]] == [str(x) for x in want]
    assert ds.report.n_missing_outcomes == 2  # the run not graded yet and the null one
    assert any("1 run not graded yet (MathArena's 'TODO Grading')" in n for n in ds.report.notes)
    assert float(ds.attempts["cost"].sum()) == pytest.approx(2.4)  # 24 runs x 0.1 USD


def test_the_cli_by_hand(tmp_path, capsys):
    out = write_outputs(tmp_path, {"openai/o4-mini-high": RUNS["openai/o4-mini-high"]})
    assert main(["leaderboard", str(out), "--prior", "uniform", "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    # uniform prior: per problem (c + 1) / (4 + 2) = 4/6, 1/6, 5/6 -> mean 10/18
    assert [(r["model"], r["task"]) for r in rows] == [("openai/o4-mini-high", "aime_2025")]
    assert rows[0]["estimate"] == pytest.approx(10 / 18, abs=1e-12)


def test_folders_can_be_named_otherwise(tmp_path):
    out = write_outputs(tmp_path, {"o3": {1: [True, False]}}, comp="hmmt")  # a solver one folder deep
    ds = io.load([str(out)], mapping={"model": "@folder"})
    assert ds.attempts["model"].astype(str).unique().tolist() == ["o3"]
    with pytest.raises(InputError, match="fixed fields"):
        io.load([str(out)], mapping={"question_id": "problem"})


def test_an_upload_names_no_solver(tmp_path):
    data = json.dumps(problem(1, [True, False])).encode()
    with pytest.raises(InputError, match="names no model.*Upload a folder"):
        io.load([("1.json", data)])


def test_a_grading_that_is_not_an_outcome_is_refused(tmp_path):
    out = write_outputs(tmp_path, {"a/b": {1: [True, {"score": 1}]}})
    with pytest.raises(InputError, match="grading must be true/false"):
        io.load([str(out)])
