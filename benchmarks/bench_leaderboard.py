"""Leaderboard of many models: 10^5 models x 30 questions x 4 trials, from counts to ranked rows.

Target (issue 17): < 10 s for 10^5 models with the default prior (empirical Bayes, fitted per
model) and the default pairwise tie rule, on a 2-core machine. Measured side by side in the same
run: the reference package's per-model ``scorio.eval.bayes_ci`` loop on a sample of models,
extrapolated to the same L (labelled as such), and our own per-model path (``MetricSpec.compute``
per model, what the leaderboard did before batching).

    .venv/bin/python benchmarks/bench_leaderboard.py [--models 100000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorio_core import eval as ev  # noqa: E402
from scorio_core.leaderboard.table import TaskOutcomes, leaderboard  # noqa: E402
from scorio_core.leaderboard.metrics import get_metric  # noqa: E402
from scorio_core.leaderboard.outcomes import Outcomes  # noqa: E402

TARGET_S = 10.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=100_000)
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--sample", type=int, default=1_000, help="models timed on the per-model paths")
    args = parser.parse_args()
    L, M, N = args.models, args.questions, args.trials
    rng = np.random.default_rng(0)
    p = rng.beta(rng.uniform(0.3, 4, (L, 1)), rng.uniform(0.3, 4, (L, 1)), (L, M))
    k = rng.binomial(N, p)
    counts = np.stack([N - k, k], axis=2).astype(np.int64)
    out = Outcomes(task="t", models=tuple(f"m{i}" for i in range(L)), questions=tuple(f"q{j}" for j in range(M)),
                   weights=np.array([0.0, 1.0]), labels=("wrong", "correct"), counts=counts)
    task = TaskOutcomes("t", out, out)
    print(f"{L:,} models x {M} questions x {N} trials")
    ok = True
    for prior in ("empirical-bayes", "uniform"):
        start = time.perf_counter()
        table = leaderboard(task, prior=prior)
        elapsed = time.perf_counter() - start
        ok &= elapsed < TARGET_S
        print(f"  leaderboard --prior {prior:<15} {elapsed:7.2f} s   (target < {TARGET_S:.0f} s)  "
              f"{table['rank_ci'].nunique():,} rank groups")
    sample = min(args.sample, L)
    spec = get_metric("bayes")
    for prior in ("empirical-bayes", "uniform"):
        start = time.perf_counter()
        for i in range(sample):
            spec.compute(ev.CategoryCounts(counts[i]), w=out.weights, prior=prior)
        per = (time.perf_counter() - start) / sample
        print(f"  per-model MetricSpec.compute ({prior}): {per * 1e3:.2f} ms/model -> {per * L:7.1f} s for {L:,} (extrapolated)")
    try:
        from scorio import eval as ref
    except ImportError:  # pragma: no cover - the reference is a test requirement
        print("  reference scorio not installed")
    else:
        start = time.perf_counter()
        for i in range(sample):
            Ri = (np.arange(N)[None, :] < counts[i, :, 1:2]).astype(int)
            ref.bayes_ci(Ri)
        per = (time.perf_counter() - start) / sample
        print(f"  reference scorio.eval.bayes_ci (uniform):   {per * 1e3:.2f} ms/model -> {per * L:7.1f} s for {L:,} (extrapolated)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
