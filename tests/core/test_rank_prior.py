"""The rank distribution's prior: the leaderboard's, held at its fit (per task with tasks pooled)."""

from __future__ import annotations

import numpy as np
import pytest

from scorio_core import io
from scorio_core.leaderboard.table import ALL_TASKS, leaderboard, outcomes_for
from scorio_core.ranking.rank_prior import rank_prior_alpha


def _dump(tmp_path):
    rng = np.random.default_rng(5)
    rows = ["model,task,question_id,trial,is_correct"]
    for m, skill in (("a", 0.8), ("b", 0.5), ("c", 0.3)):
        for task, shift in (("easy", 0.15), ("hard", -0.2)):
            p = np.clip(skill + shift + rng.normal(0, 0.15, 12), 0.02, 0.98)
            rows += [f"{m},{task},q{q},{t},{int(rng.random() < p[q])}" for q in range(12) for t in range(4)]
    rows += [f"once,{task},q{q},0,{(q + len(task)) % 2}" for task in ("easy", "hard") for q in range(12)]  # N = 1
    path = tmp_path / "two_tasks.csv"
    path.write_text("\n".join(rows) + "\n")
    return io.load([str(path)])


def test_pooled_tasks_draw_around_the_leaderboards_bayes_at_n(tmp_path):
    tables = outcomes_for(_dump(tmp_path), ALL_TASKS)
    out = tables.rubric
    alpha, unsure = rank_prior_alpha(out.counts, "empirical-bayes", out.strata())
    assert [out.models[i] for i in unsure] == ["once"]  # N = 1: not identified, drawn under the uniform prior
    assert np.all(alpha[unsure] == 1.0)
    nu = alpha + out.counts
    means = ((nu @ out.weights) / nu.sum(axis=2)).mean(axis=1)
    board = leaderboard(tables).set_index("model")
    fitted = [i for i in range(len(out.models)) if i not in unsure]
    assert means[fitted] == pytest.approx(board.loc[[out.models[i] for i in fitted], "mu"].to_numpy(), abs=1e-9)
    easy, hard = out.strata() == 0, out.strata() == 1
    assert not np.allclose(alpha[0, easy][0], alpha[0, hard][0])  # one fit per (model, task)


def test_uniform_and_jeffreys_are_constants_and_bad_input_is_named():
    c = np.ones((2, 3, 2), dtype=np.int64)
    assert np.all(rank_prior_alpha(c, "uniform")[0] == 1.0) and np.all(rank_prior_alpha(c, "jeffreys")[0] == 0.5)
    with pytest.raises(ValueError, match="prior must be one of"):
        rank_prior_alpha(c, "laplace")
    with pytest.raises(ValueError, match="strata must have one task code per question"):
        rank_prior_alpha(c, "empirical-bayes", np.array([0, 1]))
