"""``--engine``: DuckDB and pandas give the same leaderboard numbers; errors stay one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("duckdb")

from scorio_core.cli import main  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "data"


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("name", ["tau_bench_airline_gpt4o_trials.csv", "matharena_aime_2025_I_counts.csv"])
def test_leaderboard_json_same_numbers(capsys, name):
    results = {}
    for engine in ("pandas", "duckdb"):
        code, out, err = _run(capsys, "leaderboard", str(DATA / name), "--engine", engine, "--output", "json")
        assert code == 0, err
        results[engine] = json.loads(out)
        assert results[engine]["engine"] == engine
    assert results["duckdb"]["rows"] == results["pandas"]["rows"]
    assert results["duckdb"]["notes"] == results["pandas"]["notes"]


def test_quality_and_glob_errors(capsys, tmp_path):
    code, out, err = _run(capsys, "leaderboard", str(tmp_path / "*.parquet"), "--engine", "duckdb")
    assert code == 2 and err.count("\n") == 1 and "matches no file" in err
    (tmp_path / "bad.csv").write_text("model,question,trial,correct\nm1,q1,0,1\nm1,q1,1,maybe\n")
    code, out, err = _run(capsys, "leaderboard", str(tmp_path / "bad.csv"), "--engine", "duckdb")
    assert code == 2 and "bad.csv" in err and "is_correct" in err and err.count("\n") == 1
    # the default trajectory (Bayes@n, empirical-Bayes prior refitted per n) runs from DuckDB prefix counts, as pandas
    runs = {}
    for engine in ("pandas", "duckdb"):
        code, out, err = _run(capsys, "trajectory", str(DATA / "arc_agi_1_public_eval_trials.csv"), "--engine", engine,
                              "--output", "json")  # tau-bench's one model: a trajectory needs two
        assert code == 0, err
        runs[engine] = json.loads(out)
    for key in ("models", "ranks", "gold_ranks", "convergence", "prior"):
        assert runs["duckdb"][key] == runs["pandas"][key], key
    code, out, err = _run(capsys, "quality", str(DATA / "tau_bench_airline_gpt4o_trials.csv"), "--engine", "duckdb",
                          "--output", "json")
    assert code == 0 and json.loads(out)["engine"] == "duckdb"


def test_auto_falls_back_to_pandas_for_data_needing_a_choice(capsys, tmp_path):
    (tmp_path / "dup.csv").write_text("model,question,trial,correct\nm1,q1,0,1\nm1,q1,0,0\n")
    code, out, err = _run(capsys, "quality", str(tmp_path / "*.csv"), "--output", "json")
    assert code == 0
    payload = json.loads(out)
    assert payload["engine"] == "pandas" and payload["report"]["n_duplicate_rows"] == 1


def test_export_takes_engine_and_exports_the_same_table(capsys, tmp_path):
    # every subcommand that loads data takes --engine (issue 15): export counts with DuckDB as leaderboard does
    name = "matharena_aime_2025_I_counts.csv"
    outs = {}
    for engine in ("pandas", "duckdb"):
        code, out, err = _run(capsys, "export", str(DATA / name), "--format", "csv", "--engine", engine)
        assert code == 0, err
        outs[engine] = out
    assert outs["duckdb"] == outs["pandas"] and outs["pandas"].count("\n") > 10
    code, _, err = _run(capsys, "export", str(DATA / name), "--format", "csv", "--engine", "duckdb",
                        "--schema", "Binary correctness")
    assert code == 2 and "needs attempt rows" in err and len(err.strip().splitlines()) == 1


def test_every_subcommand_that_reads_paths_takes_engine():
    import argparse

    from scorio_core.cli import build_parser

    def walk(parser, name=""):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, child in action.choices.items():
                    yield from walk(child, f"{name} {sub}".strip())
        yield name, {a.dest for a in parser._actions}

    readers = [(name, dests) for name, dests in walk(build_parser()) if "paths" in dests]
    assert len(readers) >= 10
    assert [name for name, dests in readers if "engine" not in dests] == []


def _parquet_attempts(path, n_models, n_questions, n_trials):
    """A long attempt table as Parquet (compresses to a few MB: bytes alone would keep pandas)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    cells = np.arange(n_models * n_questions)
    trial = np.tile(np.arange(n_trials), cells.size)
    cell = np.repeat(cells, n_trials)
    table = pa.table({"model": pa.array(np.char.add("m", (cell // n_questions).astype(str))).dictionary_encode(),
                      "question": pa.array(np.char.add("q", (cell % n_questions).astype(str))).dictionary_encode(),
                      "trial": trial, "correct": ((cell * 7 + trial * 3) % 5 < 2).astype(np.int8)})
    pq.write_table(table, path)
    return path


def test_auto_counts_a_compressed_parquet_of_many_rows_with_duckdb(capsys, tmp_path):
    # 10^6 attempts are under 1 MB of Parquet: --engine auto reads the footer's row count, not the file size
    from scorio_core.engines import AUTO_THRESHOLD_BYTES, AUTO_THRESHOLD_ROWS

    path = _parquet_attempts(tmp_path / "big.parquet", 10, 1000, AUTO_THRESHOLD_ROWS // 10_000)
    assert path.stat().st_size < AUTO_THRESHOLD_BYTES
    code, out, err = _run(capsys, "leaderboard", str(path), "--output", "json")
    assert code == 0, err
    auto = json.loads(out)
    assert auto["engine"] == "duckdb"
    code, out, err = _run(capsys, "leaderboard", str(path), "--output", "json", "--engine", "pandas")
    assert code == 0, err
    assert json.loads(out)["rows"] == auto["rows"]
    small = _parquet_attempts(tmp_path / "small.parquet", 2, 10, 4)
    code, out, err = _run(capsys, "leaderboard", str(small), "--output", "json")
    assert code == 0 and json.loads(out)["engine"] == "pandas"
