"""Shared paths and helpers for the loader tests (only files inside the repository)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FORMATS = REPO / "tests" / "fixtures" / "formats"
DATA = REPO / "data"


class Upload:
    """Stand-in for Streamlit's UploadedFile: ``.name`` and ``.getvalue() -> bytes``."""

    def __init__(self, name: str, data: bytes) -> None:
        self.name = name
        self._data = data

    def getvalue(self) -> bytes:
        return self._data


@pytest.fixture
def formats_dir() -> Path:
    return FORMATS


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def upload():
    return Upload


# Every Spark test module carries ``pytest.mark.xdist_group("spark")``: with ``--dist loadgroup`` they run on one
# worker and share this session, so the JVM starts and warms up once per run (~15 s start, ~10 s first query).
@pytest.fixture(scope="session")
def spark():
    """A ``local[2]`` SparkSession for the run (no UI, 2 shuffle partitions); needs PySpark and Java."""
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # Python workers (numpy UDFs) run the test interpreter
    session = (SparkSession.builder.master("local[2]").appName("scorio-test")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "2").config("spark.driver.memory", "1g")
               # adaptive query execution re-plans each shuffle at run time: on the tests' kilobyte inputs that is
               # extra stages per query (the Spark group 15% faster without it; the counts are the same either way)
               .config("spark.sql.adaptive.enabled", "false")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def spark_test(test):
    """Mark a test that uses the session's Spark (the ``spark`` fixture): one worker (xdist group "spark"), PySpark's
    pandas warning ignored, skipped without PySpark or a Java runtime."""
    for mark in (pytest.mark.xdist_group("spark"),  # one worker, one JVM
                 pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
                 pytest.mark.skipif(importlib.util.find_spec("pyspark") is None or not shutil.which("java"),
                                    reason="needs PySpark and a Java runtime (make test installs default-jre-headless)")):
        test = mark(test)
    return test
