"""Data-page figures: the per-question pass-rate grid and the per-trial category grid."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from dashboard.figures.theme import (CELL_TEXT, LABEL_CHARS, MISSING_COLOR, NEUTRAL, RATE_SCALE, apply_theme,
                                    category_colors, missing_cells, name_ticks, plain, short_labels,
                                    transparent_background)

__all__ = ["rate_grid", "trial_grid", "panel_title_chars", "MAX_SELECTABLE_CELLS"]

#: At most this many question labels under the pass-rate grid (every k-th beyond; 40 rotated labels fit ~560 px).
QUESTION_TICKS = 40

#: Above this many cells the trial grid has no click targets (the page offers selectboxes).
MAX_SELECTABLE_CELLS = 20_000


def rate_grid(models, questions, rates: np.ndarray, correct: np.ndarray, trials: np.ndarray, *, binary: bool = True) -> go.Figure:
    """Models x questions heatmap of pass rates, MathArena style, with ``correct/N`` in each cell.

    Parameters
    ----------
    models : sequence of str, length L
    questions : sequence of str, length M
    rates : ndarray (L, M)
        Pass rate per cell in [0, 1]; NaN = not answered (drawn blank).
    correct, trials : ndarray (L, M)
        Correct trials and trials per cell (correct NaN without binary correctness).
    binary : bool
        False when ``rates`` is a rescaled rubric score (no is_correct in the data).

    Returns
    -------
    plotly.graph_objects.Figure
        One heatmap trace (cells strictly between 0 and 1 are the flaky ones), then, where cells are not answered,
        a second one painting them in :data:`~dashboard.figures.theme.MISSING_COLOR` (transparent background).
    """
    models_p, questions_p = plain(models), plain(questions)
    n_cells = len(models) * len(questions)
    widest = len(f"{int(np.nanmax(trials, initial=0))}/{int(np.nanmax(trials, initial=0))}") if binary else 4
    if binary:
        text = np.where(np.isfinite(correct), np.char.add(np.char.add(np.nan_to_num(correct).astype(int).astype(str), "/"),
                                                           trials.astype(str)), "")
    else:
        text = np.where(np.isfinite(rates), np.char.mod("%.2f", np.nan_to_num(rates)), "")
    what = "pass rate" if binary else "rubric score (0 = lowest weight, 1 = highest)"
    fig = go.Figure(
        go.Heatmap(
            z=rates,
            x=questions_p,
            y=models_p,
            zmin=0.0,
            zmax=1.0,
            colorscale=RATE_SCALE,
            text=text,
            texttemplate="%{text}" if n_cells <= 900 and widest * len(questions) <= 100 else None,
            textfont=CELL_TEXT,  # sized to the cell: no overprint on a phone
            xgap=1,
            ygap=1,
            hoverongaps=False,
            customdata=np.stack([np.nan_to_num(correct, nan=-1), trials], axis=-1),
            hovertemplate=(
                "<b>%{y}</b><br>question %{x}<br>" + ("%{customdata[0]:.0f} of %{customdata[1]:.0f} correct (%{z:.0%})"
                                                       if binary else "mean score %{z:.2f} over %{customdata[1]:.0f} trials")
                + "<extra></extra>"
            ),
            colorbar=dict(title=dict(text=what, side="right"), thickness=12, len=0.9, tickformat=".0%" if binary else ".1f"),
        )
    )
    blank = missing_cells(rates, x=questions_p, y=models_p, name="not answered", xgap=1, ygap=1)
    if blank is not None:
        fig.add_trace(blank)
    # ids cut in the middle as the names are (LiveBench's 64-character hashes took ~330 px below a 190 px grid); the
    # hover's %{x} is whole
    fig.update_xaxes(title="question", type="category", tickangle=-60 if len(questions) > 20 else 0, showgrid=False,
                     **name_ticks(questions, max_ticks=QUESTION_TICKS))
    # names cut in the middle to fit a phone (390 px), the margin sized to the longest label; %{y} in the hover is whole
    fig.update_yaxes(type="category", autorange="reversed", showgrid=False, **name_ticks(models))
    return transparent_background(apply_theme(fig, height=max(220, 26 * len(models) + 150)))


def panel_title_chars(panels: int) -> int:
    """Longest model name over a :func:`trial_grid` panel. From three panels on, the titles take two rows (every
    other one raised), so each may spread over two panels' width less a gap: on a phone's ~260 px of panels, 43 px each
    for six, a title has ~75 px, 12 characters of 11 px text (14 touched their neighbours); at most
    :data:`~dashboard.figures.theme.LABEL_CHARS`, never below 8.

    >>> [panel_title_chars(n) for n in (1, 2, 3, 4, 5, 6)]
    [22, 22, 22, 18, 14, 12]
    """
    return max(8, min(LABEL_CHARS, 72 // max(panels, 1)))


def trial_grid(models, questions, codes: np.ndarray, labels, weights, rates: np.ndarray) -> go.Figure:
    """One panel per model: questions (rows) x trials (columns) coloured by rubric category.

    Parameters
    ----------
    models : sequence of str, length L
    questions : sequence of str, length M
    codes : ndarray of int (L, M, N)
        Category code of each trial, -1 = no trial (or no category matched).
    labels : sequence of str, length C+1
    weights : array-like (C+1,)
        Category weights (colours go from the lowest weight, red, to the highest, blue).
    rates : ndarray (L, M)
        Pass rate per cell; rows with ``0 < rate < 1`` are marked flaky.

    Returns
    -------
    plotly.graph_objects.Figure
        Per model: a heatmap, a flaky-row marker trace and (when the grid has at most
        :data:`MAX_SELECTABLE_CELLS` cells) an invisible scatter of click targets whose
        ``customdata`` is ``[model index, question index, trial position]`` (0-based); plus
        one legend entry per category.
    """
    L, M, N = codes.shape
    colors = category_colors(weights)
    K = len(labels) + 1  # levels: missing, then categories 0..C
    scale = []
    for level, color in enumerate([MISSING_COLOR, *colors]):
        scale += [[level / K, color], [(level + 1) / K, color]]
    labels_p = plain(labels)
    level_text = np.array(["no trial / no category", *labels_p], dtype=object)
    # panel titles cut in the middle to the panel's width (side by side, long names ran into each other on a phone);
    # every hover names the model in full
    titles = plain(short_labels([str(m) for m in models], panel_title_chars(L)))
    fig = make_subplots(rows=1, cols=max(L, 1), shared_yaxes=True, horizontal_spacing=0.012 if L > 1 else 0.0,
                        subplot_titles=titles)
    q = plain(questions)
    selectable = L * M * N <= MAX_SELECTABLE_CELLS
    x = np.arange(1, N + 1)
    for i, model in enumerate(models):
        z = codes[i].astype(float) + 1.0
        fig.add_trace(
            go.Heatmap(z=z, x=x, y=q, zmin=0, zmax=K, colorscale=scale, showscale=False, xgap=0.5, ygap=1,
                       text=level_text[codes[i].astype(int) + 1], hoverinfo="skip" if selectable else None,
                       hovertemplate=None if selectable else
                       f"<b>{plain(model)}</b><br>question %{{y}}<br>trial %{{x}}<br>%{{text}}<extra></extra>",
                       name=plain(model)),
            row=1, col=i + 1,
        )
        flaky = np.flatnonzero((rates[i] > 0) & (rates[i] < 1))
        fig.add_trace(
            go.Scatter(x=np.full(flaky.size, 0.0), y=[q[j] for j in flaky], mode="markers",
                       marker=dict(symbol="diamond", size=6, color=NEUTRAL), name="flaky (0 < pass rate < 1)",
                       legendgroup="flaky", showlegend=i == 0, hovertemplate="%{y}: flaky<extra></extra>"),
            row=1, col=i + 1,
        )
        if selectable and M and N:
            qq, tt = np.meshgrid(np.arange(M), np.arange(N), indexing="ij")
            custom = np.stack([np.full(qq.size, i), qq.ravel(), tt.ravel()], axis=1)
            fig.add_trace(
                go.Scatter(x=x[tt.ravel()], y=np.array(q, dtype=object)[qq.ravel()], mode="markers",
                           marker=dict(size=9, opacity=0.0, symbol="square"), customdata=custom,
                           text=level_text[codes[i].astype(int).ravel() + 1], showlegend=False, name="attempts",
                           hovertemplate=f"<b>{plain(model)}</b><br>question %{{y}}<br>trial %{{x}}<br>%{{text}}"
                                         "<extra>click to inspect</extra>"),
                row=1, col=i + 1,
            )
    for label, color in zip(labels_p, colors):
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", marker=dict(symbol="square", size=11, color=color),
                                 name=label, showlegend=True, hoverinfo="skip"))
    # ticks on trials only: the flaky diamonds sit at x = 0, which is no trial (a "0" tick read as trial 0)
    fig.update_xaxes(title="trial", range=[-0.5, N + 0.5], showgrid=False, zeroline=False, tickmode="array",
                     tickvals=list(range(1, N + 1, max(1, -(-N // 10)))))
    # the rows' own range, top row first: autoranged, the markers padded ~5% of a tall grid (300 px of 400 questions)
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=q, range=[M - 0.5, -0.5], showgrid=False,
                     **name_ticks(questions))  # ids cut in the middle (hashes took half the grid's width); hovers whole
    stagger = L >= 3  # side by side, 8+ characters over 45 px panels ran into each other: every other one raised
    fig.update_annotations(font=dict(size=11 if stagger else 12))
    for i, (annotation, model) in enumerate(zip(fig.layout.annotations, models)):  # the whole name on hover
        annotation.update(hovertext=plain(str(model)), yshift=15 if stagger and i % 2 else 0)
    height = max(260, 15 * M + 170)
    transparent_background(apply_theme(fig, height=height))
    # the legend a fixed ~20 px above the titles (y = 1.06 of the plot's height sat on them in a short grid)
    above = (36 if stagger else 22) / max(height - 110, 1)  # 110: top and bottom margins
    fig.update_layout(margin=dict(t=70), legend=dict(y=1 + above), clickmode="event+select", dragmode=False)
    return fig
