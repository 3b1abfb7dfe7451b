"""Coverage conditional on the question set: how the default interval's coverage varies between question sets.

``bench_calibration.py`` draws one set of question rates ``p_alpha`` per cell and replicates the trials, so
each cell is the coverage *conditional on that set* (questions fixed). One set is one draw: this benchmark
draws ``--sets`` question sets per cell from the same Beta distribution, replicates the trials ``--reps``
times on each, and prints the distribution of the conditional coverage (mean over sets, 5th and 10th
percentile, median, minimum, share of sets below the 0.92 target) of the default prior (empirical Bayes,
questions fixed, 95% nominal). Cells: the grid's lowest N = 2 cell (Beta(0.5, 4.5), M = 30) and neighbours.

    .venv/bin/python benchmarks/bench_calibration_sets.py [--sets 200] [--reps 500] [--seed 11]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorio_core.uncertainty.batch import posterior_summary_batch  # noqa: E402

TARGET = 0.92
#: (Beta a, Beta b), M questions, N trials
CELLS = (((0.5, 4.5), 30, 2), ((0.5, 4.5), 30, 4), ((0.5, 4.5), 100, 2), ((0.3, 2.0), 30, 2), ((1.0, 1.0), 30, 2))


def conditional_coverage(rng, ab, m: int, n: int, sets: int, reps: int) -> np.ndarray:
    """Coverage of mean(p_alpha) for each of ``sets`` question sets, each over ``reps`` replications, shape (sets,)."""
    out = np.empty(sets)
    for i in range(sets):  # one batched posterior per set: reps x M fits at once
        p = rng.beta(ab[0], ab[1], m)
        k = rng.binomial(n, np.broadcast_to(p, (reps, m)))
        s = posterior_summary_batch(np.stack([n - k, k], axis=-1), [0.0, 1.0], prior="empirical-bayes")
        theta = p.mean()
        out[i] = np.mean((s.lo <= theta) & (theta <= s.hi))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=200)
    parser.add_argument("--reps", type=int, default=500)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"{'p_alpha':<15} {'M':>4} {'N':>3} {'mean':>6} {'q05':>6} {'q10':>6} {'median':>7} {'min':>6} {'<0.92':>6}")
    t0 = time.perf_counter()
    for ab, m, n in CELLS:
        c = conditional_coverage(rng, ab, m, n, args.sets, args.reps)
        print(f"Beta({ab[0]:g},{ab[1]:g})".ljust(15), f"{m:>4} {n:>3} {c.mean():6.3f} {np.quantile(c, 0.05):6.3f} "
              f"{np.quantile(c, 0.1):6.3f} {np.median(c):7.3f} {c.min():6.3f} {np.mean(c < TARGET):6.2f}", flush=True)
    print(f"({args.sets} question sets x {args.reps} replications per cell, {time.perf_counter() - t0:.0f} s; target: the mean over "
          f"sets >= {TARGET}; single sets vary around it by the Monte-Carlo error sqrt(c(1-c)/reps) = "
          f"{np.sqrt(0.95 * 0.05 / args.reps):.3f} and by the set itself)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
