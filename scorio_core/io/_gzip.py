"""Streaming decompression under the decompressed-size limit (a gzip or zip bomb is refused, never held).

Used by :class:`scorio_core.io._sources.Source` for every ``.gz`` input and by the zip readers (Inspect ``.eval``
logs, Excel workbooks) for each member (``SCORIO_MAX_DECOMPRESSED_BYTES``, :mod:`scorio_core.limits`).
"""

from __future__ import annotations

import re
import zlib

from scorio_core.errors import InputError

__all__ = ["archive_files", "gunzip_limited", "zip_member"]

#: Most decompressed bytes one ``decompress`` call returns while counting (CPython's output buffer
#: briefly holds about twice this).
_GUNZIP_CHUNK = 4 << 20
#: Compressed bytes handed to ``decompress`` at a time (bounds the ``unconsumed_tail`` copies).
_GUNZIP_INPUT = 1 << 20
_ZEROS = re.compile(rb"\x00*")


def gunzip_limited(raw: bytes, name: str) -> bytes:
    """Decompress gzip bytes (concatenated members too), refusing a bomb while streaming.

    A first pass inflates the stream in bounded chunks (at most 4 MiB of output per call) and
    only counts the bytes, stopping with an :class:`InputError` as soon as the count exceeds
    ``SCORIO_MAX_DECOMPRESSED_BYTES``; a stream over the limit (a gzip bomb) is never held in
    memory (peak about 12 MiB over ``raw`` whatever its decompressed size). Only within the limit
    is it decompressed for real, each member in one call into a buffer of its exact, now known,
    size (output up to 4 MiB is kept from the first pass instead). Zero bytes padding the end of
    a member are skipped, as before.

    Parameters
    ----------
    raw : bytes
        The compressed file (one or more gzip members, bytes-like).
    name : str
        File name for the error message.

    Returns
    -------
    bytes
        The decompressed content, ``len <= SCORIO_MAX_DECOMPRESSED_BYTES`` bytes (a file exactly
        at the limit loads); peak memory about the decompressed size plus ``raw`` (twice the
        decompressed size for several members, joined once).

    Raises
    ------
    InputError
        When the output would exceed ``SCORIO_MAX_DECOMPRESSED_BYTES`` (one line naming the file,
        the limit and how to change it).
    zlib.error
        A damaged stream, or bytes after a member that are neither zeros nor another member.
    EOFError
        A truncated stream (no end-of-stream marker); :meth:`Source.data` turns both into an
        ``InputError``.
    """
    from scorio_core.limits import get_limits

    limit = get_limits().max_decompressed_bytes
    members, kept = _count_gzip_members(raw, name, limit)
    if kept is not None:
        return b"".join(kept)
    view = memoryview(raw)
    # each member in one call into a buffer of its exact size: CPython returns that buffer, no copy
    parts = [zlib.decompress(view[start:stop], wbits=16 + zlib.MAX_WBITS, bufsize=max(size, 1))
             for start, stop, size in members]
    data = b"".join(parts)  # a single member (the usual case) is returned without a copy
    if len(data) != sum(size for _, _, size in members):  # cannot happen: the same bytes inflated twice
        raise zlib.error("the gzip stream decompressed to a different size on the second pass")
    return data


def _count_gzip_members(raw: bytes, name: str, limit: int) -> tuple[list[tuple[int, int, int]], list[bytes] | None]:
    """First pass of :func:`gunzip_limited`: ``(start, stop, size)`` of each member and the output if small.

    Output is kept while the running total stays within ``_GUNZIP_CHUNK`` (returned as the list of
    chunks; None once it is larger), so small files are inflated once.
    """
    from scorio_core.limits import human_bytes

    view = memoryview(raw)
    n = len(view)
    members: list[tuple[int, int, int]] = []
    kept: list[bytes] | None = []
    total = 0
    pos = 0
    while pos < n:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        start, size, tail = pos, 0, b""
        while not d.eof:
            if not tail and pos < n:
                tail = view[pos : pos + _GUNZIP_INPUT]
                pos += len(tail)
            chunk = d.decompress(tail, min(_GUNZIP_CHUNK, limit + 1 - total))
            tail = d.unconsumed_tail
            size += len(chunk)
            total += len(chunk)
            if total > limit:
                raise InputError(
                    f"decompresses to more than {human_bytes(limit)} (limit SCORIO_MAX_DECOMPRESSED_BYTES); split the "
                    "file or raise the limit.",
                    source=name,
                )
            if kept is not None:
                if total <= _GUNZIP_CHUNK:
                    kept.append(chunk)
                else:
                    kept = None
            if not chunk and not tail and pos >= n and not d.eof:
                raise EOFError("compressed file ended before the end-of-stream marker was reached")
        stop = pos - len(d.unused_data)
        members.append((start, stop, size))
        pos = _ZEROS.match(raw, stop).end()  # zero padding after a member is allowed (as gzip does)
    return members, kept


def zip_member(zf, member: str, budget: list[int], name: str, fix: str) -> bytearray:
    """A zip member's bytes, never more than what is left of the decompression budget (``budget[0]``, reduced).

    Declared sizes can lie: at most the budget + 1 is read, in 1 MiB steps. One big ``fh.read(n)`` would let
    zipfile inflate up to n bytes in one go even when the header declares 1 kB (a 2 MB member inflating to 2 GiB
    peaked at 2.2 GB RSS). The chunks grow one bytearray (no list of chunks joined at the end: that held the member
    twice).

    Parameters
    ----------
    zf : zipfile.ZipFile
    member : str
    budget : list of one int
        Bytes left for the whole archive; the member's size is taken off.
    name, fix : str
        The file's name and what to do (``"split the log"``), for the error.

    Raises
    ------
    InputError
        The member would take the archive past ``SCORIO_MAX_DECOMPRESSED_BYTES``.
    """
    from scorio_core.limits import get_limits, human_bytes

    def refuse() -> InputError:
        return InputError(f"decompresses to more than {human_bytes(get_limits().max_decompressed_bytes)} (limit "
                          f"SCORIO_MAX_DECOMPRESSED_BYTES); {fix} or raise the limit.", source=name)

    if zf.getinfo(member).file_size > budget[0]:
        raise refuse()
    data = bytearray()
    with zf.open(member) as fh:
        while len(data) <= budget[0]:
            chunk = fh.read(min(1 << 20, budget[0] + 1 - len(data)))
            if not chunk:
                break
            data += chunk
    if len(data) > budget[0]:
        raise refuse()
    budget[0] -= len(data)
    return data


#: Suffixes of archives read as the folder they hold (a zip that is an Inspect log, a workbook or a tensor file has
#: its own suffix and is read as that file).
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz")


def archive_files(name: str, data: bytes) -> list[tuple[str, bytes]] | None:
    """The files inside a zip or tar archive of a folder, ``(path, bytes)`` with each path under a folder named after
    the archive (``qwen3-8b.zip`` -> ``qwen3-8b/<path inside>``: an archive made from inside a model's folder still
    names the model), read under the decompressed-size limit (one budget for the whole archive); None when ``name``
    is not such an archive.

    A ``.zip``, ``.tar``, ``.tar.gz`` or ``.tgz`` (by name: an Inspect ``.eval`` log, an ``.npz`` tensor file and a
    workbook are zip files read as themselves). Folders, links and devices are skipped, and so are macOS's
    ``__MACOSX/`` resource forks and ``._`` files. The names are not trusted as paths here: the caller writes them with
    :func:`scorio_core.io.roots.uploaded_folder`, which checks them part by part.

    Raises
    ------
    InputError
        A broken archive, or one that decompresses past ``SCORIO_MAX_DECOMPRESSED_BYTES``.
    """
    import io
    import tarfile
    import zipfile

    from scorio_core.limits import get_limits

    lower = name.lower()
    if not lower.endswith(ARCHIVE_SUFFIXES):
        return None
    stem = name[: -len(next(s for s in ARCHIVE_SUFFIXES if lower.endswith(s)))] or "archive"
    budget, fix = [get_limits().max_decompressed_bytes], "upload the folder instead (Upload a folder)"

    def kept(path: str) -> bool:
        parts = path.replace("\\", "/").split("/")
        return "__MACOSX" not in parts and not parts[-1].startswith("._") and bool(parts[-1])

    def inside(path: str) -> str:  # tar -C dir . writes ./a/b
        while path.startswith("./"):
            path = path[2:]
        return f"{stem}/{path}"

    try:
        if lower.endswith(".zip"):
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                return [(inside(m.filename), bytes(zip_member(zf, m.filename, budget, name, fix)))
                        for m in zf.infolist() if not m.is_dir() and kept(m.filename)]
        raw = gunzip_limited(data, name) if lower.endswith((".gz", ".tgz")) else data
        out = []
        with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as tf:
            for member in tf:
                if member.isfile() and kept(member.name):
                    fh = tf.extractfile(member)
                    out.append((inside(member.name), fh.read() if fh is not None else b""))
        return out
    except (zipfile.BadZipFile, tarfile.TarError, EOFError) as exc:
        raise InputError(f"cannot open the archive ({exc}); check that it is a complete .zip / .tar.gz.",
                         source=name) from None
