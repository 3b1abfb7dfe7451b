"""terminal-bench runs (``tb run -d terminal-bench-core==0.1.1 -a <agent> -m <model>``): ``runs/<run_id>/``.

Source: the run folders submitted to laude-institute/terminal-bench-leaderboard (``results/<dataset>/<date>_<agent>_
<model>/<run_id>/``, five runs each): a run folder holds ``run_metadata.json`` (``agent_name``, ``model_name``,
``dataset_name``, ``dataset_version``, ``n_attempts``, ``run_id``), ``results.json`` (``{"id", "results": [trial,
...], "n_resolved", "resolved_ids", "accuracy", ...}``) and one folder per task with one folder per trial
(``<task>/<task>.<k>-of-<n>.<run_id>/``: the trial's own ``results.json``, ``panes/*.txt``, ``sessions/*``). A trial
is ``{"trial_name", "task_id", "is_resolved": true/false/null, "failure_mode": "unset" / "agent_timeout" / ...,
"total_input_tokens", "total_output_tokens", "trial_started_at", "trial_ended_at", ...}``.

- the model is ``model_name`` with the agent (``anthropic/claude-sonnet-4 (terminus)``): the leaderboard ranks (agent,
  model) pairs; the task ``<dataset_name>:<dataset_version>`` (``terminal-bench-core:0.1.1``), else
  ``terminal-bench``; the question the task id; the trial the ``k`` of the trial's name (its attempt), and several runs
  of one model are its further trials (``number_runs``);
- the outcome is ``is_resolved``; a trial whose ``is_resolved`` is null (the agent or the tests failed to finish:
  ``failure_mode``) counts 0, as terminal-bench's accuracy counts it, said with its failure modes;
  ``--errors-as-missing`` reads it as missing instead. Tokens and the trial's wall time are kept as signals, the
  failure mode as the text ``tb_failure_mode``;
- a run folder is read from its ``results.json``: the per-trial copies, logs and pane captures below it and its
  ``run_metadata.json`` are not read on their own (:func:`gather_tb_runs`, said). A run still going (no run-level
  ``results.json``) is read from its trials' files. An upload has no ``run_metadata.json`` beside it, so it names no
  model: it is refused with the way to load the run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source, load_json
from scorio_core.io.formats.path_names import fixed_fields

__all__ = ["FORMAT", "gather_tb_runs", "is_tb_run", "is_terminal_bench", "read_terminal_bench"]

FORMAT = "terminal-bench"
METADATA = "run_metadata.json"
_TRIAL = re.compile(r"\.(\d+)-of-(\d+)\.")


def is_terminal_bench(keys) -> bool:
    """Whether a JSON object whose head has these keys is a terminal-bench run's (or trial's) results.

    >>> is_terminal_bench({"id", "results", "trial_name", "task_id", "is_resolved", "failure_mode"})
    True
    >>> is_terminal_bench({"results", "task_id", "resolved"})
    False
    """
    return {"trial_name", "is_resolved", "failure_mode"} <= set(keys)


def gather_tb_runs(srcs: list[Source], fmt: str | None = None) -> list[Source]:
    """Read each terminal-bench run folder (the folder of a ``run_metadata.json``) from its ``results.json``, or, while
    the run is still going (no run-level ``results.json``), from its trials' ``results.json`` gathered into one source;
    leave out its other files (``run_metadata.json``, read by the reader; per-trial copies, pane captures and logs in
    the task folders), saying how many in a note. ``fmt``: the user's ``--format``, if any."""
    if fmt not in (None, FORMAT):
        return srcs
    runs = {s.path.parent: None for s in srcs if s.path is not None and not s.is_dir and s.name == METADATA}
    if not runs:
        return srcs
    for s in srcs:
        if s.path is not None and not s.is_dir and s.name == "results.json" and s.path.parent in runs:
            runs[s.path.parent] = s
    out, skipped, trials = [], dict.fromkeys(runs, 0), {run: Source(name=run.name, path=run, is_dir=True)
                                                          for run, found in runs.items() if found is None}
    for s in srcs:
        run = _run_of(s, runs)
        if run is None or s is runs[run]:
            out.append(s)
        elif run in trials and s.name == "results.json" and len(s.path.relative_to(run).parts) == 3:
            group = trials[run]
            if not group.members:
                out.append(group)
            group.members[s.path.relative_to(run).as_posix()] = Source(name=f"{run.name}/{s.path.relative_to(run).as_posix()}",
                                                                        path=s.path)
        else:
            skipped[run] += 1
    if n := sum(skipped.values()):
        first = next(iter(runs))
        (runs[first] or trials[first]).notes.append(
            f"terminal-bench runs: {n:,} other file{'s' * (n > 1)} in {len(runs):,} run folder{'s' * (len(runs) > 1)} "
            "not read on their own (run_metadata.json names the model; the task folders hold per-trial copies of "
            "results.json, pane captures and logs).")
    return out


def is_tb_run(src: Source) -> bool:
    """Whether a folder source is a terminal-bench run gathered from its trials (:func:`gather_tb_runs`)."""
    return src.is_dir and src.path is not None and (src.path / METADATA).is_file()


def _run_of(src: Source, runs) -> Path | None:
    if src.path is None or src.is_dir:
        return None
    for folder in src.path.parents:
        if folder in runs:
            return folder
    return None


def _metadata(src: Source) -> tuple[dict | None, Path | None]:
    """The run's ``run_metadata.json`` (beside a run's results, or up to two folders above a trial's) and its folder."""
    if src.path is None:
        return None, None
    for folder in [src.path] if src.is_dir else list(src.path.parents)[:3]:
        meta = folder / METADATA
        if meta.is_file():
            try:
                doc = json.loads(meta.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise InputError(f"cannot read the run's {METADATA} ({exc}); it names the model.", source=src.name) from None
            return (doc if isinstance(doc, dict) else None), folder
    return None, None


def _seconds(trial: dict) -> float:
    try:
        a = pd.Timestamp(trial.get("trial_started_at"))
        b = pd.Timestamp(trial.get("trial_ended_at"))
    except (ValueError, TypeError):
        return np.nan
    return float((b - a).total_seconds()) if not (pd.isna(a) or pd.isna(b)) else np.nan


def read_terminal_bench(src: Source, mapping: Mapping[str, str] | None = None, errors_missing: bool = False) -> Part:
    """Read a terminal-bench run's ``results.json`` (or one trial's) as one run (see the module docstring).

    Parameters
    ----------
    src : Source
        The run's ``results.json`` on disk (its ``run_metadata.json`` beside it), or a trial's.
    mapping : dict, optional
        Not applicable: any field given is refused.
    errors_missing : bool
        Read trials whose ``is_resolved`` is null as missing outcomes instead of failures (``--errors-as-missing``).

    Returns
    -------
    Part
        Columns model, task, question_id (the task id), trial (the attempt; runs numbered later), is_correct, the
        signals prompt_tokens, completion_tokens, latency (seconds) and the text ``tb_failure_mode``.

    Raises
    ------
    InputError
        An upload or a file without ``run_metadata.json`` above it (nothing names the model), a trial without a task
        id or whose ``is_resolved`` is not true, false or null (naming it), ``--map`` of any field.
    """
    fixed_fields(mapping, src.name, "terminal-bench results have fixed fields (run_metadata.json's agent and model, "
                 "task_id, is_resolved)")
    meta, run = _metadata(src)
    if meta is None:
        raise InputError(f"a terminal-bench results.json names neither the model nor the agent; the run's {METADATA} "
                         "beside it does: load the run folder (runs/<run_id>/: the app's Upload a folder or Open from "
                         "the server, or its path on the command line).", source=src.name)
    docs = [load_json(m) for _, m in sorted(src.members.items())] if src.is_dir else [load_json(src)]
    trials = [t for d in docs for t in (d["results"] if isinstance(d, dict) and isinstance(d.get("results"), list)
                                         else [d])]
    if not trials:
        raise InputError("the terminal-bench run has no trial results yet.", source=src.name)
    for i, t in enumerate(trials):
        if not isinstance(t, dict) or not t.get("task_id") or t.get("is_resolved") not in (True, False, None):
            raise InputError(f"trial {i + 1} needs a task_id and is_resolved true, false or null, as terminal-bench "
                             "writes them.", source=src.name, field="is_resolved")
    model, agent = meta.get("model_name"), meta.get("agent_name")
    label = f"{model} ({agent})" if model and agent else str(model or agent or run.name)
    name, version = meta.get("dataset_name"), meta.get("dataset_version")
    task = f"{name}:{version}" if name and version else str(name or "terminal-bench")
    resolved = [t.get("is_resolved") for t in trials]
    unfinished = np.array([r is None for r in resolved])
    outcome = np.array([1.0 if r else 0.0 for r in resolved])
    if errors_missing:
        outcome[unfinished] = np.nan
    attempt = [_TRIAL.search(str(t.get("trial_name") or "")) for t in trials]
    frame = pd.DataFrame({"model": label, "task": task, "question_id": [str(t["task_id"]) for t in trials],
                          "trial": [int(m.group(1)) - 1 if m else -1 for m in attempt], "is_correct": outcome,
                          "prompt_tokens": [t.get("total_input_tokens") for t in trials],
                          "completion_tokens": [t.get("total_output_tokens") for t in trials],
                          "latency": [_seconds(t) for t in trials]})
    if (frame["trial"] < 0).any():  # a trial name without its attempt: number the task's trials in file order
        frame["trial"] = frame.groupby("question_id", sort=False).cumcount()
    for c in ("prompt_tokens", "completion_tokens", "latency"):
        frame[c] = pd.to_numeric(frame[c], errors="coerce")
    frame = frame.drop(columns=[c for c in ("prompt_tokens", "completion_tokens", "latency") if frame[c].isna().all()])
    modes = [str(t.get("failure_mode") or "") for t in trials]
    frame["tb_failure_mode"] = pd.Series(modes, dtype="str")
    guess = infer_mapping(frame.columns, {c: c for c in frame.columns if c != "tb_failure_mode"}, source=src.name)
    part = canonicalize(frame, guess, source=src.name, fmt=FORMAT, stem=run.name,
                        locate=lambda i: {"context": f"trial {trials[i].get('trial_name') or i + 1}: "})
    part.mapping.update({"model": f"<{METADATA}: model_name (agent_name)>",
                         "task": f"<{METADATA}: dataset_name:dataset_version>" if name else "<terminal-bench>",
                         "question_id": "task_id", "trial": "<trial_name: k of k-of-n>",
                         "is_correct": "is_resolved" + (" (null missing)" if errors_missing else " (null 0)")})
    part.read["run_id"] = str(meta.get("run_id") or run.name)
    part.notes.extend(_notes(src.name, modes, unfinished, errors_missing))
    return part


def _notes(name: str, modes: list[str], unfinished: np.ndarray, errors_missing: bool) -> list[str]:
    n = int(unfinished.sum())
    if not n:
        return []
    kinds = pd.Series([m for m, u in zip(modes, unfinished) if u]).value_counts()
    listed = ", ".join(f"{k or 'none given'} {v}" for k, v in kinds.items())
    return [f"{name}: {n} trial{'s' * (n > 1)} did not finish (is_resolved null; failure modes: {listed}) " +
            ("read as missing outcomes (--errors-as-missing)." if errors_missing else
             "counted as unresolved, as terminal-bench's accuracy counts them; --errors-as-missing reads them as missing "
             "instead.")]
