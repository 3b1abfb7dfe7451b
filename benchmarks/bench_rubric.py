"""Rubric engine speed: categorize 1,000,000 attempts under every built-in schema.

Target (issue 5): < 1 s per schema for the whole call from a DataFrame (signal derivation,
percentile thresholds, categories, coverage report) on a 2-core machine. Also timed: the
same from a prebuilt SignalTable (one table shared by all schemas, as the app does) and the
perturbation path ``BoundRubric.codes(percentile_shift=...)`` the Sensitivity page loops on.

    .venv/bin/python benchmarks/bench_rubric.py [--rows 1000000] [--repeat 3]

Exits with status 1 if a schema misses the target.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorio_core.rubric import SignalTable, bind, categorize, list_schemas

TARGET_SECONDS = 1.0


def make_attempts(n: int, seed: int = 0) -> pd.DataFrame:
    """Raw per-attempt fields as a dump would carry them (signals derived by the engine)."""
    rng = np.random.default_rng(seed)
    lp = -rng.gamma(2.0, 0.2, n)
    tokens = rng.integers(10, 32768, n)
    return pd.DataFrame({
        "model": pd.Categorical(rng.choice([f"model-{i}" for i in range(20)], n)),
        "task": "bench",
        "question_id": rng.integers(0, 500, n).astype(str),
        "trial": rng.integers(0, 80, n),
        "is_correct": rng.integers(0, 2, n).astype(float),
        "finish_reason": rng.choice(["stop", "length"], n, p=[0.95, 0.05]),
        "completion_tokens": tokens,
        "prompt_tokens": rng.integers(50, 500, n),
        "completion_logprob_mean": lp,
        "prompt_ppl": np.exp(rng.gamma(2.0, 1.0, n)),
        "has_box": rng.integers(0, 2, n).astype(float),
        "compass_context_A": rng.random(n),
        "compass_context_B": rng.random(n) * 0.5,
        "compass_context_C": rng.random(n) * 0.6,
        "completion_logprob_min": lp * 20,
    })


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    attempts = make_attempts(args.rows)
    start = time.perf_counter()
    table = SignalTable(attempts, max_tokens=32768)
    print(f"{args.rows:,} attempts; SignalTable (derive signals) {time.perf_counter() - start:.3f} s")
    print(f"{'schema':34s} {'from DataFrame':>15s} {'from table':>11s} {'shift path':>11s}  unmatched")
    failed = []
    for name in list_schemas():
        full = best_of(args.repeat, lambda name=name: categorize(attempts, name, max_tokens=32768))
        shared = best_of(args.repeat, lambda name=name: categorize(table, name))
        bound = bind(table, name)
        shifts = {t.name: 2.5 for t in bound.schema.thresholds if t.kind == "percentile"}
        bound.codes()
        shift = best_of(args.repeat, lambda b=bound, s=shifts: b.codes(percentile_shift=s))
        unmatched = bound.categorize().coverage.n_unmatched
        flag = "" if full < TARGET_SECONDS else "  <-- over target"
        print(f"{name:34s} {full:13.3f} s {shared:9.3f} s {shift:9.3f} s  {unmatched:>9d}{flag}")
        if full >= TARGET_SECONDS:
            failed.append(name)
    print(f"target: < {TARGET_SECONDS:.1f} s per schema from a DataFrame; "
          + ("all met." if not failed else f"missed by {', '.join(failed)}."))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
