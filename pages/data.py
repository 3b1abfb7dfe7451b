"""Data: pick a bundled dataset or upload eval dumps; review data quality and make choices."""

import streamlit as st

from dashboard import state
from dashboard.quality import render_choices, render_report, render_summary
from dashboard.sidebar import page_context
from dashboard.upload import render_uploader

st.title("Data")
st.caption("Upload eval dumps (several files merge into one dataset) or pick a bundled dataset in the sidebar.")

render_uploader()

ctx = page_context()
if ctx is None:
    st.stop()

st.header(ctx.data.label, divider="gray")
render_summary(ctx.data.dataset)
st.subheader("Data quality")
render_report(ctx.data.dataset)
render_choices(ctx.data.key, ctx.data.raw)

with st.expander("Preview (first 200 rows)"):
    st.dataframe(ctx.data.dataset.table.head(200), hide_index=True)
with st.expander("Sources"):
    st.dataframe([s.to_dict() for s in ctx.data.dataset.sources], hide_index=True)
