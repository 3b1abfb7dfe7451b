"""What the lead's phone (390 px) and dark-theme QA left after the first round of fixes.

1. The Tasks heatmap's task names, slanted at a fixed -30 degrees, ran into each other at 390 px: Plotly now turns them
   only as far as the chart's width needs (level, slanted, upright), smaller with many tasks, and the colour bar sits
   under the grid instead of taking ~70 px of its width.
2. Long model names ("claude-3-5-sonnet-20241022-with-tools") ran off the left edge of the forest plots and heatmaps:
   the axes show them cut in the middle to at most LABEL_CHARS characters, unique, the margin sized to the longest
   label (automargin); the hover names the model in full.
3. The rank-distribution heatmap painted its zero cells #ffffff (bright on the dark theme) and its top #053061 (1.5:1
   on #0e1117): the scale runs from transparent to a blue with >= 3:1 on both backgrounds.

Round 2:
4. The x-axis titles of the forest plots ("Bayes@N: posterior mean and 95% credible interval", ~330 px at 13 px) ran
   past the right edge at 390 px ("...95% credi"): Plotly centres them under a ~230 px plot area and never wraps; they
   are wrapped with <br> to lines of at most AXIS_TITLE_CHARS characters, every word kept.
5. The Data page's grids showed model names whole: the pass-rate grid's rows and the trial grid's panel titles are cut
   in the middle (unique), the hover names the model in full.
6. On the dark theme a 5% cell of the rank distribution was a faint tint (1.3:1 on #0e1117).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from dashboard.figures import (combined_interval_plot, interval_plot, method_agreement_heatmap, pairwise_heatmap,
                               rank_heatmap, rank_share_heatmap, rate_grid, task_heatmap, trial_grid)
from dashboard.figures.theme import DARK_BG, LIGHT_BG, TRANSPARENT, contrast_ratio, plain

LONG = ["claude-3-5-sonnet-20241022-with-tools", "claude-3-5-sonnet-20241022", "Meta-Llama-3.1-405B-Instruct-Turbo",
        "Meta-Llama-3.1-70B-Instruct-Turbo", "coding2-amcfull-apifull-mmlu12k-meta-llama-3.1-70b-instruct-chk-150",
        "gpt-4o", "a<b>&c-very-long-name-with-markup-0001"]
TASKS = [f"instruction_following/task_number_{i:02d}" for i in range(18)]


def _board(models) -> pd.DataFrame:
    n = len(models)
    mu = np.linspace(0.9, 0.1, n)
    return pd.DataFrame({"model": models, "mu": mu, "lo": mu - 0.05, "hi": mu + 0.05, "rank": np.arange(1, n + 1),
                         "rank_ci": np.arange(1, n + 1), "estimate": mu})


def _cells(models, tasks) -> pd.DataFrame:
    rows = [(m, t, 0.5, 0.4, 0.6, 0.5, 4, 4, 10) for m in models for t in tasks]
    return pd.DataFrame(rows, columns=["model", "task", "bayes", "lo", "hi", "avg", "n", "n_max", "m"])


def _figures():
    L = len(LONG)
    share = np.full((L, L), 1 / L)
    return {
        "interval_plot": (interval_plot(_board(LONG)), "yaxis"),
        "combined_interval_plot": (combined_interval_plot(pd.DataFrame(
            {"model": LONG, "score": np.linspace(0.1, 0.9, L), "lo": 0.0, "hi": 1.0, "reason": ""})), "yaxis"),
        "task_heatmap": (task_heatmap(_cells(LONG, ["t1", "t2"]), models=LONG, tasks=["t1", "t2"]), "yaxis"),
        "rank_heatmap": (rank_heatmap(LONG, share), "yaxis"),
        "pairwise_heatmap_rows": (pairwise_heatmap(LONG, np.full((L, L), 0.5)), "yaxis"),
        "pairwise_heatmap_columns": (pairwise_heatmap(LONG, np.full((L, L), 0.5)), "xaxis"),
        "rank_share_heatmap": (rank_share_heatmap(LONG, share, np.arange(1, L + 1)), "yaxis"),
    }


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def test_short_labels_cut_in_the_middle_and_stay_unique():
    from dashboard.figures.theme import LABEL_CHARS, short_labels

    labels = short_labels(LONG)
    assert all(len(label) <= LABEL_CHARS for label in labels) and len(set(labels)) == len(LONG)
    assert labels[0] == "claude-3-5\u2026-with-tools" and labels[5] == "gpt-4o"  # start and end kept; short names kept
    for name, label in zip(LONG, labels):  # every label is the name's start, "…", the name's end
        if label != name:
            start, end = label.split("\u2026")
            assert name.startswith(start) and name.endswith(end) and start and end
    many = [f"org/model-family-large-instruct-v{i}" for i in range(40)]  # names differing only in the middle/end
    assert len(set(short_labels(many))) == 40


@pytest.mark.parametrize("name", list(_figures()))
def test_long_model_names_fit_a_phone_and_are_whole_on_hover(name):
    from dashboard.figures.theme import LABEL_CHARS

    fig, axis_name = _figures()[name]
    axis = fig.layout[axis_name]
    assert axis.automargin is True, f"{name}: margin not sized from the labels"
    shown = [re.sub(r"^\d+ · ", "", _unescape(t)) for t in axis.ticktext or ()]
    assert len(shown) == len(LONG), f"{name}: the axis shows the whole names ({axis.ticktext})"
    assert max(len(t) for t in shown) <= LABEL_CHARS and len(set(shown)) == len(LONG), name
    assert list(axis.tickvals) == [m for m in axis.tickvals if _unescape(m) in LONG]  # ticks sit on the full names
    trace = fig.data[0]
    coordinates = {_unescape(str(v)) for t in fig.data for v in (t.y if axis_name == "yaxis" else t.x) or ()}
    hover = " ".join(str(v) for v in np.ravel(np.asarray(trace.customdata, dtype=object))) if (
        trace.customdata is not None) else ""
    for model in LONG:  # the hover (%{y}/%{x} or customdata) carries the full, escaped name
        assert model in coordinates or plain(model) in hover, f"{name}: {model} not whole on hover"


def test_interval_plot_keeps_the_rank_before_a_short_name():
    from dashboard.figures.theme import short_labels

    fig = interval_plot(_board(LONG + [f"m{i}" for i in range(8)]))  # 15 groups: colours repeat, ranks on the rows
    assert [_unescape(t) for t in fig.layout.yaxis.ticktext[::-1][:3]] == [
        f"{i} · {label}" for i, label in enumerate(short_labels(LONG)[:3], 1)]


def test_task_names_turn_as_far_as_the_width_needs():
    fig = task_heatmap(_cells(["a", "b"], TASKS), models=["a", "b"], tasks=TASKS)
    axis = fig.layout.xaxis
    assert axis.tickangle is None, f"fixed tick angle {axis.tickangle}: overlaps at 390 px"  # Plotly's auto angle
    assert -90 in axis.autotickangles and axis.automargin is True
    assert axis.tickfont.size <= 11  # 18 upright names in ~200 px
    assert max(len(t) for t in axis.ticktext) <= 30 and len(set(axis.ticktext)) == len(TASKS)
    assert fig.data[0].colorbar.orientation == "h"  # under the grid: the grid keeps the page's width
    few = task_heatmap(_cells(["a"], ["t1", "t2"]), models=["a"], tasks=["t1", "t2"]).layout.xaxis
    assert few.tickfont.size == 13 and list(few.ticktext) == ["t1", "t2"]


def _rgba(colour: str) -> tuple[str, float]:
    r, g, b, a = (float(v) for v in re.fullmatch(r"rgba\((.*)\)", colour.replace(" ", "")).group(1).split(","))
    return f"#{int(r):02x}{int(g):02x}{int(b):02x}", a


def test_sequential_scale_reads_on_white_and_on_the_dark_theme():
    from dashboard.figures.theme import SEQUENTIAL_END, SEQUENTIAL_SCALE

    (_, zero_alpha), (top_hex, top_alpha) = _rgba(SEQUENTIAL_SCALE[0][1]), _rgba(SEQUENTIAL_SCALE[-1][1])
    assert zero_alpha == 0  # zero cells show the page (white or #0e1117), not a bright white box
    assert top_alpha == 1 and top_hex.lower() == SEQUENTIAL_END.lower()
    assert contrast_ratio(SEQUENTIAL_END, LIGHT_BG) >= 3 and contrast_ratio(SEQUENTIAL_END, DARK_BG) >= 3
    alphas = [_rgba(c)[1] for _, c in SEQUENTIAL_SCALE]
    hues = {_rgba(c)[0] for _, c in SEQUENTIAL_SCALE}
    assert alphas == sorted(alphas) and len(hues) == 1  # one blue, more opaque as the value grows


@pytest.mark.parametrize("build", [
    lambda: rank_heatmap(["a", "b"], np.eye(2)),
    lambda: rank_share_heatmap(["a", "b"], np.eye(2), [1, 2]),
    lambda: method_agreement_heatmap(["x", "y"], np.array([[1.0, 0.9], [0.9, 1.0]])),
])
def test_sequential_heatmaps_show_the_page_and_readable_values(build):
    from dashboard.figures.theme import SEQUENTIAL_SCALE

    fig = build()
    heat = fig.data[0]
    assert [list(s) for s in heat.colorscale] == [list(s) for s in SEQUENTIAL_SCALE]
    assert fig.layout.plot_bgcolor == TRANSPARENT and fig.layout.paper_bgcolor == TRANSPARENT
    assert heat.textfont.size is None and heat.textfont.shadow == "auto"  # dark text over a dark page: a halo


EXACT = "95% exact binomial (Clopper-Pearson) interval on the pooled answers; covers trials (questions fixed)"


def _titles():
    board = _board(LONG)
    exact, mixed = board.assign(interval=EXACT), board.assign(interval=["95% credible interval"] + [EXACT] * 6)
    combined = pd.DataFrame({"model": LONG, "score": 0.5, "lo": 0.4, "hi": 0.6, "reason": ""})
    return {
        "credible": (interval_plot(board), "Bayes@N: posterior mean and 95% credible interval"),
        "exact": (interval_plot(exact), "Bayes@N: estimate and 95% exact binomial interval (prior not identified)"),
        "mixed": (interval_plot(mixed, confidence=0.9), "Bayes@N: posterior mean and 90% credible interval (exact "
                                                        "binomial where the prior is not identified)"),
        "irt": (interval_plot(board, metric_label="IRT ability (2PL, logit)", estimate_name="posterior mode (MAP)"),
                "IRT ability (2PL, logit): posterior mode (MAP) and 95% credible interval"),
        "combined": (combined_interval_plot(combined), "Combined Bayes@N, 95% interval (macro average)"),
    }


@pytest.mark.parametrize("name", list(_titles()))
def test_interval_axis_titles_fit_a_phone_and_keep_every_word(name):
    """At 390 px the plot area beside 22-character names and a rank ("63 · ") is 140-230 px wide; a line centred on
    it may spread ~90 px past its middle on the right (70 + the 20 px margin): ~190 px, 28 characters of 13 px text
    (the 390 px screenshots: a 30-character line ended 6 px from the edge beside 27-character labels)."""
    from dashboard.figures.theme import AXIS_TITLE_CHARS

    fig, words = _titles()[name]
    axis = fig.layout.xaxis
    lines = axis.title.text.split("<br>")
    assert AXIS_TITLE_CHARS <= 28 and max(len(line) for line in lines) <= AXIS_TITLE_CHARS, lines
    assert " ".join(lines) == words  # wrapped, nothing dropped: the title still says what the interval covers
    assert axis.automargin is True  # the bottom margin grows to hold the lines
    # the rows' own range (autoranged, 93 rows left ~150 px of blank between the last row and this axis)
    assert list(fig.layout.yaxis.range) == [-0.6, len(LONG) - 0.4]


#: Names a middle cut tells apart at 8 characters (the Llama pair differs only in its middle: short_labels keeps its
#: labels unique, longer, rather than short and alike).
MODELS = [LONG[0], LONG[1], LONG[4], "mistral-large-instruct-2411", LONG[6], "gpt-4o"]


def test_rate_grid_cuts_long_model_names_and_hovers_them_whole():
    from dashboard.figures.theme import LABEL_CHARS

    rates = np.full((len(LONG), 3), 0.5)
    fig = rate_grid(LONG, ["q1", "q2", "q3"], rates, rates * 4, np.full((len(LONG), 3), 4))
    axis, heat = fig.layout.yaxis, fig.data[0]
    shown = [_unescape(t) for t in axis.ticktext or ()]
    assert len(shown) == len(LONG), f"the axis shows the whole names ({axis.ticktext})"
    assert max(len(t) for t in shown) <= LABEL_CHARS and len(set(shown)) == len(LONG) and "gpt-4o" in shown
    assert list(axis.tickvals) == list(heat.y) == plain(LONG) and axis.automargin is True  # ticks on the full names
    assert "%{y}" in heat.hovertemplate  # the hover's %{y} is the whole (escaped) name


@pytest.mark.parametrize("panels", [1, 2, 3, 4, 6])
def test_trial_grid_panel_titles_fit_their_panels_and_hover_whole(panels):
    """Six panels share a phone's ~260 px, 43 px each; titles on two rows have ~75 px: 12 characters of 11 px text."""
    from dashboard.figures.data import panel_title_chars

    models = MODELS[:panels]
    codes = np.zeros((panels, 2, 3), int)
    fig = trial_grid(models, ["q1", "q2"], codes, ["wrong", "right"], [0, 1], np.full((panels, 2), 0.5))
    titles = [a for a in fig.layout.annotations if a.yref == "paper" and a.y == 1.0]
    assert len(titles) == panels
    shown = [_unescape(a.text) for a in titles]
    width = panel_title_chars(panels)
    assert width <= max(8, 72 // panels) and max(len(t) for t in shown) <= width, shown
    assert len(set(shown)) == panels
    if panels >= 3:  # two rows of titles: neighbours never side by side on one line
        shifts = [a.yshift or 0 for a in titles]
        assert all(a != b for a, b in zip(shifts, shifts[1:])), shifts
    assert [a.hovertext for a in titles] == plain(models)  # the whole name on hover over the title
    # rows from the top: autoranged, the markers padded a 400-question grid by ~300 px under the titles
    assert list(fig.layout.yaxis.range) == [1.5, -0.5]
    for model, label in zip(models, shown):
        if label != model:
            start, end = label.split("\u2026")
            assert model.startswith(start) and model.endswith(end)


def _alpha_at(scale, value: float) -> float:
    stops = [(at, _rgba(c)[1]) for at, c in scale]
    return float(np.interp(value, [a for a, _ in stops], [al for _, al in stops]))


def _over(alpha: float, colour: str, page: str) -> str:
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    bg = [int(page[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(alpha * c + (1 - alpha) * b):02x}" for c, b in zip(rgb, bg))


def test_a_five_percent_cell_stands_out_from_zero_on_both_pages():
    """A 5% cell over the page must differ from it (a 0 cell, transparent) by at least sqrt(3) = 1.73:1 on white and
    on #0e1117: half-way in log contrast from no difference (1:1) to the 3:1 asked of graphics (WCAG 1.4.11). The
    scale's top end is 3.6:1 on the dark page, so the 5% cell takes under half of the dark theme's range. The old
    scale (0.25 opaque at 5%) gave 1.43:1 on white and 1.26:1 on the dark theme."""
    from dashboard.figures.theme import SEQUENTIAL_END, SEQUENTIAL_SCALE

    assert _alpha_at(SEQUENTIAL_SCALE, 0.0) == 0  # zero stays the page
    alpha = _alpha_at(SEQUENTIAL_SCALE, 0.05)
    for page in (LIGHT_BG, DARK_BG):
        assert contrast_ratio(_over(alpha, SEQUENTIAL_END, page), page) >= 3 ** 0.5, (page, alpha)
    # a printed 1% cell (the least rank_heatmap prints) is tinted too, and the shares stay ordered above 5%
    assert _alpha_at(SEQUENTIAL_SCALE, 0.01) >= 0.25
    assert alpha < _alpha_at(SEQUENTIAL_SCALE, 0.2) < _alpha_at(SEQUENTIAL_SCALE, 0.5) < 1


def test_the_not_scored_note_sits_under_the_wrapped_axis_title():
    """At y = -0.12 of a short plot the note sat on the tick labels; now it is placed in pixels under the title."""
    board = _board(LONG).assign(interval=["95% credible interval"] + [EXACT] * 6)
    board.loc[6, "mu"] = np.nan
    fig = interval_plot(board, confidence=0.9)
    lines = fig.layout.xaxis.title.text.count("<br>") + 1
    note, = [a for a in fig.layout.annotations if a.text.startswith("not scored")]
    assert lines == 4 and note.y == 0 and note.yanchor == "top" and note.yshift <= -(30 + 20 * lines)
    assert fig.layout.margin.b >= -note.yshift + 15  # the note inside the figure
