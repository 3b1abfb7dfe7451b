"""Content-addressed blobs: layout, dedupe, atomic writes, hash verification."""

from __future__ import annotations

import hashlib
import io
import os

import pytest

from scorio_core.store import BlobStore, CorruptBlobError, sha256_of
from scorio_core.store import blobs as blobs_module


class _Pipe(io.RawIOBase):
    """A readable, non-seekable binary stream (like a socket or a pipe)."""

    def __init__(self, data: bytes) -> None:
        self._buf = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def readinto(self, b) -> int:
        chunk = self._buf.read(len(b))
        b[: len(chunk)] = chunk
        return len(chunk)


DATA = b"model,question,trial,correct\nm1,q1,0,1\n" * 1000


def test_layout_and_hash(tmp_path):
    store = BlobStore(tmp_path)
    sha = hashlib.sha256(DATA).hexdigest()
    got = store.put(DATA)
    assert got == (sha, len(DATA), True)
    assert (tmp_path / "blobs" / sha[:2] / sha[2:]).read_bytes() == DATA
    assert store.read(sha) == DATA


@pytest.mark.parametrize("make", [bytes, bytearray, memoryview, io.BytesIO, _Pipe], ids=lambda f: f.__name__)
def test_bytes_and_file_objects_give_one_blob(tmp_path, make):
    store = BlobStore(tmp_path)
    first = store.put(DATA)
    again = store.put(make(DATA))
    assert again.sha256 == first.sha256 and again.size == len(DATA) and again.written is False
    assert [b[0] for b in store.iter_blobs()] == [first.sha256]
    assert not [p for p in (tmp_path / "blobs").rglob("*") if p.name.startswith(".tmp-")]


def test_non_seekable_stream_is_stored(tmp_path):
    store = BlobStore(tmp_path)
    got = store.put(_Pipe(DATA))
    assert got.written and store.read(got.sha256) == DATA


def test_incremental_hash_matches_hashlib():
    big = os.urandom(3 * blobs_module.CHUNK + 17)  # several chunks and a remainder
    assert sha256_of(big) == hashlib.sha256(big).hexdigest()
    assert sha256_of(io.BytesIO(big)) == hashlib.sha256(big).hexdigest()
    with pytest.raises(TypeError):
        sha256_of("text")
    with pytest.raises(TypeError, match="binary mode"):
        sha256_of(io.StringIO("text"))


def test_crash_before_rename_leaves_only_a_temp_file(tmp_path, monkeypatch):
    store = BlobStore(tmp_path)
    sha = hashlib.sha256(DATA).hexdigest()

    def crash(src, dst):
        raise OSError("simulated power loss")

    monkeypatch.setattr(blobs_module.os, "replace", crash)
    with pytest.raises(OSError, match="power loss"):
        store.put(DATA)
    monkeypatch.undo()
    temps = [p for p in (tmp_path / "blobs").rglob(".tmp-*")]
    assert len(temps) == 1 and temps[0].read_bytes() == DATA  # the full bytes, under a temp name
    assert not store.exists(sha) and list(store.iter_blobs()) == []  # readers never see it
    with pytest.raises(CorruptBlobError, match="missing"):
        store.read(sha)
    assert store.remove_temp_files(older_than_seconds=3600) == (0, 0)  # young: maybe a live write
    assert store.remove_temp_files(older_than_seconds=0) == (1, len(DATA))
    assert store.put(DATA).written  # a retry stores it normally


def test_corrupt_blob_is_detected(tmp_path):
    store = BlobStore(tmp_path)
    sha = store.put(DATA).sha256
    path = store.path(sha)
    path.write_bytes(DATA[:-1] + b"X")
    with pytest.raises(CorruptBlobError, match="corrupt") as err:
        store.read(sha)
    assert isinstance(err.value, OSError) and sha[:12] in str(err.value)


@pytest.mark.parametrize("bad", ["../../etc/passwd", "ab", "A" * 64, "0" * 63, "0" * 65, "../" + "0" * 61, 5])
def test_paths_come_only_from_valid_digests(tmp_path, bad):
    store = BlobStore(tmp_path)
    with pytest.raises(ValueError, match="64 lowercase hex"):
        store.path(bad)


def test_stray_files_are_not_blobs(tmp_path):
    store = BlobStore(tmp_path)
    sha = store.put(DATA).sha256
    (tmp_path / "blobs" / "zz").mkdir()
    (tmp_path / "blobs" / "zz" / "notes.txt").write_text("x")
    (tmp_path / "blobs" / sha[:2] / "README").write_text("x")
    assert [b[0] for b in store.iter_blobs()] == [sha]
