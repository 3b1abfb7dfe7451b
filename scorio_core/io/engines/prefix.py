"""Prefix counts for rank trajectories, computed in DuckDB (attempt rows never reach pandas).

Every binary trajectory metric (Bayes@n under any prior, avg@n, the Pass@k family) after n
trials is a mean over questions of a function of the question's state ``(min(n, N_q), c)``,
``c`` = correct answers among its first ``min(n, N_q)`` trials. DuckDB computes ``c`` with a
running-sum window in trial order and returns the histogram of states, one row per
(model, n, c) (at most ``L x N_max (N_max + 1) / 2`` rows, never more than the attempts);
questions that ran out of trials (ragged data, ``N_q < n``) are carried forward in numpy from
the per-question final counts that validation already produced.

Safety as in :mod:`scorio_core.io.engines.duckdb_engine`: every constant is a prepared-statement
parameter, column names go through :func:`~scorio_core.io.engines.quote_ident` only.
See docs/scale.md and :func:`scorio_core.dynamics.prefix.trajectory_from_prefix_stats`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from scorio_core.dynamics.prefix import StateCounts
from scorio_core.errors import InputError
from scorio_core.io.engines._sql import EngineUnsupported

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
        :func:`scorio_core.io.engines.load_counts`).
    mapping, format, memory_limit, temp_directory, threads, hash_files
        As :func:`scorio_core.io.engines.load_counts`.
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

    from scorio_core.analysis import pick_task
    from scorio_core.io._canonical import natural_key
    from scorio_core.io.engines.duckdb_engine import count_attempts
    from scorio_core.io.engines.duckdb_inputs import connect, duck_error, engine_files, prepare_inputs, source_infos

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
                raise InputError(f"task '{task}': no question was answered by every selected model; "
                                 "select fewer models to build a complete block.")
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
    finally:
        con.close()
    lengths = n_trials[keep]
    n_max = int(lengths.max())
    n_min = int(lengths.min())
    live = StateCounts(_positions(models, np.asarray(rows["model"], dtype=object).astype(str)),
                       np.asarray(rows["n"], dtype=np.int64), np.asarray(rows["c"], dtype=np.int64),
                       np.asarray(rows["h"], dtype=np.int64))
    final = StateCounts.of(_positions(models, cell_model[keep]), lengths, n_correct[keep])
    notes = []
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
