"""Shared look of every figure: fonts, margins, a colour-blind-safe qualitative palette."""

from __future__ import annotations

import html
from collections import Counter

import numpy as np
import plotly.graph_objects as go

__all__ = [
    "PALETTE",
    "apply_theme",
    "group_color",
    "rank_colors",
    "rank_symbols",
    "contrast_ratio",
    "readable",
    "wrap_title",
    "NEUTRAL",
    "MUTED",
    "LIGHT_BG",
    "DARK_BG",
    "plain",
    "category_colors",
    "MISSING_COLOR",
    "TRANSPARENT",
    "CELL_TEXT",
    "missing_cells",
    "transparent_background",
    "UNMATCHED_COLOR",
    "RATE_SCALE",
    "PROBABILITY_SCALE",
    "SEQUENTIAL_SCALE",
    "SEQUENTIAL_END",
    "SEQUENTIAL_TEXT",
    "LABEL_CHARS",
    "short_labels",
    "name_ticks",
    "AXIS_TITLE_CHARS",
    "axis_title",
]

#: Backgrounds every figure must read on: plotly_white (the exported report, the light app theme) and Streamlit's dark
#: theme, whose colours ``st.plotly_chart(theme="streamlit")`` merges over the figure's template.
LIGHT_BG, DARK_BG = "#ffffff", "#0e1117"

# Okabe-Ito (colour-blind safe), then Tableau extras for long lists. Every colour has a WCAG contrast of at least 3:1
# on both backgrounds (relative luminance 0.12-0.30): the orange, sky blue, yellow and Tableau's orange, teal and yellow
# are darkened at their own hue (light ones vanished on white), black (invisible on the dark theme) is a mid grey.
PALETTE = (
    "#0072B2", "#B77E00", "#009E73", "#D55E00", "#CC79A7", "#4491BC", "#938C25", "#8C8C8C",
    "#4E79A7", "#C87422", "#59A14F", "#E15759", "#B07AA1", "#5D928E", "#A0872E", "#9C755F",
)
#: Grey for text and reference lines on either background (contrast >= 3:1 on white and on the dark theme).
NEUTRAL = "#8C8C8C"
#: De-emphasised lines: a translucent grey, light on white and dark on the dark theme (a light grey stood out there).
MUTED = "rgba(140,140,140,0.45)"


#: Okabe-Ito hues (readable variants, as in :data:`PALETTE`), without yellow; grey last: seven groups told apart by hue.
_GROUP_HUES = ("#0072B2", "#B77E00", "#009E73", "#D55E00", "#CC79A7", "#4491BC", "#8C8C8C")
#: Markers of the rank groups, cycled beside :data:`_GROUP_HUES` (8 symbols against 7 hues: every group of the first
#: 56 has its own (colour, symbol) pair, and neighbouring groups differ in both).
_GROUP_SYMBOLS = ("circle", "diamond", "square", "triangle-up", "x", "star", "hexagon", "cross")


def rank_colors(n: int) -> list[str]:
    """``n`` colours for rank groups, best first.

    The seven colour-blind-safe hues of :data:`_GROUP_HUES`, cycled: neighbouring groups always differ in hue (the
    Turbo rainbow used before for more than seven groups gave neighbours near-identical greens, yellows and reds, and
    green/yellow and orange/red pairs a colour-blind reader cannot tell apart). Groups seven apart share a colour; they
    differ in marker (:func:`rank_symbols`) and every row names its rank (:func:`dashboard.figures.interval_plot`).
    """
    return [_GROUP_HUES[i % len(_GROUP_HUES)] for i in range(max(0, n))]


def rank_symbols(n: int) -> list[str]:
    """Marker symbol of each of ``n`` rank groups, cycled through 8 symbols beside :func:`rank_colors`' 7 hues, so
    (colour, symbol) pairs are distinct for up to 56 groups and neighbouring groups differ in marker too.

    Groups are then told apart without colour (accessibility QA: under deuteranopia #B77E00 and #D55E00 are the same
    olive, and every group was a circle up to seven groups).

    >>> rank_symbols(3)
    ['circle', 'diamond', 'square']
    """
    return [_GROUP_SYMBOLS[i % len(_GROUP_SYMBOLS)] for i in range(max(0, n))]


def relative_luminance(color: str) -> float:
    """WCAG 2 relative luminance of a ``#rgb`` or ``#rrggbb`` colour (0 black .. 1 white)."""
    h = color.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if len(h) != 6:
        raise ValueError(f"not a hex colour: {color!r}")
    channels = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two hex colours (1 .. 21; 3 is the minimum for graphics and large text)."""
    la, lb = relative_luminance(a), relative_luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def readable(color: str, minimum: float = 3.0) -> bool:
    """Whether ``color`` has a contrast of at least ``minimum`` on both :data:`LIGHT_BG` and :data:`DARK_BG`."""
    return contrast_ratio(color, LIGHT_BG) >= minimum and contrast_ratio(color, DARK_BG) >= minimum


def group_color(index: int) -> str:
    """Colour of the ``index``-th group (cycles)."""
    return PALETTE[index % len(PALETTE)]


def wrap_title(text: str | None, width: int = 90) -> str | None:
    """``text`` with ``<br>`` at the last space before every ``width`` characters (Plotly never wraps a title: at
    1280 px a 120-character title ran off the figure's right edge). Text with a ``<br>`` already is left as it is."""
    if not text or len(text) <= width or "<br>" in text:
        return text
    lines, line = [], ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "<br>".join(lines)


#: Longest line of an axis title. Plotly centres an x-axis title under the plot area and never wraps it: at 390 px the
#: plot area beside 22-character model names (and a rank, "63 · ") is 140-230 px wide, so a 50-character title
#: ("Bayes@N: posterior mean and 95% credible interval", ~330 px at 13 px) ran past the figure's right edge
#: ("...95% credi"). A 28-character line (~190 px) centred on a 140 px plot area ends inside the 20 px right margin.
AXIS_TITLE_CHARS = 28


def axis_title(text: str, width: int = AXIS_TITLE_CHARS) -> dict:
    """Axis settings (``fig.update_xaxes(**axis_title(text))``) for a title that fits a phone: wrapped with ``<br>``
    at the last space before every ``width`` characters (:func:`wrap_title`: the words are all kept) and the margin
    grown to hold its lines (``automargin``).

    >>> axis_title("Bayes@N: posterior mean and 95% credible interval")["title"]
    {'text': 'Bayes@N: posterior mean and<br>95% credible interval'}
    """
    return dict(title=dict(text=wrap_title(text, width)), automargin=True)


def apply_theme(fig: go.Figure, *, title: str | None = None, height: int | None = None) -> go.Figure:
    """Apply the dashboard's layout defaults in place and return the figure.

    The template is ``plotly_white`` (white paper for the exported HTML report); in the app ``st.plotly_chart``'s
    default ``theme="streamlit"`` merges the app theme's background, font and grid colours over it, so the figure
    follows a light or dark app theme. Colours set on traces and annotations are the figure's own: they are picked to
    read on both (:func:`readable`). A title longer than 90 characters is wrapped (:func:`wrap_title`).
    """
    title = wrap_title(title)
    lines = title.count("<br>") + 1 if title else 0
    fig.update_layout(
        template="plotly_white",
        title=dict(text=title, x=0, xanchor="left", font=dict(size=16)) if title else None,
        margin=dict(l=10, r=20, t=30 + 20 * lines if title else 20, b=40),
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


#: Cells without a trial (or an answer): a mid grey with a contrast of at least 3:1 on white and on the dark theme (the
#: light grey before, #eef0f3, framed every heatmap in a light box on the dark theme and vanished on white).
MISSING_COLOR = "#7A7A7A"
#: In-cell text of a heatmap, sized by Plotly to its cell (``textfont.size`` unset: "auto", at most the layout's 13 px).
#: A fixed size overprinted neighbouring cells on a phone (390 px: a 15-column grid has 6 px cells); sized to the cell,
#: a value never spills into the next cell and shrinks with it (the app hides values below 6 px,
#: :func:`dashboard.panels.charts.hide_unreadable_cell_text`); the hover keeps every value.
#: (Plotly's ``layout.uniformtext`` would hide instead, but it applies to bars and pies, never to heatmaps.)
CELL_TEXT = dict(size=None)
#: Paper and plot background of the heatmaps: the page's own (white or Streamlit's dark), so no light frame on dark.
TRANSPARENT = "rgba(0,0,0,0)"
#: Attempts no rubric category matched (a grey readable on white and on the dark theme).
UNMATCHED_COLOR = "#8C8C8C"
# Red (worst) to blue (best): readable for the common colour-vision deficiencies (ColorBrewer RdBu).
_RAMP = ("#b2182b", "#d6604d", "#f4a582", "#f7d18a", "#b9d8ea", "#74add1", "#4393c3", "#2166ac")
#: Continuous scale of pass rates 0..1 (never -> always correct).
RATE_SCALE = [[0.0, "#b2182b"], [0.25, "#ef8a62"], [0.5, "#f7f7f7"], [0.75, "#67a9cf"], [1.0, "#2166ac"]]
#: Continuous scale of probabilities around 0.5 (e.g. P(A > B)).
PROBABILITY_SCALE = [[0.0, "#b2182b"], [0.5, "#f7f7f7"], [1.0, "#2166ac"]]
#: Colour of probability 1 on :data:`SEQUENTIAL_SCALE`: Okabe-Ito blue, contrast >= 3:1 on white and on the dark theme.
SEQUENTIAL_END = "#0072B2"
#: Sequential scale for probabilities 0..1 (e.g. rank distributions): one blue from transparent (0: the page's own
#: white or dark background) to opaque. Over either background the colour moves away from the page as the value grows;
#: the scale before (#ffffff to #053061) painted every zero cell bright white on the dark theme and its top end
#: (#053061, contrast 1.5:1 on #0e1117) vanished there.
#: Opacity jumps at the low end: a cell of 1% (the least a cell prints) is 0.3 opaque and one of 5% half opaque, which
#: over the page gives 2.15:1 on white and 1.77:1 on #0e1117, above sqrt(3) = 1.73:1, half-way (in log contrast) from
#: "no difference" to the 3:1 asked of graphics. At 0.25 (the scale before) a 5% cell was 1.3:1 on the dark theme, a
#: faint tint hard to tell from 0. Above 5% the opacity keeps rising (25%: 0.7), so the shares stay ordered.
SEQUENTIAL_SCALE = [[0.0, "rgba(0,114,178,0)"], [0.01, "rgba(0,114,178,0.3)"], [0.05, "rgba(0,114,178,0.5)"],
                    [0.25, "rgba(0,114,178,0.7)"], [1.0, "rgba(0,114,178,1)"]]
#: In-cell text on :data:`SEQUENTIAL_SCALE`: sized to the cell (:data:`CELL_TEXT`) with a halo in the contrasting
#: colour. Plotly picks dark text for a translucent cell (it judges the colour over white): on the dark theme that
#: text vanished; the halo keeps it readable over the dark page as over white.
SEQUENTIAL_TEXT = dict(size=None, shadow="auto")
#: Longest model or task name an axis shows (a phone's 390 px page holds about 22 characters beside a chart); longer
#: names are cut in the middle (:func:`short_labels`) and the hover shows them whole.
LABEL_CHARS = 22


def short_labels(names, max_chars: int = LABEL_CHARS) -> list[str]:
    """Axis labels of at most ``max_chars`` characters, cut in the middle with "…", unique as the names are.

    At 390 px a 37-character model name ran off the left edge of a chart; the start (family) and end (version, date,
    variant) tell names apart, so the middle goes. Where the middle is what tells two names apart, the cut moves
    towards one end until no other name starts and ends as the label does (then no two labels coincide); where no cut
    of that length does, the label grows two characters at a time (at worst the whole name). Pass raw names and escape
    the labels after (:func:`plain`): a cut never splits an escaped ``&amp;``.

    >>> short_labels(["claude-3-5-sonnet-20241022-with-tools", "gpt-4o"])
    ['claude-3-5…-with-tools', 'gpt-4o']
    >>> short_labels(["Meta-Llama-3.1-405B-Instruct-Turbo", "Meta-Llama-3.1-70B-Instruct-Turbo"])
    ['Meta-Llama-3.1-4…Turbo', 'Meta-Llama-3.1-7…Turbo']
    """
    names = [str(n) for n in names]
    unique = list(dict.fromkeys(names))
    seen: dict[tuple[int, int], Counter] = {}  # (head, tail) -> how many names start and end as each cut: O(L) per cut

    def alone(name: str, head: int, tail: int) -> bool:  # no other name starts with the head and ends with the tail
        if (head, tail) not in seen:
            seen[head, tail] = Counter((o[:head], o[len(o) - tail:]) for o in unique if len(o) >= max(head, tail))
        return seen[head, tail][name[:head], name[len(name) - tail:]] == 1  # the name itself only
    labels = {}
    for name in unique:
        label = name
        for width in range(max_chars, len(name), 2):
            balanced = (width - 1) // 2
            heads = sorted(range(1, width - 1), key=lambda h: (abs(h - balanced), -h))  # balanced first
            head = next((h for h in heads if alone(name, h, width - 1 - h)), None)
            if head is not None:
                label = name[:head] + "…" + name[len(name) - (width - 1 - head):]
                break
        labels[name] = label
    return [labels[name] for name in names]


def name_ticks(names, max_chars: int = LABEL_CHARS, max_ticks: int | None = None) -> dict:
    """Axis settings (``fig.update_yaxes(**name_ticks(models))``) that show each category ``plain(name)`` by its
    :func:`short_labels` label, the margin sized to the longest label shown (``automargin``). The trace keeps the whole
    (escaped) name as its coordinate, so a hover's ``%{y}`` or ``%{x}`` names the model in full.

    ``max_ticks``: label every k-th category only, k the smallest step that keeps at most this many labels (an array of
    ticks turns off Plotly's own thinning: 120 rotated question ids drew on top of each other).

    >>> name_ticks(["q1", "q2", "q3", "q4", "q5"], max_ticks=2)["tickvals"]
    ['q1', 'q4']
    """
    names = [str(n) for n in names]
    step = 1 if not max_ticks or len(names) <= max_ticks else -(-len(names) // max_ticks)
    return dict(tickmode="array", tickvals=plain(names)[::step], ticktext=plain(short_labels(names, max_chars))[::step],
                automargin=True)


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


def transparent_background(fig: go.Figure) -> go.Figure:
    """Paper and plot area of ``fig`` in the page's own colour (white in the report and the light theme, #0e1117 on the
    dark theme) and return it: a heatmap's gaps between cells and its margins then never show a light frame on the dark
    theme. Cells without a value are drawn by :func:`missing_cells`, not by the plot's background."""
    fig.update_layout(paper_bgcolor=TRANSPARENT, plot_bgcolor=TRANSPARENT)
    return fig


def missing_cells(z, *, x, y, name: str = "no data", **heatmap) -> go.Heatmap | None:
    """A heatmap trace that paints the cells where ``z`` is NaN in :data:`MISSING_COLOR` (None when none is missing).

    Added after the data's own heatmap (same ``x``, ``y`` and gaps in ``heatmap``): a NaN cell of a heatmap is a gap
    that shows the plot's background, which is transparent (:func:`transparent_background`). No hover of its own (the
    data's trace says "no data" where it has a hover for gaps) and no colour bar.
    """
    z = np.asarray(z, dtype=float)
    if not np.isnan(z).any():
        return None
    return go.Heatmap(z=np.where(np.isnan(z), 1.0, np.nan), x=x, y=y, zmin=0, zmax=1, name=name, showscale=False,
                      colorscale=[[0.0, MISSING_COLOR], [1.0, MISSING_COLOR]], hoverinfo="skip", showlegend=False,
                      **heatmap)
