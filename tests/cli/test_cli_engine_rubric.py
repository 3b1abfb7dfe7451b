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


# the same rubric reading completion_logprob_sum, which the pandas engine derives from a mean log-prob it derived from
# bits per token first (a derived signal from a derived signal): the SQL engines do not compute it
LOGPROB_SUM = SCHEMA.replace(variables=(Variable("fast", "duration_s < limit and completion_logprob_sum > -100"),))


def test_schema_the_sql_engine_cannot_express_is_refused_in_one_line(capsys, tmp_path):
    path, schema = _data(tmp_path, LOGPROB_SUM)
    frame = pd.read_csv(path)
    frame["completion_bpt"] = 0.7
    frame["completion_tokens"] = 40
    frame.to_csv(path, index=False)
    code, out, err = _run(capsys, "leaderboard", str(path), "--schema", str(schema), "--task", "algebra", "--engine",
                          "duckdb", "--output", "json")
    assert code == 2 and json.loads(out)["exit_status"] == 2 and len(err.strip().splitlines()) == 1
    assert "derived signals (completion_logprob_sum)" in err
    code, out, err = _run(capsys, "leaderboard", str(path), "--schema", str(schema), "--task", "algebra", "--output", "json")
    assert code == 0 and json.loads(out)["engine"] == "pandas"  # auto falls back


def _derivable(tmp_path, fmt, seed=5):
    """Attempts with finish_reason (stops spelled as dumps do, other reasons, missing) and a mean log-prob (NaN,
    +-inf), two tasks, one with no finite log-prob at all."""
    rng = np.random.default_rng(seed)
    n = 3 * 2 * 8 * 4
    reasons = np.array(["stop", "STOP ", "\u3000End_Turn\n", "eos", "length", "content_filter", "Stop-ish", "", None],
                       dtype=object)
    lp = -rng.gamma(2.0, 0.4, n).round(4)
    lp[rng.random(n) < 0.1] = np.nan
    lp[rng.random(n) < 0.03] = -np.inf
    frame = pd.DataFrame({"model": np.repeat(["m-a", "m-b", "m-c"], n // 3), "task": np.tile(np.repeat(["t1", "t2"], 32), 3),
                          "question_id": np.tile([f"q{i // 4}" for i in range(32)], 6), "trial": np.tile(np.arange(4), n // 4),
                          "is_correct": rng.integers(0, 2, n), "finish_reason": reasons[rng.integers(0, len(reasons), n)],
                          "completion_logprob_mean": lp, "compass_context_C": rng.uniform(0, 0.6, n).round(3)})
    frame.loc[frame["task"] == "t2", "completion_logprob_mean"] = np.nan
    if fmt == "csv":
        frame["finish_reason"] = frame["finish_reason"].replace("", "x")  # CSV keeps no empty-vs-missing difference
    path = tmp_path / f"runs.{fmt}"
    frame.to_csv(path, index=False) if fmt == "csv" else frame.to_parquet(path, index=False)
    return path


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
@pytest.mark.parametrize("name", ["Exact Match", "Conf-Calibrated"])
def test_repeated_pattern_and_bpt_computed_in_sql_equal_pandas(capsys, tmp_path, fmt, name):
    # the built-in schemas read repeated_pattern (from finish_reason) and completion_bpt (from the mean log-prob; its
    # percentiles per task): DuckDB computes both, and the JSON (rows, notes with each task's derivation counts) is
    # the pandas engine's
    path = _derivable(tmp_path, fmt)
    for task in ("t1", "t2"):
        docs = {}
        for engine in ("pandas", "duckdb"):
            code, out, err = _run(capsys, "leaderboard", str(path), "--schema", name, "--task", task, "--engine", engine,
                                  "--output", "json")
            assert code == 0, err
            docs[engine] = json.loads(out)
        assert docs["duckdb"]["engine"] == "duckdb"
        assert docs["duckdb"]["rows"] == docs["pandas"]["rows"]
        assert docs["duckdb"]["unmatched"] == docs["pandas"]["unmatched"]
        # every note is pandas' but those of derived signals the schema does not read (named in one note instead)
        skipped = ("completion_bpt", "completion_ppl") if name == "Exact Match" else ("completion_ppl",)
        messages = [n["message"] for n in docs["duckdb"]["notes"]]
        assert f"{task}: {', '.join(skipped)}: derived from the data's values by the pandas engine; the DuckDB engine " \
            "does not compute them (this schema does not read them)." in messages
        assert [m for m in messages if not m.startswith(tuple(f"{task}: {s}" for s in skipped))] == \
            [n["message"] for n in docs["pandas"]["notes"] if not n["message"].startswith(tuple(f"{task}: {s}" for s in skipped))]
        assert any(m.startswith(f"{task}: repeated_pattern derived from finish_reason: 0 for a normal stop") for m in messages)
        if name == "Conf-Calibrated":
            bpt = "completion_bpt = -lp / ln 2 from completion_logprob_mean on" if task == "t1" else \
                "completion_bpt not derived: completion_logprob_mean are all missing."
            assert any(m.startswith(f"{task}: {bpt}") for m in messages), messages


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


@pytest.mark.parametrize("column,argument", [(True, None), (True, "512"), (False, "4096")])
@pytest.mark.parametrize("name", ["Efficiency-Adjusted", "Concision-High-Conf"])
def test_token_ratio_computed_in_sql_equals_pandas(capsys, tmp_path, column, argument, name):
    # token_ratio = completion_tokens / max_tokens: the row's positive max_tokens (NaN and <= 0 values in the column;
    # task t2 has none valid), else --max-tokens; without either the task has no token_ratio (pandas: not in the data)
    path = _derivable(tmp_path, "parquet")
    frame = pd.read_parquet(path)
    rng = np.random.default_rng(6)
    frame["completion_tokens"] = rng.integers(1, 3000, len(frame)).astype(float)
    frame.loc[rng.random(len(frame)) < 0.1, "completion_tokens"] = np.nan
    if column:
        frame["max_tokens"] = rng.choice([1024.0, 2048.0, 0.0, -5.0, np.nan], len(frame))
        frame.loc[frame["task"] == "t2", "max_tokens"] = np.nan
    frame.to_parquet(path, index=False)
    extra = ["--max-tokens", argument] if argument else []
    for task in ("t1", "t2"):
        docs = {}
        for engine in ("pandas", "duckdb"):
            code, out, err = _run(capsys, "leaderboard", str(path), "--schema", name, "--task", task, "--engine", engine,
                                  "--output", "json", *extra)
            assert code == 0, err
            docs[engine] = json.loads(out)
        assert docs["duckdb"]["engine"] == "duckdb"
        assert docs["duckdb"]["rows"] == docs["pandas"]["rows"]
        unread = ("completion_ppl", "completion_logprob_sum") + (("completion_bpt",) if name != "Concision-High-Conf" else ())
        skip = tuple(f"{task}: {u}" for u in unread)
        messages = [n["message"] for n in docs["duckdb"]["notes"] if not n["message"].startswith(skip)]
        assert messages == [n["message"] for n in docs["pandas"]["notes"] if not n["message"].startswith(skip)]
        derived = any(m.startswith(f"{task}: token_ratio = completion_tokens / max_tokens using") for m in messages)
        assert derived == (argument is not None or task == "t1")


@pytest.mark.parametrize("name", ["Difficulty-Adjusted Correctness", "IO Ratio Profile"])
def test_perplexity_and_logprob_sums_computed_in_sql_equal_pandas(capsys, tmp_path, name):
    # prompt_ppl = exp(-prompt_logprob_mean) (numpy's exp in a DuckDB UDF) and *_logprob_sum = mean * tokens, with
    # per-task percentile thresholds: the JSON rows and notes are pandas'; task t2 has no prompt log-prob, so both
    # engines stop with the same one-line error
    path = _derivable(tmp_path, "parquet")
    frame = pd.read_parquet(path)
    rng = np.random.default_rng(8)
    frame["prompt_logprob_mean"] = -rng.gamma(2.0, 0.6, len(frame))
    frame.loc[rng.random(len(frame)) < 0.1, "prompt_logprob_mean"] = np.nan
    frame.loc[frame["task"] == "t2", "prompt_logprob_mean"] = np.nan
    frame["completion_tokens"] = rng.integers(1, 3000, len(frame)).astype(float)
    frame["prompt_tokens"] = rng.integers(1, 500, len(frame))
    frame.to_parquet(path, index=False)
    read = {"Difficulty-Adjusted Correctness": ("prompt_ppl",),
            "IO Ratio Profile": ("prompt_logprob_sum", "completion_logprob_sum")}[name]
    for task in ("t1", "t2"):
        results = {}
        for engine in ("pandas", "duckdb"):
            results[engine] = _run(capsys, "leaderboard", str(path), "--schema", name, "--task", task, "--engine", engine,
                                   "--output", "json")
        if task == "t2":
            assert results["duckdb"] == results["pandas"] and results["duckdb"][0] == 2
            continue
        docs = {engine: json.loads(r[1]) for engine, r in results.items()}
        assert docs["duckdb"]["engine"] == "duckdb"
        assert docs["duckdb"]["rows"] == docs["pandas"]["rows"]
        unread = tuple(f"{task}: {side}_{t}" for side in ("prompt", "completion") for t in ("bpt", "ppl", "logprob_sum")
                       if f"{side}_{t}" not in read) + (f"{task}: repeated_pattern",)
        messages = [n["message"] for n in docs["duckdb"]["notes"] if not n["message"].startswith(unread)]
        assert messages == [n["message"] for n in docs["pandas"]["notes"] if not n["message"].startswith(unread)]
        if name.startswith("Difficulty"):
            assert any(m.startswith(f"{task}: prompt_ppl = exp(-lp) from prompt_logprob_mean on") for m in messages)
            assert any("thresholds:" in m for m in messages)


# completion_ppl read where the data has two sources: pandas fills it from the mean log-prob (exp(-lp)), then from bits
# per token (2^bpt) where the mean is missing or infinite; DuckDB computes the same CASE and counts each source's rows
PERPLEXITY = SCHEMA.replace(variables=(Variable("fast", "duration_s < limit and completion_ppl < 2"),))


@pytest.mark.parametrize("second", ["completion_bpt", "completion_ppl"])
def test_a_signal_filled_from_two_sources_equals_pandas(capsys, tmp_path, second):
    path = _derivable(tmp_path, "parquet")
    frame = pd.read_parquet(path)
    rng = np.random.default_rng(9)
    other = rng.gamma(2.0, 0.5, len(frame)) if second == "completion_bpt" else rng.uniform(-0.5, 4, len(frame))
    other[rng.random(len(frame)) < 0.15] = np.nan  # rows neither source fills
    frame[second] = other  # a perplexity <= 0 fills nothing
    frame["duration_s"] = rng.uniform(5, 60, len(frame)).round(2)
    frame.to_parquet(path, index=False)
    target = "completion_ppl" if second == "completion_bpt" else "completion_bpt"
    schema_doc = PERPLEXITY if target == "completion_ppl" else SCHEMA.replace(
        variables=(Variable("fast", "duration_s < limit and completion_bpt < 1.5"),))
    schema = tmp_path / "s.json"
    schema.write_text(schema_to_json(schema_doc))
    for task in ("t1", "t2"):  # t2 has no mean log-prob: only the second source fills it
        docs = {}
        for engine in ("pandas", "duckdb"):
            code, out, err = _run(capsys, "leaderboard", str(path), "--schema", str(schema), "--task", task, "--engine",
                                  engine, "--output", "json")
            assert code == 0, err
            docs[engine] = json.loads(out)
        assert docs["duckdb"]["engine"] == "duckdb" and docs["duckdb"]["rows"] == docs["pandas"]["rows"]
        mine = [n["message"] for n in docs["duckdb"]["notes"] if n["message"].startswith(f"{task}: {target}")]
        assert mine == [n["message"] for n in docs["pandas"]["notes"] if n["message"].startswith(f"{task}: {target}")]
        assert len(mine) == 1 and (f"from {second} on" in mine[0]) and (("completion_logprob_mean on" in mine[0]) == (task == "t1"))
