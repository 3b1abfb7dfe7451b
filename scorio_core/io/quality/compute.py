"""The data-quality report returned with every load, computed with array operations.

The report's types and blocking messages are :mod:`scorio_core.io.quality.report` (re-exported here).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scorio_core.io.quality.report import (
    EXAMPLES,
    DuplicateKey,
    QualityReport,
    QuestionGap,
    TrialSpread,
    _jsonable,
    blocking_messages,
    graded_mask,
)
from scorio_core.io.quality.names import near_duplicate_names, similar_ids_notes

__all__ = [
    "DuplicateKey",
    "QualityReport",
    "QuestionGap",
    "TrialSpread",
    "blocking_messages",
    "compute_report",
]


def compute_report(
    table: pd.DataFrame,
    layout: str,
    *,
    row_source: np.ndarray | None = None,
    source_names: tuple[str, ...] = (),
    meta: dict | None = None,
) -> QualityReport:
    """Compute the data-derived fields of the report; ``meta`` carries the rest."""
    meta = dict(meta or {})
    model, task, question = table["model"], table["task"], table["question_id"]
    m = model.cat.codes.to_numpy()
    t = task.cat.codes.to_numpy()
    q = question.cat.codes.to_numpy()
    L, T, Q = len(model.cat.categories), len(task.cat.categories), len(question.cat.categories)
    mnames, tnames, qnames = model.cat.categories, task.cat.categories, question.cat.categories
    counts_layout = layout == "counts"
    # 'gpt-4o' and 'gpt-4o ', 'GSM8K' and 'gsm8k' are two models, two tasks: say so before a table shows both (every engine)
    said = [near_duplicate_names(names[np.bincount(codes, minlength=len(names)) > 0], what)
            for codes, names, what in ((m, mnames, "model"), (t, tnames, "task"))]
    meta["notes"] = tuple(dict.fromkeys((*meta.get("notes", ()), *said[0], *said[1])))
    if counts_layout:
        grid = _grid_report(table, m, t, q, (mnames, tnames, qnames, Q))
        if grid is not None:  # one row per cell, every model on the same questions: no cell keys needed
            return QualityReport(layout=layout, n_rows=len(table), **grid, blocking=(), **meta)

    # cells (task, question, model) and trials per cell
    row_tq = t.astype(np.int64)  # (task, question) of each row, then the cell key: in place, two int64 arrays
    row_tq *= Q
    row_tq += q
    key = row_tq * L
    key += m
    if not counts_layout:
        del row_tq
        row_tq = None
    weights = table["n_trials"].to_numpy(np.float64) if counts_layout else None
    cells, per_cell, row_cell, max_rows = _cells(key, T * Q * L, weights)
    cell_tq, cm = np.divmod(cells, L)
    if T == 1:  # one task (the usual count table): no second division
        ct, cq, tm = np.zeros_like(cell_tq), cell_tq, cm
    else:
        ct, cq = np.divmod(cell_tq, Q)
        tm = ct * L + cm
    tm_keys, tm_inverse, tm_nq = _distinct(tm, T * L)
    tq = _distinct(cell_tq, T * Q, inverse=False)[0]
    union = np.bincount(tq // Q, minlength=T)
    gaps, missing_cells = [], 0
    for k, nq in zip(tm_keys, tm_nq):
        tk, mk = int(k // L), int(k % L)
        gap = int(union[tk] - nq)
        if gap:
            missing_cells += gap
            if len(gaps) < EXAMPLES:
                have = cq[tm == k]
                allq = tq[tq // Q == tk] % Q
                lacking = np.setdiff1d(allq, have)[:5]
                gaps.append(QuestionGap(str(tnames[tk]), str(mnames[mk]), int(nq), gap, tuple(str(qnames[i]) for i in lacking)))
    absent = np.ones(T * L, bool)  # (task, model) pairs without a row, of tasks and models that have rows elsewhere
    absent[tm_keys] = False
    absent = absent.reshape(T, L) & (np.bincount(tm_keys // L, minlength=T) > 0)[:, None] & (np.bincount(tm_keys % L, minlength=L) > 0)
    at_t, at_m = np.nonzero(absent)
    if max_rows > 1:
        dup = _duplicates(table, m, t, q, row_cell(), counts_layout, row_source, source_names, (mnames, tnames, qnames))
    else:  # one row per cell: no two rows can share a (cell, trial) key
        dup = (0, 0, 0, (), None)
    if dup[4] is not None and not counts_layout:  # a row repeating a (cell, trial) key is a duplicate, not a trial
        per_cell = per_cell - np.bincount(dup[4], minlength=per_cell.size)
    # trials per question: cells are sorted by key, so each task's cells are one run of ``ct``
    starts = np.flatnonzero(np.r_[True, ct[1:] != ct[:-1]]) if ct.size else np.zeros(0, dtype=np.int64)
    varying = set(ct[starts][np.minimum.reduceat(per_cell, starts) != np.maximum.reduceat(per_cell, starts)].tolist()) if ct.size else set()
    spreads = []
    if varying:
        lo = pd.Series(per_cell).groupby(tm_inverse).agg(["min", "max"])
    for tk in sorted(varying):
        rows = np.flatnonzero(tm_keys // L == tk)
        pairs = list(zip(lo["min"].to_numpy()[rows], lo["max"].to_numpy()[rows]))
        typical = max(sorted(set(pairs), reverse=True), key=pairs.count)  # most common; ties -> the larger
        for i, pair in zip(rows, pairs):
            if pair[0] != pair[1] or pair != typical:
                spreads.append(TrialSpread(str(tnames[tk]), str(mnames[int(tm_keys[i] % L)]), int(pair[0]), int(pair[1])))
    spreads = tuple(spreads[: EXAMPLES * 5])

    sat = _saturation(table, row_cell, cell_tq, counts_layout, (tnames, qnames, Q), T * Q, (row_tq, tq, weights))
    del row_tq, key, row_cell
    nb, nb_examples, missing, firsts = _outcome_gaps(table, counts_layout)
    blocking = blocking_messages(nb, missing, dup[0], dup[2], counts_layout=counts_layout)
    first_at = tuple(_row_place(table, row, row_source, source_names) if row is not None else "" for row in firsts)
    m_seen, t_seen = np.bincount(m, minlength=L) > 0, np.bincount(t, minlength=T) > 0
    # models lack questions others answered, or several files: '01' from one run and '1' from another?
    if missing_cells or row_source is not None and len(source_names) > 1:
        meta["notes"] = tuple(dict.fromkeys((*meta.get("notes", ()), *similar_ids_notes(table, row_source))))
    return QualityReport(
        layout=layout,
        n_rows=len(table),
        n_models=int(m_seen.sum()),
        n_tasks=int(t_seen.sum()),
        n_questions=len(tq),
        models=tuple(str(x) for x in mnames[m_seen]),
        tasks=tuple(str(x) for x in tnames[t_seen]),
        question_gaps=tuple(gaps),
        missing_cells=missing_cells,
        n_absent=int(at_t.size),
        absent=tuple((str(mnames[b]), str(tnames[a])) for a, b in zip(at_t[: EXAMPLES * 5], at_m[: EXAMPLES * 5])),
        unequal_trials=spreads,
        n_duplicate_rows=dup[0],
        n_duplicate_keys=dup[1],
        n_conflicting_keys=dup[2],
        duplicates=dup[3],
        n_all_correct=sat[0],
        n_all_wrong=sat[1],
        all_correct=sat[2],
        all_wrong=sat[3],
        n_non_binary=nb,
        non_binary_examples=nb_examples,
        n_missing_outcomes=missing,
        non_binary_at=first_at[0],
        missing_outcome_at=first_at[1],
        blocking=tuple(blocking),
        **meta,
    )


def _grid_report(table, m, t, q, names) -> dict | None:
    """The report's fields for a complete count table in canonical order, or None for the general path.

    A count table whose rows are sorted by (model, task, question) codes, where every model present has
    the same (task, question) cells, each once, and each task has one trial count (the common layout of
    an engine's count table), needs no cell keys: there are no gaps or duplicates, and per-question
    tallies are column sums of the (models, cells) grid. Same fields as the general path (tested).
    """
    mnames, tnames, qnames, Q = names
    n = m.size
    if n == 0:
        return None
    B = int(np.argmax(m != m[0])) or n  # rows of the first model
    if n % B:
        return None
    L = n // B
    heads = m[::B]
    tq = t[:B].astype(np.int64) * Q + q[:B]
    if (np.diff(heads) <= 0).any() or (np.diff(tq) <= 0).any():
        return None
    if not ((m.reshape(L, B) == heads[:, None]).all() and (t.reshape(L, B) == t[:B]).all()
            and (q.reshape(L, B) == q[:B]).all()):
        return None
    n_trials = table["n_trials"].to_numpy().reshape(L, B)
    t0 = t[:B]
    starts = np.flatnonzero(np.r_[True, t0[1:] != t0[:-1]])
    if (np.minimum.reduceat(n_trials.min(axis=0), starts) != np.maximum.reduceat(n_trials.max(axis=0), starts)).any():
        return None  # unequal trials within a task: the general path lists them
    n_q = n_trials.sum(axis=0)
    hits_q = table["n_correct"].to_numpy().reshape(L, B).sum(axis=0)
    right, wrong = tq[(n_q > 0) & (hits_q == n_q)], tq[(n_q > 0) & (hits_q == 0)]
    tasks = t0[starts]
    return dict(
        n_models=L, n_tasks=len(tasks), n_questions=B,
        models=tuple(str(x) for x in mnames[heads]), tasks=tuple(str(x) for x in tnames[tasks]),
        question_gaps=(), missing_cells=0, unequal_trials=(),
        n_duplicate_rows=0, n_duplicate_keys=0, n_conflicting_keys=0, duplicates=(),
        n_all_correct=len(right), n_all_wrong=len(wrong),
        all_correct=_question_labels(right, tnames, qnames, Q), all_wrong=_question_labels(wrong, tnames, qnames, Q),
        n_non_binary=0, non_binary_examples=(), n_missing_outcomes=0,
    )


def _question_labels(found, tnames, qnames, Q: int) -> tuple:
    """(task, question) names of the first examples among (task, question) keys ``t * Q + q``."""
    return tuple((str(tnames[int(k) // Q]), str(qnames[int(k) % Q])) for k in found[:EXAMPLES])


def _cells(key: np.ndarray, space: int, weights: np.ndarray | None):
    """Distinct cell keys, trials per cell, each row's cell index and the most rows in one cell (bincount when small).

    The row -> cell index comes as a function (computed on first call, then kept): a count table with one
    row per cell never needs it, and it costs three passes over a key-space array.
    """
    if space <= max(4 * key.size, 1 << 22):
        rows = np.bincount(key, minlength=space)
        per_key = np.bincount(key, weights=weights, minlength=space) if weights is not None else rows
        cells = np.flatnonzero(rows)
        max_rows = int(rows.max(initial=0))
        del rows
        kept: list[np.ndarray] = []

        def row_cell() -> np.ndarray:
            if not kept:
                lookup = np.full(space, -1, dtype=np.int64)
                lookup[cells] = np.arange(cells.size)
                kept.append(lookup[key])
            return kept[0]

        return cells, per_key[cells].astype(np.int64), row_cell, max_rows
    cells, inverse = np.unique(key, return_inverse=True)
    per = np.bincount(inverse, weights=weights, minlength=cells.size).astype(np.int64)
    return cells, per, lambda: inverse, int(np.bincount(inverse).max(initial=0))


def _small(space: int, size: int) -> bool:
    """Whether a key space is small enough for bincount tables (at most ~4 entries per key, or 4M)."""
    return space <= max(4 * size, 1 << 22)


def _distinct(key: np.ndarray, space: int, inverse: bool = True):
    """``np.unique(key, return_inverse=True, return_counts=True)`` for keys in ``[0, space)``; a bincount when small."""
    if not _small(space, key.size):
        return np.unique(key, return_inverse=True, return_counts=True) if inverse else (np.unique(key),)
    per = np.bincount(key, minlength=space)
    keys = np.flatnonzero(per)
    if not inverse:
        return (keys,)
    lookup = np.empty(space, dtype=np.int64)
    lookup[keys] = np.arange(keys.size)
    return keys, lookup[key], per[keys]


def _duplicates(table, m, t, q, row_cell, counts_layout, row_source, source_names, names):
    trial = np.full(len(m), -1, dtype=np.int64) if counts_layout else table["trial"].to_numpy(np.int64)
    lo, hi = (int(trial.min()), int(trial.max())) if trial.size else (0, 0)
    span = hi - lo + 1
    if int(row_cell.max(initial=0) + 1) * span < (1 << 62):
        dk = row_cell * span
        dk += trial
        dk -= lo
        space = int(row_cell.max(initial=0) + 1) * span
        if _small(space, dk.size):  # rows per key by bincount (no sort): a row is repeated iff its key has > 1 row
            per = np.bincount(dk, minlength=space)
            mask = per[dk] > 1 if per.max(initial=0) > 1 else np.zeros(dk.size, dtype=bool)
            del per
        else:
            ordered = np.sort(dk)
            repeated = np.unique(ordered[1:][ordered[1:] == ordered[:-1]])
            del ordered
            mask = np.isin(dk, repeated) if repeated.size else np.zeros(dk.size, dtype=bool)
        del dk
    else:
        mask = pd.DataFrame({"c": row_cell, "n": trial}).duplicated(keep=False).to_numpy()
    if not mask.any():
        return 0, 0, 0, (), None
    idx = np.flatnonzero(mask)
    sub = pd.DataFrame({"m": m[idx], "t": t[idx], "q": q[idx], "n": trial[idx]})
    cols = ["n_trials", "n_correct"] if counts_layout else [c for c in ("is_correct", "category") if c in table.columns]
    outcome = table[cols].iloc[idx].astype("float64").fillna(-1.0)
    group = sub.groupby(["m", "t", "q", "n"], sort=False).ngroup().to_numpy()
    n_keys = int(group.max()) + 1
    n_dup_rows = len(idx) - n_keys
    distinct = pd.concat([pd.Series(group, name="g"), outcome.reset_index(drop=True)], axis=1).drop_duplicates()
    conflicting = np.bincount(distinct["g"].to_numpy(), minlength=n_keys) > 1
    examples = []
    mnames, tnames, qnames = names
    order = np.argsort(~conflicting[group], kind="stable")  # conflicting keys first
    seen: set[int] = set()
    for j in order:
        g = int(group[j])
        if g in seen:
            continue
        seen.add(g)
        rows = idx[group == g]
        vals = tuple(_jsonable(tuple(r)) if len(cols) > 1 else _jsonable(r[0]) for r in table[cols].iloc[rows].to_numpy().tolist())
        srcs = tuple(source_names[int(s)] for s in row_source[rows]) if row_source is not None and source_names else ()
        r0 = rows[0]
        examples.append(DuplicateKey(str(mnames[m[r0]]), str(tnames[t[r0]]), str(qnames[q[r0]]), int(trial[r0]), len(rows), bool(conflicting[g]), vals, srcs))
        if len(examples) >= EXAMPLES:
            break
    extra = row_cell[idx[pd.Series(group).duplicated().to_numpy()]]  # cells of the rows beyond each key's first
    return n_dup_rows, n_keys, int(conflicting.sum()), tuple(examples), extra


def _exact_sums(*columns: np.ndarray) -> bool:
    """Integer columns whose float64 sums are exact in any order (every partial sum below 2**53)."""
    if any(c.dtype.kind not in "iub" for c in columns):
        return False
    bound = max((abs(int(f(c, initial=0))) for c in columns for f in (np.min, np.max)), default=0)
    return bound * max((c.size for c in columns), default=0) < 2**53


def _saturation(table, row_cell, cell_tq, counts_layout, names, space, rows=(None, None, None)):
    """Questions every attempt of every model gets right (wrong), from per-cell tallies.

    ``row_cell`` is a function returning each row's cell index (see :func:`_cells`).

    ``rows`` = (each row's (task, question) key, the distinct keys, n_trials as float64) lets a count
    table be tallied per question straight from its rows: the same integer sums, exact in any order.
    """
    tnames, qnames, Q = names
    n_cells = cell_tq.size
    row_tq, tq, n_trials = rows
    direct = counts_layout and row_tq is not None and _small(space, row_tq.size) \
        and _exact_sums(table["n_trials"].to_numpy(), table["n_correct"].to_numpy())
    if direct:
        keys = tq
        n_q = np.bincount(row_tq, weights=n_trials, minlength=space)[keys]
        hits_q = np.bincount(row_tq, weights=table["n_correct"].to_numpy(np.float64), minlength=space)[keys]
    elif counts_layout:
        n = np.bincount(row_cell(), weights=table["n_trials"].to_numpy(np.float64), minlength=n_cells)
        hits = np.bincount(row_cell(), weights=table["n_correct"].to_numpy(np.float64), minlength=n_cells)
    else:
        ic = table["is_correct"].to_numpy(np.float64)
        ok = ~np.isnan(ic)
        if not ok.any():
            return 0, 0, (), ()
        n = np.bincount(row_cell()[ok], minlength=n_cells).astype(np.float64)
        hits = np.bincount(row_cell()[ok], weights=ic[ok], minlength=n_cells)
    if direct:
        pass
    elif _small(space, cell_tq.size):  # the same per-bin additions in the same order as over the inverse below
        keys = np.flatnonzero(np.bincount(cell_tq, minlength=space))
        n_q = np.bincount(cell_tq, weights=n, minlength=space)[keys]
        hits_q = np.bincount(cell_tq, weights=hits, minlength=space)[keys]
    else:
        keys, inverse = np.unique(cell_tq, return_inverse=True)
        n_q = np.bincount(inverse, weights=n, minlength=keys.size)
        hits_q = np.bincount(inverse, weights=hits, minlength=keys.size)
    right = keys[(n_q > 0) & (hits_q == n_q)]
    wrong = keys[(n_q > 0) & (hits_q == 0)]

    return len(right), len(wrong), _question_labels(right, tnames, qnames, Q), _question_labels(wrong, tnames, qnames, Q)


def _outcome_gaps(table, counts_layout):
    if counts_layout:
        return 0, (), 0, (None, None)
    ic = table["is_correct"].to_numpy(np.float64)
    unknown = np.isnan(ic)
    if "category" in table.columns:
        unknown &= table["category"].isna().to_numpy()
    if not unknown.any():
        return 0, (), 0, (None, None)
    soft = graded_mask(table)  # a graded score decides nothing until a threshold (or a rubric) is chosen
    examples = tuple(float(v) for v in np.unique(pd.to_numeric(table["score"][soft]))[:EXAMPLES]) if soft.any() else ()
    hard = unknown & ~soft
    firsts = tuple(int(np.argmax(mask)) if mask.any() else None for mask in (soft, hard))
    return int(soft.sum()), examples, int(hard.sum()), firsts


def _row_place(table, row: int, row_source, source_names) -> str:
    """Where one attempt row is: its model, task, question, trial, score and source file (for an error message)."""
    rec = table.iloc[row]
    parts = [f"model {str(rec['model'])[:80]!r}", f"task {str(rec['task'])[:80]!r}",
             f"question {str(rec['question_id'])[:80]!r}"]
    if "trial" in table.columns and pd.notna(rec["trial"]):
        parts.append(f"trial {rec['trial']}")
    if "score" in table.columns and pd.notna(rec["score"]):
        parts.append(f"score {rec['score']}")
    if row_source is not None and source_names:
        parts.append(f"in {source_names[int(row_source[row])]}")
    return ", ".join(parts)

