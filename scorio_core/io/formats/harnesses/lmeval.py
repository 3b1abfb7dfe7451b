"""lm-evaluation-harness dumps: ``samples_<task>_<time>.jsonl`` and ``results_<time>.json``.

Source: EleutherAI/lm-evaluation-harness ``lm_eval/evaluator.py`` (``--log_samples``). Each
samples line is one (document, filter) with ``doc_id``, ``filter``, ``metrics`` (the metric
names logged on the line), the metric values as top-level keys, ``resps`` and
``filtered_resps``. With ``repeats`` K > 1 a generation task stores K responses per document
(``resps[0]`` has K entries), but the metric is computed once per document after the
filter (``take_first`` by default, or a majority vote), so per-response correctness is not
in the file: such a document is one attempt (trial 0) and the report says so. When a
task logs a list of K metric values, the K entries become trials 0..K-1.

Model name: ``model_name`` of the matching ``results_<time>.json`` (same timestamp, given
alongside or next to the samples file); otherwise the samples file's folder name
(lm-eval writes ``<output_path>/<model_name_sanitized>/``), recorded in the report. The task
is the ``<task>`` part of the file name; with several filters on one file the task becomes
``<task> [<filter>]``. The outcome is the first logged metric (e.g. ``exact_match``, ``acc``)
unless ``mapping={'is_correct': '<metric>'}``; other metrics are kept as signals.

Drill-down text (:mod:`scorio_core.io._text`): ``input`` (the first request's prompt,
``arguments.gen_args_0.arg_0``), ``target``, ``answer`` (``resps``: the trial's response, or all
K responses of a collapsed document) and ``extracted_answer`` (``filtered_resps``) of generation
requests; log-likelihood requests log (log-prob, is-greedy) pairs there, which are not answers
and are not kept.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source, load_json, utf8_text
from scorio_core.io._text import as_text, clip

__all__ = ["load_results_json", "match_results", "read_lm_eval_results", "read_lm_eval_samples", "results_key",
           "results_timestamp", "samples_timestamp"]

_SAMPLES = re.compile(r"^samples_(?P<task>.+)_(?P<ts>\d{4}-\d{2}-\d{2}T[0-9\-.:]+?)\.jsonl$")
_RESULTS = re.compile(r"^results_(?P<ts>\d{4}-\d{2}-\d{2}T[0-9\-.:]+?)\.json$")
_SKIP = frozenset({"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics", "doc_hash", "prompt_hash", "target_hash"})


def samples_timestamp(name: str) -> tuple[str, str] | None:
    """``(task, timestamp)`` from a samples file name, or None."""
    m = _SAMPLES.match(name)
    return (m.group("task"), m.group("ts")) if m else None


def results_timestamp(name: str) -> str | None:
    """Timestamp from a results file name, or None."""
    m = _RESULTS.match(name)
    return m.group("ts") if m else None


def load_results_json(src: Source) -> dict:
    """Parse a results JSON file.

    Raises
    ------
    InputError
        If the JSON is truncated or not an object.
    """
    doc = load_json(src)
    if not isinstance(doc, dict) or "results" not in doc:
        raise InputError("not an lm-evaluation-harness results file (no 'results' object).", source=src.name)
    return doc


def _model_from_results(doc: dict) -> str | None:
    name = doc.get("model_name")
    if name:
        return str(name)
    args = str((doc.get("config") or {}).get("model_args") or "")
    m = re.search(r"(?:pretrained|model)=([^,]+)", args)
    return m.group(1) if m else None


def _repeats(doc: dict | None, task: str) -> int | None:
    cfg = ((doc or {}).get("configs") or {}).get(task) or {}
    return int(cfg["repeats"]) if isinstance(cfg.get("repeats"), int) else None


def _records_to_part(src: Source, records: list[tuple[int, dict]], model: str, task: str, mapping, defaults: list[str], repeats: int | None, where: str) -> Part:
    if not records:
        raise InputError("the file has no sample records.", source=src.name)
    if mapping and set(mapping) - {"is_correct"}:
        raise InputError("for lm-evaluation-harness samples only --map is_correct=<metric> applies.", source=src.name)
    first_metrics = records[0][1].get("metrics")
    outcome = (mapping or {}).get("is_correct") or (first_metrics[0] if isinstance(first_metrics, list) and first_metrics else None)
    if outcome is None:
        raise InputError("the first record lists no 'metrics'; pass --map is_correct=<metric name>.", source=src.name, field="is_correct", **{where: records[0][0]})
    filters = {str(r.get("filter", "none")) for _, r in records}
    out_rows: list[dict] = []
    positions: list[int] = []
    collapsed = 0
    for pos, rec in records:
        if "doc_id" not in rec:
            raise InputError("record has no 'doc_id'.", source=src.name, field="doc_id", **{where: pos})
        if outcome not in rec:
            raise InputError(f"record has no metric '{outcome}'; metrics here: {', '.join(map(str, rec.get('metrics') or []))}.", source=src.name, field="is_correct", **{where: pos})
        value = rec[outcome]
        values = value if isinstance(value, list) else [value]
        if not isinstance(value, list) and _n_responses(rec) > 1:
            collapsed += 1
        t = task if len(filters) == 1 else f"{task} [{rec.get('filter', 'none')}]"
        for trial, v in enumerate(values):
            row = {"model": model, "task": t, "question_id": str(rec["doc_id"]), "trial": trial, "is_correct": v}
            for k, x in rec.items():
                if k in _SKIP or k == outcome:
                    continue
                if isinstance(value, list) and isinstance(x, list) and len(x) == len(values):
                    x = x[trial]
                if isinstance(x, (int, float)) and not isinstance(x, bool):
                    row[k] = x
            row.update(_texts(rec, trial, len(values) if isinstance(value, list) else 1, src.name))
            out_rows.append(row)
            positions.append(pos)
    frame = pd.DataFrame.from_records(out_rows)
    notes = []
    if collapsed:
        k = repeats or "several"
        notes.append(
            f"{src.name}: {collapsed} documents have {k} responses (repeats > 1) but one '{outcome}' value "
            "computed after the filter; per-response correctness is not in the file, so each document is one "
            "attempt (trial 0). Re-score the responses to use them as trials."
        )
    guess = infer_mapping(frame.columns, {"model": "model", "task": "task", "question_id": "question_id", "trial": "trial", "is_correct": "is_correct"}, source=src.name)
    pos_arr = np.asarray(positions)
    label = "line" if where == "line" else "row"
    part = canonicalize(frame, guess, source=src.name, fmt="lm-eval-samples", locate=lambda i: {label: int(pos_arr[i])}, stem=src.stem, notes=notes)
    part.mapping.update({"model": "results.model_name" if not defaults else "<folder name>", "task": "<file name>", "question_id": "doc_id", "trial": "<metric list position>", "is_correct": outcome})
    part.defaults.extend(defaults)
    return part


def _prompt(arguments) -> str | None:
    """The prompt of a record's first request (``gen_args_0.arg_0``, or ``[[prompt, ...]]`` in older dumps)."""
    if isinstance(arguments, dict) and arguments:
        first = arguments.get("gen_args_0", next(iter(arguments.values())))
        return first.get("arg_0") if isinstance(first, dict) and isinstance(first.get("arg_0"), str) else None
    if isinstance(arguments, list) and arguments and isinstance(arguments[0], list) and arguments[0]:
        return arguments[0][0] if isinstance(arguments[0][0], str) else None
    return None


def _is_generation(arguments) -> bool:
    """Whether a record's request generates text (its second argument is the generation kwargs dict);
    log-likelihood requests pass a continuation string there and log (log-prob, is-greedy) pairs as responses."""
    if isinstance(arguments, dict) and arguments:
        first = arguments.get("gen_args_0", next(iter(arguments.values())))
        return isinstance(first, dict) and isinstance(first.get("arg_1"), dict)
    if isinstance(arguments, list) and arguments and isinstance(arguments[0], list) and len(arguments[0]) > 1:
        return isinstance(arguments[0][1], dict)
    return False


def _per_trial(value, trial: int, n_values: int) -> str | None:
    """The text of one trial from ``resps``/``filtered_resps``: K strings for K trials, else all of them."""
    while isinstance(value, list) and len(value) == 1 and isinstance(value[0], list):
        value = value[0]
    if isinstance(value, str):
        return value
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        return None  # log-likelihood tasks log numbers here, not text
    if len(value) == n_values:
        return value[trial]
    if len(value) == 1:
        return value[0]
    return "\n\n".join(f"[response {i + 1} of {len(value)}]\n{v}" for i, v in enumerate(value))


def _texts(rec: dict, trial: int, n_values: int, source: str) -> dict:
    """Drill-down text of one attempt: ``input`` (prompt), ``target``, ``answer`` (``resps``), ``extracted_answer`` (``filtered_resps``)."""
    generated = _is_generation(rec.get("arguments"))
    out = {
        "input": _prompt(rec.get("arguments")),
        "target": as_text(rec.get("target")) if rec.get("target") is not None else None,
        "answer": _per_trial(rec.get("resps"), trial, n_values) if generated else None,
        "extracted_answer": _per_trial(rec.get("filtered_resps"), trial, n_values) if generated else None,
    }
    return {k: clip(v, source) for k, v in out.items() if v is not None}


def _n_responses(rec: dict) -> int:
    resps = rec.get("resps")
    if isinstance(resps, list) and len(resps) == 1 and isinstance(resps[0], list):
        return len(resps[0])
    return 1


def read_lm_eval_samples(src: Source, mapping, results: dict | None) -> Part:
    """Read one ``samples_*.jsonl`` file (see module docstring).

    Parameters
    ----------
    src : Source
    mapping : dict, optional
        Only ``{'is_correct': '<metric>'}`` applies.
    results : dict, optional
        The matching results JSON (for the model name and ``repeats``).

    Raises
    ------
    InputError
        Invalid JSON (with its line), missing ``doc_id`` or metric, invalid outcome values.
    """
    parsed = samples_timestamp(src.inner_name)
    task = parsed[0] if parsed else src.stem.removeprefix("samples_")
    defaults = []
    model = _model_from_results(results) if results else None
    if model is None:
        model = src.parent_name or src.stem
        where = "folder name" if src.parent_name else "file stem"
        defaults.append(f"{src.name}: no matching results_<time>.json; model set to the {where} '{model}' (pass the results file to use its model_name).")
    records = []
    for lineno, line in enumerate(utf8_text(src).split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError as exc:
            raise InputError(f"the record is not valid JSON ({exc.msg} at column {exc.colno}); the file may be truncated.", source=src.name, line=lineno) from None
        if not isinstance(rec, dict):
            raise InputError(f"each line must be a JSON object; got {type(rec).__name__}.", source=src.name, line=lineno)
        records.append((lineno, rec))
    return _records_to_part(src, records, model, task, mapping, defaults, _repeats(results, task), "line")


def read_lm_eval_results(src: Source, mapping, doc: dict | None = None) -> list[Part]:
    """Read the per-sample records embedded in a ``results_*.json`` (key ``samples``).

    Raises
    ------
    InputError
        If the file has no embedded samples: pass the ``samples_<task>_<time>.jsonl`` files.
    """
    doc = doc if doc is not None else load_results_json(src)
    samples = doc.get("samples")
    if not isinstance(samples, dict) or not samples:
        raise InputError(
            "this results file holds only aggregate scores, no per-sample records; load the "
            "samples_<task>_<time>.jsonl files written with --log_samples (with this results file for the model name).",
            source=src.name,
        )
    model = _model_from_results(doc)
    defaults = [] if model else [f"{src.name}: no model_name; model set to the file stem '{src.stem}'."]
    parts = []
    for task, recs in samples.items():
        if not isinstance(recs, list):
            raise InputError(f"samples['{task}'] must be a list of records.", source=src.name, field="samples")
        parts.append(_records_to_part(src, [(i + 1, r) for i, r in enumerate(recs) if isinstance(r, dict)], model or src.stem, str(task), mapping, defaults, _repeats(doc, task), "row"))
        parts[-1].format = "lm-eval-results"
    return parts


def sibling_results(src: Source) -> Path | None:
    """The ``results_<time>.json`` next to a samples file on disk, if there is one."""
    if src.path is None:
        return None
    parsed = samples_timestamp(src.inner_name)
    if parsed:
        candidate = src.path.parent / f"results_{parsed[1]}.json"
        if candidate.is_file():
            return candidate
    found = sorted(src.path.parent.glob("results_*.json"))
    return found[0] if len(found) == 1 else None


def results_key(src: Source) -> str:
    """The key of a results file among those loaded: its path (one name, ``results_<time>.json``, can sit in several
    model folders), or its name for an upload."""
    return str(src.path) if src.path is not None else src.name


def match_results(src: Source, results: dict, used: set[str]) -> dict | None:
    """The results document of a samples file: the loaded one of the same timestamp (in the samples' own folder when
    several share it), else the only one loaded when the samples' name has no timestamp, else the results file beside
    it on disk; None when there is none. ``results``: ``{results_key: (timestamp, document)}``; the key used is added
    to ``used``."""
    parsed = samples_timestamp(src.inner_name)
    same = [k for k, (ts, _) in results.items() if parsed and ts == parsed[1]]
    if len(same) > 1 and src.path is not None:  # the same file name in several model folders
        same = [k for k in same if Path(k).parent == src.path.parent] or same
    if not same and len(results) == 1 and not parsed:
        same = list(results)
    if same:
        used.add(same[0])
        return results[same[0]][1]
    path = sibling_results(src)
    return load_results_json(Source(name=path.name, path=path)) if path is not None else None


def sibling_samples(src: Source) -> list[Path]:
    """The ``samples_*_<time>.jsonl`` files next to a results file on disk."""
    ts = results_timestamp(src.inner_name)
    if src.path is None or ts is None:
        return []
    return sorted(p for p in src.path.parent.glob(f"samples_*_{ts}.jsonl*") if samples_timestamp(p.name.removesuffix(".gz")))


def results_crosscheck(name: str, doc: dict, questions: dict[str, int]) -> list[str]:
    """Notes comparing an lm-eval results file with the samples loaded beside it.

    The results file reports every task of the run with its sample count (``n-samples``) and scores; only tasks whose
    ``samples_<task>_<time>.jsonl`` was loaded are ranked. A task it reports without samples, or with fewer questions
    loaded than it counts, is named, so nothing the run evaluated leaves the leaderboard unsaid (helper QA: a results
    file for two tasks, samples for one of them with 10 of 5,000 questions, and the Data page said neither).

    Parameters
    ----------
    name : str
        The results file's name (for the notes).
    doc : dict
        Its parsed JSON.
    questions : dict of str to int
        Distinct questions loaded per task.

    Returns
    -------
    list of str

    Examples
    --------
    >>> doc = {"n-samples": {"a": {"original": 50, "effective": 50}, "b": {"original": 9, "effective": 9}}}
    >>> for note in results_crosscheck("results.json", doc, {"a": 10}): print(note)
    results.json: a: 10 questions loaded of the 50 the results file counts (n-samples, effective); the ranking covers these 10.
    results.json reports 1 task with no samples loaded, not ranked here: b (9 samples). Load its samples_<task>_<time>.jsonl file to rank it.
    """
    counts = doc.get("n-samples") if isinstance(doc.get("n-samples"), dict) else {}
    reported = [str(t) for t in (counts or doc.get("results") or {})]
    notes = []
    for task in reported:
        info = counts.get(task) if isinstance(counts.get(task), dict) else {}
        expected = info.get("effective", info.get("original"))
        have = questions.get(task)
        if have is not None and isinstance(expected, int) and 0 < have < expected:
            notes.append(f"{name}: {task}: {have:,} questions loaded of the {expected:,} the results file counts "
                         f"(n-samples, effective); the ranking covers these {have:,}.")
    missing = [t for t in reported if t not in questions]
    if missing:
        def sized(task):
            info = counts.get(task) if isinstance(counts.get(task), dict) else {}
            n = info.get("effective", info.get("original"))
            return f"{task} ({n:,} samples)" if isinstance(n, int) else task

        shown = ", ".join(sized(t) for t in missing[:8]) + (f" and {len(missing) - 8:,} more" if len(missing) > 8 else "")
        notes.append(f"{name} reports {len(missing):,} task{'s' if len(missing) != 1 else ''} with no samples loaded, "
                     f"not ranked here: {shown}. Load {'its' if len(missing) == 1 else 'their'} "
                     f"samples_<task>_<time>.jsonl file{'s' if len(missing) != 1 else ''} to rank "
                     f"{'it' if len(missing) == 1 else 'them'}.")
    return notes

