"""Any dataset of the session by key (bundled or uploaded), with its data-quality choices.

The sidebar's :func:`dashboard.data.access.active_data` loads the *selected* dataset; this
module loads another one (a prior R0 from a second dump, a manifest being restored) through
the same cached loaders, so nothing is parsed twice.
"""

from __future__ import annotations

import streamlit as st

from dashboard.state import session as state
from dashboard.data.bundled import BUNDLED
from dashboard.data.access import load_bundled, load_session_upload
from dashboard.data.workspace import WS_PREFIX, open_ws_dataset
from scorio_core import io
from scorio_core.io import Dataset

__all__ = ["load_key", "raw_for_key"]


@st.cache_data(show_spinner=False, max_entries=16)
def _chosen(_raw: Dataset, data_id: str, choices: tuple[tuple[str, object], ...]) -> Dataset:
    return io.apply_choices(_raw, **dict(choices)) if choices else _raw


def raw_for_key(key: str) -> tuple[str, Dataset]:
    """``(base id, dataset as loaded)`` of a bundled key, ``ws:<id>`` or ``upload:<name>``.

    Raises
    ------
    KeyError
        Unknown key. :class:`scorio_core.errors.InputError` if the files do not load.
    """
    if key in BUNDLED:
        return key, load_bundled(key)
    if key.startswith(WS_PREFIX):
        return key, open_ws_dataset(key)
    upload = state.uploads()[key]
    return f"{key}#{upload.digest}", load_session_upload(upload)


def load_key(key: str) -> tuple[str, Dataset]:
    """``(data_id, dataset)`` after the user's data-quality choices for that key."""
    base_id, raw = raw_for_key(key)
    choices = tuple(sorted(state.choices_for(key).items()))
    data_id = f"{base_id}|{choices!r}"
    return data_id, _chosen(raw, data_id, choices)
