"""Export-page helpers: the settings in force, the export files, and restoring a manifest.

The files are built by :mod:`scorio_core.report` (the CLI ``export`` subcommand writes the
same ones); this module gathers the session's settings and the figures for the HTML report.
A manifest is restored in two steps: :func:`restore_plan` checks it against the session's
data (SHA-256 of every file), :func:`apply_restore` queues the settings for the next run.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

import numpy as np
import pandas as pd
import streamlit as st

from dashboard.state import rubric as rubric_state
from dashboard.state import session as state
from dashboard.data.bundled import BUNDLED
from dashboard.compute.results import (RANK_SEED, leaderboard_notes, leaderboard_table, pairwise_matrix, tasks_of, top_lead,
                                       task_outcomes, unequal_question_sets)
from dashboard.data.datasets import raw_for_key
from dashboard.figures import interval_plot, pairwise_heatmap
from dashboard.text import sentence
from scorio_core.store.publish import CONFIDENCE_LEVELS
from scorio_core import rubric
from scorio_core.leaderboard.table import ALL_TASKS
from scorio_core.errors import InputError
from scorio_core.leaderboard.metrics import METRICS
from scorio_core.choices import has_fallback_interval
from scorio_core.uncertainty.priors import not_identified_rule
from scorio_core.report import html as html_report
from scorio_core.report import manifest as mf
from scorio_core.report.reading import dataset_reading
from scorio_core.report import latex, tables
from scorio_core.report.verdict import Verdict, verdict

__all__ = [
    "Settings",
    "current_settings",
    "analysis_table",
    "build_manifest",
    "settings_rows",
    "export_notes",
    "table_export",
    "html_bytes",
    "RestorePlan",
    "restore_plan",
    "apply_restore",
]

#: Leaderboard widget keys (Leaderboard page) and their defaults.
LEADERBOARD_KEYS = {"lb_metric": "bayes", "lb_k": 1, "lb_tau": 0.5, "lb_tie_rule": "pairwise", "lb_question_set": "own"}


class Settings(NamedTuple):
    """The leaderboard settings in force (as last set on the Leaderboard page)."""

    metric: str
    k: int
    tau: float
    tie_rule: str
    confidence: float
    prior: str = "empirical-bayes"
    scope: str = "questions-fixed"
    question_set: str = "own"
    cluster_column: str | None = None

    @property
    def label(self) -> str:
        return METRICS[self.metric].label


def current_settings(ctx) -> Settings:
    """Leaderboard settings from the session (defaults if the Leaderboard page was never opened)."""
    values = {key: st.session_state.get(key, default) for key, default in LEADERBOARD_KEYS.items()}
    metric = values["lb_metric"] if values["lb_metric"] in METRICS else "bayes"
    return Settings(metric, int(values["lb_k"] or 1), float(values["lb_tau"] or 0.5), values["lb_tie_rule"] or "pairwise",
                    float(ctx.confidence), ctx.prior, ctx.scope, values["lb_question_set"] or "own",
                    getattr(ctx, "cluster_column", None))


def analysis_table(ctx, active, settings: Settings) -> pd.DataFrame:
    """The leaderboard being exported (same cache as the Leaderboard page)."""
    return leaderboard_table(
        ctx.data.data_id, ctx.data.dataset, ctx.task, metric=settings.metric, k=settings.k, tau=settings.tau,
        confidence=settings.confidence, tie_rule=settings.tie_rule, rubric_id=active.rubric_id,
        _categorization=active.categorization, prior_id=active.prior_id, _prior=active.prior,
        prior=settings.prior, scope=settings.scope, question_set=settings.question_set,
        cluster_column=settings.cluster_column,
    )


def _prior_doc(ctx, active) -> dict | None:
    ws = rubric_state.workspace()
    kind, key = ws.prior.get("kind", "none"), ws.prior.get("key")
    if active.prior is None or kind == "none":
        return None
    if kind == "model":
        return {"kind": "model", "model": key}
    try:
        _, raw = raw_for_key(key)
        sources = [s.sha256 for s in raw.sources]
    except (KeyError, InputError):
        sources = []
    return {"kind": "dataset", "key": key, "label": state.dataset_label(key), "sources": sources}


def build_manifest(ctx, active, settings: Settings) -> dict:
    """The analysis manifest of what is on screen."""
    ws = rubric_state.workspace()
    return mf.build_manifest(
        dataset_key=ctx.data.key,
        dataset_label=ctx.data.label,
        sources=ctx.data.raw.sources,
        choices=state.choices_for(ctx.data.key),
        task=ctx.task,
        schema=active.schema if active.status == "rubric" else None,
        thresholds=active.thresholds if active.status == "rubric" else None,
        frozen=ws.frozen is not None and active.status == "rubric",
        prior=_prior_doc(ctx, active),
        settings={"metric": settings.metric, "k": settings.k, "tau": settings.tau, "confidence": settings.confidence,
                  "tie_rule": settings.tie_rule, "prior": settings.prior, "scope": settings.scope,
                  "question_set": settings.question_set, "unmatched": active.unmatched,
                  "cluster_column": settings.cluster_column},
        seeds={"rank_distribution": {"seed": RANK_SEED, "note": "draws depend on the data size (200 to 4,000)"}},
        extra_versions=("streamlit", "plotly"),
        reading=dataset_reading(ctx.data.raw.report),  # the upload's outcome scale, recoding ... (kept in the workspace)
    )


def settings_rows(ctx, active, settings: Settings, table: pd.DataFrame | None = None) -> dict[str, str]:
    """Label -> value of everything that defines the analysis (for the page and the HTML report).

    With the leaderboard ``table``, the intervals are named as its scored rows have them (the prior each metric used,
    the clusters applied): where a model's empirical-Bayes prior is not identified (N = 1) its interval is an exact
    binomial one and the level a confidence level.
    """
    return html_report.settings_rows(  # the core's rows and words: an app report and a CLI report list the same settings
        table, dataset=ctx.data.label, files=", ".join(f"{s.name} (SHA-256 {s.sha256[:12]})" for s in ctx.data.raw.sources),
        choices=state.choices_for(ctx.data.key), task=ctx.task, rubric=active.summary, thresholds=active.thresholds,
        metric=settings.label + (f" (k = {settings.k})" if METRICS[settings.metric].uses_k else "")
        + (f", tau = {settings.tau:g}" if METRICS[settings.metric].uses_tau else ""),
        confidence=settings.confidence, tie_rule=settings.tie_rule, prior=settings.prior, scope=settings.scope,
        question_set=settings.question_set, cluster_column=settings.cluster_column,
        reading=dataset_reading(ctx.data.raw.report))


def export_notes(ctx, active, settings: Settings, table: pd.DataFrame) -> list[str]:
    """What the exported leaderboard cannot show by itself (models that answered different questions and how they
    are compared; paper-rule chains), as the Leaderboard page says it: one sentence each, for every export."""
    notices = leaderboard_notes(ctx.data.data_id, ctx.data.dataset, ctx.task, table, confidence=settings.confidence,
                                tie_rule=settings.tie_rule, question_set=settings.question_set,
                                rubric_id=active.rubric_id, _categorization=active.categorization)
    return [n["finding"] for n in notices]


def markdown_context(ctx, active, settings: Settings) -> dict[str, str]:
    """What a Markdown export is about, for its first line: dataset, task, rubric, metric (the HTML report's settings)."""
    rows = settings_rows(ctx, active, settings)
    return {key: rows[key] for key in ("Dataset", "Task", "Rubric", "Metric")}


def table_export(kind: str, table: pd.DataFrame, settings: Settings, task: str, summary: Verdict | None = None,
                 notes: tuple[str, ...] | list[str] = (), context: dict[str, str] | None = None) -> str:
    """One export of the leaderboard, built when asked (the Export page's buttons call it on click: LaTeX of 1,000
    models is 0.4 s): ``"csv"`` (raw columns, formula-neutralised; with ``context``, its dataset and rubric as
    columns), ``"md"`` (with ``context``, :func:`markdown_context`, and the verdict's headline) or ``"latex"``
    (readable headers); ``notes`` (:func:`export_notes`) go below the Markdown table and into the LaTeX caption."""
    if kind == "csv":
        named = table if context is None else tables.with_context(table, dataset=context.get("Dataset", ""),
                                                                  rubric=context.get("Rubric", ""))
        return tables.to_csv(named)
    if kind == "md":
        return tables.leaderboard_markdown(table, metric_label=settings.label, confidence=settings.confidence,
                                           verdict=summary, notes=notes, context=context)
    if kind == "latex":
        return latex.leaderboard_latex(table, metric_label=settings.label, confidence=settings.confidence, task=task,
                                       notes=notes)
    raise ValueError(f"unknown export {kind!r}; choose csv, md or latex.")


#: The HTML report's pairwise heatmap shows at most this many models (the best by mean; the table has all).
REPORT_HEATMAP_MAX = 50


def html_bytes(ctx, active, settings: Settings, table: pd.DataFrame, summary: Verdict,
               notes: tuple[str, ...] | list[str] = ()) -> bytes:
    """The self-contained HTML report (plotly.js embedded once) as UTF-8 bytes."""
    scored = table[table["mu"].notna()]
    figures = [("Intervals", f"{settings.label}: {tables.interval_name(table, settings.confidence)}; "
                "colours group models that share a rank with CI ties.",
                interval_plot(table, metric_label=settings.label, confidence=settings.confidence, show_estimate=False,
                              tie_rule=settings.tie_rule))]
    if len(scored) >= 2:
        all_scored = len(scored)  # hundreds of models: a 282 x 282 heatmap was 3.3 MB of the report and unreadable
        scored = scored.sort_values("mu", ascending=False, kind="stable").head(REPORT_HEATMAP_MAX)
        rho, paired = pairwise_matrix(ctx.data.data_id, ctx.data.dataset, ctx.task, scored, metric=settings.metric,
                                      confidence=settings.confidence, rubric_id=active.rubric_id,
                                      categorization=active.categorization, prior_id=active.prior_id,
                                      prior_obj=active.prior, prior=settings.prior, scope=settings.scope,
                                      question_set=settings.question_set, cluster_column=settings.cluster_column)
        from scorio_core.leaderboard.linking import mask_cross_group_pairs, question_groups
        rho = mask_cross_group_pairs(rho, scored["model"].astype(str), question_groups(task_outcomes(  # as the page
            ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization), table,
            settings.question_set))  # no P(A > B) across groups that share no question
        figures.append(("Pairwise P(A > B)", "Probability that the row model is better than the column model (normal "
                        "approximation)" + ("; questions sampled: each pair paired over the questions both "
                                                         "answered." if paired else ".")
                        + (f" The {len(scored)} models with the highest means of {all_scored}; the table has every "
                           "model." if len(scored) < all_scored else ""),
                        pairwise_heatmap(scored["model"].tolist(), rho, confidence=settings.confidence)))
    manifest = build_manifest(ctx, active, settings)
    text = html_report.html_report(
        title=f"{settings.label} leaderboard: {ctx.task}",
        subtitle=ctx.data.label,
        table=table,
        verdict=summary,
        settings=settings_rows(ctx, active, settings, table),
        figures=figures,
        manifest=manifest,
        notes=[*notes, sentence(METRICS[settings.metric].interval)
               + (f"; where the empirical-Bayes prior is not identified ({not_identified_rule(degenerate=True)}), "
                  "the exact binomial interval on the pooled answers instead."
                  if has_fallback_interval(table) else ".")],
        generated=f"scorio-dashboard (scorio_core {manifest['versions']['scorio_core']}), {manifest['created']}",
        tie_rule=settings.tie_rule,
    )
    return text.encode("utf-8")


def summary_verdict(ctx, active, table: pd.DataFrame, settings: Settings) -> Verdict:
    """Plain-language verdict of the exported leaderboard: its scope in the headline, and the
    questions behind the lead (Bayes@N)."""
    top_pair = top_lead(ctx.data.data_id, ctx.data.dataset, ctx.task, table, metric=settings.metric,
                        confidence=settings.confidence, rubric_id=active.rubric_id, categorization=active.categorization,
                        prior_id=active.prior_id, prior_obj=active.prior, prior=settings.prior,
                        question_set=settings.question_set, cluster_column=settings.cluster_column)
    differ = settings.question_set == "own" and unequal_question_sets(
        ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization) is not None
    from scorio_core.leaderboard.trial_order import trial_position_effects

    from scorio_core.leaderboard.linking import question_groups

    binary = task_outcomes(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization).binary
    groups = question_groups(task_outcomes(ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id,
                                           active.categorization), table, settings.question_set)
    rho, paired = (pairwise_matrix(ctx.data.data_id, ctx.data.dataset, ctx.task, table, metric=settings.metric,
                                   confidence=settings.confidence, rubric_id=active.rubric_id,
                                   categorization=active.categorization, prior_id=active.prior_id,
                                   prior_obj=active.prior, prior=settings.prior, scope=settings.scope,
                                   question_set=settings.question_set, cluster_column=settings.cluster_column)
                   if settings.scope != "questions-fixed" and table["mu"].notna().sum() >= 2 else (None, False))
    return verdict(table, confidence=settings.confidence, metric_label=settings.label, scope=settings.scope, lead=top_pair,
                   pairwise=rho if paired else None, groups=groups,
                   question_sets_differ=differ,
                   trial_effects=trial_position_effects(binary) if binary is not None else [],
                   scale=(float(min(active.weights)), float(max(active.weights)))
                   if settings.metric in ("bayes", "avg") else None, tie_rule=settings.tie_rule)


class RestorePlan(NamedTuple):
    """What restoring a manifest would do, and what stands in the way."""

    manifest: mf.Manifest
    dataset_key: str | None
    problems: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return self.dataset_key is not None and not self.problems


@st.cache_data(show_spinner=False)
def _bundled_digests(key: str) -> tuple[tuple[str, str], ...]:
    """``(file name, SHA-256)`` of a bundled dataset's files, without parsing them."""
    return tuple((p.name, hashlib.sha256(p.read_bytes()).hexdigest()) for p in BUNDLED[key].paths)


def _sources_of(key: str):
    """Sources of a dataset of the session, as dicts with ``name`` and ``sha256``."""
    if key in BUNDLED:
        return [{"name": name, "sha256": digest} for name, digest in _bundled_digests(key)]
    try:
        return raw_for_key(key)[1].sources
    except (KeyError, InputError):
        return ()


def restore_plan(document: bytes, name: str, dataset_key: str | None = None) -> RestorePlan:
    """Read a manifest and find its data in the session (by SHA-256).

    ``dataset_key``: the dataset the analysis was saved with (a share link's ``ws:<id>``), used when its sources
    match; only without it is the first dataset with the same files taken (the same bytes loaded with another column
    mapping or data-quality choice are another dataset with other numbers).

    Raises
    ------
    InputError
        If the manifest itself is invalid.
    """
    manifest = mf.read_manifest(document, source=name)
    problems, warnings = [], []
    key = None
    if dataset_key is not None and manifest.dataset_key not in BUNDLED and not mf.source_mismatches(
            manifest, _sources_of(dataset_key)):
        key = dataset_key
    elif manifest.dataset_key in BUNDLED:
        key = manifest.dataset_key
        mismatch = mf.source_mismatches(manifest, _sources_of(key))
        if mismatch:
            warnings.append("The bundled data differs from the analysis (" + "; ".join(mismatch[:2]) + "); results may differ.")
    else:
        for candidate in state.dataset_options():
            if not mf.source_mismatches(manifest, _sources_of(candidate)):
                key = candidate
                break
        if key is None:
            names = ", ".join(s["name"] for s in manifest.sources)
            problems.append(f"The analysis used files that are not loaded in this session ({names}). Upload them on "
                            "the Data page (the SHA-256 must match), then upload the manifest again.")
    if key is not None:
        from dashboard.data.datasets import load_key

        tasks = tasks_of(*load_key(key))
        if manifest.task not in tasks and manifest.task != ALL_TASKS:
            problems.append(f"Task {manifest.task!r} is not in the data (tasks: {', '.join(tasks[:8])}).")
    if manifest.settings["metric"] not in METRICS:
        problems.append(f"Unknown metric {manifest.settings['metric']!r}.")
    if manifest.settings["confidence"] not in CONFIDENCE_LEVELS:
        warnings.append(f"Credibility level {manifest.settings['confidence']:g} is not offered in the app; "
                        "the nearest level is used.")
    if manifest.prior is not None:
        warnings.append("The prior R0 is restored by name; check it on the Rubric page.")
    return RestorePlan(manifest, key, tuple(problems), tuple(warnings))


def apply_restore(plan: RestorePlan) -> None:
    """Queue the manifest's data, task, rubric and settings; they apply on the next run."""
    m = plan.manifest
    state.set_choices(plan.dataset_key, m.choices)
    schema = m.schema or rubric.get_schema(rubric.DEFAULT_SCHEMA)
    rubric_state.use_schema(schema, base=schema.name, frozen=m.thresholds if (m.frozen and m.schema is not None) else None)
    rubric_state.set_unmatched(str(m.settings.get("unmatched", "exclude"))[:200])
    prior = m.prior or {}
    if prior.get("kind") == "model":
        rubric_state.set_prior("model", prior.get("model"))
    elif prior.get("kind") == "dataset":
        rubric_state.set_prior("dataset", prior.get("key"))
    else:
        rubric_state.set_prior("none")
    levels = np.asarray(CONFIDENCE_LEVELS)
    confidence = float(levels[np.argmin(np.abs(levels - m.settings["confidence"]))])
    state.queue_restore({
        "dataset": plan.dataset_key,
        "task": m.task,
        "confidence": confidence,
        "lb_metric": m.settings["metric"],
        "lb_k": int(m.settings["k"]),
        "lb_tau": float(m.settings["tau"]),
        "lb_tie_rule": m.settings["tie_rule"],
        "prior": m.settings["prior"],
        "scope": m.settings["scope"],
        "lb_question_set": m.settings["question_set"],
        "cluster_column": m.settings.get("cluster_column") or "",
    })
