"""Prefix counts for rank trajectories, computed in DuckDB (attempt rows never reach pandas).

A Bayes@n / avg@n trajectory with a fixed Beta prior needs, for every model and every number
of trials n, only sums over questions of ``c`` and ``c^2`` (``c`` = correct answers among the
question's first ``min(n, N_q)`` trials) and how many questions contribute. DuckDB computes
``c`` with a running-sum window in trial order, groups by (model, n) and returns ``L x N_max``
rows; questions that ran out of trials (ragged data, ``N_q < n``) are carried forward in numpy
from the per-question final counts that validation already produced.

Safety as in :mod:`scorio_core.io.engines.duckdb_engine`: every constant is a prepared-statement
parameter, column names go through :func:`~scorio_core.io.engines.quote_ident` only.
See docs/scale.md and :func:`scorio_core.dynamics.prefix.trajectory_from_prefix_stats`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from scorio_core.errors import InputError
from scorio_core.io.engines._sql import EngineUnsupported

__all__ = ["PrefixStats", "prefix_stats"]


@dataclass(frozen=True, eq=False)
class PrefixStats:
    """Per-(model, n) sufficient statistics of one task's rank trajectory.

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
    live_k, live_s1, live_s2 : ndarray of int64, shape (L, N_max)
        Over questions with ``N_lq >= n``: their number, ``sum c_lq(n)`` and ``sum c_lq(n)^2``
        (column ``n - 1``).
    done_k, done_s1, done_s2 : ndarray of int64, shape (L, N_max)
        Over questions with exactly ``N_lq = j + 1`` trials (column ``j``): their number and
        the sums of their final ``c`` and ``c^2`` (they contribute these for every n > N_lq).
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
    live_k: np.ndarray
    live_s1: np.ndarray
    live_s2: np.ndarray
    done_k: np.ndarray
    done_s1: np.ndarray
    done_s2: np.ndarray
    notes: tuple[str, ...]
    sources: tuple
    n_attempts: int

    @property
    def ragged(self) -> bool:
        """Whether some kept cell has fewer than ``N_max`` trials."""
        return bool(self.done_k[:, :-1].any())


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
        Arrays of shape (L, N_max); ``L x N_max`` rows come back from DuckDB plus the count
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
    from scorio_core.io.engines.duckdb_engine import (
        _connect,
        _count_attempts,
        _duck_error,
        engine_files,
        prepare_inputs,
        source_infos,
    )

    files = engine_files(paths, format)
    con = _connect(memory_limit, temp_directory, threads)
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
            cells, per_file, n_attempts = _count_attempts(con, canon, params, prep.groups, True)
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
                f"SELECT model, n, count(*)::BIGINT AS k, sum(c)::BIGINT AS s1, sum(c * c)::BIGINT AS s2 FROM ("
                f"SELECT model, row_number() OVER ({window}) AS n, "
                f"sum(CAST(o AS BIGINT)) OVER ({window} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS c "
                f"FROM ({canon}) WHERE {where}) GROUP BY model, n",
                params + extra,
            ).fetchnumpy()
        except duckdb.Error as exc:
            raise _duck_error(exc, prep.groups[0], prep.guesses[0]) from None
    finally:
        con.close()
    lengths = n_trials[keep]
    n_max = int(lengths.max())
    n_min = int(lengths.min())
    live = np.zeros((3, L, n_max), dtype=np.int64)
    li = _positions(models, np.asarray(rows["model"], dtype=object).astype(str))
    ni = np.asarray(rows["n"], dtype=np.int64) - 1
    for j, key in enumerate(("k", "s1", "s2")):
        live[j, li, ni] = np.asarray(rows[key], dtype=np.int64)
    flat = _positions(models, cell_model[keep]) * n_max + lengths - 1
    c = n_correct[keep]
    done = np.stack([np.bincount(flat, weights=v, minlength=L * n_max) for v in (np.ones_like(c), c, c * c)])
    done = np.rint(done).astype(np.int64).reshape(3, L, n_max)
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
        live_k=live[0], live_s1=live[1], live_s2=live[2],
        done_k=done[0], done_s1=done[1], done_s2=done[2],
        notes=tuple(notes),
        sources=source_infos(prep, per_file, hash_files),
        n_attempts=n_attempts,
    )


def _positions(names: tuple[str, ...], values: np.ndarray) -> np.ndarray:
    """Index of each value in ``names`` (every value is one of them), vectorised."""
    arr = np.asarray(names, dtype=str)
    order = np.argsort(arr, kind="stable")
    return order[np.searchsorted(arr[order], values.astype(str))].astype(np.int64)
