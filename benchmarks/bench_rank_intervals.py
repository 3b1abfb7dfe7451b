"""Coverage of the bootstrap rank intervals (issue 38) by simulation, against the population ranks.

Design: L = 10 models with abilities spread evenly on [-1.5, 1.5] except models 4 and 5, ``--delta`` apart (0: an
exact tie), questions drawn from a population ``b ~ N(0, 1.2^2)``, M = 60 questions x N = 4 trials per model,
``P(correct) = expit(theta - b)``. The estimand of a questions-sampled interval is the model's rank by its
accuracy over the whole question population (computed from 200,000 population questions; competition ranks, so
an exact tie shares the better rank). Each of ``--sims`` simulations draws new questions and trials and computes
``scorio_core.rank.bootstrap.bootstrap_ranks`` (``--boot`` resamples) for the chosen methods; printed: the share
of intervals containing the population rank per model and overall, beside the nominal level, and the mean width.

    .venv/bin/python benchmarks/bench_rank_intervals.py [--sims 200] [--boot 200] [--delta 0.05] [--methods avg,borda]

Exit status 1 if the overall coverage of a method falls below the nominal level minus 3 Monte-Carlo standard errors.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy.special import expit
from scipy.stats import rankdata

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorio_core.rank.bootstrap import bootstrap_ranks  # noqa: E402

L, M, N = 10, 60, 4


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--boot", type=int, default=200)
    parser.add_argument("--delta", type=float, default=0.05, help="ability gap of models 4 and 5 (0: exact tie)")
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--methods", default="avg,borda")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    methods = args.methods.split(",")
    theta = np.linspace(-1.5, 1.5, L)
    theta[4] = theta[5] - args.delta
    pool = rng.normal(0.0, 1.2, 200_000)
    true_rank = rankdata(-expit(theta[:, None] - pool[None, :]).mean(axis=1), method="min")
    cover = np.zeros((len(methods), L))
    width = np.zeros((len(methods), L))
    for s in range(args.sims):  # independent simulated benchmarks (each bootstrap is vectorised or per method)
        b = rng.normal(0.0, 1.2, M)
        R = (rng.random((L, M, N)) < expit(theta[:, None, None] - b[None, :, None])).astype(int)
        boot = bootstrap_ranks(R, methods, n_boot=args.boot, confidence=args.confidence, seed=s)
        cover += (boot.lo <= true_rank) & (true_rank <= boot.hi)
        width += boot.hi - boot.lo
    print(f"bootstrap rank intervals: {L} models x {M} questions x {N} trials, {args.sims} simulations, {args.boot} "
          f"resamples, gap of models 4-5 = {args.delta:g}; population ranks {true_rank.tolist()}")
    se = np.sqrt(args.confidence * (1 - args.confidence) / (args.sims * L))
    ok = True
    for k, method in enumerate(methods):
        overall = cover[k].sum() / (args.sims * L)
        met = overall >= args.confidence - 3 * se
        ok &= met
        print(f"  {method:10s} coverage {overall:.3f} (nominal {args.confidence:.2f}: {'met' if met else 'MISSED'}); "
              f"per model {np.round(cover[k] / args.sims, 3).tolist()}; mean width {width[k].sum() / (args.sims * L):.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
