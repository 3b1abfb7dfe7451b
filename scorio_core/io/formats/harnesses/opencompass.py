"""OpenCompass and AISBench results: ``<work_dir>/<timestamp>/results/<model_abbr>/<dataset_abbr>.json``.

Source: open-compass/opencompass ``opencompass/tasks/openicl_eval.py`` (``OpenICLEvalTask._score`` dumps the
evaluator's result to ``results/<model_abbr>/<dataset_abbr>.json``) and ``openicl/icl_evaluator/
icl_base_evaluator.py`` (``BaseEvaluator.evaluate``); AISBench/benchmark (``ais_bench``) is a fork with the same
files. The per-question outcomes are the result's ``details``, written when the eval step runs with
``--dump-eval-details`` (OpenCompass's default since 0.4; AISBench's flag):

- with ``n`` replicas of each question (the dataset's ``n``, AISBench's ``num_return_sequences``), and in current
  OpenCompass with one, ``details`` is a list with one record per question: ``example_abbr`` (``<subdivision>_<idx>``)
  and each replica's fields in lists, ``"correct": [true, false, ...]``, beside ``avg@n``, ``pass@k`` and ``cons@k``;
- older OpenCompass writes ``details`` as an object keyed by the question's position (``{"0": {"prompt": ...,
  "predictions": ..., "correct": true}, ...}``).

A file is one run of one model on one dataset:

- the model is the file's folder (``model_abbr``), the task the file's stem (``dataset_abbr``);
- the question is ``example_abbr``, else the key in ``details``, else the record's position;
- the outcome is the record's ``correct``, else ``is_correct``, else ``cascade_correct`` (the fields
  ``BaseEvaluator.evaluate`` counts, in its order); each element of a list is one replica: trial 0, 1, ...;
  null is a missing outcome;
- several timestamp folders with results of one model and dataset are its runs (trials numbered on, in load order:
  :func:`~scorio_core.io.formats.agents.swebench.number_runs`).

In a work folder, the predictions (no grading), summaries (metrics only), configs, logs and performance files
beside ``results/`` are not read (:func:`skip_work_files`), said in a note; a work folder with predictions and no
results is refused with the command that grades them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source, load_json
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "is_opencompass", "read_opencompass", "skip_work_files", "work_root"]

FORMAT = "opencompass"
#: The folders beside ``results/`` in an OpenCompass / AISBench work folder (``<work_dir>/<timestamp>/``).
WORK_DIRS = ("predictions", "summary", "configs", "logs", "performances")
#: The outcome fields ``BaseEvaluator.evaluate`` counts, in its order.
OUTCOME_KEYS = ("correct", "is_correct", "cascade_correct")
_DETAIL_KEYS = frozenset({"example_abbr", "origin_prediction", "references", "predictions", "pred", "answer"})
_DETAILS_FLAG = ("run the eval step again with --dump-eval-details (OpenCompass: `opencompass CONFIG -m eval -r "
                 "TIMESTAMP --dump-eval-details`; AISBench: `ais_bench ... --mode eval --reuse TIMESTAMP "
                 "--dump-eval-details`) and load the new results/ folder")


def work_root(path: Path) -> Path | None:
    """The work folder of a results file ``<root>/results/<model>/<dataset>.json`` when ``<root>`` holds one of
    :data:`WORK_DIRS` beside ``results/`` (a timestamp folder as OpenCompass and AISBench write it), else None."""
    if len(path.parents) < 3 or path.parents[1].name != "results":
        return None
    root = path.parents[2]
    return root if any((root / d).is_dir() for d in WORK_DIRS) else None


def is_opencompass(src: Source, keys: set[str]) -> bool:
    """Whether a JSON document on disk is an OpenCompass / AISBench results file: ``results/<model>/<dataset>.json``
    in a work folder (:func:`work_root`), or holding ``details`` records with the evaluator's fields (``keys``: the
    field names in the document's head)."""
    path = src.path
    if path is None or src.is_dir or path.suffix.lower() != ".json" or len(path.parents) < 3 \
            or path.parents[1].name != "results":
        return False
    return work_root(path) is not None or ("details" in keys and bool(keys & _DETAIL_KEYS))


def skip_work_files(srcs: list[Source]) -> list[Source]:
    """Leave out the files beside ``results/`` in OpenCompass / AISBench work folders (:data:`WORK_DIRS`) and the
    evaluators' side files inside ``results/<model>/<dataset>/``, saying how many in a note on the first results file.

    Raises
    ------
    InputError
        A work folder with predictions and no results file (the eval step has not run), naming the command.
    """
    roots: dict[Path, Source] = {}
    for s in srcs:
        if s.path is not None and not s.is_dir and (root := work_root(s.path)) is not None:
            roots.setdefault(root, s)
    ungraded = {root for s in srcs if s.path is not None and (root := _prediction_root(s.path)) is not None
                and root not in roots}
    jobs = {a for s in srcs if s.is_dir and s.path is not None for a in (s.path, *s.path.parents)}  # gathered runs
    work = roots.keys() | ungraded
    skipped = [s for s in srcs if s.path is not None and not s.is_dir and (
        _beside_results(s.path, work) or _summary_of_job(s.path, roots, jobs))]
    out = {id(s) for s in skipped}
    bare = [s for s in srcs if s.path is not None and not s.is_dir and work_root(s.path) in roots
            and id(s) not in out and _without_details(s)]
    if bare and len(bare) + len(skipped) < len(srcs):  # some datasets graded per question, some not: read the first
        skipped += bare
        out |= {id(s) for s in bare}
        next(s for s in srcs if id(s) not in out).notes.append(
            f"OpenCompass / AISBench: {len(bare)} results file{'s' * (len(bare) > 1)} without per-question details not "
            f"read ({', '.join(f'{s.path.parent.name}/{s.name}' for s in bare[:3])}{' ...' * (len(bare) > 3)}: only "
            "summary metrics; " + _DETAILS_FLAG + ").")
    if not skipped:
        return srcs
    if len(skipped) == len(srcs) and ungraded:
        root = min(ungraded)
        raise InputError(f"an OpenCompass / AISBench work folder ('{root.name}') with predictions and no results/: "
                         "the predictions are not graded yet; " + _DETAILS_FLAG + ".", source=root.name)
    kinds = sorted({_kind(s.path, work) for s in skipped})
    gone = {id(s) for s in skipped}
    first = next(s for s in [*roots.values(), *srcs] if id(s) not in gone)  # a source that is read
    first.notes.append(f"OpenCompass / AISBench work folder{'s' * (len(roots) + len(ungraded) > 1)}: {len(skipped):,} "
                       f"file{'s' * (len(skipped) > 1)} beside results/ not read ({', '.join(kinds)}): the per-question "
                       "outcomes are the details in results/<model>/<dataset>.json"
                       + (f"; {len(ungraded)} work folder{'s' * (len(ungraded) > 1)} ({', '.join(sorted(r.name for r in ungraded)[:3])}) "
                          "without results/: its predictions are not graded yet." if ungraded else "."))
    return [s for s in srcs if id(s) not in gone]


def _without_details(src: Source) -> bool:
    """Whether a results file is certainly a summary without ``details``: small enough to be read whole by the
    sniffer, and no ``"details"`` key in it."""
    try:
        small = src.path.stat().st_size <= 65536
    except OSError:
        return False
    return small and b'"details"' not in src.text_head(65536)


def _summary_of_job(path: Path, roots, jobs: set[Path]) -> bool:
    """Whether ``results/<model>/<dataset>.json`` summarises a run gathered from ``results/<model>/<dataset>/``
    (AISBench's Harbor tasks: the summary's statistics beside the job's trials); ``jobs``: the gathered runs' folders
    and every folder above them."""
    return path.with_suffix("") in jobs and work_root(path) in roots


def _beside_results(path: Path, roots) -> bool:
    for folder in path.parents:
        if folder in roots:
            parts = path.relative_to(folder).parts
            return parts[0] in WORK_DIRS or (parts[0] == "results" and len(parts) > 3)
    return False


def _kind(path: Path, roots) -> str:
    root = next(f for f in path.parents if f in roots)
    top = path.relative_to(root).parts[0]
    if top == "results" and len(path.relative_to(root).parts) == 3:
        return "summaries of the runs read from their folders"
    return {"predictions": "predictions, not graded", "summary": "summaries of the metrics",
            "results": "evaluators' side files"}.get(top, top)


def _prediction_root(path: Path) -> Path | None:
    if len(path.parents) < 3 or path.parents[1].name != "predictions":
        return None
    root = path.parents[2]
    return root if any((root / d).is_dir() for d in ("configs", "logs")) else None


def _outcome(value, where: str, key: str, source: str) -> float:
    if value is None:
        return math.nan
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)) and 0 <= value <= 1:
        return float(value)
    raise InputError(f"{where}: '{key}' must be true/false (or a list of them, one per replica); got {value!r}.",
                     source=source, field=key)


def _records(doc: dict, source: str) -> tuple[list[str], list[dict], str]:
    """(question ids, records, where the ids come from) of a results document's ``details``."""
    details = doc.get("details")
    if details is None:
        if isinstance(doc.get("error"), str):
            raise InputError(f"OpenCompass / AISBench reported an error for this dataset instead of results: "
                             f"{doc['error']!r}; run its inference and eval steps again.", source=source)
        metrics = ", ".join(list(doc)[:4]) or "nothing"
        raise InputError(f"OpenCompass / AISBench results without per-question details (only {metrics}): the summary "
                         "metrics cannot give per-question outcomes; " + _DETAILS_FLAG + ".", source=source,
                         field="details")
    if isinstance(details, dict):
        ids, recs, origin = [str(k) for k in details], list(details.values()), "<key in details>"
    elif isinstance(details, list):
        recs = details
        abbr = [r.get("example_abbr") if isinstance(r, dict) else None for r in recs]
        if recs and all(isinstance(a, (str, int)) for a in abbr):
            ids, origin = [str(a) for a in abbr], "example_abbr"
        else:
            ids, origin = [str(i) for i in range(len(recs))], "<position in details>"
    else:
        raise InputError(f"'details' must be a list of records or an object of records; got a "
                         f"{type(details).__name__}.", source=source, field="details")
    if not recs:
        raise InputError("'details' is empty: the evaluator graded no question; " + _DETAILS_FLAG + ".", source=source,
                         field="details")
    for qid, r in zip(ids, recs):
        if not isinstance(r, dict):
            raise InputError(f"details entry {qid} is a {type(r).__name__}, not an object.", source=source,
                             field="details")
    return ids, recs, origin


def read_opencompass(src: Source, mapping: Mapping[str, str] | None = None) -> Part:
    """Read an OpenCompass / AISBench results file (see the module docstring): one attempt per replica of each question.

    Parameters
    ----------
    src : Source
        ``results/<model_abbr>/<dataset_abbr>.json`` (on disk: its folder names the model).
    mapping : dict, optional
        ``--map model=@folder[:N]`` / ``task=@folder[:N]`` only (the file's fields are fixed).

    Returns
    -------
    Part
        Columns model, task, question_id, trial (the replica), is_correct.

    Raises
    ------
    InputError
        Results without ``details`` (the eval step ran without ``--dump-eval-details``) or with an ``error``, details
        without any of ``correct`` / ``is_correct`` / ``cascade_correct``, an outcome that is not true/false, or
        another ``--map``, each naming the file (and the question).
    """
    path = src.path if src.path is not None else Path(src.name)
    shown = f"{path.parent.name}/{path.name}" if src.path is not None else src.name  # its model's file
    levels = fixed_fields(mapping, shown, "OpenCompass / AISBench results have fixed fields (details: example_abbr, "
                          "correct)", ("model", "task"))
    doc = load_json(src, name=shown)
    if not isinstance(doc, dict):
        raise InputError("expected OpenCompass / AISBench results: a JSON object with the metrics and 'details'.",
                         source=shown)
    ids, recs, origin = _records(doc, shown)
    keys = [next((k for k in OUTCOME_KEYS if k in r), None) for r in recs]
    if all(k is None for k in keys):
        fields = sorted({f for r in recs[:50] for f in r})
        raise InputError(f"the details have no outcome field ({', '.join(OUTCOME_KEYS)}; they hold "
                         f"{', '.join(fields[:8]) or 'nothing'}): this evaluator scores the dataset as a whole (BLEU, "
                         "ROUGE ...), so per-question outcomes cannot come from it. Grade each question yourself and "
                         "load a table (model, question_id, trial, correct).", source=shown, field="details")
    values, entry = [], []
    for i, (qid, r, key) in enumerate(zip(ids, recs, keys)):
        if key is None:
            continue
        raw = r[key]
        for v in (raw if isinstance(raw, list) else [raw]):
            values.append(_outcome(v, f"details entry {qid}", key, shown))
            entry.append(i)
    entry_arr = np.asarray(entry, np.int64)
    first = np.r_[True, entry_arr[1:] != entry_arr[:-1]] if len(entry_arr) else np.zeros(0, bool)
    start = np.maximum.accumulate(np.where(first, np.arange(len(entry_arr)), 0)) if len(entry_arr) else entry_arr
    named = folder_names(src.path, levels, shown) if levels else {}
    if src.path is None:
        raise InputError("an uploaded OpenCompass / AISBench results file has no folder to name its model (the results "
                         "of every model share the dataset's file name): upload the results/ folder instead (Upload a "
                         "folder), or give its path on the command line.", source=shown)
    model = named.get("model") or path.parent.name
    task = named.get("task") or path.stem
    frame = pd.DataFrame({"model": model, "task": task, "question_id": np.asarray(ids, object)[entry_arr],
                          "trial": np.arange(len(entry_arr)) - start, "is_correct": np.asarray(values, float)})
    guess = infer_mapping(frame.columns, {c: c for c in frame.columns}, source=shown)
    part = canonicalize(frame, guess, source=shown, fmt=FORMAT, stem=path.stem,
                        locate=lambda i: {"context": f"details entry {ids[int(entry_arr[i])]}: "})
    used = sorted({k for k in keys if k is not None}, key=OUTCOME_KEYS.index)
    per = np.bincount(entry_arr)
    per = per[per > 0]
    part.mapping.update({"model": f"<folder: {model}>" if "model" not in named else part.mapping["model"],
                         "task": f"<file stem: {task}>" if "task" not in named else part.mapping["task"],
                         "question_id": origin, "trial": f"<position in {used[0]}>" if per.max() > 1 else "<one replica>",
                         "is_correct": " / ".join(used)})
    part.defaults.append(f"{shown}: OpenCompass / AISBench results of '{model}' on {task}: {len(recs):,} questions, "
                         + (f"{per.max()} replicas each (trials 0-{per.max() - 1})" if per.min() == per.max() else
                            f"{per.min()}-{per.max()} replicas") + f", the outcome {' / '.join(used)}.")
    part.notes.extend(_notes(shown, doc, recs, keys, per, values, entry_arr))
    if (root := work_root(path)) is not None:
        part.read["run_id"] = root.name
    return part


def _notes(name: str, doc: dict, recs: list, keys: list, per: np.ndarray, values: list, entry: np.ndarray) -> list[str]:
    out = []
    if skipped := sum(k is None for k in keys):
        out.append(f"{name}: {skipped:,} of {len(recs):,} details entries have no outcome field "
                   f"({', '.join(OUTCOME_KEYS)}): not attempts here, as OpenCompass does not count them either.")
    if per.min() != per.max():
        out.append(f"{name}: the questions have {per.min()} to {per.max()} replicas; each replica is a trial, the "
                   "questions with fewer are not filled.")
    n = int(per.max())
    stated = doc.get(f"avg@{n}") if n > 1 else None
    outcomes = np.asarray(values, float)
    if isinstance(stated, (int, float)) and np.isfinite(outcomes).any():
        # BaseEvaluator.reduce: avg@n = 100 x the mean over questions of each question's share of correct replicas
        means = pd.Series(outcomes).groupby(entry).mean()
        ours = 100 * float(means.mean())
        if abs(ours - float(stated)) > 1e-6 * max(1.0, abs(float(stated))):
            out.append(f"{name}: the file's avg@{n} is {float(stated):.4g} but its details give {ours:.4g}; the "
                       "details are read (a metric may come from another evaluator or a postprocessor).")
    return out
