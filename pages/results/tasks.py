"""Tasks: every model on every task (Bayes@N with intervals), a combined score, pass/fail and flaky questions."""

import streamlit as st

from scorio_core.tasks.combined import no_combined_notice, unequal_task_sizes_notice

from dashboard.panels import rubric as rubric_panel
from dashboard.state import rubric as rubric_state
from dashboard.state.session import choices_phrase
from dashboard.figures import combined_interval_plot, task_heatmap
from dashboard.guard import user_errors
from dashboard.guard import blocking_notice
from dashboard.panels.sidebar import page_context
from dashboard.panels.board_views import render_prior_pull
from dashboard.panels.trial_order import trial_position_warning
from dashboard.panels.charts import chart
from dashboard.tables.chart_text import interval_summary, task_heatmap_summary
from dashboard.tables.display import combined_display, pass_fail_display
from dashboard.tables.sizes import fit_height
from dashboard.state.widgets import top_models
from dashboard.text import md
from dashboard.compute.results import task_table
from scorio_core.leaderboard.checks import choices_of, data_choices_notice, prior_pull_notice
from scorio_core.leaderboard.order import board_order
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

# rows in the combined score's order, best first, exact ties by name: the Leaderboard's order (one task: its Bayes@N)
models = ctx.shown(board_order(combined, "score")["model"].astype(str))
labels = ctx.labels(models)  # short names where the sidebar asks for them (full names in exports)
shortened = any(labels[m] != m for m in models)
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
    listed = ", ".join(named[:8]) + (f" and {len(named) - 8:d} more, listed below" if len(named) > 8 else "")
    st.warning(f"In {len(named)} tasks the models answered different questions ({md(listed)})"
               + (f"; in {apart:d} of them some models share no question at all" if apart else "")
               + ": a cell scores each model on its own questions, as that task's Leaderboard does.", icon=":material/rule:")
    with st.expander(f"Question sets in these {len(named)} tasks"):
        st.markdown("\n".join(f"- **{md(n['task'])}**: {md(n['finding'])}" for n in sets))
else:
    for note in sets:
        st.warning(f"{md(note['task'])}: {md(note['finding'])}" if len(tasks) > 1 else md(note["finding"]),
                   icon=":material/rule:")
for task in tasks:  # a prior moved a shown model's mean beyond its interval from its avg@N: as that task's Leaderboard
    rows = matrix.cells[matrix.cells["task"] == task].rename(columns={"bayes": "mu", "n": "n_trials"})
    render_prior_pull(prior_pull_notice(rows, shown=models if ctx.models else None),
                      prefix=f"{task}: " if len(tasks) > 1 else "")
if active.prior is not None:
    st.caption(f"The prior outcomes R0 ({md(active.prior_label)}) are not applied on this page; it uses the sidebar's prior.")

st.header("Bayes@N per task", divider="gray")
# hundreds of models: the charts show the best by combined score (the tables list every model)
drawn = top_models("tasks_top", models, label="Show in the charts",
                   help="The best models by combined score; the tables below list every model.")
if len(drawn) < len(models):
    st.caption(f"The charts show the top {len(drawn):d} of {len(models):d} models by combined score; the tables "
               "list every model.")
named = cells.assign(model=cells["model"].map(labels))  # display names in the charts and tables
drawn_names = [labels[m] for m in drawn]
chart(task_heatmap(named[cells["model"].isin(drawn)], models=drawn_names, tasks=tasks, confidence=ctx.confidence,
                   zmin=float(min(active.weights)), zmax=float(max(active.weights))),
      task_heatmap_summary(named, drawn_names, tasks), key="tasks_heatmap")  # the table below holds the numbers
mean = matrix.pivot("bayes").loc[models]
grid = (mean.map("{:.3f}".format) + " [" + matrix.pivot("lo").loc[models].map("{:.2f}".format) + ", "
        + matrix.pivot("hi").loc[models].map("{:.2f}".format) + "]").where(mean.notna(), "").rename(index=labels)
st.dataframe(grid, width="stretch", height=fit_height(len(grid), 700))
st.caption(f"Each cell: Bayes@N [interval], the Leaderboard's value for that task. Intervals: {md(matrix.interval)}. "
           "Empty: no data. Hover the heatmap for avg@N, N (trials per question) and M (questions)."
           + (" Short model names: the full names are in every export and with *Short model names* off in the sidebar."
              if shortened else ""))
choices = choices_of(ctx.data.dataset)
if choices:  # what the Data page's choices changed (e.g. attempts without an outcome counted as wrong)
    st.caption(md(data_choices_notice(choices)["finding"]))

st.header("Combined score", divider="gray")
sizes = unequal_task_sizes_notice(matrix)
if sizes is not None:  # e.g. HELM's 1-question [valid] split beside its 9-question [test] split
    st.warning(md(sizes["message"]), icon=":material/balance:")
if (none_combined := no_combined_notice(combined, tasks)) is not None:  # every model missed some task
    st.info(md(none_combined["message"]), icon=":material/rule:")
shown_combined = combined[combined["model"].isin(models)]
drawn_combined = shown_combined[shown_combined["model"].isin(drawn) | shown_combined["score"].isna()]  # title counts them
drawn_combined = board_order(drawn_combined, "score").assign(model=lambda f: f["model"].astype(str).map(labels))
chart(combined_interval_plot(drawn_combined, confidence=ctx.confidence),
      interval_summary(drawn_combined, interval=f"{ctx.confidence:.0%} interval", column="score", estimate="combined score", digits=3),
      key="tasks_combined")
frame, config = combined_display(shown_combined, confidence=ctx.confidence, labels=labels)
st.dataframe(frame, hide_index=True, width="stretch", column_config=config)
st.caption(f"Weighting: {WEIGHTING}. Interval: {COMBINED_ASSUMPTION}. Per-task intervals: {md(matrix.interval)}.")

st.header("Pass / fail", divider="gray")
verdicts = pass_fail_display(matrix.pivot("passed").loc[models], matrix.pivot("undecided").loc[models]).rename(index=labels)
st.dataframe(verdicts, width="stretch", height=fit_height(len(verdicts), 700))
open_verdicts = int(cells["undecided"].fillna(False).astype(bool).sum())
st.caption(f"Threshold {float(threshold):.3f}: {PASS_RULE}. "
           + (f"**Undecided** ({open_verdicts:,} here): the verdict follows the rule, but the cell's "
              f"{matrix.confidence * 100:g}% interval (Bayes@N grid above) holds {float(threshold):.3f}, so more trials or "
              "questions can flip it." if open_verdicts else
              f"Every verdict's {matrix.confidence * 100:g}% interval lies on one side of the threshold.")
           + f" CLI: `python -m scorio_core tasks DATA --threshold {float(threshold):g} --output json` (without "
             "`--threshold` it gives no verdict).")

st.header("Flaky questions", divider="gray")
flaky = matrix.pivot("flaky").loc[models]
st.dataframe(flaky.astype("Int64").rename(index=labels), width="stretch", height=fit_height(len(flaky), 700))
per_task = cells.groupby("task", sort=False)["flaky"].sum().reindex(tasks).fillna(0).astype(int)
st.caption("Flaky (model, question) pairs per task, summed over the shown models (a question flaky for three models "
           "counts three times; the Questions page lists each question once): "
           + ", ".join(f"{md(t)} {n:,}" for t, n in per_task.items()) + f". Rule: {FLAKY_RULE}.")
