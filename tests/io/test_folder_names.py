"""Model or task named by the file's folder (``--map model=@folder``, ``task=@folder``, ``@folder:N``), under every
engine, and the refusal that points to it when files of one name in several folders would merge (QA 2026-12-04:
``runs/aime/m1.csv`` and ``runs/gpqa/m1.csv`` without model or task columns loaded as one model and task 'm1', and
the duplicates refusal advised ``--duplicates keep-first``, which would have kept one task's rows under both)."""

from __future__ import annotations

import glob

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorio_core import io
from tests.io.conftest import spark_test
from scorio_core.cli import main
from scorio_core.errors import InputError
from scorio_core.io.formats import path_names
from scorio_core.io.formats.path_names import folder_fields, folder_names

MODELS, TASKS = ("m1", "m2"), ("aime", "gpqa")


def _outcomes(model: str, task: str, questions: int = 3, trials: int = 2) -> pd.DataFrame:
    """A file's rows: model m1 answers everything of aime and half of gpqa; m2 the reverse (so a mix-up shows)."""
    good = (model == "m1") == (task == "aime")
    rows = [(f"{task}-q{q}", t, int(good or (q + t) % 2 == 0)) for q in range(questions) for t in range(trials)]
    return pd.DataFrame(rows, columns=["question_id", "trial", "is_correct"])


def _layout(root: Path, by: str, suffix: str = "csv") -> str:
    """``root/<task>/<model>.csv`` (by='task') or ``root/<model>/<task>.csv`` (by='model'); returns the glob."""
    for m in MODELS:
        for t in TASKS:
            folder, stem = (t, m) if by == "task" else (m, t)
            (root / folder).mkdir(parents=True, exist_ok=True)
            frame = _outcomes(m, t)
            if suffix == "csv":
                frame.to_csv(root / folder / f"{stem}.csv", index=False)
            else:
                frame.to_parquet(root / folder / f"{stem}.parquet", index=False)
    return str(root / "**" / f"*.{suffix}")


def _files(root: Path) -> list[str]:
    return sorted(str(p) for p in root.rglob("*") if p.is_file())


def _by_hand() -> pd.DataFrame:
    rows = [(m, t, int(f.shape[0]), int(f["is_correct"].sum())) for m in MODELS for t in TASKS for f in [_outcomes(m, t)]]
    return pd.DataFrame(rows, columns=["model", "task", "n_trials", "n_correct"]).sort_values(["model", "task"]).reset_index(drop=True)


def _per_cell(table: pd.DataFrame) -> pd.DataFrame:
    t = table.astype({"model": str, "task": str})
    value = "is_correct" if "is_correct" in t.columns else "n_correct"
    size = t.groupby(["model", "task"])[value].size() if value == "is_correct" else t.groupby(["model", "task"])["n_trials"].sum()
    return (pd.DataFrame({"n_trials": size, "n_correct": t.groupby(["model", "task"])[value].sum()}).reset_index()
            .astype({"n_trials": int, "n_correct": int}).sort_values(["model", "task"]).reset_index(drop=True))


@pytest.mark.parametrize("by", ["task", "model"])
def test_the_folder_names_the_task_or_the_model(tmp_path, by):
    _layout(tmp_path, by)
    ds = io.load(_files(tmp_path), mapping={by: "@folder"})
    pd.testing.assert_frame_equal(_per_cell(ds.attempts), _by_hand())
    other = "model" if by == "task" else "task"
    assert all(f"no {other} column; {other} set to the file stem" in d for d in ds.report.defaults)
    assert not any(f"no {by} column" in d for d in ds.report.defaults)
    recorded = {dict(s.mapping)[by] for s in ds.sources}  # the provenance says which folder named each file's rows
    assert recorded == {f"<folder: {n}>" for n in (TASKS if by == "task" else MODELS)}
    assert json.loads(ds.report.reading) == {"map": {by: "@folder"}}  # kept for manifests


def test_a_folder_further_up(tmp_path, monkeypatch):
    # lighteval's layout: details/<model>/<date>/details_<task>_<date>.parquet
    for m in MODELS:
        (tmp_path / "details" / m / "2025-01-01").mkdir(parents=True)
        _outcomes(m, "aime").to_parquet(tmp_path / "details" / m / "2025-01-01" / "details_aime.parquet", index=False)
    ds = io.load(_files(tmp_path), mapping={"model": "@folder:2"})
    assert sorted(ds.attempts["model"].astype(str).unique()) == list(MODELS)
    assert set(ds.attempts["task"].astype(str)) == {"details_aime"}
    monkeypatch.setattr(path_names, "MAX_LEVEL", 64)  # the root's level, whatever the temporary folder's depth
    with pytest.raises(InputError, match="only .* folders above it"):
        io.load(_files(tmp_path)[:1], mapping={"model": f"@folder:{len(Path(_files(tmp_path)[0]).parents)}"})


@pytest.mark.parametrize("engine", ["pandas", "duckdb"])
def test_lighteval_details_of_runs_on_different_days_are_one_task_per_task(tmp_path, engine):
    """lighteval writes details/<model>/<date_id>/details_<task>_<date_id>.parquet, each model's run on its own day:
    the task is the name without 'details_' and the time, so both models rank together on each task (was: one task per
    file, each with one model, as 'details_lighteval|gsm8k|5_2025-01-01T12-30-45.123456')."""
    pytest.importorskip("duckdb")
    from scorio_core.engines import load_counts

    for k, (model, date) in enumerate((("org__a", "2025-01-01T12-30-45.123456"), ("org__b", "2025-02-03T08-00-01"))):
        folder = tmp_path / "details" / model / date
        folder.mkdir(parents=True)
        for task in ("lighteval|arc:challenge|0", "lighteval|gsm8k|5"):
            rows = [{"doc": {"id": f"q{q}"}, "metric": {"acc": float((q + k) % 3 == 0)}} for q in range(6)]
            pd.DataFrame(rows).to_parquet(folder / f"details_{task}_{date}.parquet", index=False)
    mapping = {"model": "@folder:2", "question_id": "doc.id", "is_correct": "metric.acc"}
    pattern = str(tmp_path / "details" / "**" / "*.parquet")
    ds = io.load(sorted(glob.glob(pattern, recursive=True)), mapping=mapping) if engine == "pandas" else \
        load_counts(pattern, engine="duckdb", mapping=mapping, hash_files=False)
    assert ds.report.tasks == ("lighteval|arc:challenge|0", "lighteval|gsm8k|5")
    assert ds.report.models == ("org__a", "org__b")
    (note,) = [n for n in ds.report.notes if "lighteval's details" in n]
    assert note.startswith("4 files named as lighteval's details") and "-> 'lighteval|arc:challenge|0'" in note
    counts = ds.to_counts() if engine == "pandas" else ds.counts
    per = counts.astype({"model": str, "task": str}).groupby(["model", "task"])["n_correct"].sum().to_dict()
    assert per[("org__a", "lighteval|gsm8k|5")] == 2 and per[("org__b", "lighteval|gsm8k|5")] == 2  # q0, q3 / q2, q5


@pytest.mark.parametrize("mapping, words", [
    ({"question_id": "@folder"}, "can be the model or the task, not 'question_id'"),
    ({"model": "@folder:0"}, "N from 1 to 8"),
    ({"model": "@folder:9"}, "N from 1 to 8"),
    ({"model": "@folders"}, "N from 1 to 8"),
    ({"model": "@folder", "task": "@folder:1"}, "both after the same folder"),
])
def test_bad_folder_mappings_are_refused_with_the_fix(mapping, words):
    with pytest.raises(InputError, match=words):
        folder_fields(mapping)


def test_an_upload_has_no_folder():
    data = _outcomes("m1", "aime").to_csv(index=False).encode()
    with pytest.raises(InputError, match="an uploaded file has no folder; add a model column"):
        io.load([("m1.csv", data)], mapping={"model": "@folder"})


def test_folder_names_by_hand():
    assert folder_names("/a/b/c/x.csv", {"model": 1, "task": 3}, "x.csv") == {"model": "c", "task": "a"}
    with pytest.raises(InputError, match="only 1 folder above it"):
        folder_names("/a/x.csv", {"task": 2}, "x.csv")


@pytest.mark.parametrize("by", ["task", "model"])
def test_files_of_one_name_in_several_folders_say_how_to_name_them(tmp_path, by):
    _layout(tmp_path, by)  # by task: each task its own question ids, so the rows merge without a clash and a note
    ds = io.load(_files(tmp_path))  # says it; by model: two models' rows on the same questions clash (refused below)
    note = [n for n in ds.report.notes if "same name in different folders" in n]
    assert len(note) == 1 and "--map model=@folder" in note[0] and "--map task=@folder" in note[0]
    assert ds.ready == (by == "task")


def test_the_duplicates_refusal_names_the_folder_fix(tmp_path):
    for m in MODELS:  # the same question ids in both tasks: the merged rows clash
        for t in TASKS:
            (tmp_path / t).mkdir(exist_ok=True)
            _outcomes(m, t).assign(question_id=lambda f: f["question_id"].str[-2:]).to_csv(tmp_path / t / f"{m}.csv", index=False)
    ds = io.load(_files(tmp_path))
    with pytest.raises(InputError) as info:  # the refusal names the fix, not keep-first
        ds.require_ready()
    assert "--map model=@folder" in str(info.value) and "keep-first" not in str(info.value)
    assert "--duplicates would merge them" in str(info.value)


def test_duckdb_refuses_the_merge_with_the_folder_fix_too(tmp_path, capsys):
    pytest.importorskip("duckdb")
    for m in MODELS:  # as above: the same question ids in both tasks, so the merged rows clash
        for t in TASKS:
            (tmp_path / t).mkdir(exist_ok=True)
            _outcomes(m, t).assign(question_id=lambda f: f["question_id"].str[-2:]).to_csv(tmp_path / t / f"{m}.csv", index=False)
    pattern = str(tmp_path / "**" / "*.csv")
    for command in ("leaderboard", "trajectory"):  # the count pass and the prefix pass (QA 2026-12-04: keep-first)
        assert main([command, pattern, "--engine", "duckdb", "--output", "json"]) == 2
        error = json.loads(capsys.readouterr().out)["error"]
        assert "--map task=@folder" in error and "--duplicates would merge them" in error and "keep-first" not in error


def test_no_note_when_the_names_differ_or_a_column_names_the_model(tmp_path):
    for m in MODELS:  # one folder per model, each file its own name: nothing to say
        (tmp_path / m).mkdir()
        _outcomes(m, "aime").assign(model=m).to_csv(tmp_path / m / "aime.csv", index=False)
    ds = io.load(_files(tmp_path))  # the model column names the models; the task is the stem: right as it is
    assert not any("same name in different folders" in n for n in ds.report.notes)
    assert sorted(ds.attempts["model"].astype(str).unique()) == list(MODELS)


@pytest.mark.parametrize("by, suffix", [("task", "csv"), ("model", "parquet")])
def test_duckdb_reads_the_folder_as_pandas_does(tmp_path, capsys, by, suffix):
    pytest.importorskip("duckdb")
    from scorio_core.engines import load_counts

    pattern = _layout(tmp_path, by, suffix)
    want = io.load(_files(tmp_path), mapping={by: "@folder"})
    got = load_counts(pattern, engine="duckdb", mapping={by: "@folder"}, hash_files=False)
    pd.testing.assert_frame_equal(_per_cell(got.counts), _per_cell(want.attempts))
    assert sorted(s.mapping for s in got.sources) == sorted(s.mapping for s in want.sources)
    assert sorted(got.report.defaults) == sorted(want.report.defaults)
    assert main(["leaderboard", pattern, "--map", f"{by}=@folder", "--engine", "duckdb", "--output", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert sorted((r["model"], r["task"]) for r in rows) == sorted((m, t) for m in MODELS for t in TASKS)


def test_duckdb_names_a_file_with_too_few_folders(tmp_path, monkeypatch):
    pytest.importorskip("duckdb")
    from scorio_core.engines import load_counts

    pattern = _layout(tmp_path, "task")
    monkeypatch.setattr(path_names, "MAX_LEVEL", 64)
    depth = len(Path(_files(tmp_path)[0]).parents)
    with pytest.raises(InputError, match="folders above it"):
        load_counts(pattern, engine="duckdb", mapping={"model": f"@folder:{depth}"}, hash_files=False)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(models=st.lists(st.sampled_from(["gpt", "claude", "o3", "llama"]), min_size=1, max_size=3, unique=True),
       trials=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_duckdb_and_pandas_agree_on_random_model_folders(tmp_path_factory, models, trials, seed):
    pytest.importorskip("duckdb")
    from scorio_core.engines import load_counts

    root = tmp_path_factory.mktemp("runs")
    rng = np.random.default_rng(seed)
    for m in models:
        (root / m).mkdir()
        rows = [(f"q{q}", t, int(rng.random() < 0.5)) for q in range(4) for t in range(trials)]
        pd.DataFrame(rows, columns=["question_id", "trial", "is_correct"]).to_csv(root / m / "results.csv", index=False)
    want = io.load(_files(root), mapping={"model": "@folder"})
    got = load_counts(str(root / "*" / "results.csv"), engine="duckdb", mapping={"model": "@folder"}, hash_files=False)
    pd.testing.assert_frame_equal(_per_cell(got.counts), _per_cell(want.attempts))


@spark_test  # the session's Spark (tests/io/conftest.py)
def test_spark_reads_the_folder_as_pandas_does(tmp_path, request):
    # also: files of one name in several folders (Spark's file-name -> stem map refused the repeated name before)
    from scorio_core.engines import load_counts

    spark = request.getfixturevalue("spark")
    pattern = _layout(tmp_path, "task")
    want = io.load(_files(tmp_path), mapping={"task": "@folder"})
    got = load_counts(pattern, engine="spark", spark=spark, mapping={"task": "@folder"}, hash_files=False)
    pd.testing.assert_frame_equal(_per_cell(got.counts), _per_cell(want.attempts))
    assert sorted(s.mapping for s in got.sources) == sorted(s.mapping for s in want.sources)


def test_duckdb_gives_the_shared_stem_note_as_pandas_does(tmp_path):
    pytest.importorskip("duckdb")
    from scorio_core.engines import load_counts

    pattern = _layout(tmp_path, "task")  # no clash: the rows merge under 'm1' and 'm2', and both engines say so
    want = [n for n in io.load(_files(tmp_path)).report.notes if "same name in different folders" in n]
    got = [n for n in load_counts(pattern, engine="duckdb", hash_files=False).report.notes if "same name" in n]
    assert len(want) == 1 and got == want


@pytest.mark.parametrize("threshold", [None, 0])  # the pandas loader (small files), DuckDB (threshold 0)
def test_server_folders_store_the_rows_with_their_folder_names(tmp_path, threshold):
    pytest.importorskip("duckdb")
    from scorio_core.io import roots

    _layout(tmp_path / "evals", "model")
    root = roots.data_roots(str(tmp_path / "evals"))[0]
    matches = roots.resolve_in_root(root, "*/aime.csv")
    dataset, engine, files = roots.load_matches(matches, threshold=threshold, mapping={"model": "@folder"})
    assert engine == ("duckdb" if threshold == 0 else "pandas")
    assert [n for n, _ in files] == ["aime.counts.parquet" if engine == "duckdb" else "aime.attempts.parquet"]
    again = io.load(files)  # what a session or the workspace re-reads: the names are in the rows now
    assert sorted(again.table["model"].astype(str).unique()) == list(MODELS)
    pd.testing.assert_frame_equal(_per_cell(again.table), _per_cell(dataset.table))


def test_an_attempt_table_file_reads_back_as_the_same_attempts(tmp_path):
    from scorio_core.engines.uploads import attempt_table_file

    _layout(tmp_path, "task")
    ds = io.load(_files(tmp_path), mapping={"task": "@folder"})
    name, data = attempt_table_file(ds, _files(tmp_path)[0])
    back = io.load([(name, data)])
    cols = ["model", "task", "question_id", "trial", "is_correct"]
    pd.testing.assert_frame_equal(back.attempts[cols].astype({c: str for c in cols[:3]}),
                                  ds.attempts[cols].astype({c: str for c in cols[:3]}))


def test_a_duckdb_counted_upload_has_no_folder_either():
    pytest.importorskip("duckdb")
    from scorio_core.engines.uploads import count_uploads

    data = _outcomes("m1", "aime").to_csv(index=False).encode()
    with pytest.raises(InputError, match="an uploaded file has no folder"):
        count_uploads([("m1.csv", data)], mapping={"model": "@folder"})
