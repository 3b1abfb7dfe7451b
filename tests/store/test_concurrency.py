"""Two Workspace objects on one root, in threads and in processes: one row, intact blobs."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor

from scorio_core import io
from scorio_core.store import Workspace

from .conftest import DATA, FORMATS, assert_same_dataset, files_of

ROOT = Path(__file__).resolve().parents[2]
PATHS = [DATA / "matharena_aime_2025_I_counts.csv", FORMATS / "scorio_verifier_fixture" / "aime25_q06_compass.json"]


def _save(root: str) -> str:
    files = files_of(*PATHS)
    ws = Workspace(root)  # each worker opens its own Workspace
    return ws.save_dataset("same files", files, io.load(files)).id


def _check(root) -> None:
    ws = Workspace(root)
    records = ws.list_datasets()
    assert len(records) == 1
    files = files_of(*PATHS)
    assert_same_dataset(io.load(files), ws.open_dataset(records[0].id))
    for s in records[0].sources:
        ws.blobs.read(s.sha256)  # verifies the hash
    assert ws.usage().n_blobs == 3
    assert not list((ws.root / "blobs").rglob(".tmp-*"))


def test_threads_saving_the_same_files(tmp_path):
    root = str(tmp_path / "ws")
    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(_save, [root] * 16))
    assert len(set(ids)) == 1
    _check(root)


def test_processes_saving_the_same_files(tmp_path):
    # plain interpreters, not a multiprocessing pool: under pytest-xdist an earlier AppTest in the same worker can
    # leave a Streamlit script as __main__, which spawn-mode children re-run and die on, and a Pool respawns them forever
    root = str(tmp_path / "ws")
    code = "import sys; from tests.store.test_concurrency import _save; print(_save(sys.argv[1]))"
    procs = [subprocess.Popen([sys.executable, "-c", code, root], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(8)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err[-500:] for _, err in outs]
    assert len({out.strip() for out, _ in outs}) == 1
    _check(root)


def test_gc_racing_saves_never_leaves_a_dangling_row(tmp_path):
    root = tmp_path / "ws"
    files = files_of(*PATHS)
    ds = io.load(files)
    ws = Workspace(root)
    stop = threading.Event()

    def churn():
        other = Workspace(root)
        while not stop.is_set():
            record = other.save_dataset("x", files, ds)
            other.delete_dataset(record.id)

    def collect():
        other = Workspace(root)
        while not stop.is_set():
            other.gc(force=True, retention_days=0)  # deleted rows are purged and unreferenced blobs go at once; young temporary files stay (force: before the
            # first row is inserted the catalog has never listed a dataset, which gc refuses by default)

    threads = [threading.Thread(target=churn), threading.Thread(target=collect)]
    for t in threads:
        t.start()
    try:
        for _ in range(20):
            record = ws.save_dataset("kept", files, ds, owner="me")
            for s in record.sources:
                ws.blobs.read(s.sha256)
            ws.open_dataset(record.id)
    finally:
        stop.set()
        for t in threads:
            t.join()
    ws.gc(grace_seconds=0)
    assert_same_dataset(ds, ws.open_dataset(ws.list_datasets(owner="me")[0].id))


def _different_files(i: int) -> list[tuple[str, bytes]]:
    lines = ["model,question_id,trial,is_correct"]
    for m in range(3):
        for q in range(10):
            for t in range(4):
                lines.append(f"model-{i}-{m},q{q},{t},{int((q + t + m + i) % 3 == 0)}")
    return [(f"eval-{i}.csv", ("\n".join(lines) + "\n").encode())]


def test_eight_threads_saving_different_datasets_and_analyses(tmp_path):
    import sqlite3

    root = tmp_path / "ws"
    Workspace(root)  # created once; every worker opens its own Workspace on it
    barrier = threading.Barrier(8)

    def work(i: int):
        ws = Workspace(root)
        files = _different_files(i)
        ds = io.load(files)
        barrier.wait()  # all eight write at once
        record = ws.save_dataset(f"dataset {i}", files, ds, owner=f"session-{i}")
        draft = None
        for step in range(5):  # autosaves update the draft in place
            draft = ws.save_analysis(record.id, {"worker": i, "step": step}, "leaderboard",
                                     analysis_id=draft and draft.id, owner=f"session-{i}")
        snapshot = ws.share_analysis(draft.id)
        return i, record.id, draft.id, snapshot.id, ds

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(work, range(8)))
    ws = Workspace(root)
    assert len({r[1] for r in results}) == 8 and len(ws.list_datasets()) == 8
    assert len(ws.list_analyses()) == 16
    for i, dataset_id, draft_id, snapshot_id, ds in results:
        record = ws.get_dataset(dataset_id)
        assert record.name == f"dataset {i}" and record.owner == f"session-{i}"
        assert_same_dataset(ds, ws.open_dataset(dataset_id))
        assert ws.dataset_files(dataset_id) == _different_files(i)  # blobs verify
        draft, snapshot = ws.get_analysis(draft_id), ws.get_analysis(snapshot_id)
        assert draft.state == snapshot.state == {"worker": i, "step": 4}
        assert (draft.dataset_id, draft.immutable, snapshot.immutable) == (dataset_id, False, True)
    conn = sqlite3.connect(root / "catalog.sqlite3")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        conn.close()
    assert not list((root / "blobs").rglob(".tmp-*"))
