"""Ranks before and after leaving questions out (scorio_core.items.shift) and observed success rates."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scorio_core import io
from scorio_core.items.report import exclude_questions
from scorio_core.items.shift import SHIFT_COLUMNS, rank_shift, success_rates
from scorio_core.leaderboard.table import leaderboard, outcomes_for


def _board(models, ranks, mu, n=10):
    mu = np.asarray(mu, dtype=float)
    return pd.DataFrame({"model": models, "rank": pd.array(ranks, dtype="Int64"), "mu": mu, "lo": mu - 0.1,
                         "hi": mu + 0.1, "n_questions": n})


def test_rank_shift_joins_and_counts_places_moved():
    before = _board(["a", "b", "c"], [1, 2, 3], [0.9, 0.6, 0.3])
    after = _board(["a", "b", "c"], [2, 1, 3], [0.5, 0.7, 0.3], n=8)
    out = rank_shift(before, after)
    assert tuple(out.columns) == SHIFT_COLUMNS
    assert out["model"].tolist() == ["b", "a", "c"]  # by rank after
    assert out["moved"].tolist() == [1, -1, 0]
    row = out.set_index("model").loc["a"]
    assert (row["mu_before"], row["mu_after"], row["lo_after"], row["hi_before"]) == pytest.approx((0.9, 0.5, 0.4, 1.0))
    assert (row["n_questions_before"], row["n_questions_after"]) == (10, 8)
    assert str(out["rank_before"].dtype) == "Int64" and str(out["moved"].dtype) == "Int64"


def test_rank_shift_models_on_one_side_and_unranked():
    before = _board(["a", "b", "c"], [1, 2, None], [0.9, 0.6, np.nan])
    after = _board(["a", "b"], [1, 2], [0.8, 0.5])
    out = rank_shift(before, after).set_index("model")
    assert out.index.tolist() == ["a", "b", "c"]
    assert pd.isna(out.loc["c", "rank_after"]) and pd.isna(out.loc["c", "moved"]) and np.isnan(out.loc["c", "mu_after"])


def test_rank_shift_rejects_bad_tables():
    good = _board(["a"], [1], [0.5])
    with pytest.raises(ValueError, match="lacks the leaderboard column"):
        rank_shift(good.drop(columns=["lo"]), good)
    with pytest.raises(ValueError, match="more than once"):
        rank_shift(good, pd.concat([good, good]))


def test_rank_shift_on_a_real_leaderboard(tmp_path):
    """Leaving out the questions the leader alone solves drops it: the shift equals two leaderboards by hand."""
    rows = ["model,question_id,trial,is_correct"]
    solve = {"x": {0, 1, 2, 3}, "y": {2, 3, 4}, "z": {4}}
    for m, solved in solve.items():
        rows += [f"{m},q{q},{t},{int(q in solved)}" for q in range(5) for t in range(3)]
    path = tmp_path / "s.csv"
    path.write_text("\n".join(rows) + "\n")
    outcomes = outcomes_for(io.load([str(path)]))
    before = leaderboard(outcomes)
    after = leaderboard(exclude_questions(outcomes, ["q0", "q1"]))
    out = rank_shift(before, after).set_index("model")
    assert out.loc["x", "rank_before"] == 1 and out.loc["y", "rank_after"] == 1
    assert out.loc["x", "moved"] < 0 and out.loc["y", "moved"] > 0
    assert (out["n_questions_after"] == 3).all()
    np.testing.assert_allclose(out.loc[after["model"], "mu_after"], after["mu"], rtol=0, atol=0)


def test_shift_headers_name_each_sides_intervals(tmp_path):
    """N = 1: the leaderboards' empirical-Bayes prior is not identified, their intervals are exact binomial, and the
    Questions page's shift table says so in its headers instead of "CrI"."""
    from dashboard.tables.items import shift_display
    from scorio_core.report.tables import interval_abbrev

    rows = ["model,question_id,trial,is_correct"] + [f"{m},q{q},0,{int(q < k)}" for m, k in (("x", 4), ("y", 2))
                                                      for q in range(5)]
    path = tmp_path / "n1.csv"
    path.write_text("\n".join(rows) + "\n")
    outcomes = outcomes_for(io.load([str(path)]))
    before, after = leaderboard(outcomes), leaderboard(exclude_questions(outcomes, ["q0"]))
    kinds = (interval_abbrev(before, 0.95), interval_abbrev(after, 0.95))
    assert kinds == ("95% exact CI", "95% exact CI")
    _, config = shift_display(rank_shift(before, after), kinds=kinds)
    assert config["ci_before"]["label"] == "95% exact CI before" and config["ci_after"]["label"] == "95% exact CI after"


def test_success_rates_are_successes_over_trials():
    from scorio_core.leaderboard.outcomes import Outcomes

    counts = np.array([[[1, 3], [4, 0]], [[0, 0], [2, 2]]])  # (L=2, M=2, 2 categories); model 1 skipped q0
    outcomes = Outcomes(task="t", models=("m0", "m1"), questions=("q0", "q1"), weights=np.array([0.0, 1.0]), labels=("wrong", "right"),
                        counts=counts, R=None)
    rates = success_rates(outcomes)
    assert rates.shape == (2, 2) and rates.index.tolist() == ["m0", "m1"] and rates.columns.tolist() == ["q0", "q1"]
    assert rates.loc["m0", "q0"] == 0.75 and rates.loc["m0", "q1"] == 0.0 and rates.loc["m1", "q1"] == 0.5
    assert np.isnan(rates.loc["m1", "q0"])
