"""promptfoo eval output (``promptfoo eval -o results.json``, ``promptfoo export``).

Source: promptfoo/promptfoo ``src/types/index.ts`` (``EvaluateResult``, ``ResultFailureReason``) and
``src/evaluator.ts`` (the loop over test cases x repeats x variable combinations x providers x prompts). A file is one
eval: ``{"evalId": ..., "results": {"version": ..., "prompts": [...], "results": [EvaluateResult, ...], "stats": ...},
"config": {...}}`` (the summary ``promptfoo.evaluate()`` returns, ``{"results": [...], ...}``, is read too). Each
result is one attempt:

- the model is the provider (``provider.label``, else ``provider.id``), and with several prompts the prompt too
  (``provider | prompt label``): promptfoo's grid columns are (provider, prompt) pairs;
- the question is the test case: its description and variables (``testIdx`` counts repeats and variable combinations
  apart, so the question id is the description when it names test cases one to one, else ``test <testIdx of its first
  run>``), and its runs under ``--repeat`` are its trials, numbered in ``testIdx`` order;
- the outcome is ``success``; an errored result (``failureReason`` 2: the provider call failed or timed out) counts 0
  as promptfoo counts it, said in the notes; ``--errors-as-missing`` reads it as missing instead. ``score`` (the
  assertions' weighted score), ``cost``, token counts and latency are kept as signals;
- the task is the config's ``description``, else the file stem.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source, load_json
from scorio_core.io.formats.path_names import fixed_fields

__all__ = ["FORMAT", "is_promptfoo", "read_promptfoo"]

FORMAT = "promptfoo"
_ERROR = 2  # ResultFailureReason.ERROR


def is_promptfoo(keys) -> bool:
    """Whether a JSON object whose head has these keys is promptfoo output (results with test and prompt indices).

    >>> is_promptfoo({"evalId", "results", "testIdx", "promptIdx", "success"}), is_promptfoo({"results", "idx"})
    (True, False)
    """
    return {"results", "testIdx", "promptIdx"} <= set(keys)


def _results(doc) -> list:
    inner = doc.get("results") if isinstance(doc, dict) else None
    if isinstance(inner, dict):
        inner = inner.get("results")
    if not isinstance(inner, list) or not all(isinstance(r, dict) for r in inner):
        raise InputError("expected promptfoo output: an object whose 'results' holds the list of results "
                         "(promptfoo eval -o results.json).", source=None)
    return inner


def _provider(row: dict) -> str:
    p = row.get("provider")
    if isinstance(p, dict):
        return str(p.get("label") or p.get("id") or "")
    return str(p or "")


def _prompt(row: dict) -> str:
    p = row.get("prompt")
    label = p.get("label") if isinstance(p, dict) else None
    return str(label) if label else f"prompt {row.get('promptIdx')}"


def _question(row: dict) -> str:
    case = row.get("testCase") if isinstance(row.get("testCase"), dict) else {}
    desc = row.get("description") or case.get("description")
    return json.dumps([desc, row.get("vars", case.get("vars"))], sort_keys=True, default=str)


def read_promptfoo(src: Source, mapping: Mapping[str, str] | None = None, errors_missing: bool = False) -> Part:
    """Read a promptfoo output file (see the module docstring): one attempt per result.

    Parameters
    ----------
    src : Source
        The output file (JSON).
    mapping : dict, optional
        Not applicable: any field given is refused (the file's fields are fixed).
    errors_missing : bool
        Read errored results (``failureReason`` 2) as missing outcomes instead of failures (``--errors-as-missing``).

    Returns
    -------
    Part
        Columns model, task, question_id, trial, is_correct, and the signals score, cost, prompt_tokens,
        completion_tokens, latency (seconds), where the results give them.

    Raises
    ------
    InputError
        Not promptfoo output, a result without a boolean ``success``, a provider or test index missing (naming the
        result's position), ``--map`` of any field.
    """
    fixed_fields(mapping, src.name, "promptfoo output has fixed fields (provider, test case, success)")
    doc = load_json(src)
    try:
        rows = _results(doc)
    except InputError as exc:
        raise exc.with_source(src.name) from None
    if not rows:
        raise InputError("the promptfoo output holds no results.", source=src.name)
    for i, r in enumerate(rows):
        if not isinstance(r.get("success"), bool) or not _provider(r) or not isinstance(r.get("testIdx"), int):
            raise InputError(f"result {i + 1} (testIdx {r.get('testIdx')!r}) needs a provider, an integer testIdx and "
                             "success true or false, as promptfoo writes them; re-export the eval (promptfoo export).",
                             source=src.name, field="success")
    frame = pd.DataFrame({"provider": [_provider(r) for r in rows], "prompt": [_prompt(r) for r in rows],
                          "key": [_question(r) for r in rows], "testIdx": [r["testIdx"] for r in rows]})
    several = frame.groupby("provider")["prompt"].nunique().max() > 1
    frame["model"] = (frame["provider"] + " | " + frame["prompt"]) if several else frame["provider"]
    frame["question_id"] = _labels(frame, rows)
    frame = frame.sort_values("testIdx", kind="stable")
    frame["trial"] = frame.groupby(["model", "question_id"], sort=False).cumcount().astype(np.int64)
    frame = frame.sort_index()
    config = doc.get("config") if isinstance(doc, dict) else None
    task = config.get("description") if isinstance(config, dict) and isinstance(config.get("description"), str) else None
    failed = np.array([r.get("failureReason") == _ERROR for r in rows])
    outcome = np.array([float(r["success"]) for r in rows])
    if errors_missing:
        outcome[failed] = np.nan
    out = pd.DataFrame({"model": frame["model"], "task": task or src.stem, "question_id": frame["question_id"],
                        "trial": frame["trial"], "is_correct": outcome})
    for column, value in (("score", lambda r: r.get("score")), ("cost", lambda r: r.get("cost")),
                          ("prompt_tokens", lambda r: (r.get("tokenUsage") or {}).get("prompt")),
                          ("completion_tokens", lambda r: (r.get("tokenUsage") or {}).get("completion")),
                          ("latency", lambda r: r["latencyMs"] / 1000 if isinstance(r.get("latencyMs"), (int, float)) else None)):
        values = pd.to_numeric(pd.Series([value(r) for r in rows], dtype="object"), errors="coerce")
        if values.notna().any():
            out[column] = values.to_numpy(float)
    guess = infer_mapping(out.columns, {c: c for c in out.columns}, source=src.name)
    part = canonicalize(out, guess, source=src.name, fmt=FORMAT, stem=src.stem,
                        locate=lambda i: {"context": f"result {i + 1} (testIdx {rows[i].get('testIdx')}): "})
    part.mapping.update({
        "model": "provider" + (" | prompt" if several else "") + " (label, else id)",
        "task": "config.description" if task else "<file stem>",
        "question_id": "<test case: description and vars>", "trial": "<repeat: testIdx order within a test case>",
        "is_correct": "success" + (" (errors missing)" if errors_missing else "")})
    part.notes.extend(_notes(src.name, rows, failed, errors_missing, several, int(frame["trial"].max()) + 1))
    return part


def _labels(frame: pd.DataFrame, rows: list) -> pd.Series:
    """The question id of each result: its description where descriptions name the test cases one to one, else
    ``test <testIdx of the test case's first run>``."""
    first = frame.groupby("key")["testIdx"].transform("min")
    desc = pd.Series([(r.get("description") or (r.get("testCase") or {}).get("description") or None) for r in rows],
                     index=frame.index, dtype="object")
    pairs = pd.DataFrame({"key": frame["key"], "desc": desc}).drop_duplicates()
    if desc.notna().all() and pairs["desc"].is_unique and pairs["key"].is_unique:
        return desc.astype(str)
    return "test " + first.astype(str)


def _notes(name: str, rows: list, failed: np.ndarray, errors_missing: bool, several: bool, repeats: int) -> list[str]:
    out = []
    if n := int(failed.sum()):
        example = next((str(r.get("error"))[:120] for r, f in zip(rows, failed) if f and r.get("error")), "no message")
        out.append(f"{name}: {n} result{'s' * (n > 1)} errored (failureReason 2: the provider call failed or timed out, "
                   f"e.g. '{example}') " + ("read as missing outcomes (--errors-as-missing); the missing-outcomes choice "
                                           "decides what they count as." if errors_missing else
                                           "counted as failures, as promptfoo counts them; --errors-as-missing reads "
                                           "them as missing instead."))
    if several:
        out.append(f"{name}: several prompts per provider: each (provider, prompt) pair is a model here, as promptfoo's "
                   "grid columns are.")
    if repeats > 1:
        out.append(f"{name}: test cases run up to {repeats} times (--repeat): each run a trial, in testIdx order.")
    return out
