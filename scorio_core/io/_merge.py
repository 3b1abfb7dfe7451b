"""Merge canonical tables from several sources into one (ids stay categorical)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from pandas.api.types import union_categoricals

from scorio_core.io._canonical import Part, natural_categories
from scorio_core.io._dataset import attempts_to_counts

__all__ = [
    "PER_MODEL_TASK", "PER_MODEL_WORDS", "join_per_model_files", "merge_parts", "per_model_files", "per_model_note", "per_model_task_name",
    "per_run_note", "separate_models_note",
]

_IDS = ("model", "task", "question_id")
PER_MODEL_TASK = "benchmark"
"""Task of per-model files without a task column whose stems share no prefix or suffix."""
PER_MODEL_WORDS = "the files hold different models answering the same questions, so they form one task"
"""The words of :func:`per_model_note`'s line, by which commands find it among a report's defaults."""
_STEM_TASK = re.compile(r": no task (?:column|array); task set to the file stem '")
_SEPARATORS = "_-. "


def merge_parts(parts: list[Part]) -> tuple[pd.DataFrame, str, np.ndarray, list[str]]:
    """Concatenate parts; attempt tables become counts when a count table is present.

    Per-model files without a task column first become one task (:func:`join_per_model_files`).

    Returns
    -------
    table : pandas.DataFrame
    layout : {"attempts", "counts"}
    row_source : numpy.ndarray of shape (n_rows,)
        Index of the part each row came from.
    notes : list of str

    Raises
    ------
    InputError
        If an attempt table must become counts but has non-binary or missing outcomes.
    """
    notes: list[str] = []
    if join_per_model_files(parts) is None:
        notes.extend(per_run_note(parts) + separate_models_note(parts))
    layouts = {p.layout for p in parts}
    if layouts == {"attempts", "counts"}:
        for p in parts:
            if p.layout == "attempts":
                p.table = attempts_to_counts(p.table, p.source)
                p.layout = "counts"
                notes.append(f"{p.source}: attempts tallied into counts to merge with the count table(s); trial order is dropped.")
    layout = parts[0].layout
    tables = [p.table for p in parts]
    row_source = np.repeat(np.arange(len(parts), dtype=np.int32), [len(t) for t in tables])
    if len(tables) == 1:
        table = tables[0]
    else:
        ids = {c: union_categoricals([t[c] for t in tables]) for c in _IDS}
        rest = pd.concat([t.drop(columns=list(_IDS)) for t in tables], ignore_index=True, sort=False)
        table = pd.concat([pd.DataFrame({c: pd.Series(v) for c, v in ids.items()}), rest], axis=1)
    for c in _IDS:
        table[c] = natural_categories(table[c])
    head = [c for c in ("model", "task", "question_id", "trial", "is_correct", "category", "n_trials", "n_correct") if c in table.columns]
    table = table[head + [c for c in table.columns if c not in head]]
    return table.reset_index(drop=True), layout, row_source, notes


def _observed(s: pd.Series) -> set[str]:
    """The identifiers a categorical column holds (unused categories left out)."""
    codes = s.cat.codes.to_numpy()
    used = np.flatnonzero(np.bincount(codes[codes >= 0], minlength=len(s.cat.categories)))
    return {str(c) for c in s.cat.categories[used]}


def _stem_default(p: Part) -> int | None:
    """Position of the part's "task set to the file stem" default (no task column), else None."""
    return next((i for i, d in enumerate(p.defaults) if d.startswith(f"{p.source}: ") and _STEM_TASK.search(d)), None)


def _common_end(stems: list[str], *, suffix: bool) -> str:
    """Longest common prefix (or suffix) of the stems that ends at a separator or a stem's end, separators trimmed."""
    texts = [s[::-1] for s in stems] if suffix else list(stems)
    n = 0
    while all(len(t) > n for t in texts) and len({t[n] for t in texts}) == 1:
        n += 1
    while n and not all(len(t) == n or t[n] in _SEPARATORS or t[n - 1] in _SEPARATORS for t in texts):
        n -= 1
    common = texts[0][:n][::-1] if suffix else texts[0][:n]
    return common.strip(_SEPARATORS)


def per_model_task_name(stems: list[str]) -> str:
    """Name of the one task of per-model files: the stems' common prefix or suffix, else ``benchmark``.

    The prefix and suffix end at a separator (``_``, ``-``, ``.``, space) or at a stem's end, so ``aime_gpt`` and
    ``aime_claude`` give ``aime`` and ``gpt4``, ``gpt35`` give none. The longer one wins; on a tie, the prefix.

    Examples
    --------
    >>> per_model_task_name(["aime_gpt", "aime_claude"]), per_model_task_name(["gpt", "claude"])
    ('aime', 'benchmark')
    """
    prefix, suffix = _common_end(stems, suffix=False), _common_end(stems, suffix=True)
    return (prefix if len(prefix) >= len(suffix) else suffix) or PER_MODEL_TASK


def per_model_files(models: list[set], questions: list[set]) -> bool:
    """Whether files without a task column are per-model files of one task (the rule of :func:`join_per_model_files`).

    Parameters
    ----------
    models, questions : list of set
        Each file's model names and question ids.

    Returns
    -------
    bool
        True for two or more files whose model sets are pairwise disjoint and of which every pair shares at least
        half of the smaller file's question ids.

    Examples
    --------
    >>> per_model_files([{"gpt"}, {"claude"}], [{"q1", "q2"}, {"q1", "q2", "q3"}])
    True
    >>> per_model_files([{"a", "b"}, {"a", "b"}], [{"q1"}, {"q1"}])  # per-task files: the same models
    False
    """
    if len(models) < 2:
        return False
    for i in range(len(models)):
        for j in range(i + 1, len(models)):
            if models[i] & models[j] or 2 * len(questions[i] & questions[j]) < min(len(questions[i]), len(questions[j])):
                return False
    return True


def per_model_note(names: list[str], task: str) -> str:
    """The report's one line for per-model files joined into ``task`` (shared with the DuckDB and Spark engines).

    >>> per_model_note(["gpt.csv", "claude.csv"], "benchmark")[:48]
    'gpt.csv, claude.csv: no task column; the files h'
    """
    files = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return f"{files}: no task column; {PER_MODEL_WORDS} '{task}' (add a task column to name it or to keep them apart)."


def join_per_model_files(parts: list[Part]) -> str | None:
    """Give per-model files without a task column one task instead of one task per file stem (in place).

    A file without a task column takes its stem as task: right for per-task files (``gsm8k.csv``, ``math.csv``,
    both holding the same models), wrong for per-model files (``gpt.csv``, ``claude.csv``) answering the same
    questions, which would become tasks of one model each. The parts whose task is their file stem (parts with a task
    column are left alone) form one task when there are two or more of them, their model sets (from a model column
    or, without one, the stem too) are pairwise disjoint, and every pair shares at least half of the smaller part's
    question ids. The task is named by :func:`per_model_task_name`; the per-file "task set to the file stem" defaults
    give way to one line naming the files. Otherwise nothing changes.

    Returns
    -------
    str or None
        The task name given, or None when the parts keep their stem tasks.
    """
    group = [(p, str(p.table["task"].cat.categories[0])) for p in parts if _stem_default(p) is not None and len(p.table)]
    if len(group) < 2:
        return None
    models = [_observed(p.table["model"]) for p, _ in group]
    questions = [_observed(p.table["question_id"]) for p, _ in group]
    if not per_model_files(models, questions):
        return None
    stems = [stem for _, stem in group]
    task = per_model_task_name(stems)
    line = per_model_note([p.source for p, _ in group], task)
    for k, (p, _) in enumerate(group):
        n = len(p.table)
        p.table["task"] = pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), categories=pd.Index([task], dtype=str))
        at = _stem_default(p)
        p.defaults[at:at + 1] = [line] if k == 0 else []
    return task


def per_run_note(parts: list[Part]) -> list[str]:
    """A note for files without a task column that hold the same models answering the same questions (one line).

    Each such file takes its stem as task (``run1``, ``run2``), which is right for per-task files and wrong for files
    that are separate runs of one benchmark: those would be ranked as separate tasks of N trials each instead of one
    task of their total. The loader cannot tell the two apart (question ids such as 1..30 repeat across benchmarks), so
    it keeps the stem tasks and says what to do if they are runs.

    >>> import pandas as pd
    >>> def part(name):
    ...     t = pd.DataFrame({"model": pd.Categorical(["m"]), "task": pd.Categorical([name]),
    ...                       "question_id": pd.Categorical(["q1"])})
    ...     return Part(f"{name}.csv", "csv", "attempts", t, {}, defaults=[f"{name}.csv: no task column; task set to the file stem '{name}'."])
    >>> per_run_note([part("run1"), part("run2")])[0][:64]
    'run1.csv, run2.csv: no task column, and the files hold the same '
    """
    group = [p for p in parts if _stem_default(p) is not None and len(p.table)]
    if len(group) < 2:
        return []
    keys: dict[tuple, list[str]] = {}
    for p in group:
        key = (frozenset(_observed(p.table["model"])), frozenset(_observed(p.table["question_id"])))
        keys.setdefault(key, []).append(p.source)
    runs = max(keys.values(), key=len)
    if len(runs) < 2:
        return []
    files = ", ".join(runs[:3]) + (f" and {len(runs) - 3} more" if len(runs) > 3 else "")
    return [f"{files}: no task column, and the files hold the same models answering the same questions, so each is "
            "read as a task of its own (its file stem). If they are separate runs of one benchmark, give them one task "
            "(a task column, or one folder loaded with --map task=@folder) and read the repeated rows as further "
            "trials (--duplicates as-trials)."]


def separate_models_note(parts: list[Part]) -> list[str]:
    """A note for files without a task column that hold different models but too few common questions to be joined
    into one task (:func:`per_model_files`): each is then a task of its own, so no two of their models are ranked
    together; the note says so and how to join them (one line).

    >>> import pandas as pd
    >>> def part(name, q):
    ...     t = pd.DataFrame({"model": pd.Categorical([name]), "task": pd.Categorical([name]),
    ...                       "question_id": pd.Categorical([q])})
    ...     return Part(f"{name}.csv", "csv", "attempts", t, {}, defaults=[f"{name}.csv: no task column; task set to the file stem '{name}'."])
    >>> separate_models_note([part("gpt", "q1"), part("claude", "q2")])[0][:60]
    'gpt.csv, claude.csv: no task column; the files hold differen'
    """
    group = [p for p in parts if _stem_default(p) is not None and len(p.table)]
    if len(group) < 2:
        return []
    models = [_observed(p.table["model"]) for p in group]
    if len(set().union(*models)) != sum(len(m) for m in models):  # some model in two files: per-task files
        return []
    files = ", ".join(p.source for p in group[:3]) + (f" and {len(group) - 3} more" if len(group) > 3 else "")
    return [f"{files}: no task column; the files hold different models but share few questions (less than half of "
            "the smaller file's for some pair), so each is read as a task of its own and no two of these models are "
            "ranked together. If they are one benchmark, give them one task (a task column, or one folder loaded with "
            "--map task=@folder); the leaderboard then says where models answered different questions."]
