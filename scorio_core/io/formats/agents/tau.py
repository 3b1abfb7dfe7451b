"""tau-bench results, both versions: tau2-bench's ``results.json`` (:func:`read_tau2`) and the first version's
result files (:func:`read_tau_bench`).

**tau2-bench.** tau2-bench results (``tau2 run ... --save-to results.json``): one attempt per simulation.

Source: sierra-research/tau2-bench ``src/tau2/data_model/simulation.py`` (``Results``: ``info``, ``tasks``,
``simulations``; ``SimulationRun``; ``TerminationReason`` and ``NON_EVALUABLE_TERMINATION_REASONS``) and
``src/tau2/environment/environment.py`` (``EnvironmentInfo.domain_name``). A results file is one run of one agent on
one domain::

    {"timestamp": ..., "info": {"git_commit": ..., "num_trials": 4, "max_steps": ..., "user_info": {...},
     "agent_info": {"implementation": "llm_agent", "llm": "gpt-4.1"}, "environment_info": {"domain_name": "airline"}},
     "tasks": [...], "simulations": [{"task_id": "0", "trial": 0, "termination_reason": "user_stop",
     "reward_info": {"reward": 1.0, ...}, "agent_cost": 0.02, "duration": 41.3, ...}, ...]}

The "dir" storage keeps the same ``results.json`` without its simulations and with a ``simulation_index`` (task id,
trial, reward, termination reason, cost, duration per simulation), the simulations in ``simulations/<id>.json``
beside it: the index is read, and those files are left out of a folder's data (:func:`skip_simulation_files`).

- the model is the agent's LLM (``info.agent_info.llm``), with the agent implementation when it is not the default
  ``llm_agent`` (``gpt-4.1 (llm_agent_solo)``); the task ``tau2-<domain>`` (``tau2-airline``: not tau-bench's first
  version's tasks); the question the task id; the trial the simulation's ``trial``;
- the outcome is 1 when the reward is 1 (within 1e-6, as tau2's pass^k counts success; the kept ``score`` is the
  reward with that tolerance applied), else 0: a partial reward counts 0, which the partial-score note says;
  ``agent_cost`` and ``duration`` as cost and latency, the termination reason as the text ``tau2_termination``;
- simulations that ended in ``infrastructure_error`` or ``context_window_exceeded`` (tau2 leaves them out of its
  metrics: no evaluable rollout) and simulations without a reward have a missing outcome, said with their numbers;
  ``--missing-outcomes drop`` leaves them out as tau2 does, ``incorrect`` counts them as failures.

**tau-bench (the first version).** tau-bench (the first version) results: ``<log_dir>/<strategy>-<model>-<temperature>_range_<start>-<end>_user-
<user model>-<user strategy>_<time>.json``, one record per simulation.

Source: sierra-research/tau-bench ``tau_bench/run.py`` (the checkpoint path, ``EnvRunResult``, ``display_metrics``):
a file is a JSON array of ``{"task_id": 3, "reward": 1.0, "info": {...}, "traj": [...], "trial": 0}``, one run of one
agent on one domain; a simulation that raised is written with reward 0 and ``info.error``.

- the model is the one the file name holds (``gpt-4o`` of ``tool-calling-gpt-4o-0.0_range_0--1_user-gpt-4o-llm_
  1210123456``), with the agent strategy when it is not ``tool-calling`` (``gpt-4o (react)``); a file name of another
  shape stands for the model whole, said;
- the task is ``tau-bench-airline`` or ``tau-bench-retail``, told by the tools the tasks' reference actions call
  (reservations and flights, or orders and products: the file does not name its domain), else ``tau-bench``, said;
- the question is the task id, the trial the record's ``trial``; the outcome 1 when the reward is 1 (within 1e-6, as
  tau-bench's pass^k counts success), else 0, the reward kept as ``score``;
- a simulation that raised (``info.error``) counts 0 as tau-bench counts it, said; ``--errors-as-missing`` reads it
  as missing instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part, canonicalize
from scorio_core.io._schema import infer_mapping
from scorio_core.io._sources import Source, load_json
from scorio_core.io.formats.harness_files import json_array
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "NON_EVALUABLE", "TAU_BENCH_FORMAT", "is_tau2", "is_tau_bench", "model_of", "read_tau2", "read_tau_bench",
           "skip_simulation_files"]

FORMAT = "tau2"
#: Termination reasons tau2 leaves out of its metrics (``NON_EVALUABLE_TERMINATION_REASONS``).
NON_EVALUABLE = ("infrastructure_error", "context_window_exceeded")
_DEFAULT_AGENT = "llm_agent"


def is_tau2(keys) -> bool:
    """Whether a JSON object whose head has these keys is a tau2-bench results file (its ``info`` block's fields).

    >>> is_tau2({"timestamp", "info", "git_commit", "num_trials", "max_steps", "user_info"}), is_tau2({"info", "results"})
    (True, False)
    """
    return {"git_commit", "num_trials", "max_steps", "user_info"} <= set(keys)


def skip_simulation_files(srcs: list[Source]) -> list[Source]:
    """Leave out the ``simulations/<id>.json`` files beside a ``results.json`` (tau2's "dir" storage: the results
    file's index holds their outcomes), saying how many in a note on the results file."""
    results = {s.path.parent: s for s in srcs if s.path is not None and not s.is_dir and s.name == "results.json"}
    if not results:
        return srcs
    skipped = [s for s in srcs if s.path is not None and not s.is_dir and s.path.parent.name == "simulations"
               and s.path.parent.parent in results]
    if not skipped:
        return srcs
    gone = {id(s) for s in skipped}
    first = results[skipped[0].path.parent.parent]
    first.notes.append(f"{len(skipped):,} tau2 simulation file{'s' * (len(skipped) > 1)} in simulations/ beside "
                       "results.json not read on their own: the results file's simulation index holds their outcomes.")
    return [s for s in srcs if id(s) not in gone]


def _model(info: dict) -> str:
    agent = info.get("agent_info") if isinstance(info.get("agent_info"), dict) else {}
    impl = agent.get("implementation")
    llm = agent.get("llm")
    if not llm:
        return str(impl or "")
    return str(llm) + (f" ({impl})" if impl and impl != _DEFAULT_AGENT else "")


def _rows(doc: dict) -> list[dict]:
    """One dict per simulation (task_id, trial, reward, termination, cost, duration), from the simulations or the
    dir storage's index."""
    sims = doc.get("simulations")
    if isinstance(sims, list) and sims:
        return [{"task_id": s.get("task_id"), "trial": s.get("trial"),
                 "reward": (s.get("reward_info") or {}).get("reward") if isinstance(s, dict) else None,
                 "termination": s.get("termination_reason"), "cost": s.get("agent_cost"),
                 "duration": s.get("duration")} if isinstance(s, dict) else {} for s in sims]
    index = doc.get("simulation_index")
    if isinstance(index, list) and index:
        return [{"task_id": e.get("task_id"), "trial": e.get("trial"), "reward": e.get("reward"),
                 "termination": e.get("termination_reason"), "cost": e.get("agent_cost"),
                 "duration": e.get("duration")} if isinstance(e, dict) else {} for e in index]
    return []


def _number(value) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else np.nan


def read_tau2(src: Source, mapping: Mapping[str, str] | None = None) -> Part:
    """Read a tau2-bench results file (see the module docstring): one attempt per simulation.

    Parameters
    ----------
    src : Source
        The results file (JSON).
    mapping : dict, optional
        Not applicable: any field given is refused (the file's fields are fixed).

    Returns
    -------
    Part
        Columns model, task, question_id (the task id), trial, is_correct (missing for non-evaluable simulations),
        the signals score (the reward), cost (USD), latency (seconds), and the text ``tau2_termination``.

    Raises
    ------
    InputError
        Not a tau2 results file (no agent or domain), no simulations, a simulation without a task id or an integer
        trial (naming its position), ``--map`` of any field.
    """
    fixed_fields(mapping, src.name, "a tau2-bench results file has fixed fields (agent LLM, domain, task id, trial, "
                 "reward)")
    doc = load_json(src)
    info = doc.get("info") if isinstance(doc, dict) else None
    env = info.get("environment_info") if isinstance(info, dict) else None
    model = _model(info) if isinstance(info, dict) else ""
    domain = env.get("domain_name") if isinstance(env, dict) else None
    if not model or not domain:
        raise InputError("expected a tau2-bench results file: 'info' with 'agent_info' (its llm) and "
                         "'environment_info' (its domain_name), as tau2 run --save-to writes it.", source=src.name,
                         field="info")
    rows = _rows(doc)
    if not rows:
        raise InputError("the tau2 results file holds no simulations (neither 'simulations' nor a "
                         "'simulation_index'); the run may not have started.", source=src.name)
    for i, r in enumerate(rows):
        trial = r.get("trial")
        if r.get("task_id") in (None, "") or not isinstance(trial, int) or isinstance(trial, bool):
            raise InputError(f"simulation {i + 1} needs a task_id and an integer trial, as tau2 writes them (got "
                             f"task_id {r.get('task_id')!r}, trial {trial!r}).", source=src.name, field="trial")
    reward = np.array([_number(r.get("reward")) for r in rows])
    termination = [str(r.get("termination") or "") for r in rows]
    out_of_metrics = np.isin(np.array(termination, dtype=object), NON_EVALUABLE)
    reward[np.abs(reward - 1.0) <= 1e-6] = 1.0  # tau2's tolerance for a success (a product of checks: 0.9999999)
    reward[np.abs(reward) <= 1e-6] = 0.0
    outcome = (reward == 1.0).astype(float)
    outcome[np.isnan(reward) | out_of_metrics] = np.nan
    frame = pd.DataFrame({"model": model, "task": f"tau2-{domain}", "question_id": [str(r["task_id"]) for r in rows],
                          "trial": np.array([r["trial"] for r in rows], np.int64), "is_correct": outcome,
                          "score": reward, "cost": [_number(r.get("cost")) for r in rows],
                          "latency": [_number(r.get("duration")) for r in rows]})
    frame = frame.drop(columns=[c for c in ("score", "cost", "latency") if frame[c].isna().all()])
    frame["tau2_termination"] = pd.Series(termination, dtype="str")
    guess = infer_mapping(frame.columns, {c: c for c in frame.columns if c != "tau2_termination"}, source=src.name)
    part = canonicalize(frame, guess, source=src.name, fmt=FORMAT, stem=src.stem,
                        locate=lambda i: {"context": f"simulation {i + 1} (task {rows[i]['task_id']}, trial "
                                                     f"{rows[i]['trial']}): "})
    part.mapping.update({"model": "info.agent_info.llm" + " (implementation)" * (" (" in model),
                         "task": "tau2-<info.environment_info.domain_name>", "question_id": "task_id",
                         "trial": "trial", "is_correct": "reward_info.reward == 1 (tau2's success; missing: not evaluable)"})
    part.notes.extend(_notes(src.name, reward, termination, out_of_metrics))
    return part


def _notes(name: str, reward: np.ndarray, termination: list[str], out_of_metrics: np.ndarray) -> list[str]:
    out = []
    if n := int(out_of_metrics.sum()):
        kinds = ", ".join(sorted({t for t, o in zip(termination, out_of_metrics) if o}))
        out.append(f"{name}: {n} simulation{'s' * (n > 1)} ended in {kinds}, which tau2 leaves out of its metrics (no "
                   "evaluable rollout): read as missing outcomes; --missing-outcomes drop leaves them out as tau2 "
                   "does, incorrect counts them as failures.")
    if n := int((np.isnan(reward) & ~out_of_metrics).sum()):
        out.append(f"{name}: {n} simulation{'s' * (n > 1)} without a reward (not evaluated): read as missing outcomes.")
    return out


# ---------------------------------------------------------------------------- tau-bench (the first version)
TAU_BENCH_FORMAT = "tau-bench"
_NAME = re.compile(r"^(?P<strategy>tool-calling|act|react|few-shot)-(?P<model>.+)-(?P<temperature>\d+(?:\.\d+)?)"
                   r"_range_-?\d+--?\d+_user-(?P<user>.+)_(?P<time>\d+)$")
_DOMAINS = (("airline", ("reservation", "flight", "airport", "certificate", "baggage")),
            ("retail", ("order", "product", "user_id_by")))


def is_tau_bench(keys) -> bool:
    """Whether a JSON array whose head has these keys holds tau-bench records (``EnvRunResult``).

    >>> is_tau_bench({"task_id", "reward", "info", "traj", "trial", "role"}), is_tau_bench({"task_id", "reward"})
    (True, False)
    """
    return {"task_id", "reward", "info", "traj"} <= set(keys)


def model_of(stem: str) -> tuple[str, bool]:
    """(model label, whether the file name had tau-bench's shape) of a results file's stem.

    >>> model_of("tool-calling-gpt-4o-0.0_range_0--1_user-gpt-4o-llm_1210123456")
    ('gpt-4o', True)
    >>> model_of("react-claude-3-5-sonnet-20240620-0.0_range_0-50_user-gpt-4o-llm_0612073827")
    ('claude-3-5-sonnet-20240620 (react)', True)
    >>> model_of("my_run")
    ('my_run', False)
    """
    m = _NAME.match(stem)
    if not m:
        return stem, False
    strategy = m.group("strategy")
    return m.group("model") + (f" ({strategy})" if strategy != "tool-calling" else ""), True


def _domain(records: list[dict]) -> str | None:
    names = " ".join(str(a.get("name", "")) for r in records for a in
                     (((r.get("info") or {}).get("task") or {}).get("actions") or []) if isinstance(a, dict))
    found = [d for d, words in _DOMAINS if any(w in names for w in words)]
    return found[0] if len(found) == 1 else None


def read_tau_bench(src: Source, mapping: Mapping[str, str] | None = None, errors_missing: bool = False) -> Part:
    """Read a tau-bench results file (see the module docstring): one attempt per record.

    Parameters
    ----------
    src : Source
        The results file (a JSON array).
    mapping : dict, optional
        Only ``task`` may be given (``--map task=@folder`` when folders name the domain); other fields are fixed.
    errors_missing : bool
        Read records with ``info.error`` as missing outcomes instead of failures (``--errors-as-missing``).

    Returns
    -------
    Part
        Columns model, task, question_id (the task id), trial, is_correct, and the signal score (the reward).

    Raises
    ------
    InputError
        Not an array of records with ``task_id``, an integer ``trial`` and a numeric ``reward`` (naming the record),
        ``--map`` of any field but the task.
    """
    levels = fixed_fields(mapping, src.name, "tau-bench results have fixed fields (task_id, trial, reward; the model "
                          "from the file name)", ("task",))
    records = json_array(src, "tau-bench results: a JSON array of records (task_id, reward, info, traj, trial), as "
                         "tau_bench/run.py writes them")
    for i, r in enumerate(records):
        reward, trial = r.get("reward"), r.get("trial")
        if (r.get("task_id") is None or not isinstance(trial, int) or isinstance(trial, bool)
                or not isinstance(reward, (int, float)) or isinstance(reward, bool)):
            raise InputError(f"record {i + 1} needs a task_id, an integer trial and a numeric reward, as tau-bench "
                             f"writes them (got task_id {r.get('task_id')!r}, trial {trial!r}, reward {reward!r}).",
                             source=src.name, field="reward")
    model, named = model_of(src.stem)
    domain = _domain(records)
    reward = np.array([float(r["reward"]) for r in records])
    reward[np.abs(reward - 1.0) <= 1e-6] = 1.0  # tau-bench's tolerance for a success
    errored = np.array([bool((r.get("info") or {}).get("error")) if isinstance(r.get("info"), dict) else False
                        for r in records])
    outcome = (reward == 1.0).astype(float)
    if errors_missing:
        outcome[errored] = np.nan
    frame = pd.DataFrame({"model": model, "task": f"tau-bench-{domain}" if domain else "tau-bench",
                          "question_id": [str(r["task_id"]) for r in records],
                          "trial": np.array([r["trial"] for r in records], np.int64), "is_correct": outcome,
                          "score": reward})
    named_by = folder_names(src.path, levels, src.name) if levels else None
    if named_by:
        frame = frame.drop(columns="task")
    guess = infer_mapping(frame.columns, {c: c for c in frame.columns}, source=src.name)
    part = canonicalize(frame, guess, source=src.name, fmt=TAU_BENCH_FORMAT, stem=src.stem, path_names=named_by,
                        locate=lambda i: {"context": f"record {i + 1} (task {records[i]['task_id']}, trial "
                                                     f"{records[i]['trial']}): "})
    part.mapping.update({"model": "<file name: the model>" if named else "<file stem>", "question_id": "task_id",
                         "trial": "trial", "is_correct": "reward == 1" + " (errors missing)" * errors_missing})
    if not named_by:
        part.mapping["task"] = f"<tau-bench-{domain}: the tasks' actions>" if domain else "<tau-bench>"
    part.notes.extend(_tau_bench_notes(src.name, named, domain, errored, errors_missing, bool(named_by)))
    return part


def _tau_bench_notes(name: str, named: bool, domain: str | None, errored: np.ndarray, errors_missing: bool,
           mapped: bool) -> list[str]:
    out = []
    if not named:
        out.append(f"{name}: the file name is not tau-bench's (<strategy>-<model>-<temperature>_range_..._user-..."
                   "_<time>.json), so it stands for the model whole.")
    if not domain and not mapped:
        out.append(f"{name}: the tasks' actions do not tell the domain (airline or retail): task 'tau-bench'; "
                   "--map task=@folder when a folder names it.")
    if n := int(errored.sum()):
        out.append(f"{name}: {n} simulation{'s' * (n > 1)} raised an error (info.error) " +
                   ("read as missing outcomes (--errors-as-missing)." if errors_missing else
                    "counted as failures (reward 0), as tau-bench counts them; --errors-as-missing reads them as "
                    "missing instead."))
    return out
