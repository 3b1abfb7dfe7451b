"""scorio_core.ranking.compare: difference posterior, per-question summaries, disagreement tables."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core.leaderboard.table import TaskOutcomes
from scorio_core.ranking.compare import (
    DISAGREEMENT_COLUMNS,
    OUTCOME_LABELS,
    difference_density,
    difference_posterior,
    difference_span,
    disagreement_table,
    outcome_counts,
    question_scores,
    question_summary,
)
from scorio_core.leaderboard.outcomes import BINARY_LABELS, Outcomes
from scorio_core.ranking.rank import pairwise_confidence


def binary_outcomes(correct, trials, models=("a", "b", "c"), task="t") -> TaskOutcomes:
    correct = np.asarray(correct, dtype=np.int64)
    trials = np.asarray(trials, dtype=np.int64)
    counts = np.stack([trials - correct, correct], axis=2)
    questions = tuple(f"q{j + 1}" for j in range(correct.shape[1]))
    o = Outcomes(task, tuple(models), questions, np.array([0.0, 1.0]), BINARY_LABELS, counts)
    return TaskOutcomes(task, o, o)


class TestDifferencePosterior:
    def test_paper_appendix_d_pair(self):
        # paper App. D: LLM_10 (0.6213) vs LLM_9 (0.608), sigma 0.0117 each -> z = 0.8038, rho = 0.7892
        d = difference_posterior(0.6213, 0.0117, 0.608, 0.0117)
        assert d.mean == pytest.approx(0.0133)
        assert d.sd == pytest.approx(math.sqrt(2) * 0.0117)  # hand: independent posteriors
        assert d.z == pytest.approx(0.8038, abs=1e-4)
        assert d.rho == pytest.approx(0.7892, abs=1e-4)
        # hand: 1.959964 * sd
        assert d.hi - d.mean == pytest.approx(1.959964 * d.sd, rel=1e-6)
        assert d.lo < 0 < d.hi

    def test_rho_matches_pairwise_confidence(self):
        d = difference_posterior(0.3, 0.05, 0.4, 0.02, confidence=0.9)
        assert d.rho == pytest.approx(pairwise_confidence([0.3, 0.4], [0.05, 0.02])[0, 1])
        assert d.confidence == 0.9

    @given(st.floats(0, 1), st.floats(0.001, 0.2), st.floats(0, 1), st.floats(0.001, 0.2))
    @settings(max_examples=60, deadline=None)
    def test_antisymmetric(self, ma, sa, mb, sb):
        ab = difference_posterior(ma, sa, mb, sb)
        ba = difference_posterior(mb, sb, ma, sa)
        assert ab.mean == pytest.approx(-ba.mean)
        assert ab.rho + ba.rho == pytest.approx(1.0)
        assert ab.lo <= ab.mean <= ab.hi

    def test_zero_sd(self):
        d = difference_posterior(0.5, 0.0, 0.4, 0.0)
        assert d.sd == 0 and d.z == math.inf and d.rho == 1.0
        x, density = difference_density(d)
        assert x.size == 0 and density.size == 0

    @pytest.mark.parametrize("args, exc", [
        ((float("nan"), 0.1, 0.2, 0.1), ValueError),
        ((0.5, -0.1, 0.2, 0.1), ValueError),
        (("0.5", 0.1, 0.2, 0.1), TypeError),
    ])
    def test_validation(self, args, exc):
        with pytest.raises(exc):
            difference_posterior(*args)

    def test_bad_confidence(self):
        with pytest.raises(ValueError, match="confidence"):
            difference_posterior(0.5, 0.1, 0.4, 0.1, confidence=1.5)

    def test_density_integrates_to_one(self):
        d = difference_posterior(0.1, 0.03, 0.05, 0.04)
        x, density = difference_density(d, points=2001)
        assert np.trapezoid(density, x) == pytest.approx(1.0, abs=1e-4)
        assert x[np.argmax(density)] == pytest.approx(d.mean, abs=2 * (x[1] - x[0]))

    def test_density_stops_at_the_possible_differences(self):
        """Two models on one N = 1 question (sd 0.5 for scores in [0, 1]): the normal's grid would run to
        +/-2.75; with the rubric's span it stops at +/-1, where the clipped interval stops, same heights inside."""
        d = difference_posterior(0.75, 0.35, 0.25, 0.35)
        x_all, dens_all = difference_density(d)
        assert x_all.min() < -1 and x_all.max() > 1
        x, dens = difference_density(d, span=difference_span([0.0, 1.0]))
        assert x.min() == -1.0 and x.max() == 1.0
        u = (x - d.mean) / d.sd
        assert np.allclose(dens, np.exp(-u * u / 2) / (d.sd * math.sqrt(2 * math.pi)))
        assert difference_span([-1.0, 0.0, 0.5]) == 1.5 and difference_span([]) == 0.0
        assert difference_density(difference_posterior(2.0, 0.01, 0.0, 0.0), span=1.0)[0].size == 0

    @settings(max_examples=50, deadline=None)
    @given(share=st.floats(-1, 1), sd=st.floats(1e-4, 2), span=st.floats(0.5, 3))
    def test_density_grid_within_span_and_around_the_mean(self, share, sd, span):
        mean = share * span  # a difference of two scores in the rubric's range
        d = difference_posterior(mean, sd, 0.0, 0.0)
        x, _ = difference_density(d, span=span)
        assert x.min() >= -span - 1e-12 and x.max() <= span + 1e-12
        assert x.min() >= mean - 4.5 * sd - 1e-9 and x.max() <= mean + 4.5 * sd + 1e-9


class TestQuestionViews:
    def test_question_scores(self):
        out = binary_outcomes([[4, 0], [2, 1]], [[4, 4], [4, 0]], models=("a", "b"))
        scores, n = question_scores(out.binary)
        assert scores[0].tolist() == [1.0, 0.0]
        assert scores[1, 0] == 0.5 and math.isnan(scores[1, 1])  # missing cell stays missing
        assert n.tolist() == [[4, 4], [4, 0]]

    def test_summary_flaky_and_disagree(self):
        out = binary_outcomes(
            [[4, 0, 2, 4], [4, 0, 4, 0], [4, 0, 1, 4]],
            [[4, 4, 4, 4], [4, 4, 4, 4], [4, 4, 4, 4]],
        )
        s = question_summary(out)
        assert s["all_correct"].tolist() == [True, False, False, False]
        assert s["all_wrong"].tolist() == [False, True, False, False]
        assert s["disagree"].tolist() == [False, False, True, True]
        assert s["n_flaky"].tolist() == [0, 0, 2, 0]  # hand: a 2/4 and c 1/4 on q3
        assert s["mean_rate"].iloc[2] == pytest.approx((0.5 + 1 + 0.25) / 3)
        assert s.attrs["binary"] is True

    def test_summary_subset_of_models(self):
        out = binary_outcomes([[4, 0], [4, 4], [0, 0]], [[4, 4], [4, 4], [4, 4]])
        assert question_summary(out, ["a", "b"])["disagree"].tolist() == [False, True]
        assert question_summary(out, ["a", "c"])["disagree"].tolist() == [True, False]
        with pytest.raises(ValueError, match="unknown"):
            question_summary(out, ["zzz"])

    def test_missing_cells_do_not_disagree(self):
        out = binary_outcomes([[4, 4], [0, 0]], [[4, 4], [4, 0]], models=("a", "b"))
        s = question_summary(out)
        assert s["n_models"].tolist() == [2, 1]
        assert s["disagree"].tolist() == [True, False]


class TestDisagreementTable:
    def test_outcomes_and_order(self):
        out = binary_outcomes(
            [[3, 0, 4, 2, 0, 1], [0, 2, 4, 1, 0, 1]],
            [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]],
            models=("A", "B"),
        )
        t = disagreement_table(out, "A", "B")
        assert list(t.columns) == list(DISAGREEMENT_COLUMNS)
        by_q = dict(zip(t["question"], t["outcome"]))
        assert by_q == {
            "q1": "only A solves", "q2": "only B solves", "q3": "both always", "q4": "both, A more often",
            "q5": "neither", "q6": "both, equally often",
        }
        assert t["question"].tolist()[:2] == ["q1", "q2"]  # one-sided outcomes first
        row = t[t["question"] == "q4"].iloc[0]
        assert (row["correct_a"], row["n_a"], row["correct_b"]) == (2, 4, 1)
        assert row["diff"] == pytest.approx(0.25)
        counts = outcome_counts(t)
        assert list(counts) == list(OUTCOME_LABELS) and sum(counts.values()) == 6

    def test_missing_question(self):
        out = binary_outcomes([[1, 2], [1, 0]], [[4, 4], [4, 0]], models=("A", "B"))
        t = disagreement_table(out, "A", "B")
        assert t.set_index("question").loc["q2", "outcome"] == "not answered by both"

    def test_rubric_scores(self):
        counts = np.array([[[0, 0, 4], [4, 0, 0]], [[0, 4, 0], [0, 4, 0]]])
        rub = Outcomes("t", ("A", "B"), ("q1", "q2"), np.array([0.0, 1.0, 2.0]), ("x", "y", "z"), counts)
        t = disagreement_table(TaskOutcomes("t", None, rub), "A", "B").set_index("question")
        assert t.loc["q1", "score_a"] == 2.0 and t.loc["q1", "score_b"] == 1.0
        assert t.loc["q2", "outcome"] == "only B solves"  # rescaled rubric score 0 vs 0.5
        assert math.isnan(t.loc["q1", "rate_a"])

    def test_errors(self):
        out = binary_outcomes([[1], [1]], [[2], [2]], models=("A", "B"))
        with pytest.raises(ValueError, match="different"):
            disagreement_table(out, "A", "A")
        with pytest.raises(ValueError, match="one of"):
            disagreement_table(out, "A", "nope")


def test_frame_is_plain_dataframe():
    out = binary_outcomes([[1, 2]], [[2, 2]], models=("A",))
    assert isinstance(question_summary(out), pd.DataFrame)
