"""The data-quality report's types: what a load found (question gaps, trial spreads, duplicates) and what blocks it.
The notes on model names and question ids written two ways are :mod:`scorio_core.io._merge`'s.

Computed by :func:`scorio_core.io.quality.compute.compute_report` (pandas loaders and every SQL engine).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import NamedTuple

import numpy as np
import pandas as pd

__all__ = ["ADVICE", "DUPLICATES_FINDING", "EXAMPLES", "DuplicateKey", "QualityReport", "QuestionGap", "TrialSpread", "blocking_finding",
           "blocking_messages", "graded_mask", "partial_credit_message", "PARTIAL_CREDIT_WORDS"]

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
        Attempts graded by a score (no 0/1 outcome: :func:`scorio_core.io.quality.report.graded_mask`), and attempts without an outcome.
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
            f"{non_binary} {'attempt has' if non_binary == 1 else 'attempts have'} a non-binary outcome (a graded score or partial credit, "
            f"and no 0/1 outcome){ADVICE}a threshold: --binarize-threshold 0.5 (correct iff score > threshold; Python: "
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


def graded_mask(table) -> np.ndarray:
    """(n_rows,) bool: attempts graded by a score: no 0/1 ``is_correct`` (nor category code) and a ``score`` strictly
    between 0 and 1, or 0 or 1 in a task of such attempts that has no 0/1 outcome at all (the scale's ends). A blank
    outcome beside a 0/1 score among 0/1 outcomes (tau-bench's reward as score) is missing (QA: a threshold filled it).

    >>> graded_mask(pd.DataFrame({"task": list("aabb"), "is_correct": [1, None, None, None], "score": [1, 0, .5, 0]}))
    array([False, False,  True,  True])
    """
    if "score" not in table.columns or "is_correct" not in table.columns:
        return np.zeros(len(table), dtype=bool)
    unknown = np.isnan(table["is_correct"].to_numpy(np.float64))
    if "category" in table.columns:
        unknown &= table["category"].isna().to_numpy()
    score = pd.to_numeric(table["score"], errors="coerce").to_numpy(np.float64)
    scored = unknown & ~np.isnan(score)
    soft = scored & (score != 0.0) & (score != 1.0)
    if not soft.any() or "task" not in table.columns or (soft == scored).all():
        return soft
    task = pd.factorize(table["task"])[0]
    ends = (np.bincount(task[soft], minlength=task.max() + 1) > 0) & (np.bincount(task[~unknown], minlength=task.max() + 1) == 0)
    return soft | scored & ends[task]


#: Words of :func:`partial_credit_message` (a threshold that sets correctness from the score makes the note stale).
PARTIAL_CREDIT_WORDS = "have a partial score strictly between 0 and 1 in"


def partial_credit_message(source: str, k: int, n: int, wrong: int, score_col: str, outcome_col: str) -> str:
    """The partial-credit load note (every engine words it so): ``k`` of ``n`` attempts score strictly between 0 and 1
    in ``score_col``, ``wrong`` of them 0 in the outcome column ``outcome_col``."""
    return (f"{source}: {k:,} attempts ({k / n:.0%}) {PARTIAL_CREDIT_WORDS} '{score_col}', while"
            f" correctness is read from '{outcome_col}' (0/1), which counts {wrong:,} of them incorrect. To count partial "
            "credit, rank on a rubric of the score (Rubric page; CLI --schema) or set correctness from it "
            "(--binarize-threshold T: correct when score > T).")
