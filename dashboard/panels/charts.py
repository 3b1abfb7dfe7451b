"""Charts every new session draws with the same inputs: built once per server process, then shared.

Building a Plotly figure runs plotly's validation of every trace and layout property: the Leaderboard's
interval chart on 16 models takes 47-53 ms to build (2026-11-30, one core), more than the rest of that page's
script, and every new session on the default view (a stakeholder opening a link) built the same one again.
``st.cache_resource`` keeps the built figure object (``st.cache_data`` would pickle it, and unpickling a figure
validates it again); ``st.plotly_chart`` only reads it (it copies the figure with ``to_dict``). The figure is
shared between sessions: nothing may mutate it.

Also the one style rule every page's charts share: heatmap values Plotly shrank below a readable size are hidden.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard.figures import interval_plot

__all__ = ["show_interval_plot", "hide_unreadable_cell_text", "UNREADABLE_CELL_TEXT_CSS"]


@st.cache_resource(show_spinner=False, max_entries=16)
def _interval_figure(table: pd.DataFrame, metric_label: str, confidence: float, show_estimate: bool,
                     labels: dict, tie_rule: str | None) -> go.Figure:
    return interval_plot(table, metric_label=metric_label, confidence=confidence, show_estimate=show_estimate,
                         labels=labels, tie_rule=tie_rule)


def show_interval_plot(table: pd.DataFrame, *, metric_label: str, confidence: float, show_estimate: bool,
                       labels: dict, tie_rule: str | None) -> None:
    """Draw :func:`dashboard.figures.interval_plot` of ``table`` (keyword arguments as there), from the server's cache.

    The cache key is the table's content and every argument, so a session with other settings, data or display
    names gets its own figure; 16 figures are kept (least recently used dropped; one of 300 models holds ~1.5 MB).
    """
    figure = _interval_figure(table, metric_label, float(confidence), bool(show_estimate), dict(labels),
                              tie_rule)
    st.plotly_chart(figure, width="stretch")


#: Heatmap cell values are sized by Plotly to their cell (:data:`dashboard.figures.theme.CELL_TEXT`): on a phone a
#: 15-column grid's cells are 6 px wide and its values shrink to 1-5 px, specks that read as dashes. Hidden below
#: 6 px (the hover keeps every value); Plotly's own ``uniformtext`` hiding does not apply to heatmaps.
UNREADABLE_CELL_TEXT_CSS = "<style>" + ", ".join(
    f"[data-testid='stPlotlyChart'] text[data-notex='1'][style*='font-size: {px}px']" for px in range(1, 6)
) + " {display: none;}</style>"


def hide_unreadable_cell_text() -> None:
    """Hide heatmap cell values Plotly shrank below a readable size (:data:`UNREADABLE_CELL_TEXT_CSS`); once per run."""
    st.html(UNREADABLE_CELL_TEXT_CSS)
