"""Questions-page figures: the item characteristic curve of one question, and flag counts."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go
from scipy.special import expit

from dashboard.figures.theme import NEUTRAL, PALETTE, apply_theme, plain

__all__ = ["item_curve", "flag_bars"]


def _theta_range(theta: np.ndarray, b: float) -> tuple[float, float]:
    finite = theta[np.isfinite(theta)]
    points = np.concatenate([finite, [b] if np.isfinite(b) else [], [-3.0, 3.0]])
    lo, hi = float(points.min()), float(points.max())
    pad = 0.08 * (hi - lo)
    return lo - pad, hi + pad


def item_curve(a: float, b: float, theta, observed_rate, names, *, a_se: float | None = None,
               b_se: float | None = None, question: str | None = None, confidence: float = 0.95) -> go.Figure:
    """Item characteristic curve ``P(correct) = expit(a (theta - b))`` with the models placed on it.

    Parameters
    ----------
    a, b : float
        The question's discrimination and difficulty (:func:`scorio_core.items.fit_irt`).
    theta : array_like, shape (L,)
        The models' abilities.
    observed_rate : array_like, shape (L,)
        Each model's observed success rate on this question; NaN where it has no trial (not drawn).
    names : sequence of str, length L
        Model names (escaped here; shown on hover).
    a_se, b_se : float, optional
        Laplace standard errors; when both are given a pointwise band ``expit(eta +- z sd)`` with
        ``sd^2 = (theta - b)^2 a_se^2 + a^2 b_se^2`` is drawn (the a-b covariance ignored).
    question : str, optional
        Question id for the title (escaped).
    confidence : float, default 0.95
        Level of the band.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces, in order: the band (when SEs are given), the curve, the models' markers; a dotted
        vertical line at ``b``. x axis: ability theta over a range covering every model and ``b`` (at
        least [-3, 3]); y axis: probability of success in [0, 1].

    Raises
    ------
    ValueError
        ``theta``, ``observed_rate`` and ``names`` differ in length.
    """
    from scipy.special import ndtri

    theta = np.asarray(theta, dtype=float).ravel()
    rate = np.asarray(observed_rate, dtype=float).ravel()
    names = [str(n) for n in names]
    if not (len(theta) == len(rate) == len(names)):
        raise ValueError(f"theta, observed_rate and names must have one entry per model; got {len(theta)}, "
                         f"{len(rate)} and {len(names)}.")
    a, b = float(a), float(b)
    lo, hi = _theta_range(theta, b)
    x = np.linspace(lo, hi, 201)
    fig = go.Figure()
    if a_se is not None and b_se is not None and np.isfinite(a_se) and np.isfinite(b_se):
        z = float(ndtri(0.5 + confidence / 2))
        eta = a * (x - b)
        sd = np.sqrt((x - b) ** 2 * float(a_se) ** 2 + a ** 2 * float(b_se) ** 2)
        pct = f"{confidence:.0%}"
        fig.add_trace(go.Scatter(x=np.concatenate([x, x[::-1]]),
                                 y=np.concatenate([expit(eta + z * sd), expit(eta - z * sd)[::-1]]),
                                 fill="toself", mode="none", fillcolor="rgba(0,114,178,0.3)",
                                 name=f"{pct} band (Laplace)", hoverinfo="skip"))
    fig.add_trace(go.Scatter(x=x, y=expit(a * (x - b)), mode="lines", name="fitted P(correct)",
                             line=dict(color=PALETTE[0], width=2.5),
                             hovertemplate="ability %{x:.2f}<br>P(correct) %{y:.3f}<extra></extra>"))
    seen = np.isfinite(rate) & np.isfinite(theta)
    fig.add_trace(go.Scatter(
        x=theta[seen], y=rate[seen], mode="markers", name="models (observed rate)",
        marker=dict(size=10, color=PALETTE[3], line=dict(color="white", width=1)),
        customdata=plain([n for n, k in zip(names, seen) if k]),
        hovertemplate="%{customdata}<br>ability %{x:.2f}<br>observed success %{y:.3f}<extra></extra>",
    ))
    fig.add_vline(x=b, line=dict(color=NEUTRAL, dash="dot", width=1.5))
    # beside the dotted line, not on it (the line ran through the label's text)
    fig.add_annotation(x=b, y=1.04, text=f"difficulty b = {b:.2f}", showarrow=False, yanchor="bottom",
                       xanchor="left" if b <= (lo + hi) / 2 else "right", xshift=6 if b <= (lo + hi) / 2 else -6,
                       font=dict(size=11))
    title = None if question is None else f"Question {plain(str(question))}: a = {a:.2f}, b = {b:.2f}"
    apply_theme(fig, title=title, height=420)
    # the legend goes below the axis: at the top it would overlap the title
    fig.update_layout(margin=dict(b=90), legend=dict(y=-0.22, yanchor="top"))
    fig.update_xaxes(title_text="ability (theta)", range=[lo, hi], zeroline=False)
    fig.update_yaxes(title_text="probability of success", range=[-0.05, 1.12], tickformat=".0%")
    return fig


def flag_bars(counts: Mapping[str, int]) -> go.Figure:
    """Horizontal bars: how many questions carry each flag.

    Parameters
    ----------
    counts : mapping of flag code to int
        In display order (e.g. :data:`scorio_core.items.FLAG_CODES`); codes are escaped.

    Returns
    -------
    plotly.graph_objects.Figure
        One bar trace; y axis the codes (first code on top), x axis the number of questions; with every count 0
        an annotation "No question flagged".
    """
    codes = [str(c) for c in counts]
    values = [int(counts[c]) for c in counts]
    fig = go.Figure(go.Bar(x=values, y=plain(codes), orientation="h", marker_color=PALETTE[0],
                           text=[f"{v:,}" for v in values], textposition="auto",
                           hovertemplate="%{y}: %{x:,} questions<extra></extra>"))
    apply_theme(fig, height=60 + 32 * max(len(codes), 1))
    fig.update_xaxes(title_text="questions", rangemode="tozero")
    fig.update_yaxes(autorange="reversed")
    if not any(values):  # an empty 0-1 axis reads as a broken chart: say it
        fig.update_xaxes(range=[0, 1], showticklabels=False)
        fig.add_annotation(x=0.5, y=0.5, xref="paper", yref="paper", text="No question flagged", showarrow=False,
                           font=dict(size=14, color=NEUTRAL))
    return fig
