"""Rubric category counts on Spark (``local[2]``) equal DuckDB's (and so the pandas rubric engine's).

DuckDB's SQL rubric is tested against the pandas kernel in ``test_engines_rubric.py``; here Spark's
cells, coverage, count dataset and CLI leaderboard must equal DuckDB's on the same Parquet files.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("duckdb")
pytest.importorskip("pyspark")
if not shutil.which("java"):
    pytest.skip("no Java runtime (make test installs default-jre-headless)", allow_module_level=True)

from scorio_core.engines import EngineUnsupported  # noqa: E402
from scorio_core.engines.rubric.counts import load_category_counts  # noqa: E402
from scorio_core.engines.rubric.spark import load_category_counts_spark  # noqa: E402
from scorio_core.rubric import Schema  # noqa: E402
from scorio_core.rubric.jsonio import schema_to_json  # noqa: E402
from scorio_core.rubric.schema import Category, Threshold, Variable  # noqa: E402

pytestmark = [pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
              pytest.mark.xdist_group("spark")]  # one worker, one JVM (conftest.spark)

SCHEMA = Schema("S", [Category("a", 'hi and fr == "stop"', 0), Category("b", "is_correct >= 0.5 or not hi", 1),
                      Category("c", "fr != 'length'", 2)], [Variable("hi", "x >= tau")], [Threshold("tau", value=1.0)])


def _frame(seed: int, models=("mb", "ma", "mc")) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = 20 * len(models)
    x = rng.uniform(0, 3, n).round(3)
    x[rng.random(n) < 0.2] = np.nan
    x[rng.random(n) < 0.05] = np.inf
    fr = rng.choice(["stop", "length", "it's \"q\""], n).astype(object)
    fr[rng.random(n) < 0.1] = None  # missing text: unknown in every comparison
    return pd.DataFrame({"model": np.repeat(list(models), 20), "task": np.where(np.arange(n) % 7 == 0, "u", "t"),
                         "question": [f"q{i % 5}" for i in range(n)], "trial": np.tile(np.repeat(np.arange(4), 5), len(models)),
                         "correct": rng.integers(0, 2, n), "x": x, "fr": fr, "has_box": rng.integers(0, 2, n),
                         "flag": rng.random(n) < 0.5})


def _same(got, want) -> None:
    pd.testing.assert_frame_equal(got.cells, want.cells)
    assert got.coverage == want.coverage
    assert got.labels == want.labels and got.thresholds == want.thresholds and got.signals == want.signals
    np.testing.assert_array_equal(got.weights, want.weights)
    assert got.issues_static == want.issues_static and _engine(got.notes) == want.notes
    pd.testing.assert_frame_equal(got.dataset.counts, want.dataset.counts)
    assert [(s.name, s.rows) for s in got.dataset.sources] == [(s.name, s.rows) for s in want.dataset.sources]
    assert pd.DataFrame(got.task_thresholds).equals(pd.DataFrame(want.task_thresholds))  # NaN where NaN
    assert {t: _engine(n) for t, n in got.task_notes.items()} == want.task_notes and got.task_absent == want.task_absent


def _engine(notes) -> tuple:  # the notes name the engine that does not compute a signal
    return tuple(n.replace("the Spark engine", "the DuckDB engine") for n in notes)


# percentile thresholds per task: t1 over correct attempts, t2 filtered by t1 and a variable, t3 undefined (no value)
PERCENTILES = Schema("P", [Category("a", "is_correct >= 1 and x >= t2", 2), Category("b", "hi and x >= t1", 1),
                           Category("c", "x < t3 or fr == 'stop'", 0)], [Variable("hi", "x >= tau")],
                     [Threshold("tau", value=1.0), Threshold("t1", percentile=40, of="x", where="is_correct >= 1"),
                      Threshold("t2", percentile=66.6, of="x", where="x > t1 and hi"),
                      Threshold("t3", percentile=50, of="x", where="x > 100")])


def test_spark_category_counts_equal_duckdb(tmp_path, spark):
    from scorio_core.rubric.builtins import BUILTIN_SCHEMAS

    # two files, models in first-appearance order mb, ma, mc, md: the cells keep it
    _frame(0).to_parquet(tmp_path / "a.parquet", index=False)
    _frame(1, models=("md", "ma")).assign(trial=lambda f: f.trial + 4).to_parquet(tmp_path / "b.parquet", index=False)
    paths = [str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet")]
    tricky = Schema("T", [Category("p", "not (x > 1.5 or fr == 'stop') and flag == 1", 2),
                          Category("q", "(x != 2.0 and has_box == 1) or (fr != 'length' and not (flag >= 0.5))", 1),
                          Category("r", "x <= tau or is_correct == 1", 0)], (), [Threshold("tau", value=0.5)])
    for schema in (SCHEMA, tricky, BUILTIN_SCHEMAS["Format Compliance & Correctness"], BUILTIN_SCHEMAS["Binary correctness"],
                   PERCENTILES):
        got = load_category_counts_spark(paths, schema, spark=spark, hash_files=False)
        _same(got, load_category_counts(paths, schema, hash_files=False))
        assert list(dict.fromkeys(got.cells["model"])) == ["mb", "ma", "mc", "md"]
        assert (got.cells[[f"c{i}" for i in range(len(got.labels))]].sum(axis=1) + got.cells["unmatched"]
                == got.cells["n_trials"]).all()
    # frozen thresholds and one task
    frozen = load_category_counts_spark(paths, SCHEMA, spark=spark, task="u", thresholds={"tau": 2.0}, hash_files=False)
    _same(frozen, load_category_counts(paths, SCHEMA, task="u", thresholds={"tau": 2.0}, hash_files=False))
    assert set(frozen.cells["task"]) == {"u"} and frozen.thresholds == {"tau": 2.0}
    pct = load_category_counts_spark(paths, PERCENTILES, spark=spark, hash_files=False)
    assert set(pct.task_thresholds) == {"t", "u"} and np.isnan(pct.task_thresholds["u"]["t3"])
    assert pct.task_thresholds["t"]["t1"] != pct.task_thresholds["u"]["t1"]  # each task its own value


def test_spark_rubric_leaderboard_cli_equals_duckdb_and_refusals(tmp_path, spark, capsys):
    from scorio_core.cli import main

    path = tmp_path / "runs.parquet"
    _frame(2).to_parquet(path, index=False)
    schema_file = tmp_path / "s.json"
    schema_file.write_text(schema_to_json(SCHEMA))
    outs = {}
    for engine in ("spark", "duckdb"):
        assert main(["leaderboard", str(path), "--schema", str(schema_file), "--engine", engine, "--output", "json"]) == 0
        outs[engine] = json.loads(capsys.readouterr().out)
    assert outs["spark"].pop("engine") == "spark" and outs["duckdb"].pop("engine") == "duckdb"
    assert outs["spark"] == outs["duckdb"]
    # a signal read from CSV: refused with the reason (Spark reads CSV text untyped); --engine auto keeps pandas
    frame = _frame(3)
    frame.to_csv(tmp_path / "runs.csv", index=False)
    with pytest.raises(EngineUnsupported, match="Parquet"):
        load_category_counts_spark(str(tmp_path / "runs.csv"), SCHEMA, spark=spark, hash_files=False)
    assert main(["leaderboard", str(tmp_path / "runs.csv"), "--schema", str(schema_file), "--engine", "spark"]) == 2
    err = capsys.readouterr().err
    assert "Parquet" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    # the binary rubric reads no signal: CSV is fine
    binary = load_category_counts_spark(str(tmp_path / "runs.csv"), "Binary correctness", spark=spark, hash_files=False)
    _same(binary, load_category_counts(str(tmp_path / "runs.csv"), "Binary correctness", hash_files=False))
    # a binary signal with other values than 0/1, and a count table: refused as by DuckDB
    frame.assign(has_box=frame.has_box * 2).to_parquet(tmp_path / "box.parquet", index=False)
    with pytest.raises(EngineUnsupported, match="0 and 1"):
        load_category_counts_spark(str(tmp_path / "box.parquet"), "Format Compliance & Correctness", spark=spark)
    pd.DataFrame({"model": ["m"], "question_id": ["q"], "n_trials": [3], "n_correct": [1]}).to_parquet(tmp_path / "c.parquet")
    with pytest.raises(EngineUnsupported, match="attempt-level"):
        load_category_counts_spark(str(tmp_path / "c.parquet"), SCHEMA, spark=spark)


def test_spark_derived_signals_equal_duckdb_and_pandas(tmp_path, spark):
    # repeated_pattern from finish_reason (stops spelled as dumps do; a second file without the column) and
    # completion_bpt from a mean log-prob (NaN, -inf; task u has no finite value, so pandas derives no column there)
    from scorio_core import io
    from scorio_core.leaderboard.table import categorization_for
    from scorio_core.engines.rubric.outcomes import sql_task_outcomes
    from scorio_core.rubric.builtins import BUILTIN_SCHEMAS

    frame = _frame(4).rename(columns={"fr": "finish_reason", "x": "completion_logprob_mean"})
    frame["completion_logprob_mean"] = -frame["completion_logprob_mean"]
    frame.loc[frame["task"] == "u", "completion_logprob_mean"] = np.nan
    frame["finish_reason"] = frame["finish_reason"].replace({"it's \"q\"": " STOP\u3000"})
    frame["compass_context_C"] = np.random.default_rng(4).uniform(0, 0.6, len(frame)).round(3)
    frame["completion_tokens"] = np.random.default_rng(5).integers(1, 900, len(frame))  # token_ratio: the row's max_tokens
    frame["max_tokens"] = np.random.default_rng(6).choice([512.0, 1024.0, 0.0, np.nan], len(frame))  # or --max-tokens
    frame.to_parquet(tmp_path / "a.parquet", index=False)
    other = _frame(5, models=("md",)).drop(columns="fr").rename(columns={"x": "completion_logprob_mean"})
    other = other.assign(compass_context_C=0.1, completion_logprob_mean=-other["completion_logprob_mean"],
                         completion_tokens=np.arange(len(other)) * 10)  # no max_tokens column: --max-tokens or missing
    other.loc[other["task"] == "u", "completion_logprob_mean"] = np.nan
    other.to_parquet(tmp_path / "b.parquet", index=False)
    paths = [str(tmp_path / "a.parquet"), str(tmp_path / "b.parquet")]
    ds = io.load(paths)
    for name, limit in (("Conf-Calibrated", None), ("Exact Match", None), ("Efficiency-Adjusted", 700)):
        schema = BUILTIN_SCHEMAS[name]
        got = load_category_counts_spark(paths, schema, spark=spark, hash_files=False, max_tokens=limit)
        _same(got, load_category_counts(paths, schema, hash_files=False, max_tokens=limit))
        assert "u" in got.task_absent if name == "Conf-Calibrated" else not got.task_absent
        unread = ("completion_ppl", "completion_logprob_sum") + (("completion_bpt",) if name != "Conf-Calibrated" else ()) \
            + (("token_ratio",) if name != "Efficiency-Adjusted" else ())
        skip = tuple(f"{t}: {s}" for t in ("t", "u") for s in unread)
        for task in ("t", "u"):  # the notes are pandas' but those of derived signals the schema does not read
            want = [n for n in categorization_for(ds, schema, task, max_tokens=limit)[1] if not n.startswith(skip)]
            notes = [f"{task}: {n}" for n in sql_task_outcomes(got, task)[1]]
            assert [n for n in notes if not n.startswith(skip)] == want
            assert any(n.startswith(f"{task}: repeated_pattern derived from finish_reason") for n in want)
            if limit:
                assert any(n.startswith(f"{task}: token_ratio = completion_tokens / max_tokens using the max_tokens column")
                           for n in want)


def test_spark_logprob_family_and_sums_equal_duckdb(tmp_path, spark):
    # prompt_ppl = exp(-lp) (Difficulty-Adjusted), *_logprob_sum = mean * tokens (IO Ratio Profile), and from a
    # perplexity column (zero, negative, inf): completion_bpt = log2 ppl, completion_logprob_mean = -ln ppl, both
    # with numpy's functions (DuckDB: UDFs; Spark: pandas UDFs); task u has no prompt log-prob (pandas derives nothing)
    from scorio_core.rubric.builtins import BUILTIN_SCHEMAS

    rng = np.random.default_rng(9)
    frame = _frame(9).drop(columns="fr").rename(columns={"x": "prompt_logprob_mean"})
    frame["prompt_logprob_mean"] = -frame["prompt_logprob_mean"]
    frame.loc[frame["task"] == "u", "prompt_logprob_mean"] = np.nan
    frame["completion_logprob_mean"] = -rng.gamma(2.0, 0.5, len(frame))
    frame["prompt_tokens"] = rng.integers(1, 400, len(frame))
    frame["completion_tokens"] = rng.integers(1, 900, len(frame)).astype(float)
    frame.to_parquet(tmp_path / "a.parquet", index=False)
    for name in ("Difficulty-Adjusted Correctness", "IO Ratio Profile"):
        got = load_category_counts_spark(str(tmp_path / "a.parquet"), BUILTIN_SCHEMAS[name], spark=spark, hash_files=False)
        _same(got, load_category_counts(str(tmp_path / "a.parquet"), BUILTIN_SCHEMAS[name], hash_files=False))
    ppl = _frame(10).drop(columns="fr").rename(columns={"x": "completion_ppl"})
    ppl.loc[::6, "completion_ppl"] = 0.0
    ppl.loc[::11, "completion_ppl"] = -2.0
    ppl.loc[ppl["task"] == "u", "completion_ppl"] = np.nan  # nothing to derive from: the notes name the one source
    ppl.to_parquet(tmp_path / "p.parquet", index=False)
    schema = Schema("P", [Category("a", "completion_bpt >= tau", 1), Category("b", "completion_logprob_mean > -0.5", 0.5),
                          Category("c", "is_correct >= 0.5", 0)], [], [Threshold("tau", percentile=30, of="completion_bpt")])
    got = load_category_counts_spark(str(tmp_path / "p.parquet"), schema, spark=spark, hash_files=False)
    _same(got, load_category_counts(str(tmp_path / "p.parquet"), schema, hash_files=False))
    assert any(n.startswith("completion_bpt = log2 ppl from completion_ppl on") for n in got.task_notes["t"])
    assert "completion_bpt not derived: completion_ppl are all missing." in got.task_notes["u"]
    # two sources: completion_bpt from the mean log-prob, then from the perplexity where the mean is missing
    lp = -rng.gamma(2.0, 0.5, len(ppl))
    lp[::3] = np.nan
    ppl.assign(completion_logprob_mean=lp).to_parquet(tmp_path / "two.parquet", index=False)
    two = Schema("T", [Category("a", "completion_bpt >= tau", 1), Category("c", "is_correct >= 0.5", 0)], [],
                 [Threshold("tau", percentile=40, of="completion_bpt")])
    got = load_category_counts_spark(str(tmp_path / "two.parquet"), two, spark=spark, hash_files=False)
    _same(got, load_category_counts(str(tmp_path / "two.parquet"), two, hash_files=False))
    assert any(n.startswith("completion_bpt = -lp / ln 2 from completion_logprob_mean on") and "log2 ppl from completion_ppl on"
               in n for n in got.task_notes["t"])
