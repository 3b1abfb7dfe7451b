"""WildBench score results: ``eval_results/<version>/score.v2/eval=<judge>/<model>.json``, each task's answer rated
1-10 by a judge model.

Source: allenai/WildBench (``src/eval.py --mode score`` and the batch scripts write a JSON array, one record per task:
``{"session_id", "model_test", "score", "parsed_result": {"strengths", "weaknesses", "score"}, "meta_data",
"model_output"}``, the score the judge's rating as text, ``"1"`` to ``"10"``) and ``leaderboard/data_dir/
_create_tables.py`` (the model's ``score``: the mean rating; ``adjusted_score``: (mean - 5) x 2; the WB-Score
macro-averages that over task categories kept outside these files).

- the model is the file's name, as ``_create_tables.py`` names it (``gemma-2b-it``: ``model_test`` holds the HF id,
  which two files can share, ``Qwen1.5-72B-Chat.json`` and ``Qwen1.5-72B-Chat-greedy.json``); the task
  ``WildBench <version>/<judge>`` from the ``v2.0625`` and ``eval=<judge>`` folders (``WildBench`` without them), so
  two judges, or two versions of the evaluation, are two tasks; the question ``session_id``; one attempt per task
  (N = 1: WildBench judges each answer once);
- the outcome is the rating as a category code 1-10 on WildBench's scale: the default rubric weighs code / 10, so
  Bayes@N is WildBench's mean score / 10 (its adjusted score is (10 x that - 5) x 2, the same order);
- a record without a rating (the judge's output not parsed) has no attempt, said.

WildBench's pairwise results (``pairwise.v2/``: a ``winner`` and ``extent`` against a reference model) are refused
with what to load instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part
from scorio_core.io._sources import Source
from scorio_core.io.formats.harness_files import SCALE_LABEL, json_array, tool_part
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "is_wildbench", "read_wildbench"]

FORMAT = "wildbench"
_KEYS = (b'"session_id"', b'"model_output', b'"parsed_result"')
_JUDGE = re.compile(r"^eval=(?P<judge>.+)$")
_VERSION = re.compile(r"^v\d+(?:\.\d+)*$")


def is_wildbench(head: bytes) -> bool:
    """Whether a JSON array's head reads as WildBench's results (tasks by session id with the judge's parsed result).

    >>> is_wildbench(b'[{"session_id": "ae00", "parsed_result": {"score": "7"}, "meta_data": {}, '
    ...              b'"model_test": "google/gemma-2b-it", "score": "7", "model_output": "Hi"}]')
    True
    >>> is_wildbench(b'[{"session_id": "ae00", "score": 7}]')
    False
    """
    return head.lstrip()[:1] == b"[" and all(k in head for k in _KEYS)


def _task(src: Source) -> str:
    """``WildBench <version>/<judge>`` from the folders above a file (either part missing left out)."""
    parents = [p.name for p in src.path.parents] if src.path is not None else []
    judge = next((m["judge"] for p in parents if (m := _JUDGE.match(p))), None)
    version = next((p for p in parents if _VERSION.match(p)), None)
    return "WildBench" + (f" {version}" if version else "") + (f"/{judge}" if judge else "")


def read_wildbench(src: Source, mapping: Mapping[str, str] | None = None) -> Part:
    """Read a WildBench score file (see the module docstring): one attempt per rated task.

    Parameters
    ----------
    src : Source
        ``score.v2/eval=<judge>/<model>.json``.
    mapping : dict, optional
        ``--map task=@folder[:N]`` only.

    Returns
    -------
    Part
        Columns model (the file's name), task, question_id (``session_id``), trial (0), category (the rating 1-10).

    Raises
    ------
    InputError
        Pairwise results, not an array of objects, a record without session_id (naming it), a rating that is not a
        whole number 1-10 (naming it), no rated record, another ``--map``.
    """
    levels = fixed_fields(mapping, src.name, "WildBench results have fixed fields (the file's name, session_id, score)",
                          ("task",))
    doc = json_array(src, "WildBench results: a JSON array of rated tasks")
    if "winner" in doc[0] or "model_outputs" in doc[0]:
        raise InputError("WildBench pairwise results (a winner against a reference model): not read; load the score "
                         "results (eval_results/<version>/score.v2/eval=<judge>/<model>.json), one rating per task.",
                         source=src.name)
    for field, values in (("session_id", [r.get("session_id") for r in doc]),):
        row = next((i for i, v in enumerate(values) if not isinstance(v, (str, int)) or isinstance(v, bool)), None)
        if row is not None:
            raise InputError(f"no {field!r} in this record.", source=src.name, row=row + 1, field=field)
    score = pd.to_numeric(pd.Series([r.get("score") for r in doc], dtype=object), errors="coerce").to_numpy(float)
    text = [r.get("score") for r in doc]
    bad = np.flatnonzero(~np.isnan(score) & ((score != np.round(score)) | (score < 1) | (score > 10)))
    unreadable = next((i for i, (s, t) in enumerate(zip(score, text)) if np.isnan(s) and t not in (None, "")), None)
    if bad.size or unreadable is not None:
        i = int(bad[0]) if bad.size else unreadable
        raise InputError(f"the rating is {text[i]!r}: WildBench rates 1-10 (a whole number).", source=src.name,
                         row=i + 1, field="score")
    kept = ~np.isnan(score)
    if not kept.any():
        raise InputError("no task has a rating (every score is empty): the judge's outputs were not parsed.",
                         source=src.name, field="score")
    named = folder_names(src.path, levels, src.name) if levels and src.path is not None else {}
    task = named.get("task") or _task(src)
    model = src.name.split(".json")[0]
    out = pd.DataFrame({"model": model, "task": task,
                        "question_id": [str(r["session_id"]) for r in doc], "trial": 0, "category": score,
                        SCALE_LABEL: FORMAT})
    out = out if kept.all() else out[kept]
    part = tool_part(out, src.name, FORMAT, "WildBench", lambda i: {"row": i + 1}, named,
                     {"model": f"<file name: {model}>", "task": f"<version and eval= folders: {task}>",
                      "question_id": "session_id", "trial": "<one rating per task>",
                      "category": "score (the judge's rating 1-10)"})
    mean = float(score[kept].mean())
    tested = sorted({str(r.get("model_test", r.get("generator"))) for r in doc} - {"None"})
    part.defaults.append(f"{src.name}: WildBench ratings of '{model}' ({', '.join(tested) or 'model_test not recorded'}) "
                         f"on {task}: one rating 1-10 per task, a category code (the default rubric weighs "
                         f"code / 10); WildBench's own numbers: score {mean:.4f}, WB_score {(mean - 5) * 20:.2f} (its leaderboard's "
                         "10 x (score - 5) x 2, before the task-category macro average).")
    if n := int((~kept).sum()):
        part.notes.append(f"{src.name}: {n:,} task{'s' * (n > 1)} without a rating (the judge's output not parsed) "
                          f"{'have' if n > 1 else 'has'} no attempt.")
    return part
