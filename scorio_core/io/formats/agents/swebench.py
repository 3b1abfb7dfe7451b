"""SWE-bench harness reports: ``<model>.<run_id>.json`` written by ``python -m swebench.harness.run_evaluation``.

Source: SWE-bench/SWE-bench ``swebench/harness/reporting.py`` (``make_run_report``, ``schema_version`` 2). The report
is one run of one model over a dataset split: counts (``total_instances``, ``resolved_instances`` ...) and id lists::

    {"total_instances": 500, "submitted_instances": 498, "completed_instances": 495, "resolved_instances": 210, ...,
     "completed_ids": [...], "incomplete_ids": [...], "empty_patch_ids": [...], "submitted_ids": [...],
     "resolved_ids": [...], "unresolved_ids": [...], "error_ids": [...], "schema_version": 2}

Read as one attempt per instance id (trial 0; several reports of one model are its runs, numbered 0, 1, ... in
load order by :func:`number_runs`):

- ``resolved_ids``: 1; ``unresolved_ids``: 0 (the patch applied and the tests failed, or it did not apply);
- ``empty_patch_ids``: 0, as SWE-bench's own report counts them (the model submitted no change), said in the notes;
- ``error_ids`` (no test report: a harness or environment failure, or an empty report file): 0 as SWE-bench counts
  them, said with their number; ``--errors-as-missing`` reads them as missing outcomes instead (then the
  missing-outcomes choice decides);
- ``incomplete_ids`` (no prediction in this run): not attempts. SWE-bench's "% resolved" divides by
  ``total_instances`` and so counts them unresolved; the notes say how many and that the rates here do not.

The model is the file name before its last dot (the harness writes ``model.replace("/", "__") + "." + run_id``,
kept as written) and the run id the part after it; ``--map model=@folder`` / ``--map task=@folder`` name either by
the file's folder. The report does not name its dataset (Lite, Verified ...), so the task is ``swe-bench`` unless a
folder names it; reports of one model over datasets of different sizes are refused (they would merge as runs).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source, load_json
from scorio_core.io.formats.path_names import fixed_fields, folder_fields, folder_names

__all__ = ["OUTCOME_LISTS", "REPORT_KEYS", "RUN_FORMATS", "TASK", "is_report", "number_runs", "read_swebench_report", "refuse_columns"]

#: The id lists read as attempts, with the outcome each counts as (error ids: as SWE-bench counts them).
OUTCOME_LISTS = (("resolved_ids", 1.0), ("unresolved_ids", 0.0), ("empty_patch_ids", 0.0), ("error_ids", 0.0))
#: Keys by which a JSON document is recognised as a report (either pair).
REPORT_KEYS = (frozenset({"resolved_ids", "unresolved_ids"}), frozenset({"resolved_instances", "unresolved_instances"}))
#: The task of a report whose folder does not name it.
TASK = "swe-bench"
_STATUS = {"resolved_ids": "resolved", "unresolved_ids": "unresolved", "empty_patch_ids": "empty patch",
           "error_ids": "error"}


def is_report(keys) -> bool:
    """Whether a JSON object with these top-level keys is a SWE-bench harness report.

    >>> is_report({"total_instances", "resolved_instances", "unresolved_instances"}), is_report({"resolved": 1})
    (True, False)
    """
    keys = set(keys)
    return any(k <= keys for k in REPORT_KEYS)


def refuse_columns(mapping: Mapping[str, str] | None, source: str) -> dict[str, int]:
    """The ``@folder`` levels of a mapping given to a SWE-bench report, which has no columns to map (model and task
    only, by the file's folder: :func:`~scorio_core.io.formats.path_names.fixed_fields`)."""
    return fixed_fields(mapping, source, "a SWE-bench report has no columns to map", ("model", "task"))


def _ids(doc: dict, key: str, name: str) -> list[str]:
    value = doc.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        raise InputError(f"'{key}' must be a list of instance ids (strings); got {type(value).__name__}.", source=name,
                         field=key)
    return [str(v) for v in value]


def read_swebench_report(src: Source, mapping: Mapping[str, str] | None = None, errors_missing: bool = False) -> Part:
    """Read one SWE-bench harness report (see the module docstring) as one attempt per instance id.

    Parameters
    ----------
    src : Source
        The report file (``<model>.<run_id>.json``).
    mapping : dict, optional
        Only ``model`` / ``task`` = ``@folder[:N]`` apply (the report has no columns to map).
    errors_missing : bool
        Read ``error_ids`` as missing outcomes instead of unresolved (``--errors-as-missing``).

    Returns
    -------
    Part
        Columns model, task, question_id (the instance id), trial (0), is_correct, and the text signal
        ``swebench_status`` (resolved, unresolved, empty patch, error); the run id in ``Part.defaults``.

    Raises
    ------
    InputError
        Not a JSON object, an id list that is not a list of strings, or an instance id in two outcome lists (naming
        both); ``--map`` of another field.
    """
    doc = load_json(src)
    if not isinstance(doc, dict) or not is_report(doc):
        raise InputError("expected a SWE-bench report: a JSON object with resolved_ids and unresolved_ids lists.",
                         source=src.name)
    refuse_columns(mapping, src.name)
    lists = {key: _ids(doc, key, src.name) for key, _ in OUTCOME_LISTS}
    seen: dict[str, str] = {}
    for key, ids in lists.items():
        for i in ids:
            if seen.setdefault(i, key) != key:
                raise InputError(f"instance '{i}' is listed in both {seen[i]} and {key}; a report lists each instance "
                                 "under one outcome: re-run the report (swebench.harness.run_evaluation).",
                                 source=src.name, field=key)
    stem = src.inner_name.rsplit("/", 1)[-1]
    stem = stem[:-5] if stem.lower().endswith(".json") else stem  # not src.stem: '.eval' of a run id is no suffix
    model, dot, run = stem.rpartition(".")
    if not dot or not model:
        model, run = stem, ""
    named = folder_names(src.path, folder_fields(mapping), src.name)
    ids = [i for key, _ in OUTCOME_LISTS for i in lists[key]]
    status = [_STATUS[key] for key, _ in OUTCOME_LISTS for _ in lists[key]]
    outcome = np.concatenate([np.full(len(lists[key]), value) for key, value in OUTCOME_LISTS]) if ids else np.zeros(0)
    errors = len(lists["error_ids"])
    if errors_missing and errors:
        outcome[len(ids) - errors:] = np.nan
    frame = pd.DataFrame({"model": named.get("model", model), "task": named.get("task", TASK), "question_id": ids,
                          "trial": np.zeros(len(ids), np.int64), "is_correct": outcome,
                          "swebench_status": pd.Series(status, dtype="str")})
    guess = infer_mapping(frame.columns, {"model": "model", "task": "task", "question_id": "question_id",
                                          "trial": "trial", "is_correct": "is_correct"}, source=src.name)
    part = canonicalize(frame, guess, source=src.name, fmt="swebench-report",
                        locate=lambda i: {"context": f"instance '{ids[i]}' ({status[i]}): "}, stem=stem)
    part.mapping.update({
        "model": f"<folder: {named['model']}>" if "model" in named else "<file name before its last dot>",
        "task": f"<folder: {named['task']}>" if "task" in named else f"<{TASK}: the report does not name its dataset>",
        "question_id": "resolved_ids, unresolved_ids, empty_patch_ids, error_ids",
        "trial": "<the run: one report>",
        "is_correct": "1 if in resolved_ids, else 0" + (" (error_ids missing)" if errors_missing else ""),
    })
    part.defaults.append(f"{src.name}: SWE-bench report of model '{frame['model'].iat[0] if ids else model}'"
                         + (f", run '{run}'" if run else "") + "; one attempt per instance (trial 0 of this run).")
    part.notes.extend(_notes(doc, lists, src.name, errors_missing))
    part.read["dataset_size"] = doc.get("total_instances")
    part.read["run_id"] = run
    return part


def _notes(doc: dict, lists: dict[str, list[str]], name: str, errors_missing: bool) -> list[str]:
    out = []
    if n := len(lists["empty_patch_ids"]):
        out.append(f"{name}: {n} instance{'s' * (n > 1)} with an empty patch counted as unresolved, as SWE-bench's "
                   "report counts them (the model submitted no change).")
    if n := len(lists["error_ids"]):
        out.append(f"{name}: {n} instance{'s' * (n > 1)} in error_ids (no test report: a harness or environment "
                   "failure) " + ("read as missing outcomes (--errors-as-missing); the missing-outcomes choice decides "
                                  "what they count as." if errors_missing else
                                  "counted as unresolved, as SWE-bench's report counts them; --errors-as-missing "
                                  "reads them as missing instead."))
    incomplete = _ids(doc, "incomplete_ids", name)
    if incomplete:
        n = len(incomplete)
        out.append(f"{name}: {n} instance{'s' * (n > 1)} of the dataset had no prediction in this run "
                   "(incomplete_ids): not attempts here. SWE-bench's '% resolved' divides by total_instances and so "
                   "counts them unresolved; the rates here are over the instances run.")
    for key, listed in (("resolved_instances", "resolved_ids"), ("unresolved_instances", "unresolved_ids"),
                        ("empty_patch_instances", "empty_patch_ids"), ("error_instances", "error_ids")):
        count = doc.get(key)
        if isinstance(count, int) and not isinstance(count, bool) and count != len(lists[listed]):
            out.append(f"{name}: {key} says {count} but {listed} lists {len(lists[listed])}; the lists are read.")
    return out


#: Formats whose every file (or folder) is one run of one model: several of one (model, task) are its trials.
RUN_FORMATS = ("swebench-report", "swebench-instance", "aider", "terminal-bench", "opencompass", "harbor")


def number_runs(parts: list[Part]) -> None:
    """Number the runs of each (model, task) among SWE-bench reports, aider run folders and terminal-bench runs: trial
    0, 1, ... in load order (in place); a run with several attempts of a task (terminal-bench's ``n_attempts``) keeps
    them as consecutive trials.

    Each report is one run of its model, so several reports of one model are its trials. Reports of one model and task
    whose ``total_instances`` differ are different datasets (Lite, Verified ...), which would merge as runs.

    Raises
    ------
    InputError
        Two reports of one (model, task) with different dataset sizes, or with identical content (one run loaded
        twice), naming both and the fix.
    """
    groups: dict[tuple[str, str], list[Part]] = {}
    for p in parts:
        if p.format in RUN_FORMATS and len(p.table):
            key = (str(p.table["model"].iat[0]), str(p.table["task"].iat[0]))
            groups.setdefault(key, []).append(p)
    for (model, task), runs in groups.items():
        sizes = [p.read.get("dataset_size") for p in runs]
        other = next((i for i, n in enumerate(sizes) if n is not None and sizes[0] is not None and n != sizes[0]), None)
        if other is not None:
            a, b = runs[0], runs[other]
            raise InputError(f"{a.source} and {b.source} are reports of model '{model}' over datasets of different sizes "
                             f"({sizes[0]} and {sizes[other]} instances: e.g. SWE-bench Lite and Verified), which would be "
                             "read as two runs of one task; put each dataset's reports in a folder named after it and "
                             "load with --map task=@folder, or load them separately.", source=f"{a.source}, {b.source}")
        by_hash: dict[str, Part] = {}
        twice = next(((by_hash[p.sha256], p) for p in runs if p.sha256 and by_hash.setdefault(p.sha256, p) is not p), None)
        if twice:
            raise InputError(f"{twice[0].source} and {twice[1].source} are the same report (identical content), which "
                             f"would count one run of model '{model}' twice; load it once.",
                             source=f"{twice[0].source}, {twice[1].source}")
        if len(runs) > 1:
            offset = 0
            for i, p in enumerate(runs):  # a run's own trials (terminal-bench's attempts) follow the runs before it
                own = p.table["trial"].to_numpy(np.int64)
                p.table["trial"] = own + offset
                top = offset + int(own.max())
                p.defaults.append(f"{p.source}: run {i + 1} of {len(runs)} reports of model '{model}' on {task}: "
                                  f"trial {offset}{f'-{top}' if top > offset else ''} (runs numbered in load order).")
                offset = top + 1
