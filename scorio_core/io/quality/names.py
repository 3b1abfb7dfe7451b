"""Model and task names, and question ids, written two ways (letter case, spaces, leading zeros, a trailing ``.0``).

Two runs of one benchmark often write the same id differently (``"007"`` and ``"7"``), two harnesses the same model
(``"gpt-4o"`` and ``"GPT-4o "``). The loaders keep every name and id as written; these notes say where two of them
likely mean one thing, and how to make them equal (computed by :func:`scorio_core.io.quality.compute.compute_report`
for every engine, and by the leaderboard's question-set notice).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["ids_split_by_file", "near_duplicate_models", "near_duplicate_names", "similar_ids_notes",
           "similar_ids_sentence", "similar_question_ids", "split_ids_sentence", "WRITTEN_TWO_WAYS"]

#: Words of every note here (engines' loader notes keep them: :func:`scorio_core.report.notes.loader_notes`).
WRITTEN_TWO_WAYS = "differ only in letter case"


def _name_key(names: pd.Series) -> pd.Series:
    """Names (a str Series) with letter case and surrounding or repeated spaces taken away."""
    return names.str.strip().str.casefold().str.replace(r"\s+", " ", regex=True)


def _id_key(ids) -> pd.Series:
    """Question ids with letter case, surrounding and repeated spaces, leading zeros of a number and a trailing
    ``.0`` taken away (``" Q007 "`` -> ``"q7"``, ``"12.0"`` -> ``"12"``): what two runs of one benchmark differ in."""
    key = _name_key(pd.Series(ids, dtype=object).astype(str))
    key = key.str.replace(r"(?<=\d)\.0+$", "", regex=True)  # 12.0: an integer id column read back as floats
    return key.str.replace(r"(?<![\d.])0+(?=\d)", "", regex=True)  # q007 -> q7 (not the 05 of 1.05)


def similar_question_ids(questions, answered: np.ndarray) -> list[tuple[str, ...]]:
    """Groups of question ids that differ only in case, spaces, leading zeros or a trailing ``.0``, no model
    answering two of a group: likely one question written two ways by two runs (kept apart, as written).

    Parameters
    ----------
    questions : sequence of str, length M
        Question ids of one task (``task/id`` where tasks are pooled).
    answered : ndarray of bool, shape (L, M)
        Whether each model answered each question.

    Returns
    -------
    list of tuple of str
        Each group's ids in the order of ``questions``; empty when none (``"01"`` and ``"1"`` answered by the same
        model are two questions to that run and are not listed).

    >>> similar_question_ids(["01", "1", "Q2", "q2", "3", "03"], np.array([[1, 0, 1, 0, 1, 1], [0, 1, 0, 1, 0, 0]], bool))
    [('01', '1'), ('Q2', 'q2')]
    """
    return [group for group, apart in _id_groups(questions, answered) if apart]


def ids_split_by_file(questions, answered: np.ndarray, filed: np.ndarray) -> list[tuple[str, ...]]:
    """Groups of question ids written two ways that each file writes one way, while some model answered two of them:
    likely runs (files) that wrote one question differently, its trials split between two questions.

    Parameters
    ----------
    questions : sequence of str, length M
    answered : ndarray of bool, shape (L, M)
        Whether each model answered each question.
    filed : ndarray of bool, shape (F, M)
        Whether each source file holds each question.

    Returns
    -------
    list of tuple of str
        The groups :func:`similar_question_ids` leaves out (a model answered two ids of the group) where no file
        holds two ids of it.

    >>> ids_split_by_file(["7", "007", "8"], np.ones((2, 3), bool), np.array([[1, 0, 1], [0, 1, 1]], bool))
    [('7', '007')]
    """
    by_model, by_file = _id_groups(questions, answered), _id_groups(questions, filed)
    return [group for (group, apart), (_, one_way) in zip(by_model, by_file) if one_way and not apart]


def _id_groups(questions, held: np.ndarray) -> list[tuple[tuple[str, ...], bool]]:
    """Each group of ids with one :func:`_id_key` (in the order of its first id), and whether no row of ``held``
    (holders x ids) holds two ids of it."""
    key = _id_key(questions)
    idx = np.flatnonzero(key.duplicated(keep=False).to_numpy())
    if idx.size == 0:
        return []
    codes = key.iloc[idx].factorize()[0]
    order = np.argsort(codes, kind="stable")
    cols, codes = idx[order], codes[order]
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    per_row = np.add.reduceat(np.asarray(held, bool)[:, cols].astype(np.int32), starts, axis=1)  # (rows, groups)
    apart = per_row.max(axis=0, initial=0) <= 1
    names = [str(q) for q in questions]
    firsts = np.argsort(cols[starts], kind="stable")  # groups in the order of their first id
    split = np.split(cols, starts[1:])
    return [(tuple(names[c] for c in split[g]), bool(apart[g])) for g in firsts]


def similar_ids_sentence(groups: list[tuple[str, ...]]) -> str:
    """One sentence naming :func:`similar_question_ids`' groups and what to do, or ``""`` without any.

    >>> similar_ids_sentence([("01", "1")])
    "The question ids '01' and '1' differ only in letter case, spaces, leading zeros or a trailing '.0', and no model answered both: if they are one question, write its id the same way in every file (ids are kept as written)."
    >>> similar_ids_sentence([("Q1", "q1", "q01"), ("2", "02"), ("3", "03"), ("4", "04")])[:95]
    "4 sets of question ids differ only in letter case, spaces, leading zeros or a trailing '.0', no"
    """
    if not groups:
        return ""
    how = "differ only in letter case, spaces, leading zeros or a trailing '.0'"
    fix = "write its id the same way in every file (ids are kept as written)."
    if len(groups) == 1:
        return (f"The question ids {' and '.join(repr(q) for q in groups[0])} {how}, and no model answered "
                f"{'both' if len(groups[0]) == 2 else 'two of them'}: if they are one question, {fix}")
    shown = "; ".join(" and ".join(repr(q) for q in g) for g in groups[:3]) + (
        f"; and {len(groups) - 3:,} more" if len(groups) > 3 else "")
    return (f"{len(groups):,} sets of question ids {how}, no model answering two of a set ({shown}): if each set is "
            f"one question, {fix}")


def split_ids_sentence(groups: list[tuple[str, ...]]) -> str:
    """One sentence naming :func:`ids_split_by_file`'s groups and what to do, or ``""`` without any.

    >>> split_ids_sentence([("7", "007")])[:118]
    "The question ids '7' and '007' differ only in letter case, spaces, leading zeros or a trailing '.0', and each file wri"
    """
    if not groups:
        return ""
    shown = "; ".join(" and ".join(repr(q) for q in g) for g in groups[:3]) + (
        f"; and {len(groups) - 3:,} more" if len(groups) > 3 else "")
    one = len(groups) == 1
    return (f"{'The question ids ' + shown if one else f'{len(groups):,} sets of question ids ({shown})'} differ only "
            "in letter case, spaces, leading zeros or a trailing '.0', and each file writes "
            f"{'only one of them' if one else 'one id of a set'}, while models answered {'both' if one else 'several'}: "
            f"each id is scored as its own question with its file's trials. If {'they are' if one else 'each set is'} "
            "one question, write its id the same way in every file (ids are kept as written).")


def similar_ids_notes(table, row_source: np.ndarray | None = None) -> list[str]:
    """The load's notes on question ids written two ways (:func:`similar_question_ids` and, with ``row_source``,
    :func:`ids_split_by_file`, per task), or none.

    ``table``: the loaded attempts or counts (categorical ``model``, ``task``, ``question_id``); ``row_source``
    (n_rows,) int: each row's source file. Only rows whose id shares its key with another id are looked at, so a
    table without such ids costs one pass over its id categories.
    """
    ids = table["question_id"]
    clash = _id_key(ids.cat.categories).duplicated(keep=False).to_numpy()
    if not clash.any():
        return []
    rows = clash[ids.cat.codes.to_numpy()]
    cells = table.loc[rows, ["task", "question_id", "model"]]
    if row_source is not None:
        cells = cells.assign(__source=np.asarray(row_source)[rows])
    cells = cells.drop_duplicates()
    notes = []
    for task, part in cells.groupby("task", observed=True, sort=False):
        q = part["question_id"].cat.remove_unused_categories()
        m = part["model"].cat.remove_unused_categories()
        answered = np.zeros((len(m.cat.categories), len(q.cat.categories)), bool)
        answered[m.cat.codes.to_numpy(), q.cat.codes.to_numpy()] = True
        names = list(map(str, q.cat.categories))
        said = [similar_ids_sentence(similar_question_ids(names, answered))]
        if row_source is not None:
            source = part["__source"].to_numpy()
            filed = np.zeros((int(source.max()) + 1, len(names)), bool)
            filed[source, q.cat.codes.to_numpy()] = True
            said.append(split_ids_sentence(ids_split_by_file(names, answered, filed)))
        notes += [s if len(table["task"].cat.categories) == 1 else f"Task {task}: {s}" for s in said if s]
    return notes


def near_duplicate_models(models) -> list[str]:
    """A note naming model names that differ only in letter case or spaces (kept as different models), or none.

    ``" gpt-4o"``, ``"GPT-4o"`` and ``"gpt-4o "`` are three models to the loader, as they are in the data; a reader
    of a leaderboard that shows ``gpt-4o`` twice must learn why. Names are shown with ``repr`` so the spaces show.

    >>> near_duplicate_models(["a", "A ", "b"])
    ["Model names that differ only in letter case or spaces are kept as different models: 'a', 'A '. If they are one model, make the names equal in the dump (e.g. pandas: df['model'] = df['model'].str.strip()); if they are different models, names that differ in more than case and spaces avoid confusing readers."]
    """
    return near_duplicate_names(models, "model")


def near_duplicate_names(names, what: str = "model") -> list[str]:
    """:func:`near_duplicate_models` for the names of the ``what`` column (``"model"`` or ``"task"``).

    ``"GSM8K"`` from one harness and ``"gsm8k"`` from another are two tasks, each with half the models.

    >>> near_duplicate_names(["GSM8K", "gsm8k", "math"], "task")[0][:99]
    "Task names that differ only in letter case or spaces are kept as different tasks: 'GSM8K', 'gsm8k'."
    """
    names = pd.Series(pd.unique(pd.Series(names, dtype=object).dropna().astype(str)), dtype=object)
    if names.size < 2:
        return []
    key = _name_key(names)
    clash = names[key.duplicated(keep=False)]
    if clash.empty:
        return []
    groups = [", ".join(repr(n) for n in group) for _, group in clash.groupby(key[clash.index], sort=False)]
    shown = "; ".join(groups[:5]) + (f"; and {len(groups) - 5:,} more groups" if len(groups) > 5 else "")
    return [f"{what.capitalize()} names that differ only in letter case or spaces are kept as different {what}s: {shown}. "
            f"If they are one {what}, make the names equal in the dump (e.g. pandas: df['{what}'] = df['{what}'].str.strip()); "
            f"if they are different {what}s, names that differ in more than case and spaces avoid confusing readers."]
