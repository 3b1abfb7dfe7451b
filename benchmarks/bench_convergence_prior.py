"""Bootstrap convergence@n under each prior: 16 models x 30 questions x 80 trials (AIME-sized).

The empirical-Bayes prior is refitted to every model's first n trials of every replicate
(L * N fits per replicate), so its cost per replicate is measured beside the uniform prior's
closed form in the same run, plus the scipy-only path (``polygamma`` in the Newton Hessian)
the fast trigamma replaced. Target: empirical Bayes < 0.1 s per replicate (2,000 replicates,
the page's default, in under ~3.5 min on one core; the page shows progress and can be cancelled).

    .venv/bin/python benchmarks/bench_convergence_prior.py [--replicates 64]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorio_core.dynamics.convergence import bootstrap_convergence  # noqa: E402
from scorio_core.uncertainty import batch_prior as batch  # noqa: E402

TARGET_S = 0.1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=64)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    L, M, N = 16, 30, 80
    p = rng.beta(2.0, 2.0, (L, M))
    R = (rng.random((L, M, N)) < p[..., None]).astype(np.int64)
    B = args.replicates
    rows = []
    for prior in ("uniform", "jeffreys", "empirical-bayes"):
        t0 = time.perf_counter()
        res = bootstrap_convergence(R, replicates=B, seed=0, prior=prior)
        dt = time.perf_counter() - t0
        rows.append((prior, dt / B, res.no_convergence))
    from scipy.special import polygamma

    fast = batch._trigamma
    batch._trigamma = lambda x: polygamma(1, x)
    try:
        t0 = time.perf_counter()
        bootstrap_convergence(R, replicates=B, seed=0, prior="empirical-bayes")
        slow = (time.perf_counter() - t0) / B
    finally:
        batch._trigamma = fast
    print(f"{L} models x {M} questions x {N} trials, {B} column-wise replicates")
    print(f"{'prior':<18}{'s / replicate':>15}{'no convergence':>17}")
    for prior, per, nc in rows:
        print(f"{prior:<18}{per:>15.4f}{nc:>17.3f}")
    print(f"{'EB, polygamma':<18}{slow:>15.4f}")
    eb = rows[-1][1]
    ok = eb < TARGET_S
    print(f"empirical Bayes: {eb:.4f} s per replicate (target < {TARGET_S} s): {'OK' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
