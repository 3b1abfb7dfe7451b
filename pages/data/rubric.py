"""Rubric workbench: pick or edit a categorical rubric and see the ranking change live."""

import streamlit as st

from dashboard.panels import rubric as rubric_panel
from dashboard.state import rubric as rubric_state
from dashboard.state.widgets import top_models
from dashboard.compute.results import category_distribution, leaderboard_table
from dashboard.figures import category_bars
from dashboard.guard import user_errors
from dashboard.guard import blocking_notice
from dashboard.panels.sidebar import page_context, refresh_rubric_note
from dashboard.panels.charts import chart
from dashboard.tables.display import rerank_display
from dashboard.tables.sizes import fit_height
from dashboard.tables.chart_text_more import category_frame, category_summary
from scorio_core.report.tables import interval_note
from dashboard.text import md

ctx = page_context()
if ctx is None:
    st.stop()

st.title("Rubric")
st.caption(
    "Map every attempt to a category (first match wins) and give each category a weight; Bayes@N then scores the "
    "categories. The rubric set here applies to every page."
)
if blocking_notice(ctx.data.dataset):
    st.stop()
if ctx.data.dataset.attempts is None:
    st.info(
        "This dataset has counts only (n_trials and n_correct per question), without the per-attempt signals a rubric "
        "reads (is_correct, has_box, completion_bpt, verifier scores...). Results stay on binary correctness. "
        "Pick an attempt-level dataset in the sidebar, such as the paper simulation, to build a rubric.",
        icon=":material/info:",
    )
    st.stop()

with user_errors("the rubric's signals"):
    table = rubric_state.signal_table(ctx.data.data_id, ctx.data.dataset, ctx.task)
picker = st.container()  # the editor uses the page width (conditions are long)
rubric_panel.render_editors(table)
rubric_panel.render_weight_fields(table)
rubric_panel.render_error()
rubric_panel.render_weight_range()
rubric_panel.render_signals(ctx)
with picker:  # drawn above the tables, after they are read, so it names the rubric in force
    rubric_panel.render_picker(ctx.data)
refresh_rubric_note()

active = rubric_state.active_rubric(ctx)
results = st.container()  # the page width: names and intervals are never cut at 1280 px (issue 16)
with results:
    st.header("Re-ranked leaderboard")
    if active.status == "not-applicable":
        st.warning(md(active.message), icon=":material/warning:")
    board = None
    with user_errors("the re-ranked leaderboard", stop=False):  # the upload and editors below can fix the rubric
        board = leaderboard_table(
            ctx.data.data_id, ctx.data.dataset, ctx.task, metric="bayes", confidence=ctx.confidence,
            rubric_id=active.rubric_id, _categorization=active.categorization, prior_id=active.prior_id, _prior=active.prior,
        )
    if board is None:
        st.caption("Choose a rubric that runs on this data: pick a schema or edit the tables above, or upload a rubric "
                   "JSON under Save and share below.")
    else:
        baseline = None
        if ((active.status == "rubric" or active.prior is not None) and ctx.data.dataset.attempts["is_correct"].notna().any()
                and not ctx.data.dataset.report.n_non_binary):  # graded scores have no binary ranking to compare with
            baseline = leaderboard_table(ctx.data.data_id, ctx.data.dataset, ctx.task, metric="bayes", confidence=ctx.confidence)
        frame, config = rerank_display(board, baseline, confidence=ctx.confidence)
        frame["model"] = frame["model"].map(ctx.labels(frame["model"]))  # short names; the Leaderboard has the full ones
        st.dataframe(frame, column_config=config, hide_index=True, width="stretch", height=fit_height(len(frame), 760))
        st.caption(f"Bayes@N under {md(active.summary)}; task: {md(ctx.task)}. \"vs binary\": places gained against "
                   f"binary correctness (rank by mean). {md(interval_note(board))}")

thresholds, save = st.columns([1, 1], gap="large")
with thresholds:
    st.header("Thresholds")
    scope = "all tasks pooled" if ctx.task == "all tasks" else f"task {md(ctx.task)}"
    st.caption(f"Percentile thresholds are computed over every attempt in scope ({scope}), all models pooled.")
    rubric_panel.render_thresholds(active)
with save:
    st.header("Save and share")
    rubric_panel.render_json()
    with st.expander("Prior outcomes R0 (optional)"):
        rubric_panel.render_prior(ctx, active)

st.header("Coverage on this data", divider="gray")
rubric_panel.render_coverage(active)
rubric_panel.render_unmatched(ctx, active)
if active.status == "binary":
    st.caption("Binary correctness: every attempt with an is_correct value is wrong or correct.")

if board is None:
    st.stop()
st.header("Category distribution per model", divider="gray")
models, counts, unmatched = category_distribution(
    ctx.data.data_id, ctx.data.dataset, ctx.task, active.rubric_id, active.categorization,
    active.scoped.mask if active.scoped is not None else None,
)
order = [m for m in board["model"] if m in models]
order = top_models("rubric_top", order, help="The best models on the Leaderboard under this rubric.")
index = [models.index(m) for m in order]
chart(category_bars(order, active.labels, counts[index], unmatched[index], active.weights),
      category_summary(order, active.labels, counts[index], unmatched[index], active.weights),
      category_frame(order, active.labels, counts[index], unmatched[index]), key="rubric_categories")
st.caption(f"Models in leaderboard order (best first){'' if len(order) == len(models) else f'; the top {len(order):d} of {len(models):d}'}. "
           "Colours run from the lowest weight (red) to the highest (blue).")
