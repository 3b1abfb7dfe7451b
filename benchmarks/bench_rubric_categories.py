"""Empirical-Bayes convergence@n under rubrics with 2-8 categories, beside the replicate default's estimate.

The Convergence page picks its default replicate count from an estimate of the empirical-Bayes refits' cost
(``scorio_core.dynamics.budget``: seconds per model x trial x (questions + trials), times a factor of the
rubric's category count). This times ``bootstrap_convergence`` (column-wise, both cores, as the page runs it) on
the bundled paper simulation (20 models x 30 questions x 80 trials) under each built-in rubric from the paper
with a distinct category count, and prints the measured seconds beside the estimate. Target (issue 36, "No
waiting"): the estimate within 0.5-2x of the measurement (the default then lands near the ~8 s budget), and
the page's default run (``default_replicates``) within 2x the budget.

    .venv/bin/python benchmarks/bench_rubric_categories.py [--replicates 100]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorio_core.dynamics.budget import (  # noqa: E402
    DEFAULT_BUDGET_S, _seconds_per_replicate, default_replicates)
from scorio_core import io, rubric  # noqa: E402
from scorio_core.dynamics.convergence import bootstrap_convergence  # noqa: E402
from scorio_core.leaderboard.outcomes import from_attempts  # noqa: E402
from scorio_core.limits import limit_blas_threads  # noqa: E402

RUBRICS = ("Binary correctness", "Exact Match", "Conf-Wrong Penalty", "Format Aware", "Conf-Calibrated",
           "Efficiency-Adjusted", "Format+Confidence")
CHOICES = (100, 200, 500, 1000, 2000, 5000)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=100)
    args = parser.parse_args()
    limit_blas_threads()
    attempts = io.load([str(ROOT / "data" / "paper_simulation.csv.gz")]).attempts
    blocks = {}
    for name in RUBRICS:
        cat = rubric.categorize(attempts, name)
        weights = np.asarray(cat.weights, dtype=float)
        R = from_attempts(attempts, cat.codes, weights, tuple(cat.labels), "bench").complete_block().R
        blocks[name] = SimpleNamespace(R=R, weights=weights)
    warm = blocks[RUBRICS[0]]
    bootstrap_convergence(warm.R, w=warm.weights, replicates=10, seed=1, prior="empirical-bayes", workers=2)
    B = args.replicates
    print(f"bootstrap_convergence, paper simulation 20 x 30 x 80, {B} column-wise empirical-Bayes replicates, 2 workers")
    print(f"{'rubric':22s} {'K':>2s} {'measured':>9s} {'estimate':>9s} {'ratio':>6s} {'default':>8s} {'its run':>8s}  target")
    ok = True
    for name, block in blocks.items():
        t = time.perf_counter()
        bootstrap_convergence(block.R, w=block.weights, replicates=B, seed=0, prior="empirical-bayes", workers=2)
        measured = time.perf_counter() - t
        estimate = B * _seconds_per_replicate(block)
        default = default_replicates(block, "empirical-bayes", CHOICES)
        run = measured * default / B
        good = 0.5 <= estimate / measured <= 2.0 and (run <= 2 * DEFAULT_BUDGET_S or default == min(CHOICES))
        ok &= good
        print(f"{name:22s} {len(block.weights):2d} {measured:8.2f}s {estimate:8.2f}s {estimate / measured:6.2f} "
              f"{default:8d} {run:7.1f}s  estimate 0.5-2x, default run <= {2 * DEFAULT_BUDGET_S:.0f} s: "
              f"{'met' if good else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
