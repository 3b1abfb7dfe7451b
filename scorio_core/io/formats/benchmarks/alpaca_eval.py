"""AlpacaEval annotations: ``results/<model>/<annotator>/annotations.json``, each instruction's output judged against
a baseline model's output.

Source: tatsu-lab/alpaca_eval (``alpaca_eval evaluate`` writes ``<output_path>/<annotator>/annotations.json``: a JSON
array, one record per instruction, ``{"instruction", "dataset", "output_1", "generator_1" (the baseline), "output_2",
"generator_2" (the model), "annotator", "preference", ...}``; ``preference`` 1 the baseline's output preferred, 2 the
model's, 1.5 (or 0) a draw, a number in between from weighted annotators (the probability of preferring the model,
plus 1), NaN when the annotator gave none) and ``metrics/helpers.py`` (``win_rate``, the mean of ``preference - 1``;
``discrete_win_rate``, the wins plus half the draws after rounding each preference to 1 or 2).

- the model is ``generator_2``; the task the annotator (``weighted_alpaca_eval_gpt4_turbo``), so two annotators'
  judgments are two tasks; the question the instruction (its id ``<dataset>/<first 10 hex digits of the
  instruction's SHA-1>``, stable across files and runs; the instruction kept as the text field ``input``); one attempt
  per instruction (N = 1: AlpacaEval judges each output once);
- the outcome is the rounded preference as a category code: 0 the baseline's output preferred, 1 draw, 2 the model's
  preferred. The default rubric (code / 2: 0, 0.5, 1) is AlpacaEval's ``discrete_win_rate``; its ``win_rate`` (the
  weighted annotator's mean probability, not a count) and the length-controlled win rate (a regression on output
  lengths) are not category outcomes: the former is printed beside it in the loading report (``quality``, the Data
  page);
- a preference that is missing or outside [1, 2] has no attempt, said with its count (AlpacaEval drops it too).

A load's annotation files on disk are read as one source (:func:`gather_alpaca_eval`: a results folder of 100 models'
files is one table to validate, not 100), each still checked on its own and named by its path below the folders they
share (``<model>/<annotator>/annotations.json``: every file has the same name).
``model_outputs.json`` and ``leaderboard.csv`` beside annotations (a results folder loaded whole) are left out, said;
``model_outputs.json`` alone is refused with what judges it (:func:`skip_alpaca_eval_files`).
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part
from scorio_core.io._sources import Source
from scorio_core.io.formats.harness_files import SCALE_LABEL, gather_files, json_array, leave_out, tool_part
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "gather_alpaca_eval", "is_alpaca_eval", "is_alpaca_outputs", "is_alpaca_run", "preference_codes",
           "read_alpaca_eval", "skip_alpaca_eval_files"]

FORMAT = "alpaca-eval"
_KEYS = (b'"instruction"', b'"generator_1"', b'"generator_2"', b'"preference"')


def is_alpaca_eval(head: bytes) -> bool:
    """Whether a JSON array's head reads as AlpacaEval annotations (pairs of generators and a preference).

    >>> is_alpaca_eval(b'[{"instruction": "Hi", "output_1": "a", "generator_1": "gpt4_1106_preview", '
    ...                b'"output_2": "b", "generator_2": "m", "annotator": "weighted_alpaca_eval_gpt4_turbo", '
    ...                b'"preference": 1.93}]')
    True
    >>> is_alpaca_eval(b'[{"instruction": "Hi", "output": "b", "generator": "m"}]')
    False
    """
    return head.lstrip()[:1] == b"[" and all(k in head for k in _KEYS)


def is_alpaca_outputs(head: bytes) -> bool:
    """Whether a JSON array's head reads as AlpacaEval model outputs (instructions and one generator's outputs)."""
    return (head.lstrip()[:1] == b"[" and all(k in head for k in (b'"instruction"', b'"output"', b'"generator"'))
            and b'"preference"' not in head)


def preference_codes(preference) -> np.ndarray:
    """AlpacaEval preferences as category codes, rounded as its ``discrete_win_rate`` rounds them.

    Parameters
    ----------
    preference : array-like of float, shape (n,)
        1 the baseline preferred, 2 the model, 1.5 or 0 a draw, in between a weighted annotator's probability + 1.

    Returns
    -------
    numpy.ndarray of float, shape (n,)
        0 the baseline's output preferred, 1 draw, 2 the model's preferred; NaN for a missing preference or one
        outside [1, 2] (not a preference: AlpacaEval drops it).

    >>> preference_codes([1.0, 2.0, 1.5, 0.0, 1.49, 1.51, 2.5, float("nan")]).tolist()
    [0.0, 2.0, 1.0, 1.0, 0.0, 2.0, nan, nan]
    """
    p = np.asarray(pd.to_numeric(pd.Series(preference, dtype=object), errors="coerce"), dtype=float)
    draw = (p == 1.5) | (p == 0)
    valid = draw | ((p >= 1) & (p <= 2))
    return np.where(draw, 1.0, np.where(valid, np.where(p > 1.5, 2.0, 0.0), np.nan))


@functools.lru_cache(maxsize=1 << 16)  # the same instructions in every model's file: hashed once
def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


def _side(src: Source) -> bool:
    if src.is_dir:
        return False
    if src.name == "leaderboard.csv":
        return b"win_rate" in src.text_head(4096)
    return src.name.endswith((".json", ".json.gz")) and is_alpaca_outputs(src.text_head(65536))


def skip_alpaca_eval_files(srcs: list[Source]) -> list[Source]:
    """Leave out AlpacaEval's ``model_outputs.json`` and ``leaderboard.csv`` beside its annotations, saying how many.

    Raises
    ------
    InputError
        Model outputs loaded without any annotations (what judges them said).
    """
    side = [s for s in srcs if s.path is not None and _side(s)]
    if not side:
        return srcs
    annotations = any(s.name.endswith((".json", ".json.gz")) and is_alpaca_eval(s.text_head(65536))
                      for s in srcs if not s.is_dir and all(s is not x for x in side))
    outputs = [s for s in side if s.name != "leaderboard.csv"]
    if not annotations and (len(outputs) < len(side) or len(side) < len(srcs)):
        return srcs  # a leaderboard.csv among other tables: not AlpacaEval's folder
    return leave_out(srcs, side, f"AlpacaEval: {len(side):,} file{'s' * (len(side) > 1)} beside the annotations not "
                     "read (model_outputs.json: the outputs, not judged; leaderboard.csv: the win rates).",
                     "AlpacaEval model outputs (each instruction's output, not judged yet): `alpaca_eval evaluate "
                     "--model_outputs FILE` judges them and writes <annotator>/annotations.json; load that file.")


def _annotations(src: Source) -> bool:
    return (not src.is_dir and src.path is not None and src.inner_name.lower().endswith(".json")
            and is_alpaca_eval(src.text_head(65536)))


def gather_alpaca_eval(srcs: list[Source], fmt: str | None = None) -> list[Source]:
    """Gather a load's AlpacaEval annotation files on disk into one folder source (the folder they all sit under),
    members named by their path below it; their notes (what was left out beside them) move to it. ``fmt``: the user's
    ``--format``, if any. Fewer than two such files: the sources unchanged."""
    if fmt not in (None, FORMAT):
        return srcs
    files = {id(s): s for s in srcs if _annotations(s)}
    if len(files) < 2:
        return srcs
    top = Path(os.path.commonpath([s.path.parent for s in files.values()]))
    out, folders = gather_files(srcs, lambda src: top if id(src) in files else None,
                                lambda folder: folder.name or "annotations")
    folders[top].notes.extend(note for s in files.values() for note in s.notes)
    return out


def is_alpaca_run(src: Source) -> bool:
    """Whether a folder source is annotation files gathered by :func:`gather_alpaca_eval`."""
    return (src.is_dir and bool(src.members) and all(k.lower().removesuffix(".gz").endswith(".json") for k in src.members)
            and is_alpaca_eval(next(iter(src.members.values())).text_head(65536)))


def read_alpaca_eval(src: Source, mapping: Mapping[str, str] | None = None) -> Part:
    """Read AlpacaEval annotations (see the module docstring): one attempt per instruction with a preference.

    Parameters
    ----------
    src : Source
        ``annotations.json`` (a JSON array of judged pairs), or annotation files gathered by
        :func:`gather_alpaca_eval`.
    mapping : dict, optional
        ``--map task=@folder[:N]`` only.

    Returns
    -------
    Part
        Columns model (``generator_2``), task (the annotator), question_id, trial (0), category (the preference's code),
        input (the instruction).

    Raises
    ------
    InputError
        Not a non-empty array of objects, a record without instruction, generator_2 or preference (naming it), one
        model judged against two baselines in a file, a file with no record with a preference, another ``--map``;
        each naming the file.
    """
    levels = fixed_fields(mapping, src.name, "AlpacaEval annotations have fixed fields (generator_2, instruction, "
                          "preference)", ("task",))
    files = list(src.members.values()) if src.is_dir else [src]
    read = [_read_file(f, levels) for f in files]
    fields = {k: [v for r in read for v in r[k]] for k in ("model", "task", "instruction", "dataset", "preference")}
    ends = np.cumsum([len(r["model"]) for r in read])
    code = np.concatenate([r["code"] for r in read])
    kept = ~np.isnan(code)
    text = [str(t) for t in fields["instruction"]]
    ids = [f"{'alpaca_eval' if d is None else d}/{_digest(t)}" for d, t in zip(fields["dataset"], text)]
    models = fields["model"]
    out = pd.DataFrame({"model": models, "task": fields["task"], "question_id": ids, "trial": 0, "category": code,
                        "input": text, SCALE_LABEL: FORMAT})
    out = out if kept.all() else out[kept]

    def locate(i: int) -> dict:
        f = int(np.searchsorted(ends, i, side="right"))
        return {"context": f"{files[f].name}, record {i - (ends[f - 1] if f else 0) + 1}: "}

    part = tool_part(out, src.name, FORMAT, "alpaca_eval", locate if src.is_dir else (lambda i: {"row": i + 1}),
                     read[0]["named"], {"task": "annotator", "question_id": "<dataset / SHA-1 of instruction>",
                                        "trial": "<one judgment per instruction>", "category": "preference (rounded: 0 "
                                        "baseline preferred, 1 draw, 2 model preferred)"})
    pairs = sorted({(m, b) for r in read for m, b in r["baselines"].items()})
    bases = sorted({b for _, b in pairs})
    shown = ", ".join(m for m, _ in pairs[:5]) + (f" and {len(pairs) - 5:,} more" if len(pairs) > 5 else "")
    part.defaults.append(f"{src.name}: AlpacaEval annotations of {shown}" + (f" ({len(files):,} files)" if src.is_dir
                         else "") + f" against the baseline{'s' * (len(bases) > 1)} {', '.join(bases)}: one judgment "
                         "per instruction (N = 1), the rounded preference a category code (0 baseline preferred, 1 "
                         "draw, 2 model preferred; the default rubric code / 2 is AlpacaEval's discrete_win_rate).")
    p = np.asarray(pd.to_numeric(pd.Series(fields["preference"], dtype=object), errors="coerce"), dtype=float)
    p = np.where(p == 0, 0.5, p - 1)  # AlpacaEval's win_rate: a draw coded 0 counts as 1.5
    one_task = len(set(fields["task"])) == 1
    who = models if one_task else [f"{m} ({t})" for m, t in zip(models, fields["task"])]
    rates = pd.DataFrame({"m": who, "p": p, "d": code / 2})[kept].groupby("m", sort=True).mean()
    part.defaults.append(f"{src.name}: AlpacaEval's own numbers: " + "; ".join(
        f"{m}: win_rate {100 * r.p:.2f}%, discrete_win_rate {100 * r.d:.2f}%" for m, r in rates.head(5).iterrows())
        + (f"; ... ({len(rates) - 5:,} more)" if len(rates) > 5 else "") + " (the length-controlled win rate, a "
        "regression on output lengths, is not a per-instruction outcome).")
    held: dict[tuple, list[str]] = {}
    for f, r in zip(files, read):  # a file repeating another's judgments: the duplicates it makes named by file
        for pair in dict.fromkeys(zip(r["model"], r["task"])):
            held.setdefault(pair, []).append(f.name)
    if twice := {k: v for k, v in held.items() if len(v) > 1}:
        part.notes.append(f"{src.name}: {len(twice):,} (model, annotator) pair{'s are' if len(twice) > 1 else ' is'} "
                          "judged in more than one file (their rows repeat a key: see the duplicates choice): "
                          + "; ".join(f"{m} / {t} in {' and '.join(v)}" for (m, t), v in list(twice.items())[:3])
                          + (" ..." if len(twice) > 3 else "") + ".")
    if n := int((~kept).sum()):
        where = sorted({files[int(np.searchsorted(ends, i, side="right"))].name for i in np.flatnonzero(~kept)})
        part.notes.append(f"{src.name}: {n:,} instruction{'s' * (n > 1)} without a preference (missing or outside 1-2) "
                          f"{'have' if n > 1 else 'has'} no attempt, as AlpacaEval leaves them out"
                          + (f" ({', '.join(where[:3])}{' ...' if len(where) > 3 else ''})." if src.is_dir else "."))
    return part


def _read_file(src: Source, levels: dict) -> dict:
    """One annotation file's fields (lists, one element per record), its model -> baseline and the ``--map`` folder
    names, checked as the module docstring says (errors name the file)."""
    doc = json_array(src, "AlpacaEval annotations: a JSON array of judged pairs (instruction, generator_1, "
                     "generator_2, preference)")
    for field in ("instruction", "generator_2", "preference"):
        row = next((i for i, r in enumerate(doc) if field not in r or (field != "preference" and r[field] is None)), None)
        if row is not None:
            raise InputError(f"no {field!r} in this record.", source=src.name, row=row + 1, field=field)
    fields = {f: [r.get(f) for r in doc] for f in ("instruction", "dataset", "generator_1", "annotator", "preference")}
    models = [str(m) for m in (r["generator_2"] for r in doc)]
    baselines = {}
    for model, base in sorted({(m, str(b)) for m, b in zip(models, fields["generator_1"])}):
        if baselines.setdefault(model, base) != base:
            raise InputError(f"'{model}' is judged against two baselines ({baselines[model]!r}, {base!r}): a win rate "
                             "is relative to its baseline, so they cannot be pooled; load each baseline's annotations "
                             "as its own run.", source=src.name, field="generator_1")
    code = preference_codes(fields["preference"])
    if np.isnan(code).all():
        raise InputError("no record has a preference (each is missing or outside 1-2): the annotator gave none.",
                         source=src.name, field="preference")
    named = folder_names(src.path, levels, src.name) if levels and src.path is not None else {}
    task = named.get("task")
    return {**fields, "model": models, "code": code, "baselines": baselines, "named": named,
            "task": [task] * len(doc) if task else ["alpaca_eval" if a is None else str(a) for a in fields["annotator"]]}
