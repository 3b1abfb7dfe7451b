"""Scale benchmark for issue 15: DuckDB counts engine vs DuckDB's own count query, and the CLI end to end.

Generates files with DuckDB ``COPY ... TO`` in a temporary folder (generation time is reported but
never part of a measured number) and measures in the same run, each beside DuckDB's own floor query on
the same file and the target from issue 15 (ok/MISSED):

* ``1e6`` / ``1e7``: long Parquet, 100 models x 1000 questions x 10/100 trials. ``duckdb floor``
  (``GROUP BY model, question_id`` count query), :func:`scorio_core.engines.load_counts`, and
  ``python -m scorio_core leaderboard FILE --output json --engine duckdb`` in a subprocess (wall time and
  peak RSS via ``os.wait4``). 10^7 target: < 3 s end to end, < 1 GB peak RSS and <= 3 x floor + 1 s.
  Plus the trajectory rows: DuckDB's bare running-sum window + ``GROUP BY model, n, c`` query
  (``trajectory floor``, the state histogram) vs ``prefix_stats`` + ``trajectory_from_prefix_stats``
  vs the CLI ``trajectory --engine duckdb`` with ``--prior uniform``, the default (Bayes@n under the
  empirical-Bayes prior refitted for every n) and ``--metric pass@k --k 8``, target <= 3 x floor + 1 s;
  and ``load_counts(trial_prefix=True)`` (the app's large uploads: counts plus every task's prefix
  counts) against the sum of the two floors, target <= 3 x that + 1 s;
* ``csv``: 10^7 attempts as long CSV (with header); CLI leaderboard <= 3 x ``read_csv`` floor + 1 s;
* ``jsonl``: 10^7 attempts as JSON lines, gzip (``.jsonl.gz``); ``load_counts`` < 30 s (CLI reported);
* ``1e8``: 10^8 attempts long Parquet (100 x 1000 x 1000); ``load_counts(memory_limit='2GB')`` in a
  subprocess: count table < 20 s, peak RSS < 3 GB, <= 3 x floor + 1 s (measured once); the leaderboard
  from that count table (in process) < 2 s, and the CLI ``leaderboard`` with the default engine (``auto``
  picks DuckDB by the Parquet row count) end to end, <= 3 x floor + 1 s;
* ``counts``: 10^8 attempts as a count table (1000 models x 10^4 questions, n_trials = 10; 10^7 rows)
  in Parquet; the leaderboard from the loaded table (outcomes + leaderboard, in process) < 2 s and the
  CLI leaderboard end to end < 3 s, beside DuckDB reading the file;
* ``rubric``: 10^7 attempts with a signal, two tasks; the built-in "Confident & Correct" rubric (a
  per-task median threshold) by :func:`load_category_counts` and the CLI ``leaderboard --schema``,
  beside DuckDB's own ``quantile_cont`` + per-category count query, target <= 3 x floor + 1 s; and
  "Conf-Calibrated" (``repeated_pattern`` from ``finish_reason`` and three percentiles of
  ``completion_bpt``, derived in SQL) and "Difficulty-Adjusted Correctness" (``prompt_ppl`` =
  ``exp(-prompt_logprob_mean)`` with numpy's ``exp`` in a DuckDB UDF), reported;
* ``help``: ``python -m scorio_core --help`` start-up, < 0.5 s;
* ``spark`` (``--spark``): :func:`load_counts` with ``engine="spark"`` ``local[2]`` on the 10^6 file
  (session start-up reported apart), checked identical to DuckDB's count table.

Floors fetch the result as numpy (``fetchnumpy``), as the engine does. A summary table of every row
is printed at the end. Usage::

    python benchmarks/bench_scale.py                      # everything (~1.5 GB of temp files, a few minutes)
    python benchmarks/bench_scale.py --quick              # help + 10^6 only
    python benchmarks/bench_scale.py --only csv,jsonl     # some parts (help,1e6,1e7,csv,jsonl,1e8,counts,rubric)
    python benchmarks/bench_scale.py --quick --spark      # plus Spark local[2] (requirements-spark.txt + Java)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _subprocess_measure import cli, load_counts_subprocess, start_spawner  # noqa: E402  (benchmarks/, beside this script)
sys.path.insert(0, str(ROOT))

PARTS = ("help", "1e6", "1e7", "csv", "jsonl", "1e8", "counts", "rubric")
ROWS: list[tuple] = []  # (input, measure, ours s, floor s or None, target text, ok, peak RSS MB or None)
GB = 1024.0  # MB


def _copy(select: str, params: list, path: Path, options: str) -> None:
    import duckdb

    con = duckdb.connect()
    try:
        con.execute(f"COPY ({select}) TO '" + str(path).replace("'", "''") + f"' ({options})", params)
    finally:
        con.close()


_OPTIONS = {"parquet": "FORMAT parquet", "csv": "FORMAT csv, HEADER", "jsonl": "FORMAT json, COMPRESSION gzip"}


def generate(path: Path, n_models: int, n_questions: int, n_trials: int, fmt: str = "parquet") -> None:
    """Long attempt rows: model, task, question_id, trial, is_correct (0/1)."""
    per_model = n_questions * n_trials
    _copy("SELECT 'model-' || CAST(i // ? AS VARCHAR) AS model, 'bench' AS task, "
          "'q' || CAST((i // ?) % ? AS VARCHAR) AS question_id, CAST(i % ? AS BIGINT) AS trial, "
          "CAST(hash(i) % 2 AS TINYINT) AS is_correct FROM range(?) t(i)",
          [per_model, n_trials, n_questions, n_trials, n_models * per_model], path, _OPTIONS[fmt])


def generate_counts(path: Path, n_models: int, n_questions: int, n_trials: int) -> None:
    """Count table: model, task, question_id, n_trials, n_correct (one row per cell)."""
    _copy("SELECT 'model-' || CAST(i // ? AS VARCHAR) AS model, 'bench' AS task, 'q' || CAST(i % ? AS VARCHAR) AS question_id, "
          "CAST(? AS BIGINT) AS n_trials, CAST(hash(i) % ? AS BIGINT) AS n_correct FROM range(?) t(i)",
          [n_questions, n_questions, n_trials, n_trials + 1, n_models * n_questions], path, _OPTIONS["parquet"])


def made(label: str, path: Path, fn) -> Path:
    t = time.perf_counter()
    fn()
    print(f"\n== {label} ({path.name}, {path.stat().st_size / 1e6:.1f} MB, generated in {time.perf_counter() - t:.1f} s; "
          "not measured)", flush=True)
    return path


def best(fn, repeat: int = 2) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


_READERS = {"parquet": "read_parquet(?)", "csv": "read_csv(?, header = true)", "jsonl": "read_json(?, format = 'newline_delimited')"}


def floor(path: Path, fmt: str = "parquet", repeat: int = 2, counts: bool = False, memory_limit: str | None = None) -> float:
    """DuckDB's own count query on the file (count-table input: the same GROUP BY summing n_trials/n_correct)."""
    import duckdb

    config = {"memory_limit": memory_limit} if memory_limit else {}
    con = duckdb.connect(config=config)
    con.execute("SET enable_progress_bar = false")
    agg = "sum(n_trials), sum(n_correct)" if counts else "count(*), sum(is_correct)"
    sql = f"SELECT model, question_id, {agg} FROM {_READERS[fmt]} GROUP BY ALL"
    try:
        return best(lambda: con.execute(sql, [str(path)]).fetchnumpy(), repeat)
    finally:
        con.close()


def trajectory_floor(path: Path) -> float:
    import duckdb

    window = "PARTITION BY model, question_id ORDER BY trial"
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    try:
        return best(lambda: con.execute(
            f"SELECT model, n, c, count(*) FROM (SELECT model, row_number() OVER ({window}) AS n, "
            f"sum(is_correct) OVER ({window} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS c "
            "FROM read_parquet(?)) GROUP BY ALL", [str(path)]).fetchnumpy())
    finally:
        con.close()


def trajectory_ours(path: Path) -> float:
    from scorio_core.dynamics.prefix import trajectory_from_prefix_stats
    from scorio_core.engines.prefix import prefix_stats

    return best(lambda: trajectory_from_prefix_stats(prefix_stats(str(path)), "bayes", "uniform"))


def load_counts_prefix(path: Path):
    from scorio_core.engines import load_counts

    return load_counts(str(path), trial_prefix=True)


def ours(path: Path, repeat: int = 2) -> float:
    from scorio_core.engines import load_counts

    return best(lambda: load_counts(str(path)), repeat)


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def row(inp: str, measure: str, t: float, fl: float | None, target: str, ok: bool | None, rss: float | None = None) -> None:
    ROWS.append((inp, measure, t, fl, target, ok, rss))
    ratio = f"{t / fl:5.1f} x floor" if fl else " " * 13
    mem = f"peak RSS {rss:6.0f} MB" if rss is not None else " " * 18
    mark = "" if ok is None else verdict(ok)
    print(f"  {measure:34s} {t:8.3f} s  {ratio}  {mem}  {target:40s} {mark}", flush=True)


def floor_row(inp: str, measure: str, t: float) -> None:
    print(f"  {measure:34s} {t:8.3f} s", flush=True)


def summary() -> None:
    print("\n== summary (timings on a shared 2-core machine; contention inflates them)")
    print(f"| {'input':28s} | {'measure':34s} | {'ours s':>8s} | {'floor s':>8s} | {'ratio':>6s} | {'peak RSS MB':>11s} | "
          f"{'target':42s} | ok |")
    print("|" + "|".join("-" * (w + 2) for w in (28, 34, 8, 8, 6, 11, 42, 2)) + "|")
    for inp, measure, t, fl, target, ok, rss in ROWS:
        print(f"| {inp:28s} | {measure:34s} | {t:8.3f} | {fl if fl else float('nan'):8.3f} | "
              f"{(t / fl) if fl else float('nan'):6.1f} | {rss if rss is not None else float('nan'):11.0f} | {target:42s} | "
              f"{'' if ok is None else verdict(ok)} |")


def bench_parquet(tmp: Path, n_trials: int, spark: bool) -> None:
    n = 100 * 1000 * n_trials
    exp = len(str(n)) - 1
    inp = f"10^{exp} long Parquet"
    path = made(f"10^{exp} attempts, long Parquet", tmp / f"long_{n}.parquet",
                lambda: generate(tmp / f"long_{n}.parquet", 100, 1000, n_trials))
    t_floor = floor(path)
    floor_row(inp, "duckdb floor (count query)", t_floor)
    target = 3 * t_floor + 1
    t_ours = ours(path)
    row(inp, "load_counts", t_ours, t_floor, f"<= 3 x floor + 1 s = {target:.2f} s", t_ours <= target)
    t_cli, rss = cli(["leaderboard", str(path), "--output", "json", "--engine", "duckdb"])
    if n >= 10**7:
        row(inp, "cli leaderboard --engine duckdb", t_cli, t_floor,
            f"< 3 s, < 1 GB, <= {target:.2f} s (3 x floor + 1)", t_cli < 3 and rss < GB and t_cli <= target, rss)
    else:
        row(inp, "cli leaderboard --engine duckdb", t_cli, t_floor, "(report)", None, rss)
    t_tfloor = trajectory_floor(path)
    floor_row(inp, "trajectory floor (window query)", t_tfloor)
    t_target = 3 * t_tfloor + 1
    t_traj = trajectory_ours(path)
    row(inp, "prefix_stats + trajectory", t_traj, t_tfloor, f"<= 3 x floor + 1 s = {t_target:.2f} s", t_traj <= t_target)
    # the app's large uploads: counts and every task's prefix counts (the trial order) in one connection
    t_both = best(lambda: load_counts_prefix(path))
    both_floor = t_floor + t_tfloor
    row(inp, "load_counts(trial_prefix=True)", t_both, both_floor,
        f"<= 3 x (count + window floors) + 1 s = {3 * both_floor + 1:.2f} s", t_both <= 3 * both_floor + 1)
    for label, extra in (("uniform", ["--prior", "uniform"]), ("default: EB prior", []),
                         ("pass@k k=8", ["--metric", "pass@k", "--k", "8", "--prior", "uniform"])):
        t_tcli, t_rss = cli(["trajectory", str(path), "--engine", "duckdb", *extra, "--output", "json"])
        if n >= 10**7:  # the ratio target is for inputs of 10^7 attempts or more (start-up dominates below)
            row(inp, f"cli trajectory duckdb ({label})", t_tcli, t_tfloor, f"<= 3 x floor + 1 s = {t_target:.2f} s",
                t_tcli <= t_target, t_rss)
        else:
            row(inp, f"cli trajectory duckdb ({label})", t_tcli, t_tfloor, "(report)", None, t_rss)
    if spark and n == 10**6:
        spark_counts(path)
    path.unlink()


def bench_csv(tmp: Path) -> None:
    inp = "10^7 long CSV"
    path = tmp / "long_10000000.csv"
    made("10^7 attempts, long CSV", path, lambda: generate(path, 100, 1000, 100, "csv"))
    t_floor = floor(path, "csv")
    floor_row(inp, "duckdb floor (read_csv count query)", t_floor)
    target = 3 * t_floor + 1
    t_cli, rss = cli(["leaderboard", str(path), "--output", "json", "--engine", "duckdb"])
    row(inp, "cli leaderboard --engine duckdb", t_cli, t_floor, f"<= 3 x floor + 1 s = {target:.2f} s", t_cli <= target, rss)
    path.unlink()


def bench_jsonl(tmp: Path) -> None:
    inp = "10^7 attempts JSONL.gz"
    path = tmp / "long_10000000.jsonl.gz"
    made("10^7 attempts, JSON lines (gzip)", path, lambda: generate(path, 100, 1000, 100, "jsonl"))
    t_floor = floor(path, "jsonl")
    floor_row(inp, "duckdb floor (read_json count query)", t_floor)
    t_ours = ours(path)
    row(inp, "load_counts", t_ours, t_floor, "counts < 30 s", t_ours < 30)
    t_cli, rss = cli(["leaderboard", str(path), "--output", "json", "--engine", "duckdb"])
    row(inp, "cli leaderboard --engine duckdb", t_cli, t_floor, "(report; counts < 30 s)", t_cli < 30, rss)
    path.unlink()


def board_time(path: Path, **options) -> float:
    """Outcomes + leaderboard (in process, best of runs) on the count table ``load_counts(path, **options)`` gives."""
    from scorio_core.leaderboard.table import leaderboard, outcomes_for
    from scorio_core.engines import load_counts

    dataset = load_counts(str(path), **options)
    return best(lambda: leaderboard(outcomes_for(dataset, None)))


def bench_1e8(tmp: Path) -> None:
    inp = "10^8 long Parquet"
    path = tmp / "long_100000000.parquet"
    made("10^8 attempts, long Parquet (100 x 1000 x 1000)", path, lambda: generate(path, 100, 1000, 1000))
    t_floor = floor(path, repeat=1, memory_limit="2GB")
    floor_row(inp, "duckdb floor (count query, 2GB)", t_floor)
    target = 3 * t_floor + 1
    t_call, wall, rss, cells = load_counts_subprocess(path, "2GB")
    ok = t_call < 20 and rss < 3 * GB and t_call <= target
    row(inp, "load_counts(memory_limit='2GB')", t_call, t_floor, f"< 20 s, < 3 GB, <= {target:.2f} s (3 x floor + 1)", ok, rss)
    print(f"  {'(subprocess wall incl. imports)':34s} {wall:8.3f} s   {cells:,} cells")
    t_board = board_time(path, memory_limit="2GB")
    row(inp, "leaderboard from the count table", t_board, None, "< 2 s (outcomes + leaderboard)", t_board < 2)
    t_cli, rss = cli(["leaderboard", str(path), "--output", "json"])
    row(inp, "cli leaderboard (default engine auto)", t_cli, t_floor, f"<= {target:.2f} s (3 x floor + 1)", t_cli <= target, rss)
    path.unlink()


def bench_counts(tmp: Path) -> None:
    inp = "10^8 attempts as count table"
    path = tmp / "counts_1000x10000x10.parquet"
    made("10^8 attempts as a count table (1000 models x 10^4 questions, n_trials = 10; 10^7 rows), Parquet", path,
         lambda: generate_counts(path, 1000, 10_000, 10))
    t_floor = floor(path, counts=True)
    floor_row(inp, "duckdb floor (read + GROUP BY)", t_floor)
    t_ours = ours(path)
    row(inp, "load_counts", t_ours, t_floor, "(report)", None)
    t_board = board_time(path)
    row(inp, "leaderboard from the loaded table", t_board, None, "< 2 s (outcomes + leaderboard)", t_board < 2)
    t_cli, rss = cli(["leaderboard", str(path), "--output", "json", "--engine", "duckdb"])
    row(inp, "cli leaderboard --engine duckdb", t_cli, t_floor, "< 3 s (issue: leaderboard < 2 s)", t_cli < 3, rss)
    path.unlink()


def bench_rubric(tmp: Path) -> None:
    """Built-in "Confident & Correct" (a per-task median threshold) counted in DuckDB vs DuckDB's own query."""
    import duckdb

    from scorio_core.engines.rubric.counts import load_category_counts

    inp = "10^7 attempts, rubric"
    path = tmp / "rubric_10000000.parquet"
    made("10^7 attempts with a signal (100 x 1000 x 100, two tasks), long Parquet", path, lambda: _copy(
        "SELECT 'model-' || CAST(i // 100000 AS VARCHAR) AS model, 'task-' || CAST((i // 100) % 2 AS VARCHAR) AS task, "
        "'q' || CAST((i // 100) % 1000 AS VARCHAR) AS question_id, CAST(i % 100 AS BIGINT) AS trial, "
        "CAST(hash(i) % 2 AS TINYINT) AS is_correct, -CAST(hash(i + 7) % 100000 AS DOUBLE) / 10000 AS completion_logprob_mean, "
        "CASE hash(i + 3) % 10 WHEN 0 THEN 'length' WHEN 1 THEN 'STOP' ELSE 'stop' END AS finish_reason, "
        "CAST(hash(i + 11) % 1000 AS DOUBLE) / 1000 AS compass_context_C, "
        "-CAST(hash(i + 13) % 100000 AS DOUBLE) / 20000 AS prompt_logprob_mean "
        "FROM range(10000000) t(i)", [], path, _OPTIONS["parquet"]))
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    x = "completion_logprob_mean"
    sql = (f"WITH m AS (SELECT task, quantile_cont({x}, 0.5) AS thr FROM read_parquet(?) WHERE isfinite({x}) GROUP BY task) "
           f"SELECT model, task, question_id, count(*), count(*) FILTER (WHERE is_correct = 0 AND {x} >= thr), "
           f"count(*) FILTER (WHERE is_correct = 0 AND {x} < thr), count(*) FILTER (WHERE is_correct = 1 AND {x} < thr), "
           f"count(*) FILTER (WHERE is_correct = 1 AND {x} >= thr) FROM read_parquet(?) JOIN m USING (task) GROUP BY ALL")
    try:
        t_floor = best(lambda: con.execute(sql, [str(path), str(path)]).fetchnumpy())
    finally:
        con.close()
    floor_row(inp, "duckdb floor (quantile_cont + counts)", t_floor)
    target = 3 * t_floor + 1
    t_ours = best(lambda: load_category_counts(str(path), "Confident & Correct", hash_files=False))
    row(inp, "load_category_counts (percentile)", t_ours, t_floor, f"<= 3 x floor + 1 s = {target:.2f} s", t_ours <= target)
    t_cli, rss = cli(["leaderboard", str(path), "--schema", "Confident & Correct", "--task", "task-0", "--engine", "duckdb",
                      "--output", "json"])
    row(inp, "cli leaderboard --schema (one task)", t_cli, t_floor, f"<= 3 x floor + 1 s = {target:.2f} s", t_cli <= target, rss)
    # derived signals computed in SQL: repeated_pattern from finish_reason, three percentiles of completion_bpt
    t_derived = best(lambda: load_category_counts(str(path), "Conf-Calibrated", hash_files=False), repeat=1)
    row(inp, "load_category_counts (Conf-Calibrated)", t_derived, t_floor, "(report: derived signals in SQL)", None)
    # prompt_ppl = exp(-prompt_logprob_mean) with numpy's exp in a DuckDB UDF, and its per-task percentiles
    t_ppl = best(lambda: load_category_counts(str(path), "Difficulty-Adjusted Correctness", hash_files=False), repeat=1)
    row(inp, "load_category_counts (Difficulty-Adjusted)", t_ppl, t_floor, "(report: numpy exp UDF)", None)
    path.unlink()


def spark_counts(path: Path) -> None:
    """Time Spark ``local[2]`` counts beside DuckDB's on the same file and check they are identical."""
    import pandas as pd

    from scorio_core.engines import load_counts
    from scorio_core.engines.spark_engine import spark_session

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="help and 10^6 attempts only")
    parser.add_argument("--only", default=None, help=f"comma-separated parts to run, from {','.join(PARTS)}")
    parser.add_argument("--spark", action="store_true", help="also time the Spark engine (local[2]) on 10^6 attempts")
    parser.add_argument("--dir", default=None, help="where to write the generated files (default: a temp dir under TMPDIR)")
    args = parser.parse_args()
    start_spawner()  # before this process grows (see start_spawner)
    if args.only:
        parts = [p.strip() for p in args.only.split(",") if p.strip()]
        unknown = sorted(set(parts) - set(PARTS))
        if unknown:
            parser.error(f"unknown parts {unknown}; choose from {','.join(PARTS)}")
    else:
        parts = ["help", "1e6"] if args.quick else list(PARTS)
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="bench_scale_") as tmp_name:
        tmp = Path(tmp_name)
        if "help" in parts:
            print("== python -m scorio_core --help")
            t_help, rss = cli(["--help"], repeat=3)
            row("CLI --help", "start-up", t_help, None, "< 0.5 s", t_help < 0.5, rss)
        if "1e6" in parts:
            bench_parquet(tmp, 10, args.spark)
        if "1e7" in parts:
            bench_parquet(tmp, 100, False)
        if "csv" in parts:
            bench_csv(tmp)
        if "jsonl" in parts:
            bench_jsonl(tmp)
        if "counts" in parts:
            bench_counts(tmp)
        if "1e8" in parts:
            bench_1e8(tmp)
        if "rubric" in parts:
            bench_rubric(tmp)
    summary()


if __name__ == "__main__":
    main()
