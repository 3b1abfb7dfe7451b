"""Loader fuzzing (issue 17): any bytes under any supported name load or raise InputError, never anything else.

Two sources of inputs, both passed to :func:`scorio_core.io.load` as ``(name, bytes)`` uploads:

* random bytes under every supported file extension (a prefix that makes the sniffers pick
  the format is sometimes prepended, so the readers behind detection are reached too);
* random mutations (bit flips, truncation, inserted bytes, deleted spans) of genuine files:
  every fixture under tests/fixtures/formats/ (HELM files are mutated inside their run, the
  lm-eval samples next to their results file) plus small generated CSV, TSV, JSONL, JSON
  records, Parquet, NPZ and gzip files for the formats the fixtures lack.

Any exception other than InputError is a loader bug. ``SCORIO_FUZZ_EXAMPLES`` scales the number
of examples (default sized so the file runs in well under 30 s).
"""

from __future__ import annotations

import gzip
import io as _io
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.io import Dataset

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ROOT / "tests" / "fixtures" / "formats"
SCALE = float(os.environ.get("SCORIO_FUZZ_EXAMPLES", "1"))

# An exception escaping into a callback (pyarrow's invalid-row handler) is printed to stderr as a
# traceback by the CLI ("Exception ignored in ..."): a bug here, not a warning.
pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")

EXTENSIONS = (".csv", ".csv.gz", ".tsv", ".tab", ".txt", ".jsonl", ".ndjson", ".json", ".parquet", ".pq", ".npz",
              ".npy", ".eval", ".gz")
PREFIXES = (b"", b"model,question_id,trial,is_correct\n", b'{"model": "m", "question_id": "q", "is_correct": ', b"[{",
            b"PK\x03\x04", b"\x93NUMPY\x01\x00", b"PAR1", b"\x1f\x8b\x08\x00", b'{"eval": {', b'{"source": ',
            b"\xef\xbb\xbf", b"\xff\xfe")


def _generated() -> dict[str, bytes]:
    rows = [(f"m{m}", f"q{q}", t, (m + q + t) % 2) for m in range(2) for q in range(3) for t in range(2)]
    frame = pd.DataFrame(rows, columns=["model", "question_id", "trial", "is_correct"])
    parquet = _io.BytesIO()
    frame.to_parquet(parquet, index=False)
    npz = _io.BytesIO()
    np.savez(npz, R=np.array([[[1, 0], [0, 1], [1, 1]], [[0, 0], [1, 0], [0, 1]]], dtype=np.int8),
             models=np.array(["a", "b"]), questions=np.array(["q1", "q2", "q3"]))
    npy = _io.BytesIO()
    np.save(npy, np.array([[1, 0], [0, 1]], dtype=np.int8))
    csv = frame.to_csv(index=False).encode()
    return {
        "long.csv": csv,
        "long.csv.gz": gzip.compress(csv),
        "long.tsv": frame.to_csv(index=False, sep="\t").encode(),
        "wide.csv": b"model,question_id,trial_0,trial_1\nm1,q1,1,0\nm1,q2,0,0\nm2,q1,1,1\n",
        "counts.csv": b"model,question_id,n_trials,n_correct\nm1,q1,4,3\nm2,q1,4,1\n",
        "long.jsonl": frame.to_json(orient="records", lines=True).encode(),
        "records.json": frame.to_json(orient="records").encode(),
        "long.parquet": parquet.getvalue(),
        "tensor.npz": npz.getvalue(),
        "tensor.npy": npy.getvalue(),
    }


def _fixture_groups() -> list[tuple[str, dict[str, bytes]]]:
    """(label, files) groups that load together; one file of a group is mutated at a time."""
    groups = []
    for path in sorted(FORMATS.rglob("*")):
        if path.is_file() and path.name not in ("README.md", "LICENSE") and not {"helm", "lm_eval_harness", "every_eval_ever"} & set(path.parts):
            groups.append((path.name, {path.name: path.read_bytes()}))
    for run in sorted((FORMATS / "helm").iterdir()):
        groups.append((f"helm/{run.name[:24]}", {p.name: p.read_bytes() for p in sorted(run.iterdir())}))
    for folder in ("lm_eval_harness", "every_eval_ever"):  # results/aggregate files load beside their samples
        groups.append((folder, {p.name: p.read_bytes() for p in sorted((FORMATS / folder).iterdir())}))
    groups.extend((name, {name: data}) for name, data in _generated().items())
    return groups


GROUPS = _fixture_groups()


def check(files: list[tuple[str, bytes]]) -> None:
    """Load: a Dataset or an InputError naming a file of the upload; anything else fails the test."""
    try:
        ds = io.load(files)
    except InputError as exc:
        names = {n for n, _ in files} | {"helm-run"}
        assert str(exc).strip(), "empty message"
        assert any(n in str(exc) for n in names) or len(files) > 1, f"the error does not name the file: {exc}"
        return
    assert isinstance(ds, Dataset)


def test_genuine_files_load():
    """The seeds themselves load (else the mutations would only test the first error path)."""
    for label, files in GROUPS:
        assert isinstance(io.load(list(files.items())), Dataset), label


@settings(max_examples=int(300 * SCALE), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ext=st.sampled_from(EXTENSIONS), prefix=st.sampled_from(PREFIXES), body=st.binary(max_size=600))
def test_random_bytes_with_every_extension(ext, prefix, body):
    check([(f"fuzz{ext}", prefix + body)])


@st.composite
def mutated(draw):
    label, files = draw(st.sampled_from(GROUPS))
    target = draw(st.sampled_from(sorted(files)))
    data = bytearray(files[target])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "truncate", "insert", "delete", "overwrite"]))
        pos = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[pos] ^= 1 << draw(st.integers(0, 7))
        elif kind == "truncate":
            del data[pos:]
        elif kind == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=16) | st.sampled_from([b"\x00", b"\xff", b'"', b",", b"\n",
                                                                                          b"{", b"[", b"]", b"}", b"NaN", b"1e999"]))
        elif kind == "delete":
            del data[pos:pos + draw(st.integers(1, 64))]
        elif kind == "overwrite" and data:
            chunk = draw(st.binary(min_size=1, max_size=8))
            data[pos:pos + len(chunk)] = chunk
    return [(name, bytes(data) if name == target else content) for name, content in files.items()]


@settings(max_examples=int(600 * SCALE), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(files=mutated())
def test_mutated_genuine_files(files):
    check(files)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("rag.csv", b"model,question_id,trial,is_correct\nm1,q1,0,1\nm1,q2,0,1,5,6\xb6\n"),
        ("rag.tsv", b"model\tquestion_id\ttrial\tis_correct\nm1\tq1\t0\t1\nm1\tq1\tx\tq1\t1\t1\xb6\xb6\n"),
    ],
)
def test_ragged_row_with_bad_utf8_names_the_line(name, data):
    """Found by this fuzzer: pyarrow failed inside the ragged-row callback and printed a traceback."""
    with pytest.raises(InputError, match=rf"{name.replace('.', '[.]')} line 3: the text is not UTF-8 \(byte 0xb6\)"):
        io.load([(name, data)])


@pytest.mark.parametrize("label", [label for label, _ in GROUPS])
def test_every_truncation_point_of_small_seeds(label):
    """Deterministic sweep: each seed cut at 16 evenly spaced points."""
    files = dict(GROUPS)[label]
    target = max(files, key=lambda n: len(files[n]))
    data = files[target]
    for cut in sorted({int(len(data) * i / 16) for i in range(16)}):
        check([(n, data[:cut] if n == target else c) for n, c in files.items()])
