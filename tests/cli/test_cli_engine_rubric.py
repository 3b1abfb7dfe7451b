"""``leaderboard --schema`` with ``--engine duckdb``: the same JSON as pandas, or a one-line refusal (issue 15)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("duckdb")

from scorio_core.cli import main  # noqa: E402
from scorio_core.rubric import Schema, schema_to_json  # noqa: E402
from scorio_core.rubric.schema import Category, Threshold, Variable  # noqa: E402

SCHEMA = Schema("Fast and right", [Category("wrong", "is_correct < 0.5", 0), Category("slow", "is_correct >= 0.5 and not fast", 0.5),
                                   Category("fast correct", "is_correct >= 0.5 and fast", 1)],
                [Variable("fast", "duration_s < limit")], [Threshold("limit", value=30.0)])


# the same rubric with its limit a percentile of the data, computed per task (in SQL by the DuckDB engine)
PERCENTILE = SCHEMA.replace(thresholds=(Threshold("limit", percentile=40, of="duration_s", where="is_correct >= 0.5"),))


def _data(tmp_path, schema_doc=SCHEMA):
    rng = np.random.default_rng(4)
    rows = []
    for task in ("algebra", "geometry"):
        for m in ("m-a", "m-b", "m-c"):
            for q in range(6):
                for t in range(3):
                    d = float(rng.uniform(5, 60))
                    rows.append((m, task, f"q{q}", t, int(rng.random() < 0.6), None if rng.random() < 0.1 else round(d, 2)))
    path = tmp_path / "runs.csv"
    pd.DataFrame(rows, columns=["model", "task", "question_id", "trial", "is_correct", "duration_s"]).to_csv(path, index=False)
    schema = tmp_path / "fast.json"
    schema.write_text(schema_to_json(schema_doc))
    return path, schema


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("unmatched,schema_doc", [(None, SCHEMA), ("exclude", SCHEMA), ("wrong", SCHEMA),
                                                   (None, PERCENTILE), ("wrong", PERCENTILE)])
def test_schema_leaderboard_json_equals_pandas(capsys, tmp_path, unmatched, schema_doc):
    path, schema = _data(tmp_path, schema_doc)
    results = {}
    for engine in ("pandas", "duckdb"):
        extra = ["--unmatched", unmatched] if unmatched else []
        for task in ("algebra", "geometry"):
            code, out, err = _run(capsys, "leaderboard", str(path), "--schema", str(schema), "--task", task, "--engine", engine,
                                  "--output", "json", *extra)
            assert code == 0, err
            doc = json.loads(out)
            assert doc["engine"] == engine
            results[(engine, task)] = doc
    for task in ("algebra", "geometry"):
        got, want = results[("duckdb", task)], results[("pandas", task)]
        assert got["rows"] == want["rows"] and got["notes"] == want["notes"]
        if schema_doc is PERCENTILE:  # the task's own 40th percentile, not a constant
            assert any(n["message"].startswith(f"{task}: rubric 'Fast and right' thresholds: limit=") for n in got["notes"])
        assert got.get("unmatched") == want.get("unmatched")


# the same rubric reading repeated_pattern, which the pandas engine derives from finish_reason (SQL does not)
REPEATS = SCHEMA.replace(variables=(Variable("fast", "duration_s < limit and repeated_pattern < 0.5"),))


def test_schema_the_sql_engine_cannot_express_is_refused_in_one_line(capsys, tmp_path):
    path, schema = _data(tmp_path, REPEATS)
    frame = pd.read_csv(path)
    frame["finish_reason"] = "stop"
    frame.to_csv(path, index=False)
    code, out, err = _run(capsys, "leaderboard", str(path), "--schema", str(schema), "--task", "algebra", "--engine",
                          "duckdb", "--output", "json")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "derived signals" in err
    code, out, err = _run(capsys, "leaderboard", str(path), "--schema", str(schema), "--task", "algebra", "--output", "json")
    assert code == 0 and json.loads(out)["engine"] == "pandas"  # auto falls back


def test_derivable_columns_the_schema_does_not_read_run_with_truthful_notes(capsys, tmp_path):
    # finish_reason and a mean log-prob in the data: the pandas engine derives repeated_pattern, completion_bpt and
    # completion_ppl from their values; a schema reading none of them runs on DuckDB with the same rows, and the notes
    # say what DuckDB does not compute instead of claiming "0 rows" or "all missing"
    path, schema = _data(tmp_path)
    frame = pd.read_csv(path)
    frame["finish_reason"] = np.where(np.arange(len(frame)) % 4 == 0, "length", "stop")
    frame["completion_logprob_mean"] = -np.linspace(0.1, 2.0, len(frame))
    frame.to_csv(path, index=False)
    docs = {}
    for engine in ("pandas", "duckdb"):
        code, out, err = _run(capsys, "leaderboard", str(path), "--schema", str(schema), "--task", "algebra", "--engine",
                              engine, "--output", "json")
        assert code == 0, err
        docs[engine] = json.loads(out)
    assert docs["duckdb"]["rows"] == docs["pandas"]["rows"]
    derived = ("repeated_pattern", "completion_bpt", "completion_ppl")
    messages = [n["message"].removeprefix("algebra: ") for n in docs["duckdb"]["notes"]]
    assert not [m for m in messages if "0 rows" in m or "all missing" in m], messages
    assert any(m.startswith(", ".join(derived)) and "does not compute" in m for m in messages), messages
    want = [n["message"].removeprefix("algebra: ") for n in docs["pandas"]["notes"]]
    assert [m for m in messages if not m.startswith(derived)] == [m for m in want if not m.startswith(derived)]
    assert any(m.startswith("repeated_pattern derived from finish_reason") for m in want)  # pandas did derive them
