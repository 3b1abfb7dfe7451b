"""The data-quality report's types: what a load found (question gaps, trial spreads, duplicates) and what blocks it;
and the notes on model names and question ids written two ways (kept apart, as written).

Computed by :func:`scorio_core.io._quality.compute_report` (pandas loaders and every SQL engine).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ADVICE", "DUPLICATES_FINDING", "EXAMPLES", "DuplicateKey", "QualityReport", "QuestionGap", "TrialSpread", "blocking_finding",
           "blocking_messages", "near_duplicate_models", "near_duplicate_names", "similar_ids_notes", "similar_ids_sentence", "similar_question_ids"]

EXAMPLES = 20  # entries kept per list in the report (totals are always exact)

#: Where a :func:`blocking_messages` message turns from the finding to the advice for scripts (API call, CLI flag).
ADVICE = "; choose "
#: What marks :func:`blocking_messages`' duplicates message (singular or plural).
DUPLICATES_FINDING = re.compile(r"\bduplicate rows? shares? a \(")


class QuestionGap(NamedTuple):
    """A model that lacks questions other models of the same task answered."""

    task: str
    model: str
    n_questions: int
    n_missing: int
    missing_examples: tuple[str, ...]


class TrialSpread(NamedTuple):
    """Trials per question of one model on one task, when trial counts are unequal."""

    task: str
    model: str
    min_trials: int
    max_trials: int


class DuplicateKey(NamedTuple):
    """Rows sharing one (model, task, question_id, trial) key (trial is -1 for counts)."""

    model: str
    task: str
    question_id: str
    trial: int
    n_rows: int
    conflicting: bool
    outcomes: tuple
    sources: tuple[str, ...]


def _jsonable(value):
    if hasattr(value, "_asdict"):
        return {k: _jsonable(v) for k, v in value._asdict().items()}
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not np.isfinite(value):
        return None
    return value


@dataclass(frozen=True)
class QualityReport:
    """What a load found in the data, and which choices the user made.

    Every count is exact; lists of examples hold at most 20 entries. ``blocking`` lists the
    issues a metric cannot proceed with until the user chooses (see
    :func:`scorio_core.io.apply_choices`); everything else is informational.

    Attributes
    ----------
    layout : {"attempts", "counts"}
    n_rows, n_models, n_tasks, n_questions : int
        Rows of the table; distinct models, tasks and (task, question) pairs.
    models, tasks : tuple of str
    sources : tuple of (name, format)
    mappings : tuple of (source, ((canonical, column), ...))
        Column mapping used per source (``<default>`` entries are listed in ``defaults``).
    defaults : tuple of str
        Values the loader supplied (task or model from the file stem, trial numbering).
    notes : tuple of str
        Informational notes from readers (transcoding, ignored fields, log status ...).
    question_gaps : tuple of QuestionGap
        Models whose question set is smaller than the union for their task.
    missing_cells : int
        (model, task, question) cells with no attempt, over all question gaps.
    n_absent : int
        (model, task) pairs without any row, of a model with rows on other tasks (it is not ranked on that task).
    absent : tuple of (model, task)
        The first of them (at most 100).
    unequal_trials : tuple of TrialSpread
        In tasks where trials per question vary: every (task, model) whose trial range is
        not constant or differs from the task's most common range (at most 100 entries).
        Attempt tables count distinct trials: a row repeating a (model, task, question, trial)
        key is a duplicate (``n_duplicate_rows``), not another trial.
    n_duplicate_rows, n_duplicate_keys, n_conflicting_keys : int
        Extra rows beyond the first per key, keys with more than one row, and keys whose
        rows disagree on the outcome.
    duplicates : tuple of DuplicateKey
    n_all_correct, n_all_wrong : int
        Questions that every attempt of every model gets right (wrong).
    all_correct, all_wrong : tuple of (task, question_id)
    n_non_binary : int
        Attempts whose outcome is strictly between 0 and 1 (value kept in ``score``).
    non_binary_examples : tuple of float
    n_missing_outcomes : int
        Attempts with no outcome at all.
    non_binary_at, missing_outcome_at : str
        Where the first such attempt is (model, task, question, trial, score, file), for error
        messages; empty when there is none.
    choices : tuple of str
        User choices applied, in order (``apply_choices``).
    emptied : tuple of (model, task, choice)
        (model, task) pairs left without rows by the choices (not ranked there); ``choice``: the one removing the last.
    blocking : tuple of str
        Issues that need a choice before metrics are computed.
    reading : str
        JSON of :func:`scorio_core.report.reading.reading_record`: the files' reading on the user's word ("": as found).
    """

    layout: str
    n_rows: int
    n_models: int
    n_tasks: int
    n_questions: int
    models: tuple[str, ...]
    tasks: tuple[str, ...]
    sources: tuple[tuple[str, str], ...] = ()
    mappings: tuple = ()
    defaults: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    question_gaps: tuple[QuestionGap, ...] = ()
    missing_cells: int = 0
    n_absent: int = 0
    absent: tuple[tuple[str, str], ...] = ()
    unequal_trials: tuple[TrialSpread, ...] = ()
    n_duplicate_rows: int = 0
    n_duplicate_keys: int = 0
    n_conflicting_keys: int = 0
    duplicates: tuple[DuplicateKey, ...] = ()
    n_all_correct: int = 0
    n_all_wrong: int = 0
    all_correct: tuple[tuple[str, str], ...] = ()
    all_wrong: tuple[tuple[str, str], ...] = ()
    n_non_binary: int = 0
    non_binary_examples: tuple[float, ...] = ()
    n_missing_outcomes: int = 0
    non_binary_at: str = ""
    missing_outcome_at: str = ""
    choices: tuple[str, ...] = ()
    emptied: tuple[tuple[str, str, str], ...] = ()
    blocking: tuple[str, ...] = ()
    reading: str = ""

    @property
    def ok(self) -> bool:
        """True when nothing blocks metric computation."""
        return not self.blocking

    def to_dict(self) -> dict:
        """JSON-serializable dict (NamedTuples become objects, tuples become lists)."""
        out = {f.name: _jsonable(getattr(self, f.name)) for f in fields(self)}
        out["mappings"] = [{"source": s, "mapping": dict(m)} for s, m in self.mappings]
        out["sources"] = [{"name": n, "format": f} for n, f in self.sources]
        out["all_correct"] = [{"task": t, "question_id": q} for t, q in self.all_correct]
        out["all_wrong"] = [{"task": t, "question_id": q} for t, q in self.all_wrong]
        out["emptied"] = [{"model": m, "task": t, "choice": c} for m, t, c in self.emptied]
        out["absent"] = [{"model": m, "task": t} for m, t in self.absent]
        return out

    def emptied_models(self, task: str | None = None) -> dict[str, str]:
        """Models whose every row of ``task`` a data-quality choice removed, mapped to that choice (:attr:`emptied`).

        ``task=None``: models with no row left on any task (those missing from a leaderboard of all tasks pooled).
        """
        if task is None:
            return {m: c for m, _, c in self.emptied if m not in self.models}
        return {m: c for m, t, c in self.emptied if t == str(task)}


def blocking_messages(non_binary: int, missing: int, duplicate_rows: int, conflicting_keys: int, *,
                      counts_layout: bool = False) -> list[str]:
    """The choices data needs before it can be scored, one message each (shared by the report and the engines).

    Parameters
    ----------
    non_binary, missing : int
        Attempts with an outcome strictly between 0 and 1, and attempts without an outcome.
    duplicate_rows, conflicting_keys : int
        Rows beyond the first of a repeated (model, task, question[, trial]) key, and repeated keys
        whose rows disagree.
    counts_layout : bool
        Count tables: keys have no trial and ``'sum'`` is a further policy.

    Examples
    --------
    >>> blocking_messages(0, 2, 0, 0)
    ["2 attempts have no outcome; choose --missing-outcomes drop or --missing-outcomes incorrect (Python: apply_choices(missing_outcomes='drop' or 'incorrect'))."]
    """
    out = []
    if non_binary:
        out.append(
            f"{non_binary} {'attempt has' if non_binary == 1 else 'attempts have'} a non-binary outcome (strictly between 0 and 1: a graded score or partial "
            f"credit){ADVICE}a threshold: --binarize-threshold 0.5 (correct iff score > threshold; Python: "
            "apply_choices(binarize_threshold=0.5)). If each value is a question's mean over its trials (0.6 = 3 of 5), "
            "give the counts instead: n_trials and n_correct columns."
        )
    if missing:
        out.append(
            f"{missing} {'attempt has' if missing == 1 else 'attempts have'} no outcome{ADVICE}--missing-outcomes drop or "
            "--missing-outcomes incorrect (Python: apply_choices(missing_outcomes='drop' or 'incorrect'))."
        )
    if duplicate_rows:
        policies = "keep-first, keep-last, drop" + (" or sum" if counts_layout else " or as-trials (every row an attempt: files that are separate runs)")
        conflicts = ("no key conflicts: the repeated rows agree" if not conflicting_keys else
                     f"{conflicting_keys} {'key conflicts' if conflicting_keys == 1 else 'keys conflict'}")
        out.append(
            f"{duplicate_rows} {'duplicate row shares' if duplicate_rows == 1 else 'duplicate rows share'} a (model, task, "
            f"question{', trial' if not counts_layout else ''}) key with an earlier row ({conflicts}){ADVICE}"
            f"--duplicates with one of {policies} (--duplicates keep-first, say; Python: "
            "apply_choices(duplicates='keep-first'))."
        )
    return out


def with_duplicate_example(message: str, key: DuplicateKey | None, counts_layout: bool = False) -> str:
    """A :func:`blocking_messages` message with one repeated key named, if it is the duplicates message.

    ``report.blocking`` stays the count-only text every engine gives; an error a person reads (e.g.
    :meth:`scorio_core.io.Dataset.require_ready`) names one key (``report.duplicates[0]``: a conflicting one first) and
    the files its rows came from, so it can be found in the dump.

    >>> key = DuplicateKey("m", "t", "q1", 0, 2, False, (1.0, 1.0), ("a.json", "a.eval"))
    >>> blocking_finding(with_duplicate_example(blocking_messages(0, 0, 1, 0)[0], key))
    '1 duplicate row shares a (model, task, question, trial) key with an earlier row (no key conflicts: the repeated rows agree; e.g. m / t / q1 / trial 0: 2 rows from a.json and a.eval)'
    """
    if key is None or not DUPLICATES_FINDING.search(message) or ")" + ADVICE not in message:
        return message
    files = list(dict.fromkeys(str(f) for f in key.sources))
    where = (" from " + (" and ".join(files) if len(files) <= 2 else ", ".join(files[:2]) + f" and {len(files) - 2} more")
             if files else "")
    trial = "" if counts_layout or key.trial < 0 else f" / trial {key.trial}"
    example = f"; e.g. {key.model} / {key.task} / {key.question_id}{trial}: {key.n_rows} rows{where}"
    return message.replace(")" + ADVICE, example + ")" + ADVICE, 1)


def blocking_finding(message: str) -> str:
    """What a :func:`blocking_messages` message found, without its advice to scripts (the text before :data:`ADVICE`).

    An interface where the choice is made otherwise (the app's Data page) adds its own advice.

    >>> blocking_finding(blocking_messages(0, 2, 0, 0)[0])
    '2 attempts have no outcome'
    """
    text = str(message)
    cut = text.find(ADVICE)
    return text[:cut] if cut >= 0 else text.rstrip(".")


def _name_key(names: "pd.Series") -> "pd.Series":
    """Names (a str Series) with letter case and surrounding or repeated spaces taken away."""
    return names.str.strip().str.casefold().str.replace(r"\s+", " ", regex=True)


def _id_key(ids) -> "pd.Series":
    """Question ids with letter case, surrounding and repeated spaces, leading zeros of a number and a trailing
    ``.0`` taken away (``" Q007 "`` -> ``"q7"``, ``"12.0"`` -> ``"12"``): what two runs of one benchmark differ in."""
    import pandas as pd

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
    key = _id_key(questions)
    idx = np.flatnonzero(key.duplicated(keep=False).to_numpy())
    if idx.size == 0:
        return []
    codes = key.iloc[idx].factorize()[0]
    order = np.argsort(codes, kind="stable")
    cols, codes = idx[order], codes[order]
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    per_model = np.add.reduceat(np.asarray(answered, bool)[:, cols].astype(np.int32), starts, axis=1)  # (L, groups)
    apart = per_model.max(axis=0, initial=0) <= 1
    names = [str(q) for q in questions]
    firsts = np.argsort(cols[starts], kind="stable")  # groups in the order of their first id
    split = np.split(cols, starts[1:])
    return [tuple(names[c] for c in split[g]) for g in firsts if apart[g]]


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


def similar_ids_notes(table) -> list[str]:
    """The load's notes on question ids written two ways (:func:`similar_question_ids`, per task), or none.

    ``table``: the loaded attempts or counts (categorical ``model``, ``task``, ``question_id``). Only rows whose id
    shares its key with another id are looked at, so a table without such ids costs one pass over its id categories.
    """
    ids = table["question_id"]
    clash = _id_key(ids.cat.categories).duplicated(keep=False).to_numpy()
    if not clash.any():
        return []
    cells = table.loc[clash[ids.cat.codes.to_numpy()], ["task", "question_id", "model"]].drop_duplicates()
    notes = []
    for task, part in cells.groupby("task", observed=True, sort=False):
        q = part["question_id"].cat.remove_unused_categories()
        m = part["model"].cat.remove_unused_categories()
        answered = np.zeros((len(m.cat.categories), len(q.cat.categories)), bool)
        answered[m.cat.codes.to_numpy(), q.cat.codes.to_numpy()] = True
        if said := similar_ids_sentence(similar_question_ids(list(map(str, q.cat.categories)), answered)):
            notes.append(said if len(table["task"].cat.categories) == 1 else f"Task {task}: {said}")
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
    import pandas as pd

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
