"""Question diagnostics as tables (scorio_core.items.report), the ``questions`` CLI and ``--exclude-flagged``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.special import expit, ndtri

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.items import fit_irt
from scorio_core.items.report import (MODEL_COLUMNS, QUESTION_COLUMNS, check_flag_codes, diagnose, exclude_questions,
                                      flagged_questions)
from scorio_core.leaderboard.table import leaderboard, outcomes_for


def _planted_csv(path, n_models=8, n_questions=12, trials=4, seed=3):
    """Models of rising skill; question q05 is inverted: the strongest models fail it, the weakest pass it."""
    rng = np.random.default_rng(seed)
    theta = np.linspace(-2, 2, n_models)
    b = np.linspace(-1.5, 1.5, n_questions)
    p = expit(1.5 * (theta[:, None] - b[None, :]))
    p[:, 5] = 1 - expit(3.0 * theta)  # a mislabeled key: right answers scored wrong
    p[:, 7] = 1.0  # every model solves it
    rows = ["model,question_id,trial,is_correct"]
    for i in range(n_models):
        for j in range(n_questions):
            hits = rng.random(trials) < p[i, j]
            rows += [f"m{i},q{j:02d},{t},{int(h)}" for t, h in enumerate(hits)]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_diagnose_tables_match_the_fit(tmp_path):
    outcomes = outcomes_for(io.load([_planted_csv(tmp_path / "p.csv")]))
    diag = diagnose(outcomes, confidence=0.9)
    assert tuple(diag.questions.columns) == QUESTION_COLUMNS and tuple(diag.models.columns) == MODEL_COLUMNS
    o = outcomes.binary
    s, n = o.counts[..., 1].astype(float), o.counts.sum(axis=2).astype(float)
    fit = fit_irt(s, n, models=o.models, questions=o.questions)
    z = ndtri(0.95)
    np.testing.assert_allclose(diag.questions["difficulty"], fit.b, rtol=0, atol=1e-12)
    np.testing.assert_allclose(diag.questions["discrimination_hi"], fit.a + z * fit.a_se, rtol=0, atol=1e-12)
    np.testing.assert_allclose(diag.models["ability_lo"], fit.theta - z * fit.theta_se, rtol=0, atol=1e-12)
    flags = dict(zip(diag.questions["question_id"], diag.questions["flags"]))
    assert "possibly_mislabeled" in flags["q05"] and "saturated" in flags["q07"]
    assert flagged_questions(diag, "saturated") == ("q07",)
    assert diag.outcome == "binary correctness"


def test_exclude_questions_equals_a_leaderboard_on_the_kept_questions(tmp_path):
    path = _planted_csv(tmp_path / "p.csv")
    outcomes = outcomes_for(io.load([path]))
    kept = exclude_questions(outcomes, ["q05", "q07", "not-a-question"])
    assert kept.rubric.questions == tuple(q for q in outcomes.rubric.questions if q not in ("q05", "q07"))
    assert kept.binary is kept.rubric
    # by hand: the same data without those rows
    lines = (tmp_path / "p.csv").read_text().splitlines()
    (tmp_path / "k.csv").write_text("\n".join([lines[0]] + [r for r in lines[1:] if ",q05," not in r and ",q07," not in r]) + "\n")
    by_hand = leaderboard(outcomes_for(io.load([str(tmp_path / "k.csv")])))
    got = leaderboard(kept)
    np.testing.assert_allclose(got["mu"], by_hand["mu"], rtol=0, atol=1e-15)
    assert exclude_questions(outcomes, []) is outcomes
    with pytest.raises(InputError, match="every question is flagged"):
        exclude_questions(outcomes, outcomes.rubric.questions)


def test_flag_codes_are_checked():
    assert check_flag_codes("saturated, unsolved,saturated") == ("saturated", "unsolved")
    with pytest.raises(ValueError, match="unknown question flag 'broken'"):
        check_flag_codes("saturated,broken")


def test_cli_questions_json_contract(tmp_path, capsys):
    from scorio_core.cli import main

    path = _planted_csv(tmp_path / "p.csv")
    assert main(["questions", path, "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["model"] == "2pl" and set(out["flag_rules"]) >= {"possibly_mislabeled", "saturated", "unsolved"}
    assert len(out["questions"]) == 12 and len(out["models"]) == 8
    row = {q["question_id"]: q for q in out["questions"]}["q05"]
    assert set(row) == set(QUESTION_COLUMNS) and "possibly_mislabeled" in row["flags"]
    assert row["difficulty_lo"] < row["difficulty"] < row["difficulty_hi"]
    assert set(out["models"][0]) == set(MODEL_COLUMNS)
    # the 2PL scale per task: abilities of the models that answered have mean square 1, log-scale variance 1/(2L)
    task = out["tasks"][0]
    assert task["scale"] > 0 and task["scale_var"] == pytest.approx(1 / (2 * 8))
    assert np.mean([m["ability"] ** 2 for m in out["models"]]) == pytest.approx(1.0, rel=1e-9)
    assert main(["questions", path, "--rasch", "--output", "json"]) == 0
    rasch = json.loads(capsys.readouterr().out)
    assert rasch["model"] == "rasch" and all(q["discrimination"] == 1.0 for q in rasch["questions"])
    assert rasch["tasks"][0]["scale"] == 1.0 and rasch["tasks"][0]["scale_var"] == 0.0
    # the difficulty prior: estimated from the data by default (12 questions >= 10); N(0, 3^2) on request
    # reported on the difficulties' scale (helper QA: it was the mode's, c times smaller, clamped at 0.5 there)
    sd = task["difficulty_prior_sd"]
    assert out["difficulty_prior"] == "empirical-bayes" and 0.5 <= sd * task["scale"] < 3.0
    assert f"b~N(0,{sd * task['scale']:.3g}^2) estimated from the data" in out["method"]
    assert f"on that scale the difficulty prior is N(0,{sd:.3g}^2)" in out["method"]
    assert "estimated per task" in out["priors_note"]
    assert main(["questions", path, "--difficulty-prior", "fixed", "--output", "json"]) == 0
    fixed = json.loads(capsys.readouterr().out)
    assert fixed["difficulty_prior"] == "fixed"
    assert fixed["tasks"][0]["difficulty_prior_sd"] == pytest.approx(3.0 / fixed["tasks"][0]["scale"], rel=1e-12)
    assert "b~N(0,3^2)" in fixed["method"] and "estimated" not in fixed["method"]
    assert main(["questions", path, "--output", "table"]) == 0
    assert "q05" in capsys.readouterr().out


def test_cli_questions_one_model_needs_rasch(tmp_path, capsys):
    """One model: the default fits Rasch and says so (as the Questions page); an explicit --model-2pl refuses."""
    from scorio_core.cli import main

    path = tmp_path / "one.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "".join(f"m,q{j},0,{j % 2}\n" for j in range(4)))
    assert main(["questions", str(path), "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["tasks"][0]["model"] == "rasch"
    assert main(["questions", str(path), "--model-2pl"]) == 2
    assert "Use the Rasch model (model='rasch'; CLI: --rasch)" in capsys.readouterr().err
    assert main(["questions", str(path), "--rasch", "--output", "json"]) == 0


def test_leaderboard_exclude_flagged(tmp_path, capsys):
    from scorio_core.cli import main

    path = _planted_csv(tmp_path / "p.csv")
    assert main(["leaderboard", path, "--output", "json"]) == 0
    full = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert main(["leaderboard", path, "--exclude-flagged", "saturated", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    note = [n for n in out["notes"] if n["code"] == "excluded_questions"][0]
    assert note["questions"] == ["q07"] and out["settings"]["exclude_flagged"] == ["saturated"]
    rows = {r["model"]: r for r in out["rows"]}
    # by hand: avg@N over the 11 kept questions = (12 * avg - 1) / 11, since every model solves q07 in every trial
    for model, row in rows.items():
        assert row["n_questions"] == 11
        assert row["avg"] == pytest.approx((12 * full[model]["avg"] - 1.0) / 11, abs=1e-12)
    assert main(["leaderboard", path, "--exclude-flagged", "nonsense"]) == 2
    assert "unknown question flag 'nonsense'" in capsys.readouterr().err


def test_a_partial_credit_category_is_not_flaky(tmp_path):
    # found on AlpacaEval's annotations (N = 1, a draw weighs 0.5): every draw was called flaky ("attempts disagree")
    # while the Questions page said no question can be flaky at N = 1. Flaky is two categories, not a fraction.
    from scorio_core import rubric
    from scorio_core.rubric import rerank

    rows = ["model,question_id,trial,category"]
    for i in range(6):
        for j in range(8):
            codes = [(i + j) % 3] if j < 6 else [0, 2]  # q06, q07: two attempts in two categories (flaky)
            rows += [f"m{i},q{j},{t},{c}" for t, c in enumerate(codes)]
    path = tmp_path / "codes.csv"
    path.write_text("\n".join(rows) + "\n")
    dataset = io.load([str(path)])
    scoped = rerank.categorize_scope(dataset, "codes", rubric.default_schema_for(dataset))
    diag = diagnose(outcomes_for(dataset, "codes", scoped.categorization))
    flaky = {q for q, f in zip(diag.questions["question_id"], diag.questions["flags"]) if "flaky" in f}
    assert flaky == {"q6", "q7"}
