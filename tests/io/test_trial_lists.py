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


def test_duckdb_leaves_it_to_pandas(tmp_path, capsys):
    pytest.importorskip("duckdb")
    (tmp_path / "runs").mkdir()
    pd.DataFrame(ROWS).to_parquet(tmp_path / "runs" / "m.parquet", index=False)
    pattern = str(tmp_path / "runs" / "*.parquet")
    assert main(["leaderboard", pattern, "--output", "json", "--missing-outcomes", "drop"]) == 0  # auto -> pandas
    assert json.loads(capsys.readouterr().out)["rows"]
    assert main(["leaderboard", pattern, "--engine", "duckdb", "--output", "json"]) == 2
    assert "lists each row's trial outcomes" in json.loads(capsys.readouterr().out)["error"]


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
