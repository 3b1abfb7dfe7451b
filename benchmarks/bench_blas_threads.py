"""BLAS threads on a shared server: the library's default thread count against one thread (docs/scale.md).

The app and the CLI run with one BLAS thread (``scorio_core.limits.limit_blas_threads``). This prints, for the
calls of the table in docs/scale.md ("BLAS threads on a shared server"), the median of ``--runs`` calls with
OpenBLAS's default threads and with one thread (``threadpoolctl``), in the same process, beside the machine's
load average (the gain grows with the load: threads wait for cores). The 2PL/3PL/MIRT fits set one thread inside
the fit themselves (``single_threaded_blas``), so ``rasch_3pl`` is timed with that switched off for the default
column.

Target: one thread no slower than the default by more than ~15% on any row, and faster on a loaded machine.
Run: ``python benchmarks/bench_blas_threads.py [--runs 3] [--only rasch_map ...]``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time

import numpy as np
from threadpoolctl import threadpool_limits

from scorio_core import limits, rank

CALLS = ("rasch_map", "rasch", "bradley_terry", "rasch_3pl", "method_agreement")


def _tensor(models: int = 50, questions: int = 500, trials: int = 8) -> np.ndarray:
    rng = np.random.default_rng(38)  # the tensor of benchmarks/bench_rank.py
    return (rng.random((models, questions, trials)) < rng.random((models, 1, 1))).astype(int)


def _agreement():
    from pathlib import Path

    from scorio_core import io
    from scorio_core.leaderboard.methods import method_agreement
    from scorio_core.leaderboard.table import outcomes_for

    data = io.load([str(Path(__file__).resolve().parents[1] / "data" / "paper_simulation.csv.gz")])
    outcomes = outcomes_for(data)
    return lambda: method_agreement(outcomes)


def _call(name: str, R: np.ndarray):
    if name == "method_agreement":
        return _agreement()
    return lambda: getattr(rank, name)(R)


@contextlib.contextmanager
def _library_default():
    """The fits' own one-thread switch turned off (the default column measures the library's default threads)."""
    saved = limits.single_threaded_blas
    limits.single_threaded_blas = contextlib.nullcontext
    try:
        yield
    finally:
        limits.single_threaded_blas = saved


def _median(fn, runs: int) -> float:
    fn()  # warm-up: imports, caches
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=CALLS)
    args = parser.parse_args()
    R = _tensor()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; median of {args.runs} calls, same process")
    print("| call | default threads | one thread | ratio | target |")
    print("|---|---|---|---|---|")
    for name in args.only or CALLS:
        fn = _call(name, R)
        with _library_default(), threadpool_limits(limits=os.cpu_count()):  # OpenBLAS default: one per core
            default = _median(fn, args.runs)
        with threadpool_limits(limits=1):
            one = _median(fn, args.runs)
        ok = one <= 1.15 * default
        print(f"| {name} | {default * 1e3:.0f} ms | {one * 1e3:.0f} ms | {default / one:.2f}x | "
              f"{'ok' if ok else 'missed'} (one thread <= 1.15 x default) |", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
