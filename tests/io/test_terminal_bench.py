"""terminal-bench run folders (``tb run``'s ``runs/<run_id>/``, as submitted to laude-institute/terminal-bench-
leaderboard): one attempt per trial, the model with its agent from run_metadata.json, is_resolved the outcome (null
counted 0 as terminal-bench counts it, or missing), attempts and runs the trials, the run's other files left out."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core import io
from scorio_core.errors import InputError


def trial(task: str, k: int, n: int, run_id: str, resolved, mode: str = "unset") -> dict:
    """One trial's results as terminal-bench writes it (a subset of its fields)."""
    return {"id": f"{task}-{k}", "trial_name": f"{task}.{k}-of-{n}.{run_id}", "task_id": task,
            "instruction": "Fix the build.", "is_resolved": resolved, "failure_mode": mode,
            "parser_results": {"test_build": "passed" if resolved else "failed"},
            "recording_path": f"{run_id}/{task}/{task}.{k}-of-{n}.{run_id}/sessions/agent.cast",
            "total_input_tokens": 1200, "total_output_tokens": 300,
            "trial_started_at": "2025-07-09T11:05:09.000000+00:00", "trial_ended_at": "2025-07-09T11:06:39.500000+00:00"}


def write_run(root, run_id: str, outcomes: dict, model="anthropic/claude-sonnet-4", agent="terminus", attempts=1,
              summary=True) -> None:
    """A run folder: ``{task: [is_resolved per attempt]}`` with run_metadata.json, results.json (unless ``summary`` is
    False: a run still going) and each trial's folder (its results.json copy, a pane capture, logs)."""
    run = root / run_id
    run.mkdir(parents=True)
    (run / "run_metadata.json").write_text(json.dumps({
        "run_id": run_id, "dataset_name": "terminal-bench-core", "dataset_version": "0.1.1", "agent_name": agent,
        "model_name": model, "n_attempts": attempts, "task_ids": sorted(outcomes), "dataset_size": len(outcomes)}))
    trials = []
    for task, results in outcomes.items():
        for k, resolved in enumerate(results, start=1):
            t = trial(task, k, attempts, run_id, resolved, "unset" if resolved is not None else "agent_timeout")
            trials.append(t)
            folder = run / task / t["trial_name"]
            (folder / "panes").mkdir(parents=True)
            (folder / "sessions").mkdir()
            (folder / "results.json").write_text(json.dumps(t, indent=4))
            (folder / "panes" / "post-agent.txt").write_text("root@container:/app# make\n")
            (folder / "sessions" / "agent.log").write_text("log")
    if summary:
        resolved_ids = [t["task_id"] for t in trials if t["is_resolved"]]
        (run / "results.json").write_text(json.dumps({"id": "x", "results": trials, "n_resolved": len(resolved_ids),
                                                      "resolved_ids": resolved_ids, "accuracy": 0.5}, indent=4))


def test_runs_of_an_agent_and_model_are_its_trials(tmp_path):
    write_run(tmp_path / "runs", "2025-07-09__11-05-09", {"hello-world": [True], "fix-git": [False], "crack-7z": [None]})
    write_run(tmp_path / "runs", "2025-07-11__12-02-43", {"hello-world": [True], "fix-git": [True], "crack-7z": [False]})
    write_run(tmp_path / "runs", "2025-07-11__13-47-37", {"hello-world": [False], "fix-git": [True], "crack-7z": [True]},
              model="openai/gpt-5", agent="codex-cli")
    ds = io.load(tmp_path / "runs")
    assert ds.ready, ds.report.blocking
    assert [s.format for s in ds.sources] == ["terminal-bench"] * 3
    a = ds.attempts.astype({"model": str, "task": str, "question_id": str})
    assert set(a["model"]) == {"anthropic/claude-sonnet-4 (terminus)", "openai/gpt-5 (codex-cli)"}
    assert set(a["task"]) == {"terminal-bench-core:0.1.1"}
    claude = a[a["model"] == "anthropic/claude-sonnet-4 (terminus)"].sort_values(["trial", "question_id"])
    assert claude["question_id"].tolist() == ["crack-7z", "fix-git", "hello-world"] * 2
    assert claude["trial"].tolist() == [0, 0, 0, 1, 1, 1]
    # by hand: the unfinished trial (is_resolved null) counts 0
    assert claude["is_correct"].tolist() == [0.0, 0.0, 1.0, 0.0, 1.0, 1.0]
    assert claude["tb_failure_mode"].tolist()[0] == "agent_timeout"
    assert np.allclose(claude["latency"], 90.5) and np.allclose(claude["prompt_tokens"], 1200)
    notes = " ".join(ds.report.notes)
    assert "1 trial did not finish (is_resolved null; failure modes: agent_timeout 1) counted as unresolved" in notes
    assert "terminal-bench runs: 21 other files in 3 run folders not read on their own" in notes  # (metadata + 3 x 2) x 3
    missing = io.load(tmp_path / "runs", errors_as_missing=True).attempts
    assert int(missing["is_correct"].isna().sum()) == 1


def test_attempts_within_a_run_then_the_next_run(tmp_path):
    write_run(tmp_path, "r1", {"hello-world": [True, False]}, attempts=2)
    write_run(tmp_path, "r2", {"hello-world": [False, False]}, attempts=2)
    a = io.load(tmp_path).attempts.sort_values("trial")
    assert a["trial"].tolist() == [0, 1, 2, 3] and a["is_correct"].tolist() == [1.0, 0.0, 0.0, 0.0]


def test_a_run_still_going_is_read_from_its_trials(tmp_path):
    write_run(tmp_path, "r1", {"hello-world": [True], "fix-git": [False]}, summary=False)
    ds = io.load(tmp_path / "r1")
    a = ds.attempts.astype({"question_id": str}).sort_values("question_id")
    assert a["question_id"].tolist() == ["fix-git", "hello-world"] and a["is_correct"].tolist() == [0.0, 1.0]
    assert [s.format for s in ds.sources] == ["terminal-bench"]


def test_an_upload_names_no_model_and_is_refused(tmp_path):
    write_run(tmp_path, "r1", {"hello-world": [True]})
    with pytest.raises(InputError, match="names neither the model nor the agent.*Upload a folder"):
        io.load([("results.json", (tmp_path / "r1" / "results.json").read_bytes())])
    with pytest.raises(InputError, match="nothing can be mapped"):
        io.load(tmp_path / "r1", mapping={"model": "task_id"})


def test_server_folders_store_the_rows_with_their_model_names(tmp_path):
    from scorio_core.io import roots

    write_run(tmp_path / "evals", "r1", {"hello-world": [True], "fix-git": [False]})
    root = roots.data_roots(str(tmp_path / "evals"))[0]
    dataset, engine, files = roots.load_matches(roots.resolve_in_root(root, "r1"))
    assert engine == "pandas" and len(files) == 1 and files[0][0].endswith(".attempts.parquet")
    again = io.load(files)
    assert set(again.attempts["model"].astype(str)) == {"anthropic/claude-sonnet-4 (terminus)"}
    assert sorted(again.attempts["is_correct"].tolist()) == [0.0, 1.0]
