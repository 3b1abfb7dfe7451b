"""Rubric sensitivity: ranks across schemata (bump chart, paper Figure 7) and rank stability."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.theme import (MUTED, NEUTRAL, PALETTE, SEQUENTIAL_SCALE, SEQUENTIAL_TEXT, apply_theme, name_ticks,
                                     plain, transparent_background)
from dashboard.figures.trajectory import model_colors

__all__ = ["schema_bump_chart", "rank_share_heatmap"]

#: Line dash and marker of the i-th model (cycling): models next to each other in ``models`` order (neighbouring
#: ranks, the ones that swap) differ in both, so a crossing reads without telling hues apart (a rank swap drawn only
#: red vs green was invisible to a red-green colour-blind reader).
_DASHES = ("solid", "dash", "dot")
_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x")


def schema_bump_chart(table: pd.DataFrame, *, schemas, models, highlight=(), rank_label: str = "competition rank") -> go.Figure:
    """Rank of every model under each schema, one line per model (paper Figure 7).

    Parameters
    ----------
    table : DataFrame
        ``schema, model, rank, mu`` (:func:`dashboard.tables.analysis.bump_frame`).
    schemas : sequence of str
        Column order (x axis).
    models : sequence of str
        Line order and colours (e.g. best first under the first schema).
    highlight : sequence of str
        Models drawn in colour (all when empty); the others grey.
    rank_label : str
        Y-axis title ("competition rank" or "rank with 95% CI ties").

    Returns
    -------
    plotly.graph_objects.Figure
        One line+marker trace per model (neighbours in ``models`` order differ in dash and marker); names beside
        both ends, clear of the markers; y axis reversed.
    """
    schema_names = plain(schemas)
    names = plain(models)
    colors = model_colors(len(names))
    focus = set(plain(highlight))
    fig = go.Figure()
    first, last = {}, {}
    # (model, schema) grids of rank and mean, in the given orders: one pivot, not a filter of the table per model
    rank = table.pivot_table(index="model", columns="schema", values="rank", aggfunc="first", dropna=False)
    rank = rank.reindex(index=list(models), columns=list(schemas))
    mu = table.pivot_table(index="model", columns="schema", values="mu", aggfunc="first", dropna=False)
    mu = mu.reindex(index=list(models), columns=list(schemas)).to_numpy(float)
    ranks = rank.to_numpy(float)
    traces = []
    for i in range(len(models)):  # traces and labels are added at once: per-item adds are quadratic in plotly
        muted = bool(focus) and names[i] not in focus
        color = MUTED if muted else colors[i]
        traces.append(go.Scatter(
            x=schema_names, y=ranks[i], mode="lines+markers", name=names[i],
            line=dict(color=color, width=1.2 if muted else 2.4, dash=_DASHES[i % len(_DASHES)]),
            marker=dict(size=7 if muted else 9, color=color, symbol=_SYMBOLS[i % len(_SYMBOLS)]),
            customdata=mu[i], connectgaps=False,
            hovertemplate=f"<b>{names[i]}</b><br>%{{x}}<br>rank %{{y}}<br>Bayes@N mean %{{customdata:.4f}}<extra></extra>",
        ))
        first.setdefault(ranks[i, 0], []).append(i)
        last.setdefault(ranks[i, -1], []).append(i)
    fig.add_traces(traces)
    notes = []
    for ends, x, anchor in ((first, schema_names[0], "right"), (last, schema_names[-1], "left")):
        for value, members in ends.items():
            if not np.isfinite(value):
                continue
            text = ", ".join(names[i] for i in members[:3]) + (f" +{len(members) - 3}" if len(members) > 3 else "")
            solo = len(members) == 1 and not (focus and names[members[0]] not in focus)
            # beside the end marker (xshift clears the marker and the line's last segment), never on the line
            notes.append(dict(x=x, y=value, text=text, showarrow=False, xanchor=anchor, xshift=14 if anchor == "left" else -14,
                              font=dict(size=11, color=colors[members[0]] if solo else NEUTRAL)))
    fig.update_layout(annotations=notes)
    L = len(names)
    # no horizontal grid: the end labels sit beside the end markers inside the plot area, where a grid line at every
    # rank struck through each label; each line's markers give its rank at every schema
    fig.update_yaxes(autorange=False, range=[L + 0.5, 0.5], dtick=1 if L <= 25 else None, title=rank_label, zeroline=False,
                     showgrid=False)
    fig.update_xaxes(type="category", tickangle=-30, title=None, showgrid=True)
    apply_theme(fig, height=max(420, 24 * L + 200))
    fig.update_layout(showlegend=False, margin=dict(l=170, r=170, b=110), hovermode="closest")
    return fig


def rank_share_heatmap(models, share, base_ranks, *, n_rubrics: int | None = None) -> go.Figure:
    """Share of perturbed rubrics in which each model holds each rank.

    Parameters
    ----------
    models : sequence of str, length L (rows, in this order, e.g. by unperturbed rank)
    share : array-like, shape (L, L)
        ``share[i, r - 1]``: share of perturbed rubrics with model i at rank r.
    base_ranks : array-like of int, shape (L,)
        Rank under the unperturbed rubric (outlined cell).
    n_rubrics : int, optional
        Number of perturbed rubrics, for the colour-bar title.

    Returns
    -------
    plotly.graph_objects.Figure
        A heatmap trace (percentages of at least 1% printed) and a marker trace outlining
        each model's unperturbed rank.
    """
    names = plain(models)
    P = np.asarray(share, dtype=float)
    L = len(names)
    ranks = [str(r) for r in range(1, L + 1)]
    text = np.where(P >= 0.01, np.char.add(np.char.mod("%.0f", 100 * P), "%"), "")
    title = "share of rubrics" if n_rubrics is None else f"share of {n_rubrics} rubrics"
    fig = go.Figure(go.Heatmap(
        z=P, x=ranks, y=names, zmin=0, zmax=1, colorscale=SEQUENTIAL_SCALE, xgap=1, ygap=1,
        text=text, texttemplate="%{text}" if L <= 30 else None, textfont=SEQUENTIAL_TEXT,  # halo: reads on dark too
        hovertemplate="<b>%{y}</b><br>rank %{x} in %{z:.1%} of perturbed rubrics<extra></extra>",
        colorbar=dict(title=dict(text=title, side="right"), thickness=12, tickformat=".0%"),
    ))
    fig.add_trace(go.Scatter(
        x=[str(int(r)) for r in base_ranks], y=names, mode="markers", name="rank under the unperturbed rubric",
        marker=dict(symbol="square-open", size=22 if L <= 20 else 14, color=PALETTE[3], line=dict(width=2)),
        hovertemplate="<b>%{y}</b><br>unperturbed rank %{x}<extra></extra>",
    ))
    fig.update_xaxes(type="category", title="rank (1 = best)", showgrid=False, categoryorder="array", categoryarray=ranks)
    fig.update_yaxes(type="category", autorange="reversed", showgrid=False, **name_ticks(models))  # whole on hover
    transparent_background(apply_theme(fig, height=max(320, 28 * L + 150)))  # zero cells show the page
    fig.update_layout(legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0))
    return fig
