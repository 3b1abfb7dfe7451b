"""Response matrices (``--map question_id=@columns``): load time beside the same outcomes as a long table.

Method: L models x M questions of 0/1 outcomes (default 200 x 5,000 = 10^6 cells, 2% empty: questions a model was
not run on) written once as a matrix (``model, q0, q1, ...``) and once as the long table of the same attempts
(``model, question_id, is_correct``), each as CSV and Parquet, in a temporary folder. After a warm-up load of a tiny
matrix (imports), each file is loaded with ``scorio_core.io.load`` (best of ``--runs``), and the time is printed
beside the long table's and the target: < 3 s for 10^6 cells, the loader target for 10^6 attempts (bench_io.py).

Run: ``.venv/bin/python benchmarks/bench_matrix.py [--models 200] [--questions 5000] [--runs 3]`` (exits 1 when a
target is missed).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 3.0


def write(folder: Path, n_models: int, n_questions: int, seed: int = 0) -> dict[str, Path]:
    """The matrix and its long table, as CSV and Parquet: ``{"matrix.csv": path, ...}``."""
    rng = np.random.default_rng(seed)
    cells = (rng.random((n_models, n_questions)) < rng.uniform(0.1, 0.9, (n_models, 1))).astype(float)
    cells[rng.random(cells.shape) < 0.02] = np.nan
    models = np.array([f"model-{i}" for i in range(n_models)])
    questions = np.array([f"q{j}" for j in range(n_questions)])
    matrix = pd.DataFrame(cells, columns=questions).astype("Int8")
    matrix.insert(0, "model", models)
    m, q = np.nonzero(np.isfinite(cells))
    long = pd.DataFrame({"model": models[m], "question_id": questions[q], "is_correct": cells[m, q].astype(np.int8)})
    paths = {}
    for name, frame in (("matrix", matrix), ("long", long)):
        paths[f"{name}.csv"] = folder / f"{name}.csv"
        frame.to_csv(paths[f"{name}.csv"], index=False)
        paths[f"{name}.parquet"] = folder / f"{name}.parquet"
        frame.to_parquet(paths[f"{name}.parquet"], index=False)
    return paths


def best(path: Path, mapping: dict | None, runs: int) -> tuple[float, int]:
    """(best wall time in seconds, attempts loaded)."""
    from scorio_core import io

    times, n = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        dataset = io.load(str(path), mapping=mapping)
        times.append(time.perf_counter() - start)
        n = len(dataset.attempts)
    return min(times), n


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=200)
    parser.add_argument("--questions", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from scorio_core import io

    matrix = {"question_id": "@columns"}
    missed = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "tiny.csv").write_text("model,q1,q2\na,1,0\nb,0,1\n")
        io.load(str(folder / "tiny.csv"), mapping=matrix)  # imports and thread pools warm
        paths = write(folder, args.models, args.questions)
        print(f"{args.models:,} models x {args.questions:,} questions ({args.models * args.questions:,} cells), "
              f"best of {args.runs}")
        for fmt in ("csv", "parquet"):
            t_matrix, n_matrix = best(paths[f"matrix.{fmt}"], matrix, args.runs)
            t_long, n_long = best(paths[f"long.{fmt}"], None, args.runs)
            assert n_matrix == n_long, (n_matrix, n_long)  # the same attempts either way
            ok = t_matrix < TARGET_SECONDS * args.models * args.questions / 1e6
            missed += not ok
            print(f"{fmt:<8} matrix {t_matrix:6.2f} s   long table {t_long:6.2f} s   ({n_matrix:,} attempts)   "
                  f"target < {TARGET_SECONDS:g} s per 10^6 cells   {'ok' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
