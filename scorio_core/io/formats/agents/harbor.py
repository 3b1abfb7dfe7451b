"""Harbor jobs (``harbor run -d terminal-bench@2.0 -a <agent> -m <model>``): ``jobs/<job_name>/``, one folder per trial.

Harbor runs Terminal-Bench 2.0 and the benchmarks adapted to it (its adapters: SWE-bench, Aider Polyglot ...);
AISBench runs it too (``results/<model_abbr>/<dataset_abbr>/details/``). A job folder holds ``config.json`` (the
job's agents, models and datasets), ``result.json`` (the job's statistics) and one folder per trial
(``<task_name>__<suffix>/``) with the trial's ``config.json``, ``result.json``, logs and the agent's and verifier's
files. A trial's ``result.json`` (Harbor's ``TrialResult``)::

    {"id": ..., "task_name": "hello-world", "trial_name": "hello-world__AbC12de", "source": "terminal-bench",
     "config": {"agent": {"name": "terminus-2", "model_name": "anthropic/claude-sonnet-4-5"}, ...},
     "agent_info": {"name": "terminus-2", "version": "2.0.0", "model_info": {"name": "claude-sonnet-4-5",
                    "provider": "anthropic"}},
     "agent_result": {"n_input_tokens": ..., "n_output_tokens": ..., "cost_usd": ...},
     "verifier_result": {"rewards": {"reward": 1.0}}, "exception_info": null,
     "started_at": ..., "finished_at": ...}

- the model is the agent's model with the agent (``anthropic/claude-sonnet-4-5 (terminus-2)``: leaderboards rank
  (agent, model) pairs), the trial config's ``model_name`` first, else ``provider/name`` of ``model_info``; an agent
  without a model (``oracle``) is named alone;
- the task is the trial's ``source`` (the dataset), else the job's one dataset (``name@version`` in its
  ``config.json``), else ``harbor``; the question is ``task_name``;
- the outcome is the verifier's reward ``reward`` (the one reward when it has another name; ``--map is_correct=NAME``
  picks one of several): 1 a success, 0 a failure, a reward between them a graded score;
- a trial that raised before the verifier scored it (``exception_info`` and no reward: an agent or environment error)
  counts 0 by default, as AISBench's Harbor summary counts it, said with the exception types; ``--errors-as-missing``
  reads it as missing instead. A trial that raised and was still scored keeps its reward (said);
- a trial not finished (no ``finished_at`` and nothing scored or raised) is not an attempt (said), nor is a trial
  folder without ``result.json``;
- a task's trials (``--n-attempts``) are numbered 0, 1, ... in the order they started; several jobs of one (agent,
  model) are its further runs (trials numbered on, in load order:
  :func:`~scorio_core.io.formats.agents.swebench.number_runs`). Tokens, cost and the trial's wall time are kept
  as signals, the exception type as the text ``harbor_exception``.

A job folder is read from its trials' ``result.json`` (:func:`gather_harbor_jobs`); the configs, the job's
statistics, logs and the agent's and verifier's files are not read on their own (said once). A trial's
``result.json`` alone (an upload) is read as one trial: it names its model.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source, load_json
from scorio_core.io.formats.harness_files import gather_files
from scorio_core.io.formats.path_names import fixed_fields

__all__ = ["FORMAT", "gather_harbor_jobs", "is_harbor_job", "is_harbor_trial", "read_harbor"]

FORMAT = "harbor"
RESULT, CONFIG = "result.json", "config.json"


def is_harbor_trial(keys) -> bool:
    """Whether a JSON object whose head has these keys is a Harbor trial's ``result.json``.

    >>> is_harbor_trial({"id", "task_name", "trial_name", "trial_uri", "agent_info", "verifier_result"})
    True
    >>> is_harbor_trial({"task_name", "trial_name", "is_resolved"})
    False
    """
    keys = set(keys)
    return {"task_name", "trial_name", "agent_info"} <= keys and bool(keys & {"verifier_result", "exception_info"})


def _is_trial_file(src: Source) -> bool:
    if src.path is None or src.is_dir or src.name != RESULT or not (src.path.parent / CONFIG).is_file():
        return False
    head = src.text_head(4096)
    return b'"trial_name"' in head and b'"task_name"' in head


def _job_of(src: Source) -> Path | None:
    """The job folder of a trial's result.json (``<job>/<trial>/result.json`` beside the job's config.json)."""
    return job if _is_trial_file(src) and ((job := src.path.parent.parent) / CONFIG).is_file() else None


def gather_harbor_jobs(srcs: list[Source], fmt: str | None = None) -> list[Source]:
    """Gather each Harbor job folder's trial ``result.json`` files into one folder source (one job), in load order,
    and leave out every other file in the job folder (configs, the job's statistics, logs, the agent's and verifier's
    files), saying how many in a note. ``fmt``: the user's ``--format``, if any."""
    if fmt not in (None, FORMAT):
        return srcs
    out, jobs = gather_files(srcs, _job_of)
    if not jobs:
        return srcs
    kept = [s for s in out if s.is_dir or s.path is None or not any(p in jobs for p in s.path.parents)]
    if skipped := len(out) - len(kept):
        next(iter(jobs.values())).notes.append(
            f"Harbor jobs: {skipped:,} other file{'s' * (skipped > 1)} in {len(jobs):,} job folder{'s' * (len(jobs) > 1)} "
            "not read on their own (the job's and trials' config.json, the job's statistics in its result.json, logs, "
            "the agents' and verifiers' files): the outcomes are the trials' result.json.")
    return kept


def is_harbor_job(src: Source) -> bool:
    """Whether a folder source is a Harbor job gathered by :func:`gather_harbor_jobs`."""
    return (src.is_dir and src.path is not None and bool(src.members) and (src.path / CONFIG).is_file()
            and all(k.endswith("/" + RESULT) for k in src.members))


def _job_dataset(job: Path | None) -> str | None:
    """The job's one dataset as ``name@version`` from its ``config.json``, else None."""
    if job is None or not (job / CONFIG).is_file():
        return None
    try:
        doc = load_json(Source(name=f"{job.name}/{CONFIG}", path=job / CONFIG))
    except InputError:
        return None
    sets = doc.get("datasets") if isinstance(doc, dict) else None
    if not (isinstance(sets, list) and len(sets) == 1 and isinstance(sets[0], dict) and sets[0].get("name")):
        return None
    return str(sets[0]["name"]) + (f"@{sets[0]['version']}" if sets[0].get("version") else "")


def _obj(doc, *keys) -> dict:
    """``doc[k1][k2]...`` when every level is an object, else ``{}``."""
    for k in keys:
        doc = doc.get(k) if isinstance(doc, dict) else None
    return doc if isinstance(doc, dict) else {}


def _label(doc: dict) -> str:
    info, configured, mi = _obj(doc, "agent_info"), _obj(doc, "config", "agent"), _obj(doc, "agent_info", "model_info")
    agent = info.get("name") or configured.get("name")
    model = configured.get("model_name")
    if not model and mi.get("name"):
        model = f"{mi['provider']}/{mi['name']}" if mi.get("provider") else mi["name"]
    if model and agent:
        return f"{model} ({agent})"
    return str(model or agent or "unknown agent")


def _reward(doc: dict, key: str | None, name: str) -> tuple[float, str | None]:
    """(reward, its name) of a trial; NaN when the verifier gave none."""
    rewards = _obj(doc, "verifier_result", "rewards")
    if not rewards:
        return np.nan, None
    pick = key or ("reward" if "reward" in rewards else next(iter(rewards)) if len(rewards) == 1 else None)
    if pick is None or pick not in rewards:
        raise InputError(f"the verifier gave several rewards ({', '.join(map(str, list(rewards)[:6]))}) and "
                         f"{'none is named ' + repr(key) if key else 'none is named reward'}: say which is the "
                         "outcome with --map is_correct=NAME.", source=name, field="verifier_result.rewards")
    value = rewards[pick]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value):
        raise InputError(f"reward {pick!r} must be a number; got {value!r}.", source=name, field=f"rewards.{pick}")
    return float(value), pick


def read_harbor(src: Source, mapping: Mapping[str, str] | None = None, errors_missing: bool = False) -> list[Part]:
    """Read a Harbor job folder (or one trial's ``result.json``; see the module docstring).

    Parameters
    ----------
    src : Source
        A job folder from :func:`gather_harbor_jobs`, or one trial's ``result.json``.
    mapping : dict, optional
        ``{"is_correct": NAME}`` picks the verifier's reward ``NAME``; any other field is refused.
    errors_missing : bool
        Read trials that raised before the verifier scored them as missing instead of failures.

    Returns
    -------
    list of Part
        One per (agent and model, task): columns model, task, question_id (``task_name``), trial (0, 1, ... in start
        order), is_correct (the reward), the signals prompt_tokens, completion_tokens, cost (USD), latency (seconds)
        where given, and the text ``harbor_exception``.

    Raises
    ------
    InputError
        A trial without ``task_name``, a reward that is not a number, several rewards none of which is named
        ``reward`` (nor by ``--map is_correct``), a job without a finished trial, another ``--map``.
    """
    key = (mapping or {}).get("is_correct")
    fixed_fields({k: v for k, v in (mapping or {}).items() if k != "is_correct"}, src.name,
                 "Harbor trial results have fixed fields (agent_info, task_name, verifier_result; --map is_correct=NAME "
                 "picks a reward)")
    members = [src.members[k] for k in sorted(src.members)] if src.is_dir else [src]
    job = src.path if src.is_dir else (src.path.parent.parent if src.path is not None else None)
    dataset = _job_dataset(job)
    rows, unfinished = [], 0
    for m in members:
        doc = load_json(m)
        if not isinstance(doc, dict) or not isinstance(doc.get("task_name"), str) or not doc["task_name"]:
            raise InputError("expected a Harbor trial result: an object with task_name, agent_info and "
                             "verifier_result.", source=m.name, field="task_name")
        reward, used = _reward(doc, key, m.name)
        exc = _obj(doc, "exception_info") or None
        if np.isnan(reward) and exc is None and not doc.get("finished_at"):
            unfinished += 1
            continue
        agent = _obj(doc, "agent_result")
        rows.append({"model": _label(doc), "task": str(doc.get("source") or dataset or "harbor"),
                     "question_id": doc["task_name"], "is_correct": reward, "raised": exc is not None,
                     "harbor_exception": str((exc or {}).get("exception_type") or ""), "reward_name": used,
                     "prompt_tokens": agent.get("n_input_tokens"), "completion_tokens": agent.get("n_output_tokens"),
                     "cost": agent.get("cost_usd"), "started": doc.get("started_at") or "",
                     "latency": _seconds(doc), "trial_name": str(doc.get("trial_name") or m.name)})
    if not rows:
        raise InputError(f"the Harbor job has no finished trial yet ({unfinished} running or not started).",
                         source=src.name)
    frame = pd.DataFrame(rows).sort_values(["started", "trial_name"], kind="stable")
    scored_errors = frame["raised"] & frame["is_correct"].notna()
    errored = frame["raised"] & frame["is_correct"].isna()
    frame.loc[errored, "is_correct"] = np.nan if errors_missing else 0.0
    frame["trial"] = frame.groupby(["model", "task", "question_id"], sort=False).cumcount()
    parts = [_part(src.name, group, job, errors_missing) for _, group in frame.groupby(["model", "task"], sort=False)]
    parts[0].notes.extend(_notes(src.name, frame, errored, scored_errors, unfinished, errors_missing))
    if src.is_dir and src.path is not None and (empty := sum(
            1 for d in src.path.iterdir() if d.is_dir() and (d / CONFIG).is_file() and not (d / RESULT).is_file())):
        parts[0].notes.append(f"{src.name}: {empty} trial folder{'s' * (empty > 1)} without result.json (not started, "
                              "or stopped before Harbor wrote it): not attempts here.")
    return parts


def _seconds(doc: dict) -> float:
    try:
        a, b = pd.Timestamp(doc.get("started_at")), pd.Timestamp(doc.get("finished_at"))
    except (ValueError, TypeError):
        return np.nan
    return float((b - a).total_seconds()) if not (pd.isna(a) or pd.isna(b)) else np.nan


def _part(name: str, group: pd.DataFrame, job: Path | None, errors_missing: bool) -> Part:
    frame = group[["model", "task", "question_id", "trial", "is_correct", "prompt_tokens", "completion_tokens", "cost",
                   "latency"]].reset_index(drop=True)
    for c in ("prompt_tokens", "completion_tokens", "cost", "latency"):
        frame[c] = pd.to_numeric(frame[c], errors="coerce")
    frame = frame.drop(columns=[c for c in ("prompt_tokens", "completion_tokens", "cost", "latency")
                                if frame[c].isna().all()])
    frame["harbor_exception"] = pd.Series(group["harbor_exception"].to_numpy(), dtype="str")
    trials = group["trial_name"].tolist()
    guess = infer_mapping(frame.columns, {c: c for c in frame.columns if c != "harbor_exception"}, source=name)
    part = canonicalize(frame, guess, source=name, fmt=FORMAT, stem=job.name if job is not None else name,
                        locate=lambda i: {"context": f"trial {trials[i]}: "})
    used = sorted({u for u in group["reward_name"] if isinstance(u, str)}) or ["reward"]
    part.mapping.update({"model": "config.agent.model_name (agent_info.name)", "task": "source (the dataset)",
                         "question_id": "task_name", "trial": "<the task's trials in start order>",
                         "is_correct": f"verifier_result.rewards.{used[0]}" + (" (errors missing)" if errors_missing
                                                                               else " (errors 0)")})
    if job is not None:
        part.read["run_id"] = job.name
    return part


def _notes(name: str, frame: pd.DataFrame, errored: pd.Series, scored: pd.Series, unfinished: int,
           errors_missing: bool) -> list[str]:
    out = []
    if n := int(errored.sum()):
        kinds = frame.loc[errored, "harbor_exception"].replace("", "unnamed").value_counts()
        listed = ", ".join(f"{k} {v}" for k, v in kinds.items())
        out.append(f"{name}: {n} trial{'s' * (n > 1)} raised before the verifier scored {'them' if n > 1 else 'it'} "
                   f"({listed}) " + ("read as missing outcomes (--errors-as-missing)." if errors_missing else
                                     "counted as failures (0), as AISBench's Harbor summary counts them; "
                                     "--errors-as-missing reads them as missing instead."))
    if n := int(scored.sum()):
        out.append(f"{name}: {n} trial{'s' * (n > 1)} raised and {'were' if n > 1 else 'was'} still scored by the "
                   "verifier: the reward is read.")
    if unfinished:
        out.append(f"{name}: {unfinished} trial{'s' * (unfinished > 1)} not finished (no reward, no error, no "
                   "finished_at): not attempts here.")
    return out
