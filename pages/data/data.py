"""Data: pick a bundled dataset or upload eval dumps; review data quality; explore per-question outcomes."""

import streamlit as st

from dashboard.state import rubric as rubric_state
from dashboard.state import session as state
from dashboard.panels.data import render_outcomes
from dashboard.panels.quality import render_choices, render_report, render_sources, render_summary
from dashboard.panels.server_open import render_folder_upload, render_server_open
from dashboard.panels.sidebar import page_context, render_cluster_mapping
from dashboard.guard import blocking_in_app_terms, partial_credit_offer
from dashboard.text import md
from dashboard.panels.upload import render_uploader
from dashboard.panels.workspace import render_workspace_datasets

st.title("Data")
st.caption(
    "Pick a bundled dataset in the sidebar or upload your own eval dumps (several files merge into one dataset). "
    "Every upload you load is saved in the workspace and survives reloads and restarts. "
    "To reopen a saved analysis, upload its manifest on the Export page."
)

with st.expander("Upload eval dumps", expanded=not st.session_state.get("_uploads"), icon=":material/upload_file:"):
    render_uploader()
with st.expander("Upload a folder (runs whose folders name the model)", icon=":material/drive_folder_upload:"):
    render_folder_upload()
with st.expander("Open from the server (shared folders)", icon=":material/folder_open:"):
    render_server_open()
with st.expander("Saved datasets (workspace)", icon=":material/cloud_done:"):
    render_workspace_datasets()

ctx = page_context()
if ctx is None:
    st.stop()

st.header(md(ctx.data.label), divider="gray")
if state.default_choices_note(ctx.data.key):
    st.info(md(state.default_choices_note(ctx.data.key)), icon=":material/rule:")
render_summary(ctx.data.dataset)
render_cluster_mapping(ctx)
tabs = st.tabs(["Outcomes", "Data quality", "Sources"], key="data_view", bind="query-params")

with tabs[1]:
    if tabs[1].open is not False:
        render_report(ctx.data.dataset)
        render_choices(ctx.data.key, ctx.data.raw)
        partial_credit_offer(ctx.data.dataset, "data_partial_credit")  # graded scores: the other route

with tabs[0]:
    if tabs[0].open is not False:
        if not ctx.data.dataset.ready:
            st.warning("Make the data-quality choices in the **Data quality** tab first: "
                       + " ".join(md(issue) for issue in blocking_in_app_terms(ctx.data.dataset.report.blocking)),
                       icon=":material/rule:")
            partial_credit_offer(ctx.data.dataset, "outcomes_partial_credit")
        else:
            render_outcomes(ctx, rubric_state.active_rubric(ctx))

with tabs[2]:
    if tabs[2].open is not False:
        render_sources(ctx.data.dataset)
