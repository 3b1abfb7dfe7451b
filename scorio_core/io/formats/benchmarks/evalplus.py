"""EvalPlus and BigCodeBench evaluation results: ``{"date": ..., "eval": {task_id: [sample, ...]}}``.

Sources: evalplus/evalplus ``evalplus/evaluate.py`` (the samples ``evalplus_results/<dataset>/<model>_<backend>_temp_<T>
.jsonl``, ``/`` in the model written ``--``, by ``codegen.py``; their results beside them as ``..._eval_results.json``
or ``.eval_results.json``, or ``eval_results.json`` in a samples folder: each task's samples in completion order with
``base_status`` and ``plus_status``, ``"pass"``, ``"fail"``, ``"timeout"``, or null when the run never reported;
``plus_status`` null throughout under ``--base-only``) and bigcode-project/bigcodebench ``bigcodebench/evaluate.py``
(EvalPlus's evaluator: ``<model>--<revision>--bigcodebench[-hard]-<split>--<backend>-<T>-<n>-sanitized_calibrated
_eval_results.json``, one ``status`` per sample, its ``_pass_at_k.json`` beside it).

- EvalPlus: two tasks per file, as EvalPlus reports them: ``HumanEval`` (or ``MBPP``) where a sample passes the
  base tests, ``HumanEval+`` (``MBPP+``) where it passes the base and the extra tests (``base_status ==
  plus_status == "pass"``, evaluate.py's plus pass@k); BigCodeBench: one task named by the file
  (``bigcodebench-complete``, ``bigcodebench-hard-instruct``);
- the question is the task id; each sample one trial (its position: completion order);
- a sample that did not pass counts 0, as the tools count it; a null status (the run never reported) counts 0 too,
  said, or is missing with ``--errors-as-missing``;
- the model is the file name's (``Qwen/Qwen2.5-Coder-7B-Instruct (t0.8)``: ``--`` read as ``/``, the sampling
  temperature kept so runs at other temperatures stay apart, a revision other than ``main`` kept as ``@revision``);
  an ``eval_results.json`` in a samples folder is named by that folder; ``--map model=@folder[:N]`` names it otherwise.

The generations and the pass@k summaries beside a results file are left out, said; loaded without it, each is refused
with what writes the results (:func:`skip_evalplus_files`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part
from scorio_core.io._sources import Source, load_json
from scorio_core.io.formats.harness_files import leave_out, tool_part
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "is_evalplus_results", "read_evalplus", "skip_evalplus_files"]

FORMAT = "evalplus"
_EVALPLUS = re.compile(r"^(?P<model>.+?)_(?P<backend>[A-Za-z0-9]+)_temp_(?P<temp>[\d.]+)(?:-[\w-]+)?"
                       r"(?P<kind>[._]eval_results\.json|\.raw\.jsonl|\.jsonl)$")
_BCB = re.compile(r"^(?P<model>.+?)--bigcodebench(?P<extra>[-\w]*?)-(?P<split>complete|instruct)--(?P<backend>[\w]+)-"
                  r"(?P<temp>[\d.]+)-(?P<n>\d+)-sanitized[-_]calibrated(?P<kind>_eval_results\.json|_pass_at_k\.json"
                  r"|\.jsonl)$")
_DATASETS = {"humaneval": "HumanEval", "mbpp": "MBPP"}


def is_evalplus_results(head: bytes) -> bool:
    """Whether a JSON document's head reads as EvalPlus's or BigCodeBench's results (an ``eval`` object of samples
    with a status).

    >>> is_evalplus_results(b'{"date": "2025-01-01 10:00", "eval": {"HumanEval/0": [{"task_id": "HumanEval/0", '
    ...                     b'"solution": "...", "base_status": "pass"')
    True
    >>> is_evalplus_results(b'{"eval": {"task": "x"}, "samples": []}')
    False
    """
    return (b'"eval"' in head and b'"task_id"' in head and b'"solution"' in head
            and (b'"base_status"' in head or b'"status"' in head))


def _run(name: str) -> tuple[str, str | None, str] | None:
    """(model, task or None for EvalPlus's two, kind) from a results, summary or samples file name, else None."""
    if found := _BCB.match(name):
        parts = found["model"].split("--")
        revision = parts.pop() if len(parts) > 2 or (len(parts) == 2 and parts[1] == "main") else None
        model = "/".join(parts) + (f"@{revision}" if revision not in (None, "main") else "")
        return f"{model} (t{found['temp']})", f"bigcodebench{found['extra']}-{found['split']}", found["kind"]
    if found := _EVALPLUS.match(name):
        return f"{found['model'].replace('--', '/')} (t{found['temp']})", None, found["kind"]
    return None


def _stem(src: Source) -> str | None:
    """The run a results, summary or samples file belongs to (its folder and name up to the kind), else None."""
    found = _BCB.match(src.name) or _EVALPLUS.match(src.name)
    return f"{src.path.parent}/{src.name[:found.start('kind')]}" if found and src.path is not None else None


def skip_evalplus_files(srcs: list[Source]) -> list[Source]:
    """Leave out the generations (``.jsonl``, ``.raw.jsonl``) and pass@k summaries (``_pass_at_k.json``) beside an
    EvalPlus or BigCodeBench results file of the same run, saying how many.

    Raises
    ------
    InputError
        A run's generations or summary loaded without its results (what writes them said).
    """
    files = [s for s in srcs if s.path is not None and not s.is_dir]
    results = {_stem(s) for s in files if s.name.endswith("eval_results.json") and _stem(s)}
    side = [s for s in files if _stem(s) and not s.name.endswith("eval_results.json")]
    if not side:
        return srcs
    orphan = next((s for s in side if _stem(s) not in results), None)
    if orphan is not None:
        what = "pass@k summary" if orphan.name.endswith("_pass_at_k.json") else "generations, not evaluated"
        raise InputError(f"an EvalPlus / BigCodeBench run's {what}: the per-sample results are the ..._eval_results"
                         ".json beside it (evalplus.evaluate or bigcodebench.evaluate writes it); load that file or "
                         "its folder.", source=orphan.name)
    return leave_out(srcs, side, f"EvalPlus / BigCodeBench: {len(side):,} file{'s' * (len(side) > 1)} beside the "
                     "..._eval_results.json not read (the generations and pass@k summaries).", "")


def read_evalplus(src: Source, mapping: Mapping[str, str] | None = None, errors_missing: bool = False) -> Part:
    """Read an EvalPlus or BigCodeBench results file (see the module docstring): one attempt per sample.

    Parameters
    ----------
    src : Source
        The ``..._eval_results.json`` (or ``eval_results.json``) file.
    mapping : dict, optional
        ``model`` / ``task`` ``=@folder[:N]``; other fields are fixed.
    errors_missing : bool
        Read a null status (the run never reported) as a missing outcome instead of 0.

    Returns
    -------
    Part
        Columns model, task, question_id (the task id), trial (the sample's position), is_correct.

    Raises
    ------
    InputError
        No ``eval`` object of sample lists, a sample without its status (naming the task id), another ``--map``.
    """
    levels = fixed_fields(dict(mapping or {}), src.name, "EvalPlus / BigCodeBench results have fixed fields (the task "
                          "id the question, each sample one trial, its status the outcome)", ("model", "task"))
    doc = load_json(src)
    tasks = doc.get("eval") if isinstance(doc, dict) else None
    if not isinstance(tasks, dict) or not tasks or not all(isinstance(v, list) for v in tasks.values()):
        raise InputError("expected EvalPlus / BigCodeBench results: an 'eval' object mapping each task id to its "
                         "samples.", source=src.name)
    run = _run(src.name)
    named = folder_names(src.path, levels, src.name) if levels and src.path is not None else {}
    model = named.get("model") or (run[0] if run else src.path.parent.name if src.path is not None
                                   and src.name == "eval_results.json" else re.sub(r"[._]eval_results\.json$|\.json$",
                                                                                   "", src.name))
    bad = next(((k, s) for k, v in tasks.items() for s in v if not isinstance(s, dict)), None)
    if bad is not None:
        raise InputError(f"a sample of {bad[0]!r} is {bad[1]!r}, not an object with its status.", source=src.name)
    first = next((s for v in tasks.values() for s in v), None)
    if first is None:
        raise InputError("the results hold no sample (every task's list is empty).", source=src.name)
    plus = "base_status" in first and any(s.get("plus_status") is not None for v in tasks.values() for s in v)
    field = "base_status" if "base_status" in first else "status"
    prefix = str(first.get("task_id") or next(iter(tasks))).split("/", 1)[0]
    base = named.get("task") or (run[1] if run and run[1] else _DATASETS.get(prefix.lower(), prefix))
    lengths = np.fromiter((len(v) for v in tasks.values()), np.int64, len(tasks))
    missing = next((k for k, v in tasks.items() for s in v if field not in s), None)
    if missing is not None:
        raise InputError(f"a sample of {missing!r} has no {field!r}.", source=src.name, field=field)
    status = np.array([s[field] for v in tasks.values() for s in v], dtype=object)
    none = np.equal(status, None)
    unknown = int(none.sum())
    passed = status == "pass"
    qids = np.repeat(np.array([str(k) for k in tasks], dtype=object), lengths)
    trials = np.arange(len(status)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    outcomes, names = [np.where(none, np.nan if errors_missing else 0.0, passed)], [base]
    if plus:  # HumanEval+: the base and the extra tests both pass (evaluate.py); a null either way is unknown
        extra = np.array([s.get("plus_status") for v in tasks.values() for s in v], dtype=object)
        unknown_plus = none | np.equal(extra, None)
        outcomes.append(np.where(unknown_plus, np.nan if errors_missing else 0.0, passed & (extra == "pass")))
        names.append(f"{base}+")
    n = len(status)
    task = np.repeat(np.array(names, dtype=object), n)
    qids, trials = np.tile(qids, len(names)), np.tile(trials, len(names))
    frame = pd.DataFrame({"model": model, "task": task, "question_id": qids, "trial": trials,
                          "is_correct": np.concatenate(outcomes).astype(float)})
    part = tool_part(frame, src.name, FORMAT, base, lambda i: {"context": f"{task[i]} {qids[i]}, sample {trials[i]}: "},
                     named, {"model": f"<file name: {model}>", "task": f"<{base}{' and ' + base + '+' if plus else ''}>",
                             "question_id": "<key in eval>", "trial": "<position in the task's samples>",
                             "is_correct": f"{field} == 'pass'" + (" (and plus_status, for the + task)" if plus else "")})
    n = sum(len(v) for v in tasks.values())
    part.defaults.append(f"{src.name}: {'EvalPlus' if field == 'base_status' else 'BigCodeBench'} results of '{model}': "
                         f"{len(tasks):,} tasks, {n:,} samples" + (f"; {base} (base tests) and {base}+ (base and extra "
                                                                   "tests)" if plus else f"; task {base}") + ".")
    if unknown:
        part.notes.append(f"{src.name}: {unknown:,} sample{'s' * (unknown > 1)} without a status (the evaluation never "
                          "reported) " + ("read as missing (--errors-as-missing)." if errors_missing else
                                          "counted 0, as EvalPlus counts them (--errors-as-missing: missing)."))
    return part
