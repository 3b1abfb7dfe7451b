"""``python -m scorio_core trajectory`` (JSON contract, count-data refusal, errors)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from scorio_core.cli import main
from scorio_core.dynamics.trajectory import rank_trajectory

pytest.importorskip("scorio_core.io")

# 3 models x 2 questions x 4 trials; model m2 leads from trial 2 on
R = np.array(
    [
        [[1, 0, 0, 1], [0, 1, 0, 0]],
        [[0, 0, 1, 0], [0, 0, 0, 1]],
        [[0, 1, 1, 1], [1, 1, 1, 0]],
    ]
)


def write_attempts(path, R, task="t1", shuffle=False):
    rows = [
        (f"m{l}", task, f"q{m}", t, int(R[l, m, t]))
        for l in range(R.shape[0])
        for m in range(R.shape[1])
        for t in range(R.shape[2])
    ]
    if shuffle:  # row order in the file must not matter: the trial column orders trials
        rows = rows[::-1]
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["model", "task", "question_id", "trial", "is_correct"])
        writer.writerows(rows)
    return str(path)


def write_counts(path, R):
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["model", "task", "question_id", "n_trials", "n_correct"])
        for l in range(R.shape[0]):
            for m in range(R.shape[1]):
                writer.writerow([f"m{l}", "t1", f"q{m}", R.shape[2], int(R[l, m].sum())])
    return str(path)


def run_json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_json_contract(tmp_path, capsys):
    out = run_json(capsys, ["trajectory", write_attempts(tmp_path / "a.csv", R, shuffle=True), "--output", "json"])
    assert out["prior"] == "empirical-bayes"  # the leaderboard's default prior
    t = rank_trajectory(R, prior="empirical-bayes")
    assert sorted(out["models"]) == ["m0", "m1", "m2"]  # order of first appearance in the file
    assert out["n"] == [1, 2, 3, 4]
    by_model = dict(zip(out["models"], out["ranks"]))  # ranks[i][j]: models[i] after n[j] trials
    assert [by_model[f"m{l}"] for l in range(3)] == t.ranks.astype(int).tolist()
    assert out["convergence"] == t.convergence
    assert dict(zip(out["models"], out["gold_ranks"])) == {"m0": 2, "m1": 3, "m2": 1}  # hand: 3, 2, 6 of 8
    assert isinstance(out["notes"], list) and out["assumptions"]
    assert out["sigma"] is not None and len(out["sigma"]) == 3
    np.testing.assert_allclose([dict(zip(out["models"], out["scores"]))[f"m{l}"] for l in range(3)], t.scores, rtol=1e-12)


@pytest.mark.parametrize("prior", ["uniform", "jeffreys", "empirical-bayes"])
def test_prior_reaches_the_core(tmp_path, capsys, prior):
    out = run_json(capsys, ["trajectory", write_attempts(tmp_path / "a.csv", R), "--prior", prior, "--output", "json"])
    t = rank_trajectory(R, prior=prior)
    assert out["prior"] == prior
    by_model = dict(zip(out["models"], out["scores"]))
    np.testing.assert_allclose([by_model[f"m{l}"] for l in range(3)], t.scores, rtol=1e-12)
    assert any(("uniform" if prior == "uniform" else prior.replace("-", "")[:8]) in a.lower().replace("-", "")
               for a in out["assumptions"])


def test_pass_at_k_ranks_are_null_before_k(tmp_path, capsys):
    out = run_json(capsys, ["trajectory", write_attempts(tmp_path / "a.csv", R), "--metric", "pass@k", "--k", "2", "--output", "json"])
    assert [row[0] for row in out["ranks"]] == [None, None, None]
    assert all(v is not None for row in out["ranks"] for v in row[1:])
    assert any("undefined for n < k=2" in a for a in out["assumptions"])


def test_notes_say_what_the_complete_block_dropped(tmp_path, capsys):
    R2 = R.copy()
    path = tmp_path / "a.csv"
    write_attempts(path, R2)
    with open(path) as f:
        lines = f.read().splitlines()
    kept = [ln for ln in lines if not ln.startswith("m0,t1,q1,")]  # m0 never answered q1
    path.write_text("\n".join(kept) + "\n")
    out = run_json(capsys, ["trajectory", str(path), "--output", "json"])
    assert any("questions" in note["message"] for note in out["notes"])
    assert len(out["ranks"][0]) == 4


def test_table_output(tmp_path, capsys):
    assert main(["trajectory", write_attempts(tmp_path / "a.csv", R)]) == 0
    text = capsys.readouterr().out
    assert "n=1" in text and "convergence@n" in text


def test_csv_carries_every_n_the_screen_table_thins(tmp_path, capsys):
    # helper QA: --output csv/md wrote the screen table's n = 1, 2, 5, 10, ... only (73 of 80 points missing)
    big = (np.random.default_rng(0).random((3, 6, 12)) < [[[0.3]], [[0.5]], [[0.7]]]).astype(int)
    path = write_attempts(tmp_path / "sim.csv", big)
    assert main(["trajectory", str(path), "--output", "csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split(",")
    assert header == ["model", *[f"n={n}" for n in range(1, 13)], "gold"]
    assert main(["trajectory", str(path)]) == 0
    assert "note: ranks shown at n = 1, 2, 5, 10, 12 of 1..12" in capsys.readouterr().out


def test_count_data_is_refused_with_a_suggestion(tmp_path, capsys):
    assert main(["trajectory", write_counts(tmp_path / "c.csv", R)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: trajectory needs the trial order") and "convergence --bootstrap row" in err


@pytest.mark.parametrize(
    "extra,match",
    [
        (["--metric", "pass@k", "--k", "9"], "1 <= k <= N"),
        (["--metric", "nope"], "invalid choice"),
        (["--task", "missing"], "missing"),
    ],
)
def test_errors_are_one_line(tmp_path, capsys, extra, match):
    assert main(["trajectory", write_attempts(tmp_path / "a.csv", R), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and match in err and "Traceback" not in err


def test_one_trial_says_convergence_is_undefined_not_missing(tmp_path, capsys):
    """N = 1: convergence@n (the smallest n <= N - 1) has no value; the output says why instead of "no convergence"."""
    R = np.array([[[1], [1], [0]], [[0], [1], [0]], [[0], [0], [0]]])
    path = tmp_path / "one.csv"
    write_attempts(path, R)
    assert main(["trajectory", str(path), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["convergence"] is None and out["ranks"] == [[1], [2], [3]]
    assert any(a.startswith("convergence@n is undefined with N = 1 trial per question") for a in out["assumptions"])
    assert main(["trajectory", str(path), "--output", "table"]) == 0
    text = capsys.readouterr().out
    assert "convergence@n: undefined with N = 1" in text and "no convergence" not in text


@pytest.mark.parametrize("command", ["trajectory", "convergence"])
def test_one_model_is_refused_naming_the_task(tmp_path, capsys, command):
    # helper QA: `trajectory` on one model exited 0 with "convergence": 1 (no ranking converged to anything);
    # `convergence` said "ranking needs at least 2 models; got L=1" (internal notation, no task)
    path = write_attempts(tmp_path / "one.csv", R[:1])
    assert main([command, str(path)]) == 2
    err = capsys.readouterr().err
    assert "task 't1' has 1 model (m0): trajectories and convergence@n rank models, so they need at least 2" in err
