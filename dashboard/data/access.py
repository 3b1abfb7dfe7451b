"""Cached loading of datasets and the active dataset of the session.

Loading is cached with ``st.cache_data`` keyed by file content (bundled key, or the upload's
bytes), so switching pages or datasets never re-parses a file. Cached values are never
mutated (``Dataset`` is frozen; callers derive new objects).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dashboard.state import session as state
from dashboard.data.bundled import BUNDLED
from dashboard.data.workspace import WS_PREFIX, open_ws_dataset
from scorio_core import io
from scorio_core.io import Dataset

__all__ = ["ActiveData", "load_bundled", "load_upload", "load_session_upload", "active_data"]


@st.cache_data(show_spinner="Loading bundled dataset...", max_entries=8)
def load_bundled(key: str) -> Dataset:
    """Load a bundled dataset by key (see :mod:`dashboard.data.bundled`)."""
    return io.load([str(p) for p in BUNDLED[key].paths])


@st.cache_data(show_spinner="Reading uploaded files...", max_entries=16)
def load_upload(files: tuple[tuple[str, bytes], ...], fmt: str | None, mapping: tuple[tuple[str, str], ...],
                prefix: bytes = b"", prefix_meta: str = "", recode: tuple[tuple[str, str], ...] = (),
                outcome_scale: float | None = None, errors_as_missing: bool = False) -> Dataset:
    """Parse uploaded files; raises :class:`scorio_core.errors.InputError` on bad input.

    ``prefix``/``prefix_meta``: the trial order of a count table kept in the session only (prefix counts, see
    :class:`dashboard.state.session.Upload`); a damaged blob leaves the trial order unknown, the counts intact.
    ``recode``, ``outcome_scale``, ``errors_as_missing``: the user's reading of text outcome labels, of outcomes on
    another scale than 0-1 and of attempts that record an error (``io.load``'s arguments of those names).
    """
    dataset = io.load(list(files), format=fmt, mapping=dict(mapping) or None, recode=dict(recode) or None,
                      outcome_scale=outcome_scale, errors_as_missing=errors_as_missing)
    if prefix:
        import dataclasses
        import json

        from scorio_core.store._codec import prefix_from_parquet

        try:
            kept = prefix_from_parquet(prefix, json.loads(prefix_meta), dataset.sources)
        except (ValueError, KeyError, TypeError, OSError):
            kept = None
        dataset = dataclasses.replace(dataset, trial_prefix=kept or None)
    return dataset


def load_session_upload(upload: state.Upload) -> Dataset:
    """:func:`load_upload` of an upload kept in the session."""
    return load_upload(upload.files, upload.format, upload.mapping, upload.prefix, upload.prefix_meta, upload.recode,
                       upload.outcome_scale, upload.errors_as_missing)


@st.cache_data(show_spinner=False, max_entries=32)
def _with_choices(_dataset: Dataset, dataset_id: str, choices: tuple[tuple[str, object], ...]) -> Dataset:
    return io.apply_choices(_dataset, **dict(choices)) if choices else _dataset


@dataclass(frozen=True)
class ActiveData:
    """The dataset the pages work on, after the user's data-quality choices.

    ``data_id`` identifies content + choices and is the cache key of downstream results.
    """

    key: str
    label: str
    raw: Dataset
    dataset: Dataset
    data_id: str


def active_data() -> ActiveData:
    """Load (cached) the dataset selected in the sidebar and apply its recorded choices."""
    key = state.active_key()
    if key in BUNDLED:
        raw = load_bundled(key)
        base_id = key
    elif key.startswith(WS_PREFIX):
        raw = open_ws_dataset(key)
        base_id = key
    else:
        upload = state.uploads()[key]
        raw = load_session_upload(upload)
        base_id = f"{key}#{upload.digest}"
    choices = tuple(sorted(state.choices_for(key).items()))
    data_id = f"{base_id}|{choices!r}"
    dataset = _with_choices(raw, data_id, choices)
    return ActiveData(key=key, label=state.dataset_label(key), raw=raw, dataset=dataset, data_id=data_id)
