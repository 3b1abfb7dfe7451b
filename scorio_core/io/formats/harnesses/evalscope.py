"""evalscope reviews: ``outputs/<timestamp>/reviews/<model_name>/<benchmark>_<subset>.jsonl``, one line per sample.

Source: modelscope/evalscope ``evalscope/api/evaluator/cache.py`` (``CacheManager.get_review_cache_path``,
``ReviewResult``) and ``evalscope/api/metric/scorer.py`` (``SampleScore``, ``Score``). A line is::

    {"index": 3, "input": "...", "target": "42",
     "sample_score": {"score": {"value": {"acc": 1.0}, "main_score_name": "acc", "extracted_prediction": "42", ...},
                      "sample_id": 3, "group_id": 1, "sample_metadata": {...}}}

- the model is the file's folder (``model_name``), the task the file's stem (``<benchmark>_<subset>``);
- the question is ``group_id`` (evalscope's group of a question's repeated samples), else ``sample_id``, else
  ``index``; a question's samples are its trials 0, 1, ... in file order;
- the outcome is the score's main value (``main_score_name``, else its first value, as ``Score.main_value`` reads it):
  true/false or 0/1, a number in [0, 1] a graded score; another main value (a judge's 1-10) is refused with the fix.

In a work folder (``<timestamp>/`` holding ``reviews/``), the predictions, reports, configs and logs beside the
reviews are not read (:func:`skip_work_files`), said in a note.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source
from scorio_core.io.formats.harness_files import json_lines
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "is_evalscope", "read_evalscope", "skip_work_files"]

FORMAT = "evalscope"
#: The folders beside ``reviews/`` in an evalscope work folder.
WORK_DIRS = ("predictions", "reports", "configs", "logs")


def is_evalscope(record: dict) -> bool:
    """Whether a JSON Lines record is an evalscope review (``ReviewResult``).

    >>> is_evalscope({"index": 0, "input": "q", "target": "a", "sample_score": {"score": {"value": {"acc": 1}}}})
    True
    >>> is_evalscope({"index": 0, "score": 1})
    False
    """
    return "index" in record and isinstance(record.get("sample_score"), dict) and "score" in record["sample_score"]


def _root(path: Path) -> Path | None:
    """The work folder of a file ``<root>/<kind>/<model>/<file>`` whose root holds ``reviews/``, else None."""
    if len(path.parents) < 3:
        return None
    root = path.parents[2]
    return root if (root / "reviews").is_dir() and path.parents[1].name in ("reviews", *WORK_DIRS) else None


def skip_work_files(srcs: list[Source]) -> list[Source]:
    """Leave out the predictions, reports, configs and logs beside ``reviews/`` in evalscope work folders (any
    folder holding ``reviews/`` and one of them), saying how many in a note on the first review file read."""
    files = [(s, s.path.absolute()) for s in srcs if s.path is not None and not s.is_dir]  # "x.csv" has 1 parent
    roots = {r for _, path in files if (r := _root(path)) is not None and path.parents[1].name == "reviews"
             and any((r / d).is_dir() for d in WORK_DIRS)}
    if not roots:
        return srcs
    skipped = {id(s) for s, path in files if any(
        r in path.parents and path.relative_to(r).parts[0] in WORK_DIRS for r in roots)}
    kept = [s for s in srcs if id(s) not in skipped]
    if skipped and kept:
        kept[0].notes.append(f"evalscope work folder{'s' * (len(roots) > 1)}: {len(skipped):,} file"
                             f"{'s' * (len(skipped) > 1)} beside reviews/ not read (predictions, reports, configs, "
                             "logs): the per-sample scores are the reviews.")
    return kept if kept else srcs


def _main_value(score: dict):
    value = score.get("value") if isinstance(score.get("value"), dict) else {}
    name = score.get("main_score_name")
    if name in value:
        return value[name], name
    return (value[next(iter(value))], next(iter(value))) if value else (None, None)


def read_evalscope(src: Source, mapping: Mapping[str, str] | None = None) -> Part:
    """Read an evalscope review file (see the module docstring): one attempt per line.

    Parameters
    ----------
    src : Source
        ``reviews/<model_name>/<benchmark>_<subset>.jsonl`` (on disk: its folder names the model).
    mapping : dict, optional
        ``--map model=@folder[:N]`` / ``task=@folder[:N]`` only.

    Returns
    -------
    Part
        Columns model, task, question_id, trial, is_correct.

    Raises
    ------
    InputError
        An upload (no folder names the model), invalid JSON (naming the line), a line without a score, a main score
        that is neither true/false nor a number in [0, 1], another ``--map``.
    """
    levels = fixed_fields(mapping, src.name, "evalscope reviews have fixed fields (sample_score, group_id)",
                          ("model", "task"))
    if src.path is None:
        raise InputError("an uploaded evalscope review file has no folder to name its model (reviews/<model_name>/): "
                         "upload the reviews folder (or the run's folder) instead: the app's Upload a folder, or its "
                         "path on the command line.", source=src.name)
    shown = f"{src.path.parent.name}/{src.name}"
    ids, values, names = [], [], set()
    for n, rec in json_lines(src, shown, "an evalscope review (a JSON object)"):
        sample = rec.get("sample_score")
        if not isinstance(sample, dict) or not isinstance(sample.get("score"), dict):
            raise InputError("expected an evalscope review: an object with sample_score.score.", source=shown, line=n,
                             field="sample_score")
        value, name = _main_value(sample["score"])
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1):
            raise InputError(f"the main score {name!r} is {value!r}, not true/false or a number in [0, 1]; rescale it "
                             "(a judge's 1-10: divide by 10) or load a table with the outcome you mean.", source=shown,
                             line=n, field=f"sample_score.score.value.{name}")
        names.add(name)
        qid = next((sample.get(k) for k in ("group_id", "sample_id") if sample.get(k) is not None), rec.get("index"))
        ids.append(str(qid))
        values.append(np.nan if value is None else float(value))
    if not ids:
        raise InputError("the review file is empty.", source=shown)
    named = folder_names(src.path, levels, shown) if levels else {}
    model, task = named.get("model") or src.path.parent.name, named.get("task") or Path(src.name).stem
    frame = pd.DataFrame({"model": model, "task": task, "question_id": ids, "is_correct": np.asarray(values)})
    frame.insert(3, "trial", frame.groupby("question_id", sort=False).cumcount())
    guess = infer_mapping(frame.columns, {c: c for c in frame.columns}, source=shown)
    part = canonicalize(frame, guess, source=shown, fmt=FORMAT, stem=task, locate=lambda i: {"row": i + 1})
    used = " / ".join(sorted(str(x) for x in names if x)) or "value"
    part.mapping.update({"model": f"<folder: {model}>" if "model" not in named else part.mapping["model"],
                         "task": f"<file stem: {task}>" if "task" not in named else part.mapping["task"],
                         "question_id": "sample_score.group_id (else sample_id)", "trial": "<the question's lines in order>",
                         "is_correct": f"sample_score.score.value.{used}"})
    return part
