"""The active rubric of the session: one place every page gets it from.

The rubric the user picked or edited lives in ``st.session_state`` (a
:class:`RubricWorkspace`): the last valid schema, the editor tables as typed (even when
they do not parse), the error of the last edit, frozen thresholds and the prior R0 choice.
Page switches, reruns and bad input never lose it: a bad edit keeps the last valid schema
in force and shows the error.

:func:`active_rubric` turns the workspace into what computations need for the current data
and task: the :class:`scorio_core.leaderboard.table.Categorization` (None = binary correctness), a
cache key (``rubric_id``), the thresholds and coverage, and the prior counts. Pages pass
``rubric_id``/``categorization`` (and ``prior_id``/``prior``) to :mod:`dashboard.compute.results`.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st

from dashboard.state import session as state
from dashboard.data.datasets import load_key
from dashboard.tables.rubric_rows import rows_to_schema, schema_to_rows
from scorio_core import rubric
from scorio_core.rubric import rerank
from scorio_core.leaderboard.graded import offered_score_values, resolve_data_schema, score_values_spec
from scorio_core.leaderboard.table import ALL_TASKS, Categorization
from scorio_core.errors import InputError
from scorio_core.rubric import DEFAULT_SCHEMA, Schema

__all__ = [
    "RubricWorkspace",
    "RubricError",
    "ActiveRubric",
    "workspace",
    "use_schema",
    "adopt_data_default",
    "commit_rows",
    "set_frozen",
    "set_prior",
    "active_rubric",
    "scoped_categorization",
    "signal_table",
]

_KEY = "_rubric_workspace"
EDITED_SUFFIX = " (edited)"


@dataclass(frozen=True)
class RubricError:
    """Why the typed rubric is not in force: message, and where in which condition."""

    message: str
    expression: str | None = None
    position: int | None = None

    @classmethod
    def from_exception(cls, exc: Exception) -> RubricError:
        return cls(str(exc), getattr(exc, "expression", None), getattr(exc, "position", None))


@dataclass
class RubricWorkspace:
    """Session-lived rubric state (mutable; only this module changes it)."""

    schema: Schema
    base: str
    rows: dict
    current: dict
    version: int = 0
    error: RubricError | None = None
    frozen: dict | None = None
    prior: dict = field(default_factory=lambda: {"kind": "none"})
    upload_digest: str | None = None
    unmatched: str = "exclude"
    default_for: str | None = None  # the data id :func:`adopt_data_default` last looked at


def workspace() -> RubricWorkspace:
    """The session's rubric workspace (created with the default binary schema)."""
    ws = st.session_state.get(_KEY)
    if ws is None:
        schema = rubric.get_schema(DEFAULT_SCHEMA)
        rows = schema_to_rows(schema)
        ws = RubricWorkspace(schema=schema, base=DEFAULT_SCHEMA, rows=rows, current={k: v.copy() for k, v in rows.items()})
        st.session_state[_KEY] = ws
    return ws


def use_schema(schema: Schema, base: str | None = None, frozen: dict | None = None) -> None:
    """Make ``schema`` the rubric: reset the editor tables to it (built-in pick, upload, restore)."""
    ws = workspace()
    rows = schema_to_rows(schema)
    ws.schema, ws.base = schema, base or schema.name
    ws.rows, ws.current = rows, {k: v.copy() for k, v in rows.items()}
    ws.version += 1
    ws.error = None
    ws.frozen = dict(frozen) if frozen else None


def _is_codes_default(schema: Schema) -> bool:
    return schema.name == rubric.CATEGORY_CODES_SCHEMA


def adopt_data_default(data_id: str, dataset) -> None:
    """Make the default rubric follow the data: category codes without is_correct get the category-code rubric.

    Only a rubric the user did not choose changes: binary correctness becomes
    :func:`scorio_core.rubric.category_code_schema` of the data's codes, and that default (unedited) goes back
    to binary correctness, or to the new data's codes, when other data is opened. The rubric of score values
    (:func:`dashboard.state.graded.use_score_values`, unedited) is rebuilt from the new data's scores, or goes back to
    binary correctness where no score gives partial credit. Checked once per data id.
    """
    ws = workspace()
    if ws.default_for == data_id:
        return
    ws.default_for = data_id
    if spec := score_values_spec(ws.schema):  # built from the scores: rebuilt from these data's, where they give credit
        try:
            values = resolve_data_schema(spec, dataset) if offered_score_values(dataset.attempts) else None
        except InputError:
            values = None
        values = values or rubric.get_schema(DEFAULT_SCHEMA)
        if values != ws.schema:
            use_schema(values)
        return
    codes = rubric.default_schema_for(dataset)
    untouched = (_is_default(ws.schema) and not ws.frozen) or _is_codes_default(ws.schema)
    if untouched and codes is not None and codes != ws.schema:
        use_schema(codes)
    elif codes is None and _is_codes_default(ws.schema):
        use_schema(rubric.get_schema(DEFAULT_SCHEMA))


def commit_rows(current: dict, table: rubric.SignalTable | None) -> None:
    """Keep the typed tables; adopt them as the rubric when they build a schema that runs on the data.

    On failure the last valid schema stays in force and :attr:`RubricWorkspace.error` says why.
    """
    ws = workspace()
    ws.current = {k: v.copy() for k, v in current.items()}
    name = ws.schema.name if ws.schema.name.endswith(EDITED_SUFFIX) else ws.schema.name + EDITED_SUFFIX
    try:
        schema = rows_to_schema(ws.current, name=name, description=ws.schema.description, source="edited in scorio-dashboard")
        if schema.categories == ws.schema.categories and schema.variables == ws.schema.variables \
                and schema.thresholds == ws.schema.thresholds:
            ws.error = None
            return
        if table is not None:
            rubric.bind(table, schema)  # unknown names / type errors for this data
    except InputError as exc:
        ws.error = RubricError.from_exception(exc)
        return
    ws.schema, ws.error = schema, None


def set_frozen(values: dict | None) -> None:
    """Freeze thresholds at ``values`` (None: compute them from the data again)."""
    workspace().frozen = None if values is None else dict(values)


def set_unmatched(policy: str) -> None:
    """What attempts in no rubric category count as: ``"exclude"`` or a category label."""
    workspace().unmatched = str(policy)


def set_prior(kind: str, key: str | None = None) -> None:
    """Choose the prior R0: ``none``, ``dataset`` (another dataset's key) or ``model`` (a model's name)."""
    workspace().prior = {"kind": kind, "key": key}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _frozen_key(frozen: dict | None) -> str:
    if not frozen:
        return "computed"
    return json.dumps({k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in sorted(frozen.items())})


@st.cache_resource(show_spinner=False, max_entries=8)
def signal_table(data_id: str, _dataset, scope: str) -> rubric.SignalTable:
    """Signals of the attempts in scope (a task, or all tasks), converted once per data."""
    return rerank.signal_table(_dataset, scope)


@st.cache_data(show_spinner=False, max_entries=16)
def available_signals(data_id: str, _dataset, scope: str) -> pd.DataFrame:
    """Every signal a rubric condition can use on this data: the one list the Rubric and Sensitivity pages show.

    Columns ``signal``, ``kind`` ("number": numeric and boolean columns, "text"), ``missing``,
    ``used_by`` (built-in schemata whose conditions read it) and ``description``; from
    :func:`scorio_core.rubric.list_signals` of the signal table (derived signals included).
    """
    table = signal_table(data_id, _dataset, scope)
    users: dict[str, list[str]] = {}
    for name, schema in rubric.BUILTIN_SCHEMAS.items():
        for signal in schema.signals:
            users.setdefault(signal, []).append(name)
    rows = [(s.name, s.kind, s.n_missing, ", ".join(users.get(s.name, [])), s.description)
            for s in rubric.list_signals(table.frame)]
    return pd.DataFrame(rows, columns=["signal", "kind", "missing", "used_by", "description"])


@st.cache_resource(show_spinner="Applying the rubric...", max_entries=32)
def _scoped(data_id: str, _dataset, scope: str, schema_key: str, _schema: Schema, frozen_key: str, _frozen):
    table = signal_table(data_id, _dataset, scope)
    return rerank.categorize_scope(_dataset, scope, _schema, _frozen, table=table)


def scoped_categorization(data_id: str, dataset, scope: str) -> rerank.ScopedCategorization:
    """The rubric in force (last valid schema, frozen thresholds) applied to ``scope`` of the data (cached).

    Raises ``InputError`` where the rubric cannot run on the data."""
    ws = workspace()
    return _scoped(data_id, dataset, scope, _digest(rubric.schema_to_json(ws.schema)), ws.schema,
                   _frozen_key(ws.frozen), ws.frozen)


@st.cache_resource(show_spinner="Mapping the prior through the rubric...", max_entries=16)
def _prior_counts(source_id: str, _dataset, task: str | None, model: str | None, rubric_key: str, _schema: Schema,
                  _thresholds: dict, binary: bool) -> rerank.PriorCounts:
    """Prior counts per question: the dataset (or one model of it, one task) through the rubric."""
    if _dataset.attempts is None:
        if not binary:
            raise InputError("this prior has counts only; a counts-only prior works with binary correctness only.")
        table = _dataset.counts if model is None else _dataset.counts[(_dataset.counts["model"] == model).to_numpy()]
        return rerank.prior_from_counts(table)
    attempts = _dataset.attempts
    keep = np.ones(len(attempts), dtype=bool)
    if model is not None:
        keep &= (attempts["model"] == model).to_numpy()
    if task is not None:
        keep &= (attempts["task"] == task).to_numpy()
    attempts = attempts.loc[keep].reset_index(drop=True)
    result = rubric.categorize(attempts, _schema, _thresholds or None)
    return rerank.prior_question_counts(attempts, result.codes, len(result.labels))


@dataclass(frozen=True)
class ActiveRubric:
    """The rubric in force for one (data, task), ready for computations.

    Attributes
    ----------
    schema : Schema
        The rubric the user chose (last valid).
    rubric_id : str
        Cache key of the categorization ("binary" for binary correctness).
    categorization : scorio_core.leaderboard.table.Categorization or None
        None means binary correctness (the default schema, count data, or a fallback).
    scoped : scorio_core.rubric.rerank.ScopedCategorization or None
        Thresholds, coverage and per-attempt codes over the scope.
    status : {"binary", "rubric", "counts-only", "not-applicable"}
    message : str
        Why the rubric is not applied (counts-only / not-applicable), or the weights the category-code default
        assumed (data with category codes and no is_correct), else "".
    prior : scorio_core.rubric.rerank.PriorCounts or None
    prior_id : str
    prior_label : str
    prior_error : str
    unmatched : str
        What attempts in no category count as: ``"exclude"`` or a category label.
    """

    schema: Schema
    rubric_id: str
    categorization: Categorization | None
    scoped: rerank.ScopedCategorization | None
    status: str
    message: str = ""
    prior: rerank.PriorCounts | None = None
    prior_id: str = "none"
    prior_label: str = "uniform Dirichlet prior (no R0)"
    prior_error: str = ""
    unmatched: str = "exclude"

    @property
    def n_unmatched(self) -> int:
        """Attempts of the scope that matched no rubric category (whatever they now count as)."""
        return 0 if self.scoped is None else int((self.scoped.result.codes < 0).sum())

    @property
    def name(self) -> str:
        return self.schema.name if self.status == "rubric" else "Binary correctness"

    @property
    def thresholds(self) -> dict:
        return dict(self.scoped.result.thresholds) if self.scoped is not None else {}

    @property
    def weights(self) -> np.ndarray:
        return self.categorization.weights if self.categorization is not None else np.array([0.0, 1.0])

    @property
    def labels(self) -> tuple[str, ...]:
        return self.categorization.labels if self.categorization is not None else ("wrong", "correct")

    @property
    def summary(self) -> str:
        """One line for captions: rubric, categories and prior."""
        text = f"{self.name} ({len(self.labels)} categories, w = {', '.join(f'{w:g}' for w in self.weights)})"
        if self.n_unmatched:
            fate = "excluded" if self.unmatched == rerank.UNMATCHED_EXCLUDE else f"counted as '{self.unmatched}'"
            text += f"; {self.n_unmatched:,} attempts in no category, {fate}"
        if self.prior is not None:
            text += f"; prior R0: {self.prior_label}"
        return text


def _is_default(schema: Schema) -> bool:
    return schema == rubric.get_schema(DEFAULT_SCHEMA)


def active_rubric(ctx) -> ActiveRubric:
    """The rubric in force for the page context's data and task (cached per data, task, rubric)."""
    ws = workspace()
    dataset = ctx.data.dataset
    scope = ctx.task if ctx.task != ALL_TASKS else ALL_TASKS
    binary = _is_default(ws.schema) and not ws.frozen
    if dataset.attempts is None:
        status = "binary" if binary else "counts-only"
        message = "" if binary else (
            "This dataset has counts only (n_trials, n_correct per question), so rubrics that need "
            "attempt-level signals cannot apply: results use binary correctness.")
        active = ActiveRubric(ws.schema, "binary", None, None, status, message)
    elif binary:
        active = ActiveRubric(ws.schema, "binary", None, None, "binary")
    else:
        schema_key = _digest(rubric.schema_to_json(ws.schema))
        frozen_key = _frozen_key(ws.frozen)
        try:
            scoped = _scoped(ctx.data.data_id, dataset, scope, schema_key, ws.schema, frozen_key, ws.frozen)
        except InputError as exc:
            return ActiveRubric(ws.schema, "binary", None, None, "not-applicable",
                                f"The rubric '{ws.schema.name}' cannot run on this data: {exc} Results use binary correctness.")
        policy = ws.unmatched if ws.unmatched in scoped.result.labels else rerank.UNMATCHED_EXCLUDE
        categorization = rerank.apply_unmatched(scoped.categorization, scoped.mask, policy)
        rubric_id = f"{schema_key}|{_digest(frozen_key)}|{scope}"
        if policy != rerank.UNMATCHED_EXCLUDE:
            rubric_id += f"|unmatched={_digest(policy)}"
        message = "" if not _is_codes_default(ws.schema) else (
            "The data has category codes and no is_correct, so the rubric is 'Category codes': one category per code, "
            + rubric.code_weights_text(ws.schema) + ". Edit the weights on the Rubric page.")
        active = ActiveRubric(ws.schema, rubric_id, categorization, scoped, "rubric", message, unmatched=policy)
    return _with_prior(ctx, ws, active, scope)


def _with_prior(ctx, ws: RubricWorkspace, active: ActiveRubric, scope: str) -> ActiveRubric:
    kind, key = ws.prior.get("kind", "none"), ws.prior.get("key")
    if kind == "none" or not key:
        return active
    schema = active.scoped.result.schema if active.scoped is not None else rubric.get_schema(DEFAULT_SCHEMA)
    thresholds = active.thresholds
    rubric_key = f"{active.rubric_id}|{_digest(_frozen_key(thresholds))}"
    try:
        if kind == "dataset":
            source_id, dataset = load_key(key)
            model = None
            label = f"dataset '{state.dataset_label(key).removeprefix('Uploaded: ')}'"
        else:
            source_id, dataset = ctx.data.data_id, ctx.data.dataset
            table = dataset.attempts if dataset.attempts is not None else dataset.counts
            if key not in set(table["model"].astype(str)):
                raise InputError(f"model {key!r} is not in this dataset.")
            model = key
            label = f"model '{key}' (its own attempts included)"
        task = scope if kind == "model" and scope != ALL_TASKS else None
        prior = _prior_counts(source_id, dataset, task, model, rubric_key, schema, thresholds, active.categorization is None)
    except (InputError, KeyError) as exc:
        return _replace(active, prior_error=f"Prior R0 not applied: {exc}")
    if prior.counts.shape[1] != len(active.labels):
        return _replace(active, prior_error="Prior R0 not applied: it has a different number of categories.")
    per_question = prior.counts.sum(axis=1)
    label += f", D = {int(np.median(per_question)) if per_question.size else 0} prior trials per question"
    return _replace(active, prior=prior, prior_id=f"{kind}:{key}|{source_id}|{rubric_key}", prior_label=label)


def _replace(active: ActiveRubric, **changes) -> ActiveRubric:
    from dataclasses import replace

    return replace(active, **changes)

