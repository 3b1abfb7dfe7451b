"""MMLU-Pro evaluation outputs: a JSON array of questions, each with the reference ``answer`` and the model's ``pred``.

Source: TIGER-AI-Lab/MMLU-Pro: ``evaluate_from_api.py`` (``<output_dir>/<subject>_result.json`` with a
``<subject>_summary.json`` beside it), ``evaluate_from_local.py`` (``<save_dir>/<model>/CoT/<subjects>/<subject>.json``)
and the published outputs (``eval_results/model_outputs_<model>_<k>shots.json``, every subject in one file). A
record is the question (``question_id``, ``question``, ``options``, ``answer``, ``answer_index``, ``category`` the
subject, ``src``) with the model's output (``model_outputs`` or ``generated_text``) and ``pred``, the letter MMLU-Pro's
regular expressions extracted from it (null where none matched).

- the outcome is MMLU-Pro's own rule, ``pred == answer``; a null ``pred`` (no answer extracted) counts 0, said:
  MMLU-Pro's scripts instead credit a random letter for it (``random.randint``, seed 12345), so their accuracy exceeds
  this one by about one in the number of options (up to ten) of those questions; ``--errors-as-missing`` reads them as missing;
- the task is ``MMLU-Pro``, each question's subject kept as the text field ``category_label`` (a topic);
- the model is the published file's name (``model_outputs_Llama-2-7b-hf_5shots.json``: ``Llama-2-7b-hf``), else the
  folder above ``CoT/`` (evaluate_from_local), else the file's folder (evaluate_from_api's ``--output_dir``);
  ``--map model=@folder[:N]`` names it otherwise;
- one attempt per question (N = 1: MMLU-Pro samples once).

The ``_summary.json`` files beside results are left out, said; loaded alone, refused (:func:`skip_mmlu_pro_files`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part
from scorio_core.io._sources import Source
from scorio_core.io.formats.harness_files import json_array, leave_out, tool_part
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "is_mmlu_pro", "read_mmlu_pro", "skip_mmlu_pro_files"]

FORMAT = "mmlu-pro"
_PUBLISHED = re.compile(r"^model_outputs_(?P<model>.+?)_\d+shots\.json(?:\.gz)?$")
_KEYS = (b'"answer_index"', b'"options"', b'"pred"', b'"question_id"', b'"src"')


def is_mmlu_pro(head: bytes) -> bool:
    """Whether a JSON array's head reads as MMLU-Pro results (its question fields and ``pred``).

    >>> is_mmlu_pro(b'[{"question_id": 70, "question": "q", "options": ["a"], "answer": "A", "answer_index": 0, '
    ...             b'"cot_content": "", "category": "business", "src": "ori_mmlu", "pred": "A"}]')
    True
    >>> is_mmlu_pro(b'[{"question_id": 70, "pred": "A", "answer": "A"}]')
    False
    """
    return head.lstrip()[:1] == b"[" and all(k in head for k in _KEYS)


def _summary(src: Source) -> bool:
    return (src.path is not None and not src.is_dir and src.name.endswith("_summary.json")
            and b'"corr"' in src.text_head(4096) and b'"wrong"' in src.text_head(4096))


def skip_mmlu_pro_files(srcs: list[Source]) -> list[Source]:
    """Leave out MMLU-Pro's ``<subject>_summary.json`` files (its correct and wrong counts) beside the results,
    saying how many.

    Raises
    ------
    InputError
        Summaries loaded without any other file (what to load said).
    """
    side = [s for s in srcs if _summary(s)]
    return leave_out(srcs, side, f"MMLU-Pro: {len(side):,} *_summary.json file{'s' * (len(side) > 1)} not read (each "
                     "subject's correct and wrong counts; the outcomes are the results' pred and answer).",
                     "an MMLU-Pro summary (a subject's correct and wrong counts, no per-question outcome); load the "
                     "<subject>_result.json beside it, or its folder.")


def _model(src: Source) -> str:
    if found := _PUBLISHED.match(src.name):
        return found["model"]
    if src.path is None:
        return src.stem
    parents = src.path.parents
    above = next((p.parent.name for p in parents if p.name == "CoT" and p.parent.name), None)
    return above or src.path.parent.name


def read_mmlu_pro(src: Source, mapping: Mapping[str, str] | None = None, errors_missing: bool = False) -> Part:
    """Read MMLU-Pro results (see the module docstring): one attempt per question.

    Parameters
    ----------
    src : Source
        A results file (a JSON array of questions with ``pred``).
    mapping : dict, optional
        ``model`` / ``task`` ``=@folder[:N]``; other fields are fixed.
    errors_missing : bool
        Read a null ``pred`` (no answer extracted) as a missing outcome instead of 0.

    Returns
    -------
    Part
        Columns model, task (``MMLU-Pro``), question_id, trial (0), is_correct (``pred == answer``), category_label
        (the subject).

    Raises
    ------
    InputError
        Not a non-empty array of objects, a record without ``question_id``, ``answer`` or ``pred`` (naming it),
        another ``--map``.
    """
    levels = fixed_fields(dict(mapping or {}), src.name, "MMLU-Pro results have fixed fields (question_id the "
                          "question, pred == answer the outcome)", ("model", "task"))
    doc = json_array(src, "MMLU-Pro results: a JSON array of questions, each with its answer and pred")
    for field in ("question_id", "answer", "pred"):  # the fields read (the question and output texts are not)
        row = next((i for i, r in enumerate(doc) if field not in r or (field != "pred" and r[field] is None)), None)
        if row is not None:
            raise InputError(f"no {field!r} in this record.", source=src.name, row=row + 1, field=field)
    frame = pd.DataFrame({f: [r.get(f) for r in doc] for f in ("question_id", "answer", "pred", "category")})
    pred = frame["pred"]
    none = pred.isna().to_numpy()
    value = (pred.astype("string").str.strip() == frame["answer"].astype("string").str.strip()).fillna(False)
    outcome = np.where(none, np.nan if errors_missing else 0.0, value.to_numpy(dtype=float))
    named = folder_names(src.path, levels, src.name) if levels and src.path is not None else {}
    model, task = named.get("model") or _model(src), named.get("task") or "MMLU-Pro"
    out = pd.DataFrame({"model": model, "task": task, "question_id": frame["question_id"], "trial": 0,
                        "is_correct": outcome})
    if frame["category"].notna().any():
        out["category_label"] = frame["category"].astype("string")
    part = tool_part(out, src.name, FORMAT, task, lambda i: {"row": i + 1}, named,
                     {"model": f"<file or folder: {model}>", "task": "<MMLU-Pro>", "trial": "<one attempt per question>",
                      "is_correct": "pred == answer"})
    part.defaults.append(f"{src.name}: MMLU-Pro results of '{model}': {len(out):,} questions"
                         + (f" in {frame['category'].nunique():,} subjects (kept as category_label)"
                            if "category_label" in out.columns else "") + "; outcome pred == answer, N = 1.")
    if n := int(none.sum()):
        part.notes.append(f"{src.name}: {n:,} question{'s' * (n > 1)} without an extracted "
                          "answer (pred null) " + ("read as missing (--errors-as-missing)." if errors_missing else
                                                   "counted 0; MMLU-Pro's own scripts credit a random letter for "
                                                   "them instead (right one time in the number of options, up to "
                                                   "ten), so their accuracy is higher by about that share of these "
                                                   "(--errors-as-missing: missing)."))
    return part
