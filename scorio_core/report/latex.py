"""Leaderboard tables as LaTeX: booktabs rules, a ``longtable`` for hundreds of models, escaped text.

The text a document needs before it compiles is said in the output itself: a ``%`` comment line naming the packages
(``booktabs``, and ``longtable`` above :data:`LONGTABLE_ROWS` rows). Captions carry a short form for the list of
tables (``\\caption[short]{full}``): the full caption says what the intervals cover and can run to several sentences.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from scorio_core.report.tables import (_one_line, _text_columns, interval_name, interval_note, presentation_table,
                                       visible_controls, without_negative_zero)

__all__ = ["to_latex", "latex_escape", "leaderboard_latex", "LONGTABLE_ROWS"]

#: Rows above which :func:`to_latex` writes a ``longtable`` (a ``tabular`` of hundreds of models runs off the page).
LONGTABLE_ROWS = 40

_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
          "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
          # the default OT1 font prints these as other glyphs (<b> as "¡b¿"): text commands print them as typed
          "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", "`": r"\textasciigrave{}"}


def latex_escape(text: str) -> str:
    r"""Escape LaTeX special characters in plain text.

    >>> print(latex_escape("aime_2025 & 95%"))
    aime\_2025 \& 95\%
    >>> print(latex_escape("<b>|`x`"))
    \textless{}b\textgreater{}\textbar{}\textasciigrave{}x\textasciigrave{}
    """
    return "".join(_LATEX.get(ch, ch) for ch in str(text))


def to_latex(frame: pd.DataFrame, caption: str | None = None, float_format: str = "{:.4f}", *,
             short_caption: str | None = None) -> str:
    """LaTeX ``tabular`` with booktabs rules (``\\toprule``, ``\\midrule``, ``\\bottomrule``).

    Parameters
    ----------
    frame : DataFrame
        The rows to write (e.g. :func:`~scorio_core.report.tables.presentation_table`); floats with ``float_format``,
        missing values as ``--``.
    caption : str, optional
        The table's caption (escaped here). With a caption the table is a ``table`` float (or a captioned longtable).
    float_format : str
        Format of float cells.
    short_caption : str, optional
        The caption's short form for the list of tables, ``\\caption[short]{caption}`` (escaped here).

    Returns
    -------
    str
        A first line ``% needs \\usepackage{booktabs}`` (``booktabs,longtable`` above :data:`LONGTABLE_ROWS` rows; and
        XeLaTeX or LuaLaTeX where a name is in another script than Latin), then the table.

    Notes
    -----
    Text (cells, headers and the captions) is escaped for LaTeX (``_ & % $ # { } ~ ^ \\ < > | ```), control
    characters written visibly (:func:`~scorio_core.report.tables.visible_controls`; a blank line would end the
    table), names not formula-neutralised. Above :data:`LONGTABLE_ROWS` rows (hundreds of models) a ``longtable``
    that breaks across pages, its header repeated and the caption shortened to "(continued)" after the first page.
    Names in other scripts (CJK, emoji) are written as they are: compile those with XeLaTeX or LuaLaTeX (pdfLaTeX
    stops at them).
    """
    frame = _one_line(without_negative_zero(frame))
    styler = frame.style.hide(axis="index").format(float_format, subset=frame.select_dtypes("float").columns, na_rep="--")
    styler = styler.format_index(escape="latex", axis=1)
    text_cols = _text_columns(frame)
    if text_cols:  # escaped as latex_escape does (pandas' "latex" escape leaves < > | ` to the font)
        styler = styler.format(latex_escape, subset=text_cols, na_rep="--")
    full = None if caption is None else latex_escape(visible_controls(caption))
    short = None if short_caption is None or caption is None else latex_escape(visible_controls(short_caption))
    long = len(frame) > LONGTABLE_ROWS
    text = styler.to_latex(hrules=True, caption=full if short is None else (full, short),
                           environment="longtable" if long else None,
                           column_format="".join("l" if c in text_cols else "r" for c in frame.columns))
    if long and full is not None:  # the full caption once; the pages after the first say "(continued)"
        text = text.replace("\\caption[]{" + full + "} \\\\", "\\caption[]{(continued)} \\\\", 1)
    packages = "booktabs,longtable" if long else "booktabs"
    other = any(ord(ch) > 0x24F for ch in text)  # beyond Latin: pdfLaTeX stops there (QA: CJK, emoji written as is)
    return (f"% needs \\usepackage{{{packages}}} in the preamble"
            + ("; names in other scripts (CJK, emoji ...): compile with XeLaTeX or LuaLaTeX and a font that has them"
               if other else "") + "\n" + text)


def leaderboard_latex(table: pd.DataFrame, *, metric_label: str, confidence: float, task: str,
                      notes: Sequence[str] = ()) -> str:
    """LaTeX (booktabs) export of a leaderboard.

    The caption says what the intervals cover (:func:`~scorio_core.report.tables.interval_note`), then ``notes``;
    its short form (list of tables) is the first sentence alone: ``"<metric> with 95% credible intervals (<task>)"``.
    """
    extra = " ".join(n for n in [interval_note(table), *notes] if n)
    short = f"{metric_label} with {interval_name(table, confidence, plural=True)} ({task})"
    caption = f"{short}." + (f" {extra}" if extra else "")
    return to_latex(presentation_table(table, metric_label=metric_label, confidence=confidence), caption=caption,
                    short_caption=short)
