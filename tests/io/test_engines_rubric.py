"""Rubric categories in DuckDB SQL (rubric_sql) equal the pandas rubric engine: codes, counts, leaderboard."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("duckdb")
from hypothesis import given, settings, strategies as st  # noqa: E402

from scorio_core import io  # noqa: E402
from scorio_core.leaderboard.table import categorization_for, leaderboard, outcomes_for  # noqa: E402
from scorio_core.engines import EngineUnsupported  # noqa: E402
from scorio_core.engines.rubric.counts import load_category_counts  # noqa: E402
from scorio_core.engines.rubric.outcomes import sql_task_outcomes  # noqa: E402
from scorio_core.rubric import Schema  # noqa: E402
from scorio_core.rubric.schema import Category, Threshold, Variable  # noqa: E402


def _frame(seed: int, xcol: str = "x") -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = 60
    x = rng.uniform(0, 3, n).round(3)
    x[rng.random(n) < 0.2] = np.nan
    return pd.DataFrame({"model": np.repeat(["mb", "ma", "mc"], 20), "task": "t",
                         "question": [f"q{i % 5}" for i in range(n)], "trial": np.tile(np.repeat(np.arange(4), 5), 3),
                         "correct": rng.integers(0, 2, n), xcol: x,
                         "fr": rng.choice(["stop", "length", "it's \"q\""], n)})


def _write(frame, tmp_path, fmt):
    path = tmp_path / f"d.{fmt}"
    frame.to_csv(path, index=False) if fmt == "csv" else frame.to_parquet(path, index=False)
    return path


SCHEMA = Schema("S", [Category("a", 'hi and fr == "stop"', 0), Category("b", "is_correct >= 0.5 or not hi", 1),
                      Category("c", "fr != 'length'", 2)], [Variable("hi", "x >= tau")], [Threshold("tau", value=1.0)])


def _compare(path, schema):
    res = load_category_counts(str(path), schema, hash_files=False)
    ds = io.load([path])
    cat, _ = categorization_for(ds, schema, "t")
    rows = ds.attempts
    frame = pd.DataFrame({"model": rows["model"].astype(str), "question_id": rows["question_id"].astype(str),
                          "code": cat.codes})
    for (m, q), g in frame.groupby(["model", "question_id"]):
        cell = res.cells[(res.cells.model == m) & (res.cells.question_id == q)].iloc[0]
        assert cell["unmatched"] == (g.code < 0).sum()
        for c in range(len(schema.labels)):
            assert cell[f"c{c}"] == (g.code == c).sum()
    outcomes, _, _ = sql_task_outcomes(res, "t")
    want = leaderboard(outcomes_for(ds, "t", cat))
    got = leaderboard(outcomes)
    np.testing.assert_allclose(got["mu"], want["mu"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got["sigma"], want["sigma"], rtol=0, atol=1e-12)
    assert got["model"].tolist() == want["model"].tolist() and got["rank"].tolist() == want["rank"].tolist()


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_hand_written_schema_equals_pandas(tmp_path, fmt):
    _compare(_write(_frame(0), tmp_path, fmt), SCHEMA)


@pytest.mark.parametrize("name", ["Binary correctness", "Format Compliance & Correctness"])
def test_builtin_schemas_without_derived_signals(tmp_path, name):
    from scorio_core.rubric.builtins import BUILTIN_SCHEMAS

    frame = _frame(1)
    frame["has_box"] = np.random.default_rng(1).integers(0, 2, len(frame))
    _compare(_write(frame, tmp_path, "parquet"), BUILTIN_SCHEMAS[name])


def test_refuses_unknown_name(tmp_path):
    path = _write(_frame(2), tmp_path, "csv")
    bad = SCHEMA.replace(categories=(Category("a", "nope > 1", 0),))
    with pytest.raises(EngineUnsupported, match="nope"):
        load_category_counts(str(path), bad, hash_files=False)


def test_percentile_threshold_equals_pandas(tmp_path):  # per-task values: tests/io/test_engines_rubric_percentiles.py
    _compare(_write(_frame(2), tmp_path, "csv"), SCHEMA.replace(thresholds=(Threshold("tau", percentile=50, of="x"),)))


def test_refuses_derived_signal(tmp_path):
    # the pandas engine derives completion_logprob_sum from a mean log-prob it derived from bpt first: DuckDB computes
    # derived signals from data columns only
    frame = _frame(3).assign(completion_bpt=0.5, completion_tokens=30)
    path = _write(frame, tmp_path, "parquet")
    with pytest.raises(EngineUnsupported, match=r"derived signals \(completion_logprob_sum\)"):
        load_category_counts(str(path), SCHEMA.replace(categories=(Category("a", "completion_logprob_sum >= -10", 0),)),
                             hash_files=False)
    # two sources (the mean log-prob, then bpt where it is missing): computed, as pandas
    lp = np.linspace(-2, 0, 60)
    lp[::4] = np.nan
    two = path.with_name("two.parquet")
    frame.assign(completion_logprob_mean=lp, completion_bpt=np.linspace(0.1, 3, 60)).to_parquet(two, index=False)
    _compare(two, SCHEMA.replace(categories=(Category("a", "completion_ppl >= 2", 0), Category("b", "completion_ppl < 2", 1))))
    # one source, under the reference package's name (both loaders map completion_avg_logprob): computed, as pandas
    aliased = path.with_name("a.parquet")
    _frame(3).assign(completion_avg_logprob=np.linspace(-2, 0, 60)).to_parquet(aliased, index=False)
    _compare(aliased, SCHEMA.replace(categories=(Category("a", "completion_ppl >= 2", 0), Category("b", "completion_ppl < 2", 1))))


# one-source derivations of the log-prob family: (signal, source column); exp/exp2/log/log2 are numpy's own (UDFs)
_FAMILY = [("completion_ppl", "completion_logprob_mean"), ("completion_bpt", "completion_logprob_mean"),
           ("prompt_ppl", "prompt_bpt"), ("prompt_logprob_mean", "prompt_bpt"), ("completion_bpt", "completion_ppl"),
           ("completion_logprob_mean", "completion_ppl")]
_VALUES = st.one_of(st.floats(allow_nan=True, allow_infinity=True, width=64),
                    st.sampled_from([0.0, -0.0, 1e-320, -1e-320, 709.78, -709.78, 745.2, -1075.0, 1024.0, 5e-324]))


_EDGES = [0.0, -0.0, 1e-320, -1e-320, 709.78, -709.78, 745.2, -1075.0, 1024.0, 5e-324, 1.0, 2.0, -1.0, np.nan, np.inf,
          -np.inf, 1e308, -1e308, 0.6931471805599453]


def test_sql_family_translates_every_pandas_formula():
    # a formula added to the pandas engine without its SQL translation (or a test pair) would go untested
    from scorio_core.engines.rubric.derived import _FAMILY_SQL, family_pair
    from scorio_core.rubric.signals import _LOGPROB_FORMULAS

    pandas_pairs = {(target, source) for target, sources in _LOGPROB_FORMULAS.items() for source in sources}
    assert set(_FAMILY_SQL) == pandas_pairs
    assert {family_pair(name, source) for name, source in _FAMILY} == pandas_pairs


@pytest.mark.parametrize("pair", _FAMILY)
def test_logprob_family_edge_values_bit_identical_to_pandas(pair):
    # zero, negative and subnormal perplexities, overflowing exponentials, non-finite sources, and 10^4 ordinary values
    values = _EDGES + list(np.random.default_rng(7).normal(0, 3, 10_000))
    test_property_logprob_family_values_bit_identical_to_pandas.hypothesis.inner_test(pair=pair, values=values)


@settings(max_examples=25, deadline=None)
@given(pair=st.sampled_from(_FAMILY), values=st.lists(_VALUES, min_size=1, max_size=40))
def test_property_logprob_family_values_bit_identical_to_pandas(pair, values):
    import duckdb

    from scorio_core.engines.rubric.binding import sql_derivations
    from scorio_core.engines.rubric.derived import derived_expr, numpy_functions, register_numpy_functions
    from scorio_core.rubric.signals import derive_signals

    name, source = pair
    assert sql_derivations({source: "number"}).get(name) == source
    x = np.array(values, dtype=np.float64)
    derived = derive_signals(pd.DataFrame({source: x}))[0]
    want = derived[name].to_numpy() if name in derived else np.full(len(x), np.nan)  # no value filled: no column
    con = duckdb.connect()
    try:
        register_numpy_functions(con, numpy_functions({name: source}))
        con.register("v", pd.DataFrame({"i": np.arange(len(x)), "x": x}))
        got = con.execute(f"SELECT {derived_expr(name, source, 'x')} AS y FROM v ORDER BY i").fetchnumpy()["y"]
    finally:
        con.close()
    got = np.ma.filled(np.ma.asarray(got).astype(np.float64), np.nan)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~np.isnan(got)].view(np.int64), want[~np.isnan(want)].view(np.int64))


def test_logprob_sum_is_one_multiplication_as_pandas(tmp_path):
    from scorio_core.engines.rubric.binding import sql_derivations

    frame = _frame(4).assign(prompt_logprob_mean=np.random.default_rng(4).normal(-1, 1, 60) / 3, prompt_tokens=np.arange(60) * 7)
    frame.loc[::5, "prompt_logprob_mean"] = np.nan
    kinds = {"prompt_logprob_mean": "number", "prompt_tokens": "number"}
    assert sql_derivations(kinds)["prompt_logprob_sum"] == "prompt_logprob_mean"
    assert "prompt_logprob_sum" not in sql_derivations({**kinds, "prompt_sum_logprob": "number"})  # pandas copies the alias
    _compare(_write(frame, tmp_path, "parquet"), SCHEMA.replace(
        variables=(Variable("hi", "prompt_logprob_sum >= tau"),), thresholds=(Threshold("tau", percentile=40, of="prompt_logprob_sum"),)))


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_repeated_pattern_codes_equal_pandas(tmp_path, fmt):
    # finish_reason 'stop', 'length' and a quoted text: repeated_pattern computed in SQL, codes per cell as pandas
    frame = _frame(3).rename(columns={"fr": "finish_reason"})
    frame.loc[::7, "finish_reason"] = " Stop\t"
    schema = SCHEMA.replace(categories=(Category("a", "repeated_pattern >= 1 and hi", 0), Category("b", "repeated_pattern < 1", 1)))
    _compare(_write(frame, tmp_path, fmt), schema)


# finish_reason values around the stop words: Unicode whitespace Python's strip() removes, case, near misses, quotes
_REASONS = st.one_of(st.sampled_from(["stop", "STOP", "End_Turn", "eos ", "\u3000stop\u2029", "\x1cstop\x85", "\u200bstop",
                                      "st\u00f6p", "stop.", "'; DROP TABLE t; --", "length", ""]),
                     st.builds(lambda a, w, b: a + w + b, st.sampled_from(["", " ", "\t", "\xa0", "\u2003", "\ufeff"]),
                               st.sampled_from(["stop", "Stop_Sequence", "endoftext", "eos"]),
                               st.sampled_from(["", "\n", "\u3000", "\x0b", "\u180e"])))


@settings(max_examples=10, deadline=None)
@given(reasons=st.lists(_REASONS, min_size=1, max_size=12), seed=st.integers(0, 3))
def test_property_repeated_pattern_equals_pandas(tmp_path_factory, reasons, seed):
    frame = _frame(seed).rename(columns={"fr": "finish_reason"})
    frame["finish_reason"] = [reasons[i % len(reasons)] for i in range(len(frame))]
    frame.loc[::9, "finish_reason"] = None
    schema = SCHEMA.replace(categories=(Category("a", "repeated_pattern >= 1", 0), Category("b", "repeated_pattern < 1", 1)))
    _compare(_write(frame, tmp_path_factory.mktemp("r"), "parquet"), schema)


def test_injection_column_and_constant(tmp_path):
    col = 'x"; DROP TABLE t; --'
    frame = _frame(4, xcol=col)
    path = _write(frame, tmp_path, "parquet")
    schema = Schema("I", [Category("a", f"`{col}` >= 1 and fr == 'x\"; DROP'", 1),
                          Category("b", "fr != \"x'); DROP TABLE t; --\"", 0)])
    _compare(path, schema)


names = st.sampled_from(["x", "y", "1.5", "tau"])


def _cmp(a, op, b):
    return f"{a} {op} {b}"


exprs = st.recursive(
    st.one_of(st.builds(_cmp, names, st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), names),
              st.sampled_from(['fr == "stop"', "fr != 'length'", "true", "false"])),
    lambda inner: st.one_of(st.builds(lambda a, b: f"({a} and {b})", inner, inner),
                            st.builds(lambda a, b: f"({a} or {b})", inner, inner),
                            st.builds(lambda a: f"not ({a})", inner)), max_leaves=6)


@settings(max_examples=40, deadline=None)
@given(e1=exprs, e2=exprs, seed=st.integers(0, 3))
def test_property_random_expressions(tmp_path_factory, e1, e2, seed):
    frame = _frame(seed)
    frame["y"] = np.where(np.arange(len(frame)) % 3 == 0, np.nan, np.arange(len(frame)) / 20.0)
    path = _write(frame, tmp_path_factory.mktemp("p"), "parquet")
    schema = Schema("P", [Category("a", e1, 0), Category("b", e2, 1)], (), [Threshold("tau", value=1.0)])
    res = load_category_counts(str(path), schema, hash_files=False)
    ds = io.load([path])
    cat, _ = categorization_for(ds, schema, "t")
    assert int(res.cells["unmatched"].sum()) == int((cat.codes < 0).sum())
    for c in range(2):
        assert int(res.cells[f"c{c}"].sum()) == int((cat.codes == c).sum())


def test_many_categories_coverage_equals_pandas(tmp_path):
    # 70 categories: the takers of an empty category are codes above 63 (one bitstring per cell, not a 64-bit mask)
    cats = [Category(f"never{i}", f"x >= {100 + i}", 0) for i in range(65)]
    cats += [Category("low", "x < 1", 1), Category("high", "x >= 1", 2), Category("shadowed", "x >= 0", 1),
             Category("also", "x > 0.5", 1), Category("none", "x < 0", 0)]
    schema = Schema("Many", cats)
    path = _write(_frame(5), tmp_path, "parquet")
    res = load_category_counts(str(path), schema, hash_files=False)
    _, notes, _ = sql_task_outcomes(res, "t")
    _, pandas_notes = categorization_for(io.load([path]), schema, "t")
    assert [f"t: {n}" for n in notes] == pandas_notes
    assert res.coverage["t"]["categories"][67][1] == [65, 66]  # 'shadowed': true where low and high took the attempt


@pytest.mark.parametrize("second_format", ["csv", "parquet"])
def test_several_files_counts_and_first_appearance_order(tmp_path, second_format):
    # cells spread over two files (one cell in both; Parquet rows are numbered within their file, CSV rows within their
    # format's scan): the same counts as pandas over the two files, cells in the order they first appear (file by
    # file), rows per file
    frame = _frame(5)
    second = (frame["model"] == "mb") | ((frame["model"] == "ma") & (frame["trial"] >= 2))
    folder = tmp_path / "runs"
    folder.mkdir()
    frame[~second].to_parquet(folder / "a.parquet", index=False)
    b = folder / f"b.{second_format}"
    frame[second].to_csv(b, index=False) if second_format == "csv" else frame[second].to_parquet(b, index=False)
    res = load_category_counts(str(folder), SCHEMA, hash_files=False)
    ds = io.load([folder / "a.parquet", b])
    cat, _ = categorization_for(ds, SCHEMA, "t")
    rows = ds.attempts
    cells = pd.DataFrame({"model": rows["model"].astype(str), "question_id": rows["question_id"].astype(str),
                          "code": cat.codes})
    order = cells[["model", "question_id"]].drop_duplicates()
    assert list(zip(res.cells.model, res.cells.question_id)) == list(zip(order.model, order.question_id))
    for (m, q), g in cells.groupby(["model", "question_id"]):
        cell = res.cells[(res.cells.model == m) & (res.cells.question_id == q)].iloc[0]
        assert cell["n_trials"] == len(g) and cell["unmatched"] == (g.code < 0).sum()
        assert [cell[f"c{c}"] for c in range(len(SCHEMA.labels))] == [(g.code == c).sum() for c in range(len(SCHEMA.labels))]
    assert sorted((i.name, i.rows) for i in res.dataset.sources) == [("a.parquet", int((~second).sum())),
                                                                        (b.name, int(second.sum()))]
