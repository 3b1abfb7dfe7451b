"""Prefix counts for rank trajectories, computed in DuckDB (attempt rows never reach pandas).

Every binary trajectory metric (Bayes@n under any prior, avg@n, the Pass@k family) after n
trials is a mean over questions of a function of the question's state ``(min(n, N_q), c)``,
``c`` = correct answers among its first ``min(n, N_q)`` trials. DuckDB computes ``c`` with a
running-sum window in trial order and returns the histogram of states, one row per
(model, n, c) (at most ``L x N_max (N_max + 1) / 2`` rows, never more than the attempts);
questions that ran out of trials (ragged data, ``N_q < n``) are carried forward in numpy from
the per-question final counts that validation already produced.

Safety as in :mod:`scorio_core.engines.duckdb_engine`: every constant is a prepared-statement
parameter, column names go through :func:`~scorio_core.engines.quote_ident` only.
See docs/scale.md and :func:`scorio_core.dynamics.prefix.trajectory_from_prefix_stats`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from scorio_core.dynamics.prefix import StateCounts
from scorio_core.errors import InputError
from scorio_core.engines._sql import EngineUnsupported, NotReadyError
from scorio_core.io.formats.path_names import shared_stem_refusal

__all__ = ["PrefixStats", "prefix_stats"]


@dataclass(frozen=True, eq=False)
class PrefixStats:
    """Per-(model, n) question-state histograms of one task's rank trajectory.

    Questions are the task's questions every model answered (as ``Outcomes.complete_block``
    keeps them); question q of model l has ``N_lq`` trials in trial-column order and ``c_lq(n)``
    correct among its first ``min(n, N_lq)``.

    Attributes
    ----------
    task : str
    models : tuple of str, length L
        In order of first appearance in the input rows (as the pandas loader orders them).
    n_questions : int
        M, the questions kept.
    n : ndarray of int64, shape (N_max,)
        1..N_max.
    live : StateCounts
        For every n, how many questions with ``N_lq >= n`` have ``c_lq(n) = c``: rows
        ``(model index, n, c, count)``.
    final : StateCounts
        Every question's state on all its trials: rows ``(model index, N_lq, c, count)``.
    notes : tuple of str
        What was left out (questions not answered by every model) and whether cells are ragged,
        worded as the pandas path words them.
    sources : tuple of SourceInfo
    n_attempts : int
        Attempt rows of all tasks that were validated.
    """

    task: str
    models: tuple[str, ...]
    n_questions: int
    n: np.ndarray
    live: StateCounts
    final: StateCounts
    notes: tuple[str, ...]
    sources: tuple
    n_attempts: int

    @property
    def ragged(self) -> bool:
        """Whether some kept cell has fewer than ``N_max`` trials."""
        return bool((self.final.n < self.n.size).any())


def prefix_stats(
    paths,
    *,
    mapping: Mapping[str, str] | None = None,
    format: str | None = None,
    memory_limit: str | None = "2GB",
    temp_directory: str | None = None,
    threads: int | None = None,
    task: str | None = None,
    hash_files: bool = True,
) -> PrefixStats:
    """Prefix-count statistics of one task's attempt files, computed in DuckDB.

    Parameters
    ----------
    paths : str, os.PathLike or sequence of them
        Files, folders and globs of CSV/TSV/Parquet/JSONL attempt tables (as
        :func:`scorio_core.engines.load_counts`).
    mapping, format, memory_limit, temp_directory, threads, hash_files
        As :func:`scorio_core.engines.load_counts`.
    task : str, optional
        The task; required when the data hold several.

    Returns
    -------
    PrefixStats
        State histograms; one row per (model, n, c) comes back from DuckDB plus the count
        table used for validation (one row per (model, task, question)).

    Raises
    ------
    InputError
        Bad values (naming file and field, as the counts engine), several tasks and no
        ``task`` (listing them), an unknown task, no question answered by every model.
    NotReadyError
        Duplicate (model, task, question, trial) keys, non-binary or missing outcomes.
    EngineUnsupported
        Count tables, tables without a trial column (no trial order), formats or layouts the
        DuckDB engine does not read.
    """
    import duckdb

    from scorio_core.leaderboard.table import pick_task
    from scorio_core.io._canonical import natural_key
    from scorio_core.engines.duckdb_count import count_attempts
    from scorio_core.engines.duckdb_inputs import connect, duck_error, engine_files, prepare_inputs, source_infos

    files = engine_files(paths, format)
    con = connect(memory_limit, temp_directory, threads)
    try:
        prep = prepare_inputs(con, files, mapping, positions=True)
        if prep.layout != "attempts":
            raise EngineUnsupported("trajectories need attempt rows in trial order; these are count tables (use "
                                    "`convergence --bootstrap row`).", source=", ".join(g.label for g in prep.groups))
        if not prep.with_trial:
            raise EngineUnsupported("trajectories with --engine duckdb need a trial column (the trial order); use "
                                    "--engine pandas.", source=", ".join(g.label for g in prep.groups))
        canon, params = prep.canon, prep.params
        try:
            cells, per_file, n_attempts = count_attempts(con, canon, params, prep.groups, True)
            tasks = sorted({str(t) for t in np.asarray(cells["task"], dtype=object)}, key=natural_key)
            task = pick_task(tasks, task)
            in_task = np.asarray(cells["task"], dtype=object) == task
            cell_model = np.asarray(cells["model"], dtype=object)[in_task].astype(str)
            cell_q = np.asarray(cells["question_id"], dtype=object)[in_task].astype(str)
            n_trials = np.asarray(cells["n_trials"], dtype=np.int64)[in_task]
            n_correct = np.asarray(cells["n_correct"], dtype=np.int64)[in_task]
            # models in order of first appearance: (file in argument order, row within the file)
            rank = {f.path: i for i, f in enumerate(files)}
            firsts = con.execute(f"SELECT model, file, min(pos) FROM ({canon}) WHERE task = ? GROUP BY ALL",
                                 params + [task]).fetchall()
            first: dict[str, tuple[int, int]] = {}
            for m, f, p in firsts:
                key = (rank.get(f, len(rank)), int(p))
                if m not in first or key < first[m]:
                    first[m] = key
            models = tuple(sorted(first, key=first.__getitem__))
            L = len(models)
            q_uniq, q_code, q_cells = np.unique(cell_q, return_inverse=True, return_counts=True)
            keep_q = q_cells == L
            if not keep_q.any():
                raise InputError(f"task '{task}': no question was answered by every model; rank a subset "
                                 "of models that share questions: --models A B ... (the pandas engine).")
            dropped = int((~keep_q).sum())
            keep = keep_q[q_code]
            where = "task = ?"
            extra: list = [task]
            if dropped:
                import pandas as pd

                con.register("__keep", pd.DataFrame({"question_id": q_uniq[keep_q].astype(object)}))
                where += " AND question_id IN (SELECT question_id FROM __keep)"
            window = "PARTITION BY model, question_id ORDER BY trial"
            rows = con.execute(
                f"SELECT model, n, c, count(*)::BIGINT AS h FROM ("
                f"SELECT model, row_number() OVER ({window}) AS n, "
                f"CAST(sum(CAST(o AS BIGINT)) OVER ({window} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS BIGINT) AS c "
                f"FROM ({canon}) WHERE {where}) GROUP BY model, n, c",
                params + extra,
            ).fetchnumpy()
        except duckdb.Error as exc:
            raise duck_error(exc, prep.groups[0], prep.guesses[0]) from None
        except NotReadyError as exc:  # files of one name in several folders: not to be merged
            raise shared_stem_refusal(exc, prep.groups, prep.guesses) from None
    finally:
        con.close()
    lengths = n_trials[keep]
    n_max = int(lengths.max())
    n_min = int(lengths.min())
    live = StateCounts(_positions(models, np.asarray(rows["model"], dtype=object).astype(str)),
                       np.asarray(rows["n"], dtype=np.int64), np.asarray(rows["c"], dtype=np.int64),
                       np.asarray(rows["h"], dtype=np.int64))
    final = StateCounts.of(_positions(models, cell_model[keep]), lengths, n_correct[keep])
    # per-model files joined into one task decide what is ranked together: said as the pandas path says it
    from scorio_core.io._merge import PER_MODEL_WORDS

    from scorio_core.engines._sql import recorded_error_notes
    from scorio_core.io.formats.trial_lists import trial_list_notes

    notes = [d for d in prep.defaults if PER_MODEL_WORDS in d] + trial_list_notes(prep.groups, per_file)
    notes += recorded_error_notes(prep.groups, cells["errors_by_file"])
    if dropped:
        notes.append(f"{dropped} of {q_uniq.size} questions not answered by every model were left out")
    if n_max > n_min:
        notes.append(f"every trial kept: cells have {n_min}-{n_max} trials (ragged)")
    return PrefixStats(
        task=task,
        models=models,
        n_questions=int(keep_q.sum()),
        n=np.arange(1, n_max + 1, dtype=np.int64),
        live=live,
        final=final,
        notes=tuple(notes),
        sources=source_infos(prep, per_file, hash_files),
        n_attempts=n_attempts,
    )


def _positions(names: tuple[str, ...], values: np.ndarray) -> np.ndarray:
    """Index of each value in ``names`` (every value is one of them), vectorised."""
    arr = np.asarray(names, dtype=str)
    order = np.argsort(arr, kind="stable")
    return order[np.searchsorted(arr[order], values.astype(str))].astype(np.int64)


def prefix_by_task(con, canon: str, params: list, table, sources: tuple = (), n_attempts: int = 0) -> dict[str, PrefixStats]:
    """Prefix-count statistics of every task in one DuckDB window pass (the counts engine's ``trial_prefix``).

    Run on the connection that just counted the rows (same canonical ``SELECT``), so the
    questions kept per task are those of the count table ``table`` that every model of the
    task answered (as ``Outcomes.complete_block`` keeps them).

    Parameters
    ----------
    con : duckdb.DuckDBPyConnection
    canon, params : str, list
        The canonical ``SELECT`` of attempt rows with a trial column and its parameters.
    table : pandas.DataFrame
        The count table of these rows (``model, task, question_id`` categorical, ``n_trials``,
        ``n_correct``), one row per cell.
    sources : tuple of SourceInfo
    n_attempts : int

    Returns
    -------
    dict of str to PrefixStats
        One entry per task with a question every model answered; ``models`` in the count
        table's (natural) order.

    Raises
    ------
    duckdb.Error
        From the window query (the caller maps it to a one-line :class:`InputError`).
    """
    keep = complete_cells(table)
    if keep is None:
        return {}
    where, extra = "", []
    if not keep.all():
        con.register("__keep", kept_pairs(table, keep))
        where = "WHERE (task, question_id) IN (SELECT task, question_id FROM __keep)"
    window = "PARTITION BY task, model, question_id ORDER BY trial"
    rows = con.execute(
        f"SELECT task, model, n, c, count(*)::BIGINT AS h FROM ("
        f"SELECT task, model, row_number() OVER ({window}) AS n, "
        f"CAST(sum(CAST(o AS BIGINT)) OVER ({window} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS BIGINT) AS c "
        f"FROM ({canon}) {where}) GROUP BY task, model, n, c",
        params + extra,
    ).fetchnumpy()
    return assemble_by_task(table, keep, rows, sources, n_attempts)


def complete_cells(table) -> np.ndarray | None:
    """Which rows (cells) of a count table belong to a question every model of its task answered (None: no rows)."""
    t, m, q = (np.asarray(table[k].cat.codes, dtype=np.int64) for k in ("task", "model", "question_id"))
    T, L, Q = (len(table[k].cat.categories) for k in ("task", "model", "question_id"))
    if t.size == 0:
        return None
    models_in = np.zeros((T, L), dtype=bool)
    models_in[t, m] = True
    per_tq = np.bincount(t * Q + q, minlength=T * Q)  # models per (task, question): one row per cell
    return per_tq[t * Q + q] == models_in.sum(axis=1)[t]


def kept_pairs(table, keep: np.ndarray):
    """The (task, question_id) pairs of the kept cells, as a DataFrame of str (to semi-join in SQL)."""
    import pandas as pd

    Q = len(table["question_id"].cat.categories)
    t, q = (np.asarray(table[k].cat.codes, dtype=np.int64) for k in ("task", "question_id"))
    pairs = np.unique(t[keep] * Q + q[keep])
    return pd.DataFrame({"task": table["task"].cat.categories.to_numpy(dtype=object)[pairs // Q],
                         "question_id": table["question_id"].cat.categories.to_numpy(dtype=object)[pairs % Q]})


def assemble_by_task(table, keep: np.ndarray, rows: Mapping, sources: tuple = (), n_attempts: int = 0) -> dict[str, PrefixStats]:
    """Per-task :class:`PrefixStats` from the state histogram rows ``task, model, n, c, h`` of an engine's window pass.

    ``keep`` (from :func:`complete_cells`) marks the count table's cells whose question every model of the
    task answered; the final states come from those cells, the live states from ``rows``.
    """
    tasks = table["task"].cat
    models = table["model"].cat
    t, m, q = (np.asarray(table[k].cat.codes, dtype=np.int64) for k in ("task", "model", "question_id"))
    T, L = len(tasks.categories), len(models.categories)
    models_in = np.zeros((T, L), dtype=bool)
    models_in[t, m] = True
    row_t = _codes(tasks.categories, np.asarray(rows["task"], dtype=object))
    row_m = _codes(models.categories, np.asarray(rows["model"], dtype=object))
    row_n, row_c, row_h = (np.asarray(rows[k], dtype=np.int64) for k in ("n", "c", "h"))
    n_trials, n_correct = table["n_trials"].to_numpy(np.int64), table["n_correct"].to_numpy(np.int64)
    # each task's cells and histogram rows as one slice of a stable sort (no pass over all rows per task)
    by_cell, by_row = np.argsort(t, kind="stable"), np.argsort(row_t, kind="stable")
    cell_bounds = np.searchsorted(t[by_cell], np.arange(T + 1))
    row_bounds = np.searchsorted(row_t[by_row], np.arange(T + 1))
    out: dict[str, PrefixStats] = {}
    for ti, task in enumerate(tasks.categories):
        mine_cells = by_cell[cell_bounds[ti]:cell_bounds[ti + 1]]
        cell = mine_cells[keep[mine_cells]]
        if not cell.size:
            continue
        present = np.flatnonzero(models_in[ti])  # the task's models, as indices into the categories
        local = np.full(L, -1, dtype=np.int64)
        local[present] = np.arange(present.size)
        mine = by_row[row_bounds[ti]:row_bounds[ti + 1]]
        lengths = n_trials[cell]
        n_max, n_min = int(lengths.max()), int(lengths.min())
        all_q = np.unique(q[mine_cells]).size
        kept_q = np.unique(q[cell]).size
        notes = []
        if kept_q < all_q:
            notes.append(f"{all_q - kept_q} of {all_q} questions not answered by every model were left out")
        if n_max > n_min:
            notes.append(f"every trial kept: cells have {n_min}-{n_max} trials (ragged)")
        out[str(task)] = PrefixStats(
            task=str(task),
            models=tuple(str(x) for x in models.categories[present]),
            n_questions=int(kept_q),
            n=np.arange(1, n_max + 1, dtype=np.int64),
            live=StateCounts.of(local[row_m[mine]], row_n[mine], row_c[mine], row_h[mine]),
            final=StateCounts.of(local[m[cell]], lengths, n_correct[cell]),
            notes=tuple(notes),
            sources=tuple(sources),
            n_attempts=int(n_attempts),
        )
    return out


def _codes(categories, values: np.ndarray) -> np.ndarray:
    """Index of each value (str) in ``categories`` (a pandas Index holding every value)."""
    codes = categories.get_indexer(values.astype(str).astype(object))
    if (codes < 0).any():
        raise InputError("prefix counts name a model or task the count table does not have; the files changed "
                         "while they were read.")
    return codes.astype(np.int64)
