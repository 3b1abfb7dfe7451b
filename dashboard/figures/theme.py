"""Shared look of every figure: fonts, margins, a colour-blind-safe qualitative palette."""

from __future__ import annotations

import html

import plotly.graph_objects as go

__all__ = ["PALETTE", "apply_theme", "group_color", "plain"]

# Okabe-Ito (colour-blind safe), then Tableau extras for long lists
PALETTE = (
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000",
    "#4E79A7", "#F28E2B", "#59A14F", "#E15759", "#B07AA1", "#76B7B2", "#EDC948", "#9C755F",
)


def group_color(index: int) -> str:
    """Colour of the ``index``-th group (cycles)."""
    return PALETTE[index % len(PALETTE)]


def apply_theme(fig: go.Figure, *, title: str | None = None, height: int | None = None) -> go.Figure:
    """Apply the dashboard's layout defaults in place and return the figure."""
    fig.update_layout(
        template="plotly_white",
        title=dict(text=title, x=0, xanchor="left", font=dict(size=16)) if title else None,
        margin=dict(l=10, r=20, t=50 if title else 20, b=40),
        font=dict(family="Inter, Segoe UI, Helvetica, Arial, sans-serif", size=13),
        hoverlabel=dict(font_size=12),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0),
    )
    if height:
        fig.update_layout(height=height)
    return fig


def plain(values):
    """Escape user text (model names, labels) so Plotly shows it literally, never as markup.

    Plotly renders a subset of HTML in labels and hover text (``<b>``, ``<a href>``...);
    escaping ``<``, ``>`` and ``&`` makes a model called ``<b>x</b>`` display as typed.
    """
    if isinstance(values, str):
        return html.escape(values, quote=False)
    return [html.escape(str(v), quote=False) for v in values]
