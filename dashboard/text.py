"""User text in Streamlit markdown: escaped so it shows as typed (no links, emphasis or HTML).

Streamlit renders ``st.caption``/``st.markdown``/``st.error`` bodies as Markdown (never raw
HTML unless ``unsafe_allow_html``, which this app never uses). Model names, labels and file
names can still contain Markdown syntax (``[x](javascript:...)``, ``**``, ``:red[...]``);
:func:`md` backslash-escapes every ASCII punctuation character Markdown could interpret.
"""

from __future__ import annotations

import re

__all__ = ["md", "sentence"]

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$=&\"'])")


def md(text: object) -> str:
    """Escape ``text`` for Streamlit Markdown so it renders literally.

    >>> md("<b>x</b> [a](b) **y** :red[z]")
    '\\\\<b\\\\>x\\\\</b\\\\> \\\\[a\\\\]\\\\(b\\\\) \\\\*\\\\*y\\\\*\\\\* \\\\:red\\\\[z\\\\]'
    """
    return _SPECIAL.sub(r"\\\1", str(text))


def sentence(text: object) -> str:
    """``text`` with its first character upper-cased and the rest kept (``str.capitalize`` lowers "Bayes@N", "N").

    >>> sentence("gold standard: Bayes@N on all N trials")
    'Gold standard: Bayes@N on all N trials'
    """
    text = str(text)
    return text[:1].upper() + text[1:]
