"""The DuckDB path refuses empty input with the pandas loader's messages, exit status 2, from every command.

Before: two zero-row Parquet shards read through a glob (DuckDB, chosen automatically) gave "No objects to
concatenate" (a pandas message) from ``leaderboard`` and empty JSON with exit 0 from ``tasks``, ``methods`` and
``quality``; a header-only CSV gave the pandas message; a zero-byte CSV "no column found for required field".
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

pytest.importorskip("duckdb")

from scorio_core.cli import main  # noqa: E402
from scorio_core.engines import load_counts  # noqa: E402
from scorio_core.errors import InputError  # noqa: E402

COLS = ["source", "task", "model", "question_id", "trial", "correct"]
NO_ROWS = "a.parquet: the table has columns but no rows."
HEADER_ONLY = "header_only.csv line 1: the file has a header but no data rows."


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture()
def shards(tmp_path):
    empty = pd.DataFrame({c: pd.Series(dtype="int64" if c in ("trial", "correct") else "str") for c in COLS})
    (tmp_path / "glob").mkdir()
    empty.to_parquet(tmp_path / "glob" / "a.parquet")
    empty.to_parquet(tmp_path / "glob" / "b.parquet")
    (tmp_path / "header_only.csv").write_text(",".join(COLS) + "\n")
    (tmp_path / "empty.csv").write_text("")
    (tmp_path / "rows.csv").write_text(",".join(COLS) + "\nqa,t1,m1,q0,0,1\nqa,t1,m1,q0,1,0\n")
    return tmp_path


@pytest.mark.parametrize("command", ["leaderboard", "tasks", "methods", "questions", "ranks", "quality", "publish"])
def test_zero_row_glob_refused_by_every_command(capsys, shards, command):
    code, out, err = _run(capsys, command, str(shards / "glob" / "*.parquet"), "--output", "json")
    payload = json.loads(out)
    assert code == 2 and payload["exit_status"] == 2, out
    # the pandas loader's message for the first file, and the other file named
    assert payload["error"].startswith(NO_ROWS) and "b.parquet" in payload["error"], payload
    assert "No objects to concatenate" not in err and "0 tasks" not in err


def test_same_message_as_pandas_for_one_file(capsys, shards):
    errors = {}
    for engine in ("pandas", "duckdb"):
        code, out, _ = _run(capsys, "leaderboard", str(shards / "glob" / "a.parquet"), "--engine", engine,
                            "--output", "json")
        assert code == 2
        errors[engine] = json.loads(out)["error"]
    assert errors["duckdb"] == errors["pandas"] == NO_ROWS


@pytest.mark.parametrize("name, message", [
    ("header_only.csv", HEADER_ONLY),
    ("empty.csv", "empty.csv: the file is empty; export the results again."),
])
def test_header_only_and_empty_csv(capsys, shards, name, message):
    for command in ("leaderboard", "quality", "trajectory"):
        for engine in ("pandas", "duckdb"):
            code, out, _ = _run(capsys, command, str(shards / name), "--engine", engine, "--output", "json")
            assert (code, json.loads(out)["error"]) == (2, message), (command, engine)


def test_one_empty_file_among_others_is_named(capsys, shards):
    # the pandas loader refuses each file without rows; so does the DuckDB count query
    for engine in ("pandas", "duckdb"):
        code, out, _ = _run(capsys, "leaderboard", str(shards / "rows.csv"), str(shards / "header_only.csv"),
                            "--engine", engine, "--output", "json")
        assert (code, json.loads(out)["error"]) == (2, HEADER_ONLY), engine


def test_load_counts_refuses_zero_rows(shards):
    with pytest.raises(InputError, match="the table has columns but no rows") as info:
        load_counts(str(shards / "glob" / "*.parquet"))
    assert info.value.source == "a.parquet"
    counts = shards / "counts.csv"
    counts.write_text("model,question_id,n_trials,n_correct\n")  # a count table: another count query
    with pytest.raises(InputError, match="header but no data rows"):
        load_counts(str(counts))
    assert len(load_counts(str(shards / "rows.csv")).counts) == 1  # rows still load
