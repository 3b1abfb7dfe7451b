"""Issue 13 "Done when": the default ``leaderboard`` interval covers at 92-99.5% on the grid.

Each grid cell is written as one count-table CSV in which every replication of the trials is
a separate "model" (same questions, same ``p_alpha``, fresh binomial draws), so one CLI run
scores all replications; coverage is the fraction of rows whose [lo, hi] contains the
questions-fixed mean of ``p_alpha``. The data are generated here with the test's own seed
(independent of ``benchmarks/bench_calibration.py``). CI runs a sample of cells; the full
grid is marked slow.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from scorio_core.cli import main

SEED = 7013
REPS = 300
DISTRIBUTIONS = {"hard": (0.5, 4.5), "u-shaped": (0.5, 0.5), "easy": (4.0, 1.0)}
GRID = [(d, m, n) for d in DISTRIBUTIONS for m in (30, 300) for n in (1, 4, 16)]
SAMPLE = {("hard", 30, 1), ("hard", 30, 4), ("hard", 300, 16), ("u-shaped", 30, 16), ("easy", 30, 4), ("easy", 300, 1)}


def _cell_file(tmp_path, dist: str, m: int, n: int) -> tuple[str, float]:
    a, b = DISTRIBUTIONS[dist]
    rng = np.random.default_rng([SEED, m, n, list(DISTRIBUTIONS).index(dist)])
    p = rng.beta(a, b, m)  # drawn once per cell: the questions are fixed
    correct = rng.binomial(n, p, size=(REPS, m))
    frame = pd.DataFrame({
        "model": np.repeat([f"rep{i:04d}" for i in range(REPS)], m),
        "question_id": np.tile([f"q{j}" for j in range(m)], REPS),
        "n_trials": n,
        "n_correct": correct.ravel(),
    })
    path = tmp_path / f"{dist}_{m}_{n}.csv"
    frame.to_csv(path, index=False)
    return str(path), float(p.mean())


def _coverage(tmp_path, capsys, cell, *extra) -> tuple[float, list[dict]]:
    path, theta = _cell_file(tmp_path, *cell)
    assert main(["leaderboard", path, "--output", "json", *extra]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert len(rows) == REPS
    return float(np.mean([r["lo"] <= theta <= r["hi"] for r in rows])), rows


def _check(cov: float, n: int) -> None:
    assert cov >= 0.92
    if n > 1:  # N = 1 may be conservative (issue 13)
        assert cov <= 0.995


@pytest.mark.parametrize("cell", [c for c in GRID if c in SAMPLE], ids=lambda c: "-".join(map(str, c)))
def test_default_interval_covers_sample(tmp_path, capsys, cell):
    cov, rows = _coverage(tmp_path, capsys, cell)
    assert {r["prior"] for r in rows} == {"empirical-bayes"} and {r["scope"] for r in rows} == {"questions-fixed"}
    _check(cov, cell[2])


@pytest.mark.slow
@pytest.mark.parametrize("cell", [c for c in GRID if c not in SAMPLE], ids=lambda c: "-".join(map(str, c)))
def test_default_interval_covers_full_grid(tmp_path, capsys, cell):
    cov, _ = _coverage(tmp_path, capsys, cell)
    _check(cov, cell[2])


def test_uniform_prior_is_shown_failing_where_the_issue_measured_it(tmp_path, capsys):
    """The paper's uniform prior on a hard benchmark (mean p = 0.1, M = 300, N = 4) does not
    cover: the bias (1 - 2p)/(N + 2) exceeds the interval half-width. This is why the default
    differs; if it ever covered, the docs' table would be stale."""
    cov, rows = _coverage(tmp_path, capsys, ("hard", 300, 4), "--prior", "uniform")
    assert {r["prior"] for r in rows} == {"uniform"}
    assert cov < 0.05
