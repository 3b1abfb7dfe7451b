"""Explicit user choices on a loaded dataset; each one is recorded in the new report."""

from __future__ import annotations

import dataclasses
import numbers

import numpy as np
import pandas as pd

from scorio_core.errors import InputError
from scorio_core.io._canonical import natural_categories
from scorio_core.io._dataset import Dataset
from scorio_core.choices import DUPLICATE_POLICIES, MISSING_POLICIES
from scorio_core.io.quality.compute import compute_report
from scorio_core.io.quality.report import PARTIAL_CREDIT_WORDS, graded_mask

__all__ = ["DUPLICATE_POLICIES", "MISSING_POLICIES", "apply_choices"]


def apply_choices(
    dataset: Dataset,
    *,
    binarize_threshold: float | None = None,
    missing_outcomes: str | None = None,
    duplicates: str | None = None,
    intersect_questions: bool = False,
) -> Dataset:
    """Return a new dataset with the user's data-quality choices applied and recorded.

    Choices run in this order: binarize, missing outcomes, duplicates, intersect.

    Parameters
    ----------
    dataset : Dataset
        As returned by :func:`scorio_core.io.load`; not modified.
    binarize_threshold : float in [0, 1], optional
        Set ``is_correct = 1.0 if score > threshold else 0.0`` for every attempt with a
        ``score`` (the AISBench convention uses 0.5). Attempts without a score keep their
        outcome.
    missing_outcomes : {"drop", "incorrect"}, optional
        Remove attempts that have no outcome, or count them as incorrect (0.0).
    duplicates : {"keep-first", "keep-last", "drop", "sum", "as-trials"}, optional
        For rows sharing a (model, task, question_id, trial) key ((model, task,
        question_id) for counts): keep the first or last row in load order, drop every row
        of such keys, (counts only) add their ``n_trials`` and ``n_correct``, or (attempts
        only) keep every row as an attempt of its own: ``as-trials`` renumbers the trials of
        each (model, task, question) 0, 1, ... in load order (source file, then the file's
        trial, then row), for files that are separate runs each numbering its trials from
        the start. Trials are exchangeable in Bayes@N; the renumbering fixes only the order
        trajectories read them in, which the record says.
    intersect_questions : bool, default False
        Keep, per task, only questions that every model of that task attempted.

    Returns
    -------
    Dataset
        New dataset; ``report.choices`` lists what was done with row counts.

    Raises
    ------
    InputError
        For an unknown policy, a threshold outside [0, 1], binarizing without a ``score``
        column, or ``sum`` on attempt data.
    """
    choices = list(dataset.report.choices)
    emptied = list(dataset.report.emptied)
    table = dataset.table.copy()
    row_source = dataset.row_source
    counts = dataset.layout == "counts"

    def keep(mask: np.ndarray) -> None:
        nonlocal table, row_source
        table = table[mask].reset_index(drop=True)
        if row_source is not None:
            row_source = row_source[mask]

    def record_emptied(before: pd.DataFrame, choice: str) -> None:
        """(model, task) pairs the last choice left without a row: said in its record, kept in ``emptied``."""
        lost = _pairs(before).difference(_pairs(table))
        if len(lost):
            emptied.extend((str(m), str(t), choice) for m, t in lost)
            shown = ", ".join(f"{m!s} on {t!s}" for m, t in list(lost)[:10]) + (", ..." if len(lost) > 10 else "")
            choices[-1] = (choices[-1].rstrip(".") + f"; no row left for {len(lost)} (model, task) "
                           f"pair{'s' if len(lost) > 1 else ''}, not ranked there: {shown}.")

    if binarize_threshold is not None:
        if isinstance(binarize_threshold, bool) or not isinstance(binarize_threshold, numbers.Real):
            raise InputError(f"binarize_threshold must be a number in [0, 1]; got {binarize_threshold!r}.", field="binarize_threshold")
        t = float(binarize_threshold)
        if not 0.0 <= t <= 1.0:
            raise InputError(f"binarize_threshold must satisfy 0 <= threshold <= 1; got {t}.", field="binarize_threshold")
        if counts or "score" not in table.columns:
            raise InputError("binarize_threshold needs a 'score' column; this data has none (map one with --map score=COLUMN).", field="binarize_threshold")
        score = pd.to_numeric(table["score"], errors="coerce").to_numpy(np.float64)
        has = ~np.isnan(score)
        before = table["is_correct"].to_numpy(np.float64)
        after = np.where(has, (score > t).astype(np.float64), before)
        changed = int(np.sum(has & (np.isnan(before) | (before != after))))
        table["is_correct"] = after
        choices.append(f"binarize_threshold={t:g}: is_correct = score > {t:g} for {int(has.sum())} attempts with a score ({changed} outcomes set or changed).")
    if missing_outcomes is not None:
        _check(missing_outcomes, MISSING_POLICIES, "missing_outcomes")
        if not counts:
            unknown = np.isnan(table["is_correct"].to_numpy(np.float64))
            if "category" in table.columns:
                unknown = unknown & table["category"].isna().to_numpy()
            unknown &= ~graded_mask(table)  # a graded score is an outcome (a threshold or a rubric reads it), not missing
            if missing_outcomes == "drop":
                before = table
                keep(~unknown)
                choices.append(f"missing_outcomes=drop: removed {int(unknown.sum())} attempts without an outcome.")
                record_emptied(before, "missing_outcomes=drop")
            else:
                per = table.loc[unknown, ["model", "task"]].groupby(["model", "task"], observed=True).size()
                per = per.sort_values(ascending=False, kind="stable")
                where = ", ".join(f"{m!s} on {t!s}: {int(c)}" for (m, t), c in per.head(10).items())
                table.loc[unknown, "is_correct"] = 0.0
                choices.append(f"missing_outcomes=incorrect: {int(unknown.sum())} attempts without an outcome counted as "
                               f"incorrect" + (f" ({where}{', ...' if len(per) > 10 else ''})" if len(per) else "") + ".")
    if duplicates is not None:
        _check(duplicates, DUPLICATE_POLICIES, "duplicates")
        keys = ["model", "task", "question_id"] + ([] if counts else ["trial"])
        codes = pd.DataFrame({k: (table[k].cat.codes if k != "trial" else table[k]) for k in keys})
        if duplicates == "sum":
            if not counts:
                raise InputError("duplicates='sum' applies to count tables only; use keep-first, keep-last or drop.", field="duplicates")
            before = len(table)
            agg = {c: ("sum" if c in ("n_trials", "n_correct") else "first") for c in table.columns if c not in keys}
            table = table.groupby(keys, observed=True, sort=False, as_index=False).agg(agg)
            row_source = None
            choices.append(f"duplicates=sum: {before - len(table)} duplicate rows added into their first row.")
        elif duplicates == "as-trials":
            if counts:
                raise InputError("duplicates='as-trials' applies to attempt tables (one row per attempt); a count table's "
                                 "repeated rows are added with 'sum'.", field="duplicates")
            repeated = int(codes.duplicated().sum())
            table["trial"] = _runs_as_trials(codes, row_source)
            choices.append(f"duplicates=as-trials: {repeated} repeated rows{_per_task(table, codes.duplicated().to_numpy())} "
                           "kept as further attempts; the trials of each (model, task, question) renumbered 0, 1, ... in "
                           "load order (file, then its trial), so files that are separate runs add up.")
        else:
            how = {"keep-first": "first", "keep-last": "last", "drop": False}[duplicates]
            dup = codes.duplicated(keep=how).to_numpy()
            before = table
            keep(~dup)
            choices.append(f"duplicates={duplicates}: removed {int(dup.sum())} rows{_per_task(before, dup)}.")
            record_emptied(before, f"duplicates={duplicates}")
    if intersect_questions:
        m, t, q = (table[k].cat.codes.to_numpy(np.int64) for k in ("model", "task", "question_id"))
        pairs = pd.DataFrame({"t": t, "q": q, "m": m}).drop_duplicates()
        per_q = pairs.groupby(["t", "q"]).size()
        per_t = pairs[["t", "m"]].drop_duplicates().groupby("t").size()
        full = per_q[per_q.to_numpy() == per_t.loc[per_q.index.get_level_values("t")].to_numpy()]
        keep_key = set(zip(full.index.get_level_values("t"), full.index.get_level_values("q")))
        total = len(per_q)
        mask = pd.MultiIndex.from_arrays([t, q]).isin(list(keep_key)) if keep_key else np.zeros(len(table), dtype=bool)
        before = table
        keep(np.asarray(mask))
        choices.append(f"intersect_questions: kept {len(keep_key)} of {total} (task, question) pairs that every model of the task attempted; removed {int((~np.asarray(mask)).sum())} rows.")
        record_emptied(before, "intersect_questions")
    for k in ("model", "task", "question_id"):
        table[k] = natural_categories(table[k])
    old = dataset.report
    notes = old.notes if binarize_threshold is None else tuple(  # correctness now comes from the score: not "read from"
        n for n in old.notes if PARTIAL_CREDIT_WORDS not in n)
    meta = {"sources": old.sources, "mappings": old.mappings, "defaults": old.defaults, "notes": notes, "choices": tuple(choices),
            "emptied": tuple(emptied), "reading": old.reading}
    report = compute_report(table, dataset.layout, row_source=row_source, source_names=tuple(s.name for s in dataset.sources), meta=meta)
    return dataclasses.replace(
        dataset,
        attempts=None if counts else table,
        counts=table if counts else None,
        report=report,
        row_source=row_source,
    )


def _runs_as_trials(codes: pd.DataFrame, row_source: np.ndarray | None) -> np.ndarray:
    """New trial numbers: the rank of each row within its (model, task, question) in (source, trial, row) order.

    Parameters
    ----------
    codes : pandas.DataFrame
        ``model``, ``task``, ``question_id`` as category codes and ``trial``, one row per attempt (length n).
    row_source : ndarray of shape (n,) or None
        Index of each row's source in load order (None: one source).

    Returns
    -------
    ndarray of int64, shape (n,)

    >>> c = pd.DataFrame({"model": [0, 0, 0, 0], "task": [0] * 4, "question_id": [0, 1, 0, 1], "trial": [0, 0, 0, 0]})
    >>> _runs_as_trials(c, np.array([0, 0, 1, 1])).tolist()
    [0, 0, 1, 1]
    """
    n = len(codes)
    source = np.zeros(n, np.int64) if row_source is None else np.asarray(row_source, np.int64)
    order = np.lexsort((np.arange(n), codes["trial"].to_numpy(np.int64), source, codes["question_id"].to_numpy(np.int64),
                        codes["task"].to_numpy(np.int64), codes["model"].to_numpy(np.int64)))
    keys = codes[["model", "task", "question_id"]].to_numpy(np.int64)[order]
    starts = np.r_[True, (keys[1:] != keys[:-1]).any(axis=1)] if n else np.zeros(0, bool)
    first = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    out = np.empty(n, np.int64)
    out[order] = np.arange(n) - first
    return out


def _per_task(table: pd.DataFrame, rows: np.ndarray) -> str:
    """``" (code: 340, math: 250)"``: where the marked ``rows`` of a table of several tasks are, most first (at most
    ten); "" for one task, so a leaderboard of another task does not read the count as its own."""
    task = table["task"].astype("category")
    if len(task.cat.categories) < 2 or not rows.any():
        return ""
    per = pd.Series(np.bincount(task.cat.codes.to_numpy(np.int64)[rows], minlength=len(task.cat.categories)),
                    index=task.cat.categories)
    per = per[per > 0].sort_values(ascending=False, kind="stable")
    return " (" + ", ".join(f"{t!s}: {int(c)}" for t, c in per.head(10).items()) + (", ..." if len(per) > 10 else "") + ")"


def _check(value: object, allowed: tuple[str, ...], name: str) -> None:
    if value not in allowed:
        raise InputError(f"{name} must be one of {', '.join(repr(a) for a in allowed)}; got {value!r}.", field=name)


def _pairs(table: pd.DataFrame) -> pd.MultiIndex:
    """Distinct (model, task) pairs with at least one row, as strings (vectorised over the category codes)."""
    model, task = table["model"].astype("category"), table["task"].astype("category")
    width = len(task.cat.categories) + 1
    codes = model.cat.codes.to_numpy(np.int64) * width + task.cat.codes.to_numpy(np.int64)
    span = (len(model.cat.categories) + 1) * width
    key = np.flatnonzero(np.bincount(codes, minlength=span)) if span <= 5 * 10**7 else np.unique(codes)  # O(rows)
    m, t = np.divmod(key, width)
    names_m, names_t = np.asarray(model.cat.categories, dtype=object), np.asarray(task.cat.categories, dtype=object)
    return pd.MultiIndex.from_arrays([names_m[m].astype(str), names_t[t].astype(str)])
