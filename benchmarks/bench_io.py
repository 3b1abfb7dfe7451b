"""Loader speed and memory on a 1,000,000-attempt long table (scorio_core.io.load).

Targets (issue 6): CSV and Parquet load in < 3 s, JSONL in < 10 s; peak memory at most
about 3x the file size.

Method: the table (20 models x 500 questions x 100 trials, with ``completion_tokens`` and
``finish_reason`` signals) is written once as CSV, Parquet and JSONL to a temporary folder.
Each format is then loaded in a fresh child process that first loads a tiny file of the
same format (so imports, thread pools and allocator arenas are warm), records its peak
resident set size (``VmHWM`` in ``/proc/self/status``), loads the big file with
``scorio_core.io.load`` (format detection, column mapping, validation, quality report
included), and reports the wall time and the rise of the peak RSS. RSS includes pyarrow's
memory pool, which tracemalloc cannot see. Parquet is compressed (about 1/20 of the CSV),
so its memory is also shown relative to the CSV size.

Run: ``.venv/bin/python benchmarks/bench_io.py`` (exits 1 when a target is missed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = {"csv": 3.0, "parquet": 3.0, "jsonl": 10.0}
TARGET_MEMORY_RATIO = 3.0


def make_table(n_models: int = 20, n_questions: int = 500, n_trials: int = 100, seed: int = 0):
    """The benchmark's long table as a pyarrow Table (1,000,000 rows by default)."""
    import numpy as np
    import pyarrow as pa

    rng = np.random.default_rng(seed)
    n = n_models * n_questions * n_trials
    models = np.array([f"provider/model-{i:02d}-2025-06-01" for i in range(n_models)])
    questions = np.array([f"q{i:04d}" for i in range(n_questions)])
    m = np.repeat(np.arange(n_models), n_questions * n_trials)
    q = np.tile(np.repeat(np.arange(n_questions), n_trials), n_models)
    return pa.table(
        {
            "model": models[m],
            "task": np.full(n, "aime25"),
            "question_id": questions[q],
            "trial": np.tile(np.arange(n_trials), n_models * n_questions),
            "is_correct": rng.integers(0, 2, n),
            "completion_tokens": rng.integers(100, 32768, n),
            "finish_reason": np.where(rng.random(n) < 0.9, "stop", "length"),
        }
    )


def write_files(folder: Path, table) -> dict[str, Path]:
    """Write the table as CSV, Parquet and JSONL; return the paths."""
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    paths = {"csv": folder / "attempts.csv", "parquet": folder / "attempts.parquet", "jsonl": folder / "attempts.jsonl"}
    pacsv.write_csv(table, paths["csv"])
    pq.write_table(table, paths["parquet"])
    table.to_pandas().to_json(paths["jsonl"], orient="records", lines=True)
    small = table.slice(0, 1000)
    pacsv.write_csv(small, folder / "small.csv")
    pq.write_table(small, folder / "small.parquet")
    small.to_pandas().to_json(folder / "small.jsonl", orient="records", lines=True)
    return paths


def _peak_rss() -> int:
    """Peak resident set size of this process in bytes (Linux VmHWM; reset by exec, unlike
    ``ru_maxrss``, which a child inherits from the parent it was forked from)."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def child(path: str) -> None:
    """Load ``path`` after a warm-up load; print time and peak-RSS rise as JSON."""
    sys.path.insert(0, str(ROOT))
    from scorio_core import io

    small = Path(path).with_name("small" + Path(path).suffix)
    io.load([small])
    base = _peak_rss()
    t0 = time.perf_counter()
    ds = io.load([path])
    seconds = time.perf_counter() - t0
    peak = _peak_rss()
    print(json.dumps({
        "seconds": seconds,
        "rss_rise": peak - base,
        "rows": ds.report.n_rows,
        "table_bytes": int(ds.attempts.memory_usage(deep=True).sum()),
        "blocking": len(ds.report.blocking),
    }))


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="scorio_bench_io_") as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        paths = write_files(folder, make_table())
        print(f"generated 1,000,000-attempt table in {time.perf_counter() - t0:.1f} s "
              f"(python {sys.version.split()[0]}, {os.cpu_count()} cores)")
        csv_size = paths["csv"].stat().st_size
        print(f"{'format':<8} {'file MB':>8} {'load s':>7} {'target s':>8} {'peak RSS rise MB':>17} "
              f"{'x file':>7} {'x CSV':>6} {'table MB':>9}  status")
        failed = False
        for fmt, path in paths.items():
            out = subprocess.run([sys.executable, __file__, "--child", str(path)], capture_output=True, text=True, check=False)
            if out.returncode != 0:
                print(f"{fmt}: child failed\n{out.stderr}")
                failed = True
                continue
            r = json.loads(out.stdout.strip().splitlines()[-1])
            size = path.stat().st_size
            ratio, ratio_csv = r["rss_rise"] / size, r["rss_rise"] / csv_size
            ok_time = r["seconds"] < TARGET_SECONDS[fmt]
            ok_mem = (ratio_csv if fmt == "parquet" else ratio) <= TARGET_MEMORY_RATIO
            status = "ok" if ok_time and ok_mem and r["rows"] == 1_000_000 else "MISSED"
            failed |= status != "ok"
            print(f"{fmt:<8} {size / 1e6:8.1f} {r['seconds']:7.2f} {TARGET_SECONDS[fmt]:8.1f} {r['rss_rise'] / 1e6:17.1f} "
                  f"{ratio:7.2f} {ratio_csv:6.2f} {r['table_bytes'] / 1e6:9.1f}  {status}")
        print("memory target: peak RSS rise <= 3x the file size (Parquet: x the equivalent CSV size, "
              "since its compressed file is ~20x smaller than the data it holds)")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
    else:
        raise SystemExit(main())
