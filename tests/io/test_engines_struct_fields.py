"""Nested fields (Parquet structs, JSON objects) are columns with dotted names under every engine, as the pandas
loader reads them (QA 2026-12-04: lighteval-style details, ``metrics: {acc, acc_norm}``, loaded with ``--map
is_correct=metrics.acc`` under pandas, while a glob, which ``--engine auto`` gives to DuckDB, said the column was not
in the file), and a path Spark cannot read (a ':' in a lighteval timestamp) is refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("duckdb")

from scorio_core import io  # noqa: E402
from tests.io.conftest import spark_test  # noqa: E402
from scorio_core.cli import main  # noqa: E402
from scorio_core.engines import load_counts  # noqa: E402

MAPPING = {"question_id": "doc.id", "is_correct": "metrics.acc", "model": "@folder:2"}


def _details(root: Path, suffix: str = "parquet", name: str = "details_arc") -> str:
    """lighteval's layout: details/<model>/<date>/<file>; outcomes in a struct, the question id two levels down."""
    for k, model in enumerate(("org__a", "org__b")):
        folder = root / "details" / model / "2025-01-01"
        folder.mkdir(parents=True)
        rows = [{"doc": {"id": f"q{q}", "meta": {"source": "arc", "it's": q}}, "predictions": [str(q)],
                 "metrics": {"acc": float((q + k) % 3 == 0), "acc_norm": 1.0}} for q in range(12)]
        frame = pd.DataFrame(rows)
        if suffix == "parquet":
            frame.to_parquet(folder / f"{name}.parquet", index=False)
        else:
            frame.to_json(folder / f"{name}.jsonl", orient="records", lines=True)
    return str(root / "details" / "**" / f"*.{suffix}")


def _counts(table: pd.DataFrame) -> list:
    t = table.astype({"model": str, "question_id": str})
    if "is_correct" in t.columns:
        t = t.groupby(["model", "question_id"], as_index=False).agg(n_trials=("is_correct", "size"), n_correct=("is_correct", "sum"))
    return sorted((r.model, r.question_id, int(r.n_trials), int(r.n_correct)) for r in t.itertuples())


def _files(root: Path) -> list[str]:
    return sorted(str(p) for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("suffix", ["parquet", "jsonl"])
def test_duckdb_reads_struct_fields_as_pandas_does(tmp_path, suffix):
    pattern = _details(tmp_path, suffix)
    want = io.load(_files(tmp_path), mapping=MAPPING)
    got = load_counts(pattern, engine="duckdb", mapping=MAPPING, hash_files=False)
    assert _counts(got.counts) == _counts(want.attempts)
    # by hand: model b (k = 1) is correct where (q + 1) % 3 == 0: q = 2, 5, 8, 11
    assert [c for m, q, n, c in _counts(got.counts) if m == "org__b" and c] == [1] * 4
    assert sorted(s.mapping for s in got.sources) == sorted(s.mapping for s in want.sources)


def test_a_nested_outcome_is_guessed_by_either_engine(tmp_path, capsys):
    # {"model": ..., "question": ..., "result": {"correct": 0/1}}: the pandas loader finds result.correct by its leaf
    rows = [{"model": m, "question": f"q{q}", "result": {"correct": int(q % (2 + i) == 0)}} for i, m in enumerate("ab")
            for q in range(10)]
    for part in (0, 1):
        pd.DataFrame(rows[part * 10:(part + 1) * 10]).to_json(tmp_path / f"r{part}.jsonl", orient="records", lines=True)
    want = io.load(_files(tmp_path))
    assert dict(want.sources[0].mapping)["is_correct"] == "result.correct"
    got = load_counts(str(tmp_path / "*.jsonl"), engine="duckdb", hash_files=False)
    assert _counts(got.counts) == _counts(want.attempts)
    assert main(["leaderboard", str(tmp_path / "*.jsonl"), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # by hand: a (i = 0) is correct where q % 2 == 0 (5 of q = 0..9), b (i = 1) where q % 3 == 0 (q = 0, 3, 6, 9: 4)
    assert out["engine"] == "duckdb" and {r["model"]: r["avg"] for r in out["rows"]} == {"a": 0.5, "b": 0.4}


@spark_test  # the session's Spark (tests/io/conftest.py)
def test_spark_reads_struct_fields_and_names_a_path_it_cannot_read(tmp_path, request):
    from scorio_core.errors import InputError

    spark = request.getfixturevalue("spark")
    pattern = _details(tmp_path / "ok")
    want = io.load(_files(tmp_path / "ok"), mapping=MAPPING)
    got = load_counts(pattern, engine="spark", spark=spark, mapping=MAPPING, hash_files=False)
    assert _counts(got.counts) == _counts(want.attempts)
    colon = _details(tmp_path / "colon", name="details_arc_2025-01-01T00:00:00")  # lighteval's file names
    with pytest.raises(InputError, match="cannot read a path holding ':'.*--engine duckdb"):
        load_counts(colon, engine="spark", spark=spark, mapping=MAPPING, hash_files=False)


def test_the_mapping_widget_lists_struct_fields_as_the_reader_names_them(tmp_path):
    _details(tmp_path)
    columns = io.source_columns(_files(tmp_path)[0])  # the app's column mapping offers these
    assert {"doc.id", "doc.meta.source", "metrics.acc", "metrics.acc_norm"} <= set(columns) and "metrics" not in columns
