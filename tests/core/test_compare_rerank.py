"""scorio_core.rubric.rerank (rubric scope, prior R0) and scorio_core.leaderboard.costs on synthetic and bundled data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scorio_core import io, rubric
from scorio_core.rubric import rerank
from scorio_core.leaderboard.table import ALL_TASKS, leaderboard, outcomes_for
from scorio_core.leaderboard.costs import cost_columns, model_costs
from scorio_core.errors import InputError

ROOT = Path(__file__).resolve().parents[2]


def synthetic_attempts(n_models=4, n_questions=6, n_trials=8, tasks=("alpha", "beta"), seed=0) -> pd.DataFrame:
    """A tiny attempt table with the paper's base signals (has_box, completion_bpt, token_ratio, compass_context_*)."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in tasks:
        for m in range(n_models):
            skill = 0.25 + 0.15 * m
            for q in range(n_questions):
                for k in range(n_trials):
                    correct = float(rng.random() < skill)
                    rows.append({
                        "model": f"m{m}", "task": t, "question_id": f"q{q}", "trial": k, "is_correct": correct,
                        "has_box": float(rng.random() < 0.4 + 0.5 * correct),
                        "completion_bpt": float(rng.gamma(2.0, 0.3 if correct else 0.5)),
                        "token_ratio": float(rng.uniform(0.05, 0.6 if correct else 1.0)),
                        "finish_reason": "stop" if rng.random() < 0.95 else "length",
                        "compass_context_A": float(0.7 * correct + 0.3 * rng.random()),
                        "compass_context_B": float(0.6 * (1 - correct) * rng.random()),
                        "compass_context_C": float(0.3 * rng.random()),
                    })
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def dataset():
    frame = synthetic_attempts()
    return io.load([("synthetic.csv", frame.to_csv(index=False).encode())])


class TestCategorizeScope:
    def test_codes_aligned_and_thresholds_per_task(self, dataset):
        scoped = rerank.categorize_scope(dataset, "alpha", "Conf-Calibrated")
        mask = (dataset.attempts["task"] == "alpha").to_numpy()
        assert scoped.mask.tolist() == mask.tolist()
        assert np.all(scoped.categorization.codes[~mask] == -1)
        direct = rubric.categorize(dataset.attempts[mask].reset_index(drop=True), "Conf-Calibrated")
        assert scoped.categorization.codes[mask].tolist() == direct.codes.tolist()
        assert scoped.result.thresholds == pytest.approx(direct.thresholds, nan_ok=True)

    def test_all_tasks_pools_thresholds(self, dataset):
        pooled = rerank.categorize_scope(dataset, ALL_TASKS, "Conf-Calibrated")
        alpha = rerank.categorize_scope(dataset, "alpha", "Conf-Calibrated")
        assert pooled.mask.all()
        assert pooled.result.thresholds["corr_p33"] != alpha.result.thresholds["corr_p33"]
        # hand: corr_p33 = 33rd percentile of completion_bpt over every correct attempt (all tasks)
        correct = dataset.attempts["is_correct"].to_numpy() >= 0.5
        expected = np.percentile(dataset.attempts["completion_bpt"].to_numpy()[correct], 33)
        assert pooled.result.thresholds["corr_p33"] == pytest.approx(expected)

    def test_frozen_thresholds_and_shared_table(self, dataset):
        table = rerank.signal_table(dataset, "beta")
        frozen = {"tau_low_wrong": 0.9, "corr_p33": 0.3, "corr_p66": 0.6}
        scoped = rerank.categorize_scope(dataset, "beta", "Conf-Calibrated", frozen, table=table)
        assert scoped.result.thresholds["corr_p33"] == 0.3
        with pytest.raises(InputError, match="signal table"):
            rerank.categorize_scope(dataset, ALL_TASKS, "Conf-Calibrated", table=table)

    def test_rubric_leaderboard_matches_manual_path(self, dataset):
        scoped, outcomes, board = rerank.rubric_leaderboard(dataset, "alpha", "Format Aware", confidence=0.9)
        manual = leaderboard(outcomes_for(dataset, "alpha", scoped.categorization), confidence=0.9)
        pd.testing.assert_frame_equal(board, manual)
        assert outcomes.rubric.weights.tolist() == [0.0, 0.0, 1.0, 2.0, 3.0]  # paper F.1

    def test_counts_only_data_is_refused(self):
        counts = io.load([str(ROOT / "data" / "matharena_aime_2025_I_counts.csv")])
        with pytest.raises(InputError, match="counts only"):
            rerank.signal_table(counts, None)
        with pytest.raises(InputError, match="counts only"):
            rerank.categorize_scope(counts, None, "Format Aware")

    def test_unknown_name_raises(self, dataset):
        schema = rubric.Schema("bad", (rubric.Category("x", "is_corect >= 0.5", 1),))
        with pytest.raises(InputError, match="is_correct"):
            rerank.categorize_scope(dataset, "alpha", schema)


class TestPrior:
    def test_counts_per_question(self, dataset):
        attempts = dataset.attempts[(dataset.attempts["model"] == "m0").to_numpy()].reset_index(drop=True)
        result = rubric.categorize(attempts, "Binary correctness")
        prior = rerank.prior_question_counts(attempts, result.codes, 2)
        assert prior.counts.sum() == len(attempts)
        first = attempts[(attempts["task"] == "alpha") & (attempts["question_id"] == "q0")]
        i = list(zip(prior.tasks, prior.questions)).index(("alpha", "q0"))
        assert prior.counts[i].tolist() == [int((first["is_correct"] == 0).sum()), int(first["is_correct"].sum())]

    def test_align_single_task_and_all_tasks(self, dataset):
        prior = rerank.PriorCounts(("alpha", "alpha", "beta"), ("q0", "q1", "q0"), np.array([[1, 3], [2, 2], [5, 0]]))
        alpha = outcomes_for(dataset, "alpha")
        aligned, matched = rerank.align_prior(alpha, prior)
        assert aligned.shape == alpha.rubric.counts.shape and matched == 2
        q = list(alpha.rubric.questions)
        assert aligned[0, q.index("q0")].tolist() == [1, 3] and aligned[3, q.index("q1")].tolist() == [2, 2]
        pooled = outcomes_for(dataset, ALL_TASKS)
        aligned, matched = rerank.align_prior(pooled, prior)
        assert matched == 3
        assert aligned[0, list(pooled.rubric.questions).index("beta/q0")].tolist() == [5, 0]

    def test_other_task_name_matches_by_question_id(self, dataset):
        prior = rerank.PriorCounts(("elsewhere",), ("q2",), np.array([[0, 7]]))
        aligned, matched = rerank.align_prior(outcomes_for(dataset, "beta"), prior)
        assert matched == 1 and aligned.sum() == 7 * 4

    def test_prior_shrinks_toward_prior_and_category_mismatch(self, dataset):
        outcomes = outcomes_for(dataset, "alpha")
        strong = rerank.PriorCounts(tuple(["alpha"] * 6), tuple(f"q{j}" for j in range(6)), np.tile([0, 200], (6, 1)))
        aligned, _ = rerank.align_prior(outcomes, strong)
        with_prior = leaderboard(outcomes, prior_counts=aligned)
        without = leaderboard(outcomes)
        assert (with_prior.set_index("model")["mu"] > without.set_index("model")["mu"]).all()
        with pytest.raises(InputError, match="categories"):
            rerank.align_prior(outcomes, rerank.PriorCounts(("alpha",), ("q0",), np.array([[1, 2, 3]])))

    def test_prior_from_counts(self):
        counts = io.load([str(ROOT / "data" / "matharena_aime_2025_I_counts.csv")]).counts
        prior = rerank.prior_from_counts(counts)
        assert prior.counts.shape == (15, 2)
        assert prior.counts.sum() == int(counts["n_trials"].sum())  # hand: 16 models x 15 x 4 = 960


class TestCosts:
    def test_matharena_reported_cost_per_model(self):
        ds = io.load([str(ROOT / "data" / "matharena_aime_2025_I_counts.csv")])
        columns = cost_columns(ds)
        assert [c.column for c in columns] == ["model_total_cost_usd_reported"]
        assert columns[0].level == "model"
        result = model_costs(ds, "aime_2025_I", "model_total_cost_usd_reported")
        values = dict(zip(result.values["model"], result.values["value"]))
        assert values["o1 (medium)"] == pytest.approx(44.396805)  # data/matharena_aime_2025_I_counts.csv
        assert dict(result.left_out) == {"DeepSeek-R1-Distill-Qwen-32B": "$0.00*", "gemini-2.0-flash-thinking": "N/A"}

    def test_tau_bench_user_cost_is_mean_per_attempt(self):
        ds = io.load([str(ROOT / "data" / "tau_bench_airline_gpt4o_trials.csv")])
        (column,) = cost_columns(ds)
        assert column.column == "user_cost" and column.level == "attempt"
        raw = pd.read_csv(ROOT / "data" / "tau_bench_airline_gpt4o_trials.csv")
        result = model_costs(ds, None, "user_cost")
        assert result.values["value"].iloc[0] == pytest.approx(raw["user_cost"].mean())
        assert "mean user-simulator cost per attempt" in column.description

    def test_unknown_column(self, dataset):
        assert cost_columns(dataset) == []
        with pytest.raises(InputError, match="not a cost"):
            model_costs(dataset, None, "has_box")
