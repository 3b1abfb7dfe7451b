"""Input sources: paths, folders and in-memory uploads, as one small interface.

A source is read lazily (paths are handed to pyarrow when possible so a large CSV is not
copied into memory twice). Text is normalized to UTF-8 here: UTF-8 with or without a BOM
is read as is, UTF-16/UTF-32 with a BOM is transcoded (and the report says so), anything
else that is not UTF-8 is an :class:`InputError` naming the line.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from scorio_core.errors import InputError
from scorio_core.io._gzip import gunzip_limited

__all__ = ["AIDER_RESULTS", "DATA_SUFFIXES", "DATED_DETAILS", "HELM_FILES", "Source", "as_sources", "is_data_name", "load_json", "locate_bad_utf8", "strip_suffixes", "utf8_bytes", "utf8_text"]

_KNOWN_SUFFIXES = (".gz", ".csv", ".tsv", ".tab", ".txt", ".jsonl", ".ndjson", ".json", ".parquet",
                   ".pq", ".npz", ".npy", ".eval", ".xlsx", ".ods")
DATA_SUFFIXES = frozenset(_KNOWN_SUFFIXES) - {".gz"}
HELM_FILES = frozenset({"per_instance_stats.json", "scenario_state.json", "run_spec.json",
                        "stats.json", "scenario.json", "instances.json", "display_predictions.json",
                        "display_requests.json"})
_HEAD = 1 << 16
AIDER_RESULTS = ".aider.results.json"  # a hidden name, yet data: aider's results (io.formats.agents.aider)


#: lighteval's details files, ``details_<task>_<date_id>`` (``date_id``: the run's ISO time with ':' as '-'), whose
#: stem is the task alone, so that runs of one task on different days (one per model folder) are one task.
DATED_DETAILS = re.compile(r"^details_(.+)_\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?$")


def strip_suffixes(name: str, dated: bool = True) -> str:
    """Return a file name without its data suffixes (``results.csv.gz`` -> ``results``; openai/human-eval's
    ``<sample file>_results.jsonl`` -> the sample file's stem) and, unless ``dated`` is False, a lighteval details
    file's name without its ``details_`` prefix and run timestamp (:data:`DATED_DETAILS`).

    >>> strip_suffixes("results.csv.gz"), strip_suffixes("details_lighteval|gsm8k|5_2025-01-01T12-30-45.123456.parquet")
    ('results', 'lighteval|gsm8k|5')
    >>> strip_suffixes("gpt-4o_samples.jsonl_results.jsonl"), strip_suffixes("eval_results.jsonl")
    ('gpt-4o_samples', 'eval_results')
    """
    stem = name
    while (split := os.path.splitext(stem))[1].lower() in _KNOWN_SUFFIXES and split[0]:
        stem = split[0]
    if stem.endswith("_results") and os.path.splitext(stem[:-8])[1].lower() in _KNOWN_SUFFIXES:  # human-eval's name
        return strip_suffixes(stem[:-8], dated)
    found = DATED_DETAILS.match(stem) if dated else None
    return found.group(1) if found else stem


@dataclass
class Source:
    """One input: a file on disk, an uploaded buffer, or a HELM run folder.

    ``name`` is the file name shown in messages (never a full path); ``inner_name`` drops a
    ``.gz`` suffix so format detection sees the real extension.
    """

    name: str
    path: Path | None = None
    raw: bytes | None = None
    is_dir: bool = False
    members: dict[str, Source] = field(default_factory=dict)  # HELM uploads grouped as a run
    _data: bytes | None = field(default=None, repr=False)
    _sha: str | None = field(default=None, repr=False)
    notes: list[str] = field(default_factory=list)

    @property
    def gzipped(self) -> bool:
        return self.head(2) == b"\x1f\x8b"

    @property
    def inner_name(self) -> str:
        return self.name[:-3] if self.name.lower().endswith(".gz") else self.name

    @property
    def stem(self) -> str:
        return strip_suffixes(self.name)

    @property
    def parent_name(self) -> str | None:
        return self.path.parent.name if self.path is not None else None

    def _read_raw(self) -> bytes:
        if self.raw is None:
            if self.path is None:
                raise InputError("no data.", source=self.name)
            try:
                self.raw = self.path.read_bytes()
            except OSError as exc:
                raise InputError(f"cannot read the file ({exc.strerror}).", source=self.name) from exc
        return self.raw

    def head(self, n: int = _HEAD) -> bytes:
        """First ``n`` bytes of the stored (possibly compressed) content."""
        if self.is_dir:
            return b""
        if self.raw is None and self.path is not None:
            try:
                with open(self.path, "rb") as fh:
                    return fh.read(n)
            except OSError as exc:
                raise InputError(f"cannot read the file ({exc.strerror}).", source=self.name) from exc
        return self._read_raw()[:n]

    def data(self) -> bytes:
        """Whole content, gunzipped when the bytes are gzip."""
        if self._data is None:
            raw = self._read_raw()
            if raw[:2] == b"\x1f\x8b":
                try:
                    self._data = gunzip_limited(raw, self.name)
                except (OSError, EOFError, zlib.error) as exc:
                    raise InputError(
                        f"the gzip stream is damaged or truncated ({exc}); re-download or re-compress the file.",
                        source=self.name,
                    ) from exc
            else:
                self._data = raw
        return self._data

    def text_head(self, n: int = _HEAD) -> bytes:
        """First ``n`` bytes of the content after gunzip (for sniffing)."""
        if self.gzipped:
            try:
                return gzip.GzipFile(fileobj=_Reader(self), mode="rb").read(n)
            except (OSError, EOFError, zlib.error):
                return self.data()[:n]
        return self.head(n)

    def readable_path(self) -> Path | None:
        """A path pyarrow can read directly (plain file on disk, not gzip), else None."""
        if self.path is not None and self.raw is None and not self.gzipped:
            return self.path
        return None

    @property
    def size(self) -> int:
        if self.is_dir:
            return 0
        if self.raw is None and self.path is not None:
            return self.path.stat().st_size
        return len(self._read_raw())

    def sha256(self) -> str:
        """SHA-256 of the stored bytes (of every member file, in name order, for folders)."""
        if self._sha is None:
            h = hashlib.sha256()
            if self.is_dir:
                for key in sorted(self.members):
                    h.update(key.encode())
                    h.update(bytes.fromhex(self.members[key].sha256()))
            elif self.raw is None and self.path is not None:
                with open(self.path, "rb") as fh:
                    for block in iter(lambda: fh.read(1 << 20), b""):
                        h.update(block)
            else:
                h.update(self._read_raw())
            self._sha = h.hexdigest()
        return self._sha


class _Reader:
    """Minimal file object over a Source's raw bytes (for streaming gunzip of the head)."""

    def __init__(self, src: Source) -> None:
        self._src, self._pos = src, 0

    def read(self, n: int = -1) -> bytes:
        raw = self._src._read_raw()
        end = len(raw) if n is None or n < 0 else self._pos + n
        out = raw[self._pos : end]
        self._pos += len(out)
        return out


#: The forms :func:`as_sources` (and ``scorio_core.io.load``) accepts, for its errors.
ACCEPTED_SOURCES = ("pass a path (str or pathlib.Path), a folder, a list of paths, (name, bytes) pairs such as "
                    "('results.csv', data), or a file object with a .name (an upload, open(path, 'rb'))")


def _refused(item: object) -> InputError:
    """The error for a source of an unreadable type, naming the type and the accepted forms."""
    kind = type(item).__name__
    if isinstance(item, (bytes, bytearray, memoryview)):
        why = f"cannot read raw {kind}: they carry no file name, which tells the format"
    elif hasattr(item, "getvalue") or hasattr(item, "read"):
        why = f"cannot read a {kind} without a file name (.name), which tells the format"
    else:
        why = f"cannot read a source of type {kind}"
    return InputError(f"{why}; {ACCEPTED_SOURCES}.")


def _from_upload(obj: object) -> Source:
    if isinstance(obj, tuple) and len(obj) == 2:
        name, payload = obj
    else:
        name = getattr(obj, "name", None)
        if not isinstance(name, (str, os.PathLike)) or not str(name):
            raise _refused(obj)
        payload = obj.getvalue() if hasattr(obj, "getvalue") else obj.read()  # type: ignore[attr-defined]
    if isinstance(payload, str):
        payload = payload.encode("utf-8")
    if not isinstance(payload, (bytes, bytearray, memoryview)):
        raise InputError(f"upload {name!r} must hold bytes; got {type(payload).__name__}.")
    return Source(name=Path(str(name)).name or str(name), raw=bytes(payload))


def _is_file_like(obj: object) -> bool:
    return hasattr(obj, "getvalue") or hasattr(obj, "read")


def _is_named_bytes(obj: object) -> bool:
    return isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], (bytes, bytearray, memoryview))


def _is_helm_run(path: Path) -> bool:
    return (path / "per_instance_stats.json").is_file()


def _helm_dir(path: Path) -> Source:
    members = {
        p.name: Source(name=p.name, path=p) for p in sorted(path.iterdir()) if p.name in HELM_FILES and p.is_file()
    }
    return Source(name=path.name, path=path, is_dir=True, members=members)


def is_data_name(name: str) -> bool:
    """Whether a file name has a data suffix (:data:`DATA_SUFFIXES`, or gzipped) and is not hidden: a folder's data files.

    >>> is_data_name("runs.csv.gz"), is_data_name("run_instance.log"), is_data_name(".cache.json")
    (True, False, False)
    >>> is_data_name(".aider.results.json")  # aider's per-exercise results (io.formats.agents.aider)
    True
    """
    suffixes = [s.lower() for s in Path(name).suffixes]
    if (name.startswith(".") and name != AIDER_RESULTS) or not suffixes:
        return False
    return (suffixes[-2] if suffixes[-1] == ".gz" and len(suffixes) > 1 else suffixes[-1]) in DATA_SUFFIXES


def _expand_dir(path: Path) -> list[Source]:
    if _is_helm_run(path):
        return [_helm_dir(path)]
    found: list[Source] = []
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        here = Path(root)
        if here != path and _is_helm_run(here):
            found.append(_helm_dir(here))
            dirs[:] = []
            continue
        for f in sorted(files):
            if is_data_name(f):
                found.append(Source(name=f, path=here / f))
    if not found:
        raise InputError(
            "the folder holds no supported files (.csv, .tsv, .jsonl, .json, .parquet, .npz, .eval, "
            "or a HELM run folder with per_instance_stats.json).",
            source=path.name,
        )
    return found


def as_sources(sources: object) -> list[Source]:
    """Normalize paths, folders, uploads and ``(name, bytes)`` tuples into Sources.

    Raises
    ------
    InputError
        If a path does not exist, a folder has no supported files, nothing was given, or a source is of
        another type (raw bytes without a name, a file object without ``.name``, a number...).
    """
    if (isinstance(sources, (str, os.PathLike, Source, bytes, bytearray, memoryview)) or _is_file_like(sources)
            or _is_named_bytes(sources) or not hasattr(sources, "__iter__")):
        sources = [sources]  # one source; bytes would iterate as ints, a file object as lines
    out: list[Source] = []
    for item in sources:  # type: ignore[union-attr]
        if isinstance(item, Source):
            out.append(item)
        elif isinstance(item, (str, os.PathLike)):
            path = Path(item).absolute()  # names and layouts read the folders above a file: "x.csv" has none
            if path.is_dir():
                out.extend(_expand_dir(path))
            elif path.is_file():
                out.append(Source(name=path.name, path=path))
            else:
                raise InputError("file not found; check the path.", source=str(item))
        elif _is_named_bytes(item) or _is_file_like(item):
            out.append(_from_upload(item))
        else:
            raise _refused(item)
    if not out:
        raise InputError("no input files given; pass at least one path or upload.")
    return out


_BOMS = ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe", "utf-16-le"),
         (b"\xfe\xff", "utf-16-be"))  # UTF-32 first: its little-endian BOM starts with UTF-16's


def text_encoding(head: bytes) -> str | None:
    """The BOM-declared non-UTF-8 encoding of a text head, or None for UTF-8/unknown."""
    for bom, enc in _BOMS:
        if head.startswith(bom):
            return enc
    return None


def utf8_bytes(src: Source) -> bytes:
    """Whole content as UTF-8 bytes (BOM removed, UTF-16/32 with a BOM transcoded).

    Raises
    ------
    InputError
        If the text is UTF-16 without a BOM or not valid UTF-8 (naming the first bad line).
    """
    data = src.data()
    enc = text_encoding(data[:4])
    if enc is not None:
        try:
            text = data.decode(enc)
        except UnicodeDecodeError as exc:
            raise InputError(f"the text declares {enc} by its byte-order mark but does not decode ({exc.reason}); re-save as UTF-8.", source=src.name) from exc
        src.notes.append(f"{src.name}: transcoded from {enc.upper()} to UTF-8.")
        return text.lstrip("\ufeff").encode("utf-8")
    check_not_utf16(src.name, data[:_HEAD])
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data


def check_not_utf16(name: str, head: bytes) -> None:
    """Raise when a text head looks like UTF-16 without a byte-order mark."""
    sample = head[:4096]
    if len(sample) >= 4 and sample.count(b"\x00") * 3 >= len(sample):
        raise InputError(
            "the file looks like UTF-16 text without a byte-order mark (or is binary); re-save it "
            "as UTF-8 (e.g. 'CSV UTF-8' in Excel).",
            source=name,
        )


def locate_bad_utf8(name: str, data: bytes, field: str | None = None) -> InputError:
    """Build the error for the first byte sequence that is not UTF-8, with its line.

    Examples
    --------
    >>> print(locate_bad_utf8("r.csv", "a\\nb\\xe9\\n".encode("latin-1")))
    r.csv line 2: the text is not UTF-8 (byte 0xe9); re-save the file as UTF-8 (it looks like Latin-1/Windows-1252).
    """
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        return InputError(
            f"the text is not UTF-8 (byte 0x{data[exc.start]:02x}); re-save the file as UTF-8 "
            "(it looks like Latin-1/Windows-1252).",
            source=name,
            line=line,
            field=field,
        )
    return InputError("the text is not valid UTF-8; re-save the file as UTF-8.", source=name, field=field)


def utf8_text(src: Source, data: bytes | None = None) -> bytes:
    """UTF-8 bytes of a source, checked: invalid UTF-8 raises naming the line."""
    data = utf8_bytes(src) if data is None else data
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise locate_bad_utf8(src.name, data) from None
    return data


def load_json(src: Source, what: str = "JSON", name: str | None = None):
    """Parse a whole JSON document; errors name the file and line and say it may be truncated.

    Raises
    ------
    InputError
        Invalid UTF-8 or invalid JSON.
    """
    data = utf8_text(src)
    try:
        return json.loads(data)
    except ValueError as exc:
        raise InputError(
            f"the {what} is not valid ({getattr(exc, 'msg', exc)} at column {getattr(exc, 'colno', '?')}); the file may be truncated.",
            source=name or src.name,
            line=getattr(exc, "lineno", None),
        ) from None
