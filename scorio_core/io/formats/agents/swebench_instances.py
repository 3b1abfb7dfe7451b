"""SWE-bench per-instance reports: ``logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json``.

Source: SWE-bench/SWE-bench ``swebench/harness/grading.py`` (``get_eval_report``) and ``run_evaluation.py``
(``get_log_dir``: ``RUN_EVALUATION_LOG_DIR / run_id / model_name_or_path.replace("/", "__") / instance_id``). Each file
is one instance of one run of one model::

    {"django__django-11099": {"patch_is_None": false, "patch_exists": true, "patch_successfully_applied": true,
                              "resolved": true, "tests_status": {...}}}

A model's folder of a run is read as one source (one run: trial 0; several runs of one model are numbered 0, 1, ...
in load order by :func:`~scorio_core.io.formats.agents.swebench.number_runs`, as summary reports are):

- the model is the folder above the instance's folder (the folder holding the file when the file's folder is not
  named after its instance), the run id the folder above that; ``--map model=@folder:N`` / ``task=@folder:N`` name
  either otherwise; the task is ``swe-bench`` unless a folder names it;
- ``resolved``: 1, else 0, as SWE-bench counts: a patch that did not apply and a missing patch (``patch_is_None``,
  ``patch_exists`` false) are unresolved, said with their numbers in the notes;
- instances the harness wrote no ``report.json`` for (empty patches, harness errors, instances not run) are not
  attempts here, and the notes say so: the run's summary report ``<model>.<run_id>.json`` lists them.

An upload has no folder, so it names no model: it is refused with the way to load it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source, load_json
from scorio_core.io.formats.agents.swebench import TASK, refuse_columns
from scorio_core.io.formats.path_names import folder_names

__all__ = ["FORMAT", "HARNESS_FILES", "group_instance_reports", "is_instance_head", "read_swebench_instances",
           "refuse_same_runs", "skip_harness_files"]

#: The format key of a per-instance report (or a model's folder of them).
FORMAT = "swebench-instance"
_PATCH = ("patch_is_None", "patch_exists", "patch_successfully_applied")
_FIRST = re.compile(rb'\A\s*\{\s*"((?:[^"\\]|\\.){1,200})"\s*:\s*\{([^{}]*)')
_KEY = re.compile(rb'"([^"\\]{1,64})"\s*:')


def is_instance_head(head: bytes) -> bool:
    """Whether a JSON document's head is a per-instance report: an object whose first value is an object with
    ``resolved`` and one of ``patch_is_None`` / ``patch_exists`` / ``patch_successfully_applied``.

    >>> is_instance_head(b'{"a__b-1": {"patch_is_None": false, "patch_exists": true, "resolved": true}}')
    True
    >>> is_instance_head(b'{"data": {"resolved": 1, "n": 2}}')
    False
    """
    m = _FIRST.match(head)
    if not m:
        return False
    keys = {k.decode("utf-8", "ignore") for k in _KEY.findall(m.group(2))}
    return "resolved" in keys and any(k in keys for k in _PATCH)


def _first_key(src: Source) -> str | None:
    m = _FIRST.match(src.text_head(4096))
    return m.group(1).decode("utf-8", "ignore") if m else None


def group_instance_reports(detected: list[tuple[Source, str]]) -> list[tuple[Source, str]]:
    """Gather the per-instance reports of each model folder into one source (one run of that model), in load order.

    The model folder is the folder above the file's when the file's folder is named after its instance (the
    harness's layout), else the file's own folder. Uploads (no folder) stay single: the reader refuses them.
    """
    out: list[tuple[Source, str]] = []
    groups: dict[Path, Source] = {}
    for src, fmt in detected:
        if fmt != FORMAT or src.path is None or src.is_dir:
            out.append((src, fmt))
            continue
        folder = src.path.parent
        model_dir = folder.parent if _first_key(src) == folder.name else folder
        group = groups.get(model_dir)
        if group is None:
            name = f"{model_dir.parent.name}/{model_dir.name}" if model_dir.parent.name else model_dir.name
            group = groups[model_dir] = Source(name=name, path=model_dir, is_dir=True)
            out.append((group, fmt))
        member = src.path.relative_to(model_dir).as_posix()
        group.members[member] = Source(name=f"{group.name}/{member}", path=src.path)
    return out


#: Files the harness writes beside an instance's report.json that a folder walk would take for data (a .txt as TSV).
HARNESS_FILES = frozenset({"test_output.txt"})


def skip_harness_files(srcs: list[Source]) -> list[Source]:
    """Leave out the harness's logs that sit beside a ``report.json`` (``test_output.txt``: the test run's output),
    saying how many in a note on the first report."""
    reports = {s.path.parent: s for s in srcs if s.path is not None and not s.is_dir and s.name == "report.json"}
    skipped = [s for s in srcs if s.path is not None and s.name in HARNESS_FILES and s.path.parent in reports]
    if not skipped:
        return srcs
    first = reports[skipped[0].path.parent]
    first.notes.append(f"{len(skipped):,} SWE-bench harness log{'s' * (len(skipped) > 1)} beside the per-instance "
                       f"reports ({', '.join(sorted({s.name for s in skipped}))}) not read: the test runs' output, "
                       "not outcomes.")
    gone = {id(s) for s in skipped}
    return [s for s in srcs if id(s) not in gone]


def _status(entry: dict) -> str:
    if entry.get("patch_is_None") is True or entry.get("patch_exists") is False:
        return "no patch"
    if entry.get("patch_successfully_applied") is False:
        return "patch not applied"
    return "resolved" if entry["resolved"] else "unresolved"


def _entries(member: Source) -> list[tuple[str, str, float]]:
    doc = load_json(member)
    if not isinstance(doc, dict) or not doc:
        raise InputError("expected a SWE-bench per-instance report: a JSON object {instance_id: {\"resolved\": ...}}.",
                         source=member.name)
    out = []
    for key, entry in doc.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("resolved"), bool):
            raise InputError(f"instance '{key}': 'resolved' must be true or false (swebench.harness.grading's "
                             "get_eval_report writes it); re-run the evaluation of this instance.", source=member.name,
                             field="resolved")
        out.append((str(key), _status(entry), float(entry["resolved"])))
    return out


def read_swebench_instances(src: Source, mapping: Mapping[str, str] | None = None) -> Part:
    """Read a model folder of per-instance reports (see the module docstring) as one run: one attempt per instance.

    Parameters
    ----------
    src : Source
        A folder source from :func:`group_instance_reports` (or one report file on disk).
    mapping : dict, optional
        Only ``model`` / ``task`` = ``@folder[:N]`` apply, counted from each file.

    Returns
    -------
    Part
        Columns model, task, question_id (the instance id), trial (0), is_correct, and the text signal
        ``swebench_status`` (resolved, unresolved, patch not applied, no patch); ``read["run_id"]`` the run folder.

    Raises
    ------
    InputError
        An upload (no folder names the model), a file that is not a per-instance report or whose ``resolved`` is not a
        boolean (naming the file and instance), ``--map`` of another field.
    """
    members = list(src.members.values()) if src.is_dir else [src]
    if src.path is None:
        raise InputError("a SWE-bench per-instance report.json names its instance but not its model, which only its "
                         "folder does (logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json): load the "
                         "run folder (the app's Upload a folder or Open from the server, or its path on the command "
                         "line), or upload the run's summary report <model>.<run_id>.json instead.", source=src.name)
    levels = refuse_columns(mapping, src.name)
    model_dir = src.path if src.is_dir else src.path.parent
    rows, named = [], []
    for m in members:
        found = _entries(m)
        rows.extend(found)
        named.extend([folder_names(m.path, levels, m.name)] * len(found))
    ids = [r[0] for r in rows]
    status = [r[1] for r in rows]
    frame = pd.DataFrame({"model": [n.get("model", model_dir.name) for n in named],
                          "task": [n.get("task", TASK) for n in named], "question_id": ids,
                          "trial": np.zeros(len(rows), np.int64), "is_correct": np.array([r[2] for r in rows]),
                          "swebench_status": pd.Series(status, dtype="str")})
    guess = infer_mapping(frame.columns, {c: c for c in ("model", "task", "question_id", "trial", "is_correct")},
                          source=src.name)
    part = canonicalize(frame, guess, source=src.name, fmt=FORMAT, stem=model_dir.name,
                        locate=lambda i: {"context": f"instance '{ids[i]}' ({status[i]}): "})
    run = model_dir.parent.name
    part.mapping.update({
        "model": "<folder: " + (f"{named[0]['model']}>" if "model" in levels and named else
                                f"{model_dir.name}: the folder above the instance folders>"),
        "task": f"<folder: {named[0]['task']}>" if "task" in levels and named else
        f"<{TASK}: the reports do not name their dataset>",
        "question_id": "<each report.json's instance id>", "trial": "<the run: one folder>",
        "is_correct": "resolved (1 if true, else 0)"})
    part.defaults.append(f"{src.name}: {len(members)} SWE-bench per-instance report{'s' * (len(members) > 1)} of model "
                         f"'{frame['model'].iat[0] if len(frame) else model_dir.name}'" + (f", run '{run}'" if run else "")
                         + "; one attempt per instance (trial 0 of this run).")
    part.notes.extend(_notes(src.name, status))
    part.read["run_id"] = run
    return part


def _notes(name: str, status: list[str]) -> list[str]:
    out = ["SWE-bench per-instance reports: instances the harness wrote no report.json for (empty patches, harness "
           "errors, instances not run) are not attempts here; SWE-bench's summary report <model>.<run_id>.json counts "
           "them unresolved: load it instead to count them."]
    for what, why in (("patch not applied", "the patch did not apply"), ("no patch", "no patch was submitted")):
        if n := status.count(what):
            out.append(f"{name}: {n} instance{'s' * (n > 1)} where {why} counted as unresolved, as SWE-bench counts "
                       "them.")
    return out


def refuse_same_runs(parts: list[Part]) -> None:
    """Refuse a run loaded twice: a summary report and the per-instance reports of the same model and run id.

    Raises
    ------
    InputError
        Naming both sources and which to keep.
    """
    summaries = {}
    for p in parts:
        if p.format == "swebench-report" and len(p.table):
            summaries[(str(p.table["model"].iat[0]), p.read.get("run_id"))] = p
    for p in parts:
        if p.format == FORMAT and len(p.table):
            other = summaries.get((str(p.table["model"].iat[0]), p.read.get("run_id")))
            if other is not None:
                raise InputError(f"{other.source} and {p.source} are the same run '{p.read['run_id']}' of model "
                                 f"'{p.table['model'].iat[0]}' (its summary report and its per-instance reports), which "
                                 "would count it twice; load one of them (the summary also lists the run's empty patches "
                                 "and harness errors).", source=f"{other.source}, {p.source}")
