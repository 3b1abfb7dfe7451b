"""Aider's benchmark results: ``tmp.benchmarks/<date>--<name>/<language>/exercises/practice/<exercise>/.aider.results.json``.

Source: Aider-AI/aider ``benchmark/benchmark.py`` (``run_test_real`` writes one file per exercise; ``load_results``
and ``summarize_results`` read a run folder with the glob ``*/exercises/practice/*/.aider.results.json``; the older
Python-only layout kept the exercises directly in the run folder). A file is one exercise of one run::

    {"testdir": ..., "testcase": "bowling", "model": "gpt-4o", "edit_format": "diff",
     "tests_outcomes": [false, true], "cost": 0.02, "duration": 31.4, ...}

or ``{"exception": "..."}`` when the harness failed on the exercise. A run folder is one source and one run (trial)
of one model:

- the model is the file's ``model`` with its edit format, ``gpt-4o (diff)`` (aider's leaderboard rows are (model,
  edit format) pairs; an architect run names its editor model too: ``o1 + gpt-4o (architect)``);
- the question is ``<language>/<exercise>`` (an exercise name recurs across the polyglot benchmark's languages), the
  exercise alone in the older layout; the task ``aider-polyglot`` (``aider`` in the older layout);
- the outcome is 1 if the exercise's last try passed its unit tests: aider's pass rate after all tries (``--tries``,
  default 2: ``pass_rate_2``, the leaderboard's percent correct). The tries are one attempt (each later try sees the
  failing tests' output), not independent trials; the try it passed on is kept in ``aider_status``;
- a ``{"exception": ...}`` file counts 0, as aider counts it (a completed test that did not pass), said;
  ``--errors-as-missing`` reads it as missing instead;
- exercise folders without a results file (the run stopped early) are not attempts, said with their count (aider's
  ``total_tests`` counts them);
- several run folders of one model are its runs (trials 0, 1, ... in load order, the folders' dates first).

The exercise folders also hold the exercise's own files (``package.json``, ``CMakeLists.txt`` ...), which a folder
walk would take for data: they are left out (:func:`gather_aider_runs`), said in a note. An upload names no run
folder (and several uploads share one file name), so it is refused with the way to load a run.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import AIDER_RESULTS, Source, load_json
from scorio_core.io.formats.harness_files import gather_files
from scorio_core.io.formats.path_names import fixed_fields

__all__ = ["FORMAT", "RESULTS", "gather_aider_runs", "is_aider_run", "read_aider"]

FORMAT = "aider"
#: The file name aider's harness writes in each exercise folder.
RESULTS = AIDER_RESULTS
TASK, LEGACY_TASK = "aider-polyglot", "aider"


def _layout(path: Path) -> tuple[Path, str | None]:
    """(run folder, language or None) of an exercise's results file: ``<run>/<lang>/exercises/practice/<ex>/`` or
    the older ``<run>/<ex>/``."""
    up = path.parents
    if len(up) > 4 and up[1].name == "practice" and up[2].name == "exercises":
        return up[4], up[3].name
    return up[1], None


def is_aider_run(src: Source) -> bool:
    """Whether a source is a run folder gathered by :func:`gather_aider_runs` (or one results file)."""
    if src.is_dir:
        return bool(src.members) and all(k.endswith(RESULTS) for k in src.members)
    return src.inner_name == RESULTS


def gather_aider_runs(srcs: list[Source], fmt: str | None = None) -> list[Source]:
    """Gather each run folder's ``.aider.results.json`` files into one folder source (one run), in load order, and
    leave out every other file inside the run's exercise folders (the exercise's code and build files), saying how
    many in a note. Uploads (no path) stay single: the reader refuses them."""
    if fmt not in (None, FORMAT):
        return srcs
    out, runs = gather_files(srcs, lambda src: _layout(src.path)[0] if src.name == RESULTS else None)
    if not runs:
        return srcs
    polyglot = {run: any(_layout(m.path)[1] is not None for m in group.members.values()) for run, group in runs.items()}
    kept = [s for s in out if s.is_dir or s.path is None or not _in_exercise(s.path, polyglot)]
    if skipped := len(out) - len(kept):
        next(iter(runs.values())).notes.append(
            f"aider runs: {skipped:,} other file{'s' * (skipped > 1)} in the exercise folders not read: the exercises' "
            "own code and build files (package.json, CMakeLists.txt ...), not outcomes.")
    return kept


def _in_exercise(path: Path, polyglot: dict[Path, bool]) -> bool:
    """Whether a file lies inside an exercise folder of a gathered run (``<run>/<lang>/exercises/practice/<ex>/`` or,
    in the older layout, ``<run>/<ex>/``)."""
    for depth, folder in enumerate(path.parents):
        if folder in polyglot:
            rel = path.relative_to(folder).parts
            return len(rel) > 4 and rel[1:3] == ("exercises", "practice") if polyglot[folder] else depth > 0
    return False


def _label(doc: dict) -> str | None:
    model = doc.get("model")
    if not isinstance(model, str) or not model:
        return None
    editor = doc.get("editor_model")
    fmt = doc.get("edit_format")
    return model + (f" + {editor}" if isinstance(editor, str) and editor else "") + (f" ({fmt})" if fmt else "")


def _entry(member: Source) -> tuple[str | None, str, float, str, float, float]:
    """(model label, exercise, outcome, status, cost, duration) of one results file."""
    doc = load_json(member)
    exercise = member.path.parent.name if member.path is not None else ""
    if isinstance(doc, dict) and "tests_outcomes" not in doc and "exception" in doc:
        return None, exercise, 0.0, "exception", np.nan, np.nan
    outcomes = doc.get("tests_outcomes") if isinstance(doc, dict) else None
    if not isinstance(outcomes, list) or not all(isinstance(o, bool) for o in outcomes):
        raise InputError("expected aider's benchmark results: an object with 'tests_outcomes', a list of true/false "
                         "(one per try), as benchmark/benchmark.py writes it; re-run the exercise.", source=member.name,
                         field="tests_outcomes")
    passed = bool(outcomes) and outcomes[-1]
    status = f"passed on try {len(outcomes)}" if passed else (f"failed {len(outcomes)} tries" if outcomes
                                                                else "no tests run")
    cost, duration = (float(doc[k]) if isinstance(doc.get(k), (int, float)) and not isinstance(doc.get(k), bool)
                      else np.nan for k in ("cost", "duration"))
    return _label(doc), str(doc.get("testcase") or exercise), float(passed), status, cost, duration


def read_aider(src: Source, mapping: Mapping[str, str] | None = None, errors_missing: bool = False) -> Part:
    """Read an aider benchmark run folder (see the module docstring) as one run: one attempt per exercise.

    Parameters
    ----------
    src : Source
        A run folder from :func:`gather_aider_runs` (or one ``.aider.results.json`` on disk).
    mapping : dict, optional
        Not applicable: any field given is refused (the files' fields are fixed).
    errors_missing : bool
        Read ``{"exception": ...}`` exercises as missing outcomes instead of failures (``--errors-as-missing``).

    Returns
    -------
    Part
        Columns model, task, question_id, trial (0; several runs of a model are numbered later), is_correct, the
        signals cost (USD) and latency (seconds: the exercise's duration), and the text ``aider_status``.

    Raises
    ------
    InputError
        An upload (no run folder), a file whose ``tests_outcomes`` is not a list of booleans (naming the file), a run
        folder holding results of several models, ``--map`` of any field.
    """
    fixed_fields(mapping, src.name, "aider's benchmark results have fixed fields (model, testcase, tests_outcomes)")
    if src.path is None:
        raise InputError(f"an uploaded {RESULTS} is one exercise of a run, and every exercise's file has this name: "
                         "load the run folder (tmp.benchmarks/<date>--<name>/) instead: the app's Upload a folder (or "
                         "Open from the server), or its path on the command line.", source=src.name)
    members = [src.members[k] for k in sorted(src.members)] if src.is_dir else [src]
    run, lang = (src.path, None) if src.is_dir else _layout(src.path)
    entries = [_entry(m) for m in members]
    langs = [_layout(m.path)[1] for m in members]
    labels = sorted({e[0] for e in entries if e[0] is not None})
    if len(labels) > 1:
        raise InputError(f"the run folder holds results of several models ({', '.join(labels[:3])}), which aider's own "
                         "summary flags too; put each model's exercises in a run folder of its own.", source=src.name,
                         field="model")
    model = labels[0] if labels else run.name
    polyglot = any(x is not None for x in langs)
    status = [e[3] for e in entries]
    outcome = np.array([e[2] for e in entries])
    if errors_missing:
        outcome[np.array(status) == "exception"] = np.nan
    frame = pd.DataFrame({"model": model, "task": TASK if polyglot else LEGACY_TASK,
                          "question_id": [f"{x}/{e[1]}" if x else e[1] for x, e in zip(langs, entries)],
                          "trial": np.zeros(len(entries), np.int64), "is_correct": outcome,
                          "cost": [e[4] for e in entries], "latency": [e[5] for e in entries]})
    frame = frame.drop(columns=[c for c in ("cost", "latency") if frame[c].isna().all()])
    frame["aider_status"] = pd.Series(status, dtype="str")
    guess = infer_mapping(frame.columns, {c: c for c in frame.columns if c != "aider_status"}, source=src.name)
    names = [m.name for m in members]
    part = canonicalize(frame, guess, source=src.name, fmt=FORMAT, stem=run.name,
                        locate=lambda i: {"context": f"{names[i]} ({status[i]}): "})
    part.mapping.update({"model": "model (edit_format)" if labels else f"<run folder: {run.name}>",
                         "task": f"<{frame['task'].iat[0]}>",
                         "question_id": "<language/exercise folder>" if polyglot else "testcase",
                         "trial": "<the run: one folder>",
                         "is_correct": "tests_outcomes (last try passed)" + (" (exceptions missing)" * errors_missing)})
    part.defaults.append(f"{src.name}: aider benchmark run of '{model}', {len(members):,} exercise"
                         f"{'s' * (len(members) > 1)}; one attempt per exercise (trial 0 of this run).")
    part.notes.extend(_notes(src, run, polyglot, status, errors_missing, bool(labels)))
    part.read["run_id"] = run.name
    return part


def _notes(src: Source, run: Path, polyglot: bool, status: list[str], errors_missing: bool, named: bool) -> list[str]:
    name = src.name
    out = ["aider runs: an exercise's tries (aider's --tries) are one attempt, each retry seeing the failing tests' "
           "output, not independent trials: the outcome is whether the exercise passed within its tries (aider's pass "
           "rate after all tries, the leaderboard's percent correct); the try it passed on is in aider_status."]
    if n := status.count("exception"):
        out.append(f"{name}: {n} exercise{'s' * (n > 1)} where the harness raised an exception " +
                   ("read as missing outcomes (--errors-as-missing)." if errors_missing else
                    "counted as failures, as aider counts them; --errors-as-missing reads them as missing instead."))
    if not named:
        out.append(f"{name}: no results file names its model; the run folder's name stands for it.")
    if src.is_dir and run.is_dir():
        total = sum(1 for p in run.glob("*/exercises/practice/*" if polyglot else "*") if p.is_dir()
                    and not p.name.startswith("."))
        if (missing := total - len(status)) > 0:
            out.append(f"{name}: {missing:,} of {total:,} exercise folders have no results file (the run stopped "
                       "early): they are not attempts here, so this run covers fewer exercises than a complete one.")
    return out
