"""Lead QA on a phone (390 px), a projector (1920 px) and the dark theme.

1. Heatmap cell values were printed at a fixed size and overprinted each other on a phone: they are sized to the cell
   (Plotly's auto size) and the app hides what shrank below 6 px (hover keeps every value).
2. The leaderboard table showed Rank and Rank (CI ties) before the model and its score (off screen at 390 px).
3. The Method agreement rank table ran to ~3,700 px and was cut off at 1920 px.
4. The Data and Tasks heatmaps sat in a light frame on the dark theme (a light plot background and missing colour).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from dashboard.figures import (method_agreement_heatmap, pairwise_heatmap, rank_heatmap, rank_share_heatmap, rate_grid,
                               task_heatmap, trial_grid)
from dashboard.figures.theme import DARK_BG, LIGHT_BG, MISSING_COLOR, TRANSPARENT, contrast_ratio, readable

RATES = np.array([[1.0, 0.5, np.nan], [0.0, 0.25, 1.0]])
CELLS = pd.DataFrame({"model": ["A", "B"], "task": ["t1", "t2"], "bayes": [0.6, 0.4], "lo": [0.4, 0.2],
                      "hi": [0.8, 0.6], "avg": [0.6, 0.4], "n": [4, 4], "n_max": [4, 4], "m": [10, 10]})


@lru_cache(maxsize=1)
def _heatmaps():
    codes = np.array([[[1, 0, -1]], [[0, 0, 0]]], dtype=np.int16)
    return {
        "rate_grid": rate_grid(["a", "b"], ["q1", "q2", "q3"], RATES, RATES * 4, np.array([[4, 4, 0], [4, 4, 4]])),
        "task_heatmap": task_heatmap(CELLS, models=["A", "B"], tasks=["t1", "t2"]),
        "trial_grid": trial_grid(["a", "b"], ["q1"], codes, ["wrong", "right"], [0, 1], np.array([[0.5], [0.0]])),
    }


@lru_cache(maxsize=1)
def _with_cell_text():
    P = np.full((16, 16), 1 / 16)
    return {
        "rate_grid": _heatmaps()["rate_grid"],
        "task_heatmap": _heatmaps()["task_heatmap"],
        "rank_heatmap": rank_heatmap([f"m{i}" for i in range(16)], P),
        "pairwise_heatmap": pairwise_heatmap([f"m{i}" for i in range(16)], np.full((16, 16), 0.5)),
        "method_agreement": method_agreement_heatmap([f"x{i}" for i in range(16)], np.eye(16)),
        "rank_share": rank_share_heatmap([f"m{i}" for i in range(16)], np.full((16, 16), 1 / 16), np.arange(1, 17)),
    }


@pytest.mark.parametrize("name", list(_with_cell_text()))
def test_cell_values_are_sized_to_their_cell(name):
    """A fixed font size (10-12 px) overprinted at 390 px; unset, Plotly sizes each heatmap's text to its cells."""
    heat = _with_cell_text()[name].data[0]
    assert isinstance(heat, go.Heatmap) and heat.texttemplate == "%{text}", name
    assert heat.textfont.size is None, f"{name}: fixed {heat.textfont.size} px cell text"


def test_the_app_hides_cell_values_too_small_to_read():
    from dashboard.panels.charts import UNREADABLE_CELL_TEXT_CSS as css

    assert all(f"font-size: {px}px'" in css for px in range(1, 6)) and "font-size: 6px" not in css
    assert "stPlotlyChart" in css and "display: none" in css
    source = (__import__("pathlib").Path(__file__).resolve().parents[2] / "app.py").read_text()
    assert "hide_unreadable_cell_text()" in source


def test_missing_colour_reads_on_white_and_on_the_dark_theme():
    assert contrast_ratio(MISSING_COLOR, LIGHT_BG) >= 3 and contrast_ratio(MISSING_COLOR, DARK_BG) >= 3
    assert readable(MISSING_COLOR)


@pytest.mark.parametrize("name", list(_heatmaps()))
def test_heatmaps_have_no_light_frame(name):
    fig = _heatmaps()[name]
    assert fig.layout.plot_bgcolor == TRANSPARENT and fig.layout.paper_bgcolor == TRANSPARENT, name
    for trace in fig.data:  # every colour a heatmap paints for "no data" reads on both backgrounds
        if isinstance(trace, go.Heatmap) and trace.name in ("not answered", "no data"):
            assert {c for _, c in trace.colorscale} == {MISSING_COLOR}


@pytest.mark.parametrize("name", ["rate_grid", "task_heatmap"])
def test_missing_cells_are_painted_not_left_to_the_background(name):
    fig = _heatmaps()[name]
    z = np.asarray(fig.data[0].z, dtype=float)
    (blank,) = [t for t in fig.data[1:] if isinstance(t, go.Heatmap)]
    painted = np.isfinite(np.asarray(blank.z, dtype=float))
    assert (painted == np.isnan(z)).all() and blank.showscale is False and blank.hoverinfo == "skip"
    assert list(blank.x) == list(fig.data[0].x) and list(blank.y) == list(fig.data[0].y)


def test_no_missing_cell_no_extra_trace():
    full = np.array([[1.0, 0.5], [0.0, 0.25]])
    assert len(rate_grid(["a", "b"], ["q1", "q2"], full, full * 4, np.full((2, 2), 4)).data) == 1


def _board(n: int) -> pd.DataFrame:
    mu = np.linspace(0.9, 0.1, n)
    return pd.DataFrame({"rank": range(1, n + 1), "rank_ci": [1] * n, "model": [f"org/m{i}" for i in range(n)], "mu": mu,
                         "lo": mu - 0.1, "hi": mu + 0.1, "sigma": [0.05] * n, "estimate": mu, "avg": mu, "accuracy": mu,
                         "pass_at_k": mu, "n_questions": [10] * n, "n_trials": [4] * n,
                         "interval": ["95% credible interval"] * n})


def test_leaderboard_shows_the_model_and_its_score_before_the_ranks():
    from dashboard.tables.display import leaderboard_display

    frame, config = leaderboard_display(_board(3), metric_label="Bayes@N", k=1, confidence=0.95,
                                        groups=[["org/m0", "org/m1"], ["org/m2"]])
    shown = [c for c in frame.columns if config.get(c, {}) is not None]
    assert shown[:4] == ["model", "mu", "lo", "hi"]  # on a phone the grid shows ~350 px: the score first
    assert shown[4:8] == ["rank", "rank_ci", "group", "organisation"]


def test_method_agreement_rank_table_fits_a_1920_px_page():
    from dashboard.tables.methods import TABLE_PX, rank_table_parts
    from scorio_core.leaderboard.methods import default_methods
    from scorio_core.rank.agreement import METHODS, available_methods, method_label

    groups = {m: g for g, ms in {"Bayes@N and IRT": METHODS["Bayes@N and IRT"], **available_methods()}.items()
              for m in ms}
    methods = [m for m in default_methods(16) if m in groups]
    labels = {m: method_label(m) for m in methods}
    frame = pd.DataFrame({"model": ["DeepSeek-R1-Distill-Qwen-1.5B"] + [f"m{i}" for i in range(15)],
                          "best": range(16), "worst": range(16), **{labels[m]: range(16) for m in methods}})
    parts = rank_table_parts(frame, methods, labels, groups)
    assert len(parts) > 1  # 30-odd methods: no single page-wide table holds them
    seen = []
    for i, (title, part, config) in enumerate(parts):
        assert title and part.columns[0] == "model" and config["model"]["pinned"] is True
        assert sum(config[c]["width"] for c in part.columns) <= TABLE_PX, title
        assert (["best", "worst"] == list(part.columns[1:3])) is (i == 0)
        assert all(config[labels[m]]["help"] == labels[m] for m in methods if labels[m] in part.columns)
        seen += [c for c in part.columns if c not in ("model", "best", "worst")]
    assert seen == [labels[m] for m in methods]  # every method once, in the chosen order
    few = rank_table_parts(frame[["model", "best", "worst", labels["bayes"], labels["avg"]]], ["bayes", "avg"], labels,
                           groups)
    assert len(few) == 1 and few[0][0] == "" and few[0][1].columns.tolist() == ["model", "best", "worst", "Bayes@N",
                                                                                   "avg@N (mean accuracy)"]
