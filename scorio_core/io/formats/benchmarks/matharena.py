"""MathArena outputs: ``outputs/<competition>/<provider>/<model>/<problem_idx>.json``, one file per problem.

Source: eth-sri/matharena ``src/matharena/runs.py`` (``Runs``: "all runs of a particular solver for a specific problem
in a specific comp", written to ``outputs/{comp}/{solver}/{problem_idx}.json``; the solver is the model config's
name, ``openai/o4-mini-high``; the competition ``aime/aime_2025``). A file holds the problem's N runs::

    {"idx": 1, "problem": "...", "gold_answer": "70", "source": ..., "types": [...], "N": 4, "cost": {...},
     "pass_at_1": 0.75, "answers": ["70", ...], "correct": [true, false, true, true], "warnings": [...],
     "messages": [...], "detailed_costs": [{"cost": ..., "input_tokens": ..., "output_tokens": ..., "time": ...}]}

- the model is the solver, the two folders above the file (``openai/o4-mini-high``); the task the folder above them
  (``aime_2025``); ``--map model=@folder[:N]`` / ``task=@folder[:N]`` name either otherwise; the question is the
  problem index (the file's ``idx``, else its name);
- each element of ``correct`` is one run: trial 0, 1, ...; true/false the outcome, a number in [0, 1] a graded score;
  a run not graded yet (MathArena writes ``"TODO Grading"``) or null is a missing outcome, said;
- each run's ``detailed_costs`` are kept as cost (USD), prompt_tokens, completion_tokens and latency (seconds).

A solver's folder is read as one source (:func:`gather_matharena`); an uploaded problem file names no solver, so it is
refused with the way to load the folder.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part
from scorio_core.io._sources import Source, load_json
from scorio_core.io.formats.harness_files import gather_files, tool_part
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "gather_matharena", "is_matharena", "is_matharena_run", "read_matharena"]

FORMAT = "matharena"
_PROBLEM = re.compile(r"^\d+\.json$")
#: Keys a MathArena problem file holds before its runs (``Runs.to_dict``'s order).
KEYS = frozenset({"idx", "gold_answer", "N", "pass_at_1"})
_COSTS = (("cost", "cost"), ("input_tokens", "prompt_tokens"), ("output_tokens", "completion_tokens"), ("time", "latency"))


def is_matharena(keys) -> bool:
    """Whether a JSON object whose head has these keys is a MathArena problem file.

    >>> is_matharena({"idx", "problem", "gold_answer", "source", "types", "N", "cost", "pass_at_1", "answers"})
    True
    >>> is_matharena({"idx", "correct"})
    False
    """
    return KEYS <= set(keys)


def _is_problem_file(src: Source) -> bool:
    if src.path is None or src.is_dir or not _PROBLEM.match(src.name):
        return False
    head = src.text_head(32768)
    return b'"gold_answer"' in head and b'"pass_at_1"' in head


def gather_matharena(srcs: list[Source], fmt: str | None = None) -> list[Source]:
    """Gather each solver folder's problem files into one folder source (one model on one competition), in load
    order. ``fmt``: the user's ``--format``, if any."""
    if fmt not in (None, FORMAT):
        return srcs
    out, solvers = gather_files(srcs, lambda src: src.path.parent if _is_problem_file(src) else None,
                                lambda folder: f"{folder.parent.name}/{folder.name}")
    return out if solvers else srcs


def is_matharena_run(src: Source) -> bool:
    """Whether a folder source is a solver's problem files gathered by :func:`gather_matharena`."""
    return src.is_dir and bool(src.members) and all(_PROBLEM.match(Path(k).name) for k in src.members) \
        and not (src.path is not None and (src.path / "config.json").is_file())


def _outcome(value) -> float:
    if value is None or isinstance(value, str):
        return np.nan
    if isinstance(value, bool):
        return float(value)
    return float(value) if isinstance(value, (int, float)) else np.nan


def read_matharena(src: Source, mapping: Mapping[str, str] | None = None) -> Part:
    """Read a MathArena solver folder (or one problem file on disk; see the module docstring): one attempt per run.

    Parameters
    ----------
    src : Source
        A solver folder from :func:`gather_matharena`, or one ``<problem_idx>.json`` on disk.
    mapping : dict, optional
        ``--map model=@folder[:N]`` / ``task=@folder[:N]`` only.

    Returns
    -------
    Part
        Columns model, task, question_id (the problem index), trial (the run), is_correct, and the signals cost,
        prompt_tokens, completion_tokens, latency where every run gives them.

    Raises
    ------
    InputError
        An upload (no folder names the solver), a file whose ``correct`` is not a list, a run's outcome that is
        neither true/false, a number, null nor a grading note, another ``--map``.
    """
    levels = fixed_fields(mapping, src.name, "MathArena outputs have fixed fields (idx, correct)", ("model", "task"))
    if src.path is None:
        raise InputError("an uploaded MathArena problem file names no model (the solver is the folders above it, "
                         "outputs/<competition>/<provider>/<model>/): load the solver's folder or the outputs folder "
                         "instead: the app's Upload a folder (or Open from the server), or its path on the command "
                         "line.", source=src.name)
    members = [src.members[k] for k in sorted(src.members, key=lambda k: int(Path(k).stem))] if src.is_dir else [src]
    folder = src.path if src.is_dir else src.path.parent
    named = folder_names(members[0].path, levels, src.name) if levels else {}
    model = named.get("model") or f"{folder.parent.name}/{folder.name}"
    task = named.get("task") or folder.parent.parent.name
    ids, values, pending, costs = [], [], 0, {c: [] for _, c in _COSTS}
    for m in members:
        doc = load_json(m)
        runs = doc.get("correct") if isinstance(doc, dict) else None
        if not isinstance(runs, list):
            raise InputError("expected a MathArena problem file: an object whose 'correct' lists each run's grading.",
                             source=m.name, field="correct")
        for v in runs:
            if not (v is None or isinstance(v, (bool, int, float, str))):
                raise InputError(f"a run's grading must be true/false, a number or null; got {v!r}.", source=m.name,
                                 field="correct")
        pending += sum(isinstance(v, str) for v in runs)
        qid = doc.get("idx") if isinstance(doc.get("idx"), (int, str)) else Path(m.name).stem
        ids.extend([str(qid)] * len(runs))
        values.extend(_outcome(v) for v in runs)
        detail = doc.get("detailed_costs") if isinstance(doc.get("detailed_costs"), list) else []
        for i in range(len(runs)):
            row = detail[i] if i < len(detail) and isinstance(detail[i], dict) else {}
            for key, col in _COSTS:
                costs[col].append(row.get(key))
    if not ids:
        raise InputError("the MathArena folder holds no graded run yet.", source=src.name)
    qids = np.asarray(ids, object)
    first = np.r_[True, qids[1:] != qids[:-1]]
    start = np.maximum.accumulate(np.where(first, np.arange(len(qids)), 0))
    frame = pd.DataFrame({"model": model, "task": task, "question_id": qids, "trial": np.arange(len(qids)) - start,
                          "is_correct": np.asarray(values, float)})
    for col, vals in costs.items():
        frame[col] = pd.to_numeric(pd.Series(vals, dtype=object), errors="coerce")
    frame = frame.drop(columns=[c for c in costs if frame[c].isna().any()])  # kept only where every run gives it
    part = tool_part(frame, src.name, FORMAT, folder.name,
                     lambda i: {"context": f"problem {qids[i]}, run {int(i - start[i]) + 1}: "}, named,
                     {"model": f"<folders: {model}>", "task": f"<folder: {task}>", "question_id": "idx",
                      "trial": "<position in correct>", "is_correct": "correct"})
    part.defaults.append(f"{src.name}: MathArena runs of '{model}' on {task}: {len(members):,} problem"
                         f"{'s' * (len(members) > 1)}, one attempt per run (the model from the solver's folders, the "
                         "task from the competition's).")
    if pending:
        part.notes.append(f"{src.name}: {pending} run{'s' * (pending > 1)} not graded yet (MathArena's 'TODO Grading'): "
                          "missing outcomes.")
    return part
