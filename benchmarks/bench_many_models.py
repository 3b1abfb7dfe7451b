"""Hundreds of models: the `methods` command's default set, and the paired-comparison fits it leaves out.

For L = 100, 150 and 300 models (40 questions, 2 trials, skills uniform on (0, 1), seeded), writes a long
CSV, runs ``python -m scorio_core methods FILE --output json`` (every default method: Bayes@N, IRT ability,
pointwise, Bayesian, voting, graph and spectral) and prints its wall time beside the target (< 30 s), then
times each finite-difference paired-comparison fit (limit 100 models in ``scorio_core.rank.agreement.EXPENSIVE``) alone
with a 60 s cap, to show why they leave the default set above that size.

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
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
