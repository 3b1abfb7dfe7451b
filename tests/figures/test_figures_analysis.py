"""Figures of the Trajectories, Convergence and Sensitivity pages: traces, axes, escaping."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dashboard.tables.analysis import band_frame, band_interval_name, bump_frame, convergence_curves, convergence_summary
from dashboard.figures import (
    convergence_plot,
    credible_band_grid,
    kendall_tau_plot,
    rank_share_heatmap,
    rank_trajectory_plot,
    schema_bump_chart,
)
from dashboard.figures.trajectory import model_colors
from scorio_core.dynamics.convergence import bootstrap_convergence
from scorio_core.sensitivity import SchemaRanks
from scorio_core.dynamics.trajectory import rank_trajectory

EVIL = "<b>evil</b>"
R = np.array([  # 3 models x 2 questions x 5 trials
    [[1, 1, 0, 1, 1], [0, 1, 1, 1, 0]],
    [[0, 1, 0, 0, 1], [1, 0, 0, 1, 1]],
    [[0, 0, 1, 0, 0], [0, 0, 0, 1, 0]],
])
MODELS = ["alpha", EVIL, "gamma"]


class _Method:
    def __init__(self, label):
        self.label = label


@pytest.fixture(scope="module")
def traj():
    return rank_trajectory(R, "bayes")


def test_rank_trajectory_lines_axes_and_labels(traj):
    fig = rank_trajectory_plot(MODELS, traj.n, traj.ranks, convergence=3, title="t")
    assert len(fig.data) == 3 and all(t.mode == "lines" for t in fig.data)
    assert list(fig.data[0].x) == [1, 2, 3, 4, 5]
    assert tuple(fig.layout.yaxis.range) == (3.5, 0.5)  # rank 1 on top
    assert fig.layout.showlegend is False
    texts = [a.text for a in fig.layout.annotations]
    assert "convergence@n = 3" in texts
    assert any("&lt;b&gt;evil&lt;/b&gt;" in t for t in texts) and not any("<b>evil" in t for t in texts)
    assert {t.name for t in fig.data} == {"alpha", "&lt;b&gt;evil&lt;/b&gt;", "gamma"}
    assert any(s.type == "line" for s in fig.layout.shapes)  # the convergence marker
    assert (fig.layout.xaxis.tickformat, fig.layout.xaxis.dtick) == ("d", 1)  # whole trials, never 0.5, 1.5 (issue 16)


def test_rank_trajectory_no_convergence_and_highlight(traj):
    fig = rank_trajectory_plot(MODELS, traj.n, traj.ranks, convergence=None, highlight=["gamma"])
    assert any("no convergence within N = 5" in a.text for a in fig.layout.annotations)
    widths = {t.name: t.line.width for t in fig.data}
    assert widths["gamma"] > widths["alpha"]
    assert fig.data[-1].name == "gamma"  # highlighted line drawn on top


def test_rank_trajectory_nan_ranks_are_gaps():
    ranks = np.array([[np.nan, 1, 1], [np.nan, 2, 2]])
    fig = rank_trajectory_plot(["a", "b"], [1, 2, 3], ranks)
    assert np.isnan(fig.data[0].y[0]) and fig.data[0].connectgaps is False


def test_colors_are_stable_across_charts(traj):
    a = rank_trajectory_plot(MODELS, traj.n, traj.ranks, color_order=["gamma", "alpha", EVIL])
    colors = {t.name: t.line.color for t in a.data}
    assert colors["gamma"] == model_colors(3)[0]
    band = band_frame(traj, MODELS, [0.0, 1.0], 0.95)
    b = credible_band_grid(band, models=["alpha"], color_order=["gamma", "alpha", EVIL])
    assert b.data[1].line.color == colors["alpha"]
    assert "#F0E442" not in model_colors(40)  # no pale yellow lines


def test_band_frame_and_grid(traj):
    band = band_frame(traj, MODELS, [0.0, 1.0], 0.95)
    assert list(band.columns) == ["model", "n", "mu", "lo", "hi"] and len(band) == 15
    assert (band["lo"] <= band["mu"]).all() and (band["mu"] <= band["hi"]).all()
    assert band["lo"].min() >= 0.0 and band["hi"].max() <= 1.0
    fig = credible_band_grid(band, models=MODELS, columns=2)
    assert len(fig.data) == 6  # band + mean per model
    assert fig.data[0].fill == "toself" and fig.data[0].showlegend and not fig.data[2].showlegend
    titles = [a.text for a in fig.layout.annotations]
    assert "&lt;b&gt;evil&lt;/b&gt;" in titles
    axes = [fig.layout[f"yaxis{i if i > 1 else ''}"] for i in range(1, 5)]
    targets = {a.matches for a in axes if a.matches}
    assert len(targets) == 1 and sum(a.matches is None for a in axes) == 1  # every panel shares one y axis
    assert len(fig.layout.shapes) == 3  # the value after N trials, per panel
    assert fig.data[0].name == "95% credible interval"
    for band_trace, mean_trace in zip(fig.data[0::2], fig.data[1::2]):  # the band's end markers: its own model's colour
        assert band_trace.marker.color == band_trace.fillcolor == mean_trace.line.color
    # the legend sits in the figure's top strip, not on the first row's panel titles
    assert fig.layout.legend.yref == "container" and fig.layout.legend.yanchor == "top" and fig.layout.margin.t >= 60
    eb = credible_band_grid(band, models=MODELS, interval_name=band_interval_name("empirical-bayes"))
    assert eb.data[0].name == "95% interval (credible where the prior is identified; else, as at n = 1, binomial sd)"


@pytest.fixture(scope="module")
def results():
    bayes = bootstrap_convergence(R, "bayes", replicates=64, seed=0)
    pass2 = bootstrap_convergence(R, "pass@k", k=2, replicates=64, seed=0)
    return [(_Method("Bayes@N"), bayes), (_Method(EVIL), pass2)]


def test_convergence_plot(results):
    curves = convergence_curves(results)
    summary = convergence_summary(results)
    assert list(curves.columns) == ["method", "n", "pmf", "cdf", "tau"] and len(curves) == 10
    fig = convergence_plot(curves, summary, n_max=5)
    assert len(fig.data) == 4  # PMF + CDF per method
    pmf, cdf = fig.data[0], fig.data[1]
    assert pmf.xaxis == "x" and cdf.xaxis == "x2" and cdf.showlegend is False
    res = results[0][1]  # plain words in the legend: when the ranking settles, and how many replicates never do
    if np.isfinite(res.mean):
        assert f"settle{'s' if res.no_convergence < 0.5 else ' do so'} after {res.mean:.1f} trials on average" in pmf.name
        assert ("of replicates never do)" in pmf.name) == (0 < res.no_convergence < 0.5)
    else:
        assert pmf.name.endswith("never settles within N trials")
    assert "&lt;b&gt;" in fig.data[2].name
    assert list(pmf.x) == [1, 2, 3, 4]  # s = 1..N-1
    np.testing.assert_allclose(cdf.y, results[0][1].cdf)
    assert tuple(fig.layout.yaxis2.range) == (0, 1.04)
    assert (fig.layout.xaxis.tickformat, fig.layout.xaxis.dtick) == ("d", 1)  # whole trials


def test_convergence_legend_never_rounds_to_100_percent_nor_contradicts_itself():
    """3 of 2,000 replicates settle: not "settles after 3.0 trials on average (100% of replicates never do)"."""
    curves = pd.DataFrame({"method": ["Bayes@N"] * 3, "n": [1, 2, 3], "pmf": [0.0, 0.0, 0.0015],
                           "cdf": [0.0, 0.0, 0.0015], "tau": [0.88, 0.9, 0.92]})
    summary = pd.DataFrame({"method": ["Bayes@N", "Pass@2"], "mean": [3.0, 2.0], "no_convergence": [0.9985, 0.0005]})
    name = convergence_plot(curves, summary, n_max=4).data[0].name
    assert "100%" not in name and "settles after" not in name
    assert name == "Bayes@N: the 0.15% of replicates that settle do so after 3.0 trials on average; 99.85% never do"
    fig = convergence_plot(curves.assign(method="Pass@2"), summary.iloc[::-1], n_max=4)
    assert fig.data[0].name == "Pass@2: settles after 2.0 trials on average (0.05% of replicates never do)"


def test_convergence_table_headers_read_in_full(results):
    """At 1280 px "Mean, no convergence = N" read "Mean, no convergenc" and "Kendall's tau_b at N" "Kendall's tau_b at"."""
    from dashboard.tables.analysis import convergence_display

    _, config = convergence_display(results)
    widths = {key: col["width"] for key, col in config.items() if isinstance(col.get("width"), int)}
    assert set(widths) == set(config) - {"method"}  # the method's name takes the rest
    for key, width in widths.items():  # ~7 px a character plus the cell's padding
        assert 7 * len(config[key]["label"]) + 16 <= width, (config[key]["label"], width)
    assert sum(widths.values()) <= 820 - 110  # the page is ~820 px wide at 1280 px: room left for the method


def test_kendall_tau_plot(results):
    curves = convergence_curves(results)
    fig = kendall_tau_plot(curves, methods=["Bayes@N", EVIL])
    assert [t.name for t in fig.data] == ["Bayes@N", "&lt;b&gt;evil&lt;/b&gt;"]
    assert fig.layout.yaxis.range[1] == pytest.approx(1.02)
    assert np.isnan(fig.data[1].y[0])  # Pass@2 undefined at n = 1
    assert fig.layout.xaxis.dtick == 1  # few trials: a tick per whole n, none at 1.5 shown as "2"


def _schema_ranks() -> SchemaRanks:
    ranks = np.array([[1.0, 2.0, 3.0], [2.0, 1.0, 3.0]])
    return SchemaRanks(models=tuple(MODELS), schemas=("A", "B<i>"), mu=np.array([[0.9, 0.8, 0.1], [0.7, 0.8, 0.1]]),
                       sigma=np.full((2, 3), 0.01), ranks=ranks, ranks_ci=np.array([[1.0, 1.0, 2.0], [1.0, 1.0, 2.0]]),
                       unmatched=np.zeros(2, dtype=np.int64), confidence=0.95, tie_rule="paper", skipped=(), notes=())


def test_bump_chart():
    result = _schema_ranks()
    table = bump_frame(result, with_ci=False)
    assert list(table.columns) == ["schema", "model", "rank", "mu"] and len(table) == 6
    fig = schema_bump_chart(table, schemas=result.schemas, models=MODELS)
    assert len(fig.data) == 3 and fig.data[0].mode == "lines+markers"
    assert list(fig.data[0].x) == ["A", "B&lt;i&gt;"] and list(fig.data[0].y) == [1.0, 2.0]
    assert tuple(fig.layout.yaxis.range) == (3.5, 0.5)
    assert any("&lt;b&gt;evil&lt;/b&gt;" in a.text for a in fig.layout.annotations)
    ci = schema_bump_chart(bump_frame(result, with_ci=True), schemas=result.schemas, models=MODELS, rank_label="with CI")
    assert list(ci.data[0].y) == [1.0, 1.0] and ci.layout.yaxis.title.text == "with CI"


def test_rank_share_heatmap():
    share = np.array([[0.7, 0.3, 0.0], [0.3, 0.7, 0.0], [0.0, 0.0, 1.0]])
    fig = rank_share_heatmap(MODELS, share, [1, 2, 3], n_rubrics=200)
    heat, marks = fig.data
    assert heat.type == "heatmap" and np.asarray(heat.z).shape == (3, 3)
    assert list(heat.x) == ["1", "2", "3"] and heat.zmin == 0 and heat.zmax == 1
    assert heat.text[0][0] == "70%" and heat.text[0][2] == ""
    assert list(marks.x) == ["1", "2", "3"] and marks.marker.symbol == "square-open"
    assert "&lt;b&gt;evil&lt;/b&gt;" in list(heat.y)
    assert "200 rubrics" in heat.colorbar.title.text
    assert fig.layout.yaxis.autorange == "reversed"


def test_models_by_rank_puts_unscored_last():
    from dashboard.tables.analysis import models_by_rank

    assert models_by_rank(["a", "b", "c"], [0.2, np.nan, 0.5]) == ["c", "a", "b"]


def test_convergence_curves_empty():
    assert convergence_curves([]).empty
    assert isinstance(convergence_summary([]), pd.DataFrame)


def test_leader_summary_names_the_smallest_flip():
    from dashboard.tables.analysis import drivers_display, leader_summary
    from scorio_core.sensitivity import perturb_rubric

    rows = [("a", q, t, float(q < 2), float(t % 2)) for q in range(3) for t in range(4)]
    rows += [("b", q, t, float(q < 1), 1.0) for q in range(3) for t in range(4)]
    frame = pd.DataFrame(rows, columns=["model", "question_id", "trial", "is_correct", "has_box"])
    res = perturb_rubric(frame, "Format Compliance & Correctness", n=50, seed=1)
    text = leader_summary(res)
    # scorio_core.sensitivity doctest: b catches a at -25% of "Correct but Unformatted" (smaller than +33%)
    assert text.startswith("a stays first in 92% of 50 perturbed rubrics.")
    assert "weight: Correct but Unformatted -25% (weight x 0.75), where b catches up" in text
    table, config = drivers_display(res)
    assert set(table.columns) == set(config) and table["new_leader"].tolist() == ["b", "b", ""]


def test_bump_chart_reads_each_models_rows_whatever_the_table_order():
    """One pivot of the table (not a filter per model): rows in any order, a missing (model, schema) is a gap."""
    rng = np.random.default_rng(4)
    models = [f"m{i}" for i in range(40)]
    ranks = np.stack([rng.permutation(40) + 1.0 for _ in range(3)], axis=1)  # (model, schema)
    table = pd.DataFrame({"schema": np.tile(["s0", "s1", "s2"], 40), "model": np.repeat(models, 3),
                          "rank": ranks.ravel(), "mu": ranks.ravel() / 100})
    table = table.drop(index=5).sample(frac=1.0, random_state=1)  # m1 has no s2 row; rows shuffled
    fig = schema_bump_chart(table, schemas=["s0", "s1", "s2"], models=models)
    assert [t.name for t in fig.data] == models
    for i, trace in enumerate(fig.data):
        want = ranks[i].copy()
        if i == 1:
            want[2] = np.nan
        np.testing.assert_array_equal(np.asarray(trace.y, dtype=float), want)
        np.testing.assert_array_equal(np.asarray(trace.customdata, dtype=float), want / 100)
    left = [a for a in fig.layout.annotations if a.xanchor == "right"]
    assert sorted(float(a.y) for a in left) == sorted(ranks[:, 0])  # one label per first-schema rank (no ties)


def test_rank_trajectory_labels_every_final_rank_once():
    ranks = np.array([[3, 1], [1, 1], [2, 3]], dtype=float)  # two models share rank 1 at the end
    fig = rank_trajectory_plot(["a", "b", "c"], [1, 2], ranks, convergence=None)
    ends = {float(a.y): a.text.split("</span> ", 1)[1] for a in fig.layout.annotations if a.xanchor == "left"}
    assert ends == {1.0: "a, b", 3.0: "c"}
    # the name in the theme's text colour (11 px text in a line's colour fell to 3.1:1), a swatch in the line's
    labels = [a for a in fig.layout.annotations if a.xanchor == "left"]
    assert all(a.font.color is None and a.text.startswith("<span style='color:") for a in labels)
