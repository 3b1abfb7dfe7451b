"""Every engine tells the user the same things about the same file: the load notes and defaults of
``leaderboard`` / ``quality`` under ``--engine duckdb`` (and Spark) equal the pandas loader's, same code, same
words, same counts (QA 2026-12-02: a 0/0.5/1 score beside a 0/1 ``is_correct`` got the partial-credit note from
pandas and silence from DuckDB). Notes only the pandas loader can give are listed in docs/scale.md ("Limits")."""

from __future__ import annotations

import glob
import json
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("duckdb")

from scorio_core import io  # noqa: E402
from tests.io.conftest import spark_test  # noqa: E402
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


def _errored(kind: str) -> pd.DataFrame:
    """The attempts without a score and with an error column: every fifth attempt marked (text: 'timeout' or 'API
    error'; numbers: an error code, 0 or NaN otherwise; booleans); the other rows' no-error values vary."""
    frame = _attempts().drop(columns="score")
    marked = frame.index % 5 == 0
    if kind == "text":
        frame["error"] = [("timeout" if i % 2 else "API error") if m else ("", "none", None, "null")[i % 4]
                          for i, m in zip(frame.index, marked)]
    elif kind == "number":  # blanks and zeros beside codes: a float column, whose 0.0 is no error
        frame["error"] = [float(429 if m else (0 if i % 2 else "nan")) for i, m in zip(frame.index, marked)]
    else:
        frame["Exception"] = marked
    return frame


def _errors_csv(d: Path) -> str:  # 24 of 120 attempts record an error: 'counts N incorrect, M correct' per engine
    _errored("text").to_csv(d / "e.csv", index=False)
    return str(d / "e.csv")


def _error_codes_parquet(d: Path) -> str:
    _errored("number").to_parquet(d / "e.parquet", index=False)
    return str(d / "e.parquet")


def _error_flags_jsonl(d: Path) -> str:
    _errored("bool").to_json(d / "e.jsonl", orient="records", lines=True)
    return str(d / "e.jsonl")


ERRORS = {"error column (csv)": _errors_csv, "error codes (parquet)": _error_codes_parquet,
          "error flags (jsonl)": _error_flags_jsonl}
PARTIAL = {"partial csv": _partial_csv, "partial parquet": _partial_parquet,
           "partial scores as text (jsonl)": _partial_text_jsonl, "two files, one with partial scores": _two_files}
FIXTURES = {**PARTIAL, **ERRORS, "no trial column": _no_trial}


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


@pytest.mark.parametrize("fixture", list(ERRORS))
def test_recorded_error_notes_are_the_same_under_pandas_and_duckdb(capsys, tmp_path, fixture):
    # QA 2026-12-04: a file over the auto engine's threshold with an error column was counted by DuckDB without the
    # pandas loader's note that its errored attempts count as failures (--errors-as-missing reads them as missing)
    path = ERRORS[fixture](tmp_path)
    got = {engine: _json(capsys, "leaderboard", path, "--engine", engine, "--output", "json")
           for engine in ("pandas", "duckdb")}
    notes = {engine: {(n["code"], n["message"]) for n in out["notes"]} for engine, out in got.items()}
    said = [m for code, m in notes["pandas"] if "record an error" in m]
    assert len(said) == 1 and "24 attempts record an error" in said[0]
    assert notes["duckdb"] == notes["pandas"]


def test_recorded_error_counts_by_hand(tmp_path):
    # every fifth of 120 attempts (24) is marked; _attempts' outcome is 1 where i % 3 == 2 or (i % 3 == 1 and
    # i % 7 == 0): among i = 0, 5, ..., 115 that is i % 15 == 5 (8 attempts) and i in {70} (i % 3 == 1, i % 7 == 0)
    from scorio_core.engines import load_counts

    marked = [i for i in range(120) if i % 5 == 0]
    correct = sum(1 for i in marked if i % 3 == 2 or (i % 3 == 1 and i % 7 == 0))
    assert correct == 9
    note = next(n for n in load_counts(_errors_csv(tmp_path), engine="duckdb").report.notes if "record an error" in n)
    assert note.startswith("e.csv: 24 attempts record an error in column 'error' (e.g. 'API error'); they count as the "
                           f"outcome column says: {24 - correct} incorrect, {correct} correct.")


def test_no_error_values_are_not_errors(tmp_path):
    # blanks, 'none', 'null', zeros (0 and 0.0) and false mark no attempt, under either engine
    from scorio_core.engines import load_counts

    frame = _attempts().drop(columns="score")
    for name, values in (("text", ["", "none", "NULL", " no ", "0", "false"]), ("zeros", [0.0, float("nan")]),
                         ("flags", [False])):
        frame["error"] = [values[i % len(values)] for i in frame.index]
        path = tmp_path / f"{name}.parquet"
        frame.to_parquet(path, index=False)
        for notes in (io.load(str(path)).report.notes, load_counts(str(path), engine="duckdb").report.notes):
            assert not any("record an error" in n for n in notes), (name, notes)


@pytest.mark.parametrize("fixture", list(FIXTURES))
def test_quality_report_notes_and_defaults_are_the_same_under_pandas_and_duckdb(capsys, tmp_path, fixture):
    path = FIXTURES[fixture](tmp_path)
    got = {engine: _json(capsys, "quality", path, "--engine", engine, "--output", "json")["report"]
           for engine in ("pandas", "duckdb")}
    sources = [s["name"] if isinstance(s, dict) else s[0] for s in got["pandas"]["sources"]]
    assert _file_notes(got["duckdb"], sources) == _file_notes(got["pandas"], sources) == sorted(got["pandas"]["notes"])
    assert sorted(got["duckdb"]["defaults"]) == sorted(got["pandas"]["defaults"])


def _partial_and_errors_csv(d: Path) -> str:  # partial scores and an error column: both notes
    frame = _attempts()
    frame["error"] = ["timeout" if i % 5 == 0 else "" for i in frame.index]
    frame.to_csv(d / "d.csv", index=False)
    return str(d / "d.csv")


@pytest.mark.parametrize("make", [_partial_csv, _partial_and_errors_csv])
def test_rubric_leaderboard_notes_are_the_same_under_pandas_and_duckdb(capsys, tmp_path, make):
    # --schema runs the rubric in SQL (scorio_core.engines.rubric.counts): the same load note as pandas
    from scorio_core.rubric import Schema, schema_to_json
    from scorio_core.rubric.schema import Category

    schema = tmp_path / "partial.json"
    schema.write_text(schema_to_json(Schema("Partial", [Category("none", "score < 0.25", 0),
                                                        Category("half", "score >= 0.25 and score < 0.75", 0.5),
                                                        Category("full", "score >= 0.75", 1)])))
    path = make(tmp_path)
    got = {engine: _json(capsys, "leaderboard", path, "--schema", str(schema), "--engine", engine, "--output", "json")
           for engine in ("pandas", "duckdb")}
    notes = {engine: {(n["code"], n["message"]) for n in out["notes"]} for engine, out in got.items()}
    assert any(code == "load" and "partial score" in m for code, m in notes["pandas"])
    assert any("record an error" in m for _, m in notes["pandas"]) == (make is _partial_and_errors_csv)
    assert notes["duckdb"] == notes["pandas"]


def test_partial_credit_counts_are_the_pandas_loaders(tmp_path):
    # the numbers themselves, per file: 40 of 120 attempts score 0.5 and 6 of those are is_correct = 1
    want = io.load(_partial_csv(tmp_path)).report.notes
    from scorio_core.engines import load_counts

    got = load_counts(str(tmp_path / "d.csv"), engine="duckdb").report.notes
    partial = [n for n in got if "partial score" in n]
    assert partial == [n for n in want if "partial score" in n]
    assert partial[0].startswith("d.csv: 40 attempts (33%) have a partial score") and "counts 34 of them incorrect" in partial[0]


@spark_test  # the session's Spark (tests/io/conftest.py)
def test_spark_gives_the_pandas_loaders_notes_and_defaults(tmp_path, request):
    # one Spark test: a glob of a file with partial scores and one without, a file without a trial column, and files
    # with an error column (text, codes, flags)
    from scorio_core.engines import load_counts

    spark = request.getfixturevalue("spark")
    for make in (_two_files, _no_trial, *ERRORS.values()):
        folder = tmp_path / make.__name__
        folder.mkdir()
        path = make(folder)
        files = sorted(glob.glob(path))  # the pandas loader takes the files a glob names
        want, got = io.load(files).report, load_counts(path, engine="spark", spark=spark, hash_files=False).report
        names = [s[0] for s in got.sources]
        assert sorted(n for n in got.notes if n.startswith(tuple(f"{s}: " for s in names))) == sorted(want.notes)
        assert sorted(got.defaults) == sorted(want.defaults)


def test_trajectory_under_duckdb_says_what_errored_attempts_count_as(capsys, tmp_path):
    # trajectory --engine duckdb counts prefixes in SQL (scorio_core.engines.prefix): the same words as pandas
    path = _errors_csv(tmp_path)
    got = {engine: [n["message"] for n in _json(capsys, "trajectory", path, "--engine", engine, "--output", "json")["notes"]
                    if "record an error" in n["message"]] for engine in ("pandas", "duckdb")}
    assert len(got["pandas"]) == 1 and got["duckdb"] == got["pandas"]
