"""Empirical Bayes at uniform speed in the dynamics (issue 36): convergence@n and a trajectory per prior.

Seeded random outcome tensors, 20 models x 30 questions x 80 trials, binary and with 3
categories (weights 0, 1/2, 1). For each: ``bootstrap_convergence`` with 1,000 column-wise
replicates under the uniform prior and under the empirical-Bayes prior (refitted to every
(replicate, prefix n, model)), timed in the same run, plus one ``rank_trajectory`` under
empirical Bayes. Target (issue 36): empirical Bayes within 2x of uniform (in-process time,
i.e. without the CLI's start-up, which the issue's 3.2 s uniform figure includes; the ratio
is printed for both).

    .venv/bin/python benchmarks/bench_dynamics_prior.py [--replicates 1000] [--eb-replicates 1000]

``--eb-replicates`` below ``--replicates`` times the empirical-Bayes runs on fewer replicates
and extrapolates linearly (for the slow pre-issue-36 path, ~60 ms per replicate); the output
says so.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorio_core.dynamics.convergence import bootstrap_convergence  # noqa: E402
from scorio_core.dynamics.trajectory import rank_trajectory  # noqa: E402

RATIO_TARGET = 2.0
#: Start-up of the ``convergence`` CLI as the issue measured it (3.2 s uniform, in-process ~0.1 s).
CLI_STARTUP_S = 3.0


def data(categories: int, seed: int = 0) -> np.ndarray:
    """Seeded (20, 30, 80) codes: per-question category probabilities from a Dirichlet per model."""
    rng = np.random.default_rng(seed)
    L, M, N = 20, 30, 80
    if categories == 2:
        p = rng.beta(2.0, 2.0, (L, M))
        return (rng.random((L, M, N)) < p[..., None]).astype(np.int64)
    probs = rng.dirichlet(np.full(categories, 1.5), size=(L, M))  # (L, M, K)
    u = rng.random((L, M, N, 1))
    return (u > np.cumsum(probs, axis=2)[:, :, None, :]).sum(axis=3).astype(np.int64)


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--eb-replicates", type=int, default=None, help="replicates timed under empirical Bayes "
                        "(default: --replicates); fewer are extrapolated linearly")
    args = parser.parse_args()
    B = args.replicates
    B_eb = min(B, args.eb_replicates or B)
    print(f"20 models x 30 questions x 80 trials, {B} column-wise replicates"
          + ("" if B_eb == B else f" (empirical Bayes timed on {B_eb} and extrapolated x{B / B_eb:g})"))
    print(f"{'case':<44}{'time (s)':>10}  target")
    ok_all = True
    for K in (2, 3):
        R = data(K)
        w = None if K == 2 else [0.0, 0.5, 1.0]
        tag = "binary" if K == 2 else "3 categories"
        uni = timed(lambda: bootstrap_convergence(R, w=w, replicates=B, seed=0, prior="uniform"))
        eb = timed(lambda: bootstrap_convergence(R, w=w, replicates=B_eb, seed=0, prior="empirical-bayes")) * B / B_eb
        traj = timed(lambda: rank_trajectory(R, w=w, prior="empirical-bayes"))
        ratio = eb / uni
        cli_ratio = (eb + CLI_STARTUP_S) / (uni + CLI_STARTUP_S)
        ok = ratio <= RATIO_TARGET
        ok_all &= ok
        print(f"{'convergence, uniform, ' + tag:<44}{uni:>10.2f}  -")
        print(f"{'convergence, empirical-bayes, ' + tag:<44}{eb:>10.2f}  <= {RATIO_TARGET * uni:.2f} (2x uniform)"
              f"{'' if ok else '  MISSED'}")
        print(f"{'  ratio empirical-bayes / uniform':<44}{ratio:>10.1f}x target <= {RATIO_TARGET:g}x; with "
              f"{CLI_STARTUP_S:g} s CLI start-up on both: {cli_ratio:.2f}x")
        print(f"{'trajectory, empirical-bayes, ' + tag:<44}{traj:>10.3f}  -")
    print(f"empirical-bayes within {RATIO_TARGET:g}x of uniform: {'OK' if ok_all else 'MISSED'}")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
