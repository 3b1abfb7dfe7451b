"""Leaderboard figures: forest plot, pairwise P(A > B), rank distribution, score vs cost."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from scorio_core.choices import has_fallback_interval
from scorio_core.leaderboard.order import board_order
from scorio_core.ranking.rank import rank_meaning
from scorio_core.report.tables import interval_abbrev, interval_name
from scorio_core.report.verdict import format_probabilities
from dashboard.figures.theme import (CELL_TEXT, NEUTRAL, PALETTE, PROBABILITY_SCALE, SEQUENTIAL_SCALE, SEQUENTIAL_TEXT,
                                     apply_theme, axis_title, name_ticks, plain, rank_colors, rank_symbols,
                                     transparent_background)
from dashboard.text import probability_cells

__all__ = ["interval_plot", "pairwise_heatmap", "rank_heatmap", "cost_scatter", "method_agreement_heatmap"]


#: Above this many CI-tie groups the forest plot has no legend (each point's hover names its rank).
LEGEND_GROUPS_MAX = 20


def _groups_in_order(scored: pd.DataFrame, groups: list):
    """``(group, rows)`` for each CI-tie group in ``groups`` order, rows in ``scored`` order (one groupby, not a filter
    of the table per group: hundreds of models are hundreds of groups)."""
    by = dict(tuple(scored.groupby("rank_ci", sort=False, dropna=False)))
    return [(g, by[g]) for g in groups]


def _axis_title(table: pd.DataFrame, metric_label: str, confidence: float) -> str:
    """The forest plot's axis title: a credible interval only where the rows' ``interval`` labels say so (a model
    whose empirical-Bayes prior is not identified has an exact binomial interval on its pooled answers)."""
    name = interval_name(table, confidence)
    if "exact binomial interval" in name:
        return f"{metric_label}: estimate and {name} (prior not identified)"
    return f"{metric_label}: posterior mean and {name}"


def interval_plot(
    table: pd.DataFrame,
    *,
    metric_label: str = "Bayes@N",
    confidence: float = 0.95,
    show_estimate: bool = False,
    labels=None,
    tie_rule: str | None = None,
    estimate_name: str | None = None,
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
    labels : mapping of str to str, optional
        Display name per model (:func:`scorio_core.report.names.display_names`) for the axis, cut in the middle
        beyond :data:`~dashboard.figures.theme.LABEL_CHARS` characters (a phone's width); the hover always shows the
        full name.
    tie_rule : str, optional
        The rule behind ``rank_ci``; the legend explains each shared rank in its terms
        (:func:`scorio_core.ranking.rank.rank_meaning`, e.g. "rank 7: 6 models credibly better").
    estimate_name : str, optional
        What the point is, for the axis title (default "posterior mean"; e.g. "posterior mode (MAP)" for IRT).

    Returns
    -------
    plotly.graph_objects.Figure
        One scatter trace per CI-tie group (colour = group sharing a ``rank_ci``: seven colour-blind-safe hues
        cycled, :func:`~dashboard.figures.theme.rank_colors`, and a marker symbol per cycle; traces and legend in
        rank order, no legend above :data:`LEGEND_GROUPS_MAX` groups), plus an optional estimate trace. With more
        than seven groups every row's label starts with its rank ("3 · model"), so no reader has to match colours
        to a legend. Models that could not be scored are listed in the title note.
    """
    # the table's order read from the top (exact ties by name, as the table): a plain ascending sort drew tied models
    # bottom-up in the table's order, so the chart's top read model-297 where the table's first row was model-010
    # (QA 2026-12-03, 300 models with tied means)
    scored = board_order(table[table["mu"].notna()], "mu").iloc[::-1]
    labels = dict(labels or {})
    short = interval_abbrev(table, confidence)  # "95% CrI", or "95% exact CI" where the prior is not identified
    # a model without a posterior sd (N = 1: pooled binomial) is not "credibly" better: the legend says the level
    fallback = has_fallback_interval(scored)
    better = f"better at {confidence:.0%}" if fallback else "credibly better"

    def shown(models) -> list[str]:
        return plain([labels.get(str(m), str(m)) for m in models])

    fig = go.Figure()
    # legend and colours by rank: under the pairwise rule a wide interval can hold a better rank than a narrower one
    # above it, so the order of appearance read "rank 35" before "rank 24" (helper QA, 250 models)
    groups = sorted(set(scored["rank_ci"].tolist()), key=lambda g: (pd.isna(g), g if pd.notna(g) else 0))
    colors, symbols = rank_colors(len(groups)), rank_symbols(len(groups))
    traces = []
    for gi, (group, rows) in enumerate(_groups_in_order(scored, groups)):  # one pass over the rows, traces added at once
        traces.append(
            go.Scatter(
                x=rows["mu"],
                y=shown(rows["model"]),
                mode="markers",
                name=rank_meaning(group, len(rows), tie_rule, better=better),
                marker=dict(size=10, color=colors[gi], symbol=symbols[gi], line=dict(width=1, color="white")),
                error_x=dict(
                    type="data",
                    symmetric=False,
                    array=(rows["hi"] - rows["mu"]).to_numpy(),
                    arrayminus=(rows["mu"] - rows["lo"]).to_numpy(),
                    thickness=2.5,
                    width=0,
                    color=colors[gi],
                ),
                customdata=np.stack([rows["lo"], rows["hi"], rows["rank"].astype(float), rows["rank_ci"].astype(float),
                                     np.asarray(plain(rows["model"]), dtype=object)], axis=1),
                hovertemplate=(
                    "<b>%{customdata[4]}</b><br>mean %{x:.4f}<br>"
                    f"{short} [%{{customdata[0]:.4f}}, %{{customdata[1]:.4f}}]"
                    "<br>rank %{customdata[2]:.0f} (with CI ties %{customdata[3]:.0f})<extra></extra>"
                ),
            )
        )
    fig.add_traces(traces)
    if len(groups) > LEGEND_GROUPS_MAX:  # a 70-entry legend of near-identical colours: the hover gives each rank
        fig.update_layout(showlegend=False)
    if show_estimate and "estimate" in scored and not np.allclose(scored["estimate"], scored["mu"], equal_nan=True):
        fig.add_trace(
            go.Scatter(
                x=scored["estimate"],
                y=shown(scored["model"]),
                mode="markers",
                name="point estimate",
                marker=dict(symbol="diamond-open", size=9, color=NEUTRAL),
                customdata=np.asarray(plain(scored["model"]), dtype=object),
                hovertemplate="<b>%{customdata}</b><br>point estimate %{x:.4f}<extra></extra>",
            )
        )
    # the rows' own range: autoranged, the error bars padded ~5% of a tall plot (150 px under 93 models)
    fig.update_yaxes(categoryorder="array", categoryarray=shown(scored["model"]), title=None,
                     range=[-0.6, len(scored) - 0.4])
    # names cut in the middle to fit a phone (the hover has them whole), the margin sized to the longest label shown
    ticks = name_ticks([labels.get(str(m), str(m)) for m in scored["model"]])
    if len(groups) > len(set(colors)):  # colours repeat: the rank on every row, readable without colour
        ranks = ["" if pd.isna(g) else f"{g:.0f} · " for g in scored["rank_ci"]]
        ticks["ticktext"] = [r + m for r, m in zip(ranks, ticks["ticktext"])]
    fig.update_yaxes(**ticks)
    title = _axis_title(table, metric_label, confidence)
    if estimate_name:
        title = title.replace("posterior mean", estimate_name, 1)
    fig.update_xaxes(zeroline=False, **axis_title(title))  # wrapped: one line ran off a phone's right edge
    lines = fig.layout.xaxis.title.text.count("<br>") + 1  # each line ~20 px: the plot keeps its height
    height = max(260, 34 * len(scored) + 120) + 20 * (lines - 1)
    missing = table.loc[table["mu"].isna(), "model"].tolist()
    apply_theme(fig, height=height)
    if missing:  # under the axis title, in pixels (at y = -0.12 of a short plot it sat on the tick labels)
        fig.add_annotation(
            text=f"not scored: {', '.join(plain(missing[:6]))}{' ...' if len(missing) > 6 else ''}",
            xref="paper", yref="paper", x=0, y=0, yanchor="top", yshift=-(32 + 20 * lines), showarrow=False,
            font=dict(size=11, color=NEUTRAL), xanchor="left",
        )
        fig.update_layout(margin=dict(b=52 + 20 * lines), height=height + 20)
    return fig


#: Above this many models the pairwise heatmap prints no values (hover shows them; the caption says so).
PAIRWISE_VALUES_MAX = 25


def pairwise_heatmap(models, rho: np.ndarray, *, confidence: float = 0.95) -> go.Figure:
    """Heatmap of ``P(row model > column model)`` for every ordered pair.

    Parameters
    ----------
    models : sequence of str, length L (best first; rows and columns in this order)
    rho : ndarray (L, L)
        ``rho[i, j] = P(model i > model j)`` (:func:`scorio_core.ranking.rank.pairwise_confidence`); NaN: a pair
        not compared (models in groups that share no question,
        :func:`scorio_core.leaderboard.linking.mask_cross_group_pairs`), drawn empty.
    confidence : float
        Pairs with ``rho >= confidence`` are marked with a ``*`` after their value (not bold: Plotly sizes cell text
        by its markup too, and ``<b>`` shrank every value to 4-7 px, which the app then hid).

    Returns
    -------
    plotly.graph_objects.Figure
        One heatmap trace, colour centred on 0.5; values printed when L <= :data:`PAIRWISE_VALUES_MAX`.
    """
    names = plain(models)
    L = len(names)
    rho = np.asarray(rho, dtype=float)
    # two decimals; where they would print 1.00 or 0.00, a bound (">.99", "<.01"): the posterior probability of
    # an order is never certainty
    values = probability_cells(rho)
    text = np.where(rho >= confidence, np.char.add(values, "*"), values)  # a mark a screen reader and CVD eyes get
    apart = np.isnan(rho)  # a pair across groups that share no question: not compared (an empty cell)
    text = np.where(apart, "", text)
    np.fill_diagonal(text, "")
    hover = np.where(apart, "not compared (different groups: no shared question)",
                     format_probabilities(np.where(apart, 0.5, rho)))  # "97.3%", "> 99.9%", as in the verdict
    fig = go.Figure(go.Heatmap(
        z=rho, x=names, y=names, zmin=0, zmax=1, colorscale=PROBABILITY_SCALE, xgap=1, ygap=1,
        text=text, texttemplate="%{text}" if L <= PAIRWISE_VALUES_MAX else None, textfont=CELL_TEXT,
        customdata=hover, hovertemplate="P(<b>%{y}</b> > %{x}) = %{customdata}<extra></extra>",
        colorbar=dict(title=dict(text="P(row > column)", side="right"), thickness=12),
    ))
    fig.update_xaxes(type="category", tickangle=-45, side="top", showgrid=False, **name_ticks(models))
    fig.update_yaxes(type="category", autorange="reversed", showgrid=False, **name_ticks(models))  # whole on hover
    apply_theme(fig, height=max(320, 30 * L + 200))
    fig.update_layout(margin=dict(t=20))
    return fig


def rank_heatmap(models, probabilities: np.ndarray, groups=None) -> go.Figure:
    """Heatmap of the posterior probability that each model holds each rank.

    Parameters
    ----------
    models : sequence of str, length L (rows, in this order)
    probabilities : ndarray (L, L)
        ``P[i, r - 1]`` = probability that model i has rank r
        (:func:`scorio_core.ranking.rank.posterior_rank_distribution`).

    Returns
    -------
    plotly.graph_objects.Figure
        One heatmap trace on :data:`~dashboard.figures.theme.SEQUENTIAL_SCALE` (0: transparent, the page's own
        background); columns are ranks 1..L; percentages of at least 1% printed (``>99%`` where they round to 100%);
        model names longer than :data:`~dashboard.figures.theme.LABEL_CHARS` cut in the middle on the axis, whole on
        hover. With ``groups`` (each row's group number, rows grouped: models that share no question with the other
        groups, ranked within their own), the columns are ranks within a group up to the largest group's size, a line
        separates the groups and the hover names each row's group.
    """
    names = plain(models)
    P = np.asarray(probabilities, dtype=float)
    L = len(names)
    g = None if groups is None else np.asarray(groups)
    if g is not None:
        P = P[:, :int(np.bincount(g).max())]  # ranks within a group: none beyond the largest group
    ranks = [str(r) for r in range(1, P.shape[1] + 1)]
    percent = np.char.add(np.char.mod("%.0f", 100 * P), "%")
    text = np.where(P >= 0.01, np.where(percent == "100%", ">99%", percent), "")  # a share of draws: never certainty
    fig = go.Figure(go.Heatmap(
        z=P, x=ranks, y=names, zmin=0, zmax=1, colorscale=SEQUENTIAL_SCALE, xgap=1, ygap=1,
        text=text, texttemplate="%{text}" if L <= 30 else None, textfont=SEQUENTIAL_TEXT,  # sized to the cell, halo
        hovertemplate="<b>%{y}</b><br>P(rank %{x}) = %{z:.3f}<extra></extra>" if g is None else
        "<b>%{y}</b> (group %{customdata})<br>P(rank %{x} in its group) = %{z:.3f}<extra></extra>",
        customdata=None if g is None else np.repeat(g[:, None], P.shape[1], axis=1),
        colorbar=dict(title=dict(text="probability", side="right"), thickness=12, tickformat=".0%"),
    ))
    for edge in ([] if g is None else np.flatnonzero(np.diff(g)) + 0.5):  # between two groups' rows
        fig.add_hline(y=float(edge), line_width=2, line_color="#888")
    fig.update_xaxes(type="category", showgrid=False,
                     title="rank (1 = best)" if g is None else "rank within the model's group (1 = best)")
    fig.update_yaxes(type="category", autorange="reversed", showgrid=False, **name_ticks(models))  # whole on hover
    # zero cells are transparent (SEQUENTIAL_SCALE): they show the page, white or dark, not a white plot background
    return transparent_background(apply_theme(fig, height=max(300, 28 * L + 140)))


def label_sides(x: np.ndarray, y: np.ndarray) -> list[str]:
    """Text positions that put each point's label beside it, on the side away from its nearest neighbour.

    Distances are on both axes scaled to [0, 1] (pass log10 x for a log axis). A label beside its point does not cover
    that point's vertical error bar (centred above or below it, as before, it did), and two close points' labels face
    away from each other; the leftmost label never goes left, nor the rightmost right (off the plot): where its
    neighbour is on that side, it goes above the point instead ("top right", "top left").

    >>> label_sides(np.array([1.0, 1.1, 5.0, 9.0]), np.array([0.5, 0.5, 0.2, 0.8]))
    ['top right', 'middle right', 'middle right', 'top left']
    """
    n = len(x)
    if n < 2:
        return ["middle right"] * n
    span = lambda v: (v - v.min()) / (np.ptp(v) or 1.0)  # noqa: E731
    pts = np.stack([span(np.asarray(x, float)), span(np.asarray(y, float))], axis=1)
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2) + np.diag(np.full(n, np.inf))
    near = d.argmin(axis=1)
    sides = ["middle left" if pts[near[i], 0] > pts[i, 0] else "middle right" for i in range(n)]
    first, last = int(np.argmin(pts[:, 0])), int(np.argmax(pts[:, 0]))
    # at the edges the label turns inward, above the point where its neighbour would be in the way
    sides[first] = "top right" if sides[first] == "middle left" else sides[first]
    sides[last] = "top left" if sides[last] == "middle right" else sides[last]
    return sides


def cost_scatter(table: pd.DataFrame, costs: pd.DataFrame, *, x_title: str, metric_label: str = "Bayes@N",
                 confidence: float = 0.95, log_x: bool = False) -> go.Figure:
    """Score vs cost (or tokens): one point per model with its credible interval.

    Parameters
    ----------
    table : DataFrame
        Leaderboard rows (``model, mu, lo, hi, rank_ci``).
    costs : DataFrame
        ``model, value``: the cost or token value of each model (models missing here are not drawn).
    x_title : str
        Axis title saying what the value is (per model, mean per attempt, ...).
    log_x : bool
        Logarithmic x axis (costs often span orders of magnitude).

    Returns
    -------
    plotly.graph_objects.Figure
        One scatter trace with vertical error bars and model labels.
    """
    name = interval_name(table, confidence)  # "95% credible interval", the term every page uses (not "CrI")
    merged = table[["model", "mu", "lo", "hi", "rank_ci"]].merge(costs, on="model", how="inner")
    merged = merged[merged["mu"].notna() & np.isfinite(merged["value"])]
    if log_x:
        merged = merged[merged["value"] > 0]
    merged = merged.sort_values("value", kind="stable")
    positions = label_sides(np.log10(merged["value"].to_numpy(float)) if log_x else merged["value"].to_numpy(float),
                            merged["mu"].to_numpy(float))  # beside the point, not over its error bar
    fig = go.Figure(go.Scatter(
        x=merged["value"], y=merged["mu"], mode="markers+text", text=plain(merged["model"]),
        textposition=positions, textfont=dict(size=11),  # the theme's text colour (light or dark)
        marker=dict(size=10, color=PALETTE[0], line=dict(width=1, color="white")),
        error_y=dict(type="data", symmetric=False, array=(merged["hi"] - merged["mu"]).to_numpy(),
                     arrayminus=(merged["mu"] - merged["lo"]).to_numpy(), thickness=1.5, width=0, color=PALETTE[0]),
        customdata=np.stack([merged["lo"], merged["hi"]], axis=1) if len(merged) else None,
        hovertemplate=("<b>%{text}</b><br>" + x_title + ": %{x:,.4g}<br>mean %{y:.4f}<br>"
                       f"{name} [%{{customdata[0]:.4f}}, %{{customdata[1]:.4f}}]<extra></extra>"),
    ))
    fig.update_xaxes(title=x_title, type="log" if log_x else "linear", zeroline=False)
    fig.update_yaxes(title=f"{metric_label} (mean and {name})", zeroline=False)
    return apply_theme(fig, height=480)


def method_agreement_heatmap(labels, tau_b: np.ndarray) -> go.Figure:
    """Heatmap of Kendall's tau_b between the rankings of every two methods.

    Parameters
    ----------
    labels : sequence of str, length K (rows and columns in this order)
    tau_b : ndarray (K, K)
        :attr:`scorio_core.rank.agreement.MethodAgreement.tau_b` (NaN where a ranking is constant).

    Returns
    -------
    plotly.graph_objects.Figure
        One heatmap trace on [-1, 1] (1: the same order; 0: unrelated; -1: reversed), or, where every tau_b is
        0.1 or more, a sequential scale from a round value below the lowest (the colour bar says so); values printed
        when K <= 30; NaN cells blank.
    """
    names = plain(labels)
    K = len(names)
    tau = np.asarray(tau_b, dtype=float)
    text = np.where(np.isnan(tau), "", np.char.mod("%.2f", np.nan_to_num(tau)))
    off = tau[~np.eye(K, dtype=bool) & np.isfinite(tau)]
    low = float(off.min()) if off.size else -1.0
    # every pair agreeing (tau_b 0.8-1 on most data) was one dark blue on [-1, 1]: then a sequential scale from a
    # round value below the lowest tau, and the colour bar says where it starts
    zmin = -1.0 if low < 0.1 else max(0.0, round(float(np.floor(low * 10 - 1e-9)) / 10 - 0.1, 1))
    fig = go.Figure(go.Heatmap(
        z=tau, x=names, y=names, zmin=zmin, zmax=1, colorscale="RdBu" if zmin < 0 else SEQUENTIAL_SCALE,
        xgap=1, ygap=1,
        text=text, texttemplate="%{text}" if K <= 30 else None, textfont=SEQUENTIAL_TEXT,  # halo: reads on dark too
        hovertemplate="Kendall's tau_b(<b>%{y}</b>, %{x}) = %{z:.3f}<extra></extra>",
        colorbar=dict(title=dict(text="rank agreement<br>(Kendall's tau_b)" + ("" if zmin < 0 else
                                 f"<br>colours from {zmin:.1f}"), side="right"), thickness=12),
    ))
    # many methods: upright labels at -45 degrees ran into each other; vertical ones do not
    fig.update_xaxes(type="category", tickangle=-90 if K > 12 else -45, side="top", showgrid=False, automargin=True,
                     tickfont=dict(size=10 if K > 20 else 12))
    fig.update_yaxes(type="category", autorange="reversed", showgrid=False, automargin=True)
    transparent_background(apply_theme(fig, height=max(340, 24 * K + 220)))  # transparent low end shows the page
    fig.update_layout(margin=dict(t=20))
    return fig
