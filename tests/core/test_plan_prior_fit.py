"""The planner's prior: the width goal plans under the leaderboard's prior, and a fixed prior far from the data is
named (statistical QA: on a benchmark with mean success 0.15 the uniform prior's width stops left 95% of the
intervals missing the truth, and top-1 at 90% stopped on a wrong model 22% of the time)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.special import expit

from scorio_core import io
from scorio_core.cli import main
from scorio_core.leaderboard.table import outcomes_for
from scorio_core.plan import plan_next

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def hard(tmp_path):
    """5 models x 20 questions x 2 trials, p = expit(theta - b), b ~ N(2.5, 1.5^2): mean success ~0.15."""
    rng = np.random.default_rng(3)
    theta, b = rng.normal(0, 0.3, 5), rng.normal(2.5, 1.5, 20)
    p = expit(theta[:, None] - b[None, :])
    rows = [f"m{i},q{q:02d},{t},{int(rng.random() < p[i, q])}" for i in range(5) for q in range(20) for t in range(2)]
    path = tmp_path / "hard.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "\n".join(rows) + "\n")
    return path


def _plan(capsys, *argv):
    assert main(["plan", *map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_width_plans_under_the_leaderboards_prior_unless_one_is_chosen(hard, capsys):
    outcomes = outcomes_for(io.load([str(hard)])).rubric
    assert plan_next(outcomes, "width", width=0.1).status["prior"] == "empirical-bayes"
    assert plan_next(outcomes, "top-1").status["prior"] == "uniform"
    assert plan_next(outcomes, "width", width=0.1, prior="uniform").status["prior"] == "uniform"
    assert _plan(capsys, hard, "--goal", "width", "--width", "0.1")["status"]["prior"] == "empirical-bayes"
    assert _plan(capsys, hard, "--goal", "width", "--width", "0.1", "--prior", "jeffreys")["status"]["prior"] == "jeffreys"
    assert _plan(capsys, hard)["status"]["prior"] == "uniform"
    # the same intervals as the leaderboard's (questions fixed, its default prior)
    assert main(["leaderboard", str(hard), "--output", "json"]) == 0
    board = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    plan = plan_next(outcomes, "width", width=0.1)
    for row in plan.status["models"]:
        assert row["lo"] == pytest.approx(board[row["model"]]["lo"], abs=1e-9)
        assert row["hi"] == pytest.approx(board[row["model"]]["hi"], abs=1e-9)


def test_a_fixed_prior_far_from_the_data_is_named(hard, capsys):
    notes = [n["message"] for n in _plan(capsys, hard)["status"]["notes"]]
    (said,) = [n for n in notes if "moves the means" in n]
    assert said.startswith("the uniform prior moves the means of ") and "--prior empirical-bayes" in said
    eb = [n["message"] for n in _plan(capsys, hard, "--prior", "empirical-bayes")["status"]["notes"]]
    assert not [n for n in eb if "moves the means" in n]  # fitted to the data: nothing to say
    # near the middle of the range (MathArena): the uniform prior's stops were measured at their level, no note
    middle = [n["message"] for n in _plan(capsys, ROOT / "data" / "matharena_aime_2025_I_counts.csv")["status"]["notes"]]
    assert not [n for n in middle if "moves the means" in n]
