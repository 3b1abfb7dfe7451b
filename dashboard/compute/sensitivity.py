"""Cached calls of the Sensitivity page: schemata that apply, ranks across schemata, perturbation.

Keyed by ``data_id``, the task and each schema (its name for built-ins, a digest of its
JSON for edited ones) plus the settings. The signal table comes from
:func:`dashboard.state.rubric.signal_table` (converted once per data and scope).
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import streamlit as st

from dashboard.compute.store import fetch, stored
from dashboard.compute.background import run_jobs
from dashboard.state import rubric as rubric_state
from dashboard.state.rubric import signal_table
from scorio_core import rubric
from scorio_core.leaderboard.graded import score_values_spec, threshold_schema
from scorio_core.sensitivity import PerturbationResult, SchemaRanks, applicable_schemas, perturb_rubric, schema_ranks

__all__ = [
    "schema_options",
    "schema_applicability",
    "default_comparison",
    "default_perturbation",
    "follow_active_rubric",
    "rubric_choice_matters",
    "ranks_across_schemata",
    "perturbation",
]


def _schema_key(schema: rubric.Schema) -> str:
    if rubric.BUILTIN_SCHEMAS.get(schema.name) == schema:
        return schema.name
    return "custom:" + hashlib.sha256(rubric.schema_to_json(schema).encode()).hexdigest()[:16]


def schema_options(active, attempts=None) -> dict[str, rubric.Schema]:
    """Schemata the Sensitivity page offers: the active rubric (if edited or custom), then the built-ins.

    Under the rubric of the data's score values (partial credit), its binarized reading (correct when score > 0.5,
    :func:`scorio_core.leaderboard.graded.threshold_schema`) comes second: what a threshold would rank instead."""
    options: dict[str, rubric.Schema] = {}
    if active.status == "rubric" and rubric.BUILTIN_SCHEMAS.get(active.schema.name) != active.schema:
        options[f"Active rubric: {active.schema.name}"] = active.schema
    if active.status == "rubric" and attempts is not None and score_values_spec(active.schema):
        binarized = threshold_schema(attempts, 0.5)
        options[binarized.name] = binarized
    options.update(rubric.BUILTIN_SCHEMAS)
    return options


def _is_paper(schema: rubric.Schema) -> bool:
    return schema.source.startswith("Hariri")


def _active_label(active, options: dict[str, rubric.Schema]) -> str | None:
    """The option label of the rubric in force (None for binary correctness or no rubric)."""
    if active.status != "rubric":
        return None
    return next((label for label, schema in options.items() if schema == active.schema), None)


def default_comparison(names: list[str], options: dict[str, rubric.Schema], active) -> list[str]:
    """Default schemata of the bump chart: the active rubric, binary correctness and the paper's Table 5."""
    current = _active_label(active, options)
    if current in names and score_values_spec(active.schema):  # partial credit against its threshold reading
        return [n for n in names if n == current or options[n].source.startswith("a threshold on the data's")]
    # (a task without scores, e.g. the 0/1 task beside a graded one, does not support those two: the usual default)
    return [n for n in names if n == current or n == rubric.DEFAULT_SCHEMA or _is_paper(options[n])]


def default_perturbation(names: list[str], options: dict[str, rubric.Schema], active) -> str:
    """Default schema to perturb: the active rubric, else the first with percentile thresholds and several weights."""
    current = _active_label(active, options)
    if current in names:
        return current
    for n in names:
        schema = options[n]
        if any(t.kind == "percentile" for t in schema.thresholds) and np.count_nonzero(schema.weights) > 1:
            return n
    return names[0]


def follow_active_rubric(active, names: list[str], options: dict[str, rubric.Schema]) -> None:
    """When the rubric in force changed since the last run, perturb it and add it to the comparison."""
    current = _active_label(active, options)
    if st.session_state.get("_sens_active") == current:
        return
    st.session_state["_sens_active"] = current
    if current in names:
        st.session_state["sens_target"] = current
        picked = st.session_state.get("sens_schemas")
        if picked is not None and current not in picked:
            st.session_state["sens_schemas"] = [*picked, current]


def rubric_choice_matters(names: list[str], options: dict[str, rubric.Schema]) -> bool:
    """False when the only applicable schema is a two-category rubric without thresholds (binary correctness)."""
    if len(names) != 1:
        return len(names) > 1
    schema = options[names[0]]
    return len(schema.categories) > 2 or bool(schema.thresholds)


def unused_signals(signals, names: list[str], options: dict[str, rubric.Schema]) -> list[str]:
    """Numeric or boolean signals of the data that no applicable schema reads (besides is_correct).

    ``signals`` is :func:`dashboard.state.rubric.available_signals`; these are what a user
    rubric could add to the comparison.
    """
    read = {name for label in names for name in options[label].signals} | {"is_correct"}
    numbers = signals.loc[signals["kind"] == "number", "signal"]
    return [str(s) for s in numbers if s not in read]


@st.cache_data(show_spinner=False, max_entries=32)
def _applicability(data_id: str, task: str, keys: tuple[str, ...], _table, _schemas):
    applicable, skipped = applicable_schemas(_table, list(_schemas))
    return [s.name for s in applicable], skipped


def schema_applicability(ctx, options: dict[str, rubric.Schema]) -> tuple[list[str], list]:
    """Option labels whose signals the data has, and the skipped schemata with the missing signals."""
    schemas = list(options.values())
    names, skipped = _applicability(ctx.data.data_id, ctx.task, tuple(_schema_key(s) for s in schemas),
                                    _signal_table(ctx), tuple(schemas))
    ok = set(names)
    return [label for label, s in options.items() if s.name in ok], skipped


def _signal_table(ctx):
    return signal_table(ctx.data.data_id, ctx.data.dataset, ctx.task)


@st.cache_data(show_spinner="Ranking every model under each schema...", max_entries=32)
def _ranks_across(data_id: str, task: str, keys: tuple[str, ...], _table, _schemas, confidence: float, prior: str, scope: str,
                  tie_rule: str) -> SchemaRanks:
    return schema_ranks(_table, list(_schemas), confidence=confidence, tie_rule=tie_rule, prior=prior, scope=scope)


def ranks_across_schemata(ctx, schemas: list[rubric.Schema], *, tie_rule: str = "pairwise") -> SchemaRanks:
    """Bayes@N ranks of every model under each schema (:func:`scorio_core.sensitivity.schema_ranks`)."""
    keys = tuple(_schema_key(s) for s in schemas)
    return _ranks_across(ctx.data.data_id, ctx.task, keys, _signal_table(ctx), tuple(schemas), ctx.confidence, ctx.prior,
                         ctx.scope, tie_rule)


def frozen_thresholds(active, schema: rubric.Schema) -> dict | None:
    """The thresholds the user froze on the Rubric page, when ``schema`` is the rubric in force."""
    if active.status != "rubric" or schema != active.schema:
        return None
    return rubric_state.workspace().frozen


def perturbation(ctx, schema: rubric.Schema, *, n: int, weight_range: float, threshold_shift: float, seed: int,
                 frozen: dict | None = None, on_progress=None) -> PerturbationResult:
    """Rank stability under ``n`` perturbed versions of ``schema`` (cached; progress; cancellable).

    ``frozen`` thresholds (see :func:`frozen_thresholds`) keep their values and are not perturbed.
    """
    frozen_key = json.dumps(frozen, sort_keys=True, default=str) if frozen else "computed"
    key = (f"perturb|{ctx.data.data_id}|{ctx.task}|{_schema_key(schema)}|{n}|{weight_range}|{threshold_shift}|{seed}"
           f"|{frozen_key}|{ctx.prior}")
    cached = fetch(key)
    if cached is not None:
        return cached
    table = _signal_table(ctx)
    (result,) = run_jobs([
        lambda progress: perturb_rubric(table, schema, n=n, weight_range=weight_range, threshold_shift=threshold_shift,
                                        seed=seed, thresholds=frozen, progress=progress, prior=ctx.prior)
    ], on_progress)
    return stored(key, _result=result)
