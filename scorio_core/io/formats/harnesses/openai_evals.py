"""OpenAI evals record logs (``oaieval COMPLETION_FN EVAL --record_path log.jsonl``).

A log is JSON Lines: a ``spec`` line (``completion_fns``, ``eval_name``), one line per event (``sample_id``, ``type``,
``data``) and a ``final_report`` line. The JSON Lines reader (:mod:`scorio_core.io.formats.jsonl`) recognises one by
its flattened columns (:data:`OPENAI_EVALS_COLUMNS`) and hands it to :func:`openai_evals_log`; the DuckDB engine
refuses it by the same columns, so ``--engine auto`` reads it here.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._sources import Source

__all__ = ["OPENAI_EVALS_COLUMNS", "openai_evals_log"]

#: Columns of an OpenAI evals record log once flattened (the spec line's eval name, the events' fields).
OPENAI_EVALS_COLUMNS = frozenset({"spec.eval_name", "sample_id", "type"})


def openai_evals_log(frame: pd.DataFrame, locate: Callable[[int], dict], src: Source, notes: list[str]):
    """An OpenAI evals record log (``oaieval ... --record_path``): a ``spec`` line (``completion_fns``, ``eval_name``),
    one line per event (``sample_id``, ``type``, ``data``) and a ``final_report`` line. The ``match`` events are the
    attempts (``data.correct``), the spec's completion function the model and its eval name the task; the other lines
    (the spec, sampling events, the report) are not attempts, and the notes say how many were set aside.

    Parameters
    ----------
    frame : pandas.DataFrame
        The log's lines as read by the JSON Lines reader (flattened: ``spec.eval_name``, ``data.correct`` ...).
    locate : callable
        Row of ``frame`` -> ``{"line": ...}``.
    src : Source
        The log (its first line is read again for the spec's completion functions).
    notes : list of str
        Appended to: what was read and set aside.

    Returns
    -------
    (pandas.DataFrame, callable, list of str)
        One row per match event (model, task, sample_id, data.correct), its locator and the notes.

    Raises
    ------
    InputError
        A log without match events holding ``data.correct`` (a model-graded eval), naming its event types.
    """
    spec = frame["spec.eval_name"].notna().to_numpy()
    task = str(frame.loc[spec, "spec.eval_name"].iloc[0])
    head = _try_line(src.text_head().removeprefix(b"\xef\xbb\xbf").split(b"\n", 1)[0]) or {}
    fns = head.get("spec", {}).get("completion_fns") if isinstance(head.get("spec"), dict) else None
    model = "+".join(map(str, fns)) if isinstance(fns, list) and fns else None
    kept = np.flatnonzero((frame["type"] == "match").to_numpy())
    if not kept.size or "data.correct" not in frame.columns:
        kinds = ", ".join(sorted(map(str, frame["type"].dropna().unique()))[:8])
        raise InputError(f"an OpenAI evals log of eval '{task}' with no 'match' events holding data.correct (its events: "
                         f"{kinds}); only match evals give per-sample outcomes here: export them, or map the outcome "
                         "with --map is_correct=COLUMN.", source=src.name)
    out = frame.iloc[kept][["sample_id", "data.correct"]].reset_index(drop=True)
    out.insert(0, "task", task)
    if model is not None:
        out.insert(0, "model", model)
    notes.append(f"{src.name}: an OpenAI evals log: task '{task}' (spec.eval_name)"
                 + (f", model '{model}' (spec.completion_fns)" if model else "")
                 + f"; its {kept.size:,} 'match' events are the attempts ({len(frame) - kept.size:,} other lines: the "
                 "spec, sampling events, the final report).")
    return out, (lambda i: locate(int(kept[i]))), notes


def _try_line(line: bytes):
    try:
        doc = json.loads(line)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None
