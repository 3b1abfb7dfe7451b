"""HELM run outputs: one run folder per (scenario, model).

Source: stanford-crfm/helm ``benchmark/runner.py`` writes ``per_instance_stats.json`` (a list
of ``{instance_id, train_trial_index, [perturbation], stats: [{name: {name, split, ...},
count, sum, mean, ...}]}``), ``scenario_state.json`` (``adapter_spec`` and
``request_states``), ``run_spec.json`` and ``stats.json`` (aggregates).

Mapping: ``model`` = ``adapter_spec.model`` (scenario_state, else run_spec, else the
``model=`` part of the folder name); ``task`` = the run name without its ``model=`` argument
(``mmlu:subject=philosophy,method=multiple_choice_joint``); a perturbed instance goes to
``<task> [<perturbation>]`` and an instance of a split other than ``test`` to
``<task> [<split>]`` (HELM reports splits separately); ``question_id`` = ``instance_id``; ``trial`` =
``train_trial_index``. The outcome is the ``exact_match`` stat unless
``mapping={'is_correct': '<stat>'}``. Signals: ``prompt_tokens`` (``num_prompt_tokens``),
``completion_tokens`` (``num_completion_tokens``), ``latency`` (``inference_runtime``),
``finish_reason`` (the ``finish_reason_*`` stat equal to 1), ``max_tokens``
(``adapter_spec.max_tokens``), ``split``, and every other per-instance stat under its name.
Drill-down text from ``scenario_state.json`` (:mod:`scorio_core.io._text`): ``input``
(``instance.input.text``), ``target`` (references tagged ``correct``, as ``letter: text`` when
the run maps options to letters) and ``answer`` (the first completion).

A suite folder (``benchmark_output/runs/<suite>/``) also holds what ``helm-summarize`` writes beside the run folders
(``presentation/summarize.py``: ``schema.json``, ``summary.json``, ``costs.json``, ``runs.json``, ``run_specs.json``,
``runs_to_run_suites.json``, ``groups.json``, ``groups_metadata.json``, and ``groups/``' tables): aggregates, left out
with a note (:func:`skip_helm_summaries`), and refused alone with what to load; so are, when ``benchmark_output/`` is
loaded whole, its ``scenarios/`` (the downloaded datasets), ``scenario_instances/`` and ``releases/``.
"""

from __future__ import annotations

import re

import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source, load_json
from scorio_core.io._text import clip
from scorio_core.io.formats.harness_files import leave_out

__all__ = ["helm_group", "read_helm", "skip_helm_summaries"]

#: What ``helm-summarize`` writes in a suite (or release) folder beside the run folders.
SUMMARY_FILES = frozenset({"schema.json", "summary.json", "costs.json", "runs.json", "run_specs.json",
                           "runs_to_run_suites.json", "groups.json", "groups_metadata.json"})
_SUMMARY_HEADS = {"run_specs.json": b'"adapter_spec"', "runs.json": b'"run_spec"'}

_RENAME = {"num_prompt_tokens": "prompt_tokens", "num_completion_tokens": "completion_tokens", "inference_runtime": "latency"}


def _summary(src: Source, suites: set, outputs: set) -> bool:
    """Whether a file is helm-summarize's output: beside loaded run folders (``suites``) or below their ``groups/``,
    in ``benchmark_output/``'s other folders (``outputs``), or alone with the distinctive head of ``run_specs.json`` /
    ``runs.json``."""
    if src.is_dir or src.path is None:
        return False
    folder = src.path.parent
    if folder in suites:
        return src.name in SUMMARY_FILES
    if any(folder.is_relative_to(p / "groups") for p in suites) or any(
            folder.is_relative_to(b / d) for b in outputs for d in ("scenarios", "scenario_instances", "releases")):
        return True  # helm-summarize's tables; the downloaded datasets HELM ran on, and release summaries
    return src.name in _SUMMARY_HEADS and _SUMMARY_HEADS[src.name] in src.text_head(4096)


def skip_helm_summaries(srcs: list[Source]) -> list[Source]:
    """Leave out what ``helm-summarize`` wrote beside a suite's run folders (see the module docstring), saying so.

    Raises
    ------
    InputError
        The summaries are all there is: aggregates, no per-instance outcome (the run folders hold them).
    """
    suites = {s.path.parent for s in srcs if s.is_dir and s.path is not None and "per_instance_stats.json" in s.members}
    outputs = {p.parent.parent for p in suites if p.parent.name == "runs"}  # benchmark_output/ loaded whole
    side = [s for s in srcs if _summary(s, suites, outputs)]
    return leave_out(srcs, side, f"HELM: {len(side):,} file{'s' * (len(side) > 1)} beside the run folders not read "
                     "(helm-summarize's schema, summary, runs, run_specs, groups: aggregates over instances; "
                     "benchmark_output's scenarios/: the datasets; each run folder's per_instance_stats.json holds the "
                     "outcomes).",
                     "HELM's suite summary (what helm-summarize writes: aggregate scores, no per-instance outcome): "
                     "load the run folders (benchmark_output/runs/<suite>/<run>/, each with per_instance_stats.json), "
                     "or the suite folder that holds them.")


def helm_group(src: Source) -> Source:
    """Complete a single HELM file with its sibling run files when it sits on disk."""
    if src.is_dir or src.path is None:
        return src if src.is_dir else Source(name=src.name, is_dir=True, members={src.name: src})
    folder = src.path.parent
    members = {p.name: Source(name=p.name, path=p) for p in folder.iterdir() if p.name in ("per_instance_stats.json", "scenario_state.json", "run_spec.json")}
    members[src.name] = src
    return Source(name=folder.name, path=folder, is_dir=True, members=members)


def _json(member: Source, run: str):
    return load_json(member, name=f"{run}/{member.name}")


def _task_name(run_name: str) -> str:
    """Run name without its model arguments.

    Examples
    --------
    >>> _task_name("mmlu:subject=philosophy,method=multiple_choice_joint,model=openai_gpt2")
    'mmlu:subject=philosophy,method=multiple_choice_joint'
    >>> _task_name("narrative_qa:model=openai_gpt2")
    'narrative_qa'
    """
    text = re.sub(r"(?<=[:,\-])model(_deployment)?=[^,]*,?", "", run_name)
    return text.rstrip(",:-") or run_name


def _perturbation(obj) -> str | None:
    pert = obj.get("perturbation") if isinstance(obj, dict) else None
    if not pert:
        return None
    return str(pert.get("name", "perturbed") if isinstance(pert, dict) else pert)


def _request_texts(state, source: str) -> dict:
    """Drill-down text per (instance id, train trial, perturbation) from ``scenario_state.json``.

    ``input`` (instance input text), ``target`` (the references tagged ``correct``, as their
    option letters when the run maps options to letters), ``answer`` (the first completion).
    """
    out = {}
    for rs in (state.get("request_states") or []) if isinstance(state, dict) else []:
        if not isinstance(rs, dict) or not isinstance(rs.get("instance"), dict):
            continue
        inst = rs["instance"]
        refs = [r for r in inst.get("references") or [] if isinstance(r, dict)]
        correct = [((r.get("output") or {}).get("text") or "") for r in refs if "correct" in (r.get("tags") or [])]
        letters = {v: k for k, v in (rs.get("output_mapping") or {}).items()} if isinstance(rs.get("output_mapping"), dict) else {}
        target = " | ".join(f"{letters[t]}: {t}" if t in letters else t for t in correct) or None
        completions = ((rs.get("result") or {}).get("completions") or []) if isinstance(rs.get("result"), dict) else []
        answer = completions[0].get("text") if completions and isinstance(completions[0], dict) else None
        texts = {"input": (inst.get("input") or {}).get("text") if isinstance(inst.get("input"), dict) else None,
                 "target": target, "answer": answer}
        key = (str(inst.get("id")), rs.get("train_trial_index", 0), _perturbation(inst))
        out[key] = {k: clip(v, source) for k, v in texts.items() if isinstance(v, str) and v != ""}
    return out


def read_helm(src: Source, mapping) -> Part:
    """Read one HELM run (folder, or its files uploaded together).

    Raises
    ------
    InputError
        No ``per_instance_stats.json``, truncated JSON, an entry without ``instance_id``,
        or an outcome stat missing from an instance.
    """
    run = src.name
    members = src.members
    if "per_instance_stats.json" not in members:
        raise InputError("a HELM run needs per_instance_stats.json (correctness lives there); load the run folder or upload it with scenario_state.json.", source=run)
    if mapping and set(mapping) - {"is_correct"}:
        raise InputError("for HELM runs only --map is_correct=<stat name> applies.", source=run)
    stats = _json(members["per_instance_stats.json"], run)
    state = _json(members["scenario_state.json"], run) if "scenario_state.json" in members else {}
    spec = _json(members["run_spec.json"], run) if "run_spec.json" in members else {}
    if not isinstance(stats, list) or not stats:
        raise InputError("per_instance_stats.json must be a non-empty list of instances.", source=f"{run}/per_instance_stats.json")
    adapter = (state.get("adapter_spec") if isinstance(state, dict) else None) or spec.get("adapter_spec") or {}
    defaults, notes = [], []
    model = adapter.get("model")
    if not model:
        m = re.search(r"model=([^,]+)", run)
        model = m.group(1) if m else run
        defaults.append(f"{run}: no scenario_state.json/run_spec.json; model '{model}' taken from the folder name.")
    name = spec.get("name") or run
    task = _task_name(name)
    if not spec.get("name"):
        defaults.append(f"{run}: no run_spec.json; task '{task}' taken from the folder name.")
    outcome = (mapping or {}).get("is_correct", "exact_match")
    texts = _request_texts(state, f"{run}/scenario_state.json")
    rows = []
    for i, inst in enumerate(stats):
        where = {"source": f"{run}/per_instance_stats.json", "row": i + 1}
        if not isinstance(inst, dict) or "instance_id" not in inst:
            raise InputError("entry has no 'instance_id'.", field="instance_id", **where)
        pert = inst.get("perturbation")
        split = next((st.get("name", {}).get("split") for st in inst.get("stats") or [] if isinstance(st, dict)), None)
        labels = [str(split)] if split and split != "test" else []
        if pert:
            labels.append(str(pert.get("name", "perturbed") if isinstance(pert, dict) else pert))
        row = {
            "model": model,
            "task": f"{task} [{', '.join(labels)}]" if labels else task,
            "question_id": str(inst["instance_id"]),
            "trial": inst.get("train_trial_index", 0),
            "max_tokens": adapter.get("max_tokens"),
        }
        finish = None
        for st in inst.get("stats") or []:
            nm = st.get("name") or {}
            key = nm.get("name")
            if key is None:
                continue
            row.setdefault("split", nm.get("split"))
            value = st.get("mean") if st.get("count") else None
            if key.startswith("finish_reason_"):
                if value == 1:
                    finish = key.removeprefix("finish_reason_")
                continue
            row[_RENAME.get(key, key)] = value
        if outcome not in row:
            raise InputError(f"instance {inst['instance_id']} has no '{outcome}' stat; pass --map is_correct=<stat> (e.g. quasi_exact_match).", field="is_correct", **where)
        row["finish_reason"] = finish
        row["is_correct"] = row.pop(outcome)
        row.update(texts.get((str(inst["instance_id"]), row["trial"], _perturbation(inst)), {}))
        rows.append(row)
    n_requests = len(state.get("request_states") or []) if isinstance(state, dict) else 0
    if n_requests and n_requests != len(rows):
        notes.append(f"{run}: scenario_state.json has {n_requests} request states for {len(rows)} instance entries.")
    frame = pd.DataFrame.from_records(rows)
    frame = frame.drop(columns=[c for c in frame.columns if c not in ("model", "task", "question_id", "trial", "is_correct") and frame[c].isna().all()])
    ident = {k: k for k in ("model", "task", "question_id", "trial", "is_correct")}
    guess = infer_mapping(frame.columns, ident, source=run)
    part = canonicalize(frame, guess, source=run, fmt="helm", locate=lambda i: {"row": i + 1, "context": f"per_instance_stats.json entry {i + 1}: "}, stem=run, notes=notes)
    part.mapping.update({"model": "adapter_spec.model", "task": "run_spec.name", "question_id": "instance_id", "trial": "train_trial_index", "is_correct": outcome})
    part.defaults.extend(defaults)
    return part
