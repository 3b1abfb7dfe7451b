"""The reference scorio package's dumps: per-attempt JSONL and the verifier fixture JSON.

Per-attempt JSONL (scorio 0.2.3, ``scorio/categorical/io.py``), one record per completion::

    {"seed": 1261, "data_id": 6, "model": "...",
     "output": {"finish_reason": "stop", "num_completion_tokens": 22818},
     "tokens": {"completion_ppl": 1.09, "prompt_ppl": 70.38,
                "completion_logprob_list": [...]},
     "processed_results": {"is_correct": 0, "has_box": 1}}

``seed`` is the trial, ``data_id`` the question. Raw fields map to the canonical signal
names; ``completion_logprob_mean`` is the mean of ``tokens.completion_logprob_list`` (nats per
token, nulls skipped), or ``tokens.completion_avg_logprob`` when the list is absent. The
record has no task, so the task is the file stem (recorded in the report).

Verifier fixture JSON (scorio ``tests/aggregate/fixtures/*_compass.json``): ``source``
(``<task>/<model>/<question>.jsonl.gz``), ``answers``, ``scores`` (verifier probability of
correct), ``correct``; list position is the trial.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source, load_json
from scorio_core.io._tables import read_table

__all__ = ["SCORIO_FIELDS", "read_scorio_jsonl", "read_scorio_verifier"]

SCORIO_FIELDS = {
    "model": "model",
    "question_id": "data_id",
    "trial": "seed",
    "is_correct": "processed_results.is_correct",
    "has_box": "processed_results.has_box",
    "finish_reason": "output.finish_reason",
    "completion_tokens": "output.num_completion_tokens",
    "prompt_tokens": "output.num_prompt_tokens",
    "max_tokens": "output.max_tokens",
    "completion_ppl": "tokens.completion_ppl",
    "prompt_ppl": "tokens.prompt_ppl",
}


def read_scorio_jsonl(src: Source, mapping) -> Part:
    """Read a scorio per-attempt JSONL file (see module docstring).

    Raises
    ------
    InputError
        Invalid JSON (with its line), or invalid field values (with line and field).
    """
    defaults = dict(SCORIO_FIELDS)
    raw = read_table(src, "jsonl", mapping, defaults=defaults, list_means={"tokens.completion_logprob_list": "completion_logprob_mean"})
    if "completion_logprob_mean" not in raw.frame.columns and "tokens.completion_avg_logprob" in raw.frame.columns:
        merged = dict(raw.guess.mapping)
        merged.setdefault("completion_logprob_mean", "tokens.completion_avg_logprob")
        raw.guess = infer_mapping(raw.frame.columns, merged, source=src.name)
    part = canonicalize(raw.frame, raw.guess, source=src.name, fmt="scorio-jsonl", locate=raw.locate, stem=src.stem, notes=raw.notes)
    part.mapping.update({k: v for k, v in raw.derived.items() if part.mapping.get(k) == k})
    return part


def read_scorio_verifier(src: Source, mapping) -> Part:
    """Read the scorio verifier fixture JSON (see module docstring).

    Raises
    ------
    InputError
        Truncated JSON, missing lists, or lists of different lengths.
    """
    doc = load_json(src)
    if not isinstance(doc, dict):
        raise InputError("expected a JSON object with answers, scores and correct lists.", source=src.name)
    lists = {}
    for key in ("correct", "scores", "answers"):
        value = doc.get(key)
        if not isinstance(value, list):
            raise InputError(f"field '{key}' must be a list (one entry per trial).", source=src.name, field=key)
        lists[key] = value
    n = len(lists["correct"])
    for key, value in lists.items():
        if len(value) != n:
            raise InputError(f"field '{key}' has {len(value)} entries but 'correct' has {n}; every list needs one entry per trial.", source=src.name, field=key)
    parts = str(doc.get("source", "")).split("/")
    defaults = []
    if len(parts) >= 3:
        task, model, question = parts[-3], parts[-2], parts[-1].split(".")[0]
    else:
        task, model, question = src.stem, src.stem, src.stem
        defaults.append(f"{src.name}: 'source' is not <task>/<model>/<question>; task, model and question set to the file stem.")
    frame = pd.DataFrame(
        {
            "model": [model] * n,
            "task": [task] * n,
            "question_id": [question] * n,
            "trial": np.arange(n),
            "correct": lists["correct"],
            "answer": pd.Series([None if a is None else str(a) for a in lists["answers"]], dtype="str"),
            "verifier_score": lists["scores"],
        }
    )
    guess = infer_mapping(frame.columns, mapping, source=src.name)
    guess.raise_if_unresolved(src.name)
    part = canonicalize(frame, guess, source=src.name, fmt="scorio-verifier", locate=lambda i: {"context": f"trial {i} (list position): "}, stem=src.stem)
    part.mapping.update({"model": "source", "task": "source", "question_id": "source", "trial": "<list position>", "is_correct": "correct", "answer": "answers", "verifier_score": "scores"})
    part.defaults.extend(defaults)
    return part
