"""DuckDB counts engine: identical count tables to the pandas loader, safe SQL, one-line errors."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("duckdb")

from scorio_core import io  # noqa: E402
from scorio_core.errors import InputError  # noqa: E402
from scorio_core.engines import EngineUnsupported, NotReadyError, auto_engine, load_counts, quote_ident  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
KEY = ["model", "task", "question_id"]
BUNDLED = sorted(p for p in (ROOT / "data").iterdir() if p.name.endswith((".csv", ".csv.gz")))
FIXTURES = [ROOT / "tests" / "fixtures" / "rubric" / "attempts_small.csv"]


def _norm(counts: pd.DataFrame) -> pd.DataFrame:
    out = counts[KEY + ["n_trials", "n_correct"]].astype({k: str for k in KEY})
    return out.sort_values(KEY).reset_index(drop=True).astype({"n_trials": "int64", "n_correct": "int64"})


def _pandas_counts(paths) -> pd.DataFrame:
    return _norm(io.load(paths).to_counts())


@pytest.mark.parametrize("path", BUNDLED + FIXTURES, ids=lambda p: p.name)
def test_bundled_datasets_identical_counts(path):
    ds = io.load(path)
    if not ds.ready:  # e.g. livebench has duplicate keys: the engine must refuse with the same message
        with pytest.raises(NotReadyError) as info:
            load_counts(str(path))
        assert info.value.blocking == ds.report.blocking
        return
    got = load_counts(str(path))
    pd.testing.assert_frame_equal(_norm(got.counts), _norm(ds.to_counts()))
    assert got.layout == "counts" and got.ready
    assert got.report.n_models == ds.report.n_models and got.report.n_questions == ds.report.n_questions
    assert got.report.n_all_correct == ds.report.n_all_correct and got.report.missing_cells == ds.report.missing_cells
    assert list(got.counts["model"].cat.categories) == sorted(set(got.counts["model"].astype(str)), key=io._canonical.natural_key)
    assert got.sources[0].rows == len(ds.table) and got.sources[0].sha256 == ds.sources[0].sha256


def _long(n_models=3, n_q=4, n_trials=3, seed=0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    m, q, t = np.meshgrid(np.arange(n_models), np.arange(n_q), np.arange(n_trials), indexing="ij")
    return pd.DataFrame({"model": [f"m{i}" for i in m.ravel()], "task": "t", "question_id": [f"q{i}" for i in q.ravel()],
                         "trial": t.ravel(), "is_correct": rng.integers(0, 2, m.size)})


def test_glob_directory_and_formats(tmp_path):
    frame = _long()
    runs = tmp_path / "runs" / "a"
    runs.mkdir(parents=True)
    parts = [frame[frame.model == m] for m in ("m0", "m1", "m2")]
    parts[0].to_parquet(runs / "p0.parquet")
    (tmp_path / "runs" / "p1.parquet").write_bytes(b"")  # replaced below
    parts[1].to_parquet(tmp_path / "runs" / "p1.parquet")
    parts[2].to_parquet(runs / "p2.parquet")
    want = _pandas_counts([runs / "p0.parquet", tmp_path / "runs" / "p1.parquet", runs / "p2.parquet"])
    pd.testing.assert_frame_equal(_norm(load_counts(str(tmp_path / "runs" / "**" / "*.parquet")).counts), want)
    pd.testing.assert_frame_equal(_norm(load_counts(tmp_path / "runs").counts), want)
    # gzip CSV and JSONL give the same counts
    with gzip.open(tmp_path / "all.csv.gz", "wt") as fh:
        frame.to_csv(fh, index=False)
    (tmp_path / "all.jsonl").write_text("\n".join(json.dumps(r) for r in frame.to_dict("records")))
    frame.to_csv(tmp_path / "all.tsv", sep="\t", index=False)
    for name in ("all.csv.gz", "all.jsonl", "all.tsv"):
        ds = load_counts(tmp_path / name)
        pd.testing.assert_frame_equal(_norm(ds.counts), want)
        assert ds.sources[0].rows == len(frame)


def test_glob_matching_nothing(tmp_path):
    with pytest.raises(InputError, match="matches no file"):
        load_counts(str(tmp_path / "nothing" / "*.parquet"))


def test_task_from_file_stem_and_booleans(tmp_path):
    (tmp_path / "aime.csv").write_text("model,problem,seed,passed\nm1,1,7,true\nm1,1,9,False\nm2,1,7,1\n")
    got = load_counts(tmp_path / "aime.csv")
    pd.testing.assert_frame_equal(_norm(got.counts), _pandas_counts(tmp_path / "aime.csv"))
    assert got.report.defaults == io.load(tmp_path / "aime.csv").report.defaults


@pytest.mark.parametrize(("body", "field"), [
    ("model,question,trial,correct\nm1,q1,0,1\nm1,q1,1,yes\n", "is_correct"),
    ("model,question,trial,correct\nm1,q1,0,1\nm1,q1,1,2\n", "is_correct"),
    ("model,question,trial,correct\nm1,q1,0.5,1\nm1,q1,1,0\n", "trial"),
    ("model,question,trial,correct\nm1,,0,1\nm1,q1,1,0\n", "question_id"),
])
def test_bad_values_name_file_and_field(tmp_path, body, field):
    path = tmp_path / "bad.csv"
    path.write_text(body)
    with pytest.raises(InputError) as info:
        load_counts(path)
    assert info.value.field == field and "bad.csv" in str(info.value), str(info.value)
    with pytest.raises(InputError):
        io.load(path)  # the pandas path refuses the same file


def test_unknown_mapping_column_and_missing_outcome(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("model,question,trial,correct\nm1,q1,0,1\n")
    with pytest.raises(InputError, match="not in the file") as info:
        load_counts(path, mapping={"is_correct": 'nope"; DROP TABLE x; --'})
    assert info.value.field == "is_correct"
    (tmp_path / "y.csv").write_text("model,question,trial\nm1,q1,0\n")
    with pytest.raises(InputError, match="is_correct"):
        load_counts(tmp_path / "y.csv")


def test_not_ready_data_is_refused_not_dropped(tmp_path):
    (tmp_path / "dup.csv").write_text("model,question,trial,correct\nm1,q1,0,1\nm1,q1,0,0\nm1,q1,1,1\n")
    (tmp_path / "soft.csv").write_text("model,question,trial,score\nm1,q1,0,0.5\nm1,q1,1,1\n")
    (tmp_path / "gap.csv").write_text("model,question,trial,correct\nm1,q1,0,1\nm1,q1,1,\n")
    # a cell with no outcome at all (count_if gives NULL there, not 0)
    (tmp_path / "void.csv").write_text("model,question,trial,correct\nm1,q1,0,\nm1,q1,1,\nm1,q2,0,1\nm1,q2,1,0\n")
    for name in ("dup.csv", "soft.csv", "gap.csv", "void.csv"):
        with pytest.raises(NotReadyError) as info:
            load_counts(tmp_path / name)
        assert info.value.blocking == io.load(tmp_path / name).report.blocking
    # the error a person reads names one repeated key and its files, as the pandas loader's does
    with pytest.raises(NotReadyError) as info:
        load_counts(tmp_path / "dup.csv")
    with pytest.raises(InputError) as pandas_error:
        io.load(tmp_path / "dup.csv").require_ready()
    assert str(info.value).startswith(str(pandas_error.value).split("; choose ")[0]), (info.value, pandas_error.value)
    assert "e.g. m1 / dup / q1 / trial 0: 2 rows from dup.csv" in str(info.value)


@pytest.mark.parametrize("later", ["dup", "clean"])
def test_trials_outside_the_sampled_range_still_find_duplicates(tmp_path, monkeypatch, later):
    """The bitmaps' trial range comes from the first rows; trials outside it fall back to a GROUP BY (same verdict)."""
    from scorio_core.engines import duckdb_count

    monkeypatch.setattr(duckdb_count, "_SAMPLE", 2)  # the range of the first two rows: trials 0..1
    rows = ["model,question,trial,correct", "m1,q1,0,1", "m1,q1,1,0", "m1,q2,0,1", "m1,q2,1,1",
            "m1,q1,700,1", "m1,q1,700,0" if later == "dup" else "m1,q1,701,0"]
    path = tmp_path / f"{later}.csv"
    path.write_text("\n".join(rows) + "\n")
    if later == "dup":
        with pytest.raises(NotReadyError, match="duplicate") as info:
            load_counts(path)
        assert info.value.blocking == io.load(path).report.blocking
    else:
        pd.testing.assert_frame_equal(_norm(load_counts(path).counts), _pandas_counts(path))
        assert load_counts(path).counts["n_trials"].tolist() == [4, 2]


def test_count_tables_and_their_duplicates(tmp_path):
    (tmp_path / "c.csv").write_text("model,question_id,n,c\nm1,1,4,2\nm2,1,4,4\nm1,2,3,0\n")
    pd.testing.assert_frame_equal(_norm(load_counts(tmp_path / "c.csv").counts), _norm(io.load(tmp_path / "c.csv").counts))
    (tmp_path / "d.csv").write_text("model,question_id,n,c\nm2,1,4,1\nm2,1,4,1\nm1,1,4,2\nm1,1,4,4\n")
    with pytest.raises(NotReadyError, match="duplicate") as info:
        load_counts(tmp_path / "d.csv")
    assert info.value.blocking == io.load(tmp_path / "d.csv").report.blocking
    # 2 extra rows, m1's conflicting key named first (m2's rows agree)
    assert str(info.value).startswith("d.csv: 2 duplicate rows share a (model, task, question) key with an earlier row (1 key conflicts; e.g. "
                                      "m1 / d / 1: 2 rows from d.csv)"), info.value
    (tmp_path / "e.csv").write_text("model,question_id,n,c\nm1,1,4,5\n")
    with pytest.raises(InputError, match="n_correct") as info:
        load_counts(tmp_path / "e.csv")
    assert "e.csv" in str(info.value)


def test_sql_metacharacters_in_names(tmp_path):
    odd = "we'ird \"dir\"; DROP TABLE t; --"
    folder = tmp_path / odd
    folder.mkdir()
    frame = pd.DataFrame({'mo"del\'; --': ["a", "a", "b"], "question": ["q1", "q1", "q1"], "tri al)": [0, 1, 0],
                          "ok?": [1, 0, 1]})
    path = folder / "x'; SELECT 1; --.csv"
    frame.to_csv(path, index=False)
    mapping = {"model": 'mo"del\'; --', "trial": "tri al)", "is_correct": "ok?"}
    got = load_counts(path, mapping=mapping)
    pd.testing.assert_frame_equal(_norm(got.counts), _norm(io.load(path, mapping=mapping).to_counts()))
    assert got.counts["task"].iat[0] == "x'; SELECT 1; --"
    assert quote_ident('a"b') == '"a""b"'


def test_unsupported_inputs_say_so(tmp_path):
    (tmp_path / "w.csv").write_text("model,question,trial_0,trial_1\nm1,q1,1,0\n")
    with pytest.raises(EngineUnsupported, match="wide"):
        load_counts(tmp_path / "w.csv")
    (tmp_path / "r.json").write_text("[]")
    with pytest.raises(EngineUnsupported):
        load_counts(tmp_path / "r.json")


def test_auto_engine_choice(tmp_path):
    (tmp_path / "a.csv").write_text("model,question,trial,correct\nm1,q1,0,1\n")
    assert auto_engine([str(tmp_path / "a.csv")]) == "pandas"
    assert auto_engine([str(tmp_path / "a.csv")], threshold=1) == "duckdb"
    assert auto_engine([str(tmp_path / "*.csv")]) == "duckdb"
    lm = ROOT / "tests" / "fixtures" / "formats" / "lm_eval_harness"
    assert auto_engine([str(p) for p in lm.iterdir()], threshold=1) == "pandas"


def test_auto_engine_sizes_parquet_by_rows(tmp_path):
    body = "model,question,trial,correct\n" + "".join(f"m{i % 3},q{i},0,{i % 2}\n" for i in range(2000))
    gz = tmp_path / "a.csv.gz"
    gz.write_bytes(gzip.compress(body.encode()))
    assert auto_engine([str(gz)], threshold=gz.stat().st_size + 1) == "pandas"  # gzip: the bytes on disk (bombs)
    pq = tmp_path / "a.parquet"
    pd.read_csv(gz).to_parquet(pq)
    assert auto_engine([str(pq)], rows=2000) == "duckdb"
    assert auto_engine([str(pq)], rows=2001) == "pandas"
    assert auto_engine([str(pq), str(tmp_path / "a.csv.gz")], rows=2000) == "duckdb"
    (tmp_path / "broken.parquet").write_bytes(b"not parquet")
    assert auto_engine([str(tmp_path / "broken.parquet")], rows=1) == "pandas"  # the loader reports it


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3), st.integers(0, 4), st.integers(0, 1)), min_size=1,
                max_size=40, unique_by=lambda r: r[:3]))
def test_property_random_long_tables(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("h") / "r.csv"
    frame = pd.DataFrame(rows, columns=["model", "question_id", "trial", "is_correct"])
    frame["model"] = "m" + frame["model"].astype(str)
    frame.to_csv(path, index=False)
    pd.testing.assert_frame_equal(_norm(load_counts(path, hash_files=False).counts), _pandas_counts(path))


def test_count_table_categories_and_rows_in_the_pandas_order(tmp_path):
    # natural order (q2 < q10, m9 < m10) differs from text order and from the file's order; quotes and SQL text
    # in identifiers travel through the dictionary tables as data
    rng = np.random.default_rng(5)
    models = ["m10", "m9", "it's \"x\"; DROP TABLE t; --", "Ünï"]
    questions = [f"q{i}" for i in (10, 2, 1, 33, 3)]
    rows = [(m, t, q, 4, int(rng.integers(0, 5))) for m in models for t in ("b", "a10", "a9") for q in questions]
    frame = pd.DataFrame(rows, columns=["model", "task", "question_id", "n_trials", "n_correct"])
    frame = frame.sample(frac=1.0, random_state=1)
    frame.to_csv(tmp_path / "c.csv", index=False)
    frame.to_parquet(tmp_path / "c.parquet", index=False)
    for name in ("c.csv", "c.parquet"):
        got, want = load_counts(tmp_path / name).counts, io.load(tmp_path / name).counts
        assert got.index.equals(pd.RangeIndex(len(got)))  # rows sorted by the categories' order (the pandas loader
        want = want.sort_values(["model", "task", "question_id"]).reset_index(drop=True)  # keeps the file's order)
        pd.testing.assert_frame_equal(got, want)
        assert list(got["question_id"].cat.categories) == ["q1", "q2", "q3", "q10", "q33"]


@pytest.mark.parametrize("n_trials", [40, 64, 65, 100, 128, 129, 300])
@pytest.mark.parametrize("dup_trial", [None, 0, "last"])
def test_duplicate_trials_found_by_every_bitmap_width(tmp_path, n_trials, dup_trial):
    """One UBIGINT word (<= 64 trial values), two words (<= 128) and the bitstring (<= 1024) find the same duplicates."""
    rows = ["model,question,trial,correct"] + [f"m1,q{q},{t},{(q + t) % 2}" for q in range(3) for t in range(n_trials)]
    if dup_trial is not None:
        t = n_trials - 1 if dup_trial == "last" else dup_trial
        rows.append(f"m1,q1,{t},1")
    path = tmp_path / "d.csv"
    path.write_text("\n".join(rows) + "\n")
    if dup_trial is None:
        assert load_counts(str(path)).counts["n_trials"].tolist() == [n_trials] * 3
    else:
        with pytest.raises(NotReadyError, match="duplicate"):
            load_counts(str(path))
