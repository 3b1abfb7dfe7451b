"""Per-trial outcome lists (``"score": [true, false, ...]`` per question): load time beside the same attempts as a
long table.

Method: L models x M questions x N samples of 0/1 outcomes (default 16 x 1,000 x 64 = 1,024,000 attempts) written
once as one JSON Lines record per (model, question) with the N outcomes in a list (Qwen2.5-Math's layout), once as
the long table of the same attempts (``model, idx, trial, score``) in JSON Lines, and both as Parquet, in a
temporary folder. After a warm-up load of a tiny file (imports), each file is loaded with ``scorio_core.io.load``
(best of ``--runs``) and the time printed beside the long table's and the target: < 3 s for 10^6 attempts, the
loader target for 10^6 attempts (bench_io.py). Then the same files counted by the DuckDB engine
(``scorio_core.engines.load_counts(engine="duckdb")``: the lists unnested in SQL, out of core), beside its count of
the long table, with the counts checked equal to the pandas loader's.

Run: ``.venv/bin/python benchmarks/bench_trial_lists.py [--models 16] [--questions 1000] [--samples 64] [--runs 3]``
(exits 1 when a target is missed).
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
TARGET_SECONDS_PER_MILLION = 3.0


def write(folder: Path, n_models: int, n_questions: int, n_samples: int, seed: int = 0) -> dict[str, Path]:
    """The list records and their long table, as JSON Lines and Parquet: ``{"lists.jsonl": path, ...}``."""
    rng = np.random.default_rng(seed)
    outcomes = rng.random((n_models, n_questions, n_samples)) < rng.uniform(0.1, 0.9, (n_models, 1, 1))
    models = np.repeat([f"model-{i}" for i in range(n_models)], n_questions)
    idx = np.tile(np.arange(n_questions), n_models)
    lists = pd.DataFrame({"model": models, "idx": idx, "score": list(outcomes.reshape(-1, n_samples))})
    long = pd.DataFrame({"model": np.repeat(models, n_samples), "idx": np.repeat(idx, n_samples),
                         "trial": np.tile(np.arange(n_samples), n_models * n_questions), "score": outcomes.ravel()})
    paths = {}
    for name, frame in (("lists", lists), ("long", long)):
        paths[f"{name}.jsonl"] = folder / f"{name}.jsonl"
        frame.to_json(paths[f"{name}.jsonl"], orient="records", lines=True)
        paths[f"{name}.parquet"] = folder / f"{name}.parquet"
        frame.to_parquet(paths[f"{name}.parquet"], index=False)
    return paths


def best(path: Path, runs: int) -> tuple[float, int]:
    """(best wall time in seconds, attempts loaded)."""
    from scorio_core import io

    times, n = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        dataset = io.load(str(path))
        times.append(time.perf_counter() - start)
        n = len(dataset.attempts)
    return min(times), n


def best_duckdb(path: Path, runs: int) -> tuple[float, int, int]:
    """(best wall time in seconds, attempts counted, correct attempts) of the DuckDB count pass."""
    from scorio_core.engines import load_counts

    times, n, c = [], 0, 0
    for _ in range(runs):
        start = time.perf_counter()
        counts = load_counts([str(path)], engine="duckdb").counts
        times.append(time.perf_counter() - start)
        n, c = int(counts["n_trials"].sum()), int(counts["n_correct"].sum())
    return min(times), n, c


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=int, default=16)
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from scorio_core import io

    io.load([("warm.jsonl", b'{"model": "m", "idx": 0, "score": [1, 0]}\n')])  # imports, outside the timings
    missed = False
    with tempfile.TemporaryDirectory() as tmp:
        paths = write(Path(tmp), args.models, args.questions, args.samples)
        print(f"{args.models} models x {args.questions} questions x {args.samples} samples "
              f"({args.models * args.questions * args.samples:,} attempts), best of {args.runs}")
        print(f"{'file':<16}{'lists (s)':>11}{'long (s)':>11}{'attempts':>12}{'target (s)':>12}  status")
        for fmt in ("jsonl", "parquet"):
            t_lists, n = best(paths[f"lists.{fmt}"], args.runs)
            t_long, n_long = best(paths[f"long.{fmt}"], args.runs)
            assert n == n_long, (n, n_long)
            target = TARGET_SECONDS_PER_MILLION * n / 1e6
            ok = t_lists < target
            missed |= not ok
            print(f"{fmt:<16}{t_lists:>11.2f}{t_long:>11.2f}{n:>12,}{target:>12.2f}  {'ok' if ok else 'MISSED'}")
        try:
            import duckdb  # noqa: F401
        except ImportError:
            return 1 if missed else 0
        print("DuckDB engine (count pass), same files")
        print(f"{'file':<16}{'lists (s)':>11}{'long (s)':>11}{'attempts':>12}{'target (s)':>12}  status")
        for fmt in ("jsonl", "parquet"):
            t_lists, n, c = best_duckdb(paths[f"lists.{fmt}"], args.runs)
            t_long, n_long, c_long = best_duckdb(paths[f"long.{fmt}"], args.runs)
            assert (n, c) == (n_long, c_long), (n, c, n_long, c_long)
            target = TARGET_SECONDS_PER_MILLION * n / 1e6
            ok = t_lists < target
            missed |= not ok
            print(f"{fmt:<16}{t_lists:>11.2f}{t_long:>11.2f}{n:>12,}{target:>12.2f}  {'ok' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
