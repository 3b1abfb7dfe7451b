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
    for m, skill in (("a", 0.7), ("b", 0.5), ("c", 0.3)):  # (a: some of its easy questions split, so fitted)
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


def _theta_draws(counts, w, alpha, shift, draws, seed=1):
    """Each model's Bayes@N in ``draws`` joint draws, as posterior_rank_distribution draws them."""
    from scorio_core.ranking.posterior_ranks import _mean_scores

    rng = np.random.default_rng(seed)
    present = counts.sum(axis=2) > 0
    theta = _mean_scores(rng, counts + alpha, np.asarray(w, float), present / present.sum(axis=1, keepdims=True), draws)
    return theta + rng.standard_normal(theta.shape) * shift


@pytest.mark.parametrize("task", ["easy", ALL_TASKS])
def test_draws_have_the_leaderboards_variance(tmp_path, task):
    """Held prior + the hyperparameter shift: each model's draws have mean Bayes@N and sd the leaderboard's sigma."""
    from scorio_core.ranking.rank_prior import hyperparameter_sd

    tables = outcomes_for(_dump(tmp_path), task)
    out = tables.rubric
    strata = out.strata() if task == ALL_TASKS else None
    alpha, unsure = rank_prior_alpha(out.counts, "empirical-bayes", strata)
    shift = hyperparameter_sd(out.counts, out.weights, alpha, strata=strata, held=unsure)
    assert shift[unsure].tolist() == [0.0] * len(unsure) and (shift > 0).sum() >= 2  # the hyperparameters add variance
    theta = _theta_draws(out.counts, out.weights, alpha, shift, 40_000)
    board = leaderboard(tables).set_index("model")
    for i, model in enumerate(out.models):
        if i in unsure:
            continue
        assert theta[:, i].mean() == pytest.approx(board.loc[model, "mu"], abs=0.002)
        assert theta[:, i].std() == pytest.approx(board.loc[model, "sigma"], rel=0.03)  # MC: sd of an sd ~0.4%


def test_two_models_rank_probability_matches_compares_p_a_beats_b(tmp_path, capsys):
    """Two models on different questions (one shared, so they are linked): P(A ranks first) is Compare's P(A > B) (QA
    found 0.93 against 0.77 when the draws left out the hyperparameter variance)."""
    import json

    from scorio_core.cli import main

    rng = np.random.default_rng(11)
    rows = ["model,question_id,trial,is_correct"]
    rows += [f"A,a{q},{t},{int(rng.random() < 0.55)}" for q in range(10) for t in range(4)]
    rows += [f"B,b{q},{t},{int(rng.random() < 0.47)}" for q in range(10) for t in range(4)]
    rows += [f"{m},shared,{t},{t % 2}" for m in "AB" for t in range(4)]  # one common question links them
    path = tmp_path / "disjoint.csv"
    path.write_text("\n".join(rows) + "\n")
    assert main(["ranks", str(path), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ranks = {r["model"]: r["p_first"] for r in out["rows"]}
    # as the leaderboard says: different questions (linked by the shared one: ranks across both)
    assert [n["code"] for n in out["notes"]] == ["unequal_question_sets"] and out["rank_scope"] == "all"
    assert out["notes"][0]["models"] == {"A": 11, "B": 11}
    assert main(["compare", str(path), "--models", "A", "B", "--output", "json"]) == 0
    rho = json.loads(capsys.readouterr().out)["difference"]["rho"]
    assert ranks["A"] == pytest.approx(rho, abs=0.03)  # Monte-Carlo (4,000 draws) and the normal approximation
