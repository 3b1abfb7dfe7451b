"""Dataset <-> stored form: the canonical table as Parquet, the report and sources as JSON.

The Parquet file holds the table (categorical columns keep their categories and order) and,
when the dataset has one, ``row_source`` as an extra int column. The JSON keeps the
:class:`~scorio_core.io.QualityReport` and the :class:`~scorio_core.io.SourceInfo` tuple
losslessly (tuples, lists, NamedTuples and non-finite floats are tagged), so reopening a
dataset gives back exactly what :func:`scorio_core.io.load` returned.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import fields

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io import Dataset, DuplicateKey, QualityReport, QuestionGap, SourceInfo, TrialSpread

__all__ = [
    "ROW_SOURCE_COLUMN",
    "dataset_from_parts",
    "decode_meta",
    "encode_meta",
    "prefix_from_parquet",
    "prefix_to_parquet",
    "table_from_parquet",
    "table_to_parquet",
]

ROW_SOURCE_COLUMN = "__scorio_row_source__"
META_VERSION = 1
_NAMED = {cls.__name__: cls for cls in (QuestionGap, TrialSpread, DuplicateKey, SourceInfo)}


def _enc(value):
    if isinstance(value, tuple) and type(value).__name__ in _NAMED and hasattr(value, "_fields"):
        return {"$nt": type(value).__name__, "v": [_enc(v) for v in value]}
    if isinstance(value, tuple):
        return {"$t": [_enc(v) for v in value]}
    if isinstance(value, list):
        return [_enc(v) for v in value]
    if isinstance(value, dict):
        return {"$d": [[_enc(k), _enc(v)] for k, v in value.items()]}
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return {"$f": repr(value)}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"cannot store a value of type {type(value).__name__} in the dataset report.")


def _dec(value):
    if isinstance(value, list):
        return [_dec(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "$t" in value:
        return tuple(_dec(v) for v in value["$t"])
    if "$nt" in value:
        return _NAMED[value["$nt"]](*(_dec(v) for v in value["v"]))
    if "$d" in value:
        return {_dec(k): _dec(v) for k, v in value["$d"]}
    if "$f" in value:
        return float(value["$f"])
    raise ValueError(f"unknown tag in a stored report: {sorted(value)[:3]}")


def encode_meta(dataset: Dataset, prefix: dict | None = None) -> str:
    """JSON text of a dataset's report, sources and the dtypes Parquet cannot keep.

    ``prefix`` is the ``meta`` of :func:`prefix_to_parquet` with its blob's ``sha256`` (a count
    table that keeps its trial order as prefix counts).
    """
    report = {f.name: _enc(getattr(dataset.report, f.name)) for f in fields(dataset.report)}
    object_columns = [str(c) for c, dt in dataset.table.dtypes.items() if dt == object]
    doc = {"version": META_VERSION, "layout": dataset.layout, "report": report,
           "sources": _enc(tuple(dataset.sources)), "object_columns": object_columns,
           "row_source": dataset.row_source is not None}
    if prefix is not None:
        doc["trial_prefix"] = prefix
    return json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def decode_meta(text: str) -> dict:
    """Inverse of :func:`encode_meta`: ``{"layout", "report", "sources", "object_columns", "row_source", "trial_prefix"}``.

    Fields of the report unknown to this version are ignored; missing ones take their defaults.
    """
    doc = json.loads(text)
    known = {f.name for f in fields(QualityReport)}
    report = QualityReport(**{k: _dec(v) for k, v in doc["report"].items() if k in known})
    return {"layout": doc["layout"], "report": report, "sources": tuple(_dec(doc["sources"])),
            "object_columns": list(doc.get("object_columns", [])), "row_source": bool(doc.get("row_source")),
            "trial_prefix": doc.get("trial_prefix")}


_PREFIX_COLUMNS = ("task", "final", "model", "n", "c", "count")


def prefix_to_parquet(dataset: Dataset) -> tuple[bytes, dict] | None:
    """The trial order a count table keeps (``Dataset.trial_prefix``) as Parquet bytes and JSON meta.

    Returns
    -------
    (bytes, dict) or None
        One row per state of every task: ``task`` (index into the meta's tasks), ``final``
        (0 live, 1 final), ``model`` (index into the task's models), ``n``, ``c``, ``count``
        (int64); the meta lists per task its name, models, question count and notes. None
        when the dataset keeps no trial order.
    """
    prefix = dataset.trial_prefix
    if not prefix:
        return None
    parts, tasks = [], []
    for i, stats in enumerate(prefix.values()):
        tasks.append({"task": stats.task, "models": list(stats.models), "n_questions": int(stats.n_questions),
                      "n_max": int(np.asarray(stats.n).size), "notes": list(stats.notes),
                      "n_attempts": int(stats.n_attempts)})
        for final, st in ((0, stats.live), (1, stats.final)):
            parts.append(np.stack([np.full(st.model.size, i), np.full(st.model.size, final), st.model, st.n, st.c,
                                   st.count]).astype(np.int64))
    rows = np.concatenate(parts, axis=1)
    buf = io.BytesIO()
    pd.DataFrame(dict(zip(_PREFIX_COLUMNS, rows))).to_parquet(buf, engine="pyarrow", index=False, compression="zstd")
    return buf.getvalue(), {"tasks": tasks}


def prefix_from_parquet(data: bytes, meta: dict, sources: tuple = ()) -> dict:
    """Inverse of :func:`prefix_to_parquet`: ``{task: PrefixStats}``.

    Raises
    ------
    ValueError
        Columns or indices that do not fit the meta (a damaged blob).
    """
    from scorio_core.dynamics.prefix import StateCounts
    from scorio_core.engines.prefix import PrefixStats

    frame = pd.read_parquet(io.BytesIO(data), engine="pyarrow")
    if tuple(frame.columns) != _PREFIX_COLUMNS:
        raise ValueError(f"stored prefix counts have columns {list(frame.columns)[:6]}; expected {list(_PREFIX_COLUMNS)}.")
    cols = {k: frame[k].to_numpy(np.int64) for k in _PREFIX_COLUMNS}
    out = {}
    for i, task in enumerate(meta["tasks"]):
        mine = cols["task"] == i

        def states(final: int, mine=mine):
            sel = mine & (cols["final"] == final)
            return StateCounts(cols["model"][sel], cols["n"][sel], cols["c"][sel], cols["count"][sel])

        live, final = states(0), states(1)
        if live.model.size and (live.model.max() >= len(task["models"]) or final.model.max() >= len(task["models"])):
            raise ValueError("stored prefix counts name a model index outside the task's models.")
        out[str(task["task"])] = PrefixStats(
            task=str(task["task"]), models=tuple(str(m) for m in task["models"]), n_questions=int(task["n_questions"]),
            n=np.arange(1, int(task["n_max"]) + 1, dtype=np.int64), live=live, final=final,
            notes=tuple(str(n) for n in task["notes"]), sources=tuple(sources), n_attempts=int(task["n_attempts"]))
    return out


def table_to_parquet(dataset: Dataset) -> bytes:
    """Parquet bytes of the canonical table (plus ``row_source`` when set).

    Raises
    ------
    InputError
        If a column cannot be written to Parquet (e.g. mixed Python objects), naming it.
    """
    table = dataset.table
    if ROW_SOURCE_COLUMN in table.columns:
        raise InputError(f"the table has a column named {ROW_SOURCE_COLUMN!r}, which the workspace reserves.")
    if dataset.row_source is not None:
        table = table.assign(**{ROW_SOURCE_COLUMN: np.asarray(dataset.row_source)})
    buf = io.BytesIO()
    try:
        table.to_parquet(buf, engine="pyarrow", index=False, compression="zstd")
    except (TypeError, ValueError, NotImplementedError) as exc:  # pyarrow's ArrowInvalid/ArrowTypeError derive from these
        raise InputError(f"the canonical table cannot be stored as Parquet ({type(exc).__name__}: "
                         f"{str(exc).splitlines()[0][:200]}).") from None
    return buf.getvalue()


def table_from_parquet(data: bytes, meta: dict) -> tuple[pd.DataFrame, np.ndarray | None]:
    """The canonical table and ``row_source`` from :func:`table_to_parquet` bytes."""
    table = pd.read_parquet(io.BytesIO(data), engine="pyarrow")
    row_source = None
    if ROW_SOURCE_COLUMN in table.columns:
        row_source = table[ROW_SOURCE_COLUMN].to_numpy()
        table = table.drop(columns=[ROW_SOURCE_COLUMN])
    for col in meta["object_columns"]:
        if col in table.columns:
            table[col] = table[col].astype(object)
    return table, row_source


def dataset_from_parts(table: pd.DataFrame, row_source, meta: dict, trial_prefix: dict | None = None) -> Dataset:
    """Rebuild a :class:`Dataset` from its stored table and decoded meta (and its prefix counts, if kept)."""
    attempts = meta["layout"] == "attempts"
    return Dataset(attempts=table if attempts else None, counts=None if attempts else table,
                   report=meta["report"], sources=meta["sources"], row_source=row_source, trial_prefix=trial_prefix)
