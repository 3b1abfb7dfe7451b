"""Large uploads counted by DuckDB from their bytes (issue 15): same counts as the pandas loader."""

from __future__ import annotations

import gzip

import pytest

from scorio_core import io
from scorio_core.engines import NotReadyError
from scorio_core.engines.uploads import count_uploads, upload_engine


def _rows(models=("a", "b")):
    return "\n".join(f"{m},q{q},{t},{(q * t + i) % 2}" for i, m in enumerate(models) for q in range(5) for t in range(4))


def _counts(ds):
    c = ds.counts.astype({"model": str, "task": str, "question_id": str})
    return c.sort_values(["model", "task", "question_id"]).reset_index(drop=True)


def test_counts_equal_the_pandas_loader_and_tasks_come_from_file_names():
    files = [("runs/alpha.csv", ("model,question,trial,correct\n" + _rows()).encode()),
             ("other/alpha.csv.gz", gzip.compress(("model,question,trial,correct\n" + _rows(("c",))).encode()))]
    got = count_uploads(files)
    want = io.load(files)
    assert set(got.counts["task"]) == {"alpha"}
    c = want.attempts.groupby(["model", "task", "question_id"], observed=True)["is_correct"].agg(["size", "sum"]).reset_index()
    assert _counts(got)[["n_trials", "n_correct"]].to_numpy().tolist() == c[["size", "sum"]].astype(int).to_numpy().tolist()
    assert [s.name for s in got.sources] == ["alpha.csv", "alpha.csv.gz"]


def test_data_needing_a_choice_is_refused_not_fixed():
    body = "model,question,trial,correct\nm,q,0,1\nm,q,0,0\n"
    with pytest.raises(NotReadyError):
        count_uploads([("dup.csv", body.encode())])


def test_engine_choice_by_size_and_format():
    small = [("a.csv", b"model,question,trial,correct\nm,q,0,1\n")]
    assert upload_engine(small) == "pandas" and upload_engine(small, threshold=0) == "duckdb"
    assert upload_engine(small, format="npz", threshold=0) == "pandas"
    lm_eval = [("samples_x_2026-01-01T00-00-00.000000.jsonl", b'{"doc_id": 0, "doc": {}, "target": "1", "arguments": [], "resps": [], "filtered_resps": [], "filter": "none", "metrics": ["acc"], "acc": 1.0}\n')]
    plain = [("runs.jsonl", b'{"model": "m", "question_id": "q", "trial": 0, "is_correct": 1}\n')]
    assert upload_engine(plain, threshold=0) == "duckdb"
    assert upload_engine(lm_eval, threshold=0) == "pandas"
    assert upload_engine([], threshold=0) == "pandas"


def test_compressed_uploads_are_sized_by_their_table(monkeypatch):
    import io as _io

    import pandas as pd

    from scorio_core import engines

    frame = pd.DataFrame({"model": ["m", "n"] * 50, "question": [f"q{i // 2}" for i in range(100)], "trial": 0,
                          "correct": [i % 2 for i in range(100)]})
    buf = _io.BytesIO()
    frame.to_parquet(buf)
    parquet = [("runs.parquet", buf.getvalue())]
    assert upload_engine(parquet) == "pandas"
    monkeypatch.setattr(engines, "AUTO_THRESHOLD_ROWS", 100)  # the footer's row count, not the bytes, decides
    assert upload_engine(parquet) == "duckdb"
