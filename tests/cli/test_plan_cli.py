"""``python -m scorio_core plan``: the JSON contract, the plan -> run -> append loop, errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core.cli import main
from scorio_core.cli.plan import BATCH_KEYS

#: True success probability of each model on each of 20 questions: "m0" is best by 0.1.
MODELS = ("m0", "m1", "m2", "m3")
TRUTH = np.clip(np.array([0.7, 0.6, 0.55, 0.45])[:, None] + np.linspace(-0.15, 0.15, 20)[None, :], 0.02, 0.98)


def _attempt_rows(trials: np.ndarray, start: np.ndarray, rng) -> list[str]:
    """CSV lines of ``trials[l, m]`` new attempts per cell drawn from the truth, numbered after ``start``."""
    lines = []
    for l, m in zip(*np.nonzero(trials)):
        outcomes = rng.random(int(trials[l, m])) < TRUTH[l, m]
        lines += [f"{MODELS[l]},t,q{m},{int(start[l, m]) + i},{int(v)}" for i, v in enumerate(outcomes)]
    return lines


@pytest.fixture
def dump(tmp_path):
    rng = np.random.default_rng(11)
    path = tmp_path / "runs.csv"
    first = np.ones((4, 20), dtype=np.int64)
    path.write_text("model,task,question_id,trial,is_correct\n" + "\n".join(
        _attempt_rows(first, np.zeros((4, 20)), rng)) + "\n")
    return path


def _plan(capsys, *argv) -> dict:
    assert main(["plan", *map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_contract(dump, capsys):
    out = _plan(capsys, dump, "--goal", "top-1", "--batch", "40", "--seed", "3")
    assert list(out) == ["stop", "decision", "reason", "goal", "batch", "spent", "status", "sources"]
    assert isinstance(out["stop"], bool) and isinstance(out["reason"], str)
    assert out["decision"] in ("goal_holds", "cannot_progress", "continue") and out["status"]["notices"] == []
    assert out["stop"] == (out["decision"] != "continue") and out["goal"]["holds"] == (out["decision"] == "goal_holds")
    assert out["goal"]["unlinked"] is False
    assert out["goal"]["goal"] == "top-1" and out["goal"]["confidence"] == 0.95
    assert out["spent"]["total_trials"] == 80 and out["spent"]["trials"] == {m: 20 for m in MODELS}
    if not out["stop"]:
        assert sum(r["trials"] for r in out["batch"]) == 40
    for row in out["batch"]:
        assert list(row) == list(BATCH_KEYS) and row["task"] == "t" and row["model"] in MODELS
        assert isinstance(row["trials"], int) and isinstance(row["expected_gain"], float)


def test_same_seed_same_plan(dump, capsys):
    argv = (dump, "--goal", "ranking", "--batch", "50", "--seed", "7", "--scope", "questions-sampled")
    assert _plan(capsys, *argv) == _plan(capsys, *argv)


def test_plan_run_append_loop_stops_on_the_true_best(dump, capsys):
    rng = np.random.default_rng(12)
    done = np.ones((4, 20), dtype=np.int64)
    for iteration in range(30):
        out = _plan(capsys, dump, "--goal", "top-1", "--batch", "80", "--seed", iteration)
        if out["stop"]:
            break
        trials = np.zeros((4, 20), dtype=np.int64)
        for row in out["batch"]:
            assert row["question_id"] is not None  # questions-fixed: only the file's questions
            trials[MODELS.index(row["model"]), int(row["question_id"][1:])] += row["trials"]
        with dump.open("a") as f:
            f.write("\n".join(_attempt_rows(trials, done, rng)) + "\n")
        done += trials
    assert out["stop"], out["reason"]
    assert out["reason"].startswith("top-1 holds") and "P(m0 is best" in out["reason"]
    leader = max(out["status"]["models"], key=lambda r: r["mean"])
    assert leader["model"] == "m0" and out["spent"]["total_trials"] == int(done.sum())


def test_table_output_says_whether_to_stop(dump, capsys):
    assert main(["plan", str(dump), "--batch", "20"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("# continue:") or lines[0].startswith("# stop:")
    # the prior is named: the planner's default (uniform) is not the leaderboard's
    assert lines[2] == ("# prior: uniform prior, Dirichlet(1) per question (paper) (the planner's default; the "
                        "leaderboard's is the empirical-bayes prior: --prior empirical-bayes to plan on it)")
    assert main(["plan", str(dump), "--batch", "20", "--prior", "empirical-bayes"]) == 0
    assert capsys.readouterr().out.splitlines()[2] == (
        "# prior: empirical-Bayes prior, Dirichlet fitted to the model's questions")


@pytest.mark.parametrize("argv, message", [
    (["--goal", "pair", "--pair", "m0", "nobody"], "error: pair: model 'nobody' has no results on this task (--task picks another); models here: m0, m1"),
    (["--goal", "top-k", "--k", "4"], "error: k must satisfy 1 <= k < L (L=4 models); got k=4."),
    (["--goal", "width", "--width", "-1"], "error: the width goal needs a target interval width > 0"),
    (["--batch", "0"], "error: batch must be an integer >= 1"),
    (["--cost-column", "cost_usd"], "error: 'cost_usd' is not a cost or token column of this data"),
])
def test_bad_goals_exit_2_with_one_line(dump, capsys, argv, message):
    assert main(["plan", str(dump), *argv]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message) and captured.out == ""


def test_several_tasks_need_task(tmp_path, capsys):
    path = tmp_path / "two.csv"
    path.write_text("model,task,question_id,trial,is_correct\na,x,q1,0,1\nb,x,q1,0,0\na,y,q1,0,1\nb,y,q1,0,1\n")
    assert main(["plan", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "2 tasks (x, y)" in err[0] and "--task" in err[0]
    assert main(["plan", str(path), "--task", "y", "--output", "json"]) == 0


def test_cost_column_steers_trials_to_the_cheap_model(tmp_path, capsys):
    path = tmp_path / "costs.csv"
    # per-attempt costs (they vary within a model): the per-trial cost is their mean, 0.015 and 1.5
    rows = [f"{m},t,q{q},{i},{(q + i) % 2},{c * (1 + i)}" for m, c in (("a", 0.01), ("b", 1.0))
            for q in range(10) for i in range(2)]
    path.write_text("model,task,question_id,trial,is_correct,cost\n" + "\n".join(rows) + "\n")
    out = _plan(capsys, path, "--goal", "pair", "--pair", "a", "b", "--cost-column", "cost", "--batch", "60")
    assert out["spent"]["cost_per_trial"] == {"a": pytest.approx(0.015), "b": pytest.approx(1.5)}
    per = {m: sum(r["trials"] for r in out["batch"] if r["model"] == m) for m in "ab"}
    assert per["a"] > per["b"]


def test_max_trials_per_question_and_projection(dump, capsys):
    out = _plan(capsys, dump, "--batch", "200", "--max-trials-per-question", "2", "--project", "2")
    assert all(r["trials"] <= 1 for r in out["batch"])  # every cell of the dump has 1 trial: at most 1 more
    proj = out["projection"]
    assert proj["batches"] == 2 and proj["replays"] == 8 and len(proj["probability"]) == 3
    assert proj["requested_replays"] == 8 and proj["requested_batches"] == 2 and proj["note"] == ""
    assert proj["trials"][0] == 0 and proj["trials"][1] <= 200
    assert 0 <= min(proj["probability"]) <= max(proj["probability"]) <= 1
    three = _plan(capsys, dump, "--batch", "50", "--project", "1", "--replays", "3")["projection"]
    assert three["replays"] == 3 and three["requested_replays"] == 3 and three["note"] == ""
    assert main(["plan", str(dump), "--max-trials-per-question", "0"]) == 2
    assert "must be >= 1" in capsys.readouterr().err


def test_csv_keeps_stdout_plain_and_says_the_stop_on_stderr(dump, capsys):
    assert main(["plan", str(dump), "--goal", "width", "--width", "0.99", "--output", "csv"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [",".join(BATCH_KEYS)]  # nothing to run: the header only
    assert captured.err.startswith("# stop: every interval is narrower than 0.99")
