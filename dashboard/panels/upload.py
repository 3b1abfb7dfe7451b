"""Upload panel: files -> (optional column mapping) -> a named dataset kept in the session.

A bad file shows one clear error (file, row, field, what to do); the previously loaded data
and every earlier upload stay as they were.
"""

from __future__ import annotations

import hashlib
from io import BytesIO
from pathlib import PurePath

import streamlit as st

from dashboard.state import session as state
from dashboard.text import md
from dashboard.data.workspace import pop_notice, save_upload
from dashboard.panels.server_open import render_archive
from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.engines import AUTO_THRESHOLD_BYTES, EngineUnsupported, NotReadyError
from scorio_core.engines.uploads import count_uploads, upload_engine
from scorio_core.io._sources import DATA_SUFFIXES, HELM_FILES
from scorio_core.io.formats.matrix import MATRIX

__all__ = ["render_uploader", "UPLOAD_TYPES"]

#: File endings the loader reads (``.gz`` of any of them too). The uploader does not filter by them: Streamlit's own
#: refusal ("application/octet-stream files are not allowed") names neither the file nor what is supported, and a
#: filter kept .tab/.txt/.ndjson/.pq out; the loader refuses anything else naming the file and the formats.
UPLOAD_TYPES = sorted(s.lstrip(".") for s in DATA_SUFFIXES | {".gz"})
_AUTO = "auto-detect"
#: Uploads of table files this large together are offered to DuckDB as counts (``--engine auto``'s threshold).
COUNTS_THRESHOLD_BYTES = AUTO_THRESHOLD_BYTES


@st.cache_data(show_spinner=False, max_entries=8)
def _engine_for(digest: str, fmt: str | None, _files) -> str:
    """:func:`~scorio_core.engines.uploads.upload_engine` once per upload (JSONL is sniffed on disk)."""
    return upload_engine(_files, fmt, threshold=COUNTS_THRESHOLD_BYTES)


def _counted(upload: state.Upload):
    """The upload counted by DuckDB, or None when it needs the pandas loader (its report names the choice)."""
    try:
        return count_uploads(list(upload.files), format=upload.format, mapping=dict(upload.mapping) or None)
    except (EngineUnsupported, NotReadyError):
        return None


def _parquet(dataset) -> bytes:
    buffer = BytesIO()
    dataset.counts.to_parquet(buffer, index=False)
    return buffer.getvalue()


def _prefix_blob(dataset) -> tuple[bytes, str]:
    """The trial order of a counted upload as (Parquet bytes, JSON meta), or empty when it keeps none."""
    import json

    from scorio_core.store._codec import prefix_to_parquet

    packed = prefix_to_parquet(dataset)
    return (packed[0], json.dumps(packed[1])) if packed else (b"", "")


#: The override that un-maps a field (``--map FIELD=none`` in the CLI), e.g. a text column taken for is_correct.
UNMAP_OPTION = "none (un-map the field)"
#: The choice that reads every column no other field uses as a question (or a model): a response matrix
#: (``--map question_id=@columns`` in the CLI, :mod:`scorio_core.io.formats.matrix`).
MATRIX_OPTION = "every other column (a response matrix)"


def _mapping_widgets(files: tuple[tuple[str, bytes], ...], fmt: str | None) -> dict[str, str] | None:
    """Show the detected column mapping of the first file; let the user fix ambiguous fields."""
    try:
        guess = io.guess_mapping(files[0], fmt)
        columns = list(io.source_columns(files[0], fmt))
    except (InputError, ValueError, TypeError, OSError, MemoryError, RecursionError):
        return {}  # fixed-field formats (Inspect, HELM, lm-eval...) need no mapping; real problems show on Load
    needs_choice = dict(guess.ambiguous)
    for field_name in guess.missing:
        needs_choice[field_name] = tuple(columns)
    chosen: dict[str, str] = {}
    matrix = guess.layout == "wide" and guess.wide_field != "trial"
    with st.expander(
        f"Column mapping ({'response matrix' if matrix else guess.layout + ' layout'})"
        + (" - choose the ambiguous fields" if needs_choice else ""),
        expanded=bool(needs_choice),
    ):
        detected = [f"{k} <- {v}" for k, v in guess.mapping.items()]
        detected += [f"{guess.wide_field} <- every other column ({len(guess.wide_columns):,})"] if matrix else []
        st.caption("Detected: " + md(", ".join(detected)))
        for field_name in sorted(needs_choice, key=lambda f: f not in ("question_id", "model")):  # a matrix first
            if field_name not in needs_choice:
                continue
            options = ["(choose a column)"] + list(needs_choice[field_name]) + (
                [MATRIX_OPTION] if field_name in ("question_id", "model") else [])
            pick = st.selectbox(f"Column for '{field_name}'", options, key=f"map_{field_name}",
                                help=f"'{MATRIX_OPTION}': one row per model and one column per question (for "
                                     "question_id), or one row per question and one column per model (for model); "
                                     "each cell an outcome.")
            if pick != options[0]:
                chosen[field_name] = MATRIX if pick == MATRIX_OPTION else pick
            if pick == MATRIX_OPTION:  # each cell is the outcome: the fields a matrix does not read need no choice
                try:
                    still = io.guess_mapping(files[0], fmt, {field_name: MATRIX})
                    needs_choice = {f: c for f, c in needs_choice.items()
                                    if f == field_name or f in still.ambiguous or f in still.missing}
                except (InputError, ValueError, TypeError, OSError):
                    pass  # Load says what is wrong
        with st.popover("Override another field"):
            target = st.selectbox("Canonical field", ["(none)", "model", "task", "question_id", "trial", "is_correct", "category", "score", "n_trials", "n_correct"], key="map_override_field")
            source = st.selectbox("Source column", ["(none)", UNMAP_OPTION, MATRIX_OPTION] + columns, key="map_override_column",
                                  help="A column of the file; 'none' to un-map the field (no column is read as it); "
                                       f"'{MATRIX_OPTION}' for model or question_id: each column no other field uses is "
                                       "a model (or a question), each cell an outcome.")
            if target != "(none)" and source != "(none)":
                chosen[target] = "none" if source == UNMAP_OPTION else MATRIX if source == MATRIX_OPTION else source
    if MATRIX in chosen.values():  # a matrix chosen under "Override another field": its cells are the outcomes
        try:
            still = io.guess_mapping(files[0], fmt, {k: v for k, v in chosen.items() if v == MATRIX})
            needs_choice = {f: c for f, c in needs_choice.items() if f in chosen or f in still.ambiguous or f in still.missing}
        except (InputError, ValueError, TypeError, OSError):
            pass  # Load says what is wrong
    missing = [f for f in needs_choice if f not in chosen]
    if missing:
        st.warning("Choose a column for: " + md(", ".join(missing)) + (
            f". A response matrix of outcomes: '{MATRIX_OPTION}' for question_id (one column per question) or, under "
            "*Override another field*, for model (one column per model)." if {"is_correct", "question_id"} & set(missing)
            else ""), icon=":material/help:")
        return None
    return chosen


#: Session key of the last refusal the upload form can answer: ``(form key, message, {label: suggested value},
#: outcome scale or None, (lowest, highest) score or None)``: text outcome labels to recode, outcomes on a 0-100
#: scale, or both (kept across refusals).
_LABELS_REFUSED = "_upload_labels_refused"


def _reading_form(form: str) -> tuple[dict[str, str], float | None]:
    """After the loader refused the outcomes: how the user reads them, ``(recoding, outcome scale or None)``.

    Text labels get a table of each label with the outcome the user reads it as, starting at what the word usually
    means (:func:`scorio_core.io.formats.recoding.outcome_labels`) and the user's to confirm; a label left empty is
    not recoded, so the loader refuses it again, naming it. Outcomes that look like percentages get the outcome
    scale (the full score, read as 1), 100 to start with.
    """
    import pandas as pd

    refused = st.session_state.get(_LABELS_REFUSED)
    if not refused or refused[0] != form:
        return {}, None
    st.error(md(refused[1]), icon=":material/error:")
    st.caption("Nothing changed: the previously loaded data is still active.")
    labels, scale = refused[2], None
    if refused[3] is not None:
        with st.expander("Outcome scale", expanded=True):
            found = (f" (from {refused[4][0]:g} to {refused[4][1]:g} in this file)" if refused[4] else "")
            st.caption(f"The outcome column holds scores above 1{md(found)}. If they are on another scale (percentages: 0 to "
                       "100, marks out of 10 ...), give its full score: every score is divided by it, so the full score "
                       "reads as 1 (correct) and 0 as 0; a score outside the scale is refused. Kept with the dataset "
                       "and shown in its provenance.")
            scale = st.number_input("Full score (reads as 1)", min_value=1e-6, value=float(refused[3]), step=1.0,
                                    key=f"upload_scale_{form}", help="100 for percentages, 10 for marks out of 10")
    if not labels:
        return {}, scale
    with st.expander("Recode outcome labels", expanded=True):
        st.caption("The outcome column holds text. Give each label the outcome it stands for (1 correct, 0 incorrect, "
                   "between for partial credit, or 'missing' for an attempt without an outcome, such as an API error: "
                   "the Data page's missing-outcomes choice then decides those), then Load again. Prefilled values are "
                   "the words' usual meaning: check them. The recoding is kept with the dataset and shown in its "
                   "provenance.")
        edited = st.data_editor(
            pd.DataFrame({"label": list(labels), "value": ["" if v is None else f"{v:g}" for v in labels.values()]}),
            key=f"upload_recode_{form}", hide_index=True, disabled=["label"], width="stretch",
            column_config={"label": st.column_config.TextColumn("Label"),
                           "value": st.column_config.TextColumn("Reads as", validate=_READS_AS,
                                                                help="A number from 0 to 1, or 'missing'")})
    return {str(label): str(value).strip() for label, value in zip(edited["label"], edited["value"])
            if isinstance(value, str) and value.strip()}, scale


def _errors_choice(files, fmt: str | None, digest: str) -> bool:
    """For a table with an error column (``error``, ``exception`` ...), a SWE-bench report (its ``error_ids``), promptfoo
    output (its errored results), tau-bench results (simulations with ``info.error``) or a Harbor trial (raised before
    it was scored): whether
    to read the outcome of attempts that record an error as missing (``io.load(errors_as_missing=True)``); False for
    other files."""
    from scorio_core.io._schema import normalize_name
    from scorio_core.io.formats.recorded_errors import ERROR_COLUMNS

    try:
        kind = fmt or io.detect_format(files[0])
        if kind == "swebench-report":  # its error_ids: no test report for those
            return st.checkbox(
                "Read instances in error_ids as missing", key=f"upload_errors_{digest}",
                help="A SWE-bench report lists the instances whose evaluation gave no test report (a harness or "
                     "environment failure) in error_ids. Unticked, they count as unresolved, as SWE-bench's own report "
                     "counts them (the notes say how many); ticked, their outcome is read as missing and the Data "
                     "page's missing-outcomes choice decides what they count as.")
        if kind == "promptfoo":  # results whose provider call failed
            return st.checkbox(
                "Read errored results as missing", key=f"upload_errors_{digest}",
                help="promptfoo marks a result whose provider call failed or timed out as an error (failureReason 2). "
                     "Unticked, it counts as a failure, as promptfoo counts it (the notes say how many); ticked, its "
                     "outcome is read as missing and the Data page's missing-outcomes choice decides what it counts as.")
        if kind == "tau-bench":  # simulations that raised (info.error)
            return st.checkbox(
                "Read simulations that raised an error as missing", key=f"upload_errors_{digest}",
                help="tau-bench writes a simulation that raised (an API error, a crash) with reward 0 and info.error. "
                     "Unticked, it counts as a failure, as tau-bench counts it (the notes say how many); ticked, its "
                     "outcome is read as missing and the Data page's missing-outcomes choice decides what it counts as.")
        if kind == "harbor":  # trials that raised before the verifier scored them
            return st.checkbox(
                "Read trials that raised before they were scored as missing", key=f"upload_errors_{digest}",
                help="A Harbor trial that raised (an agent timeout, an environment error) before its verifier ran has no "
                     "reward. Unticked, it counts as a failure, as AISBench's Harbor summary counts it (the notes say how "
                     "many); ticked, its outcome is read as missing and the Data page's missing-outcomes choice decides "
                     "what it counts as.")
        columns = [c for c in io.source_columns(files[0], fmt) if normalize_name(c) in ERROR_COLUMNS]
    except (InputError, ValueError, TypeError, OSError, MemoryError, RecursionError):
        return False  # formats with fixed fields (Inspect marks errored samples itself); problems show on Load
    if not columns:
        return False
    return st.checkbox(
        "Read attempts with an error as missing", key=f"upload_errors_{digest}",
        help=f"The file has an error column ('{md(str(columns[0]))}'): a timeout or an API error is no answer of the model's. "
             "Unticked, those attempts count as the file's outcome says (the notes say how many); ticked, their outcome "
             "is read as missing and the Data page's missing-outcomes choice decides what they count as.")


def _refused(form: str, exc: Exception) -> bool:
    """Keep a refusal the form can answer (text labels, a percent scale) for :func:`_reading_form`; False for others.

    What an earlier refusal of the same form offered stays offered (a scale given, then labels refused, shows both).
    """
    labels, scale, found = getattr(exc, "labels", None), getattr(exc, "scale", None), None
    if not labels and scale is None:
        return False
    if scale is not None:
        found = getattr(exc, "outcome_range", None)
    before = st.session_state.get(_LABELS_REFUSED)
    if before and before[0] == form and scale is None:  # labels refused after a scale was offered: keep offering it
        scale, found = before[3], before[4]
    if before and before[0] == form:
        labels = labels or before[2]
    st.session_state[_LABELS_REFUSED] = (form, str(exc), labels or {}, scale, found)
    return True


#: What the recoding form accepts: a number in [0, 1] or "missing" (scorio_core.io.formats.recoding.MISSING).
_READS_AS = r"^\s*(0(\.\d*)?|1(\.0*)?|\.\d+|missing)\s*$"


def render_uploader() -> None:
    """The upload form; on success the upload becomes the active dataset."""
    notice = pop_notice()
    if notice:
        st.warning(md(notice), icon=":material/cloud_off:")
    with st.container(border=True):
        uploaded = st.file_uploader(
            "Eval dumps",
            accept_multiple_files=True,
            key="data_uploader",
            help=(
                "Long tables (one row per attempt), wide tables, count tables (n_trials, n_correct), NPZ tensors, "
                "scorio JSONL, lm-evaluation-harness samples/results, Inspect AI logs, HELM outputs, SWE-bench reports, "
                "promptfoo output, tau2-bench results (folders that name models or runs: Upload a folder). Files ending "
                + ", ".join("." + t for t in UPLOAD_TYPES) + "."
            ),
        )
        if not uploaded:
            return
        files = tuple((f.name, f.getvalue()) for f in uploaded)
        if render_archive(files):  # one archive of a folder: read as that folder
            return
        left, right = st.columns(2)
        default_name = _upload_name([name for name, _ in files], _helm_run_name(files))
        hasher = hashlib.sha256()  # incremental: no joined copy of the uploaded bytes
        for file_name, data in files:
            hasher.update(file_name.encode())
            hasher.update(data)
        digest = hasher.hexdigest()[:12]
        name = left.text_input("Dataset name", value=default_name, key=f"upload_name_{digest}")
        fmt_choice = right.selectbox("Format", [_AUTO] + list(io.SUPPORTED_FORMATS), key="upload_format")
        fmt = None if fmt_choice == _AUTO else fmt_choice
        mapping = _mapping_widgets(files, fmt)
        if state.UPLOAD_PREFIX + (name.strip() or default_name) in state.uploads():
            st.caption("A dataset with this name is already loaded: loading replaces it (rename to keep both).")
        form = f"{digest}:{hashlib.sha256(repr((fmt, sorted((mapping or {}).items()))).encode()).hexdigest()[:12]}"
        recode, scale = _reading_form(form)
        errors_missing = _errors_choice(files, fmt, digest)
        as_counts = False
        # the SQL count pass reads outcomes as given (no recoding, scale or errors read as missing)
        if _engine_for(digest, fmt, files) == "duckdb" and not (recode or errors_missing) and scale is None:
            as_counts = st.radio(
                "Read as", [True, False], key=f"upload_counts_{digest}", horizontal=True,
                format_func=lambda v: "counts with DuckDB (large tables)" if v else "attempts (every view)",
                help="Counts: DuckDB turns the attempt rows into correct trials out of N per question out of core "
                     "(faster, far less memory) and keeps the trial order as prefix counts; leaderboards, comparisons, "
                     "convergence and observed trajectories work, but rubrics and the drill-down need the attempt "
                     "rows. Attempts: the full table in memory.")
        if st.button("Load", type="primary", disabled=mapping is None, key="upload_load"):
            upload = state.Upload(name=name.strip() or default_name, files=files, format=fmt,
                                  mapping=tuple(sorted((mapping or {}).items())), recode=tuple(sorted(recode.items())),
                                  outcome_scale=scale, errors_as_missing=errors_missing)
            bar = st.progress(0.0, text="Reading the files... (change any setting to cancel)")
            try:
                dataset = None
                if as_counts:
                    bar.progress(0.1, text="Counting with DuckDB (counts and the trial order)... (change any setting to cancel)")
                    dataset = _counted(upload)
                    if dataset is not None:
                        # kept in the session only (no workspace): the count table, so a reload reads counts again,
                        # and its trial order as prefix counts, so observed trajectories stay exact
                        session_files = ((f"{PurePath(files[0][0]).stem.split('.')[0]}.counts.parquet", _parquet(dataset)),)
                        session_prefix = _prefix_blob(dataset)
                if dataset is None:
                    dataset = io.load(list(upload.files), format=upload.format, mapping=dict(upload.mapping) or None,
                                      progress=lambda fraction, message: bar.progress(fraction, text=md(message)),
                                      recode=recode or None, outcome_scale=scale, errors_as_missing=errors_missing)
            except (InputError, ValueError, TypeError, OSError) as exc:
                bar.empty()
                if _refused(form, exc):  # text labels or percentages: offer the reading form (above the button)
                    st.rerun()
                st.error(md(str(exc)), icon=":material/error:")
                st.caption("Nothing changed: the previously loaded data is still active.")
                return
            except MemoryError:
                bar.empty()
                st.error("The upload is larger than this server can hold in memory (see README, Limits).", icon=":material/error:")
                st.caption("Nothing changed: the previously loaded data is still active.")
                return
            except RecursionError:
                bar.empty()
                st.error("The upload is nested too deeply to parse (e.g. JSON brackets); check the file.", icon=":material/error:")
                st.caption("Nothing changed: the previously loaded data is still active.")
                return
            st.session_state.pop(_LABELS_REFUSED, None)
            bar.progress(1.0, text="Saving to the workspace...")
            saved = save_upload(upload.name, upload.files, dataset)
            if saved is None and as_counts and dataset.attempts is None:
                upload = state.Upload(name=upload.name, files=session_files, prefix=session_prefix[0],
                                      prefix_meta=session_prefix[1])
            state.add_upload(upload, saved)
            st.rerun()


def _helm_run_name(files) -> str | None:
    """The ``name`` in an uploaded HELM ``run_spec.json`` (parsed as JSON, never evaluated), at most 80 characters."""
    import json

    for name, data in files:
        if PurePath(name).name == "run_spec.json" and len(data) <= 1 << 20:
            try:
                value = json.loads(data.decode("utf-8")).get("name")
            except (ValueError, UnicodeDecodeError, AttributeError):
                return None
            return str(value)[:80] if isinstance(value, str) and value.strip() else None
    return None


def _upload_name(names, run_name: str | None = None) -> str:
    """The default name of an upload: the file's name without its extensions (``results.csv.gz`` -> ``results``),
    ``+n`` for more files; a HELM run's files (``per_instance_stats.json``, ...) are named after the run
    (``run_name``: its ``run_spec.json``'s name; a browser upload carries no folder) or their run folder.

    >>> _upload_name(["livebench.csv.gz"]), _upload_name(["a.jsonl", "b.jsonl"])
    ('livebench', 'a +1')
    >>> _upload_name(["scenario_state.json", "run_spec.json"], "mmlu:subject=philosophy")  # not "scenario_state +1"
    'mmlu:subject=philosophy'
    >>> _helm_run_name([("run_spec.json", b'{"name": "narrative_qa:model=openai_gpt2"}')])
    'narrative_qa:model=openai_gpt2'
    """
    paths = [PurePath(n) for n in names]
    if run_name and any(p.name in HELM_FILES for p in paths):  # a browser upload of a HELM run's files: its name
        return run_name
    first = paths[0]
    stem = first.name
    for suffix in (".gz", ".zip", ".bz2", ".xz"):
        stem = stem.removesuffix(suffix)
    stem = PurePath(stem).stem or first.name
    if len(paths) > 1 and first.parent.name and all(p.parent == first.parent for p in paths):
        return first.parent.name  # every file of one folder (a HELM run): the folder's name
    return stem if len(paths) == 1 else f"{stem} +{len(paths) - 1}"
