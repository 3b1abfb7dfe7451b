"""Percentile thresholds of a rubric computed in DuckDB per task (rubric_percentiles) equal the pandas engine's:
numpy-exact values, the same categories, notes and coverage issues."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("duckdb")
from hypothesis import example, given, settings, strategies as st  # noqa: E402

from scorio_core import io  # noqa: E402
from scorio_core.leaderboard.table import categorization_for  # noqa: E402
from scorio_core.engines.rubric.counts import load_category_counts  # noqa: E402
from scorio_core.engines.rubric.outcomes import sql_task_outcomes  # noqa: E402
from scorio_core.engines.rubric import percentiles as rubric_percentiles  # noqa: E402
from scorio_core.engines.rubric.percentiles import around_candidate, lerp, order_statistics  # noqa: E402
from scorio_core.rubric import Schema, categorize  # noqa: E402
from scorio_core.rubric.schema import Category, Threshold, Variable  # noqa: E402

floats = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(floats, st.sampled_from([0.0, -0.5, 1.0, 2.5e-300])), min_size=1, max_size=40),
       st.one_of(st.floats(0, 100), st.sampled_from([0.0, 33.0, 40.0, 50.0, 60.0, 66.0, 90.0, 100.0])))
@example([1.0, 2.0, 3.0, 4.0], 40.0)
def test_order_statistics_and_lerp_equal_numpy(values, q):
    x = np.sort(np.asarray(values, dtype=float))
    lower, upper, gamma = order_statistics(np.array([x.size]), q)
    got = lerp(x[lower], x[upper], gamma)[0]
    assert got == np.percentile(x, q) or (got == 0 and np.percentile(x, q) == 0)  # bit-identical (up to the sign of 0)


def test_hand_example():
    # np.percentile([1, 2, 3, 4], 40): virtual index 3 * 0.4 = 1.2 -> 2 + 0.2 * (3 - 2) = 2.2
    lower, upper, gamma = order_statistics(np.array([4, 1]), 40)
    assert lower.tolist() == [1, 0] and upper.tolist() == [2, 0] and gamma[0] == pytest.approx(0.2)
    assert lerp(np.array([2.0]), np.array([3.0]), gamma[:1])[0] == pytest.approx(2.2)


def _frame(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for task, n_models in (("t'; DROP TABLE x; --", 3), ("plain", 2), ("nothing-correct", 2)):
        for m in range(n_models):
            for q in range(4):
                for trial in range(3):
                    rows.append({"model": f"m{m}", "task": task, "question": f"q{q}", "trial": trial,
                                 "correct": 0 if task == "nothing-correct" else int(rng.integers(0, 2)),
                                 "x": float(rng.choice([np.nan, np.inf, -np.inf, *rng.normal(0, 1, 6).round(2)])),
                                 "fr": str(rng.choice(["stop", "length"]))})
    return pd.DataFrame(rows)


# t1 over correct attempts only (undefined where nothing is correct); t2's filter uses t1 and a variable; t3 absolute
SCHEMA = Schema(
    "Pct",
    [Category("high", "is_correct >= 1 and x >= t2", 1.0), Category("mid", "ok and x >= t1", 0.5),
     Category("low", 'fr == "stop" or x < t3', 0.0)],
    [Variable("ok", "is_correct >= 1 or x > t3")],
    [Threshold("t1", percentile=40, of="x", where="is_correct >= 1"),
     Threshold("t2", percentile=66.6, of="x", where="x > t1 and ok"),
     Threshold("t3", value=-0.5)],
)


def _pandas(ds, schema, task, frozen=None):
    rows = ds.attempts[ds.attempts["task"] == task]
    return rows, categorize(rows, schema, frozen)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_per_task_thresholds_and_counts_equal_pandas(tmp_path, fmt):
    frame = _frame(0)
    path = tmp_path / f"d.{fmt}"
    frame.to_csv(path, index=False) if fmt == "csv" else frame.to_parquet(path, index=False)
    res = load_category_counts(str(path), SCHEMA, hash_files=False)
    ds = io.load([path])
    for task in frame["task"].unique():
        rows, want = _pandas(ds, SCHEMA, task)
        assert res.task_thresholds[task] == pytest.approx(dict(want.thresholds), abs=0, rel=0, nan_ok=True)
        cells = res.cells[res.cells["task"] == task]
        codes = pd.DataFrame({"model": rows["model"].astype(str).to_numpy(),
                              "question_id": rows["question_id"].astype(str).to_numpy(), "code": want.codes})
        for (m, q), g in codes.groupby(["model", "question_id"]):
            cell = cells[(cells.model == m) & (cells.question_id == q)].iloc[0]
            assert [cell[f"c{c}"] for c in range(3)] + [cell["unmatched"]] == \
                [(g.code == c).sum() for c in range(3)] + [(g.code < 0).sum()]
        _, notes, _ = sql_task_outcomes(res, task)
        _, pandas_notes = categorization_for(ds, SCHEMA, task)
        assert [f"{task}: {n}" for n in notes] == pandas_notes
    assert np.isnan(res.task_thresholds["nothing-correct"]["t1"])  # the filter left no value
    assert res.thresholds == {"t3": -0.5}


def test_one_task_counts_only_that_task_with_the_same_values(tmp_path):
    """``task=``: the percentiles and categories of that task alone (filtered in SQL) equal the all-task run's; the
    count dataset and its report still cover every task, as the pandas path's do."""
    frame = _frame(2)
    path = tmp_path / "d.parquet"
    frame.to_parquet(path, index=False)
    every = load_category_counts(str(path), SCHEMA, hash_files=False)
    for task in frame["task"].unique():
        one = load_category_counts(str(path), SCHEMA, task=task, hash_files=False)
        assert set(one.cells["task"]) == {task}
        want = every.cells[every.cells["task"] == task].reset_index(drop=True)
        pd.testing.assert_frame_equal(one.cells, want)
        assert list(one.task_thresholds) == [task]
        assert one.task_thresholds[task] == pytest.approx(every.task_thresholds[task], abs=0, rel=0, nan_ok=True)
        assert sql_task_outcomes(one, task)[1] == sql_task_outcomes(every, task)[1]  # notes (coverage)
        pd.testing.assert_frame_equal(one.dataset.counts, every.dataset.counts)
    assert len(load_category_counts(str(path), SCHEMA, task="absent", hash_files=False).cells) == 0


def test_frozen_and_builtin_percentile_schema(tmp_path):
    from scorio_core.rubric.builtins import BUILTIN_SCHEMAS

    frame = _frame(1).rename(columns={"x": "completion_logprob_mean"})
    path = tmp_path / "d.parquet"
    frame.to_parquet(path, index=False)
    ds = io.load([path])
    schema = BUILTIN_SCHEMAS["Confident & Correct"]
    res = load_category_counts(str(path), schema, hash_files=False)
    frozen = load_category_counts(str(path), schema, thresholds={"c1_median": 0.25}, hash_files=False)
    for task in frame["task"].unique():
        _, want = _pandas(ds, schema, task)
        assert res.task_thresholds[task] == dict(want.thresholds)
        _, want_frozen = _pandas(ds, schema, task, {"c1_median": 0.25})
        sql = frozen.cells[frozen.cells["task"] == task]
        assert [int(sql[f"c{c}"].sum()) for c in range(len(schema.labels))] == \
            [int((want_frozen.codes == c).sum()) for c in range(len(schema.labels))]
    assert frozen.task_thresholds == {} and frozen.thresholds == {"c1_median": 0.25}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([-1.0, 0.0, 0.5, 2.0, 3.0]), min_size=1, max_size=30), st.data())
def test_around_candidate_equals_sorted_values(values, data):
    # any candidate value and rank: known exactly within one rank of the candidate's run of ties, and then right
    x = np.sort(np.asarray(values))
    v = data.draw(st.sampled_from(list(x)))
    rank = data.draw(st.integers(0, x.size - 1))
    below, equal = int((x < v).sum()), int((x == v).sum())
    prev = x[x < v].max() if below else np.nan
    nxt = x[x > v].min() if below + equal < x.size else np.nan
    got, known = around_candidate(np.array([rank]), np.array([v]), np.array([below]), np.array([equal]),
                                  np.array([prev]), np.array([nxt]))
    assert bool(known[0]) == (below - 1 <= rank <= below + equal)
    if known[0]:
        assert got[0] == x[rank]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b"]), st.one_of(floats, st.sampled_from([0.0, 1.0, np.nan, np.inf]))),
                min_size=1, max_size=60),
       st.one_of(st.floats(0, 100), st.sampled_from([0.0, 33.0, 50.0, 66.6, 100.0])),
       st.sampled_from([None, "quantile_disc(__x, 0.0 * ?)", "quantile_disc(__x, 1.0 - 0.0 * ?)"]))
def test_sql_percentile_equals_numpy_per_task(rows, q, candidate):
    # the SQL pass itself (DuckDB's quantile_disc as candidate + a counting pass; with a candidate far from the ranks,
    # the fallback: ranks from (n - 1) * (q / 100) in DuckDB, values from the sorted list) on many n and q
    import duckdb

    from scorio_core.engines.rubric.percentiles import percentile_thresholds

    con = duckdb.connect()
    default = rubric_percentiles._CANDIDATE
    rubric_percentiles._CANDIDATE = candidate or default
    try:
        con.execute("CREATE TABLE t (task VARCHAR, x DOUBLE, o DOUBLE)")
        con.executemany("INSERT INTO t VALUES (?, ?, 1)", [[t, x] for t, x in rows])
        canon = "SELECT task, CASE WHEN isnan(x) THEN NULL ELSE x END AS x, o FROM t"
        schema = Schema("Q", [Category("a", "x >= p", 1)], (), [Threshold("p", percentile=q, of="x")])
        got = percentile_thresholds(con, canon, [], schema, {"x": "x", "is_correct": "o"}, lambda n: "number", {})
    finally:
        rubric_percentiles._CANDIDATE = default
        con.close()
    for task in {t for t, _ in rows}:
        x = np.array([v for t, v in rows if t == task], dtype=float)
        x = x[np.isfinite(x)]
        want = np.percentile(x, q) if x.size else np.nan
        value = got.values[task]["p"]
        assert (np.isnan(value) and np.isnan(want)) or value == want, (task, value, want)
        assert got.n_values[task]["p"] == x.size
