"""``load``: sources -> formats -> canonical parts -> one merged Dataset with its report."""

from __future__ import annotations

from collections.abc import Mapping

from scorio_core.errors import InputError
from scorio_core.io._canonical import Part
from scorio_core.io._dataset import Dataset, SourceInfo
from scorio_core.io._detect import check_format, detect_source_format
from scorio_core.io.formats.layout import ERROR_AWARE, NAMED_TABLES, READERS, settle_layout
from scorio_core.io.formats.harnesses.helm import helm_group, read_helm
from scorio_core.io.formats.harnesses.inspect_ai import read_inspect
from scorio_core.io.formats.jsonl import paired_aggregate
from scorio_core.io.formats.harnesses.lmeval import (load_results_json, match_results, read_lm_eval_results,
                                                     read_lm_eval_samples, results_key, results_timestamp, sibling_samples)
from scorio_core.io.formats.workbook import workbook_sheets
from scorio_core.io.formats.user_recoding import (check_outcome_scale, check_recoding, read_as_given, unmatched_recoding,
                                                  unmatched_scale)
from scorio_core.io._merge import merge_parts
from scorio_core.io.formats.npz import read_npz
from scorio_core.io.formats.path_names import note_shared_stems
from scorio_core.io.quality.compute import compute_report
from scorio_core.io._schema import MappingGuess
from scorio_core.io.formats.matrix import guess_mapping as matrix_mapping
from scorio_core.io.formats.harnesses.scorio import read_scorio_jsonl, read_scorio_verifier
from scorio_core.io.formats.agents.swebench import number_runs
from scorio_core.io.formats.agents.swebench_instances import (group_instance_reports, read_swebench_instances,
                                                                 refuse_same_runs)
from scorio_core.io._sources import HELM_FILES, Source, as_sources
from scorio_core.io._tables import read_table, table_columns
from scorio_core.report.reading import reading_json, reading_record

__all__ = ["guess_mapping", "load", "source_columns"]

_TABLES = ("csv", "tsv", "jsonl", "json-records", "parquet")


def load(sources, format: str | None = None, mapping: Mapping[str, str] | None = None, progress=None,
         recode: Mapping[str, float] | None = None, outcome_scale: float | None = None,
         errors_as_missing: bool = False) -> Dataset:
    """Load eval dumps into one canonical table with a data-quality report.

    Parameters
    ----------
    sources : path, folder, upload, (name, bytes) tuple, or a list of them
        Files on disk (``str``/``Path``), folders (a HELM run folder, or a folder whose
        supported files are all loaded), uploaded files (objects with ``.name`` and
        ``.getvalue() -> bytes``, such as Streamlit's ``UploadedFile``) or
        ``(name, bytes)`` tuples. Several sources merge into one table. A file without a task column takes its
        stem as task, except per-model files (pairwise disjoint models, shared questions), which share one task
        (docs/ARCHITECTURE.md, Files without a task column).
    format : str, optional
        A key of :data:`SUPPORTED_FORMATS` applied to every source; auto-detected from
        name and content when omitted.
    mapping : dict of str to str, optional
        Column overrides ``{canonical_name: source_column}`` (e.g.
        ``{"question_id": "problem"}``); for Inspect, HELM and lm-eval only
        ``{"is_correct": "<scorer/stat/metric>"}`` applies.
    progress : callable, optional
        ``progress(fraction_done, message)`` before each file and before the quality report
        (fraction in [0, 1)). An exception it raises stops the load: that is how the app
        cancels a long load (Streamlit interrupts a run at its next element update).
    recode : dict of str to float or None, optional
        The user's reading of text labels in a table's outcome column (or a wide table's trial cells), e.g.
        ``{"pass": 1, "fail": 0, "error": None}`` (None or "missing": no outcome), compared without case
        (:mod:`scorio_core.io.formats.user_recoding`). The provenance mapping and notes say so; other text is refused.
    outcome_scale : float, optional
        The full score of a table's outcome column scored on another scale than 0-1 (100 for percentages): its
        numbers are divided by it (before ``recode``, whose values are on the 0-1 scale); a number outside
        [0, outcome_scale] is refused. Recorded like ``recode``. Default: outcomes must lie in [0, 1].
    errors_as_missing : bool
        Read the outcome of a long table's attempts whose error column (``error``, ``exception`` ...) is set as
        missing (left to the ``missing_outcomes`` choice) instead of as the file gives it; recorded like ``recode``.
        Default: as the file gives it, with a note (:mod:`scorio_core.io.formats.recorded_errors`).

    Returns
    -------
    Dataset
        ``attempts`` (one row per attempt) or ``counts`` (one row per model x task x
        question), the :class:`QualityReport`, and one :class:`SourceInfo` per source.

    Raises
    ------
    InputError
        For any unreadable or invalid input, naming the file, the line or row, the field
        and what to do; also for an ambiguous column when no ``mapping`` resolves it.

    Examples
    --------
    >>> ds = load([("a.csv", b"model,question,trial,correct\\nm1,q1,0,1\\nm1,q1,1,0\\n")])
    >>> ds.attempts[["model", "task", "question_id", "trial", "is_correct"]].values.tolist()
    [['m1', 'a', 'q1', 0, 1.0], ['m1', 'a', 'q1', 1, 0.0]]
    >>> ds.report.defaults
    ("a.csv: no task column; task set to the file stem 'a'.",)
    """
    fmt = check_format(format)
    recode, scale = (check_recoding(recode) if recode else None), check_outcome_scale(outcome_scale)
    srcs = settle_layout(_group_helm(as_sources(sources), fmt), fmt)
    detected = group_instance_reports([(s, fmt or _guard(s, lambda s=s: detect_source_format(s))) for s in srcs])
    results = _results_docs(detected)
    parts: list[Part] = []
    infos: list[SourceInfo] = []
    used_results: set[str] = set()
    read: list = []
    steps = len(detected) + 1
    for i, (src, f) in enumerate(detected):
        if progress is not None:
            progress(i / steps, f"Reading {src.name} ({i + 1} of {len(detected)})")
        if f == "lm-eval-results":
            continue
        try:
            new = _read_one(src, f, mapping, results, used_results, (recode, scale, errors_as_missing))
        except InputError as exc:  # an Every Eval Ever aggregate beside its instance-level file: skipped, said
            if not (said := paired_aggregate(exc, [s.name for s in srcs])):
                raise
            src.notes.append(said)
            continue
        parts.extend(new)
        read.extend((p, src) for p in new)
        for p in new:
            p.sha256 = src.sha256()
    refuse_same_runs(parts)
    number_runs(parts)  # several SWE-bench reports (or run folders) of one model are its runs
    note_shared_stems(read)  # aime/m1.csv and gpqa/m1.csv would read as one model: say how a folder names it
    for src, f in detected:
        if f != "lm-eval-results":
            continue
        doc = results[results_key(src)][1]
        if isinstance(doc.get("samples"), dict) and doc["samples"]:
            new = _guard(src, lambda s=src, d=doc: read_lm_eval_results(s, mapping, d))
            for p in new:
                p.sha256 = src.sha256()
            parts.extend(new)
        elif results_key(src) in used_results:
            infos.append(SourceInfo(src.name, f, src.sha256(), 0, "attempts", (("model", "model_name"),)))
        else:
            loaded = {results_key(s) for s, _ in detected}  # paths: one samples name can sit in several folders
            siblings = [Source(name=p.name, path=p) for p in sibling_samples(src) if str(p) not in loaded]
            if not siblings:
                read_lm_eval_results(src, mapping, doc)  # raises: aggregate-only results file
            for sib in siblings:
                new = _read_one(sib, "lm-eval-samples", mapping, {results_key(src): results[results_key(src)]}, used_results)
                for p in new:
                    p.sha256 = sib.sha256()
                    p.notes.append(f"{sib.name}: loaded next to {src.name} (same timestamp).")
                parts.extend(new)
            infos.append(SourceInfo(src.name, f, src.sha256(), 0, "attempts", (("model", "model_name"),)))
    for given, key, refusal in ((recode, "recoded", unmatched_recoding), (scale, "rescaled", unmatched_scale)):
        if given is not None and not any(p.read.get(key) for p in parts):  # the user's reading matched no file
            raise refusal(given, [s.name for s in srcs])
    _check_rows(parts)
    if progress is not None:
        progress((steps - 1) / steps, "Merging the files and checking data quality")
    table, layout, row_source, merge_notes = merge_parts(parts)
    _check_size(table, layout, row_source, [p.source for p in parts])
    infos = [SourceInfo(p.source, p.format, p.sha256, len(p.table), p.layout, tuple(p.mapping.items())) for p in parts] + infos
    notes = [n for s in srcs for n in s.notes] + [n for p in parts for n in p.notes] + merge_notes
    checked = [(src.name, results[results_key(src)][1]) for src, f in detected if f == "lm-eval-results"]
    if checked and "task" in table.columns and "question_id" in table.columns:  # what the run reports vs what loaded
        from scorio_core.io.formats.harnesses.lmeval import results_crosscheck

        per_task = table.groupby("task", observed=True)["question_id"].nunique()
        loaded = {str(t): int(k) for t, k in per_task.items()}
        notes += [n for name, doc in checked for n in results_crosscheck(name, doc, loaded)]
    meta = {"sources": tuple((i.name, i.format) for i in infos), "mappings": tuple((p.source, tuple(p.mapping.items())) for p in parts),
            "defaults": tuple(d for p in parts for d in p.defaults), "notes": tuple(dict.fromkeys(notes)),
            "reading": reading_json(reading_record(mapping, recode, scale, errors_as_missing))}  # kept for manifests
    report = compute_report(table, layout, row_source=row_source, source_names=tuple(p.source for p in parts), meta=meta)
    return Dataset(attempts=table if layout == "attempts" else None, counts=table if layout == "counts" else None,
                   report=report, sources=tuple(infos), row_source=row_source)


def _names(names) -> str:
    return ", ".join((names := list(dict.fromkeys(names)))[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _too_many(what: str, found: int, limit: int, var: str, advice: str) -> str:
    return f"{what}: {found:,} found, more than the limit of {limit:,} ({var}); {advice} or raise the limit with {var}."


def _check_rows(parts: list[Part]) -> None:
    """Refuse before merging when the parts together exceed ``SCORIO_MAX_ROWS``."""
    from scorio_core.limits import get_limits

    limit = get_limits().max_rows
    rows = sum(len(p.table) for p in parts)
    if rows > limit:
        raise InputError(
            _too_many("too many rows", rows, limit, "SCORIO_MAX_ROWS", "load fewer or smaller files"),
            source=_names(p.source for p in parts if len(p.table)),
        )


def _check_size(table, layout: str, row_source, names: list[str]) -> None:
    """Dataset-size limits on the canonical table (vectorized; README, Limits).

    Raises
    ------
    InputError
        Naming the file(s), the count found, the limit and the ``SCORIO_MAX_...`` variable.
    """
    import numpy as np
    import pandas as pd

    from scorio_core.limits import check_dense_table, get_limits

    lim = get_limits()
    if len(table) == 0:
        return
    source_codes = np.asarray(row_source)

    def files(mask=None) -> str:
        idx = np.unique(source_codes if mask is None else source_codes[mask])
        return _names(names[i] for i in idx)

    check_dense_table(table, files)  # (models, questions, 2) per task: what every analysis builds (README, Limits)
    model_codes = table["model"].cat.codes.to_numpy().astype(np.int64)
    task_codes = table["task"].cat.codes.to_numpy().astype(np.int64)
    question_codes = table["question_id"].cat.codes.to_numpy().astype(np.int64)
    n_m, n_t, n_q = (len(table[c].cat.categories) for c in ("model", "task", "question_id"))
    # each check is skipped when it cannot fail (fewer categories or rows than the limit)
    if n_m > lim.max_models:
        n_models = int(np.count_nonzero(np.bincount(model_codes, minlength=n_m)))
        if n_models > lim.max_models:
            raise InputError(
                _too_many("too many models", n_models, lim.max_models, "SCORIO_MAX_MODELS", "load fewer models at a time"),
                source=files(),
            )
    if n_q > lim.max_questions:
        pairs = pd.unique(task_codes * n_q + question_codes)  # hash-based, no sort
        per_task = np.bincount(pairs // n_q, minlength=n_t)
        worst = int(per_task.argmax())
        if per_task[worst] > lim.max_questions:
            task = table["task"].cat.categories[worst]
            raise InputError(
                _too_many(f"too many questions in task {str(task)[:80]!r}", int(per_task[worst]), lim.max_questions,
                          "SCORIO_MAX_QUESTIONS", "split the task"),
                source=files(task_codes == worst),
            )
    if layout == "counts":
        n_trials = table["n_trials"].to_numpy()
        if len(n_trials) == 0 or (int(n_trials.max()) <= lim.max_trials and float(n_trials.sum(dtype=np.float64)) <= lim.max_trials):
            return
    elif len(table) <= lim.max_trials:
        return
    if float(n_m) * n_t * n_q < 2.0**62:
        cells, _ = pd.factorize((model_codes * n_t + task_codes) * n_q + question_codes)
    else:  # pragma: no cover - astronomically many categories: let pandas compress the key
        cells = table.groupby(["model", "task", "question_id"], observed=True, sort=False).ngroup().to_numpy()
    per_cell = np.bincount(cells, weights=table["n_trials"].to_numpy(np.float64)) if layout == "counts" else np.bincount(cells)
    best = int(per_cell.argmax())
    most = int(per_cell[best])
    if most > lim.max_trials:
        cell = cells == best
        pos = int(np.flatnonzero(cell)[0])
        label = (f"model {str(table['model'].iat[pos])[:80]!r}, task {str(table['task'].iat[pos])[:80]!r}, "
                 f"question {str(table['question_id'].iat[pos])[:80]!r}")
        raise InputError(
            _too_many(f"too many trials for one question ({label})", most, lim.max_trials, "SCORIO_MAX_TRIALS",
                      "check for duplicated rows, load fewer trials"),
            source=files(cell),
        )


def _guard(src: Source, fn):
    """Run a reader; unexpected exceptions become an InputError naming the file."""
    try:
        return fn()
    except InputError as exc:
        raise (exc if exc.source else exc.with_source(src.name)) from None
    except RecursionError:
        raise InputError(
            "is nested too deeply to parse (e.g. thousands of JSON brackets); check that it is a genuine eval dump.",
            source=src.name,
        ) from None
    except MemoryError:
        raise InputError(
            "is too large for this server's memory once decompressed and parsed (see README, Limits).", source=src.name
        ) from None
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        raise InputError(f"cannot read the file ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'no detail'}); check its format or pass --format.", source=src.name) from exc


def _read_one(src: Source, fmt: str, mapping, results: dict, used_results: set[str],
              reading=(None, None, False)) -> list[Part]:
    def run() -> list[Part]:
        if fmt in _TABLES or fmt in NAMED_TABLES:  # outcomes read as given (recoded labels, a scale, errors as missing)
            table, namer = NAMED_TABLES.get(fmt, (fmt, None))
            raw = read_table(src, table, mapping, scale=reading[1])
            return [read_as_given(namer(raw, src, mapping) if namer else raw, src, fmt, *reading)]
        if (reader := {"npz": read_npz, "scorio-jsonl": read_scorio_jsonl, "scorio-verifier": read_scorio_verifier,
                       **READERS}.get(fmt)):
            return [reader(src, mapping)]
        if fmt in ("inspect-eval", "inspect-json"):
            return [read_inspect(src, fmt, mapping)]
        if fmt == "helm":
            return [read_helm(helm_group(src), mapping)]
        if fmt in ("xlsx", "ods"):  # each sheet with data read as its CSV
            return [read_as_given(read_table(s, "csv", mapping, scale=reading[1]), s, fmt, *reading)
                    for s in workbook_sheets(src)]
        if fmt == "swebench-instance":
            return [read_swebench_instances(src, mapping)]
        if fmt in ERROR_AWARE:  # SWE-bench, promptfoo, aider, tau-bench, Harbor: errored attempts as the tool counts them
            out = ERROR_AWARE[fmt](src, mapping, errors_missing=reading[2])
            return out if isinstance(out, list) else [out]
        if fmt == "lm-eval-samples":
            doc = match_results(src, results, used_results)
            return [read_lm_eval_samples(src, mapping, doc)]
        raise InputError(f"format {fmt!r} has no reader.", source=src.name)

    return _guard(src, run)


def _results_docs(detected) -> dict[str, tuple[str | None, dict]]:
    """``{results_key(src): (timestamp, document)}`` of the lm-eval results files (keyed by path: one file name can
    sit in several model folders)."""
    return {results_key(src): (results_timestamp(src.inner_name), _guard(src, lambda s=src: load_results_json(s)))
            for src, f in detected if f == "lm-eval-results"}


def _group_helm(srcs: list[Source], fmt: str | None) -> list[Source]:
    """Group HELM run files: uploads together form one run; paths join their folder."""
    if fmt not in (None, "helm"):
        return srcs
    core = {"per_instance_stats.json", "scenario_state.json", "run_spec.json"}
    names = {s.name for s in srcs if not s.is_dir}
    # stats.json / scenario.json alone are ordinary JSON; with a run's core files they join it
    helm_names = HELM_FILES if names & core else set()
    loose = [s for s in srcs if not s.is_dir and s.name in helm_names]
    if not loose:
        return srcs
    out = [s for s in srcs if s not in loose]
    uploads = [s for s in loose if s.path is None]
    if uploads:
        names = [s.name for s in uploads]
        if names.count("per_instance_stats.json") > 1:
            raise InputError("several per_instance_stats.json uploads: upload one HELM run at a time, or load the run folders by path.")
        run = Source(name="helm-run", is_dir=True, members={s.name: s for s in uploads})
        out.append(run)
    seen: set = set()
    for s in loose:
        if s.path is not None and s.path.parent not in seen:
            seen.add(s.path.parent)
            out.append(helm_group(s))
    return out


def source_columns(source, format: str | None = None) -> tuple[str, ...]:
    """Column names of a generic table (CSV/TSV/JSONL/JSON records/Parquet).

    For the app's mapping widget: read the columns, call :func:`infer_mapping`, let the
    user pick, then call :func:`load` with ``mapping=``.

    Raises
    ------
    InputError
        If the source is not a generic table or cannot be read.
    """
    srcs = as_sources(source)
    if len(srcs) != 1:
        raise InputError("pass exactly one file to read its columns.")
    src = srcs[0]
    fmt = check_format(format) or _guard(src, lambda: detect_source_format(src))
    if fmt in ("xlsx", "ods"):  # the first sheet with data
        return tuple(_guard(src, lambda: table_columns(workbook_sheets(src)[0], "csv")))
    tables = {"scorio-jsonl": "jsonl", **{k: table for k, (table, _) in NAMED_TABLES.items()}}
    if fmt not in _TABLES and fmt not in tables:
        raise InputError(f"format '{fmt}' has fixed fields, not free columns; only --map is_correct applies.", source=src.name)
    return tuple(_guard(src, lambda: table_columns(src, tables.get(fmt, fmt))))


def guess_mapping(source, format: str | None = None, mapping: Mapping[str, str] | None = None) -> MappingGuess:
    """Guess the column mapping of one generic table (for the app's mapping widget).

    Parameters
    ----------
    source : path, upload or (name, bytes) tuple
        One CSV/TSV/JSONL/JSON/Parquet table.
    format : str, optional
        Format override (see :data:`SUPPORTED_FORMATS`).
    mapping : dict of str to str, optional
        The user's picks so far, ``{canonical_name: source_column}``.

    Returns
    -------
    MappingGuess
        :func:`infer_mapping` on the table's columns (a response matrix's with ``FIELD=@columns``:
        :func:`scorio_core.io.formats.matrix.guess_mapping`).

    Raises
    ------
    InputError
        If the source is not a generic table, cannot be read, or ``mapping`` is invalid.
    """
    srcs = as_sources(source)
    return matrix_mapping(source_columns(srcs[0], format), mapping, source=srcs[0].name)
