"""Soft delete (catalog version 3): delete hides, restore brings back, gc purges after the retention period."""

from __future__ import annotations

import sqlite3

import pytest

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.store import NotFoundError, Workspace
from scorio_core.store.catalog import _V1, _V2

from .conftest import assert_same_dataset
from .test_cli_workspace import COUNTS, cli


def _v2_catalog(root, dataset_id: str, analysis_id: str) -> None:
    """A catalog exactly as a version-2 scorio_core wrote it, holding one dataset and one draft (no blobs)."""
    root.mkdir(parents=True)
    conn = sqlite3.connect(root / "catalog.sqlite3")
    for statement in _V1 + _V2:
        conn.execute(statement)
    conn.execute("INSERT INTO datasets (id, name, created, layout, n_models, n_questions, n_trials, n_rows, size_bytes, "
                 "table_sha256, report_json, content_key, owner) VALUES (?, 'old', '2025-01-01T00:00:00.000000Z', "
                 "'attempts', 1, 1, 1, 1, 1, ?, '{}', 'k', NULL)", (dataset_id, "0" * 64))
    conn.execute("INSERT INTO analyses (id, dataset_id, state_json, page, created, updated, immutable, owner) VALUES "
                 "(?, ?, '{}', 'p', 'c', 'u', 0, NULL)", (analysis_id, dataset_id))
    conn.execute("INSERT INTO meta (key, value) VALUES ('had_datasets', '1')")
    conn.execute("PRAGMA user_version = 2")
    conn.commit()
    conn.close()


def test_a_version_2_catalog_upgrades_in_place(tmp_path):
    root, did, aid = tmp_path / "ws", "D" * 22, "A" * 22
    _v2_catalog(root, did, aid)
    ws = Workspace(root)
    conn = sqlite3.connect(ws.catalog_path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
        for table in ("datasets", "analyses"):
            assert "deleted" in {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
    finally:
        conn.close()
    assert [d.id for d in ws.list_datasets()] == [did] and ws.get_analysis(aid).dataset_id == did  # rows kept, live
    assert ws.list_deleted() == []
    assert ws.delete_dataset(did) == 1 and ws.list_datasets() == []
    assert ws.restore_dataset(did).name == "old" and ws.get_analysis(aid).id == aid


def test_delete_hides_and_restore_brings_back_the_same(ws, counts_files):
    loaded = io.load(counts_files)
    record = ws.save_dataset("aime", counts_files, loaded, owner="me")
    draft = ws.save_analysis(record.id, {"k": 1}, "results/leaderboard")
    assert ws.delete_dataset(record.id) == 1
    assert ws.list_datasets() == [] and ws.list_analyses() == []
    assert (ws.usage().n_datasets, ws.usage().n_analyses) == (0, 0)
    for call in (ws.get_dataset, ws.open_dataset, ws.dataset_files, ws.dataset_report, ws.delete_dataset,
                 lambda i: ws.rename_dataset(i, "x"), lambda i: ws.save_analysis(i, {}, "p")):
        with pytest.raises(NotFoundError, match="no dataset"):
            call(record.id)
    for call in (ws.get_analysis, ws.share_analysis, ws.delete_analysis):  # a link to it: "does not exist here"
        with pytest.raises(NotFoundError, match="no analysis"):
            call(draft.id)
    (gone,) = ws.list_deleted()
    assert (gone.kind, gone.id, gone.name, gone.dataset_id, gone.n_analyses, gone.owner) == (
        "dataset", record.id, "aime", record.id, 1, "me")
    assert gone.restore_until[:4] >= gone.deleted[:4] and gone.restore_until > gone.deleted
    assert ws.list_deleted(owner="other") == [gone]  # shared listing

    assert ws.restore_dataset(record.id) == record  # same id, name, sources, owner
    assert_same_dataset(loaded, ws.open_dataset(record.id))
    assert ws.get_analysis(draft.id) == draft and ws.list_deleted() == []
    with pytest.raises(NotFoundError, match="no deleted dataset"):
        ws.restore_dataset(record.id)  # live: nothing to restore
    with pytest.raises(InputError):
        ws.restore_dataset("bad id")


def test_an_analysis_deleted_before_its_dataset_stays_deleted(ws, counts_files):
    record = ws.save_dataset("aime", counts_files, io.load(counts_files))
    kept = ws.save_analysis(record.id, {"k": 1}, "p")
    alone = ws.save_analysis(record.id, {"k": 2}, "p")
    ws.delete_analysis(alone.id)
    assert ws.delete_dataset(record.id) == 1
    assert [(r.kind, r.n_analyses) for r in ws.list_deleted()] == [("dataset", 1)]  # alone is listed with it gone
    with pytest.raises(InputError, match="restore the dataset"):
        ws.restore_analysis(kept.id)
    ws.restore_dataset(record.id)
    assert [a.id for a in ws.list_analyses()] == [kept.id]
    assert [(r.kind, r.id) for r in ws.list_deleted()] == [("analysis", alone.id)]


def test_private_listing_lists_only_own_deleted_rows(tmp_path, counts_files):
    ws = Workspace(tmp_path / "ws", listing="private")
    record = ws.save_dataset("aime", counts_files, io.load(counts_files), owner="me")
    ws.delete_dataset(record.id)
    assert [r.id for r in ws.list_deleted(owner="me")] == [record.id]
    assert ws.list_deleted(owner="other") == []


def test_storing_deleted_content_again_restores_it(ws, counts_files):
    record = ws.save_dataset("aime", counts_files, io.load(counts_files))
    ws.delete_dataset(record.id)
    again, created = ws.save_dataset("aime again", counts_files, io.load(counts_files), return_created=True)
    assert (again.id, again.name, created) == (record.id, "aime", False)
    assert ws.list_deleted() == []


def test_gc_keeps_blobs_of_deleted_datasets_until_the_retention_period_ends(ws, counts_files, verifier_files):
    both = counts_files + verifier_files
    record = ws.save_dataset("both", both, io.load(both))
    ws.save_analysis(record.id, {"k": 1}, "p")
    ws.delete_dataset(record.id)
    report = ws.gc()  # default retention (30 days): nothing purged, every blob kept
    assert (report.purged_datasets, report.removed_blobs, report.kept_blobs) == (0, 0, 3)
    assert Workspace(ws.root, retention_days=1).gc().removed_blobs == 0
    assert_same_dataset(io.load(both), ws.open_dataset(ws.restore_dataset(record.id).id))  # blobs intact

    ws.delete_dataset(record.id)
    report = ws.gc(retention_days=0)
    assert (report.purged_datasets, report.purged_analyses, report.removed_blobs, report.kept_blobs) == (1, 1, 3, 0)
    assert ws.list_deleted() == [] and ws.usage().n_blobs == 0
    with pytest.raises(NotFoundError):
        ws.restore_dataset(record.id)
    with pytest.raises(ValueError, match="days"):
        ws.gc(retention_days=-1)


def test_retention_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SCORIO_WORKSPACE_RETENTION_DAYS", "7")
    assert Workspace(tmp_path / "a").retention_days == 7
    assert Workspace(tmp_path / "a", retention_days=0).retention_days == 0
    monkeypatch.setenv("SCORIO_WORKSPACE_RETENTION_DAYS", "-3")
    with pytest.raises(ValueError, match="SCORIO_WORKSPACE_RETENTION_DAYS"):
        Workspace(tmp_path / "b")


def test_shared_snapshots_still_need_force(ws, counts_files):
    record = ws.save_dataset("aime", counts_files, io.load(counts_files))
    shared = ws.share_analysis(ws.save_analysis(record.id, {"k": 1}, "p").id)
    with pytest.raises(InputError, match="shared snapshot"):
        ws.delete_dataset(record.id)
    assert ws.get_dataset(record.id) and ws.list_deleted() == []
    assert ws.delete_dataset(record.id, force=True) == 2
    with pytest.raises(NotFoundError):
        ws.get_analysis(shared.id)
    ws.restore_dataset(record.id)
    assert ws.get_analysis(shared.id) == shared


def test_cli_delete_restore_and_list_deleted(tmp_path):
    root = tmp_path / "ws"
    d = cli(root, "add", COUNTS, "--output", "json")["dataset"]
    ws = Workspace(root)
    analysis = ws.save_analysis(d["id"], {"k": 1}, "results/leaderboard")
    deleted = cli(root, "delete", d["id"], "--output", "json")
    assert set(deleted) == {"kind", "id", "analyses_deleted", "deleted", "restore_until"}
    assert (deleted["kind"], deleted["id"], deleted["analyses_deleted"]) == ("dataset", d["id"], 1)
    assert deleted["restore_until"] > deleted["deleted"] and deleted["deleted"].endswith("Z")
    listed = cli(root, "list", "--deleted", "--output", "json")
    assert set(listed) == {"root", "retention_days", "datasets", "analyses"} and listed["retention_days"] == 30
    (row,) = listed["datasets"]
    assert row == {"kind": "dataset", "id": d["id"], "name": d["name"], "dataset_id": d["id"],
                   "deleted": deleted["deleted"], "restore_until": deleted["restore_until"], "n_analyses": 1,
                   "owner": None}
    assert cli(root, "list", "--output", "json")["datasets"] == []
    assert "restore until" in cli(root, "list", "--deleted").stdout

    restored = cli(root, "restore", d["id"], "--output", "json")
    assert restored == {"kind": "dataset", "id": d["id"], "analyses_restored": 1, "dataset": d}
    assert cli(root, "list", "--deleted", "--output", "json")["datasets"] == []
    gone = cli(root, "delete", analysis.id, "--output", "json")
    assert (gone["kind"], gone["analyses_deleted"]) == ("analysis", 1)
    back = cli(root, "restore", analysis.id, "--output", "json")
    assert back == {"kind": "analysis", "id": analysis.id, "analyses_restored": 1, "analysis": analysis.to_dict()}

    text = cli(root, "delete", d["id"]).stdout
    assert "can be restored until" in text and f"workspace restore {d['id']}" in text
    assert "restored dataset" in cli(root, "restore", d["id"]).stdout
    missing = cli(root, "restore", d["id"], expect=2)  # not deleted
    assert "no deleted dataset or analysis" in missing.stderr and "Traceback" not in missing.stderr
