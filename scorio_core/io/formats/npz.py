"""NumPy outcome tensors: ``R`` of shape (L, M, N) as in the reference package.

The reference package (scorio 0.2.3, ``scorio.rank._base.validate_input``) takes ``R`` of
shape ``(L, M, N)`` (models x questions x trials) or ``(L, M)`` (one trial) with binary
entries; its categorical metrics take integer codes ``0..C``. This reader accepts an ``.npz``
with:

- ``R`` (required; or the only array in the file): bool, integer or float. Binary values
  become ``is_correct``; integers above 1 are category codes (``category``); ``-1`` (or NaN
  in a float tensor) marks a trial that was not run.
- ``models`` (L,), ``questions`` (M,): str arrays (default ``model_0 ...``, ``0 ...``).
- ``trials`` (N,): integer trial ids (default ``0 .. N-1``); ``task``: 0-d str (default the
  file stem).

``np.load`` always runs with ``allow_pickle=False``: object arrays are refused.
"""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, natural_key
from scorio_core.io._sources import Source

__all__ = ["read_npz"]

_KNOWN = {"R", "models", "questions", "trials", "task"}


def read_npz(src: Source, mapping) -> Part:
    """Read an NPZ/NPY outcome tensor into a canonical attempt table.

    Raises
    ------
    InputError
        Pickled (object) arrays, a damaged archive, a missing or mis-shaped ``R``, label
        arrays of the wrong length, or values that are neither binary nor category codes.
    """
    if mapping:
        raise InputError("a column mapping does not apply to NPZ tensors; name the arrays R, models, questions, trials, task.", source=src.name)
    arrays = _load(src)
    if "R" in arrays:
        R = arrays["R"]
    elif len(arrays) == 1:
        R = next(iter(arrays.values()))
    else:
        raise InputError(f"no array named 'R' among {', '.join(sorted(arrays))}; save the outcome tensor as R.", source=src.name, field="R")
    if R.ndim == 2:
        R = R[:, :, None]
    if R.ndim != 3 or 0 in R.shape:
        raise InputError(f"R must have shape (L, M, N) or (L, M) with no empty axis; got shape {R.shape}.", source=src.name, field="R")
    L, M, N = R.shape
    models = _labels(src, arrays, "models", L, [f"model_{i}" for i in range(L)])
    questions = _labels(src, arrays, "questions", M, [str(i) for i in range(M)])
    trials = np.arange(N, dtype=np.int64)
    if "trials" in arrays:
        trials = np.asarray(arrays["trials"])
        if trials.shape != (N,) or trials.dtype.kind not in "iu":
            raise InputError(f"trials must be an integer array of shape ({N},); got {trials.dtype} of shape {trials.shape}.", source=src.name, field="trials")
        trials = trials.astype(np.int64)
    task = src.stem
    defaults = []
    if "task" in arrays:
        task = str(np.asarray(arrays["task"]).reshape(-1)[0])
    else:
        defaults.append(f"{src.name}: no task array; task set to the file stem '{task}'.")
    values, present = _values(src, R)
    li, mi, ni = np.nonzero(present)
    v = values[li, mi, ni]
    binary = bool(np.all((v == 0) | (v == 1)))
    table = pd.DataFrame(
        {
            "model": _categorical(models, li),
            "task": pd.Categorical.from_codes(np.zeros(li.size, dtype=np.int8), categories=pd.Index([task], dtype=str)),
            "question_id": _categorical(questions, mi),
            "trial": trials[ni],
            "is_correct": v.astype(np.float64) if binary else np.full(li.size, np.nan),
        }
    )
    if not binary:
        table["category"] = pd.array(v.astype(np.int64), dtype="Int64")
    notes = []
    if (~present).any():
        notes.append(f"{src.name}: {int((~present).sum())} tensor entries are -1/NaN (trials not run; no attempt rows).")
    mapping_used = {"model": "models" if "models" in arrays else "<index>", "question_id": "questions" if "questions" in arrays else "<index>",
                    "trial": "trials" if "trials" in arrays else "<axis 2>", "is_correct" if binary else "category": "R"}
    return Part(source=src.name, format="npz", layout="attempts", table=table, mapping=mapping_used, defaults=defaults, notes=notes, rows=len(table))


def _categorical(labels: list[str], index: np.ndarray) -> pd.Categorical:
    """Categorical with naturally sorted categories from unique labels and positions."""
    order = sorted(range(len(labels)), key=lambda i: natural_key(labels[i]))
    rank = np.empty(len(labels), dtype=np.int64)
    rank[order] = np.arange(len(labels))
    cats = pd.Index([labels[i] for i in order], dtype=str)
    return pd.Categorical.from_codes(rank[index], categories=cats)


def _declared_bytes(fh) -> int:
    """Bytes an .npy stream declares in its header (shape x itemsize), read before any allocation."""
    version = np.lib.format.read_magic(fh)
    reader = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
    shape, _, dtype = reader(fh, max_header_size=10_000)
    return int(np.prod(shape, dtype=object)) * max(int(dtype.itemsize), 1)


def _check_declared_sizes(src: Source, data: bytes) -> None:
    """Refuse arrays whose header declares more than the decompression limit (no allocation first)."""
    from scorio_core.limits import get_limits, human_bytes

    limits = get_limits()
    declared = 0
    if data[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = [n for n in zf.namelist() if n.endswith(".npy")]
            if len(zf.namelist()) > limits.max_archive_members:
                raise InputError(f"the archive has {len(zf.namelist()):,} members, more than the limit of "
                                 f"{limits.max_archive_members:,} (SCORIO_MAX_ARCHIVE_MEMBERS).", source=src.name)
            for name in names:
                with zf.open(name) as fh:
                    size = _declared_bytes(fh)
                if size > limits.max_decompressed_bytes:
                    raise InputError(f"array {name[:-4]!r} declares {human_bytes(size)}, more than the limit of "
                                     f"{human_bytes(limits.max_decompressed_bytes)} (SCORIO_MAX_DECOMPRESSED_BYTES).",
                                     source=src.name)
                declared += size
    elif data[:6] == b"\x93NUMPY":
        declared = _declared_bytes(io.BytesIO(data))
    if declared > limits.max_decompressed_bytes:
        raise InputError(f"the arrays declare {human_bytes(declared)}, more than the limit of "
                         f"{human_bytes(limits.max_decompressed_bytes)} (SCORIO_MAX_DECOMPRESSED_BYTES).", source=src.name)


def _load(src: Source) -> dict[str, np.ndarray]:
    data = src.data()
    try:
        _check_declared_sizes(src, data)
        loaded = np.load(io.BytesIO(data), allow_pickle=False)
        if isinstance(loaded, np.ndarray):
            return {"R": loaded}
        with loaded:
            out = {}
            for key in loaded.files:
                out[key] = loaded[key]
            return out
    except InputError:  # a ValueError too: the size-limit message must not be wrapped again
        raise
    except ValueError as exc:
        if "allow_pickle" in str(exc) or "Object arrays" in str(exc):
            raise InputError(
                "the file holds a pickled (object) array, which is never loaded (pickles can run code); "
                "save labels as str arrays, e.g. np.savez(f, R=R, models=np.array(names, dtype=str)).",
                source=src.name,
            ) from None
        raise InputError(f"not a readable NPZ/NPY file ({exc}).", source=src.name) from None
    except (OSError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise InputError(f"not a readable NPZ/NPY file, damaged or truncated ({exc}); save it again with np.savez.", source=src.name) from None


def _labels(src: Source, arrays, name: str, size: int, default: list[str]) -> list[str]:
    if name not in arrays:
        return default
    arr = np.asarray(arrays[name])
    if arr.shape != (size,):
        raise InputError(f"{name} must have shape ({size},) to match R; got {arr.shape}.", source=src.name, field=name)
    labels = [str(x) for x in arr.tolist()]
    if len(set(labels)) != size:
        dup = next(x for x in labels if labels.count(x) > 1)
        raise InputError(f"{name} must be unique; '{dup}' appears more than once.", source=src.name, field=name)
    return labels


def _values(src: Source, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    kind = R.dtype.kind
    if kind == "b":
        return R.astype(np.int64), np.ones(R.shape, dtype=bool)
    if kind in "iu":
        present = R != -1
        bad = present & (R < 0)
        if bad.any():
            raise InputError(f"R entries must be 0/1, category codes >= 0 or -1 (not run); got {R[bad][0]} at index {tuple(int(i) for i in np.argwhere(bad)[0])}.", source=src.name, field="R")
        return R.astype(np.int64), present
    if kind == "f":
        present = ~np.isnan(R) & (R != -1)
        v = R[present]
        ok = (v == np.round(v)) & (v >= 0)
        if not ok.all():
            idx = tuple(int(i) for i in np.argwhere(present)[np.flatnonzero(~ok)[0]])
            raise InputError(f"R entries must be 0/1 or whole-number category codes; got {R[idx]} at index {idx}.", source=src.name, field="R")
        return np.where(present, R, 0).astype(np.int64), present
    raise InputError(f"R must be a numeric or boolean array; got dtype {R.dtype}.", source=src.name, field="R")
