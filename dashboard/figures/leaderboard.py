"""Leaderboard figures: the credible-interval (forest) plot."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.theme import apply_theme, group_color, plain

__all__ = ["interval_plot"]


def interval_plot(
    table: pd.DataFrame,
    *,
    metric_label: str = "Bayes@N",
    confidence: float = 0.95,
    show_estimate: bool = False,
) -> go.Figure:
    """Forest plot: one row per model, posterior mean with its credible interval, best on top.

    Parameters
    ----------
    table : DataFrame
        Leaderboard rows with ``model, mu, lo, hi, rank, rank_ci`` (and ``estimate``).
    metric_label : str
        Axis title, e.g. "Bayes@N".
    confidence : float
        Credibility of the intervals, for the axis title.
    show_estimate : bool
        Also mark the classical point estimate (e.g. unbiased Pass@k) when it differs from mu.

    Returns
    -------
    plotly.graph_objects.Figure
        One scatter trace per CI-tie group (colour = group sharing a ``rank_ci``), plus an
        optional estimate trace. Models that could not be scored are listed in the title note.
    """
    scored = table[table["mu"].notna()].sort_values("mu", ascending=True, kind="stable")
    fig = go.Figure()
    groups = list(dict.fromkeys(scored["rank_ci"].tolist()[::-1]))
    for gi, group in enumerate(groups):
        rows = scored[scored["rank_ci"] == group]
        fig.add_trace(
            go.Scatter(
                x=rows["mu"],
                y=plain(rows["model"]),
                mode="markers",
                name=f"rank {group} (CI tie)" if len(rows) > 1 else f"rank {group}",
                marker=dict(size=10, color=group_color(gi), line=dict(width=1, color="white")),
                error_x=dict(
                    type="data",
                    symmetric=False,
                    array=(rows["hi"] - rows["mu"]).to_numpy(),
                    arrayminus=(rows["mu"] - rows["lo"]).to_numpy(),
                    thickness=2.5,
                    width=0,
                    color=group_color(gi),
                ),
                customdata=np.stack([rows["lo"], rows["hi"], rows["rank"].astype(float), rows["rank_ci"].astype(float)], axis=1),
                hovertemplate=(
                    "<b>%{y}</b><br>mean %{x:.4f}<br>"
                    f"{int(round(confidence * 100))}% CrI [%{{customdata[0]:.4f}}, %{{customdata[1]:.4f}}]"
                    "<br>rank %{customdata[2]:.0f} (with CI ties %{customdata[3]:.0f})<extra></extra>"
                ),
            )
        )
    if show_estimate and "estimate" in scored and not np.allclose(scored["estimate"], scored["mu"], equal_nan=True):
        fig.add_trace(
            go.Scatter(
                x=scored["estimate"],
                y=plain(scored["model"]),
                mode="markers",
                name="point estimate",
                marker=dict(symbol="diamond-open", size=9, color="#555"),
                hovertemplate="<b>%{y}</b><br>point estimate %{x:.4f}<extra></extra>",
            )
        )
    fig.update_yaxes(categoryorder="array", categoryarray=plain(scored["model"]), title=None, automargin=True)
    fig.update_xaxes(title=f"{metric_label}: posterior mean and {int(round(confidence * 100))}% credible interval", zeroline=False)
    height = max(260, 34 * len(scored) + 120)
    missing = table.loc[table["mu"].isna(), "model"].tolist()
    apply_theme(fig, height=height)
    if missing:
        fig.add_annotation(
            text=f"not scored: {', '.join(plain(missing[:6]))}{' ...' if len(missing) > 6 else ''}",
            xref="paper", yref="paper", x=0, y=-0.12, showarrow=False, font=dict(size=11, color="#777"), xanchor="left",
        )
    return fig
