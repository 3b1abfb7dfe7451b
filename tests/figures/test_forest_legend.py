"""The interval (forest) plot's legend with hundreds of models and non-monotone CI-tie ranks (helper QA, 250 models:
"rank 35" listed before "rank 24", ~70 near-identical entries), and the pairwise heatmap's printed values; the Data page's trial grid ticks."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.figures.leaderboard import LEGEND_GROUPS_MAX, PAIRWISE_VALUES_MAX, interval_plot, pairwise_heatmap


def _table(rank_ci):
    L = len(rank_ci)
    mu = np.linspace(0.9, 0.1, L)
    return pd.DataFrame({"model": [f"m{i}" for i in range(L)], "mu": mu, "lo": mu - 0.05, "hi": mu + 0.05,
                         "rank": np.arange(1, L + 1), "rank_ci": rank_ci, "estimate": mu,
                         "interval": ["95% credible interval"] * L})


def test_legend_lists_ranks_in_order_even_where_a_wide_interval_holds_a_better_rank():
    # pairwise rule: the fourth model by mean (a wide interval) holds rank 2, the third holds rank 3
    fig = interval_plot(_table([1, 2, 3, 2, 5]), metric_label="Bayes@N", confidence=0.95)
    names = [t.name for t in fig.data]
    ranks = [int(n.split()[1].rstrip(":")) for n in names]
    assert ranks == sorted(ranks) == [1, 2, 3, 5]
    assert fig.layout.showlegend is not False


def test_no_legend_above_the_group_limit():
    many = list(range(1, LEGEND_GROUPS_MAX + 2))
    assert interval_plot(_table(many), metric_label="Bayes@N", confidence=0.95).layout.showlegend is False
    few = list(range(1, LEGEND_GROUPS_MAX + 1))
    assert interval_plot(_table(few), metric_label="Bayes@N", confidence=0.95).layout.showlegend is not False


def test_pairwise_values_are_printed_up_to_the_limit_only():
    for L, printed in ((PAIRWISE_VALUES_MAX, True), (PAIRWISE_VALUES_MAX + 1, False)):
        fig = pairwise_heatmap([f"m{i}" for i in range(L)], np.full((L, L), 0.5))
        assert (fig.data[0].texttemplate == "%{text}") is printed


def test_trial_grid_ticks_only_trials():
    # the flaky diamonds sit at x = 0: a "0" tick under every model read as a trial 0 (helper QA, N = 3)
    from dashboard.figures.data import trial_grid

    fig = trial_grid(["a", "b"], ["q1", "q2"], np.zeros((2, 2, 3), int), ["wrong", "right"], [0, 1],
                     np.array([[0.5, 1.0], [0.0, 0.5]]))
    assert all(axis.tickvals == (1, 2, 3) for axis in (fig.layout.xaxis, fig.layout.xaxis2))
    wide = trial_grid(["a"], ["q1"], np.zeros((1, 1, 80), int), ["wrong", "right"], [0, 1], np.array([[0.5]]))
    assert 0 not in wide.layout.xaxis.tickvals and wide.layout.xaxis.tickvals[0] == 1


def test_tied_models_read_top_down_in_the_tables_order():
    # QA 2026-12-03 (300 models, 18 tied at the top): the chart's top row was the table's 18th; it reads as the table,
    # whatever order the rows arrive in (exact ties by name, as scorio_core.leaderboard.order.board_order)
    mu = [0.9, 0.9, 0.9, 0.5, 0.5]
    table = pd.DataFrame({"model": ["c", "a", "b", "e", "d"], "mu": mu, "lo": np.subtract(mu, 0.1),
                          "hi": np.add(mu, 0.1), "rank": [1, 1, 1, 4, 4], "rank_ci": [1, 1, 1, 1, 1]})
    fig = interval_plot(table, metric_label="Bayes@N", confidence=0.95)
    bottom_up = list(fig.layout.yaxis.categoryarray)
    assert bottom_up[::-1] == ["a", "b", "c", "d", "e"]
