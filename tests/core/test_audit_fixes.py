"""A statistical audit's findings, checked by hand: the Pass@k family without an identified empirical-Bayes prior,
the prior-pull note's comparison, the conservative fallback interval on unequal trials, the rank note when nothing was
fitted, probabilities never shown past a threshold, what an export's Markdown is about, and unequal task sizes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.special import betaincinv

from scorio_core.cli import main
from scorio_core.report.verdict import format_probabilities

ROOT = Path(__file__).resolve().parents[2]


def _write(tmp_path, name, rows, header="model,question_id,trial,is_correct"):
    path = tmp_path / name
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def _bimodal(tmp_path):
    # X solves 4 questions in all 5 trials and 4 in none; 8 questions (fewer than 10 tried twice or more): the
    # empirical-Bayes prior's strength is not identified
    rows = [f"X,q{q},{t},{int(q < 4)}" for q in range(8) for t in range(5)]
    rows += [f"Y,q{q},{t},{int((q + t) % 3 == 0)}" for q in range(8) for t in range(5)]
    return _write(tmp_path, "bimodal.csv", rows)


def _rows(capsys):
    out = json.loads(capsys.readouterr().out)
    return {r["model"]: r for r in out["rows"]}, out["notes"]


def test_pass_at_k_without_an_identified_prior_is_its_estimate_with_an_exact_interval(tmp_path, capsys):
    path = _bimodal(tmp_path)
    assert main(["leaderboard", str(path), "--metric", "pass@k", "--k", "2", "--output", "json"]) == 0
    rows, notes = _rows(capsys)
    x = rows["X"]
    # before: a pooled point mass made mu the Pass@2 of the average rate (0.75) with [0.581, 0.887], excluding the
    # true 0.5; now the unbiased estimate (4 of 8 questions always solved) with Clopper-Pearson on M = 8 trials
    assert x["estimate"] == pytest.approx(0.5) and x["mu"] == pytest.approx(0.5)
    assert x["sigma"] == pytest.approx(np.sqrt(0.25 / 8), rel=1e-12)
    assert x["lo"] == pytest.approx(betaincinv(4, 5, 0.025), rel=1e-9)
    assert x["hi"] == pytest.approx(betaincinv(5, 4, 0.975), rel=1e-9)
    assert x["prior"] == "empirical-bayes" and x["interval_kind"] == "exact-binomial"
    assert "empirical-Bayes prior not fitted: too few questions (8 questions" in x["interval"]
    assert "for Pass@k: the estimate with the binomial bound" in x["interval"] and "Dirichlet fitted" not in x["interval"]
    assert any(n["code"] == "prior_not_fitted" and "X" in n["models"] for n in notes)
    # an all-wrong model: 0 with [0, upper bound], never a lower bound above what was observed
    rows_ = [f"Z,q{q},{t},0" for q in range(8) for t in range(5)] + [f"W,q{q},{t},{int(t < 2)}" for q in range(8)
                                                                     for t in range(5)]
    path = _write(tmp_path, "zero.csv", rows_)
    assert main(["leaderboard", str(path), "--metric", "pass@k", "--k", "2", "--output", "json"]) == 0
    z = _rows(capsys)[0]["Z"]
    assert z["estimate"] == 0.0 and str(z["estimate"]) == "0.0" and z["lo"] == 0.0 and z["mu"] == 0.0
    assert z["hi"] == pytest.approx(1 - 0.025 ** (1 / 8), rel=1e-9)


def test_prior_pull_compares_a_pass_at_k_interval_with_the_metric_estimate(capsys):
    data = str(ROOT / "data" / "matharena_aime_2025_I_counts.csv")
    assert main(["leaderboard", data, "--metric", "pass@k", "--k", "2", "--output", "json"]) == 0
    rows, notes = _rows(capsys)
    pulled = [n for n in notes if n["code"] == "prior_pull"]
    for n in pulled:  # any model named has its Pass@k estimate (not avg@N) outside its interval
        assert "avg@N" not in n["finding"].split(":")[0]
        for m in n["models"]:
            r = rows[m]
            assert not r["lo"] <= r["estimate"] <= r["hi"]
    # before: DeepSeek-R1-Distill-Llama-70B was named for avg@N 0.500 outside [0.503, 0.687], its pass@2 0.578 inside
    assert not any("DeepSeek-R1-Distill-Llama-70B" in n["models"] for n in pulled)
    assert main(["leaderboard", data, "--metric", "pass@k", "--k", "2", "--prior", "uniform", "--output", "json"]) == 0
    rows, notes = _rows(capsys)
    pulled = [n for n in notes if n["code"] == "prior_pull"]
    assert pulled and "Pass@k estimate" in pulled[0]["finding"]
    assert all(not rows[m]["lo"] <= rows[m]["estimate"] <= rows[m]["hi"] for m in pulled[0]["models"])


def test_fallback_interval_is_conservative_for_unequal_trials(tmp_path, capsys):
    # 9 questions tried 4 times (all correct) and 3 tried once (1 of 3 correct): too few repeated questions, so the
    # empirical-Bayes prior is not identified; mean over questions x = (9 + 1/3... ) by hand below
    rows = [f"A,q{q},{t},1" for q in range(9) for t in range(4)] + ["A,r0,0,1", "A,r1,0,0", "A,r2,0,0"]
    rows += [f"B,q{q},{t},{int(t != 1)}" for q in range(9) for t in range(4)] + ["B,r0,0,1", "B,r1,0,1", "B,r2,0,0"]
    path = _write(tmp_path, "ragged.csv", rows)
    assert main(["leaderboard", str(path), "--output", "json"]) == 0
    rows_, notes = _rows(capsys)
    a = rows_["A"]
    x = (9 * 1.0 + 1.0) / 12  # avg@N: nine questions at 1, then 1, 0, 0
    assert a["interval_kind"] == "exact-binomial" and a["mu"] == pytest.approx(x)
    # binomial bound on M x N_min = 12 x 1 trials: sd sqrt(x (1 - x) / 12), Clopper-Pearson on 12 x successes in 12
    assert a["sigma"] == pytest.approx(np.sqrt(x * (1 - x) / 12), rel=1e-9)
    k = 12 * x
    assert a["lo"] == pytest.approx(betaincinv(k, 12 - k + 1, 0.025), rel=1e-9)
    assert a["hi"] == pytest.approx(betaincinv(k + 1, 12 - k, 0.975), rel=1e-9)
    # the bound covers the worst case of these trial counts: the 1-trial questions' variance at their own rates
    worst = np.sqrt((9 * 0 + 3 * 0.25 / 1) / 12 ** 2)  # true rates 1 on the repeated questions, 1/2 on the others
    assert a["sigma"] >= worst
    note = next(n for n in notes if n["code"] == "prior_not_fitted")
    assert "observed mean over the questions (avg@N" in note["message"] and "pooled observed rate" not in note["message"]


def test_ranks_say_nothing_was_fitted_when_no_model_has_an_identified_prior(tmp_path, capsys):
    rows = [f"{m},q{q},{t},{v}" for m, v in (("ALL", 1), ("NONE", 0)) for q in range(4) for t in range(2)]
    path = _write(tmp_path, "extremes.csv", rows)
    assert main(["ranks", str(path), "--output", "json"]) == 0
    note = json.loads(capsys.readouterr().out)["prior_note"]
    assert note.startswith("the empirical-Bayes prior is not identified for any model")
    assert "held at its fit" not in note


def test_probabilities_are_never_shown_past_a_threshold_they_do_not_reach():
    shown = format_probabilities([0.94996, 0.95, 0.95004, 0.05004, 0.04996, 0.973, 0.5, 0.9995, 0.0004]).tolist()
    assert shown == ["94.9%", "95.0%", "95.0%", "5.1%", "5.0%", "97.3%", "50.0%", "> 99.9%", "< 0.1%"]
    rng = np.random.default_rng(0)
    p = rng.random(10_000)
    values = np.array([float(s.rstrip("%")) / 100 for s in format_probabilities(p).tolist() if s[0].isdigit()])
    kept = p[(p >= 0.001) & (p <= 0.999)]
    assert np.all(np.abs(values - 0.5) <= np.abs(kept - 0.5) + 1e-12)  # never further from 50% than the value
    assert np.all(np.abs(values - kept) < 0.001 + 1e-12)


def test_markdown_export_says_which_data_task_rubric_and_metric(capsys):
    data = str(ROOT / "data" / "matharena_aime_2025_I_counts.csv")
    assert main(["export", data, "--format", "md"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "Task: aime\\_2025\\_I" in first and "Rubric: Binary correctness" in first and "Metric: Bayes@N" in first


def test_tasks_of_very_different_sizes_are_named_in_the_combined_score_notes(tmp_path, capsys):
    rows = [f"m{i},big,q{q},0,{int(q <= i)}" for i in range(3) for q in range(9)]
    rows += [f"m{i},small,s0,0,{int(i == 2)}" for i in range(3)]
    path = _write(tmp_path, "sizes.csv", rows, header="model,task,question_id,trial,is_correct")
    assert main(["tasks", str(path), "--output", "json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    sizes = next(n for n in notes if n["code"] == "unequal_task_sizes")
    assert sizes["questions"] == {"big": 9, "small": 1}
    assert "a question of small counts 9 times as much as one of big" in sizes["message"]
