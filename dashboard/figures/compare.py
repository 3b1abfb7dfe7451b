"""Compare-page figures: posterior of the difference, per-question scores, trials needed."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.theme import MUTED, NEUTRAL, PALETTE, apply_theme, plain
from scorio_core.report.verdict import format_probability

__all__ = ["difference_plot", "question_scatter", "trials_plot", "OUTCOME_COLORS", "OUTCOME_SYMBOLS"]

#: Colour of each per-question outcome (keys: scorio_core.ranking.compare.OUTCOME_LABELS).
OUTCOME_COLORS = {
    "only A solves": PALETTE[0],
    "only B solves": PALETTE[3],
    "both, A more often": PALETTE[5],
    "both, B more often": PALETTE[1],
    "both, equally often": NEUTRAL,
    "both always": PALETTE[2],
    "neither": PALETTE[4],  # was black: invisible on the dark theme
    "not answered by both": MUTED,  # translucent grey: de-emphasised on either background
}
#: Marker of each outcome: told apart without colour (accessibility QA: under deuteranopia "only B solves" and "both,
#: B more often" were the same olive, and every outcome a circle). A's wins point right, B's up.
OUTCOME_SYMBOLS = {
    "only A solves": "triangle-right",
    "only B solves": "triangle-up",
    "both, A more often": "triangle-right-open",
    "both, B more often": "triangle-up-open",
    "both, equally often": "diamond",
    "both always": "square",
    "neither": "x",
    "not answered by both": "circle-open",
}


def difference_plot(x: np.ndarray, density: np.ndarray, *, mean: float, lo: float, hi: float, rho: float,
                    name_a: str, name_b: str, confidence: float = 0.95, metric_label: str = "Bayes@N",
                    kind: str = "credible") -> go.Figure:
    """Posterior density of ``mu_A - mu_B`` with its credible interval shaded and zero marked.

    Parameters
    ----------
    x, density : ndarray
        Grid and density (:func:`scorio_core.ranking.compare.difference_density`); empty for a point mass.
    mean, lo, hi, rho : float
        Posterior mean, credible interval and ``P(A > B)``.
    name_a, name_b : str
        Model names (escaped here).
    kind : {"credible", "approximate"}
        ``DifferencePosterior.kind``: with ``"approximate"`` (a model's empirical-Bayes prior not identified, N = 1)
        the legend, hover and axis say "normal approximation", not posterior or credible.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces: density line, shaded interval, mean marker; a dashed line at 0.
    """
    a, b = plain(name_a), plain(name_b)
    pct = f"{int(round(confidence * 100))}%"
    credible = kind == "credible"
    interval, short = (f"{pct} credible interval", f"{pct} CrI") if credible else (
        f"{pct} interval (normal approximation)", f"{pct} interval")
    density_name, mean_name = ("posterior density", "posterior mean") if credible else (
        "density (normal approximation)", "estimate")
    fig = go.Figure()
    if len(x):
        inside = (x >= lo) & (x <= hi)
        fig.add_trace(go.Scatter(x=x[inside], y=density[inside], fill="tozeroy", mode="none", name=interval,
                                 fillcolor="rgba(0,114,178,0.22)", hoverinfo="skip"))
        fig.add_trace(go.Scatter(x=x, y=density, mode="lines", name=density_name, line=dict(color=PALETTE[0], width=2.5),
                                 hovertemplate="difference %{x:.4f}<extra></extra>"))
        top = float(np.max(density))
    else:
        top = 1.0
    fig.add_trace(go.Scatter(x=[mean], y=[0], mode="markers", name=mean_name, marker=dict(size=11, color=PALETTE[3], symbol="diamond"),
                             hovertemplate=f"mean %{{x:.4f}}<br>{short} [{lo:.4f}, {hi:.4f}]<extra></extra>"))
    fig.add_vline(x=0, line=dict(color=NEUTRAL, dash="dash", width=1.5))
    fig.add_annotation(x=0, y=top, text="no difference", showarrow=False, yshift=12, font=dict(size=11))
    fig.add_annotation(xref="paper", yref="paper", x=1, y=1, xanchor="right", showarrow=False, align="right",
                       text=f"P({a} > {b}){_relation(format_probability(rho))}", font=dict(size=13))
    fig.update_xaxes(title=f"{metric_label}: {a} minus {b}", zeroline=False)
    fig.update_yaxes(title=density_name, showticklabels=False, zeroline=False, rangemode="tozero")
    return apply_theme(fig, height=360)


def _relation(probability: str) -> str:
    """``" = 61.1%"``, or ``" > 99.9%"`` where the formatted value is a bound already (not "= > 99.9%")."""
    return f" {probability}" if probability[:1] in "<>" else f" = {probability}"


def question_scatter(table: pd.DataFrame, *, name_a: str, name_b: str, score_label: str = "pass rate") -> go.Figure:
    """Per-question score of A (x) against B (y); points off the diagonal are disagreements.

    Parameters
    ----------
    table : DataFrame
        :func:`scorio_core.ranking.compare.disagreement_table` rows (``question, outcome, score_a, score_b``).

    Returns
    -------
    plotly.graph_objects.Figure
        One scatter trace per outcome present, and the diagonal.
    """
    a, b = plain(name_a), plain(name_b)
    rows = table[table["score_a"].notna() & table["score_b"].notna()]
    lo = float(min(rows["score_a"].min(), rows["score_b"].min())) if len(rows) else 0.0
    hi = float(max(rows["score_a"].max(), rows["score_b"].max())) if len(rows) else 1.0
    pad = 0.04 * ((hi - lo) or 1.0)
    fig = go.Figure(go.Scatter(x=[lo, hi], y=[lo, hi], mode="lines", line=dict(color=NEUTRAL, dash="dot"),
                               showlegend=False, hoverinfo="skip"))
    for outcome, color in OUTCOME_COLORS.items():
        part = rows[rows["outcome"] == outcome]
        if part.empty:
            continue
        fig.add_trace(go.Scatter(
            x=part["score_a"], y=part["score_b"], mode="markers", name=outcome.replace("A", a, 1).replace("B", b, 1)
            if outcome.startswith("only") else outcome,
            marker=dict(size=9, color=color, opacity=0.75, symbol=OUTCOME_SYMBOLS[outcome],
                        line=dict(width=0.5 if not OUTCOME_SYMBOLS[outcome].endswith("-open") else 1.5,
                                  color="white" if not OUTCOME_SYMBOLS[outcome].endswith("-open") else color)),
            text=plain(part["question"]),
            hovertemplate=f"question %{{text}}<br>{a}: %{{x:.3f}}<br>{b}: %{{y:.3f}}<extra>{outcome}</extra>",
        ))
    fig.update_xaxes(title=f"{a}: {score_label}", range=[lo - pad, hi + pad], zeroline=False)
    fig.update_yaxes(title=f"{b}: {score_label}", range=[lo - pad, hi + pad], zeroline=False)
    apply_theme(fig, height=480)
    fig.update_layout(legend=dict(orientation="h", x=0, y=-0.18, yanchor="top"), margin=dict(b=110))
    return fig


def trials_plot(n: np.ndarray, z: np.ndarray, *, z_threshold: float, n_needed: int | None, n_observed: int,
                z_observed: float, confidence: float = 0.95, n_power: int | None = None,
                z_power: float | None = None, power: float = 0.8, observed_label: str | None = None) -> go.Figure:
    """Projected separation ``z`` of two models against trials per question N (log axis).

    ``observed_label`` names the observed N in the legend (e.g. ``"1-8"`` where questions have
    different numbers of trials; the point sits at ``n_observed``); default ``str(n_observed)``.

    Returns
    -------
    plotly.graph_objects.Figure
        Traces: the z(N) curve, the observed point, the plug-in N point (about 50% power)
        and the N for ``power`` (when reached); horizontal lines at the threshold and at the
        z that gives ``power``.
    """
    pct = f"{int(round(confidence * 100))}%"
    fig = go.Figure(go.Scatter(x=n, y=z, mode="lines", name="projected z", line=dict(color=PALETTE[0], width=2.5),
                               hovertemplate="N = %{x}<br>z = %{y:.2f}<extra></extra>"))
    fig.add_hline(y=z_threshold, line=dict(color=PALETTE[3], dash="dash"),
                  annotation_text=f"separated at {pct} (z = {z_threshold:.3f})", annotation_position="top left")
    fig.add_trace(go.Scatter(x=[n_observed], y=[z_observed], mode="markers", name=f"observed (N = {observed_label or n_observed})",
                             marker=dict(size=12, color=NEUTRAL, symbol="circle", line=dict(width=1.5, color=PALETTE[0])),
                             hovertemplate="observed: N = %{x}, z = %{y:.2f}<extra></extra>"))
    if n_needed is not None and n_needed <= int(n[-1]):
        fig.add_trace(go.Scatter(x=[n_needed], y=[float(z[n_needed - 1])], mode="markers",
                                 name=f"plug-in N = {n_needed:,} (~50% power)",
                                 marker=dict(size=11, color=PALETTE[3], symbol="diamond-open"),
                                 hovertemplate="plug-in N = %{x:,} (about 50% power)<extra></extra>"))
    if z_power is not None:  # its label sits at the right so it never overlaps the threshold's
        fig.add_hline(y=z_power, line=dict(color=PALETTE[2], dash="dot"),
                      annotation_text=f"{power:.0%} power (z = {z_power:.3f})", annotation_position="bottom right")
    if n_power is not None and n_power <= int(n[-1]):
        fig.add_trace(go.Scatter(x=[n_power], y=[float(z[n_power - 1])], mode="markers",
                                 name=f"N for {power:.0%} power = {n_power:,}",
                                 marker=dict(size=13, color=PALETTE[2], symbol="star"),
                                 hovertemplate=f"N for {power:.0%} power = %{{x:,}}<extra></extra>"))
    top = int(n[-1]) if len(n) else 1
    ticks = [v for v in (1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000, 2000, 5000, 10000) if v <= top] or [1]
    fig.update_xaxes(title="trials per question N", type="log", tickvals=ticks, ticktext=[f"{v:,}" for v in ticks])
    fig.update_yaxes(title="separation z", rangemode="tozero")
    return apply_theme(fig, height=380)
