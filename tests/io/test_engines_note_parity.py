"""Every engine tells the user the same things about the same file: the load notes and defaults of
``leaderboard`` / ``quality`` under ``--engine duckdb`` (and Spark) equal the pandas loader's, same code, same
words, same counts (QA 2026-12-02: a 0/0.5/1 score beside a 0/1 ``is_correct`` got the partial-credit note from
pandas and silence from DuckDB). Notes only the pandas loader can give are listed in docs/scale.md ("Limits")."""

from __future__ import annotations

import glob
import importlib.util
import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("duckdb")

from scorio_core import io  # noqa: E402
from scorio_core.cli import main  # noqa: E402


def _attempts(models=("a", "b", "c"), questions=10, trials=4) -> pd.DataFrame:
    """Scores 0, 0.5, 1 in turn; is_correct = 1 for score 1 and for every seventh 0.5 (so 'counts K of them
    incorrect' differs from the number of partial scores)."""
    rows = []
    for m in models:
        for q in range(questions):
            for t in range(trials):
                i = len(rows)
                score = (0.0, 0.5, 1.0)[i % 3]
                rows.append((m, f"q{q}", t, int(score == 1.0 or (score == 0.5 and i % 7 == 0)), score))
    return pd.DataFrame(rows, columns=["model", "question_id", "trial", "is_correct", "score"])


def _partial_csv(d: Path) -> str:
    _attempts().to_csv(d / "d.csv", index=False)
    return str(d / "d.csv")


def _partial_parquet(d: Path) -> str:
    _attempts().to_parquet(d / "d.parquet", index=False)
    return str(d / "d.parquet")


def _partial_text_jsonl(d: Path) -> str:  # scores written as text: read as numbers by every engine
    _attempts().astype({"score": str}).to_json(d / "d.jsonl", orient="records", lines=True)
    return str(d / "d.jsonl")


def _two_files(d: Path) -> str:  # one file with partial scores, one without a score column: one note, for the first
    frame = _attempts()
    frame[frame["model"] == "a"].to_csv(d / "x.csv", index=False)
    frame[frame["model"] != "a"].drop(columns="score").to_csv(d / "y.csv", index=False)
    return str(d / "*.csv")


def _no_trial(d: Path) -> str:  # no trial column: the pandas loader's default line (each row one attempt)
    _attempts().drop(columns=["trial", "score"]).to_csv(d / "n.csv", index=False)
    return str(d / "n.csv")


PARTIAL = {"partial csv": _partial_csv, "partial parquet": _partial_parquet,
           "partial scores as text (jsonl)": _partial_text_jsonl, "two files, one with partial scores": _two_files}
FIXTURES = {**PARTIAL, "no trial column": _no_trial}


def _json(capsys, *argv) -> dict:
    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def _file_notes(report: dict, sources) -> list[str]:
    """The report's notes about an input file ("<file>: ..."), without an engine's line on how it counted."""
    names = tuple(f"{s}: " for s in sources)
    return sorted(n for n in report["notes"] if n.startswith(names))


@pytest.mark.parametrize("fixture", list(PARTIAL))
def test_leaderboard_notes_are_the_same_under_pandas_and_duckdb(capsys, tmp_path, fixture):
    path = PARTIAL[fixture](tmp_path)
    got = {engine: _json(capsys, "leaderboard", path, "--engine", engine, "--output", "json")
           for engine in ("pandas", "duckdb")}
    notes = {engine: {(n["code"], n["message"]) for n in out["notes"]} for engine, out in got.items()}
    assert any(code == "load" and "partial score strictly between 0 and 1" in m for code, m in notes["pandas"])
    assert notes["duckdb"] == notes["pandas"]


@pytest.mark.parametrize("fixture", list(FIXTURES))
def test_quality_report_notes_and_defaults_are_the_same_under_pandas_and_duckdb(capsys, tmp_path, fixture):
    path = FIXTURES[fixture](tmp_path)
    got = {engine: _json(capsys, "quality", path, "--engine", engine, "--output", "json")["report"]
           for engine in ("pandas", "duckdb")}
    sources = [s["name"] if isinstance(s, dict) else s[0] for s in got["pandas"]["sources"]]
    assert _file_notes(got["duckdb"], sources) == _file_notes(got["pandas"], sources) == sorted(got["pandas"]["notes"])
    assert sorted(got["duckdb"]["defaults"]) == sorted(got["pandas"]["defaults"])


def test_rubric_leaderboard_notes_are_the_same_under_pandas_and_duckdb(capsys, tmp_path):
    # --schema runs the rubric in SQL (scorio_core.engines.rubric.counts): the same load note as pandas
    from scorio_core.rubric import Schema, schema_to_json
    from scorio_core.rubric.schema import Category

    schema = tmp_path / "partial.json"
    schema.write_text(schema_to_json(Schema("Partial", [Category("none", "score < 0.25", 0),
                                                        Category("half", "score >= 0.25 and score < 0.75", 0.5),
                                                        Category("full", "score >= 0.75", 1)])))
    path = _partial_csv(tmp_path)
    got = {engine: _json(capsys, "leaderboard", path, "--schema", str(schema), "--engine", engine, "--output", "json")
           for engine in ("pandas", "duckdb")}
    notes = {engine: {(n["code"], n["message"]) for n in out["notes"]} for engine, out in got.items()}
    assert any(code == "load" and "partial score" in m for code, m in notes["pandas"])
    assert notes["duckdb"] == notes["pandas"]


def test_partial_credit_counts_are_the_pandas_loaders(tmp_path):
    # the numbers themselves, per file: 40 of 120 attempts score 0.5 and 6 of those are is_correct = 1
    want = io.load(_partial_csv(tmp_path)).report.notes
    from scorio_core.engines import load_counts

    got = load_counts(str(tmp_path / "d.csv"), engine="duckdb").report.notes
    partial = [n for n in got if "partial score" in n]
    assert partial == [n for n in want if "partial score" in n]
    assert partial[0].startswith("d.csv: 40 attempts (33%) have a partial score") and "counts 34 of them incorrect" in partial[0]


@pytest.mark.xdist_group("spark")  # one worker, one JVM (conftest.spark)
@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
@pytest.mark.skipif(importlib.util.find_spec("pyspark") is None or not shutil.which("java"),
                    reason="needs PySpark and a Java runtime (make test installs default-jre-headless)")
def test_spark_gives_the_pandas_loaders_notes_and_defaults(tmp_path, request):
    # one Spark test: a glob of a file with partial scores and one without, and a file without a trial column
    from scorio_core.engines import load_counts

    spark = request.getfixturevalue("spark")
    for make in (_two_files, _no_trial):
        folder = tmp_path / make.__name__
        folder.mkdir()
        path = make(folder)
        files = sorted(glob.glob(path))  # the pandas loader takes the files a glob names
        want, got = io.load(files).report, load_counts(path, engine="spark", spark=spark, hash_files=False).report
        names = [s[0] for s in got.sources]
        assert sorted(n for n in got.notes if n.startswith(tuple(f"{s}: " for s in names))) == sorted(want.notes)
        assert sorted(got.defaults) == sorted(want.defaults)
