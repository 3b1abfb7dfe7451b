"""EvalPlus and BigCodeBench results: ``{"date": ..., "eval": {task_id: [sample, ...]}}`` (evalplus ``evaluate.py``,
bigcodebench ``evaluate.py``), beside the generations and pass@k summaries.

Found before (2026-12-05): EvalPlus results refused ("field 'is_correct' is ambiguous: candidates 'base_status',
'plus_status'"), BigCodeBench's refused on its 'pass' labels; with the flags they needed, every model named after
the file and HumanEval's base and plus results not told apart."""

from __future__ import annotations

import json

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError

EP_RUN = "Qwen--Qwen2.5-Coder-7B-Instruct_vllm_temp_0.8"
BCB_RUN = "Qwen--Qwen2.5-Coder-7B-Instruct--main--bigcodebench-hard-complete--vllm-0.0-2-sanitized_calibrated"


def base_ok(t, i):
    return (t + i) % 2 == 0


def plus_ok(t, i):
    return (t + i) % 4 == 0


def write_evalplus(folder, run=EP_RUN, tasks=4, n=3, beside=True, plus=True, unknown=()):
    folder.mkdir(parents=True, exist_ok=True)
    ev = {f"HumanEval/{t}": [{"task_id": f"HumanEval/{t}", "solution": "def f():\n    return 1\n",
                              "base_status": None if (t, i) in unknown else "pass" if base_ok(t, i) else "fail",
                              "plus_status": ("pass" if plus_ok(t, i) else "timeout") if plus else None,
                              "base_fail_tests": [], "plus_fail_tests": []} for i in range(n)] for t in range(tasks)}
    path = folder / f"{run}.eval_results.json"
    path.write_text(json.dumps({"date": "2025-01-01 10:00", "hash": "abc", "eval": ev,
                                "pass_at_k": {"base": {"pass@1": 0.5}, "plus": {"pass@1": 0.25}}}))
    if beside:
        (folder / f"{run}.jsonl").write_text(json.dumps({"task_id": "HumanEval/0", "solution": "..."}) + "\n")
        (folder / f"{run}.raw.jsonl").write_text(json.dumps({"task_id": "HumanEval/0", "solution": "..."}) + "\n")
    return path


def write_bcb(folder, run=BCB_RUN, statuses=(("pass", "fail"), ("timeout", "pass"), ("fail", "fail"))):
    folder.mkdir(parents=True, exist_ok=True)
    ev = {f"BigCodeBench/{t}": [{"task_id": f"BigCodeBench/{t}", "solution": "x", "status": s, "details": {}}
                                for s in samples] for t, samples in enumerate(statuses)}
    path = folder / f"{run}_eval_results.json"
    path.write_text(json.dumps({"date": "2025-01-01 10:00", "eval": ev}))
    (folder / f"{run}_pass_at_k.json").write_text(json.dumps({"pass@1": 0.33, "model": "Qwen/Qwen2.5-Coder-7B-Instruct"}))
    return path


def counts(ds):
    return ds.to_counts().astype({"model": str, "task": str, "question_id": str}).set_index(
        ["model", "task", "question_id"])


def test_evalplus_results_are_a_base_and_a_plus_task(tmp_path):
    write_evalplus(tmp_path / "evalplus_results" / "humaneval")
    ds = io.load([str(tmp_path / "evalplus_results")])
    assert {s.format for s in ds.sources} == {"evalplus"}
    model = "Qwen/Qwen2.5-Coder-7B-Instruct (t0.8)"
    assert ds.report.models == (model,)
    c = counts(ds)
    assert set(c["n_trials"]) == {3}
    for t in range(4):
        assert c.loc[(model, "HumanEval", f"HumanEval/{t}"), "n_correct"] == sum(base_ok(t, i) for i in range(3))
        assert c.loc[(model, "HumanEval+", f"HumanEval/{t}"), "n_correct"] == sum(
            base_ok(t, i) and plus_ok(t, i) for i in range(3))
    # by hand: base passes 2, 1, 2, 1 of 3 (6 of 12); plus also on (0, 0), (2, 2), (3, 1): 3 of 12
    assert c.xs("HumanEval", level=1)["n_correct"].sum() == 6 and c.xs("HumanEval+", level=1)["n_correct"].sum() == 3
    assert any("2 files beside the ..._eval_results.json not read" in n for n in ds.report.notes)


def test_base_only_results_and_unknown_statuses(tmp_path):
    path = write_evalplus(tmp_path, plus=False, beside=False, unknown={(1, 0)})
    ds = io.load([str(path)])
    c = counts(ds)
    assert set(c.index.get_level_values("task")) == {"HumanEval"}  # --base-only: no plus task
    assert c.loc[(ds.report.models[0], "HumanEval", "HumanEval/1"), ["n_trials", "n_correct"]].tolist() == [3, 1]
    assert any("1 sample without a status" in n and "counted 0, as EvalPlus counts them" in n for n in ds.report.notes)
    ds = io.load([str(path)], errors_as_missing=True)
    assert ds.report.n_missing_outcomes == 1


def test_bigcodebench_results_name_model_revision_and_subset(tmp_path):
    ds = io.load([str(write_bcb(tmp_path / "bcb_results").parent)])
    assert {s.format for s in ds.sources} == {"evalplus"}
    c = counts(ds)
    model = "Qwen/Qwen2.5-Coder-7B-Instruct (t0.0)"
    # by hand: task 0 passes sample 0, task 1 sample 1 (a timeout is not a pass), task 2 none
    assert c.loc[model]["n_correct"].tolist() == [1, 1, 0] and set(c.index.get_level_values("task")) == {
        "bigcodebench-hard-complete"}
    other = write_bcb(tmp_path / "other", run=BCB_RUN.replace("--main--", "--v2--").replace("Qwen--", "org--"))
    assert io.load([str(other)]).report.models == ("org/Qwen2.5-Coder-7B-Instruct@v2 (t0.0)",)


def test_side_files_alone_are_refused(tmp_path):
    write_evalplus(tmp_path / "a")
    with pytest.raises(InputError, match="generations, not evaluated") as err:
        io.load([str(tmp_path / "a" / f"{EP_RUN}.jsonl")])
    assert f"{EP_RUN}.jsonl" in str(err.value)
    write_bcb(tmp_path / "b")
    with pytest.raises(InputError, match="pass@k summary"):
        io.load([str(tmp_path / "b" / f"{BCB_RUN}_pass_at_k.json")])


def test_a_samples_folder_names_the_model_and_a_sample_without_status_is_refused(tmp_path):
    folder = tmp_path / "my-model_samples"
    path = write_evalplus(folder, beside=False)
    path.rename(folder / "eval_results.json")
    assert io.load([str(folder / "eval_results.json")]).report.models == ("my-model_samples",)
    doc = json.loads((folder / "eval_results.json").read_text())
    del doc["eval"]["HumanEval/2"][1]["base_status"]
    (folder / "eval_results.json").write_text(json.dumps(doc))
    with pytest.raises(InputError, match="a sample of 'HumanEval/2' has no 'base_status'"):
        io.load([str(folder / "eval_results.json")])


def test_the_cli_by_hand(tmp_path, capsys):
    path = write_evalplus(tmp_path, beside=False)
    assert main(["leaderboard", str(path), "--prior", "uniform", "--task", "HumanEval+", "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    # by hand, uniform prior: plus passes 1, 0, 1, 1 of 3 -> (c + 1) / 5 = 2/5, 1/5, 2/5, 2/5 -> mean 7/20; avg 3/12
    assert rows[0]["mu"] == pytest.approx(7 / 20) and rows[0]["avg"] == pytest.approx(0.25)
