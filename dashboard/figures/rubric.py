"""Rubric-page figures: category distribution per model."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from dashboard.figures.theme import UNMATCHED_COLOR, apply_theme, category_colors, plain

__all__ = ["category_bars"]


def category_bars(models, labels, counts: np.ndarray, unmatched: np.ndarray, weights) -> go.Figure:
    """Stacked horizontal bars: share of each model's attempts in each category.

    Parameters
    ----------
    models : sequence of str, length L (drawn top to bottom in this order)
    labels : sequence of str, length C+1
    counts : ndarray of int (L, C+1)
        Attempts per model and category.
    unmatched : ndarray of int (L,)
        Attempts no category matched (drawn last, grey, only when any).
    weights : array-like (C+1,)
        Category weights, for colours and the legend ("label (w = 2)").

    Returns
    -------
    plotly.graph_objects.Figure
        One bar trace per category (plus "no category"), ``barmode="stack"``, x in percent.
    """
    counts = np.asarray(counts, dtype=float)
    unmatched = np.asarray(unmatched, dtype=float)
    total = counts.sum(axis=1) + unmatched
    share = np.divide(counts, total[:, None], out=np.zeros_like(counts), where=total[:, None] > 0)
    colors = category_colors(weights)
    y = plain(models)
    fig = go.Figure()
    for j, (label, color) in enumerate(zip(plain(labels), colors)):
        fig.add_trace(go.Bar(
            y=y, x=100 * share[:, j], orientation="h", name=f"{label} (w = {float(weights[j]):g})",
            marker=dict(color=color, line=dict(width=0)), customdata=counts[:, j],
            hovertemplate=f"<b>%{{y}}</b><br>{label}: %{{customdata:.0f}} attempts (%{{x:.1f}}%)<extra></extra>",
        ))
    if np.any(unmatched > 0):
        fig.add_trace(go.Bar(
            y=y, x=100 * np.divide(unmatched, total, out=np.zeros_like(unmatched), where=total > 0), orientation="h",
            name="no category matched", marker=dict(color=UNMATCHED_COLOR, pattern=dict(shape="/")),
            customdata=unmatched, hovertemplate="<b>%{y}</b><br>no category: %{customdata:.0f} attempts (%{x:.1f}%)<extra></extra>",
        ))
    fig.update_layout(barmode="stack", bargap=0.25)
    fig.update_xaxes(title="share of attempts (%)", range=[0, 100], ticksuffix="%")
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=y, autorange="reversed", automargin=True)
    apply_theme(fig, height=max(240, 24 * len(y) + 150))
    fig.update_layout(legend=dict(orientation="h", y=1.02, yanchor="bottom", traceorder="normal"), margin=dict(t=60))
    return fig
