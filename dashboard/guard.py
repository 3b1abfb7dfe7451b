"""Bad input in a page becomes one clear ``st.error``, never a traceback; data not ready says what to choose."""

from __future__ import annotations

from contextlib import contextmanager

import streamlit as st

from dashboard.text import md
from scorio_core.errors import InputError
from scorio_core.io import Dataset

__all__ = ["blocking_notice", "user_errors"]


@contextmanager
def user_errors(what: str):
    """Show ``InputError``/``ValueError`` raised inside the block as an error and stop the page.

    ``what`` names the view ("the leaderboard"); the message says why and what to change.
    """
    try:
        yield
    except (InputError, ValueError) as exc:
        st.error(f"Could not compute {what}: {md(exc)}", icon=":material/error:")
        st.stop()


def blocking_notice(dataset: Dataset) -> bool:
    """Show why results cannot be computed yet; returns True if the page should stop."""
    if dataset.ready:
        return False
    st.warning(
        "This dataset needs a data-quality choice before results can be computed: "
        + md(" ".join(dataset.report.blocking)),
        icon=":material/rule:",
    )
    st.page_link("pages/data/data.py", label="Open the Data page to choose", icon=":material/table_view:")
    return True
