"""``ranks`` (in scorio_core.cli.compare): the posterior rank distribution from the command line (the Leaderboard's Rank distribution tab)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scorio_core import io
from scorio_core.arrays.order import canonical_outcomes
from scorio_core.cli import main
from scorio_core.ranking.posterior_ranks import RANK_ROW_KEYS
from scorio_core.leaderboard.table import outcomes_for
from scorio_core.ranking.posterior_ranks import posterior_rank_distribution

MATHARENA = Path(__file__).resolve().parents[2] / "data" / "matharena_aime_2025_I_counts.csv"


def _json(capsys, *argv) -> dict:
    assert main(["ranks", *map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_json_is_the_core_distribution_in_expected_rank_order(capsys):
    report = _json(capsys, MATHARENA, "--draws", 500, "--seed", 3, "--prior", "uniform")
    out = canonical_outcomes(outcomes_for(io.load([str(MATHARENA)])).rubric)[0]  # ranks draws in natural order
    P = posterior_rank_distribution(out.counts, out.weights, draws=500, seed=3)
    order = [list(out.models).index(m) for m in report["models"]]
    assert np.array_equal(np.asarray(report["probabilities"]), P[order])
    assert report["ranks"] == list(range(1, 17)) and report["draws"] == 500 and report["seed"] == 3
    assert report["prior"] == "uniform" and report["monte_carlo_error"] == pytest.approx(0.5 / np.sqrt(500))
    rows = report["rows"]
    assert [tuple(r) for r in rows] == [RANK_ROW_KEYS] * 16
    expected = [float(P[i] @ np.arange(1, 17)) for i in order]
    assert [r["expected_rank"] for r in rows] == pytest.approx(expected) and expected == sorted(expected)
    assert all(r["p_first"] == report["probabilities"][k][0] for k, r in enumerate(rows))


def test_two_models_far_apart_hold_their_ranks_by_hand(tmp_path, capsys):
    # a: 40 of 40 trials right, b: 0 of 40: every joint draw puts a first (Beta(41, 1) vs Beta(1, 41) never cross
    # in practice: P(b > a) = 1 / C(82, 41) < 1e-23), so P = [[1, 0], [0, 1]] exactly
    path = tmp_path / "two.csv"
    path.write_text("model,question,trial,correct\n" + "".join(
        f"{m},q{q},{t},{int(m == 'a')}\n" for m in "ab" for q in range(10) for t in range(4)))
    report = _json(capsys, path)
    assert report["models"] == ["a", "b"] and report["probabilities"] == [[1.0, 0.0], [0.0, 1.0]]
    assert report["rows"][0] == {"model": "a", "expected_rank": 1.0, "most_likely_rank": 1, "p_most_likely": 1.0,
                                 "p_first": 1.0, "rank": 1}
    assert main(["ranks", str(path), "--prior", "uniform"]) == 0
    assert "uniform prior, seed 0" in capsys.readouterr().out
    assert main(["ranks", str(path)]) == 0  # the leaderboard's default prior; both models' fits fall back here
    out = capsys.readouterr().out
    assert "empirical-bayes prior, seed 0" in out and "not identified for any model" in out
    assert "held at its fit" not in out  # nothing was fitted


def test_the_default_prior_is_the_leaderboards_held_at_its_fit(capsys, tmp_path):
    """Each model's per-question Dirichlet(alpha_hat + counts): the mean of its draws is its leaderboard Bayes@N
    (MathArena without gemini-2.0-flash, whose prior is not identified: one question whose trials disagree; every
    other prior identified), so the rank distribution uses the same prior as the ranking beside it."""
    import pandas as pd

    from scorio_core.leaderboard.table import leaderboard
    from scorio_core.ranking.rank_prior import rank_prior_alpha

    data = pd.read_csv(MATHARENA)
    assert rank_prior_alpha(canonical_outcomes(outcomes_for(io.load([str(MATHARENA)])).rubric)[0].counts,
                            "empirical-bayes")[1] == [sorted(data["model"].unique()).index("gemini-2.0-flash")]
    path = tmp_path / "fitted.csv"
    data[data["model"] != "gemini-2.0-flash"].to_csv(path, index=False)
    report = _json(capsys, path, "--draws", 500)
    assert report["prior"] == "empirical-bayes" and report["prior_note"].startswith("the empirical-Bayes prior is held")
    tables = outcomes_for(io.load([str(path)]))
    out = canonical_outcomes(tables.rubric)[0]  # ranks draws in natural order
    alpha, unsure = rank_prior_alpha(out.counts, "empirical-bayes")
    assert unsure == []
    nu = alpha + out.counts
    means = ((nu @ out.weights) / nu.sum(axis=2)).mean(axis=1)
    board = leaderboard(tables).set_index("model")
    assert means == pytest.approx(board.loc[list(out.models), "mu"].to_numpy(), abs=1e-12)
    from scorio_core.ranking.rank_prior import hyperparameter_sd

    shift = hyperparameter_sd(out.counts, out.weights, alpha)  # plus the hyperparameters' variance, drawn
    P = posterior_rank_distribution(out.counts, out.weights, draws=500, seed=0, alpha=alpha, shift_sd=shift)
    order = [list(out.models).index(m) for m in report["models"]]
    assert np.array_equal(np.asarray(report["probabilities"]), P[order])


def test_errors_name_the_field(tmp_path, capsys):
    one = tmp_path / "one.csv"
    one.write_text("model,question,trial,correct\na,q1,0,1\n")
    assert main(["ranks", str(one), "--output", "json"]) != 0
    assert "needs at least 2" in capsys.readouterr().err
    assert main(["ranks", str(MATHARENA), "--draws", "0", "--output", "json"]) != 0
    assert "--draws" in capsys.readouterr().err


def test_rank_draws_floor_and_note_when_the_budget_cuts_them():
    from scorio_core.ranking.posterior_ranks import rank_draws, rank_draws_note, rank_summary

    assert rank_draws(250, 2000, 2) == 20 and rank_draws(3, 10, 2) == 4000
    assert rank_draws_note(200) == "" and "20 joint draws" in rank_draws_note(20) and "--draws" in rank_draws_note(20)
    counts = np.array([[[1, 3]] * 5, [[2, 2]] * 5, [[3, 1]] * 5])
    r = rank_summary(["a", "b", "c"], counts, [0.0, 1.0])
    assert r["draws"] == 4000 and r["note"] == ""
    P = np.array(r["probabilities"])
    assert r["monte_carlo_se"] == pytest.approx(float(np.sqrt(P * (1 - P) / 4000).max()))
    asked = rank_summary(["a", "b", "c"], counts, [0.0, 1.0], draws=20)["note"]  # asked for: no budget note, the error
    assert asked.startswith("20 joint draws, as asked") and "budget" not in asked and "11%" in asked


def test_model_blocks_draw_the_same_numbers(monkeypatch):
    from scorio_core.ranking import posterior_ranks as pr

    rng = np.random.default_rng(4)
    counts = np.stack([rng.integers(0, 4, (7, 9)), rng.integers(0, 4, (7, 9))], axis=-1) + np.array([0, 1])
    whole = pr.posterior_rank_distribution(counts, draws=30, seed=1)
    monkeypatch.setattr(pr, "_GAMMA_BUDGET", 2 * 9 * 2)  # one draw per chunk, blocks of 2 models
    assert np.array_equal(pr.posterior_rank_distribution(counts, draws=30, seed=1), whole)


def test_few_draws_is_among_the_notes_as_every_other_caveat(capsys):
    report = _json(capsys, MATHARENA, "--draws", 50, "--prior", "uniform")
    few = [n for n in report["notes"] if n["code"] == "few_draws"]
    assert few == [{"code": "few_draws", "draws": 50, "message": report["note"]}] and report["note"].startswith("50 joint")
    assert all(n["code"] != "few_draws" for n in _json(capsys, MATHARENA, "--draws", 500, "--prior", "uniform")["notes"])
    assert main(["ranks", str(MATHARENA), "--draws", "50", "--prior", "uniform"]) == 0
    assert capsys.readouterr().out.count("note: 50 joint draws") == 1  # printed once, not as note and as notes
