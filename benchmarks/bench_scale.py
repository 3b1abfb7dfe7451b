"""Scale benchmark for issue 15: DuckDB counts engine vs DuckDB's own count query, and the CLI end to end.

Generates long Parquet files (100 models x 1000 questions x N trials; 10^6 and 10^7 attempts)
in a temporary folder, then measures in the same run:

* ``duckdb floor``: DuckDB's own ``GROUP BY model, question_id`` count query on the file;
* ``load_counts``: :func:`scorio_core.io.engines.load_counts` (validation, quality report, Dataset);
* ``cli leaderboard``: ``python -m scorio_core leaderboard FILE --output json --engine duckdb`` in a
  subprocess, wall time and peak RSS (``os.wait4``);
* ``cli --help``: start-up time (target < 0.5 s);
* trajectory from prefix counts: DuckDB's bare running-sum window + ``GROUP BY model, n`` query
  (``trajectory floor``) vs :func:`scorio_core.io.engines.prefix.prefix_stats` +
  :func:`scorio_core.dynamics.prefix.trajectory_from_prefix_stats` (validation included) vs
  ``python -m scorio_core trajectory FILE --engine duckdb --prior uniform --output json`` (wall, peak RSS),
  target <= 3 x floor + 1 s;
* ``spark local[2]`` (``--spark``): :func:`load_counts` with ``engine="spark"`` on the 10^6 file
  (session start-up reported apart), checked identical to DuckDB's count table.

Each number is printed beside its target from issue 15. Usage::

    python benchmarks/bench_scale.py            # 10^6 and 10^7
    python benchmarks/bench_scale.py --quick    # 10^6 only
    python benchmarks/bench_scale.py --quick --spark   # plus Spark local[2] (requirements-spark.txt + Java)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def generate(path: Path, n_models: int, n_questions: int, n_trials: int) -> None:
    import duckdb

    per_model = n_questions * n_trials
    total = n_models * per_model
    con = duckdb.connect()
    con.execute(
        "COPY (SELECT 'model-' || CAST(i // ? AS VARCHAR) AS model, 'bench' AS task, "
        "'q' || CAST((i // ?) % ? AS VARCHAR) AS question_id, CAST(i % ? AS BIGINT) AS trial, "
        "CAST(hash(i) % 2 AS TINYINT) AS is_correct FROM range(?) t(i)) TO '" + str(path).replace("'", "''") +
        "' (FORMAT parquet)",
        [per_model, n_trials, n_questions, n_trials, total],
    )
    con.close()


def best(fn, repeat: int = 2) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def floor(path: Path) -> float:
    import duckdb

    con = duckdb.connect()
    try:
        return best(lambda: con.execute("SELECT model, question_id, count(*), sum(is_correct) FROM read_parquet(?) "
                                        "GROUP BY ALL", [str(path)]).fetchall())
    finally:
        con.close()


def trajectory_floor(path: Path) -> float:
    import duckdb

    window = "PARTITION BY model, question_id ORDER BY trial"
    con = duckdb.connect()
    try:
        return best(lambda: con.execute(
            f"SELECT model, n, count(*), sum(c), sum(c * c) FROM (SELECT model, row_number() OVER ({window}) AS n, "
            f"sum(is_correct) OVER ({window} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS c "
            "FROM read_parquet(?)) GROUP BY ALL", [str(path)]).fetchall())
    finally:
        con.close()


def trajectory_ours(path: Path) -> float:
    from scorio_core.dynamics.prefix import trajectory_from_prefix_stats
    from scorio_core.io.engines.prefix import prefix_stats

    return best(lambda: trajectory_from_prefix_stats(prefix_stats(str(path)), "bayes", "uniform"))


def ours(path: Path) -> float:
    from scorio_core.io.engines import load_counts

    return best(lambda: load_counts(str(path)))


def spark_counts(path: Path) -> None:
    """Time Spark ``local[2]`` counts beside DuckDB's on the same file and check they are identical."""
    import pandas as pd

    from scorio_core.io.engines import load_counts
    from scorio_core.io.engines.spark_engine import spark_session

    t = time.perf_counter()
    spark = spark_session("local[2]", shuffle_partitions=2)
    t_start = time.perf_counter() - t
    t = time.perf_counter()
    got = load_counts(str(path), engine="spark", spark=spark, hash_files=False)
    t_first = time.perf_counter() - t
    t_spark = best(lambda: load_counts(str(path), engine="spark", spark=spark, hash_files=False))
    want = load_counts(str(path), engine="duckdb", hash_files=False)
    pd.testing.assert_frame_equal(got.counts, want.counts)
    t_duck = best(lambda: load_counts(str(path), engine="duckdb", hash_files=False))
    print(f"  spark local[2] load_counts     {t_spark:7.3f} s   (first run {t_first:.1f} s, session start {t_start:.1f} s; "
          f"duckdb {t_duck:.3f} s; identical count tables: yes)")
    spark.stop()


def cli(argv: list[str], repeat: int = 2) -> tuple[float, float]:
    """Min wall time (s) and max peak RSS (MB) of ``python -m scorio_core ARGV`` over ``repeat`` runs."""
    times, rss = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "scorio_core", *argv], cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        times.append(time.perf_counter() - t)
        rss.append(usage.ru_maxrss / 1024)
        err = proc.stderr.read().decode() if proc.stderr else ""
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"CLI failed: {err.strip()}")
    return min(times), max(rss)


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10^6 attempts only")
    parser.add_argument("--spark", action="store_true", help="also time the Spark engine (local[2]) on 10^6 attempts")
    parser.add_argument("--dir", default=None, help="where to write the generated files (default: a temp dir)")
    args = parser.parse_args()
    sizes = [(100, 1000, 10)] + ([] if args.quick else [(100, 1000, 100)])
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        t_help, _ = cli(["--help"], repeat=3)
        print(f"cli --help start-up: {t_help:.3f} s   target < 0.5 s   {verdict(t_help < 0.5)}")
        for n_models, n_questions, n_trials in sizes:
            n = n_models * n_questions * n_trials
            path = Path(tmp) / f"long_{n}.parquet"
            t = time.perf_counter()
            generate(path, n_models, n_questions, n_trials)
            print(f"\n== 10^{len(str(n)) - 1} attempts, long Parquet ({path.stat().st_size / 1e6:.1f} MB, generated in "
                  f"{time.perf_counter() - t:.1f} s)")
            t_floor = floor(path)
            t_ours = ours(path)
            t_cli, rss = cli(["leaderboard", str(path), "--output", "json", "--engine", "duckdb"])
            target = 3 * t_floor + 1
            print(f"  duckdb floor (count query)     {t_floor:7.3f} s")
            print(f"  load_counts                    {t_ours:7.3f} s   target <= 3 x floor + 1 s = {target:.2f} s   "
                  f"{verdict(t_ours <= target)}")
            cli_target = "< 3 s and < 1 GB" if n >= 10**7 else f"<= {target:.2f} s (3 x floor + 1 s)"
            cli_ok = (t_cli < 3 and rss < 1024) if n >= 10**7 else t_cli <= target
            print(f"  cli leaderboard --engine duckdb {t_cli:6.3f} s   peak RSS {rss:6.0f} MB   target {cli_target}   "
                  f"{verdict(cli_ok)}")
            t_tfloor = trajectory_floor(path)
            t_traj = trajectory_ours(path)
            t_tcli, t_rss = cli(["trajectory", str(path), "--engine", "duckdb", "--prior", "uniform", "--output", "json"])
            t_target = 3 * t_tfloor + 1
            print(f"  trajectory floor (window query) {t_tfloor:6.3f} s")
            print(f"  prefix_stats + trajectory      {t_traj:7.3f} s   target <= 3 x floor + 1 s = {t_target:.2f} s   "
                  f"{verdict(t_traj <= t_target)}")
            print(f"  cli trajectory --engine duckdb {t_tcli:7.3f} s   peak RSS {t_rss:6.0f} MB   target <= {t_target:.2f} s   "
                  f"{verdict(t_tcli <= t_target)}")
            if args.spark and n == 10**6:
                spark_counts(path)


if __name__ == "__main__":
    main()
