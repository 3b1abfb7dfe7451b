"""convergence@n distributions (paper Figures 1 and 11) and mean Kendall's tau_b vs n (Figure 3)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from dashboard.figures.theme import NEUTRAL, PALETTE, apply_theme, plain
from scorio_core.dynamics.explain import format_share

__all__ = ["method_colors", "convergence_plot", "kendall_tau_plot"]


def method_colors(methods) -> dict[str, str]:
    """A fixed colour per method label, in the given order (Bayes@N first gets blue)."""
    return {m: PALETTE[i % len(PALETTE)] for i, m in enumerate(methods)}


def _legend_name(label: str, mean: float, never: float) -> str:
    """When ``label``'s ranking settles: the mean is over the replicates that do, so a mostly unsettled method says so."""
    if never <= 0:
        return f"{label}: settles after {mean:.1f} trials on average"
    if never < 0.5:
        return f"{label}: settles after {mean:.1f} trials on average ({format_share(never)} of replicates never do)"
    return (f"{label}: the {format_share(1.0 - never)} of replicates that settle do so after {mean:.1f} trials on average; "
            f"{format_share(never)} never do")


def convergence_plot(curves: pd.DataFrame, summary: pd.DataFrame, *, n_max: int) -> go.Figure:
    """PMF (top) and CDF (bottom) of convergence@n for every method on one chart.

    Parameters
    ----------
    curves : DataFrame
        ``method, n, pmf, cdf`` (:func:`dashboard.tables.analysis.convergence_curves`);
        ``pmf[n] = P(convergence@n = n)``, ``cdf[n] = P(convergence@n <= n)``, n = 1..N-1.
    summary : DataFrame
        ``method, mean, no_convergence``: the legend shows both; the PMF panel marks the
        mean with a dotted vertical line (as Figure 1).
    n_max : int
        N, the number of trials (right end of the x axis).

    Returns
    -------
    plotly.graph_objects.Figure
        Two rows sharing the x axis; per method one PMF trace (legend entry) and one CDF
        trace (same legend group).
    """
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.07, row_heights=[0.5, 0.5],
                        subplot_titles=("Share of replicates whose ranking settles at exactly n trials",
                                        "Share settled after at most n trials"))
    methods = list(summary["method"])
    colors = method_colors(methods)
    for method in methods:
        row = summary[summary["method"] == method].iloc[0]
        data = curves[(curves["method"] == method) & curves["pmf"].notna()]
        label = plain(method)
        if not np.isfinite(row["mean"]):  # plain words: no replicate settled on the gold standard within N trials
            name = f"{label}: never settles within N trials"
        else:
            name = _legend_name(label, float(row["mean"]), float(row["no_convergence"]))
        fig.add_trace(go.Scatter(
            x=data["n"], y=data["pmf"], mode="lines", name=name, legendgroup=label,
            line=dict(color=colors[method], width=2, shape="hvh"), fill="tozeroy", opacity=0.85,
            hovertemplate=f"<b>{label}</b><br>n = %{{x}}<br>P = %{{y:.4f}}<extra></extra>",
        ), row=1, col=1)
        fig.add_trace(go.Scatter(
            x=data["n"], y=data["cdf"], mode="lines", name=name, legendgroup=label, showlegend=False,
            line=dict(color=colors[method], width=2.2, shape="hv"),
            hovertemplate=f"<b>{label}</b><br>n = %{{x}}<br>P(<= n) = %{{y:.4f}}<extra></extra>",
        ), row=2, col=1)
        if np.isfinite(row["mean"]):
            fig.add_vline(x=float(row["mean"]), line=dict(color=colors[method], width=1.5, dash="dot"), row=1, col=1)
    fig.add_hline(y=1.0, line=dict(color=NEUTRAL, width=1, dash="dot"), row=2, col=1)
    fig.update_xaxes(range=[0.5, n_max + 0.5], zeroline=False, tickformat="d", dtick=1 if n_max <= 20 else None)
    fig.update_xaxes(title_text="number of trials n", row=2, col=1)
    fig.update_yaxes(title_text="probability", rangemode="tozero", row=1, col=1)
    fig.update_yaxes(title_text="cumulative", range=[0, 1.04], row=2, col=1)
    fig.update_annotations(font=dict(size=12), xanchor="left", x=0)
    apply_theme(fig, height=620)
    fig.update_layout(legend=dict(orientation="h", yanchor="bottom", y=1.06, xanchor="left", x=0), margin=dict(t=90))
    return fig


def kendall_tau_plot(curves: pd.DataFrame, *, methods=None) -> go.Figure:
    """Mean Kendall's tau_b between the ranking after n trials and the gold standard (Figure 3).

    Parameters
    ----------
    curves : DataFrame
        ``method, n, tau`` (NaN where undefined, e.g. n < k).
    methods : sequence of str, optional
        Legend order (and colours, as :func:`convergence_plot`); default order of appearance.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per method; y axis ends at 1 (perfect agreement).
    """
    methods = list(methods) if methods is not None else list(dict.fromkeys(curves["method"]))
    colors = method_colors(methods)
    fig = go.Figure()
    for method in methods:
        data = curves[curves["method"] == method]
        label = plain(method)
        fig.add_trace(go.Scatter(
            x=data["n"], y=data["tau"], mode="lines", name=label, line=dict(color=colors[method], width=2.2),
            hovertemplate=f"<b>{label}</b><br>n = %{{x}}<br>mean tau_b %{{y:.4f}}<extra></extra>",
        ))
    low = curves["tau"].min()
    bottom = min(float(low) - 0.03, 0.9) if np.isfinite(low) else 0.0
    fig.add_hline(y=1.0, line=dict(color=NEUTRAL, width=1, dash="dot"))
    # whole trials only: plotly's automatic ticks at 1.5, 2.5 ... read "2", "3" twice under the integer format
    n_max = float(curves["n"].max()) if len(curves) else 1.0
    fig.update_xaxes(title="number of trials n", zeroline=False, tickformat="d", dtick=1 if n_max <= 20 else None)
    fig.update_yaxes(title="mean Kendall's tau_b vs gold standard", range=[max(bottom, -1.02), 1.02])
    return apply_theme(fig, height=400)
