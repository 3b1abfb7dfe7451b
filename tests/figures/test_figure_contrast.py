"""Every figure reads on a white page and on Streamlit's dark theme: no black or near-black series, markers or text.

WCAG 2 contrast of at least 3:1 (graphics and large text) against :data:`~dashboard.figures.theme.LIGHT_BG` (the
exported report, the light app theme) and :data:`~dashboard.figures.theme.DARK_BG` (``--theme.base dark``), for
every palette colour and every colour a figure sets on a trace, error bar, shape or annotation. Text left without a
colour takes the theme's own text colour (light or dark), which Streamlit sets.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dashboard.figures import (cost_scatter, difference_plot, interval_plot, item_curve, question_scatter,
                               rank_trajectory_plot, schema_bump_chart, trials_plot)
from dashboard.figures.compare import OUTCOME_COLORS
from dashboard.figures.theme import (DARK_BG, LIGHT_BG, MISSING_COLOR, MUTED, NEUTRAL, PALETTE, UNMATCHED_COLOR, contrast_ratio,
                                     rank_colors, readable, wrap_title)
from dashboard.figures.trajectory import model_colors


def _colours(fig) -> list[str]:
    """Hex colours the figure sets on its traces (markers, lines, error bars, text), shapes and annotations."""
    out = []
    for trace in fig.data:
        d = trace.to_plotly_json()
        for key in ("marker", "line", "error_x", "error_y", "textfont"):
            part = d.get(key) or {}
            colour = part.get("color")
            out.extend(colour if isinstance(colour, (list, tuple)) else [colour])
            out.append((part.get("line") or {}).get("color") if key == "marker" else None)
    out += [s.line.color for s in fig.layout.shapes] + [a.font.color for a in fig.layout.annotations]
    return [c for c in out if isinstance(c, str) and c.startswith("#")]


def test_contrast_ratio_is_wcag():
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#fff", "#ffffff") == pytest.approx(1.0)
    assert not readable("#000000") and not readable("#3b4250") and not readable("#E69F00") and readable(NEUTRAL)


@pytest.mark.parametrize("colour", [*PALETTE, *rank_colors(7), *model_colors(60), NEUTRAL, UNMATCHED_COLOR, MISSING_COLOR,
                                    *[c for c in OUTCOME_COLORS.values() if c != MUTED]])
def test_palette_colours_read_on_white_and_on_the_dark_theme(colour):
    assert contrast_ratio(colour, LIGHT_BG) >= 3 and contrast_ratio(colour, DARK_BG) >= 3, colour


def _board(n: int) -> pd.DataFrame:
    mu = np.linspace(0.9, 0.1, n)
    return pd.DataFrame({"model": [f"m{i:02d}" for i in range(n)], "mu": mu, "lo": mu - 0.01, "hi": mu + 0.01,
                         "rank": np.arange(1, n + 1), "rank_ci": np.arange(1, n + 1), "estimate": mu + 0.001})


def _figures():
    board = _board(16)
    ranks = np.tile(np.arange(1.0, 21.0)[:, None], (1, 5))
    bump = pd.DataFrame([{"schema": s, "model": f"m{i}", "rank": i + 1 + (s == "B" and i in (9, 10)) * (1 - 2 * (i - 9)),
                          "mu": 0.5} for s in ("A", "B", "C") for i in range(20)])
    outcomes = pd.DataFrame({"question": [f"q{i}" for i in range(8)], "outcome": list(OUTCOME_COLORS),
                             "score_a": np.linspace(0, 1, 8), "score_b": np.linspace(1, 0, 8)})
    n = np.arange(1, 101)
    return {
        "interval": interval_plot(board, show_estimate=True),
        "interval_missing": interval_plot(pd.concat([board, _board(1).assign(model="x", mu=np.nan)])),
        "cost": cost_scatter(board, pd.DataFrame({"model": board["model"], "value": np.arange(1.0, 17.0)}), x_title="$"),
        "trajectory": rank_trajectory_plot([f"m{i}" for i in range(20)], np.arange(1, 6), ranks, convergence=3,
                                           highlight=["m0", "m1"]),
        "no_convergence": rank_trajectory_plot(["a", "b"], [1, 2], [[1, 1], [2, 2]]),
        "bump": schema_bump_chart(bump, schemas=["A", "B", "C"], models=[f"m{i}" for i in range(20)]),
        "bump_highlight": schema_bump_chart(bump, schemas=["A", "B", "C"], models=[f"m{i}" for i in range(20)],
                                            highlight=["m9"]),
        "trials": trials_plot(n, np.sqrt(n) * 0.5, z_threshold=1.96, n_needed=16, n_observed=4, z_observed=1.0,
                              n_power=32, z_power=2.8),
        "difference": difference_plot(np.linspace(-1, 1, 50), np.exp(-np.linspace(-1, 1, 50) ** 2), mean=0.1, lo=-0.5,
                                      hi=0.7, rho=0.6, name_a="a", name_b="b"),
        "item": item_curve(1.5, -2.07, [0.0, 1.0], [0.5, 0.8], ["a", "b"], a_se=0.3, b_se=0.2, question="q1"),
        "scatter": question_scatter(outcomes, name_a="a", name_b="b"),
    }


@pytest.mark.parametrize("name,fig", list(_figures().items()))
def test_figure_colours_read_on_white_and_on_the_dark_theme(name, fig):
    colours = _colours(fig)
    bad = sorted({c for c in colours if not readable(c)} - {"white", "#ffffff", "#FFFFFF"})
    assert not bad, f"{name}: {bad}"
    assert fig.layout.template.layout.paper_bgcolor == "white"  # plotly_white: the exported report's white page


def test_marker_outlines_are_the_only_white():
    """White marker outlines stay (a ring on either background); white is never a line, fill or text colour."""
    for name, fig in _figures().items():
        for trace in fig.data:
            d = trace.to_plotly_json()
            assert (d.get("line") or {}).get("color") not in ("white", "#ffffff"), name
            assert (d.get("textfont") or {}).get("color") not in ("white", "#ffffff"), name


def test_trajectory_marker_and_labels_read_on_the_dark_theme():
    fig = _figures()["trajectory"]
    (marker,) = [s for s in fig.layout.shapes if s.type == "line"]
    assert readable(marker.line.color)
    label = next(a for a in fig.layout.annotations if a.text.startswith("convergence@n"))
    assert label.font.color is None  # the theme's text colour: light on dark, dark on white
    muted = [t for t in fig.data if t.name not in ("m0", "m1")]
    assert all(t.line.color == MUTED for t in muted)  # translucent grey, never a light grey that glares on dark


def test_bump_chart_neighbours_differ_without_hue_and_labels_sit_beside_the_ends():
    fig = _figures()["bump"]
    styles = [(t.line.dash, t.marker.symbol) for t in fig.data]
    assert all(a[0] != b[0] and a[1] != b[1] for a, b in zip(styles, styles[1:]))  # ranks 10/11 swap: dash and marker
    assert fig.layout.yaxis.showgrid is False  # a grid line at every rank struck through the end labels
    for note in fig.layout.annotations:  # beside the end marker (radius <= 4.5 px), in the margin
        assert (note.xanchor, note.xshift) in (("left", 14), ("right", -14))


def test_long_titles_wrap_at_a_word_boundary():
    text = ("Bayes@N rank after n trials: worst of 2,000 row-wise bootstrap replicates (replicate #0, the first of the "
            "1,997 that never settle)")
    wrapped = wrap_title(text)
    assert "<br>" in wrapped and wrapped.replace("<br>", " ") == text
    assert all(len(line) <= 90 for line in wrapped.split("<br>"))
    assert wrap_title("short") == "short" and wrap_title(None) is None and wrap_title("a<br>b" * 40) == "a<br>b" * 40
    fig = rank_trajectory_plot(["a", "b"], [1, 2], [[1, 1], [2, 2]], convergence=1, title=text)
    assert "<br>" in fig.layout.title.text and fig.layout.margin.t >= 70  # room for the second line


def test_outcome_colours_are_distinct():
    """Per-question outcomes in Compare's scatter: one colour each (olive and dark orange read as one on the dark theme)."""
    assert len(set(OUTCOME_COLORS.values())) == len(OUTCOME_COLORS)
