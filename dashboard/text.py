"""User text in Streamlit markdown: escaped so it shows as typed (no links, emphasis or HTML).

Streamlit renders ``st.caption``/``st.markdown``/``st.error`` bodies as Markdown (never raw
HTML unless ``unsafe_allow_html``, which this app never uses). Model names, labels and file
names can still contain Markdown syntax (``[x](javascript:...)``, ``**``, ``:red[...]``);
:func:`md` backslash-escapes every ASCII punctuation character Markdown could interpret.
"""

from __future__ import annotations

import re

import numpy as np

__all__ = ["md", "code", "code_span", "probability_cells", "sentence"]

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$=&\"'])")


def md(text: object) -> str:
    """Escape ``text`` for Streamlit Markdown so it renders literally.

    >>> md("<b>x</b> [a](b) **y** :red[z]")
    '\\\\<b\\\\>x\\\\</b\\\\> \\\\[a\\\\]\\\\(b\\\\) \\\\*\\\\*y\\\\*\\\\* \\\\:red\\\\[z\\\\]'
    """
    return _SPECIAL.sub(r"\\\1", str(text))


def code(text: object) -> str:
    """``text`` for inside a Markdown code span (between back-ticks), where Markdown is not interpreted.

    :func:`md`'s backslashes would show there as typed (``empirical\\-bayes`` in a command to copy), so nothing is
    escaped; a back-tick would close the span and a line break could end it, so both are replaced.

    >>> code("empirical-bayes"), code("a`b" + chr(10) + "c")
    ('empirical-bayes', "a'b c")
    """
    return str(text).replace("`", "'").replace("\r", " ").replace("\n", " ")


def code_span(text: object) -> str:
    """``text`` as a whole Markdown code span: shown verbatim, character for character (``--`` stays two hyphens).

    :func:`md` keeps user text from becoming markup, but the rendered text still goes through Markdown's
    typography (``--`` in bold showed as an em dash). Inside a code span nothing is interpreted: the fence is
    one backtick longer than the longest run of backticks in ``text`` (so it cannot be closed early), with a space
    inside each end where the text begins or ends with a backtick or a space. Line breaks become spaces (as
    Markdown shows them in a code span). For short values a user typed or a link carried; :func:`code` is the
    text to put between a caller's own back-ticks.

    >>> code_span("x' OR 1=1; --")
    "`x' OR 1=1; --`"
    >>> code_span("a`b")
    '``a`b``'
    >>> code_span("`")
    '`` ` ``'
    """
    text = " ".join(str(text).splitlines()) or " "
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text[0] in "` " or text[-1] in "` " else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def sentence(text: object) -> str:
    """``text`` with its first character upper-cased and the rest kept (``str.capitalize`` lowers "Bayes@N", "N").

    >>> sentence("gold standard: Bayes@N on all N trials")
    'Gold standard: Bayes@N on all N trials'
    """
    text = str(text)
    return text[:1].upper() + text[1:]


def probability_cells(p) -> np.ndarray:
    """Probabilities as table/heatmap cells: two decimals, ``">.99"`` / ``"<.01"`` where they would print 1.00 / 0.00.

    A posterior probability of an order (P(row > column), P(best)) is never certainty, so the ends are bounds
    (the Leaderboard's Pairwise tab and the Plan page's P(best) write them alike).

    >>> probability_cells([0.6234, 0.999, 0.0004, 0.0, 1.0]).tolist()
    ['0.62', '>.99', '<.01', '<.01', '>.99']
    """
    values = np.char.mod("%.2f", np.asarray(p, dtype=float))
    return np.where(values == "1.00", ">.99", np.where(values == "0.00", "<.01", values))
