"""CRUXEval scored results: ``evaluation_results/<model>_temp<T>_<input|output>.json`` (facebookresearch/cruxeval
``evaluation/evaluate_generations.py``): ``raw_scored_generations`` maps each problem to its samples' pass/fail.

Found before (2026-12-05): refused ("no column found for required field 'question_id' ... columns no field uses:
'pass_at_1', 'pass_at_5'"), the per-sample lists not read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorio_core import io
from scorio_core.cli import main

GENUINE = Path(__file__).parents[1] / "fixtures" / "formats" / "cruxeval" / "sample_scored_codellama-7b_temp0.2_output.json.gz"


def passed(k, q, i) -> bool:  # model k, problem q, sample i
    return (2 * q + i + k) % 4 == 0


def write_results(folder: Path, run: str, k: int, n_problems: int = 3, n_samples: int = 4, pass_at_1=None) -> Path:
    lists = {f"sample_{q}": [passed(k, q, i) for i in range(n_samples)] for q in range(n_problems)}
    stated = 100 * sum(sum(v) / len(v) for v in lists.values()) / n_problems if pass_at_1 is None else pass_at_1
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{run}.json"
    path.write_text(json.dumps({"raw_generations": {key: ["f(1)"] * n_samples for key in lists},
                                "raw_scored_generations": lists, "pass_at_1": stated, "pass_at_5": 100.0}))
    return path


def test_the_genuine_sample_file_gives_its_own_pass_at_1():
    ds = io.load([str(GENUINE)])
    counts = ds.to_counts()
    assert ds.report.models == ("codellama-7b (t0.2)",) and set(counts["task"].astype(str)) == {"CRUXEval-O"}
    assert len(counts) == 800 and set(counts["n_trials"]) == {10}
    # the file's own pass_at_1 is 34.2125 (CRUXEval paper, Code Llama 7B, CRUXEval-O pass@1 at T = 0.2: 34.2)
    assert counts["n_correct"].sum() / counts["n_trials"].sum() == pytest.approx(0.342125)
    assert not any("differs from the mean rate" in n for n in ds.report.notes)


def test_a_results_folder_names_model_temperature_and_mode(tmp_path):
    out = tmp_path / "evaluation_results"
    for k, run in enumerate(("phi-2_temp0.2_input", "phi-2_temp0.2_output", "phi-2_temp0.8_output",
                             "codellama-7b+cot_temp0.2_output")):
        write_results(out, run, k)
    ds = io.load([str(out)])
    counts = ds.to_counts().astype({"model": str, "task": str, "question_id": str})
    assert sorted(set(zip(counts["model"], counts["task"]))) == [
        ("codellama-7b+cot (t0.2)", "CRUXEval-O"), ("phi-2 (t0.2)", "CRUXEval-I"), ("phi-2 (t0.2)", "CRUXEval-O"),
        ("phi-2 (t0.8)", "CRUXEval-O")]
    at = counts.set_index(["model", "task", "question_id"])
    # by hand: run k = 1 (phi-2 T0.2 output) on problem 1 passes samples i with (2 + i + 1) % 4 == 0: i = 1 of 0..3
    assert at.loc[("phi-2 (t0.2)", "CRUXEval-O", "sample_1"), ["n_trials", "n_correct"]].tolist() == [4, 1]
    for k, (model, task) in enumerate((("phi-2 (t0.2)", "CRUXEval-I"), ("phi-2 (t0.2)", "CRUXEval-O"),
                                       ("phi-2 (t0.8)", "CRUXEval-O"), ("codellama-7b+cot (t0.2)", "CRUXEval-O"))):
        for q in range(3):
            assert at.loc[(model, task, f"sample_{q}"), "n_correct"] == sum(passed(k, q, i) for i in range(4))
    assert any("model 'phi-2 (t0.8)' and task 'CRUXEval-O' from the file name" in n for n in ds.report.notes)


def test_a_stated_pass_at_1_that_the_lists_do_not_give_is_said(tmp_path):
    ds = io.load([str(write_results(tmp_path, "m_temp0.2_output", 0, pass_at_1=90.0))])
    # by hand: k = 0, samples pass where (2q + i) % 4 == 0: q0 i0; q1 i2; q2 i0 -> 3 of 12 = 25.00
    assert any("pass_at_1 (90.00) differs from the mean rate of its lists (25.00)" in n for n in ds.report.notes)


def test_other_names_and_a_bare_object_of_lists(tmp_path):
    ds = io.load([str(write_results(tmp_path, "scored", 0))])
    assert ds.report.models == ("scored",)  # no CRUXEval name: the file stem, as for any file without a model field
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"q1": [1, 0, 1], "q2": [0, 0, None]}))
    ds = io.load([str(bare)])
    assert ds.report.n_missing_outcomes == 1  # the null element: a missing outcome, left to the user's choice
    t = ds.attempts.astype({"question_id": str}).sort_values(["question_id", "trial"])
    assert t["is_correct"].tolist()[:5] == [1.0, 0.0, 1.0, 0.0, 0.0] and t["trial"].tolist() == [0, 1, 2, 0, 1, 2]


def test_the_cli_by_hand(tmp_path, capsys):
    write_results(tmp_path / "evaluation_results", "phi-2_temp0.2_output", 0)
    assert main(["leaderboard", str(tmp_path / "evaluation_results"), "--prior", "uniform", "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    # by hand, uniform prior: each problem 1 of 4 -> (1 + 1) / (4 + 2) = 1/3; avg@4 = 3/12
    assert [(r["model"], r["task"]) for r in rows] == [("phi-2 (t0.2)", "CRUXEval-O")]
    assert rows[0]["mu"] == pytest.approx(1 / 3) and rows[0]["avg"] == pytest.approx(0.25)
