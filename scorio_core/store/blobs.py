"""Content-addressed blob files: ``<root>/blobs/ab/cdef...`` named by their SHA-256.

Writes are atomic and durable: the bytes go to a temporary file (``.tmp-*``) in the
destination directory, which is flushed and ``os.fsync``-ed, then ``os.replace``-d onto the
final name, and the directory is fsync-ed. A crash leaves at most a temporary file, which
readers never see and :meth:`BlobStore.remove_temp_files` (``Workspace.gc``) deletes. The
same bytes stored twice are one file. Reads verify the hash.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from scorio_core.store._ids import validate_sha256

__all__ = ["CHUNK", "DIR_MODE", "FILE_MODE", "BlobStore", "CorruptBlobError", "StoredBlob", "TEMP_PREFIX", "sha256_of"]

CHUNK = 1 << 20
TEMP_PREFIX = ".tmp-"
#: Modes of the workspace's folders and files (uploads and share-link ids are for the server's account only;
#: a umask can only narrow them). Folders and files made by older versions keep theirs.
DIR_MODE = 0o700
FILE_MODE = 0o600


class CorruptBlobError(OSError):
    """A blob is missing or its bytes no longer match its SHA-256 name."""


class StoredBlob(NamedTuple):
    """Result of :meth:`BlobStore.put`: the digest, the size and whether a new file was written."""

    sha256: str
    size: int
    written: bool


def sha256_of(data) -> str:
    """SHA-256 hex digest of bytes or of a binary file object, hashed in 1 MiB chunks.

    Parameters
    ----------
    data : bytes, bytearray, memoryview or binary file object
        A file object is read from its current position to the end.

    Returns
    -------
    str
        64 lowercase hex characters.

    Raises
    ------
    TypeError
        If ``data`` is neither bytes-like nor has ``read``.
    """
    h = hashlib.sha256()
    for chunk in _chunks(data):
        h.update(chunk)
    return h.hexdigest()


def _chunks(data) -> Iterator[bytes]:
    if isinstance(data, (bytes, bytearray, memoryview)):
        view = memoryview(data).cast("B")
        for start in range(0, len(view), CHUNK):
            yield view[start:start + CHUNK]
        return
    if not hasattr(data, "read"):
        raise TypeError(f"data must be bytes or a binary file object; got {type(data).__name__}.")
    while True:
        chunk = data.read(CHUNK)
        if not chunk:
            return
        if not isinstance(chunk, (bytes, bytearray)):
            raise TypeError("the file object must be opened in binary mode (read() returned text).")
        yield chunk


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


class BlobStore:
    """Blob files under ``<root>/blobs``.

    Parameters
    ----------
    root : path-like
        The workspace root; blobs live in ``root / "blobs"``.
    """

    def __init__(self, root) -> None:
        self.dir = Path(root) / "blobs"
        self.dir.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)

    def path(self, sha256: str) -> Path:
        """File path of a blob (the digest is validated first; nothing else makes a path).

        Raises
        ------
        ValueError
            If ``sha256`` is not 64 lowercase hex characters.
        """
        sha = validate_sha256(sha256)
        return self.dir / sha[:2] / sha[2:]

    def exists(self, sha256: str) -> bool:
        """True when the blob file is present (not verified)."""
        return self.path(sha256).is_file()

    def put(self, data) -> StoredBlob:
        """Store bytes or a binary file object atomically; return its digest.

        Parameters
        ----------
        data : bytes-like or binary file object
            A seekable file object is hashed, rewound and copied (the copy is hashed again
            and must match); a non-seekable one is spooled to a temporary file in
            ``blobs/`` while it is hashed.

        Returns
        -------
        StoredBlob
            ``written`` is False when the same bytes were already stored (the file's
            modification time is refreshed).

        Raises
        ------
        TypeError
            If ``data`` is neither bytes-like nor a binary file object.
        OSError
            If the file cannot be written, or a seekable file changed while it was copied.
        """
        if isinstance(data, (bytes, bytearray, memoryview)) or _seekable(data):
            start = None if isinstance(data, (bytes, bytearray, memoryview)) else data.tell()
            sha = sha256_of(data)
            final = self.path(sha)
            if final.is_file():
                return StoredBlob(sha, self._touch(final), False)
            for attempt in range(3):  # a gc(grace_seconds=0) elsewhere may remove our temporary file
                if start is not None:
                    data.seek(start)
                try:
                    size, got = self._write_temp_and_replace(data, final.parent, final)
                    break
                except FileNotFoundError:
                    if attempt == 2:
                        raise
            if got != sha:
                raise OSError("the file changed while it was being stored; try again.")
            return StoredBlob(sha, size, True)
        tmp = self._temp_path(self.dir)
        size, sha = self._write(data, tmp)
        final = self.path(sha)
        if final.is_file():
            tmp.unlink(missing_ok=True)
            return StoredBlob(sha, self._touch(final), False)
        final.parent.mkdir(exist_ok=True, mode=DIR_MODE)
        os.replace(tmp, final)
        _fsync_dir(final.parent)
        _fsync_dir(self.dir)
        return StoredBlob(sha, size, True)

    def _touch(self, path: Path) -> int:
        try:
            os.utime(path)
        except OSError:  # pragma: no cover - read-only media: the file is still there
            pass
        return path.stat().st_size

    def _temp_path(self, directory: Path) -> Path:
        return directory / f"{TEMP_PREFIX}{secrets.token_hex(8)}"

    def _write(self, data, tmp: Path) -> tuple[int, str]:
        h, size = hashlib.sha256(), 0
        try:
            with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE), "wb") as out:
                for chunk in _chunks(data):
                    out.write(chunk)
                    h.update(chunk)
                    size += len(chunk)
                out.flush()
                os.fsync(out.fileno())
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return size, h.hexdigest()

    def _write_temp_and_replace(self, data, directory: Path, final: Path) -> tuple[int, str]:
        directory.mkdir(exist_ok=True, mode=DIR_MODE)
        tmp = self._temp_path(directory)
        size, sha = self._write(data, tmp)
        if final.parent.name + final.name != sha:  # a seekable file changed between the passes
            tmp.unlink(missing_ok=True)
            return size, sha
        os.replace(tmp, final)
        _fsync_dir(directory)
        return size, sha

    def read(self, sha256: str) -> bytes:
        """The bytes of a blob, verified against its SHA-256 while they are read.

        Raises
        ------
        ValueError
            If ``sha256`` is not 64 lowercase hex characters.
        CorruptBlobError
            (an OSError) if the file is missing or its bytes do not match the digest.
        """
        path = self.path(sha256)
        h, parts = hashlib.sha256(), []
        try:
            with open(path, "rb") as f:
                for chunk in _chunks(f):
                    h.update(chunk)
                    parts.append(chunk)
        except FileNotFoundError:
            raise CorruptBlobError(f"workspace blob {sha256[:12]}... is missing from {self.dir}; "
                                   "restore the workspace from a backup or delete the dataset.") from None
        got = h.hexdigest()
        if got != sha256:
            raise CorruptBlobError(f"workspace blob {sha256[:12]}... is corrupt: its bytes hash to {got[:12]}... "
                                   f"(file {path}); restore it from a backup or delete the dataset.")
        return b"".join(parts)

    def iter_blobs(self) -> Iterator[tuple[str, int, float]]:
        """Every blob file as ``(sha256, size, mtime)``; stray and temporary files are skipped."""
        for shard in _scandir(self.dir):
            if not (shard.is_dir(follow_symlinks=False) and len(shard.name) == 2):
                continue
            for entry in _scandir(Path(shard.path)):
                name = shard.name + entry.name
                if entry.name.startswith(TEMP_PREFIX) or not entry.is_file(follow_symlinks=False):
                    continue
                try:
                    validate_sha256(name)
                    st = entry.stat(follow_symlinks=False)
                except (ValueError, OSError):
                    continue
                yield name, st.st_size, st.st_mtime

    def remove(self, sha256: str) -> int:
        """Delete a blob file; return the bytes freed (0 if it was absent)."""
        path = self.path(sha256)
        try:
            size = path.stat().st_size
            path.unlink()
        except FileNotFoundError:
            return 0
        return size

    def remove_temp_files(self, older_than_seconds: float = 3600.0) -> tuple[int, int]:
        """Delete temporary files left by interrupted writes; return ``(files, bytes)``.

        Parameters
        ----------
        older_than_seconds : float
            Only files not modified for this long are removed, so a write in progress in
            another process is not disturbed (0 removes all).
        """
        cutoff = time.time() - older_than_seconds
        n = freed = 0
        dirs = [self.dir] + [Path(e.path) for e in _scandir(self.dir) if e.is_dir(follow_symlinks=False)]
        for directory in dirs:
            for entry in _scandir(directory):
                if not entry.name.startswith(TEMP_PREFIX) or not entry.is_file(follow_symlinks=False):
                    continue
                try:
                    st = entry.stat(follow_symlinks=False)
                    if st.st_mtime <= cutoff:
                        os.unlink(entry.path)
                        n, freed = n + 1, freed + st.st_size
                except FileNotFoundError:
                    continue
        return n, freed

    def total_bytes(self) -> tuple[int, int]:
        """``(number of blobs, their total size in bytes)``."""
        n = total = 0
        for _, size, _ in self.iter_blobs():
            n, total = n + 1, total + size
        return n, total


def _seekable(f) -> bool:
    try:
        return bool(f.seekable())
    except (AttributeError, OSError, ValueError):
        return False


def _scandir(path: Path):
    try:
        with os.scandir(path) as it:
            return list(it)
    except FileNotFoundError:
        return []
