"""Spark reads what DuckDB and pandas read, the same way: per-model files without a task column (one task), Parquet
files whose question ids are integers in one and text in another (QA, 2026-12-02: "cannot read the file with Spark")."""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pyspark")
if not shutil.which("java"):
    pytest.skip("no Java runtime (make test installs default-jre-headless)", allow_module_level=True)

from scorio_core.engines import load_counts  # noqa: E402
from tests.io.test_engines_per_model_files import CASES, _norm, _write  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
              pytest.mark.xdist_group("spark")]  # one worker, one JVM (conftest.spark)


def test_spark_joins_per_model_files_as_duckdb_does(tmp_path, spark):
    # one test function: every load costs Spark jobs; the cases where the rule holds, fails and half applies
    for case in ("readme", "per-task files", "no model column", "with a tasked file"):
        folder = tmp_path / case.replace(" ", "_")
        folder.mkdir()
        paths = _write(folder, CASES[case])
        got = load_counts(paths, engine="spark", spark=spark)
        want = load_counts(paths, engine="duckdb")
        pd.testing.assert_frame_equal(_norm(got.counts), _norm(want.counts))
        assert sorted(got.report.defaults) == sorted(want.report.defaults), case


def test_parquet_files_with_integer_and_text_ids_are_read_as_duckdb_reads_them(tmp_path, spark):
    # exports written by different tools: ids 0-7 as int64 in one file, "0"-"7" as text in the other
    frame = pd.DataFrame({"model": np.repeat(["alpha", "beta"], 16), "task": "t1",
                          "question_id": np.tile(np.repeat(np.arange(8), 2), 2), "trial": np.tile([0, 1], 16),
                          "is_correct": np.arange(32) % 3 == 0})
    frame.to_parquet(tmp_path / "a.parquet", index=False)
    other = frame.assign(model=frame["model"].map({"alpha": "gamma", "beta": "delta"}),
                         question_id=frame["question_id"].astype(str))
    other.to_parquet(tmp_path / "b.parquet", index=False)
    paths = [str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet")]
    got = load_counts(paths, engine="spark", spark=spark)
    want = load_counts(paths, engine="duckdb")
    pd.testing.assert_frame_equal(_norm(got.counts), _norm(want.counts))
    assert got.report.n_models == 4 and set(got.counts["question_id"].astype(str)) == {str(i) for i in range(8)}

