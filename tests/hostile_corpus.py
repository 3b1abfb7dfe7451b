"""Hostile input files, generated on demand (issue 17). A module, not a test file.

``build_corpus(directory)`` writes every case into ``directory`` (nothing binary is committed)
and returns ``Case(name, path, expected)`` tuples: ``expected`` is a substring of the one-line
error the CLI and the app must show, or ``None`` when the file is harmless-looking data that
must load (its hostile content has to be neutralised on the way out instead).

Some cases need a limit lowered so they stay small and fast: :func:`case_env` gives the
environment variables to set. :data:`RUBRIC_CASES` are rubric JSON files (used with a good
data file: ``leaderboard good.csv --schema rubric.json``, or the app's rubric uploader).

Used by tests/cli/test_hostile_corpus.py and tests/app/test_hostile_uploads.py.
"""

from __future__ import annotations

import gzip
import io
import json
import struct
import zipfile
import zlib
from pathlib import Path
from typing import NamedTuple

__all__ = ["CASE_NAMES", "Case", "GOOD_CSV", "HOSTILE_NAME", "LIMIT_ENV", "RUBRIC_CASES", "build_corpus", "case_env"]

ROOT = Path(__file__).resolve().parents[1]
INSPECT = ROOT / "tests" / "fixtures" / "formats" / "inspect_ai" / "log_read_sample.eval"

#: A file name that is live Markdown/HTML if rendered unescaped.
HOSTILE_NAME = "[x](javascript:alert(4)) **bold** <b>b.csv"

#: A small valid long table (3 models x 4 questions x 3 trials).
GOOD_CSV = "model,question_id,trial,is_correct\n" + "".join(
    f"m{m},q{q},{t},{(m + q + t) % 2}\n" for m in range(3) for q in range(4) for t in range(3)
)

_MiB = 1 << 20

#: Lowered limits per case (strings, for os.environ / subprocess env / monkeypatch.setenv).
LIMIT_ENV: dict[str, dict[str, str]] = {
    "gzip_bomb": {"SCORIO_MAX_DECOMPRESSED_BYTES": str(64 * _MiB)},
    "zip_bomb_eval": {"SCORIO_MAX_DECOMPRESSED_BYTES": str(64 * _MiB)},
    "zip_many_members": {"SCORIO_MAX_ARCHIVE_MEMBERS": "1000"},
    "too_many_models": {"SCORIO_MAX_MODELS": "50"},
}

#: Cases that are rubric files rather than data files.
RUBRIC_CASES = frozenset({"rubric_weight_1e308"})

#: Decompressed size of the bombs: 2 GiB (about 2 MB on disk), far past the lowered 64 MiB limit,
#: and more than the CLI test's peak-RSS bound, so a loader that inflated it all would fail the test.
BOMB_BYTES = 2048 * _MiB


#: Every case, in corpus order (known before the files are built, for pytest parametrization).
CASE_NAMES = (
    "gzip_bomb", "zip_bomb_eval", "zip_bomb_lying_size", "zip_many_members", "deep_json", "deep_jsonl",
    "deep_inspect_header", "npz_huge_header", "trial_beyond_int64", "not_utf8", "ragged_not_utf8", "empty_file",
    "markdown_file_name", "formula_model_names", "rubric_weight_1e308", "too_many_models", "sparse_dense_cells",
)


class Case(NamedTuple):
    name: str
    path: Path
    expected: str | None


def case_env(name: str) -> dict[str, str]:
    """Environment variables the case needs (lowered limits); empty for most."""
    return dict(LIMIT_ENV.get(name, {}))


def _write_gzip_bomb(path: Path, size: int) -> None:
    """A CSV header, then ``size`` bytes of '0' as concatenated gzip members (built in well under a second)."""
    member = gzip.compress(b"0" * (64 * _MiB), compresslevel=9)
    with open(path, "wb") as fh:
        fh.write(gzip.compress(b"model,question_id,is_correct\n"))
        for _ in range(size // (64 * _MiB)):
            fh.write(member)


def _copy_inspect(dst: zipfile.ZipFile, skip: tuple[str, ...] = ()) -> None:
    with zipfile.ZipFile(INSPECT) as src:
        for info in src.infolist():
            if info.filename not in skip:
                dst.writestr(info, src.read(info))


def _deflate_repeated(block: bytes, times: int) -> tuple[bytes, int]:
    """Raw deflate of ``block * times`` and its CRC-32, without compressing it all.

    After ``Z_FULL_FLUSH`` the compressor is back in its initial state, so the bytes for one
    block can be repeated; a final empty block ends the stream.
    """
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = co.compress(block) + co.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(times):
        crc = zlib.crc32(block, crc)
    return chunk * times + zlib.compressobj(9, zlib.DEFLATED, -15).flush(zlib.Z_FINISH), crc


def _write_zip(path: Path, members: list[tuple[str, int, bytes, int, int]]) -> None:
    """A plain zip (no zip64) from ``(name, method, stored bytes, crc32, uncompressed size)``."""
    with open(path, "wb") as fh:
        central = []
        for name, method, data, crc, size in members:
            offset = fh.tell()
            raw = name.encode()
            fh.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, method, 0, 0x21, crc, len(data), size, len(raw), 0))
            fh.write(raw)
            fh.write(data)
            central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, method, 0, 0x21, crc, len(data), size,
                                       len(raw), 0, 0, 0, 0, 0, offset) + raw)
        start = fh.tell()
        for entry in central:
            fh.write(entry)
        fh.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), fh.tell() - start, start, 0))


def _write_zip_bomb(path: Path, size: int) -> None:
    """The genuine Inspect log's members plus a ``samples/x.json`` member of ``size`` spaces."""
    with zipfile.ZipFile(INSPECT) as src:
        members = [(i.filename, 0, src.read(i), i.CRC, i.file_size) for i in src.infolist()]
    data, crc = _deflate_repeated(b" " * (64 * _MiB), size // (64 * _MiB))
    _write_zip(path, members + [("samples/x.json", 8, data, crc, size)])


def _write_lying_zip_bomb(path: Path, size: int) -> None:
    """Like :func:`_write_zip_bomb`, but the member's header declares 1 kB (sizes in headers can lie)."""
    with zipfile.ZipFile(INSPECT) as src:
        members = [(i.filename, 0, src.read(i), i.CRC, i.file_size) for i in src.infolist()]
    data, crc = _deflate_repeated(b" " * (64 * _MiB), size // (64 * _MiB))
    _write_zip(path, members + [("samples/x.json", 8, data, crc, 1000)])


def _write_many_members(path: Path, n: int) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        _copy_inspect(zf)
        for i in range(n):
            zf.writestr(f"junk/{i}.txt", b"")


def _deep(n: int) -> bytes:
    return b"[" * n + b"]" * n


def _write_deep_inspect_header(path: Path) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        _copy_inspect(zf, skip=("header.json",))
        zf.writestr("header.json", b'{"version": 2, "status": "success", "eval": ' + _deep(100_000) + b"}")


def _write_huge_npz(path: Path) -> None:
    import numpy as np

    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": "<i8", "fortran_order": False, "shape": (10**5, 10**5, 10**5)})
    buf.write(b"\x00" * 64)
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("R.npy", buf.getvalue())


def _rubric_1e308() -> str:
    doc = {
        "format": "scorio-rubric",
        "version": 1,
        "name": "Huge weight",
        "description": "a weight of 1e308 overflows every weighted sum",
        "thresholds": [],
        "variables": [],
        "categories": [
            {"label": "wrong", "condition": "is_correct < 0.5", "weight": 0.0},
            {"label": "correct", "condition": "is_correct >= 0.5", "weight": 1e308},
        ],
    }
    return json.dumps(doc)


def build_corpus(directory) -> list[Case]:
    """Write every hostile case into ``directory``; return ``Case(name, path, expected)`` tuples.

    ``expected`` is a substring of the single error line (the file name is checked separately
    by the callers), or ``None`` for a file that must load.
    """
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    cases: list[Case] = []

    def add(name: str, file_name: str, expected: str | None, content: bytes | str | None = None, writer=None) -> None:
        path = d / file_name
        if writer is not None:
            writer(path)
        else:
            path.write_bytes(content.encode() if isinstance(content, str) else content)
        cases.append(Case(name, path, expected))

    add("gzip_bomb", "bomb.csv.gz", "SCORIO_MAX_DECOMPRESSED_BYTES", writer=lambda p: _write_gzip_bomb(p, BOMB_BYTES))
    add("zip_bomb_eval", "bomb.eval", "SCORIO_MAX_DECOMPRESSED_BYTES", writer=lambda p: _write_zip_bomb(p, BOMB_BYTES))
    add("zip_bomb_lying_size", "liar.eval", "samples/x.json", writer=lambda p: _write_lying_zip_bomb(p, BOMB_BYTES))
    add("zip_many_members", "many.eval", "SCORIO_MAX_ARCHIVE_MEMBERS", writer=lambda p: _write_many_members(p, 1200))
    add("deep_json", "deep.json", "nested too deeply", _deep(200_000) + b"\n")
    add("deep_jsonl", "deep.jsonl", "nested too deeply", _deep(200_000) + b"\n")
    add("deep_inspect_header", "deep_header.eval", "nested too deeply", writer=_write_deep_inspect_header)
    add("npz_huge_header", "huge.npz", "declares", writer=_write_huge_npz)
    add("trial_beyond_int64", "bigtrial.csv", "below 2**53",
        "model,question_id,trial,is_correct\nm1,q1,99999999999999999999,1\nm1,q1,0,0\n")
    add("not_utf8", "latin1.csv", "not UTF-8",
        "model,question_id,trial,is_correct\ncaf\u00e9,q1,0,1\n".encode("latin-1"))
    add("ragged_not_utf8", "ragged.csv", "not UTF-8",  # pyarrow used to fail inside its bad-row callback
        b"model,question_id,trial,is_correct\nm1,q1,0,1\nm1,q2,0,1,5,6\xb6\n")
    add("empty_file", "empty.csv", "empty", b"")
    add("markdown_file_name", HOSTILE_NAME, "is_correct", "model,question_id,is_correct\na,q1,maybe\n")
    add("formula_model_names", "formulas.csv", None,
        "model,question_id,trial,is_correct\n"
        + "".join(f'"=HYPERLINK(""http://evil.example/?{m}"",""x"")",q{q},0,{(m + q) % 2}\n' for m in range(2) for q in range(3))
        + "".join(f"@SUM(1+1)*cmd|' /C calc'!A0,q{q},0,1\n" for q in range(3)))
    add("rubric_weight_1e308", "rubric_huge_weight.json", "weight of", _rubric_1e308())
    add("too_many_models", "many_models.csv", "SCORIO_MAX_MODELS",
        "model,question_id,trial,is_correct\n" + "".join(f"m{m},q1,0,{m % 2}\n" for m in range(60)))
    # security QA: 60,000 count rows (161 kB gzip) of 6,000 models x 60,000 questions asked for a 5.4 GiB tensor
    add("sparse_dense_cells", "sparse_mid.csv.gz", "SCORIO_MAX_DENSE_CELLS", gzip.compress(
        ("model,question_id,n_trials,n_correct\n"
         + "".join(f"m{m},q{(m * 10 + j) % 60_000},4,{(m + j) % 5}\n" for m in range(6000) for j in range(10))).encode()))
    (d / "good.csv").write_text(GOOD_CSV)
    assert tuple(c.name for c in cases) == CASE_NAMES, "update CASE_NAMES"
    return cases
