"""Bad input in a page becomes one clear ``st.error``, never a traceback."""

from __future__ import annotations

from contextlib import contextmanager

import streamlit as st

from dashboard.text import md
from scorio_core.errors import InputError

__all__ = ["user_errors"]


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
