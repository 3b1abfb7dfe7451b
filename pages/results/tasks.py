"""Tasks: every model on every task (Bayes@N with intervals), a combined score, pass/fail and flaky questions."""

import numpy as np
import streamlit as st

from scorio_core.tasks.combined import unequal_task_sizes_notice

from dashboard.panels import rubric as rubric_panel
from dashboard.state import rubric as rubric_state
from dashboard.state.session import choices_phrase
from dashboard.figures import combined_interval_plot, task_heatmap
from dashboard.guard import user_errors
from dashboard.guard import blocking_notice
from dashboard.panels.sidebar import page_context
from dashboard.panels.trial_order import trial_position_warning
from dashboard.tables.analysis import models_by_rank
from dashboard.tables.display import combined_display, fit_height, pass_fail_display
from dashboard.state.widgets import top_models
from dashboard.text import md
from dashboard.compute.results import task_table
from scorio_core.leaderboard.checks import choices_of, data_choices_notice
from scorio_core.tasks import COMBINED_ASSUMPTION, FLAKY_RULE, PASS_RULE, WEIGHTING

ctx = page_context()
if ctx is None:
    st.stop()

st.title("Tasks")
active = rubric_state.active_rubric(ctx)
st.caption(f"{md(ctx.data.label)} · every task (this page ignores the sidebar's task)"
           f"{md(choices_phrase(ctx.data.key))} · Bayes@N under {md(active.summary)}")
if blocking_notice(ctx.data.dataset):
    st.stop()
if active.message:
    st.info(md(active.message), icon=":material/info:")
rubric_panel.render_unmatched(ctx, active, choose=False)

threshold = st.number_input(
    "Pass threshold", value=0.5, step=0.05, format="%.3f", key="tasks_threshold", bind="query-params",
    persist_state="session", help="A model passes a task when its avg@N on that task is at least this value.",
)
with user_errors("the tasks view"):
    rubric_on = active.status == "rubric"
    frozen = rubric_state.workspace().frozen if rubric_on else None
    matrix, combined = task_table(
        ctx.data.data_id, ctx.data.dataset, active.rubric_id if rubric_on else "binary",
        active.schema if rubric_on else None, frozen, active.unmatched, ctx.prior, ctx.scope, ctx.confidence,
        float(threshold), ctx.cluster_column)

score = dict(zip(combined["model"].astype(str), combined["score"]))  # rows in the combined score's order, best first
models = ctx.shown(models_by_rank(matrix.models, [score.get(str(m), np.nan) for m in matrix.models]))
if len(models) < len(matrix.models):
    st.caption(f"Showing {len(models):d} of {len(matrix.models):d} models (sidebar filter).")
cells = matrix.cells[matrix.cells["model"].isin(models)]
tasks = list(matrix.tasks)
if len(tasks) == 1:
    st.info(f"This dataset has one task ({md(tasks[0])}): the grid has a single column and the combined score equals "
            "that task's Bayes@N. Load a dump with several tasks to compare them.", icon=":material/info:")
for note in matrix.notes:  # each task whose trials are not exchangeable repeats, as its Leaderboard says
    if note["code"] == "trial_position_effect":
        trial_position_warning(ctx, models, task=note["task"], effects=note["effects"],
                               prefix=f"{note['task']}: " if len(tasks) > 1 else "")
sets = [n for n in matrix.notes if n["code"] != "trial_position_effect"]  # different question sets, as each Leaderboard says
named = list(dict.fromkeys(n["task"] for n in sets))
if len(named) > 2:  # many tasks (LiveBench: 5 of 18): one warning, each task's words below
    apart = sum(n["code"] == "disconnected_groups" for n in sets)
    st.warning(f"In {len(named)} tasks the models answered different questions ({md(', '.join(named))})"
               + (f"; in {apart:d} of them some models share no question at all" if apart else "")
               + ": a cell scores each model on its own questions, as that task's Leaderboard does.", icon=":material/rule:")
    with st.expander(f"Question sets in these {len(named)} tasks"):
        st.markdown("\n".join(f"- **{md(n['task'])}**: {md(n['finding'])}" for n in sets))
else:
    for note in sets:
        st.warning(f"{md(note['task'])}: {md(note['finding'])}" if len(tasks) > 1 else md(note["finding"]),
                   icon=":material/rule:")
if active.prior is not None:
    st.caption(f"The prior outcomes R0 ({md(active.prior_label)}) are not applied on this page; it uses the sidebar's prior.")

st.subheader("Bayes@N per task", divider="gray")
# hundreds of models: the charts show the best by combined score (the tables list every model)
drawn = top_models("tasks_top", models, label="Show in the charts",
                   help="The best models by combined score; the tables below list every model.")
if len(drawn) < len(models):
    st.caption(f"The charts show the top {len(drawn):d} of {len(models):d} models by combined score; the tables "
               "list every model.")
st.plotly_chart(task_heatmap(cells[cells["model"].isin(drawn)], models=drawn, tasks=tasks, confidence=ctx.confidence,
                             zmin=float(min(active.weights)), zmax=float(max(active.weights))), width="stretch")
mean = matrix.pivot("bayes").loc[models]
grid = (mean.map("{:.3f}".format) + " [" + matrix.pivot("lo").loc[models].map("{:.2f}".format) + ", "
        + matrix.pivot("hi").loc[models].map("{:.2f}".format) + "]").where(mean.notna(), "")
st.dataframe(grid, width="stretch", height=fit_height(len(grid), 700))
st.caption(f"Each cell: Bayes@N [interval], the Leaderboard's value for that task. Intervals: {md(matrix.interval)}. "
           "Empty: no data. Hover the heatmap for avg@N, N (trials per question) and M (questions).")
choices = choices_of(ctx.data.dataset)
if choices:  # what the Data page's choices changed (e.g. attempts without an outcome counted as wrong)
    st.caption(md(data_choices_notice(choices)["finding"]))

st.subheader("Combined score", divider="gray")
sizes = unequal_task_sizes_notice(matrix)
if sizes is not None:  # e.g. HELM's 1-question [valid] split beside its 9-question [test] split
    st.warning(md(sizes["message"]), icon=":material/balance:")
shown_combined = combined[combined["model"].isin(models)]
drawn_combined = shown_combined[shown_combined["model"].isin(drawn) | shown_combined["score"].isna()]  # title counts them
st.plotly_chart(combined_interval_plot(drawn_combined, confidence=ctx.confidence), width="stretch")
frame, config = combined_display(shown_combined, confidence=ctx.confidence)
st.dataframe(frame, hide_index=True, width="stretch", column_config=config)
st.caption(f"Weighting: {WEIGHTING}. Interval: {COMBINED_ASSUMPTION}. Per-task intervals: {md(matrix.interval)}.")

st.subheader("Pass / fail", divider="gray")
verdicts = pass_fail_display(matrix.pivot("passed").loc[models], matrix.pivot("undecided").loc[models])
st.dataframe(verdicts, width="stretch", height=fit_height(len(verdicts), 700))
open_verdicts = int(cells["undecided"].fillna(False).astype(bool).sum())
st.caption(f"Threshold {float(threshold):.3f}: {PASS_RULE}. "
           + (f"**Undecided** ({open_verdicts:,} here): the verdict follows the rule, but the cell's "
              f"{matrix.confidence * 100:g}% interval (Bayes@N grid above) holds {float(threshold):.3f}, so more trials or "
              "questions can flip it." if open_verdicts else
              f"Every verdict's {matrix.confidence * 100:g}% interval lies on one side of the threshold."))

st.subheader("Flaky questions", divider="gray")
flaky = matrix.pivot("flaky").loc[models]
st.dataframe(flaky.astype("Int64"), width="stretch", height=fit_height(len(flaky), 700))
per_task = cells.groupby("task", sort=False)["flaky"].sum().reindex(tasks).fillna(0).astype(int)
st.caption("Flaky (model, question) pairs per task, summed over the shown models (a question flaky for three models "
           "counts three times; the Questions page lists each question once): "
           + ", ".join(f"{md(t)} {n:,}" for t, n in per_task.items()) + f". Rule: {FLAKY_RULE}.")
