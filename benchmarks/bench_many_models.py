"""Hundreds of models: the `methods` command's default set, the paired-comparison fits it leaves out, and the figures.

For L = 100, 150 and 300 models (40 questions, 2 trials, skills uniform on (0, 1), seeded), writes a long
CSV, runs ``python -m scorio_core methods FILE --output json`` (every default method: Bayes@N, IRT ability,
pointwise, Bayesian, voting, graph and spectral) and prints its wall time beside the target (< 30 s), then
times each finite-difference paired-comparison fit (limit 100 models in ``scorio_core.rank.agreement.EXPENSIVE``) alone
with a 60 s cap, to show why they leave the default set above that size. Then times the figures every
model gets a line or a row in (leaderboard forest plot with one CI-tie group per model, rubric bump chart, rank
trajectory) at the largest size, beside their target (< 1.5 s each; per-model ``add_annotation`` made the bump
chart take 42 s at 300 models).

Also many tasks: ``methods`` on 40 models x 12 tasks (6 questions x 2 trials each) beside its target (< 10 s; the
tau_b matrix of the 35 default methods is one vectorised product per task, not 595 scipy calls).

    .venv/bin/python benchmarks/bench_many_models.py [--sizes 100 150 300] [--cap 60]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 30.0
TASKS_TARGET_S = 10.0
FIGURE_TARGET_S = 1.5
PAIRED = ("bradley_terry_map", "bradley_terry_davidson", "bradley_terry_davidson_map", "rao_kupper", "rao_kupper_map",
          "plackett_luce_map")
ONE = """
import sys, time, numpy as np
sys.path.insert(0, {root!r})
import scorio_core.rank as rank
rng = np.random.default_rng(0); L = {L}
R = (rng.random((L, 40, 2)) < rng.random(L)[:, None, None]).astype(int)
t = time.perf_counter(); getattr(rank, {name!r})(R); print(time.perf_counter() - t)
"""


def dump(L: int, folder: Path) -> Path:
    rng = np.random.default_rng(0)
    R = (rng.random((L, 40, 2)) < rng.random(L)[:, None, None]).astype(int)
    m, q, t = np.meshgrid(np.arange(L), np.arange(40), np.arange(2), indexing="ij")
    path = folder / f"models_{L}.csv"
    pd.DataFrame({"model": [f"model-{i:03d}" for i in m.ravel()], "task": "t", "question_id": [f"q{j}" for j in q.ravel()],
                  "trial": t.ravel(), "correct": R.ravel()}).to_csv(path, index=False)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 150, 300])
    parser.add_argument("--cap", type=float, default=60.0, help="seconds allowed to one left-out fit")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for L in args.sizes:
            path = dump(L, Path(tmp))
            t = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "scorio_core", "methods", str(path), "--output", "json"],
                                  cwd=ROOT, capture_output=True, text=True)
            seconds = time.perf_counter() - t
            if done.returncode:
                print(f"L = {L}: methods failed: {done.stderr.strip()[-300:]}")
                ok = False
                continue
            task = json.loads(done.stdout)["tasks"][0]
            passed = seconds < TARGET_S
            ok &= passed
            print(f"L = {L:3d}: `methods` (defaults: {len(task['methods'])} methods) {seconds:6.1f} s   target < "
                  f"{TARGET_S:g} s  {'ok' if passed else 'MISSED'}")
            for note in task["notes"]:
                if note.startswith("Left out by default"):
                    print(f"         note: {note[:140]}...")
            for name in PAIRED:
                try:
                    out = subprocess.run([sys.executable, "-c", ONE.format(root=str(ROOT), L=L, name=name)],
                                         capture_output=True, text=True, timeout=args.cap)
                    took = f"{float(out.stdout.split()[-1]):6.2f} s" if out.returncode == 0 else "error"
                except subprocess.TimeoutExpired:
                    took = f"> {args.cap:g} s"
                print(f"         {name:28s} alone: {took}")
    ok &= many_tasks()
    ok &= figures(max(args.sizes))
    return 0 if ok else 1


def many_tasks(L: int = 40, T: int = 12) -> bool:
    """``methods`` (default set) on L models x T tasks, wall time beside :data:`TASKS_TARGET_S`."""
    rng = np.random.default_rng(7)
    m, t, q, r = np.meshgrid(np.arange(L), np.arange(T), np.arange(6), np.arange(2), indexing="ij")
    correct = (rng.random(m.shape) < 0.3 + m / 100).astype(int)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tasks.csv"
        pd.DataFrame({"model": [f"m{i:02d}" for i in m.ravel()], "task": [f"t{j}" for j in t.ravel()],
                      "question_id": [f"q{k}" for k in q.ravel()], "trial": r.ravel(),
                      "is_correct": correct.ravel()}).to_csv(path, index=False)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "scorio_core", "methods", str(path), "--output", "json"],
                              cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - start
    passed = done.returncode == 0 and seconds < TASKS_TARGET_S
    print(f"{L} models x {T} tasks: `methods` {seconds:6.1f} s   target < {TASKS_TARGET_S:g} s  "
          f"{'ok' if passed else 'MISSED'}")
    return passed


def figures(L: int) -> bool:
    """Time the per-model figures on L models (worst case for the forest plot: every model its own tie group)."""
    sys.path.insert(0, str(ROOT))
    from dashboard.figures import interval_plot, schema_bump_chart
    from dashboard.figures.trajectory import rank_trajectory_plot

    rng = np.random.default_rng(0)
    models = [f"model-{i:03d}" for i in range(L)]
    mu = np.sort(rng.random(L))[::-1]
    table = pd.DataFrame({"model": models, "mu": mu, "lo": mu - 0.05, "hi": mu + 0.05, "rank": np.arange(1, L + 1),
                          "rank_ci": np.arange(1, L + 1)})
    bump = pd.DataFrame({"schema": np.repeat(["binary", "strict", "lenient"], L), "model": models * 3,
                         "rank": rng.permutation(np.tile(np.arange(1, L + 1), 3)).astype(float), "mu": rng.random(3 * L)})
    cases = {
        "leaderboard forest plot": lambda: interval_plot(table),
        "rubric bump chart (3 schemata)": lambda: schema_bump_chart(bump, schemas=["binary", "strict", "lenient"],
                                                                    models=models),
        "rank trajectory (N = 8)": lambda: rank_trajectory_plot(models, np.arange(1, 9),
                                                                rng.integers(1, L + 1, (L, 8)).astype(float)),
    }
    ok = True
    for name, make in cases.items():
        t = time.perf_counter()
        make()
        seconds = time.perf_counter() - t
        ok &= seconds < FIGURE_TARGET_S
        print(f"L = {L:3d}: {name:32s} {seconds:6.2f} s   target < {FIGURE_TARGET_S:g} s  "
              f"{'ok' if seconds < FIGURE_TARGET_S else 'MISSED'}")
    return ok


if __name__ == "__main__":
    raise SystemExit(main())
