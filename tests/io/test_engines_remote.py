"""URIs (s3a://, hdfs://, gs://, file://) as inputs: Spark reads them; every other engine refuses them in one line."""

from __future__ import annotations

import pytest

from scorio_core.cli import main
from scorio_core.errors import InputError
from scorio_core.engines import expand_inputs, is_remote


def test_uris_are_kept_whole_for_spark_and_never_show_credentials():
    (f,) = expand_inputs("s3a://KEY:SECRET@bucket/details/run_1.csv.gz?versionId=3", remote=True)
    assert f.remote and f.size == -1
    assert (f.name, f.format, f.stem) == ("s3a://bucket/details/run_1.csv.gz", "csv", "run_1")
    (g,) = expand_inputs("hdfs://nn:8020/evals/", remote=True)
    assert (g.name, g.format) == ("hdfs://nn:8020/evals/", None)  # a folder: --format says what its files are
    (h,) = expand_inputs("gs://bucket/evals/", "parquet", remote=True)
    assert h.format == "parquet"
    assert is_remote("file:///tmp/x.csv") and not is_remote("/tmp/x.csv") and not is_remote("C:/evals/x.csv")
    with pytest.raises(InputError, match="names no bucket"):
        expand_inputs("s3a://", remote=True)


def test_other_engines_refuse_uris_with_a_hint(capsys):
    from scorio_core.engines import load_counts

    with pytest.raises(InputError, match="--engine spark") as info:
        load_counts("s3a://bucket/details/*.parquet")
    assert info.value.source == "s3a://bucket/details/*.parquet"
    for engine in ("auto", "duckdb", "pandas"):
        assert main(["leaderboard", "s3a://bucket/details/*.parquet", "--engine", engine]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "read by the Spark engine only" in err, (engine, err)
