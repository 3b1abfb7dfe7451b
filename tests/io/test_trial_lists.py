"""One record per question with a list of its trials' outcomes (Qwen2.5-Math's ``"score": [true, false, ...]``):
each element one attempt, its position the trial (QA 2026-12-04: such a JSONL was refused with "no column found for
required field 'is_correct'", the list having been dropped as a non-per-attempt field)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError
from tests.io.conftest import spark_test

ROWS = [
    {"model": "a", "idx": 0, "score": [True, False, True, True]},
    {"model": "a", "idx": 1, "score": [False, False, True, False]},
    {"model": "b", "idx": 0, "score": [True, True, True, True]},
    {"model": "b", "idx": 1, "score": [True, None, False, True]},  # a null element: a missing outcome
]


def _write(tmp_path, rows, kind: str) -> str:
    path = tmp_path / f"qwen_math.{kind}"
    if kind == "jsonl":
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    elif kind == "json":
        path.write_text(json.dumps(rows))
    else:
        pd.DataFrame(rows).to_parquet(path, index=False)
    return str(path)


@pytest.mark.parametrize("kind", ["jsonl", "json", "parquet"])
def test_each_element_is_one_attempt(tmp_path, kind):
    ds = io.load([_write(tmp_path, ROWS, kind)])
    t = ds.attempts.astype({"model": str, "question_id": str})
    assert len(t) == 16
    # by hand: model a's question 0 is [1, 0, 1, 1] in trial order 0..3
    got = t[(t.model == "a") & (t.question_id == "0")].sort_values("trial")["is_correct"].tolist()
    assert got == [1.0, 0.0, 1.0, 1.0]
    assert t["trial"].tolist()[:4] == [0, 1, 2, 3]
    assert int(np.isnan(t["is_correct"].to_numpy(float)).sum()) == 1  # the null element, left to the choice
    assert ds.report.n_missing_outcomes == 1
    assert dict(ds.sources[0].mapping)["trial"] == "<position in score>"
    assert any("lists each row's trial outcomes" in n and "16 from 4 rows" in n for n in ds.report.notes)


def test_mixed_value_types_take_the_line_by_line_reader(tmp_path):
    rows = [{**r, "extra": 1 if r["model"] == "a" else "x"} for r in ROWS]  # pyarrow refuses mixed types
    ds = io.load([_write(tmp_path, rows, "jsonl")])
    assert len(ds.attempts) == 16


def test_empty_lists_are_said_and_other_lists_dropped(tmp_path, capsys):
    rows = [{"model": "a", "idx": 0, "correct": [1, 1], "tokens": [10, 20]},
            {"model": "a", "idx": 1, "correct": []},
            {"model": "b", "idx": 0, "correct": [0, 1], "tokens": [5, 6]}]
    path = _write(tmp_path, rows, "jsonl")
    ds = io.load([path])
    assert len(ds.attempts) == 4
    assert any("1 row with an empty list has no attempt" in n for n in ds.report.notes)
    assert any("ignored non-scalar fields" in n and "tokens" in n for n in ds.report.notes)
    assert main(["leaderboard", path, "--prior", "uniform", "--output", "json"]) == 0
    rows_out = {r["model"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert rows_out["a"]["avg"] == 1.0 and rows_out["b"]["avg"] == 0.5  # by hand: a 2/2, b 1/2


def test_a_scalar_outcome_wins_over_a_list(tmp_path):
    rows = [{**r, "correct": int(r["model"] == "b")} for r in ROWS]
    ds = io.load([_write(tmp_path, rows, "jsonl")])
    assert len(ds.attempts) == 4 and dict(ds.sources[0].mapping)["is_correct"] == "correct"
    assert any("ignored non-scalar fields" in n and "score" in n for n in ds.report.notes)


def test_a_user_mapped_list_and_a_refused_trial_column(tmp_path):
    rows = [{"model": r["model"], "idx": r["idx"], "verdicts": r["score"]} for r in ROWS]
    ds = io.load([_write(tmp_path, rows, "jsonl")], mapping={"is_correct": "verdicts"})
    assert len(ds.attempts) == 16
    rows = [{**r, "seed": 0} for r in ROWS]
    with pytest.raises(InputError, match="numbers trials too"):
        io.load([_write(tmp_path, rows, "jsonl")])


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_duckdb_reads_the_lists_as_pandas_does(tmp_path, capsys, kind):
    pytest.importorskip("duckdb")
    (tmp_path / "runs").mkdir()
    rows = ROWS[:3] + [{**ROWS[3], "score": [True, False, False, True]}]  # no null element (DuckDB counts ready data)
    path = _write(tmp_path / "runs", rows, kind)
    out = {}
    for engine in ("pandas", "duckdb"):
        assert main(["leaderboard", path, "--engine", engine, "--output", "json"]) == 0
        out[engine] = json.loads(capsys.readouterr().out)
    assert out["duckdb"]["rows"] == out["pandas"]["rows"]
    # by hand: a 4/8 (questions 0 and 1: [1, 0, 1, 1], [0, 0, 1, 0]); b 6/8 ([1, 1, 1, 1], [1, 0, 0, 1])
    assert {r["model"]: r["avg"] for r in out["duckdb"]["rows"]} == {"a": 4 / 8, "b": 6 / 8}
    assert any("lists each row's trial outcomes" in n["message"] and "(16 attempts)" in n["message"]
               for n in out["duckdb"]["notes"])
    assert out["duckdb"]["sources"][0]["mapping"]["trial"] == "<position in score>"
    # a glob goes to DuckDB under --engine auto, and so do the trial order's prefix counts
    glob = str(tmp_path / "runs" / f"*.{kind}")
    for engine in ("pandas", "duckdb"):
        assert main(["trajectory", glob, "--engine", engine, "--prior", "uniform", "--output", "json"]) == 0
        out[engine] = json.loads(capsys.readouterr().out)
    assert out["duckdb"]["ranks"] == out["pandas"]["ranks"] and out["duckdb"]["sources"] == out["pandas"]["sources"]
    np.testing.assert_allclose(out["duckdb"]["scores"], out["pandas"]["scores"], rtol=1e-12)
    assert any("lists each row's trial outcomes" in n["message"] for n in out["duckdb"]["notes"])


def test_duckdb_refuses_what_pandas_refuses(tmp_path, capsys):
    pytest.importorskip("duckdb")
    path = _write(tmp_path, ROWS, "jsonl")
    assert main(["leaderboard", path, "--engine", "duckdb", "--output", "json"]) == 2  # the null element: a choice
    assert "missing" in json.loads(capsys.readouterr().out)["error"]
    path = _write(tmp_path, [{**r, "seed": 0} for r in ROWS], "parquet")
    assert main(["leaderboard", path, "--engine", "duckdb", "--output", "json"]) == 2
    assert "numbers trials too" in json.loads(capsys.readouterr().out)["error"]


def test_duckdb_reads_lists_inside_structs_and_arrays(tmp_path):
    pytest.importorskip("duckdb")
    import pyarrow as pa
    import pyarrow.parquet as pq

    from scorio_core.engines import load_counts

    table = pa.table({"model": ["a", "a", "b"], "idx": [0, 1, 0],
                      "metrics": pa.array([{"correct": [1, 0, 1]}, {"correct": [0, 0, 0]}, {"correct": [1, 1, 1]}]),
                      "fixed": pa.array([[True, False], [False, False], [True, True]], pa.list_(pa.bool_(), 2))})
    path = str(tmp_path / "m.parquet")
    pq.write_table(table, path)
    for mapping in ({"is_correct": "metrics.correct"}, {"is_correct": "fixed"}):
        want = io.load([path], mapping=mapping).to_counts()
        got = load_counts([path], mapping=mapping, engine="duckdb").counts
        key = ["model", "question_id"]
        cols = key + ["n_trials", "n_correct"]
        pd.testing.assert_frame_equal(got[cols].astype({"question_id": str}).sort_values(key).reset_index(drop=True),
                                      want[cols].astype({"question_id": str}).sort_values(key).reset_index(drop=True),
                                      check_dtype=False)
    assert load_counts([path], mapping={"is_correct": "fixed"}, engine="duckdb").counts["n_correct"].tolist() == [1, 0, 2]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(0, 1), min_size=0, max_size=6), min_size=1, max_size=8))
def test_counts_equal_the_lists(lists):
    rows = [{"model": "m", "idx": i, "correct": xs} for i, xs in enumerate(lists)]
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    if not any(lists):
        with pytest.raises(InputError):
            io.load([("m.jsonl", data)])
        return
    ds = io.load([("m.jsonl", data)])
    counts = ds.to_counts().astype({"question_id": str}).set_index("question_id")
    for i, xs in enumerate(lists):
        if xs:
            assert counts.loc[str(i), "n_trials"] == len(xs) and counts.loc[str(i), "n_correct"] == sum(xs)
        else:
            assert str(i) not in counts.index


@spark_test  # the session's Spark (tests/io/conftest.py)
def test_spark_reads_the_lists_as_pandas_does(tmp_path, request):
    """Per-trial lists under --engine spark: posexplode, the position the trial, the same counts and notes as pandas
    (was: refused, naming pandas or duckdb); a trial column beside them and a rate table refused as DuckDB does."""
    from scorio_core.engines import EngineUnsupported, load_counts

    spark = request.getfixturevalue("spark")
    rows = ROWS[:3] + [{**ROWS[3], "score": [True, False, False, True]}, {"model": "b", "idx": 2, "score": []}]
    for kind in ("jsonl", "parquet"):
        path = _write(tmp_path, rows, kind)
        want = io.load([path])
        got = load_counts(path, engine="spark", spark=spark, hash_files=False)
        key = ["model", "task", "question_id"]
        a = want.to_counts().astype({k: str for k in key}).sort_values(key).reset_index(drop=True)
        b = got.counts.astype({k: str for k in key}).sort_values(key).reset_index(drop=True)
        pd.testing.assert_frame_equal(a[key + ["n_trials", "n_correct"]], b[key + ["n_trials", "n_correct"]],
                                      check_dtype=False)
        # by hand: a 4/8; b 6/8 over questions 0 and 1 (question 2's empty list: no attempt)
        assert b.groupby("model")["n_correct"].sum().to_dict() == {"a": 4, "b": 6}
        assert any("lists each row's trial outcomes" in n and "(16 attempts)" in n for n in got.report.notes)
        assert dict(got.sources[0].mapping)["trial"] == "<position in score>"
    with pytest.raises(InputError, match="numbers trials too"):
        load_counts(_write(tmp_path, [{**r, "seed": 0} for r in ROWS], "parquet"), engine="spark", spark=spark)
    rates = tmp_path / "rates.csv"
    rates.write_text("model,question_id,accuracy,n_samples\nm,q1,0.75,4\nm,q2,0.5,4\n")
    with pytest.raises(EngineUnsupported, match="shares of correct trials beside column 'n_samples'"):
        load_counts(str(rates), engine="spark", spark=spark)
    held = tmp_path / "held.jsonl"
    held.write_text(json.dumps({"model": "m", "results": [{"id": "q1", "correct": 1}]}) + "\n")
    with pytest.raises(EngineUnsupported, match="each row's 'results' holds records"):
        load_counts(str(held), engine="spark", spark=spark)


def test_lists_written_as_text_in_a_csv(tmp_path):
    """A list column saved with DataFrame.to_csv ('[True, False, True]'): read as the lists it was (was refused as
    text labels); None is a missing outcome, [] no attempt; a cell that is not such a list leaves the column to the
    outcome check, which names its line."""
    frame = pd.DataFrame({"model": ["a", "a", "b", "b"], "idx": [0, 1, 0, 1],
                          "score": [[True, False, True, True], [False, False, True, False], [1, 1, 1, 1], []]})
    path = tmp_path / "lists.csv"
    frame.to_csv(path, index=False)
    ds = io.load([str(path)])
    counts = ds.to_counts().astype({"model": str, "question_id": str}).set_index(["model", "question_id"])
    # by hand: a 3/4 and 1/4; b 4/4 on question 0, question 1's empty list no attempt
    assert counts["n_correct"].to_dict() == {("a", "0"): 3, ("a", "1"): 1, ("b", "0"): 4}
    assert counts["n_trials"].to_dict() == {("a", "0"): 4, ("a", "1"): 4, ("b", "0"): 4}
    assert any("holds lists written as text" in n for n in ds.report.notes)
    from scorio_core.engines import EngineUnsupported, load_counts

    with pytest.raises(EngineUnsupported, match="holds lists written as text"):  # --engine auto falls back to pandas
        load_counts(str(path), engine="duckdb")
    path.write_text("model,idx,score\na,0,\"[True, None]\"\na,1,\"[0, 1.0]\"\n")
    assert io.load([str(path)]).report.n_missing_outcomes == 1
    path.write_text("model,idx,score\na,0,\"[True, False]\"\na,1,maybe\n")
    with pytest.raises(InputError, match="line 2"):
        io.load([str(path)])


def test_livecodebench_graded_lists_are_its_samples(tmp_path):
    """LiveCodeBench's ``*_eval_all.json`` (lcb_runner): one record per problem, ``graded_list`` one boolean per
    generated sample; its ``pass@1`` (a per-problem rate of the same samples) is not the outcome."""
    rows = [{"question_id": "abc301_a", "platform": "atcoder", "difficulty": "easy", "code_list": ["x"] * 3,
             "graded_list": [True, False, True], "pass@1": 2 / 3},
            {"question_id": "abc301_b", "platform": "atcoder", "difficulty": "medium", "code_list": ["x"] * 3,
             "graded_list": [False, False, False], "pass@1": 0.0}]
    folder = tmp_path / "GPT-4O-2024-08-06"
    folder.mkdir()
    (folder / "Scenario.codegeneration_3_0.2_eval_all.json").write_text(json.dumps(rows, indent=4))
    ds = io.load([str(folder / "Scenario.codegeneration_3_0.2_eval_all.json")], mapping={"model": "@folder"})
    t = ds.attempts.astype({"model": str, "question_id": str}).sort_values(["question_id", "trial"])
    assert t["model"].unique().tolist() == ["GPT-4O-2024-08-06"]
    assert t["is_correct"].tolist() == [1.0, 0.0, 1.0, 0.0, 0.0, 0.0] and t["trial"].tolist() == [0, 1, 2] * 2
    assert dict(ds.sources[0].mapping)["is_correct"] == "graded_list"


def test_opencompass_repeated_details_are_lists_not_text(tmp_path):
    """A document whose records under ``details`` list each replica's ``correct`` (OpenCompass's shape, here outside
    its ``results/<model>/`` layout, so read by the generic JSON reader): the lists are read as trials, and not
    described as text written by pandas to a CSV."""
    details = [{"example_abbr": "aime2024_0", "avg@4": 0.5, "pass@4": 1.0, "cons@4": 0.0, "pred": ["1"] * 4,
                "answer": ["2"] * 4, "correct": [True, False, True, False]},
               {"example_abbr": "aime2024_1", "avg@4": 0.25, "pass@4": 1.0, "cons@4": 0.0, "pred": ["1"] * 4,
                "answer": ["2"] * 4, "correct": [False, False, False, True]}]
    folder = tmp_path / "runs" / "qwen2-7b-instruct"
    folder.mkdir(parents=True)
    doc = {"accuracy (4 runs average)": 37.5, "avg@4": 37.5, "pass@4": 100.0, "cons@4": 0.0, "details": details}
    (folder / "aime2024.json").write_text(json.dumps(doc, indent=4))
    ds = io.load([str(folder / "aime2024.json")], mapping={"model": "@folder"})
    t = ds.attempts.astype({"model": str, "question_id": str}).sort_values(["question_id", "trial"])
    assert t["model"].unique().tolist() == ["qwen2-7b-instruct"]
    assert t["is_correct"].tolist() == [1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    assert t["question_id"].unique().tolist() == ["aime2024_0", "aime2024_1"]
    assert not any("written as text" in n for n in ds.report.notes)
    assert any("lists each row's trial outcomes" in n and "8 from 2 rows" in n for n in ds.report.notes)
