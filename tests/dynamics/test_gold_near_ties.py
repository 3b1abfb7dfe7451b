"""Trajectory and convergence ranks use the leaderboard's tie rule (relative 1e-6), not 1e-12.

Before: two models with the same record (avg@N 1/3) whose empirical-Bayes fits end in different last digits
(0.33333338892798614 vs 0.3333333474585969) tied on the leaderboard (rank 2) but had gold ranks 2, 3 and 5 in
``trajectory``; the QA file big300.csv had 96 of 300 models with a gold rank other than their leaderboard rank.
"""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pytest

from scorio_core.cli import main
from scorio_core.eval.ranking import competition_ranks_from_scores, near_tie_ranks, near_tie_snap
from scorio_core.ranking.rank_batch import batch_ranks_tau

M, N = 20, 6
# correct answers (of N = 6) on each of the M questions: a, b, c, e all 2 per question on average (avg@N = 1/3) but
# spread differently (all under-dispersed, so each empirical-Bayes fit lands on avg@N up to its optimiser's last
# digits); d answers 3 of 6 everywhere (avg@N = 1/2): the leaderboard ranks d 1 and the other four 2.
PATTERNS = {"a": [2] * M, "b": [1, 3] * (M // 2), "c": [2, 2, 1, 3] * (M // 4), "d": [3] * M,
            "e": [2, 3, 1, 2] * (M // 4)}
EXPECTED = {"a": 2, "b": 2, "c": 2, "d": 1, "e": 2}


def _run(*argv):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(list(argv))
    assert code == 0
    return json.loads(buf.getvalue())


@pytest.fixture()
def same_record(tmp_path):
    rows = ["model,question_id,trial,correct"]
    for model, counts in PATTERNS.items():
        for q, c in enumerate(counts):  # c correct answers, first or last in trial order
            rows += [f"{model},q{q},{t},{int(t < c) if q % 2 else int(t >= N - c)}" for t in range(N)]
    path = tmp_path / "same_record.csv"
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def test_gold_ranks_are_the_leaderboard_ranks(same_record):
    lb = {r["model"]: r for r in _run("leaderboard", same_record, "--output", "json")["rows"]}
    assert {m: r["rank"] for m, r in lb.items()} == EXPECTED
    # the estimates differ in their last digits (what split the tie before), well within 1e-6 relative
    fits = [lb[m]["estimate"] for m in "abce"]
    assert len(set(fits)) > 1 and max(fits) - min(fits) < 1e-6 * max(fits)
    tr = _run("trajectory", same_record, "--output", "json")
    assert dict(zip(tr["models"], tr["gold_ranks"])) == EXPECTED
    # the ranks after all N trials compare like with like: they equal the gold standard, tau_b = 1
    assert dict(zip(tr["models"], [r[-1] for r in tr["ranks"]])) == EXPECTED and tr["kendall_tau"][-1] == 1.0
    conv = _run("convergence", same_record, "--replicates", "8", "--output", "json")
    assert dict(zip(conv["models"], conv["gold_ranks"])) == EXPECTED


def test_duckdb_prefix_trajectory_same_gold(same_record):
    pytest.importorskip("duckdb")
    tr = _run("trajectory", same_record, "--engine", "duckdb", "--output", "json")
    assert dict(zip(tr["models"], tr["gold_ranks"])) == EXPECTED
    assert dict(zip(tr["models"], [r[-1] for r in tr["ranks"]])) == EXPECTED


def test_batch_ranks_tau_near_ties_by_hand():
    # columns: [0.9083332941607232, 0.9083333328649, 0.5] (the QA's model-170 and model-260) and [0.3, 0.2, 0.1]
    scores = np.array([[0.9083332941607232, 0.3], [0.9083333328649, 0.2], [0.5, 0.1]])
    exact, _ = batch_ranks_tau(scores, tol=1e-12)
    assert exact.T.tolist() == [[2, 1, 3], [1, 2, 3]]  # 1e-12 (the reference's rule) splits the near tie
    ranks, tau = batch_ranks_tau(scores, np.array([1, 1, 3]), tol=1e-12, rtol=1e-6)
    assert ranks.T.tolist() == [[1, 1, 3], [1, 2, 3]]
    # tau_b against gold [1, 1, 3]: column 1 is the gold ranking (1.0); column 2: 2 concordant pairs of 3,
    # one pair tied in gold only -> 2 / sqrt(3 * 2)
    np.testing.assert_allclose(tau, [1.0, 2 / np.sqrt(6)])


def test_snap_ranks_as_near_tie_ranks():
    rng = np.random.default_rng(7)
    scores = np.round(rng.random((200, 9)), 2)  # many exact ties ...
    scores += rng.choice([0.0, 3e-9, -4e-8, 2e-5], size=scores.shape)  # ... some nudged by last-digit noise
    want = near_tie_ranks(scores)
    for row, expected in zip(near_tie_snap(scores), want):
        np.testing.assert_array_equal(competition_ranks_from_scores(row), expected)
    ranks, _ = batch_ranks_tau(np.ascontiguousarray(scores.T), rtol=1e-6, chunk=64)
    np.testing.assert_array_equal(ranks.T, want)
    assert np.isnan(near_tie_snap([0.5, np.nan])[1])
