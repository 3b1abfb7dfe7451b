"""IRT fit on the count table (issue 37): 2PL and Rasch on 100 models x 2,000 questions x 8 trials.

Target: < 5 s for the 2PL fit (``scorio_core.items.fit_irt``: Newton steps through the Schur complement,
Laplace standard errors included). The data are simulated from a 2PL, so the Rasch rows fit a misspecified
model (their interval coverage is low by design). Also prints the recovery of the simulated parameters, the coverage of
the 95% Laplace intervals of the difficulties, and (for reference) 100 x 10,000 (issue 37's larger target, < 3 s).

    .venv/bin/python benchmarks/bench_items.py [--repeat 3] [--large]

Exits with status 1 if the 2PL fit misses the target.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy.special import expit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorio_core.items import fit_irt, flag_questions  # noqa: E402

TARGET_SECONDS = 5.0
TARGET_LARGE_SECONDS = 3.0


def simulate(L: int, M: int, N: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    theta, b, a = rng.normal(size=L), rng.normal(size=M), rng.lognormal(0.0, 0.3, size=M)
    n = np.full((L, M), N)
    return theta, b, a, rng.binomial(n, expit(a * (theta[:, None] - b))), n


def measure(L: int, M: int, N: int, model: str, repeat: int):
    theta, b, a, s, n = simulate(L, M, N)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fit = fit_irt(s, n, model=model)
        times.append(time.perf_counter() - t)
    t = time.perf_counter()
    flag_questions(fit, s, n)
    flag_time = time.perf_counter() - t
    pairs = ((fit.theta, theta), (fit.b, b)) + (((fit.a, a),) if model == "2pl" else ())
    r = [np.corrcoef(x, y)[0, 1] for x, y in pairs]
    cover = float(np.mean(np.abs(fit.b - b) <= 1.96 * fit.b_se))
    return min(times), flag_time, fit, r, cover


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--large", action="store_true", help="also fit 100 x 10,000")
    args = parser.parse_args()
    ok = True
    sizes = [(100, 2000, 8, TARGET_SECONDS)] + ([(100, 10000, 8, TARGET_LARGE_SECONDS)] if args.large else [])
    for L, M, N, target in sizes:
        for model in ("2pl", "rasch"):
            seconds, flag_s, fit, r, cover = measure(L, M, N, model, args.repeat)
            verdict = "ok" if seconds < target else "MISSED"
            if model == "2pl" and L * M == 200_000:
                ok &= seconds < target
            print(f"{model:5s} {L} x {M:,} x {N}: fit {seconds:.2f} s (target < {target:g} s) {verdict}; "
                  f"flags {flag_s:.2f} s; {fit.iterations} Newton steps, converged={fit.converged}")
            print(f"      recovery r(theta)={r[0]:.3f} r(b)={r[1]:.3f}"
                  + (f" r(a)={r[2]:.3f}" if model == "2pl" else "") + f"; 95% interval coverage of b: {cover:.3f}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
