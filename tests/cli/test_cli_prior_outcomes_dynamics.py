"""``--prior-outcomes FILE [--prior-model NAME]`` (the paper's prior outcomes R0) on ``trajectory`` and ``convergence``.

The app's Trajectories and Convergence pages add R0 (Rubric page) to the uniform prior; the CLI had no way to: both
commands rejected the option ("unrecognized arguments"). Now R0 enters Bayes@N after every n under ``--prior uniform``
(Dirichlet(1 + R0), paper Algorithm 1), with the leaderboard's ``prior_outcomes`` note; other priors, metrics and the
prefix-count engines are refused with the option named.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorio_core.cli import main

HEAD = "model,task,question_id,trial,is_correct"
# gpt: q1 1,0,1; q2 1,1,0 / claude: q1 0,0,1; q2 1,0,0 / llama: q1 0,0,0; q2 0,1,1
RUNS = ["gpt,t,q1,0,1", "gpt,t,q1,1,0", "gpt,t,q1,2,1", "gpt,t,q2,0,1", "gpt,t,q2,1,1", "gpt,t,q2,2,0",
        "claude,t,q1,0,0", "claude,t,q1,1,0", "claude,t,q1,2,1", "claude,t,q2,0,1", "claude,t,q2,1,0", "claude,t,q2,2,0",
        "llama,t,q1,0,0", "llama,t,q1,1,0", "llama,t,q1,2,0", "llama,t,q2,0,0", "llama,t,q2,1,1", "llama,t,q2,2,1"]
# R0: q1 1,1,1,0 (3 of 4 correct); q2 0 (0 of 1); a question the runs do not have
OLD = ["old,t,q1,0,1", "old,t,q1,1,1", "old,t,q1,2,1", "old,t,q1,3,0", "old,t,q2,0,0", "old,t,q9,0,1"]


def _files(tmp_path):
    runs, old = tmp_path / "runs.csv", tmp_path / "old.csv"
    runs.write_text("\n".join([HEAD, *RUNS]) + "\n")
    old.write_text("\n".join([HEAD, *OLD]) + "\n")
    return str(runs), str(old)


def _json(capsys, *argv) -> dict:
    assert main([*argv, "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_trajectory_adds_r0_to_the_uniform_prior_after_every_n(tmp_path, capsys):
    runs, old = _files(tmp_path)
    doc = _json(capsys, "trajectory", runs, "--prior", "uniform", "--prior-outcomes", old, "--engine", "pandas")
    assert doc["prior"] == "uniform"
    scores = dict(zip(doc["models"], doc["scores"]))
    # by hand: Bayes@n (binary) = mean over questions of (correct after n + 1 + R0 correct) / (n + 2 + R0 trials)
    # gpt, n = 1: q1 (1 + 1 + 3) / (1 + 2 + 4) = 5/7; q2 (1 + 1 + 0) / (1 + 2 + 1) = 2/4
    assert scores["gpt"][0] == pytest.approx((5 / 7 + 2 / 4) / 2, abs=1e-12)
    # llama, n = 3: q1 (0 + 1 + 3) / (3 + 2 + 4) = 4/9; q2 (2 + 1 + 0) / (3 + 2 + 1) = 3/6
    assert scores["llama"][2] == pytest.approx((4 / 9 + 3 / 6) / 2, abs=1e-12)
    said = [n for n in doc["notes"] if n["code"] == "prior_outcomes"]
    assert len(said) == 1 and "2 of 2 questions matched" in said[0]["message"]
    board = _json(capsys, "leaderboard", runs, "--prior", "uniform", "--prior-outcomes", old)
    final = {r["model"]: r["mu"] for r in board["rows"]}
    for model, series in scores.items():  # at n = N the trajectory is the leaderboard with R0
        assert series[-1] == pytest.approx(final[model], abs=1e-12)


def test_without_r0_the_trajectory_differs(tmp_path, capsys):
    runs, old = _files(tmp_path)
    plain = _json(capsys, "trajectory", runs, "--prior", "uniform")
    with_r0 = _json(capsys, "trajectory", runs, "--prior", "uniform", "--prior-outcomes", old)
    assert not np.allclose(plain["scores"], with_r0["scores"])
    assert not any(n["code"] == "prior_outcomes" for n in plain["notes"])


def test_convergence_takes_r0_and_keeps_the_data_as_gold_standard(tmp_path, capsys):
    runs, old = _files(tmp_path)
    doc = _json(capsys, "convergence", runs, "--prior", "uniform", "--prior-outcomes", old, "--replicates", "30",
                "--bootstrap", "row")
    board = _json(capsys, "leaderboard", runs, "--prior", "uniform")  # avg@N of the data: claude and llama tie
    ranks = {r["model"]: r["rank"] for r in board["rows"]}
    assert dict(zip(doc["models"], doc["gold_ranks"])) == ranks == {"gpt": 1, "claude": 2, "llama": 2}
    assert any(n["code"] == "prior_outcomes" for n in doc["notes"])
    assert any("gold standard stays the avg@N ranking" in a for a in doc["assumptions"])
    plain = _json(capsys, "convergence", runs, "--prior", "uniform", "--replicates", "30", "--bootstrap", "row")
    assert plain["kendall_tau_mean"] != doc["kendall_tau_mean"]


@pytest.mark.parametrize("command", ["trajectory", "convergence"])
@pytest.mark.parametrize("extra, words", [
    ([], "add --prior uniform"),  # the default empirical-Bayes prior is not combined with R0 here
    (["--prior", "jeffreys"], "--prior jeffreys is not combined"),
    (["--prior", "uniform", "--metric", "pass@k"], "--metric pass@k ignores"),
])
def test_what_r0_does_not_enter_is_refused(command, extra, words, tmp_path, capsys):
    runs, old = _files(tmp_path)
    assert main([command, runs, "--prior-outcomes", old, *extra, "--output", "json"]) == 2
    err = capsys.readouterr().err
    assert "--prior-outcomes" in err or "prior outcomes" in err
    assert words in err


def test_prior_model_without_the_file_is_refused(tmp_path, capsys):
    runs, _ = _files(tmp_path)
    assert main(["trajectory", runs, "--prior", "uniform", "--prior-model", "old", "--output", "json"]) == 2
    assert "give the file too" in capsys.readouterr().err


def test_trajectory_on_prefix_counts_refuses_r0(tmp_path, capsys):
    pytest.importorskip("duckdb")
    runs, old = _files(tmp_path)
    assert main(["trajectory", runs, "--prior", "uniform", "--prior-outcomes", old, "--engine", "duckdb",
                 "--output", "json"]) == 2
    assert "add --engine pandas" in capsys.readouterr().err
