"""DuckDB counts engine: attempt-level files -> count table in SQL, out of core.

The attempt table never reaches pandas: DuckDB scans the files (CSV/TSV/Parquet/JSONL, gzip,
many files at once), validates every value with SQL predicates and tallies
``(model, task, question_id) -> n_trials, n_correct``. Only the count table (one row per
cell) and, on bad input, one example row come back to Python. How the files are read and
mapped (the canonical ``SELECT``) is :mod:`scorio_core.engines.duckdb_inputs`.

Safety: file paths, file stems and every constant travel as prepared-statement parameters;
column names come from the files' own schemas (checked by :func:`infer_mapping`) and are
spliced only through :func:`quote_ident`. User text is never formatted into SQL.
"""

from __future__ import annotations

from collections.abc import Mapping

from scorio_core.io._dataset import Dataset
from scorio_core.io.quality.compute import compute_report
from scorio_core.io.formats.path_names import shared_stem_refusal
from scorio_core.engines._sql import NotReadyError, engine_notes
from scorio_core.engines.duckdb_count import count_attempts, count_counts
from scorio_core.engines.duckdb_inputs import connect, duck_error, engine_files, prepare_inputs, source_infos
from scorio_core.engines.frames import count_frame
from scorio_core.limits import check_dense_table

__all__ = ["load_counts_duckdb"]


def load_counts_duckdb(
    paths,
    *,
    mapping: Mapping[str, str] | None = None,
    format: str | None = None,
    memory_limit: str | None = "2GB",
    temp_directory: str | None = None,
    threads: int | None = None,
    hash_files: bool = True,
    trial_prefix: bool = False,
) -> Dataset:
    """Count attempt-level (or count-level) table files with DuckDB; see :func:`scorio_core.engines.load_counts`."""
    import duckdb

    files = engine_files(paths, format)
    con = connect(memory_limit, temp_directory, threads)
    try:
        prep = prepare_inputs(con, files, mapping)
        layout = prep.layout
        try:
            if layout == "counts":
                cells, per_file = count_counts(con, prep.canon, prep.params, prep.groups)
            else:
                cells, per_file, n_attempts = count_attempts(con, prep.canon, prep.params, prep.groups, prep.with_trial)
            table = count_frame(cells)
            cells_partial, cells_errors = cells.get("partial_by_file", {}), cells.get("errors_by_file", {})
            del cells
            infos = source_infos(prep, per_file, hash_files)
            split_ids = _ids_split_by_file(con, prep, table) if layout == "attempts" else []
            prefix = None
            if trial_prefix and layout == "attempts" and prep.with_trial:
                from scorio_core.engines.prefix import prefix_by_task

                prefix = prefix_by_task(con, prep.canon, prep.params, table, infos, n_attempts)
        except duckdb.Error as exc:
            raise duck_error(exc, prep.groups[0], prep.guesses[0]) from None
        except NotReadyError as exc:  # files of one name in several folders: not to be merged
            raise shared_stem_refusal(exc, prep.groups, prep.guesses) from None
    finally:
        con.close()
    check_dense_table(table, [i.name for i in infos])
    notes = engine_notes(prep.groups, prep.guesses, layout, cells_partial, per_file, cells_errors)
    if layout == "attempts" and prefix is not None:
        notes.append(f"{n_attempts:,} attempts counted by the DuckDB engine into {len(table):,} (model, task, question) "
                     "cells; trial order is kept as prefix counts (correct answers among the first n trials), "
                     "so observed rank trajectories are exact.")
    elif layout == "attempts":
        notes.append(f"{n_attempts:,} attempts counted by the DuckDB engine into {len(table):,} (model, task, question) "
                     "cells; trial order is not kept (`trajectory --engine duckdb` computes prefix counts itself).")
    meta = {
        "sources": tuple((i.name, i.format) for i in infos),
        "mappings": tuple((i.name, i.mapping) for i in infos),
        "defaults": tuple(prep.defaults),
        "notes": tuple(notes + split_ids),
    }
    names = tuple(i.name for i in infos)
    report = compute_report(table, "counts", source_names=names, meta=meta)
    return Dataset(attempts=None, counts=table, report=report, sources=infos, trial_prefix=prefix)


def _ids_split_by_file(con, prep, table) -> list[str]:
    """The pandas loader's note on question ids written two ways, one way per file (``'7'`` in one run, ``'007'`` in
    another: :func:`scorio_core.io.quality.names.ids_split_by_file`), from the distinct (file, model, task, id) rows
    of the clashing ids only; none with one file or no clash."""
    import pandas as pd

    from scorio_core.io.quality.names import _id_key, similar_ids_notes

    paths = [p for g in prep.groups for p in g.paths]
    ids = table["question_id"].cat.categories
    clash = [str(i) for i in ids[_id_key(ids).duplicated(keep=False).to_numpy()]]
    if len(paths) < 2 or not clash:
        return []
    rows = con.execute(f"SELECT DISTINCT file, model, task, question_id FROM ({prep.canon}) WHERE question_id IN "
                       "(SELECT unnest(?::VARCHAR[]))", [*prep.params, clash]).df()
    frame = rows[["model", "task", "question_id"]].astype(str).astype("category")
    return similar_ids_notes(frame, pd.Categorical(rows["file"].astype(str), categories=paths).codes)
