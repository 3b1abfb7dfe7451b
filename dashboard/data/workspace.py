"""The app's persistent workspace (issue 14): every successful upload survives reloads and restarts.

A :class:`scorio_core.store.Workspace` (``$SCORIO_WORKSPACE`` or ``./workspace``) is shared by
every session of the server (``st.cache_resource``). Each Load stores the files and the
canonical table; the dataset then appears in every session's dataset list as ``ws:<id>``
(with ``SCORIO_WORKSPACE_LISTING=private``, only in the session that uploaded it). Reopening
reads the stored Parquet table: nothing is parsed again. If the workspace cannot be opened
(read-only disk), uploads fall back to the session only and the Data page says so.

Ids come only from the catalog; a key from the URL is validated (:func:`validate_id`) and
looked up in the catalog, never turned into a path.
"""

from __future__ import annotations

import os
import secrets

import streamlit as st

from scorio_core.errors import InputError
from scorio_core.io import Dataset
from scorio_core.store import NotFoundError, QuotaError, Workspace, validate_id

__all__ = [
    "WS_PREFIX",
    "BUNDLED_COPY_PREFIX",
    "listed_records",
    "workspace",
    "workspace_error",
    "owner",
    "save_upload",
    "pop_notice",
    "workspace_keys",
    "ws_id",
    "ws_label",
    "open_ws_dataset",
    "remember",
    "forget",
]

WS_PREFIX = "ws:"
#: Name prefix of bundled datasets saved for share links (not uploads: never listed as such).
BUNDLED_COPY_PREFIX = "bundled:"
_OWNER = "_ws_owner"
_NAMES = "_ws_names"  # id -> name of the records this session has seen
#: id -> name of every record any session has listed: labels must be a pure function of the key
#: (a ``format_func`` also runs outside the session, e.g. in AppTest).
_LABELS: dict[str, str] = {}
#: ids of the latest listing: a name shared by two of them gets an id suffix in its label
_LISTED: set[str] = set()
_OPENED = "_ws_opened"  # ids this session uploaded or opened by link (listed even when listing is private)
_NOTICE = "_ws_notice"


@st.cache_resource(show_spinner=False)
def _open(root: str) -> Workspace:
    return Workspace(root)


def workspace() -> Workspace | None:
    """The server's workspace, or None when it cannot be opened (see :func:`workspace_error`)."""
    root = os.environ.get("SCORIO_WORKSPACE") or "workspace"
    try:
        ws = _open(root)
    except (OSError, ValueError, RuntimeError) as exc:
        st.session_state["_ws_error"] = str(exc)
        return None
    st.session_state.pop("_ws_error", None)
    return ws


def workspace_error() -> str | None:
    """Why the workspace could not be opened in this run (None when it is fine)."""
    return st.session_state.get("_ws_error")


def owner() -> str:
    """This session's owner token (a 128-bit random id; private listing shows a session its own rows)."""
    return st.session_state.setdefault(_OWNER, secrets.token_urlsafe(16))


def remember(dataset_id: str, name: str) -> None:
    """Make a dataset visible in this session's list (after an upload or a link)."""
    st.session_state.setdefault(_NAMES, {})[dataset_id] = name
    _LABELS[dataset_id] = name
    opened = st.session_state.setdefault(_OPENED, [])
    if dataset_id not in opened:
        opened.append(dataset_id)


def forget(dataset_id: str) -> None:
    """Drop a (deleted) dataset from this session's lists."""
    st.session_state.setdefault(_NAMES, {}).pop(dataset_id, None)
    _LISTED.discard(dataset_id)
    opened = st.session_state.setdefault(_OPENED, [])
    if dataset_id in opened:
        opened.remove(dataset_id)


def save_upload(name: str, files, dataset: Dataset) -> str | None:
    """Store a loaded upload; returns its dataset key ``ws:<id>``, or None if it stays in the session only.

    A full workspace (quota) or an unwritable disk leaves a notice for the next run
    (:func:`pop_notice`); the upload then lives in this session only, so nothing is lost now.
    """
    ws = workspace()
    if ws is None:
        return None
    try:
        record = ws.save_dataset(name, list(files), dataset, owner=owner())
    except QuotaError as exc:
        st.session_state[_NOTICE] = f"Not saved to the workspace: {exc} It stays loaded for this session only."
        return None
    except OSError as exc:
        st.session_state[_NOTICE] = (f"Not saved to the workspace ({type(exc).__name__}); it stays loaded for this "
                                     "session only.")
        return None
    remember(record.id, record.name)
    return WS_PREFIX + record.id


def pop_notice() -> str | None:
    """A message left by :func:`save_upload` for the next run (shown once)."""
    return st.session_state.pop(_NOTICE, None)


def workspace_keys() -> list[str]:
    """Keys ``ws:<id>`` of the workspace datasets this session may pick (newest first).

    Shared listing: every dataset of the workspace; private listing: this session's uploads,
    datasets published without an owner (CLI), and datasets opened by link in this session.
    """
    ws = workspace()
    if ws is None:
        return []
    names = st.session_state.setdefault(_NAMES, {})
    records = listed_records(ws)
    for record in records:
        names[record.id] = record.name
        _LABELS[record.id] = record.name
    _LISTED.clear()
    _LISTED.update(r.id for r in records)
    ids = [r.id for r in records]
    ids += [i for i in st.session_state.get(_OPENED, []) if i not in ids and i in names]
    return [WS_PREFIX + i for i in ids]


def listed_records(ws) -> list:
    """The workspace's datasets this session may list, without the bundled copies kept for share links."""
    return [r for r in ws.list_datasets(owner=owner()) if not r.name.startswith(BUNDLED_COPY_PREFIX)]


def ws_id(key: str) -> str | None:
    """The dataset id of a ``ws:`` key (validated), else None."""
    if not isinstance(key, str) or not key.startswith(WS_PREFIX):
        return None
    try:
        return validate_id(key[len(WS_PREFIX):])
    except (InputError, TypeError):
        return None


def ws_label(key: str) -> str:
    """``Uploaded: <name>``; a name used by several datasets gets the first 6 characters of its id."""
    dataset_id = ws_id(key) or ""
    name = _LABELS.get(dataset_id, "(unknown)")
    duplicate = sum(1 for i in _LISTED if _LABELS.get(i) == name) > 1
    return f"Uploaded: {name}" + (f" (#{dataset_id[:6]})" if duplicate else "")


@st.cache_data(show_spinner="Opening the saved dataset...", max_entries=16)
def _open_dataset(root: str, dataset_id: str, table_sha: str) -> Dataset:
    return _open(root).open_dataset(dataset_id)


def open_ws_dataset(key: str) -> Dataset:
    """The stored dataset of a ``ws:`` key (cached by content; no source file is parsed).

    Raises
    ------
    InputError
        Unknown or deleted dataset, unreadable workspace (the message says what to do).
    """
    dataset_id = ws_id(key)
    ws = workspace()
    if dataset_id is None or ws is None:
        raise InputError("this saved dataset is not available (the workspace cannot be opened); upload the files again.")
    try:
        record = ws.get_dataset(dataset_id)
        return _open_dataset(str(ws.root), dataset_id, record.table_sha256)
    except NotFoundError:
        forget(dataset_id)
        raise InputError("this saved dataset no longer exists (it was deleted): restore it under Recently deleted on the "
                         "Data page, or upload the files again.") from None
