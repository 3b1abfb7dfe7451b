"""Rank trajectories (paper Figure 9) and Bayes@N credible bands vs the number of trials."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from dashboard.figures.theme import MUTED, NEUTRAL, PALETTE, apply_theme, plain, readable

__all__ = ["model_colors", "rank_trajectory_plot", "credible_band_grid"]

#: The dashboard palette, then Plotly's Dark24 colours that read on white and on the dark theme (its near-black
#: "#222A2A", navy and plum lines vanished there).
_LINE_COLORS = tuple(dict.fromkeys([*PALETTE, *(c for c in qualitative.Dark24 if readable(c))]))


def model_colors(count: int) -> list[str]:
    """``count`` line colours, each with a contrast of at least 3:1 on white and on the dark theme (cycling)."""
    return [_LINE_COLORS[i % len(_LINE_COLORS)] for i in range(count)]



def _colors_for(names: list[str], color_order) -> list[str]:
    """Colour of each name: by its position in ``color_order`` (escaped names), else in ``names``."""
    order = list(color_order) if color_order is not None else names
    palette = model_colors(len(order))
    lookup = {name: palette[i] for i, name in enumerate(order)}
    extra = model_colors(len(order) + len(names))[len(order):]
    return [lookup.get(name) or extra[i] for i, name in enumerate(names)]


def _end_labels(names: list[str], x: float, y: np.ndarray, colors: list[str], xanchor: str) -> list[dict]:
    """Model names next to the line ends (annotation dicts); models sharing a rank share one label.

    The name is in the theme's text colour (readable on both themes at 11 px; in a line's colour it fell to 3.1:1),
    after a square in its line's colour that ties it to the line.

    Returned as plain dicts for one ``update_layout(annotations=...)``: ``add_annotation`` per label revalidates
    every earlier annotation, quadratic in the number of models (42 s for 300 models' bump chart).
    """
    groups: dict[float, list[int]] = {}
    for i, value in enumerate(y):
        if np.isfinite(value):
            groups.setdefault(float(value), []).append(i)
    out = []
    for value, members in groups.items():
        shown = ", ".join(names[i] for i in members[:3]) + (f" +{len(members) - 3}" if len(members) > 3 else "")
        swatch = colors[members[0]] if len(members) == 1 else NEUTRAL
        out.append(dict(x=x, y=value, text=f"<span style='color:{swatch}'>\u25a0</span> {shown}", showarrow=False,
                        xanchor=xanchor, xshift=6 if xanchor == "left" else -6, font=dict(size=11)))
    return out


def rank_trajectory_plot(
    models,
    n,
    ranks,
    *,
    convergence: int | None = None,
    highlight=(),
    title: str | None = None,
    metric_label: str = "Bayes@N",
    color_order=None,
) -> go.Figure:
    """Rank of every model after n trials, one line per model, rank 1 on top.

    Parameters
    ----------
    models : sequence of str, length L
        Model names (colours follow this order).
    n : array-like of int, shape (N,)
        Trial counts 1..N.
    ranks : array-like of float, shape (L, N)
        Competition ranks; NaN where the metric is undefined (``n < k``).
    convergence : int, optional
        convergence@n: a vertical line marks it; None draws a "no convergence" note.
    highlight : sequence of str
        Models drawn in colour; the others in grey (all in colour when empty).
    title : str, optional
    metric_label : str
        Metric the ranks come from (hover text).
    color_order : sequence of str, optional
        Models in palette order (e.g. best first), so a model keeps its colour across charts.

    Returns
    -------
    plotly.graph_objects.Figure
        One line trace per model (legend hidden; names at the right end), y axis reversed.
    """
    names = plain(models)
    R = np.asarray(ranks, dtype=float)
    x = np.asarray(n)
    L = len(names)
    colors = _colors_for(names, None if color_order is None else plain(color_order))
    focus = set(plain(highlight))
    fig = go.Figure()
    order = sorted(range(L), key=lambda i: names[i] in focus)  # highlighted lines drawn last (on top)
    traces = []
    for i in order:  # one trace per model, added at once (add_trace per model copies the figure's data each time)
        muted = bool(focus) and names[i] not in focus
        traces.append(go.Scatter(
            x=x, y=R[i], mode="lines", name=names[i], connectgaps=False,
            line=dict(color=MUTED if muted else colors[i], width=1.2 if muted else 2.2, shape="hv"),
            hovertemplate=f"<b>{names[i]}</b><br>n = %{{x}}<br>{metric_label} rank %{{y}}<extra></extra>",
        ))
    fig.add_traces(traces)
    final = R[:, -1]
    notes = _end_labels(names, float(x[-1]), final, [(NEUTRAL if focus and nm not in focus else c) for nm, c in zip(names, colors)], "left")
    if convergence is not None:
        fig.add_vline(x=convergence, line=dict(color=NEUTRAL, width=2, dash="dash"))
        notes.append(dict(x=convergence, y=1, yref="paper", yanchor="bottom", text=f"convergence@n = {convergence}",
                          showarrow=False, font=dict(size=12), xanchor="left", xshift=4))  # the theme's text colour
    else:
        notes.append(dict(x=1, y=1, xref="paper", yref="paper", yanchor="bottom", xanchor="right",
                          text=f"no convergence within N = {int(x[-1])}", showarrow=False, font=dict(size=12, color=PALETTE[3])))
    fig.update_layout(annotations=notes)
    fig.update_yaxes(autorange=False, range=[L + 0.5, 0.5], title="competition rank (1 = best)",
                     dtick=1 if L <= 25 else None, zeroline=False)
    fig.update_xaxes(title="number of trials n", range=[float(x[0]) - 0.5, float(x[-1]) + 0.5], zeroline=False,
                     tickformat="d", dtick=1 if len(x) <= 20 else None)  # whole trials only (never 0.5, 1.5, ...)
    apply_theme(fig, title=title, height=max(380, 24 * L + 140))
    fig.update_layout(showlegend=False, margin=dict(r=190), hovermode="closest")
    return fig


def credible_band_grid(
    band: pd.DataFrame,
    *,
    models,
    metric_label: str = "Bayes@N",
    confidence: float = 0.95,
    columns: int = 4,
    x_title: str = "number of trials n",
    color_order=None,
    interval_name: str = "credible interval",
) -> go.Figure:
    """Small multiples: each model's posterior mean and credible band after n trials.

    Parameters
    ----------
    band : DataFrame
        ``model, n, mu, lo, hi`` (see :func:`dashboard.tables.analysis.band_frame`).
    models : sequence of str
        Models to draw, one panel each, in this order.
    metric_label : str
    confidence : float
        Credibility of the band, for the legend.
    columns : int
        Panels per row.
    x_title : str
    color_order : sequence of str, optional
        Models in palette order, as in :func:`rank_trajectory_plot`.
    interval_name : str, default "credible interval"
        What the band is, after the level in the legend (e.g. where a refitted prior is not identified at small n,
        the band there is a normal approximation, not a credible interval).

    Returns
    -------
    plotly.graph_objects.Figure
        Per model a filled band trace and a mean line; a dotted line at the value after N
        trials. All panels share the y axis.
    """
    models = list(models)
    cols = max(1, min(columns, len(models)))
    rows = max(1, -(-len(models) // cols))
    fig = make_subplots(rows=rows, cols=cols, shared_xaxes="all", shared_yaxes="all", subplot_titles=plain(models),
                        horizontal_spacing=0.03, vertical_spacing=0.12 if rows > 1 else 0.08)
    colors = _colors_for(plain(models), None if color_order is None else plain(color_order))
    level = f"{int(round(confidence * 100))}% {interval_name}"
    for i, model in enumerate(models):
        r, c = i // cols + 1, i % cols + 1
        rows_m = band[band["model"] == model]
        x = rows_m["n"].to_numpy()
        fig.add_trace(go.Scatter(
            x=np.concatenate([x, x[::-1]]), y=np.concatenate([rows_m["hi"].to_numpy(), rows_m["lo"].to_numpy()[::-1]]),
            # plotly marks the interval's ends on short traces (fewer than 20 points): in the model's own colour, not
            # the colourway's next one (another model's)
            marker=dict(color=colors[i]), fill="toself", fillcolor=colors[i], opacity=0.22,
            line=dict(width=0, color=colors[i]), hoverinfo="skip",
            name=level, legendgroup="band", showlegend=i == 0,
        ), row=r, col=c)
        fig.add_trace(go.Scatter(
            x=x, y=rows_m["mu"], mode="lines", line=dict(color=colors[i], width=2), name=f"{metric_label} mean",
            legendgroup="mean", showlegend=i == 0, customdata=np.stack([rows_m["lo"], rows_m["hi"]], axis=1),
            hovertemplate=(f"<b>{plain(model)}</b><br>n = %{{x}}<br>mean %{{y:.4f}}<br>"
                           "interval [%{customdata[0]:.4f}, %{customdata[1]:.4f}]<extra></extra>"),
        ), row=r, col=c)
        if len(rows_m):
            fig.add_hline(y=float(rows_m["mu"].iloc[-1]), line=dict(color=NEUTRAL, width=1, dash="dot"), row=r, col=c)
    fig.update_xaxes(showgrid=False, zeroline=False, tickformat="d")
    fig.update_yaxes(zeroline=False)
    for c in range(1, cols + 1):
        fig.update_xaxes(title_text=x_title, title_font=dict(size=11), row=rows, col=c)
    fig.update_yaxes(title_text=metric_label, row=None, col=1)
    fig.update_annotations(font=dict(size=12))
    apply_theme(fig, height=max(300, 210 * rows + 90) + 30)
    # the legend in the top strip of the figure, above the first row's panel titles (at the theme's y = 1.02 of the
    # plot area it sat on them)
    fig.update_layout(legend=dict(yref="container", y=1.0, yanchor="top"), margin=dict(t=60))
    return fig
