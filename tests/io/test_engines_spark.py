"""Spark SQL counts engine (``local[2]``): identical count tables to DuckDB, the same refusals.

One SparkSession (``local[2]``, no UI, 2 shuffle partitions) in one test function: start-up
and JIT warm-up dominate (~20 s on a busy 2-core machine). Needs ``requirements-spark.txt`` and a Java runtime
(``make test`` installs both).
"""

from __future__ import annotations

import gzip
import shutil

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pyspark")
if not shutil.which("java"):
    pytest.skip("no Java runtime (make test installs default-jre-headless)", allow_module_level=True)

from scorio_core import io  # noqa: E402
from scorio_core.errors import InputError  # noqa: E402
from scorio_core.engines import NotReadyError, load_counts  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
              pytest.mark.xdist_group("spark")]  # one worker, one JVM (conftest.spark)
KEY = ["model", "task", "question_id"]


def _norm(counts: pd.DataFrame) -> pd.DataFrame:
    out = counts[KEY + ["n_trials", "n_correct"]].astype({k: str for k in KEY})
    return out.sort_values(KEY).reset_index(drop=True).astype({"n_trials": "int64", "n_correct": "int64"})


def _long(n_models=6, n_q=100, n_trials=5, seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    m, q, t = np.meshgrid(np.arange(n_models), np.arange(n_q), np.arange(n_trials), indexing="ij")
    return pd.DataFrame({"model": [f"m{i}" for i in m.ravel()], "task": np.where(q.ravel() % 2, "a", "b"),
                         "question_id": q.ravel(), "trial": t.ravel(), "is_correct": rng.integers(0, 2, m.size)})


def _same(a, b) -> None:
    pd.testing.assert_frame_equal(_norm(a.counts), _norm(b.counts))
    pd.testing.assert_frame_equal(a.counts, b.counts)  # same categories, order and dtypes
    assert [(s.name, s.rows, s.mapping) for s in a.sources] == [(s.name, s.rows, s.mapping) for s in b.sources]
    assert a.report.blocking == b.report.blocking and a.report.defaults == b.report.defaults


def test_spark_counts_identical_to_duckdb_and_same_refusals(tmp_path, spark):
    # one test function: Spark start-up and JIT warm-up dominate, every extra load costs ~1-2 s
    frame = _long()  # 3,000 attempts
    with gzip.open(tmp_path / "all.csv.gz", "wt") as fh:
        frame.to_csv(fh, index=False)
    runs = tmp_path / "runs" / "x"
    runs.mkdir(parents=True)
    for i, model in enumerate(sorted(frame.model.unique())):
        part = frame[frame.model == model]
        part.to_parquet((runs if i % 2 else tmp_path / "runs") / f"p{i}.parquet", index=False)
    # no task column (the file stem names it), aliased columns, booleans as text
    (tmp_path / "aime.csv").write_text("model,problem,seed,passed\nm1,1,7,true\nm1,1,9,False\nm2,1,7,1\n")
    # a count table (aliases n / c)
    (tmp_path / "c.csv").write_text("model,question_id,n,c\nm1,1,4,2\nm2,1,4,4\nm1,2,3,0\n")
    for target in ("all.csv.gz", "runs/**/*.parquet", "aime.csv", "c.csv"):
        path = str(tmp_path / target)
        got = load_counts(path, engine="spark", spark=spark)
        _same(got, load_counts(path, engine="duckdb"))
        if target == "all.csv.gz":
            assert got.report.n_models == 6 and got.sources[0].rows == len(frame) == 3000

    # not-ready data: refused with the pandas report's blocking messages (soft, missing, duplicate)
    (tmp_path / "nr.csv").write_text("model,question,trial,score\nm1,q1,0,0.5\nm1,q1,1,1\nm1,q1,1,0\nm1,q2,0,\nm1,q2,1,1\n")
    with pytest.raises(NotReadyError) as info:
        load_counts(tmp_path / "nr.csv", engine="spark", spark=spark)
    assert info.value.blocking == io.load(tmp_path / "nr.csv").report.blocking and len(info.value.blocking) == 3
    # a repeated key is named with its files (m1 / q1 / trial 1: 1 and 0, conflicting), for attempts and count tables
    (tmp_path / "dup.csv").write_text("model,question,trial,correct\nm1,q1,0,1\nm1,q1,1,1\nm1,q1,1,0\n")
    (tmp_path / "dupc.csv").write_text("model,question_id,n,c\nm2,1,4,1\nm2,1,4,1\nm1,1,4,2\nm1,1,4,4\n")
    for name, example in (("dup.csv", "e.g. m1 / dup / q1 / trial 1: 2 rows from dup.csv"),
                          ("dupc.csv", "(1 key conflicts; e.g. m1 / dupc / 1: 2 rows from dupc.csv)")):
        with pytest.raises(NotReadyError) as info:
            load_counts(tmp_path / name, engine="spark", spark=spark)
        assert info.value.blocking == io.load(tmp_path / name).report.blocking and example in str(info.value), info.value
    # bad values name the file and field; a glob matching nothing says so; mapping columns are checked
    (tmp_path / "bad.csv").write_text("model,question,trial,correct\nm1,q1,0,1\nm1,q1,1,yes\n")
    with pytest.raises(InputError) as info:
        load_counts(tmp_path / "bad.csv", engine="spark", spark=spark)
    assert info.value.field == "is_correct" and "bad.csv" in str(info.value) and "'yes'" in str(info.value)
    assert "Inspect" not in str(info.value) and "--recode yes=1" in str(info.value)  # a success word among 0/1
    (tmp_path / "err.csv").write_text("model,question,trial,correct\nm1,q1,0,1\nm1,q1,1,ERROR\n")  # an API error
    with pytest.raises(InputError, match="--recode error=missing with --missing-outcomes drop"):
        load_counts(tmp_path / "err.csv", engine="spark", spark=spark)
    (tmp_path / "letters.csv").write_text("model,question,trial,score\nm1,q1,0,C\nm1,q1,1,I\n")  # Inspect's letters
    with pytest.raises(InputError, match="look like Inspect AI's scores"):
        load_counts(tmp_path / "letters.csv", engine="spark", spark=spark)
    (tmp_path / "pct.csv").write_text("model,question,trial,score\nm1,q1,0,0\nm1,q1,1,100\n")  # a 0-100 scale
    with pytest.raises(InputError, match="holds percentages") as info:
        load_counts(tmp_path / "pct.csv", engine="spark", spark=spark)
    assert info.value.scale == 100.0 and "--outcome-scale 100" in str(info.value)  # the app's Outcome scale, too
    (tmp_path / "pf.csv").write_text("model,question,trial,correct\nm1,q1,0,pass\nm1,q1,1,fail\n")
    with pytest.raises(InputError, match=r"map\(\{'fail': 0, 'pass': 1\}\)"):
        load_counts(tmp_path / "pf.csv", engine="spark", spark=spark)
    (tmp_path / "runs.csv").write_text("model,question,trial,correct\nm1,q1,run-a,1\nm1,q1,run-b,0\n")
    with pytest.raises(InputError, match=r"pd\.factorize"):
        load_counts(tmp_path / "runs.csv", engine="spark", spark=spark)
    with pytest.raises(InputError, match="matches no file"):
        load_counts(str(tmp_path / "nothing" / "*.parquet"), engine="spark", spark=spark)
    with pytest.raises(InputError, match="not in the file") as info:
        load_counts(tmp_path / "bad.csv", engine="spark", spark=spark, mapping={"is_correct": "nope`; DROP --"})
    assert info.value.field == "is_correct"


def test_spark_counts_identical_to_duckdb_on_a_million_attempts(tmp_path, spark):
    # issue 15 Done-when: Spark local[2] gives identical count tables to DuckDB on 10^6 attempts
    # (100 models x 1,000 questions x 10 trials, generated by DuckDB; its time is in benchmarks/bench_scale.py --spark)
    import time

    import duckdb

    path = tmp_path / "million.parquet"
    con = duckdb.connect()
    con.execute("COPY (SELECT 'model-' || CAST(i // 10000 AS VARCHAR) AS model, 'q' || CAST((i // 10) % 1000 AS VARCHAR) "
                "AS question_id, CAST(i % 10 AS BIGINT) AS trial, CAST(hash(i) % 2 AS TINYINT) AS is_correct "
                f"FROM range(1000000) t(i)) TO '{path}' (FORMAT parquet)")
    con.close()
    start = time.perf_counter()
    got = load_counts(str(path), engine="spark", spark=spark, hash_files=False)
    print(f"spark local[2]: {time.perf_counter() - start:.1f} s for 10^6 attempts")
    want = load_counts(str(path), engine="duckdb", hash_files=False)
    _same(got, want)
    assert int(got.counts["n_trials"].sum()) == 1_000_000 and len(got.counts) == 100_000


def test_spark_reads_uris_it_lists_itself(tmp_path, spark):
    # object stores (s3a://, hdfs://, gs://) are read by URI, globbed and listed by Spark; file:// stands in for them here
    from scorio_core.engines import EngineUnsupported

    frame = _long(n_models=4, n_q=20, n_trials=3).drop(columns=["task"])  # no task column, different models per file
    runs = tmp_path / "runs"
    for sub, name, models in (("a", "x1.parquet", ["m0", "m1"]), ("b", "x2.parquet", ["m2", "m3"])):
        (runs / sub).mkdir(parents=True)
        frame[frame.model.isin(models)].to_parquet(runs / sub / name, index=False)
    uri = runs.as_uri() + "/*/*.parquet"
    got = load_counts(uri, engine="spark", spark=spark)
    want = load_counts(str(runs / "*" / "*.parquet"), engine="duckdb")
    pd.testing.assert_frame_equal(got.counts, want.counts)  # per-model files: one task, as locally (and in pandas)
    assert list(got.counts["task"].cat.categories) == ["benchmark"]
    (src,) = got.sources
    assert (src.name, src.rows, src.sha256, src.format) == (uri, len(frame), "", "parquet")
    assert got.report.defaults == want.report.defaults == (
        "x1.parquet, x2.parquet: no task column; the files hold different models answering the same questions, so "
        "they form one task 'benchmark' (add a task column to name it or to keep them apart).",)
    assert any("not hashed" in n for n in got.report.notes)
    # a folder URI needs the files' format; with it, Spark reads the folder
    with pytest.raises(EngineUnsupported, match="--format parquet"):
        load_counts(runs.as_uri() + "/a/", engine="spark", spark=spark)
    folder = load_counts(runs.as_uri() + "/a/", engine="spark", spark=spark, format="parquet")
    pd.testing.assert_frame_equal(folder.counts, load_counts(str(runs / "a"), engine="duckdb").counts)
    # local files and URIs together: each source gets its own rows
    mixed = load_counts([str(runs / "a" / "x1.parquet"), runs.as_uri() + "/b/*.parquet"], engine="spark", spark=spark)
    assert [s.rows for s in mixed.sources] == [int(frame.model.isin(["m0", "m1"]).sum()), int(frame.model.isin(["m2", "m3"]).sum())]
    assert mixed.sources[0].sha256 and not mixed.sources[1].sha256
    pd.testing.assert_frame_equal(mixed.counts, want.counts)
    # CSV by URI (comma-separated: a remote header is not sniffed), a task column this time
    (tmp_path / "c").mkdir()
    _long(n_models=3, n_q=10, n_trials=2, seed=4).to_csv(tmp_path / "c" / "runs.csv", index=False)
    by_uri = load_counts((tmp_path / "c").as_uri() + "/*.csv", engine="spark", spark=spark)
    pd.testing.assert_frame_equal(by_uri.counts, load_counts(str(tmp_path / "c" / "runs.csv"), engine="duckdb").counts)


def test_spark_keeps_the_trial_order_as_the_same_prefix_counts(tmp_path, spark, capsys):
    # trajectories on a cluster: the Spark window pass gives DuckDB's state histograms, so the same trajectories
    import json

    from scorio_core.cli import main

    frame = _long(n_models=4, n_q=30, n_trials=6, seed=2)
    frame = frame[~((frame.model == "m3") & (frame.question_id == 7))]  # a question one model skipped: left out
    frame = frame[~((frame.model == "m1") & (frame.question_id == 8) & (frame.trial >= 4))]  # a ragged cell
    frame.sample(frac=1.0, random_state=0).to_parquet(tmp_path / "runs.parquet", index=False)
    path = str(tmp_path / "runs.parquet")
    got = load_counts(path, engine="spark", spark=spark, trial_prefix=True).trial_prefix
    want = load_counts(path, engine="duckdb", trial_prefix=True).trial_prefix
    assert set(got) == set(want) == {"a", "b"}
    for task in want:
        g, w = got[task], want[task]
        assert (g.models, g.n_questions, g.notes) == (w.models, w.n_questions, w.notes)
        np.testing.assert_array_equal(g.n, w.n)
        for part in ("live", "final"):
            for f in ("model", "n", "c", "count"):
                np.testing.assert_array_equal(getattr(getattr(g, part), f), getattr(getattr(w, part), f))
    outs = {}
    for engine in ("spark", "duckdb"):
        assert main(["trajectory", path, "--task", "b", "--engine", engine, "--output", "json"]) == 0
        outs[engine] = json.loads(capsys.readouterr().out)
    s, d = outs["spark"], outs["duckdb"]
    assert s["engine"] == "spark" and d["engine"] == "duckdb" and s["convergence"] == d["convergence"]
    order = [s["models"].index(m) for m in d["models"]]  # Spark lists models in natural order
    for key in ("ranks", "scores", "sigma"):
        np.testing.assert_allclose(np.asarray(s[key], dtype=float)[order], np.asarray(d[key], dtype=float), atol=1e-12)
    # count tables have no trial order: one line, exit 2
    (tmp_path / "c.csv").write_text("model,question_id,n,c\nm1,1,4,2\nm2,1,4,4\n")
    assert main(["trajectory", str(tmp_path / "c.csv"), "--engine", "spark"]) == 2
    assert "trial column" in capsys.readouterr().err
