"""Export: the leaderboard as files, a self-contained HTML report, and a manifest that restores the analysis."""

import re
from functools import partial

import streamlit as st

from dashboard.share import export
from dashboard.state import rubric as rubric_state
from dashboard.share import links as share
from dashboard.guard import user_errors
from dashboard.guard import blocking_notice
from dashboard.panels.sidebar import page_context
from dashboard.text import md
from scorio_core import rubric
from scorio_core.errors import InputError
from scorio_core.report.manifest import manifest_to_json

ctx = page_context()
if ctx is None:
    st.stop()

st.title("Export")
st.caption("Share the leaderboard on screen: tables for papers and spreadsheets, a report for stakeholders, and a "
           "manifest that reopens this exact analysis.")
if blocking_notice(ctx.data.dataset):
    st.stop()

active = rubric_state.active_rubric(ctx)
settings = export.current_settings(ctx)
with user_errors("the leaderboard to export"):
    table = export.analysis_table(ctx, active, settings)
n_all = len(table)
table = table[table["model"].isin(ctx.shown(table["model"]))]  # the sidebar's model filter, as the Leaderboard
summary = export.summary_verdict(ctx, active, table, settings)
notes = export.export_notes(ctx, active, settings, table)
if len(table) < n_all:  # said in every export too
    notes = [*notes, f"Showing {len(table):d} of {n_all:d} models (the sidebar's model filter); ranks, intervals and "
                     "rank ties are computed with every model, so each model keeps its place."]
files = {kind: partial(export.table_export, kind, table, settings, ctx.task, summary, notes,  # built on click
                        context=export.markdown_context(ctx, active, settings)) for kind in ("csv", "md", "latex")}
stem = re.sub(r"[^\w]+", "-", f"{ctx.data.label}-{ctx.task}").strip("-_").lower()[:80] or "leaderboard"  # ü kept

st.header("Verdict", divider="gray")
with st.container(border=True):
    st.markdown(f"**{md(summary.headline)}**")
    if summary.basis:
        st.markdown(md(summary.basis))
    if summary.summary:
        st.markdown(md(summary.summary))
    if summary.lines:
        with st.expander(f"Every neighbouring pair ({len(summary.lines)})"):
            st.markdown("\n".join(f"- {md(line)}" for line in summary.lines))
    for note in notes:  # in every export too
        st.warning(md(note), icon=":material/rule:")
    for caveat in summary.caveats:
        st.caption(md(caveat))

st.header("Downloads", divider="gray")
row1 = st.columns(3)
row1[0].download_button("Leaderboard CSV", files["csv"], file_name=f"{stem}.csv", mime="text/csv", icon=":material/table:",
                        width="stretch", key="export_csv", on_click="ignore",
                        help="Raw columns, full precision; cells starting with = + - @ are prefixed with ' (no formulas). "
                             "The numbers only: the notes above travel in the Markdown, LaTeX and HTML exports.")
row1[1].download_button("Markdown table", files["md"], file_name=f"{stem}.md", mime="text/markdown", icon=":material/notes:",
                        width="stretch", key="export_md", on_click="ignore")
row1[2].download_button("LaTeX table (booktabs)", files["latex"], file_name=f"{stem}.tex", mime="text/x-tex",
                        icon=":material/functions:", width="stretch", key="export_latex", on_click="ignore",
                        help="Needs \\usepackage{booktabs}; above 40 models the table is a longtable that breaks "
                             "across pages (\\usepackage{longtable}).")
row2 = st.columns(3)
row2[0].download_button("HTML report", partial(export.html_bytes, ctx, active, settings, table, summary, notes),
                        file_name=f"{stem}.html", mime="text/html", icon=":material/article:", type="primary",
                        width="stretch", key="export_html", on_click="ignore",
                        help="One self-contained file (charts included, no internet needed): verdict, leaderboard, charts, settings.")
row2[1].download_button("Rubric JSON", rubric.schema_to_json(active.schema if active.status == "rubric" else rubric.get_schema("Binary correctness")),
                        file_name="rubric.json", mime="application/json", icon=":material/rule:", width="stretch",
                        key="export_rubric", on_click="ignore")
row2[2].download_button("Analysis manifest", manifest_to_json(export.build_manifest(ctx, active, settings)),
                        file_name=f"{stem}.manifest.json", mime="application/json", icon=":material/fingerprint:",
                        width="stretch", key="export_manifest", on_click="ignore",
                        help="Data SHA-256, task, rubric, thresholds, settings, seeds and versions. Upload it below to restore.")

st.header("Share a link", divider="gray")
st.caption("Saves an immutable snapshot of this analysis (data, data-quality choices, rubric, settings) in the workspace. "
           "The link opens exactly this analysis, on the page you choose, in any browser on this server, also after a "
           "restart; the presentation link shows a read-only story for stakeholders (verdict, leaderboard with "
           "intervals, pairwise probabilities, and the figures you tick), without the settings sidebar. Whoever has "
           "the link can open it.")
pick_left, pick_right = st.columns(2)
landing = pick_left.selectbox("The link opens", share.RESULTS_PATHS, key="share_landing", format_func=str.capitalize,
                              help="The results page the (non-presentation) link opens; the Leaderboard by default.")
pick_right.multiselect("Also in the presentation", share.PRESENT_FIGURES, key=share.PRESENT_FIGURES_KEY,
                       placeholder="Verdict, leaderboard and pairwise heatmap only",
                       help="Figures added below the fixed story of the presentation link.")
if st.button("Create share link", icon=":material/share:", key="share_create"):
    try:
        st.session_state["share_last_id"] = share.share_analysis(ctx, active, page=landing)
        st.session_state["share_last_page"] = share.landing_path(landing)
    except InputError as exc:
        st.error(md(str(exc)), icon=":material/error:")
    else:  # announced (role=status), unlike the links appearing below
        st.success("Share links created: the link and the presentation link are below, to select and copy.",
                   icon=":material/check:")
shared_id = st.session_state.get("share_last_id")
if shared_id:
    base = share.base_url()
    # text inputs, not st.code: its copy button shows on hover only and is never in the Tab order; here Tab, Ctrl+A
    # and Ctrl+C copy the whole link (its value is set again on every run: an edit does not stick)
    for label, link, key in (("Share link", base + st.session_state.get("share_last_page", "") + share.share_query(shared_id),
                              "share_link_text"),
                             ("Presentation link", base + share.share_query(shared_id, present=True), "share_present_text")):
        st.session_state[key] = link
        field, button = st.columns([5, 1], vertical_alignment="bottom")
        field.text_input(md(label), key=key, help="Select it (Ctrl+A) and copy it (Ctrl+C).")
        button.link_button("Open", link, icon=":material/open_in_new:", width="stretch", help=f"Open the {label.lower()}.")

st.header("What is exported", divider="gray")
rows = export.settings_rows(ctx, active, settings, table)
# a Markdown table: long values (what the intervals cover) wrap instead of being cut in a grid cell
st.markdown("| Setting | Value |\n|---|---|\n" + "\n".join(
    f"| {md(k)} | {md(str(v).replace(chr(10), ' '))} |" for k, v in rows.items()))
st.caption("Metric, k and tie rule come from the Leaderboard page; the rubric from the Rubric page; dataset, task and "
           "credibility level from the sidebar.")
with st.expander("Preview: Markdown"):
    st.code(files["md"], language="markdown")
with st.expander("Preview: LaTeX"):
    st.code(files["latex"], language="latex")

st.header("Restore an analysis", divider="gray")
upload = st.file_uploader("Analysis manifest (.json)", type=["json"], key="export_restore_upload",
                          help="A manifest downloaded here or written by `python -m scorio_core export --format manifest`.")
if upload is not None:
    try:
        plan = export.restore_plan(upload.getvalue(), upload.name)
    except InputError as exc:
        st.error(md(str(exc)), icon=":material/error:")
        st.caption("Nothing changed.")
    else:
        m = plan.manifest
        st.markdown(f"**{md(m.dataset_label)}** · task {md(m.task)} · rubric "
                    f"{md(m.schema.name if m.schema else 'Binary correctness')} · {md(m.settings['metric'])} · "
                    f"{m.settings['confidence']:.0%} · saved {md(m.created or 'unknown')}")
        for problem in plan.problems:
            st.error(md(problem), icon=":material/block:")
        for warning in plan.warnings:
            st.warning(md(warning), icon=":material/warning:")
        if st.button("Restore this analysis", type="primary", disabled=not plan.ok, key="export_restore"):
            export.apply_restore(plan)
            st.switch_page("pages/results/leaderboard.py", query_params={})  # {}: bound widget params are replaced, not refused
