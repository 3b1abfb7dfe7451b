"""``python -m scorio_core workspace ...`` through a real subprocess: stable JSON, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .conftest import DATA, FORMATS, REPO

COUNTS = str(DATA / "matharena_aime_2025_I_counts.csv")
VERIFIER = str(FORMATS / "scorio_verifier_fixture" / "aime25_q06_compass.json")
DATASET_KEYS = {"id", "name", "created", "layout", "n_models", "n_questions", "n_trials", "n_rows", "size_bytes",
                "table_sha256", "owner", "sources"}


def cli(root, *args, expect=0):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCORIO_WORKSPACE")}
    proc = subprocess.run([sys.executable, "-m", "scorio_core", "workspace", "--root", str(root), *args],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert proc.returncode == expect, proc.stderr
    if expect == 0 and "--output" in args:
        return json.loads(proc.stdout)
    return proc


def test_add_list_show_delete_gc(tmp_path):
    root = tmp_path / "ws"
    added = cli(root, "add", COUNTS, VERIFIER, "--name", "ci upload", "--output", "json")
    assert set(added) == {"dataset", "created", "engine"} and added["created"] is True and added["engine"] == "pandas"
    d = added["dataset"]
    assert set(d) == DATASET_KEYS and d["name"] == "ci upload" and d["owner"] is None
    assert [s["name"] for s in d["sources"]] == ["matharena_aime_2025_I_counts.csv", "aime25_q06_compass.json"]
    assert set(d["sources"][0]) == {"position", "name", "format", "sha256", "size_bytes"}
    again = cli(root, "add", VERIFIER, COUNTS, "--output", "json")
    assert again["created"] is False and again["dataset"]["id"] == d["id"]

    listed = cli(root, "list", "--output", "json")
    assert set(listed) == {"root", "datasets", "analyses"} and [x["id"] for x in listed["datasets"]] == [d["id"]]
    shown = cli(root, "show", d["id"], "--output", "json")
    assert shown["kind"] == "dataset" and shown["dataset"] == d and shown["report"]["n_models"] == d["n_models"]

    from scorio_core.store import Workspace

    analysis = Workspace(root).save_analysis(d["id"], {"k": 2}, "results/leaderboard")
    shown = cli(root, "--output", "json", "show", analysis.id)  # options before the action work too
    assert shown == {"kind": "analysis", "analysis": analysis.to_dict()}

    deleted = cli(root, "delete", d["id"], "--output", "json")
    assert deleted == {"kind": "dataset", "id": d["id"], "analyses_deleted": 1, "deleted": deleted["deleted"],
                       "restore_until": deleted["restore_until"]}
    gc = cli(root, "gc", "--output", "json")  # within the retention period: the rows and their files stay
    assert gc == {"removed_blobs": 0, "removed_bytes": 0, "removed_temp_files": 0, "kept_blobs": 3,
                  "purged_datasets": 0, "purged_analyses": 0}
    gc = cli(root, "gc", "--retention-days", "0", "--output", "json")
    assert gc == {"removed_blobs": 3, "removed_bytes": gc["removed_bytes"], "removed_temp_files": 0, "kept_blobs": 0,
                  "purged_datasets": 1, "purged_analyses": 1}
    usage = cli(root, "usage", "--output", "json")
    assert (usage["n_datasets"], usage["n_blobs"], usage["blob_bytes"]) == (0, 0, 0)
    table = cli(root, "list")
    assert "datasets (0)" in table.stdout


@pytest.mark.parametrize("bad", ["../../etc/passwd", "%2e%2e%2f%2e%2e", "' OR 1=1 --", "A" * 5000])
@pytest.mark.parametrize("action", ["show", "delete"])
def test_bad_ids_exit_2_with_one_line(tmp_path, bad, action):
    proc = cli(tmp_path / "ws", action, bad, expect=2)
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1 and "22 characters" in proc.stderr


def test_unknown_id_and_bad_files(tmp_path):
    root = tmp_path / "ws"
    proc = cli(root, "show", "Z" * 22, expect=2)
    assert "no dataset or analysis" in proc.stderr
    proc = cli(root, "add", str(tmp_path / "missing.csv"), expect=2)
    assert proc.stderr == "error: missing.csv: no such file.\n"
    proc = cli(root, "bogus", expect=2)
    assert proc.stderr.startswith("error: ") and proc.stderr.count("\n") == 1


def test_add_respects_the_file_quota(tmp_path):
    env = {**os.environ, "SCORIO_WORKSPACE_MAX_FILE_BYTES": "1000"}
    proc = subprocess.run([sys.executable, "-m", "scorio_core", "workspace", "--root", str(tmp_path), "add", COUNTS],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert proc.returncode == 2 and "SCORIO_WORKSPACE_MAX_FILE_BYTES" in proc.stderr and "17,505 bytes" in proc.stderr


def test_gc_refuses_a_catalog_that_never_listed_a_dataset_beside_stored_files(tmp_path):
    """A catalog replaced by an empty one (or truncated to 0 bytes) beside stored uploads: gc would have deleted every
    upload; it refuses and says why, unless --force. Deleting every dataset and then gc stays allowed (above)."""
    root = tmp_path / "ws"
    cli(root, "add", COUNTS, "--output", "json")
    blobs = sorted(p.name for p in (root / "blobs").rglob("*") if p.is_file())
    for name in ("catalog.sqlite3", "catalog.sqlite3-wal", "catalog.sqlite3-shm"):
        (root / name).unlink(missing_ok=True)
    (root / "catalog.sqlite3").write_bytes(b"")  # truncated to 0 bytes: SQLite opens it as a new, empty catalog
    refused = cli(root, "gc", "--output", "json", expect=2)
    assert "has never listed a dataset, but 2 stored files exist" in refused.stderr and "--force" in refused.stderr
    assert sorted(p.name for p in (root / "blobs").rglob("*") if p.is_file()) == blobs
    forced = cli(root, "gc", "--force", "--output", "json")
    assert forced["removed_blobs"] == len(blobs) == 2


def test_a_catalog_that_is_not_a_database_is_named_with_what_to_do(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "catalog.sqlite3").write_bytes(b"not a database at all" * 200)
    proc = cli(root, "list", expect=2)
    assert "the workspace catalog" in proc.stderr and "cannot be read" in proc.stderr
    assert "move it aside to start an empty one" in proc.stderr and "internal error" not in proc.stderr


def test_a_version_1_catalog_migrates_and_remembers_it_had_datasets(tmp_path):
    import sqlite3

    from scorio_core.store import Workspace

    root = tmp_path / "ws"
    cli(root, "add", COUNTS, "--output", "json")
    conn = sqlite3.connect(root / "catalog.sqlite3")  # back to a version-1 catalog holding one dataset
    conn.execute("DROP TABLE meta")
    for table in ("datasets", "analyses"):  # and without version 3's soft-delete column
        conn.execute(f"DROP INDEX {table}_deleted")
        conn.execute(f"ALTER TABLE {table} DROP COLUMN deleted")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    migrated = Workspace(root)  # the migration sets had_datasets, so deleting every dataset and then gc works
    (d,) = migrated.list_datasets()
    migrated.delete_dataset(d.id)
    assert migrated.gc(retention_days=0).removed_blobs == 2
