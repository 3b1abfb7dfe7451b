"""Qwen2.5-Math evaluation outputs (and ZubinGou/math-evaluation-harness's, which it extends):
``<output_dir>/<data_name>/<split>_<prompt_type>_<num_test_sample>_seed<S>_t<T>_s<start>_e<end>.jsonl``.

Source: QwenLM/Qwen2.5-Math ``evaluation/math_eval.py`` (``prepare_data`` names the file; ``main`` writes one line per
problem with its ``n_sampling`` samples' ``code``, ``pred`` and ``report`` lists, and ``evaluate.py`` the ``score``
list, one true/false per sample, a timed-out check false; the summary goes to ``<stem>_<prompt_type>_metrics.json``
beside it) and ``evaluation/sh/eval.sh`` (``--output_dir ${MODEL_NAME_OR_PATH}/math_eval``: the outputs do not name
the model, their folders do). A line::

    {"idx": 0, "question": "...", "gt_cot": "...", "gt": "204", "code": ["..."], "pred": ["204"], "report": [null],
     "score": [true]}

- the model is the folder above the data folder (above ``math_eval/``, the scripts' output folder inside the model's);
  the task the data folder (``aime24``, ``math500``); ``--map model=@folder[:N]`` / ``task=...`` name them otherwise;
- the question is ``idx``; each element of ``score`` one sample (trial = its position); the files of other seeds of
  the same setting add trials after it (seed order; chunks of one run, ``s<start>_e<end>``, share its trials);
- files of other settings (prompt type, temperature, split, sample count) are other settings of the model: where its
  data folders hold several, each is a model of its own named with what differs (``Qwen2.5-Math-7B (t0.0)``; the
  same names on every data folder, whichever are loaded), said;
- the ``_metrics.json`` summaries are left out (said); loaded alone, refused with what to load.

A data folder's output files are read as one source (:func:`gather_qwen_math`); an upload names no model (the folders
do), so it is refused with the way to load the folder.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part
from scorio_core.io._sources import Source
from scorio_core.io.formats.harness_files import gather_files, json_lines, leave_out, tool_part
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "gather_qwen_math", "is_qwen_math_output", "is_qwen_math_run", "read_qwen_math"]

FORMAT = "qwen-math"
_OUTPUT = re.compile(r"^(?P<split>[^_]+)_(?P<prompt>.+)_(?P<num>-?\d+)_seed(?P<seed>\d+)_t(?P<temp>[\d.]+)"
                     r"_s(?P<start>\d+)_e(?P<end>-?\d+)\.jsonl$")
_METRICS = re.compile(r"^.+_s\d+_e-?\d+_.+_metrics\.json$")
#: The parts of a file name that make a setting, and how a model's name shows each where its settings differ.
_SETTING = (("prompt", "{}"), ("temp", "t{}"), ("split", "{}"), ("num", "first {} problems"))
_TAG = "Qwen2.5-Math outputs"


def _output(src: Source) -> re.Match | None:
    """The name match of a Qwen2.5-Math output file on disk whose head reads as one (``idx`` and ``score``)."""
    if src.path is None or src.is_dir or not (found := _OUTPUT.match(src.name)):
        return None
    head = src.text_head(65536)
    return found if b'"idx"' in head and b'"score"' in head and b'"pred"' in head else None


def is_qwen_math_output(name: str, record: Mapping) -> bool:
    """Whether a JSON Lines file's first record is a Qwen2.5-Math output line (by the file's name and the fields).

    >>> is_qwen_math_output("test_qwen25-math-cot_-1_seed0_t0.0_s0_e-1.jsonl", {"idx": 0, "pred": ["1"], "score": [True]})
    True
    >>> is_qwen_math_output("samples.jsonl", {"idx": 0, "pred": ["1"], "score": [True]})
    False
    """
    return bool(_OUTPUT.match(name)) and {"idx", "pred", "score"} <= set(record)


def is_qwen_math_run(src: Source) -> bool:
    """Whether a folder source is a data folder's output files gathered by :func:`gather_qwen_math`."""
    return src.is_dir and bool(src.members) and all(_OUTPUT.match(k) for k in src.members)


def gather_qwen_math(srcs: list[Source], fmt: str | None = None) -> list[Source]:
    """Gather each data folder's Qwen2.5-Math output files into one folder source and leave out the ``_metrics.json``
    summaries beside them, saying so in a note. ``fmt``: the user's ``--format``, if any.

    Raises
    ------
    InputError
        Summaries loaded without their outputs (what to load said).
    """
    if fmt not in (None, FORMAT):
        return srcs
    out, folders = gather_files(srcs, lambda src: src.path.parent if _output(src) else None)
    summaries = [s for s in out if not s.is_dir and s.path is not None and _METRICS.match(s.name)
                 and b'"acc"' in s.text_head(65536)]
    for folder in folders.values():
        if n := sum(s.path.parent == folder.path for s in summaries):
            folder.notes.append(f"{_TAG}: {n:,} *_metrics.json summar{'ies' if n > 1 else 'y'} beside the output files "
                                f"in {folder.name}/ not read (the accuracy; the outcomes are the .jsonl lines).")
    alone = [s for s in summaries if s.path.parent not in folders]  # a data folder whose outputs were not saved
    beside = {id(x) for x in summaries} - {id(x) for x in alone}
    out = [s for s in out if id(s) not in beside]
    return leave_out(out, alone, f"{_TAG}: {len(alone):,} *_metrics.json summar{'ies' if len(alone) > 1 else 'y'} "
                     "without output files beside not read (the accuracy, no per-problem outcome; math_eval.py "
                     "--save_outputs writes the .jsonl).", "a Qwen2.5-Math evaluation summary (math_eval.py's "
                     "*_metrics.json: the accuracy, no per-problem outcome); load the .jsonl beside it, or its data "
                     "folder (math_eval.py --save_outputs writes it).")


def _shown(i: int, value: str) -> str:
    """How a model's name shows part ``i`` of its setting (``t0.6``, ``all problems`` for num_test_sample -1)."""
    return "all problems" if _SETTING[i][0] == "num" and value == "-1" else _SETTING[i][1].format(value)


def _setting(found: re.Match) -> tuple[str, ...]:
    return tuple(found[k] for k, _ in _SETTING)


def read_qwen_math(src: Source, mapping: Mapping[str, str] | None = None) -> Part:
    """Read a Qwen2.5-Math data folder's outputs (see the module docstring): one attempt per (problem, sample).

    Parameters
    ----------
    src : Source
        A data folder gathered by :func:`gather_qwen_math`, or one output ``.jsonl`` on disk.
    mapping : dict, optional
        ``model`` / ``task`` ``=@folder[:N]``; other fields are fixed.

    Returns
    -------
    Part
        Columns model (with the setting where the folder holds several), task, question_id (``idx``), trial (the
        sample's position after the earlier seeds' samples), is_correct (``score``'s element: 1, 0, or missing for a
        null).

    Raises
    ------
    InputError
        An upload, invalid JSON (naming the line), a line without ``idx`` or a ``score`` list (naming it), an element
        that is not true/false, another ``--map``.
    """
    levels = fixed_fields(dict(mapping or {}), src.name, "Qwen2.5-Math outputs have fixed fields (idx the question, "
                          "each element of score one sample)", ("model", "task"))
    if src.path is None:
        raise InputError("an uploaded Qwen2.5-Math output file names no model or data set (its folders do: "
                         "<model>/math_eval/<data_name>/): load the output folder instead: the app's Upload a folder "
                         "(or Open from the server), or its path on the command line.", source=src.name)
    members = list(src.members.values()) if src.is_dir else [src]
    folder = src.path if src.is_dir else src.path.parent
    found = {m.name: _OUTPUT.match(m.path.name) for m in members}
    settings = sorted({_setting(f) for f in found.values()})
    # the model's settings in all its data folders (the same names on every task, whichever folders are loaded)
    beside = {_setting(f) for p in folder.parent.glob("*/*.jsonl") if (f := _OUTPUT.match(p.name))} | set(settings)
    differs = [i for i in range(len(_SETTING)) if len({s[i] for s in beside}) > 1]
    named = folder_names(members[0].path, levels, src.name) if levels else {}
    above = folder.parent.parent if folder.parent.name == "math_eval" else folder.parent
    base, task = named.get("model") or above.name, named.get("task") or folder.name
    models, qids, trials, values, said = [], [], [], [], []
    for setting in settings:
        runs = sorted((m for m in members if _setting(found[m.name]) == setting),
                      key=lambda m: (int(found[m.name]["seed"]), int(found[m.name]["start"])))
        model = base + (" (" + ", ".join(_shown(i, setting[i]) for i in differs) + ")" if differs else "")
        n = len(qids)
        _samples(runs, found, qids, trials, values)
        models.extend([model] * (len(qids) - n))
        seeds = sorted({int(found[m.name]["seed"]) for m in runs})
        said.append(f"'{model}': {len(runs)} file{'s' * (len(runs) > 1)} (seed{'s' * (len(seeds) > 1)} "
                    f"{', '.join(map(str, seeds))}), {len(set(qids[n:])):,} problems")
    if not qids:
        raise InputError("the Qwen2.5-Math output files hold no sample.", source=src.name)
    frame = pd.DataFrame({"model": models, "task": task, "question_id": qids, "trial": np.asarray(trials, np.int64),
                          "is_correct": np.asarray(values, float)})
    part = tool_part(frame, src.name, FORMAT, task, lambda i: {"context": f"{models[i]}, idx {qids[i]}, sample "
                                                                        f"{trials[i]}: "},
                     named, {"model": f"<folder: {base}>", "task": f"<folder: {task}>", "question_id": "idx",
                             "trial": "<position in score, after earlier seeds>", "is_correct": "score"})
    part.defaults.append(f"{src.name}: Qwen2.5-Math outputs on {task}: " + "; ".join(said)
                         + "; one trial per element of score (seeds' samples one after another).")
    if differs:
        part.notes.append(f"{src.name}: the output files of '{base}' (here and in the data folders beside) hold "
                          f"{len(beside)} settings (" + "; ".join(", ".join(f"{k} {s[i]}" for i, (k, _) in
                                                                            enumerate(_SETTING)) for s in sorted(beside))
                          + "): each read as a model of its own, named with what differs.")
    return part


def _samples(runs: list[Source], found: dict, qids: list, trials: list, values: list) -> None:
    """Append each sample of one setting's files (question, trial, outcome), seeds one after another."""
    offset, seed, width = 0, None, 0
    for m in runs:
        if found[m.name]["seed"] != seed:  # a new seed's samples follow the earlier seeds'
            offset, seed, width = offset + width, found[m.name]["seed"], 0
        shown = f"{m.path.parent.name}/{m.path.name}"
        for n, rec in json_lines(m, shown, "a Qwen2.5-Math output line (a JSON object)"):
            score = rec.get("score")
            if "idx" not in rec or not isinstance(score, list):
                missing = "idx" if "idx" not in rec else "score"
                raise InputError(f"no {missing!r} on this line" + (" (one true/false per sample, written by "
                                 "evaluate.py: the evaluation step did not run)" if missing == "score" else "")
                                 + ".", source=shown, line=n, field=missing)
            bad = next((v for v in score if v is not None and not isinstance(v, bool)), None)
            if bad is not None:
                raise InputError(f"an element of 'score' is {bad!r}, not true/false.", source=shown, line=n,
                                 field="score")
            qids.extend([str(rec["idx"])] * len(score))
            trials.extend(range(offset, offset + len(score)))
            values.extend(np.nan if v is None else float(v) for v in score)
            width = max(width, len(score))
