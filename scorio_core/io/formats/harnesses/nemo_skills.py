"""NeMo-Skills evaluation outputs: ``<output_dir>/eval-results/<benchmark>/output-rs<seed>.jsonl``, one line per question.

Source: NVIDIA/NeMo-Skills ``nemo_skills/pipeline/summarize_results.py`` (the layouts it reads:
``<dir>/eval-results/<benchmark>/output*.jsonl``, ``<dir>/<benchmark>/output*.jsonl`` or ``<dir>/output*.jsonl``;
``output.jsonl`` a greedy run, ``output-rs<seed>.jsonl`` one sampled run per random seed of ``ns eval
--benchmarks <benchmark>:<N>``, ``*_chunk_*`` files left out, greedy and sampled runs together refused) and
``nemo_skills/evaluation/metrics/`` (``compute_metrics.py`` reads the seeds' files side by side, line i of every file
one question; ``math_metrics.py`` and ``code_metrics.py`` name the outcomes). A line is the question's input with the
run's answer and grading::

    {"problem": "...", "expected_answer": "70", "generation": "...", "predicted_answer": "70", "is_correct": true,
     "judgement": "Reasoning: ...\\nJudgement: Yes", "num_generated_tokens": 5120}

- the model is the folder holding ``eval-results/`` (``ns eval --output_dir``; the outputs do not name the model), else
  the folder above the benchmark's; the task the benchmark's folder; ``--map model=@folder[:N]`` / ``task=...``;
- the question is the line's position (as NeMo-Skills lines the seeds up), named by the line's ``id`` where every
  line has a distinct one; the same position must hold the same question in every seed's file (checked on the
  problem text), else refused naming the line;
- each seed's file is one trial (trial = the seed); a greedy ``output.jsonl`` is trial 0 (N = 1);
- the outcome is NeMo-Skills' own score, in this order unless ``--map is_correct=NAME`` picks another:
  ``judge_correct`` (the ``judgement``'s "Judgement: Yes/No"; a judgement without a verdict counts 0, as
  NeMo-Skills counts it, said; ``--errors-as-missing`` reads it as missing), ``symbolic_correct`` (``is_correct``,
  or the older files' ``symbolic_correct``), ``accuracy`` (LiveCodeBench's ``graded_list[0]``, BigCodeBench's
  ``status == "pass"``); also ``passing_plus_tests`` (``is-correct-plus``), ``both_correct``, ``any_correct`` or any
  field holding true/false or a number in [0, 1]. Which one was used, and the other scores present, are said;
- ``num_generated_tokens`` is kept as completion_tokens.

A benchmark folder's output files are read as one source (:func:`gather_nemo_skills`); the summaries beside them
(``metrics.json``), chunk files and a judge's ``tmp-eval-results/`` are left out, said. An upload names no model (the
outputs' folders do), so it is refused with the way to load the folder.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source
from scorio_core.io.formats.harness_files import gather_files, json_lines
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "gather_nemo_skills", "is_nemo_output", "is_nemo_run", "read_nemo_skills"]

FORMAT = "nemo-skills"
_OUTPUT = re.compile(r"^output(?:-rs(\d+))?\.jsonl$")
_CHUNK = re.compile(r"^output(?:-rs\d+)?_chunk_\d+\.jsonl$")
#: NeMo-Skills' score names, in the order they are chosen by default (``--map is_correct=NAME`` picks one).
SCORES = ("judge_correct", "symbolic_correct", "accuracy", "passing_plus_tests", "both_correct", "any_correct")
_ID_FIELDS = ("id", "problem_id", "question_id", "task_id")
_TEXT_FIELDS = ("problem", "question", "prompt")


def is_nemo_output(name: str, record: Mapping) -> bool:
    """Whether a JSON Lines file's first record is a NeMo-Skills evaluation output line.

    >>> is_nemo_output("output-rs0.jsonl", {"problem": "p", "generation": "g", "predicted_answer": "1", "is_correct": True})
    True
    >>> is_nemo_output("samples.jsonl", {"generation": "g", "is_correct": True})
    False
    """
    keys = set(record)
    return bool(_OUTPUT.match(name) or _CHUNK.match(name)) and "generation" in keys and bool(
        keys & {"is_correct", "symbolic_correct", "judgement", "predicted_answer", "graded_list", "status"})


def _is_output_file(src: Source) -> bool:
    if src.path is None or src.is_dir or not _OUTPUT.match(src.name):
        return False
    head = src.text_head(65536)
    return b'"generation"' in head and any(k in head for k in (b'"is_correct"', b'"symbolic_correct"', b'"judgement"',
                                                              b'"predicted_answer"', b'"graded_list"'))


def _pre_judge(path) -> bool:
    """Whether an output file is in ``<output_dir>/tmp-eval-results/<benchmark>/`` beside ``eval-results/``: the outputs
    before a judge graded them (``ns eval`` with a judge writes there first)."""
    return path.parent.parent.name == "tmp-eval-results" and (path.parent.parent.parent / "eval-results").is_dir()


def is_nemo_run(src: Source) -> bool:
    """Whether a folder source is a benchmark's output files gathered by :func:`gather_nemo_skills`."""
    return src.is_dir and bool(src.members) and all(_OUTPUT.match(k) for k in src.members)


def gather_nemo_skills(srcs: list[Source], fmt: str | None = None) -> list[Source]:
    """Gather each benchmark folder's ``output*.jsonl`` files into one folder source, and leave out the summaries
    (``metrics.json``), chunk files and a judge's ``tmp-eval-results/`` around them, saying how many in a note.
    ``fmt``: the user's ``--format``, if any."""
    if fmt not in (None, FORMAT):
        return srcs
    out, benchmarks = gather_files(srcs, lambda src: src.path.parent if _is_output_file(src) and not _pre_judge(src.path)
                                   else None)
    if not benchmarks:
        return srcs
    around = set(benchmarks) | {b.parent for b in benchmarks} | {b.parent.parent for b in benchmarks
                                                                 if b.parent.name == "eval-results"}
    judged = {b.parent.parent / "tmp-eval-results" for b in benchmarks if b.parent.name == "eval-results"}

    def skipped(s: Source) -> str | None:
        if s.is_dir or s.path is None:
            return None
        if s.name == "metrics.json" and s.path.parent in around:
            return "metrics.json (the summary)"
        if s.path.parent in benchmarks and _CHUNK.match(s.name):
            return "*_chunk_* (parts of a run, merged into its output-rs file)"
        return "in tmp-eval-results/ (the outputs before the judge)" if any(p in judged for p in s.path.parents) else None

    kinds = [skipped(s) for s in out]
    kept = [s for s, kind in zip(out, kinds) if kind is None]
    if n := len(out) - len(kept):
        said = ", ".join(f"{kinds.count(k):,} {k}" for k in dict.fromkeys(k for k in kinds if k))
        next(iter(benchmarks.values())).notes.append(
            f"NeMo-Skills outputs: {n:,} other file{'s' * (n > 1)} not read ({said}): the outcomes are the "
            "output*.jsonl lines.")
    return kept


def _verdict(judgement) -> float:
    """NeMo-Skills' ``is_correct_judgement``: the text after the last 'Judgement:' starting with yes / no; NaN when
    there is no verdict."""
    if isinstance(judgement, str) and "Judgement:" in judgement:
        verdict = judgement.split("Judgement:")[-1].strip().lower()
        if verdict.startswith("yes"):
            return 1.0
        if verdict.startswith("no"):
            return 0.0
    return np.nan


def _value(v) -> float | None:
    """A grading as a float in [0, 1], NaN for null, None for anything else."""
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return np.nan
    if isinstance(v, (bool, np.bool_)):
        return float(v)
    if isinstance(v, (int, float)) and 0 <= v <= 1:
        return float(v)
    return None


def _score(rec: dict, name: str):
    """The record's value of a NeMo-Skills score (or a field), as NeMo-Skills' metrics read it; KeyError if absent."""
    if name == "judge_correct":
        return rec["judge_correct"] if "judge_correct" in rec else _verdict(rec["judgement"])
    if name in ("symbolic_correct", "passing_base_tests"):
        return rec["is_correct"] if "is_correct" in rec else rec["symbolic_correct"]
    if name == "passing_plus_tests":
        return rec["is_correct-plus"]
    if name == "accuracy" and "graded_list" in rec:
        graded = rec["graded_list"]
        return graded[0] if isinstance(graded, list) and graded else None
    if name == "accuracy" and "status" in rec and "accuracy" not in rec:
        return rec["status"] == "pass"
    if name in ("both_correct", "any_correct"):
        a, b = _score(rec, "symbolic_correct"), _score(rec, "judge_correct")
        a, b = (np.nan if v is None else float(v) for v in (a, b))
        return float(np.minimum(a, b) if name == "both_correct" else np.maximum(a, b))  # a missing one: missing
    return rec[name]


def _has(rec: dict, name: str) -> bool:
    try:
        _score(rec, name)
    except KeyError:
        return False
    return True


def _records(member: Source, shown: str) -> list[dict]:
    return [rec for _, rec in json_lines(member, shown, "a NeMo-Skills output line (a JSON object)")]


def _question_ids(files: list[tuple[str, list[dict]]]) -> list[str]:
    """Each position's question id, checking that every seed's file has the same question at each position."""
    longest = max(files, key=lambda f: len(f[1]))[1]
    for field in _ID_FIELDS + _TEXT_FIELDS:
        if not all(field in r for r in longest):
            continue
        for shown, recs in files:
            for i, rec in enumerate(recs):
                if rec.get(field) != longest[i].get(field):
                    raise InputError(f"line {i + 1} holds another question than line {i + 1} of the other seeds' "
                                     f"files ({field!r} differs): NeMo-Skills reads the seeds' files side by side, so "
                                     "their lines must be in the same order; regenerate or remove this file.",
                                     source=shown, line=i + 1, field=field)
        break
    for field in _ID_FIELDS:
        ids = [r.get(field) for r in longest]
        if all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in ids) and len(set(map(str, ids))) == len(ids):
            return [str(v) for v in ids]
    return [str(i) for i in range(len(longest))]


def read_nemo_skills(src: Source, mapping: Mapping[str, str] | None = None, errors_missing: bool = False) -> Part:
    """Read a NeMo-Skills benchmark folder's outputs (see the module docstring): one attempt per (line, seed).

    Parameters
    ----------
    src : Source
        A benchmark folder gathered by :func:`gather_nemo_skills`, or one ``output*.jsonl`` file on disk.
    mapping : dict, optional
        ``--map is_correct=NAME`` (a NeMo-Skills score name or a field) and ``model`` / ``task`` ``=@folder[:N]``.
    errors_missing : bool
        Read a judgement without a verdict as a missing outcome instead of 0.

    Returns
    -------
    Part
        Columns model, task, question_id (the line's id, else its position), trial (the seed), is_correct, and
        completion_tokens where every line gives it.

    Raises
    ------
    InputError
        An upload, greedy and sampled outputs together, invalid JSON or a misaligned line (naming it), no score or
        a score that is neither true/false nor a number in [0, 1] (naming the line), another ``--map``.
    """
    pick = (mapping or {}).get("is_correct")
    levels = fixed_fields({k: v for k, v in (mapping or {}).items() if k != "is_correct"}, src.name,
                          "NeMo-Skills outputs have fixed fields (the line, the seed, its score; --map is_correct=NAME "
                          "picks the score)", ("model", "task"))
    if src.path is None:
        raise InputError("an uploaded NeMo-Skills output file names no model or benchmark (its folders do: "
                         "<output_dir>/eval-results/<benchmark>/): load the output folder instead: the app's Upload a "
                         "folder (or Open from the server), or its path on the command line.", source=src.name)
    if not src.is_dir and _CHUNK.match(src.path.name):
        raise InputError("a chunk of a NeMo-Skills run (ns eval --num_chunks) whose merged output-rs<seed>.jsonl is "
                         "not there yet: the run has not finished (NeMo-Skills leaves chunk files out too); load the "
                         "benchmark's folder once the run has merged its chunks.", source=src.name)
    members = list(src.members.values()) if src.is_dir else [src]
    folder = src.path if src.is_dir else src.path.parent
    members = [m for m in members if _OUTPUT.match(m.path.name)]
    seeds = {m.name: _OUTPUT.match(m.path.name).group(1) for m in members}
    if any(s is None for s in seeds.values()) and any(s is not None for s in seeds.values()):
        raise InputError("both a greedy output.jsonl and sampled output-rs*.jsonl files: runs with different sampling "
                         "settings (NeMo-Skills refuses them too); remove one kind, or load them separately.",
                         source=src.name)
    members.sort(key=lambda m: int(seeds[m.name] or 0))
    files = [(f"{folder.name}/{m.path.name}", _records(m, f"{folder.name}/{m.path.name}")) for m in members]
    files = [f for f in files if f[1]] or files
    if not any(recs for _, recs in files):
        raise InputError("the NeMo-Skills output files are empty.", source=src.name)
    first = next(r for _, recs in files for r in recs)
    present = [s for s in SCORES if _has(first, s)]
    if "is_correct-plus" in first:  # a code benchmark: is_correct is NeMo-Skills' passing_base_tests (code_metrics.py)
        present = ["passing_base_tests" if s == "symbolic_correct" else s for s in present]
    name = pick or (present[0] if present else None)
    if name is None:
        raise InputError("no NeMo-Skills score in the lines (is_correct, judgement, graded_list, status ...); run the "
                         "evaluation step, or name the field with --map is_correct=FIELD.", source=files[0][0])
    ids = _question_ids(files)
    rows, values, tokens, unjudged = [], [], [], 0
    for (shown, recs), m in zip(files, members):
        seed = int(seeds[m.name] or 0)
        for i, rec in enumerate(recs):
            try:
                raw = _score(rec, name)
            except KeyError:
                raise InputError(f"no {name!r} score on this line" + ("" if pick else " (the first line has it)")
                                 + f"; --map is_correct=NAME picks one the first line has ({', '.join(present) or 'none'})"
                                 ".", source=shown, line=i + 1, field=name) from None
            v = _value(raw)
            if v is None:
                raise InputError(f"the score {name!r} is {raw!r}, not true/false or a number in [0, 1]; --map "
                                 "is_correct=NAME picks another.", source=shown, line=i + 1, field=name)
            if name == "judge_correct" and np.isnan(v) and rec.get("judgement") is not None:
                unjudged += 1
                v = np.nan if errors_missing else 0.0
            rows.append((ids[i], seed))
            values.append(v)
            tokens.append(rec.get("num_generated_tokens"))
    named = folder_names(members[0].path, levels, src.name) if levels else {}
    above = folder.parent.parent if folder.parent.name in ("eval-results", "tmp-eval-results") else folder.parent
    model, task = named.get("model") or above.name, named.get("task") or folder.name
    qids, trials = zip(*rows)
    frame = pd.DataFrame({"model": model, "task": task, "question_id": list(qids), "trial": list(trials),
                          "is_correct": np.asarray(values, float)})
    frame["completion_tokens"] = pd.to_numeric(pd.Series(tokens, dtype=object), errors="coerce")
    if frame["completion_tokens"].isna().any():
        frame = frame.drop(columns="completion_tokens")
    guess = infer_mapping(frame.columns, {c: c for c in frame.columns}, source=src.name)
    part = canonicalize(frame, guess, source=src.name, fmt=FORMAT, stem=task,
                        locate=lambda i: {"context": f"question {qids[i]}, seed {trials[i]}: "})
    part.mapping.update({"model": part.mapping["model"] if "model" in named else f"<folder: {model}>",
                         "task": part.mapping["task"] if "task" in named else f"<folder: {task}>",
                         "question_id": "<line position>" if ids[0] == "0" else "id", "trial": "<seed: output-rs<seed>>",
                         "is_correct": name})
    others = [s for s in present if s != name]
    part.defaults.append(
        f"{src.name}: NeMo-Skills outputs of '{model}' on {task}: {len(files)} "
        + ("sampled run" + "s" * (len(files) > 1) + " (one trial per seed)" if seeds[members[0].name] is not None
           else "greedy run (N = 1)")
        + f", {len(ids):,} questions; outcome {name}" + (f" (also present: {', '.join(others)}; --map is_correct=NAME "
                                                          "picks another)" if others else "") + ".")
    lengths = {len(recs) for _, recs in files}
    if len(lengths) > 1:
        part.notes.append(f"{src.name}: the seeds' files have {min(lengths):,}-{max(lengths):,} lines: questions past "
                          "a shorter file's end have fewer trials (a run stopped early or still running).")
    if unjudged:
        part.notes.append(f"{src.name}: {unjudged:,} judgement{'s' * (unjudged > 1)} without a 'Judgement: Yes/No' "
                          + ("verdict read as missing (--errors-as-missing)." if errors_missing else
                             "verdict counted 0, as NeMo-Skills counts them (--errors-as-missing: missing)."))
    return part
