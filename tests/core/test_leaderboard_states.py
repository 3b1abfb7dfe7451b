"""The leaderboard's per-model columns come from each model's count states (distinct count rows and their
frequencies); these tests compute them per model and per question by hand on ragged tensors (unanswered cells,
different trials per question, a model without answers, a rubric with three categories, a binary view of a
subset of the models), and check the first-appearance shortcut of ``outcomes._ordered_unique``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.special import comb

from scorio_core.leaderboard.table import TaskOutcomes, leaderboard
from scorio_core.leaderboard.outcomes import Outcomes, _appear_in_code_order, _ordered_unique


def _outcomes(counts: np.ndarray, weights, prefix: str = "m") -> Outcomes:
    L, M, K = counts.shape
    return Outcomes(task="t", models=tuple(f"{prefix}{i}" for i in range(L)), questions=tuple(f"q{j}" for j in range(M)),
                    weights=np.asarray(weights, dtype=float), labels=tuple(f"c{j}" for j in range(K)),
                    counts=counts.astype(np.int64))


def _ragged(seed: int, L: int, M: int, K: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(1, np.ones(K) / K, size=(L, M, 6)).sum(axis=2)[..., :K]  # 6 trials per cell
    counts = counts * (rng.random((L, M, 1)) < 0.8) * rng.integers(1, 3, size=(L, M, 1))  # gaps, 6 or 12 trials
    counts[L - 1] = 0  # a model without answered questions
    return counts


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(1, 7), metric=st.sampled_from(["bayes", "avg", "pass@k"]))
@example(seed=1, k=6, metric="pass@k")  # a row so skewed its Beta's 2.5% quantile is above its mean (fallback.py)
def test_columns_equal_per_question_sums(seed, k, metric):
    rubric_counts = _ragged(seed, L=5, M=7, K=3)
    weights = np.array([0.0, 0.25, 1.0])
    # the binary view, "correct" = the top category: of a subset of the models (the rubric's first four) unless
    # the metric itself is binary (then it scores every model)
    n_binary = 5 if metric == "pass@k" else 4
    sub = rubric_counts[:n_binary]
    binary = _outcomes(np.stack([sub[..., 0] + sub[..., 1], sub[..., 2]], axis=2), [0.0, 1.0])
    rubric = _outcomes(rubric_counts, weights)
    table = leaderboard(TaskOutcomes("t", binary, rubric), metric=metric, k=k).set_index("model")
    for l in range(5):
        row = table.loc[f"m{l}"]
        n = rubric_counts[l].sum(axis=1)
        answered = n > 0
        assert row["n_questions"] == answered.sum()
        assert row["n_trials"] == (n[answered].min() if answered.any() else 0)
        assert row["n_trials_max"] == (n.max() if answered.any() else 0)
        if answered.any():
            per_q = rubric_counts[l][answered] @ weights / n[answered]
            assert row["avg"] == pytest.approx(per_q.mean(), abs=1e-12)
        else:
            assert np.isnan(row["avg"]) and np.isnan(row["mu"]) and pd.isna(row["rank"])
        if l < n_binary and answered.any():
            c, nb = binary.counts[l][answered, 1], n[answered]
            expected = np.mean(1.0 - comb(nb - c, k) / comb(nb, k)) if k <= nb.min() else np.nan
            assert row["pass_at_k"] == pytest.approx(expected, abs=1e-12, nan_ok=True)
        else:  # not in the binary view, or nothing answered
            assert np.isnan(row["pass_at_k"])


def test_hand_example():
    # model a: questions with (wrong, correct) = (1, 3), (2, 2), unanswered, (0, 4) -> avg (0.75 + 0.5 + 1) / 3;
    # Pass@2 per question 1 - C(n-c, 2) / C(n, 2): 1, 1 - 1/6, 1 -> (3 - 1/6) / 3
    counts = np.array([[[1, 3], [2, 2], [0, 0], [0, 4]]])
    out = _outcomes(counts, [0.0, 1.0], prefix="a")
    row = leaderboard(TaskOutcomes("t", out, out), k=2).iloc[0]
    assert row["avg"] == pytest.approx(0.75) and row["pass_at_k"] == pytest.approx((3 - 1 / 6) / 3)
    assert (row["n_questions"], row["n_trials"], row["n_trials_max"]) == (3, 4, 4)


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(st.sampled_from([np.int8, np.int16, np.int64]), st.integers(0, 40), elements=st.integers(0, 127)))
def test_code_order_shortcut_matches_factorize(codes):
    first, _ = pd.factorize(codes, sort=False)
    assert _appear_in_code_order(codes) == np.array_equal(first, codes)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=30), st.booleans())
def test_ordered_unique_categorical_equals_plain(values, sort):
    names = [f"v{v}" for v in (sorted(values) if sort else values)]  # sorted: the shortcut's case
    series = pd.Series(names).astype("category")
    codes, uniques = _ordered_unique(series, as_str=True)
    plain_codes, plain_uniques = _ordered_unique(pd.Series(names, dtype=object), as_str=True)
    assert codes.tolist() == plain_codes.tolist() and uniques == plain_uniques


def test_raw_accuracy_beside_avg_on_unequal_trials(tmp_path):
    """avg@N is the mean of per-question accuracy; raw accuracy pools the trials. Hand: question 1 has 1/1 correct,
    question 2 has 1/4: avg@N = (1 + 0.25) / 2 = 0.625, raw accuracy = 2/5 = 0.4. With equal trials they are equal."""
    from scorio_core import io
    from scorio_core.leaderboard.table import leaderboard, outcomes_for

    path = tmp_path / "u.csv"
    path.write_text("model,question_id,n_trials,n_correct\na,q1,1,1\na,q2,4,1\nb,q1,2,1\nb,q2,2,2\n")
    table = leaderboard(outcomes_for(io.load([str(path)]), None)).set_index("model")
    assert table.loc["a", "avg"] == 0.625 and table.loc["a", "accuracy"] == 0.4
    assert table.loc["b", "avg"] == table.loc["b", "accuracy"] == 0.75


def test_pass_at_1_is_avg_at_n_to_the_last_bit():
    """Binary, equal trials: Pass@1 = avg@N exactly (QA: 0.8066666666666886 beside 0.8066666666666666)."""
    from pathlib import Path

    from scorio_core import io
    from scorio_core.leaderboard.table import outcomes_for

    path = Path(__file__).resolve().parents[2] / "data" / "paper_simulation.csv.gz"
    table = leaderboard(outcomes_for(io.load([str(path)])), metric="avg")
    assert (table["pass_at_k"].to_numpy() == table["avg"].to_numpy()).all()
