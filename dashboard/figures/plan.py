"""Plan-page figure: the projected probability that the planning goal holds against trials spent."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from dashboard.figures.theme import NEUTRAL, PALETTE, apply_theme, plain

__all__ = ["goal_projection_plot"]


def goal_projection_plot(trials, probability, *, confidence: float = 0.95, goal_label: str = "the goal") -> go.Figure:
    """Probability that the goal holds after each planned batch, per replay and on average.

    Parameters
    ----------
    trials : array_like, shape (R, B+1)
        Trials spent beyond the data so far after 0..B batches in each of R replays
        (:class:`scorio_core.plan.Projection`).
    probability : array_like, shape (R, B+1)
        The goal's posterior probability at those points.
    confidence : float, default 0.95
        The stopping level, drawn as a dashed line.
    goal_label : str, default "the goal"
        Plain words for the y-axis title (escaped).

    Returns
    -------
    plotly.graph_objects.Figure
        Traces, in order: one thin line per replay (legend group "replays", only the first in the legend),
        then the mean over replays against the median trials spent ("mean of replays"). A dashed line at
        ``confidence``. x axis: trials spent (beyond the data so far); y axis: probability in [0, 1].

    Raises
    ------
    ValueError
        ``trials`` and ``probability`` differ in shape or are not 2-D.
    """
    trials = np.asarray(trials, dtype=float)
    probability = np.asarray(probability, dtype=float)
    if trials.shape != probability.shape or trials.ndim != 2:
        raise ValueError(f"trials and probability must be 2-D arrays of one shape; got {trials.shape} and "
                         f"{probability.shape}.")
    fig = go.Figure()
    for r in range(trials.shape[0]):  # a handful of replays (the page draws <= 16): one line each
        fig.add_trace(go.Scatter(x=trials[r], y=probability[r], mode="lines", line={"width": 1, "color": PALETTE[0]},
                                 opacity=0.35, name="replays", legendgroup="replays", showlegend=r == 0,
                                 hovertemplate="%{x:,.0f} trials: P = %{y:.3f}<extra>replay</extra>"))
    fig.add_trace(go.Scatter(x=np.median(trials, axis=0), y=probability.mean(axis=0), mode="lines+markers",
                             line={"width": 3, "color": PALETTE[1]}, name="mean of replays",
                             hovertemplate="%{x:,.0f} trials (median): mean P = %{y:.3f}<extra></extra>"))
    fig.add_hline(y=confidence, line_dash="dash", line_color=NEUTRAL,
                  annotation_text=f"stop at {confidence:.0%}", annotation_position="bottom right")
    fig.update_layout(xaxis_title="trials spent (beyond the data so far)",
                      yaxis_title=f"P({plain(goal_label)})", yaxis_range=[0, 1.02], height=380)
    return apply_theme(fig)
