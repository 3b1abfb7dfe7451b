"""The leaderboard's forest plot: rank groups told apart by colour, marker and row label; legends that explain shared ranks."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.figures import interval_plot
from dashboard.figures.theme import rank_colors
from scorio_core.ranking.rank import rank_meaning, ranks_with_ties


def board(n: int, rule: str = "pairwise") -> pd.DataFrame:
    mu = np.linspace(0.9, 0.1, n)
    sigma = np.full(n, 0.004)
    sigma[7:10] = 0.05  # a wide middle: ties, and ranks like 7, 7, 8 under the pairwise rule
    ranks = ranks_with_ties(mu, sigma, rule=rule)
    return pd.DataFrame({"model": [f"m{i:02d}" for i in range(n)], "mu": mu, "lo": mu - 2 * sigma, "hi": mu + 2 * sigma,
                         "rank": np.arange(1, n + 1), "rank_ci": ranks, "estimate": mu})


def test_twenty_rank_groups_are_told_apart_without_colour():
    table = board(20)
    fig = interval_plot(table, tie_rule="pairwise")
    styles = [(t.marker.color, t.marker.symbol) for t in fig.data]
    assert len(styles) == len({t.name for t in fig.data}) > 8  # more groups than the qualitative palette holds
    assert len(set(styles)) == len(styles)  # rank 1 and rank 8 share blue, not the marker
    assert all(a[0] != b[0] for a, b in zip(styles, styles[1:]))  # neighbouring groups always differ in hue
    assert set(rank_colors(40)) == set(rank_colors(7)) and rank_colors(0) == [] and len(rank_colors(1)) == 1
    # every row's label names its rank: no reader has to match 16 legend colours to rows
    axis = fig.layout.yaxis
    assert list(axis.tickvals) == list(axis.categoryarray)
    by_model = dict(zip(table["model"], table["rank_ci"]))
    for model, text in zip(axis.tickvals, axis.ticktext):
        assert text == f"{by_model[model]:.0f} · {model}"


def test_few_rank_groups_keep_plain_labels_and_distinct_colours():
    table = board(5).assign(rank_ci=[1, 2, 3, 4, 5])
    fig = interval_plot(table)
    assert len({t.marker.color for t in fig.data}) == 5
    assert list(fig.layout.yaxis.ticktext) == list(fig.layout.yaxis.tickvals)  # short names as they are, no rank


def test_legend_explains_a_shared_rank():
    table = board(20)
    fig = interval_plot(table, tie_rule="pairwise")
    names = {t.name for t in fig.data}
    for r, size in table["rank_ci"].value_counts().items():
        assert rank_meaning(r, size, "pairwise") in names
    assert "rank 1: none credibly better" in names
    shared = [n for n in names if "models)" in n]
    assert shared and all("credibly better" in n for n in shared)
    # other rules say what their ranks mean, never the pairwise wording
    assert all("credibly better" not in t.name for t in interval_plot(board(20, "paper"), tie_rule="paper").data)
    assert rank_meaning(3, 2, "upper-bound") == "rank 3 (2 models): 2 with intervals wholly above"
    assert rank_meaning(4, 2, "none") == "rank 4 (2 models, equal means)"
    # N = 1 (every prior not identified): the sds are pooled binomial ones, so no model is "credibly" better
    table["interval"] = "95% exact binomial (Clopper-Pearson) interval on the pooled answers; covers trials"
    exact = {t.name for t in interval_plot(table, tie_rule="pairwise", confidence=0.9).data}
    assert "rank 1: none better at 90%" in exact and not any("credibly" in n for n in exact)
    assert {n.replace("better at 90%", "credibly better") for n in exact} == names


def title(fig) -> str:
    """The x-axis title with its line breaks (a phone's width: :func:`dashboard.figures.theme.axis_title`) as spaces."""
    return fig.layout.xaxis.title.text.replace("<br>", " ")


def test_the_axis_says_credible_interval_only_where_the_rows_do():
    table = board(4)
    assert title(interval_plot(table, metric_label="Bayes@N", confidence=0.95)) == \
        "Bayes@N: posterior mean and 95% credible interval"
    exact = "95% exact binomial (Clopper-Pearson) interval on the pooled answers; covers trials (questions fixed)"
    table["interval"] = exact  # every model's prior not identified (N = 1)
    assert title(interval_plot(table, metric_label="Bayes@N", confidence=0.95)) == \
        "Bayes@N: estimate and 95% exact binomial interval (prior not identified)"
    table["interval"] = ["95% credible interval; covers trials (questions fixed)", exact, exact, exact]
    assert title(interval_plot(table, metric_label="Bayes@N", confidence=0.9)) == \
        "Bayes@N: posterior mean and 90% credible interval (exact binomial where the prior is not identified)"


def test_hover_and_export_headers_name_the_interval_the_rows_have():
    """N = 1 data: every interval is exact binomial, so no hover line or export header calls it a CrI."""
    from dashboard.figures.leaderboard import cost_scatter
    from scorio_core.report.tables import presentation_table

    table = board(4)
    assert all("95% CrI [" in t.hovertemplate for t in interval_plot(table, confidence=0.95).data)
    table["interval"] = "95% exact binomial (Clopper-Pearson) interval on the pooled answers; covers trials"
    hovers = [t.hovertemplate for t in interval_plot(table, confidence=0.95).data]
    assert hovers and all("95% exact CI [" in h and "CrI" not in h for h in hovers)
    costs = pd.DataFrame({"model": table["model"], "value": [1.0, 2.0, 3.0, 4.0]})
    fig = cost_scatter(table, costs, x_title="cost", confidence=0.95)
    assert "95% exact binomial interval [" in fig.data[0].hovertemplate and "CrI" not in fig.data[0].hovertemplate
    assert fig.layout.yaxis.title.text == "Bayes@N (mean and 95% exact binomial interval)"  # the full term, as elsewhere
    table["n_questions"], table["n_trials"], table["sigma"], table["avg"] = 2, 1, 0.1, table["mu"]
    assert {"95% exact CI low", "95% exact CI high"} <= set(presentation_table(table).columns)
    table.loc[0, "interval"] = "95% credible interval; covers trials (questions fixed)"
    assert {"95% interval low", "95% interval high"} <= set(presentation_table(table).columns)
