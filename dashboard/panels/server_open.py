"""Data-page panels: open dumps from a server-side folder (``SCORIO_DATA_ROOTS``) through the counts engine, or from
a folder uploaded in the browser (:func:`render_folder_upload`, read as the same folder on the server would be).

The path is typed relative to a configured root and resolved by
:func:`scorio_core.io.roots.resolve_in_root` (no absolute paths, no ``..``, nothing outside the
root); it never comes from a URL parameter. Large tables are counted by DuckDB out of core
(:func:`scorio_core.io.roots.load_matches`) and the count table is what the workspace stores.
"""

from __future__ import annotations

import streamlit as st

from dashboard.state import session as state
from dashboard.text import md
from dashboard.data.workspace import save_upload
from scorio_core.errors import InputError
from scorio_core.io import roots
from scorio_core.io._gzip import ARCHIVE_SUFFIXES, archive_files

__all__ = ["FOLDER_NAMES", "open_matches", "render_archive", "render_folder_upload", "render_server_open"]

#: What a file's folder names, offered beside the path: label -> the loader's mapping (``--map model=@folder``).
FOLDER_NAMES = {
    "Nothing (names from columns, else file names)": None,
    "The model (runs/gpt-4o/aime.csv)": {"model": "@folder"},
    "The model, one folder up (gpt-4o/2025-01-01/aime.csv)": {"model": "@folder:2"},
    "The task (runs/aime/gpt-4o.csv)": {"task": "@folder"},
    "The task, one folder up (aime/2025-01-01/gpt-4o.csv)": {"task": "@folder:2"},
}


def _size(n: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n:,.1f} GB"


def render_server_open() -> None:
    """Root picker, path/glob box and Open button; on success the data becomes the active dataset."""
    available = roots.data_roots()
    if not available:
        st.caption(f"Off on this server. To let users open dumps from a shared volume, start the app with "
                   f"`{roots.ENV}=/data/evals` (several folders separated by ':'); paths are then typed relative to "
                   "those folders and nothing outside them can be opened.")
        return
    labels = [r.label for r in available]
    left, right = st.columns([1, 2])
    picked = left.selectbox("Folder", range(len(available)), format_func=lambda i: labels[i], key="server_root",
                            help=f"The folders this server allows ({roots.ENV}).")
    pattern = right.text_input("Path or glob inside it", key="server_pattern", placeholder="runs/**/*.parquet",
                               help="A file, a folder (every data file below it: .csv, .json, .parquet ...; logs and scripts are "
                                    "skipped) or a glob with * and **. Large tables "
                                    "(50 MB or more, or Parquet of 10^6 rows) are counted with DuckDB out of core; other formats are read "
                                    "as uploads are.")
    named = st.selectbox("A file's folder names", list(FOLDER_NAMES), key="server_folder_names",
                         help="For files without a model (or task) column: by default both are the file's name, so "
                              "runs/aime/m1.csv and runs/gpqa/m1.csv would read as one model and task 'm1'. Say here "
                              "which one the folder holds (CLI: --map model=@folder).")
    if not st.button("Open", key="server_open", disabled=not (pattern or "").strip()):
        return
    open_matches(available[int(picked or 0)], pattern, FOLDER_NAMES.get(named))


def render_folder_upload() -> None:
    """A folder picker (every file below the chosen folder, with its path in it) and a Load button: for dumps whose
    folders name the model, the run or the task (SWE-bench's logs/run_evaluation, aider's tmp.benchmarks, one folder
    per model), which single-file uploads cannot carry."""
    uploaded = st.file_uploader(
        "A folder of eval dumps", accept_multiple_files="directory", key="folder_uploader",
        help="Choose a folder: every data file below it is read as the same folder on disk would be (logs, scripts and "
             "the harness's other files are skipped), so SWE-bench's logs/run_evaluation/<run>/<model>/<instance>/"
             "report.json, aider's tmp.benchmarks/<run>/, terminal-bench's runs/<run_id>/, Harbor's jobs/<job>/, "
             "OpenCompass's and AISBench's outputs/default/<timestamp>/, evalscope's and MathArena's outputs/, "
             "NeMo-Skills' <output_dir>/eval-results/, lighteval's <output_dir>/details/, Qwen2.5-Math's "
             "<model>/math_eval/ and one "
             "folder per model keep the names their folders give. "
             "CLI: `python -m scorio_core leaderboard FOLDER`.")
    named = st.selectbox("A file's folder names", list(FOLDER_NAMES), key="folder_upload_names",
                         help="For files without a model (or task) column: say which one the folder holds (CLI: --map "
                              "model=@folder). SWE-bench, aider, terminal-bench, Harbor, OpenCompass, evalscope, "
                              "MathArena, NeMo-Skills and Qwen2.5-Math runs name "
                              "their models themselves.")
    if not uploaded or not st.button("Load the folder", key="folder_upload_load"):
        return
    files = [(f.name, f.getvalue()) for f in uploaded]
    try:
        with roots.uploaded_folder(files) as (root, pattern):
            open_matches(root, pattern, FOLDER_NAMES.get(named), name=pattern)
    except InputError as exc:  # a path the browser gave that is not a plain path inside the folder
        st.error(md(str(exc)), icon=":material/error:")


def render_archive(files) -> bool:
    """For an upload of one archive of a folder (``.zip``, ``.tar.gz`` ...): what it is read as and a Load button that
    opens it as that folder (:func:`scorio_core.io._gzip.archive_files`, then as a folder upload); True when the upload
    is one, so the caller shows no table form for it."""
    if len(files) != 1 or not files[0][0].lower().endswith(ARCHIVE_SUFFIXES):
        return False
    name, data = files[0]
    st.info(f"**{md(name)}** is an archive: it is read as the folder it holds, named after it, as *Upload a folder* "
            "reads a folder (folders that name models, runs and tasks keep them). CLI: `python -m scorio_core "
            "leaderboard ARCHIVE`.", icon=":material/folder_zip:")
    if st.button("Load the archive", type="primary", key="archive_load"):
        try:
            with roots.uploaded_folder(archive_files(name, data) or []) as (root, pattern):
                open_matches(root, pattern, None, name=pattern)
        except InputError as exc:  # a broken archive, a member name that is not a plain path, past the size limit
            st.error(md(str(exc)), icon=":material/error:")
            st.caption("Nothing changed: the previously loaded data is still active.")
    return True


def open_matches(root: roots.DataRoot, pattern: str, mapping: dict | None, name: str | None = None) -> None:
    """Match ``pattern`` under ``root``, load the files (DuckDB for large tables) with a status box, and make them the
    active dataset (stored in the workspace), or show why not with the loaded data unchanged. ``name``: the dataset's
    name (default: the root's last folder and the pattern)."""
    with st.status("Opening...", expanded=True) as status:
        try:
            st.write("Matching files...")
            matches = roots.resolve_in_root(root, pattern)
            st.write(f"{len(matches.files):,} files, {_size(matches.total_bytes)}. Reading (DuckDB for large tables)...")
            bar = st.progress(0.0)
            dataset, engine, files = roots.load_matches(
                matches, progress=lambda fraction, message: bar.progress(fraction, text=md(message)), mapping=mapping)
        except (InputError, ValueError, OSError) as exc:
            status.update(label="Could not open these files", state="error")
            st.error(md(str(exc)), icon=":material/error:")
            st.caption("Nothing changed: the previously loaded data is still active.")
            return
        except MemoryError:
            status.update(label="Could not open these files", state="error")
            st.error("The files are larger than this server can hold in memory; narrow the pattern.", icon=":material/error:")
            return
        name = (name or f"{root.label.rstrip('/').rsplit('/', 1)[-1]}/{matches.pattern}")[:200]
        if engine != "duckdb":
            st.write("Read with the attempt-level loader.")
        elif dataset.trial_prefix:
            st.write("Counted with DuckDB: the workspace keeps the count table and the trial order as prefix counts "
                     "(observed rank trajectories stay exact).")
        else:
            st.write("Counted with DuckDB: the workspace keeps the count table (no trial column: no trial order).")
        upload = state.Upload(name=name, files=tuple(files))
        status.update(label=f"Opened {len(matches.files):,} files", state="complete")
    state.add_upload(upload, save_upload(upload.name, upload.files, dataset))
    st.rerun()
