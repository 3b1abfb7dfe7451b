"""Coverage of the Tasks page's combined interval (macro average over tasks) by simulation.

Usage::

    .venv/bin/python benchmarks/bench_tasks_calibration.py            # 1,000 replications per cell
    .venv/bin/python benchmarks/bench_tasks_calibration.py --reps 4000

The combined score is the mean of the per-task Bayes@N means with ``sigma = sqrt(sum sigma_t^2) / T`` and the
normal interval clipped to the scores' range (:func:`scorio_core.tasks.combined_score`,
``COMBINED_ASSUMPTION``); with one task it is that task's own interval. Whether it covers what it claims is
measured here, not assumed:

* T tasks, task t's per-question success probabilities drawn once per cell from the t-th of Beta(0.5, 4.5)
  (hard), Beta(0.5, 0.5) (U-shaped), Beta(4, 1) (easy), cycling; M questions per task, N trials each.
* ``questions-fixed``: target the macro average of the drawn questions' means (the estimand that scope claims);
  every replication redraws the trials only. ``questions-sampled``: target the macro average of the pools'
  means, questions redrawn in every replication.
* Each replication is one "model" of a :class:`~scorio_core.tasks.TaskMatrix` whose cells are the
  leaderboard's per-task summaries (:func:`~scorio_core.uncertainty.batch.posterior_summary_batch`, as
  :func:`~scorio_core.tasks.task_matrix` computes them), and the interval is :func:`combined_score`'s own.

Target: 95% nominal covers within [0.92, 0.99] under the default prior (empirical Bayes; at N = 1, where the
per-task intervals are exact binomial and conservative, >= 0.92 only, as ``bench_calibration.py``); the uniform prior is
shown beside it (its per-task offsets do not shrink with M, so its coverage can fall far below nominal).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorio_core.tasks import TaskMatrix, combined_score  # noqa: E402
from scorio_core.uncertainty.batch import posterior_summary_batch  # noqa: E402

POOLS = ((0.5, 4.5), (0.5, 0.5), (4.0, 1.0))
TARGET = (0.92, 0.99)


def combined_coverage(T: int, m: int, n: int, reps: int, seed: int, *, prior: str = "empirical-bayes",
                      scope: str = "questions-fixed", confidence: float = 0.95) -> tuple[float, float]:
    """Coverage and mean width of the combined interval for one cell (``reps`` replications at once).

    Returns
    -------
    (coverage, mean_width) : tuple of float
    """
    rng = np.random.default_rng(seed)
    pools = [POOLS[t % len(POOLS)] for t in range(T)]
    fixed = [rng.beta(a, b, m) for a, b in pools]
    w = np.array([0.0, 1.0])
    rows = []
    for t, (a, b) in enumerate(pools):
        p = np.broadcast_to(fixed[t], (reps, m)) if scope == "questions-fixed" else rng.beta(a, b, (reps, m))
        k = rng.binomial(n, p)
        summary = posterior_summary_batch(np.stack([n - k, k], axis=2), w, prior=prior, scope=scope,
                                          confidence=confidence)
        rows.append(pd.DataFrame({"model": np.arange(reps).astype(str), "task": f"t{t}", "bayes": summary.mu,
                                  "sigma": summary.sigma, "lo": summary.lo, "hi": summary.hi, "m": m}))
    cells = pd.concat(rows, ignore_index=True)
    matrix = TaskMatrix(cells=cells, tasks=tuple(f"t{t}" for t in range(T)), models=tuple(np.arange(reps).astype(str)),
                        confidence=confidence, prior=prior, scope=scope, threshold=None,
                        score_ranges=((0.0, 1.0),) * T)
    combined = combined_score(matrix)
    if scope == "questions-fixed":
        target = float(np.mean([f.mean() for f in fixed]))
    else:
        target = float(np.mean([a / (a + b) for a, b in pools]))
    lo, hi = combined["lo"].to_numpy(float), combined["hi"].to_numpy(float)
    return float(np.mean((lo <= target) & (target <= hi))), float(np.mean(hi - lo))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    start = time.perf_counter()
    columns = [("empirical-bayes", "questions-fixed"), ("uniform", "questions-fixed"),
               ("empirical-bayes", "questions-sampled")]
    print(f"Combined interval (Tasks page), coverage (mean width) at 95% nominal, {args.reps} replications per cell, "
          f"seed {args.seed}; target for the default (empirical-bayes, questions-fixed): [{TARGET[0]}, {TARGET[1]}]")
    print()
    print("| T | M | N | " + " | ".join(f"{p}, {s}" for p, s in columns) + " | default |")
    print("|" + "---|" * (4 + len(columns)))
    outside = []
    for T in (2, 3, 6):
        for m in (30, 300):
            for n in (1, 4, 16):
                cells = [combined_coverage(T, m, n, args.reps, args.seed + 100 * T + 10 * m + n, prior=p, scope=s)
                         for p, s in columns]
                cov = cells[0][0]
                ok = TARGET[0] <= cov <= (1.0 if n == 1 else TARGET[1])  # N = 1: exact binomial, conservative
                outside += [] if ok else [(T, m, n, cov)]
                print(f"| {T} | {m} | {n} | " + " | ".join(f"{c:.3f} ({wd:.3f})" for c, wd in cells)
                      + f" | {'ok' if ok else 'outside'} |")
    print()
    print(f"default cells outside [{TARGET[0]}, {TARGET[1]}] (N = 1: >= {TARGET[0]}): {len(outside)} {outside}")
    print(f"measured in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
