"""Shared look of every figure: fonts, margins, a colour-blind-safe qualitative palette."""

from __future__ import annotations

import html

import plotly.graph_objects as go

__all__ = [
    "PALETTE",
    "apply_theme",
    "group_color",
    "rank_colors",
    "plain",
    "category_colors",
    "MISSING_COLOR",
    "UNMATCHED_COLOR",
    "RATE_SCALE",
    "PROBABILITY_SCALE",
    "SEQUENTIAL_SCALE",
]

# Okabe-Ito (colour-blind safe), then Tableau extras for long lists
PALETTE = (
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000",
    "#4E79A7", "#F28E2B", "#59A14F", "#E15759", "#B07AA1", "#76B7B2", "#EDC948", "#9C755F",
)


#: Okabe-Ito colours without yellow (it vanishes on white) and black: seven rank groups told apart by hue.
_GROUP_HUES = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000")


def rank_colors(n: int) -> list[str]:
    """``n`` distinct colours for rank groups, best first.

    Up to seven groups: the colour-blind-safe Okabe-Ito hues. More: the Turbo scale sampled evenly (its ends cut:
    the darkest blue and red), so no two groups share a colour however many there are, and groups a few ranks apart
    differ in hue (on Viridis, used before, the 1st and 4th of ten groups were two near-identical purples in the
    presentation view, which read as one group).
    """
    from plotly.colors import sample_colorscale

    if n <= 0:
        return []
    if n <= len(_GROUP_HUES):
        return list(_GROUP_HUES[:n])
    return sample_colorscale("Turbo", [0.05 + 0.9 * i / (n - 1) for i in range(n)])


def group_color(index: int) -> str:
    """Colour of the ``index``-th group (cycles)."""
    return PALETTE[index % len(PALETTE)]


def apply_theme(fig: go.Figure, *, title: str | None = None, height: int | None = None) -> go.Figure:
    """Apply the dashboard's layout defaults in place and return the figure."""
    fig.update_layout(
        template="plotly_white",
        title=dict(text=title, x=0, xanchor="left", font=dict(size=16)) if title else None,
        margin=dict(l=10, r=20, t=50 if title else 20, b=40),
        font=dict(family="Inter, Segoe UI, Helvetica, Arial, sans-serif", size=13),
        hoverlabel=dict(font_size=12),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0),
    )
    if height:
        fig.update_layout(height=height)
    return fig


def plain(values):
    """Escape user text (model names, labels) so Plotly shows it literally, never as markup.

    Plotly renders a subset of HTML in labels and hover text (``<b>``, ``<a href>``...);
    escaping ``<``, ``>`` and ``&`` makes a model called ``<b>x</b>`` display as typed.
    """
    if isinstance(values, str):
        return html.escape(values, quote=False)
    return [html.escape(str(v), quote=False) for v in values]


#: Cells without a trial (or an answer).
MISSING_COLOR = "#eef0f3"
#: Attempts no rubric category matched.
UNMATCHED_COLOR = "#9aa0a6"
# Red (worst) to blue (best): readable for the common colour-vision deficiencies (ColorBrewer RdBu).
_RAMP = ("#b2182b", "#d6604d", "#f4a582", "#f7d18a", "#b9d8ea", "#74add1", "#4393c3", "#2166ac")
#: Continuous scale of pass rates 0..1 (never -> always correct).
RATE_SCALE = [[0.0, "#b2182b"], [0.25, "#ef8a62"], [0.5, "#f7f7f7"], [0.75, "#67a9cf"], [1.0, "#2166ac"]]
#: Continuous scale of probabilities around 0.5 (e.g. P(A > B)).
PROBABILITY_SCALE = [[0.0, "#b2182b"], [0.5, "#f7f7f7"], [1.0, "#2166ac"]]
#: Sequential scale for probabilities 0..1 (e.g. rank distributions).
SEQUENTIAL_SCALE = [[0.0, "#ffffff"], [0.15, "#d1e5f0"], [0.5, "#4393c3"], [1.0, "#053061"]]


def category_colors(weights) -> list[str]:
    """One colour per rubric category: red for the lowest weight to blue for the highest.

    Categories are ranked by weight (ties by position) and take evenly spaced colours of a
    red-to-blue ramp, so the colour order follows the rubric's order of merit; beyond 8
    categories colours repeat. Binary: wrong = red, correct = blue.
    """
    values = [float(w) for w in weights]
    order = sorted(range(len(values)), key=lambda i: (values[i], i))
    colors = [""] * len(values)
    last = len(_RAMP) - 1
    for rank_, i in enumerate(order):
        colors[i] = _RAMP[int(round(last * rank_ / max(1, len(values) - 1)))]
    return colors
