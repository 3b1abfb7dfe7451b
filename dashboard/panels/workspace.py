"""Data page: the workspace's saved datasets (open, rename, delete, restore what was deleted)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.state import session as state
from dashboard.text import md
from dashboard.data.workspace import (BUNDLED_COPY_PREFIX, WS_PREFIX, forget, listed_records, owner, remember,
                                      workspace, workspace_error, ws_id)
from scorio_core.errors import InputError
from scorio_core.limits import human_bytes
from scorio_core.store import NotFoundError

__all__ = ["deleted_datasets_frame", "saved_datasets_frame", "render_recently_deleted", "render_workspace_datasets"]


def _when(stamp: str) -> str:
    return str(stamp)[:16].replace("T", " ") + " UTC"


def saved_datasets_frame(records) -> pd.DataFrame:
    """One row per saved dataset: what the Data page lists (pure; ``records`` are DatasetRecord)."""
    return pd.DataFrame(
        [
            {
                "name": r.name,
                "sources": ", ".join(s.name for s in r.sources),
                "models": r.n_models,
                "questions": r.n_questions,
                "trials": r.n_trials,
                "size": human_bytes(r.size_bytes),
                "created": _when(r.created),
                "id": r.id,
            }
            for r in records
        ],
        columns=["name", "sources", "models", "questions", "trials", "size", "created", "id"],
    )


def deleted_datasets_frame(records) -> pd.DataFrame:
    """One row per deleted dataset that can be restored (pure; ``records`` are DeletedRecord of kind dataset)."""
    return pd.DataFrame(
        [{"name": r.name, "deleted": _when(r.deleted), "restorable until": _when(r.restore_until),
          "drafts": r.n_analyses, "id": r.id} for r in records],
        columns=["name", "deleted", "restorable until", "drafts", "id"],
    )


def render_recently_deleted(ws) -> None:
    """The "Recently deleted" expander: deleted datasets, each restorable with its drafts until gc purges it."""
    try:
        records = [r for r in ws.list_deleted(owner=owner())
                   if r.kind == "dataset" and not r.name.startswith(BUNDLED_COPY_PREFIX)]
    except (InputError, OSError, ValueError) as exc:
        st.caption(f"Recently deleted datasets cannot be listed ({md(str(exc))}).")
        return
    with st.expander(f"Recently deleted ({len(records)})", icon=":material/restore_from_trash:"):
        if not records:
            st.caption(f"Nothing deleted. A deleted dataset can be restored here for {ws.retention_days:g} days.")
            return
        frame = deleted_datasets_frame(records)
        st.dataframe(frame.drop(columns="id"), hide_index=True, width="stretch")
        labels = {r.id: f"{r.name} · deleted {frame.loc[i, 'deleted']} (#{r.id[:6]})" for i, r in enumerate(records)}
        picked = st.selectbox("Deleted dataset", list(labels), format_func=labels.get, key="ws_restore_pick")
        if st.button("Restore", key="ws_restore", icon=":material/restore_from_trash:"):
            try:
                record = ws.restore_dataset(picked)
            except (InputError, NotFoundError, ValueError) as exc:
                st.error(md(str(exc)), icon=":material/error:")
            else:
                remember(record.id, record.name)
                st.rerun()


def render_workspace_datasets() -> None:
    """The saved-datasets list with open, rename and delete (never raises on a stale id)."""
    ws = workspace()
    if ws is None:
        st.warning(f"The workspace cannot be opened ({md(workspace_error() or 'unknown error')}): uploads last for "
                   "this session only. Set SCORIO_WORKSPACE to a writable directory (README, Workspace).",
                   icon=":material/cloud_off:")
        return
    records = listed_records(ws)
    if not records:
        st.caption("No saved datasets yet: every upload you load is saved here and survives reloads and restarts.")
        render_recently_deleted(ws)
        return
    frame = saved_datasets_frame(records)
    st.dataframe(frame.drop(columns="id"), hide_index=True, width="stretch")
    st.caption(
        f"{len(records)} saved dataset{'' if len(records) == 1 else 's'} in the workspace"
        + (" (shared: every session of this server sees them)." if ws.listing == "shared"
           else " (private listing: yours, and those published from the command line).")
    )
    # the id's first characters where a name repeats (two uploads of one file: helper QA), as the sidebar's labels
    repeated = {n for n in (r.name for r in records) if sum(x.name == n for x in records) > 1}
    labels = {r.id: f"{r.name} · {frame.loc[i, 'created']}" + (f" (#{r.id[:6]})" if r.name in repeated else "")
              for i, r in enumerate(records)}
    left, mid, right = st.columns([2, 2, 1.2])
    active = ws_id(st.session_state.get(state.KEY_DATASET, "") or "")
    ids = list(labels)
    picked = left.selectbox("Saved dataset", ids, format_func=labels.get, key="ws_pick",
                            index=ids.index(active) if active in ids else 0)  # the dataset in use, to start with
    if left.button("Open", key="ws_open", icon=":material/open_in_new:"):
        state.select(WS_PREFIX + picked)
        st.rerun()
    new_name = mid.text_input("Rename to", key="ws_new_name", max_chars=200, placeholder="new name")
    if mid.button("Rename", key="ws_rename", disabled=not new_name.strip()):
        try:
            ws.rename_dataset(picked, new_name.strip())
        except (InputError, NotFoundError, ValueError) as exc:
            st.error(md(str(exc)), icon=":material/error:")
        else:
            st.rerun()
    name = next((r.name for r in records if r.id == picked), picked)
    name = name[:60] + (f" (#{picked[:6]})" if name in repeated else "")
    confirm = right.checkbox(f"Confirm delete of {md(name)}", key="ws_confirm_delete",
                             help=f"Deletes the dataset picked under Saved dataset (and its drafts), for every session. "
                                  f"It can be restored under Recently deleted for {ws.retention_days:g} days.")
    right.caption(f"A deleted dataset can be restored under Recently deleted for {ws.retention_days:g} days.")
    if right.button("Delete", key="ws_delete", disabled=not confirm, icon=":material/delete:"):
        try:
            ws.delete_dataset(picked)
        except (InputError, NotFoundError, ValueError) as exc:
            st.error(md(str(exc)), icon=":material/error:")
        else:
            forget(picked)
            if ws_id(st.session_state.get(state.KEY_DATASET, "")) == picked:
                state.select(state.DEFAULT_DATASET)
            st.session_state.pop("ws_confirm_delete", None)  # untick on the next run
            st.rerun()
    render_recently_deleted(ws)
