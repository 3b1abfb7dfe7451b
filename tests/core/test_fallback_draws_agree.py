"""ranks, compare and plan agree on models whose empirical-Bayes prior is not identified (the leaderboard's
fallback rows): each is drawn from its leaderboard row (estimate, sd), kept in [0, 1] by a moment-matched Beta
(:func:`scorio_core.uncertainty.fallback_draws.fallback_score_draws`).

Fixture (hand-checkable): ``all-correct`` 30 questions x 4 trials all right (every trial in one category: pooled
Jeffreys estimate 120.5 / 121 = 0.99587, sd sqrt(x(1-x)/120) = 0.00586); ``single-q`` one question 9/10 (fewer than
10 questions tried twice: estimate 0.9, sd sqrt(0.09/10) = 0.0949); ``n1-hi`` 30 questions x 1 trial, 21 right and
``n1-lo`` 15 right (N = 1: 0.7 and 0.5, sd sqrt(x(1-x)/30)); ``fit-hi``, ``fit-lo`` 30 questions x 4 trials
(fitted priors). Tolerances are Monte-Carlo errors: ``Z`` standard errors of the estimate from the draws.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.special import ndtr

from scorio_core.cli import main
from scorio_core.uncertainty.fallback_draws import fallback_score_draws

Z = 4.5  # standard errors: a false alarm in about 1 of 150,000 checks
DRAWS = 8000
FIT_HI = [4, 3, 3, 2, 4, 1, 3, 2, 4, 3] * 3  # right answers of 4 per question
FIT_LO = [2, 1, 3, 2, 0, 2, 1, 2, 3, 1] * 3


def _csv(path, models) -> str:
    rows = ["model,question,trial,correct"]
    for name in models:
        if name == "all-correct":
            rows += [f"{name},q{q},{t},1" for q in range(30) for t in range(4)]
        elif name == "single-q":
            rows += [f"{name},q0,{t},{int(t < 9)}" for t in range(10)]
        elif name in ("n1-hi", "n1-lo", "n1-top"):
            right = {"n1-hi": 21, "n1-lo": 15, "n1-top": 28}[name]
            rows += [f"{name},q{q},0,{int(q < right)}" for q in range(30)]
        else:
            k = FIT_HI if name == "fit-hi" else FIT_LO
            rows += [f"{name},q{q},{t},{int(t < k[q])}" for q in range(30) for t in range(4)]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def _run(capsys, *argv) -> dict:
    assert main([*map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def _rows(capsys, path) -> dict:
    return {r["model"]: r for r in _run(capsys, "leaderboard", path)["rows"]}


def _p_first(capsys, path) -> dict:
    return {r["model"]: r["p_first"] for r in _run(capsys, "ranks", path, "--draws", DRAWS)["rows"]}


def _p_best(capsys, path) -> dict:
    report = _run(capsys, "plan", path, "--prior", "empirical-bayes", "--draws", DRAWS)
    return {m["model"]: m["p_best"] for m in report["status"]["models"]}


def _se(p: float, *draws: int) -> float:
    """Standard error of the difference of independent Monte-Carlo estimates of p (one per run of ``draws``)."""
    return float(np.sqrt(sum(max(p * (1 - p), 1e-4) / d for d in draws)))


ALL = ("all-correct", "single-q", "n1-hi", "n1-lo", "fit-hi", "fit-lo")


def test_the_fixture_rows_are_the_hand_numbers(tmp_path, capsys):
    rows = _rows(capsys, _csv(tmp_path / "all.csv", ALL))
    assert rows["all-correct"]["estimate"] == pytest.approx(120.5 / 121)
    assert rows["all-correct"]["sigma"] == pytest.approx(np.sqrt(120.5 / 121 * 0.5 / 121 / 120))
    assert rows["single-q"]["estimate"] == pytest.approx(0.9) and rows["single-q"]["sigma"] == pytest.approx(0.3 / np.sqrt(10))
    assert rows["n1-hi"]["estimate"] == pytest.approx(0.7) and rows["n1-hi"]["sigma"] == pytest.approx(np.sqrt(0.21 / 30))
    assert rows["all-correct"]["rank"] == 1


def test_ranks_puts_all_correct_first_and_its_draws_are_centred_on_the_rows(tmp_path, capsys):
    from scorio_core import io
    from scorio_core.leaderboard.table import outcomes_for
    from scorio_core.ranking.posterior_ranks import posterior_score_draws
    from scorio_core.ranking.rank_prior import fallback_moments, hyperparameter_sd, rank_prior_alpha

    path = _csv(tmp_path / "all.csv", ALL)
    rows = _rows(capsys, path)
    report = _run(capsys, "ranks", path)
    first = {r["model"]: r for r in report["rows"]}
    assert report["models"][0] == "all-correct" and first["all-correct"]["most_likely_rank"] == 1
    assert first["all-correct"]["p_first"] > 0.5  # was 0.39 (uniform draws of the fallback rows)
    assert "leaderboard row's estimate as mean" in report["prior_note"] and "uniform" not in report["prior_note"]
    # the same draws the rank distribution ranks: each model's mean draw is its leaderboard estimate
    out = outcomes_for(io.load([path])).rubric
    alpha, unsure = rank_prior_alpha(out.counts, "empirical-bayes", out.strata())
    assert sorted(out.models[i] for i in unsure) == ["all-correct", "n1-hi", "n1-lo", "single-q"]
    mean, sd = fallback_moments(out.counts, out.weights, unsure, strata=out.strata())
    shift = hyperparameter_sd(out.counts, out.weights, alpha, strata=out.strata(), held=unsure)
    theta = posterior_score_draws(out.counts, out.weights, draws=DRAWS, alpha=alpha, shift_sd=shift,
                                  fallback_mean=mean, fallback_sd=sd)
    assert theta.min() >= 0.0 and theta.max() <= 1.0
    for i, m in enumerate(out.models):
        tol = Z * rows[m]["sigma"] / np.sqrt(DRAWS)
        assert abs(theta[:, i].mean() - rows[m]["estimate"]) < tol, m
        if i in unsure:  # the row's sd, too (Monte-Carlo error of an sd: about sd / sqrt(2 D))
            assert abs(theta[:, i].std() - rows[m]["sigma"]) < Z * rows[m]["sigma"] / np.sqrt(DRAWS / 2) * 2, m


def test_fitted_draws_are_unchanged_by_the_fallback_rows(tmp_path):
    from scorio_core import io
    from scorio_core.leaderboard.table import outcomes_for
    from scorio_core.ranking.posterior_ranks import posterior_score_draws
    from scorio_core.ranking.rank_prior import fallback_moments, rank_prior_alpha

    out = outcomes_for(io.load([_csv(tmp_path / "all.csv", ALL)])).rubric
    alpha, unsure = rank_prior_alpha(out.counts, "empirical-bayes")
    mean, sd = fallback_moments(out.counts, out.weights, unsure)
    before = posterior_score_draws(out.counts, out.weights, draws=500, seed=7, alpha=alpha)
    after = posterior_score_draws(out.counts, out.weights, draws=500, seed=7, alpha=alpha, fallback_mean=mean,
                                  fallback_sd=sd)
    fitted = [i for i in range(len(out.models)) if i not in unsure]
    assert np.array_equal(before[:, fitted], after[:, fitted])  # bit-identical
    assert not np.array_equal(before[:, unsure], after[:, unsure])


@pytest.mark.parametrize("pair", [("n1-hi", "n1-lo"), ("fit-hi", "n1-hi"), ("n1-lo", "fit-lo")],
                         ids=["two-fallbacks", "fitted-vs-fallback", "fallback-vs-fitted"])
def test_p_a_beats_b_agrees_in_ranks_compare_and_plan(tmp_path, capsys, pair):
    """Two models only: ranks' p_first of A and plan's p_best of A are P(A > B) (continuous draws: no ties)."""
    a, b = pair
    path = _csv(tmp_path / "pair.csv", pair)
    rho = _run(capsys, "compare", path, "--models", a, b)["difference"]["p_a_gt_b"]  # the normal approximation
    ranks, plan = _p_first(capsys, path)[a], _p_best(capsys, path)[a]
    assert abs(ranks - plan) < Z * _se(rho, DRAWS, DRAWS)
    assert abs(ranks - rho) < Z * _se(rho, DRAWS) and abs(plan - rho) < Z * _se(rho, DRAWS)


def test_at_the_bound_ranks_and_plan_agree_and_compare_uses_the_skewed_spread(tmp_path, capsys):
    """all-correct vs n1-top (N = 1, 28 of 30: 0.933, sd sqrt(0.0622 / 30) = 0.0455): symmetric normals put
    1 - Phi(0.0667 / 0.0455) = 0.072 of n1-top's mass above 1, on impossible scores, and gave compare's
    P(A > B) = Phi(0.0625 / 0.0459) = 0.913 where the bounded draws of ranks and plan (the same Beta, both models
    answered every question) say about 0.984. compare now uses each row's Beta on the side facing the other
    (all-correct's spread below, n1-top's above: :func:`beta_sides`): 0.978."""
    from scipy.stats import beta

    path = _csv(tmp_path / "bound.csv", ("all-correct", "n1-top"))
    rows = _rows(capsys, path)
    rho = _run(capsys, "compare", path, "--models", "all-correct", "n1-top")["difference"]["p_a_gt_b"]
    a, b = rows["all-correct"], rows["n1-top"]

    def side(row, q):  # hand: the moment-matched Beta's 2.5% / 97.5% quantile, in normal-sd units (z = 1.96)
        x, v = row["mu"], row["sigma"] ** 2
        k = x * (1 - x) / v - 1
        return abs(float(beta.ppf(q, x * k, (1 - x) * k)) - x) / 1.959963984540054

    assert rho == pytest.approx(float(ndtr((a["mu"] - b["mu"]) / np.hypot(side(a, 0.025), side(b, 0.975)))), rel=1e-9)
    assert rho == pytest.approx(0.9778, abs=1e-4)  # 0.9134 with the symmetric binomial sds
    ranks, plan = _p_first(capsys, path)["all-correct"], _p_best(capsys, path)["all-correct"]
    assert abs(ranks - plan) < Z * _se(ranks, DRAWS, DRAWS)
    d = fallback_score_draws(np.random.default_rng(1), [a["mu"], b["mu"]], [a["sigma"], b["sigma"]], 0.0, 1.0, 200_000)
    exact = float((d[:, 0] > d[:, 1]).mean())  # the Beta draws' P(A > B), to about 0.0003
    assert abs(ranks - exact) < Z * _se(exact, DRAWS, 200_000) and abs(rho - exact) < 0.01


def test_a_model_with_one_question_ranks_behind_all_correct(tmp_path, capsys):
    """all-correct vs single-q (the QA report's case): ranks' P(A > B) is the Beta draws' (about 0.956); compare's
    normal approximation says 0.843 (0.146 of single-q's normal above 1). plan's target for single-q is its score on
    all 30 questions (29 extrapolated), not its row, so plan is not compared here."""
    path = _csv(tmp_path / "one.csv", ("all-correct", "single-q"))
    rows = _rows(capsys, path)
    a, b = rows["all-correct"], rows["single-q"]
    ranks = _p_first(capsys, path)["all-correct"]
    d = fallback_score_draws(np.random.default_rng(1), [a["mu"], b["mu"]], [a["sigma"], b["sigma"]], 0.0, 1.0, 200_000)
    exact = float((d[:, 0] > d[:, 1]).mean())
    assert abs(ranks - exact) < Z * _se(exact, DRAWS, 200_000) and ranks > 0.9


def test_p_best_on_n1_data_agrees_in_ranks_and_plan(tmp_path, capsys):
    """N = 1: no model's prior is identified; P(best) from ranks and from plan --prior empirical-bayes agree."""
    rng = np.random.default_rng(3)
    rates = [0.62, 0.58, 0.55, 0.5, 0.45]
    rows = ["model,question,trial,correct"] + [f"m{i},q{q},0,{int(rng.random() < r)}"
                                                for i, r in enumerate(rates) for q in range(40)]
    path = tmp_path / "n1.csv"
    path.write_text("\n".join(rows) + "\n")
    report = _run(capsys, "ranks", path, "--draws", DRAWS)
    assert "not identified for any model" in report["prior_note"] and "uniform" not in report["prior_note"]
    ranks = {r["model"]: r["p_first"] for r in report["rows"]}
    plan = _p_best(capsys, path)
    assert sum(plan.values()) == pytest.approx(1.0) and sum(ranks.values()) == pytest.approx(1.0)
    for m, p in plan.items():
        assert abs(ranks[m] - p) < Z * _se(p, DRAWS, DRAWS), m
