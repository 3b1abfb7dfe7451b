"""Per-model files without a task column read by Spark: the tasks and report lines of DuckDB and pandas."""

from __future__ import annotations

import shutil

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
