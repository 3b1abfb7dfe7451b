"""Tasks view figures: models x tasks heatmap of Bayes@N and the combined-score interval chart."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.theme import (CELL_TEXT, RATE_SCALE, apply_theme, axis_title, missing_cells, name_ticks, plain,
                                     short_labels, transparent_background)
from scorio_core.leaderboard.order import board_order

__all__ = ["task_heatmap", "combined_interval_plot"]


def _fmt(value, spec: str) -> str:
    return "n/a" if value is None or not np.isfinite(value) else format(value, spec)


def task_heatmap(cells: pd.DataFrame, *, models, tasks, confidence: float = 0.95, zmin: float = 0.0,
                 zmax: float = 1.0) -> go.Figure:
    """Heatmap of Bayes@N: one row per model, one column per task, hover with interval, avg@N, N and M.

    Parameters
    ----------
    cells : DataFrame
        :attr:`scorio_core.tasks.TaskMatrix.cells` (``model, task, bayes, lo, hi, avg, n, n_max, m``).
    models, tasks : sequence of str
        Row and column order (rows top to bottom).
    confidence : float
        Credibility of the intervals, for the hover text.
    zmin, zmax : float
        Colour range (the rubric's weight range; 0..1 for binary correctness).

    Returns
    -------
    plotly.graph_objects.Figure
        A ``go.Heatmap`` with ``z`` of shape (L, T) (NaN = no data) and cell text of the mean to 3 decimals, then,
        where cells have no data, a second one painting them in :data:`~dashboard.figures.theme.MISSING_COLOR`
        (the figure's background is transparent: no light frame on the dark theme).
    """
    models, tasks = [str(m) for m in models], [str(t) for t in tasks]
    frame = cells.set_index(["model", "task"])
    index = pd.MultiIndex.from_product([models, tasks], names=["model", "task"])
    full = frame.reindex(index)
    shape = (len(models), len(tasks))
    z = full["bayes"].to_numpy(float).reshape(shape)
    pct = f"{confidence:.0%}"
    hover = [
        f"{plain(m)}<br>{plain(t)}<br>Bayes@N {_fmt(r.bayes, '.3f')} [{_fmt(r.lo, '.3f')}, {_fmt(r.hi, '.3f')}] ({pct})"
        f"<br>avg@N {_fmt(r.avg, '.3f')}<br>N {_fmt(r.n, '.0f')}"
        + (f"-{r.n_max:.0f}" if np.isfinite(r.n_max) and r.n_max != r.n else "") + f"<br>M {_fmt(r.m, '.0f')}"
        if np.isfinite(r.m) else f"{plain(m)}<br>{plain(t)}<br>no data"
        for (m, t), r in zip(full.index, full.itertuples(index=False))
    ]
    text = np.where(np.isfinite(z), np.char.mod("%.3f", np.nan_to_num(z)), "")
    fig = go.Figure(go.Heatmap(
        z=z, x=plain(tasks), y=plain(models), text=text, texttemplate="%{text}",
        textfont=CELL_TEXT,  # sized to the cell, as every heatmap's values (no overprint on a phone)
        customdata=np.array(hover, dtype=object).reshape(shape), hovertemplate="%{customdata}<extra></extra>",
        colorscale=RATE_SCALE, zmin=zmin, zmax=zmax, xgap=1, ygap=1,
        # the colour bar under the grid, not beside it: on a phone its ~70 px went from 18 columns of ~10 px each
        colorbar=dict(orientation="h", y=-0.02, yanchor="top", thickness=12, title=dict(text="Bayes@N", side="top")),
    ))
    blank = missing_cells(z, x=plain(tasks), y=plain(models), xgap=1, ygap=1)
    if blank is not None:
        fig.add_trace(blank)
    fig.update_yaxes(autorange="reversed", type="category", **name_ticks(models))  # names whole on hover
    # long task names (HELM's "mmlu:subject=philosophy,method=multiple_choice_joint,...") ran into each other level, and
    # at -30 degrees on a phone (18 tasks in ~150 px): cut in the middle to 30 characters (the hover has them whole);
    # Plotly turns them only as far as they need (level, 30 degrees, upright) at the width the page gives the chart
    many = len(tasks) > 12
    fig.update_xaxes(type="category", side="top", autotickangles=[0, -30, -90], automargin=True,
                     tickmode="array", tickvals=plain(tasks), ticktext=plain(short_labels(tasks, 30)),
                     tickfont=dict(size=11 if many else 13))
    return transparent_background(apply_theme(fig, height=max(260, 28 * len(models) + 140)))


def combined_interval_plot(combined: pd.DataFrame, *, confidence: float = 0.95) -> go.Figure:
    """Forest plot of the combined score: mean with its credible interval, best on top.

    Parameters
    ----------
    combined : DataFrame
        :func:`scorio_core.tasks.combined_score` rows (``model, score, lo, hi, reason``).
    confidence : float
        Credibility of the intervals, for the axis title.

    Returns
    -------
    plotly.graph_objects.Figure
        One scatter trace of the scored models (in reverse leaderboard order so the best is on top);
        models without a combined score are named in the title.
    """
    # best on top, exact ties by name top-down as the Leaderboard lists them (plotly draws the first row at the bottom)
    scored = board_order(combined[combined["score"].notna()], "score").iloc[::-1]
    fig = go.Figure(go.Scatter(
        x=scored["score"], y=plain(scored["model"]), mode="markers", name="combined score",
        marker=dict(size=10, color="#0072B2"),
        error_x=dict(type="data", symmetric=False, array=(scored["hi"] - scored["score"]).to_numpy(),
                     arrayminus=(scored["score"] - scored["lo"]).to_numpy(), thickness=2.5, width=0, color="#0072B2"),
        hovertemplate="%{y}<br>%{x:.3f} [%{customdata[0]:.3f}, %{customdata[1]:.3f}]<extra></extra>",
        customdata=scored[["lo", "hi"]].to_numpy(float),
    ))
    # a category axis autoranged around markers with error bars pads a row-height band above and below: set it
    fig.update_yaxes(type="category", range=[-0.6, len(scored) - 0.4], **name_ticks(scored["model"]))  # whole on hover
    # kind: the page caption; wrapped (one line ran off a phone's right edge)
    fig.update_xaxes(**axis_title(f"Combined Bayes@N, {confidence:.0%}<br>interval (macro average)"))
    missing = int(combined["score"].isna().sum())
    title = (f"{missing:,} model{'' if missing == 1 else 's'} without a score on every task "
             f"{'is' if missing == 1 else 'are'} left out") if missing else None
    return apply_theme(fig, title=title, height=max(220, 26 * len(scored) + 110))
