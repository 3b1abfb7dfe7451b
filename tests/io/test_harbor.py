"""Harbor job folders (Terminal-Bench 2.0 and Harbor's adapters): ``jobs/<job_name>/<task>__<suffix>/result.json``,
one trial each (Harbor's ``TrialResult``), read as one attempt per trial.

Found before (2026-12-05): a job folder was read as generic JSON records, every ``result.json`` (the job's statistics,
each trial's) and ``config.json`` a table of its own, and refused."""

from __future__ import annotations

import json

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError


def trial(task, reward=1.0, *, agent="terminus-2", model="anthropic/claude-sonnet-4-5", started="2025-11-05T10:00:00Z",
          exception=None, source="terminal-bench", rewards=None, finished="2025-11-05T10:05:00Z"):
    """A trial's result.json as Harbor writes it (the fields read; others kept to look real)."""
    verifier = None if reward is None and rewards is None else {"rewards": rewards or {"reward": reward}}
    return {"id": "0b6c", "task_name": task, "trial_name": f"{task}__{started[11:19].replace(':', '')}", "trial_uri": "file:///x",
            "task_id": {"path": f"tasks/{task}"}, "source": source, "task_checksum": "c" * 64,
            "config": {"agent": {"name": agent, "model_name": model}, "environment": {"type": "docker"}},
            "agent_info": {"name": agent, "version": "2.0.0",
                           "model_info": {"name": model.split("/")[-1], "provider": model.split("/")[0]}},
            "agent_result": {"n_input_tokens": 1200, "n_cache_tokens": 0, "n_output_tokens": 300, "cost_usd": 0.05},
            "verifier_result": verifier, "exception_info": exception, "started_at": started, "finished_at": finished}


def write_job(base, name, trials, datasets=({"name": "terminal-bench", "version": "2.0"},)):
    job = base / name
    job.mkdir(parents=True)
    (job / "config.json").write_text(json.dumps({"job_name": name, "n_attempts": 2, "datasets": list(datasets)}))
    (job / "result.json").write_text(json.dumps({"id": "j", "n_total_trials": len(trials), "stats": {"evals": {}}}))
    (job / "job.log").write_text("log\n")
    for i, t in enumerate(trials):
        folder = job / f"{t['task_name']}__{i:04d}"
        (folder / "agent").mkdir(parents=True)
        (folder / "verifier").mkdir()
        (folder / "config.json").write_text(json.dumps({"trial_name": folder.name, "agent": t["config"]["agent"]}))
        (folder / "result.json").write_text(json.dumps(t, indent=2))
        (folder / "agent" / "trajectory.json").write_text(json.dumps({"steps": [{"role": "user"}]}))
        (folder / "verifier" / "reward.txt").write_text("1\n")
    return job


TIMEOUT = {"exception_type": "AgentTimeoutError", "exception_message": "timed out", "exception_traceback": "",
           "occurred_at": "2025-11-05T10:04:00Z"}


def test_a_job_folder_is_one_attempt_per_trial(tmp_path):
    write_job(tmp_path, "2025-11-05__10-00-00", [
        trial("hello-world", 1.0, started="2025-11-05T10:00:00Z"),
        trial("hello-world", 0.0, started="2025-11-05T10:01:00Z"),
        trial("fix-git", None, started="2025-11-05T10:02:00Z", exception=TIMEOUT),
        trial("fix-git", 1.0, started="2025-11-05T10:03:00Z", exception=TIMEOUT)])
    ds = io.load([str(tmp_path)])
    assert {s.format for s in ds.sources} == {"harbor"}
    t = ds.attempts.astype({"model": str, "task": str, "question_id": str}).sort_values(["question_id", "trial"])
    assert set(t["model"]) == {"anthropic/claude-sonnet-4-5 (terminus-2)"} and set(t["task"]) == {"terminal-bench"}
    # by hand: hello-world 1 then 0 (start order); fix-git: raised unscored -> 0, raised and scored -> its reward 1
    assert t["question_id"].tolist() == ["fix-git", "fix-git", "hello-world", "hello-world"]
    assert t["trial"].tolist() == [0, 1, 0, 1] and t["is_correct"].tolist() == [0.0, 1.0, 1.0, 0.0]
    notes = " ".join(ds.report.notes)
    assert "1 trial raised before the verifier scored it (AgentTimeoutError 1) counted as failures" in notes
    assert "1 trial raised and was still scored" in notes
    assert "other files in 1 job folder not read on their own" in notes
    assert float(ds.attempts["cost"].sum()) == pytest.approx(0.2)


def test_errors_as_missing_and_the_cli(tmp_path, capsys):
    write_job(tmp_path, "job", [trial("a", 1.0, started="2025-11-05T10:00:00Z"),
                                trial("a", None, started="2025-11-05T10:01:00Z", exception=TIMEOUT),
                                trial("b", 0.0, started="2025-11-05T10:02:00Z")])
    ds = io.load([str(tmp_path / "job")], errors_as_missing=True)
    assert int(ds.attempts["is_correct"].isna().sum()) == 1
    assert main(["leaderboard", str(tmp_path / "job"), "--prior", "uniform", "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    # by hand, errors 0: question a 1 of 2, b 0 of 1 -> avg (0.5 + 0) / 2
    assert [(r["model"], r["avg"]) for r in rows] == [("anthropic/claude-sonnet-4-5 (terminus-2)", 0.25)]


def test_several_agents_in_one_job_and_jobs_as_runs(tmp_path):
    write_job(tmp_path, "job1", [trial("a", 1.0, model="openai/gpt-5", started="2025-11-05T10:00:00Z"),
                                 trial("a", 0.0, agent="oracle", model="", started="2025-11-05T10:01:00Z")])
    write_job(tmp_path, "job2", [trial("a", 0.0, model="openai/gpt-5", started="2025-11-06T10:00:00Z")])
    ds = io.load([str(tmp_path)])
    t = ds.attempts.astype({"model": str})
    assert sorted(t["model"].unique()) == ["openai/gpt-5 (terminus-2)", "oracle"]  # an agent without a model: alone
    gpt = t[t.model == "openai/gpt-5 (terminus-2)"].sort_values("trial")
    assert gpt["trial"].tolist() == [0, 1] and gpt["is_correct"].tolist() == [1.0, 0.0]  # job2 is the second run


def test_a_trial_result_alone_names_its_model(tmp_path):
    path = tmp_path / "result.json"
    path.write_text(json.dumps(trial("hello-world", 1.0)))
    ds = io.load([("result.json", path.read_bytes())])  # an upload: no folder
    assert ds.attempts["model"].astype(str).tolist() == ["anthropic/claude-sonnet-4-5 (terminus-2)"]


def test_rewards_of_other_names(tmp_path):
    write_job(tmp_path, "job", [trial("a", rewards={"accuracy": 1.0}), trial("b", rewards={"pass": 0, "style": 1})])
    with pytest.raises(InputError, match=r"several rewards \(pass, style\).*--map is_correct=NAME"):
        io.load([str(tmp_path / "job")])
    write_job(tmp_path, "job2", [trial("b", rewards={"pass": 0, "style": 1})])
    ds = io.load([str(tmp_path / "job2")], mapping={"is_correct": "pass"})
    assert ds.attempts["is_correct"].tolist() == [0.0]


def test_unfinished_trials_and_folders_without_results_are_not_attempts(tmp_path):
    job = write_job(tmp_path, "job", [trial("a", 1.0), trial("b", None, finished=None)])
    (job / "c__0009").mkdir()
    (job / "c__0009" / "config.json").write_text("{}")
    ds = io.load([str(job)])
    assert ds.attempts["question_id"].astype(str).tolist() == ["a"]
    notes = " ".join(ds.report.notes)
    assert "1 trial not finished" in notes and "1 trial folder without result.json" in notes


def test_aisbench_runs_harbor_under_its_results(tmp_path):
    """AISBench's Harbor task: results/<model>/<dataset>.json is its summary (no details), the job in
    results/<model>/<dataset>/details/: the trials are read and the summary left out, said."""
    root = tmp_path / "20251105_100000"
    (root / "configs").mkdir(parents=True)
    (root / "configs" / "c.py").write_text("x = 1\n")
    write_job(root / "results" / "vllm-api" / "terminal_bench_2", "details", [trial("a", 1.0), trial("b", 0.0)])
    (root / "results" / "vllm-api" / "terminal_bench_2.json").write_text(json.dumps(
        {"total_count": 2, "n_errors": 0, "avg_score": 0.5, "reward_distribution": [], "n_total_trials": 2}))
    ds = io.load([str(root)])
    assert {s.format for s in ds.sources} == {"harbor"} and len(ds.attempts) == 2
    assert any("summaries of the runs read from their folders" in n for n in ds.report.notes)
