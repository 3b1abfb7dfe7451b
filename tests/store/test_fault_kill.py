"""SIGKILL a process in the middle of saving a large upload: the workspace survives (issue 14).

A child process stores a dataset whose upload is tens of MB (the dataset object is a small
loaded table: parsing is not part of saving; the blob write, fsync, rename and catalog insert
are) and is killed with SIGKILL at several moments: as soon as a temporary blob file appears,
after short timers, and after the save returned. Another child is killed in the middle of a
burst of analysis autosaves and shares (SQLite write transactions). After every kill the
workspace is reopened: the catalog opens, ``PRAGMA integrity_check`` is ok, the interrupted
dataset is absent or complete (every blob verifies against its SHA-256), and every earlier
dataset and analysis is intact.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import numpy as np
import pytest

from scorio_core import io
from scorio_core.store import Workspace, sha256_of
from scorio_core.store.blobs import TEMP_PREFIX

from .conftest import DATA, FORMATS, REPO, assert_same_dataset, files_of

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

BIG_BYTES = 64_000_000
SMALL = DATA / "matharena_aime_2025_I_counts.csv"

_CHILD = r"""
import sys, time
import numpy as np
from scorio_core import io
from scorio_core.store import Workspace

root, seed, mode, size = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
small = open(sys.argv[5], "rb").read()
ds = io.load([("aime.csv", small)])
ws = Workspace(root)
if mode == "dataset":
    big = np.random.default_rng(seed).bytes(size)
    print("ready", flush=True)
    ws.save_dataset(f"big-{seed}", [("aime.csv", small), (f"dump-{seed}.jsonl", big)], ds)
    print("saved", flush=True)
else:  # a burst of autosaves and shares on the earlier dataset
    dataset_id = ws.list_datasets()[-1].id
    print("ready", flush=True)
    draft = None
    for i in range(100000):
        draft = ws.save_analysis(dataset_id, {"i": i, "pad": "x" * 20000}, "leaderboard", analysis_id=draft and draft.id)
        if i % 5 == 0:
            ws.share_analysis(draft.id)
print("done", flush=True)
time.sleep(60)
"""


def _big(seed: int) -> bytes:
    return np.random.default_rng(seed).bytes(BIG_BYTES)


def _spawn(root, seed: int, mode: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCORIO_WORKSPACE")}
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(root), str(seed), mode, str(BIG_BYTES), str(SMALL)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=env)
    line = proc.stdout.readline()
    assert line.strip() == "ready", (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc


def _kill(proc: subprocess.Popen, *, delay: float | None = None, temp_dir=None, wait_for: str | None = None) -> None:
    if temp_dir is not None:  # as soon as a temporary blob file exists: the blob write has started
        deadline = time.monotonic() + 10
        while not any(p.name.startswith(TEMP_PREFIX) for p in temp_dir.rglob(f"{TEMP_PREFIX}*")):
            assert time.monotonic() < deadline and proc.poll() is None, "no temporary file appeared"
            time.sleep(0.0005)
    if wait_for is not None:
        assert proc.stdout.readline().strip() == wait_for
    if delay:
        time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    proc.stdout.close()
    proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL


def _integrity(root) -> None:
    conn = sqlite3.connect(root / "catalog.sqlite3")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()


def _check_earlier(ws: Workspace, earlier) -> None:
    record, dataset, draft, snapshot = earlier
    assert ws.get_dataset(record.id) == record
    assert_same_dataset(dataset, ws.open_dataset(record.id))
    for s in record.sources:
        ws.blobs.read(s.sha256)
    assert ws.get_analysis(draft.id) == draft
    assert ws.get_analysis(snapshot.id) == snapshot


def _check_big(ws: Workspace, seed: int) -> str:
    """``"absent"`` or ``"complete"`` (every blob verified); anything else fails."""
    found = [d for d in ws.list_datasets() if d.name == f"big-{seed}"]
    if not found:
        return "absent"
    (record,) = found
    assert [s.name for s in record.sources] == ["aime.csv", f"dump-{seed}.jsonl"]
    assert record.sources[1].sha256 == sha256_of(_big(seed))
    files = ws.dataset_files(record.id)  # reads and verifies every blob
    assert files[1][1] == _big(seed)
    ws.open_dataset(record.id)  # the canonical table verifies too
    return "complete"


def test_sigkill_mid_save_leaves_a_consistent_workspace(tmp_path):
    root = tmp_path / "ws"
    ws = Workspace(root)
    files = files_of(FORMATS / "scorio_verifier_fixture" / "aime25_q06_compass.json")
    dataset = io.load(files)
    record = ws.save_dataset("earlier", files, dataset, owner="alice")
    draft = ws.save_analysis(record.id, {"metric": "avg", "k": 2}, "leaderboard", owner="alice")
    snapshot = ws.share_analysis(draft.id)
    earlier = (record, dataset, draft, snapshot)

    outcomes = {}
    plans = [("temp-file", {"temp_dir": root / "blobs"}), ("10 ms", {"delay": 0.01}), ("40 ms", {"delay": 0.04}),
             ("100 ms", {"delay": 0.1}), ("200 ms", {"delay": 0.2}), ("after save", {"wait_for": "saved"})]
    for seed, (label, how) in enumerate(plans, start=1):
        proc = _spawn(root, seed, "dataset")
        _kill(proc, **how)
        _integrity(root)
        reopened = Workspace(root)  # "restart": a new Workspace on the same directory
        outcomes[label] = _check_big(reopened, seed)
        _check_earlier(reopened, earlier)
    assert outcomes["temp-file"] == "absent", outcomes  # killed while writing its first blob: no row
    assert outcomes["after save"] == "complete", outcomes

    proc = _spawn(root, 99, "analyses")  # killed inside a burst of SQLite write transactions
    _kill(proc, delay=0.4)
    _integrity(root)
    reopened = Workspace(root)
    _check_earlier(reopened, earlier)
    burst = [a for a in reopened.list_analyses() if a.id not in (draft.id, snapshot.id)]
    assert burst and all(set(a.state) == {"i", "pad"} for a in burst)

    report = reopened.gc(grace_seconds=0)  # what crashes left behind goes; what rows reference stays
    assert not list((root / "blobs").rglob(f"{TEMP_PREFIX}*"))
    _integrity(root)
    _check_earlier(Workspace(root), earlier)
    for seed, label in enumerate(outcomes, start=1):
        assert _check_big(Workspace(root), seed) == outcomes[label]
    assert report.kept_blobs >= 2
