"""Figure functions: traces, axes and escaping (pure Plotly, no Streamlit)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from dashboard.figures import (
    category_bars,
    cost_scatter,
    difference_plot,
    pairwise_heatmap,
    question_scatter,
    rank_heatmap,
    rate_grid,
    trial_grid,
    trials_plot,
)
from dashboard.figures.data import MAX_SELECTABLE_CELLS
from dashboard.figures.theme import UNMATCHED_COLOR, category_colors
from scorio_core.report.verdict import format_probability

ROOT = Path(__file__).resolve().parents[2]
EVIL = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


def table(models):
    mu = np.linspace(0.8, 0.4, len(models))
    return pd.DataFrame({"model": models, "mu": mu, "lo": mu - 0.05, "hi": mu + 0.05, "rank_ci": range(1, len(models) + 1)})


def test_category_colors_follow_weights():
    assert category_colors([0, 1]) == ["#b2182b", "#2166ac"]
    colors = category_colors([0, 1, 0, 2, 3, 4])
    assert len(set(colors)) == 6 and colors[0] == "#b2182b" and colors[-1] == "#2166ac"


def test_rate_grid():
    rates = np.array([[1.0, 0.5, np.nan], [0.0, 0.25, 1.0]])
    fig = rate_grid([EVIL, "b"], ["q1", "q2", "q3"], rates, rates * 4, np.array([[4, 4, 0], [4, 4, 4]]))
    heat, blank = fig.data  # the grid, then the unanswered cell in the missing colour (no light plot background)
    assert np.isfinite(np.asarray(blank.z, dtype=float)).tolist() == [[False, False, True], [False, False, False]]
    assert isinstance(heat, go.Heatmap) and heat.zmin == 0 and heat.zmax == 1
    assert list(heat.y) == [ESCAPED, "b"] and list(heat.x) == ["q1", "q2", "q3"]
    assert heat.text[0].tolist() == ["4/4", "2/4", ""] and fig.layout.yaxis.autorange == "reversed"
    assert "pass rate" in heat.colorbar.title.text


def test_trial_grid_panels_flaky_and_click_targets():
    codes = np.array([[[1, 0, 1, -1], [1, 1, 1, 1]], [[0, 0, 0, 0], [0, 1, 2, 2]]], dtype=np.int16)
    rates = np.array([[2 / 3, 1.0], [0.0, 0.75]])
    fig = trial_grid(["m1", EVIL], ["q1", "q2"], codes, ["wrong", "ok", "great"], [0, 1, 2], rates)
    heat = [t for t in fig.data if isinstance(t, go.Heatmap)]
    assert len(heat) == 2 and np.asarray(heat[0].z).shape == (2, 4)
    assert np.asarray(heat[0].z)[0, 3] == 0  # missing trial -> level 0 (no trial)
    flaky = [t for t in fig.data if t.name == "flaky (0 < pass rate < 1)"]
    assert [list(t.y) for t in flaky] == [["q1"], ["q2"]]
    targets = [t for t in fig.data if t.name == "attempts"]
    assert len(targets) == 2 and np.asarray(targets[1].customdata)[5].tolist() == [1, 1, 1]
    assert ESCAPED in targets[1].hovertemplate and EVIL not in targets[1].hovertemplate
    legend = [t.name for t in fig.data if t.showlegend and t.name in ("wrong", "ok", "great")]
    assert legend == ["wrong", "ok", "great"]
    title = fig.layout.annotations[1]  # panel title: cut to the panel's width, escaped; the hover has it whole
    assert title.text == "&lt;script&gt;al\u20261)&lt;/script&gt;" and title.hovertext == ESCAPED
    assert fig.layout.clickmode == "event+select"


def test_trial_grid_drops_click_targets_when_large():
    n = MAX_SELECTABLE_CELLS // 10 + 1
    fig = trial_grid(["m"], [f"q{i}" for i in range(10)], np.zeros((1, 10, n), np.int16), ["a", "b"], [0, 1],
                     np.zeros((1, 10)))
    assert not [t for t in fig.data if t.name == "attempts"]


def test_hashed_question_ids_are_cut_on_the_axes_and_whole_in_the_hover():
    """LiveBench's question ids are 64-character hashes: as whole tick labels they took ~330 px under the pass-rate
    grid and half the trial grid's width (QA 2026-12-03). Cut in the middle like model names; the coordinates (what a
    hover's %{x} / %{y} shows, and what a click reports) stay whole."""
    ids = [f"{i:02d}" + "0123456789abcdef" * 4 for i in range(3)]  # 66 characters, unique at both ends
    rates = np.array([[1.0, 0.5, 0.0]])
    grid = rate_grid(["m"], ids, rates, rates * 2, np.full((1, 3), 2))
    assert list(grid.data[0].x) == ids and list(grid.layout.xaxis.tickvals) == ids
    cut = list(grid.layout.xaxis.ticktext)
    assert all(len(t) <= 22 and "\u2026" in t for t in cut) and len(set(cut)) == 3
    trials = trial_grid(["m"], ids, np.zeros((1, 3, 2), np.int16), ["wrong", "right"], [0, 1], rates)
    assert list(trials.layout.yaxis.ticktext) == cut and list(trials.layout.yaxis.tickvals) == ids
    assert list(trials.data[0].y) == ids  # the heatmap's rows (and the click targets' y) are the whole ids
    # 120 rotated labels drew on top of each other (an array of ticks has no automatic thinning): every k-th of them
    many = [f"{i:03d}" + "ab" * 30 for i in range(120)]
    wide = rate_grid(["m"], many, np.zeros((1, 120)), np.zeros((1, 120)), np.ones((1, 120)))
    assert list(wide.layout.xaxis.tickvals) == many[::3] and len(wide.layout.xaxis.ticktext) == 40


def test_category_bars():
    counts = np.array([[5, 5, 0], [0, 8, 2]])
    fig = category_bars([EVIL, "b"], ["x", "y", "z"], counts, np.array([0, 10]), [0, 1, 2])
    assert fig.layout.barmode == "stack" and fig.layout.xaxis.range == (0, 100)
    assert [t.name for t in fig.data] == ["x (w = 0)", "y (w = 1)", "z (w = 2)", "no category matched"]
    assert list(fig.data[0].x) == [50.0, 0.0] and list(fig.data[3].x) == [0.0, 50.0]
    assert fig.data[3].marker.color == UNMATCHED_COLOR and list(fig.data[0].y) == [ESCAPED, "b"]


def test_pairwise_and_rank_heatmaps():
    rho = np.array([[0.5, 0.97], [0.03, 0.5]])
    fig = pairwise_heatmap([EVIL, "b"], rho, confidence=0.95)
    (heat,) = fig.data
    assert list(heat.x) == [ESCAPED, "b"] and heat.zmin == 0 and heat.zmax == 1
    assert heat.text[0][1] == "0.97*" and heat.text[1][0] == "0.03" and heat.text[0][0] == ""
    assert heat.customdata[0][1] == format_probability(0.97) == "97.0%"
    rho = np.array([[0.5, 0.996, 0.999, 0.9995], [0.004, 0.5, 0.3, 0.2], [0.001, 0.7, 0.5, 0.6],
                    [0.0005, 0.8, 0.4, 0.5]])
    heat = pairwise_heatmap(["a", "b", "c", "d"], rho, confidence=0.95).data[0]
    # never "1.00" / "0.00": a posterior probability of an order is a bound at the ends, not certainty
    assert heat.text[0].tolist() == ["", ">.99*", ">.99*", ">.99*"]
    assert [row[0] for row in heat.text] == ["", "<.01", "<.01", "<.01"]
    assert heat.customdata[0].tolist()[1:] == [format_probability(p) for p in rho[0, 1:]] == ["99.6%", "99.9%", "> 99.9%"]
    assert heat.customdata[3][0] == format_probability(0.0005) == "< 0.1%"
    P = np.array([[0.9, 0.1], [0.1, 0.9]])
    fig = rank_heatmap(["a", "b"], P)
    assert list(fig.data[0].x) == ["1", "2"] and fig.data[0].text[0].tolist() == ["90%", "10%"]
    assert rank_heatmap(["a", "b"], np.array([[0.996, 0.004], [0.004, 0.996]])).data[0].text[0].tolist() == [">99%", ""]
    assert fig.layout.xaxis.title.text == "rank (1 = best)"


def test_cost_scatter_skips_missing_and_nonpositive_on_log():
    costs = pd.DataFrame({"model": ["a", "b", "c"], "value": [2.0, 0.0, 10.0]})
    fig = cost_scatter(table(["a", "b", "c", "d"]), costs, x_title="total cost per model (USD)", log_x=True)
    (trace,) = fig.data
    assert list(trace.text) == ["a", "c"] and fig.layout.xaxis.type == "log"
    assert np.allclose(trace.error_y.array, 0.05) and fig.layout.xaxis.title.text == "total cost per model (USD)"
    linear = cost_scatter(table(["a", "b"]), costs, x_title="x")
    assert len(linear.data[0].x) == 2 and linear.layout.xaxis.type == "linear"


def test_difference_plot():
    x = np.linspace(-0.1, 0.3, 50)
    density = np.exp(-((x - 0.1) ** 2) / 0.002)
    fig = difference_plot(x, density, mean=0.1, lo=0.02, hi=0.18, rho=0.99, name_a=EVIL, name_b="b")
    names = [t.name for t in fig.data]
    assert names == ["95% credible interval", "posterior density", "posterior mean"]
    shaded = fig.data[0]
    assert min(shaded.x) >= 0.02 and max(shaded.x) <= 0.18 and shaded.fill == "tozeroy"
    assert ESCAPED in fig.layout.xaxis.title.text and EVIL not in fig.layout.xaxis.title.text
    assert any("P(" in a.text and "99.0%" in a.text for a in fig.layout.annotations)
    # the page's own format (cut toward 50%): 0.61151 reads 61.1% beside the metric's "61.1%", not "0.612"
    odd = difference_plot(x, density, mean=0.1, lo=0.02, hi=0.18, rho=0.61151, name_a="a", name_b="b")
    assert any(a.text == "P(a > b) = 61.1%" for a in odd.layout.annotations)
    point = difference_plot(np.empty(0), np.empty(0), mean=0.1, lo=0.1, hi=0.1, rho=1.0, name_a="a", name_b="b")
    assert any(a.text == "P(a > b) > 99.9%" for a in point.layout.annotations)  # not "= > 99.9%"
    assert [t.name for t in point.data] == ["posterior mean"]
    # a model's empirical-Bayes prior not identified (N = 1): no posterior is claimed anywhere on the figure
    approx = difference_plot(x, density, mean=0.1, lo=0.02, hi=0.18, rho=0.99, name_a="a", name_b="b",
                             kind="approximate")
    assert [t.name for t in approx.data] == ["95% interval (normal approximation)", "density (normal approximation)",
                                             "estimate"]
    assert approx.layout.yaxis.title.text == "density (normal approximation)"
    assert "CrI" not in approx.data[2].hovertemplate and "95% interval [0.0200, 0.1800]" in approx.data[2].hovertemplate


def test_question_scatter():
    t = pd.DataFrame({"question": ["q1", "q2", "q3"], "outcome": ["only A solves", "neither", "both always"],
                      "score_a": [0.5, 0.0, 1.0], "score_b": [0.0, 0.0, 1.0]})
    fig = question_scatter(t, name_a="A1", name_b="B1")
    names = [tr.name for tr in fig.data[1:]]
    assert names == ["only A1 solves", "both always", "neither"]
    assert fig.layout.xaxis.title.text == "A1: pass rate"


def test_trials_plot():
    n = np.arange(1, 201)
    z = np.sqrt(n) / 5
    fig = trials_plot(n, z, z_threshold=1.645, n_needed=68, n_observed=80, z_observed=1.8)
    names = [t.name for t in fig.data]
    assert names == ["projected z", "observed (N = 80)", "plug-in N = 68 (~50% power)"]
    assert fig.layout.xaxis.type == "log" and fig.layout.shapes[0].y0 == pytest.approx(1.645)
    powered = trials_plot(n, z, z_threshold=1.645, n_needed=68, n_observed=80, z_observed=1.8, n_power=155, z_power=2.487)
    assert [t.name for t in powered.data][-1] == "N for 80% power = 155"
    assert powered.layout.shapes[1].y0 == pytest.approx(2.487)
    never = trials_plot(n, z * 0, z_threshold=1.645, n_needed=None, n_observed=80, z_observed=0.0)
    assert len(never.data) == 2


def test_no_unsafe_html_anywhere():
    sources = list((ROOT / "pages").rglob("*.py")) + list((ROOT / "dashboard").rglob("*.py")) + [ROOT / "app.py"]
    offenders = [p.name for p in sources if "unsafe_allow_html=True" in p.read_text()]
    assert offenders == []
