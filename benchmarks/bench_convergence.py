"""Speed and memory of the convergence@n bootstrap (scorio_core.dynamics.convergence).

Usage::

    .venv/bin/python benchmarks/bench_convergence.py            # every case (~1-2 minutes)
    .venv/bin/python benchmarks/bench_convergence.py --quick    # skip the 10^5 case

Each case runs in its own child process, so the reported peak RSS (``ru_maxrss``) is that
case's alone (it includes numpy/scipy, about 60-80 MiB). Data are biased-coin mimics
(:mod:`scorio_core.dynamics.simulate`, paper section 2.7). Kendall's tau_b vs n is computed in every
case (it is part of the result).

Targets (issue 4, 2-core machine):

* Bayes@N, L=20, M=30, N=80, column-wise: 10^4 replicates < 2 s, 10^5 < 30 s, peak < 2 GiB.
* Pass@k family (Pass@2/4/8, Pass^4, G-Pass@4_0.5, mG-Pass@4), 10^4 replicates: < 20 s each.
* Baseline: a straightforward loop over the reference package (``scorio.eval.bayes`` per
  model and n, ``scipy.stats.kendalltau``), 11 x 30 x 80; the issue measured 251 s for
  1,000 column-wise replicates. Timed on a few replicates and extrapolated to 1,000.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CASES = {
    # name: (metric, k, tau, method, replicates, L, target seconds)
    "bayes-column-1e4": ("bayes", 1, None, "column", 10_000, 20, 2.0),
    "bayes-column-1e5": ("bayes", 1, None, "column", 100_000, 20, 30.0),
    "bayes-row-1e4": ("bayes", 1, None, "row", 10_000, 20, None),
    "pass@2-column-1e4": ("pass@k", 2, None, "column", 10_000, 20, 20.0),
    "pass@4-column-1e4": ("pass@k", 4, None, "column", 10_000, 20, 20.0),
    "pass@8-column-1e4": ("pass@k", 8, None, "column", 10_000, 20, 20.0),
    "pass^4-column-1e4": ("pass^k", 4, None, "column", 10_000, 20, 20.0),
    "g-pass@4_0.5-column-1e4": ("g-pass@k_tau", 4, 0.5, "column", 10_000, 20, 20.0),
    "mg-pass@4-column-1e4": ("mg-pass@k", 4, None, "column", 10_000, 20, 20.0),
    "pass@4-row-1e4": ("pass@k", 4, None, "row", 10_000, 20, None),
    "bayes-column-1e3-paper11": ("bayes", 1, None, "column", 1_000, 11, None),
}


def data(L: int):
    from scorio_core.dynamics.simulate import DEMO_MEANS, PAPER_MEANS, simulate

    return simulate(PAPER_MEANS if L == 11 else DEMO_MEANS[:L], n_questions=30, n_trials=80, seed=0).R


def run_case(name: str) -> dict:
    from scorio_core.dynamics.convergence import bootstrap_convergence

    metric, k, tau, method, B, L, _ = CASES[name]
    R = data(L)
    start = time.perf_counter()
    res = bootstrap_convergence(R, metric, k=k, tau=tau, method=method, replicates=B, seed=0)
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "mean": res.mean,
        "no_convergence": res.no_convergence,
        "tau_at_10": float(res.kendall_tau_mean[9]),
    }


def reference_loop(replicates: int) -> dict:
    """Straightforward loop over the reference package: per replicate, n and model."""
    import numpy as np
    from scipy.stats import kendalltau
    from scorio import eval as ref
    from scorio.utils import rank_scores

    R = data(11)
    L, M, N = R.shape
    gold = rank_scores([ref.avg(R[l])[0] for l in range(L)])["competition"]
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(replicates):
        idx = rng.integers(0, N, size=N)
        Rb = R[:, :, idx]
        ranks = []
        for n in range(1, N + 1):
            mu = [ref.bayes(Rb[l, :, :n])[0] for l in range(L)]
            ranks.append(rank_scores(mu)["competition"])
            kendalltau(ranks[-1], gold)
        match = [np.array_equal(r, gold) for r in ranks]
        next((s for s in range(1, N) if all(match[s - 1 :])), None)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "per_replicate": seconds / replicates, "extrapolated_1000": 1000 * seconds / replicates}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 10^5 case")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--reference", type=int, default=3, help="replicates of the reference-package loop (default 3)")
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(run_case(args.one)))
        return 0
    print(f"{'case':28s} {'time (s)':>9s} {'target':>7s} {'peak RSS':>9s}  result")
    failed = False
    for name, (*_, target) in CASES.items():
        if args.quick and name.endswith("1e5"):
            continue
        out = subprocess.run([sys.executable, __file__, "--one", name], capture_output=True, text=True, check=True)
        r = json.loads(out.stdout)
        ok = target is None or r["seconds"] < target
        failed |= not ok
        tgt = "-" if target is None else f"<{target:g}"
        mean = "none" if r["mean"] != r["mean"] else f"{r['mean']:.1f}"
        print(
            f"{name:28s} {r['seconds']:9.2f} {tgt:>7s} {r['peak_rss_mib']:6.0f} MiB  "
            f"mean conv@n {mean}, no-conv {r['no_convergence']:.1%}, tau(n=10) {r['tau_at_10']:.3f}{'' if ok else '  MISSED'}"
        )
    if args.reference > 0:
        ref = reference_loop(args.reference)
        print(
            f"reference-package loop, 11x30x80: {ref['per_replicate']:.2f} s per replicate "
            f"-> {ref['extrapolated_1000']:.0f} s per 1,000 replicates (issue: 251 s)"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
