"""Two Workspace objects on one root, in threads and in processes: one row, intact blobs."""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ThreadPoolExecutor

from scorio_core import io
from scorio_core.store import Workspace

from .conftest import DATA, FORMATS, assert_same_dataset, files_of

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
    root = str(tmp_path / "ws")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        ids = pool.map(_save, [root] * 8)
    assert len(set(ids)) == 1
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
            other.gc()  # unreferenced blobs go at once; young temporary files stay

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
