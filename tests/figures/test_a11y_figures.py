"""Accessibility QA (colour-blind lead, screen-reader colleague): what the figures say must not rest on colour alone
or on text Plotly shrinks out of sight."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.figures import pairwise_heatmap, question_scatter
from dashboard.figures.compare import OUTCOME_COLORS, OUTCOME_SYMBOLS
from dashboard.figures.leaderboard import interval_plot
from dashboard.figures.theme import rank_colors, rank_symbols


def test_pairwise_values_carry_no_markup_that_shrinks_them():
    """``<b>`` in a heatmap cell made Plotly size every value for the markup: 4-7 px at 16 models, then hidden by the
    app's < 6 px rule, so the pairwise probabilities were hover-only at desktop width."""
    rho = np.array([[0.5, 0.97, 0.6], [0.03, 0.5, 0.999], [0.4, 0.001, 0.5]])
    text = pairwise_heatmap(["a", "b", "c"], rho, confidence=0.95).data[0].text
    assert not any("<" in t and ">" in t.replace(">.99", "") for row in text for t in row)  # no tags
    assert text[0][1] == "0.97*" and text[1][2] == ">.99*" and text[0][2] == "0.60" and text[2][1] == "<.01"


def test_rank_groups_differ_in_marker_not_only_colour():
    symbols, colors = rank_symbols(56), rank_colors(56)
    assert len(set(zip(colors, symbols))) == 56  # every group of the first 56 has its own pair
    assert all(a != b for a, b in zip(symbols, symbols[1:]))  # neighbours differ in marker
    assert len(set(symbols[:7])) == 7  # up to seven groups: no two share a marker (all circles before)
    mu = np.linspace(0.9, 0.1, 5)
    table = pd.DataFrame({"model": list("abcde"), "mu": mu, "lo": mu - 0.01, "hi": mu + 0.01,
                          "rank": np.arange(1, 6), "rank_ci": np.arange(1, 6), "estimate": mu})
    fig = interval_plot(table)
    groups = [t for t in fig.data if t.marker.symbol is not None]
    assert len({t.marker.symbol for t in groups}) == len(groups) == 5


def test_compare_outcomes_differ_in_marker():
    assert set(OUTCOME_SYMBOLS) == set(OUTCOME_COLORS) and len(set(OUTCOME_SYMBOLS.values())) == len(OUTCOME_SYMBOLS)
    rows = pd.DataFrame({"question": ["q1", "q2"], "score_a": [1.0, 0.0], "score_b": [0.0, 1.0],
                         "outcome": ["only A solves", "only B solves"]})
    fig = question_scatter(rows, name_a="A", name_b="B")
    assert [t.marker.symbol for t in fig.data if t.mode == "markers"] == ["triangle-right", "triangle-up"]
