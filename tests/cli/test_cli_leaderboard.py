"""CLI ``leaderboard`` on the bundled data: stable JSON, correct numbers, clean errors."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from scorio_core.cli import main
from tests.paths import ARC, MATHARENA, ROOT

REQUIRED = {"model", "task", "mu", "sigma", "lo", "hi", "avg", "rank", "rank_ci", "n_questions", "n_trials"}


def run_json(capsys, *argv):
    assert main([*argv, "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_matharena_rows_match_beta_posterior_by_hand(capsys):
    out = run_json(capsys, "leaderboard", str(MATHARENA), "--prior", "uniform")
    rows = out["rows"]
    raw = pd.read_csv(MATHARENA)
    assert {r["model"] for r in rows} == set(raw["model"])  # all 16 models
    assert all(REQUIRED <= set(r) for r in rows)
    for row in rows:
        sub = raw[raw["model"] == row["model"]]
        c, n = sub["n_correct"].to_numpy(), sub["n_trials"].to_numpy()
        # binary Bayes@N = mean of Beta(1 + c, 1 + n - c) posteriors (paper Eq. 15 with C = 1)
        a, b = 1 + c, 1 + n - c
        mean = np.mean(a / (a + b))
        var = np.sum(a * b / ((a + b) ** 2 * (a + b + 1))) / len(c) ** 2
        assert row["mu"] == pytest.approx(mean, abs=1e-12)
        assert row["sigma"] == pytest.approx(math.sqrt(var), rel=1e-12)
        assert row["lo"] == pytest.approx(max(0.0, mean - 1.959963984540054 * math.sqrt(var)), abs=1e-12)
        assert row["avg"] == pytest.approx(c.sum() / n.sum(), abs=1e-12)
        assert row["n_questions"] == 15 and row["n_trials"] == 4  # data/README: 15 problems, N = 4
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    # o3-mini (high): 48 of 60 correct (hand: sum of n_correct), mu = (48 + 15) / (15 * 6) = 0.7
    top = rows[0]
    assert top["model"] == "o3-mini (high)" and top["avg"] == pytest.approx(0.8) and top["mu"] == pytest.approx(0.7)


def test_arc_pass_at_k_and_missing_questions(capsys):
    out = run_json(capsys, "leaderboard", str(ARC), "--k", "2", "--tie-rule", "upper-bound")
    by_model = {r["model"]: r for r in out["rows"]}
    assert len(by_model) == 12
    assert by_model["claude-3-haiku-20240307"]["n_questions"] == 416  # data/README: fewer test pairs
    raw = pd.read_csv(ARC)
    sub = raw[raw["model"] == "open_ai_o3_high_20241220"].groupby("question_id")["correct"].sum()
    # Pass@2 with N = 2: a question counts if either attempt is right
    assert by_model["open_ai_o3_high_20241220"]["pass_at_k"] == pytest.approx(np.mean(sub > 0))
    assert out["settings"]["tie_rule"] == "upper-bound"


def test_table_csv_md_outputs(capsys):
    for fmt in ("table", "csv", "md"):
        assert main(["leaderboard", str(MATHARENA), "--output", fmt]) == 0
        text = capsys.readouterr().out
        assert "o3-mini (high)" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["leaderboard", "missing.csv"], "missing.csv"),
        (["leaderboard", str(MATHARENA), "--confidence", "1.5"], "confidence must satisfy"),
        (["leaderboard", str(MATHARENA), "--task", "nope"], "task 'nope' is not in the data"),
        (["leaderboard", str(MATHARENA), "--metric", "nope"], "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_bad_file_names_line_and_field(tmp_path):
    bad = tmp_path / "results.csv"
    bad.write_text("model,question_id,trial,is_correct\nm,q1,0,1\nm,q2,0,yes\n")
    proc = subprocess.run(
        [sys.executable, "-m", "scorio_core", "leaderboard", str(bad)], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]
    assert "results.csv" in proc.stderr and "is_correct" in proc.stderr and "Traceback" not in proc.stderr


def test_schema_option_hand_calculation(tmp_path, capsys):
    # Strict Compliance (paper Table 5): 0 invalid; 1 wrong or (correct and unboxed); 2 correct and boxed; w = (0, 0, 1)
    data = tmp_path / "attempts.csv"
    data.write_text(
        "model,question_id,trial,is_correct,has_box,finish_reason\n"
        "m,q1,0,1,1,stop\nm,q1,1,1,0,stop\n"  # categories 2, 1
        "m,q2,0,0,1,stop\nm,q2,1,1,1,stop\n"  # categories 1, 2
    )
    out = run_json(capsys, "leaderboard", str(data), "--schema", "Strict Compliance", "--prior", "uniform")
    row = out["rows"][0]
    # hand: per question nu = (1, 2, 2), T = 1 + C + N = 5 -> mean 2/5; var (2/5 - 4/25) / 6 = 0.04; sigma = sqrt(2 * 0.04) / 2
    assert row["mu"] == pytest.approx(0.4, abs=1e-12)
    assert row["sigma"] == pytest.approx(math.sqrt(0.08) / 2, rel=1e-12)
    assert out["settings"]["schema"] == "Strict Compliance"
