"""Charts every new session draws with the same inputs: built once per server process, then shared.

Building a Plotly figure runs plotly's validation of every trace and layout property: the Leaderboard's
interval chart on 16 models takes 47-53 ms to build (2026-11-30, one core), more than the rest of that page's
script, and every new session on the default view (a stakeholder opening a link) built the same one again.
``st.cache_resource`` keeps the built figure object (``st.cache_data`` would pickle it, and unpickling a figure
validates it again); ``st.plotly_chart`` only reads it (it copies the figure with ``to_dict``). The figure is
shared between sessions: nothing may mutate it.

Also the one style rule every page's charts share: heatmap values Plotly shrank below a readable size are hidden;
:func:`chart`, a figure with its text alternative (a11y QA: a chart is one unnamed SVG for a screen reader); and the
app shell's accessibility style rules (:data:`ACCESSIBLE_CSS`: caption contrast, keyboard focus in the sidebar).
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard.figures import interval_plot
from dashboard.text import md

__all__ = ["show_interval_plot", "hide_unreadable_cell_text", "UNREADABLE_CELL_TEXT_CSS", "chart", "ACCESSIBLE_CSS",
           "CAPTION_OPACITY", "accessible_styles"]


@st.cache_resource(show_spinner=False, max_entries=16)
def _interval_figure(table: pd.DataFrame, metric_label: str, confidence: float, show_estimate: bool,
                     labels: dict, tie_rule: str | None) -> go.Figure:
    return interval_plot(table, metric_label=metric_label, confidence=confidence, show_estimate=show_estimate,
                         labels=labels, tie_rule=tie_rule)


def show_interval_plot(table: pd.DataFrame, *, metric_label: str, confidence: float, show_estimate: bool,
                       labels: dict, tie_rule: str | None, summary: str | None = None) -> None:
    """Draw :func:`dashboard.figures.interval_plot` of ``table`` (keyword arguments as there), from the server's cache.

    The cache key is the table's content and every argument, so a session with other settings, data or display
    names gets its own figure; 16 figures are kept (least recently used dropped; one of 300 models holds ~1.5 MB).
    ``summary`` (plain text, :func:`dashboard.tables.chart_text.interval_summary`) is its caption: the chart's text
    alternative (the page's table holds the numbers).
    """
    figure = _interval_figure(table, metric_label, float(confidence), bool(show_estimate), dict(labels),
                              tie_rule)
    st.plotly_chart(figure, width="stretch")
    if summary:
        st.caption(md(summary))


#: Heatmap cell values are sized by Plotly to their cell (:data:`dashboard.figures.theme.CELL_TEXT`): on a phone a
#: 15-column grid's cells are 6 px wide and its values shrink to 1-5 px, specks that read as dashes. Hidden below
#: 6 px (the hover keeps every value); Plotly's own ``uniformtext`` hiding does not apply to heatmaps.
UNREADABLE_CELL_TEXT_CSS = "<style>" + ", ".join(
    f"[data-testid='stPlotlyChart'] text[data-notex='1'][style*='font-size: {px}px']" for px in range(1, 6)
) + " {display: none;}</style>"


#: Captions: Streamlit draws them in the text colour at opacity 0.6, 3.89:1 on white (WCAG AA asks 4.5:1). At this
#: opacity instead, whatever the theme (measured on Streamlit 1.67's defaults): #2F2D2B text on white about 6.3:1,
#: still a shade fainter than body text; #EDEBE8 on the dark #171614 stays light, about 10:1.
CAPTION_OPACITY = 0.78

#: Chart axis text (tick labels, axis and colour-bar titles): Streamlit's Plotly theme draws them in its faded grey
#: #808495, 3.7:1 on the light theme's white (measured in Chromium, 2026-12-03). Drawn instead in the chart's own text
#: colour (``currentColor``: the theme's, light or dark) at :data:`CAPTION_OPACITY`: about 6.3:1 on white and 10:1 on
#: the dark background, a shade fainter than the data and titles. Annotations and legend keep their own colours.
AXIS_TEXT_SELECTOR = ", ".join(
    f"[data-testid='stPlotlyChart'] {inner} text"
    for inner in ("g[class$='tick']", "g[class^='g-x'][class$='title']", "g[class^='g-y'][class$='title']",
                  "g.cbaxis", "g.cbtitle")
)

#: Section headings are ``st.header`` (h2) under each page's ``st.title`` (h1), so a screen reader's outline has no
#: skipped level (``st.subheader`` is h3: the a11y QA found every page going from h1 to h3); drawn at the h3 size
#: Streamlit gave them (1.75rem: 28 px, beside the title's 44 px), not the h2's 36 px.
SECTION_HEADING_CSS = "[data-testid='stMain'] [data-testid='stHeadingWithActionElements'] h2 {font-size: 1.75rem;}"

#: The app shell's accessibility rules (a11y QA): caption and chart axis-text contrast (:data:`CAPTION_OPACITY`,
#: :data:`AXIS_TEXT_SELECTOR`), section headings one level under the title (:data:`SECTION_HEADING_CSS`) and a
#: visible keyboard focus (2 px outline, offset) on the sidebar's page links and buttons, which had none.
ACCESSIBLE_CSS = (
    "<style>"
    f"{SECTION_HEADING_CSS} "
    f"div[data-testid='stCaptionContainer'] {{opacity: {CAPTION_OPACITY};}}"
    f" {AXIS_TEXT_SELECTOR} {{fill: currentColor !important; fill-opacity: {CAPTION_OPACITY} !important;}}"
    " [data-testid='stSidebar'] a:focus-visible, [data-testid='stSidebar'] button:focus-visible,"
    " [data-testid='stSidebarNav'] a:focus-visible {outline: 2px solid currentColor; outline-offset: 2px;"
    " border-radius: 4px;}"
    "</style>"
)


def hide_unreadable_cell_text() -> None:
    """Hide heatmap cell values Plotly shrank below a readable size (:data:`UNREADABLE_CELL_TEXT_CSS`); once per run."""
    st.html(UNREADABLE_CELL_TEXT_CSS)


def accessible_styles() -> None:
    """Inject the app shell's accessibility rules (:data:`ACCESSIBLE_CSS`); once per run, from app.py."""
    st.html(ACCESSIBLE_CSS)


def chart(fig: go.Figure, summary: str, table: pd.DataFrame | None = None, *, key: str, **kwargs) -> object:
    """Draw ``fig`` full width with its text alternative: ``summary`` (plain text, one sentence) as a caption under
    it and, where the figure holds numbers shown nowhere else, ``table`` in a "Show as a table" expander.

    Build both with :mod:`dashboard.tables.chart_text`; ``kwargs`` go to ``st.plotly_chart`` (``on_select``...).
    The table is sent only once the expander is opened (``<key>_table``): a 300-model heatmap's grid is 90,000 cells,
    and a closed expander adds no grid to the page (nor to a printed presentation). Returns what ``st.plotly_chart``
    returns.
    """
    event = st.plotly_chart(fig, width="stretch", key=key, **kwargs)
    st.caption(md(summary))
    if table is not None:
        box = st.expander("Show as a table", icon=":material/table:", key=f"{key}_table", on_change="rerun")
        if box.open:
            box.dataframe(table, hide_index=True, width="stretch")
    return event
