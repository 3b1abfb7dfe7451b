"""scorio-dashboard: which model is really better, and by how much, with honest uncertainty.

Entry point and router: page config, the shared sidebar, then ``st.navigation(...).run()``.
Run with ``make run`` (or ``streamlit run app.py``).

Page scripts live in section subfolders (``pages/data/``, ``pages/results/``, ``pages/share/``),
never directly in ``pages/``: Streamlit's legacy multipage mode scans top-level ``pages/*.py``
before this router has run, so on a fresh server a deep link such as ``/trajectories`` would run
the page script alone (no sidebar, no data). Subfolders are not scanned; every URL comes here.
``make run`` starts this file through :mod:`dashboard.serve`, which also keeps a fresh server's first
deep link from opening behind Streamlit's "Page not found" dialog.
"""

from pathlib import Path

import streamlit as st

from dashboard.panels.charts import accessible_styles, hide_unreadable_cell_text
from dashboard.share.links import autosave, hide_settings, link_failure, open_link, presenting, render_link_notice
from dashboard.panels.sidebar import ignored_link_values, render_sidebar
from dashboard.text import md
from dashboard.state.url import sanitize_query_params
from scorio_core.errors import InputError
from scorio_core.limits import limit_blas_threads

limit_blas_threads()  # one BLAS thread per process: many small solves on a shared server (scorio_core.limits)

# an emoji favicon is an inline SVG; ":material/...:" made every visitor fetch it from fonts.gstatic.com (QA F17)
st.set_page_config(page_title="scorio-dashboard", page_icon="📊", layout="wide",
                   initial_sidebar_state="collapsed" if presenting() else "auto")
hide_unreadable_cell_text()  # heatmap values sized below 6 px on a phone: hidden, on hover only
accessible_styles()  # captions at 4.5:1 or more in either theme; a visible keyboard focus on the sidebar's links

_HERE = Path(__file__).parent
_PAGES = {
    "Data": [
        ("pages/data/data.py", "Data", ":material/table_view:"),
        ("pages/data/rubric.py", "Rubric", ":material/rule:"),
    ],
    "Results": [
        ("pages/results/leaderboard.py", "Leaderboard", ":material/leaderboard:"),
        ("pages/results/tasks.py", "Tasks", ":material/grid_view:"),
        ("pages/results/compare.py", "Compare", ":material/compare_arrows:"),
        ("pages/results/questions.py", "Questions", ":material/quiz:"),
        ("pages/results/trajectories.py", "Trajectories", ":material/timeline:"),
        ("pages/results/convergence.py", "Convergence", ":material/ssid_chart:"),
        ("pages/results/sensitivity.py", "Rubric sensitivity", ":material/tune:"),
        ("pages/results/plan.py", "Plan", ":material/next_plan:"),
    ],
    "Share": [
        ("pages/share/export.py", "Export", ":material/ios_share:"),
    ],
}

navigation = {
    section: [
        st.Page(str(_HERE / path), title=title, icon=icon, default=(title == "Leaderboard"),
                url_path="board" if title == "Leaderboard" else None)
        for path, title, icon in entries
        if (_HERE / path).exists()
    ]
    for section, entries in _PAGES.items()
}


def _to_leaderboard() -> None:
    st.switch_page(navigation["Results"][0], query_params=st.query_params.to_dict())


navigation["Results"].append(st.Page(_to_leaderboard, title="Leaderboard", url_path="leaderboard", visibility="hidden"))
present = presenting()  # &view=present: read-only, no settings sidebar, no navigation
page = st.navigation({section: pages for section, pages in navigation.items() if pages},
                     position="hidden" if present else "sidebar")
if present:
    hide_settings()
if page.url_path == "leaderboard":  # forwarded before any widget binds ?dataset= etc. (set then, it raised)
    _to_leaderboard()
ignored = [f"Ignored the link parameter {md(name)}: {md(reason)}." for name, reason in sanitize_query_params().items()]
for sentence in ignored:
    st.toast(sentence, icon=":material/link_off:")
open_link()  # ?analysis=<id>: restore a shared analysis before any widget exists
if present and link_failure():  # never other data in place of the analysis a presentation link names
    st.error(f"{md(link_failure())} Nothing else is shown in its place: ask whoever sent the link for a new one.",
             icon=":material/link_off:")
    st.stop()
if link_failure() and not st.session_state.get("_link_failure_shown"):  # once above the page, then in the sidebar
    st.session_state["_link_failure_shown"] = True
    st.error(f"{md(link_failure())} Showing the current data instead.", icon=":material/link_off:")
st.session_state["_page_context"] = render_sidebar()
for sentence in ignored_link_values():  # e.g. ?task= naming a task this dataset does not have
    st.toast(md(sentence), icon=":material/link_off:")
    ignored.append(md(sentence))
if ignored:  # a toast vanishes after seconds (and is missed by a screen reader user): said on the page too
    st.info("\n\n".join(ignored), icon=":material/link_off:")
with st.sidebar:
    render_link_notice()
try:
    page.run()
except InputError as exc:  # a page that cannot be shown on this data says why, never a traceback
    st.error(f"This page cannot be shown with the current data and settings: {md(exc)}", icon=":material/error:")
finally:
    # after the page: its own edits (the Rubric page commits a table edit while it runs) are in this run's draft, so a
    # reload restores the last edit, not the one before it; also when the page stopped early (st.stop, st.rerun)
    autosave(st.session_state["_page_context"])  # after the first change, ?analysis=<draft> restores it on reload
