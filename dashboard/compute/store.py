"""The result store shared by the Trajectories, Convergence and Sensitivity pages, and their progress bars.

Long runs (bootstrap, rubric perturbation) go through :func:`dashboard.compute.background.run_jobs`
for a progress bar and cancellation; only complete results are stored (:func:`stored`), so
changing a widget mid-run never leaves a partial result in the cache, and a revisit with the
same settings is instant. Keys are built by the callers from ``data_id``, task, rubric, prior
and the view's settings (see :mod:`dashboard.compute.dynamics`).
"""

from __future__ import annotations

import streamlit as st

__all__ = ["stored", "fetch", "progress_to"]


class _Missing(Exception):
    """No stored result under this key."""


@st.cache_data(show_spinner=False, max_entries=128)
def stored(key: str, _result=None):
    """Store-or-fetch: ``stored(key)`` returns a stored result or raises :class:`_Missing`;
    ``stored(key, _result=value)`` stores ``value``. Exceptions are never cached, so only
    complete results ever enter the cache."""
    if _result is None:
        raise _Missing(key)
    return _result


def fetch(key: str):
    """The stored result under ``key``, or None."""
    try:
        return stored(key)
    except _Missing:
        return None


def progress_to(placeholder, text: str):
    """A progress callback that draws ``st.progress`` in ``placeholder`` (see :func:`run_jobs`)."""
    def update(fraction: float) -> None:
        placeholder.progress(min(1.0, max(0.0, fraction)), text=f"{text} {fraction:.0%}")

    return update
