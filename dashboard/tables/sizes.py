"""Sizes of ``st.dataframe`` tables: heights that fit their rows, column widths as wide as their text, within bounds.

Grid cells do not wrap, and a column is as wide as its longest cell unless told otherwise. Question ids
are often hashes (LiveBench's are 64 hex characters, ~480 px): a pinned question column that wide pushed
the Questions page's flags and reasons mostly off the screen at 1280 px (QA 2026-12-03). Such columns get
:func:`fit_width` with a cap; a cut id stays whole in the table's download (its toolbar), in the page's CSV and
where the row is opened (the grid shows no tooltip for cut text: measured in Chromium).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["BORDER_PX", "ID_WIDTH_MAX", "ROW_PX", "fit_height", "fit_width", "id_column_help"]

#: Streamlit's data grid: rows and header 35 px each, 3 px of borders.
ROW_PX, BORDER_PX = 35, 3


def fit_height(n_rows: int, cap: int) -> int:
    """Pixel height of an ``st.dataframe`` that shows ``n_rows`` rows and its header without a blank strip below.

    Parameters
    ----------
    n_rows : int
        Rows of the table (0 shows the header alone).
    cap : int
        Largest height in pixels; a longer table scrolls inside it.

    Returns
    -------
    int
        ``min((n_rows + 1) * 35 + 3, cap)``.
    """
    return int(min((max(int(n_rows), 0) + 1) * ROW_PX + BORDER_PX, cap))


#: Widest a question id column is drawn, in pixels (about 30 characters): the numbers beside it stay in view.
ID_WIDTH_MAX = 240


def fit_width(texts: Iterable, *, least: int = 80, most: int = ID_WIDTH_MAX, px_per_char: float = 7.5,
              pad: int = 24) -> int:
    """Pixel width of a column that shows ``texts``: the longest one's, between ``least`` and ``most``.

    Parameters
    ----------
    texts : iterable
        The column's cells (anything ``str`` can render).
    least, most : int
        Narrowest and widest width in pixels.
    px_per_char : float
        Width of one character in the grid's 14 px font (~7.5 px, measured in Chromium).
    pad : int
        The cell's padding, both sides together.

    Returns
    -------
    int

    Examples
    --------
    >>> fit_width(["q1", "q22"])
    80
    >>> fit_width(["a" * 64])  # a 64-character hash is cut at the cap
    240
    >>> fit_width(["abcdefghijklmnopqrst"])
    174
    """
    longest = max((len(str(t)) for t in texts), default=0)
    return int(min(max(least, px_per_char * longest + pad), most))


def id_column_help(texts: Iterable, what: str) -> str:
    """The help of an id column, saying where a cut id is whole when :func:`fit_width` caps the column.

    >>> id_column_help(["q1"], "Question id as in the dump.")
    'Question id as in the dump.'
    >>> id_column_help(["a" * 64], "Id.")
    "Id. Long ids are cut: drag the column's edge to widen it, or download the table (its toolbar) to have them whole."
    """
    cut = fit_width(texts, most=10 ** 6) > ID_WIDTH_MAX
    return what + (" Long ids are cut: drag the column's edge to widen it, or download the table (its toolbar) to have them whole." if cut else "")
