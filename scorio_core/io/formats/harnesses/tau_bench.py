"""tau-bench (the first version) results: ``<log_dir>/<strategy>-<model>-<temperature>_range_<start>-<end>_user-
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
from scorio_core.io.formats.path_names import fixed_fields, folder_names

__all__ = ["FORMAT", "is_tau_bench", "read_tau_bench"]

FORMAT = "tau-bench"
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
    records = load_json(src)
    if not isinstance(records, list) or not records or not all(isinstance(r, dict) for r in records):
        raise InputError("expected tau-bench results: a JSON array of records (task_id, reward, info, traj, trial), "
                         "as tau_bench/run.py writes them.", source=src.name)
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
    part = canonicalize(frame, guess, source=src.name, fmt=FORMAT, stem=src.stem, path_names=named_by,
                        locate=lambda i: {"context": f"record {i + 1} (task {records[i]['task_id']}, trial "
                                                     f"{records[i]['trial']}): "})
    part.mapping.update({"model": "<file name: the model>" if named else "<file stem>", "question_id": "task_id",
                         "trial": "trial", "is_correct": "reward == 1" + " (errors missing)" * errors_missing})
    if not named_by:
        part.mapping["task"] = f"<tau-bench-{domain}: the tasks' actions>" if domain else "<tau-bench>"
    part.notes.extend(_notes(src.name, named, domain, errored, errors_missing, bool(named_by)))
    return part


def _notes(name: str, named: bool, domain: str | None, errored: np.ndarray, errors_missing: bool,
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
