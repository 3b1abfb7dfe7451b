"""Workspace folders are 0700 and files 0600 whatever the umask (security QA finding 3).

Uploaded eval dumps and the catalog (analysis ids are the share links) were created 0644 in 0755 folders
(umask 022): any local account could read every upload and every share link.
"""

from __future__ import annotations

import io
import os
import stat

import pytest

from scorio_core import io as sio
from scorio_core.cli import main
from scorio_core.store import Workspace
from scorio_core.store.catalog import connect
from tests.store.conftest import DATA, files_of


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _tree(root) -> tuple[dict, dict]:
    folders, files = {}, {}
    for dirpath, dirnames, filenames in os.walk(root):
        folders[dirpath] = _mode(dirpath)
        for name in filenames:
            files[os.path.join(dirpath, name)] = _mode(os.path.join(dirpath, name))
    return folders, files


class _Pipe(io.RawIOBase):
    def __init__(self, data: bytes) -> None:
        self._buf = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        chunk = self._buf.read(len(b))
        b[: len(chunk)] = chunk
        return len(chunk)


def test_every_folder_is_0700_and_every_file_0600(tmp_path, umask_022):
    ws = Workspace(tmp_path / "ws", listing="shared")
    files = files_of(DATA / "matharena_aime_2025_I_counts.csv")
    record = ws.save_dataset("aime", files, sio.load(files))
    ws.save_analysis(record.id, {"page": "x"}, "results/leaderboard")
    ws.blobs.put(_Pipe(b"a streamed upload"))  # the spooled path (non-seekable input)
    conn = connect(ws.catalog_path)  # an open connection keeps the -wal and -shm files (they take the catalog's mode)
    try:
        conn.execute("SELECT count(*) FROM datasets").fetchone()
        folders, stored = _tree(ws.root)
    finally:
        conn.close()
    assert len(folders) >= 3 and {"catalog.sqlite3", "catalog.sqlite3-wal"} <= {os.path.basename(p) for p in stored}
    assert set(folders.values()) == {0o700}, folders
    assert set(stored.values()) == {0o600}, stored
    ws.open_dataset(record.id)  # still readable by the server's account
    ws.delete_dataset(record.id)
    assert ws.gc(grace_seconds=0, retention_days=0).purged_datasets == 1


def test_cli_workspace_commands_create_private_files(tmp_path, umask_022, capsys):
    root = tmp_path / "cli-ws"
    path = DATA / "matharena_aime_2025_I_counts.csv"
    assert main(["workspace", "--root", str(root), "add", str(path), "--name", "aime"]) == 0
    assert main(["workspace", "--root", str(root), "list"]) == 0
    folders, stored = _tree(root)
    assert set(folders.values()) == {0o700} and set(stored.values()) == {0o600}, (folders, stored)


def test_an_existing_folder_keeps_its_mode(tmp_path, umask_022):
    root = tmp_path / "ops-made"
    root.mkdir(mode=0o750)
    Workspace(root, listing="shared")
    assert _mode(root) == 0o750  # chosen by whoever made it; what the workspace creates inside is private
    assert _mode(root / "blobs") == 0o700 and _mode(root / "catalog.sqlite3") == 0o600
