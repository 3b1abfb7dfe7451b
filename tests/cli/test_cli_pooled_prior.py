"""All tasks pooled under the empirical-Bayes prior with unequal trials per question: one prior per model is fitted to
every task's questions, so questions tried once are pulled toward a task tried ten times; the leaderboard says so."""

from __future__ import annotations

import numpy as np

from scorio_core import io
from scorio_core.cli import main
from scorio_core.leaderboard.checks import leaderboard_notices
from scorio_core.leaderboard.table import ALL_TASKS, leaderboard, outcomes_for


def _dump(tmp_path, trials_hard: int = 10, trials_once: int = 1):
    """a and b: 40 questions tried ``trials_once`` times (rate ~0.4), 20 tried ``trials_hard`` times (rate ~0.7)."""
    rng = np.random.default_rng(3)
    rows = ["model,task,question,trial,correct"]
    for m, shift in (("a", 0.0), ("b", 0.1)):
        rows += [f"{m},once,q{q},{t},{int(rng.random() < 0.4 + shift)}" for q in range(40) for t in range(trials_once)]
        rows += [f"{m},often,q{q},{t},{int(rng.random() < 0.7 + shift)}" for q in range(20) for t in range(trials_hard)]
    path = tmp_path / "pool.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_pooled_tasks_with_unequal_trials_are_flagged(tmp_path, capsys):
    data = io.load([str(_dump(tmp_path))])
    outcomes = outcomes_for(data, ALL_TASKS)
    table = leaderboard(outcomes)
    (note,) = [n for n in leaderboard_notices(outcomes, table) if n["code"] == "pooled_prior"]
    assert sorted(note["models"]) == ["a", "b"] and "different numbers of trials per question" in note["finding"]
    # the bias it warns of, on this data: the fitted mean is far above the observed mean over the questions (avg@N)
    assert (table["mu"] - table["avg"]).min() > 0.05
    for task in ("once", "often"):  # one task: no pooling, no notice
        one = outcomes_for(data, task)
        assert not [n for n in leaderboard_notices(one, leaderboard(one)) if n["code"] == "pooled_prior"]
    pooled_uniform = leaderboard(outcomes, prior="uniform")
    assert not [n for n in leaderboard_notices(outcomes, pooled_uniform) if n["code"] == "pooled_prior"]
    assert main(["leaderboard", str(_dump(tmp_path)), "--task", ALL_TASKS]) == 0
    assert "note: all tasks: Pooled over tasks, one empirical-Bayes prior per model" in capsys.readouterr().out


def test_equal_trials_per_question_are_not_flagged(tmp_path):
    outcomes = outcomes_for(io.load([str(_dump(tmp_path, trials_hard=3, trials_once=3))]), ALL_TASKS)
    table = leaderboard(outcomes)
    assert (table["n_trials"] == 3).all() and not table["interval"].str.contains("exact binomial").any()  # fitted
    assert not [n for n in leaderboard_notices(outcomes, table) if n["code"] == "pooled_prior"]
