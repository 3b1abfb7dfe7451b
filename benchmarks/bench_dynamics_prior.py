"""Empirical Bayes at uniform speed in the dynamics (issue 36): convergence@n and a trajectory per prior.

Seeded random outcome tensors, 20 models x 30 questions x 80 trials, binary and with 3
categories (weights 0, 1/2, 1). For each: ``bootstrap_convergence`` with 1,000 column-wise
replicates under the uniform prior and under the empirical-Bayes prior (refitted to every
(replicate, prefix n, model)), timed in the same run, plus one ``rank_trajectory`` under
empirical Bayes. Then the issue's own measure: the ``convergence`` command
(``python -m scorio_core convergence FILE --replicates 1000 --prior P --output json``) on the
binary tensor written as an attempts CSV, both priors in the same run (start-up, loading and
output included; the command computes chunks on both cores, the in-process runs on one). Target (issue 36): empirical Bayes within 2x of uniform; the in-process ratio
is printed beside it (no target: the uniform prior is one closed-form division per fit, an exact
refit a few Newton iterations over ~n terms).

    .venv/bin/python benchmarks/bench_dynamics_prior.py [--replicates 1000] [--eb-replicates 1000] [--no-cli]
        [--tasks 2 5]

``--eb-replicates`` below ``--replicates`` times the in-process empirical-Bayes runs on fewer
replicates and extrapolates linearly; the output says so. The CLI runs always use
``--replicates``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorio_core.dynamics.convergence import bootstrap_convergence  # noqa: E402
from scorio_core.dynamics.trajectory import rank_trajectory  # noqa: E402

RATIO_TARGET = 2.0
ROOT = Path(__file__).resolve().parents[1]


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


def write_attempts(R: np.ndarray, path: Path) -> None:
    """Binary codes (L, M, N) as an attempts CSV (model, question_id, trial, correct)."""
    L, M, N = R.shape
    import pandas as pd

    li, mi, ni = np.meshgrid(np.arange(L), np.arange(M), np.arange(N), indexing="ij")
    pd.DataFrame({"model": [f"m{i:02d}" for i in li.ravel()], "question_id": [f"q{j:02d}" for j in mi.ravel()],
                  "trial": ni.ravel(), "correct": R.ravel()}).to_csv(path, index=False)


def cli_seconds(path: Path, prior: str, replicates: int) -> float:
    """Wall time of the ``convergence`` command on ``path`` (a fresh interpreter, as a pipeline runs it)."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "scorio_core", "convergence", str(path), "--replicates", str(replicates),
                    "--prior", prior, "--output", "json"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--eb-replicates", type=int, default=None, help="replicates timed under empirical Bayes "
                        "(default: --replicates); fewer are extrapolated linearly")
    parser.add_argument("--no-cli", action="store_true", help="skip the convergence command's runs")
    parser.add_argument("--tasks", type=int, nargs="*", default=[], help="also time the empirical-Bayes run with the "
                        "30 questions split into T tasks pooled (the prior refitted per task, as under 'all tasks')")
    args = parser.parse_args()
    B = args.replicates
    B_eb = min(B, args.eb_replicates or B)
    print(f"20 models x 30 questions x 80 trials, {B} column-wise replicates"
          + ("" if B_eb == B else f" (empirical Bayes timed on {B_eb} and extrapolated x{B / B_eb:g})"))
    print(f"{'case':<56}{'time (s)':>10}  target")
    ok_all = True
    for K in (2, 3):
        R = data(K)
        w = None if K == 2 else [0.0, 0.5, 1.0]
        tag = "binary" if K == 2 else "3 categories"
        uni = timed(lambda: bootstrap_convergence(R, w=w, replicates=B, seed=0, prior="uniform"))
        eb = timed(lambda: bootstrap_convergence(R, w=w, replicates=B_eb, seed=0, prior="empirical-bayes")) * B / B_eb
        traj = timed(lambda: rank_trajectory(R, w=w, prior="empirical-bayes"))
        print(f"{'convergence, uniform, ' + tag + ' (in process)':<56}{uni:>10.2f}  -")
        print(f"{'convergence, empirical-bayes, ' + tag + ' (in process)':<56}{eb:>10.2f}  -")
        print(f"{'  ratio empirical-bayes / uniform (in process)':<56}{eb / uni:>10.1f}x (no target)")
        print(f"{'trajectory, empirical-bayes, ' + tag:<56}{traj:>10.3f}  -")
        for T in args.tasks:  # 'all tasks': one fit per (replicate, n, model, task)
            strata = np.arange(R.shape[1]) % T
            t_eb = timed(lambda: bootstrap_convergence(R, w=w, replicates=B_eb, seed=0, prior="empirical-bayes",
                                                       strata=strata)) * B / B_eb
            print(f"{f'convergence, empirical-bayes, {tag}, {T} tasks pooled':<56}{t_eb:>10.2f}  - "
                  f"({t_eb / eb:.1f}x one prior)")
        if K == 2 and not args.no_cli:
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "sim_20x30x80.csv"
                write_attempts(R, path)
                cli_uni = cli_seconds(path, "uniform", B)
                cli_eb = cli_seconds(path, "empirical-bayes", B)
            ok = cli_eb <= RATIO_TARGET * cli_uni
            ok_all &= ok
            print(f"{'`convergence` command, --prior uniform, ' + tag:<56}{cli_uni:>10.2f}  -")
            print(f"{'`convergence` command, --prior empirical-bayes, ' + tag:<56}{cli_eb:>10.2f}  <= "
                  f"{RATIO_TARGET * cli_uni:.2f} (2x uniform){'' if ok else '  MISSED'}")
            print(f"{'  ratio empirical-bayes / uniform (command)':<56}{cli_eb / cli_uni:>10.2f}x target <= "
                  f"{RATIO_TARGET:g}x")
            # the second item, 10,000 replicates < 10 s: the uniform command's time as start-up, the rest
            # scaled linearly (the runs are chunked, so time grows with the replicates); not run (minutes)
            ten_k = cli_uni + (cli_eb - cli_uni) * 10_000 / B
            print(f"{'`convergence` command, empirical-bayes, 10,000 replicates':<56}{ten_k:>10.1f}  < 10 s "
                  f"(extrapolated from {B:,}){'' if ten_k < 10 else '  MISSED'}")
    print(f"empirical-bayes within {RATIO_TARGET:g}x of uniform (the convergence command): "
          f"{'not run' if args.no_cli else 'OK' if ok_all else 'MISSED'}")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
