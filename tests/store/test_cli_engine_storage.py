"""``workspace add`` and ``publish`` with ``--engine``: large tables are stored as count table + prefix counts (issue 15)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("duckdb")

from scorio_core.cli import main  # noqa: E402
from scorio_core.store import Workspace  # noqa: E402


@pytest.fixture
def runs(tmp_path):
    rng = np.random.default_rng(5)
    m, q, t = np.meshgrid(np.arange(3), np.arange(8), np.arange(4), indexing="ij")
    frame = pd.DataFrame({"model": [f"m{i}" for i in m.ravel()], "question_id": q.ravel(), "trial": t.ravel(),
                          "is_correct": rng.integers(0, 2, m.size)})
    (tmp_path / "runs").mkdir()
    frame.iloc[: len(frame) // 2].to_parquet(tmp_path / "runs" / "aime-1.parquet", index=False)
    frame.iloc[len(frame) // 2:].to_parquet(tmp_path / "runs" / "aime-2.parquet", index=False)
    return tmp_path


def _json(capsys, argv) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_workspace_add_counts_large_tables_and_keeps_the_trial_order(runs, capsys):
    root = str(runs / "ws")
    out = _json(capsys, ["workspace", "--root", root, "add", str(runs / "runs" / "*.parquet"), "--output", "json"])
    assert out["engine"] == "duckdb" and out["created"]  # a quoted glob: counted by DuckDB
    record = out["dataset"]
    assert record["layout"] == "counts" and [s["name"] for s in record["sources"]] == ["aime-1.counts.parquet"]
    ds = Workspace(root).open_dataset(record["id"])
    assert set(ds.trial_prefix) == {"aime-1", "aime-2"}  # tasks from the file stems, the trial order kept
    small = _json(capsys, ["workspace", "--root", root, "add", str(runs / "runs" / "aime-1.parquet"), "--output", "json"])
    assert small["engine"] == "pandas" and small["dataset"]["layout"] == "attempts"  # small files: as before
    assert main(["workspace", "--root", root, "add", str(runs / "runs" / "*.parquet"), "--engine", "duckdb",
                 "--duplicates", "keep-first"]) == 2  # a choice needs the pandas loader: one line
    assert "--engine pandas" in capsys.readouterr().err


def test_publish_with_an_engine_stores_counts_and_says_so(runs, capsys):
    root = str(runs / "ws")
    out = _json(capsys, ["publish", str(runs / "runs" / "aime-1.parquet"), "--workspace", root, "--engine", "duckdb",
                         "--output", "json"])
    assert out["engine"] == "duckdb" and out["link"].startswith("http")
    ds = Workspace(root).open_dataset(out["dataset_id"])
    assert ds.layout == "counts" and set(ds.trial_prefix) == {"aime-1"}
    plain = _json(capsys, ["publish", str(runs / "runs" / "aime-2.parquet"), "--workspace", root, "--output", "json"])
    assert plain["engine"] == "pandas"
