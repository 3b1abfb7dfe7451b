"""Session state: which dataset is active, the user's uploads and data-quality choices.

Everything the user did (uploads, choices, rubric edits) lives in ``st.session_state`` under
the keys below, so page switches, reruns and bad files never lose it. Uploaded bytes are
copied out of the uploader widget (which forgets them on page switch).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st

from dashboard.data.bundled import BUNDLED, DEFAULT_DATASET

__all__ = [
    "Upload",
    "KEY_DATASET",
    "KEY_TASK",
    "KEY_CONFIDENCE",
    "KEY_PRIOR",
    "KEY_SCOPE",
    "init_state",
    "uploads",
    "add_upload",
    "select",
    "apply_pending_selection",
    "dataset_options",
    "dataset_label",
    "dataset_short_label",
    "active_key",
    "choices_for",
    "choices_phrase",
    "default_choices_note",
    "set_choices",
    "queue_restore",
    "queue_restore_more",
    "apply_pending_restore",
]

KEY_DATASET = "dataset"
KEY_TASK = "task"
KEY_CONFIDENCE = "confidence"
KEY_PRIOR = "prior"
KEY_SCOPE = "scope"
KEY_MODELS = "models"
_UPLOADS = "_uploads"
_CHOICES = "_choices"
_PENDING = "_pending_dataset"
_RESTORE = "_pending_restore"
UPLOAD_PREFIX = "upload:"


@dataclass(frozen=True)
class Upload:
    """Files the user uploaded together as one dataset, with the format and column mapping used."""

    name: str
    files: tuple[tuple[str, bytes], ...]
    format: str | None = None
    mapping: tuple[tuple[str, str], ...] = ()
    #: The user's reading of text outcome labels (``io.load(recode=...)``), ``(label, value)`` pairs (a value is a
    #: number in [0, 1] or "missing", as typed), or empty.
    recode: tuple[tuple[str, str], ...] = ()
    #: The outcome column's full score when it is not 1 (100 for percentages: ``io.load(outcome_scale=...)``), or None.
    outcome_scale: float | None = None
    #: Whether the outcomes of attempts that record an error were read as missing (``io.load(errors_as_missing=...)``).
    errors_as_missing: bool = False
    #: A count table kept in the session only: its trial order as prefix counts (Parquet bytes and JSON meta of
    #: :func:`scorio_core.store._codec.prefix_to_parquet`), or empty.
    prefix: bytes = b""
    prefix_meta: str = ""

    @property
    def key(self) -> str:
        return UPLOAD_PREFIX + self.name

    @property
    def digest(self) -> str:
        h = hashlib.sha256()
        for name, data in self.files:
            h.update(name.encode())
            h.update(data)
        h.update(repr((self.format, self.mapping)).encode())
        if self.recode:  # uploads without one keep their digests
            h.update(repr(self.recode).encode())
        if self.outcome_scale is not None:
            h.update(repr(("outcome_scale", self.outcome_scale)).encode())
        if self.errors_as_missing:
            h.update(b"errors_as_missing")
        if self.prefix:
            h.update(self.prefix)
            h.update(self.prefix_meta.encode())
        return h.hexdigest()[:16]


def init_state() -> None:
    """Create the session-state containers once per session."""
    st.session_state.setdefault(_UPLOADS, {})
    st.session_state.setdefault(_CHOICES, {})


def uploads() -> dict[str, Upload]:
    """Uploaded datasets by key (``upload:<name>``), in upload order."""
    return st.session_state.setdefault(_UPLOADS, {})


def add_upload(upload: Upload, saved_key: str | None = None) -> None:
    """Select an upload (after it loaded successfully) on the next run.

    ``saved_key`` (``ws:<id>``) when the workspace stored it; otherwise the upload is kept in
    this session under ``upload:<name>``.
    """
    if saved_key is None:
        uploads()[upload.key] = upload
    else:
        uploads().pop(upload.key, None)
    st.session_state[_PENDING] = saved_key or upload.key


def select(key: str) -> None:
    """Select a dataset on the next run (before the sidebar widget exists)."""
    st.session_state[_PENDING] = key


def apply_pending_selection() -> None:
    """Select a dataset chosen during the previous run (before the sidebar widget exists)."""
    pending = st.session_state.pop(_PENDING, None)
    if pending is not None:
        st.session_state[KEY_DATASET] = pending


def dataset_options() -> list[str]:
    """Keys of every dataset the user can pick: bundled first, then saved uploads (``ws:<id>``), then
    uploads kept in this session only (``upload:<name>``, when the workspace could not store them)."""
    from dashboard.data.workspace import workspace_keys

    return list(BUNDLED) + workspace_keys() + list(uploads())


def dataset_label(key: str) -> str:
    """Human label of a dataset key (safe as a ``format_func``)."""
    from dashboard.data.workspace import WS_PREFIX, ws_label

    if key in BUNDLED:
        return BUNDLED[key].title
    if key.startswith(WS_PREFIX):
        return ws_label(key)
    if key.startswith(UPLOAD_PREFIX):
        return f"Uploaded: {key[len(UPLOAD_PREFIX):]}"
    return key


def dataset_short_label(key: str) -> str:
    """The sidebar's label of a dataset: a bundled dataset's title without its details (models, N), which the
    Data page heading and every caption carry; fits the sidebar's selectbox at 1280 px."""
    if key in BUNDLED:
        return BUNDLED[key].title.split(" (")[0].split(":")[0]
    return dataset_label(key)


def active_key() -> str:
    """The selected dataset key, falling back to the default when unknown."""
    key = st.session_state.get(KEY_DATASET, DEFAULT_DATASET)
    return key if key in dataset_options() else DEFAULT_DATASET


def choices_for(key: str) -> dict:
    """Data-quality choices for a dataset (kwargs of ``io.apply_choices``): the user's, else a bundled dataset's
    defaults (:attr:`dashboard.data.bundled.BundledDataset.choices`, which the user can undo: an applied "no choice"
    is recorded as ``{}``)."""
    recorded = st.session_state.setdefault(_CHOICES, {})
    if key in recorded:
        return dict(recorded[key])
    return dict(BUNDLED[key].choices) if key in BUNDLED else {}


def default_choices_note(key: str) -> str:
    """Why a bundled dataset opens with data-quality choices, while they are the ones in force ("" otherwise)."""
    if key in BUNDLED and BUNDLED[key].choices and choices_for(key) == dict(BUNDLED[key].choices):
        return BUNDLED[key].choices_note
    return ""


def choices_phrase(key: str) -> str:
    """The data-quality choices in force, for a results caption: ``" · data-quality choices: duplicates = keep-first"``
    (empty without choices)."""
    chosen = choices_for(key)
    return (" · data-quality choices: " + ", ".join(f"{k} = {v}" for k, v in chosen.items())) if chosen else ""


def set_choices(key: str, choices: dict) -> None:
    """Record data-quality choices for a dataset."""
    st.session_state.setdefault(_CHOICES, {})[key] = {k: v for k, v in choices.items() if v not in (None, False)}


def queue_restore(values: dict) -> None:
    """Widget values to set at the start of the next run (restoring a saved analysis)."""
    st.session_state[_RESTORE] = dict(values)


def queue_restore_more(values: dict) -> None:
    """Add widget values to those already queued by :func:`queue_restore`."""
    st.session_state.setdefault(_RESTORE, {}).update(values)


def apply_pending_restore() -> bool:
    """Set queued widget values before any widget exists; True if something was restored."""
    values = st.session_state.pop(_RESTORE, None)
    if not values:
        return False
    for key, value in values.items():
        st.session_state[key] = value
    return True
