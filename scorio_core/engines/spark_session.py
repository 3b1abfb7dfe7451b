"""Starting (or reusing) the SparkSession of the Spark SQL counts engine.

PySpark is imported lazily; it and a Java runtime are an optional extra
(``pip install -r requirements-spark.txt`` and, on Debian, ``apt-get install default-jre-headless``);
every "missing" error says how to install them (:data:`INSTALL_HINT`).
"""

from __future__ import annotations

import os
import shutil
import sys

from scorio_core.errors import InputError

__all__ = ["INSTALL_HINT", "spark_session"]

#: How to get the optional Spark engine working (one line, used in every "missing" error).
INSTALL_HINT = ("install it with `pip install -r requirements-spark.txt` and a Java runtime (JRE 17+, e.g. Debian's "
                "`apt-get install default-jre-headless`), or use --engine duckdb")


def _import_pyspark():
    import warnings

    try:
        with warnings.catch_warnings():  # pyspark warns about pandas >= 3 at import; the engine does not use pandas UDFs
            warnings.simplefilter("ignore", FutureWarning)
            import pyspark  # noqa: F401
            from pyspark.sql import SparkSession
    except ImportError:
        raise InputError(f"the Spark engine needs PySpark, which is not installed; {INSTALL_HINT}.") from None
    return SparkSession


def spark_session(master: str | None = None, *, shuffle_partitions: int | None = None):
    """The active SparkSession, or a new one on ``master``.

    Parameters
    ----------
    master : str, optional
        Spark master URL (``local[2]``, ``spark://host:7077``, ``yarn``...). None reuses the
        active session (e.g. under ``spark-submit``) or starts ``$SPARK_MASTER`` / ``local[*]``.
    shuffle_partitions : int, optional
        ``spark.sql.shuffle.partitions`` for a new session (default: Spark's, or the core
        count for ``local[N]``).

    Returns
    -------
    pyspark.sql.SparkSession

    Raises
    ------
    InputError
        One line saying how to install PySpark or Java when either is missing or the JVM
        cannot start.
    """
    SparkSession = _import_pyspark()
    active = SparkSession.getActiveSession()
    if active is not None and (master is None or active.sparkContext.master == master):
        return active
    if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
        raise InputError(f"the Spark engine needs a Java runtime and `java` was not found; {INSTALL_HINT}.")
    master = master or os.environ.get("SPARK_MASTER") or "local[*]"
    builder = (SparkSession.builder.master(master).appName("scorio-counts")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.session.timeZone", "UTC").config("spark.log.level", "ERROR"))
    if shuffle_partitions is None and master.startswith("local["):
        inner = master[6:-1]  # local[N]: a few partitions per core instead of Spark's 200
        shuffle_partitions = max(2, int(inner) if inner.isdigit() else (os.cpu_count() or 2))
    if shuffle_partitions:
        builder = builder.config("spark.sql.shuffle.partitions", str(int(shuffle_partitions)))
    if master.startswith("local"):
        # local Python workers (the numpy UDFs of derived rubric signals) run this interpreter, with its numpy and
        # pandas, unless PYSPARK_PYTHON says otherwise (PySpark reads it when the context starts)
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    try:
        session = builder.getOrCreate()
    except Exception as exc:  # noqa: BLE001 - JAVA_GATEWAY_EXITED, bad master URL...
        first = next((t for t in str(exc).splitlines() if t.strip()), type(exc).__name__)
        raise InputError(f"cannot start Spark on {master!r} ({first[:200]}); {INSTALL_HINT}.") from None
    session.sparkContext.setLogLevel("ERROR")
    return session
