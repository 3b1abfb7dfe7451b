"""Datasets: round trip from the format fixtures, dedupe, rename, delete, gc, corruption."""

from __future__ import annotations

import pytest

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.store import CorruptBlobError, NotFoundError, Workspace

from .conftest import DATA, FORMATS, assert_same_dataset, files_of

HELM = sorted(p for p in (FORMATS / "helm").iterdir() if p.is_dir())
INSPECT = FORMATS / "inspect_ai"
LMEVAL = FORMATS / "lm_eval_harness"

CASES = {
    # attempts, one file per format
    "inspect-json": [INSPECT / "data_arc_qwen.json"],
    "inspect-eval": [INSPECT / "log_streaming.eval"],
    "scorio-verifier": [FORMATS / "scorio_verifier_fixture" / "aime25_q06_compass.json"],
    "lm-eval samples + results": sorted(LMEVAL.iterdir()),
    "helm run (uploaded member files)": sorted(p for p in HELM[0].iterdir()),
    # attempts merged from several files (row_source set)
    "merged inspect logs": [INSPECT / "data_arc_qwen.json", INSPECT / "data_arc_sonnet.json",
                            INSPECT / "data_pubmedqa_gpt4o_mini.json"],
    # counts
    "counts csv": [DATA / "matharena_aime_2025_I_counts.csv"],
    "attempts csv": [DATA / "tau_bench_airline_gpt4o_trials.csv"],
}


@pytest.mark.parametrize("paths", CASES.values(), ids=CASES.keys())
def test_round_trip_equals_a_fresh_load(ws, paths):
    files = files_of(*paths)
    fresh = io.load(files)
    record = ws.save_dataset("fixture", files, fresh)
    reopened = Workspace(ws.root).open_dataset(record.id)  # a new object: nothing cached
    assert_same_dataset(fresh, reopened)
    assert record.layout == fresh.layout and record.n_rows == len(fresh.table)
    assert record.n_models == fresh.report.n_models and record.n_questions == fresh.report.n_questions
    assert [s.name for s in record.sources] == [n for n, _ in files]
    assert record.size_bytes == sum(len(b) for _, b in files)
    assert ws.dataset_files(record.id) == files
    assert ws.dataset_report(record.id) == fresh.report


def test_counts_record_fields(ws, counts_files):
    record = ws.save_dataset("aime", counts_files, io.load(counts_files))
    # data/README.md: MathArena AIME 2025 I, 16 models x 15 problems x 4 runs
    assert (record.layout, record.n_models, record.n_questions, record.n_trials, record.n_rows) == ("counts", 16, 15, 4, 240)
    assert record.sources[0].format == "csv"
    assert record.to_dict()["sources"][0]["sha256"] == record.sources[0].sha256


def test_choices_and_blocking_report_round_trip(ws):
    csv = b"model,question,trial,correct\nm1,q1,0,1\nm1,q1,0,0\nm1,q2,0,0.5\nm2,q1,0,1\n"
    files = [("dup.csv", csv)]
    raw = io.load(files)
    assert raw.report.blocking and raw.report.duplicates  # duplicates and a soft score block
    assert_same_dataset(raw, ws.open_dataset(ws.save_dataset("raw", files, raw).id))
    chosen = io.apply_choices(raw, duplicates="keep-first", binarize_threshold=0.5)
    record = ws.save_dataset("chosen", files, chosen)
    assert_same_dataset(chosen, ws.open_dataset(record.id))
    assert ws.open_dataset(record.id).report.choices == chosen.report.choices
    assert len(ws.list_datasets()) == 2  # same files, other table: a second dataset


def test_same_files_twice_are_stored_once(ws, counts_files, verifier_files):
    files = counts_files + verifier_files
    ds = io.load(files)
    first = ws.save_dataset("a", files, ds)
    blobs = ws.usage().n_blobs
    again = ws.save_dataset("b", list(reversed(files)), io.load(list(reversed(files))))
    assert again.id == first.id and again.name == "a"  # existing record returned
    assert ws.usage().n_blobs == blobs == 3  # two sources + one table
    other_owner = ws.save_dataset("c", files, ds, owner="session-2")
    assert other_owner.id != first.id and ws.usage().n_blobs == blobs  # new row, same blobs


def test_rename_and_lookup_errors(ws, counts_files):
    record = ws.save_dataset("aime", counts_files, io.load(counts_files))
    assert ws.rename_dataset(record.id, "  AIME 2025 I  ").name == "AIME 2025 I"
    assert ws.get_dataset(record.id).name == "AIME 2025 I"
    missing = "A" * 22
    for call in (ws.get_dataset, ws.open_dataset, ws.dataset_files, lambda i: ws.rename_dataset(i, "x"), ws.delete_dataset):
        with pytest.raises(NotFoundError, match="no dataset"):
            call(missing)
    with pytest.raises(InputError, match="printable"):
        ws.rename_dataset(record.id, "bad\nname")
    with pytest.raises(InputError, match="1 to 200"):
        ws.rename_dataset(record.id, "x" * 201)


def test_bad_arguments(ws, counts_files):
    ds = io.load(counts_files)
    with pytest.raises(TypeError, match="Dataset"):
        ws.save_dataset("x", counts_files, ds.table)
    with pytest.raises(TypeError, match=r"files\[0\]"):
        ws.save_dataset("x", [("a.csv", "text, not bytes")], ds)
    with pytest.raises(InputError, match="at least one"):
        ws.save_dataset("x", [], ds)
    with pytest.raises(InputError, match="owner"):
        ws.save_dataset("x", counts_files, ds, owner="")


def test_names_are_data_not_paths_or_sql(ws, counts_files, tmp_path):
    name = "'; DROP TABLE datasets; -- ../../etc/passwd"
    record = ws.save_dataset(name, [("../../evil.csv", counts_files[0][1])], io.load(counts_files))
    assert ws.get_dataset(record.id).name == name
    assert ws.get_dataset(record.id).sources[0].name == "../../evil.csv"
    assert not (tmp_path / "evil.csv").exists() and not (ws.root.parent / "evil.csv").exists()
    assert sorted(p.name for p in ws.root.iterdir()) == ["blobs", "catalog.sqlite3", "catalog.sqlite3-shm",
                                                        "catalog.sqlite3-wal"][: len(list(ws.root.iterdir()))]


def test_delete_then_gc_removes_only_unreferenced_blobs(ws, counts_files, verifier_files):
    a = ws.save_dataset("a", counts_files, io.load(counts_files))
    both = counts_files + verifier_files
    b = ws.save_dataset("b", both, io.load(both))
    assert ws.usage().n_blobs == 4  # 2 sources + 2 tables
    assert ws.delete_dataset(b.id) == 0
    assert ws.usage().n_blobs == 4  # files stay until gc
    assert ws.gc().removed_blobs == 0  # deleted within the retention period: restorable, files kept
    report = ws.gc(retention_days=0)
    assert (report.removed_blobs, report.kept_blobs) == (2, 2)  # verifier file + b's table
    assert_same_dataset(io.load(counts_files), ws.open_dataset(a.id))  # shared source blob kept
    assert [d.id for d in ws.list_datasets()] == [a.id]


def test_delete_refuses_to_break_share_links_without_force(ws, counts_files):
    record = ws.save_dataset("a", counts_files, io.load(counts_files))
    draft = ws.save_analysis(record.id, {"k": 1}, "results/leaderboard")
    shared = ws.share_analysis(draft.id)
    with pytest.raises(InputError, match="1 shared snapshot"):
        ws.delete_dataset(record.id)
    assert ws.get_analysis(shared.id).immutable
    assert ws.delete_dataset(record.id, force=True) == 2
    with pytest.raises(NotFoundError):
        ws.get_analysis(shared.id)
    ws.restore_dataset(record.id)  # the snapshot comes back with its dataset: the link works again
    assert ws.get_analysis(shared.id).immutable


def test_corrupt_or_missing_table_blob(ws, counts_files):
    record = ws.save_dataset("a", counts_files, io.load(counts_files))
    path = ws.blobs.path(record.table_sha256)
    good = path.read_bytes()
    path.write_bytes(good[:100] + bytes([good[100] ^ 0xFF]) + good[101:])
    with pytest.raises(CorruptBlobError, match="corrupt"):
        ws.open_dataset(record.id)
    path.unlink()
    with pytest.raises(CorruptBlobError, match="missing"):
        ws.open_dataset(record.id)
    ws.save_dataset("again", counts_files, io.load(counts_files))  # same content: returns the row ...
    path.write_bytes(good)  # ... a restore from backup repairs it
    assert_same_dataset(io.load(counts_files), ws.open_dataset(record.id))


def test_leftover_temp_file_is_ignored_and_collected(ws, counts_files):
    record = ws.save_dataset("a", counts_files, io.load(counts_files))
    shard = ws.blobs.path(record.table_sha256).parent
    leftover = shard / ".tmp-deadbeefdeadbeef"
    leftover.write_bytes(b"half a file")
    assert_same_dataset(io.load(counts_files), ws.open_dataset(record.id))
    assert ws.usage().n_blobs == 2
    assert ws.gc().removed_temp_files == 0 and leftover.exists()  # young: maybe a live write
    report = ws.gc(grace_seconds=0)
    assert (report.removed_temp_files, report.removed_blobs, report.kept_blobs) == (1, 0, 2)
    assert report.removed_bytes == len(b"half a file") and not leftover.exists()


def test_catalog_schema_is_versioned(ws):
    import sqlite3

    from scorio_core.store.catalog import SCHEMA_VERSION

    conn = sqlite3.connect(ws.catalog_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        conn.commit()
    finally:
        conn.close()
    with pytest.raises(RuntimeError, match="newer|Upgrade"):
        Workspace(ws.root)


def test_a_dataset_from_a_reloaded_module_is_saved(ws, counts_files):
    """Streamlit's file watcher re-imports edited modules: a dataset built by the re-imported Dataset class (another
    class object of the same name) is still a Dataset; autosave raised "dataset must be a Dataset; got Dataset"."""
    import dataclasses
    import importlib.util
    import sys

    from scorio_core.io import _dataset

    spec = importlib.util.spec_from_file_location("scorio_core.io._dataset_reloaded", _dataset.__file__)
    again = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = again  # dataclasses look the module up while the class is built
    try:
        spec.loader.exec_module(again)
        ds = io.load(counts_files)
        copy = again.Dataset(**{f.name: getattr(ds, f.name) for f in dataclasses.fields(ds)})
        assert type(copy) is not type(ds)
        assert ws.save_dataset("reloaded", counts_files, copy).name == "reloaded"
    finally:
        sys.modules.pop(spec.name, None)
